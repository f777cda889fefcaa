"""The differential suite's PLM cases without ns-2: the multicast Tcl the generator writes (ns-2's
own PLM on the case's tree, DRR queues, dense-mode routing), the parsing of ns-2's receiver
logs, the PLM metrics, and the whole comparison fed recorded ns-2 outputs (tests/data/validate,
written by ns-2 2.35 from the generated scripts of plm-drr-tcp1 and plm-fifo-tcp1)."""

from __future__ import annotations

import dataclasses
from functools import cache
from pathlib import Path

import pytest

from vidcc.validate import cases, compare, layout, metrics, ns2, suite, tcl

DATA = Path(__file__).parent / "data" / "validate"


@cache
def plm_layout(name: str = "plm-drr-tcp1") -> layout.Layout:
    import vidcc

    case = cases.find([name])[0]
    run = vidcc.run(case.scenario)
    return layout.from_run(case.name, case.bottleneck, run.resolved, run.tables)


def with_plm(lay: layout.Layout, **params) -> layout.Layout:
    s = lay.sessions[0]
    return dataclasses.replace(lay, sessions=[dataclasses.replace(s, params={**s.params, **params})])


# --- the layout and the generator -------------------------------------------------------------

def test_the_layout_has_the_session_its_receiver_and_the_drr_queue():
    lay = plm_layout()
    assert [f.protocol for f in lay.flows] == ["tcp-newreno"]  # the multicast flow is not a unicast flow
    (s,) = lay.sessions
    assert (s.protocol, s.src, s.packet_size, s.header_bytes) == ("plm", "a0", 1000, 8)
    assert s.join_latency_ns == s.leave_latency_ns == 22_000_000
    assert [(r.index, r.node, r.start_ns, r.fair_share_bps) for r in s.receivers] == [(0, "b0.0", 0, 525_000.0)]
    q = lay.link("L->R").queue
    assert (q.kind, q.limit_bytes, dict(q.drr)) == ("drr", 25_000, {"quantum": 250, "buckets": 10, "mask": False})


def test_tcl_of_a_plm_case_runs_ns2s_own_plm_on_the_same_tree():
    text = tcl.generate(plm_layout())
    assert "set ns [new Simulator -multicast on]" in text
    # DRR with vidcc's parameters (ns-2's defaults), in both directions of the bottleneck
    assert text.count("$ns simplex-link $node(L) $node(R) 1050000 0.02 DRR") == 1
    assert text.count("$q set blimit_ 25000") == 2 and "$q set quantum_ 250" in text
    assert "$q set buckets_ 10" in text and "$q set mask_ 0" in text
    assert "$ns queue-limit $node(L) $node(R)" not in text  # DRR's limit is blimit_, in bytes
    # PLM's globals from vidcc's plm keys
    assert "set rates {" + " ".join(["50000"] * 20) + "}" in text
    for line in ("set packetSize 1000", "set PP_burst_length 2", "set PP_estimation_length 3",
                 "set rates_cum [calc_cum $rates]"):
        assert line in text
    # the source at the flow's start, the receiver (logged subclass) at its node with C = 1 s
    assert "$ns PLMbuild_source_set s0 $rates $addrs(0) 0 $node(a0) 0.0" in text
    assert "[new PLM/ns/Logged 0,0 $ns $node(b0.0) $addrs(0) 1.0 0]" in text
    assert "PLM/ns/Logged instproc choose_layer {v}" in text
    # dense mode whose prunes outlast the run (vidcc never floods), set up after the sessions
    assert text.index("DM set PruneTimeout 1000") < text.index("$ns mrtproto DM {}") < text.index("$ns run")
    # the receivers are counted at the warmup and written at the end
    assert "set receivers {0,0}" in text and "set warm_rx [rx_counters]" in text
    assert "random_ 0" not in text  # jitter on: ns-2's PLMcbr_flow_PP sets random_ 1 itself
    assert text == tcl.generate(plm_layout())


