"""Checks of the receivers' adaptation (paper §§3.3, 6, 8.2): where each receiver ends up
(C11, C17, C20, C22, C25), the rule-2 spacing and back-off (C08–C09), changes at epoch boundaries
(C10), when unsuccessful changes happen (C19, C24) and that one receiver's change leaves the
others undisturbed (C27), over the traces of :mod:`vidcc.papers.sramt.trace`. Times the paper
states for 1000 s runs ("[500, 1000] s", "before 200 s") are read as shares of the run (0.5·D,
0.2·D), so that the quick scale's shorter runs ask the same question.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import trace
from vidcc.papers.sramt.scenarios import EXPECTED_A, EXPECTED_B2
from vidcc.papers.sramt.trace import rounded as _r
from vidcc.papers.sramt.trace import verdict as _v
from vidcc.papers.verdicts import no_data


def assignment(runs: Sequence[trace.Run], expected: Mapping[str, int], *, what: str,
               from_share: float = 0.5) -> Verdict:
    """Every receiver holds its expected stream / level over [from_share·D, D] in every run
    (pooled: the share of runs where all do must be ≥ 80 %, C11's test)."""
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
    measured["held from (share of D)"] = from_share
    if wrong:
        measured["off (first 6)"] = ", ".join(wrong[:6])
    text = (f"{what}: every receiver held its expected position over [{from_share:g}·D, D] in {good} of {len(runs)} "
            "runs" + (f"; off: {', '.join(wrong[:6])}" if wrong else ""))
    return _v(share >= 0.8, measured, text)


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
    measured = {"runs": len(runs), "unsuccessful changes": n, f"after {late_share:g}·D": late}
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
                rule1 = ((row["to"] < j and bool(np.any(np.abs(seen - lo) < 1.0)))
                         or (row["to"] > j and bool(np.any(np.abs(seen - hi) < 1.0))))
                if rule1:
                    continue
                if last is not None:
                    pairs += 1
                    if row["t_s"] - last < 19.5:
                        short.append(f"{row['node']} {last:.1f}→{row['t_s']:.1f} s (seed {run.seed})")
                last = row["t_s"]
    if not pairs:
        return Verdict("NOT-YET", {"rule-2 pairs": 0}, "no receiver made two rule-2 moves: nothing to check")
    measured = {"consecutive rule-2 moves": pairs, "closer than 20 s": len(short)}
    if short:
        measured["closer (first 4)"] = ", ".join(short[:4])
    return _v(not short, measured, f"{len(short)} of {pairs} consecutive rule-2 moves closer than 20 s"
              + (f": {', '.join(short[:4])}" if short else ""))


def blocks(run: trace.Run) -> list[dict]:
    """The back-off blocks of one run as §3.3 sets them (docs/papers/sramt.md §1.7, rules.rs
    `Backoff`): after the k-th consecutive unsuccessful change (k counts the failures since the
    receiver's last successful change, any change: A-17) that same change (from, to) is blocked
    for 2^k·T_change from the change that undid it. A change the receiver's next change undoes
    (within the flow's `unsuccessful_window`, if set) failed; the undoing change is neither a
    success nor a new trial; a change the next one does not undo succeeded and resets k.
    Each block: node, change (from, to), k, start and end (s), and ``retry_s``, when that change
    was next made (None if never)."""
    out: list[dict] = []
    for _rcv, c in run.changes.groupby("receiver", sort=True):
        rows = c.sort_values("t_s").to_dict("records")
        k = 0
        last = None  # (change row, is a trial)
        for i, row in enumerate(rows):
            t = float(row["t_s"])
            if last is not None and last[1]:
                prev = last[0]
                if trace.undoes(prev, row) and run.within_window(t - float(prev["t_s"])):
                    k += 1
                    key = (int(prev["from"]), int(prev["to"]))
                    retry = next((float(r["t_s"]) for r in rows[i + 1:] if (int(r["from"]), int(r["to"])) == key), None)
                    out.append({"node": row["node"], "change": key, "k": k, "start": t,
                                "end": t + 2 ** k * trace.T_CHANGE_S, "retry_s": retry})
                    last = (row, False)
                    continue
                k = 0
            last = (row, True)
    return out


def backoff_spacing(runs: Sequence[trace.Run]) -> Verdict:
    """C09: a change blocked after its k-th consecutive failure (:func:`blocks`) is not tried
    again before its 2^k·T_change block ends (0.5 s tolerance)."""
    pairs, short = 0, []
    for run in runs:
        for b in blocks(run):
            if b["retry_s"] is None:
                continue
            pairs += 1
            if b["retry_s"] < b["end"] - 0.5:
                short.append(f"{b['node']} {b['change']}: {b['retry_s'] - b['start']:.1f} s < "
                             f"{b['end'] - b['start']:g} s (seed {run.seed})")
    if not pairs:
        return Verdict("NOT-YET", {"repeated failures": 0}, "no change failed and was tried again: nothing to check")
    measured = {"retries of a blocked change": pairs, "too early": len(short), "T_change s": trace.T_CHANGE_S}
    if short:
        measured["too early (first 4)"] = ", ".join(short[:4])
    return _v(not short, measured, f"{len(short)} of {pairs} retries of a change that had failed came before its "
              f"2^k·{trace.T_CHANGE_S:g} s block ended" + (f": {', '.join(short[:4])}" if short else ""))


RETRY_LAG_S = 4 * trace.EPOCH_S  # a persistent rule-2 trigger retries within 4 epochs of a block's end


def retries_persist(runs: Sequence[trace.Run], measured: dict) -> str:
    """The bound behind the over-claims on where receivers end (C11, C17, C19, C20, C22, C24, C25):
    under §3.3's back-off a change that keeps failing is blocked 2^k·T_change each time, so while
    its trigger persists it is retried at the end of every block, at times growing about twofold;
    every [D/2, D] then holds a retry whatever D. Computed from the run: the share of blocks that
    ended before the run did and were followed by a retry within 4 epochs of their end (the
    trigger persisted), and how many receivers were still allowed a retry after D/2 (their
    blocks in force at D/2 ended before D)."""
    ended, prompt, allowed, receivers = 0, 0, 0, 0
    for run in runs:
        by_node: dict[str, list[dict]] = {}
        for b in blocks(run):
            by_node.setdefault(b["node"], []).append(b)
            if b["end"] < run.duration_s:
                ended += 1
                prompt += b["retry_s"] is not None and b["retry_s"] - b["end"] <= RETRY_LAG_S
        half = 0.5 * run.duration_s
        for bs in by_node.values():
            receivers += 1
            at_half = [b for b in bs if b["start"] <= half]
            allowed += bool(at_half) and max(b["end"] for b in at_half) < run.duration_s
    share = prompt / ended if ended else math.nan
    measured["blocks ended before D"] = ended
    measured["share retried within 4 epochs of the block's end"] = _r(share, 3)
    measured["receivers with failed changes"] = receivers
    measured["of them allowed a retry after D/2"] = allowed
    return (f"{share:.0%} of the {ended} back-off blocks that ended before the run did were followed by a retry of "
            f"the same change within {RETRY_LAG_S:g} s of their end (the trigger persisted), and {allowed} of the "
            f"{receivers} receivers with failed changes had every block in force at D/2 end before D: the back-off "
            "spaces retries of a persistent trigger twofold, so the second half of any run holds one")


def change_owd_s(run: trace.Run, receiver: int, boundary_s: float, t_s: float) -> float:
    """The receiver's one-way delay behind a change at ``t_s`` made for the epoch that ended at
    ``boundary_s``: the largest delay of a packet it received between the two (the flagged packet
    or, when that was lost, the packets whose delay §1.8's fallback waits for), from the
    ``flow_samples`` intervals that overlap them. Runs recorded before ``delay_max_ns`` existed
    give only each interval's mean: then the receiver's largest interval mean over the run, the
    check's earlier tolerance."""
    s = run.samples[run.samples["receiver"] == receiver]
    if not len(s):
        return 0.0
    if "delay_max_s" in s.columns and s["delay_max_s"].notna().any():
        step = float(s["t_s"].diff().median()) if len(s) > 1 else 1.0
        near = s[(s["t_s"] > boundary_s) & (s["t_s"] <= t_s + step)]["delay_max_s"].dropna()
        if len(near):
            return float(near.max())
    return float(s["delay_s"].max())


def epoch_aligned(runs: Sequence[trace.Run]) -> Verdict:
    """C10: every change happens within the receiver's one-way delay (the largest of its packets
    received between the epoch boundary and the change, :func:`change_owd_s`, plus 0.25 s for the
    packet gap of the slowest group) after an epoch boundary of the sender."""
    n, off = 0, []
    for run in runs:
        for row in run.changes.to_dict("records"):
            phase = (row["t_s"] - run.start_s) % trace.EPOCH_S
            owd = change_owd_s(run, row["receiver"], row["t_s"] - phase, row["t_s"])
            n += 1
            if phase > owd + 0.25:
                off.append(f"{row['node']} at {row['t_s']:.2f} s (phase {phase:.2f} s, OWD ≤ {owd:.2f} s)")
    if not n:
        return Verdict("NOT-YET", {"changes": 0}, "no change to check")
    measured = {"changes": n, "off the epoch boundary": len(off), "at the boundary": n - len(off)}
    if off:
        measured["off (first 4)"] = ", ".join(off[:4])
    return _v(not off, measured, f"{n - len(off)} of {n} changes within one-way delay of an epoch boundary"
              + (f"; off: {', '.join(off[:4])}" if off else ""))


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
    measured = {"pairs": len(drops), "mean drop": _r(mean), "share of pairs dropping ≥ 20 %": _r(big),
                "window each side s": 5}
    return _v(mean < 0.2, measured, f"other receivers' 5 s mean rate around a change drops by {mean:.1%} on average "
                                    f"({big:.0%} of {len(drops)} pairs ≥ 20 %)")


def reversal_delays(runs: Sequence[trace.Run]) -> list[float]:
    """For every change later undone by the opposite change, the time until it was undone."""
    out = []
    for run in runs:
        for _rcv, c in run.changes.groupby("receiver", sort=True):
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
    measured["reversed changes"] = len(d)
    measured["unsuccessful changes"] = failed
    late_changes = measured["changes per receiver in [0.5·D, D]"]
    return (f"receivers keep cycling between streams/levels ({late_changes} changes per receiver in the second half); "
            f"{len(d)} changes were undone (median {med:.1f} s after the change), {failed} of them counted "
            "unsuccessful by the back-off of §1.7")


def final_assignment_a(d) -> Verdict:
    v_s = assignment(trace.part_runs(d, "sramt-s", False), EXPECTED_A, what="S")
    v_le = assignment(trace.other_runs(d, "fig7-9", "sramt-le", True), EXPECTED_A, what="LE")
    measured = {**{f"S {k}": v for k, v in v_s.measured.items()}, **{f"LE {k}": v for k, v in v_le.measured.items()}}
    ok = v_s.status == "PASS" and v_le.status == "PASS"
    return Verdict("PASS" if ok else "FAIL", measured, f"{v_s.explanation}; {v_le.explanation}")


def b2_assignment_and_stream3(d) -> Verdict:
    runs = trace.part_runs(d, "sramt-s", False)
    v = assignment(runs, EXPECTED_B2, what="B2 (S)")
    tries, kept = 0, []
    for run in runs:
        c = run.changes[(run.changes["node"] == "R1") & (run.changes["to"] == 3)]
        back = run.changes[(run.changes["node"] == "R1") & (run.changes["from"] == 3)]
        for t in c["t_s"]:
            tries += 1
            if not ((back["t_s"] > t) & (back["t_s"] - t <= trace.REVERSAL_S)).any():
                kept.append(f"{t:.0f} s (seed {run.seed})")
    measured = {**v.measured, "R1 joins of stream 3": tries, "not reversed within one epoch": len(kept)}
    if kept:
        measured["kept joins (first 3)"] = ", ".join(kept[:3])
    ok = v.status == "PASS" and not kept
    return Verdict("PASS" if ok else "FAIL", measured,
                   f"{v.explanation}; R1 joined stream 3 {tries} times, {len(kept)} not reversed within one epoch"
                   + (f" ({', '.join(kept[:3])})" if kept else ""))


def changes_undisturbing(d) -> Verdict:
    v_le = undisturbed(trace.part_runs(d, "sramt-le", True))
    v_s = undisturbed(trace.other_runs(d, "fig13", "sramt-s", False))
    measured = {**{f"LE (B1) {k}": v for k, v in v_le.measured.items()},
                **{f"S (B3) {k}": v for k, v in v_s.measured.items()}}
    statuses = {v_le.status, v_s.status}
    status = "FAIL" if "FAIL" in statuses else ("PASS" if "PASS" in statuses else "NOT-YET")
    return Verdict(status, measured, f"LE (B1): {v_le.explanation}; S (B3): {v_s.explanation}")


def scenario_b_runs(d, with_le: bool = True) -> list[trace.Run]:
    """Every Scenario B run of the suite (B1–B4)."""
    runs = []
    for fig, part, layered in (("fig11", "sramt-le", True), ("fig12", "sramt-s", False), ("fig13", "sramt-s", False),
                               ("fig14", "sramt-s", False)):
        if layered and not with_le:
            continue
        runs += trace.part_runs(d, part, layered) if d.figure.id == fig else trace.other_runs(d, fig, part, layered)
    return runs
