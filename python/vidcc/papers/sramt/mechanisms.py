"""Checks of SRAMT's mechanisms on their own numbers: the TCP model (Eq. 1), the loss filter
(Eq. 10), the RTT estimator (Eqs. 14–16, and against the true RTT in Fig. 2), the sender's rate
rules (Eqs. 5–6), feedback from every receiver and partial suppression (§7).

The unit-level numbers come from ``_vidcc.sramt_unit_measurements``; each is held against a value
this module computes independently (Eq. 1 in Python) or the paper states.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import trace
from vidcc.papers.sramt.scenarios import FIG2_REVERSE_S
from vidcc.papers.sramt.trace import rounded as _r
from vidcc.papers.sramt.trace import verdict as _v
from vidcc.papers.verdicts import no_data


def _units() -> dict[str, float]:
    from vidcc import _vidcc

    return dict(_vidcc.sramt_unit_measurements())


def eq1(loss: float, rtt: float, p: float) -> float:
    """Eq. 1 with D = 1, t_out = 4·RTT (bytes/s), computed here independently of the Rust code."""
    return p / (rtt * math.sqrt(2 * loss / 3)
                + 4 * rtt * min(1.0, 3 * math.sqrt(3 * loss / 8)) * loss * (1 + 32 * loss * loss))


C01_VECTORS = [(0.001, 0.06, 1000.0, 639_739.4), (0.01, 0.06, 1000.0, 187_220.4), (0.05, 0.10, 1000.0, 36_858.9),
               (0.10, 0.20, 1000.0, 8_850.5), (0.30, 0.06, 1000.0, 3_265.9), (0.02, 0.12, 500.0, 30_520.4)]


def tcp_model_vectors(_d) -> Verdict:
    """C01: the implementation's Eq. 1 against Eq. 1 computed here and the paper's rounded values."""
    m = _units()
    rel = max(abs(m[f"c01_f{i}"] - eq1(x, r, p)) / eq1(x, r, p) for i, (x, r, p, _) in enumerate(C01_VECTORS))
    paper = max(abs(m[f"c01_f{i}"] - want) for i, (*_, want) in enumerate(C01_VECTORS))
    ok = rel < 1e-9 and paper <= 0.051
    measured = {"vectors": len(C01_VECTORS), "max relative error vs Eq. 1": rel,
                "max |error| vs the paper's rounded vectors B/s": round(paper, 4)}
    return _v(ok, measured, f"implementation's Eq. 1 at the {len(C01_VECTORS)} vectors: relative error {rel:.2g} "
                            f"(< 1e-9), within {paper:.3f} B/s of the paper's rounded values")


def loss_filter_vectors(_d) -> Verdict:
    """C02: the 8-tap filter on a loss of 0.02 in the newest interval and 0.05 in the oldest."""
    m = _units()
    want_new, want_old = 0.02 / 6, 0.01 / 6  # weight 1 of a sum of 6; weight 0.2 × 0.05 of 6
    ok = max(abs(m["c02_newest"] - want_new), abs(m["c02_oldest"] - want_old)) < 1e-12
    measured = {"newest 0.02": m["c02_newest"], "want newest": want_new, "oldest 0.05": m["c02_oldest"],
                "want oldest": want_old}
    return _v(ok, measured, f"8-tap filter: {m['c02_newest']:.7f} (want {want_new:.7f}) and {m['c02_oldest']:.7f} "
                            f"(want {want_old:.7f})")


# C03's calibration sequence (the unit measurement's inputs, s): OWD before any echo, the echoed
# RTT and the OWD at the echo, then two later OWDs.
C03_INPUTS = {"OWD before any echo s": 0.030, "echoed RTT s": 0.100, "OWD at the echo s": 0.040,
              "later OWD 1 s": 0.050, "later OWD 2 s": 0.020}


def rtt_calibration(_d) -> Verdict:
    """C03: before an echo the estimate is twice the OWD; at the echo it is the echoed RTT; then it
    scales with OWD / OWD at the echo (Eqs. 14–16)."""
    m = _units()
    i = C03_INPUTS
    want = {"c03_before_echo": 2 * i["OWD before any echo s"], "c03_at_echo": i["echoed RTT s"],
            "c03_owd_50ms": i["echoed RTT s"] * i["later OWD 1 s"] / i["OWD at the echo s"],
            "c03_owd_20ms": i["echoed RTT s"] * i["later OWD 2 s"] / i["OWD at the echo s"]}
    ok = all(abs(m[k] - w) < 1e-12 for k, w in want.items())
    measured = {**i, **{k: m[k] for k in want}}
    return _v(ok, measured, f"OWD {i['OWD before any echo s'] * 1e3:g} ms before any echo → "
                            f"{m['c03_before_echo']:.3f} s (twice the OWD); echo {i['echoed RTT s'] * 1e3:g} ms at OWD "
                            f"{i['OWD at the echo s'] * 1e3:g} ms → {m['c03_at_echo']:.3f} s; then OWD "
                            f"{i['later OWD 1 s'] * 1e3:g} / {i['later OWD 2 s'] * 1e3:g} ms → "
                            f"{m['c03_owd_50ms']:.3f} / {m['c03_owd_20ms']:.3f} s (scaled by the OWD)")


def rate_rule(names: list[str], what: str) -> Verdict:
    """C05–C07: the sender's rate rules hold after every one of many random reports."""
    m = _units()
    updates = sum(m[f"c05_c06_{v}_updates"] for v in ("s", "le"))
    bad = sum(m[n] for n in names)
    return _v(bad == 0 and updates > 0, {"random reports": int(updates), "violations": int(bad)},
              f"{what}: {int(bad)} violations after {int(updates)} random reports through the sender (S and LE)")


