"""The SSVP suite's over-claim bounds (issue 20) on hand-made results: each number the bound states
is computed here from the inputs in another way, so that a wrong formula, a wrong flow or a wrong
part makes the test fail."""

from __future__ import annotations

import math

import pandas as pd

from figure_testing import events, figure_data, run, samples
from vidcc.papers import ssvp
from vidcc.papers.ssvp import contention, queues, sharing

FIG = {f.id: f for f in ssvp.SUITE.figures}
ALPHA, BETA, S = 0.31, 0.875, 8000  # the paper's α, β and 1000 B packets


def _need(rate_bps, rtt_s):
    """Decreases per packet that keep Alg. 2 at ``rate_bps``: in a period of one RTT, +α packets per
    RTT on an increase and −(1 − β)·W on a decrease balance at q = α/(α + (1 − β)·W)."""
    w = rate_bps * rtt_s / S
    return ALPHA / (ALPHA + (1 - BETA) * w) / max(w, 1.0)


def test_c10_bound_states_the_decreases_needed_to_leave_tcp_its_share():
    # N = 5: SSVP at 400 kbit/s against its share B/(N+1) = 167 kbit/s, RTT 61.5 + 22 = 83.5 ms, 72
    # decreases in 1000 packets. N = 1: SSVP at 300 kbit/s, within B/2: not a cell.
    flows, series = [], {}
    for rid, part, n, ss in (("a", "ssvp", 5, 400e3), ("b", "ssvp", 1, 300e3), ("u", "udp", 5, None)):
        lab = "ssvp" if ss else "udp"
        flows.append({"run_id": rid, "flow": 0, "label": lab, "throughput_bps": ss or 380e3, "mean_delay_ns": 61.5e6,
                      "path_rtt_ns": 44e6, "sent_packets": 1000})
        flows += [{"run_id": rid, "flow": i, "label": "ftp", "throughput_bps": 120e3 if rid != "u" else 125e3,
                   "mean_delay_ns": 60e6, "path_rtt_ns": 44e6, "sent_packets": 500} for i in range(1, n + 1)]
        series[(rid, "events")] = events([(1.0 + 0.01 * k, 0, "loss_event", 0.0) for k in range(72)]
                                         + [(2.0, 1, "timeout", 0.0), (2.5, 1, "loss_event", 0.0)])
    d = figure_data(FIG["fig10"], [run("a", "ssvp", n=5), run("b", "ssvp", n=1), run("u", "udp", n=5)], flows, series)
    m = {}
    text = sharing.share_needs_decreases(d, m)
    allowed = 1e6 / 6
    assert m["fair share B/(N+1) (kbit/s) [n=5]"] == 167
    assert math.isclose(m["decreases per packet needed to hold B/(N+1) [n=5]"], _need(allowed, 0.0835), rel_tol=1e-9)
    assert m["decreases per packet SSVP met [n=5]"] == 0.072
    assert m["FTP throughput per flow beside UDP (kbit/s) [n=5]"] == 125
    assert "[n=1]" not in " ".join(m), "N = 1, where SSVP leaves the FTP flow its share, is not a cell"
    assert f"{_need(allowed, 0.0835):.3f}" in text and "0.072" in text
    assert (m["Reno timeouts"], m["Reno loss events"]) == (2, 2)  # the FTP flow's events of runs a and b


def test_c11_bound_states_the_decreases_needed_for_half_of_ssvps_rate():
    # 30–60 s: TCP 200 kbit/s, SSVP 800: TCP/SSVP ≥ 0.5 needs SSVP ≤ 2/3 of 1 Mbit/s; RTT 58 + 22 ms.
    fs = pd.concat([samples(0, [(t, 200e3) for t in range(20, 61)]), samples(1, [(t, 800e3) for t in range(20, 61)])],
                   ignore_index=True)
    ev = events([(20.0 + 0.5 * k, 1, "loss_event", 0.0) for k in range(30)] + [(25.0, 0, "timeout", 0.0)])
    d = figure_data(FIG["fig11"], [run("r", "ssvp")],
                    [{"run_id": "r", "flow": 0, "label": "ftp", "mean_delay_ns": 58e6, "path_rtt_ns": 44e6},
                     {"run_id": "r", "flow": 1, "label": "ssvp", "mean_delay_ns": 58e6, "path_rtt_ns": 44e6,
                      "sent_packets": 1000}],
                    {("r", "flow_samples"): fs, ("r", "events"): ev})
    m = {}
    sharing.half_needs_decreases(d, m)
    assert math.isclose(m["decreases per packet needed for TCP/SSVP ≥ 0.5 (least over seeds)"],
                        _need(2e6 / 3, 0.080), rel_tol=1e-9)
    assert m["decreases per packet SSVP met (most over seeds)"] == 0.03
    assert (m["Reno timeouts"], m["Reno loss events"]) == (1, 0)


def test_c18_bound_states_the_window_the_hold_branch_needs_and_tfrcs_ceiling():
    # SSVP at 400 kbit/s with a 100 ms RTT carries 5 packets per RTT; at M = 1 the errors give it
    # 20 decreases in 1000 packets, 10 without; TFRC keeps 396 of 400 kbit/s.
    rows = {("ssvp", 1): 400e3, ("ssvp-noerr", 1): 400e3, ("ssvp", 20): 200e3, ("tfrc", 1): 396e3,
            ("tfrc-noerr", 1): 400e3}
    runs = [run(f"{p}-{m}", p, m=m) for p, m in rows]
    flows = [{"run_id": f"{p}-{m}", "flow": 0, "label": p.removesuffix("-noerr"), "throughput_bps": x,
              "goodput_bps": x, "mean_delay_ns": 60e6, "path_rtt_ns": 80e6, "sent_packets": 1000}
             for (p, m), x in rows.items()]
    series = {("ssvp-1", "events"): events([(1 + 0.1 * k, 0, "loss_event", 0.0) for k in range(20)]),
              ("ssvp-noerr-1", "events"): events([(1 + 0.1 * k, 0, "loss_event", 0.0) for k in range(10)])}
    m = {}
    text = contention.errors_meet_no_hold(figure_data(FIG["fig12"], runs, flows, series), m)
    assert m["control packets per period the hold branch needs"] == 200
    assert math.isclose(m["largest SSVP packets per RTT (mean rate × mean RTT)"], 400e3 * 0.1 / S)
    assert m["SSVP decreases per packet with errors [m=1]"] == 0.02
    assert m["SSVP decreases per packet without errors [m=1]"] == 0.01
    assert math.isclose(m["goodput TFRC keeps with errors [m=1]"], 0.99)
    assert "at most 5.0 packets per RTT" in text


def test_queue_bound_states_how_many_rtts_ssvp_needs_to_halve(monkeypatch):
    q = pd.DataFrame([{"run_id": f"{p}1", "part": p, "label": p, "seed": 1, "frac_full": f, "queue_limit": 98.0}
                      for p, f in (("ssvp", 0.27), ("tfrc", 0.28), ("udp", 0.28), ("tcpw+", 0.27))])
    monkeypatch.setattr(queues, "r2_queues", lambda d: q)
    m = {}
    text = queues.no_sharper_than_tfrc(None, m)
    assert math.isclose(m["RTTs SSVP needs to halve its rate (one ×β per RTT)"], math.log(0.5) / math.log(0.875))
    assert "5.2 RTTs" in text and m["RTTs TFRC needs to halve its rate (paper §2)"] == 5
    assert m["share of time at ≥ 90 % of R2's buffer [tfrc]"] == 0.28
