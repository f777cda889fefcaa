"""DVRC's checks read each claim as the paper words it (audit of issue 20, D5): each test is built so
that the earlier reading and the paper's give different verdicts, and fails before the fix."""

from __future__ import annotations

import pandas as pd
import pytest

from figure_testing import figure_data, run
from vidcc.papers import dvrc
from vidcc.papers.dvrc import fairness, queues, smoothness, video
from vidcc.papers.model import FAIL, PASS

FIG = {f.id: f for f in dvrc.SUITE.figures}


def test_c4_reads_the_jitter_maximum_the_paper_bounds():
    # Inter-arrival times of 10 ms (p99 10 ms: the earlier check passed), but the jitter J of
    # Eq. 13 peaked at 80 ms: "delay jitter does not exceed ... 75 ms" fails.
    sent = pd.Series(range(500)) * 10_000_000 + 2_000_000_000
    pk = pd.DataFrame({"flow": 0, "seq": range(500), "sent_ns": sent, "arrival_ns": sent + 30_000_000,
                       "fate": "delivered"})
    v = pd.DataFrame({"flow": [0], "receiver": [0], "jitter_max_ns": [80e6]})
    d = figure_data(FIG["fig6"], [run("r", "dvrc")], [{"run_id": "r", "flow": 0, "receiver": 0, "label": "dvrc"}],
                    {("r", "packets"): pk, ("r", "video_summary"): v})
    out = smoothness.jitter_below_75ms(d)
    assert out.status == FAIL and out.measured["jitter J (Eq. 13) max over runs (ms)"] == 80.0


def _queue(rid, values, drops):
    links = pd.DataFrame({"link": [0], "name": ["R2->R3"], "queue_limit_packets": [100.0], "delivered_packets": [1000],
                          "dropped_queue": [drops], "dropped_loss": [0]})
    t = [3_000_000_000 + i * 10_000_000 for i in range(len(values))]
    q = pd.DataFrame({"t_ns": t, "link": 0, "packets": values})
    return {(rid, "links"): links, (rid, "queue_samples"): q}


def test_c13_tests_the_draining_phases_not_the_drops_at_r2():
    # UDP full all the time but dropping fewer packets at R2 (its excess is dropped at R1 first);
    # DVRC's queue drains twice. The earlier check also wanted more drops at R2 with UDP: FAIL.
    series = {**_queue("u", [100] * 40, 10), **_queue("v", ([95] * 10 + [10] * 10) * 2, 500)}
    d = figure_data(FIG["fig11"], [run("u", "udp"), run("v", "dvrc")], [], series)
    out = queues.udp_fills_dvrc_drains(d)
    assert out.status == PASS, out.explanation
    assert out.measured["draining phases of R2's queue per DVRC run"] == 2
    series = {**_queue("u", [100] * 40, 10), **_queue("v", [95] * 20 + [60] * 20, 500)}  # never drains
    d = figure_data(FIG["fig11"], [run("u", "udp"), run("v", "dvrc")], [], series)
    assert queues.udp_fills_dvrc_drains(d).status == FAIL


def test_c26_judges_the_video_delivery_not_a_goodput_band():
    # Same VDI with 4 and 5 layers, 20 % less goodput with 4 (a coarser vector sends less): the
    # earlier check's invented ±10 % goodput band failed it.
    runs, flows, series = [], [], {}
    for part, seed, vdi, good in (("dvrc", 1, 0.90, 1e6), ("dvrc", 2, 0.92, 1e6), ("dvrc-k4", 1, 0.91, 0.8e6),
                                  ("dvrc-k4", 2, 0.91, 0.8e6)):
        rid = f"{part}-{seed}"
        runs.append(run(rid, part, seed, n=10))
        flows.append({"run_id": rid, "flow": 0, "receiver": 0, "label": part, "goodput_bps": good})
        series[(rid, "video_summary")] = pd.DataFrame({"flow": [0], "receiver": [0], "vdi": [vdi]})
    out = video.four_layers_suffice(figure_data(FIG["fig8-10"], runs, flows, series))
    assert out.status == PASS, out.explanation
    series[("dvrc-k4-1", "video_summary")] = pd.DataFrame({"flow": [0], "receiver": [0], "vdi": [0.2]})
    series[("dvrc-k4-2", "video_summary")] = pd.DataFrame({"flow": [0], "receiver": [0], "vdi": [0.2]})
    assert video.four_layers_suffice(figure_data(FIG["fig8-10"], runs, flows, series)).status == FAIL


def _video_cells(figure, cells):
    """``cells``: (label, n) → the packet drop rate of that label's video (one flow, one seed)."""
    runs, flows, series = [], [], {}
    for (label, n), pdr in cells.items():
        rid = f"{label}-{n}"
        runs.append(run(rid, label, n=n))
        flows.append({"run_id": rid, "flow": 0, "receiver": 0, "label": label, "drop_rate": pdr})
        series[(rid, "video_summary")] = pd.DataFrame({"flow": [0], "receiver": [0], "packet_drop_rate": [pdr],
                                                       "vdi": [1.0 - pdr]})
    return figure_data(FIG[figure], runs, flows, series)


