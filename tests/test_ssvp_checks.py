"""SSVP's checks read each claim as the paper words it (audit of issue 20, D5/D8): each test is built
so that the earlier reading and the paper's give different verdicts, and fails before the fix."""

from __future__ import annotations

import pandas as pd

from figure_testing import events, figure_data, run, samples
from vidcc.papers import ssvp
from vidcc.papers.model import FAIL, PASS
from vidcc.papers.ssvp import contention, layers, quality, queues, rate_law, sharing

FIG = {f.id: f for f in ssvp.SUITE.figures}


def test_frame_quality_counts_the_received_frames_only():
    # 100 frames: 30 lost, 10 never sent; 58 of the 60 received are decodable (0.97). Over all
    # frames sent (the earlier denominator) 0.58: a FAIL for frames that never arrived.
    v = pd.DataFrame({"flow": [0], "receiver": [0], "frames_sent": [100], "frames_decodable": [58], "frames_lost": [30],
                      "frames_late": [1], "frames_dependency": [1], "frames_unsent": [10], "packets_lost": [5],
                      "packets_sent": [500]})
    d = figure_data(FIG["fig7-9"], [run("r", "ssvp")], [{"run_id": "r", "flow": 0, "receiver": 0, "label": "ssvp"}],
                    {("r", "video_summary"): v})
    out = quality.received_frames_good(d)
    assert out.status == PASS, out.explanation
    assert out.measured["frames received (all seeds)"] == 60


def test_fair_share_normalises_by_the_papers_fair_share_b_over_n():
    # N = 1: FTP 450 kbit/s, SSVP 400. B/n = 500 → NT 0.9; the max-min share 620 gave 0.73 (FAIL).
    d = figure_data(FIG["fig10"], [run("r", "ssvp", n=1)],
                    [{"run_id": "r", "flow": 0, "label": "ssvp", "throughput_bps": 400e3},
                     {"run_id": "r", "flow": 1, "label": "ftp", "throughput_bps": 450e3}], {})
    out = sharing.tcp_gets_its_fair_share(d)
    assert out.status == PASS, out.explanation
    assert out.measured["FTP normalized throughput[n=1,label=ftp]"] == 0.9


def _la_run(rid, part, layer_rows, rate_rows):
    return events([(t, 0, "layers", k) for t, k in layer_rows] + [(t, 0, "rate", r) for t, r in rate_rows])


def test_layer_changes_counts_rises_without_an_add_only_after_start_up():
    # The only rise above C(k+1) without an add is in the start-up ramp (0.2 s); afterwards the flow
    # sits at layer 4. Before the fix the ramp's occasion made it PASS.
    ramp = [(0.1, 200e3), (0.2, 300e3), (0.3, 320e3), (0.5, 450e3)]
    later = [(3.0 + 0.1 * i, 450e3 * (0.875 if i % 5 == 0 else 1.0)) for i in range(20)]
    la = _la_run("a", "ssvp-la", [(0.0, 1), (0.25, 2), (0.4, 3), (0.55, 4)], ramp + [(1.0, 400e3)] + later)
    imm = _la_run("b", "immediate", [(0.0, 1), (0.25, 2), (0.4, 3), (0.55, 4), (3.0, 3), (3.1, 4), (3.5, 3)], [])
    d = figure_data(FIG["fig14"], [run("a", "ssvp-la"), run("b", "immediate")],
                    [{"run_id": "a", "flow": 0, "label": "ssvp-la"}, {"run_id": "b", "flow": 0, "label": "ssvp-la"}],
                    {("a", "events"): la, ("b", "events"): imm})
    out = layers.few_layer_changes(d)
    assert out.status == FAIL and "after start-up" in out.explanation, out.explanation
    assert out.measured["intervals with R > C(k+1) and no add after start-up (all seeds)"] == 0


