"""The QoS-AIMD suite's set-up table (every key its scenarios set has a source; ns-2's defaults
declared as such), its set-up readings (the backbone's RED as the paper leaves it open), and the
categories of its FAIL and UNSTABLE claims with their evidence."""

from __future__ import annotations

import pytest

from vidcc.papers import load_suite
from vidcc.papers.explore import with_alternatives
from vidcc.papers.provenance import Ns2, key_paths, setup_rows, unsourced


@pytest.fixture(scope="module")
def suite():
    return load_suite("qos-aimd")


def test_every_key_the_scenarios_set_has_a_source(suite):
    """Fails without the set-up table (every key unsourced)."""
    assert unsourced(suite) == []


def test_the_paper_silent_values_are_ns2_defaults_declared_as_such(suite):
    for fid in ("fig5", "fig6", "fig9"):
        rows = {r.path: r.source for r in setup_rows(suite, suite.figure(fid), "quick")}
        for path, source in rows.items():
            if path.startswith("topology.links[r1-r2].queue.") and not path.endswith(".kind"):
                assert isinstance(source, Ns2), (fid, path, source)
            if path.endswith((".max_window", ".initial_rto", ".min_rto", ".initial_window")):
                assert isinstance(source, Ns2), (fid, path, source)


def _backbone_queue(suite, names):
    variant = with_alternatives(suite, [suite.alternative(n) for n in names])
    sc = variant.figure("fig6").part("aimd-pe0.01").scenario("quick")
    return {p.rsplit(".", 1)[1]: v for p, v in key_paths(sc) if p.startswith("topology.links[r1-r2].queue.")}


def test_the_red_readings_set_the_backbone_queue_and_only_in_fig6(suite):
    assert _backbone_queue(suite, ())["bytes"] is True  # ns-2's default: byte mode
    assert _backbone_queue(suite, ("red-packets",)) == {
        "kind": "red", "limit": 50, "min_thresh": 5, "max_thresh": 15, "weight": 0.002, "max_p": 0.1,
        "gentle": False, "bytes": False, "mean_packet_size": "500B", "wait": True}
    old = _backbone_queue(suite, ("red-old-suite",))
    assert (old["limit"], old["min_thresh"], old["max_thresh"], old["bytes"]) == ("bdp", 50, 150, False)
    fig5 = with_alternatives(suite, [suite.alternative("red-packets")]).figure("fig5").part("aimd-heavy")
    assert dict(key_paths(fig5.scenario("quick")))["topology.links[r1-r2].queue.bytes"] is True
    bearing = {c.id for c in suite.claims if "red-packets" in c.alternatives}
    assert bearing == {"S5", "S6", "S7", "S8", "S9", "S10", "B1"}
