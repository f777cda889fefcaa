"""Paper reproduction suites: figures (sweeps) and claims (checks), run by ``vidcc reproduce``.

A suite is data plus small code (``vidcc/papers/<paper>/``):

* :class:`Figure`: one figure or table of the paper. It holds :class:`Part` objects, each a
  base scenario (user-level dict, as in a TOML file) plus axes and seeds, that become one
  :class:`vidcc.sweep.SweepSpec` at the ``quick`` or ``full`` scale; and :class:`Plot` objects
  that say what to draw from the results.
* :class:`Claim`: one row of the digest's claims table (or a ``kind="baseline"`` sanity check):
  its text, the figure whose results it reads, the protocols and features it needs, and a
  ``check(data) -> Verdict`` function built from the helpers :func:`bound`, :func:`within`,
  :func:`number`, :func:`ordering`, :func:`direction` and :func:`all_of`.

Values that differ between scales are written ``Q(quick, full)`` anywhere in a base scenario,
an axis or the seeds; :func:`at_scale` picks one.

Existence is asked of the scenario schema, never hard-coded: a protocol exists iff
:mod:`vidcc.scenario` accepts a flow with that ``protocol`` (:func:`protocol_exists`); a
feature (multicast trees, wireless ARQ links, a video source) exists iff the schema accepts its
probe scenario (:data:`FEATURES`). A part whose protocols or features are missing is not run; a
claim that needs them is NOT-YET (never PASS).
"""

from __future__ import annotations

import copy
import functools
import math
import numbers
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from vidcc.scenario import PROTOCOLS, ScenarioError, parse_scenario

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "PASS",
    "FAIL",
    "NOT_YET",
    "STATUSES",
    "SCALES",
    "Q",
    "at_scale",
    "Feature",
    "FEATURES",
    "protocol_exists",
    "feature_exists",
    "Part",
    "Plot",
    "Figure",
    "Claim",
    "Suite",
    "Verdict",
    "FigureData",
    "bound",
    "within",
    "number",
    "ordering",
    "direction",
    "all_of",
    "no_data",
    "Axis",
    "select",
    "queue_stats",
    "video_flows",
    "load_run_table",
    "per_run",
    "scenario",
    "dumbbell",
    "chain",
    "graph",
    "glink",
    "flow",
    "droptail",
    "red",
    "missing",
    "part_spec",
    "sweep_name",
    "run_suite",
    "check_claim",
    "PartRun",
    "FigureRun",
    "ClaimResult",
    "SuiteRun",
]

PASS, FAIL, NOT_YET = "PASS", "FAIL", "NOT-YET"
STATUSES = (PASS, FAIL, NOT_YET)
SCALES = ("quick", "full")


# --------------------------------------------------------------------------------------------
# Scale-dependent values


@dataclass(frozen=True)
class Q:
    """A value that depends on the scale: ``Q("20s", "200s")``."""

    quick: Any
    full: Any

    def at(self, scale: str) -> Any:
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r}; expected one of {', '.join(SCALES)}")
        return self.quick if scale == "quick" else self.full


def at_scale(value: Any, scale: str) -> Any:
    """``value`` with every :class:`Q` inside (dicts, lists, tuples) resolved for ``scale``."""
    if isinstance(value, Q):
        return at_scale(value.at(scale), scale)
    if isinstance(value, Mapping):
        return {k: at_scale(v, scale) for k, v in value.items()}
    if isinstance(value, list):
        return [at_scale(v, scale) for v in value]
    if isinstance(value, tuple):
        return tuple(at_scale(v, scale) for v in value)
    return value


# --------------------------------------------------------------------------------------------
# What exists: asked of the scenario schema


def _probe_scenario(flow: dict) -> dict:
    return {
        "scenario": {"duration": "1s"},
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"bandwidth": "1Mbps", "delay": "1ms"},
            "access": {"bandwidth": "10Mbps", "delay": "1ms"},
        },
        "flows": [flow],
    }


@functools.lru_cache(maxsize=None)
def protocol_exists(name: str) -> bool:
    """True iff the scenario schema accepts ``protocol = name``: it is listed in
    ``vidcc.scenario.PROTOCOLS``, or a minimal scenario with that protocol fails (if at all)
    for another reason than an unknown protocol (a protocol may require keys of its own)."""
    if name in PROTOCOLS:
        return True
    try:
        parse_scenario(_probe_scenario({"protocol": name}), source="<probe>")
    except ScenarioError as e:
        return not (e.path == "flows[0].protocol" and "unknown protocol" in e.message)
    return True


@dataclass(frozen=True)
class Feature:
    """Something a figure needs besides protocols. It exists iff the schema accepts ``probe()``
    (a user-level scenario using it). The issue that adds the feature makes the probe use the
    feature's real syntax; until then the probe is the expected shape and fails validation."""

    name: str
    description: str
    probe: Callable[[], dict]


def _probe_multicast() -> dict:
    # One sender, two receivers: a flow whose `dst` is a list of nodes (a multicast group).
    return {
        "scenario": {"duration": "1s"},
        "topology": {
            "kind": "graph",
            "nodes": ["S", "R", "A", "B"],
            "links": [
                {"a": "S", "b": "R", "bandwidth": "10Mbps", "delay": "1ms"},
                {"a": "R", "b": "A", "bandwidth": "10Mbps", "delay": "1ms"},
                {"a": "R", "b": "B", "bandwidth": "10Mbps", "delay": "1ms"},
            ],
        },
        "flows": [{"protocol": "udp-cbr", "rate": "1Mbps", "src": "S", "dst": ["A", "B"]}],
    }


