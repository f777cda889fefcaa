"""Every kind of bad scenario gives one ScenarioError line naming the file, the key path and the
gist of what was expected."""

from __future__ import annotations

import pytest

from scenario_testing import dumbbell
from vidcc import ScenarioError, load_scenario, parse_scenario

DUMBBELL = dumbbell('protocol = "tcp-newreno"', warmup=None, delay="33ms")

GRAPH = """
[scenario]
duration = "10s"

[topology]
kind = "graph"
nodes = ["A", "R1", "B", "C"]
links = [{ a = "A", b = "R1", bandwidth = "1Mbps", delay = "1ms" }, { a = "R1", b = "B", bandwidth = "1Mbps", delay = "1ms" }]
"""


def error(text: str, source: str = "scenarios/x.toml") -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        parse_scenario(text, source=source)
    e = info.value
    line = str(e)
    assert "\n" not in line, line
    assert line.startswith(f"{source}: "), line
    assert "Traceback" not in line and "pydantic" not in line.lower() and "Input should" not in line, line
    assert e.file == source
    return e


def check(text: str, path: str, *gist: str) -> ScenarioError:
    e = error(text)
    assert e.path == path, str(e)
    assert f"scenarios/x.toml: {path}: " in str(e), str(e)
    for g in gist:
        assert g in e.message, str(e)
    return e


def test_the_base_documents_are_valid():
    parse_scenario(DUMBBELL)
    parse_scenario(GRAPH + '[[flows]]\nprotocol = "tcp-reno"\nsrc = "A"\ndst = "B"\n')


def test_unknown_unit_names_the_key_and_the_expected_units():
    e = check(DUMBBELL.replace('"10Mbps"', '"10Mbit"'), "topology.bottleneck.bandwidth",
              'invalid rate "10Mbit": unknown unit "Mbit"', "Mbps", '(e.g. "10Mbps")')
    assert str(e).startswith('scenarios/x.toml: topology.bottleneck.bandwidth: invalid rate "10Mbit"')


def test_bad_duration_unit():
    check(DUMBBELL.replace('delay = "33ms"', 'delay = "33 msec"'), "topology.bottleneck.delay", "invalid duration")


def test_bad_size_unit_in_a_flow():
    check(DUMBBELL + 'packet_size = "1000bytes"\n', "flows[0].packet_size", "invalid size")


def test_number_without_unit():
    check(DUMBBELL.replace('"10Mbps"', "10000000"), "topology.bottleneck.bandwidth", "string with a unit", "10Mbps")


@pytest.mark.parametrize("value", ['"0Mbps"', '"-1Mbps"'])
def test_zero_or_negative_capacity_must_be_positive(value):
    check(DUMBBELL.replace('"10Mbps"', value), "topology.bottleneck.bandwidth", "must be positive")


def test_zero_access_capacity_must_be_positive():
    check(DUMBBELL.replace('"100Mbps"', '"0bps"'), "topology.access.bandwidth", "must be positive")


def test_unknown_key_for_protocol():
    text = DUMBBELL + '\n[[flows]]\nprotocol = "tcp-newreno"\nrate = "1Mbps"\n'
    e = check(text, "flows[1].rate", 'unknown key for protocol "tcp-newreno"')
    assert "max_window" in e.message  # it lists what is allowed


def test_unknown_key_in_a_link_lists_the_known_keys():
    check(DUMBBELL.replace('delay = "33ms"', 'delay = "33ms", latency = "1ms"'), "topology.bottleneck.latency",
          "unknown key", "bandwidth", "delay")


def test_unknown_top_level_table():
    check(DUMBBELL + "\n[extras]\nx = 1\n", "extras", "unknown key", "scenario, topology, flows")


def test_unknown_key_for_queue_kind():
    text = DUMBBELL.replace('delay = "33ms"', 'delay = "33ms", queue = { kind = "droptail", min_thresh = 5 }')
    check(text, "topology.bottleneck.queue.min_thresh", 'unknown key for queue kind "droptail"')


def test_no_route_between_nodes():
    text = GRAPH + '[[flows]]\nprotocol = "tcp-reno"\nsrc = "A"\ndst = "C"\n'
    check(text, "flows[0]", 'no route from "A" to "C"', "not connected")


def test_unknown_node():
    text = GRAPH + '[[flows]]\nprotocol = "tcp-reno"\nsrc = "Z"\ndst = "B"\n'
    check(text, "flows[0].src", 'unknown node "Z"')


def test_unknown_node_in_a_link():
    text = GRAPH.replace('b = "R1"', 'b = "R9"') + '[[flows]]\nprotocol = "tcp-reno"\nsrc = "A"\ndst = "B"\n'
    check(text, "topology.links[0].b", 'unknown node "R9"')


def test_graph_flow_needs_src_and_dst():
    check(GRAPH + '[[flows]]\nprotocol = "tcp-reno"\nsrc = "A"\n', "flows[0].dst", "missing required key")


def test_toml_syntax_error_has_line_and_column():
    e = error(DUMBBELL + "\n[[flows]\n")
    assert e.path == ""
    assert "invalid TOML" in e.message and "line 13" in e.message and "column" in e.message, str(e)


def test_missing_required_key():
    check(DUMBBELL.replace('duration = "10s"', ""), "scenario.duration", "missing required key")


def test_missing_required_link_key():
    check(DUMBBELL.replace('bandwidth = "10Mbps", ', ""), "topology.bottleneck.bandwidth", "missing required key")


def test_missing_access_bandwidth_names_where_to_put_it():
    text = DUMBBELL.replace('access = { bandwidth = "100Mbps", delay = "1ms" }', 'access = { delay = "1ms" }')
    check(text, "topology.source_access.bandwidth", "missing required key", "topology.access.bandwidth")