def test_c23_does_not_order_protocols_that_both_lose_nothing():
    # At N = 1 neither DVRC nor RTCP/UDP loses a packet on the 10 Mbit/s chain: there is no
    # "increased packet loss" to find (§5.5). Fails before the fix: the strict order failed on 0 = 0.
    cells = {("dvrc", 1): 0.0, ("rtcp-udp", 1): 0.0, ("tfrc", 1): 0.02,
             ("dvrc", 10): 0.05, ("rtcp-udp", 10): 0.08, ("tfrc", 10): 0.5}
    out = video.s6_drop_rate_dvrc_lowest(_video_cells("fig18-20", cells))
    assert out.status == PASS, out.explanation
    assert out.measured["packet drop rate: N where rtcp-udp and dvrc are both 0"] == "1"
    cells[("dvrc", 1)] = 0.01  # DVRC loses where RTCP/UDP does not: the order fails
    assert video.s6_drop_rate_dvrc_lowest(_video_cells("fig18-20", cells)).status == FAIL


def _jain(figure, by_label_n):
    runs, agg = [], []
    for (label, n), jain in by_label_n.items():
        rid = f"{figure}-{label}-{n}"
        runs.append(run(rid, label, n=n))
        agg.append({"run_id": rid, "part": label, "seed": 1, "n": n, "label": label, "jain": jain})
    return figure_data(FIG[figure], runs, [], {}, aggregate=agg)


def test_c12_wants_tfrcs_drop_the_largest_of_all_three():
    # "TFRC exhibits the most notable reduction in its Fairness Index compared to Fig. 10a": TFRC's
    # drop (0.20) exceeds DVRC's (0.05) but not TCPW+'s (0.30). Fails before the fix, which
    # compared TFRC with DVRC only.
    a = _jain("fig8-10", {("dvrc", 40): 0.95, ("tfrc", 40): 0.95, ("tcpw+", 40): 0.95})
    c = _jain("fig10c", {("dvrc", 40): 0.90, ("tfrc", 40): 0.75, ("tcpw+", 40): 0.65})
    c.attach_others({"fig8-10": a, "fig10c": c})
    out = fairness.varying_rtts_tfrc_loses_most(c)
    assert out.status == FAIL and out.measured["Jain drop Fig10a→10c at N=40 (tcpw+)"] == pytest.approx(0.30)
    c = _jain("fig10c", {("dvrc", 40): 0.90, ("tfrc", 40): 0.75, ("tcpw+", 40): 0.85})
    c.attach_others({"fig8-10": a, "fig10c": c})
    assert fairness.varying_rtts_tfrc_loses_most(c).status == PASS


def test_c26_is_judged_on_the_interval_over_seeds_not_per_seed():
    # Per seed there is no interval: the k = 4 VDI (0.91) would have to reach each seed's k = 5 VDI
    # (0.92 in seed 2). Fails before the fix: per seed 1 of 2 held, so a pooled PASS became UNSTABLE.
    from vidcc.papers.model import FigureRun
    from vidcc.papers.verdicts import check_claim

    runs, flows, series = [], [], {}
    for part, seed, vdi in (("dvrc", 1, 0.90), ("dvrc", 2, 0.92), ("dvrc-k4", 1, 0.91), ("dvrc-k4", 2, 0.91)):
        rid = f"{part}-{seed}"
        runs.append(run(rid, part, seed, n=10))
        flows.append({"run_id": rid, "flow": 0, "receiver": 0, "label": part, "goodput_bps": 1e6})
        series[(rid, "video_summary")] = pd.DataFrame({"flow": [0], "receiver": [0], "vdi": [vdi]})
    claim = next(c for c in dvrc.SUITE.claims if c.id == "C26")
    r = check_claim(claim, FigureRun(FIG["fig8-10"], [], data=figure_data(FIG["fig8-10"], runs, flows, series)))
    assert r.status == PASS, (r.status, r.stability.text() if r.stability else None)


def test_c9_counts_delayed_packets_among_those_that_arrive():
    # TCPW+ delivers 100 of 1000 packets, 30 of them delayed (30 % of what arrives, 3 % of what was
    # sent); DVRC delivers 950, 40 delayed (4 %). Fails before the fix: over all packets sent
    # (the delayed-packet rate) TCPW+ looked the most timely.
    runs, flows, series = [], [], {}
    for label, received, delayed in (("dvrc", 950, 40), ("tfrc", 900, 9), ("tcpw+", 100, 30)):
        rid = f"{label}-10"
        runs.append(run(rid, label, n=10))
        flows.append({"run_id": rid, "flow": 0, "receiver": 0, "label": label})
        series[(rid, "video_summary")] = pd.DataFrame({
            "flow": [0], "receiver": [0], "packets_sent": [1000], "packets_received": [received],
            "packets_delayed": [delayed], "delayed_packet_rate": [delayed / 1000]})
    out = video.s2_tcpw_most_delayed(figure_data(FIG["fig8-10"], runs, flows, series))
    assert out.status == PASS, out.explanation
    assert out.measured["delayed share of received packets[tcpw+,n=10]"] == pytest.approx(0.3)
    series[("tcpw+-10", "video_summary")]["packets_delayed"] = [3]  # 3 % of what arrives: not the highest
    assert video.s2_tcpw_most_delayed(figure_data(FIG["fig8-10"], runs, flows, series)).status == FAIL