def _probe_wireless_arq() -> dict:
    sc = _probe_scenario({"protocol": "udp-cbr", "rate": "100kbps"})
    sc["topology"]["bottleneck"]["arq"] = {"kind": "persistent"}
    return sc


def _probe_video() -> dict:
    return _probe_scenario({"protocol": "udp", "video": {"model": "tes-mpeg4", "rate": "1Mbps"}})


def _probe_video_over_tcp() -> dict:
    return _probe_scenario({"protocol": "tcp-westwood-plus", "video": {"model": "tes-mpeg4", "rate": "1Mbps"}})


FEATURES: dict[str, Feature] = {
    "multicast": Feature("multicast", "one-to-many flows over multicast trees", _probe_multicast),
    "wireless-arq": Feature("wireless-arq", "a wireless last hop with link-layer ARQ", _probe_wireless_arq),
    "video": Feature("video", "a video source feeding a flow: frames, layers, VDI", _probe_video),
    "video-over-tcp": Feature("video-over-tcp", "a TCP flow carrying video through its send buffer", _probe_video_over_tcp),
}


@functools.lru_cache(maxsize=None)
def feature_exists(name: str) -> bool:
    feature = FEATURES.get(name)
    if feature is None:
        return False
    try:
        parse_scenario(feature.probe(), source="<probe>")
    except ScenarioError:
        return False
    return True


def missing(protocols: Iterable[str] = (), features: Iterable[str] = ()) -> list[str]:
    """Reasons something cannot run yet (empty when everything exists)."""
    reasons = [f"protocol {p!r} is not implemented yet" for p in dict.fromkeys(protocols) if not protocol_exists(p)]
    for f in dict.fromkeys(features):
        if not feature_exists(f):
            what = FEATURES[f].description if f in FEATURES else "unknown feature"
            reasons.append(f"feature {f!r} is not available yet ({what})")
    return reasons


# --------------------------------------------------------------------------------------------
# Figures, parts, plots


@dataclass(frozen=True)
class Axis:
    """One axis of a part: a scenario key path, its values (or ``Q(quick, full)``), and the
    short column name the checks and plots use (several parts of a figure may sweep different
    key paths under one name, e.g. ``n`` for ``flows[0].count`` and ``flows[1].count``)."""

    key: str
    values: Any
    name: str = ""

    @property
    def column(self) -> str:
        return self.name or self.key


@dataclass
class Part:
    """One sweep of a figure: a base scenario, axes and seeds.

    ``kind="paper"`` is a run the paper made; ``kind="baseline"`` a sanity run built from what
    exists today (TCP, unresponsive UDP), reported as such. ``tags`` are constant columns added
    to this part's results (e.g. ``{"reno": 20}``) so that plots and checks can tell parts
    apart. ``needs`` names :data:`FEATURES` the part needs besides its protocols."""

    name: str
    base: dict
    axes: Sequence[Axis] = ()
    seeds: Any = field(default_factory=lambda: Q([1, 2], [1, 2, 3, 4, 5]))
    kind: str = "paper"
    needs: Sequence[str] = ()
    tags: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""

    def protocols(self) -> list[str]:
        found: list[str] = []
        for scale in SCALES:
            for flow in at_scale(self.base, scale).get("flows", []):
                p = flow.get("protocol")
                if isinstance(p, str):
                    found.append(p)
        for axis in self.axes:
            if axis.key.endswith(".protocol"):
                values = axis.values
                for scale in SCALES:
                    found.extend(v for v in at_scale(values, scale) if isinstance(v, str))
        return list(dict.fromkeys(found))

    def missing(self) -> list[str]:
        return missing(self.protocols(), self.needs)

    def scenario(self, scale: str) -> dict:
        return copy.deepcopy(at_scale(self.base, scale))

    def axis_values(self, scale: str) -> dict[str, list]:
        return {a.column: list(at_scale(a.values, scale)) for a in self.axes}

    def seed_list(self, scale: str) -> list[int]:
        return list(at_scale(self.seeds, scale))

    def runs(self, scale: str) -> int:
        n = len(self.seed_list(scale))
        for values in self.axis_values(scale).values():
            n *= len(values)
        return n


@dataclass
class Plot:
    """What to draw from a figure's results.

    ``kind="line"``: ``metric`` (a column of ``table``) against the axis column ``axis``, one
    line per ``group`` value, mean over seeds with 95 % CI error bars. ``where`` keeps rows
    whose columns have the given value (or one of a list of values); ``prepare`` may add
    derived columns first; ``within_run`` reduces several rows of one run (flows of a label).

    ``kind="series"``: ``metric`` of ``table`` (``flow_samples``, ``queue_samples``) over time
    for one run: the first seed of ``part`` at the axis values ``select``; one line per
    ``line`` (``flow`` or ``link``)."""

    id: str
    title: str
    metric: str
    kind: str = "line"
    axis: str | None = None
    table: str = "run_flows"
    group: str | None = "label"
    parts: Sequence[str] | None = None
    where: Mapping[str, Any] = field(default_factory=dict)
    prepare: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    within_run: str = "mean"
    xlabel: str | None = None
    ylabel: str = ""
    scale: float = 1.0
    logx: bool = False
    hlines: Sequence[tuple[float, str]] = ()
    select: Mapping[str, Any] = field(default_factory=dict)
    line: str = "flow"
    only: Sequence[str] = ()  # series: keep only the lines with these names (link names, labels)


