"""SRAMT's scenario keys as a scenario file writes them (TOML arrays for the bands)."""

import pytest

from vidcc.scenario import ScenarioError, parse_scenario

TEXT = """
[scenario]
duration = "5s"
[topology]
kind = "graph"
nodes = ["S", "R", "A", "B"]
links = [{a = "S", b = "R", bandwidth = "10Mbps", delay = "1ms"},
         {a = "R", b = "A", bandwidth = "10Mbps", delay = "1ms"},
         {a = "R", b = "B", bandwidth = "10Mbps", delay = "1ms"}]
[[flows]]
protocol = "sramt-s"
src = "S"
receivers = [{node = "A", groups = [1]}, {node = "B"}]
bands = [["50kbps", "200kbps"], ["200kbps", "1000kbps"]]
initial_rates = ["100kbps", "300kbps"]
"""


def test_bands_written_as_toml_arrays_resolve_to_bit_rates():
    flow = parse_scenario(TEXT, source="t.toml").resolve()["flows"][0]
    assert flow["protocol"]["bands_bps"] == [[50_000, 200_000], [200_000, 1_000_000]]
    assert [r["groups"] for r in flow["multicast"]["receivers"]] == [[1], []]


def test_a_band_that_is_not_two_rates_is_an_error_naming_it():
    with pytest.raises(ScenarioError, match=r"flows\[0\]\.bands\[1\]: must be \[min, max\]"):
        parse_scenario(TEXT.replace('["200kbps", "1000kbps"]', '["200kbps"]'), source="t.toml")
