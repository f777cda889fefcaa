"""C30–C34: each compared scheme of Figs. 15–19 against its SRAMT variant (paper §9).

Every claim's test is written once (:func:`claim_test`) over :class:`schemes.Numbers`, and judged
on the common bottleneck (``fig15-19``: one Tahoe flow, 1 Mbit/s; PLM behind DRR, the others RED).
The same test is then reported, not judged, in the staggered start, the scheme's own paper's
set-up and Scenario A (:func:`with_other_setups`): the claims compare one scheme with one TCP on
one link, as the paper's Figs. 15–19.

* C30 (PLM): CoV(PLM) < CoV(SRAMT-LE), F_PLM < 1 and |F_SRAMT-LE − 1| < |F_PLM − 1|;
* C31 (RLC): F_RLC > 1, |F_SRAMT-LE − 1| < |F_RLC − 1|, no starvation window for either;
* C32 (MLDA): starvation windows MLDA > SRAMT-LE = 0 and convergence time MLDA > SRAMT-LE (the
  time until the rate settles, :func:`schemes.settling_s`, as for C34 and C35);
* C33 (DSG): CoV(DSG) < CoV(SRAMT-S) (the held streams' announced rates; convergence reported);
* C34 (IRFM): |F_SRAMT-S − 1| < |F_IRFM − 1| and convergence time SRAMT-S < IRFM.

On a set-up with several links (Scenario A) each F condition must hold on every link.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import schemes, trace
from vidcc.papers.sramt.scenarios import LINK_BPS, NAMES, SCENARIO_A_BASELINES, STAGGERED, VERSUS
from vidcc.papers.sramt.schemes import Numbers
from vidcc.papers.sramt.trace import fmt
from vidcc.papers.verdicts import no_data

QUEUES = {"plm": "DRR (ns-2 Queue/DRR defaults)", "sramt-le": "RED (ns-2 2.35's defaults on the link)"}


def _rounded(x, n: int = 3):
    return trace.rounded(x, n)


def _links(m: Numbers, s: Numbers, holds: Callable[[str], bool]) -> tuple[list[bool], str]:
    """Per link whether ``holds``; the text "on k of n links" (several links) or "" (one)."""
    ok = [holds(x) for x in m.F]
    return ok, (f" on {sum(ok)} of {len(ok)} links" if len(ok) > 1 else "")


def _f(name: str, n: Numbers) -> str:
    return ", ".join(f"{x} {fmt(v)}" for x, v in n.F.items()) if len(n.F) > 1 else fmt(n.F[schemes.BOTTLENECK])


def claim_test(proto: str, m: Numbers, s: Numbers) -> tuple[bool, str]:
    """Whether the claim about ``proto`` holds for its numbers ``m`` against its SRAMT variant's
    ``s`` (in one set-up), and the numbers that decide it."""
    a, b = NAMES[proto], NAMES[VERSUS[proto]]
    fa, fb = f"F_{a} {_f(a, m)}", f"F_{b} {_f(b, s)}"
    if proto == "plm":
        steadier = m.cov < s.cov
        ok, where = _links(m, s, lambda x: m.F[x] < 1 and abs(s.F[x] - 1) < abs(m.F[x] - 1))
        return steadier and all(ok), (f"CoV {a} {fmt(m.cov)} {'<' if steadier else '≥'} {b} {fmt(s.cov)}; "
                                      f"F_{a} < 1 and |F_{b} − 1| < |F_{a} − 1|{where}: {'yes' if all(ok) else 'no'} "
                                      f"({fa}, {fb})")
    if proto == "rlc":
        ok, where = _links(m, s, lambda x: m.F[x] > 1 and abs(s.F[x] - 1) < abs(m.F[x] - 1)
                           and m.starvation[x] == 0 and s.starvation[x] == 0)
        return all(ok), (f"F_{a} > 1, |F_{b} − 1| < |F_{a} − 1| and no starvation window{where}: "
                         f"{'yes' if all(ok) else 'no'} ({fa}, {fb}; starvation windows {a} "
                         f"{sum(m.starvation.values())}, {b} {sum(s.starvation.values())})")
    if proto == "mlda":
        st, st_b = sum(m.starvation.values()), sum(s.starvation.values())
        starves, slower = st_b == 0 and st > 0, m.convergence_s > s.convergence_s
        return starves and slower, (f"starvation windows {a} {st} vs {b} {st_b} (want {a} > {b} = 0); convergence "
                                    f"time {a} {fmt(m.convergence_s)} s {'>' if slower else '≤'} {b} "
                                    f"{fmt(s.convergence_s)} s")
    if proto == "dsg":
        ok = m.cov < s.cov
        return ok, (f"CoV of the held streams' announced rates {a} {fmt(m.cov)} {'<' if ok else '≥'} {b} "
                    f"{fmt(s.cov)} (convergence time {fmt(m.convergence_s)} s vs {fmt(s.convergence_s)} s, reported)")
    ok, where = _links(m, s, lambda x: abs(s.F[x] - 1) < abs(m.F[x] - 1))
    faster = s.convergence_s < m.convergence_s
    return all(ok) and faster, (f"|F_{b} − 1| < |F_{a} − 1|{where}: {'yes' if all(ok) else 'no'} ({fb}, {fa}); "
                                f"convergence time {b} {fmt(s.convergence_s)} s {'<' if faster else '≥'} {a} "
                                f"{fmt(m.convergence_s)} s")


def numbers_measured(n: Numbers, who: str, prefix: str = "") -> dict:
    """The numbers of one scheme in one set-up as ``measured`` entries (``prefix`` names the set-up)."""
    out = {}
    for link, f in n.F.items():
        key = f"{prefix}{who} F" if link == schemes.BOTTLENECK else f"{prefix}{who} F[{link}]"
        out[key] = _rounded(f)
    for link, (mine, tcp) in n.starved.items():
        where = "" if link == schemes.BOTTLENECK else f"[{link}]"
        out[f"{prefix}{who} starvation windows{where}"] = mine + tcp
        out[f"{prefix}{who} windows starved / TCP starved{where}"] = f"{mine} / {tcp}"
    if len(n.starved) > 1:
        out[f"{prefix}{who} starvation windows"] = sum(n.starvation.values())
    out[f"{prefix}{who} CoV"] = _rounded(n.cov)
    out[f"{prefix}{who} convergence s"] = _rounded(n.convergence_s, 1)
    return out


def check(proto: str) -> Callable[[object], Verdict]:
    """The claim about ``proto`` judged on the common bottleneck."""

    def judged(d) -> Verdict:
        versus = VERSUS[proto]
        m, s = schemes.measure(d, proto, schemes.common(proto)), schemes.measure(d, versus, schemes.common(versus))
        if m is None or s is None:
            return no_data(f"common-bottleneck runs of {proto} and {versus}")
        ok, why = claim_test(proto, m, s)
        measured = {**numbers_measured(m, NAMES[proto]), **numbers_measured(s, NAMES[versus])}
        text = why
        if proto == "plm":
            measured.update({"queue PLM": QUEUES["plm"], "queue SRAMT-LE": QUEUES["sramt-le"]})
            text += f" (PLM behind {QUEUES['plm']}, SRAMT-LE behind {QUEUES['sramt-le']})"
        return Verdict("PASS" if ok else "FAIL", measured, text)

    judged.__name__ = f"{proto}_against_{VERSUS[proto].replace('-', '_')}_on_the_common_bottleneck"
    return judged


# --------------------------------------------------------------------------------------------
# The other set-ups, reported beside the verdict


DSG_NOTE = "DSG's own set-up (Fig. 18: three streams 'over the Internet') names no topology: not re-run"
OWN = {"plm": "PLM's own set-up (Fig. 15) is the staggered start: reported there",
       "mlda": "MLDA's own set-up (Fig. 17, MLDA against TCP on one bottleneck) is the common bottleneck itself"}


def _staggered(d, proto: str, measured: dict) -> str:
    versus = VERSUS[proto]
    m = schemes.measure(d, proto, schemes.staggered(proto))
    s = schemes.measure(d, versus, schemes.staggered(versus))
    if m is None or s is None:
        measured[f"staggered {NAMES[proto]}"] = "not run"
        return f"staggered-start runs of {proto} and {versus} not in the results"
    measured.update(numbers_measured(m, NAMES[proto], "staggered "))
    measured.update(numbers_measured(s, NAMES[versus], "staggered "))
    ok, why = claim_test(proto, m, s)
    measured[f"staggered: the claim's test {NAMES[proto]}"] = "holds" if ok else "does not hold"
    since = schemes.staggered(proto).since
    measured["staggered measured from s"] = since
    return (f"in the staggered start ({STAGGERED}: TCP1, then the scheme, then TCP2; measured from {since:g} s, once "
            f"both TCPs run; reported, not judged) the claim's test {'holds' if ok else 'does not hold'}: {why}")


def _original(d, proto: str, measured: dict) -> str:
    if proto == "dsg":
        return DSG_NOTE
    if proto in OWN:
        return OWN[proto]
    setup = schemes.original(proto)
    n = schemes.measure(d, proto, setup)
    if n is None:
        measured[f"original scenario {proto}"] = "not run"
        return f"{setup.name} not in the results"
    measured.update(numbers_measured(n, proto, "original "))
    return (f"in {setup.name} (reported, not judged): F {fmt(n.F[schemes.BOTTLENECK])}, starvation windows "
            f"{n.starvation[schemes.BOTTLENECK]}, CoV {fmt(n.cov)}, convergence time {fmt(n.convergence_s)} s")


def _scenario_a(d, proto: str, measured: dict) -> str:
    versus = VERSUS[proto]
    m = schemes.measure(d, proto, schemes.scenario_a(proto))
    s = schemes.measure(d, versus, schemes.scenario_a(versus))
    if m is None or s is None:
        measured[f"Scenario A {NAMES[proto]}"] = "not run"
        return f"Scenario A runs of {proto} and {versus} not in the results"
    measured.update(numbers_measured(m, NAMES[proto], "Scenario A "))
    measured.update(numbers_measured(s, NAMES[versus], "Scenario A "))
    pos = schemes.positions(d, proto, m)
    who = NAMES[proto]
    measured.update({f"Scenario A {who} final[{node}]": v for node, v in pos["final"].items()})
    hits, judged = pos["at expected"]
    want = ", ".join(f"{k} {'any' if v is None else v}" for k, v in pos["expected"].items())
    measured[f"Scenario A {who} at expected position"] = f"{hits} of {judged} (expected {want})"
    measured[f"Scenario A {who} positions increase with the bottleneck"] = "yes" if pos["ordered"] else "no"
    ok, why = claim_test(proto, m, s)
    measured[f"Scenario A: the claim's test {who}"] = "holds" if ok else "does not hold"
    place = (f"{hits} of {judged} receiver-runs at the expected position" if judged else
             f"positions {'increase' if pos['ordered'] else 'do not increase'} with the bottleneck")
    return (f"in Scenario A ({SCENARIO_A_BASELINES}, reported, not judged) the claim's test "
            f"{'holds' if ok else 'does not hold'}: {why}; {place}")


def with_other_setups(check_: Callable[[object], Verdict], proto: str) -> Callable[[object], Verdict]:
    """``check_`` with the staggered start's, the scheme's own set-up's and Scenario A's numbers of
    ``proto`` (and its SRAMT variant) beside its verdict, which stays the check's."""

    def wrapped(d) -> Verdict:
        v = check_(d)
        measured = dict(v.measured)
        texts = [_staggered(d, proto, measured), _original(d, proto, measured), _scenario_a(d, proto, measured)]
        return Verdict(v.status, measured, "; ".join([v.explanation, *texts]))

    wrapped.__name__ = getattr(check_, "__name__", "check")
    return wrapped


