"""Every FAIL and UNSTABLE of the DVRC suite that is classified carries its category and the
evidence for it (vidcc.papers.categories): the suite's classifications are sound, and on synthetic
results each classified claim that fails states its evidence, a bound computed from that run."""

from __future__ import annotations

import numpy as np
import pytest

from test_reproduce import _synthetic
from vidcc.papers import categories, load_suite
from vidcc.papers.model import FigureRun
from vidcc.papers.verdicts import check_claim


@pytest.fixture(scope="module")
def suite():
    return load_suite("dvrc")


def test_every_classification_has_its_evidence(suite):
    assert [p for c in suite.claims for p in categories.problems(c, suite)] == []
    assert [c.id for c in suite.claims if c.category is not None]  # some claim is classified


@pytest.mark.parametrize("seed", [7, 11])
def test_a_classified_claim_that_fails_states_its_evidence_from_the_run(suite, seed):
    data = {f.id: _synthetic(f, np.random.default_rng(seed)) for f in suite.figures}
    for d in data.values():
        d.attach_others(data)
    failed = []
    for claim in suite.claims:
        if claim.category is None or claim.figure is None:
            continue
        # A reading measured to fail the claim at quick scale classifies it at full scale only.
        scale = "full" if "quick" in getattr(claim.category, "fails_at", ()) else "quick"
        r = check_claim(claim, FigureRun(suite.figure(claim.figure), [], data=data[claim.figure]), scale)
        if r.status not in ("FAIL", "UNSTABLE"):
            continue
        failed.append(claim.id)
        assert r.category is not None and r.category.category == claim.category.category, claim.id
        assert r.category.evidence.strip() and "not computed" not in r.category.evidence, (claim.id, r.category)
    assert failed  # the synthetic results make at least one classified claim fail
