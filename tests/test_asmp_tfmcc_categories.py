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
