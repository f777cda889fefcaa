"""Checks of the group rates SRAMT's sender announces and the receivers get (paper §§8.1–8.3):
simulcast steadier than layered (C15), a low base rate in Scenario B (C18, C23), LE against S
(C21) and droptail against RED (C26).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import trace
from vidcc.papers.sramt.adaptation import cycling
from vidcc.papers.sramt.trace import rounded as _r
from vidcc.papers.sramt.trace import verdict as _v
from vidcc.papers.verdicts import no_data


def group_cov(run: trace.Run, layered: bool) -> float:
    """Mean coefficient of variation of the announced rates of the groups (S) or of the
    cumulative rates C_k (LE), 1 s samples after warm-up."""
    n = len(run.bands) or 3
    series = [run.rate_series(g, run.warmup_s, run.duration_s) for g in range(1, n + 1)]
    if layered:
        series = [np.sum(series[:k], axis=0) for k in range(1, n + 1)]
    covs = [float(np.std(x) / np.mean(x)) for x in series if len(x) and np.mean(x) > 0]
    return float(np.mean(covs)) if covs else math.nan


def steadier(runs_s: Sequence[trace.Run], runs_le: Sequence[trace.Run]) -> Verdict:
    if not runs_s or not runs_le:
        return no_data("Scenario A runs of both variants")
    s = float(np.mean([group_cov(r, False) for r in runs_s]))
    le = float(np.mean([group_cov(r, True) for r in runs_le]))
    return _v(s < le, {"mean CoV S stream rates": _r(s), "mean CoV LE cumulative rates": _r(le)},
              f"mean CoV of the S stream rates {s:.3g} {'<' if s < le else '≥'} LE cumulative rates {le:.3g}")


def mean_rate(run: trace.Run, group: int, from_share: float = 0.5) -> float:
    return float(np.mean(run.rate_series(group, from_share * run.duration_s, run.duration_s)))


def low_base_rate(runs: Sequence[trace.Run], what: str, paper_kbps: float) -> Verdict:
    """C18 / C23: the mean rate of group 1 over [0.5·D, D] is below 200 kbit/s (paper ≈ ``paper_kbps``)."""
    if not runs:
        return no_data(what)
    v = float(np.mean([mean_rate(r, 1) for r in runs])) / 1e3
    measured = {f"mean {what} rate kbit/s": _r(v, 1), "paper kbit/s": paper_kbps, "from (share of D)": 0.5}
    return _v(v < 200.0, measured, f"mean {what} rate over [0.5·D, D] {v:.1f} kbit/s ({'<' if v < 200 else '≥'} 200; "
                                   f"paper ≈ {paper_kbps:g})")


def droptail_lower(runs_red: Sequence[trace.Run], runs_dt: Sequence[trace.Run]) -> Verdict:
    """C26: each stream's mean rate lower under droptail; the relative drop largest for stream 1."""
    if not runs_red or not runs_dt:
        return no_data("Scenario B3 and B4 runs")
    measured = {}
    drops = {}
    for g in (1, 2, 3):
        red = float(np.mean([mean_rate(r, g, 0.1) for r in runs_red]))
        dt = float(np.mean([mean_rate(r, g, 0.1) for r in runs_dt]))
        drops[g] = 1 - dt / red if red > 0 else math.nan
        measured[f"stream {g} RED kbit/s"] = _r(red / 1e3, 1)
        measured[f"stream {g} droptail kbit/s"] = _r(dt / 1e3, 1)
        measured[f"stream {g} relative drop"] = _r(drops[g])
    lower = all(d > 0 for d in drops.values())
    largest = drops[1] >= max(drops[2], drops[3])
    return _v(lower and largest, measured,
              f"relative drop under droptail: stream 1 {drops[1]:.3g}, stream 2 {drops[2]:.3g}, stream 3 {drops[3]:.3g}"
              f" ({'every stream lower' if lower else 'not every stream lower'}; "
              f"{'largest for stream 1' if largest else 'not largest for stream 1'})")


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
    return droptail_lower(trace.other_runs(d, "fig13", "sramt-s", False), trace.part_runs(d, "sramt-s", False))


def droptail_lowers_rates_cause(d, measured) -> str:
    """C26: how much the stream-1 receivers lose under each queue, and how close stream 1 runs to
    its band floor under each (a stream at its floor cannot be lowered)."""
    def loss(fd, nodes):
        f = fd.flows("sramt-s", where={"label": "sramt-s"})
        return float(f[f["dst"].isin(nodes)]["drop_rate"].mean())

    red_l, dt_l = loss(d.other("fig13"), ["R3", "R5"]), loss(d, ["R3", "R5"])
    measured["stream-1 receivers' loss RED / droptail"] = f"{red_l:.4f} / {dt_l:.4f}"
    parts = []
    for name, runs in (("RED", trace.other_runs(d, "fig13", "sramt-s", False)),
                       ("droptail", trace.part_runs(d, "sramt-s", False))):
        floor = runs[0].bands[0][0] if runs and runs[0].bands else math.nan
        rate = float(np.mean([mean_rate(r, 1, 0.1) for r in runs])) if runs else math.nan
        measured[f"stream 1 over its band floor[{name}]"] = _r(rate / floor, 3)
        parts.append(f"{name} {rate / floor:.2f}")
    return (f"the stream-1 receivers R3, R5 lose {red_l:.2%} of their packets with RED and {dt_l:.2%} with droptail; "
            f"stream 1's mean rate is {', '.join(parts)} times its band floor")
