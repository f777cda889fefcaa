"""Checks of how SRAMT shares Scenario A's bottlenecks with TCP (paper §8.1, Figs. 4–9): the
long-term friendliness ratio F and starvation (C12, C13), the short-term alternation (C14), S
against LE per link (C16), and the TCP-only baseline (B1).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import schemes, trace
from vidcc.papers.sramt.adaptation import cycling
from vidcc.papers.sramt.scenarios import EXPECTED_A, LINKS_A
from vidcc.papers.sramt.trace import rounded as _r
from vidcc.papers.sramt.trace import verdict as _v
from vidcc.papers.verdicts import no_data, within

SIGN_CHANGES = 5  # per 1000 s run [R]; scaled to the run's length


def link_series(data, run: trace.Run, nodes: Sequence[str], tcp_label: str, layered: bool) -> pd.DataFrame:
    """Per 1 s bin after warm-up: the SRAMT traffic leaving the bottleneck towards ``nodes``
    (:func:`schemes.scheme_series`) and the TCP flow's."""
    mine = schemes.scheme_series(run, nodes, layered, 0.0)
    return pd.DataFrame({"sramt": mine, "tcp": schemes.tcp_series(data, run, [tcp_label], 0.0)}).fillna(0.0)


def friendliness(d, proto: str) -> Verdict:
    """C12 / C13: on each bottleneck F = mean SRAMT / mean TCP in [0.5, 2] (mean over runs) and no
    starvation window, measured as C30–C34 measure Scenario A (:func:`schemes.measure`)."""
    n = schemes.measure(d, proto, schemes.scenario_a(proto))
    if n is None:
        return no_data("Scenario A runs")
    measured: dict = {}
    bad: list[str] = []
    for link in LINKS_A:
        f, (mine, tcp) = n.F[link], n.starved[link]
        measured[f"F[{link}]"] = _r(f)
        measured[f"F per run[{link}]"] = ", ".join(trace.fmt(x[link]) for x in n.f_per_run)
        measured[f"starvation windows[{link}]"] = mine + tcp
        measured[f"windows SRAMT starved / TCP starved[{link}]"] = f"{mine} / {tcp}"
        if not (0.5 <= f <= 2.0) or mine + tcp:
            bad.append(f"{link}: F = {f:.3g}" + (f", {mine} windows SRAMT starved and {tcp} TCP starved"
                                                 if mine + tcp else ""))
    text = ("F = SRAMT / TCP throughput in [0.5, 2] with no starvation window on every bottleneck"
            if not bad else "off on " + "; ".join(bad))
    return _v(not bad, measured, text)


def alternation(data, runs: Sequence[trace.Run], layered: bool, minimum: int) -> Verdict:
    """C14: the sign of (SRAMT − TCP) over 10 s bins changes at least ``minimum`` times on each link (mean over
    runs)."""
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