def test_each_receiver_is_created_at_its_own_start_on_its_own_node():
    lay = plm_layout("plm-drr-tcp1-two-receivers")
    r0, r1 = lay.sessions[0].receivers
    assert (r0.node, r0.start_ns, r1.node, r1.start_ns) == ("b0.0", 0, "b0.1", 5_000_000_000)
    text = tcl.generate(lay)
    assert '$ns at 0.0 {set plm(0,0) [new PLM/ns/Logged 0,0 $ns $node(b0.0) $addrs(0) 1.0 0]}' in text
    assert '$ns at 5.0 {set plm(0,1) [new PLM/ns/Logged 0,1 $ns $node(b0.1) $addrs(0) 1.0 1]}' in text
    assert "set receivers {0,0 0,1}" in text
    # the drawn access delays reach ns-2 as vidcc drew them
    for lk in lay.links:
        if lk.src == "R" and lk.dst.startswith("b"):
            assert f"$ns simplex-link $node(R) $node({lk.dst}) 100000000 {lk.delay_ns / 1e9!r} DropTail" in text


def test_tcl_without_jitter_turns_ns2s_random_off():
    assert "$src_plm(s0:$l) set random_ 0" in tcl.generate(with_plm(plm_layout(), jitter=False))


def test_unicast_scripts_do_not_change():
    # A unicast layout still gets the plain simulator and no receiver bookkeeping.
    lay = plm_layout()
    unicast = dataclasses.replace(lay, sessions=[], links=[
        dataclasses.replace(lk, queue=layout.QueueSpec("droptail", 25)) for lk in lay.links])
    text = tcl.generate(unicast)
    assert "set ns [new Simulator]" in text and "multicast" not in text and "rx_counters" not in text


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"drop_without_pairs": True}, "plm drop_without_pairs = True; ns-2 2.35's PLM has only False"),
        ({"loss_threshold": 0.2}, "plm loss_threshold = 0.2"),
        ({"rejoin_after_ns": 10_000_000_000}, "plm rejoin_after_ns"),
    ],
)
def test_tcl_refuses_plm_keys_ns2_hard_codes_otherwise(params, message):
    with pytest.raises(layout.LayoutError, match=message):
        tcl.generate(with_plm(plm_layout(), **params))


def test_tcl_refuses_sessions_that_cannot_share_ns2s_globals_and_other_protocols():
    lay = plm_layout("plm-fifo-tcp1")  # DropTail: two sessions from one node may share it
    s = lay.sessions[0]
    other = dataclasses.replace(s, index=7, params={**s.params, "burst": 3})
    with pytest.raises(layout.LayoutError, match="flow 7: ns-2's PLM keeps packetSize"):
        tcl.generate(dataclasses.replace(lay, sessions=[s, other]))
    with pytest.raises(layout.LayoutError, match="multicast protocol 'rlc' has no ns-2 translation"):
        tcl.generate(dataclasses.replace(lay, sessions=[dataclasses.replace(s, protocol="rlc")]))


def test_drr_buckets_must_group_flows_alike_in_both_simulators():
    # ns-2 hashes the source node, vidcc the flow: with 2 buckets the keys collide.
    lay = plm_layout()
    narrow = [dataclasses.replace(lk, queue=dataclasses.replace(lk.queue, drr={**lk.queue.drr, "buckets": 2}))
              if lk.queue.kind == "drr" else lk for lk in lay.links]
    with pytest.raises(layout.LayoutError, match="link L->R: DRR with 2 buckets: .* share buckets"):
        tcl.generate(dataclasses.replace(lay, links=narrow))
    # the hash is ns-2's (queue/drr.cc): keys below 16 are themselves, 16 -> 15
    assert [tcl.drr_hash(k, 10) for k in (0, 1, 9, 10, 16)] == [0, 1, 9, 0, 5]
    assert tcl.drr_hash(17, 10, mask=True) == tcl.drr_hash(16, 10, mask=True)


def test_a_drr_limit_in_packets_is_refused():
    with pytest.raises(layout.LayoutError, match="DRR limit in packets has no ns-2 translation"):
        layout._queue("link x", {"kind": "drr", "quantum": 250, "buckets": 10, "mask": False}, 30, 0)


