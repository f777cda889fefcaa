"""The checks of C31 and C32 (digest ``specs/004-sramt.md`` §5.5): the layered baselines RLC and
MLDA against SRAMT-LE, each meeting one Tahoe flow on the suite's common bottleneck (figure
``fig15-19``, parts named after the protocol, the scheme's flow labelled with it and the Tahoe
flow ``tcp``; one receiver behind the 1 Mbit/s RED link).

Per 1 s bin after warm-up, the scheme's traffic is what its receiver gets (its access link is
loss-free, so that is what left the bottleneck for it) and TCP's is its flow's throughput. F =
mean scheme / mean TCP throughput per run, averaged over runs; starvation windows as in C12
(:func:`vidcc.papers.sramt.sharing.starvation_windows`, 10 s windows, one class < 10 % of the
link while the other has > 80 %); convergence time (digest §4) = the time of the receiver's last
level change, from the flow's start (0 if it never moves).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import sharing, trace
from vidcc.papers.verdicts import no_data

CAPACITY_BPS = 1e6  # the common bottleneck
TCP_LABEL = "tcp"
LE = "sramt-le"


def _runs(data, part: str) -> list[trace.Run]:
    return trace.runs_of(data, part, part, True)


def shares(data, run: trace.Run) -> pd.DataFrame:
    """1 s bins after warm-up: column ``sramt`` the scheme's received rate (the name
    :func:`sharing.starvation_windows` reads), ``tcp`` the Tahoe flow's throughput."""
    s = run.samples[run.samples["t_s"] > run.warmup_s].groupby("t_s")["throughput_bps"].max()
    tcp = trace.series_of(data, run.run_id, [TCP_LABEL])
    tcp = tcp[tcp["t_s"] > run.warmup_s].groupby("t_s")["throughput_bps"].sum()
    return pd.DataFrame({"sramt": s, "tcp": tcp}).fillna(0.0)


def friendliness(data, part: str) -> tuple[float, int, list[float]] | None:
    """(mean F over runs, starvation windows summed over runs, F per run); None without runs."""
    runs = _runs(data, part)
    if not runs:
        return None
    fs, starve = [], 0
    for run in runs:
        s = shares(data, run)
        fs.append(float(s["sramt"].mean() / s["tcp"].mean()) if s["tcp"].mean() > 0 else math.inf)
        starve += sharing.starvation_windows(s, CAPACITY_BPS)
    return float(np.mean(fs)), starve, fs


