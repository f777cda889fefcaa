"""Result.write without pandas: the Parquet files and summary.json it writes from the raw columns
are the very bytes and values the pandas path writes, and the figures' decimation draws what the
full series draws. (Speed itself is measured in benches/cli.py.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scenario_testing import dumbbell
from test_run import SHORT, fake_raw
from vidcc import Result, parse_scenario, run
from vidcc.plots import decimate

ROOT = Path(__file__).resolve().parents[1]

EVERY_KIND = {
    "u": np.array([1, 2, 2**63 + 5], np.uint64),
    "i": np.array([-1, 0, 7], np.int64),
    "f": np.array([0.5, np.nan, -np.inf]),
    "f32": np.array([1.5, 2.5, np.nan], np.float32),
    "b": np.array([True, False, True]),
    "s": ["a", "", "ünïcode"],
}


def fresh(raw: dict) -> Result:
    sc = parse_scenario(SHORT)
    return Result(sc, sc.resolve(), raw, wall_seconds=0.5)


def pandas_written(result: Result, out: Path) -> dict[str, bytes]:
    """What write() produced before it learnt to skip pandas: DataFrame.to_parquet per table."""
    out.mkdir()
    files = {}
    for name, df in result.tables.items():
        if not df.empty:
            df.to_parquet(out / f"{name}.parquet", engine="pyarrow", index=False)
            files[name] = (out / f"{name}.parquet").read_bytes()
    return files


def written(result: Result, out: Path) -> dict[str, bytes]:
    result.write(out, figures=False)
    return {p.stem: p.read_bytes() for p in out.glob("*.parquet")}


def test_parquet_bytes_equal_pandas_for_every_column_kind(tmp_path):
    raw = {"tables": {"flows": EVERY_KIND}, "stats": {}}
    direct = written(fresh(raw), tmp_path / "direct")
    assert direct.keys() == {"flows"}
    assert direct == pandas_written(fresh(raw), tmp_path / "pandas")
    back = pd.read_parquet(tmp_path / "direct" / "flows.parquet")
    assert back["u"].tolist() == EVERY_KIND["u"].tolist() and back["s"].tolist() == EVERY_KIND["s"]


def test_a_simulated_run_writes_the_bytes_and_summary_pandas_would(tmp_path):
    result = run(SHORT)
    direct = written(result, tmp_path / "direct")
    assert set(direct) >= {"flows", "flow_summary", "aggregate", "flow_samples", "queue_samples", "links"}
    summary = (tmp_path / "direct" / "summary.json").read_text()
    assert direct == pandas_written(result, tmp_path / "pandas")
    # Once the DataFrames exist, write() and summary go through them: the same output again.
    assert result.summary == json.loads(summary)
    assert written(result, tmp_path / "again") == direct
    assert (tmp_path / "again" / "summary.json").read_text() == summary


def test_records_equal_the_dataframe_records():
    direct, framed = fresh(fake_raw()), fresh(fake_raw())
    framed.tables  # noqa: B018  (builds the DataFrames: records then come from pandas)
    for name in ("flows", "aggregate", "flow_samples", "links", "events", "no_such_table"):
        assert direct.records(name) == framed.records(name), name
    assert direct.per_flow_records() == framed.per_flow_records()
    assert direct.per_flow_records()[0]["cov"] is None and direct.per_flow_records()[0]["label"] == "tcp-newreno"


@pytest.mark.parametrize("change", ["unmatched", "repeated", "clash"])
def test_per_flow_records_follow_pandas_merge_rules(change):
    raw = fake_raw()
    summary = raw["tables"]["flow_summary"]
    if change == "unmatched":  # flow 2 has no summary row: pandas makes its metrics NaN and ints float
        raw["tables"]["flow_summary"] = {k: v[:2] for k, v in summary.items()}
    elif change == "repeated":  # two summary rows for flow 0: pandas repeats the flow's row
        raw["tables"]["flow_summary"] = {k: np.concatenate([v, v[:1]]) for k, v in summary.items()}
    else:  # a column in both tables: pandas suffixes it
        summary["label"] = ["x"] * 3
    direct = fresh(raw).per_flow_records()
    expected = fresh(raw)
    expected.tables  # noqa: B018
    assert direct == expected.per_flow_records()
    assert len(direct) == {"unmatched": 3, "repeated": 4, "clash": 3}[change]


def test_run_command_without_figures_needs_no_pandas_nor_matplotlib(tmp_path):
    scenario = tmp_path / "s.toml"
    scenario.write_text(dumbbell('protocol = "tcp-newreno"', duration="2s", warmup="1s"))
    probe = ("import sys\nfrom vidcc.cli import main\ncode = main(sys.argv[1:])\n"
             "heavy = {'pandas', 'matplotlib', 'duckdb', 'dask', 'numpy'}\n"
             "print(sorted({m.split('.')[0] for m in sys.modules} & heavy))\n"
             "sys.exit(code)")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "python")}

    def loaded(*flags: str) -> str:
        out = subprocess.run([sys.executable, "-c", probe, "run", str(scenario), "--out", str(tmp_path / "o"), *flags],
                             capture_output=True, text=True, env=env, check=True)
        return out.stdout.splitlines()[-1]

    # numpy: the probe does see what is imported. With figures, matplotlib is imported by the
    # child process that draws them (vidcc.figure_worker), not by the command's own.
    assert loaded("--quiet", "--no-figures") == "['numpy']"
    assert loaded("--no-figures") == "['numpy']"
    assert loaded("--quiet") == "['numpy']"
    assert (tmp_path / "o" / "summary.json").exists() and (tmp_path / "o" / "throughput.png").exists()


def test_decimate_keeps_each_pixel_columns_extremes_and_the_ends():
    rng = np.random.default_rng(1)
    x = np.arange(100_000, dtype=np.float64) / 100
    y = rng.normal(size=x.size).cumsum()
    dx, dy = decimate(x, y, columns=500)
    assert len(dx) <= 4 * 500 and dx[0] == x[0] and dx[-1] == x[-1] and np.all(np.diff(dx) > 0)
    bucket = lambda v: np.minimum((v - x[0]) * 500 / (x[-1] - x[0]), 499).astype(int)  # noqa: E731
    for b in (0, 137, 499):
        full, cut = y[bucket(x) == b], dy[bucket(dx) == b]
        assert cut.min() == full.min() and cut.max() == full.max()
    assert set(zip(dx, dy)) <= set(zip(x, y))  # only points of the series


def test_decimate_leaves_short_or_gappy_series_alone():
    x = np.arange(100.0)
    assert decimate(x, x, columns=25)[0] is x  # 100 points for 25 columns: not worth cutting
    assert len(decimate(x, x, columns=24)[0]) < 100
    gappy = np.where(np.arange(10_000) % 7 == 0, np.nan, 1.0)
    xs = np.arange(10_000.0)
    assert decimate(xs, gappy, columns=10)[1] is gappy
    assert decimate(x, x)[1] is x


# --------------------------------------------------------------------------------------------
# `vidcc run`'s figures drawn by a child process (vidcc.figure_worker)


def test_figures_drawn_by_the_worker_are_the_ones_drawn_here(tmp_path):
    from vidcc.figure_worker import FigureWorker

    result = run(parse_scenario(dumbbell('protocol = "tcp-reno"\ncount = 2', duration="3s")))
    result.write(tmp_path / "here", figures=True)
    worker = FigureWorker()
    result.write(tmp_path / "child", figures=worker)
    pngs = sorted(p.name for p in (tmp_path / "here").glob("*.png"))
    assert pngs == ["queue.png", "throughput.png"]
    for name in pngs:
        assert (tmp_path / "child" / name).read_bytes() == (tmp_path / "here" / name).read_bytes()
    assert (tmp_path / "child" / "summary.json").read_bytes() == (tmp_path / "here" / "summary.json").read_bytes()
    assert worker.submitted and not worker._process.is_alive()


def test_a_figure_failing_in_the_worker_is_an_error_after_the_tables(tmp_path, monkeypatch):
    from vidcc import plots
    from vidcc.figure_worker import FigureWorker

    def broken(tables, resolved):
        raise ValueError("no ink")

    monkeypatch.setitem(plots.FIGURES, "queue", broken)  # the forked child inherits it
    result = run(parse_scenario(dumbbell('protocol = "tcp-reno"', duration="3s")))
    with pytest.raises(RuntimeError, match="drawing the figures: ValueError: no ink"):
        result.write(tmp_path, figures=FigureWorker())
    assert (tmp_path / "flow_samples.parquet").exists() and (tmp_path / "throughput.png").exists()
    assert not (tmp_path / "summary.json").exists()  # the directory is not complete


def test_a_worker_that_failed_before_its_job_keeps_the_tables_and_reports_why(tmp_path, monkeypatch):
    from vidcc import figure_worker
    from vidcc.figure_worker import FigureWorker

    def no_matplotlib():
        raise ImportError("no module named matplotlib")

    monkeypatch.setattr(figure_worker, "import_figure_modules", no_matplotlib)  # inherited by the fork
    result = run(parse_scenario(dumbbell('protocol = "tcp-reno"', duration="3s")))
    worker = FigureWorker()
    worker._process.join(timeout=60)  # it fails at once and closes its end of the pipe
    with pytest.raises(RuntimeError, match="drawing the figures: ImportError: no module named matplotlib"):
        result.write(tmp_path, figures=worker)
    assert (tmp_path / "flow_samples.parquet").exists() and not (tmp_path / "summary.json").exists()


def test_a_worker_whose_parent_goes_away_ends():
    from vidcc.figure_worker import FigureWorker

    worker = FigureWorker()
    worker._conn.close()  # what the parent's death does to its end of the pipe
    worker._process.join(timeout=60)  # a hang guard, not a timing: without EOF the child waits for good
    assert not worker._process.is_alive() and worker._process.exitcode == 0


def test_closing_a_worker_ends_its_process():
    from vidcc.figure_worker import FigureWorker

    worker = FigureWorker()
    worker.close()
    assert not worker._process.is_alive() and worker._process.exitcode is not None


def test_run_command_leaves_no_figure_process_behind(tmp_path):
    import multiprocessing

    from vidcc.cli import main

    scenario = tmp_path / "s.toml"
    scenario.write_text(dumbbell('protocol = "tcp-reno"', duration="3s"))
    assert main(["run", str(scenario), "--quiet", "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "throughput.png").stat().st_size > 0 and (tmp_path / "out" / "summary.json").exists()
    assert multiprocessing.active_children() == []