def test_missing_flows():
    check(DUMBBELL[: DUMBBELL.index("[[flows]]")], "flows", "missing required key")


def test_warmup_must_be_shorter_than_duration():
    text = DUMBBELL.replace('duration = "10s"', 'duration = "10s"\nwarmup = "10s"')
    check(text, "scenario.warmup", "must be shorter than scenario.duration")


def test_wrong_type():
    check(DUMBBELL + 'count = "ten"\n', "flows[0].count", "expected an integer", '"ten"')


def test_wrong_type_bool():
    check(DUMBBELL.replace('duration = "10s"', 'duration = "10s"\npacket_log = "yes"'), "scenario.packet_log",
          "expected true or false")


def test_wrong_type_table():
    check(DUMBBELL.replace('bottleneck = {', 'bottleneck = "10Mbps"\nx = {'), "topology.bottleneck", "expected a table")


def test_unknown_protocol_lists_the_known_ones():
    e = check(DUMBBELL.replace('"tcp-newreno"', '"tcp-cubic"'), "flows[0].protocol", 'unknown protocol "tcp-cubic"')
    for p in ("tcp-reno", "tcp-newreno", "tcp-westwood-plus", "udp-cbr", "udp-pareto"):
        assert p in e.message


def test_missing_protocol():
    check(DUMBBELL.replace('protocol = "tcp-newreno"', "count = 2"), "flows[0].protocol", "missing required key")


def test_unknown_topology_kind():
    check(DUMBBELL.replace('"dumbbell"', '"star"'), "topology.kind", 'unknown kind "star"', "dumbbell, chain, graph")


def test_unknown_loss_kind():
    text = DUMBBELL.replace('delay = "33ms"', 'delay = "33ms", loss = { kind = "gilbert_elliott", p = 0.1, r = 0.5 }')
    check(text, "topology.bottleneck.loss.kind", 'unknown kind "gilbert_elliott"', "gilbert-elliott")


def test_probability_out_of_range():
    text = DUMBBELL.replace('delay = "33ms"', 'delay = "33ms", loss = { kind = "bernoulli", p = 1.5 }')
    check(text, "topology.bottleneck.loss.p", "probability in [0, 1]")


def test_required_udp_rate():
    check(DUMBBELL.replace('"tcp-newreno"', '"udp-cbr"'), "flows[0].rate", "missing required key")


def test_span_outside_a_chain():
    check(DUMBBELL + 'span = "per-hop"\n', "flows[0].span", 'only allowed with topology kind "chain"')


def test_src_outside_a_graph():
    check(DUMBBELL + 'src = "A"\n', "flows[0].src", 'only allowed with topology kind "graph"')


def test_direction_in_a_graph():
    text = GRAPH + '[[flows]]\nprotocol = "tcp-reno"\nsrc = "A"\ndst = "B"\ndirection = "reverse"\n'
    check(text, "flows[0].direction", "only allowed with topology kind")


def test_bad_enum_value():
    check(DUMBBELL + 'direction = "up"\n', "flows[0].direction", '"forward"', '"reverse"')


def test_range_must_have_two_values_in_order():
    check(DUMBBELL + 'start = ["0s", "1s", "2s"]\n', "flows[0].start", "list of two")
    check(DUMBBELL + 'start = ["2s", "1s"]\n', "flows[0].start", "larger than max")


def test_queue_limit():
    text = DUMBBELL.replace('delay = "33ms"', 'delay = "33ms", queue = { kind = "droptail", limit = "lots" }')
    check(text, "topology.bottleneck.queue.limit", 'invalid size "lots"', '"bdp"')


def test_several_problems_report_the_first_and_count_the_rest():
    text = DUMBBELL.replace('"10Mbps"', '"10Mbit"').replace('"33ms"', '"33"')
    check(text, "topology.bottleneck.bandwidth", "and 1 more problem")


def test_dict_input_uses_the_given_source():
    with pytest.raises(ScenarioError) as info:
        parse_scenario({"scenario": {"duration": "1s"}}, source="sweep point 3")
    assert str(info.value) == "sweep point 3: topology: missing required key (and 1 more problem)"


def test_missing_file(tmp_path):
    with pytest.raises(ScenarioError) as info:
        load_scenario(tmp_path / "nope.toml")
    assert str(info.value) == f"{tmp_path / 'nope.toml'}: no such file"


def test_load_scenario_names_the_file(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text(DUMBBELL.replace('"10Mbps"', '"10Mbit"'))
    with pytest.raises(ScenarioError) as info:
        load_scenario(p)
    assert str(info.value).startswith(f"{p}: topology.bottleneck.bandwidth: invalid rate")


def test_red_thresholds_must_be_ordered():
    text = DUMBBELL.replace('delay = "33ms"', 'delay = "33ms", queue = { kind = "red", min_thresh = 20, max_thresh = 10 }')
    check(text, "topology.bottleneck.queue.max_thresh", "must be larger than min_thresh")


def test_red_weight_at_most_one_in_an_access_queue():
    text = DUMBBELL.replace('delay = "1ms"', 'delay = "1ms", queue = { kind = "red", weight = 2 }')
    check(text, "topology.access.queue.weight", "(0, 1]")


def test_packet_size_has_room_for_headers():
    check(DUMBBELL + 'packet_size = "40B"\n', "flows[0].packet_size", "at least 64B")


def test_too_many_flow_instances_is_a_clear_error_not_an_out_of_memory_kill():
    text = DUMBBELL.replace('protocol = "tcp-newreno"', 'protocol = "tcp-newreno"\ncount = 4000000000')
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text)
    assert e.value.path == "flows[0].count" and "more than this machine's" in e.value.message
