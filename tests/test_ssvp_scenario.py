"""`ssvp` and `ssvp-layered` in scenario files: keys, defaults, resolution, errors, a run."""

from __future__ import annotations

import pytest

import vidcc
from scenario_testing import assert_error_at, assert_keys_documented, droptail, dumbbell, first_protocol
from vidcc import parse_scenario
from vidcc.protocols.ssvp import SsvpFlow, SsvpLayeredFlow

LAYERED_VIDEO = 'video = { model = "tes-mpeg4", layers = ["95kbps", "190kbps", "285kbps", "380kbps"] }'

DEFAULT_SSVP = {
    "alpha": 0.31,
    "beta": 0.875,
    "congestion_level_threshold": 0.005,
    "increase_law": "additive",
    "adjust_period": "last-sample",
    "startup": True,
    "gamma": 0.9,
    "epsilon": 0.25,
    "delta": 4.0,
    "deviation": "literal",
    "initial_rate_bps": 80_000,
    "min_rate_bps": 8_000,
    "max_rate_bps": 0,
    "app_rate_factor": 1.2,
    "receiver_timeout_guard": True,
    "no_feedback_decrease": False,
    "control_packet_bytes": 40,
    "sender_buffer_max_age_ns": 1_000_000_000,
    "sender_buffer_packets": 100,
    "sender_buffer_policy": "drop-oldest",
    "pad_last_fragment": False,
}


def doc(flow: str, duration: str = "10s") -> str:
    return dumbbell(flow, duration=duration, bandwidth="1Mbps", queue=droptail(6), access_bandwidth="10Mbps")


def protocol(flow: str) -> dict:
    return first_protocol(doc(flow))


def test_ssvp_defaults_resolve_to_every_field():
    assert protocol('protocol = "ssvp"') == {"kind": "ssvp", **DEFAULT_SSVP}


def test_ssvp_keys_in_user_units():
    p = protocol(
        'protocol = "ssvp"\nalpha = 1\nbeta = 0.5\nincrease_law = "literal-multiplicative"\n'
        'adjust_period = "estimated"\nstartup = false\ndeviation = "tcp"\ninitial_rate = "100kbps"\n'
        'min_rate = "10kbps"\nmax_rate = "2Mbps"\ncontrol_packet_size = "24B"\nsender_buffer_max_age = "500ms"\n'
        'sender_buffer_packets = 50\nsender_buffer_policy = "highest-layer-first"\npad_last_fragment = true\n'
        'no_feedback_decrease = true\nreceiver_timeout_guard = false\napp_rate_factor = 1.5'
    )
    assert p["alpha"] == 1.0 and p["beta"] == 0.5
    assert p["increase_law"] == "literal-multiplicative" and p["adjust_period"] == "estimated"
    assert (p["startup"], p["deviation"]) == (False, "tcp")
    assert (p["initial_rate_bps"], p["min_rate_bps"], p["max_rate_bps"]) == (100_000, 10_000, 2_000_000)
    assert (p["control_packet_bytes"], p["sender_buffer_max_age_ns"], p["sender_buffer_packets"]) == (24, 500_000_000, 50)
    assert p["sender_buffer_policy"] == "highest-layer-first"
    assert p["pad_last_fragment"] and p["no_feedback_decrease"] and not p["receiver_timeout_guard"]
    assert p["app_rate_factor"] == 1.5


def test_ssvp_layered_nests_the_controller_and_takes_the_videos_playout_delay():
    p = protocol(f'protocol = "ssvp-layered"\n{LAYERED_VIDEO}')
    assert p == {
        "kind": "ssvp-layered",
        "ssvp": DEFAULT_SSVP,
        "policy": "buffered",
        "postloss_factor": "paper-literal",
        "consumption": "cumulative",
        "underflow_drop": True,
        "initial_layers": 1,
        "playout_delay_ns": 1_000_000_000,
        "max_lead_ns": 1_000_000_000,
    }
    video = LAYERED_VIDEO.replace("}", ', playout_delay = "2s" }')
    p = protocol(f'protocol = "ssvp-layered"\nbeta = 0.9\nlayer_policy = "immediate"\npostloss_factor = "physical"\n'
                 f'consumption = "mean-times-count"\nunderflow_drop = false\ninitial_layers = 2\nmax_lead = "0s"\n{video}')
    assert p["ssvp"]["beta"] == 0.9
    assert (p["policy"], p["postloss_factor"], p["consumption"]) == ("immediate", "physical", "mean-times-count")
    assert (p["underflow_drop"], p["initial_layers"], p["max_lead_ns"]) == (False, 2, 0)
    assert p["playout_delay_ns"] == 2_000_000_000
    p = protocol(f'protocol = "ssvp-layered"\nplayout_delay = "300ms"\n{video}')
    assert p["playout_delay_ns"] == 300_000_000


