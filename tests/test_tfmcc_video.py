"""Video over TFMCC: the rate-adaptive set (`traces = [...]`) in the scenario format, its errors,
its resolved form, and a multicast run whose per-receiver frames `vidcc video quality` scores."""

from __future__ import annotations

import json

import pytest

from scenario_testing import assert_error_at, dumbbell
from vidcc import ScenarioError, load_scenario, run
from vidcc.video import clip, evaluate_run, prepare

QS = [2, 10, 31]

GRAPH = """
[scenario]
duration = "{duration}"
warmup = "0s"

[topology]
kind = "graph"
nodes = ["S", "R", "A", "B"]
links = [
  {{ a = "S", b = "R", bandwidth = "100Mbps", delay = "1ms" }},
  {{ a = "R", b = "A", bandwidth = "{slow}", delay = "20ms", queue = {{ kind = "droptail", limit = 30 }} }},
  {{ a = "R", b = "B", bandwidth = "4Mbps", delay = "20ms", queue = {{ kind = "droptail", limit = 30 }} }},
]

[[flows]]
protocol = "tfmcc"
src = "S"
dst = ["A", "B"]
video = {{ model = "trace", traces = [{traces}], trace_format = "{fmt}"{extra} }}
"""


def write_traces(d, frames: int = 24, sizes=(6000, 3000, 600)) -> list[str]:
    """Plain traces (display order, IBBPBBPBBPBB) with per-type sizes scaled per quantizer."""
    names = []
    for q, size in zip(QS, sizes):
        name = f"q{q}.txt"
        lines = [f"{t} {size * (4 if t == 'I' else 2 if t == 'P' else 1)}" for t in ("IBBPBBPBBPBB" * frames)[:frames]]
        (d / name).write_text("\n".join(lines) + "\n")
        names.append(name)
    return names


def scenario(tmp_path, traces, *, fmt="plain", extra="", duration="3s", slow="1Mbps"):
    s = tmp_path / "s.toml"
    listed = ", ".join(f'"{t}"' for t in traces)
    s.write_text(GRAPH.format(duration=duration, slow=slow, traces=listed, fmt=fmt, extra=extra))
    return s


def error(path):
    with pytest.raises(ScenarioError) as e:
        load_scenario(path)
    return e.value


def test_traces_resolve_to_a_rate_adaptive_set_in_the_list_order(tmp_path):
    names = write_traces(tmp_path)
    s = scenario(tmp_path, names, extra=", quantizers = [2, 10, 31], adapt = \"long-run-mean\"")
    v = load_scenario(s).resolve()["flows"][0]["video"]
    m = v["model"]
    assert m["kind"] == "rate-adaptive" and m["format"] == "plain" and m["criterion"] == "long-run-mean"
    assert [t["quantizer"] for t in m["traces"]] == QS
    assert m["traces"][1]["text"] == (tmp_path / "q10.txt").read_text()


def test_quantizers_come_from_the_prepared_manifest(tmp_path):
    names = write_traces(tmp_path)
    manifest = {"encodings": [{"quantizer": q, "trace": n} for q, n in zip(QS, names)]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    m = load_scenario(scenario(tmp_path, [names[2], names[0]])).resolve()["flows"][0]["video"]["model"]
    assert [t["quantizer"] for t in m["traces"]] == [31, 2]


@pytest.mark.parametrize(
    "extra, path, gist",
    [
        ("", "flows[0].video.quantizers", "manifest.json"),
        (", quantizers = [2, 10]", "flows[0].video.quantizers", "one quantizer per trace"),
        (", quantizers = [2, 2, 31]", "flows[0].video.quantizers", "its own quantizer"),
        (", quantizers = [2, 10, 300]", "flows[0].video.quantizers", ""),
        (', quantizers = [2, 10, 31], trace = "q2.txt"', "flows[0].video.traces", "exclude"),
        (', quantizers = [2, 10, 31], layers = ["1Mbps"]', "flows[0].video.traces", "neither layered"),
    ],
)
def test_bad_rate_adaptive_sets_name_the_key(tmp_path, extra, path, gist):
    s = scenario(tmp_path, write_traces(tmp_path), extra=extra)
    e = error(s)
    assert e.path.startswith(path) and gist in e.message, (e.path, e.message)


def test_traces_of_different_clips_and_unreadable_traces_are_refused(tmp_path):
    names = write_traces(tmp_path)
    (tmp_path / "short.txt").write_text("I 100\nP 50\n")
    e = error(scenario(tmp_path, [names[0], "short.txt"], extra=", quantizers = [2, 31]"))
    assert e.path == "flows[0].video.traces" and "frame counts differ" in e.message
    e = error(scenario(tmp_path, [names[0], "nope.txt"], extra=", quantizers = [2, 31]"))
    assert e.path == "flows[0].video.traces[1]" and "cannot read" in e.message


def test_only_protocols_that_steer_a_set_take_one(tmp_path):
    names = write_traces(tmp_path)
    text = dumbbell(
        'protocol = "udp"\nvideo = { model = "trace", trace_format = "plain", '
        f'traces = ["{names[0]}", "{names[1]}"], quantizers = [2, 10] }}'
    )
    (tmp_path / "u.toml").write_text(text)
    e = error(tmp_path / "u.toml")
    assert e.path == "flows[0].video.traces" and "tfmcc" in e.message
    assert_error_at(dumbbell('protocol = "udp"\nvideo = { model = "cbr", rate = "1Mbps", adapt = "long-run-mean" }'),
                    "flows[0].video.adapt", "only with traces")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    src = clip.generate(tmp_path_factory.mktemp("clip") / "clip.y4m", seconds=2)
    out = tmp_path_factory.mktemp("prep") / "prep"
    prepare(src, out, quantizers=",".join(map(str, QS)), jobs=2)
    return out


def test_a_tfmcc_run_gives_each_receiver_frames_that_quality_scores(tmp_path, prepared):
    # The prepared traces (Evalvid, decode order) beside their manifest: quantizers from it.
    traces = [str(prepared / f"q{q}.trace") for q in QS]
    s = scenario(tmp_path, traces, fmt="evalvid", duration="30s", slow="1Mbps")
    r = run(s)
    r.write(tmp_path / "run", figures=False)
    frames = r.tables["frames"]
    assert sorted(frames["receiver"].unique()) == [0, 1]
    per = frames.groupby("receiver").size()
    assert per[0] == per[1] and per[0] > 25 * 20
    # The rate starts at one packet per 500 ms, so the first GOP is the smallest (q31, index 2);
    # later the rate fits larger traces.
    first = frames[frames["receiver"] == 1].sort_values("frame")
    assert first["encoding"].iloc[0] == 2
    assert set(first["encoding"]) != {2}, "the quantizer never changed"
    q = evaluate_run(tmp_path / "run")
    by = {(f["flow"], f["receiver"]): f for f in q.flows}
    assert set(by) == {(0, 0), (0, 1)}
    for f in by.values():
        assert f["usable_frames"] > 0 and 10 < f["mean_psnr_db"] < 100 and 0 < f["mean_ssim"] <= 1
        assert 1 <= f["mean_mos"] <= 5
        assert set(f["quantizers_shown"]) <= {"2", "10", "31"}
    assert set(q.frames["receiver"]) == {0, 1}
    assert (tmp_path / "run" / "quality.json").exists()
