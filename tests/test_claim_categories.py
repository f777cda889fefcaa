"""Why a claim fails: every category needs its evidence (vidcc.papers.categories), the suite refuses a
classification without it, and the report and claims.json state category and evidence."""

from __future__ import annotations

import json

import pytest

from vidcc.papers import categories
from vidcc.papers.categories import Category, OverClaim, Scale, UnrecordedReading
from vidcc.papers.model import FAIL, PASS, UNCLASSIFIED, Alternative, Claim, Suite, SuiteRun, Verdict
from vidcc.papers.verdicts import check_claim
from vidcc.report import render_html, suite_document

READING = Alternative("long-history", "tfrc", {"loss_history": 16}, ref="docs/papers/dvrc.md §6")


def suite_with(*claims: Claim) -> Suite:
    return Suite("toy", "Toy", "nobody, 2026", "docs/papers/toy.md", figures=[], claims=list(claims),
                 alternatives=[READING])


def failing(category, value: float = 0.3) -> Claim:
    return Claim("X1", "x reaches 1", None, ("tcp-reno",), lambda d: Verdict(FAIL, {"x": value}, f"x = {value}"),
                 category=category)


def full_scale_file(tmp_path, monkeypatch, status: str = PASS, **doc) -> str:
    monkeypatch.setattr(categories, "REPO_ROOT", tmp_path)
    body = {"scale": "full", "code_fingerprint": "ab" * 32,
            "claims": [{"id": "X1", "status": status, "explanation": "x = 0.97 over 10 seeds"}]} | doc
    (tmp_path / "full.json").write_text(json.dumps(body))
    return "full.json"


@pytest.mark.parametrize("category, complaint", [
    (OverClaim("the window cannot exceed 20 packets"), "neither a bound computed from the run nor a measurement"),
    (OverClaim("", readings=("long-history",)), "no argument"),
    (OverClaim("cannot", readings=("no-such-reading",)), "'no-such-reading' is not an alternative"),
    (UnrecordedReading("the paper does not give the history length", ()), "names no reading"),
    (UnrecordedReading("the paper does not give the history length", ("made-up",)), "'made-up' is not an alternative"),
    (UnrecordedReading(" ", ("long-history",)), "does not say what the paper leaves open"),
    (Scale("two seeds", "no/such/file.json"), "cannot read a claims.json"),
])
def test_a_category_without_its_evidence_is_refused(category, complaint):
    with pytest.raises(ValueError, match=complaint):
        suite_with(failing(category)).validate()


def test_a_scale_category_needs_a_full_scale_run_in_which_the_claim_passes(tmp_path, monkeypatch):
    path = full_scale_file(tmp_path, monkeypatch, status=FAIL)
    with pytest.raises(ValueError, match="FAIL at full scale"):
        suite_with(failing(Scale("two seeds", path))).validate()
    path = full_scale_file(tmp_path, monkeypatch, scale="quick")
    with pytest.raises(ValueError, match="not 'full'"):
        suite_with(failing(Scale("two seeds", path))).validate()
    path = full_scale_file(tmp_path, monkeypatch, code_fingerprint="")
    with pytest.raises(ValueError, match="no code_fingerprint"):
        suite_with(failing(Scale("two seeds", path))).validate()
    path = full_scale_file(tmp_path, monkeypatch, claims=[])
    with pytest.raises(ValueError, match="no claim X1"):
        suite_with(failing(Scale("two seeds", path))).validate()
    path = full_scale_file(tmp_path, monkeypatch)
    suite_with(failing(Scale("two seeds", path))).validate()  # sound: loads


def test_an_over_claim_states_its_bound_computed_from_the_run():
    def bound(data, measured):
        measured["x ceiling"] = 0.5
        return f"x ≤ {measured['x ceiling']} by the paper's Eq. 3"

    claim = failing(OverClaim("the controller halves x on every loss", bound=bound), value=0.42)
    suite_with(claim).validate()
    r = check_claim(claim, None)
    assert r.status == FAIL and r.category.category is Category.OVER_CLAIM
    assert "x ≤ 0.5 by the paper's Eq. 3" in r.category.evidence
    assert r.measured["x ceiling"] == 0.5  # the bound's numbers are measured values of the run


def test_a_bound_that_cannot_be_computed_shows_as_missing_evidence():
    claim = failing(OverClaim("halves x", bound=lambda d, m: str(1 / 0)))
    r = check_claim(claim, None)
    assert r.status == FAIL and "bound not computed: ZeroDivisionError" in r.category.evidence


