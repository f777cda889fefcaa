"""The SRAMT suite as a whole: explanations and causes computed from the run (on synthetic
results with two sets of numbers), and a set-up table with a source for every key."""

from __future__ import annotations

import numpy as np
import pytest

from explanation_testing import renders, unbacked_numbers
from test_reproduce import _synthetic
from vidcc.papers import load_suite
from vidcc.papers.sramt import trace


@pytest.fixture(scope="module")
def suite():
    return load_suite("sramt")


def _data(suite, seed: int) -> dict:
    trace._LOADED.clear()  # the synthetic run ids repeat between the two sets (a database's never do)
    data = {f.id: _synthetic(f, np.random.default_rng(seed)) for f in suite.figures}
    for d in data.values():
        d.attach_others(data)
    return data


def test_every_number_in_an_explanation_or_cause_is_measured(suite):
    first = _data(suite, 7)
    a, bad_first = renders(suite, first), unbacked_numbers(suite, first)
    second = _data(suite, 11)
    b, bad_second = renders(suite, second), unbacked_numbers(suite, second)
    # The two sets of results really differ: most claims render differently.
    assert sum(a[c] != b[c] for c in a) > len(a) // 2
    assert bad_first == []
    assert bad_second == []


def test_every_key_the_scenarios_set_has_a_source(suite):
    from vidcc.papers.provenance import unsourced

    assert unsourced(suite) == []
