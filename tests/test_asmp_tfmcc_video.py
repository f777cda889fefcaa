"""The ASMP/TFMCC suite's video (python/vidcc/papers/asmp_tfmcc/videoset.py and video_quality.py): a tiny
clip prepared at a quantizer set, ASMP carrying it rate-adaptively to two receivers whose frames are
scored, the scorer on hand-made frames, and the PSNR/MOS checks on hand-made scores."""

from __future__ import annotations

import pandas as pd
import pytest

from vidcc import run
from vidcc.papers.asmp_tfmcc import video_quality, videoset
from vidcc.papers.model import FAIL, PASS
from vidcc.video import clip, load_manifest

QS = (2, 10, 31)

GRAPH = """
[scenario]
duration = "20s"
warmup = "0s"

[topology]
kind = "graph"
nodes = ["S", "R", "A", "B"]
links = [
  {{ a = "S", b = "R", bandwidth = "100Mbps", delay = "1ms" }},
  {{ a = "R", b = "A", bandwidth = "1Mbps", delay = "20ms", queue = {{ kind = "droptail", limit = 30 }} }},
  {{ a = "R", b = "B", bandwidth = "4Mbps", delay = "20ms", queue = {{ kind = "droptail", limit = 30 }} }},
]

[[flows]]
protocol = "{protocol}"
src = "S"
dst = ["A", "B"]
packet_size = "1018B"
video = {{ model = "trace", traces = [{traces}], trace_format = "evalvid", quantizers = [{qs}] }}
"""


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    # QCIF, 1 s: the quantizers span ≈ 30–400 kbit/s, around ASMP's 100 kbit/s start.
    src = clip.generate(tmp_path_factory.mktemp("clip") / "clip.y4m", seconds=1, size=(176, 144))
    return videoset.ensure_prepared(tmp_path_factory.mktemp("prep") / "prep", clip=src, quantizers=QS)


def test_a_complete_prepared_directory_is_reused(prepared):
    before = (prepared / "manifest.json").stat().st_mtime_ns
    assert videoset.ensure_prepared(prepared, clip=prepared / "nonexistent.y4m", quantizers=QS) == prepared
    assert (prepared / "manifest.json").stat().st_mtime_ns == before
    table = videoset.video_table(directory=prepared, quantizers=QS)
    assert table["traces"] == [str(prepared / f"q{q}.trace") for q in QS] and table["playout_delay"] == videoset.PLAYOUT
    assert videoset.video_table("150ms", directory=prepared, quantizers=QS)["deadline"] == "150ms"


def test_asmp_steers_the_rate_adaptive_set_and_each_receiver_is_scored(tmp_path, prepared):
    traces = ", ".join(f'"{prepared / f"q{q}.trace"}"' for q in QS)
    s = tmp_path / "s.toml"
    s.write_text(GRAPH.format(protocol="asmp", traces=traces, qs=", ".join(map(str, QS))))
    frames = run(s).tables["frames"]
    assert sorted(frames["receiver"].unique()) == [0, 1]
    # The rate picks the trace per GOP: ASMP starts at 100 kbit/s (not q2's rate) and climbs.
    first = frames[frames["receiver"] == 0].sort_values("frame")
    assert first["encoding"].iloc[0] != 0 and first["encoding"].nunique() >= 2
    rows = videoset.score("run", frames, prepared, QS)
    assert [(r["flow"], r["receiver"]) for r in rows] == [(0, 0), (0, 1)]
    psnr = {e["quantizer"]: e["mean_psnr_db"] for e in load_manifest(prepared)["encodings"]}
    for r in rows:
        assert psnr[31] - 3 < r["mean_psnr_db"] < psnr[2] + 0.01
        assert 2 <= r["mean_quantizer"] <= 31 and 0 <= r["concealed"] < 0.5
        assert abs(r["share_mos_ge_3"] + r["share_mos_le_2"] - 1) < 1e-9


def test_the_scorer_on_hand_made_frames(prepared):
    m = load_manifest(prepared)
    n = m["frames"]
    enc = pd.DataFrame({"flow": 0, "frame": range(n), "encoding": 0, "decodable": True, "status": "ok"})
    lossy = enc.assign(decodable=[not (5 <= k < 10) for k in range(n)])
    frames = pd.concat([enc.assign(receiver=0), lossy.assign(receiver=1), enc.assign(receiver=2)], ignore_index=True)
    rows = {r["receiver"]: r for r in videoset.score("hand-made", frames, prepared, QS)}
    # Every frame shown at q2: the encoding's own mean PSNR (the manifest's, against the original).
    assert rows[0]["mean_psnr_db"] == pytest.approx(m["encodings"][0]["mean_psnr_db"], abs=1e-6)
    assert rows[0]["concealed"] == 0 and rows[0]["mean_quantizer"] == 2
    # Five frames repeat frame 4: concealed, and the picture is worse.
    assert rows[1]["concealed"] == pytest.approx(5 / n) and rows[1]["mean_psnr_db"] < rows[0]["mean_psnr_db"]
    # Receiver 2 got what receiver 0 got: the same scores (scored once).
    assert {**rows[2], "receiver": 0} == rows[0]
    # The clip's two scenes: halves of the slots.
    assert rows[0]["psnr_scene0"] != rows[0]["psnr_scene1"]


