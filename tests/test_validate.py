"""The differential suite's parts without ns-2: the Tcl generator, the ns-2 results parser, the
comparator, and the whole comparison fed a recorded ns-2 output (tests/data/validate, written by
ns-2 2.35 from the generated script of that case), honest and sabotaged."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from vidcc.validate import cases, compare, layout, metrics, ns2, suite, tcl

DATA = Path(__file__).parent / "data" / "validate"


def small_layout(**flow_keys) -> layout.Layout:
    q = layout.QueueSpec("droptail", 10)
    links = [
        layout.LinkSpec("L->R", "L", "R", 10_000_000, 33_000_000, q, layout.LossSpec("bernoulli", 0.01)),
        layout.LinkSpec("R->L", "R", "L", 10_000_000, 33_000_000, layout.QueueSpec("red", 20, {
            "min_thresh": 5.0, "max_thresh": 15.0, "weight": 0.002, "max_p": 0.1, "gentle": True,
            "bytes": False, "mean_packet_bytes": 500, "wait": True})),
        layout.LinkSpec("a0->L", "a0", "L", 100_000_000, 1_000_000, q),
        layout.LinkSpec("R->b0", "R", "b0", 100_000_000, 1_000_000, q),
    ]
    params = {"kind": "tcp-newreno", "max_window_bytes": 64000, "initial_window": 2, "min_rto_ns": 200_000_000,
              "initial_rto_ns": 1_000_000_000, "delayed_ack": False, "transfer_bytes": None, **flow_keys}
    flow = layout.FlowSpec(0, "x", params["kind"], "a0", "b0", 1_500_000_000, None, 1000, 40, 800_000, params)
    return layout.Layout("t", 1, 20_000_000_000, 5_000_000_000, 10_000_000, "L->R", links, [flow])


# --- the generator ---------------------------------------------------------------------------

def test_tcl_translates_units_and_keys():
    text = tcl.generate(small_layout())
    assert "$ns simplex-link $node(L) $node(R) 10000000 0.033 DropTail" in text
    assert "$agent(0) set packetSize_ 960" in text  # 1000 B on the wire less ns-2's 40 B header
    assert "$agent(0) set window_ 64" in text
    assert "$agent(0) set overhead_ 0.0008" in text
    assert '$ns at 1.5 "$app(0) start"' in text
    assert "[new Agent/TCP/Newreno]" in text and "[new Agent/TCPSink]" in text
    # RED: every parameter set explicitly (ns-2 2.35's defaults differ: thresholds 0, bytes 1)
    for line in ("$q set thresh_ 5.0", "$q set maxthresh_ 15.0", "$q set linterm_ 10.0", "$q set bytes_ 0"):
        assert line in text
    # Bernoulli loss after the link, counted by its own sink (set after link-lossmodel)
    assert text.index("$ns link-lossmodel $em(0)") < text.index("$em(0) drop-target $lossdrops(0)")
    assert "$ns at 20.0 finish" in text


def test_queue_limits_translate_to_the_same_waiting_room():
    # vidcc's limit counts waiting packets; ns-2's DropTail holds qlim_ - 1 of them (drop-tail.cc:
    # length + 1 >= qlim_), its RED qlim_ (red.cc: qlen >= qlim before the enqueue).
    text = tcl.generate(small_layout())
    assert "$ns queue-limit $node(L) $node(R) 11" in text  # DropTail, limit 10
    assert "$ns queue-limit $node(R) $node(L) 20" in text  # RED, limit 20
    assert tcl.ns2_queue_limit(layout.QueueSpec("droptail", 6)) == 7


def test_tcl_is_deterministic_and_delayed_ack_uses_delack_sink():
    assert tcl.generate(small_layout()) == tcl.generate(small_layout())
    text = tcl.generate(small_layout(delayed_ack=True))
    assert "[new Agent/TCPSink/DelAck]" in text and "$sink(0) set interval_ 0.1" in text


def test_tcl_refuses_what_it_cannot_translate():
    with pytest.raises(layout.LayoutError, match="flow 0: protocol 'dvrc' has no ns-2 translation"):
        tcl.generate(small_layout(kind="dvrc"))
    with pytest.raises(layout.LayoutError, match="transfer"):
        tcl.generate(small_layout(transfer_bytes=1000))


def tfrc_layout(**keys) -> layout.Layout:
    """A TFRC flow resolved from vidcc.protocols.tfrc.NS2_AGENT (ns-2 2.35's Agent/TFRC)."""
    from scenario_testing import dumbbell, first_protocol
    from vidcc.protocols.tfrc import NS2_AGENT

    keys = {**NS2_AGENT, **keys}
    lines = "\n".join(f"{k} = {v!r}".replace("'", '"').replace("True", "true") for k, v in keys.items())
    params = first_protocol(dumbbell(f'protocol = "tfrc"\n{lines}'))
    return small_layout(**params)


def test_tcl_runs_tfrc_as_ns2s_agent_and_refuses_other_rules():
    text = tcl.generate(tfrc_layout(tcp_tick="50ms"))
    for line in ("[new Agent/TFRC]", "$agent(0) set df_ 0.95", "$agent(0) set ca_ 1", "$agent(0) set tcp_tick_ 0.05",
                 "$sink(0) set numPkts_ 1", "$sink(0) set discount_ 1"):
        assert line in text, line
    # ns-2 has only its own rate rules and TCP's RTO in the equation, and one df_ for q and q2.
    with pytest.raises(layout.LayoutError, match="flow 0: tfrc rules = 'rfc5348'; ns-2 2.35 has only 'ns2'"):
        tcl.generate(tfrc_layout(rules="rfc5348"))
    with pytest.raises(layout.LayoutError, match="t_rto = '4r'"):
        tcl.generate(tfrc_layout(t_rto="4r"))
    with pytest.raises(layout.LayoutError, match="q2 = 0.9 differs from q = 0.95"):
        tcl.generate(tfrc_layout(q2=0.9))


def test_layout_comes_from_the_run_with_drawn_values():
    import vidcc

    case = cases.find(["tcp-newreno-10-mixed-rtt"])[0]
    run = vidcc.run(case.scenario)
    lay = layout.from_run(case.name, case.bottleneck, run.resolved, run.tables)
    assert len(lay.flows) == 10 and lay.link("L->R").queue.limit_packets == cases.BDP
    delays = {lk.delay_ns for lk in lay.links if lk.src.startswith("a")}
    assert len(delays) > 1  # the range was drawn per instance, and ns-2 gets the drawn values
    assert {f.start_ns for f in lay.flows} == set(run.tables["flows"]["start_ns"])
    with pytest.raises(layout.LayoutError, match="no link named 'X->Y'"):
        layout.from_run(case.name, "X->Y", run.resolved, run.tables)


# --- the parser ------------------------------------------------------------------------------

GOOD = """vidcc-ns2-results 1
bottleneck arrivals 1000 queue_drops 5 loss_drops 2
queue samples 100 sum 450.0
flow 0 packets 900 timeouts 1 cuts 4
end
"""


def test_parser_reads_a_results_file():
    out = ns2.parse(GOOD)
    assert (out.arrivals, out.queue_drops, out.loss_drops) == (1000, 5, 2)
    assert out.queue_sum / out.queue_samples == 4.5
    assert out.flows == {0: ns2.FlowCounters(900, 1, 4)}


@pytest.mark.parametrize(
    "text, message",
    [
        ("", "line 1: expected 'vidcc-ns2-results 1', got 'an empty file'"),
        ("garbage\n", "line 1: expected"),
        (GOOD.replace("end\n", ""), "truncated: no final `end` line"),
        (GOOD.replace("packets 900", "packets x9"), "line 4: packets = 'x9' is not a valid int"),
        (GOOD.replace("packets 900", "pkts 900"), "line 4: expected `flow 0 packets <int>"),
        (GOOD.replace("drops 5", "drops -5"), "line 2: queue_drops = -5 is negative"),
        (GOOD.replace("end\n", "flow 0 packets 1 timeouts 0 cuts 0\nend\n"), "line 5: flow 0 appears twice"),
        (GOOD.replace("queue samples 100 sum 450.0\n", ""), "no `queue samples` line"),
        (GOOD + "more\n", "line 6: text after `end`"),
        (GOOD.replace("flow 0", "fluw 0"), "line 4: unrecognised line"),
    ],
)
def test_parser_rejects_garbled_files_clearly(text, message):
    with pytest.raises(ns2.Ns2OutputError, match=message.replace("(", r"\(").replace("`", "`")):
        ns2.parse(text, "x.txt")


def test_reading_a_missing_or_binary_file_names_it(tmp_path):
    with pytest.raises(ns2.Ns2OutputError, match="results file is missing"):
        ns2.read(tmp_path / "nope.txt")
    (tmp_path / "bin.txt").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(ns2.Ns2OutputError, match="bin.txt: not a text file"):
        ns2.read(tmp_path / "bin.txt")


def test_ns2_metrics_need_every_flow():
    with pytest.raises(ns2.Ns2OutputError, match=r"no line for flow\(s\) \[0\]"):
        metrics.from_ns2(small_layout(), ns2.parse(GOOD.replace("flow 0 packets 900 timeouts 1 cuts 4\n", "")))
    m = metrics.from_ns2(small_layout(), ns2.parse(GOOD))
    assert m["goodput[x]"] == pytest.approx(900 * 960 * 8 / 15.0)
    assert m["loss_rate"] == pytest.approx(0.007) and m["timeouts_per_loss_event"] == 0.25


# --- the comparator --------------------------------------------------------------------------

def test_comparator_bands_and_verdicts():
    ns = {"goodput_total": 10e6, "loss_rate": 0.01, "mean_queue": 40.0, "timeouts_per_loss_event": 0.0}
    near = {"goodput_total": 9.6e6, "loss_rate": 0.012, "mean_queue": 45.0, "timeouts_per_loss_event": 0.05}
    assert compare.compare("c", near, ns, ns2_events=20).status == "PASS"
    far = dict(near, timeouts_per_loss_event=0.5)
    r = compare.compare("c", far, ns, ns2_events=20)
    assert r.status == "FAIL" and r.failed and "timeouts_per_loss_event" in r.note
    # too few events in ns-2: the share is not compared
    assert compare.compare("c", far, ns, ns2_events=3).status == "PASS"
    bug = compare.Expect("vidcc-bug", ("timeouts_per_loss_event",), "known")
    assert compare.compare("c", far, ns, expect=bug, ns2_events=20).status == "XFAIL"
    assert compare.compare("c", near, ns, expect=bug, ns2_events=20).status == "XPASS"
    dev = compare.Expect("ns2-deviation", ("timeouts_per_loss_event",), "ns-2 wrong")
    assert compare.compare("c", far, ns, expect=dev, ns2_events=20).status == "DEVIATION"
    # a deviation covers only the metrics it names
    worse = dict(far, goodput_total=5e6)
    assert compare.compare("c", worse, ns, expect=dev, ns2_events=20).status == "FAIL"


def test_goodput_floor_is_a_share_of_capacity():
    r = compare.compare("c", {"goodput[a]": 5e3}, {"goodput[a]": 17e3}, capacity_bps=2e6)
    assert r.status == "PASS"  # both starved below 1 % of C
    r = compare.compare("c", {"goodput[a]": 5e4}, {"goodput[a]": 17e4}, capacity_bps=2e6)
    assert r.status == "FAIL"


def test_every_default_band_says_why():
    assert all(len(b.why) > 40 for b in compare.BANDS.values())
    for case in cases.CASES:
        assert all(len(b.why) > 20 for b in case.bands.values()), case.name


# --- the whole comparison on a recorded ns-2 output, and sabotage -----------------------------

def judge_recorded(name: str, sabotage: str | None):
    case = cases.find([name])[0]
    lay, vm = suite.measure_vidcc(case, sabotage)
    path = DATA / f"{name}.ns2.txt"
    return suite.judge(case, lay, vm, ns2.read(path), str(path))


def test_recorded_case_agrees_honestly():
    r = judge_recorded("tcp-reno-1", None)
    assert r.status == "PASS", r.as_dict()


@pytest.mark.parametrize("kind", ["beta", "window"])
def test_sabotaged_vidcc_fails_the_comparison(kind):
    r = judge_recorded("tcp-reno-1", kind)
    assert r.status == "FAIL", r.as_dict()


def test_a_bug_mark_does_not_hide_a_sabotage():
    # A mark names only the metrics its bug moves (here loss rate and timeouts, as the issue-13
    # mark on tcp-reno-reverse did): the sabotaged agent moves the goodput too, which the mark
    # (and the total) must not absorb, while the honest run is inside the bands.
    case = cases.find(["tcp-reno-reverse"])[0]
    mark = compare.Expect("vidcc-bug", ("loss_rate", "timeouts_per_loss_event[forward]"), "known")
    marked = dataclasses.replace(case, expect=mark)
    path = DATA / "tcp-reno-reverse.ns2.txt"
    lay, vm = suite.measure_vidcc(marked, "beta")
    r = suite.judge(marked, lay, vm, ns2.read(path), str(path))
    outside = {m.metric for m in r.metrics if m.ok is False}
    assert r.status == "FAIL" and outside - set(mark.metrics), r.as_dict()
    lay, vm = suite.measure_vidcc(case)
    assert suite.judge(case, lay, vm, ns2.read(path), str(path)).status == "PASS"


def test_timeouts_are_compared_per_label_when_labels_differ():
    case = cases.find(["tcp-reno-reverse"])[0]
    lay, vm = suite.measure_vidcc(case)
    assert "timeouts_per_loss_event" not in vm
    assert {"timeouts_per_loss_event[forward]", "timeouts_per_loss_event[reverse]"} <= set(vm)
    assert set(metrics.timeout_groups(lay)["timeouts_per_loss_event[forward]"]) == {
        f.index for f in lay.flows if f.label == "forward"}


def test_sabotage_kinds_are_checked():
    with pytest.raises(ValueError, match="unknown sabotage 'x'"):
        cases.sabotage({"flows": []}, "x")


def test_missing_ns_gives_the_install_command(monkeypatch, capsys):
    monkeypatch.setattr(ns2.shutil, "which", lambda _: None)
    assert suite.main(["--case", "tcp-reno-1"]) == 2
    assert "apt-get install -y ns2" in capsys.readouterr().err


def test_declared_ns2_defaults_are_compared_with_what_ns_prints(tmp_path, monkeypatch):
    from vidcc.papers import provenance
    from vidcc.papers.provenance import Ns2
    from vidcc.validate import defaults

    fake = tmp_path / "ns"
    fake.write_text("#!/bin/sh\necho 'Agent/TCP window_=20'\necho 'Queue limit_=50'\n")
    fake.chmod(0o755)
    monkeypatch.setattr(ns2, "ns_binary", lambda: str(fake))
    declared = [("a", Ns2("Agent/TCP window_", "20")), ("b", Ns2("Queue limit_", "50.0")),
                ("c", Ns2("Agent/TCP window_", "64")), ("d", Ns2("Agent/TFRC ca_", "1"))]
    monkeypatch.setattr(provenance, "ns2_declared", lambda suites: declared)
    from vidcc.papers import ns2 as ns2_defaults

    monkeypatch.setattr(ns2_defaults, "SOURCES", [Ns2("Queue limit_", "49")])  # papers/ns2.py's constants too
    checks = defaults.check(tmp_path)
    assert [(c.suite, c.ns2, c.status) for c in checks] == [
        ("a", "20", "PASS"), ("b", "50", "PASS"), ("c", "20", "FAIL"), ("d", None, "FAIL"),
        ("papers/ns2.py", "50", "FAIL")]
    assert "Agent/TFRC set ca_" in (tmp_path / "ns2-defaults.tcl").read_text()
