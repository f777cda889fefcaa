"""`vidcc video prepare` and `vidcc video quality` on a short generated clip (docs/video.md).

One prepared directory (2 s of the generated CIF clip at q = 2, 10, 31) serves the module; each
test builds its own frames table by hand, as the simulator's `frames.parquet` would hold it."""

from __future__ import annotations

import json
import math
import struct
import subprocess
import sys
from pathlib import Path

import av
import numpy as np
import pandas as pd
import pytest

from vidcc.video import VideoError, clip, evaluate, evaluate_run, prepare, psnr, read_trace, ssim
from vidcc.video.metrics import mos
from vidcc.video.yuv import YuvFile

FPS, SECONDS, W, H = 25, 2, 352, 288
N = FPS * SECONDS
QS = [2, 10, 31]
VIDCC = Path(sys.executable).parent / "vidcc"


@pytest.fixture(scope="module")
def clip_y4m(tmp_path_factory) -> Path:
    return clip.generate(tmp_path_factory.mktemp("clip") / "clip.y4m", seconds=SECONDS)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory, clip_y4m) -> Path:
    out = tmp_path_factory.mktemp("prep") / "prep"
    prepare(clip_y4m, out, quantizers=",".join(map(str, QS)), jobs=2)
    return out


@pytest.fixture(scope="module")
def manifest(prepared) -> dict:
    return json.loads((prepared / "manifest.json").read_text())


def frames_table(manifest, n: int = N, flow: int = 0, **columns) -> pd.DataFrame:
    """All frames decodable, encoding 0, one layer: the loss-free run."""
    df = pd.DataFrame({
        "flow": np.full(n, flow, np.uint64),
        "frame": np.arange(n, dtype=np.uint64),
        "frame_type": [manifest["frame_types"][k % manifest["frames"]] for k in range(n)],
        "encoding": np.zeros(n, np.uint64),
        "layers_sent": np.ones(n, np.uint64),
        "layers_decodable": np.ones(n, np.uint64),
        "decodable": np.ones(n, bool),
        "status": ["ok"] * n,
    })
    for k, v in columns.items():
        df[k] = v
    return df


def lose(df: pd.DataFrame, frames, status: str = "lost") -> pd.DataFrame:
    df = df.copy()
    idx = df.index[df["frame"].isin(list(frames))]
    df.loc[idx, "decodable"] = False
    df.loc[idx, "status"] = status
    return df


# ---------------------------------------------------------------------------------------------
# prepare


def test_prepare_writes_every_file_and_the_manifest(prepared, manifest):
    m = manifest
    assert m["codec"] == "mpeg4" and (m["width"], m["height"], m["fps"], m["frames"]) == (W, H, "25", N)
    assert (m["gop"], m["bframes"], m["pattern"]) == (12, 2, "IBBPBBPBBPBB")
    assert m["quantizers"] == QS and [e["index"] for e in m["encodings"]] == [0, 1, 2]
    assert m["trace_order"] == "decode" and m["trace_frame_id"] == "display index, 0-based"
    for e in m["encodings"]:
        q = e["quantizer"]
        assert e["bitstream"] == f"q{q}.m4v" and e["trace"] == f"q{q}.trace" and e["decoded"] == f"q{q}.decoded.yuv"
        for name in (e["bitstream"], e["trace"], e["decoded"]):
            assert (prepared / name).stat().st_size > 0
        assert YuvFile(prepared / e["decoded"], W, H).frames == N
    assert (prepared / "original.yuv").stat().st_size == N * W * H * 3 // 2


