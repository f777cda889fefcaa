"""Checks of the group rates SRAMT's sender announces and the receivers get (paper §§8.1–8.3):
simulcast steadier than layered (C15), a low base rate in Scenario B (C18, C23), LE against S
(C21) and droptail against RED (C26).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import schemes, trace
from vidcc.papers.sramt.adaptation import cycling
from vidcc.papers.sramt.trace import rounded as _r
from vidcc.papers.sramt.trace import verdict as _v
from vidcc.papers.verdicts import no_data


def steadier(runs_s: Sequence[trace.Run], runs_le: Sequence[trace.Run]) -> Verdict:
    """C15 (§8.1: "SRAMT-S ... keeps the transmission rates of the streams more invariable than
    SRAMT-LE ... keeps the transmission rates of the layers"): the mean CoV of the announced stream
    rates (S) against that of the announced layer rates r_layer-j (LE), the groups held after
    warm-up (:func:`schemes.announced_cov`, the CoV C33 judges). The cumulative rates' CoV is
    reported beside it."""
    if not runs_s or not runs_le:
        return no_data("Scenario A runs of both variants")
    s = float(np.mean([schemes.announced_cov(r) for r in runs_s]))
    le = float(np.mean([schemes.announced_cov(r) for r in runs_le]))
    cumulative = float(np.mean([cumulative_cov(r) for r in runs_le]))
    measured = {"mean CoV S stream rates": _r(s), "mean CoV LE layer rates": _r(le),
                "mean CoV LE cumulative rates (reported)": _r(cumulative)}
    return _v(s < le, measured, f"mean CoV of the S stream rates {s:.3g} {'<' if s < le else '≥'} LE layer rates "
                                f"{le:.3g} (LE cumulative rates {cumulative:.3g}, reported)")


def cumulative_cov(run: trace.Run) -> float:
    """Mean CoV of the cumulative rates C_k of the levels held after warm-up (1 s samples)."""
    layers = schemes.held_groups(run)
    series = [run.rate_series(g, run.warmup_s, run.duration_s) for g in layers]
    covs = []
    for k in range(1, len(series) + 1):
        x = np.sum(series[:k], axis=0)
        if len(x) and np.mean(x) > 0:
            covs.append(float(np.std(x) / np.mean(x)))
    return float(np.mean(covs)) if covs else math.nan


def mean_rate(run: trace.Run, group: int, from_share: float = 0.5) -> float:
    return float(np.mean(run.rate_series(group, from_share * run.duration_s, run.duration_s)))


EXPECTED_GROUP1_KBPS = 200.0  # what §8.2 says group 1 should carry "based on the topology"


def low_base_rate(runs: Sequence[trace.Run], what: str, paper_kbps: float) -> Verdict:
    """C18 / C23 (§8.2: group 1's rate "is close to 120 [100] Kbps and not close to 200 Kbps"): the
    mean announced rate of group 1 over [0.5·D, D] is closer to the paper's value than to 200 kbit/s,
    i.e. below their midpoint. (Below 200 alone would hold for any rate under the band's top.)"""
    if not runs:
        return no_data(what)
    v = float(np.mean([mean_rate(r, 1) for r in runs])) / 1e3
    mid = (paper_kbps + EXPECTED_GROUP1_KBPS) / 2
    measured = {f"mean {what} rate kbit/s": _r(v, 1), "paper kbit/s": paper_kbps,
                "expected by the topology kbit/s": EXPECTED_GROUP1_KBPS, "midpoint kbit/s": mid,
                "from (share of D)": 0.5}
    closer = "closer to" if v < mid else "not closer to"
    return _v(v < mid, measured, f"mean {what} rate over [0.5·D, D] {v:.1f} kbit/s, {closer} the paper's ≈ "
                                 f"{paper_kbps:g} than to {EXPECTED_GROUP1_KBPS:g} (midpoint {mid:g})")


# Scenario B's receivers by the stream §8.2 expects them on in B3 / B4 (the low bit rate streams first).
RECEIVERS_BY_STREAM = {1: ("R3", "R5"), 2: ("R2", "R4"), 3: ("R1",)}
HIGH_RATE_STREAM = 3  # the one stream not of "the low bit rate streams" (§8.2)


def received_kbps(data, nodes: Sequence[str]) -> float:
    """Mean received rate (kbit/s, after warm-up, mean over runs) of the SRAMT-S receivers at ``nodes``."""
    f = data.flows("sramt-s", where={"label": "sramt-s"})
    f = f[f["dst"].isin(nodes)]
    return float(f["throughput_bps"].mean()) / 1e3 if len(f) else math.nan


def droptail_lower(data_red, data_dt) -> Verdict:
    """C26 (§8.2: with droptail "the bandwidth share of the SRAMT is reduced (comparing the bandwidth
    share which receives when we use RED) ... This phenomenon affects mainly the receivers of the low
    bit rate streams ... The streams that are affected the most are the streams with the smaller
    transmission rates"): each receiver class's mean received rate (by the stream §8.2 expects it on)
    lower under droptail (B4) than under RED (B3), and the relative drop of each low bit rate
    stream's receivers (streams 1 and 2: "streams", plural, of three) larger than that of the
    high-rate stream's R1. Which of streams 1 and 2 loses more the text does not say (the check
    once required stream 1's drop to be the largest: a singular the text does not have)."""
    if data_red is None or data_dt is None:
        return no_data("Scenario B3 and B4 runs")
    measured = {}
    drops = {}
    for g, nodes in RECEIVERS_BY_STREAM.items():
        red, dt = received_kbps(data_red, nodes), received_kbps(data_dt, nodes)
        drops[g] = 1 - dt / red if red > 0 else math.nan
        who = "+".join(nodes)
        measured[f"{who} (stream {g}) RED kbit/s"] = _r(red, 1)
        measured[f"{who} (stream {g}) droptail kbit/s"] = _r(dt, 1)
        measured[f"{who} (stream {g}) relative drop"] = _r(drops[g])
    lower = all(d > 0 for d in drops.values())
    mainly_low = all(drops[g] > drops[HIGH_RATE_STREAM] for g in drops if g != HIGH_RATE_STREAM)
    return _v(lower and mainly_low, measured,
              "relative drop of the received rate under droptail: "
              + ", ".join(f"{'+'.join(RECEIVERS_BY_STREAM[g])} {drops[g]:.3g}" for g in drops)
              + f" ({'every class lower' if lower else 'not every class lower'}; "
              f"{'' if mainly_low else 'not '}each low bit rate stream's receivers hit harder than R1)")


def layered_outperforms_simulcast(d) -> Verdict:
    s = d.flows("sramt-s", where={"label": "sramt-s"})
    le = d.other("fig11").flows("sramt-le", where={"label": "sramt-le"})
    if s.empty or le.empty:
        return Verdict("NOT-YET", {}, "no runs of both variants")
    tot_s = float(s.groupby("run_id")["throughput_bps"].sum().mean()) / 1e3
    tot_le = float(le.groupby("run_id")["throughput_bps"].sum().mean()) / 1e3
    measured = {"LE sum of receivers kbit/s": round(tot_le, 1), "S sum of receivers kbit/s": round(tot_s, 1)}
    return _v(tot_le > tot_s, measured, f"sum of the receivers' mean received rates: LE {tot_le:.0f} kbit/s "
                                        f"{'>' if tot_le > tot_s else '≤'} S {tot_s:.0f} kbit/s")


def layered_outperforms_simulcast_cause(d, measured) -> str:
    s = d.flows("sramt-s", where={"label": "sramt-s"}).groupby("dst")["throughput_bps"].mean() / 1e3
    le = d.other("fig11").flows("sramt-le", where={"label": "sramt-le"}).groupby("dst")["throughput_bps"].mean() / 1e3
    for node in sorted(s.index):
        measured[f"kbit/s {node} S / LE"] = f"{s[node]:.0f} / {le.get(node, math.nan):.0f}"
    worse = [n for n in sorted(s.index) if le.get(n, math.inf) < s[n]]
    return ("LE delivers less than S to " + ", ".join(f"{n} ({le[n]:.0f} vs {s[n]:.0f} kbit/s)" for n in worse)
            + "; " + cycling(trace.part_runs(d.other("fig11"), "sramt-le", True), measured))


def droptail_lowers_rates(d) -> Verdict:
    return droptail_lower(d.other("fig13"), d)


def droptail_lowers_rates_cause(d, measured) -> str:
    """C26: each receiver class's packet loss under each queue, and the announced rate of the stream
    it is expected on under each (a receiver gets its stream's rate when it holds that stream)."""
    def loss(fd, nodes):
        f = fd.flows("sramt-s", where={"label": "sramt-s"})
        return float(f[f["dst"].isin(nodes)]["drop_rate"].mean())

    runs = {"RED": trace.other_runs(d, "fig13", "sramt-s", False), "droptail": trace.part_runs(d, "sramt-s", False)}
    parts = []
    for g, nodes in RECEIVERS_BY_STREAM.items():
        who = "+".join(nodes)
        red_l, dt_l = loss(d.other("fig13"), nodes), loss(d, nodes)
        rate = {q: float(np.mean([mean_rate(r, g, 0.1) for r in rs])) / 1e3 if rs else math.nan
                for q, rs in runs.items()}
        measured[f"{who} loss RED / droptail"] = f"{red_l:.4f} / {dt_l:.4f}"
        measured[f"stream {g} announced kbit/s RED / droptail"] = f"{rate['RED']:.1f} / {rate['droptail']:.1f}"
        parts.append(f"{who} lose {red_l:.2%} with RED and {dt_l:.2%} with droptail, stream {g} is announced at "
                     f"{rate['RED']:.0f} / {rate['droptail']:.0f} kbit/s")
    return "; ".join(parts)
