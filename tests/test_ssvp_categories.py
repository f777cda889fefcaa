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
