"""The SRAMT classifications against the committed quick record's ``--explore`` trials
(docs/papers/results/sramt-quick.json): a claim classified as an unrecorded reading PASSes under
each reading it names, and an over-claim measured across readings PASSes under none of them.

The record is the evidence the categories cite: when the runs change (a new engine, a new set-up)
and the record is made again, a classification whose reading no longer passes the claim (or an
over-claim some reading now passes) fails here instead of standing on stale numbers."""

from __future__ import annotations

import json

import pytest

from vidcc.papers import load_suite
from vidcc.papers.categories import REPO_ROOT, OverClaim, UnrecordedReading

RECORD = REPO_ROOT / "docs" / "papers" / "results" / "sramt-quick.json"
OPEN = ("FAIL", "UNSTABLE")


@pytest.fixture(scope="module")
def record() -> dict:
    doc = json.loads(RECORD.read_text(encoding="utf-8"))
    assert doc.get("scale") == "quick" and doc.get("explore"), f"{RECORD}: no quick record with --explore trials"
    return doc


def _status_under(record: dict, claim: str, readings: tuple[str, ...]) -> str | None:
    """The claim's status under the trial of exactly ``readings`` (None: no such trial)."""
    default = {c["id"]: c["status"] for c in record["claims"]}[claim]
    for trial in record["explore"]:
        if tuple(trial["alternatives"]) == readings:
            return next((c["after"] for c in trial["changes"] if c["claim"] == claim), default)
    return None


def _open_classified(record: dict):
    suite = load_suite("sramt")
    status = {c["id"]: c["status"] for c in record["claims"]}
    return [c for c in suite.claims if c.category is not None and status.get(c.id) in OPEN]


def test_each_unrecorded_reading_passes_its_claim_in_the_record(record):
    bad = []
    for claim in _open_classified(record):
        if isinstance(claim.category, UnrecordedReading):
            for r in claim.category.readings:
                after = _status_under(record, claim.id, (r,))
                if after != "PASS":
                    bad.append(f"{claim.id} under {r}: {after}")
    assert bad == []


def test_no_reading_of_an_over_claim_passes_it_in_the_record(record):
    bad = []
    for claim in _open_classified(record):
        if isinstance(claim.category, OverClaim):
            for r in claim.category.readings:
                after = _status_under(record, claim.id, (r,))
                if after is not None and after == "PASS":
                    bad.append(f"{claim.id} under {r}: PASS")
    assert bad == []


def test_the_record_classifies_as_the_suite_does(record):
    """The committed record was made by this suite's classifications (its categories match)."""
    suite = {c.id: c.category for c in load_suite("sramt").claims}
    for c in record["claims"]:
        if c["status"] in OPEN:
            want = suite[c["id"]].category.value if suite[c["id"]] is not None else None
            got = (c.get("category") or {}).get("name")
            assert got == want, c["id"]
