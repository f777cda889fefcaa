"""The ASMP/TFMCC suite's set-up table and the categories of its FAILs: every key its scenarios set
has a source, and every classified claim carries its evidence."""

from __future__ import annotations

import pytest

from test_reproduce import suite_video  # noqa: F401  (the fixture)
from vidcc.papers import load_suite


@pytest.fixture(scope="module")
def suite():
    return load_suite("asmp-tfmcc")


def test_every_key_the_scenarios_set_has_a_source(suite, suite_video, monkeypatch):  # noqa: F811
    from vidcc.papers.provenance import unsourced

    monkeypatch.setenv("VIDCC_CACHE", str(suite_video))
    assert unsourced(suite) == []


def test_every_classification_carries_its_evidence(suite):
    from vidcc.papers.categories import problems

    assert [p for c in suite.claims for p in problems(c, suite)] == []


def _data(suite, seed: int) -> dict:
    import numpy as np

    from test_reproduce import _synthetic
    from vidcc.papers.asmp_tfmcc import videoset

    videoset._CACHE.clear()  # the synthetic run ids repeat between the two sets (a database's never do)
    data = {f.id: _synthetic(f, np.random.default_rng(seed)) for f in suite.figures}
    for d in data.values():
        d.attach_others(data)
    return data


def test_a_classified_fail_states_its_category_and_the_evidence_computed_from_the_run(
    suite, suite_video, monkeypatch  # noqa: F811
):
    """On two synthetic results with different numbers, every classified claim judged FAIL gets a
    Finding: an over-claim's bound is computed from that result (its numbers differ between the
    two and the measured values it adds are its own), a reading names the suite's alternatives."""
    from vidcc.papers.categories import Category, OverClaim, UnrecordedReading, classify

    monkeypatch.setenv("VIDCC_CACHE", str(suite_video))
    classified = [c for c in suite.claims if c.category is not None]
    assert classified, "the suite classifies none of its claims"
    texts = {}
    for seed in (7, 11):
        data = _data(suite, seed)
        for c in classified:
            measured: dict = {}
            # A reading measured to fail at quick scale classifies the claim at full scale only.
            scale = "full" if "quick" in getattr(c.category, "fails_at", ()) else "quick"
            f = classify(c, "FAIL", scale, data[c.figure], measured)
            assert f is not None and f.category == c.category.category, c.id
            assert "bound not computed" not in f.evidence and "no results" not in f.evidence, (c.id, f.evidence)
            if isinstance(c.category, OverClaim) and c.category.bound is not None:
                assert measured, f"{c.id}: the bound measured nothing"
                texts.setdefault(c.id, []).append(f.evidence)
            if isinstance(c.category, UnrecordedReading):
                assert f.category is Category.UNRECORDED_READING
                assert all(r in f.evidence for r in c.category.readings)
    assert all(a != b for a, b in texts.values()), "a bound did not change with the run's numbers"