def test_original_is_the_input(prepared, clip_y4m):
    orig = YuvFile(prepared / "original.yuv", W, H)
    for k, (y, u, v) in enumerate(clip.frames(seconds=SECONDS)):
        assert np.array_equal(orig.frame(k), np.concatenate([y.ravel(), u.ravel(), v.ravel()]).reshape(H * 3 // 2, W))


def test_traces_follow_the_gop_in_decode_order(prepared, manifest):
    types = manifest["frame_types"]
    assert len(types) == N
    # Display order: IBBPBBPBBPBB repeated; B frames after the clip's last anchor have no
    # forward reference, and the encoder codes them as P.
    last_anchor = max(k for k in range(N) if k % 3 == 0)
    expected = "".join("I" if k % 12 == 0 else "P" if k % 3 == 0 or k > last_anchor else "B" for k in range(N))
    assert types == expected
    for e in manifest["encodings"]:
        rows = read_trace(prepared / e["trace"])
        ids = [r[0] for r in rows]
        assert len(rows) == N and sorted(ids) == list(range(N))
        assert all(r[1] == types[r[0]] for r in rows)
        # Decode order: every frame comes after the anchors it references.
        pos = {fid: i for i, fid in enumerate(ids)}
        anchors = [k for k in range(N) if types[k] != "B"]
        for k in range(N):
            if types[k] == "B":
                prev = max(a for a in anchors if a < k)
                nxt = min(a for a in anchors if a > k)
                assert pos[prev] < pos[k] and pos[nxt] < pos[k]
            elif types[k] == "P":
                assert pos[max(a for a in anchors if a < k)] < pos[k]
        assert ids[:7] == [0, 3, 1, 2, 6, 4, 5]
        for i, (fid, t, size, packets, time) in enumerate(rows):
            assert packets == math.ceil(size / 1000) and time == pytest.approx(i / FPS, abs=1e-9)
        assert sum(r[2] for r in rows) == (prepared / e["bitstream"]).stat().st_size == e["bytes"]
        assert e["frame_count"] == {t: types.count(t) for t in "IPB"}


def test_bitrate_and_psnr_fall_with_the_quantizer(manifest):
    enc = manifest["encodings"]
    rates = [e["mean_bitrate_bps"] for e in enc]
    assert rates[0] > rates[1] > rates[2]
    assert [e["mean_psnr_db"] for e in enc] == sorted((e["mean_psnr_db"] for e in enc), reverse=True)
    assert enc[0]["mean_psnr_db"] > 38 and enc[2]["mean_psnr_db"] < 33  # the clip has real detail
    for e in enc:
        assert e["mean_bitrate_bps"] == pytest.approx(e["bytes"] * 8 * FPS / N)


def test_manifest_psnr_is_the_psnr_of_the_decoded_frames(prepared, manifest):
    orig = YuvFile(prepared / "original.yuv", W, H)
    table = pd.read_parquet(prepared / "encodings.parquet")
    for e in manifest["encodings"]:
        dec = YuvFile(prepared / e["decoded"], W, H)
        per_frame = psnr(orig.y(np.arange(N)), dec.y(np.arange(N)))
        assert e["mean_psnr_db"] == pytest.approx(float(np.mean(per_frame)), abs=1e-12)
        assert e["mean_ssim"] == pytest.approx(float(np.mean(ssim(orig.y(np.arange(N)), dec.y(np.arange(N))))), abs=1e-12)
        rows = table[table["encoding"] == e["index"]].sort_values("frame")
        assert np.array_equal(rows["psnr_db"].to_numpy(), per_frame)


def _macroblock_quantizers(path: Path) -> set[int]:
    """Quantisers FFmpeg's decoder reports for every macroblock (AVVideoEncParams side data; the
    frame the decoder returns while flushing at the end of the file carries none)."""
    found = set()
    with av.open(str(path)) as c:
        s = c.streams.video[0]
        s.codec_context.options = {"export_side_data": "venc_params"}
        frames = list(c.decode(s))
        with_data = [f for f in frames if len(list(f.side_data)) == 1]
        assert len(with_data) >= len(frames) - 1
        for frame in with_data:
            (data,) = [bytes(sd) for sd in frame.side_data]
            nb_blocks, = struct.unpack_from("<I", data, 0)
            offset, block_size = struct.unpack_from("<QQ", data, 8)
            _, frame_qp = struct.unpack_from("<ii", data, 24)
            for b in range(nb_blocks):
                found.add(frame_qp + struct.unpack_from("<i", data, offset + b * block_size + 16)[0])
    return found


def test_every_macroblock_is_coded_at_the_quantizer(prepared):
    # FFmpeg exports MPEG-4 quantisers doubled (on the H.264-like QP scale).
    for q in QS:
        assert _macroblock_quantizers(prepared / f"q{q}.m4v") == {2 * q}


def test_prepare_reads_raw_yuv_with_size_and_fps(tmp_path):
    raw = clip.generate(tmp_path / "c.yuv", seconds=0.6, size=(176, 144))
    m = prepare(raw, tmp_path / "p", size="176x144", fps="25", quantizers="31", max_frames=12, jobs=1)
    assert (m["width"], m["height"], m["frames"]) == (176, 144, 12)
    assert len(read_trace(tmp_path / "p" / "q31.trace")) == 12


def test_prepare_with_x264(tmp_path, clip_y4m):
    m = prepare(clip_y4m, tmp_path / "p", codec="libx264", quantizers="20,40", max_frames=24, jobs=1)
    assert [e["bitstream"] for e in m["encodings"]] == ["q20.264", "q40.264"]
    assert m["encodings"][0]["mean_bitrate_bps"] > m["encodings"][1]["mean_bitrate_bps"]
    assert m["frame_types"][0] == "I" and m["frame_types"][12] == "I" and "B" in m["frame_types"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(input="nope.y4m"), "nope.y4m: no such file"),
        (dict(input="{dir}/c.yuv"), "needs --size"),
        (dict(input="{dir}/c.yuv", size="352by288"), "invalid size '352by288': expected WIDTHxHEIGHT"),
        (dict(input="{dir}/c.yuv", size="160x120"), "304128 bytes is not a whole number of 160x120 4:2:0 frames"),
        (dict(input="{dir}/c.yuv", size="351x288"), "must be even"),
        (dict(quantizers="0-31"), "quantizer 0 is outside 1–31, the range of mpeg4"),
        (dict(quantizers="2-40"), "quantizer 32 is outside 1–31"),
        (dict(quantizers="2,x"), "'x' is not a number"),
        (dict(quantizers="31-2"), "end is below the start"),
        (dict(input="{dir}/text.mp4"), "cannot read as video"),
        (dict(gop=3, bframes=3), "3 B frames do not fit in a GOP of 3"),
        (dict(codec="vp9"), "unknown codec 'vp9'"),
        (dict(fps="fast"), "invalid frame rate 'fast'"),
        (dict(packet_size=0), "invalid packet size"),
    ],
)
def test_prepare_errors_are_one_clear_line(tmp_path, clip_y4m, kwargs, message):
    (tmp_path / "c.yuv").write_bytes(bytes(352 * 288 * 3 // 2 * 2))
    (tmp_path / "text.mp4").write_text("not a video\n")
    kwargs = dict(kwargs)
    inp = kwargs.pop("input", str(clip_y4m)).format(dir=tmp_path)
    with pytest.raises(VideoError) as err:
        prepare(inp, tmp_path / "out", **{"quantizers": "31", **kwargs})
    assert message in str(err.value)
    assert "\n" not in str(err.value)


# ---------------------------------------------------------------------------------------------
# quality


def test_lossless_run_scores_the_encoders_own_psnr(prepared, manifest):
    for e in manifest["encodings"]:
        q = evaluate(frames_table(manifest, encoding=np.full(N, e["index"], np.uint64)), prepared)
        f = q.flows[0]
        assert f["mean_psnr_db"] == e["mean_psnr_db"]  # exactly: same frames, same function
        assert f["mean_ssim"] == e["mean_ssim"]
        assert f["concealed_frames"] == 0 and f["quantizers_shown"] == {str(e["quantizer"]): N}
        assert q.frames["shown_frame"].tolist() == list(range(N))


def test_lost_i_frame_conceals_its_gop(prepared, manifest):
    base = evaluate(frames_table(manifest), prepared).flows[0]
    # The simulator's verdict for a lost I frame 12: B10, B11 (which reference it) and the rest
    # of its GOP up to the next I frame (P15 ... B23 depend on it) are unusable.
    df = lose(frames_table(manifest), [12], "lost")
    df = lose(df, [10, 11] + list(range(13, 24)), "dependency")
    q = evaluate(df, prepared)
    f = q.flows[0]
    fr = q.frames.set_index("frame")
    assert f["concealed_frames"] == 14 and f["usable_frames"] == N - 14
    assert fr.loc[10:23, "shown_frame"].tolist() == [9] * 14  # frozen on the last shown frame
    assert fr.loc[24, "shown_frame"] == 24
    # Each concealed slot is the decoded frame 9 against the original of its own slot.
    orig = YuvFile(prepared / "original.yuv", W, H)
    dec = YuvFile(prepared / "q2.decoded.yuv", W, H)
    for k in (10, 12, 23):
        assert fr.loc[k, "psnr_db"] == pytest.approx(psnr(orig.y(k), dec.y(9)), abs=1e-12)
        assert fr.loc[k, "mos"] == mos(fr.loc[k, "psnr_db"])
    assert f["mean_psnr_db"] < base["mean_psnr_db"] - 2
    assert f["share_mos_ge_4"] < base["share_mos_ge_4"]
    assert f["mean_ssim"] < base["mean_ssim"]
    assert f["status_counts"] == {"dependency": 13, "lost": 1, "ok": N - 14}


def test_lost_b_frame_conceals_only_itself(prepared, manifest):
    q = evaluate(lose(frames_table(manifest), [4]), prepared)
    assert q.flows[0]["concealed_frames"] == 1
    assert q.frames["shown_frame"].tolist() == [k if k != 4 else 3 for k in range(N)]


def test_first_frames_lost_show_grey(prepared, manifest):
    q = evaluate(lose(frames_table(manifest), range(0, 12)), prepared)
    f, fr = q.flows[0], q.frames
    assert f["grey_frames"] == 12 and fr["shown_frame"].tolist()[:13] == [-1] * 12 + [12]
    orig = YuvFile(prepared / "original.yuv", W, H)
    grey = np.full((H, W), 128, np.uint8)
    assert fr.loc[5, "psnr_db"] == pytest.approx(psnr(orig.y(5), grey), abs=1e-12)
    assert fr.loc[5, "shown_quantizer"] == -1 and fr.loc[5, "mos"] == 1


def test_mos_shares_add_up(prepared, manifest):
    f = evaluate(lose(frames_table(manifest), range(5, 30)), prepared).flows[0]
    shares = [f["mos_share"][str(k)] for k in range(1, 6)]
    assert sum(shares) == pytest.approx(1.0)
    assert f["mean_mos"] == pytest.approx(sum(k * s for k, s in zip(range(1, 6), shares)))
    assert f["share_mos_ge_4"] == pytest.approx(shares[3] + shares[4])
    assert f["mos_of_mean_psnr"] == mos(f["mean_psnr_db"])


def test_rate_adaptive_run_follows_the_encoding_of_each_gop(prepared, manifest):
    gop_enc = np.array([0, 2, 1, 2, 0])[np.arange(N) // 12]
    q = evaluate(frames_table(manifest, encoding=gop_enc.astype(np.uint64)), prepared)
    table = pd.read_parquet(prepared / "encodings.parquet").set_index(["encoding", "frame"])
    expected = [table.loc[(int(e), k), "psnr_db"] for k, e in enumerate(gop_enc)]
    assert q.frames["psnr_db"].tolist() == expected
    assert q.frames["shown_quantizer"].tolist() == [QS[e] for e in gop_enc]
    # --encodings: index i means the i-th quantizer of the given list.
    q2 = evaluate(frames_table(manifest, encoding=(gop_enc > 0).astype(np.uint64)), prepared, encodings=[31, 10])
    assert q2.frames["shown_quantizer"].tolist() == [31 if e == 0 else 10 for e in gop_enc]


def test_layered_run_maps_layers_to_encodings(prepared, manifest):
    layers = np.array([1, 2, 3, 3, 0, 2] * 9)[:N]
    df = frames_table(manifest, layers_sent=np.full(N, 3, np.uint64), layers_decodable=layers.astype(np.uint64))
    q = evaluate(df, prepared, layer_quantizers=[31, 10, 2])
    fr = q.frames
    expected = [{1: 31, 2: 10, 3: 2}.get(int(L)) for L in layers]
    for k, want in enumerate(expected):
        if want is None:  # no decodable layer: concealed by the previous frame (which had 3)
            assert not fr.loc[k, "usable"] and fr.loc[k, "shown_frame"] == k - 1 and fr.loc[k, "shown_quantizer"] == 2
        else:
            assert fr.loc[k, "shown_quantizer"] == want
    assert q.flows[0]["model"] == "layered" and q.flows[0]["layer_quantizers"] == [31, 10, 2]
    with pytest.raises(VideoError, match="is layered .* no layer map"):
        evaluate(df, prepared)
    with pytest.raises(VideoError, match="3 decodable layers but the layer map has 2 entries"):
        evaluate(df, prepared, layer_quantizers=[31, 10])
    with pytest.raises(VideoError, match="quantizer 7 was not prepared"):
        evaluate(df, prepared, layer_quantizers=[31, 7, 2])


def test_run_longer_than_the_clip_wraps_missing_frames_conceal_pending_frames_end(prepared, manifest):
    n = N + 20
    df = frames_table(manifest, n=n)
    df.loc[df["frame"] >= n - 5, ["decodable", "status"]] = [False, "pending"]
    df = df[df["frame"] != 30]  # never received: not in the table
    q = evaluate(df, prepared)
    f, fr = q.flows[0], q.frames
    assert f["frames"] == n - 5 and f["pending_frames"] == 5 and f["missing_frames"] == 1
    assert f["clip_passes"] == 2 and fr.loc[30, "status"] == "missing" and fr.loc[30, "shown_frame"] == 29
    table = pd.read_parquet(prepared / "encodings.parquet").set_index(["encoding", "frame"])
    assert fr.loc[N + 3, "psnr_db"] == table.loc[(0, 3), "psnr_db"]  # slot N + 3 is clip frame 3


def test_flows_are_scored_separately(prepared, manifest):
    df = pd.concat([frames_table(manifest, flow=4), lose(frames_table(manifest, flow=7), range(12, 24))])
    q = evaluate(df, prepared)
    assert [f["flow"] for f in q.flows] == [4, 7]
    assert q.flow(4)["concealed_frames"] == 0 and q.flow(7)["concealed_frames"] == 12
    assert evaluate(df, prepared, flows=[7]).flows[0]["flow"] == 7
    with pytest.raises(VideoError, match="no flow 5"):
        evaluate(df, prepared, flows=[5])


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.drop(columns=["decodable"]), "missing column(s) decodable"),
        (lambda d: d.iloc[:0], "no rows"),
        (lambda d: pd.concat([d, d.iloc[[3]]]), "frame 3 appears more than once"),
        (lambda d: d.assign(encoding=np.full(len(d), 3, np.uint64)), "frame 0 uses encoding 3, outside 0..2"),
        (lambda d: d.assign(frame_type=["P"] + list(d["frame_type"][1:])), "frame 0 is 'P' but the prepared clip's frame 0 is 'I'"),
        (lambda d: d.assign(decodable=["yes"] * len(d)), "'decodable' must be boolean"),
        (lambda d: d.assign(frame=d["frame"].astype(float) + 0.5), "'frame' must hold integers"),
    ],
)
def test_malformed_frames_tables_give_clear_errors(prepared, manifest, change, message):
    with pytest.raises(VideoError) as err:
        evaluate(change(frames_table(manifest)), prepared)
    assert message in str(err.value)


