"""How a claim's measured values become PASS, FAIL or NOT-YET, and with what explanation.

The check helpers (:func:`bound`, :func:`within`, :func:`number`, :func:`ordering`,
:func:`direction`, :func:`all_of`, :func:`no_data`) take a summary (``FigureData.summary``: one
row per cell with ``mean``) or a number and return a :class:`~vidcc.papers.model.Verdict` with
the measured values that decided it. :func:`check_claim` turns a claim and its figure's run into
a :class:`~vidcc.papers.model.ClaimResult`: NOT-YET when something it needs is missing, else
what its check says on all seeds pooled *and* on each seed's runs alone (:func:`per_seed`,
:func:`decide`: PASS or FAIL only when the seeds agree, else UNSTABLE), with the claim's cause
(:data:`~vidcc.papers.model.Cause`) stated on a FAIL (:func:`state_cause`).
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from vidcc.papers.categories import classify
from vidcc.papers.existence import missing
from vidcc.papers.model import (
    FAIL,
    FAIL_SHARE,
    FEW_SEEDS,
    NOT_YET,
    PASS,
    PASS_SHARE,
    UNSTABLE,
    Cause,
    Claim,
    ClaimResult,
    FigureRun,
    Stability,
    Verdict,
)

if TYPE_CHECKING:
    import pandas as pd

    from vidcc.papers.measures import FigureData

__all__ = ["no_data", "bound", "within", "number", "ordering", "direction", "all_of", "state_cause", "per_seed",
           "decide",
           "check_claim"]

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


def _cells(summary: pd.DataFrame, name: str, value: str, holds: Callable[[float], bool]) -> tuple[dict[str, Any], list]:
    """Every cell's ``value`` as measured values named ``name[cell]``, and the (cell, value)
    pairs where it is NaN or ``holds`` is false."""
    keys = _cell_keys(summary)
    measured: dict[str, Any] = {}
    bad = []
    for row in summary.to_dict("records"):
        v = float(row[value])
        cell = _cell_name(row, keys)
        measured[f"{name}[{cell}]"] = _round(v)
        if math.isnan(v) or not holds(v):
            bad.append((cell, v))
    return measured, bad


def _first_bad(bad: list) -> tuple[str, float, str]:
    cell, v = bad[0]
    return cell, v, f" (and {len(bad) - 1} more cells)" if len(bad) > 1 else ""


def _counted(measured: dict[str, Any], name: str, bad: list, unit: str = "cells") -> dict[str, Any]:
    """``measured`` with the count the explanation shows when it names the first failing cell and
    counts the rest ("and 2 more"): every number an explanation shows is a measured one."""
    if len(bad) > 1:
        measured[f"{name}: more {unit} failing"] = len(bad) - 1
    return measured


def no_data(what: str) -> Verdict:
    return Verdict(FAIL, {}, f"no results for {what} (did its runs fail?)")


def bound(summary: pd.DataFrame, op: str, threshold: float, *, name: str, value: str = "mean") -> Verdict:
    """Every cell's ``value`` (default the mean over seeds) satisfies ``value op threshold``."""
    if summary is None or summary.empty:
        return no_data(name)
    check = _OPS[op]
    measured, bad = _cells(summary, name, value, lambda v: check(v, threshold))
    if bad:
        cell, v, more = _first_bad(bad)
        return Verdict(FAIL, _counted(measured, name, bad),
                       f"{name} = {_fmt(v)} at {cell}, not {op} {_fmt(threshold)}{more}")
    vals = [float(r[value]) for r in summary.to_dict("records")]
    worst = min(vals) if op in (">", ">=") else max(vals)
    measured[f"{name}: cells"] = len(vals)
    return Verdict(PASS, measured, f"{name} {op} {_fmt(threshold)} in all {len(vals)} cells (worst {_fmt(worst)})")


def within(summary: pd.DataFrame, lo: float, hi: float, *, name: str, value: str = "mean") -> Verdict:
    """Every cell's value lies in [lo, hi]."""
    if summary is None or summary.empty:
        return no_data(name)
    measured, bad = _cells(summary, name, value, lambda v: lo <= v <= hi)
    if bad:
        cell, v, more = _first_bad(bad)
        return Verdict(FAIL, _counted(measured, name, bad),
                       f"{name} = {_fmt(v)} at {cell}, outside [{_fmt(lo)}, {_fmt(hi)}]{more}")
    measured[f"{name}: cells"] = len(summary)
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
    if most:
        measured[f"{name}: points"] = len(pairs)
    if most and len(bad) < len(pairs) / 2:
        measured[f"{name}: points holding"] = len(pairs) - len(bad)
        return Verdict(PASS, measured, f"{name}: {higher} > {lower} at {len(pairs) - len(bad)} of {len(pairs)} points")
    if bad:
        cell, va, vb = bad[0]
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        of = f" (must hold at more than half of the {len(pairs)} points)" if most else ""
        return Verdict(FAIL, _counted(measured, name, bad, "points"),
                       f"{name}: {higher} {_fmt(va)} is not above {lower} {_fmt(vb)} at {cell}{more}{of}")
    measured[f"{name}: points"] = len(pairs)
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
    """PASS iff every verdict passes; the measured values of all; the first failure explains.
    Where two verdicts measure under one name (two orderings of one metric both count "more
    points failing"), the explaining failure's value is kept, so that the numbers of the
    explanation are the ones ``measured`` holds."""
    measured: dict[str, Any] = {}
    for v in verdicts:
        measured.update(v.measured)
    failed = [v for v in verdicts if v.status != PASS]
    if failed:
        measured.update(failed[0].measured)
        return Verdict(failed[0].status, measured, failed[0].explanation)
    return Verdict(PASS, measured, "; ".join(v.explanation for v in verdicts))