def test_a_reading_and_a_scale_state_their_evidence(tmp_path, monkeypatch):
    r = check_claim(failing(UnrecordedReading("the paper gives no history length", ("long-history",))), None)
    assert r.category.category is Category.UNRECORDED_READING and "long-history" in r.category.evidence
    path = full_scale_file(tmp_path, monkeypatch)
    r = check_claim(failing(Scale("two seeds of 20 s", path)), None, scale="quick")
    assert r.category.category is Category.SCALE
    assert "PASS — x = 0.97 over 10 seeds" in r.category.evidence and "abababababab" in r.category.evidence
    assert check_claim(failing(Scale("two seeds of 20 s", path)), None, scale="full").category is None


def test_a_reading_measured_to_fail_at_a_scale_does_not_classify_the_claim_there():
    cl = UnrecordedReading("the paper gives no history length", ("long-history",), fails_at=("full",))
    assert check_claim(failing(cl), None, scale="quick").category.category is Category.UNRECORDED_READING
    assert check_claim(failing(cl), None, scale="full").category is None


def test_a_passing_claim_carries_no_category():
    claim = Claim("X2", "x", None, ("tcp-reno",), lambda d: Verdict(PASS, {"x": 1.0}, "x = 1"),
                  category=UnrecordedReading("silent", ("long-history",)))
    assert check_claim(claim, None).category is None


def test_claims_json_and_the_report_show_category_and_the_unclassified():
    classified = failing(OverClaim("halves x", readings=("long-history",)))
    bare = Claim("X3", "y", None, ("tcp-reno",), lambda d: Verdict(FAIL, {"y": 0.0}, "y = 0"))
    suite = suite_with(classified, bare)
    suite.validate()
    run = SuiteRun(suite, "quick", [], [check_claim(c, None) for c in suite.claims])
    assert run.categories() == {"over-claim": 1, "unrecorded reading": 0, "scale": 0, UNCLASSIFIED: 1}
    doc = suite_document(run)
    assert doc["categories"] == run.categories()
    by_id = {c["id"]: c for c in doc["claims"]}
    assert by_id["X1"]["category"]["name"] == "over-claim"
    assert "long-history" in by_id["X1"]["category"]["evidence"]
    assert by_id["X3"]["category"] is None
    page = render_html([run], title="t")
    assert "Category: over-claim" in page and "not classified yet" in page


def test_dvrc_c25_is_an_over_claim_with_its_bound_from_the_run():
    """DVRC's C25 (AIAMD "mostly" multiplicative under congestion) carries the classifier's Markov
    bound as over-claim evidence, stated with the shares the run measured."""
    from vidcc.papers import load_suite

    suite = load_suite("dvrc")
    suite.validate()
    c25 = next(c for c in suite.claims if c.id == "C25")
    assert isinstance(c25.category, OverClaim)
    measured = {"MD share pooled [S6]": 0.08, "largest MD share": 0.11}
    text = c25.category.bound(None, measured)
    assert "1/(2n) = 0.33" in text and "0.110" in text and measured["bound 1/(2n) on the MD share"] == 1 / 3


def test_a_records_code_column_is_the_code_that_made_its_runs():
    # Stored runs re-judged by other code (--reuse-stale) keep their own run code in the table; a
    # record of several codes lists them; a record from before `runs.code` shows the judging code.
    from vidcc.papers.records import table

    def record(paper, runs):
        return {"paper": paper, "scale": "full", "summary": {"PASS": 1, "FAIL": 0, "UNSTABLE": 0, "NOT-YET": 0},
                "categories": {}, "code_fingerprint": "cd" * 32,
                "runs": {"seeds": 10, "total": 4, "seconds": 60.0, **runs}}

    text = table([record("dvrc", {"code": "ab" * 32, "codes": "4 by code abababababab"}),
                  record("ssvp", {"code": None, "codes": "3 by code abababababab, 1 by code efefefefefef"}),
                  record("sramt", {})])
    rows = {line.split("|")[1].strip(): line for line in text.splitlines()[2:]}
    assert rows["dvrc"].rstrip(" |").endswith("`abababababab`")
    assert rows["ssvp"].rstrip(" |").endswith("3 by code abababababab, 1 by code efefefefefef")
    assert rows["sramt"].rstrip(" |").endswith("`cdcdcdcdcdcd`")