# --- parsing ns-2's receiver logs ------------------------------------------------------------

PLM_OUT = """vidcc-ns2-results 1
bottleneck arrivals 1000 queue_drops 5 loss_drops 0
queue samples 100 sum 450.0
flow 1 packets 900 timeouts 0 cuts 4
receiver 0 0 packets 6250
layers 0 0 0 1
layers 0 0 1.5 9
layers 0 0 1.5 10
layers 0 0 60 9
layers 0 0 70 10
estimate 0 0 2.5 525000.0
estimate 0 0 30 525000.0
estimate 0 0 31 500000.0
estimate 0 0 32 530000.0
end
"""


def test_parser_reads_receiver_lines():
    out = ns2.parse(PLM_OUT)
    assert out.receivers == {(0, 0): 6250}
    assert out.layers[(0, 0)][:3] == [(0.0, 1), (1.5, 9), (1.5, 10)]
    assert out.estimates[(0, 0)][-1] == (32.0, 530000.0)
    assert ns2.parse(PLM_OUT.replace("receiver 0 0 packets 6250\n", "").split("layers")[0] + "end\n").receivers == {}


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("receiver 0 0 packets 6250\n", "", "line 5: layers of receiver 0,0 before its `receiver` line"),
        ("layers 0 0 70 10", "layers 0 0 50 10", "line 10: layers of receiver 0,0 goes back in time"),
        ("layers 0 0 60 9", "layers 0 0 60 x", "line 9: layers = 'x' is not a valid int"),
        ("estimate 0 0 31 500000.0", "estimate 0 0 31 nan", "line 13: estimate = nan is negative or not finite"),
        ("receiver 0 0 packets 6250", "receiver 0 0 pkts 6250", "line 5: expected `receiver F J packets <int>`"),
        ("end\n", "receiver 0 0 packets 1\nend\n", "line 15: receiver 0,0 appears twice"),
        ("layers 0 0 0 1", "layers 0 0 -1 1", "line 6: time = -1 is negative"),
    ],
)
def test_parser_rejects_garbled_receiver_lines(old, new, message):
    assert old in PLM_OUT
    with pytest.raises(ns2.Ns2OutputError, match=message.replace("(", r"\(")):
        ns2.parse(PLM_OUT.replace(old, new), "x.txt")


def test_mean_level_weighs_each_subscription_by_time():
    changes = [(0.0, 1), (1.5, 9), (1.5, 10), (60.0, 9), (70.0, 10)]
    # [20, 120]: 10 for 40 s, 9 for 10 s, 10 for 50 s
    assert metrics.mean_level(changes, 20.0, 120.0) == pytest.approx((400 + 90 + 500) / 100)
    assert metrics.mean_level(changes, 0.0, 1.5) == 1.0
    assert metrics.mean_level([], 20.0, 120.0) == 0.0  # never joined
    assert metrics.mean_level([(130.0, 5)], 20.0, 120.0) == 0.0


def test_ns2_plm_metrics():
    lay = plm_layout()
    m = metrics.from_ns2(lay, ns2.parse(PLM_OUT))
    assert m["goodput[plm]"] == pytest.approx(6250 * 992 * 8 / 100)  # payload: 1000 B less vidcc's 8 B header
    assert m["goodput_total"] == pytest.approx(m["goodput[plm]"] + m["goodput[tcp-newreno]"])
    assert m["layers[plm/r0]"] == pytest.approx(9.9)
    assert m["estimate_share[plm/r0]"] == pytest.approx(525000 / 525000)  # median of 525, 500, 530 k after 20 s
    assert "jain[plm]" not in m
    no_receiver = PLM_OUT.replace("receiver 0 0 packets 6250\n", "").split("layers")[0] + "end\n"
    with pytest.raises(ns2.Ns2OutputError, match="no line for receiver 0 of flow 0"):
        metrics.from_ns2(lay, ns2.parse(no_receiver))