def _layers(k5, k4, n=15):
    runs, flows, series = [], [], {}
    for part, values in (("dvrc", k5), ("dvrc-k4", k4)):
        for seed, vdi in enumerate(values, 1):
            rid = f"{part}-{seed}"
            runs.append(run(rid, part, seed, n=n))
            flows.append({"run_id": rid, "flow": 0, "receiver": 0, "label": part, "goodput_bps": 1e6})
            series[(rid, "video_summary")] = pd.DataFrame({"flow": [0], "receiver": [0], "vdi": [vdi]})
    return video.four_layers_suffice(figure_data(FIG["fig8-10"], runs, flows, series))


# Ten seeds of k = 5 with sample standard deviation s; k = 4 the same values shifted by −δ·s.
_K5 = [0.90 + 0.01 * z for z in (-1.5, -1.0, -0.6, -0.3, -0.1, 0.1, 0.3, 0.6, 1.0, 1.5)]
_S = float(pd.Series(_K5).std())


def test_c26_counts_the_spread_of_both_means():
    # k = 4 lies 0.8·s below k = 5: below k = 5's own 95 % interval (half-width 2.262·s/√10 =
    # 0.715·s) but within the interval of the difference (Welch, 2.101·s·√0.2 = 0.940·s). Fails
    # before the fix, which set the k = 4 mean against k = 5's interval alone.
    out = _layers(_K5, [x - 0.8 * _S for x in _K5])
    assert out.status == PASS, out.explanation
    assert out.measured["VDI k=4 − k=5, 95 % CI high [n=15]"] == pytest.approx(0.940 * _S - 0.8 * _S, abs=2e-4)
    assert _layers(_K5, [x - 1.2 * _S for x in _K5]).status == FAIL  # beyond the difference's interval


def test_c26_is_not_looser_with_two_seeds():
    # Two seeds: k = 5's interval alone is 12.7·s/√2 = 8.98·s wide on each side, the difference's
    # 4.30·s (Welch, 2 degrees of freedom); k = 4 at 6·s below passed the earlier check and fails now.
    k5 = [0.90, 0.91]
    s = float(pd.Series(k5).std())
    out = _layers(k5, [x - 6 * s for x in k5])
    assert out.status == FAIL and "significantly below" in out.explanation


def test_c8_reads_tcpw_drop_rate_at_the_application_like_the_others():
    # TCPW+ loses 2 % of its segments in the network (and retransmits them) but never delivers 60 %
    # of the packets its application sent; DVRC loses 4 %. Fails before the fix, which read TCPW+'s
    # network drop ratio (0.02, below DVRC's 0.04) where the paper's rate is lost ÷ sent by the
    # application, as it already was for TFRC.
    runs, flows, series = [], [], {}
    for label, network, app in (("dvrc", 0.04, 0.04), ("tfrc", 0.03, 0.5), ("tcpw+", 0.02, 0.6)):
        rid = f"{label}-10"
        runs.append(run(rid, label, n=10))
        flows.append({"run_id": rid, "flow": 0, "receiver": 0, "label": label, "drop_rate": network})
        series[(rid, "video_summary")] = pd.DataFrame({"flow": [0], "receiver": [0], "packet_drop_rate": [app]})
    d = figure_data(FIG["fig8-10"], runs, flows, series)
    out = video.s2_drop_rate_dvrc_lowest(d)
    assert out.status == PASS, out.explanation
    assert out.measured["packet drop rate[tcpw+,n=10]"] == pytest.approx(0.6)
    series[("tcpw+-10", "video_summary")]["packet_drop_rate"] = [0.03]  # TCPW+ delivers more than DVRC
    assert video.s2_drop_rate_dvrc_lowest(figure_data(FIG["fig8-10"], runs, flows, series)).status == FAIL


def test_all_of_keeps_the_explaining_failures_count_where_two_orderings_share_a_name():
    # Two orderings of one metric both count "VDI: more points failing"; the explanation is the
    # first failure's ("(and 2 more)"), so measured must hold its count, not the second's.
    import pandas as pd

    from vidcc.papers.verdicts import all_of, ordering

    s = pd.DataFrame({"n": [1, 2, 3] * 3, "label": ["a"] * 3 + ["b"] * 3 + ["c"] * 3,
                      "mean": [0.5, 0.5, 0.5, 0.9, 0.9, 0.9, 0.6, 0.6, 0.4]})
    v = all_of(ordering(s, "a", "b", by="n", name="VDI"), ordering(s, "a", "c", by="n", name="VDI"))
    assert "(and 2 more)" in v.explanation
    assert [x for k, x in v.measured.items() if "more" in k] == [2], v.measured