def suppression_bound(_d) -> Verdict:
    """C29: reports per round under partial suppression at 10,000 receivers, against the paper's
    bound of 10 at T_rand = 6c; at 4c the bound must be crossed, so that the check can tell."""
    m = _units()
    ok = m["c29_6c"] < 10 and m["c29_4c"] > 10
    measured = {"receivers": 10_000, "lambda": 10, "reports/round T_rand = 6c": m["c29_6c"],
                "reports/round T_rand = 4c": m["c29_4c"], "paper reports/round 6c": "7.2–7.3",
                "paper reports/round 4c": 17.3}
    return _v(ok, measured, f"10000 receivers, λ = 10: {m['c29_6c']:.1f} reports per round at T_rand = 6c (< 10; "
                            f"paper ≈ 7.2–7.3), {m['c29_4c']:.1f} at 4c (paper ≈ 17.3: the bound is crossed there, so "
                            "the check can tell)")


def feedback_gaps(runs: Sequence[trace.Run], interval_s: float = 5.0) -> Verdict:
    """C28: after warm-up, each receiver's reports reach the sender at most 2 RTCP minimum intervals apart."""
    worst, who = 0.0, ""
    for run in runs:
        fb = run.feedback[run.feedback["t_s"] > run.warmup_s]
        for r in run.nodes:
            t = np.sort(fb[fb["receiver"] == r]["t_s"].to_numpy())
            edges = np.concatenate([[run.warmup_s], t, [run.duration_s]])
            g = float(np.max(np.diff(edges)))
            if g > worst:
                worst, who = g, f"{run.nodes[r]} (seed {run.seed})"
    if not runs:
        return no_data("runs")
    measured = {"longest gap between reports s": _r(worst, 2), "RTCP interval s": interval_s, "bound s": 2 * interval_s,
                "longest gap at": who}
    return _v(worst <= 2 * interval_s, measured,
              f"longest gap between a receiver's reports {worst:.2f} s ({who}); bound {2 * interval_s:g} s (two RTCP "
              f"intervals of {interval_s:g} s)")


MEDIAN_ERROR_ALLOWED = 0.2  # C04: "follows the real RTT in most of the cases" as a median relative error [R]


def rtt_tracking(runs: Sequence[trace.Run], reverse_s: Mapping[str, float]) -> Verdict:
    """C04: per 1 s bin after the first 10 s, the receiver's mean RTT estimate against the true
    RTT (the bin's mean one-way delay of its data plus the unloaded reverse path): median
    relative error ≤ 0.2 and Pearson ρ > 0.5."""
    errs, est_all, true_all = [], [], []
    for run in runs:
        for r, node in run.nodes.items():
            e = run.rtt[run.rtt["receiver"] == r]
            e = e.assign(bin=np.ceil(e["t_s"]))
            est = e[e["t_s"] > 10.0].groupby("bin")["rtt_s"].mean()
            s = run.samples[run.samples["receiver"] == r].set_index("t_s")["delay_s"]
            true = (s + reverse_s[node]).reindex(est.index).dropna()
            est = est.reindex(true.index)
            errs += list((est - true).abs() / true)
            est_all += list(est)
            true_all += list(true)
    if len(errs) < 3:
        return no_data("RTT estimates")
    med = float(np.median(errs))
    rho = float(np.corrcoef(est_all, true_all)[0, 1])
    measured = {"median relative error": _r(med), "p90 relative error": _r(float(np.percentile(errs, 90))),
                "rho": _r(rho), "bins": len(errs)}
    return _v(med <= MEDIAN_ERROR_ALLOWED and rho > 0.5, measured,
              f"median relative error {med:.3f} (≤ {MEDIAN_ERROR_ALLOWED:g}), ρ = {rho:.3f} (> 0.5) over {len(errs)} "
              "1 s bins")


