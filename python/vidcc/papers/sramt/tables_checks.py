"""C35's check: the paper's Tables 1–2 (digest ``specs/004-sramt.md`` §5.2–5.3) held against the
numbers the suite measures for C30–C34 on the common bottleneck (figure ``fig15-19``).

The ratings are ordinal (suite): Very good > Good > Modest; Yes > Modest > No (Table 2 rates
"Stable transmission rate" Yes / Modest); Very fast > Relative fast = Satisfactory > Modest.
Each row with a measured counterpart is checked pairwise: wherever two schemes' ratings differ,
the better-rated one must measure strictly better (ties in the ratings are not compared). The
measured counterparts are the ones C30–C34 compute, by the same functions:

* TCP friendliness ↔ |F − 1|, smaller is better (Table 1: F of ``plm_checks.scheme_vs_tcp``,
  as C30; Table 2: ``simulcast_checks.friendliness``, as C34). DSG is rated "–": not compared;
* stable transmission rate ↔ CoV, smaller is better (Table 1: the receiver's 1 s received rate,
  ``plm_checks.scheme_vs_tcp`` as C30, since PLM announces no rate; Table 2: the held streams'
  announced rates, ``simulcast_checks.stream_cov`` as C33);
* convergence time ↔ the last level / stream change, earlier is better
  (``layered_checks.convergence_s`` as C32, ``simulcast_checks.convergence_s`` as C33–C34).

Not checked (listed in the explanation): "Stable operation" (the digest's §4 gives it no
operational definition; the starvation windows of C31–C32 are reported beside it), "Scalability"
(Table 1 rates every scheme "Well", so there is no order; in Table 2 SRAMT-S's "Very good" over
DSG's and IRFM's "Modest" would need reports per round at scale, which no run of the suite
measures for DSG and IRFM: the one-receiver common bottleneck says nothing about it) and
"Limitations" (PLM's fair-queueing routers are a set-up fact: the suite runs PLM behind DRR).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping

import numpy as np

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import layered_checks, plm_checks, simulcast_checks, trace
from vidcc.papers.verdicts import no_data

NAMES = {"sramt-le": "SRAMT-LE", "plm": "PLM", "rlc": "RLC", "mlda": "MLDA", "sramt-s": "SRAMT-S", "dsg": "DSG", "irfm": "IRFM"}

# Ordinal value of each rating (higher is better); "–" (not rated) is None.
RANK = {"Very good": 3, "Good": 2, "Modest": 1, "Yes": 3, "No": 0, "Very fast": 3, "Relative fast": 2, "Satisfactory": 2}

# The checkable rows of Tables 1–2 as copied in the digest (§5.2–5.3).
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
    "Tables 1–2 'Stable operation' (no operational definition in the digest's §4; starvation windows reported)",
    "Table 1 'Scalability' (every scheme rated 'Well': no order to check)",
    "Table 2 'Scalability' (reports per round at scale are not measured for DSG and IRFM by any suite run)",
    "Tables 1–2 'Limitations' (PLM's fair-queueing routers: a set-up fact, PLM runs behind DRR)",
]


def _mean(xs) -> float:
    xs = [x for x in xs if x is not None and math.isfinite(x)]
    return float(np.mean(xs)) if xs else math.nan


def layered_values(d, part: str) -> dict[str, float]:
    """Table 1's measured counterparts of one scheme's part: |F − 1|, CoV, convergence (s)."""
    fs, covs = plm_checks.scheme_vs_tcp(d, part)
    conv = layered_checks.convergence_s(trace.runs_of(d, part, part, True))
    return {"TCP friendliness": abs(_mean(fs) - 1), "Stable transmission rate": _mean(covs), "Convergence time": conv}


def simulcast_values(d, part: str) -> dict[str, float]:
    """Table 2's measured counterparts of one scheme's part: |F − 1|, stream CoV, convergence (s)."""
    runs = simulcast_checks.runs(d, part)
    return {"TCP friendliness": abs(_mean(simulcast_checks.friendliness(d, part)) - 1),
            "Stable transmission rate": _mean([simulcast_checks.stream_cov(r) for r in runs]),
            "Convergence time": _mean([simulcast_checks.convergence_s(r) for r in runs])}


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


def _fmt(v: float) -> str:
    return f"{v:.3g}" if math.isfinite(v) else "n/a"


def c35(d) -> Verdict:
    """Every checkable row of Tables 1–2 orders the schemes as the measurements do."""
    parts = [*TABLE1["TCP friendliness"], *TABLE2["TCP friendliness"]]
    missing = [p for p in parts if d.runs(p).empty]
    if missing:
        return no_data("fig15-19 runs of " + ", ".join(missing))
    measured: dict = {}
    agree, rows, wrong_all = 0, 0, []
    tables: tuple[tuple[str, dict, Callable], ...] = (("Table 1", TABLE1, layered_values), ("Table 2", TABLE2, simulcast_values))
    for name, table, values_of in tables:
        values = {p: values_of(d, p) for p in table["TCP friendliness"]}
        for row, ratings in table.items():
            vals = {p: values[p][row] for p in ratings}
            compared, wrong = row_agreement(ratings, vals)
            what = {"TCP friendliness": "|F − 1|", "Stable transmission rate": "CoV", "Convergence time": "last change s"}[row]
            measured[f"{name} {row} ({what})"] = ", ".join(f"{NAMES[p]} {ratings[p]} {_fmt(v)}" for p, v in vals.items())
            measured[f"{name} {row} agrees"] = (f"yes ({compared} pairs)" if not wrong
                                                else f"no ({len(wrong)} of {compared} pairs: {'; '.join(wrong)})")
            rows += 1
            agree += not wrong
            wrong_all += [f"{name} {row}: {w}" for w in wrong]
    st = {p: layered_checks.friendliness(d, p) for p in (*TABLE1["TCP friendliness"], *TABLE2["TCP friendliness"])}
    measured["starvation windows (Stable operation, not checked)"] = ", ".join(
        f"{NAMES[p]} {v[1]}" for p, v in st.items() if v is not None)
    measured["rows agreeing / checked"] = f"{agree} / {rows}"
    text = (f"{agree} of {rows} checkable rows order the schemes as the measurements do"
            + (f"; disagreeing: {'; '.join(wrong_all)}" if wrong_all else "")
            + "; not checked: " + "; ".join(NOT_CHECKED))
    return Verdict("PASS" if agree == rows else "FAIL", measured, text)
