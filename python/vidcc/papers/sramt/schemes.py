"""What C30–C35 measure of a compared scheme (or an SRAMT variant) in any of the suite's set-ups,
written once: the common bottleneck (``fig15-19``), the staggered start (``fig15-19-staggered``),
the baselines' own set-ups (``fig15-19-orig``) and Scenario A (``fig4-9-baselines``, SRAMT's
``fig4-6`` / ``fig7-9``).

Per run, after the warm-up and after ``since`` (the staggered start: from 60 s, when both TCPs run),
in 1 s bins (suite):

* on each link, the scheme's traffic is what its receivers behind it get (:func:`scheme_series`:
  layered, the most any of them gets, its layers containing the others'; simulcast, the sum over
  the streams they are on of the most one receiver gets), summed over the scheme's sessions; the
  TCP traffic is the sum of the link's Tahoe flows. F = mean per session / mean per TCP flow;
  starvation windows as C12 (:func:`starved_windows`), split by who starves;
* received-rate CoV: each receiver's CoV of its 1 s received rate, mean over receivers (what C30
  judges layered schemes on: PLM announces no rate); announced CoV (simulcast): the CoV of the
  announced rates of the streams some receiver held after the warm-up, mean over them
  (:func:`announced_cov`, C33; C15 reads the same function for SRAMT-S's streams and SRAMT-LE's layers);
* convergence time ("convergence time to the stable state", "the time until [it] obtains stable
  operation", paper §9): measured on the rate, as the paper's figures show it (:func:`settling_s`):
  each receiver's received rate from the session's start, in 10 s means, settles when three windows
  in a row stay within its second half's level ± the larger of twice that half's spread and 10 %;
  the session's time is its last receiver's (a scheme that starts at 20 s and settles at 30 s
  converged in 10 s). A rate that never settles counts the whole session.

Numbers are means over the runs (starvation windows summed).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from vidcc.papers.sramt import trace
from vidcc.papers.sramt.scenarios import (
    COMMON,
    EXPECTED_A,
    LAYERED,
    LINK_BPS,
    LINKS_A,
    ORIGINAL,
    RLC_SESSIONS,
    SCENARIO_A_BASELINES,
    SRAMT_FIGURE_A,
    STAGGERED,
)

BOTTLENECK = "bottleneck"  # the one link of the single-bottleneck set-ups
STARVE_WINDOW_S = 10.0  # starvation is judged over non-overlapping 10 s windows [R]
# Convergence (settling_s) reads the rate in the same 10 s windows [R]: settled once this many
# windows in a row (30 s, longer than rule 2's 20 s between a receiver's changes) stay within the
# settled level ± the larger of twice its windows' standard deviation and this share of it.
CONVERGENCE_HOLD = 3
CONVERGENCE_FLOOR = 0.1


@dataclass(frozen=True)
class Setup:
    """Where a scheme's numbers are read: a figure's part, the scheme's session labels, its links
    (name → (receiver nodes behind it, None for all; its Tahoe labels; capacity bit/s)), from when."""

    name: str
    figure: str
    part: str
    labels: tuple[str, ...]
    links: dict[str, tuple[tuple[str, ...] | None, tuple[str, ...], float]]
    since: float = 0.0


def common(proto: str) -> Setup:
    return Setup("common bottleneck", COMMON, proto, (proto,), {BOTTLENECK: (None, ("tcp",), LINK_BPS)})


def staggered(proto: str) -> Setup:
    return Setup("staggered start", STAGGERED, proto, (proto,), {BOTTLENECK: (None, ("tcp1", "tcp2"), LINK_BPS)}, 60.0)


def original(proto: str) -> Setup | None:
    """The scheme's own paper's set-up: PLM's is the staggered start (the same scenario, so the same
    runs), MLDA's the common bottleneck; DSG's names no topology (None)."""
    if proto == "plm":
        return staggered("plm")
    if proto == "mlda":
        return common("mlda")
    if proto == "rlc":
        n = RLC_SESSIONS
        return Setup("Fig. 16's set-up", ORIGINAL, "rlc", tuple(f"rlc{i}" for i in range(1, n + 1)),
                     {BOTTLENECK: (None, tuple(f"tcp{i}" for i in range(1, n + 1)), n * LINK_BPS)})
    if proto == "irfm":
        return Setup("Fig. 19's set-up", ORIGINAL, "irfm", ("irfm",), {BOTTLENECK: (None, ("tcp1",), LINK_BPS)})
    return None


def scenario_a(proto: str) -> Setup:
    links = {link: (nodes, (tcp,), cap) for link, (nodes, tcp, cap) in LINKS_A.items()}
    return Setup("Scenario A", SRAMT_FIGURE_A.get(proto, SCENARIO_A_BASELINES), proto, (proto,), links)


@dataclass
class Numbers:
    """A scheme's numbers in one set-up (means over runs; starvation windows summed)."""

    runs: int
    F: dict[str, float]  # per link
    starved: dict[str, tuple[int, int]]  # per link: (windows the scheme starves, windows TCP starves)
    received_cov: float
    stream_cov: float  # simulcast schemes; NaN for layered ones
    convergence_s: float
    layered: bool
    f_per_run: list[dict[str, float]] = field(default_factory=list)
    convergence_per_run: list[float] = field(default_factory=list)  # mean over the run's sessions
    run_list: list[list[trace.Run]] = field(default_factory=list, repr=False)  # the sessions of each run

    @property
    def starvation(self) -> dict[str, int]:
        return {link: a + b for link, (a, b) in self.starved.items()}

    @property
    def cov(self) -> float:
        """The CoV the claims judge: received rate for layered schemes, held streams' rates for simulcast."""
        return self.received_cov if self.layered else self.stream_cov

    def runs_flat(self) -> list[trace.Run]:
        return [s for sessions in self.run_list for s in sessions]