# --------------------------------------------------------------------------------------------
# Causes: what the same runs show about why a claim does not hold (stated after a FAIL)


def _common(d, proto: str) -> Numbers | None:
    return schemes.measure(d, proto, schemes.common(proto))


def _level_stats(runs: list[trace.Run]) -> tuple[float, float, float, float]:
    """Time-weighted mean position after warm-up, downward and upward changes per 100 s, and the
    mean time (s) from one upward change to the next without a drop between them."""
    means, down, up, span, climbs = [], 0, 0, 0.0, []
    for run in runs:
        r = next(iter(run.nodes))
        ts = np.arange(run.warmup_s, run.duration_s, 0.5)
        if len(ts):
            means.append(float(np.mean([run.position_at(r, t) for t in ts])))
        c = run.changes[run.changes["t_s"] > run.warmup_s].sort_values("t_s")
        down += int((c["to"] < c["from"]).sum())
        up += int((c["to"] > c["from"]).sum())
        span += run.duration_s - run.warmup_s
        rows = c.to_dict("records")
        climbs += [b["t_s"] - a["t_s"] for a, b in zip(rows, rows[1:]) if a["to"] > a["from"] and b["to"] > b["from"]]
    per100 = 100 / span if span > 0 else math.nan
    return (float(np.mean(means)) if means else math.nan, down * per100, up * per100,
            float(np.mean(climbs)) if climbs else math.nan)


