"""`qos-aimd` flows in scenario files: every key, its one-line errors, resolution, and runs."""

import pytest

import vidcc
from scenario_testing import SCENARIOS_DOC, assert_error_at, droptail, dumbbell, first_protocol
from vidcc import parse_scenario


def doc(flow: str = "", duration: str = "10s", bw: str = "10Mbps", delay: str = "20ms", limit: str = '"bdp"') -> str:
    return dumbbell(f'protocol = "qos-aimd"\n{flow}', duration=duration, bandwidth=bw, delay=delay, queue=droptail(limit))


def resolved(flow: str = "") -> dict:
    return first_protocol(doc(flow))


def test_defaults_resolve_to_every_rust_field():
    assert resolved() == {
        "kind": "qos-aimd",
        "beta": 0.875,
        "alpha": None,
        "rwnd_packets": 64,
        "initial_window_packets": 1,
        "initial_ssthresh_packets": None,
        "sackvec_bits": 16,
        "ack_ratio": 1,
        "ack_delay_ns": 100_000_000,
        "ack_size_bytes": 40,
        "dupthresh": 3,
        "initial_rto_ns": 1_000_000_000,
        "min_rto_ns": 1_000_000_000,
        "max_rto_ns": 60_000_000_000,
        "rto_granularity_ns": 500_000_000,
        "reduction_base": "flight",
        "timeout_ssthresh": "halve-ssthresh",
        "pacing": "srtt",
        "spacing_scope": "window-bursts",
        "idle_restart": True,
        "buffer_max_age_ns": 1_000_000_000,
        "buffer_max_packets": 1000,
    }


def test_keys_in_user_units():
    p = resolved(
        'beta = 0.5\nalpha = 1\nrwnd = 20\ninitial_window = 2\ninitial_ssthresh = 8\nsackvec_bits = 8\n'
        'ack_ratio = 2\nack_delay = "40ms"\nack_size = "64B"\ndupthresh = 4\ninitial_rto = "3s"\n'
        'min_rto = "200ms"\nmax_rto = "10s"\nrto_granularity = "0s"\nreduction_base = "cwnd"\n'
        'timeout_ssthresh = "half-flight"\npacing = "off"\nidle_restart = false\nbuffer_max_age = "500ms"\n'
        "buffer_max_packets = 50"
    )
    assert (p["beta"], p["alpha"], p["rwnd_packets"], p["initial_window_packets"]) == (0.5, 1.0, 20, 2)
    assert (p["initial_ssthresh_packets"], p["sackvec_bits"], p["ack_ratio"], p["ack_delay_ns"]) == (8, 8, 2, 40_000_000)
    assert (p["ack_size_bytes"], p["dupthresh"], p["initial_rto_ns"], p["min_rto_ns"]) == (64, 4, 3_000_000_000, 200_000_000)
    assert (p["max_rto_ns"], p["rto_granularity_ns"], p["reduction_base"]) == (10_000_000_000, 0, "cwnd")
    assert (p["timeout_ssthresh"], p["pacing"], p["idle_restart"]) == ("half-flight", "off", False)
    assert (p["buffer_max_age_ns"], p["buffer_max_packets"]) == (500_000_000, 50)


@pytest.mark.parametrize(
    "flow, path, gist",
    [
        ("beta = 1.0", "flows[0].beta", "(0, 1)"),
        ("beta = 0", "flows[0].beta", "(0, 1)"),
        ('beta = "0.8"', "flows[0].beta", "expected a number"),
        ("alpha = 0", "flows[0].alpha", "positive"),
        ("rwnd = 0", "flows[0].rwnd", "at least 1"),
        ("rwnd = 70000", "flows[0].rwnd", "at most 65535"),
        ("initial_window = 0", "flows[0].initial_window", "at least 1"),
        ("initial_ssthresh = 0", "flows[0].initial_ssthresh", "at least 1"),
        ("sackvec_bits = 500", "flows[0].sackvec_bits", "at most 432"),
        ("ack_ratio = 0", "flows[0].ack_ratio", "at least 1"),
        ("ack_ratio = 18", "flows[0].ack_ratio", "1 + sackvec_bits = 17"),
        ('ack_ratio = 2\nack_delay = "0s"', "flows[0].ack_delay", "positive"),
        ('ack_size = "11B"', "flows[0].ack_size", "at least the ack header (12B"),
        ("ack_size = 40", "flows[0].ack_size", "unit"),
        ("dupthresh = 0", "flows[0].dupthresh", "at least 1"),
        ('min_rto = "0s"', "flows[0].min_rto", "positive"),
        ('max_rto = "500ms"', "flows[0].max_rto", "at least min_rto"),
        ('reduction_base = "window"', "flows[0].reduction_base", '"flight"'),
        ('timeout_ssthresh = "half"', "flows[0].timeout_ssthresh", '"halve-ssthresh"'),
        ('pacing = "on"', "flows[0].pacing", '"srtt"'),
        ("idle_restart = 1", "flows[0].idle_restart", "true or false"),
        ("buffer_max_packets = 0", "flows[0].buffer_max_packets", "at least 1"),
        ('packet_size = "63B"', "flows[0].packet_size", "at least 64B"),
        ("colour = 1", "flows[0].colour", "unknown key"),
    ],
)
def test_bad_values_name_the_key(flow, path, gist):
    assert_error_at(doc(flow), path, gist)


def test_alone_it_fills_an_uncongested_link():
    r = vidcc.run(parse_scenario(doc(duration="20s")))
    thr = r.tables["flow_summary"]["throughput_bps"].iloc[0]
    assert thr > 0.9 * 10_000_000, thr
    assert r.tables["flow_summary"]["goodput_bps"].iloc[0] > 0.85 * 10_000_000


def test_paper_last_hop_window_from_the_selection():
    """The cross-layer selection's rwnd (W_max = 20 for p_e = 0.1, R = 17, D = 10) on a loss-free
    200 kbit/s last hop with B = rwnd and 125-byte packets: full link, no loss (docs/papers/qos-aimd.md §2.3)."""
    from vidcc.qos_aimd_select import select

    w = select(0.1, 17, 10)["windows"][0]
    assert w == 20
    text = doc(f'packet_size = "125B"\nrwnd = {w}', duration="30s", bw="200kbps", delay="37ms", limit=str(w))
    r = vidcc.run(parse_scenario(text))
    s = r.tables["flow_summary"]
    assert s["throughput_bps"].iloc[0] > 0.98 * 200_000
    assert s["dropped_queue"].iloc[0] == 0


def test_video_flow_carries_frames():
    text = doc('video = { model = "tes-mpeg4", rate = "1Mbps" }', duration="20s")
    r = vidcc.run(parse_scenario(text))
    v = r.tables["video_summary"]
    assert v["frames_sent"].iloc[0] > 400
    assert v["frames_decodable"].iloc[0] / v["frames_sent"].iloc[0] > 0.99
    ev = r.tables["events"]
    assert set(ev[ev["flow"] == 0]["kind"]) <= {"window", "loss_event", "timeout"}


def test_every_key_is_documented():
    from vidcc.protocols.qos_aimd import QosAimdFlow

    text = SCENARIOS_DOC.read_text()
    section = text[text.index("### `qos-aimd`"):]
    section = section[: section.index("\n## ") if "\n## " in section else len(section)]
    missing = [k for k in QosAimdFlow.model_fields if f"`{k}`" not in section and k not in (
        "count", "packet_size", "start", "stop", "send_jitter", "label", "direction", "span", "src", "dst",
        "source_access", "sink_access", "receivers", "join_latency", "leave_latency", "protocol")]
    assert not missing, missing