@dataclass
class Figure:
    """One figure or table of the paper: ``ref`` is the paper's own reference ("Fig. 8a,b"),
    ``caption`` says what it shows and how it was reconstructed (digest tags [P]/[I]/[D])."""

    id: str
    title: str
    ref: str
    caption: str
    parts: Sequence[Part] = ()
    plots: Sequence[Plot] = ()
    needs: Sequence[str] = ()
    notes: Sequence[str] = ()

    def part(self, name: str) -> Part:
        for p in self.parts:
            if p.name == name:
                return p
        raise KeyError(f"figure {self.id}: no part {name!r}")


# --------------------------------------------------------------------------------------------
# Verdicts and checks


@dataclass
class Verdict:
    status: str
    measured: dict[str, Any]
    explanation: str

    def __post_init__(self):
        if self.status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {self.status!r}")


@dataclass
class Claim:
    """A claim of the paper (``kind="paper"``, id from the digest's claims table) or a sanity
    check on what exists today (``kind="baseline"``). ``check(data)`` receives the
    :class:`FigureData` of ``figure`` (None for a claim without a figure) and returns a
    :class:`Verdict`. ``check=None`` means the check is not written yet (its metric does not
    exist yet): the claim is NOT-YET whatever exists."""

    id: str
    text: str
    figure: str | None = None
    protocols: Sequence[str] = ()
    check: Callable[[FigureData | None], Verdict] | None = None
    kind: str = "paper"
    needs: Sequence[str] = ()
    parts: Sequence[str] = ()
    ref: str = ""
    pending: str = ""  # why the check is not written yet (check=None)


@dataclass
class Suite:
    name: str  # CLI name: dvrc, ssvp, asmp-tfmcc, qos-aimd, sramt
    title: str
    citation: str
    digest: str
    figures: Sequence[Figure]
    claims: Sequence[Claim]
    notes: Sequence[str] = ()

    def figure(self, fid: str) -> Figure:
        for f in self.figures:
            if f.id == fid:
                return f
        raise KeyError(f"suite {self.name}: no figure {fid!r}")

    def validate(self) -> None:
        """Structural checks: unique ids, claims pointing at existing figures and parts."""
        fids = [f.id for f in self.figures]
        if len(set(fids)) != len(fids):
            raise ValueError(f"suite {self.name}: duplicate figure ids")
        cids = [c.id for c in self.claims]
        if len(set(cids)) != len(cids):
            dup = sorted({c for c in cids if cids.count(c) > 1})
            raise ValueError(f"suite {self.name}: duplicate claim ids {dup}")
        for f in self.figures:
            names = [p.name for p in f.parts]
            if len(set(names)) != len(names):
                raise ValueError(f"suite {self.name}: figure {f.id}: duplicate part names")
        for c in self.claims:
            if c.figure is not None:
                fig = self.figure(c.figure)
                for p in c.parts:
                    fig.part(p)


# --------------------------------------------------------------------------------------------
# The results of one figure, as the checks see them


