"""Graph flows with private per-instance access links (the papers' cross-traffic topologies)."""

import pytest

import vidcc
from vidcc import ScenarioError, parse_scenario

GRAPH = """
[scenario]
duration = "5s"

[topology]
kind = "graph"
nodes = ["R1", "R2", "R3"]
links = [
  { a = "R1", b = "R2", bandwidth = "10Mbps", delay = "10ms" },
  { a = "R2", b = "R3", bandwidth = "10Mbps", delay = "10ms" },
]

[[flows]]
protocol = "tcp-reno"
count = 3
src = "R1"
dst = "R3"
{access}
"""


def test_private_access_links_are_resolved_and_built():
    text = GRAPH.replace("{access}", 'source_access = { bandwidth = ["2Mbps", "10Mbps"], delay = ["5ms", "15ms"] }\n'
                         'sink_access = { bandwidth = "2Mbps", delay = "5ms", loss = { kind = "bernoulli", p = 0.01 } }')
    s = parse_scenario(text)
    p = s.resolve()["flows"][0]["placement"]
    assert p["kind"] == "nodes" and p["src"] == "R1"
    assert p["source_access"]["bandwidth_bps"] == {"min": 2_000_000, "max": 10_000_000}
    assert p["sink_access"]["loss"] == {"kind": "bernoulli", "p": 0.01}
    r = vidcc.run(s)
    links = r.links
    # Three instances, each with an edge node on both sides: 2 core links + 6 access links, both directions.
    assert len(links) == 2 * (2 + 6)
    assert set(r.flows["src"]) == {"a0", "a1", "a2"} and set(r.flows["dst"]) == {"b0", "b1", "b2"}
    # The sink side's loss hits the data direction (R3 → b_k), not the ACKs.
    lossy = links[links["dropped_loss"] > 0]
    assert len(lossy) and all(n.startswith("R3->b") for n in lossy["name"])


def test_private_access_needs_bandwidth_and_delay():
    with pytest.raises(ScenarioError) as e:
        parse_scenario(GRAPH.replace("{access}", 'sink_access = { bandwidth = "2Mbps" }'))
    assert e.value.path == "flows[0].sink_access.delay"


def test_private_access_only_in_graphs():
    dumbbell = """
[scenario]
duration = "5s"
[topology]
kind = "dumbbell"
bottleneck = { bandwidth = "10Mbps", delay = "10ms" }
access = { bandwidth = "100Mbps", delay = "1ms" }
[[flows]]
protocol = "tcp-reno"
sink_access = { bandwidth = "2Mbps", delay = "5ms" }
"""
    with pytest.raises(ScenarioError) as e:
        parse_scenario(dumbbell)
    assert e.value.path == "flows[0].sink_access" and '"graph"' in e.value.message