def test_join_times_tcps_settling_from_when_it_shares_the_link():
    # TCP alone at 1 Mbit/s until 20 s, reaching its shared mean (500 kbit/s) only at 26 s; SSVP
    # reaches its own at 21 s. From 0 s TCP was "at its mean" at once (0 s) and the check passed.
    tcp = [(t, 1e6) for t in range(0, 26)] + [(t, 500e3) for t in range(26, 61)]
    sv = [(t, 0.0) for t in range(0, 20)] + [(20, 100e3)] + [(t, 500e3) for t in range(21, 61)]
    fs = pd.concat([samples(0, tcp), samples(1, sv)], ignore_index=True)
    d = figure_data(FIG["fig11"], [run("r", "ssvp")],
                    [{"run_id": "r", "flow": 0, "label": "ftp"}, {"run_id": "r", "flow": 1, "label": "ssvp"}],
                    {("r", "flow_samples"): fs})
    out = sharing.tcp_not_starved_after_join(d)
    assert out.measured["TCP time to its 30–60 s mean rate after 20 s (s)"] == 6.0
    assert out.status == FAIL and "SSVP does not need more time" in out.explanation


def test_startup_checks_that_startup_ends_at_the_first_decrease():
    # With startup the flow is faster to 800 kbit/s, but after its first decrease it keeps raising
    # the rate every 5 ms with a 50 ms RTT: startup did not end. Before the fix: PASS.
    rows_s = [(0.01 * i, 0, "rate", 100e3 * (i + 1)) for i in range(9)] + [(0.1, 0, "rate", 700e3)]
    rows_s += [(0.1 + 0.005 * i, 0, "rate", 700e3 + 1e3 * i) for i in range(1, 10)]
    rtt = samples(0, [(0.0, 1e5)]).assign(delay_ns=30e6)  # 30 ms forward + 20 ms back: RTT 50 ms
    rows_n = [(0.1 * i, 0, "rate", 100e3 * (i + 1)) for i in range(10)]
    d = figure_data(FIG["startup"], [run("s", "ssvp", startup=True), run("n", "ssvp", startup=False)],
                    [{"run_id": "s", "flow": 0, "label": "ssvp", "path_rtt_ns": 40e6},
                     {"run_id": "n", "flow": 0, "label": "ssvp", "path_rtt_ns": 40e6}],
                    {("s", "events"): events(rows_s), ("n", "events"): events(rows_n), ("s", "flow_samples"): rtt})
    out = rate_law.startup_ramps_and_ends(d)
    assert out.measured["of which closer than half an RTT to the previous one"] == 8
    assert out.status == FAIL


def test_regular_rate_measures_the_gain_at_the_measured_rtt():
    # Increases of 60 kbit/s per adjustment at a 200 ms RTT: 1.5 packets per RTT, not gentler than
    # TCP. At the fixed 92 ms of the earlier check: 0.69 (PASS).
    rate = [(0.0, 300e3), (0.2, 262.5e3)] + [(0.2 + 0.2 * i, 262.5e3 + 60e3 * i) for i in range(1, 8)]
    ev = events([(t, 0, "rate", r) for t, r in rate])
    # SSVP's packets meet 150 ms one way, its control packets 50 ms back: a measured RTT of 200 ms.
    fs = pd.concat([samples(0, [(t / 10, 300e3 + 10e3 * (t % 2)) for t in range(0, 60)]).assign(delay_ns=150e6),
                    samples(1, [(t / 10, 300e3 * (t % 3)) for t in range(0, 60)]).assign(delay_ns=10e6)],
                   ignore_index=True)
    d = figure_data(FIG["fig7-9"], [run("r", "ssvp")],
                    [{"run_id": "r", "flow": 0, "label": "ssvp", "path_rtt_ns": 100e6},
                     {"run_id": "r", "flow": 1, "label": "ftp", "path_rtt_ns": 100e6}],
                    {("r", "events"): ev, ("r", "flow_samples"): fs})
    out = rate_law.rate_is_regular(d)
    assert abs(out.measured["SSVP median increase per RTT (packets, at each adjustment's measured RTT)"] - 1.5) < 1e-9
    assert out.status == FAIL and "not less than TCP's 1" in out.explanation