def figure_data(d, fig: str):
    """The data of figure ``fig`` seen from ``d`` (itself or another figure of the suite), None if absent."""
    if d is None:
        return None
    if d.figure is not None and d.figure.id == fig:
        return d
    try:
        return d.other(fig)
    except KeyError:
        return None


def scheme_series(run: trace.Run, nodes: Sequence[str] | None, layered: bool, since: float) -> pd.Series:
    """Per 1 s bin after ``since`` (and the warm-up): the scheme's traffic towards ``nodes`` (all its receivers
    if None)."""
    s = run.samples[run.samples["t_s"] > max(run.warmup_s, since)]
    if nodes is not None:
        s = s[s["node"].isin(nodes)]
    if layered:
        return s.groupby("t_s")["throughput_bps"].max()
    s = s.assign(pos=[run.position_at(r, t) for r, t in zip(s["receiver"], s["t_s"])])
    return s.groupby(["t_s", "pos"])["throughput_bps"].max().groupby("t_s").sum()


def tcp_series(data, run: trace.Run, labels: Sequence[str], since: float) -> pd.Series:
    tcp = trace.series_of(data, run.run_id, list(labels))
    return tcp[tcp["t_s"] > max(run.warmup_s, since)].groupby("t_s")["throughput_bps"].sum()


