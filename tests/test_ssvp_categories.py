"""The SSVP suite's set-up table and its classified claims (issue 20): every key its scenarios set
has a source, every classification carries its evidence, and on synthetic results every classified
claim that does not reproduce yields a finding with that evidence."""

from __future__ import annotations

from vidcc.papers import categories, load_suite
from vidcc.papers.provenance import Ns2, unsourced

SUITE = load_suite("ssvp")


def test_every_key_the_scenarios_set_has_a_source():
    assert unsourced(SUITE) == []


def test_the_tcp_and_tfrc_agents_are_ns2s_where_the_paper_is_silent():
    declared = {k.pattern: k.source for k in SUITE.setup if isinstance(k.source, Ns2)}
    assert declared["flows[*].initial_rto"].value == "3.0"
    assert declared["flows[tfrc].q"].variable == "Agent/TFRC df_"


def test_every_classification_has_its_evidence():
    assert {c.id: categories.problems(c, SUITE) for c in SUITE.claims} == {c.id: [] for c in SUITE.claims}


def test_every_classified_claim_that_fails_on_synthetic_results_states_its_evidence():
    """The suite's synthetic results (random numbers in every table): each classified claim whose
    check FAILs or is UNSTABLE there carries a finding of its category with its evidence (an
    over-claim's bound computed, a reading's alternatives named, a scale claim's full-scale verdict)."""
    from test_dvrc_ssvp_explanations import _data
    from vidcc.papers.categories import Category, OverClaim, Scale, UnrecordedReading, classify

    data = _data(SUITE, 7)
    classified = [c for c in SUITE.claims if c.category is not None]
    assert classified, "no claim of the suite is classified"
    failing = 0
    for claim in classified:
        d = data.get(claim.figure) if claim.figure else None
        v = claim.check(d)
        if v.status not in ("FAIL", "UNSTABLE"):
            continue
        failing += 1
        finding = classify(claim, v.status, "quick", d, dict(v.measured))
        assert finding is not None, claim.id
        cl = claim.category
        assert finding.category is cl.category, claim.id
        if isinstance(cl, OverClaim):
            assert finding.category is Category.OVER_CLAIM and "bound not computed" not in finding.evidence
        elif isinstance(cl, UnrecordedReading):
            assert cl.silent in finding.evidence, claim.id
            assert all(name in finding.evidence for name in cl.readings), claim.id
        elif isinstance(cl, Scale):
            assert cl.full in finding.evidence and ": PASS" in finding.evidence, claim.id
    assert failing, "no classified claim fails on the synthetic results: the evidence is never shown"


def test_c13_is_the_sender_buffer_reading_declared_from_the_text():
    # C13 passed under `sender-queue-kept` (§3.2, Fig. 3: the data "rest inside the server") in the
    # quick --explore run of 2026-11-27 (SSVP's VDI ≥ TFRC's, TCPW+'s and UDP's − 0.01 at every M).
    # Fails before: C13 was unclassified.
    from vidcc.papers.categories import UnrecordedReading
    from vidcc.papers.ssvp.readings import ALTERNATIVES, BEARING

    c13 = next(c for c in SUITE.claims if c.id == "C13")
    assert isinstance(c13.category, UnrecordedReading)
    assert c13.category.readings == ("sender-queue-kept",)
    kept = next(a for a in ALTERNATIVES if a.name == "sender-queue-kept")
    assert "§3.2" in kept.ref
    assert "C13" in BEARING[kept.name]
