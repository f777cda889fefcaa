"""`tfrc` and `gaimd` in scenario files: keys, defaults, resolution, errors, a run."""

from __future__ import annotations

import pytest

import vidcc
from scenario_testing import DROPTAIL_BDP, assert_error_at, assert_keys_documented, dumbbell, first_protocol
from vidcc import parse_scenario
from vidcc.protocols.tfrc import TfrcFlow

VIDEO = 'video = { model = "tes-mpeg4", layers = ["128kbps", "256kbps", "512kbps"] }'

DEFAULT = {
    "q": 0.9,
    "b": 1.0,
    "t_mbi_ns": 64_000_000_000,
    "nofeedback_rtts": 4.0,
    "initial_rate": "rfc3448",
    "ndupack": 3,
    "history_discounting": False,
    "discount_threshold": 0.5,
    "oscillation_prevention": False,
    "rules": "rfc5348",
    "t_rto": "4r",
    "tcp_tick_ns": 100_000_000,
    "q2": 0.9,
    "sender_buffer_packets": None,
    "sender_buffer_max_age_ns": None,
}


def doc(flow: str, duration: str = "10s") -> str:
    return dumbbell(flow, duration=duration, bandwidth="2Mbps", queue=DROPTAIL_BDP, access_bandwidth="10Mbps")


def protocol(flow: str) -> dict:
    return first_protocol(doc(flow))


def test_defaults_resolve_to_every_field():
    assert protocol('protocol = "tfrc"') == {"kind": "tfrc", **DEFAULT}


def test_keys_in_user_units():
    p = protocol(
        'protocol = "tfrc"\nq = 0.5\nb = 2\nt_mbi = "32s"\nnofeedback_rtts = 2\ninitial_rate = "rfc5348"\n'
        'ndupack = 1\nhistory_discounting = true\ndiscount_threshold = 0.25\noscillation_prevention = true\n'
        'rules = "ns2"\nt_rto = "tcp"\ntcp_tick = "10ms"\nq2 = 0.95\n'
        f'sender_buffer_packets = 200\nsender_buffer_max_age = "2s"\n{VIDEO}'
    )
    assert p == {
        "kind": "tfrc",
        "q": 0.5,
        "b": 2.0,
        "t_mbi_ns": 32_000_000_000,
        "nofeedback_rtts": 2.0,
        "initial_rate": "rfc5348",
        "ndupack": 1,
        "history_discounting": True,
        "discount_threshold": 0.25,
        "oscillation_prevention": True,
        "rules": "ns2",
        "t_rto": "tcp",
        "tcp_tick_ns": 10_000_000,
        "q2": 0.95,
        "sender_buffer_packets": 200,
        "sender_buffer_max_age_ns": 2_000_000_000,
    }


@pytest.mark.parametrize(
    "flow, path, gist",
    [
        ('protocol = "tfrc"\nq = 1', "flows[0].q", "less than 1"),
        ('protocol = "tfrc"\nq = -0.1', "flows[0].q", "at least 0"),
        ('protocol = "tfrc"\nb = 0.5', "flows[0].b", "at least 1"),
        ('protocol = "tfrc"\nt_mbi = "0s"', "flows[0].t_mbi", "positive"),
        ('protocol = "tfrc"\nt_mbi = 64', "flows[0].t_mbi", "duration"),
        ('protocol = "tfrc"\nnofeedback_rtts = 0.5', "flows[0].nofeedback_rtts", "at least 1"),
        ('protocol = "tfrc"\ninitial_rate = "ns2"', "flows[0].initial_rate", "expected one of"),
        ('protocol = "tfrc"\nndupack = 0', "flows[0].ndupack", "at least 1"),
        ('protocol = "tfrc"\nndupack = 1.5', "flows[0].ndupack", "integer"),
        ('protocol = "tfrc"\nhistory_discounting = "yes"', "flows[0].history_discounting", "true or false"),
        ('protocol = "tfrc"\ndiscount_threshold = 0', "flows[0].discount_threshold", "greater than 0"),
        ('protocol = "tfrc"\ndiscount_threshold = 1.5', "flows[0].discount_threshold", "at most 1"),
        ('protocol = "tfrc"\nsender_buffer_packets = 0', "flows[0].sender_buffer_packets", "at least 1"),
        ('protocol = "tfrc"\nsender_buffer_max_age = "0s"', "flows[0].sender_buffer_max_age", "positive"),
        ('protocol = "tfrc"\nrules = "rfc3448"', "flows[0].rules", "expected one of"),
        ('protocol = "tfrc"\nt_rto = "4R"', "flows[0].t_rto", "expected one of"),
        ('protocol = "tfrc"\ntcp_tick = "0s"', "flows[0].tcp_tick", "positive"),
        ('protocol = "tfrc"\nq2 = 1', "flows[0].q2", "less than 1"),
        ('protocol = "tfrc"\nalpha = 1', "flows[0].alpha", "unknown key"),
    ],
)
def test_bad_keys_name_the_path(flow, path, gist):
    assert_error_at(doc(flow), path, gist)


def test_ns2_agent_keys_resolve_to_ns2s_defaults():
    """NS2_AGENT (what the DVRC and SSVP suites run) is ns-2 2.35's Agent/TFRC: df_ 0.95 for both
    smoothings, ca_ 1, tzero_ at tcp_tick_ 0.1, no-feedback 2·rtt_, numPkts_ 1, discount_ 1."""
    from vidcc.protocols.tfrc import NS2_AGENT

    lines = "\n".join(f"{k} = {v!r}".replace("'", '"').replace("True", "true") for k, v in NS2_AGENT.items())
    p = protocol(f'protocol = "tfrc"\n{lines}')
    assert p == {**{"kind": "tfrc"}, **DEFAULT, "rules": "ns2", "initial_rate": "rfc5348", "q": 0.95, "q2": 0.95,
                 "oscillation_prevention": True, "t_rto": "tcp", "tcp_tick_ns": 100_000_000, "nofeedback_rtts": 2.0,
                 "ndupack": 1, "history_discounting": True, "discount_threshold": 0.5}


def test_every_key_is_documented():
    assert_keys_documented("### `tfrc`", TfrcFlow)


def test_tfrc_runs_with_bulk_data_and_with_video():
    flows = f'protocol = "tfrc"\n\n[[flows]]\nprotocol = "tfrc"\n{VIDEO}'
    r = vidcc.run(parse_scenario(doc(flows, duration="20s")))
    fs = r.tables["flow_summary"]
    assert list(fs["flow"]) == [0, 1]
    # The 512 kbit/s video gets (about) its rate; the bulk flow takes most of the rest of 2 Mbit/s.
    assert fs["goodput_bps"][1] > 400_000, fs["goodput_bps"].tolist()
    assert fs["goodput_bps"][0] > 800_000, fs["goodput_bps"].tolist()
    ev = r.tables["events"]
    assert ((ev["kind"] == "rate") & (ev["side"] == "sender")).any()
    assert set(r.tables["video_summary"]["flow"]) == {1}
