"""Whether a paper suite's explanations and causes are computed from the run (issue 20, point 4):
every number a claim's explanation or cause shows must be one its ``measured`` holds (as
printed: rounded, in %, in k/M units) or one its claim's text states (a threshold). A number
typed into the text from an older run fails as soon as the results change, and a quantity the
claim does not measure has no value to match.

Used by the suites' tests on synthetic results: render every claim twice, from two sets of
results with different numbers (:func:`unbacked_numbers` on each)."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

from vidcc.papers.model import Suite
from vidcc.papers.verdicts import state_cause

# A number in running text: not part of a name (R1, C1-C2, fig15-19, T_rand, 2^k, Eq. 5, §8.1).
_NUMBER = re.compile(r"(?<![\w§^.\-−/])(\d+(?:\.\d+)?(?:e[-+]?\d+)?)(?![\w^])")
_NAMED = re.compile(r"(?:Eqs?\.|Algs?\.|Figs?\.|Tables?|§|seed|stream|level|layer|rule|C|R|B)\s*$")
ALWAYS = {0.0, 1.0, 100.0}  # "0 of 3", "per 1 s bin", "per 100 s"
_SCALES = (1.0, 100.0, 1e-3, 1e3, 1e-6, 1e6)


def numbers_in(text: str) -> list[tuple[str, int]]:
    """The numbers ``text`` shows with their positions, without the ones naming a node, link,
    figure, equation, stream or seed."""
    out = []
    for m in _NUMBER.finditer(text):
        if _NAMED.search(text[max(0, m.start() - 8):m.start()]):
            continue
        out.append((m.group(1), m.start()))
    return out


def _values(measured: Mapping) -> list[float]:
    """Every number ``measured`` holds: its values, the numbers inside its string values, and the
    parameters its keys name ("after 0.5·D")."""
    vals = []
    for k, v in measured.items():
        vals += [float(x) for x, _ in numbers_in(str(k))]
        if isinstance(v, bool):
            continue
        if isinstance(v, (int, float)):
            vals.append(float(v))
        elif isinstance(v, str):
            vals += [float(x) for x, _ in numbers_in(v)]
    return [v for v in vals if math.isfinite(v)]


def _backed(token: str, values: list[float]) -> bool:
    x = float(token)
    decimals = len(token.split(".")[1]) if "." in token and "e" not in token else 0
    tol = 0.5 * 10 ** -decimals + 1e-9
    for v in values:
        for cand in (v, abs(v), abs(1 - v)):
            for s in _SCALES:
                y = cand * s
                if abs(y - x) <= tol or (x != 0 and abs(y - x) <= 5e-3 * abs(x)):
                    return True
    return False


def unbacked_numbers(suite: Suite, data: Mapping[str, object]) -> list[str]:
    """``claim: number (in "…")`` for every number a claim's explanation or cause shows that neither
    its ``measured`` (after the cause added to it) nor its text holds; ``data`` maps figure ids to
    their :class:`FigureData`."""
    bad = []
    for claim in suite.claims:
        if claim.check is None:
            continue
        d = data.get(claim.figure) if claim.figure else None
        v = claim.check(d)
        measured = dict(v.measured)
        text = v.explanation
        if claim.cause is not None:
            text += " Cause: " + state_cause(claim.cause, d, measured)
        allowed = _values(measured) + [float(x) for x, _ in numbers_in(claim.text)] + list(ALWAYS)
        for token, i in numbers_in(text):
            if not _backed(token, allowed):
                bad.append(f"{claim.id}: {token} (in “…{text[max(0, i - 60):i + 20]}…”)")
    return bad


def renders(suite: Suite, data: Mapping[str, object]) -> dict[str, str]:
    """Each claim's explanation and cause as rendered from ``data``."""
    out = {}
    for claim in suite.claims:
        if claim.check is None:
            continue
        d = data.get(claim.figure) if claim.figure else None
        v = claim.check(d)
        cause = state_cause(claim.cause, d, dict(v.measured)) if claim.cause is not None else ""
        out[claim.id] = v.explanation + " " + cause
    return out