# --- the comparator's outcome band -----------------------------------------------------------

def test_an_outcome_band_needs_both_sides_to_show_it():
    bands = cases.plm_fifo_bands(1)
    assert bands["estimate_share[]"].both_above == 1.5 and bands["layers[]"].both_above == 15.0
    assert cases.plm_fifo_bands(3)["layers[]"].both_above == 12.5  # fair level 5, top 20
    both = compare.compare("c", {"estimate_share[p/r0]": 2.0}, {"estimate_share[p/r0]": 1.9}, overrides=bands)
    assert both.status == "PASS" and both.metrics[0].band == "both >= 1.5"
    # one simulator's PLM estimating its fair share behind a FIFO is a disagreement
    one = compare.compare("c", {"estimate_share[p/r0]": 1.0}, {"estimate_share[p/r0]": 2.0}, overrides=bands)
    assert one.status == "FAIL"


def test_a_metric_measured_on_one_side_only_is_a_disagreement():
    # vidcc's receiver never closing a check period (no estimate) must not pass as "not compared".
    r = compare.compare("c", {"estimate_share[p/r0]": None}, {"estimate_share[p/r0]": 1.0})
    assert r.status == "FAIL" and r.metrics[0].ok is False
    assert compare.compare("c", {"jain[x]": None}, {"jain[x]": None}).metrics[0].ok is None
    # timeouts: without loss events in ns-2 there is nothing to compare, whatever vidcc saw
    t = {"timeouts_per_loss_event": 0.5}
    assert compare.compare("c", t, {"timeouts_per_loss_event": None}, ns2_events=0).status == "PASS"


# --- the whole comparison on recorded ns-2 outputs -------------------------------------------

def judge_recorded(name: str, sabotage: str | None = None, edit=None) -> compare.CaseResult:
    case = cases.find([name])[0]
    lay, vm = suite.measure_vidcc(case, sabotage)
    path = DATA / f"{name}.ns2.txt"
    out = ns2.read(path) if edit is None else ns2.parse(edit(path.read_text()), str(path))
    return suite.judge(case, lay, vm, out, str(path))


@pytest.mark.parametrize("name", ["plm-drr-tcp1", "plm-fifo-tcp1"])
def test_recorded_plm_cases_agree_honestly(name):
    r = judge_recorded(name)
    assert r.status == "PASS", r.as_dict()
    got = {m.metric for m in r.metrics}
    assert {"layers[plm/r0]", "estimate_share[plm/r0]", "goodput[plm]"} <= got


def test_a_plm_case_fails_when_the_layers_disagree():
    # ns-2's receiver as recorded, but holding 11 layers from 30 s on instead of 10: the estimate
    # still agrees, the subscription does not.
    def eleven(text: str) -> str:
        head, tail = text.split("estimate 0 0", 1)
        return head + "layers 0 0 30.0 11\nestimate 0 0" + tail

    r = judge_recorded("plm-drr-tcp1", edit=eleven)
    outside = {m.metric for m in r.metrics if m.ok is False}
    assert r.status == "FAIL" and outside == {"layers[plm/r0]"}, r.as_dict()


def test_a_vidcc_without_fair_queueing_fails_the_drr_case():
    # Sabotage `fifo`: vidcc's bottleneck becomes a DropTail FIFO while ns-2 keeps its DRR.
    r = judge_recorded("plm-drr-tcp1", "fifo")
    outside = {m.metric for m in r.metrics if m.ok is False}
    assert r.status == "FAIL" and {"layers[plm/r0]", "estimate_share[plm/r0]", "goodput[plm]"} <= outside


def test_fifo_sabotage_touches_only_fair_queues():
    s = cases.sabotage(cases.find(["plm-drr-tcp1"])[0].scenario, "fifo")
    assert s["topology"]["bottleneck"]["queue"] == {"kind": "droptail", "limit": 25}
    untouched = cases.find(["tcp-reno-1"])[0].scenario
    assert cases.sabotage(untouched, "fifo") == dict(untouched)
