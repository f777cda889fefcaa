"""The DVRC suite as a whole: a set-up table with a source for every key its scenarios set, its
readings runnable and bearing on the claims whose figures they change, and every classification
sound (vidcc.papers.categories)."""

from __future__ import annotations

import pytest

from vidcc.papers import load_suite
from vidcc.papers.provenance import Ns2, setup_rows, unsourced


@pytest.fixture(scope="module")
def suite():
    return load_suite("dvrc")


def test_every_key_the_scenarios_set_has_a_source(suite):
    # Fails before the set-up table: the suite declared none (every key unsourced).
    assert unsourced(suite) == []


def test_the_tcp_and_tfrc_agents_are_ns2s_where_the_paper_is_silent(suite):
    rows = {r.path: r.source for f in suite.figures for r in setup_rows(suite, f, "full")}
    assert rows["flows[reno].initial_rto"] == Ns2("Agent/TCP rtxcur_init_", "3.0", rows["flows[reno].initial_rto"].note)
    assert isinstance(rows["flows[tfrc].q"], Ns2) and rows["flows[tfrc].q"].variable == "Agent/TFRC df_"


def test_the_cross_traffic_capacity_reading_changes_only_r1_r2(suite):
    from vidcc.papers.explore import with_alternatives

    variant = with_alternatives(suite, [suite.alternative("r1-10m")])
    for fid in ("fig8-10", "fig11", "fig12-14"):
        topology = variant.figure(fid).parts[0].scenario("quick")["topology"]
        links = {(x["a"], x["b"]): x["bandwidth"] for x in topology["links"]}
        assert links == {("R1", "R2"): "10Mbps", ("R2", "R3"): "10Mbps"}, fid
    # Only the cross-traffic figures: the S4 dumbbell is left as it is.
    assert variant.figure("fig15-16").parts[0].scenario("quick") == suite.figure("fig15-16").parts[0].scenario("quick")
    c22 = next(c for c in suite.claims if c.id == "C22")  # reads S3's runs (fig12-14) beside its own
    assert "r1-10m" in c22.alternatives