def _estimate_and_truth(runs: Sequence[trace.Run], reverse_s: Mapping[str, float]) -> tuple[np.ndarray, np.ndarray]:
    """Per 1 s bin after the first 10 s, over every receiver of every run: the receiver's mean RTT
    estimate and the true RTT (its data's one-way delay plus the reverse path), aligned."""
    est_out, true_out = [], []
    for run in runs:
        for r, node in run.nodes.items():
            e = run.rtt[(run.rtt["receiver"] == r) & (run.rtt["t_s"] > 10.0)]
            est = e.assign(bin=np.ceil(e["t_s"])).groupby("bin")["rtt_s"].mean()
            s = run.samples[run.samples["receiver"] == r].set_index("t_s")["delay_s"]
            true = (s + reverse_s[node]).reindex(est.index).dropna()
            est_out += list(est.reindex(true.index))
            true_out += list(true)
    return np.asarray(est_out, dtype=float), np.asarray(true_out, dtype=float)


def rtt_bias(runs: Sequence[trace.Run], reverse_s: Mapping[str, float], measured: dict) -> str:
    """C04's cause: how far and which way the estimate misses the true RTT."""
    est, true = _estimate_and_truth(runs, reverse_s)
    med = float(np.median(est / true)) if len(est) else math.nan
    gap = float(np.median(true - est)) * 1e3 if len(est) else math.nan
    measured["median estimate / true RTT"] = _r(med, 3)
    measured["median true − estimated RTT ms"] = _r(gap, 2)
    return (f"the estimate runs {abs(1 - med):.0%} {'below' if med < 1 else 'above'} the true RTT in median (ratio "
            f"{med:.3f}, {abs(gap):.1f} ms): it is calibrated on the RTCP RTT, measured with small SR/RR packets, "
            "against the one-way delay of full-size data packets, and then scales that calibration with the one-way "
            "delay (Eq. 16), so a delay the reports do not pay stays in the ratio")


def _ratios(runs: Sequence[trace.Run], reverse_s: Mapping[str, float]) -> np.ndarray:
    """Per 1 s bin after the first 10 s: the receiver's mean RTT estimate / the true RTT (as C04)."""
    est, true = _estimate_and_truth(runs, reverse_s)
    return est / true


def underestimate_bound(runs: Sequence[trace.Run], reverse_s: Mapping[str, float], measured: dict) -> str:
    """C04's bound: each bin's relative error |1 − ratio| is at least its shortfall max(0, 1 − ratio),
    so the median error is at least the median shortfall: what Eq. 16's calibration on the RTCP
    RTT alone costs, whatever the estimate does above the true RTT."""
    ratios = _ratios(runs, reverse_s)
    if not len(ratios):
        raise ValueError("no RTT estimates in the runs")
    below = float(np.mean(ratios < 1))
    bound = float(np.median(np.maximum(0.0, 1 - ratios)))
    measured["share of bins with the estimate below the true RTT"] = _r(below, 3)
    measured["median shortfall (lower bound on the median relative error)"] = _r(bound, 3)
    measured["bins with an estimate"] = len(ratios)
    measured["median relative error allowed"] = MEDIAN_ERROR_ALLOWED
    return (f"the estimate lies below the true RTT in {below:.0%} of the {len(ratios)} bins; the median shortfall "
            f"max(0, 1 − estimate/true) = {bound:.3f} bounds the median relative error from below "
            f"({'above' if bound > MEDIAN_ERROR_ALLOWED else 'within'} the {MEDIAN_ERROR_ALLOWED:g} the check allows)")


def rtt_underestimate_fig2(d, measured: dict) -> str:
    return underestimate_bound(trace.runs_of(d, "sramt-s", "sramt-s", False), {"D": FIG2_REVERSE_S}, measured)


def rtt_tracks_fig2(d) -> Verdict:
    """C04 on Fig. 2's runs."""
    return rtt_tracking(trace.runs_of(d, "sramt-s", "sramt-s", False), {"D": FIG2_REVERSE_S})


def rtt_bias_fig2(d, measured: dict) -> str:
    return rtt_bias(trace.runs_of(d, "sramt-s", "sramt-s", False), {"D": FIG2_REVERSE_S}, measured)