@pytest.mark.parametrize(
    "flow, path, gist",
    [
        ('protocol = "ssvp"\nbeta = 1.0', "flows[0].beta", "less than 1"),
        ('protocol = "ssvp"\nalpha = 0', "flows[0].alpha", "greater than 0"),
        ('protocol = "ssvp"\ncongestion_level_threshold = 1', "flows[0].congestion_level_threshold", "less than 1"),
        ('protocol = "ssvp"\nepsilon = 1.5', "flows[0].epsilon", "at most 1"),
        ('protocol = "ssvp"\nincrease_law = "cubic"', "flows[0].increase_law", "expected one of"),
        ('protocol = "ssvp"\nmin_rate = "100kbps"', "flows[0].initial_rate", "at least min_rate"),
        ('protocol = "ssvp"\nmax_rate = "50kbps"', "flows[0].initial_rate", "at most max_rate"),
        ('protocol = "ssvp"\nmax_rate = "5kbps"', "flows[0].max_rate", "at least min_rate"),
        ('protocol = "ssvp"\nmax_rate = "20Gbps"', "flows[0].max_rate", "10Gbps"),
        ('protocol = "ssvp"\ncontrol_packet_size = "10B"', "flows[0].control_packet_size", "24B"),
        ('protocol = "ssvp"\napp_rate_factor = 0.5', "flows[0].app_rate_factor", "at least 1"),
        ('protocol = "ssvp"\nsender_buffer_packets = 0', "flows[0].sender_buffer_packets", "at least 1"),
        ('protocol = "ssvp"\nlayer_policy = "immediate"', "flows[0].layer_policy", "unknown key"),
        ('protocol = "ssvp"\npacket_size = "70000B"', "flows[0].packet_size", "65535B"),
        ('protocol = "ssvp-layered"', "flows[0].video", "missing required key"),
        ('protocol = "ssvp-layered"\nvideo = { model = "tes-mpeg4", rate = "380kbps" }', "flows[0].video.layers",
         "layered video"),
        (f'protocol = "ssvp-layered"\ninitial_layers = 5\n{LAYERED_VIDEO}', "flows[0].initial_layers", "4"),
        (f'protocol = "ssvp-layered"\npostloss_factor = "beta"\n{LAYERED_VIDEO}', "flows[0].postloss_factor",
         "expected one of"),
    ],
)
def test_bad_keys_name_the_path(flow, path, gist):
    assert_error_at(doc(flow), path, gist)


def test_every_key_is_documented():
    assert_keys_documented("### `ssvp`", SsvpFlow, SsvpLayeredFlow)
    assert_keys_documented("### `ssvp-layered`")


def test_ssvp_runs_with_bulk_and_video_and_layered_video():
    flows = (
        'protocol = "ssvp"\n\n[[flows]]\nprotocol = "ssvp"\nvideo = { model = "tes-mpeg4", rate = "380kbps" }\n\n'
        f'[[flows]]\nprotocol = "ssvp-layered"\n{LAYERED_VIDEO}'
    )
    r = vidcc.run(parse_scenario(doc(flows, duration="20s")))
    fs = r.tables["flow_summary"]
    assert list(fs["flow"]) == [0, 1, 2]
    # Three flows share 1 Mbit/s: each gets something, together most of the link.
    assert (fs["goodput_bps"] > 100_000).all(), fs["goodput_bps"].tolist()
    assert fs["goodput_bps"].sum() > 800_000
    ev = r.tables["events"]
    layers = ev[(ev["flow"] == 2) & (ev["kind"] == "layers")]
    assert layers["value"].iloc[0] == 1 and layers["value"].max() >= 2
    assert set(r.tables["video_summary"]["flow"]) == {1, 2}