def starved_sides(data, part: str) -> tuple[int, int]:
    """Starvation windows split by who starves: (the scheme < 10 % while TCP > 80 %, the reverse)."""
    scheme, tcp = 0, 0
    for run in _runs(data, part):
        s = shares(data, run)
        w = s.groupby((s.index // sharing.STARVE_WINDOW_S).astype(int)).mean() / CAPACITY_BPS
        scheme += int(((w["sramt"] < 0.1) & (w["tcp"] > 0.8)).sum())
        tcp += int(((w["tcp"] < 0.1) & (w["sramt"] > 0.8)).sum())
    return scheme, tcp


def convergence_s(runs: Sequence[trace.Run]) -> float:
    """Mean over runs of the last level change of the receiver, seconds after the flow's start."""
    last = [float(r.changes["t_s"].max()) - r.start_s if len(r.changes) else 0.0 for r in runs]
    return float(np.mean(last)) if last else math.nan


def _r(x: float, n: int = 3) -> float:
    return float(round(x, n)) if math.isfinite(x) else x


def c31(d) -> Verdict:
    """F_RLC > 1; |F_SRAMT-LE − 1| < |F_RLC − 1|; no starvation window either way, for either."""
    rlc, le = friendliness(d, "rlc"), friendliness(d, LE)
    if rlc is None or le is None:
        return no_data("the rlc and sramt-le parts of fig15-19")
    (f_rlc, st_rlc, _), (f_le, st_le, _) = rlc, le
    aggressive, friendlier, calm = f_rlc > 1.0, abs(f_le - 1) < abs(f_rlc - 1), st_rlc == 0 and st_le == 0
    rlc_starved, tcp_starved = starved_sides(d, "rlc")
    measured = {"F_RLC": _r(f_rlc), "F_SRAMT-LE": _r(f_le), "starvation windows RLC": st_rlc, "starvation windows SRAMT-LE": st_le,
                "windows RLC starved / TCP starved": f"{rlc_starved} / {tcp_starved}"}
    text = (f"F_RLC = {f_rlc:.3f} ({'>' if aggressive else '≤'} 1), |F_SRAMT-LE − 1| = {abs(f_le - 1):.3f} "
            f"{'<' if friendlier else '≥'} |F_RLC − 1| = {abs(f_rlc - 1):.3f}; starvation windows RLC {st_rlc}, SRAMT-LE {st_le}")
    return Verdict("PASS" if aggressive and friendlier and calm else "FAIL", measured, text)


def c32(d) -> Verdict:
    """Starvation windows MLDA > SRAMT-LE = 0; convergence time MLDA > SRAMT-LE."""
    mlda, le = friendliness(d, "mlda"), friendliness(d, LE)
    if mlda is None or le is None:
        return no_data("the mlda and sramt-le parts of fig15-19")
    st_mlda, st_le = mlda[1], le[1]
    conv_mlda, conv_le = convergence_s(_runs(d, "mlda")), convergence_s(_runs(d, LE))
    starves, slower = st_le == 0 and st_mlda > st_le, conv_mlda > conv_le
    mlda_starved, tcp_starved = starved_sides(d, "mlda")
    measured = {"starvation windows MLDA": st_mlda, "starvation windows SRAMT-LE": st_le,
                "windows MLDA starved / TCP starved": f"{mlda_starved} / {tcp_starved}",
                "convergence s MLDA": _r(conv_mlda, 1), "convergence s SRAMT-LE": _r(conv_le, 1),
                "F_MLDA": _r(mlda[0]), "F_SRAMT-LE": _r(le[0])}
    text = (f"starvation windows MLDA {st_mlda} vs SRAMT-LE {st_le} (want MLDA > SRAMT-LE = 0); convergence time MLDA "
            f"{conv_mlda:.0f} s {'>' if slower else '≤'} SRAMT-LE {conv_le:.0f} s")
    return Verdict("PASS" if starves and slower else "FAIL", measured, text)


# --------------------------------------------------------------------------------------------
# Causes (stated after a FAIL), measured from the same runs


def _protocol(data, part: str) -> dict:
    """The scheme's resolved protocol configuration in the part's first run."""
    row = data.runs(part).to_dict("records")[0]
    resolved = json.loads(row.get("resolved_json") or "{}")
    cfg = next((f for f in resolved.get("flows", []) if f.get("label") == part), {})
    return cfg.get("protocol") if isinstance(cfg.get("protocol"), dict) else {}


def _levels(run: trace.Run) -> tuple[float, int, float]:
    """(time-weighted mean level after warm-up, level drops, run seconds after warm-up)."""
    r = next(iter(run.nodes))
    ts = np.arange(run.warmup_s, run.duration_s, 0.5)
    mean = float(np.mean([run.position_at(r, t) for t in ts])) if len(ts) else math.nan
    c = run.changes[run.changes["t_s"] > run.warmup_s]
    return mean, int((c["to"] < c["from"]).sum()), run.duration_s - run.warmup_s


def c31_cause(d, measured: dict) -> str:
    runs = _runs(d, "rlc")
    if not runs:
        return "no rlc runs"
    lv = [_levels(r) for r in runs]
    mean_level = float(np.mean([x[0] for x in lv]))
    drops = sum(x[1] for x in lv) / sum(x[2] for x in lv) * 100
    p = _protocol(d, "rlc")
    b0, p0 = float(p.get("base_rate_bps", math.nan)), float(p.get("sp_interval_ns", math.nan)) / 1e9
    rlc_starved, tcp_starved = starved_sides(d, "rlc")
    rtt = 0.06  # the common bottleneck's base RTT (5 + 20 + 5 ms each way)
    tcp_slope = 8 * 1000 / rtt**2
    measured["RLC mean level"] = _r(mean_level, 2)
    measured["RLC drops per 100 s"] = _r(drops, 1)
    measured["RLC increase bit/s per s"] = _r(b0 / p0, 0)
    return (f"RLC holds level {mean_level:.2f} on average (cumulative {b0 * 2 ** (mean_level - 1) / 1e3:.0f} kbit/s at that level) "
            f"and drops a layer {drops:.1f} times per 100 s (a drop halves its rate; RLC starves in {rlc_starved} and TCP in "
            f"{tcp_starved} of the 10 s windows); between drops it climbs at the pace its synchronisation points "
            f"set, B₀/P₀ = {b0 / 1e3:g} kbit/s per {p0:g} s whatever the level, while Tahoe at the 60 ms base RTT adds a packet "
            f"per RTT, about {tcp_slope / 1e6:.1f} Mbit/s per s: RLC emulates a TCP whose RTT is its point spacing, not the "
            "path's, so on this path it is the less aggressive one (its parameters are [R]: the digest records none)")


def c32_cause(d, measured: dict) -> str:
    parts = []
    for part in ("mlda", LE):
        runs = _runs(d, part)
        if not runs:
            continue
        lows = []
        for run in runs:
            s = shares(d, run)
            w = s.groupby((s.index // sharing.STARVE_WINDOW_S).astype(int)).mean() / CAPACITY_BPS
            lows.append((float(w["sramt"].min()), float(w["tcp"].min())))
        lo_s, lo_t = min(x[0] for x in lows), min(x[1] for x in lows)
        changes = float(np.mean([len(r.changes) / max(1.0, r.duration_s - r.start_s) * 100 for r in runs]))
        measured[f"{part} least 10 s share scheme / TCP"] = f"{lo_s:.3f} / {lo_t:.3f}"
        measured[f"{part} level changes per 100 s"] = _r(changes, 1)
        parts.append(f"{part}: least 10 s share of the link {lo_s:.0%} (scheme) / {lo_t:.0%} (TCP), "
                     f"{changes:.1f} level changes per 100 s")
    why = []
    if measured.get("starvation windows MLDA", 0) == 0:
        why.append("no 10 s window reaches starvation (< 10 % against > 80 %) with MLDA: MLDA's rate is LDA+'s "
                   "max(r·(1 − √l), r_TCP) from a loss share measured every second, re-sized into its layers every round, "
                   "so it oscillates around the TCP model's rate rather than running away or collapsing")
    if not measured.get("convergence s MLDA", 0) > measured.get("convergence s SRAMT-LE", 0):
        why.append("SRAMT-LE's receiver keeps changing level as late as MLDA's (both last move near the run's end: "
                   "neither settles, so the last change does not separate them)")
    return "; ".join(why + parts)
