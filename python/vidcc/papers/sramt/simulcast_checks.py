"""The checks of the simulcast comparison claims C33 (DSG) and C34 (IRFM) of the SRAMT digest
(``specs/004-sramt.md`` §5.5), over the common-bottleneck part of ``fig15-19``: each scheme's
one receiver behind a 1 Mbit/s RED bottleneck shared with one Tahoe flow.

Operational definitions (digest §4, [R]):

* stability: the coefficient of variation of each stream's announced rate (1 s samples after the
  warm-up), averaged over the streams the receiver held at some time after the warm-up (a stream
  nobody receives keeps its rate and would dilute the mean with zeros for both schemes);
* friendliness F: the scheme's mean received throughput over the measurement window divided by
  the Tahoe flow's on the same link;
* convergence time: the time of the receiver's last change of stream (0 if it never changed).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import trace

PASS, FAIL = "PASS", "FAIL"


def _r(x: float, n: int = 4) -> float:
    return float(round(x, n)) if math.isfinite(x) else x


def runs(d, proto: str) -> list[trace.Run]:
    """The runs of one scheme's part (its flow is labelled with the protocol's name); none when
    its tables lack what a trace needs (a receiver's node)."""
    try:
        return trace.runs_of(d, proto, proto, False)
    except KeyError:
        return []


def held_streams(run: trace.Run) -> list[int]:
    """The streams (1-based) any receiver held at some time after the warm-up."""
    held = set()
    for r in run.nodes:
        held.add(run.position_at(r, run.warmup_s))
        c = run.changes[(run.changes["receiver"] == r) & (run.changes["t_s"] > run.warmup_s)]
        held.update(int(x) for x in c["to"])
    return sorted(held)


def stream_cov(run: trace.Run) -> float:
    """Mean CoV of the announced rates of the streams held after the warm-up."""
    covs = []
    for g in held_streams(run):
        x = run.rate_series(g, run.warmup_s, run.duration_s)
        if len(x) and np.mean(x) > 0:
            covs.append(float(np.std(x) / np.mean(x)))
    return float(np.mean(covs)) if covs else math.nan


def convergence_s(run: trace.Run) -> float:
    """The time of the last change of stream of any receiver (0 if none), from the run's start."""
    return float(run.changes["t_s"].max()) if len(run.changes) else 0.0


def changes_after_warmup(run: trace.Run) -> int:
    return int((run.changes["t_s"] > run.warmup_s).sum())


def friendliness(d, proto: str) -> list[float]:
    """Per run: mean throughput of the scheme's receivers / the Tahoe flow's (flow summaries)."""
    f = d.flows(proto)
    out = []
    for _run_id, g in f.groupby("run_id", sort=True):
        scheme = float(g[g["label"] == proto]["throughput_bps"].sum())
        tcp = float(g[g["label"] == "tcp"]["throughput_bps"].sum())
        out.append(scheme / tcp if tcp > 0 else math.inf)
    return out


def c33(d) -> Verdict:
    """DSG steadier than SRAMT-S: mean stream CoV(DSG) < CoV(SRAMT-S)."""
    dsg, sramt = runs(d, "dsg"), runs(d, "sramt-s")
    if not dsg or not sramt:
        return Verdict(FAIL, {"runs dsg": len(dsg), "runs sramt-s": len(sramt)}, "no readable common-bottleneck runs of dsg and sramt-s")
    c_dsg = float(np.mean([stream_cov(r) for r in dsg]))
    c_s = float(np.mean([stream_cov(r) for r in sramt]))
    conv_dsg = float(np.mean([convergence_s(r) for r in dsg]))
    conv_s = float(np.mean([convergence_s(r) for r in sramt]))
    ok = c_dsg < c_s
    measured = {"CoV DSG": _r(c_dsg), "CoV SRAMT-S": _r(c_s),
                "convergence s DSG": _r(conv_dsg, 1), "convergence s SRAMT-S": _r(conv_s, 1)}
    return Verdict(PASS if ok else FAIL, measured,
                   f"mean CoV of the held streams' announced rates: DSG {c_dsg:.3g} {'<' if ok else '≥'} SRAMT-S {c_s:.3g} "
                   f"(last stream change at {conv_dsg:.0f} s vs {conv_s:.0f} s, reported, the digest's 'similar convergence')")


def c34(d) -> Verdict:
    """SRAMT-S friendlier than IRFM and faster to converge."""
    irfm, sramt = runs(d, "irfm"), runs(d, "sramt-s")
    if not irfm or not sramt:
        return Verdict(FAIL, {"runs irfm": len(irfm), "runs sramt-s": len(sramt)}, "no readable common-bottleneck runs of irfm and sramt-s")
    f_i, f_s = float(np.mean(friendliness(d, "irfm"))), float(np.mean(friendliness(d, "sramt-s")))
    t_i = float(np.mean([convergence_s(r) for r in irfm]))
    t_s = float(np.mean([convergence_s(r) for r in sramt]))
    friendlier = abs(f_s - 1) < abs(f_i - 1)
    faster = t_s < t_i
    measured = {"F SRAMT-S": _r(f_s), "F IRFM": _r(f_i), "convergence s SRAMT-S": _r(t_s, 1), "convergence s IRFM": _r(t_i, 1)}
    return Verdict(PASS if friendlier and faster else FAIL, measured,
                   f"|F − 1|: SRAMT-S {abs(f_s - 1):.3g} {'<' if friendlier else '≥'} IRFM {abs(f_i - 1):.3g} "
                   f"(F = {f_s:.3g} vs {f_i:.3g}); last stream change SRAMT-S {t_s:.0f} s {'<' if faster else '≥'} IRFM {t_i:.0f} s")


def _rate_changes(run: trace.Run, groups: Sequence[int]) -> int:
    r = run.rates[(run.rates["group"].isin(list(groups))) & (run.rates["t_s"] > run.warmup_s)]
    return len(r)


def c33_cause(d, measured: dict) -> str:
    """Why DSG is not steadier: how often each scheme's held streams change rate, and how far."""
    parts = []
    for proto in ("dsg", "sramt-s"):
        rs = runs(d, proto)
        n = float(np.mean([_rate_changes(r, held_streams(r)) for r in rs])) if rs else math.nan
        moves = float(np.mean([changes_after_warmup(r) for r in rs])) if rs else math.nan
        held = sorted({g for r in rs for g in held_streams(r)})
        measured[f"rate changes of held streams after warm-up[{proto}]"] = _r(n, 1)
        measured[f"stream changes after warm-up[{proto}]"] = _r(moves, 1)
        parts.append(f"{proto}: {n:.0f} rate changes of its held streams {held} and {moves:.1f} stream changes per run")
    return ("DSG halves a stream whenever its receiver reports a congested round (loss > 5 %) and climbs back by 5 % of the "
            "band's top per round, an AIMD sawtooth inside the band, while SRAMT-S sets the stream to the receiver's "
            "smoothed TCP-model rate: " + "; ".join(parts))


def equal_rates_share(run: trace.Run) -> float:
    """Share of 1 s samples after the warm-up at which IRFM's two stream rates are equal."""
    a = run.rate_series(1, run.warmup_s, run.duration_s)
    b = run.rate_series(2, run.warmup_s, run.duration_s)
    return float(np.mean(np.abs(a - b) < 1.0)) if len(a) else math.nan


def c34_cause(d, measured: dict) -> str:
    """Why SRAMT-S is not both friendlier and faster: the per-run F, the moves of each, and
    whether IRFM's receiver had a reason to move at all."""
    parts = []
    for proto in ("irfm", "sramt-s"):
        rs = runs(d, proto)
        fs = friendliness(d, proto)
        moves = float(np.mean([changes_after_warmup(r) for r in rs])) if rs else math.nan
        measured[f"F per run[{proto}]"] = ", ".join(f"{x:.3g}" for x in fs)
        measured[f"stream changes after warm-up[{proto}]"] = _r(moves, 1)
        parts.append(f"{proto}: F per run {', '.join(f'{x:.2f}' for x in fs)}, {moves:.1f} stream changes after warm-up per run")
    irfm = runs(d, "irfm")
    eq = float(np.mean([equal_rates_share(r) for r in irfm])) if irfm else math.nan
    measured["share of time IRFM's two rates are equal"] = _r(eq, 3)
    return ("with the common scenario's single receiver IRFM's best pair is (x, x), both streams at the receiver's isolated "
            f"rate ({eq:.0%} of the time equal after warm-up), so its receiver never leaves stream 1 (ties go to the lower "
            "stream) and IRFM is a single-rate TFRC-like sender there: its convergence time by stream changes is 0 and its F, "
            "from a TCP throughput equation as SRAMT-S's, is as close to 1 as SRAMT-S's, whose receiver keeps changing "
            "stream until late in the run: " + "; ".join(parts))
