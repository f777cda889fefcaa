"""Why a claim that does not reproduce does not: its category and the evidence for it.

A FAIL or UNSTABLE verdict is a finding about the paper only once everything on our side has been
ruled out (the scenario is the paper's, the metric is its definition, the check tests the claim as
worded). What remains is exactly one of three categories (docs/experiments.md, "Why a claim
fails"), each with the evidence it needs:

* :class:`OverClaim` — the mechanism as the paper specifies it cannot deliver the claim. Evidence:
  a bound computed from the run (``bound``, a function like a computed cause), or a measurement
  across readings (``readings``: the suite's :class:`~vidcc.papers.model.Alternative` names under
  which the claim was run and fails as well), or both; and the argument in words.
* :class:`UnrecordedReading` — the paper does not say enough: the claim holds under a reading the
  paper's text allows. Evidence: ``readings``, the suite's alternatives (runnable with
  ``vidcc reproduce PAPER --explore``) declared from the paper's text before they were run. No
  default changes because a reading passes.
* :class:`Scale` — the quick run is too small or too short. Evidence: ``full``, the repository
  path of a committed full-scale ``claims.json`` (with its code fingerprint) in which the claim
  PASSes. It does not apply to a full-scale run.

A defect of ours or a check that misreads the claim is not a category: it gets fixed.
:func:`problems` lists what is wrong with a claim's classification (the suite refuses to load
with any); :func:`classify` states the category and its evidence for one result.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

# vidcc.papers.model builds on this module (a Claim carries a Classification), so the claims,
# suites and figure data it is given are typed loosely here: no import back into the model.
Claim = Suite = FigureData = Any

__all__ = ["Category", "OverClaim", "UnrecordedReading", "Scale", "Classification", "Finding", "REPO_ROOT",
           "problems", "classify", "full_scale_verdict"]

# The repository's root: a Scale classification names a committed file relative to it.
REPO_ROOT = Path(__file__).resolve().parents[3]


class Category(enum.Enum):
    OVER_CLAIM = "over-claim"
    UNRECORDED_READING = "unrecorded reading"
    SCALE = "scale"


@dataclass(frozen=True)
class OverClaim:
    """The paper's mechanism cannot deliver the claim: ``argument`` says why; ``bound(data,
    measured)`` computes the bound from the run (adding the numbers it used to ``measured``) and
    returns the sentence that states it; ``readings`` are alternatives under which the claim was
    measured to fail too."""

    argument: str
    bound: Callable[[FigureData | None, dict[str, Any]], str] | None = None
    readings: Sequence[str] = ()
    category = Category.OVER_CLAIM


@dataclass(frozen=True)
class UnrecordedReading:
    """The paper does not say enough: ``silent`` says what it leaves open; ``readings`` are the
    suite's alternatives under which the claim would hold. ``fails_at``: scales at which the
    claim was measured to fail under those readings too (``--explore`` there); at such a scale
    the classification does not apply and the claim stays unclassified."""

    silent: str
    readings: Sequence[str]
    fails_at: Sequence[str] = ()
    category = Category.UNRECORDED_READING


@dataclass(frozen=True)
class Scale:
    """The quick run is too small or too short: ``full`` is the repository path of the committed
    full-scale ``claims.json`` in which the claim PASSes; ``why`` says what the quick run lacks."""

    why: str
    full: str
    category = Category.SCALE


Classification = Union[OverClaim, UnrecordedReading, Scale]


@dataclass(frozen=True)
class Finding:
    """A classified result as the report states it: the category and the evidence, in words."""

    category: Category
    evidence: str


def full_scale_verdict(path: str, claim_id: str) -> tuple[str, str, str]:
    """``(status, explanation, code fingerprint)`` of ``claim_id`` in the committed full-scale
    ``claims.json`` at ``path`` (relative to the repository). Raises ``ValueError`` naming the file
    and what is wrong with it."""
    file = REPO_ROOT / path
    try:
        doc = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: cannot read a claims.json: {e}") from None
    if doc.get("scale") != "full":
        raise ValueError(f"{path}: scale is {doc.get('scale')!r}, not 'full'")
    fingerprint = doc.get("code_fingerprint")
    if not isinstance(fingerprint, str) or not fingerprint:
        raise ValueError(f"{path}: no code_fingerprint")
    for c in doc.get("claims", []):
        if c.get("id") == claim_id:
            return str(c.get("status")), str(c.get("explanation", "")), fingerprint
    raise ValueError(f"{path}: no claim {claim_id}")


def problems(claim: Claim, suite: Suite) -> list[str]:
    """What is wrong with ``claim.category`` in ``suite`` (empty when it is sound or absent): a
    category without its evidence, a reading that names no alternative of the suite, a scale
    classification whose full-scale run does not exist or does not show the claim passing."""
    cl = claim.category
    if cl is None:
        return []
    where = f"suite {suite.name}: claim {claim.id}: {cl.category.value}"
    known = {a.name for a in suite.alternatives}
    out = [f"{where}: reading {r!r} is not an alternative of the suite"
           for r in getattr(cl, "readings", ()) if r not in known]
    if isinstance(cl, OverClaim):
        if not cl.argument.strip():
            out.append(f"{where}: no argument")
        if cl.bound is None and not cl.readings:
            out.append(f"{where}: neither a bound computed from the run nor a measurement across readings")
    elif isinstance(cl, UnrecordedReading):
        if not cl.silent.strip():
            out.append(f"{where}: does not say what the paper leaves open")
        if not cl.readings:
            out.append(f"{where}: names no reading under which the claim would hold")
    elif isinstance(cl, Scale):
        if not cl.why.strip():
            out.append(f"{where}: does not say what the quick run lacks")
        try:
            status, _, _ = full_scale_verdict(cl.full, claim.id)
        except ValueError as e:
            out.append(f"{where}: {e}")
        else:
            if status != "PASS":
                out.append(f"{where}: the claim is {status} at full scale in {cl.full}, so scale does not explain it")
    else:
        out.append(f"{where}: unknown classification {type(cl).__name__}")
    return out


def classify(claim: Claim, status: str, scale: str, data: FigureData | None,
             measured: dict[str, Any]) -> Finding | None:
    """The category and evidence of a FAIL or UNSTABLE result (None for any other status, an
    unclassified claim, or a scale classification at full scale, where it cannot apply). A bound
    that cannot be computed says so: it is evidence, and its absence must show."""
    cl = claim.category
    if cl is None or status not in ("FAIL", "UNSTABLE"):
        return None
    if isinstance(cl, OverClaim):
        parts = [cl.argument]
        if cl.bound is not None:
            try:
                parts.append(cl.bound(data, measured))
            except Exception as e:  # noqa: BLE001 - shown as missing evidence, never hides the verdict
                parts.append(f"(bound not computed: {type(e).__name__}: {e})")
        if cl.readings:
            parts.append("fails under the readings " + ", ".join(cl.readings) + " too (--explore)")
        return Finding(cl.category, "; ".join(parts))
    if isinstance(cl, UnrecordedReading):
        if scale in cl.fails_at:
            return None
        return Finding(cl.category, f"{cl.silent}; would hold under " + ", ".join(cl.readings) + " (--explore)")
    if isinstance(cl, Scale):
        if scale == "full":
            return None
        try:
            st, expl, fp = full_scale_verdict(cl.full, claim.id)
        except ValueError as e:
            return Finding(cl.category, f"{cl.why}; full-scale verdict unavailable: {e}")
        return Finding(cl.category, f"{cl.why}; at full scale ({cl.full}, code {fp[:12]}): {st} — {expl}")
    return None