def test_link_errors_compares_per_m_with_tfrc_and_tcpw():
    # SSVP keeps 0.5 of its goodput at M = 1 where TCPW+ keeps 0.8, 1.0 vs 0.4 at M = 20: pooled
    # over M (the earlier check, TCPW+ only) SSVP looked less susceptible.
    good = {("ssvp", 1): 50, ("ssvp-noerr", 1): 100, ("ssvp", 20): 100, ("ssvp-noerr", 20): 100,
            ("tcpw+", 1): 80, ("tcpw+-noerr", 1): 100, ("tcpw+", 20): 40, ("tcpw+-noerr", 20): 100,
            ("tfrc", 1): 10, ("tfrc-noerr", 1): 100, ("tfrc", 20): 10, ("tfrc-noerr", 20): 100}
    runs = [run(f"{p}-{m}", p, m=m) for p, m in good]
    flows = [{"run_id": f"{p}-{m}", "flow": 0, "label": p.removesuffix("-noerr"), "goodput_bps": g}
             for (p, m), g in good.items()]
    out = contention.ssvp_less_hurt_by_errors(figure_data(FIG["fig12"], runs, flows, {}))
    assert out.status == FAIL and "m=1" in out.explanation, out.explanation


def test_jitter_is_judged_at_every_received_packet():
    # The 100 ms samples of J peak at 40 ms; between two samples J reached 80 ms at one packet.
    # Before the fix the check read the samples only: PASS.
    fs = samples(0, [(2.0 + 0.1 * i, 300e3) for i in range(10)]).assign(jitter_ns=40e6)
    v = pd.DataFrame({"flow": [0], "receiver": [0], "jitter_max_ns": [80e6]})
    d = figure_data(FIG["fig7-9"], [run("r", "ssvp")], [{"run_id": "r", "flow": 0, "receiver": 0, "label": "ssvp"}],
                    {("r", "video_summary"): v, ("r", "flow_samples"): fs})
    out = quality.jitter_below_75ms(d)
    assert out.status == FAIL, out.explanation
    assert out.measured["largest J of the 100 ms samples after the warm-up (ms)"] == 40.0


def _vdi_rows(vdi: dict) -> tuple[list, list, dict]:
    runs = [run(f"{p}-{m}", p, m=m) for p, m in vdi]
    flows = [{"run_id": f"{p}-{m}", "flow": 0, "receiver": 0, "label": p} for p, m in vdi]
    series = {(f"{p}-{m}", "video_summary"): pd.DataFrame({"flow": [0], "receiver": [0], "vdi": [x]})
              for (p, m), x in vdi.items()}
    return runs, flows, series


def test_ssvp_best_vdi_does_not_require_vdi_to_fall_with_m():
    # SSVP's VDI is the best at both M and rises from M = 1 to M = 20: the paper says only "the most
    # prominent performance on video delivery". Before the fix the extra shape test made it FAIL.
    vdi = {(p, m): x + (0.05 if m == 20 else 0.0)
           for p, x in {"ssvp": 0.9, "tfrc": 0.8, "tcpw+": 0.7, "udp": 0.6}.items() for m in (1, 20)}
    runs, flows, series = _vdi_rows(vdi)
    out = contention.ssvp_delivers_video_best(figure_data(FIG["fig12"], runs, flows, series))
    assert out.status == PASS, out.explanation


def test_backing_off_is_judged_by_the_mean_queue_as_table_2(monkeypatch):
    # SSVP's mean R2 queue is below TFRC's (15 vs 28 packets) but it has more drops at R2: the
    # paper's evidence is the mean queue only. Before the fix the drops sub-test made it FAIL.
    q = pd.DataFrame([{"run_id": f"{p}{s}", "part": p, "label": p, "seed": s, "mean_queue": mq, "link_drops": dr}
                      for p, mq, dr in (("ssvp", 15.0, 900), ("tfrc", 28.0, 500)) for s in (1, 2)])
    monkeypatch.setattr(queues, "r2_queues", lambda d: q)
    out = queues.ssvp_backs_off_more_than_tfrc(None)
    assert out.status == PASS, out.explanation
    assert out.measured["drops at R2 per run [ssvp]"] == 900


