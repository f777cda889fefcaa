"""The committed verdict records (docs/papers/results/<paper>-<scale>.json) as the table README and
docs/experiments.md show: one source for those numbers, so no total is ever typed.

Each record is the ``claims.json`` of a reproduction (:func:`vidcc.report.suite_document`). The
table lives in each document between ``<!-- verdicts:begin -->`` and ``<!-- verdicts:end -->``;
``python -m vidcc.papers.records README.md docs/experiments.md`` rewrites those blocks, and
tests/test_every_failure_classified.py fails when a block differs from what the records say.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from vidcc.papers import PAPERS
from vidcc.papers.categories import REPO_ROOT, Category

__all__ = ["RESULTS", "BEGIN", "END", "load_records", "table", "rewrite"]

RESULTS = REPO_ROOT / "docs" / "papers" / "results"
BEGIN, END = "<!-- verdicts:begin -->", "<!-- verdicts:end -->"
_SCALES = ("full", "quick")
_STATUSES = ("PASS", "FAIL", "UNSTABLE", "NOT-YET")
_CATEGORIES = tuple(c.value for c in Category) + ("unclassified",)


def load_records(directory: Path = RESULTS) -> list[dict[str, Any]]:
    """Every record in ``directory``, full scale first, then in the CLI's order of papers."""
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(directory.glob("*.json"))]
    order = list(PAPERS)
    return sorted(docs, key=lambda d: (_SCALES.index(d["scale"]), order.index(d["paper"])))


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _row(name: str, scale: str, counts: dict[str, int], cats: dict[str, int], runs: dict[str, Any] | None,
         code: str) -> str:
    if runs:
        size = f"{scale} ({runs['seeds']} seeds, {runs['total']} runs)"
        cost = _duration(runs["seconds"])
    else:
        size, cost = scale, "–"
    cells = [name, size, *(str(counts.get(s, 0)) for s in _STATUSES), *(str(cats.get(c, 0)) for c in _CATEGORIES),
             cost, code]
    return "| " + " | ".join(cells) + " |"


def _run_code(d: dict[str, Any]) -> str:
    """The record's run code: the code that made its runs (``runs.code``, in records since
    2026-11-27; before, the judging process's ``code_fingerprint``, which was the same code);
    several codes are listed with their counts."""
    runs = d.get("runs") or {}
    if "codes" in runs:
        return f"`{runs['code'][:12]}`" if runs.get("code") else runs["codes"]
    return f"`{d['code_fingerprint'][:12]}`"


def table(records: Sequence[dict[str, Any]]) -> str:
    """The markdown table: a row per record and a total row per scale. ``worker time`` is the
    time the workers spent making the runs, summed over runs (one core's time)."""
    head = ["suite", "scale", *_STATUSES, "over-claim", "unrecorded reading", "scale", "unclassified",
            "worker time", "code"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for scale in _SCALES:
        docs = [d for d in records if d["scale"] == scale]
        if not docs:
            continue
        for d in docs:
            lines.append(_row(d["paper"], scale, d["summary"], d["categories"], d.get("runs"), _run_code(d)))
        total = {k: sum(d["summary"].get(k, 0) for d in docs) for k in _STATUSES}
        cats = {k: sum(d["categories"].get(k, 0) for d in docs) for k in _CATEGORIES}
        runs = [d.get("runs") for d in docs]
        summed = ({"seeds": max(r["seeds"] for r in runs), "total": sum(r["total"] for r in runs),
                   "seconds": sum(r["seconds"] for r in runs)} if all(runs) else None)
        name = f"**all {len(docs)}**" if len(docs) == len(PAPERS) else f"**{len(docs)} of {len(PAPERS)}**"
        lines.append(_row(name, scale, total, cats, summed, ""))
    return "\n".join(lines)


def rewrite(path: Path, block: str) -> bool:
    """Replace the block between the markers in ``path``; True if the file changed. A file
    without both markers is an error naming it."""
    text = path.read_text(encoding="utf-8")
    if text.count(BEGIN) != 1 or text.count(END) != 1 or text.index(BEGIN) > text.index(END):
        raise ValueError(f"{path}: needs exactly one {BEGIN} … {END} block")
    head, rest = text.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    new = f"{head}{BEGIN}\n{block}\n{END}{tail}"
    if new != text:
        path.write_text(new, encoding="utf-8")
    return new != text


def main(argv: Iterable[str] | None = None) -> int:
    paths = [Path(a) for a in (sys.argv[1:] if argv is None else argv)]
    block = table(load_records())
    for p in paths:
        print(f"{p}: {'rewritten' if rewrite(p, block) else 'unchanged'}")
    if not paths:
        print(block)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