def test_bad_prepared_directory(tmp_path, manifest):
    with pytest.raises(VideoError, match="no such directory"):
        evaluate(frames_table(manifest), tmp_path / "nope")
    with pytest.raises(VideoError, match="not a prepared directory"):
        evaluate(frames_table(manifest), tmp_path)


def test_evaluate_run_writes_quality_files_and_reads_the_flow_config(tmp_path, prepared, manifest):
    run = tmp_path / "run"
    run.mkdir()
    frames_table(manifest, flow=1).to_parquet(run / "frames.parquet")
    pd.DataFrame({"flow": [0, 1], "group": [0, 1]}).to_parquet(run / "flows.parquet")
    scenario = tmp_path / "sc" / "video.toml"
    scenario.parent.mkdir()
    # The video table names one trace: encoding 0 is that trace's quantizer (q10), and the
    # prepared directory is the trace's (a path relative to the scenario file).
    rel = Path("..") / prepared.relative_to(tmp_path) if prepared.is_relative_to(tmp_path) else prepared
    summary = {"source": str(scenario), "scenario": {"flows": [{"protocol": "tcp-reno"},
                                                               {"protocol": "udp", "video": {"model": "trace", "trace": str(rel / "q10.trace")}}]}}
    (run / "summary.json").write_text(json.dumps(summary))
    q = evaluate_run(run)
    assert q.flows[0]["flow"] == 1 and q.flows[0]["mean_psnr_db"] == manifest["encodings"][1]["mean_psnr_db"]
    assert q.flows[0]["encodings"] == [10]
    written = json.loads((run / "quality.json").read_text())
    assert written["flows"][0]["mean_psnr_db"] == q.flows[0]["mean_psnr_db"]
    assert written["psnr"].startswith("Y plane, peak 255, capped at 100 dB")
    table = pd.read_parquet(run / "quality.parquet")
    assert list(table.columns) == ["flow", "frame", "frame_type", "status", "usable", "concealed", "shown_frame",
                                   "shown_quantizer", "psnr_db", "ssim", "mos"]
    assert len(table) == N
    # --prepared and --encodings override the config.
    assert evaluate_run(run, prepared, encodings=[31], write=False).flows[0]["mean_psnr_db"] == manifest["encodings"][2]["mean_psnr_db"]