def plm_cause(d, measured: dict) -> str:
    """C30: each run's F, and the level PLM holds against the share its layers allow."""
    plm, le = _common(d, "plm"), _common(d, "sramt-le")
    if plm is None or le is None:
        return "no common-bottleneck runs of plm and sramt-le"
    f_plm = [f[schemes.BOTTLENECK] for f in plm.f_per_run]
    f_le = [f[schemes.BOTTLENECK] for f in le.f_per_run]
    measured["F SRAMT-LE per run"] = ", ".join(fmt(f) for f in f_le)
    measured["F PLM per run"] = ", ".join(fmt(f) for f in f_plm)
    level, _down, _up, _climb = _level_stats(plm.runs_flat())
    layers = [float(x) for x in schemes.protocol_config(schemes.figure_data(d, "fig15-19"), "plm")
              .get("layer_rates_bps", [])]
    k = int(math.floor(level)) if math.isfinite(level) else 0
    rate = sum(layers[:k]) / 1e3 if layers and k else math.nan
    measured["PLM mean level"] = _rounded(level, 2)
    measured["PLM cumulative rate at that level kbit/s"] = _rounded(rate, 1)
    return (f"SRAMT-LE's F over runs is {fmt(min(f_le))}–{fmt(max(f_le))}, PLM's {fmt(min(f_plm))}–{fmt(max(f_plm))}; "
            f"PLM holds level {level:.2f} on average ({fmt(rate)} kbit/s of cumulative layers at level {k}), so "
            f"|F_PLM − 1| = {fmt(abs(plm.F[schemes.BOTTLENECK] - 1))} is set by where its layer steps fall and "
            f"|F_SRAMT-LE − 1| = {fmt(abs(le.F[schemes.BOTTLENECK] - 1))}")


