"""Why SRAMT claims fail: every classification carries its evidence (vidcc.papers.categories), and
on synthetic results every classified claim that FAILs states its category with the evidence
computed from those results (a bound that cannot be computed would show as missing)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from explanation_testing import numbers_in
from test_reproduce import _synthetic
from vidcc.papers import load_suite
from vidcc.papers.categories import OverClaim, classify, problems
from vidcc.papers.provenance import unsourced
from vidcc.papers.sramt import trace


@pytest.fixture(scope="module")
def suite():
    return load_suite("sramt")


@pytest.fixture(scope="module")
def data(suite):
    trace._LOADED.clear()
    out = {f.id: _synthetic(f, np.random.default_rng(7)) for f in suite.figures}
    for d in out.values():
        d.attach_others(out)
    return out


def test_every_key_the_scenarios_set_has_a_source(suite):
    assert unsourced(suite) == []


def test_every_classification_has_its_evidence(suite):
    assert [p for c in suite.claims for p in problems(c, suite)] == []


def test_some_claims_are_classified(suite):
    assert any(c.category is not None for c in suite.claims)


def test_every_classified_claim_that_fails_states_its_computed_evidence(suite, data):
    failed = 0
    for claim in suite.claims:
        if claim.category is None:
            continue
        d = data.get(claim.figure) if claim.figure else None
        v = claim.check(d)
        if v.status != "FAIL":
            continue
        failed += 1
        measured = dict(v.measured)
        # A reading measured to fail at quick scale classifies the claim at full scale only.
        scale = "full" if "quick" in getattr(claim.category, "fails_at", ()) else "quick"
        finding = classify(claim, "FAIL", scale, d, measured)
        assert finding is not None and finding.category is claim.category.category, claim.id
        assert "bound not computed" not in finding.evidence, (claim.id, finding.evidence)
        if isinstance(claim.category, OverClaim) and claim.category.bound is not None:
            # the bound's numbers are the ones it added to measured, not typed in
            bound = claim.category.bound(d, measured)
            shown = {float(x) for x, _ in numbers_in(bound)}
            held = {float(x) for x in measured.values()
                    if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)}
            held |= {round(100 * x) for x in held} | {float(x) for x, _ in numbers_in(" ".join(map(str, measured)))}
            assert shown <= held | {0.0, 1.0, 2.0, 4.0, 20.0}, (claim.id, bound, shown - held)
    assert failed > 0  # the synthetic results make classified claims fail: the test can tell