# --------------------------------------------------------------------------------------------
# A claim's status


def state_cause(cause: Cause, data: FigureData | None, measured: dict[str, Any]) -> str:
    """The text of a claim's cause: the text itself, or what the function computes from the
    figure's results (it may add to ``measured``). A cause is commentary: one that cannot be
    computed says so and never hides the verdict."""
    if isinstance(cause, str):
        return cause
    try:
        return cause(data, measured)
    except Exception as e:  # noqa: BLE001 - the cause is commentary; never hide the verdict
        return f"(cause not computed: {type(e).__name__}: {e})"


def per_seed(claim: Claim, data: FigureData | None, pooled: str) -> Stability:
    """The claim's check applied to each seed's runs alone (``FigureData.for_seed``). A seed on
    which the check raises or finds no data is not counted (its reason is kept)."""
    st = Stability(pooled=pooled)
    if claim.not_per_seed:
        st.note = f"not checked per seed: {claim.not_per_seed}"
        return st
    if data is None:
        st.note = "not checked per seed: the claim reads no runs"
        return st
    seeds = data.seeds()
    if len(seeds) < 2:
        st.note = f"not checked per seed: {len(seeds)} seed{'s' if len(seeds) != 1 else ''}"
        return st
    for seed in seeds:
        key = int(seed) if float(seed).is_integer() else seed
        try:
            v = claim.check(data.for_seed(seed))
        except Exception as e:  # noqa: BLE001 - a check that needs several seeds cannot say
            st.per_seed[key] = f"n/a ({type(e).__name__}: {e})"
            continue
        if not isinstance(v, Verdict) or v.status == NOT_YET or (v.status == FAIL and not v.measured):
            st.per_seed[key] = f"n/a ({v.explanation if isinstance(v, Verdict) else 'no verdict'})"
            continue
        st.per_seed[key] = v.status
        st.decided += 1
        st.held += v.status == PASS
    if not st.decided:
        st.note = "not checked per seed: the check cannot be applied to one seed's runs"
    elif st.decided < FEW_SEEDS:
        st.note = f"few seeds: {st.decided} < {FEW_SEEDS}"
    return st


def decide(pooled: str, st: Stability) -> str:
    """The rule: PASS when the check holds in at least PASS_SHARE of the seeds and on all seeds
    pooled; FAIL when it holds in at most FAIL_SHARE of them and fails pooled; else UNSTABLE.
    Without a per-seed share (one seed, an analytic claim) the pooled status stands."""
    share = st.share
    if share is None:
        return pooled
    if pooled == PASS and share >= PASS_SHARE:
        return PASS
    if pooled == FAIL and share <= FAIL_SHARE:
        return FAIL
    return UNSTABLE


def check_claim(claim: Claim, fig: FigureRun | None, scale: str = "quick") -> ClaimResult:
    """A claim's status: NOT-YET when a protocol, a feature, a part or the check is missing;
    else whatever its check says (a check that raises is reported as FAIL and as an error). A
    FAIL or UNSTABLE carries the claim's category with its evidence (:func:`classify`) when the
    claim is classified; ``scale`` is the run's (a scale category does not apply at full scale)."""
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
        pending = f": {claim.pending}" if claim.pending else ""
        return ClaimResult(claim, NOT_YET, {}, "check not written yet" + pending)
    if claim.figure is not None and (fig is None or fig.data is None):
        return ClaimResult(claim, NOT_YET, {}, f"figure {claim.figure} has no results")
    data = fig.data if fig is not None else None
    try:
        v = claim.check(data)
    except Exception as e:  # noqa: BLE001 - report it with the claim, keep the other claims
        return ClaimResult(claim, FAIL, {}, f"check error: {type(e).__name__}: {e}", error=True)
    if not isinstance(v, Verdict):
        return ClaimResult(claim, FAIL, {}, f"check error: returned {type(v).__name__}, not a Verdict", error=True)
    if v.status == PASS and not v.measured:
        return ClaimResult(claim, FAIL, {}, f"check error: PASS without measured values ({v.explanation})", error=True)
    if v.status == NOT_YET:
        return ClaimResult(claim, NOT_YET, {k: _round(x) for k, x in v.measured.items()}, v.explanation)
    stability = per_seed(claim, data if claim.figure is not None else None, v.status)
    status = decide(v.status, stability)
    # the cause first: a computed one may add the numbers it used to the measured values
    cause = state_cause(claim.cause, data, v.measured) if status == FAIL and claim.cause is not None else ""
    category = classify(claim, status, scale, data, v.measured)
    measured = {k: _round(x) for k, x in v.measured.items()}
    return ClaimResult(claim, status, measured, v.explanation, cause, stability=stability, category=category)