def rlc_cause(d, measured: dict) -> str:
    """C31: where RLC sits, how often it drops and climbs, and who starves."""
    rlc = _common(d, "rlc")
    if rlc is None:
        return "no rlc runs"
    level, down, up, climb = _level_stats(rlc.runs_flat())
    f = rlc.F[schemes.BOTTLENECK]
    mine, tcp = rlc.starved[schemes.BOTTLENECK]
    measured["RLC mean level"] = _rounded(level, 2)
    measured["RLC drops per 100 s"] = _rounded(down, 1)
    measured["RLC climbs per 100 s"] = _rounded(up, 1)
    measured["RLC s between successive climbs"] = _rounded(climb, 1)
    return (f"RLC gets F = {fmt(f)} of TCP's throughput ({'more' if f > 1 else 'no more'} than TCP), holding level "
            f"{level:.2f} on average: it drops a layer {down:.1f} times and adds one {up:.1f} times per 100 s "
            f"({fmt(climb)} s between successive climbs); RLC starves in {mine} and TCP in {tcp} of the 10 s windows")


def _settling(n: Numbers, name: str, measured: dict) -> str:
    """Each run's convergence time (schemes.settling_s: when the rate settles) and its session's length."""
    length = float(np.mean([s.duration_s - s.start_s for s in n.runs_flat()])) if n.run_list else math.nan
    measured[f"{name} convergence s per run"] = ", ".join(fmt(x) for x in n.convergence_per_run)
    measured[f"{name} session length s"] = _rounded(length, 1)
    return (f"its rate settles {', '.join(fmt(x) for x in n.convergence_per_run)} s after its start per run "
            f"(of {fmt(length)} s)")


