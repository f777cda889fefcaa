"""Multicast flows in the scenario format: receivers on the three topology kinds, per-receiver
times and groups, the errors, the resolved form, and a run with a row per receiver."""

from __future__ import annotations

import pytest

from scenario_testing import assert_error_at, dumbbell
from vidcc import parse_scenario, run
from vidcc.papers.existence import feature_exists

GRAPH = """
[scenario]
duration = "3s"

[topology]
kind = "graph"
nodes = ["S", "R1", "R2", "A", "B", "C", "X"]
links = [
  { a = "S", b = "R1", bandwidth = "10Mbps", delay = "1ms" },
  { a = "R1", b = "A", bandwidth = "10Mbps", delay = "1ms" },
  { a = "R1", b = "R2", bandwidth = "10Mbps", delay = "1ms" },
  { a = "R2", b = "B", bandwidth = "10Mbps", delay = "1ms" },
  { a = "R2", b = "C", bandwidth = "10Mbps", delay = "1ms" },
]

[[flows]]
"""

CHAIN = """
[scenario]
duration = "3s"

[topology]
kind = "chain"
hops = 2
link = { bandwidth = "10Mbps", delay = "5ms" }
access = { bandwidth = "100Mbps", delay = "1ms" }

[[flows]]
"""


def resolved_flow(text: str) -> dict:
    return parse_scenario(text).resolve()["flows"][0]


def test_a_graph_flow_whose_dst_lists_the_receivers_is_a_multicast_flow():
    flow = resolved_flow(GRAPH + 'protocol = "udp-multicast"\nrate = "800kbps"\nsrc = "S"\ndst = ["A", "B", "C"]\n')
    assert flow["placement"] == {"kind": "tree", "src": "S", "source_access": None, "sink_access": None}
    assert [r["node"] for r in flow["multicast"]["receivers"]] == ["A", "B", "C"]
    assert flow["multicast"]["join_latency_ns"] == 0 and flow["multicast"]["leave_latency_ns"] == 0
    assert flow["protocol"] == {"kind": "udp-multicast", "rate_bps": 800_000, "groups": 1}
    assert feature_exists("multicast")


def test_receivers_tables_carry_their_times_groups_and_counts():
    text = GRAPH + """protocol = "udp-multicast"
groups = 2
src = "S"
join_latency = "20ms"
leave_latency = "500ms"
receivers = [{ node = "A", groups = [1] }, { node = "B", start = "1s", stop = "2s" }, { node = "C", count = 2 }]
"""
    m = resolved_flow(text)["multicast"]
    assert (m["join_latency_ns"], m["leave_latency_ns"]) == (20_000_000, 500_000_000)
    assert m["receivers"] == [
        {"node": "A", "start_ns": None, "stop_ns": None, "groups": [1]},
        {"node": "B", "start_ns": 1_000_000_000, "stop_ns": 2_000_000_000, "groups": []},
        {"node": "C", "start_ns": None, "stop_ns": None, "groups": []},
        {"node": "C", "start_ns": None, "stop_ns": None, "groups": []},
    ]


def test_dumbbell_and_chain_flows_take_a_number_of_receivers():
    flow = resolved_flow(dumbbell('protocol = "udp-multicast"\nreceivers = 3'))
    assert flow["placement"] == {"kind": "end_to_end", "reverse": False}
    assert len(flow["multicast"]["receivers"]) == 3 and flow["multicast"]["receivers"][0]["node"] is None
    flow = resolved_flow(CHAIN + 'protocol = "udp-multicast"\nreceivers = [{ count = 2, start = "1s" }]\n')
    assert [r["start_ns"] for r in flow["multicast"]["receivers"]] == [1_000_000_000] * 2
    # A multicast flow with no receivers key has one receiver.
    assert len(resolved_flow(dumbbell('protocol = "udp-multicast"'))["multicast"]["receivers"]) == 1


def test_a_unicast_flow_resolves_as_before_without_a_multicast_key():
    flow = resolved_flow(dumbbell('protocol = "udp-cbr"\nrate = "1Mbps"'))
    assert "multicast" not in flow
    assert list(flow) == ["label", "protocol", "count", "packet_size_bytes", "start_ns", "stop_ns", "placement",
                          "send_jitter_ns", "video"]