def test_layer_changes_judges_the_runs_own_layers():
    # The run's video has layers of 250 kbit/s (a set-up reading): after start-up the flow sits at
    # layer 1 with its rate rising to 400 kbit/s, below the 500 kbit/s of two layers: no occasion.
    # Before the fix the suite's typed-in 95 kbit/s layers counted every such rise as one.
    import json

    flow = {"label": "ssvp-la", "packet_size_bytes": 1000,
            "video": {"layers_bps": [250e3, 500e3, 750e3, 1000e3]}}
    resolved = json.dumps({"warmup_ns": 2_000_000_000, "flows": [flow]})
    rate = [(0.5, 300e3), (2.5, 262.5e3)] + [(2.5 + 0.1 * i, 262.5e3 + 15e3 * i) for i in range(1, 10)]
    la = _la_run("a", "ssvp-la", [(0.0, 1)], rate)
    imm = _la_run("b", "immediate", [(0.0, 1), (3.0, 2), (3.1, 1)], [])
    d = figure_data(FIG["fig14"], [{**run("a", "ssvp-la"), "resolved_json": resolved}, run("b", "immediate")],
                    [{"run_id": "a", "flow": 0, "label": "ssvp-la"}, {"run_id": "b", "flow": 0, "label": "ssvp-la"}],
                    {("a", "events"): la, ("b", "events"): imm})
    out = layers.few_layer_changes(d)
    assert out.measured["intervals with R > C(k+1) and no add after start-up (all seeds)"] == 0
    assert out.measured["layers of the video"] == 4


def test_reno_causes_state_only_what_they_count():
    # SSVP loses 10 % of its packets, Reno 5 %: the causes of C10, C11 and B1 once said, whatever the
    # run, that "the paced SSVP loses few" and that "Reno loses several packets per window", which
    # none of them measured. They state the timeouts and loss events they count.
    ev = events([(1.0, 1, "timeout", 0.0), (1.5, 1, "loss_event", 0.0), (2.0, 0, "loss_event", 0.0)])
    rows = [{"run_id": r, "flow": 0, "label": lab, "throughput_bps": 400e3, "drop_rate": 0.10}
            for r, lab in (("a", "ssvp"), ("u", "udp"))]
    rows += [{"run_id": r, "flow": 1, "label": "ftp", "throughput_bps": 300e3, "drop_rate": 0.05} for r in ("a", "u")]
    d = figure_data(FIG["fig10"], [run("a", "ssvp", n=1), run("u", "udp", n=1)], rows,
                    {("a", "events"): ev, ("u", "events"): ev})
    texts = [sharing.ssvp_takes_more_than_its_share(d, {}), sharing.reno_beside_udp_video(d, {}),
             sharing.reno_recovers_by_timeout(d, {})]
    for text in texts:
        assert "(1 timeouts for 1 loss events)" in text, text
        assert "loses few" not in text and "several packets per window" not in text, text


class _RunFlows:
    """FigureData's ``table("run_flows")`` for C13's packet sizes: per part and M, the flows'
    delivered wire bytes and packets."""

    def __init__(self, rows):
        self.df = pd.DataFrame(rows)

    def table(self, name="run_flows", part=None, where=None):
        return self.df[self.df["part"].isin(part)] if part is not None else self.df


def test_c13_cause_compares_the_delivered_packet_sizes_per_m():
    # VDI counts packets (§5.2). The same goodput in larger packets is fewer packets: the cause
    # reports each protocol's delivered bytes per delivered packet, per M, from the run.
    rows = [{"part": "ssvp", "label": "ssvp", "m": 20, "delivered_bytes": 8650, "delivered_packets": 10},
            {"part": "ssvp", "label": "ssvp", "m": 20, "delivered_bytes": 8650, "delivered_packets": 10},
            {"part": "tfrc", "label": "tfrc", "m": 20, "delivered_bytes": 8040, "delivered_packets": 10},
            {"part": "ssvp", "label": "ssvp", "m": 50, "delivered_bytes": 9500, "delivered_packets": 10},
            {"part": "tfrc", "label": "tfrc", "m": 50, "delivered_bytes": 8000, "delivered_packets": 10}]
    m = {}
    text = contention.delivered_packet_sizes(_RunFlows(rows), m)
    assert m["delivered B/packet [ssvp, m=20]"] == 865.0 and m["delivered B/packet [tfrc, m=50]"] == 800.0
    assert "larger" in text and "865.0/950.0 vs TFRC's 804.0/800.0" in text
    # TFRC's packets the larger at one M: not stated as larger.
    rows[2]["delivered_bytes"] = 9000
    assert "larger" not in contention.delivered_packet_sizes(_RunFlows(rows), {})
    # No per-flow byte counts (a run without them): nothing said.
    assert contention.delivered_packet_sizes(_RunFlows([{"part": "ssvp", "label": "ssvp", "m": 20}]), {}) == ""
