"""`vidcc demo`: the clip prepared, one layered video carried by each protocol across a shared
bottleneck, scored; a row per protocol in the table, the CSV and the report."""

from __future__ import annotations

import csv
import json
import math

import pandas as pd
import pytest

import vidcc
from vidcc import demo, video


@pytest.fixture(scope="module")
def demo_out(tmp_path_factory):
    out = tmp_path_factory.mktemp("demo")
    rows = demo.run_demo(out, log=lambda _: None)
    return out, rows


def test_the_demo_reports_every_protocol_with_its_picture_quality(demo_out):
    out, rows = demo_out
    assert [r.protocol for r in rows] == list(demo.PROTOCOLS)
    for r in rows:
        assert math.isfinite(r.psnr_db) and r.psnr_db > 0 and 1 <= r.mos <= 5, r
        assert 0 <= r.frames_on_time <= 1 and r.video_throughput_bps > 0 and r.tcp_normalized_throughput > 0
    with (out / "demo.csv").open() as f:
        table = list(csv.DictReader(f))
    assert [t["protocol"] for t in table] == list(demo.PROTOCOLS) and all(t["psnr_db"] for t in table)
    page = (out / "report.html").read_text()
    assert page.count("data:image/png;base64,") == 1
    for r in rows:
        assert f"<td>{r.protocol}</td>" in page and f"{r.psnr_db:.2f}" in page
    # What the demo is for: unresponsive UDP takes more than its share from TCP, the rate controls do not.
    by = {r.protocol: r for r in rows}
    assert by["udp"].tcp_normalized_throughput < min(by[p].tcp_normalized_throughput for p in ("dvrc", "ssvp-layered"))


def test_the_layer_rates_come_from_the_prepared_clip(demo_out):
    out, _ = demo_out
    manifest = json.loads((out / "prepared" / "manifest.json").read_text())
    rates = demo.layer_rates(manifest)
    by_q = {e["quantizer"]: e["mean_bitrate_bps"] for e in manifest["encodings"]}
    assert rates == [f"{round(by_q[q] / 1000)}kbps" for q in demo.LAYER_QUANTIZERS]
    with pytest.raises(ValueError, match="no encoding at quantiser 31"):
        demo.layer_rates({"encodings": [e for e in manifest["encodings"] if e["quantizer"] != 31]})


def test_a_lossless_run_shows_the_encoders_own_picture(demo_out, tmp_path):
    """Every layer arrives in time on an uncongested path: each shown frame is the top encoding's
    own frame, with the encoder's PSNR to the last digit."""
    out, _ = demo_out
    manifest = json.loads((out / "prepared" / "manifest.json").read_text())
    doc = demo.scenario_for("udp", manifest, out / "prepared")
    doc["topology"]["bottleneck"] = {"bandwidth": "100Mbps", "delay": "20ms"}
    doc["flows"] = doc["flows"][:1]
    doc["scenario"]["duration"] = "12s"
    run = tmp_path / "lossless"
    vidcc.run(doc).write(run, figures=False)
    q = video.evaluate_run(run, layer_quantizers=demo.LAYER_QUANTIZERS)
    frames = q.frames
    assert len(frames) > 250 and frames["usable"].all() and not frames["concealed"].any()
    assert (frames["shown_quantizer"] == min(demo.LAYER_QUANTIZERS)).all()
    encoder = pd.read_parquet(out / "prepared" / "encodings.parquet")
    encoder = encoder[encoder["quantizer"] == min(demo.LAYER_QUANTIZERS)].set_index("frame")["psnr_db"]
    clip_frames = manifest["frames"]
    expected = frames["frame"].map(lambda k: encoder[k % clip_frames])
    assert frames["psnr_db"].to_numpy() == pytest.approx(expected.to_numpy(), abs=1e-9)