def window_shares(s: pd.DataFrame, capacity: float) -> pd.DataFrame:
    """Per non-overlapping 10 s window: the scheme's (column ``sramt``) and TCP's mean share of the link."""
    return s.groupby((s.index // STARVE_WINDOW_S).astype(int)).mean() / capacity


def starved_windows(s: pd.DataFrame, capacity: float) -> tuple[int, int]:
    """10 s windows where the scheme (column ``sramt``) gets < 10 % of the link while TCP gets > 80 %, and the
    reverse."""
    if s.empty:
        return 0, 0
    w = window_shares(s, capacity)
    return int(((w["sramt"] < 0.1) & (w["tcp"] > 0.8)).sum()), int(((w["tcp"] < 0.1) & (w["sramt"] > 0.8)).sum())


def received_cov(run: trace.Run, since: float = 0.0) -> float:
    """Mean over receivers of the CoV of each one's 1 s received rate after the warm-up (and ``since``)."""
    s = run.samples[run.samples["t_s"] > max(run.warmup_s, since)]
    covs = [float(np.std(x) / np.mean(x)) for _r, x in s.groupby("receiver")["throughput_bps"]
            if len(x) and np.mean(x) > 0]
    return float(np.mean(covs)) if covs else math.nan


def held_groups(run: trace.Run) -> list[int]:
    """The groups (1-based) some receiver got at some time after the warm-up: the streams held
    (simulcast) or the layers 1..k of every level k held (layered)."""
    held = set()
    for r in run.nodes:
        held.add(run.position_at(r, run.warmup_s))
        c = run.changes[(run.changes["receiver"] == r) & (run.changes["t_s"] > run.warmup_s)]
        held.update(int(x) for x in c["to"])
    if run.layered:
        held = set(range(1, max(held) + 1)) if held else set()
    return sorted(held)


def announced_cov(run: trace.Run) -> float:
    """Mean CoV of the announced rates of the groups held after the warm-up (held_groups; 1 s
    samples): the streams' rates (simulcast) or the layers' rates r_layer-j (layered). A group
    nobody receives keeps its rate and would dilute the mean."""
    covs = []
    for g in held_groups(run):
        x = run.rate_series(g, run.warmup_s, run.duration_s)
        if len(x) and np.mean(x) > 0:
            covs.append(float(np.std(x) / np.mean(x)))
    return float(np.mean(covs)) if covs else math.nan


def settling_s(rate: pd.Series, start_s: float, end_s: float) -> float:
    """Seconds from ``start_s`` until the 1 s rate series ``rate`` (indexed by each bin's end time)
    settles: read in 10 s means counted from ``start_s`` (a bin without a sample is 0), the settled
    level L is the mean of the windows in the second half of [start_s, end_s], the tolerance the
    larger of twice those windows' standard deviation and 10 % of L; the rate has settled at the
    start of the first window from which CONVERGENCE_HOLD windows in a row lie within L ± tolerance.
    A rate that never does counts the whole span (end_s − start_s); NaN without traffic."""
    n = int((end_s - start_s + 1e-9) // STARVE_WINDOW_S)
    if n < 2 * CONVERGENCE_HOLD:
        return math.nan
    bins = np.arange(1, int(n * STARVE_WINDOW_S) + 1, dtype=float)
    at = np.rint(rate.index.to_numpy(dtype=float) - start_s)
    x = pd.Series(rate.to_numpy(dtype=float), index=at).groupby(level=0).sum().reindex(bins, fill_value=0.0)
    means = x.groupby(((bins - 1) // STARVE_WINDOW_S).astype(int)).mean().to_numpy()
    tail = means[n // 2:]
    level = float(np.mean(tail))
    if not level > 0:
        return math.nan
    inside = np.abs(means - level) <= max(2 * float(np.std(tail)), CONVERGENCE_FLOOR * level)
    for i in range(n - CONVERGENCE_HOLD + 1):
        if inside[i:i + CONVERGENCE_HOLD].all():
            return i * STARVE_WINDOW_S
    return n * STARVE_WINDOW_S


def convergence_s(run: trace.Run) -> float:
    """The session's time to its stable state (paper §9): the latest of its receivers' settling
    times (:func:`settling_s` on each one's received rate from the session's start to the run's
    end); NaN if no receiver got traffic."""
    times = [settling_s(x.set_index("t_s")["throughput_bps"], run.start_s, run.duration_s)
             for _r, x in run.samples.groupby("receiver")]
    times = [t for t in times if math.isfinite(t)]
    return max(times) if times else math.nan


def _mean(xs) -> float:
    xs = [x for x in xs if isinstance(x, (int, float)) and math.isfinite(x)]
    return float(np.mean(xs)) if xs else math.nan


def measure(d, proto: str, setup: Setup | None) -> Numbers | None:
    """``proto``'s numbers in ``setup``; None when its runs are not in the results (or cannot be read)."""
    data = figure_data(d, setup.figure) if setup is not None else None
    if data is None or data.runs(setup.part).empty:
        return None
    layered = LAYERED[proto]
    fs: list[dict[str, float]] = []
    starved = {link: (0, 0) for link in setup.links}
    rcov, scov, conv, run_list = [], [], [], []
    for row in data.runs(setup.part).to_dict("records"):
        try:
            sessions = [trace.load(data, row, label, layered) for label in setup.labels]
        except KeyError:
            return None
        run_list.append(sessions)
        f_run = {}
        for link, (nodes, tcps, cap) in setup.links.items():
            mine = pd.concat([scheme_series(s, nodes, layered, setup.since) for s in sessions], axis=1).sum(axis=1)
            s = pd.DataFrame({"sramt": mine, "tcp": tcp_series(data, sessions[0], tcps, setup.since)}).fillna(0.0)
            other = s["tcp"].mean() / len(tcps)
            f_run[link] = float(s["sramt"].mean() / len(sessions) / other) if other > 0 else math.inf
            a, b = starved_windows(s, cap)
            starved[link] = (starved[link][0] + a, starved[link][1] + b)
        fs.append(f_run)
        rcov += [received_cov(s, setup.since) for s in sessions]
        scov += [announced_cov(s) for s in sessions] if not layered else []
        conv.append(_mean([convergence_s(s) for s in sessions]))
    return Numbers(len(fs), {link: float(np.mean([f[link] for f in fs])) for link in setup.links}, starved,
                   _mean(rcov), _mean(scov) if not layered else math.nan, _mean(conv), layered, fs, conv, run_list)


# --------------------------------------------------------------------------------------------
# Scenario A: where each scheme's receivers end up


HALF_SHARE_BPS = {"C1-C2": 0.1e6, "C1-C3": 0.4e6, "C1-C4": 0.75e6}
LINK_OF = {n: link for link, (nodes, _t, _c) in LINKS_A.items() for n in nodes}


def _cumulative_level(layer_bps: Sequence[float], share: float) -> int:
    total, level = 0.0, 0
    for r in layer_bps:
        total += r
        if total >= share:
            break
        level += 1
    return max(level, 1)


def expected(proto: str, protocol: dict, scenario_a_expected: dict[str, int]) -> dict[str, int | None]:
    """The position each receiver is expected to hold in Scenario A (None: either is right): PLM,
    RLC the most layers whose cumulative rate stays strictly below the half-share; DSG and the SRAMT
    variants the paper's streams; IRFM R1, R2 low, R5, R6 high; MLDA none (its layers follow the reports)."""
    if proto in ("sramt-s", "sramt-le", "dsg"):
        return dict(scenario_a_expected)
    if proto == "irfm":
        return {n: {1: 1, 2: None, 3: 2}[k] for n, k in scenario_a_expected.items()}
    if proto == "plm":
        layers = [float(x) for x in protocol.get("layer_rates_bps", [])]
    elif proto == "rlc":
        b0, n = float(protocol.get("base_rate_bps", 32_000)), int(protocol.get("layers", 6))
        layers = [b0] + [b0 * 2 ** (k - 1) for k in range(1, n)]
    else:  # mlda: layer sizes follow the reports; only the order is expected
        return {n: None for n in scenario_a_expected}
    return {n: _cumulative_level(layers, HALF_SHARE_BPS[LINK_OF[n]]) for n in scenario_a_expected}


def protocol_config(data, part: str, label: str | None = None) -> dict:
    """The resolved protocol configuration of the flow labelled ``label`` (default: the part's name) in the
    part's first run."""
    row = data.runs(part).to_dict("records")[0]
    cfg = next((f for f in json.loads(row.get("resolved_json") or "{}").get("flows", [])
                if f.get("label") == (label or part)), {})
    return cfg.get("protocol") if isinstance(cfg.get("protocol"), dict) else {}


def positions(d, proto: str, n: Numbers) -> dict:
    """Scenario A's final positions of ``proto``'s receivers: per node the positions held over
    [0.5·D, D] ("moved" otherwise), the expected ones, (hits, judged) and whether the pairs' mean
    positions increase with the bottleneck."""
    data = figure_data(d, scenario_a(proto).figure)
    runs = n.runs_flat()
    want = expected(proto, protocol_config(data, proto), EXPECTED_A)
    finals, hits, judged = {}, 0, 0
    for node in EXPECTED_A:
        held = [r.held(node, 0.5 * r.duration_s, r.duration_s) for r in runs]
        finals[node] = ", ".join("moved" if h is None else str(h) for h in held)
        if want[node] is not None:
            judged += len(held)
            hits += sum(h == want[node] for h in held)
    means = []
    for _link, (nodes, _t, _c) in LINKS_A.items():
        held = [r.held(x, 0.5 * r.duration_s, r.duration_s) for r in runs for x in nodes]
        held = [h for h in held if h is not None]
        means.append(float(np.mean(held)) if held else math.nan)
    ordered = bool(all(math.isfinite(x) for x in means) and means[0] < means[1] < means[2])
    return {"final": finals, "expected": want, "at expected": (hits, judged), "ordered": ordered}
