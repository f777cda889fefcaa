"""PLM's scenario keys and the DRR queue as a scenario file writes them, and one short run."""

import pytest

from vidcc.scenario import ScenarioError, parse_scenario

TEXT = """
[scenario]
duration = "20s"
warmup = "5s"
[topology]
kind = "graph"
nodes = ["S", "L", "R", "A", "T", "TD"]
links = [{a = "S", b = "L", bandwidth = "10Mbps", delay = "1ms"},
         {a = "T", b = "L", bandwidth = "10Mbps", delay = "1ms"},
         {a = "L", b = "R", bandwidth = "1.05Mbps", delay = "20ms", queue = {kind = "drr"}},
         {a = "R", b = "A", bandwidth = "10Mbps", delay = "1ms"},
         {a = "R", b = "TD", bandwidth = "10Mbps", delay = "1ms"}]
[[flows]]
protocol = "plm"
src = "S"
receivers = [{node = "A"}]
layer_rates = ["100kbps", "100kbps", "100kbps", "100kbps", "100kbps", "100kbps", "100kbps", "100kbps"]
[[flows]]
protocol = "tcp-newreno"
src = "T"
dst = "TD"
"""


def test_layers_and_the_drr_queue_resolve_with_ns2_defaults():
    doc = parse_scenario(TEXT, source="t.toml").resolve()
    plm = doc["flows"][0]["protocol"]
    assert plm["layer_rates_bps"] == [100_000] * 8
    assert (plm["check_period_ns"], plm["burst"], plm["min_estimates"]) == (1_000_000_000, 2, 3)
    queues = [link["link"]["queue"] for link in doc["topology"]["links"]]
    assert {"kind": "drr", "limit": {"bytes": 25_000}, "quantum": 250, "buckets": 10, "mask": False} in queues


@pytest.mark.parametrize(
    ("old", "new", "error"),
    [
        ('receivers = [{node = "A"}]', 'receivers = [{node = "A", groups = [0]}]',
         r"flows\[0\]\.receivers\[0\]\.groups: a PLM receiver"),
        ('layer_rates = ["100kbps"', 'layer_rates = ["0kbps"', r"flows\[0\]\.layer_rates"),
        ('queue = {kind = "drr"}', 'queue = {kind = "drr", quantum = "0B"}', r"quantum: must be positive"),
        ('queue = {kind = "drr"}', 'queue = {kind = "drr", buckets = 0}', r"buckets"),
    ],
)
def test_bad_keys_are_errors_naming_them(old, new, error):
    assert old in TEXT
    with pytest.raises(ScenarioError, match=error):
        parse_scenario(TEXT.replace(old, new), source="t.toml")


def test_a_plm_receiver_behind_drr_holds_the_layers_below_its_share():
    from vidcc.runner import run

    result = run(parse_scenario(TEXT, source="t.toml"), seed=1)
    events = result.tables["events"]
    layers = events[(events["kind"] == "layers") & (events["side"] == "receiver") & (events["flow"] == 0)]
    # Share 525 kbit/s: 5 layers of 100 kbit/s; the last change settles there.
    assert layers["value"].iloc[-1] == 5
