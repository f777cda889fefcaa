"""The `arq` key on links: validation, resolution and a run."""

import pytest

import vidcc
from vidcc import ScenarioError, parse_scenario

DOC = """
[scenario]
duration = "20s"

[topology]
kind = "dumbbell"
bottleneck = {{ bandwidth = "200kbps", delay = "10ms", loss = {{ kind = "bernoulli", p = 0.1 }}{arq} }}
access = {{ bandwidth = "100Mbps", delay = "1ms" }}

[[flows]]
protocol = "udp-cbr"
rate = "100kbps"
packet_size = "125B"
"""


def test_persistent_arq_hides_losses():
    s = parse_scenario(DOC.format(arq=', arq = { kind = "persistent" }'))
    assert s.resolve()["topology"]["bottleneck"]["arq"] == {"kind": "persistent"}
    r = vidcc.run(s)
    bottleneck = r.links.iloc[0]
    assert bottleneck["dropped_loss"] == 0 and bottleneck["retransmissions"] > 0
    # Without ARQ the same channel drops about 10 %.
    r = vidcc.run(parse_scenario(DOC.format(arq="")))
    assert 0.08 < r.flow_summary["drop_rate"][0] < 0.12


def test_limited_arq_and_bad_values():
    s = parse_scenario(DOC.format(arq=', arq = { kind = "limited", attempts = 3 }'))
    assert s.resolve()["topology"]["bottleneck"]["arq"] == {"kind": "limited", "attempts": 3}
    with pytest.raises(ScenarioError) as e:
        parse_scenario(DOC.format(arq=', arq = { kind = "limited", attempts = 0 }'))
    assert e.value.path == "topology.bottleneck.arq.attempts"
    with pytest.raises(ScenarioError) as e:
        parse_scenario(DOC.format(arq=', arq = { kind = "sometimes" }'))
    assert e.value.path == "topology.bottleneck.arq.kind"


def test_optimal_arq_resolves_and_runs():
    s = parse_scenario(DOC.format(arq=', arq = { kind = "optimal" }'))
    assert s.resolve()["topology"]["bottleneck"]["arq"] == {"kind": "optimal", "threshold": 0.8, "slots": None}
    # On this memoryless channel the scheme never pauses: the same run as persistent ARQ.
    persistent = vidcc.run(parse_scenario(DOC.format(arq=', arq = { kind = "persistent" }'))).links.iloc[0]
    optimal = vidcc.run(s).links.iloc[0]
    assert optimal["dropped_loss"] == 0 and optimal["retransmissions"] == persistent["retransmissions"] > 0
    s = parse_scenario(DOC.format(arq=', arq = { kind = "optimal", slots = 2 }'))
    assert s.resolve()["topology"]["bottleneck"]["arq"]["slots"] == 2
    for bad, path in (("threshold = 1.5", "threshold"), ("slots = -1", "slots")):
        with pytest.raises(ScenarioError) as e:
            parse_scenario(DOC.format(arq=f', arq = {{ kind = "optimal", {bad} }}'))
        assert e.value.path == f"topology.bottleneck.arq.{path}"
