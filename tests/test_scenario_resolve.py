"""Scenario → resolved config (the JSON contract of crates/vidcc-sim/src/config.rs)."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from scenario_testing import dumbbell
from vidcc import Scenario, ScenarioError, load_scenario, parse_scenario

ROOT = Path(__file__).resolve().parents[1]

# The example of the issue, verbatim.
ISSUE_EXAMPLE = """
[scenario]
duration = "60s"          # required
warmup = "2s"             # default "0s"; must be < duration
seed = 1                  # default 1; CLI --seed overrides
sample_interval = "150ms" # default "150ms"
queue_sample_interval = "10ms"  # default = sample_interval
packet_log = false        # default false

[topology]
kind = "dumbbell"   # or "chain" or "graph"
bottleneck = { bandwidth = "10Mbps", delay = "33ms", queue = { kind = "droptail", limit = "bdp" } }
access = { bandwidth = "100Mbps", delay = "1ms" }

[[flows]]
protocol = "tcp-newreno"   # tcp-reno, tcp-newreno, tcp-westwood-plus, udp-cbr, udp-pareto
count = 10                 # default 1
packet_size = "1000B"      # default "1000B": bytes on the wire, header included
start = "0s"               # default "0s"; or ["0s", "1s"] drawn uniformly per instance
"""

ACCESS = {
    "bandwidth_bps": 100_000_000,
    "delay_ns": 1_000_000,
    "queue": {"kind": "droptail", "limit": "bdp"},
    "loss": None,
    "reverse_loss": None,
    "arq": None,
}

EXPECTED = {
    "duration_ns": 60_000_000_000,
    "warmup_ns": 2_000_000_000,
    "seed": 1,
    "sample_interval_ns": 150_000_000,
    "queue_sample_interval_ns": 10_000_000,
    "packet_log": False,
    "topology": {
        "kind": "dumbbell",
        "bottleneck": {
            "bandwidth_bps": 10_000_000,
            "delay_ns": 33_000_000,
            "queue": {"kind": "droptail", "limit": "bdp"},
            "loss": None,
            "reverse_loss": None,
            "arq": None,
            "monitor": True,
        },
        "source_access": ACCESS,
        "sink_access": ACCESS,
    },
    "flows": [
        {
            "label": "tcp-newreno",
            "protocol": {
                "kind": "tcp-newreno",
                "max_window_bytes": 64_000,
                "initial_window": 2,
                "min_rto_ns": 200_000_000,
                "initial_rto_ns": 1_000_000_000,
                "delayed_ack": False,
                "limited_transmit": True,
                "transfer_bytes": None,
            },
            "count": 10,
            "packet_size_bytes": 1000,
            "start_ns": 0,
            "stop_ns": None,
            "placement": {"kind": "end_to_end", "reverse": False},
            "send_jitter_ns": 0,
        "video": None,
        }
    ],
}


def test_issue_example_resolves_to_the_expected_config():
    assert parse_scenario(ISSUE_EXAMPLE).resolve() == EXPECTED


def test_shipped_dumbbell_newreno_is_the_issue_example():
    assert load_scenario(ROOT / "scenarios" / "dumbbell-newreno.toml").resolve() == EXPECTED


def test_resolved_config_is_json():
    r = parse_scenario(ISSUE_EXAMPLE).resolve()
    assert json.loads(json.dumps(r)) == r


def test_defaults_are_filled_in():
    minimal = dumbbell('protocol = "tcp-newreno"\ncount = 10', warmup=None, delay="33ms")
    expected = copy.deepcopy(EXPECTED)
    expected.update(duration_ns=10_000_000_000, warmup_ns=0, queue_sample_interval_ns=150_000_000)
    assert parse_scenario(minimal).resolve() == expected


def test_seed_override():
    s = parse_scenario(ISSUE_EXAMPLE)
    assert s.resolve(seed=42)["seed"] == 42
    assert s.resolve()["seed"] == 1
    with pytest.raises(ScenarioError):
        s.resolve(seed=-1)


def test_to_dict_is_the_document_as_written_and_revalidates():
    s = parse_scenario(ISSUE_EXAMPLE)
    d = s.to_dict()
    assert d["topology"]["bottleneck"]["bandwidth"] == "10Mbps"
    assert "source_access" not in d["topology"]  # defaults are not written back
    d["topology"]["bottleneck"]["bandwidth"] = "20Mbps"  # a sweep edits the user-level dict
    assert s.to_dict()["topology"]["bottleneck"]["bandwidth"] == "10Mbps"  # a copy
    assert Scenario(d).resolve()["topology"]["bottleneck"]["bandwidth_bps"] == 20_000_000


def flows_doc(topology: str, flows: str, scenario: str = 'duration = "10s"') -> str:
    return f"[scenario]\n{scenario}\n[topology]\n{topology}\n{flows}"


DUMBBELL_TOPO = 'kind = "dumbbell"\nbottleneck = { bandwidth = "10Mbps", delay = "33ms" }\naccess = { bandwidth = "100Mbps", delay = "1ms" }'


def test_units_spreads_and_overrides():
    topo = (
        'kind = "dumbbell"\n'
        'bottleneck = { bandwidth = "1.5Mbps", delay = "2min", queue = { kind = "droptail", limit = "64KiB" } }\n'
        'access = { bandwidth = "100Mbps", delay = ["5ms", "15ms"], queue = { kind = "droptail", limit = 20 } }\n'
        'sink_access = { bandwidth = ["1Gbps", "2Gbps"] }'
    )
    flows = '[[flows]]\nprotocol = "udp-cbr"\nrate = "256kbps"\nstart = ["0s", "1s"]\nstop = "9s"\npacket_size = "1.5KB"\nlabel = "video"\ndirection = "reverse"\nsend_jitter = "800us"\n'
    r = parse_scenario(flows_doc(topo, flows, 'duration = "10min"')).resolve()
    t = r["topology"]
    assert t["bottleneck"]["bandwidth_bps"] == 1_500_000
    assert t["bottleneck"]["delay_ns"] == 120_000_000_000
    assert t["bottleneck"]["queue"] == {"kind": "droptail", "limit": {"bytes": 65_536}}
    assert t["source_access"]["bandwidth_bps"] == 100_000_000
    assert t["source_access"]["delay_ns"] == {"min": 5_000_000, "max": 15_000_000}
    assert t["source_access"]["queue"]["limit"] == {"packets": 20}
    assert t["sink_access"]["bandwidth_bps"] == {"min": 1_000_000_000, "max": 2_000_000_000}
    assert t["sink_access"]["delay_ns"] == {"min": 5_000_000, "max": 15_000_000}  # inherited
    f = r["flows"][0]
    assert f == {
        "label": "video",
        "protocol": {"kind": "udp-cbr", "rate_bps": 256_000},
        "count": 1,
        "packet_size_bytes": 1500,
        "start_ns": {"min": 0, "max": 1_000_000_000},
        "stop_ns": 9_000_000_000,
        "placement": {"kind": "end_to_end", "reverse": True},
        "send_jitter_ns": 800_000,
    "video": None,
    }


def test_red_queue_defaults():
    topo = DUMBBELL_TOPO.replace('delay = "33ms" }', 'delay = "33ms", queue = { kind = "red" } }')
    q = parse_scenario(flows_doc(topo, '[[flows]]\nprotocol = "tcp-reno"\n')).resolve()["topology"]["bottleneck"]["queue"]
    assert q == {
        "kind": "red", "limit": "bdp", "min_thresh": 5.0, "max_thresh": 15.0, "weight": 0.002, "max_p": 0.1,
        "gentle": True, "bytes": False, "mean_packet_bytes": 500, "wait": True,
    }


def test_loss_models_and_directions():
    bern = '{ kind = "bernoulli", p = 0.01 }'
    ge = '{ kind = "gilbert-elliott", p = 0.01, r = 0.5 }'
    cb = '{ kind = "correlated-bernoulli", p = 0.01, q = 0.15 }'
    topo = (
        'kind = "dumbbell"\n'
        f'bottleneck = {{ bandwidth = "10Mbps", delay = "33ms", loss = {ge}, reverse_loss = {cb} }}\n'
        f'access = {{ bandwidth = "100Mbps", delay = "1ms", loss = {bern} }}'
    )
    t = parse_scenario(flows_doc(topo, '[[flows]]\nprotocol = "tcp-reno"\n')).resolve()["topology"]
    assert t["bottleneck"]["loss"] == {"kind": "gilbert-elliott", "p": 0.01, "r": 0.5, "loss_good": 0.0, "loss_bad": 1.0}
    assert t["bottleneck"]["reverse_loss"] == {"kind": "correlated-bernoulli", "p": 0.01, "q": 0.15}
    # `loss` is the left → right direction on every link, access links on both sides included.
    assert t["sink_access"]["loss"] == {"kind": "bernoulli", "p": 0.01}
    assert t["sink_access"]["reverse_loss"] is None
    assert t["source_access"]["loss"] == {"kind": "bernoulli", "p": 0.01}
    assert t["source_access"]["reverse_loss"] is None


def test_chain_placements():
    topo = 'kind = "chain"\nhops = 3\nlink = { bandwidth = "1Mbps", delay = "10ms" }\naccess = { bandwidth = "10Mbps", delay = "1ms" }'
    flows = (
        '[[flows]]\nprotocol = "tcp-newreno"\n'
        '[[flows]]\nprotocol = "tcp-reno"\nspan = "per-hop"\ndirection = "reverse"\n'
        '[[flows]]\nprotocol = "tcp-reno"\nspan = "end-to-end"\ndirection = "forward"\n'
    )
    r = parse_scenario(flows_doc(topo, flows)).resolve()
    assert r["topology"]["kind"] == "chain" and r["topology"]["hops"] == 3
    assert r["topology"]["link"]["monitor"] is True
    assert r["topology"]["link"]["bandwidth_bps"] == 1_000_000
    assert [f["placement"] for f in r["flows"]] == [
        {"kind": "end_to_end", "reverse": False},
        {"kind": "per_hop", "reverse": True},
        {"kind": "end_to_end", "reverse": False},
    ]


def test_graph_links_and_placements():
    topo = (
        'kind = "graph"\nnodes = ["A", "R", "B"]\n'
        'links = [{ a = "A", b = "R", bandwidth = "5Mbps", delay = "2ms" }, '
        '{ a = "R", b = "B", bandwidth = "1Mbps", delay = "3ms", monitor = false, queue = { kind = "droptail", limit = 7 } }]'
    )
    flows = '[[flows]]\nprotocol = "udp-pareto"\nrate = "1Mbps"\nsrc = "B"\ndst = "A"\n'
    r = parse_scenario(flows_doc(topo, flows)).resolve()
    assert r["topology"] == {
        "kind": "graph",
        "nodes": ["A", "R", "B"],
        "links": [
            {"a": "A", "b": "R", "link": {"bandwidth_bps": 5_000_000, "delay_ns": 2_000_000,
                                          "queue": {"kind": "droptail", "limit": "bdp"},
                                          "loss": None, "reverse_loss": None, "arq": None, "monitor": True}},
            {"a": "R", "b": "B", "link": {"bandwidth_bps": 1_000_000, "delay_ns": 3_000_000,
                                          "queue": {"kind": "droptail", "limit": {"packets": 7}},
                                          "loss": None, "reverse_loss": None, "arq": None, "monitor": False}},
        ],
    }
    assert r["flows"][0]["placement"] == {"kind": "nodes", "src": "B", "dst": "A", "source_access": None, "sink_access": None}
    assert r["flows"][0]["protocol"] == {
        "kind": "udp-pareto", "rate_bps": 1_000_000, "on_mean_ns": 500_000_000, "off_mean_ns": 500_000_000, "shape": 1.5,
    }


def test_tcp_options():
    flows = ('[[flows]]\nprotocol = "tcp-westwood-plus"\nmax_window = "128KB"\ninitial_window = 4\n'
             'min_rto = "1s"\ninitial_rto = "3s"\ndelayed_ack = true\nlimited_transmit = false\ntransfer = "5MB"\n')
    p = parse_scenario(flows_doc(DUMBBELL_TOPO, flows)).resolve()["flows"][0]["protocol"]
    assert p == {"kind": "tcp-westwood-plus", "max_window_bytes": 128_000, "initial_window": 4, "min_rto_ns": 1_000_000_000,
                 "initial_rto_ns": 3_000_000_000, "delayed_ack": True, "limited_transmit": False,
                 "transfer_bytes": 5_000_000}


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.toml")), ids=lambda p: p.name)
def test_shipped_scenarios_are_valid(path):
    r = load_scenario(path).resolve()
    assert r["duration_ns"] > 0 and r["flows"]


def test_shipped_scenarios_exist():
    names = {p.name for p in (ROOT / "scenarios").glob("*.toml")}
    assert {"tcp-mix.toml", "dumbbell-newreno.toml", "chain.toml", "graph.toml", "red-dumbbell.toml"} <= names


def test_documented_examples_are_valid():
    text = (ROOT / "docs" / "scenarios.md").read_text()
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert len(blocks) >= 4
    for block in blocks:
        parse_scenario(block, source="docs/scenarios.md")


def test_every_key_is_documented():
    from vidcc import scenario as m

    text = (ROOT / "docs" / "scenarios.md").read_text()
    models = [m.ScenarioSection, m.Dumbbell, m.Chain, m.Graph, m.GraphLink, m.Link, m.Access, m.DropTail, m.Red, m.Drr, m.Sfq,
              m.Bernoulli, m.GilbertElliott, m.CorrelatedBernoulli, m.TcpFlow, m.CbrFlow, m.ParetoFlow]
    missing = sorted({k for model in models for k in model.model_fields if f"`{k}`" not in text})
    assert not missing, f"undocumented keys: {missing}"
    for tag in m.PROTOCOLS + m.TOPOLOGY_KINDS + m.QUEUE_KINDS + m.LOSS_KINDS:
        assert f'"{tag}"' in text, tag
