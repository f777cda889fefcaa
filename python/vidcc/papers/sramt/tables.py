"""C35: the paper's Tables 1–2 held against the numbers the suite measures for C30–C34 on the
common bottleneck (figure ``fig15-19``), by the same functions (:mod:`vidcc.papers.sramt.schemes`).

The ratings are ordinal (suite): Very good > Good > Modest; Yes > Modest > No (Table 2 rates
"Stable transmission rate" Yes / Modest); Very fast > Relative fast = Satisfactory > Modest.
Each row with a measured counterpart is checked pairwise: wherever two schemes' ratings differ,
the better-rated one must measure strictly better (ties in the ratings are not compared):

* TCP friendliness ↔ |F − 1|, smaller is better. DSG is rated "–": not compared;
* stable transmission rate ↔ CoV, smaller is better (Table 1: the receiver's 1 s received rate,
  as C30, since PLM announces no rate; Table 2: the held streams' announced rates, as C33);
* convergence time ↔ the time from the session's start until its received rate settles
  (:func:`schemes.settling_s`, as C32 and C34), earlier is better.

Not checked (listed in the explanation): "Stable operation" (the paper gives it no operational
definition; each scheme's starvation windows are reported beside it), "Scalability" (Table 1
rates every scheme "Well", so there is no order; in Table 2 SRAMT-S's "Very good" over DSG's and
IRFM's "Modest" would need reports per round at scale, which no run of the suite measures for
DSG and IRFM) and "Limitations" (PLM's fair-queueing routers are a set-up fact: PLM runs behind DRR).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import schemes
from vidcc.papers.sramt.scenarios import NAMES
from vidcc.papers.sramt.trace import fmt
from vidcc.papers.verdicts import no_data

# Ordinal value of each rating (higher is better); "–" (not rated) is None.
RANK = {"Very good": 3, "Good": 2, "Modest": 1, "Yes": 3, "No": 0, "Very fast": 3, "Relative fast": 2,
        "Satisfactory": 2}

# The checkable rows of Tables 1–2 as the paper prints them.
TABLE1 = {
    "TCP friendliness": {"sramt-le": "Very good", "plm": "Good", "rlc": "Modest", "mlda": "Good"},
    "Stable transmission rate": {"sramt-le": "No", "plm": "Yes", "rlc": "Yes", "mlda": "No"},
    "Convergence time": {"sramt-le": "Relative fast", "plm": "Very fast", "rlc": "Relative fast", "mlda": "Modest"},
}
TABLE2 = {
    "TCP friendliness": {"sramt-s": "Very good", "dsg": "–", "irfm": "Modest"},
    "Stable transmission rate": {"sramt-s": "Modest", "dsg": "Yes", "irfm": "Modest"},
    "Convergence time": {"sramt-s": "Satisfactory", "dsg": "Satisfactory", "irfm": "Modest"},
}
NOT_CHECKED = [
    "Tables 1–2 'Stable operation' (the paper defines no measure for it; starvation windows reported)",
    "Table 1 'Scalability' (every scheme rated 'Well': no order to check)",
    "Table 2 'Scalability' (reports per round at scale are not measured for DSG and IRFM by any suite run)",
    "Tables 1–2 'Limitations' (PLM's fair-queueing routers: a set-up fact, PLM runs behind DRR)",
]


def measured_values(d, part: str) -> tuple[dict[str, float], schemes.Numbers | None]:
    """One scheme's measured counterparts of the tables' rows on the common bottleneck: |F − 1|,
    CoV (received rate for layered schemes, held streams' rates for simulcast), convergence (s)."""
    n = schemes.measure(d, part, schemes.common(part))
    if n is None:
        return {"TCP friendliness": math.nan, "Stable transmission rate": math.nan, "Convergence time": math.nan}, None
    return ({"TCP friendliness": abs(n.F[schemes.BOTTLENECK] - 1), "Stable transmission rate": n.cov,
             "Convergence time": n.convergence_s}, n)


def row_agreement(ratings: Mapping[str, str], values: Mapping[str, float]) -> tuple[int, list[str]]:
    """Pairs compared (ratings differ, both rated) and the pairs that disagree ("A vs B"): the
    better-rated scheme must measure strictly smaller; a missing number disagrees."""
    compared, wrong = 0, []
    schemes = list(ratings)
    for i, a in enumerate(schemes):
        for b in schemes[i + 1:]:
            ra, rb = RANK.get(ratings[a]), RANK.get(ratings[b])
            if ra is None or rb is None or ra == rb:
                continue
            better, worse = (a, b) if ra > rb else (b, a)
            compared += 1
            vb, vw = values.get(better, math.nan), values.get(worse, math.nan)
            if not (math.isfinite(vb) and math.isfinite(vw) and vb < vw):
                wrong.append(f"{NAMES[better]} ({ratings[better]}) vs {NAMES[worse]} ({ratings[worse]})")
    return compared, wrong


def tables_order_as_measured(d) -> Verdict:
    """C35: every checkable row of Tables 1–2 orders the schemes as the measurements do."""
    parts = [*TABLE1["TCP friendliness"], *TABLE2["TCP friendliness"]]
    missing = [p for p in parts if d.runs(p).empty]
    if missing:
        return no_data("fig15-19 runs of " + ", ".join(missing))
    measured: dict = {}
    agree, rows, wrong_all = 0, 0, []
    numbers: dict[str, schemes.Numbers | None] = {}
    for name, table in (("Table 1", TABLE1), ("Table 2", TABLE2)):
        values = {}
        for p in table["TCP friendliness"]:
            values[p], numbers[p] = measured_values(d, p)
        for row, ratings in table.items():
            vals = {p: values[p][row] for p in ratings}
            compared, wrong = row_agreement(ratings, vals)
            what = {"TCP friendliness": "|F − 1|", "Stable transmission rate": "CoV",
                    "Convergence time": "convergence s"}[row]
            measured[f"{name} {row} ({what})"] = ", ".join(f"{NAMES[p]} {ratings[p]} {fmt(v)}" for p, v in vals.items())
            measured[f"{name} {row} agrees"] = (f"yes ({compared} pairs)" if not wrong
                                                else f"no ({len(wrong)} of {compared} pairs: {'; '.join(wrong)})")
            rows += 1
            agree += not wrong
            wrong_all += [f"{name} {row}: {w}" for w in wrong]
    measured["starvation windows (Stable operation, not checked)"] = ", ".join(
        f"{NAMES[p]} {sum(n.starvation.values())}" for p, n in numbers.items() if n is not None)
    measured["rows agreeing / checked"] = f"{agree} / {rows}"
    text = (f"{agree} of {rows} checkable rows order the schemes as the measurements do"
            + (f"; disagreeing: {'; '.join(wrong_all)}" if wrong_all else "")
            + "; not checked: " + "; ".join(NOT_CHECKED))
    return Verdict("PASS" if agree == rows else "FAIL", measured, text)