def test_the_sent_reference_scores_only_what_the_network_did(prepared):
    """AMB-18's reading "sent" (§6.2 "we compare the encoded video at the sender with the video
    received"): a receiver shown every frame as sent scores the cap whatever the quantiser; a
    concealed frame scores the repeated picture against the one sent in its slot."""
    from vidcc.video.metrics import PSNR_CAP_DB

    n = load_manifest(prepared)["frames"]
    coarse = pd.DataFrame({"flow": 0, "frame": range(n), "encoding": 2, "decodable": True, "status": "ok"})
    lossy = coarse.assign(decodable=[not (5 <= k < 10) for k in range(n)])
    frames = pd.concat([coarse.assign(receiver=0), lossy.assign(receiver=1)], ignore_index=True)
    rows = {r["receiver"]: r for r in videoset.score("sent-ref", frames, prepared, QS, reference="sent")}
    original = {r["receiver"]: r for r in videoset.score("sent-ref", frames, prepared, QS)}
    assert rows[0]["mean_psnr_db"] == pytest.approx(PSNR_CAP_DB) and rows[0]["share_mos_5"] == 1.0
    assert original[0]["mean_psnr_db"] < 40  # q31 against the original clip
    assert rows[1]["concealed"] == pytest.approx(5 / n)
    assert rows[1]["mean_psnr_db"] < PSNR_CAP_DB - 5 and rows[1]["share_mos_5"] == pytest.approx(1 - 5 / n)
    with pytest.raises(ValueError, match="PSNR reference"):
        videoset.score("sent-ref", frames, prepared, QS, reference="decoded")


def _scores(rows):
    """Hand-made quality rows: (part, label, seed, **values)."""
    return pd.DataFrame([{"run_id": f"{p}-{s}", "part": p, "label": lab, "seed": s, "flow": 0, "receiver": 0, **v}
                         for p, lab, s, v in rows])


def _fake(monkeypatch, df):
    def fake(d, parts=None):
        return df if parts is None else df[df["part"].isin(parts)]

    monkeypatch.setattr(video_quality, "quality", fake)


def test_deadline_check_passes_and_fails_on_hand_made_scores(monkeypatch):
    def table(asmp_fall):
        rows = []
        for s in (1, 2):
            rows += [("asmp", "asmp", s, {"mean_psnr_db": 35.0}),
                     ("asmp-deadline", "asmp", s, {"mean_psnr_db": 35.0 - asmp_fall}),
                     ("tfmcc", "tfmcc", s, {"mean_psnr_db": 30.0}),
                     ("tfmcc-deadline", "tfmcc", s, {"mean_psnr_db": 25.0})]
        return _scores(rows)

    _fake(monkeypatch, table(0.2))
    v = video_quality.deadline_hurts_tfmcc(None)
    assert v.status == PASS, v
    _fake(monkeypatch, table(3.0))
    assert video_quality.deadline_hurts_tfmcc(None).status == FAIL


def test_lower_throughput_lower_loss_higher_psnr_check(monkeypatch):
    def table(psnr_asmp):
        rows = []
        for rtt in (80, 160):
            for s in (1, 2):
                a = {"rtt_ms": rtt, "throughput_bps": 4e5, "drop_rate": 0.001, "mean_psnr_db": psnr_asmp}
                t = {"rtt_ms": rtt, "throughput_bps": 8e5, "drop_rate": 0.01, "mean_psnr_db": 31.0}
                rows += [(f"asmp-rtt{rtt}", "asmp", s, a), (f"tfmcc-rtt{rtt}", "tfmcc", s, t)]
        return _scores(rows)

    _fake(monkeypatch, table(34.0))
    assert video_quality.lower_throughput_better_video(None).status == PASS
    _fake(monkeypatch, table(30.0))
    v = video_quality.lower_throughput_better_video(None)
    assert v.status == FAIL and "asmp" in v.explanation


def test_similar_curves_check_compares_the_gap_with_the_loss_effect(monkeypatch):
    def table(gap):
        rows = []
        for s in (1, 2):
            rows += [("asmp-lossless", "asmp", s, {"mean_psnr_db": 40.0}),
                     ("tfmcc-lossless", "tfmcc", s, {"mean_psnr_db": 40.0})]
            for rate, psnr in ((0.001, 36.0), (0.1, 20.0)):
                rows += [("asmp", "asmp", s, {"error_rate": rate, "mean_psnr_db": psnr}),
                         ("tfmcc", "tfmcc", s, {"error_rate": rate, "mean_psnr_db": psnr - gap})]
        return _scores(rows)

    _fake(monkeypatch, table(1.0))  # the loss effect at 0.001 is ≈ 4.5 dB: a 1 dB gap is small
    assert video_quality.similar_psnr_curves(None).status == PASS
    _fake(monkeypatch, table(3.0))
    assert video_quality.similar_psnr_curves(None).status == FAIL


def test_suite_parts_start_asmp_at_the_clips_lowest_rate_and_clamp_it_to_the_clips_range(prepared, monkeypatch):
    from vidcc.papers.asmp_tfmcc import SUITE

    monkeypatch.setattr(videoset, "ensure_prepared", lambda *a, **k: prepared)
    rates = sorted(e["mean_bitrate_bps"] for e in load_manifest(prepared)["encodings"])
    lo, hi = videoset.rate_range(prepared)
    assert rates[0] <= lo < rates[0] + 1000 and rates[-1] <= hi < rates[-1] + 1000
    asmp, tfmcc = (p.scenario("quick")["flows"][0] for p in SUITE.figure("fig10-12").parts[:2])
    low, high = f"{lo // 1000}kbps", f"{hi // 1000}kbps"
    assert (asmp["initial_rate"], asmp["min_rate"], asmp["max_rate"]) == (low, low, high)
    assert tfmcc["protocol"] == "tfmcc" and not {"initial_rate", "min_rate", "max_rate"} & set(tfmcc)
