"""vidcc.run and Result: the Python API over the simulator."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import vidcc
from scenario_testing import dumbbell
from vidcc import Result, ScenarioError, parse_scenario

ROOT = Path(__file__).resolve().parents[1]

SHORT = dumbbell(
    'protocol = "tcp-newreno"\ncount = 3\nstart = ["0s", "0.5s"]\n\n[[flows]]\nprotocol = "udp-cbr"\nlabel = "cbr"\nrate = "1Mbps"',
    duration="3s", warmup="1s", scenario='seed = 5\nqueue_sample_interval = "10ms"\n', delay="33ms",
)


def fake_raw(n_flows: int = 3) -> dict:
    """A result shaped like `simulate`'s contract, to test Result without the simulator."""
    f = np.arange(n_flows, dtype=np.uint64)
    rx = np.zeros(n_flows, np.uint64)  # one receiver per (unicast) flow
    t = np.repeat(np.arange(1, 21, dtype=np.uint64) * 150_000_000, n_flows)
    return {
        "tables": {
            "flows": {"flow": f, "receiver": rx, "group": np.zeros(n_flows, np.uint64), "instance": f, "label": ["tcp-newreno"] * n_flows,
                      "protocol": ["tcp-newreno"] * n_flows, "src": [f"a{i}" for i in range(n_flows)],
                      "dst": [f"b{i}" for i in range(n_flows)], "start_ns": np.zeros(n_flows, np.uint64),
                      "fair_share_bps": np.full(n_flows, 1e7 / n_flows), "path_rtt_ns": np.full(n_flows, 70_000_000, np.uint64)},
            "flow_summary": {"flow": f, "receiver": rx, "throughput_bps": np.full(n_flows, 3e6), "goodput_bps": np.full(n_flows, 2.9e6),
                             "drop_rate": np.full(n_flows, 0.01), "mean_delay_ns": np.full(n_flows, 8e7),
                             "cov": np.full(n_flows, np.nan)},
            "aggregate": {"label": ["all", "tcp-newreno"], "flows": np.array([n_flows, n_flows], np.uint64),
                          "jain": np.array([0.99, 0.99]), "worst_case_fairness": np.array([0.9, np.nan])},
            "flow_samples": {"t_ns": t, "flow": np.tile(f, 20), "receiver": np.tile(rx, 20), "throughput_bps": np.linspace(0, 4e6, 20 * n_flows)},
            "queue_samples": {"t_ns": np.arange(10, dtype=np.uint64) * 10_000_000, "link": np.zeros(10, np.uint64),
                              "packets": np.arange(10, dtype=np.uint64), "bytes": np.arange(10, dtype=np.uint64) * 1000,
                              "average": np.full(10, np.nan)},
            "links": {"link": np.array([0], np.uint64), "name": ["L->R"], "src": ["L"], "dst": ["R"],
                      "queue_limit_packets": np.array([25], np.uint64)},
            "events": {"t_ns": np.array([], np.uint64), "flow": np.array([], np.uint64), "side": [], "kind": [],
                       "value": np.array([], np.float64)},
        },
        "stats": {"events": np.uint64(1234), "packets_delivered": 99, "bottleneck_packets": 100},
    }


@pytest.fixture
def fake_result() -> Result:
    sc = parse_scenario(SHORT)
    return Result(sc, sc.resolve(), fake_raw(), wall_seconds=0.5)


def test_result_tables_are_dataframes(fake_result):
    assert isinstance(fake_result.flows, pd.DataFrame) and len(fake_result.flows) == 3
    assert list(fake_result.flows["label"]) == ["tcp-newreno"] * 3
    assert fake_result.events.empty and fake_result.packets.empty
    assert set(fake_result.per_flow().columns) >= {"label", "throughput_bps"}


def test_summary_is_strict_json_in_a_stable_order(fake_result):
    s = fake_result.summary
    assert list(s) == ["vidcc_version", "source", "seed", "scenario", "resolved", "stats", "aggregate", "flows"]
    assert s["seed"] == 5 and s["vidcc_version"] == vidcc.__version__
    assert s["scenario"] == parse_scenario(SHORT).to_dict()
    assert s["stats"]["events"] == 1234 and type(s["stats"]["events"]) is int
    assert s["flows"][0]["cov"] is None  # NaN → null
    assert s["aggregate"][1]["worst_case_fairness"] is None
    json.dumps(s, allow_nan=False)


