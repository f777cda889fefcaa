"""The checks of the SRAMT claims (digest ``specs/004-sramt.md`` §5.5), over the traces of
:mod:`vidcc.papers.sramt.trace`. Each returns a :class:`Verdict` with the numbers that decided
it. Times the digest states for 1000 s runs ("[500, 1000] s", "before 200 s") are read as
shares of the run (0.5·D, 0.2·D) so that the quick scale's shorter runs ask the same question.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import trace
from vidcc.papers.verdicts import no_data

PASS, FAIL = "PASS", "FAIL"
STARVE_WINDOW_S = 10.0


def _v(ok: bool, measured: dict, text: str) -> Verdict:
    return Verdict(PASS if ok else FAIL, measured, text)


def _r(x: float, n: int = 4) -> float:
    return float(round(x, n)) if isinstance(x, (int, float)) and math.isfinite(x) else x


# --------------------------------------------------------------------------------------------
# Assignments (C11, C17, C20, C22, C25)


def assignment(runs: Sequence[trace.Run], expected: Mapping[str, int], *, what: str, from_share: float = 0.5) -> Verdict:
    """Every receiver holds its expected stream / level over [from_share·D, D] in every run
    (pooled: the share of runs where all do must be ≥ 80 %, the digest's C11 test)."""
    if not runs:
        return no_data(what)
    measured: dict = {}
    good = 0
    wrong: list[str] = []
    for run in runs:
        t0 = from_share * run.duration_s
        ok = True
        for node, want in expected.items():
            got = run.held(node, t0, run.duration_s)
            measured[f"{node}[seed={run.seed}]"] = got if got is not None else "moved"
            if got != want:
                ok = False
                wrong.append(f"{node} {got if got is not None else 'moved'} (want {want}, seed {run.seed})")
        good += ok
    share = good / len(runs)
    measured["share of runs with every receiver as expected"] = _r(share)
    text = (f"{what}: every receiver held its expected position over [{from_share:g}·D, D] in {good} of {len(runs)} runs"
            + (f"; off: {', '.join(wrong[:6])}" if wrong else ""))
    return _v(share >= 0.8, measured, text)


# --------------------------------------------------------------------------------------------
# Bottleneck shares in Scenario A (C12–C14, C16)


def link_series(data, run: trace.Run, nodes: Sequence[str], tcp_label: str, layered: bool) -> pd.DataFrame:
    """Per 1 s bin after warm-up: the SRAMT traffic leaving the bottleneck towards ``nodes``
    (S: the sum over the streams its receivers are on of the most any receiver gets of it; LE:
    the most any receiver gets, its layers being a superset of the others') and the TCP flow's."""
    s = run.samples[run.samples["node"].isin(nodes) & (run.samples["t_s"] > run.warmup_s)].copy()
    if layered:
        sr = s.groupby("t_s")["throughput_bps"].max()
    else:
        s["pos"] = [run.position_at(r, t) for r, t in zip(s["receiver"], s["t_s"])]
        sr = s.groupby(["t_s", "pos"])["throughput_bps"].max().groupby("t_s").sum()
    tcp = trace.series_of(data, run.run_id, [tcp_label])
    tcp = tcp[tcp["t_s"] > run.warmup_s].groupby("t_s")["throughput_bps"].sum()
    out = pd.DataFrame({"sramt": sr, "tcp": tcp}).fillna(0.0)
    return out


# Scenario A [P]: expected (and, for SRAMT-S, starting) stream / level of each receiver.
EXPECTED_A = {"R1": 1, "R2": 1, "R3": 2, "R4": 2, "R5": 3, "R6": 3}
LINKS_A = {"C1-C2": (("R1", "R2"), "tcp-c2", 0.2e6), "C1-C3": (("R3", "R4"), "tcp-c3", 0.8e6), "C1-C4": (("R5", "R6"), "tcp-c4", 1.5e6)}


def starvation_windows(s: pd.DataFrame, capacity: float) -> int:
    """10 s windows (non-overlapping) where one class gets < 10 % of the link while the other gets > 80 %."""
    if s.empty:
        return 0
    w = s.groupby((s.index // STARVE_WINDOW_S).astype(int)).mean()
    a, b = w["sramt"] / capacity, w["tcp"] / capacity
    return int((((a < 0.1) & (b > 0.8)) | ((b < 0.1) & (a > 0.8))).sum())


def friendliness(data, runs: Sequence[trace.Run], layered: bool) -> Verdict:
    """C12 / C13: on each bottleneck F = mean SRAMT / mean TCP in [0.5, 2] and no starvation window."""
    if not runs:
        return no_data("Scenario A runs")
    measured: dict = {}
    bad: list[str] = []
    for link, (nodes, tcp, cap) in LINKS_A.items():
        fs, starve = [], 0
        for run in runs:
            s = link_series(data, run, nodes, tcp, layered)
            fs.append(s["sramt"].mean() / s["tcp"].mean() if s["tcp"].mean() > 0 else math.inf)
            starve += starvation_windows(s, cap)
        f = float(np.mean(fs))
        measured[f"F[{link}]"] = _r(f)
        measured[f"starvation windows[{link}]"] = starve
        if not (0.5 <= f <= 2.0) or starve:
            bad.append(f"{link}: F = {f:.3g}" + (f", {starve} starvation windows" if starve else ""))
    text = ("F = SRAMT / TCP throughput in [0.5, 2] with no starvation window on every bottleneck"
            if not bad else "off on " + "; ".join(bad))
    return _v(not bad, measured, text)


def alternation(data, runs: Sequence[trace.Run], layered: bool, minimum: int) -> Verdict:
    """C14: the sign of (SRAMT − TCP) over 10 s bins changes at least ``minimum`` times on each link (mean over runs)."""
    if not runs:
        return no_data("Scenario A runs")
    measured: dict = {}
    bad = []
    for link, (nodes, tcp, _cap) in LINKS_A.items():
        counts = []
        for run in runs:
            s = link_series(data, run, nodes, tcp, layered)
            w = s.groupby((s.index // 10.0).astype(int)).mean()
            sign = np.sign((w["sramt"] - w["tcp"]).to_numpy())
            sign = sign[sign != 0]
            counts.append(int((sign[1:] != sign[:-1]).sum()))
        c = float(np.mean(counts))
        measured[f"sign changes[{link}]"] = _r(c, 2)
        if c < minimum:
            bad.append(f"{link} {c:.3g}")
    return _v(not bad, measured, f"sign changes of SRAMT − TCP in 10 s bins ≥ {minimum} on every link"
              + (f"; fewer on {', '.join(bad)}" if bad else ""))


def link_means(data, runs: Sequence[trace.Run], layered: bool) -> dict[str, float]:
    return {link: float(np.mean([link_series(data, r, nodes, tcp, layered)["sramt"].mean() for r in runs]))
            for link, (nodes, tcp, _cap) in LINKS_A.items()}


def similar_links(data_s, runs_s, data_le, runs_le) -> Verdict:
    """C16: per-link SRAMT throughput of S and LE within ±30 % (of the S value)."""
    if not runs_s or not runs_le:
        return no_data("Scenario A runs of both variants")
    s, le = link_means(data_s, runs_s, False), link_means(data_le, runs_le, True)
    measured = {}
    bad = []
    for link in LINKS_A:
        ratio = le[link] / s[link] if s[link] > 0 else math.inf
        measured[f"S kbit/s[{link}]"] = _r(s[link] / 1e3, 1)
        measured[f"LE kbit/s[{link}]"] = _r(le[link] / 1e3, 1)
        measured[f"LE/S[{link}]"] = _r(ratio)
        if not (0.7 <= ratio <= 1.3):
            bad.append(f"{link} LE/S = {ratio:.3g}")
    return _v(not bad, measured, "S and LE per-link SRAMT throughput within ±30 %" + (f"; off: {', '.join(bad)}" if bad else ""))


# --------------------------------------------------------------------------------------------
# Group rates (C15, C18, C23, C26)


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
    return _v(v < 200.0, {f"mean {what} rate kbit/s": _r(v, 1), "paper kbit/s": paper_kbps},
              f"mean {what} rate over [0.5·D, D] {v:.1f} kbit/s ({'<' if v < 200 else '≥'} 200; paper ≈ {paper_kbps:g})")


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
              f"relative drop under droptail: stream 1 {drops[1]:.3g}, 2 {drops[2]:.3g}, 3 {drops[3]:.3g}"
              f" ({'every stream lower' if lower else 'not every stream lower'}; "
              f"{'largest for stream 1' if largest else 'not largest for stream 1'})")


# --------------------------------------------------------------------------------------------
# Changes (C08–C10, C19, C24, C27)


def unsuccessful_timing(runs: Sequence[trace.Run], *, early_share: float | None, late_share: float) -> Verdict:
    """C19 / C24: unsuccessful changes ≥ 80 % before early_share·D (if given) and none after late_share·D."""
    if not runs:
        return no_data("runs")
    times = []
    for run in runs:
        u = run.unsuccessful()
        times += [(t / run.duration_s) for t in u["t_s"]]
    n = len(times)
    late = sum(1 for x in times if x > late_share)
    measured = {"unsuccessful changes": n, f"after {late_share:g}·D": late}
    ok = late == 0
    text = f"{n} unsuccessful changes in {len(runs)} runs, {late} after {late_share:g}·D"
    if early_share is not None:
        early = sum(1 for x in times if x < early_share) / n if n else 1.0
        measured[f"share before {early_share:g}·D"] = _r(early)
        ok = ok and early >= 0.8
        text += f", {early:.0%} before {early_share:g}·D"
    return _v(ok, measured, text)


def rule2_spacing(runs: Sequence[trace.Run]) -> Verdict:
    """C08: moves that rule 1 cannot explain (the stream left was not at the band edge in the
    direction of the move at any time in the receiver's one-way delay before it: the receiver
    knows the rate from the packets it got) are ≥ 20 s after the receiver's previous such move
    (0.5 s tolerance: the flag's one-way delay)."""
    pairs, short = 0, []
    for run in runs:
        for r, c in run.changes.groupby("receiver", sort=True):
            last = None
            s = run.samples[run.samples["receiver"] == r]
            lag = (float(s["delay_s"].max()) if len(s) else 0.0) + 0.25
            for row in c.sort_values("t_s").to_dict("records"):
                j = int(row["from"])
                lo, hi = run.bands[j - 1]
                seen = run.rate_series(j, row["t_s"] - lag, row["t_s"] + 1e-6, step=0.01)
                rule1 = (row["to"] < j and bool(np.any(np.abs(seen - lo) < 1.0))) or (row["to"] > j and bool(np.any(np.abs(seen - hi) < 1.0)))
                if rule1:
                    continue
                if last is not None:
                    pairs += 1
                    if row["t_s"] - last < 19.5:
                        short.append(f"{row['node']} {last:.1f}→{row['t_s']:.1f} s (seed {run.seed})")
                last = row["t_s"]
    if not pairs:
        return Verdict("NOT-YET", {"rule-2 pairs": 0}, "no receiver made two rule-2 moves: nothing to check")
    return _v(not short, {"consecutive rule-2 moves": pairs, "closer than 20 s": len(short)},
              f"{len(short)} of {pairs} consecutive rule-2 moves closer than 20 s" + (f": {', '.join(short[:4])}" if short else ""))


def backoff_spacing(runs: Sequence[trace.Run]) -> Verdict:
    """C09: after the k-th consecutive unsuccessful change (k counts the failures since the
    receiver's last successful change, any change: A-17), that same change (from, to) is not
    tried again before 2^k·T_change after the change that undid it (0.5 s tolerance). A change
    the receiver's next change undoes (within the flow's `unsuccessful_window`, if set) failed;
    the undoing change is neither a success nor a new trial; a change the next one does not
    undo succeeded and resets k (§1.7, as rules.rs `Backoff` states it)."""
    pairs, short = 0, []
    for run in runs:
        for _r, c in run.changes.groupby("receiver", sort=True):
            k = 0
            until: dict[tuple[int, int], tuple[float, float]] = {}  # change -> (blocked until, block length)
            last = None  # (change row, is a trial)
            for row in c.sort_values("t_s").to_dict("records"):
                t, key = float(row["t_s"]), (int(row["from"]), int(row["to"]))
                if key in until:
                    pairs += 1
                    end, block = until[key]
                    if t < end - 0.5:
                        short.append(f"{row['node']} {key}: {t - (end - block):.1f} s < {block:g} s (seed {run.seed})")
                if last is not None and last[1]:
                    prev = last[0]
                    if trace.undoes(prev, row) and run.within_window(t - float(prev["t_s"])):
                        k += 1
                        until[(int(prev["from"]), int(prev["to"]))] = (t + 2 ** k * trace.T_CHANGE_S, 2 ** k * trace.T_CHANGE_S)
                        last = (row, False)
                        continue
                    k = 0
                last = (row, True)
    if not pairs:
        return Verdict("NOT-YET", {"repeated failures": 0}, "no change failed and was tried again: nothing to check")
    return _v(not short, {"retries of a blocked change": pairs, "too early": len(short)},
              f"{len(short)} of {pairs} retries of a change that had failed came before its 2^k·5 s block ended"
              + (f": {', '.join(short[:4])}" if short else ""))


def epoch_aligned(runs: Sequence[trace.Run]) -> Verdict:
    """C10: every change happens within the receiver's one-way delay (its largest 1 s mean, plus
    0.25 s for the packet gap of the slowest group) after an epoch boundary of the sender."""
    n, off = 0, []
    for run in runs:
        for row in run.changes.to_dict("records"):
            s = run.samples[run.samples["receiver"] == row["receiver"]]
            owd = float(s["delay_s"].max()) if len(s) else 0.0
            phase = (row["t_s"] - run.start_s) % trace.EPOCH_S
            n += 1
            if phase > owd + 0.25:
                off.append(f"{row['node']} at {row['t_s']:.2f} s (phase {phase:.2f} s, OWD ≤ {owd:.2f} s)")
    if not n:
        return Verdict("NOT-YET", {"changes": 0}, "no change to check")
    return _v(not off, {"changes": n, "off the epoch boundary": len(off)},
              f"{n - len(off)} of {n} changes within one-way delay of an epoch boundary" + (f"; off: {', '.join(off[:4])}" if off else ""))


def undisturbed(runs: Sequence[trace.Run]) -> Verdict:
    """C27: around each change (±5 s), the received rate of every receiver that did not change
    in that span drops by less than 20 % (mean over such pairs; the share of pairs above is reported)."""
    drops = []
    for run in runs:
        for row in run.changes.to_dict("records"):
            t = row["t_s"]
            for r in run.nodes:
                if r == row["receiver"]:
                    continue
                own = run.changes[(run.changes["receiver"] == r) & (abs(run.changes["t_s"] - t) <= 5.0)]
                if len(own):
                    continue
                s = run.samples[run.samples["receiver"] == r]
                before = s[(s["t_s"] > t - 5.0) & (s["t_s"] <= t)]["throughput_bps"].mean()
                after = s[(s["t_s"] > t) & (s["t_s"] <= t + 5.0)]["throughput_bps"].mean()
                if before > 0:
                    drops.append(1 - after / before)
    if not drops:
        return Verdict("NOT-YET", {"pairs": 0}, "no change with an unchanged co-receiver")
    mean = float(np.mean(drops))
    big = float(np.mean([d >= 0.2 for d in drops]))
    return _v(mean < 0.2, {"pairs": len(drops), "mean drop": _r(mean), "share of pairs dropping ≥ 20 %": _r(big)},
              f"other receivers' 5 s mean rate around a change drops by {mean:.1%} on average ({big:.0%} of {len(drops)} pairs ≥ 20 %)")


# --------------------------------------------------------------------------------------------
# Feedback and RTT (C28, C04)


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
    return _v(worst <= 2 * interval_s, {"longest gap between reports s": _r(worst, 2), "bound s": 2 * interval_s},
              f"longest gap between a receiver's reports {worst:.2f} s ({who}); bound 2 × {interval_s:g} s")


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
    return _v(med <= 0.2 and rho > 0.5, {"median relative error": _r(med), "p90 relative error": _r(float(np.percentile(errs, 90))),
                                         "rho": _r(rho), "bins": len(errs)},
              f"median relative error {med:.3f} (≤ 0.2), ρ = {rho:.3f} (> 0.5) over {len(errs)} 1 s bins")


# --------------------------------------------------------------------------------------------
# Causes: why a claim does not reproduce, from the same runs (stated after a FAIL)


def reversal_delays(runs: Sequence[trace.Run]) -> list[float]:
    """For every change later undone by the opposite change, the time until it was undone."""
    out = []
    for run in runs:
        for _r, c in run.changes.groupby("receiver", sort=True):
            rows = c.sort_values("t_s").to_dict("records")
            for a, b in zip(rows, rows[1:]):
                if b["from"] == a["to"] and b["to"] == a["from"]:
                    out.append(b["t_s"] - a["t_s"])
    return out


def cycling(runs: Sequence[trace.Run], measured: dict) -> str:
    """Receivers keep moving: changes per receiver in the second half of the runs, how long a
    change stands before it is undone, and how many of the undone changes the back-off counted
    as unsuccessful (all of them unless the flow sets `unsuccessful_window`)."""
    late = [len(run.changes[run.changes["t_s"] > 0.5 * run.duration_s]) / max(1, len(run.nodes)) for run in runs]
    d = reversal_delays(runs)
    med = float(np.median(d)) if d else math.nan
    failed = sum(len(run.unsuccessful()) for run in runs)
    measured["changes per receiver in [0.5·D, D]"] = _r(float(np.mean(late)) if late else math.nan, 2)
    measured["median time to reversal s"] = _r(med, 2)
    measured["unsuccessful changes"] = failed
    return (f"receivers keep cycling between streams/levels ({measured['changes per receiver in [0.5·D, D]']} changes per receiver "
            f"in the second half); {len(d)} changes were undone (median {med:.1f} s after the change), {failed} of them "
            f"counted unsuccessful by the back-off of §1.7")


def positions_share(runs: Sequence[trace.Run], nodes: Sequence[str], want: int) -> float:
    """Share of 1 s instants after warm-up the receivers at ``nodes`` spend at ``want``."""
    hits, n = 0, 0
    for run in runs:
        for node in nodes:
            r = run.receiver(node)
            for t in np.arange(run.warmup_s, run.duration_s, 1.0):
                hits += run.position_at(r, t) == want
                n += 1
    return hits / n if n else math.nan


def link_positions(runs: Sequence[trace.Run], measured: dict) -> str:
    parts = []
    for link, (nodes, _tcp, _cap) in LINKS_A.items():
        want = trace_expected(nodes[0])
        share = positions_share(runs, nodes, want)
        measured[f"time at expected position[{link}]"] = _r(share, 3)
        parts.append(f"{link} {share:.0%}")
    return "receivers spend only part of the time at their expected stream/level (" + ", ".join(parts) + "); " + cycling(runs, measured)


def trace_expected(node: str) -> int:
    return EXPECTED_A[node]


def rtt_bias(runs: Sequence[trace.Run], reverse_s: Mapping[str, float], measured: dict) -> str:
    ratios = []
    for run in runs:
        for r, node in run.nodes.items():
            e = run.rtt[(run.rtt["receiver"] == r) & (run.rtt["t_s"] > 10.0)]
            est = e.assign(bin=np.ceil(e["t_s"])).groupby("bin")["rtt_s"].mean()
            s = run.samples[run.samples["receiver"] == r].set_index("t_s")["delay_s"]
            true = (s + reverse_s[node]).reindex(est.index).dropna()
            ratios += list(est.reindex(true.index) / true)
    med = float(np.median(ratios)) if ratios else math.nan
    measured["median estimate / true RTT"] = _r(med, 3)
    return (f"the estimate runs {abs(1 - med):.0%} {'below' if med < 1 else 'above'} the true RTT in median (ratio {med:.3f}): "
            "it is calibrated on the RTCP RTT (A − LSR − DLSR, measured with small SR/RR packets) against the one-way delay "
            "of a 1000 B data packet, whose 8 ms serialisation on the 1 Mbit/s link the SR does not pay, and then scales "
            "that calibration multiplicatively with the one-way delay (Eq. 16)")
