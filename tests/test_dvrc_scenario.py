"""`dvrc` flows in scenario files: every key, its one-line errors, resolution, and a run."""

import pytest

import vidcc
from scenario_testing import assert_error_at, droptail, dumbbell, first_protocol
from scenario_testing import scenario_error as error
from vidcc import parse_scenario

VIDEO = 'video = { model = "tes-mpeg4", layers = ["128kbps", "256kbps", "512kbps", "768kbps", "1024kbps"] }'


def doc(flow: str = "", duration: str = "10s", bw: str = "10Mbps") -> str:
    return dumbbell(f'protocol = "dvrc"\n{VIDEO}\n{flow}', duration=duration, bandwidth=bw, delay="25ms",
                    queue=droptail(10), access_bandwidth="10Mbps", access_delay="5ms")


def resolved(flow: str = "") -> dict:
    return first_protocol(doc(flow))


def test_defaults_resolve_to_every_rust_field():
    assert resolved() == {
        "kind": "dvrc",
        "gamma": 0.9,
        "delta": 4.0,
        "epsilon": 0.25,
        "dto_mode": "tcp_like",
        "alpha_i": 1.0,
        "alpha_d": -1.0,
        "beta_d": 0.5,
        "n": 1.5,
        "alpha_unit": "packets_per_rtt",
        "compare": "measured",
        "ad_guard": False,
        "rbar_gain": 0.125,
        "dbar_gain": 0.25,
        "rate_window_min_ns": 100_000_000,
        "rtt_fallback_ns": 100_000_000,
        "dto_guard": True,
        "dto_min_ns": 200_000_000,
        "min_rate_factor": 1.0,
        "max_rate_factor": 1.0,
        "pacing": False,
    }


def test_keys_in_user_units():
    p = resolved(
        'compare = "r_prev"\nalpha_unit = "packets_per_second"\ndto_mode = "paper_literal"\n'
        'rate_window_min = "480ms"\ndto_min = "0s"\nrtt_fallback = "70ms"\nn = 2\nbeta_d = 0.875\n'
        "ad_guard = true\npacing = true\ndto_guard = false\nmax_rate_factor = 1.5\nalpha_d = -0.5"
    )
    assert (p["compare"], p["alpha_unit"], p["dto_mode"]) == ("r_prev", "packets_per_second", "paper_literal")
    assert (p["rate_window_min_ns"], p["dto_min_ns"], p["rtt_fallback_ns"]) == (480_000_000, 0, 70_000_000)
    assert (p["n"], p["beta_d"], p["alpha_d"], p["max_rate_factor"]) == (2.0, 0.875, -0.5, 1.5)
    assert p["ad_guard"] and p["pacing"] and not p["dto_guard"]


@pytest.mark.parametrize(
    "flow, path, gist",
    [
        ("beta_d = 1.0", "flows[0].beta_d", "(0, 1)"),
        ("beta_d = 0", "flows[0].beta_d", "(0, 1)"),
        ("alpha_i = -1", "flows[0].alpha_i", "positive"),
        ("alpha_d = 1", "flows[0].alpha_d", "negative"),
        ("gamma = 1.5", "flows[0].gamma", "[0, 1]"),
        ("epsilon = -0.1", "flows[0].epsilon", "[0, 1]"),
        ("n = -1", "flows[0].n", "at least 0"),
        ("delta = -1", "flows[0].delta", "at least 0"),
        ('n = "1.5"', "flows[0].n", "expected a number"),
        ("rbar_gain = 0", "flows[0].rbar_gain", "(0, 1]"),
        ("dbar_gain = 2", "flows[0].dbar_gain", "(0, 1]"),
        ("min_rate_factor = 0", "flows[0].min_rate_factor", "(0, 1]"),
        ("max_rate_factor = 0.5", "flows[0].max_rate_factor", "at least 1"),
        ('compare = "rprev"', "flows[0].compare", "measured"),
        ('alpha_unit = "bps"', "flows[0].alpha_unit", "packets_per_rtt"),
        ('dto_mode = "tcp"', "flows[0].dto_mode", "paper_literal"),
        ("rtt_fallback = 100", "flows[0].rtt_fallback", "unit"),
        ('rtt_fallback = "0s"', "flows[0].rtt_fallback", "positive"),
        ('dto_min = "fast"', "flows[0].dto_min", ""),
        ("pacing = 1", "flows[0].pacing", "true or false"),
        ("colour = 1", "flows[0].colour", "unknown key"),
        ('packet_size = "70000B"', "flows[0].packet_size", "65535"),
    ],
)
def test_bad_values_name_the_key(flow, path, gist):
    assert_error_at(doc(flow), path, gist)


def test_video_must_be_layered():
    e = error(doc().replace('video = { model = "tes-mpeg4", layers = ["128kbps", "256kbps", "512kbps", "768kbps", "1024kbps"] }\n', ""))
    assert e.path == "flows[0].video" and "missing required key" in e.message, str(e)
    e = error(doc().replace('layers = ["128kbps", "256kbps", "512kbps", "768kbps", "1024kbps"]', 'rate = "1Mbps"'))
    assert e.path == "flows[0].video.layers" and "layered" in e.message, str(e)
    e = error(doc().replace('layers = ["128kbps", "256kbps", "512kbps", "768kbps", "1024kbps"]', 'streams = ["128kbps", "1Mbps"]'))
    assert e.path == "flows[0].video.streams" and "simulcast" in e.message, str(e)


def test_alone_it_reaches_full_quality_and_reports_layers():
    r = vidcc.run(parse_scenario(doc(duration="20s")))
    goodput = r.tables["flow_summary"]["goodput_bps"].iloc[0]
    assert goodput > 0.9 * 1_024_000, goodput
    ev = r.tables["events"]
    layers = ev[(ev["kind"] == "layers") & (ev["side"] == "sender")]["value"]
    assert list(layers)[0] == 1 and list(layers)[-1] == 5


def test_loss_classification_events_under_contention():
    text = doc(duration="30s", bw="1Mbps") + '\n[[flows]]\nprotocol = "tcp-reno"\n'
    r = vidcc.run(parse_scenario(text))
    ev = r.tables["events"]
    cls = ev[(ev["kind"] == "loss_class") & (ev["flow"] == 0)]["value"]
    assert len(cls) > 10
    assert set(cls) <= {0.0, 1.0}
