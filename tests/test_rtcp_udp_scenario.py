"""`rtcp-udp` flows in scenario files: every key, its one-line errors, resolution, and a run."""

import pytest

import vidcc
from scenario_testing import assert_error_at, dumbbell, first_protocol
from scenario_testing import scenario_error as error
from vidcc import parse_scenario

LAYERS = 'layers = ["128kbps", "256kbps", "512kbps", "768kbps", "1024kbps"]'


def doc(flow: str = "", duration: str = "10s", layers: str = LAYERS) -> str:
    return dumbbell(f'protocol = "rtcp-udp"\nvideo = {{ model = "tes-mpeg4", {layers} }}\n{flow}', duration=duration)


def test_defaults_resolve_to_every_rust_field():
    p = first_protocol(doc())
    assert p == {
        "kind": "rtcp-udp",
        "report_interval_ns": 1_000_000_000,
        "immediate_reports": True,
        "sender_report_interval_ns": 1_000_000_000,
        "rtt_fallback_ns": 100_000_000,
        "initial_layers": 1,
        "clock_rate_hz": 90_000,
        "adaptation": "step",
    }


def test_keys_in_user_units():
    flow = 'report_interval = "500ms"\nimmediate_reports = false\nsender_report_interval = "2s"\n'
    flow += 'rtt_fallback = "50ms"\ninitial_layers = 3\nclock_rate = 1000\nadaptation = "rate_on_loss"'
    p = first_protocol(doc(flow))
    assert p["report_interval_ns"] == 500_000_000 and p["sender_report_interval_ns"] == 2_000_000_000
    assert p["rtt_fallback_ns"] == 50_000_000 and p["initial_layers"] == 3 and p["clock_rate_hz"] == 1000
    assert p["immediate_reports"] is False and p["adaptation"] == "rate_on_loss"
    assert first_protocol(doc('adaptation = "rate"'))["adaptation"] == "rate"


@pytest.mark.parametrize(
    "flow, path, gist",
    [
        ('report_interval = "0s"', "flows[0].report_interval", "positive"),
        ("report_interval = 1", "flows[0].report_interval", "unit"),
        ('sender_report_interval = "-1s"', "flows[0].sender_report_interval", "positive"),
        ('rtt_fallback = "soon"', "flows[0].rtt_fallback", ""),
        ("initial_layers = 0", "flows[0].initial_layers", "at least 1"),
        ("initial_layers = 6", "flows[0].initial_layers", "5 layers"),
        ("initial_layers = 1.5", "flows[0].initial_layers", "integer"),
        ("clock_rate = 0", "flows[0].clock_rate", "at least 1"),
        ('immediate_reports = "yes"', "flows[0].immediate_reports", "true or false"),
        ('adaptation = "aimd"', "flows[0].adaptation", "rate_on_loss"),
        ("jitter_buffer = 1", "flows[0].jitter_buffer", "unknown key"),
    ],
)
def test_bad_values_name_the_key(flow, path, gist):
    assert_error_at(doc(flow), path, gist)


def test_video_must_be_layered():
    e = error(doc(layers='rate = "1Mbps"'))
    assert e.path == "flows[0].video.layers" and "layered" in e.message, str(e)
    e = error(doc().replace("video = {", "# video = {"))
    assert e.path == "flows[0].video" and "missing required key" in e.message, str(e)


def test_alone_it_climbs_to_full_quality():
    r = vidcc.run(parse_scenario(doc(duration="20s")))
    goodput = r.tables["flow_summary"]["goodput_bps"].iloc[0]
    assert goodput > 0.9 * 1_024_000, goodput
    ev = r.tables["events"]
    layers = ev[(ev["kind"] == "layers") & (ev["side"] == "sender")]["value"]
    assert list(layers) == [1, 2, 3, 4, 5]
