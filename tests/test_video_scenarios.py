"""Video flows in scenario files: validation, resolution, and a run's frame tables."""

import pytest

import vidcc
from scenario_testing import ROOT, assert_error_at, dumbbell
from vidcc import ScenarioError, load_scenario, parse_scenario


def doc(flow: str) -> str:
    return dumbbell(f'protocol = "udp"\n{flow}', warmup="1s")


@pytest.mark.parametrize(
    "flow, path, gist",
    [
        ("", "flows[0].video", "missing required key"),
        ('video = { model = "tes-mpeg4" }', "flows[0].video.rate", "needs a rate"),
        ('video = { model = "tes-mpeg4", rate = "1Mbps", gop = "PBB" }', "flows[0].video.gop", "I"),
        ('video = { model = "tes-mpeg4", layers = ["256kbps", "128kbps"] }', "flows[0].video.layers", "cumulative"),
        ('video = { model = "cbr", layers = ["128kbps"], streams = ["1Mbps"] }', "flows[0].video.streams", "exclude"),
        ('video = { model = "cbr", rate = "1Mbps", layers = ["128kbps", "512kbps"] }', "flows[0].video.rate", "full-quality"),
        ('video = { model = "cbr", rate = "1Mbps", playout_delay = "1s", deadline = "100ms" }', "flows[0].video.deadline", "exclude"),
        (
            'video = { model = "cbr", rate = "1Mbps", deadline = "150ms", deadline_from = "arrival" }',
            "flows[0].video.deadline_from",
            'expected one of "ready" or "send", got "arrival"',
        ),
        ('video = { model = "cbr", rate = "1Mbps", deadline_from = "send" }', "flows[0].video.deadline_from", "only with deadline"),
        ('layers_sent = 3\nvideo = { model = "cbr", layers = ["128kbps", "256kbps"] }', "flows[0].layers_sent", "2 layers"),
        ('video = { model = "trace" }', "flows[0].video.trace", "missing required key"),
        ('video = { model = "trace", trace = "nope.txt" }', "flows[0].video.trace", "cannot read"),
        ('video = { model = "cbr", rate = "1Mbps", fps = 0 }', "flows[0].video.fps", ""),
        ('video = { model = "cbr", rate = "1Mbit" }', "flows[0].video.rate", "unknown unit"),
        ('video = { model = "mpeg2", rate = "1Mbps" }', "flows[0].video.model", ""),
        ('video = { model = "cbr", rate = "1Mbps", colour = "red" }', "flows[0].video.colour", "unknown key"),
    ],
)
def test_bad_video_tables(flow, path, gist):
    assert_error_at(doc(flow), path, gist)


def test_video_not_on_bulk_only_protocols():
    text = doc('video = { model = "cbr", rate = "1Mbps" }').replace('protocol = "udp"', 'protocol = "udp-cbr"\nrate = "1Mbps"')
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text)
    assert e.value.path == "flows[0].video" and "unknown key" in e.value.message


def test_tcp_carries_video_but_not_with_a_finite_transfer():
    text = doc('video = { model = "cbr", rate = "1Mbps" }').replace('protocol = "udp"', 'protocol = "tcp-westwood-plus"')
    flow = parse_scenario(text).resolve()["flows"][0]
    assert flow["protocol"]["kind"] == "tcp-westwood-plus" and flow["video"]["model"]["rate_bps"] == 1_000_000
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text.replace('protocol = "tcp-westwood-plus"', 'protocol = "tcp-westwood-plus"\ntransfer = "1MB"'))
    assert e.value.path == "flows[0].transfer" and "not both" in e.value.message


def test_malformed_trace_names_the_file_and_line(tmp_path):
    (tmp_path / "t.txt").write_text("I 4000\nP 2000\nX 100\n")
    scenario = tmp_path / "s.toml"
    scenario.write_text(doc('video = { model = "trace", trace = "t.txt", trace_format = "plain" }'))
    with pytest.raises(ScenarioError) as e:
        load_scenario(scenario)
    assert e.value.path == "flows[0].video.trace"
    assert "t.txt" in e.value.message and "line 3" in e.value.message, str(e.value)