def test_evaluate_run_errors(tmp_path, prepared, manifest):
    with pytest.raises(VideoError, match="no such run directory"):
        evaluate_run(tmp_path / "nope")
    run = tmp_path / "run"
    run.mkdir()
    with pytest.raises(VideoError, match="no frames.parquet"):
        evaluate_run(run)
    frames_table(manifest).to_parquet(run / "frames.parquet")
    with pytest.raises(VideoError, match="flow 0: no prepared directory: pass --prepared DIR"):
        evaluate_run(run)
    (run / "frames.parquet").write_bytes(b"not parquet")
    with pytest.raises(VideoError, match="frames.parquet: unreadable"):
        evaluate_run(run, prepared)


# ---------------------------------------------------------------------------------------------
# The command line


def vidcc(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(VIDCC), "video", *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def test_cli_clip_prepare_quality(tmp_path, prepared, manifest):
    p = vidcc("clip", str(tmp_path / "c.y4m"), "--seconds", "0.48", "--size", "176x144")
    assert p.returncode == 0 and "wrote" in p.stdout, p.stderr
    p = vidcc("prepare", str(tmp_path / "c.y4m"), "--quantizers", "4,31", "--out", str(tmp_path / "prep"), "-j", "1")
    assert p.returncode == 0, p.stderr
    assert "kbit/s" in p.stdout and json.loads((tmp_path / "prep" / "manifest.json").read_text())["frames"] == 12
    run = tmp_path / "run"
    run.mkdir()
    lose(frames_table(manifest), [12]).to_parquet(run / "frames.parquet")
    p = vidcc("quality", str(run), "--prepared", str(prepared), "--encodings", "10")
    assert p.returncode == 0, p.stderr
    assert "PSNR" in p.stdout and (run / "quality.json").exists() and (run / "quality.parquet").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["prepare", "{dir}/missing.y4m"], "error: {dir}/missing.y4m: no such file"),
        (["prepare", "{dir}/x.yuv", "--size", "big"], "error: invalid size 'big': expected WIDTHxHEIGHT, e.g. 352x288"),
        (["prepare", "{dir}/x.yuv", "--size", "352x288", "--quantizers", "1-32"], "error: quantizer 32 is outside 1–31, the range of mpeg4"),
        (["quality", "{dir}"], "error: {dir}: no frames.parquet"),
        (["quality", "{dir}", "--encodings", "a,b"], "error: vidcc video quality: argument --encodings: invalid list 'a,b'"),
        (["prepare", "{dir}/x.yuv", "--gop", "0"], "error: vidcc video prepare: argument --gop: invalid value '0'"),
    ],
)
def test_cli_errors_exit_2_with_one_line(tmp_path, args, message):
    (tmp_path / "x.yuv").write_bytes(bytes(352 * 288 * 3 // 2))
    p = vidcc(*(a.format(dir=tmp_path) for a in args))
    assert p.returncode == 2, p
    lines = [line for line in p.stderr.splitlines() if not line.startswith("usage:") and not line.startswith(" ")]
    assert len(lines) == 1 and lines[0].startswith(message.format(dir=tmp_path)), p.stderr
    assert "Traceback" not in p.stderr


# ---------------------------------------------------------------------------------------------
# End to end: the simulator sends a prepared trace, `quality` scores what arrived.


def _video_run(tmp_path: Path, name: str, trace: Path, *, bandwidth="10Mbps", loss=None, video=None, queue=None):
    import vidcc

    doc = {
        "scenario": {"duration": "6s", "warmup": "0s", "seed": 1},
        "topology": {"kind": "dumbbell", "bottleneck": {"bandwidth": bandwidth, "delay": "20ms"},
                     "access": {"bandwidth": "100Mbps", "delay": "1ms"}},
        "flows": [{"protocol": "udp", "label": "video",
                   "video": {"model": "trace", "trace": str(trace), **(video or {"playout_delay": "1s"})}}],
    }
    if loss is not None:
        doc["topology"]["sink_access"] = {"loss": {"kind": "bernoulli", "p": loss}}
    if queue is not None:
        doc["topology"]["bottleneck"]["queue"] = queue
    result = vidcc.run(doc)
    out = result.write(tmp_path / name, figures=False)
    return result, evaluate_run(out)  # prepared directory and encoding from the flow's trace


def test_e2e_lossless_run_scores_the_encoders_own_psnr(tmp_path, prepared, manifest):
    result, q = _video_run(tmp_path, "lossless", prepared / "q10.trace")
    f = q.flows[0]
    assert f["encodings"] == [10] and f["prepared"] == str(prepared)
    assert f["concealed_frames"] == 0 and f["frames"] > N  # more than one pass of the clip
    assert set(result.table("frames")["status"]) <= {"ok", "pending"}
    table = pd.read_parquet(prepared / "encodings.parquet").set_index(["quantizer", "frame"])
    expected = [table.loc[(10, k % N), "psnr_db"] for k in range(f["frames"])]
    assert q.frames["psnr_db"].tolist() == expected
    assert float(np.mean(q.frames["psnr_db"][:N])) == manifest["encodings"][1]["mean_psnr_db"]


def test_e2e_random_loss_lowers_psnr_and_good_frames(tmp_path, prepared):
    _, clean = _video_run(tmp_path, "clean", prepared / "q10.trace")
    result, lossy = _video_run(tmp_path, "lossy", prepared / "q10.trace", loss=0.05)
    c, f = clean.flows[0], lossy.flows[0]
    assert f["status_counts"].get("lost", 0) > 0 and f["concealed_frames"] > 0
    assert f["mean_psnr_db"] < c["mean_psnr_db"] - 1
    assert f["share_mos_ge_4"] < c["share_mos_ge_4"]
    assert f["mean_ssim"] < c["mean_ssim"]


def test_e2e_tight_deadline_on_a_congested_link_loses_late_frames(tmp_path, prepared):
    # q2 (~1.85 Mbit/s, I frames of ~20 kB) through 2.2 Mbit/s with a queue that never overflows:
    # no packet is lost, but frames queue behind I-frame bursts past a 150 ms deadline.
    big_queue = {"kind": "droptail", "limit": "1000KB"}
    _, roomy = _video_run(tmp_path, "roomy", prepared / "q2.trace", video={"playout_delay": "1s"})
    result, tight = _video_run(tmp_path, "tight", prepared / "q2.trace", bandwidth="2.2Mbps",
                               video={"deadline": "150ms"}, queue=big_queue)
    links = result.links
    assert int(links["dropped_queue"].sum()) == 0 and int(links["dropped_loss"].sum()) == 0
    f = tight.flows[0]
    assert f["status_counts"].get("late", 0) > 0 and f["status_counts"].get("lost", 0) == 0
    assert f["mean_psnr_db"] < roomy.flows[0]["mean_psnr_db"] - 1
    assert f["share_mos_ge_4"] < roomy.flows[0]["share_mos_ge_4"]


def test_each_pair_of_pictures_is_scored_once_and_remembered_scores_are_the_computed_ones(prepared, manifest,
                                                                                          monkeypatch):
    """The pair cache of a Prepared: a second evaluation (and a second flow showing the same
    pictures) scores nothing new, and every slot's score is that of its own pair of pictures
    (shown frame of its encoding, or grey, against the slot's original), scored alone."""
    from vidcc.video import quality as q_mod

    pairs = []
    real = q_mod.psnr_ssim

    def counting(ref, test):
        pairs.append(len(ref))
        return real(ref, test)

    monkeypatch.setattr(q_mod, "psnr_ssim", counting)
    prep = q_mod.Prepared(prepared)
    df = lose(frames_table(manifest, encoding=np.full(N, 1, np.uint64)), [0, 1, 2, 13, 14, 40])
    first = evaluate(df, prep).frames
    scored_once = sum(pairs)
    # Grey slots and frozen slots are pairs too: fewer pairs than slots only where pictures repeat.
    assert 0 < scored_once <= N
    again = evaluate(pd.concat([df, df.assign(flow=1)], ignore_index=True), prep).frames
    assert sum(pairs) == scored_once
    fresh = q_mod.Prepared(prepared)
    for row in first.itertuples():
        ref = fresh.original.y(row.frame % fresh.frames)
        test = (np.full_like(ref, q_mod.GREY) if row.shown_frame < 0
                else fresh.decoded(1).y(row.shown_frame % fresh.frames))
        p, s = real(ref, test)
        assert (row.psnr_db, row.ssim) == (p[0], s[0]), row
    for name in ("psnr_db", "ssim"):
        np.testing.assert_array_equal(again[again["flow"] == 1][name].to_numpy(), first[name].to_numpy())