def settling_order(slow: str, fast: str) -> Callable[[object, dict], str]:
    """C32 and C34's over-claim evidence: on the common bottleneck, per run, when the rate of the
    scheme the paper calls slower (``slow``) and of the one it calls faster (``fast``) settles."""

    def bound(d, measured: dict) -> str:
        a, b = _common(d, slow), _common(d, fast)
        if a is None or b is None:
            raise ValueError(f"no common-bottleneck runs of {slow} and {fast}")
        na, nb = NAMES[slow], NAMES[fast]
        measured[f"{na} convergence s per run"] = ", ".join(fmt(x) for x in a.convergence_per_run)
        measured[f"{nb} convergence s per run"] = ", ".join(fmt(x) for x in b.convergence_per_run)
        later = sum(x > y for x, y in zip(a.convergence_per_run, b.convergence_per_run))
        measured[f"runs where {na} settles later than {nb}"] = f"{later} of {len(a.convergence_per_run)}"
        return (f"on the common bottleneck {na}'s rate settles {', '.join(fmt(x) for x in a.convergence_per_run)} s "
                f"after its start and {nb}'s {', '.join(fmt(x) for x in b.convergence_per_run)} s per run: {na} "
                f"later in {later} of {len(a.convergence_per_run)} runs")

    bound.__name__ = f"{slow}_settles_later_than_{fast.replace('-', '_')}"
    return bound


def mlda_cause(d, measured: dict) -> str:
    """C32: the least share each side gets in a 10 s window, how often each scheme moves and when
    its rate settles in each run."""
    parts = []
    for proto in ("mlda", "sramt-le"):
        n = _common(d, proto)
        if n is None:
            continue
        data = schemes.figure_data(d, schemes.common(proto).figure)
        lows = []
        for sessions in n.run_list:
            run = sessions[0]
            frame = pd.DataFrame({"sramt": schemes.scheme_series(run, None, True, 0.0),
                                  "tcp": schemes.tcp_series(data, run, ("tcp",), 0.0)}).fillna(0.0)
            if not frame.empty:
                win = schemes.window_shares(frame, LINK_BPS)
                lows.append((float(win["sramt"].min()), float(win["tcp"].min())))
        name = NAMES[proto]
        lo_s = min((x[0] for x in lows), default=math.nan)
        lo_t = min((x[1] for x in lows), default=math.nan)
        _lv, down, up, _c = _level_stats(n.runs_flat())
        measured[f"{name} least 10 s share scheme / TCP"] = f"{lo_s:.3f} / {lo_t:.3f}"
        measured[f"{name} level changes per 100 s"] = _rounded(down + up, 1)
        parts.append(f"{name}: least 10 s share of the link {lo_s:.0%} (scheme) / {lo_t:.0%} (TCP), {down + up:.1f} "
                     f"level changes per 100 s; {_settling(n, name, measured)}")
    return "; ".join(parts)