class FigureData:
    """The loaded results of one figure: every part that ran, its tables with the axis columns
    (named as the parts' :class:`Axis` names), a ``part`` column and the part's tags."""

    def __init__(self, figure: Figure, tables: Mapping[str, pd.DataFrame], ran: Iterable[str],
                 series: Callable[[str, str], pd.DataFrame] | None = None):
        self.figure = figure
        self._tables = dict(tables)
        self.ran = set(ran)
        self._series = series
        self._others: Mapping[str, FigureData] = {}

    def other(self, figure_id: str) -> FigureData:
        """The results of another figure of the suite (for claims that compare two figures)."""
        if figure_id not in self._others:
            raise KeyError(f"no results of figure {figure_id!r}")
        return self._others[figure_id]

    def table(self, name: str = "run_flows", part: str | Sequence[str] | None = None,
              where: Mapping[str, Any] | None = None) -> pd.DataFrame:
        import pandas as pd

        df = self._tables.get(name)
        if df is None:
            return pd.DataFrame()
        if part is not None:
            parts = [part] if isinstance(part, str) else list(part)
            df = df[df["part"].isin(parts)]
        return select(df, where or {})

    def flows(self, part=None, where=None) -> pd.DataFrame:
        return self.table("run_flows", part, where)

    def aggregate(self, part=None, where=None) -> pd.DataFrame:
        return self.table("run_aggregate", part, where)

    def runs(self, part=None, where=None) -> pd.DataFrame:
        return self.table("runs", part, where)

    def summary(self, metric: str, by: str | Sequence[str] | None = None, group: str | Sequence[str] | None = "label", *,
                table: str = "run_flows", part=None, where=None, within_run: str = "mean",
                prepare: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> pd.DataFrame:
        """:func:`vidcc.analysis.summarize` over this figure's results."""
        from vidcc.analysis import summarize

        df = self.table(table, part, where)
        if prepare is not None and not df.empty:
            df = prepare(df)
        return summarize(df, metric, by=by, group=group, within_run=within_run)

    def series(self, run_id: str, table: str = "flow_samples") -> pd.DataFrame:
        if self._series is None:
            raise RuntimeError("no time series available")
        return self._series(run_id, table)


def select(df: pd.DataFrame, where: Mapping[str, Any]) -> pd.DataFrame:
    for col, value in where.items():
        if col not in df.columns:
            return df.iloc[0:0]
        if isinstance(value, (list, tuple, set)):
            df = df[df[col].isin(list(value))]
        else:
            df = df[df[col] == value]
    return df


# --------------------------------------------------------------------------------------------
# Check helpers. Each takes a summary (``FigureData.summary``: one row per cell with ``mean``)
# and returns a Verdict with the measured values that decided it.

_OPS: dict[str, Callable[[float, float], bool]] = {
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}


def _round(x: Any) -> Any:
    if isinstance(x, bool) or x is None:
        return x
    try:
        f = float(x)
    except (TypeError, ValueError):
        return x
    if math.isnan(f) or math.isinf(f):
        return None
    if isinstance(x, numbers.Integral):
        return int(x)
    return float(f"{f:.6g}")


def _fmt(x: Any) -> str:
    if isinstance(x, float):
        return f"{x:.4g}"
    return str(x)


def _cell_name(row: Mapping[str, Any], keys: Sequence[str]) -> str:
    return ",".join(f"{k}={_fmt(_round(row[k]))}" for k in keys) if keys else "all"


def _cell_keys(summary: pd.DataFrame) -> list[str]:
    from vidcc.analysis import STAT_COLUMNS

    return [c for c in summary.columns if c not in STAT_COLUMNS]


def no_data(what: str) -> Verdict:
    return Verdict(FAIL, {}, f"no results for {what} (did its runs fail?)")


def bound(summary: pd.DataFrame, op: str, threshold: float, *, name: str, value: str = "mean") -> Verdict:
    """Every cell's ``value`` (default the mean over seeds) satisfies ``value op threshold``."""
    if summary is None or summary.empty:
        return no_data(name)
    check = _OPS[op]
    keys = _cell_keys(summary)
    measured: dict[str, Any] = {}
    bad = []
    for row in summary.to_dict("records"):
        v = float(row[value])
        cell = _cell_name(row, keys)
        measured[f"{name}[{cell}]"] = _round(v)
        if math.isnan(v) or not check(v, threshold):
            bad.append((cell, v))
    if bad:
        cell, v = bad[0]
        more = f" (and {len(bad) - 1} more cells)" if len(bad) > 1 else ""
        return Verdict(FAIL, measured, f"{name} = {_fmt(v)} at {cell}, not {op} {_fmt(threshold)}{more}")
    vals = [float(r[value]) for r in summary.to_dict("records")]
    worst = min(vals) if op in (">", ">=") else max(vals)
    return Verdict(PASS, measured, f"{name} {op} {_fmt(threshold)} in all {len(vals)} cells (worst {_fmt(worst)})")


def within(summary: pd.DataFrame, lo: float, hi: float, *, name: str, value: str = "mean") -> Verdict:
    """Every cell's value lies in [lo, hi]."""
    if summary is None or summary.empty:
        return no_data(name)
    keys = _cell_keys(summary)
    measured: dict[str, Any] = {}
    bad = []
    for row in summary.to_dict("records"):
        v = float(row[value])
        cell = _cell_name(row, keys)
        measured[f"{name}[{cell}]"] = _round(v)
        if math.isnan(v) or not lo <= v <= hi:
            bad.append((cell, v))
    if bad:
        cell, v = bad[0]
        more = f" (and {len(bad) - 1} more cells)" if len(bad) > 1 else ""
        return Verdict(FAIL, measured, f"{name} = {_fmt(v)} at {cell}, outside [{_fmt(lo)}, {_fmt(hi)}]{more}")
    return Verdict(PASS, measured, f"{name} within [{_fmt(lo)}, {_fmt(hi)}] in all {len(summary)} cells")


def number(value: float, target: float, tol: float, *, name: str, relative: bool = False) -> Verdict:
    """A single measured number equals ``target`` within ``tol`` (absolute, or relative to the
    target with ``relative=True``)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return no_data(name)
    err = abs(value - target) / abs(target) if relative else abs(value - target)
    measured = {name: _round(value), f"{name} target": _round(target), f"{name} tolerance": _round(tol)}
    unit = " (relative)" if relative else ""
    if err <= tol:
        return Verdict(PASS, measured, f"{name} = {_fmt(value)} is {_fmt(target)} ± {_fmt(tol)}{unit}")
    return Verdict(FAIL, measured, f"{name} = {_fmt(value)} differs from {_fmt(target)} by more than {_fmt(tol)}{unit}")


def ordering(summary: pd.DataFrame, higher: str, lower: str, *, group: str = "label", name: str,
             by: str | None = None, margin: float = 0.0, relative: bool = False, at: Sequence[Any] | None = None,
             most: bool = False) -> Verdict:
    """``higher`` > ``lower`` (values of the ``group`` column) on the mean at every value of the
    axis ``by`` (or overall with ``by=None``; only at ``at`` when given): mean(higher) −
    mean(lower) > margin (× mean(lower) with ``relative=True``). ``most=True``: at more than
    half of the points instead of all."""
    if summary is None or summary.empty:
        return no_data(name)
    df = summary
    if by is not None and at is not None:
        df = df[df[by].isin(list(at))]
    a = df[df[group] == higher]
    b = df[df[group] == lower]
    if a.empty or b.empty:
        return no_data(f"{name} of {higher if a.empty else lower}")
    if by is None:
        pairs = [("all", float(a["mean"].mean()), float(b["mean"].mean()))]
    else:
        bm = dict(zip(b[by], b["mean"]))
        pairs = [(x, float(m), float(bm[x])) for x, m in zip(a[by], a["mean"]) if x in bm]
        if not pairs:
            return no_data(f"{name}: no common {by} values of {higher} and {lower}")
    measured: dict[str, Any] = {}
    bad = []
    for x, va, vb in pairs:
        cell = f"{by}={_fmt(_round(x))}" if by is not None else "all"
        measured[f"{name}[{higher},{cell}]"] = _round(va)
        measured[f"{name}[{lower},{cell}]"] = _round(vb)
        need = margin * abs(vb) if relative else margin
        if math.isnan(va) or math.isnan(vb) or not va - vb > need:
            bad.append((cell, va, vb))
    if most and len(bad) < len(pairs) / 2:
        return Verdict(PASS, measured, f"{name}: {higher} > {lower} at {len(pairs) - len(bad)} of {len(pairs)} points")
    if bad:
        cell, va, vb = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        of = f" (must hold at more than half of the {len(pairs)} points)" if most else ""
        return Verdict(FAIL, measured, f"{name}: {higher} {_fmt(va)} is not above {lower} {_fmt(vb)} at {cell}{more}{of}")
    return Verdict(PASS, measured, f"{name}: {higher} > {lower} at all {len(pairs)} points")


def direction(summary: pd.DataFrame, axis: str, *, increasing: bool, name: str, group: str | None = None,
              of: Any = None, how: str = "slope", min_change: float = 0.0) -> Verdict:
    """The mean of a metric rises (``increasing=True``) or falls along ``axis`` (for the
    ``group`` value ``of`` when given). ``how``: ``"slope"`` (least-squares slope of the means
    has the sign), ``"endpoints"`` (last − first beyond ``min_change``), ``"monotone"`` (every
    step has the sign or stays within ``min_change``)."""
    if summary is None or summary.empty:
        return no_data(name)
    df = summary if group is None or of is None else summary[summary[group] == of]
    df = df.sort_values(axis)
    xs = [float(x) for x in df[axis]]
    ys = [float(y) for y in df["mean"]]
    if len(xs) < 2:
        return Verdict(FAIL, {}, f"{name}: fewer than two points along {axis}")
    measured = {f"{name}[{axis}={_fmt(_round(x))}]": _round(y) for x, y in zip(xs, ys)}
    word = "rises" if increasing else "falls"
    sign = 1.0 if increasing else -1.0
    if how == "slope":
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else 0.0
        measured[f"{name} slope per unit {axis}"] = _round(slope)
        ok = sign * slope > 0
        detail = f"least-squares slope {_fmt(slope)}"
    elif how == "endpoints":
        change = ys[-1] - ys[0]
        measured[f"{name} change"] = _round(change)
        ok = sign * change > min_change
        detail = f"{_fmt(ys[0])} → {_fmt(ys[-1])}"
    elif how == "monotone":
        steps = [b - a for a, b in zip(ys, ys[1:])]
        ok = all(sign * s >= -min_change for s in steps) and sign * (ys[-1] - ys[0]) > 0
        detail = " → ".join(_fmt(y) for y in ys)
    else:
        raise ValueError(f"unknown direction test {how!r}")
    if ok:
        return Verdict(PASS, measured, f"{name} {word} along {axis}: {detail}")
    return Verdict(FAIL, measured, f"{name} does not {word[:-1]} along {axis}: {detail}")


def all_of(*verdicts: Verdict) -> Verdict:
    """PASS iff every verdict passes; the measured values of all; the first failure explains."""
    measured: dict[str, Any] = {}
    for v in verdicts:
        measured.update(v.measured)
    failed = [v for v in verdicts if v.status != PASS]
    if failed:
        return Verdict(failed[0].status, measured, failed[0].explanation)
    return Verdict(PASS, measured, "; ".join(v.explanation for v in verdicts))


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "-", text).strip("-")


# --------------------------------------------------------------------------------------------
# Running a suite: sweeps → results → figures → claims


@dataclass
class PartRun:
    """What happened to one part: ``status`` is ``"ran"``, ``"not-yet"`` (``reasons`` say
    what is missing) or ``"failed"`` (some or all runs failed; ``errors`` holds them)."""

    part: Part
    status: str
    reasons: list[str] = field(default_factory=list)
    sweep: str | None = None
    total: int = 0
    ran: int = 0
    skipped: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)
    run_ids: list[str] = field(default_factory=list)
    axes: dict[str, list] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)


@dataclass
class Image:
    plot: Plot
    png: Any  # Path
    svg: Any  # Path
    note: str = ""


@dataclass
class FigureRun:
    figure: Figure
    parts: list[PartRun]
    images: list[Image] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: FigureData | None = None

    @property
    def status(self) -> str:
        states = {p.status for p in self.parts}
        if not self.parts or states == {"not-yet"}:
            return NOT_YET
        if "failed" in states:
            return "failed"
        return "ran" if states == {"ran"} else "partial"


@dataclass
class ClaimResult:
    claim: Claim
    status: str
    measured: dict[str, Any]
    explanation: str
    error: bool = False  # the check itself raised (a suite bug)


@dataclass
class SuiteRun:
    suite: Suite
    scale: str
    figures: list[FigureRun]
    claims: list[ClaimResult]
    wall_seconds: float = 0.0
    db: str = ""

    def counts(self) -> dict[str, int]:
        out = {s: 0 for s in STATUSES}
        for c in self.claims:
            out[c.status] += 1
        return out

    @property
    def errors(self) -> list[str]:
        errs = []
        for f in self.figures:
            for p in f.parts:
                if p.status == "failed":
                    errs.append(f"{self.suite.name}/{f.figure.id}/{p.part.name}: {p.failed} of {p.total} runs failed"
                                + (f" ({p.errors[0]})" if p.errors else ""))
        for c in self.claims:
            if c.error:
                errs.append(f"{self.suite.name}/{c.claim.id}: {c.explanation}")
        return errs


def sweep_name(suite: Suite, figure: Figure, part: Part, scale: str) -> str:
    return f"reproduce/{suite.name}/{figure.id}/{part.name}/{scale}"


def part_spec(suite: Suite, figure: Figure, part: Part, scale: str):
    """The :class:`vidcc.sweep.SweepSpec` of one part at one scale."""
    from vidcc.sweep import Axis as SweepAxis
    from vidcc.sweep import SweepSpec

    return SweepSpec(
        name=sweep_name(suite, figure, part, scale),
        base=part.scenario(scale),
        axes=[SweepAxis(a.key, list(at_scale(a.values, scale))) for a in part.axes],
        seeds=part.seed_list(scale),
        source=f"vidcc reproduce {suite.name} ({figure.id}, part {part.name}, {scale})",
    )


def _load_part(db, spec, part: Part, run_ids: Sequence[str]) -> dict[str, pd.DataFrame]:
    from vidcc import results

    rename = {a.key: a.column for a in part.axes}
    wanted = set(run_ids)
    out = {}
    for table in ("runs", "run_flows", "run_aggregate"):
        df = results.load(db=db, table=table, sweep=spec.name)
        if "run_id" in df.columns:
            df = df[df["run_id"].isin(wanted)]
        df = df.rename(columns=rename)
        df.insert(0, "part", part.name)
        for k, v in part.tags.items():
            df[k] = v
        out[table] = df.reset_index(drop=True)
    return out


def run_suite(suite: Suite, scale: str, *, db, out_dir, jobs: int | None = None, cluster: str | None = None,
              progress: bool = True, log: Callable[[str], None] = print) -> SuiteRun:
    """Run every part that can run (reusing the runs already in ``db``), load the results, draw
    the figures into ``out_dir/figures`` and check the claims."""
    import time
    from pathlib import Path

    import pandas as pd

    from vidcc import results
    from vidcc.sweep import SweepError, run_sweep

    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; expected one of {', '.join(SCALES)}")
    suite.validate()
    t0 = time.perf_counter()
    fig_dir = Path(out_dir) / "figures"
    fig_runs: list[FigureRun] = []
    for fi, figure in enumerate(suite.figures, 1):
        parts: list[PartRun] = []
        fig_missing = missing((), figure.needs)
        tables: dict[str, list[pd.DataFrame]] = {"runs": [], "run_flows": [], "run_aggregate": []}
        for part in figure.parts:
            reasons = fig_missing + part.missing()
            pr = PartRun(part, "not-yet", reasons, total=part.runs(scale), axes=part.axis_values(scale), seeds=part.seed_list(scale))
            if reasons:
                parts.append(pr)
                continue
            spec = part_spec(suite, figure, part, scale)
            pr.sweep = spec.name
            log(f"[{suite.name}] {figure.id} ({figure.ref}): part {part.name}: {pr.total} runs")
            try:
                outcome = run_sweep(spec, db=db, jobs=jobs, cluster=cluster, progress=progress)
            except SweepError as e:
                if e.file in ("--cluster", "--jobs"):  # the executor, not this part: nothing else can run
                    raise
                pr.status, pr.errors, pr.failed = "failed", [str(e)], pr.total
                parts.append(pr)
                continue
            pr.ran, pr.skipped, pr.failed, pr.run_ids = outcome.ran, outcome.skipped, outcome.failed, list(outcome.run_ids)
            pr.errors = sorted(set(outcome.errors.values()))
            pr.status = "failed" if outcome.failed else "ran"
            loaded = _load_part(db, spec, part, outcome.run_ids)
            for name, df in loaded.items():
                tables[name].append(df)
            parts.append(pr)
        ran = [p.part.name for p in parts if p.status in ("ran", "failed")]
        merged = {name: (pd.concat(dfs, ignore_index=True) if dfs else pd.DataFrame()) for name, dfs in tables.items()}

        def series(run_id: str, table: str = "flow_samples") -> pd.DataFrame:
            return load_run_table(db, run_id, table)

        data = FigureData(figure, merged, ran, series)
        fr = FigureRun(figure, parts, data=data)
        state = {"ran": "ran", "partial": "partly ran", NOT_YET: "NOT-YET", "failed": "runs failed"}[fr.status]
        why = "; ".join(dict.fromkeys(r for p in parts for r in p.reasons))
        log(f"[{suite.name}] figure {fi}/{len(suite.figures)} {figure.id} ({figure.ref}): {state}" + (f" — {why}" if why and fr.status != "ran" else ""))
        if ran:
            _draw(suite, fr, fig_dir)
        fig_runs.append(fr)

    by_id = {f.figure.id: f for f in fig_runs}
    others = {fid: f.data for fid, f in by_id.items() if f.data is not None}
    for f in fig_runs:
        if f.data is not None:
            f.data._others = others
    claims = [check_claim(c, by_id.get(c.figure) if c.figure else None) for c in suite.claims]
    return SuiteRun(suite, scale, fig_runs, claims, time.perf_counter() - t0, str(db))


def load_run_table(db, run_id: str, table: str) -> pd.DataFrame:
    """One table of one run (``vidcc.results.load_series``); a table the run did not produce is
    empty."""
    from vidcc import results

    return results.load_series(run_id, table=table, db=db)


def video_flows(data: FigureData, part: str | Sequence[str] | None = None, where: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """``run_flows`` rows of video flows joined with their ``video_summary`` row (vdi,
    delayed_packet_rate, packet_drop_rate, frames_*, ...), with the part, seed, axis and tag
    columns. Flows without video are left out."""
    import pandas as pd

    flows = data.flows(part, where)
    out = []
    for run_id, f in flows.groupby("run_id", sort=True):
        v = data.series(run_id, "video_summary")
        if not v.empty:
            out.append(f.merge(v, on="flow", how="inner", suffixes=("", "_video")))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


def check_claim(claim: Claim, fig: FigureRun | None) -> ClaimResult:
    """A claim's status: NOT-YET when a protocol, a feature, a part or the check is missing;
    else whatever its check says (a check that raises is reported as FAIL and as an error)."""
    reasons = missing(claim.protocols, claim.needs)
    if fig is not None:
        reasons += [r for r in missing((), fig.figure.needs) if r not in reasons]
        for name in claim.parts:
            pr = next((p for p in fig.parts if p.part.name == name), None)
            if pr is not None and pr.status == "not-yet":
                reasons += [r for r in pr.reasons if r not in reasons] if pr.reasons else [f"part {name} did not run"]
    if reasons:
        return ClaimResult(claim, NOT_YET, {}, "; ".join(reasons))
    if claim.check is None:
        return ClaimResult(claim, NOT_YET, {}, "check not written yet" + (f": {claim.pending}" if claim.pending else ""))
    if claim.figure is not None and (fig is None or fig.data is None):
        return ClaimResult(claim, NOT_YET, {}, f"figure {claim.figure} has no results")
    try:
        v = claim.check(fig.data if fig is not None else None)
    except Exception as e:  # noqa: BLE001 - report it with the claim, keep the other claims
        return ClaimResult(claim, FAIL, {}, f"check error: {type(e).__name__}: {e}", error=True)
    if not isinstance(v, Verdict):
        return ClaimResult(claim, FAIL, {}, f"check error: returned {type(v).__name__}, not a Verdict", error=True)
    measured = {k: _round(x) for k, x in v.measured.items()}
    if v.status == PASS and not measured:
        return ClaimResult(claim, FAIL, {}, f"check error: PASS without measured values ({v.explanation})", error=True)
    return ClaimResult(claim, v.status, measured, v.explanation)


def _draw(suite: Suite, fr: FigureRun, fig_dir) -> None:
    from vidcc import analysis

    data = fr.data
    for plot in fr.figure.plots:
        stem = fig_dir / f"{fr.figure.id}-{plot.id}"
        try:
            fig = _plot(plot, data)
        except Exception as e:  # noqa: BLE001 - a figure that cannot be drawn is noted, not fatal
            fr.notes.append(f"{plot.id}: not drawn ({type(e).__name__}: {e})")
            continue
        if fig is None:
            fr.notes.append(f"{plot.id}: no data yet")
            continue
        png, svg = analysis.save_figure(fig, stem)
        fr.images.append(Image(plot, png, svg))


def _plot(plot: Plot, data: FigureData):
    from vidcc import analysis

    parts = list(plot.parts) if plot.parts is not None else None
    if parts is not None and not any(p in data.ran for p in parts):
        return None
    if plot.kind == "line":
        df = data.table(plot.table, parts, plot.where)
        if df.empty:
            return None
        if plot.prepare is not None:
            df = plot.prepare(df)
        if plot.axis not in df.columns:
            return None
        summary = analysis.summarize(df, plot.metric, by=plot.axis, group=plot.group, within_run=plot.within_run)
        return analysis.line_plot(summary, plot.axis, group=plot.group, title=plot.title, xlabel=plot.xlabel,
                                  ylabel=plot.ylabel, scale=plot.scale, logx=plot.logx, hlines=plot.hlines)
    if plot.kind == "series":
        runs = data.runs(parts, plot.select)
        if runs.empty:
            return None
        row = runs.sort_values(["part", "seed"]).iloc[0]
        samples = data.series(row["run_id"], plot.table)
        if samples.empty:
            return None
        if plot.prepare is not None:
            samples = plot.prepare(samples)
        names = {}
        if plot.line == "flow":
            flows = data.flows(row["part"])
            flows = flows[flows["run_id"] == row["run_id"]]
            names = {f: f"{lab} #{f}" for f, lab in zip(flows["flow"], flows["label"])}
            if len(names) > 12:
                names = dict(zip(flows["flow"], flows["label"]))
        elif plot.line == "link":
            links = data.series(row["run_id"], "links")
            if not links.empty:
                names = dict(zip(links["link"], links["name"]))
            busy = samples.groupby("link")[plot.metric].max()
            samples = samples[samples["link"].isin(busy[busy > 0].index)]
        if plot.only:
            keep = [k for k, v in names.items() if v in plot.only or str(v).split(" #")[0] in plot.only]
            samples = samples[samples[plot.line].isin(keep)]
        where = ", ".join(f"{k}={v}" for k, v in plot.select.items())
        title = plot.title + (f" ({row['part']}{', ' + where if where else ''}, seed {row['seed']})")
        return analysis.series_plot(samples, plot.metric, line=plot.line, names=names, title=title, ylabel=plot.ylabel,
                                    scale=plot.scale, hlines=plot.hlines)
    raise ValueError(f"unknown plot kind {plot.kind!r}")


# --------------------------------------------------------------------------------------------
# Building blocks for suites: user-level scenario dicts (values may be Q)


def scenario(duration: Any, topology: dict, flows: list[dict], *, warmup: Any = "2s", **keys: Any) -> dict:
    return {"scenario": {"duration": duration, "warmup": warmup, **keys}, "topology": topology, "flows": flows}


def droptail(limit: Any = "bdp") -> dict:
    return {"kind": "droptail", "limit": limit}


def red(**keys: Any) -> dict:
    return {"kind": "red", **keys}


def _link(bandwidth: Any, delay: Any, queue: dict | None, loss: dict | None, reverse_loss: dict | None) -> dict:
    out: dict[str, Any] = {"bandwidth": bandwidth, "delay": delay}
    if queue is not None:
        out["queue"] = queue
    if loss is not None:
        out["loss"] = loss
    if reverse_loss is not None:
        out["reverse_loss"] = reverse_loss
    return out


def dumbbell(bandwidth: Any, delay: Any, *, access: dict, queue: dict | None = None, loss: dict | None = None,
             source_access: dict | None = None, sink_access: dict | None = None) -> dict:
    topo: dict[str, Any] = {"kind": "dumbbell", "bottleneck": _link(bandwidth, delay, queue, loss, None), "access": access}
    if source_access is not None:
        topo["source_access"] = source_access
    if sink_access is not None:
        topo["sink_access"] = sink_access
    return topo


def chain(hops: Any, bandwidth: Any, delay: Any, *, access: dict, queue: dict | None = None) -> dict:
    return {"kind": "chain", "hops": hops, "link": _link(bandwidth, delay, queue, None, None), "access": access}


def glink(a: str, b: str, bandwidth: Any, delay: Any, *, queue: dict | None = None, loss: dict | None = None,
          reverse_loss: dict | None = None, monitor: bool | None = None) -> dict:
    out = {"a": a, "b": b, **_link(bandwidth, delay, queue, loss, reverse_loss)}
    if monitor is not None:
        out["monitor"] = monitor
    return out


def graph(nodes: Sequence[str], links: Sequence[dict]) -> dict:
    return {"kind": "graph", "nodes": list(nodes), "links": list(links)}


def flow(protocol: str, *, label: str | None = None, count: Any = 1, **keys: Any) -> dict:
    out: dict[str, Any] = {"protocol": protocol}
    if count != 1:
        out["count"] = count
    if label is not None:
        out["label"] = label
    out.update(keys)
    return out


# --------------------------------------------------------------------------------------------
# Derived measurements that checks and plots share


def _resolved_warmup_ns(runs_row: Mapping[str, Any]) -> int:
    import json

    text = runs_row.get("resolved_json")
    if not text:
        return 0
    return int(json.loads(text).get("warmup_ns", 0))


def queue_stats(data: FigureData, part: str | Sequence[str] | None, link: str, *, full: float = 0.9,
                where: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Per run: the queue of the link named ``link`` (e.g. ``"R2->R3"``) after warmup:
    ``mean_queue`` (packets), ``frac_full`` (share of samples at ≥ ``full`` × the limit),
    ``queue_limit`` (packets), ``link_drops`` (queue drops over the whole run), ``link_drop_ratio``
    (queue drops / packets offered to the link), with the run's part, seed, axis and tag columns."""
    import pandas as pd

    runs = data.runs(part, where)
    keep = [c for c in runs.columns if c not in ("scenario_json", "resolved_json", "stats_json", "parquet_tables", "axes_json", "error")]
    rows = []
    for r in runs.to_dict("records"):
        links = data.series(r["run_id"], "links")
        match = links[links["name"] == link] if not links.empty else links
        if match.empty:
            raise KeyError(f"run {r['run_id'][:12]}: no link named {link!r}")
        lrow = match.iloc[0]
        samples = data.series(r["run_id"], "queue_samples")
        samples = samples[(samples["link"] == lrow["link"]) & (samples["t_ns"] >= _resolved_warmup_ns(r))]
        limit = float(lrow["queue_limit_packets"]) if pd.notna(lrow["queue_limit_packets"]) else math.nan
        q = samples["packets"].astype(float)
        offered = float(lrow["delivered_packets"]) + float(lrow["dropped_queue"]) + float(lrow["dropped_loss"])
        rows.append({
            **{k: r[k] for k in keep},
            "mean_queue": float(q.mean()) if len(q) else math.nan,
            "frac_full": float((q >= full * limit).mean()) if len(q) else math.nan,
            "queue_limit": limit,
            "link_drops": float(lrow["dropped_queue"]),
            "link_drop_ratio": float(lrow["dropped_queue"]) / offered if offered else math.nan,
        })
    return pd.DataFrame(rows)


def per_run(df: pd.DataFrame, metric: str, how: str = "sum") -> pd.DataFrame:
    """One row per run: ``metric`` reduced over the run's rows (flows), with the run's part,
    seed, axis and tag columns (every column constant within the run)."""
    import pandas as pd

    if df.empty:
        return df
    const = [c for c in df.columns if c != metric and df.groupby("run_id")[c].nunique(dropna=False).max() <= 1]
    out = df.groupby(const, dropna=False, sort=True)[metric].agg(how).reset_index()
    return out if isinstance(out, pd.DataFrame) else pd.DataFrame(out)