@pytest.mark.parametrize(
    ("flow", "path", "gist"),
    [
        ('protocol = "udp-cbr"\nrate = "1Mbps"\nsrc = "S"\ndst = ["A", "B"]', "flows[0].dst", "udp-multicast"),
        ('protocol = "udp-multicast"\nsrc = "S"\ndst = ["A", "S"]', "flows[0].dst[1]", "sender's node"),
        ('protocol = "udp-multicast"\nsrc = "S"\ndst = ["A", "Z"]', "flows[0].dst[1]", 'unknown node "Z"'),
        ('protocol = "udp-multicast"\nsrc = "S"\ndst = ["X"]', "flows[0].dst[0]", "no route"),
        ('protocol = "udp-multicast"\nsrc = "S"\nreceivers = [{ start = "1s" }]', "flows[0].receivers[0].node",
         "names its node"),
        ('protocol = "udp-multicast"\nsrc = "S"\ndst = ["A"]\nreceivers = 2', "flows[0].dst", "not both"),
        ('protocol = "udp-multicast"\nsrc = "S"', "flows[0].dst", "missing required key"),
        ('protocol = "udp-multicast"\nsrc = "S"\nreceivers = [{ node = "A", groups = [1] }]',
         "flows[0].receivers[0].groups", "no group 1"),
        ('protocol = "udp-multicast"\nsrc = "S"\nreceivers = [{ node = "A", start = "2s", stop = "1s" }]',
         "flows[0].receivers[0].stop", "after the receiver's start"),
        ('protocol = "udp-multicast"\nsrc = "S"\nreceivers = 0', "flows[0].receivers", "at least 1"),
    ],
)
def test_multicast_mistakes_are_named(flow, path, gist):
    assert_error_at(GRAPH + flow + "\n", path, gist)


def test_placement_mistakes_on_dumbbells_and_chains_are_named():
    assert_error_at(dumbbell('protocol = "udp-multicast"\nreceivers = [{ node = "A" }]'),
                    "flows[0].receivers[0].node", 'on nodes of a "graph" only')
    assert_error_at(CHAIN + 'protocol = "udp-multicast"\nspan = "per-hop"\n', "flows[0].span", "end to end")
    assert_error_at(dumbbell('protocol = "tcp-newreno"\nreceivers = 2'), "flows[0].receivers", "unicast")
    assert_error_at(dumbbell('protocol = "udp-multicast"\nvideo = { model = "cbr", rate = "1Mbps" }\ngroups = 2'),
                    "flows[0].groups", "a group per layer")


def test_a_run_has_a_row_per_receiver_and_an_aggregate_per_multicast_flow():
    text = GRAPH + """protocol = "udp-multicast"
label = "m"
rate = "800kbps"
src = "S"
start = "100ms"
stop = "1100ms"
receivers = [{ node = "A", start = "0s" }, { node = "B", start = "0s" }, { node = "C", start = "500ms" }]
"""
    tables = run(text).tables
    flows, summary, aggregate = tables["flows"], tables["flow_summary"], tables["aggregate"]
    assert list(flows["dst"]) == ["A", "B", "C"] and list(flows["receiver"]) == [0, 1, 2]
    assert list(flows["multicast"]) == [True] * 3
    # 100 packets from 100 ms; C counts those sent once its branch is grafted: its join at 500 ms
    # is carried out at once (no join latency) and before the sender's packet of that same
    # instant (receivers act first at an instant), so that packet is C's (500 .. 1090 ms).
    assert list(summary["delivered_packets"]) == [100, 100, 60]
    assert list(aggregate["label"]) == ["all", "m", "m/flow0"]
    events = tables["events"]
    joins = events[events["kind"] == "graft"]
    assert sorted(joins["receiver"]) == [0, 1, 2] and list(joins["value"]) == [0.0, 0.0, 0.0]


def test_a_scenario_bigger_than_memory_names_its_receivers():
    text = dumbbell('protocol = "udp-multicast"\ncount = 100000\nreceivers = 4000000000')
    assert_error_at(text, "flows[0].receivers", "more than this machine's")
