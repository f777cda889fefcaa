"""What the project publishes about its verdicts is what its records say (issue 20).

The committed records (docs/papers/results/<paper>-<scale>.json, the ``claims.json`` of the quick
and full-scale runs) are what a reader cites. README and docs/experiments.md show them through one
generated table; every FAIL or UNSTABLE a record classifies states one of the three categories of
:mod:`vidcc.papers.categories` with non-empty evidence, and the suite as it is now still carries
that classification (so the next run states it too, and ``problems`` has checked its evidence).
The per-suite tests (tests/test_<suite>_categories.py) check on synthetic results that each
classification's evidence is computed from the run. (Issue 20 is done when no record has an
unclassified FAIL or UNSTABLE and every paper has a full-scale record; the records' counts of
unclassified claims are in the table.)
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vidcc.papers import PAPERS, load_suite
from vidcc.papers.categories import Category, problems

RESULTS = Path(__file__).resolve().parents[1] / "docs" / "papers" / "results"
RECORDS = sorted(RESULTS.glob("*.json"))
CATEGORIES = {c.value for c in Category}


def test_there_is_a_quick_record_of_every_paper():
    have = {p.stem for p in RECORDS}
    assert sorted(f"{paper}-quick" for paper in PAPERS if f"{paper}-quick" not in have) == []


@pytest.mark.parametrize("record", RECORDS, ids=lambda p: p.stem)
def test_every_classified_failure_states_its_category_and_the_suite_still_carries_it(record):
    doc = json.loads(record.read_text(encoding="utf-8"))
    suite = load_suite(doc["paper"])
    claims = {c.id: c for c in suite.claims}
    bad, stale, unclassified = [], [], 0
    for c in doc["claims"]:
        category = c.get("category")
        if c["status"] not in ("FAIL", "UNSTABLE"):
            assert category is None, f"{record.name}: {c['id']} is {c['status']} but carries a category"
            continue
        if not category:
            unclassified += 1
        elif category.get("name") not in CATEGORIES or not str(category.get("evidence", "")).strip():
            bad.append(c["id"])
        elif c["id"] not in claims or claims[c["id"]].category is None:
            stale.append(c["id"])
    assert bad == [], f"{record.name}: a category without its name or evidence: {bad}"
    assert stale == [], f"{record.name}: classified in the record but no longer in the suite: {stale}"
    assert doc["categories"].get("unclassified", 0) == unclassified


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_classification_in_the_suites_has_its_evidence(paper):
    suite = load_suite(paper)
    assert [p for c in suite.claims for p in problems(c, suite)] == []


@pytest.mark.parametrize("document", ["README.md", "docs/experiments.md"])
def test_the_verdict_tables_are_the_records(document):
    from vidcc.papers.records import BEGIN, END, load_records, table

    text = (RESULTS.parents[2] / document).read_text(encoding="utf-8")
    shown = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
    assert shown == table(load_records()), f"{document}: run python -m vidcc.papers.records {document}"
