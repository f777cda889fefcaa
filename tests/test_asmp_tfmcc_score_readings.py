"""Two scoring readings of the ASMP/TFMCC suite change what a check compares, and only under the
reading: ``drop-from-sent`` (C8: the PSNR drop at 0.05 % errors measured from the same run's video
as sent, not from the error-free run) and ``cov-around-trend`` (C19, C31: the CoV of the rate
around its least-squares line, not around its mean)."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pandas as pd

from vidcc.papers.asmp_tfmcc import dynamics, readings, video_quality
from vidcc.papers.measures import FigureData
from vidcc.papers.model import FAIL, PASS

S = 1_000_000_000


def _figure(parts: list[str], reading: str | None, tables: dict, series=None) -> FigureData:
    alts = [a for a in readings.ALTERNATIVES if a.name == reading]
    fig = SimpleNamespace(id="fig", parts=[SimpleNamespace(name=p, alternatives=alts) for p in parts])
    return FigureData(fig, tables, set(parts), series)


def _drop_figure(reading: str | None, monkeypatch) -> FigureData:
    rows = []
    for p in ("asmp", "tfmcc"):
        rows.append({"part": p, "label": p, "seed": 1, "run_id": f"{p}-e", "error_rate": 0.0005,
                     "mean_psnr_db": 30.0, "mean_psnr_sent_db": 37.0})
        rows.append({"part": f"{p}-lossless", "label": p, "seed": 1, "run_id": f"{p}-l", "error_rate": None,
                     "mean_psnr_db": 31.0, "mean_psnr_sent_db": 31.0})
    table = pd.DataFrame(rows)

    def quality(_d, parts=None):
        return table[table["part"].isin(parts)] if parts is not None else table

    monkeypatch.setattr(video_quality, "quality", quality)
    return _figure([r["part"] for r in rows], reading, {})


def test_c8_drop_is_from_the_error_free_run_by_default_and_from_the_video_as_sent_under_the_reading(monkeypatch):
    v = video_quality.psnr_drop_at_lowest_error_rate(_drop_figure(None, monkeypatch))
    assert v.status == FAIL, v.measured  # 31 − 30 = 1 dB
    v = video_quality.psnr_drop_at_lowest_error_rate(_drop_figure("drop-from-sent", monkeypatch))
    assert v.status == PASS, v.measured  # 37 − 30 = 7 dB
    assert v.measured["mean PSNR of the video as sent (dB)[asmp]"] == 37.0


def _cov_figure(samples: dict[str, list[float]], reading: str | None) -> FigureData:
    runs = pd.DataFrame({"run_id": list(samples), "seed": 1, "part": list(samples),
                         "resolved_json": [json.dumps({"warmup_ns": 0})] * len(samples)})
    flows = pd.DataFrame({"run_id": list(samples), "seed": 1, "part": list(samples), "label": list(samples),
                          "flow": 0, "receiver": 0, "start_ns": 0,
                          "cov": [dynamics._cov(list(range(len(y))), y, False) for y in samples.values()]})
    series = {rid: pd.DataFrame({"t_ns": [(i + 1) * S for i in range(len(ys))], "flow": 0, "receiver": 0,
                                 "throughput_bps": ys}) for rid, ys in samples.items()}
    return _figure(list(samples), reading, {"runs": runs, "run_flows": flows}, lambda rid, _t: series[rid])


def test_c19_cov_around_the_trend_leaves_a_steady_climb_out_and_still_sees_oscillations():
    climb = [0.2e6 + 0.01e6 * k + (0.005e6 if k % 2 else -0.005e6) for k in range(60)]
    wobble = [1e6 + (0.1e6 if k % 2 else -0.1e6) for k in range(60)]
    check = dynamics.cov_order()
    fig = {"asmp": climb, "tfmcc": wobble}
    assert check(_cov_figure(fig, None)).status == FAIL  # the climb dominates the CoV around the mean
    v = check(_cov_figure(fig, "cov-around-trend"))
    assert v.status == PASS, v.explanation
    assert dynamics.cov_cause(_cov_figure(fig, "cov-around-trend"), {}) == "ASMP's CoV is below TFMCC's in every cell"
    # A climb that oscillates more than TFMCC does fails under the reading too.
    rough = [0.2e6 + 0.01e6 * k + (0.3e6 if k % 2 else -0.3e6) for k in range(60)]
    assert check(_cov_figure({"asmp": rough, "tfmcc": wobble}, "cov-around-trend")).status == FAIL


def test_an_unknown_scoring_value_is_refused_naming_the_known_ones():
    import dataclasses

    import pytest

    from vidcc.papers.asmp_tfmcc.videoset import drop_from_of

    cov = dataclasses.replace(next(a for a in readings.ALTERNATIVES if a.name == "cov-around-trend"),
                              scoring={"cov_of": "around-median"})
    d = FigureData(SimpleNamespace(id="fig", parts=[SimpleNamespace(name="asmp", alternatives=[cov])]), {}, set())
    with pytest.raises(ValueError, match="'around-median': not one of bins, around-trend"):
        dynamics.cov_of(d)
    drop = dataclasses.replace(cov, scoring={"psnr_drop_from": "clip"})
    d = FigureData(SimpleNamespace(id="fig", parts=[SimpleNamespace(name="asmp", alternatives=[drop])]), {}, set())
    with pytest.raises(ValueError, match="'clip': not one of lossless, sent"):
        drop_from_of(d, "asmp")
