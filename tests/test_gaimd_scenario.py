"""`gaimd` in scenario files: keys, defaults, resolution, errors, a run."""

from __future__ import annotations

import pytest

import vidcc
from scenario_testing import DROPTAIL_BDP, assert_error_at, assert_keys_documented, dumbbell, first_protocol
from vidcc import parse_scenario
from vidcc.protocols.gaimd import GaimdFlow

DEFAULT = {
    "beta": 0.875,
    "alpha": None,
    "timeout_ssthresh": "half",
    "max_window_bytes": 64_000,
    "initial_window": 2,
    "min_rto_ns": 200_000_000,
    "initial_rto_ns": 1_000_000_000,
    "delayed_ack": False,
    "limited_transmit": True,
    "transfer_bytes": None,
}


def doc(flow: str, duration: str = "10s") -> str:
    return dumbbell(flow, duration=duration, bandwidth="2Mbps", queue=DROPTAIL_BDP, access_bandwidth="10Mbps")


def protocol(flow: str) -> dict:
    return first_protocol(doc(flow))


def test_defaults_resolve_to_every_field():
    assert protocol('protocol = "gaimd"') == {"kind": "gaimd", **DEFAULT}


def test_keys_in_user_units():
    p = protocol(
        'protocol = "gaimd"\nbeta = 0.5\nalpha = 1\ntimeout_ssthresh = "beta"\nmax_window = "128KB"\n'
        'initial_window = 4\nmin_rto = "1s"\ninitial_rto = "3s"\ndelayed_ack = true\nlimited_transmit = false\n'
        'transfer = "1MB"'
    )
    assert p == {
        "kind": "gaimd",
        "beta": 0.5,
        "alpha": 1.0,
        "timeout_ssthresh": "beta",
        "max_window_bytes": 128_000,
        "initial_window": 4,
        "min_rto_ns": 1_000_000_000,
        "initial_rto_ns": 3_000_000_000,
        "delayed_ack": True,
        "limited_transmit": False,
        "transfer_bytes": 1_000_000,
    }


@pytest.mark.parametrize(
    "flow, path, gist",
    [
        ('protocol = "gaimd"\nbeta = 1', "flows[0].beta", "less than 1"),
        ('protocol = "gaimd"\nbeta = 0', "flows[0].beta", "greater than 0"),
        ('protocol = "gaimd"\nalpha = 0', "flows[0].alpha", "greater than 0"),
        ('protocol = "gaimd"\nalpha = "fast"', "flows[0].alpha", "number"),
        ('protocol = "gaimd"\ntimeout_ssthresh = "third"', "flows[0].timeout_ssthresh", "expected one of"),
        ('protocol = "gaimd"\ninitial_window = 0', "flows[0].initial_window", "at least 1"),
        ('protocol = "gaimd"\nmin_rto = "0s"', "flows[0].min_rto", "positive"),
        ('protocol = "gaimd"\nq = 0.9', "flows[0].q", "unknown key"),
        ('protocol = "gaimd"\nvideo = { model = "tes-mpeg4", rate = "500kbps" }', "flows[0].video", ""),
    ],
)
def test_bad_keys_name_the_path(flow, path, gist):
    assert_error_at(doc(flow), path, gist)


def test_every_key_is_documented():
    assert_keys_documented("### `gaimd`", GaimdFlow)


def test_gaimd_runs_against_newreno():
    flows = 'protocol = "gaimd"\n\n[[flows]]\nprotocol = "tcp-newreno"'
    r = vidcc.run(parse_scenario(doc(flows, duration="30s")))
    fs = r.tables["flow_summary"]
    assert list(fs["flow"]) == [0, 1]
    assert (fs["throughput_bps"] > 200_000).all(), fs["throughput_bps"].tolist()
    assert fs["throughput_bps"].sum() > 1_800_000
    assert list(r.tables["flows"]["protocol"]) == ["gaimd", "tcp-newreno"]
