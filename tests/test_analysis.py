"""Aggregation across seeds (mean, Student-t 95 % CI) and the figures of vidcc.analysis."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from vidcc import analysis
from vidcc.analysis import line_plot, mean_ci, save_figure, series_plot, summarize, t_quantile

# Two-sided 95 % factors t_{0.975, dof} from printed tables.
T975 = {1: 12.7062047362, 2: 4.3026527297, 3: 3.1824463053, 4: 2.7764451052, 9: 2.2621571628, 29: 2.0452296421, 100: 1.9839715185}


@pytest.mark.parametrize("dof,expected", sorted(T975.items()))
def test_t_quantile_matches_tables(dof, expected):
    assert t_quantile(0.975, dof) == pytest.approx(expected, abs=1e-8)


def test_t_quantile_symmetry_and_closed_forms():
    assert t_quantile(0.5, 7) == 0.0
    assert t_quantile(0.025, 5) == pytest.approx(-t_quantile(0.975, 5), abs=1e-12)
    # dof 1 is Cauchy, dof 2 has a closed form too.
    assert t_quantile(0.9, 1) == pytest.approx(math.tan(math.pi * 0.4), rel=1e-12)
    assert t_quantile(0.995, 5) == pytest.approx(4.0321429835, abs=1e-8)
    # Large dof tends to the normal quantile.
    assert t_quantile(0.975, 1e6) == pytest.approx(1.959964, abs=1e-5)
    with pytest.raises(ValueError):
        t_quantile(1.0, 3)
    with pytest.raises(ValueError):
        t_quantile(0.9, 0)


def test_mean_ci_by_hand():
    # samples 1, 2, 3, 4: mean 2.5, s² = (2.25 + 0.25 + 0.25 + 2.25)/3 = 5/3
    ci = mean_ci([1.0, 2.0, 3.0, 4.0])
    s = math.sqrt(5 / 3)
    half = 3.1824463053 * s / 2.0
    assert ci["n"] == 4
    assert ci["mean"] == pytest.approx(2.5)
    assert ci["std"] == pytest.approx(s)
    assert ci["ci_half"] == pytest.approx(half, rel=1e-9)
    assert ci["ci_low"] == pytest.approx(2.5 - half, rel=1e-9)
    assert ci["ci_high"] == pytest.approx(2.5 + half, rel=1e-9)


def test_mean_ci_two_samples_and_single_sample():
    ci = mean_ci([10.0, 14.0])  # s = 2·√2, half = 12.706·2√2/√2 = 25.41
    assert ci["ci_half"] == pytest.approx(T975[1] * 2.0, rel=1e-9)
    one = mean_ci([3.0])
    assert one["n"] == 1 and one["mean"] == 3.0
    assert math.isnan(one["ci_half"]) and math.isnan(one["ci_low"]) and math.isnan(one["ci_high"])
    nan = mean_ci([float("nan"), 5.0, 7.0])  # NaN is ignored
    assert nan["n"] == 2 and nan["mean"] == 6.0
    assert mean_ci([])["n"] == 0


def _runs() -> pd.DataFrame:
    """2 axis values × 2 labels × 3 seeds, two flows per label and run."""
    rows = []
    for n in (10, 20):
        for seed in (1, 2, 3):
            run = f"r{n}-{seed}"
            for label, base in (("dvrc", 100.0), ("reno", 50.0)):
                for flow, delta in ((0, -1.0), (1, +1.0)):
                    rows.append({"run_id": run, "seed": seed, "n": n, "label": label, "flow": flow,
                                 "x": base + n + seed + delta})
    return pd.DataFrame(rows)


def test_summarize_reduces_flows_per_run_then_averages_seeds():
    s = summarize(_runs(), "x", by="n", group="label")
    assert list(s.columns) == ["n", "label", "runs", "mean", "std", "ci_half", "ci_low", "ci_high"]
    assert len(s) == 4
    row = s[(s["n"] == 20) & (s["label"] == "reno")].iloc[0]
    # per run: mean over the two flows = 50 + 20 + seed → 71, 72, 73
    assert row["runs"] == 3
    assert row["mean"] == pytest.approx(72.0)
    assert row["std"] == pytest.approx(1.0)
    assert row["ci_half"] == pytest.approx(T975[2] * 1.0 / math.sqrt(3), rel=1e-9)


def test_summarize_sum_within_run_and_no_group():
    s = summarize(_runs(), "x", by="n", group=None, within_run="sum")
    row = s[s["n"] == 10].iloc[0]
    # per run: 2·(100+10+seed) + 2·(50+10+seed) = 340 + 4·seed → 344, 348, 352
    assert row["mean"] == pytest.approx(348.0)
    assert row["std"] == pytest.approx(4.0)
    assert row["runs"] == 3


def test_summarize_several_axes_and_errors():
    df = _runs()
    df["m"] = df["seed"] % 2
    s = summarize(df, "x", by=["n", "m"], group="label")
    assert set(s["runs"]) == {1, 2}
    assert s[s["runs"] == 1]["ci_half"].isna().all()
    with pytest.raises(KeyError, match="no column 'nope'"):
        summarize(df, "nope", by="n")
    with pytest.raises(KeyError, match="result column"):
        summarize(df.rename(columns={"n": "runs"}), "x", by="runs")
    assert summarize(pd.DataFrame(), "x", by="n").empty


def test_summarize_without_run_column_counts_rows():
    df = pd.DataFrame({"n": [1, 1, 1], "x": [1.0, 2.0, 3.0]})
    s = summarize(df, "x", by="n", group=None)
    assert s.iloc[0]["runs"] == 3 and s.iloc[0]["mean"] == 2.0


def test_line_plot_and_series_plot_write_png_and_svg(tmp_path):
    s = summarize(_runs(), "x", by="n", group="label")
    fig = line_plot(s, "n", group="label", title="x against n", ylabel="x", hlines=[(60.0, "ref")])
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["dvrc", "reno"]
    assert len(ax.containers) == 2  # one errorbar container per label
    png, svg = save_figure(fig, tmp_path / "figs" / "line")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert svg.read_text().lstrip().startswith("<?xml")

    samples = pd.DataFrame({"t_ns": [0, 10**9, 2 * 10**9] * 2, "flow": [0, 0, 0, 1, 1, 1], "throughput_bps": [1e6, 2e6, 3e6, 3e6, 2e6, 1e6]})
    fig = series_plot(samples, "throughput_bps", names={0: "dvrc", 1: "reno"}, scale=1e-6, ylabel="Mbit/s")
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert labels == ["dvrc", "reno"]
    assert fig.axes[0].lines[0].get_xdata().tolist() == [0.0, 1.0, 2.0]
    png, svg = save_figure(fig, tmp_path / "series")
    assert png.exists() and svg.exists()
    assert analysis.png_bytes(line_plot(s, "n"))[:4] == b"\x89PNG"


def test_line_plot_categorical_axis():
    df = pd.DataFrame({"run_id": ["a", "b", "c", "d"], "rate": ["120kbps", "120kbps", "160kbps", "160kbps"], "x": [1.0, 2.0, 3.0, 4.0]})
    s = summarize(df, "x", by="rate", group=None)
    fig = line_plot(s, "rate", group=None)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["120kbps", "160kbps"]
    analysis.close(fig)


def test_plots_from_the_results_database(tmp_path):
    from vidcc import results
    from vidcc.analysis import run_series_plot, sweep_plot
    from vidcc.sweep import Axis, SweepSpec, run_sweep

    base = {
        "scenario": {"duration": "3s", "warmup": "1s"},
        "topology": {"kind": "dumbbell", "bottleneck": {"bandwidth": "10Mbps", "delay": "10ms"},
                     "access": {"bandwidth": "100Mbps", "delay": "1ms"}},
        "flows": [{"protocol": "tcp-reno", "label": "reno", "count": 2}, {"protocol": "udp-cbr", "label": "cbr", "rate": "1Mbps"}],
    }
    db = tmp_path / "db.duckdb"
    outcome = run_sweep(SweepSpec("t", base, [Axis("flows[0].count", [1, 3])], [1, 2]), db=db, jobs=1)
    assert outcome.failed == 0
    fig = sweep_plot("t", "throughput_bps", "flows[0].count", db=db, scale=1e-6)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["cbr", "reno"]
    png, _ = save_figure(fig, tmp_path / "sweep")
    assert png.exists()
    fig = run_series_plot(outcome.run_ids[0], db=db)
    assert [t.get_text() for t in fig.axes[0].get_legend().get_texts()] == ["reno #0", "cbr #1"]
    fig = run_series_plot(outcome.run_ids[0], "packets", table="queue_samples", db=db)
    assert "L->R" in [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    analysis.close(fig)
    flows = results.load(db=db, table="run_flows", sweep="t")
    s = summarize(flows, "throughput_bps", by="flows[0].count")
    assert set(s["runs"]) == {2}