def _rate_moves(runs: list[trace.Run]) -> tuple[float, float, float]:
    """Per run: announced-rate changes of the held streams after warm-up, their mean relative
    decrease and mean relative increase."""
    counts, dec, inc = [], [], []
    for run in runs:
        n = 0
        for g in schemes.held_groups(run):
            r = run.rates[(run.rates["group"] == g) & (run.rates["t_s"] > run.warmup_s)]["rate_bps"].to_numpy()
            if len(r) > 1:
                rel = r[1:] / r[:-1] - 1
                rel = rel[np.isfinite(rel) & (rel != 0)]
                n += len(rel)
                dec += list(-rel[rel < 0])
                inc += list(rel[rel > 0])
        counts.append(n)
    return (float(np.mean(counts)) if counts else math.nan, float(np.mean(dec)) if dec else math.nan,
            float(np.mean(inc)) if inc else math.nan)


def dsg_cause(d, measured: dict) -> str:
    """C33: how often and how far each scheme's held streams change rate, and how often its receiver moves."""
    parts = []
    for proto in ("dsg", "sramt-s"):
        n = _common(d, proto)
        if n is None:
            continue
        runs = n.runs_flat()
        count, dec, inc = _rate_moves(runs)
        moves = float(np.mean([int((r.changes["t_s"] > r.warmup_s).sum()) for r in runs]))
        name = NAMES[proto]
        measured[f"rate changes of held streams per run[{name}]"] = _rounded(count, 1)
        measured[f"mean relative decrease[{name}]"] = _rounded(dec)
        measured[f"mean relative increase[{name}]"] = _rounded(inc)
        measured[f"stream changes after warm-up per run[{name}]"] = _rounded(moves, 1)
        parts.append(f"{name}: {count:.0f} rate changes of its held streams per run, down by {fmt(dec * 100)} % "
                     f"and up by {fmt(inc * 100)} % on average, {moves:.1f} stream changes per run")
    return "; ".join(parts)


def irfm_cause(d, measured: dict) -> str:
    """C34: each run's F, how often each receiver changes stream, where IRFM's receiver stays, how
    often IRFM's two streams run at one rate and when each scheme's rate settles in each run."""
    parts = []
    for proto in ("irfm", "sramt-s"):
        n = _common(d, proto)
        if n is None:
            continue
        runs = n.runs_flat()
        fs = [f[schemes.BOTTLENECK] for f in n.f_per_run]
        moves = float(np.mean([int((r.changes["t_s"] > r.warmup_s).sum()) for r in runs]))
        on1 = []
        for run in runs:
            for r in run.nodes:
                on1 += [run.position_at(r, t) == 1 for t in np.arange(run.warmup_s, run.duration_s, 1.0)]
        share1 = float(np.mean(on1)) if on1 else math.nan
        name = NAMES[proto]
        measured[f"F per run[{name}]"] = ", ".join(fmt(x) for x in fs)
        measured[f"stream changes after warm-up per run[{name}]"] = _rounded(moves, 1)
        measured[f"share of time on stream 1[{name}]"] = _rounded(share1, 3)
        parts.append(f"{name}: F per run {', '.join(fmt(x) for x in fs)}, {moves:.1f} stream changes after warm-up "
                     f"per run, on stream 1 {share1:.0%} of the time; {_settling(n, name, measured)}")
        if proto == "irfm":
            eq = [float(np.mean(np.abs(r.rate_series(1, r.warmup_s, r.duration_s)
                                       - r.rate_series(2, r.warmup_s, r.duration_s)) < 1.0)) for r in runs]
            share_eq = float(np.mean(eq)) if eq else math.nan
            measured["share of time IRFM's two rates are equal"] = _rounded(share_eq, 3)
            parts[-1] += f", its two streams at one rate {share_eq:.0%} of the time"
    return "; ".join(parts)