def test_resolution_reads_the_trace_relative_to_the_scenario():
    s = load_scenario(ROOT / "scenarios" / "video-trace.toml")
    v = s.resolve()["flows"][0]["video"]
    assert v["model"]["kind"] == "trace" and v["model"]["format"] == "plain"
    assert v["model"]["text"] == (ROOT / "scenarios" / "traces" / "synthetic-cif.txt").read_text()
    assert v["playout"] == {"kind": "ready-time", "delay_ns": 150_000_000}
    assert v["fps"] == 25.0 and v["gop"] == "IBBPBBPBBPBB"


def test_deadline_from_selects_the_playout_anchor():
    video = 'video = {{ model = "cbr", rate = "1Mbps", deadline = "150ms"{} }}'
    playout = [
        parse_scenario(doc(video.format(extra))).resolve()["flows"][0]["video"]["playout"]
        for extra in ("", ', deadline_from = "ready"', ', deadline_from = "send"')
    ]
    assert playout[0] == playout[1] == {"kind": "ready-time", "delay_ns": 150_000_000}
    assert playout[2] == {"kind": "send-time", "delay_ns": 150_000_000}


def test_send_anchored_deadlines_follow_the_decode_order():
    # Frames leave in decode order (I0 P3 B1 B2 P6 …, the k-th at start + k·40 ms), every packet
    # of a frame at once: from the send time, P3 is due 80 ms earlier than from its ready time
    # (its display slot), B1 40 ms later; I0 leaves at its slot.
    def deadlines(extra: str):
        video = f'video = {{ model = "tes-mpeg4", rate = "1Mbps", deadline = "150ms"{extra} }}'
        frames = vidcc.run(parse_scenario(dumbbell(f'protocol = "udp"\n{video}', duration="2s", warmup=None)))
        frames = frames.tables["frames"].set_index("frame")
        return frames["deadline_ns"] - frames["ready_ns"]

    ready, send = deadlines(""), deadlines(', deadline_from = "send"')
    assert set(ready) == {150_000_000}
    assert [send[n] for n in (0, 1, 2, 3)] == [150_000_000, 190_000_000, 190_000_000, 70_000_000]


def test_layered_resolution_defaults():
    v = parse_scenario(doc('video = { model = "tes-mpeg4", layers = ["128kbps", "1Mbps"] }')).resolve()["flows"][0]
    assert v["protocol"] == {"kind": "udp", "layers_sent": None}
    assert v["video"]["model"] == {"kind": "tes-mpeg4", "rate_bps": 1_000_000}  # the top layer
    assert v["video"]["layers_bps"] == [128_000, 1_000_000]
    assert v["video"]["playout"] == {"kind": "first-arrival", "delay_ns": 1_000_000_000}
    assert v["video"]["delayed_threshold_ns"] == 75_000_000


def test_layered_run_reports_frames_and_video_metrics():
    r = vidcc.run(ROOT / "scenarios" / "video-layered.toml")
    frames, video = r.tables["frames"], r.tables["video_summary"]
    assert set(frames["status"]) <= {"ok", "lost", "late", "dependency", "unsent", "pending"}
    assert list(video["flow"]) == [0]
    row = video.iloc[0]
    assert row["frames_sent"] > 1000  # about 57 s of 25 fps measured
    assert abs(row["vdi"] + row["delayed_packet_rate"] + row["packet_drop_rate"] - 1) < 1e-9
    # 1 Mbps of video against two TCP flows on 2 Mbps: packets drop, the base layer mostly gets through.
    assert row["packet_drop_rate"] > 0.01
    assert (frames["layers_decodable"] >= 1).mean() > 0.8


def test_trace_run_loses_frames_on_the_lossy_hop():
    r = vidcc.run(ROOT / "scenarios" / "video-trace.toml")
    st = r.tables["frames"]["status"].value_counts()
    assert st.get("lost", 0) > 0 and st.get("ok", 0) > st.get("lost", 0)
