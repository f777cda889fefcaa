"""The QoS-AIMD suite's set-up table (every key its scenarios set has a source; ns-2's defaults
declared as such), its set-up readings (the backbone's RED as the paper leaves it open), and the
categories of its FAIL and UNSTABLE claims with their evidence."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from test_reproduce import _synthetic
from vidcc.papers import categories, load_suite
from vidcc.papers.categories import OverClaim
from vidcc.papers.explore import with_alternatives
from vidcc.papers.provenance import Ns2, key_paths, setup_rows, unsourced
from vidcc.papers.qos_aimd import stats, udp

# The claims classified (docs/papers/qos-aimd.md §6): each with its category's evidence.
CLASSIFIED = {"S4", "S5", "S6", "S8", "S9", "S11", "S12", "S13", "S14", "S16", "B1"}


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


def test_the_spacing_reading_sets_the_minimum_rtt_on_the_aimd_flows_only(suite):
    """``pacing-min-rtt`` (S5's reading): the AIMD sender's rtt/W spacing divides the minimum RTT; the
    TCP elephants are untouched; it bears on S5 and on the other claims of AIMD runs."""
    variant = with_alternatives(suite, [suite.alternative("pacing-min-rtt")])
    flows = variant.figure("fig6").part("aimd-pe0.1").scenario("quick")["flows"]
    assert {f["protocol"]: f.get("pacing") for f in flows} == {"qos-aimd": "min-rtt", "tcp-sack": None}
    default = suite.figure("fig6").part("aimd-pe0.1").scenario("quick")["flows"]
    assert [f.get("pacing") for f in default if f["protocol"] == "qos-aimd"] == [None]
    bearing = {c.id for c in suite.claims if "pacing-min-rtt" in c.alternatives}
    assert {"S5", "S11", "S14"} <= bearing


# ------------------------------------------------------------------------------------------------
# Categories of the FAIL and UNSTABLE claims


def test_every_classification_has_its_evidence(suite):
    assert [p for c in suite.claims for p in categories.problems(c, suite)] == []
    assert {c.id for c in suite.claims if c.category is not None} == CLASSIFIED


def _synthetic_data(suite, seed):
    data = {f.id: _synthetic(f, np.random.default_rng(seed)) for f in suite.figures}
    for d in data.values():
        d.attach_others(data)
    return data


def test_a_classified_claim_that_fails_states_its_evidence_from_the_run(suite):
    """Each classified claim, run on two synthetic results and taken as failing, states its category
    and its evidence; an over-claim's bound is computed from that run (its numbers differ between
    the two results and are in the claim's measured values)."""
    evidence = {}
    for seed in (7, 11):
        data = _synthetic_data(suite, seed)
        for claim in suite.claims:
            if claim.category is None:
                continue
            d = data[claim.figure]
            v = claim.check(d)
            measured = dict(v.measured)
            finding = categories.classify(claim, "FAIL", "quick", d, measured)
            assert finding is not None and finding.category == claim.category.category, claim.id
            assert finding.evidence.strip() and "not computed" not in finding.evidence, (claim.id, finding)
            evidence.setdefault(claim.id, []).append(finding.evidence)
            if isinstance(claim.category, OverClaim) and claim.category.bound is not None:
                assert len(measured) > len(v.measured), claim.id  # the bound measured what it states
    over = [c.id for c in suite.claims if isinstance(c.category, OverClaim) and c.category.bound is not None]
    assert over and all(evidence[c][0] != evidence[c][1] for c in over)


def test_s16_bound_states_the_ends_of_the_udp_rates(suite, monkeypatch):
    """The bound reads the UDP cells at the lowest and highest rates and the AIMD flow's designed
    outage (eq. (1) at its rwnd), not typed numbers."""
    rows = [{"part": "aimd", "rate": "-", "rate_pps": float("nan"), "goodput": 0.87, "loss": 0.0, "outage": 0.004},
            {"part": "udp-arq", "rate": "120kbps", "rate_pps": 0.6, "goodput": 0.6, "loss": 0.0, "outage": 0.0},
            {"part": "udp-noarq", "rate": "200kbps", "rate_pps": 1.0, "goodput": 0.893, "loss": 0.107, "outage": 0.0}]
    monkeypatch.setattr(stats, "fig9_stats", lambda d: pd.DataFrame(rows))
    measured = {}
    text = udp.udp_edges_bound(object(), measured)
    assert "0.893" in text and "0.0000" in text and "0.40 %" in text, text
    assert measured["eq. (1) outage at W_max"] > 0
