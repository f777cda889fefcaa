"""Every suite's classifications against its committed records' ``--explore`` trials
(docs/papers/results/<suite>-<scale>.json): a claim classified as an unrecorded reading PASSes
under each reading it names (at every scale where the classification applies), and an over-claim
measured across readings PASSes under none of them.

The records are the evidence the categories cite: when the runs change (a new engine, a new
set-up, a corrected protocol) and a record is made again, a classification whose reading no longer
passes the claim (or an over-claim some reading now passes) fails here instead of standing on
stale numbers. Records made without ``--explore`` hold no trials to check; the records listed in
``WITH_TRIALS`` must have them."""

from __future__ import annotations

import json

import pytest

from vidcc.papers import load_suite
from vidcc.papers.categories import REPO_ROOT, OverClaim, Scale, UnrecordedReading

RESULTS = REPO_ROOT / "docs" / "papers" / "results"
OPEN = ("FAIL", "UNSTABLE")
# Records whose classifications rest on their trials: each must have been made with --explore.
WITH_TRIALS = {
    ("sramt", "quick"), ("qos-aimd", "quick"), ("asmp-tfmcc", "quick"), ("asmp-tfmcc", "full"), ("dvrc", "quick"),
}
RECORDS = sorted(
    (p.stem.rsplit("-", 1)[0], p.stem.rsplit("-", 1)[1])
    for p in RESULTS.glob("*-*.json")
    if json.loads(p.read_text(encoding="utf-8")).get("explore")
)


def test_the_records_the_classifications_rest_on_have_their_trials():
    assert WITH_TRIALS <= set(RECORDS), f"made without --explore: {sorted(WITH_TRIALS - set(RECORDS))}"


def _load(suite: str, scale: str) -> dict:
    doc = json.loads((RESULTS / f"{suite}-{scale}.json").read_text(encoding="utf-8"))
    assert doc.get("scale") == scale and doc.get("explore")
    return doc


def _status_under(record: dict, claim: str, readings: tuple[str, ...]) -> str | None:
    """The claim's status under the trial of exactly ``readings`` (None: no such trial)."""
    default = {c["id"]: c["status"] for c in record["claims"]}[claim]
    for trial in record["explore"]:
        if tuple(trial["alternatives"]) == readings:
            return next((c["after"] for c in trial["changes"] if c["claim"] == claim), default)
    return None


def _open_classified(suite: str, record: dict):
    status = {c["id"]: c["status"] for c in record["claims"]}
    return [c for c in load_suite(suite).claims if c.category is not None and status.get(c.id) in OPEN]


@pytest.mark.parametrize(("suite", "scale"), RECORDS)
def test_each_unrecorded_reading_passes_its_claim_in_the_record(suite, scale):
    record, bad = _load(suite, scale), []
    for claim in _open_classified(suite, record):
        cl = claim.category
        if isinstance(cl, UnrecordedReading) and scale not in cl.fails_at:
            for r in cl.readings:
                after = _status_under(record, claim.id, (r,))
                if after != "PASS":
                    bad.append(f"{claim.id} under {r}: {after}")
    assert bad == []


@pytest.mark.parametrize(("suite", "scale"), RECORDS)
def test_no_reading_of_an_over_claim_passes_it_in_the_record(suite, scale):
    record, bad = _load(suite, scale), []
    for claim in _open_classified(suite, record):
        if isinstance(claim.category, OverClaim):
            for r in claim.category.readings:
                if _status_under(record, claim.id, (r,)) == "PASS":
                    bad.append(f"{claim.id} under {r}: PASS")
    assert bad == []


@pytest.mark.parametrize(("suite", "scale"), RECORDS)
def test_the_record_classifies_as_the_suite_does(suite, scale):
    """The committed record was made by this suite's classifications (its categories match)."""
    record = _load(suite, scale)
    categories = {c.id: c.category for c in load_suite(suite).claims}
    for c in record["claims"]:
        if c["status"] in OPEN:
            cl = categories[c["id"]]
            applies = cl is not None and not (
                (isinstance(cl, UnrecordedReading) and scale in cl.fails_at)
                or (isinstance(cl, Scale) and scale == "full")
            )
            want = cl.category.value if applies else None
            got = (c.get("category") or {}).get("name")
            assert got == want, c["id"]