def ahead_share(data, runs: Sequence[trace.Run], layered: bool, link: str) -> float:
    """Share of the 10 s bins after warm-up (pooled over runs) in which SRAMT gets more than TCP on ``link``."""
    nodes, tcp, _cap = LINKS_A[link]
    ahead, n = 0, 0
    for run in runs:
        s = link_series(data, run, nodes, tcp, layered)
        w = s.groupby((s.index // 10.0).astype(int)).mean()
        ahead += int((w["sramt"] > w["tcp"]).sum())
        n += len(w)
    return ahead / n if n else math.nan


def short_term_cause(d, measured: dict) -> str:
    """C14: on each link of each variant, how often SRAMT is ahead of TCP in a 10 s bin (a link with
    few sign changes has one class ahead most of the time)."""
    parts = []
    for name, data, runs, layered in (("S", d, trace.part_runs(d, "sramt-s", False), False),
                                      ("LE", d.other("fig7-9"), trace.other_runs(d, "fig7-9", "sramt-le", True), True)):
        shares = []
        for link in LINKS_A:
            share = ahead_share(data, runs, layered, link)
            measured[f"{name} share of 10 s bins SRAMT ahead[{link}]"] = _r(share, 3)
            shares.append(f"{link} {share:.0%}")
        parts.append(f"{name}: " + ", ".join(shares))
    return "share of 10 s bins in which SRAMT gets more than TCP: " + "; ".join(parts)


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
    return _v(not bad, measured, "S and LE per-link SRAMT throughput within ±30 %"
              + (f"; off: {', '.join(bad)}" if bad else ""))


def expected_group_kbps(runs: Sequence[trace.Run], want: int, layered: bool) -> float:
    """Mean announced rate (kbit/s, after warm-up) a receiver at position ``want`` gets: stream
    ``want``'s rate (S) or the cumulative rate of levels 1..``want`` (LE)."""
    vals = []
    for run in runs:
        groups = range(1, want + 1) if layered else (want,)
        vals.append(float(np.mean(np.sum([run.rate_series(g, run.warmup_s, run.duration_s) for g in groups], axis=0))))
    return float(np.mean(vals)) / 1e3 if vals else math.nan


def similar_links_cause(d, measured: dict) -> str:
    """C16: per link, the rate the sender announces for the receivers' expected stream / level and
    the share of time they hold it, for each variant (which of the two sets the throughput apart)."""
    parts = []
    variants = (("S", trace.part_runs(d, "sramt-s", False), False),
                ("LE", trace.other_runs(d, "fig7-9", "sramt-le", True), True))
    for link, (nodes, _tcp, _cap) in LINKS_A.items():
        want = EXPECTED_A[nodes[0]]
        measured[f"expected position[{link}]"] = want
        said = []
        for name, runs, layered in variants:
            rate, share = expected_group_kbps(runs, want, layered), positions_share(runs, nodes, want)
            measured[f"{name} announced kbit/s at the expected position[{link}]"] = _r(rate, 1)
            measured[f"{name} time at the expected position[{link}]"] = _r(share, 3)
            said.append(f"{name} {rate:.0f} kbit/s, held {share:.0%} of the time")
        parts.append(f"{link} (position {want}): " + "; ".join(said))
    return "announced rate of the expected stream (S) / cumulative level (LE) and time the receivers hold it: " + \
        " — ".join(parts)


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
    """C12 / C13's cause: per link, the share of time the receivers hold their expected stream /
    level, the rate the sender announces there (stream k, or levels 1..k) against the link's fair
    half, and how much the receivers keep moving."""
    parts = []
    layered = bool(runs and runs[0].layered)
    for link, (nodes, _tcp, cap) in LINKS_A.items():
        want = EXPECTED_A[nodes[0]]
        share = positions_share(runs, nodes, want)
        rate = expected_group_kbps(runs, want, layered)
        measured[f"time at expected position[{link}]"] = _r(share, 3)
        measured[f"announced kbit/s at the expected position[{link}]"] = _r(rate, 1)
        measured[f"fair half kbit/s[{link}]"] = cap / 2e3
        measured[f"expected position[{link}]"] = want
        parts.append(f"{link} {share:.0%} of the time at position {want}, announced there {rate:.0f} kbit/s against "
                     f"a fair half of {cap / 2e3:.0f}")
    return "; ".join(parts) + "; " + cycling(runs, measured)


def short_term_alternation(d) -> Verdict:
    runs = trace.part_runs(d, "sramt-s", False)
    need = max(1, round(SIGN_CHANGES * (runs[0].duration_s - runs[0].warmup_s) / 900)) if runs else SIGN_CHANGES
    v_s = alternation(d, runs, False, need)
    v_le = alternation(d.other("fig7-9"), trace.other_runs(d, "fig7-9", "sramt-le", True), True, need)
    measured = {**{f"S {k}": v for k, v in v_s.measured.items()}, **{f"LE {k}": v for k, v in v_le.measured.items()}}
    measured["sign changes needed per link"] = need
    ok = v_s.status == "PASS" and v_le.status == "PASS"
    return Verdict("PASS" if ok else "FAIL", measured, f"S: {v_s.explanation}; LE: {v_le.explanation}")


def tcp_standin_friendliness(d):
    """C12's friendliness ratio F = mean stand-in throughput / mean TCP throughput per link."""
    from vidcc.analysis import summarize

    f = d.flows("tcp-only").copy()
    f["link"] = f["label"].str.split("-").str[1]
    f["role"] = f["label"].str.split("-").str[0]
    runs = f.groupby(["run_id", "seed", "link", "role"], as_index=False)["throughput_bps"].sum()
    wide = runs.pivot_table(index=["run_id", "seed", "link"], columns="role", values="throughput_bps").reset_index()
    wide["F"] = wide["standin"] / wide["tcp"]
    s = summarize(wide, "F", group="link")
    v = within(s, 0.5, 2.0, name="F = stand-in / TCP throughput")
    return Verdict(v.status, {**v.measured, "cells": len(s)}, v.explanation)