def test_write(fake_result, tmp_path):
    out = fake_result.write(tmp_path / "o")
    names = sorted(p.name for p in out.iterdir())
    assert names == ["aggregate.parquet", "flow_samples.parquet", "flow_summary.parquet", "flows.parquet", "links.parquet",
                     "queue.png", "queue_samples.parquet", "summary.json", "throughput.png", "timing.json"]  # empty `events` skipped
    assert json.loads((out / "timing.json").read_text()) == {"wall_seconds": 0.5}
    assert json.loads((out / "summary.json").read_text()) == json.loads(json.dumps(fake_result.summary))
    pd.testing.assert_frame_equal(pd.read_parquet(out / "flows.parquet"), fake_result.flows, check_dtype=False)


def test_interrupted_write_keeps_what_was_saved(fake_result, tmp_path, monkeypatch):
    out = fake_result.write(tmp_path / "o")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    from vidcc import plots

    def broken(fig, path):
        Path(path).write_bytes(b"half a png")
        raise KeyboardInterrupt

    monkeypatch.setattr(plots, "save", broken)
    with pytest.raises(KeyboardInterrupt):
        fake_result.write(out)
    after = {p.name: p.read_bytes() for p in out.iterdir()}
    assert after == before  # no temporary file left, nothing half-written


def test_many_flows_plot_by_label(tmp_path):
    sc = parse_scenario(SHORT)
    r = Result(sc, sc.resolve(), fake_raw(n_flows=30), wall_seconds=0.1)
    from vidcc import plots

    fig = plots.throughput(r.flow_samples, r.flows, duration_ns=r.resolved["duration_ns"])
    labels = fig.axes[0].get_legend_handles_labels()[1]
    assert labels == ["tcp-newreno"]
    assert len(fig.axes[0].lines) == 30


def test_invalid_scenario_raises_scenario_error():
    with pytest.raises(ScenarioError):
        vidcc.run(SHORT.replace('"10Mbps"', '"10Mbit"'))


# ---- with the simulator ----------------------------------------------------------------------


def test_run_returns_the_contract_tables():
    r = vidcc.run(SHORT)
    assert len(r.flows) == 4
    assert list(r.flows["label"]) == ["tcp-newreno"] * 3 + ["cbr"]
    assert set(r.flow_summary.columns) >= {"flow", "throughput_bps", "goodput_bps", "cov", "mean_delay_ns", "drop_rate"}
    assert set(r.aggregate["label"]) == {"all", "tcp-newreno", "cbr"}
    assert not r.flow_samples.empty and not r.queue_samples.empty and not r.links.empty
    total = r.flow_summary["throughput_bps"].sum()
    assert 0 < total <= 10_000_000 * 1.01
    assert r.seed == 5


def test_same_seed_same_results_other_seed_differs():
    a, b, c = vidcc.run(SHORT), vidcc.run(SHORT), vidcc.run(SHORT, seed=6)
    pd.testing.assert_frame_equal(a.flow_summary, b.flow_summary)
    pd.testing.assert_frame_equal(a.flow_samples, b.flow_samples)
    assert c.seed == 6
    assert not a.flows["start_ns"].equals(c.flows["start_ns"])


def test_run_accepts_path_scenario_and_dict(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text(SHORT)
    sc = parse_scenario(SHORT)
    results = [vidcc.run(path), vidcc.run(str(path)), vidcc.run(sc), vidcc.run(sc.to_dict())]
    for r in results[1:]:
        pd.testing.assert_frame_equal(r.flow_summary, results[0].flow_summary)


def test_progress_callback_sees_the_run_advance():
    seen: list[float] = []
    vidcc.run(SHORT, progress=seen.append)
    assert len(seen) >= 10
    assert all(0.0 <= x <= 1.0 for x in seen) and seen == sorted(seen)
    assert math.isclose(seen[-1], 1.0, abs_tol=0.02)
