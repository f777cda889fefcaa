"""The results database read back: load (pandas, polars, arrow; per sweep with axis columns),
load_series, query (API and CLI), and check finding what is broken."""

from __future__ import annotations

import importlib.util
import json
import shutil

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow as pa
import pytest

from scenario_testing import sweep_base
from vidcc.results import ResultsError, check, load, load_series, query
from vidcc.sweep import parse_sweep, run_sweep

SWEEP = """
[sweep]
name = "db"
seeds = [3, 4]
[[axes]]
key = "flows[0].count"
values = [1, 3]
[[axes]]
key = "topology.bottleneck.queue"
values = [{ kind = "droptail", limit = 20 }, { kind = "red" }]
""" + sweep_base('protocol = "tcp-reno"\n[[base.flows]]\nprotocol = "udp-cbr"\nlabel = "cbr"\nrate = "500kbps"',
                 bandwidth="5Mbps", delay="10ms")


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("results") / "vidcc.duckdb"
    outcome = run_sweep(parse_sweep(tomllib.loads(SWEEP), source="db.toml"), db=path, jobs=2)
    assert (outcome.ran, outcome.failed) == (8, 0)
    return path


def test_load_tables(db):
    runs = load(db)
    assert len(runs) == 8 and set(runs["status"]) == {"ok"}
    assert list(runs.columns[:4]) == ["run_id", "status", "error", "seed"]
    assert runs["run_id"].str.fullmatch(r"[0-9a-f]{64}").all()
    assert runs["started_at"].notna().all() and (runs["finished_at"] >= runs["started_at"]).all()
    assert (runs["sim_seconds"] > 0).all() and (runs["wall_seconds"] >= runs["sim_seconds"]).all()
    resolved = json.loads(runs["resolved_json"][0])
    assert resolved["seed"] in (3, 4) and "topology" in resolved
    flows = load(db, "run_flows")
    # flows joined with flow_summary: identity columns and metrics side by side.
    assert {"run_id", "flow", "label", "protocol", "throughput_bps", "drop_rate"} <= set(flows.columns)
    assert len(flows) == 2 * (2 + 4) * 2  # per seed: count 1 → 2 flows, count 3 → 4 flows; × 2 queues
    agg = load(db, "run_aggregate")
    assert set(agg["label"]) == {"all", "tcp-reno", "cbr"}
    assert len(load(db, "sweep_runs")) == 8 and list(load(db, "sweeps")["sweep"]) == ["db"]


def test_load_sweep_expands_axes(db):
    runs = load(db, "runs", sweep="db")
    assert list(runs.columns[:6]) == ["sweep", "point", "run_id", "seed", "flows[0].count", "topology.bottleneck.queue"]
    assert list(runs["point"]) == list(range(8))
    assert list(runs["flows[0].count"]) == [1, 1, 1, 1, 3, 3, 3, 3]
    assert runs["flows[0].count"].dtype == "int64"
    assert runs["topology.bottleneck.queue"][0] == {"kind": "droptail", "limit": 20}
    assert list(runs["seed"]) == [3, 4] * 4
    agg = load(db, "run_aggregate", sweep="db")
    allrows = agg[agg["label"] == "all"]
    # The usual next step: mean over seeds per axis value.
    means = allrows.groupby("flows[0].count")["throughput_bps_sum"].mean()
    assert list(means.index) == [1, 3] and (means > 0).all()
    members = load(db, "sweep_runs", sweep="db")
    assert set(members["status"]) == {"ok"} and "axes_json" not in members.columns


def test_backends(db):
    table = load(db, "run_flows", backend="arrow")
    assert isinstance(table, pa.Table) and table.num_rows == 24
    if importlib.util.find_spec("polars") is None:
        with pytest.raises(ResultsError, match=r'backend="polars" needs the polars package'):
            load(db, backend="polars")
    else:
        import polars as pl

        assert isinstance(load(db, backend="polars"), pl.DataFrame)
    with pytest.raises(ResultsError, match="unknown backend"):
        load(db, backend="spark")


def test_load_errors_are_one_line(db, tmp_path):
    with pytest.raises(ResultsError, match=r"no sweep named 'nope'; sweeps: db"):
        load(db, sweep="nope")
    with pytest.raises(ResultsError, match="unknown table"):
        load(db, table="flow_samples")
    with pytest.raises(ResultsError, match="no such results database"):
        load(tmp_path / "missing.duckdb")


def test_load_series(db):
    run_id = load(db)["run_id"][0]
    series = load_series(run_id, "flow_samples", db=db)
    assert {"t_ns", "flow", "throughput_bps"} <= set(series.columns) and len(series) > 0
    same = load_series(run_id[:10], "flow_samples", db=db)  # a unique prefix will do
    pd.testing.assert_frame_equal(series, same)
    assert len(load_series(run_id, "queue_samples", db=db)) > 0
    with pytest.raises(ResultsError, match="no run"):
        load_series("ffff", db=db)
    with pytest.raises(ResultsError, match="unknown table"):
        load_series(run_id, "runs", db=db)


def test_query_and_series_views(db):
    df = query("SELECT seed, count(*) AS n FROM runs GROUP BY seed ORDER BY seed", db=db)
    assert df.to_dict("list") == {"seed": [3, 4], "n": [4, 4]}
    per_run = query(
        "SELECT r.seed, s.run_id, count(*) AS samples FROM flow_samples s JOIN runs r USING (run_id) GROUP BY ALL", db=db
    )
    assert len(per_run) == 8 and (per_run["samples"] > 0).all()
    with pytest.raises(ResultsError, match="^SQL: "):
        query("SELECT nope FROM runs", db=db)


def test_cli_query_formats(db, capsys):
    from vidcc.cli import main

    sql = "SELECT seed, count(*) AS n FROM runs GROUP BY seed ORDER BY seed"
    assert main(["results", "query", sql, "--db", str(db), "--format", "csv"]) == 0
    assert capsys.readouterr().out == "seed,n\n3,4\n4,4\n"
    assert main(["results", "query", sql, "--db", str(db), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out) == [{"seed": 3, "n": 4}, {"seed": 4, "n": 4}]
    assert main(["results", "query", sql, "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "seed" in out and "4" in out
    assert main(["results", "query", "SELEC 1", "--db", str(db)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("error: SQL: ")
    assert main(["results", "check", "--db", str(db)]) == 0
    assert capsys.readouterr().out.strip() == f"{db}: ok: 8 runs ok, 0 failed"


def test_check_finds_missing_files_and_stray_rows(db, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(db.parent, copy)
    broken = copy / db.name
    assert check(broken).ok
    run_id = load(broken)["run_id"][0]
    (copy / "runs" / run_id / "flow_samples.parquet").unlink()
    report = check(broken)
    assert not report.ok and any("missing" in p and "flow_samples.parquet" in p for p in report.problems)
    con = duckdb.connect(str(broken))
    con.execute("DELETE FROM runs WHERE run_id = ?", [run_id])
    con.close()
    report = check(broken)
    assert any("run_flows without a runs row" in p for p in report.problems), report.problems
    assert report.orphans == [run_id]  # its directory is left without a row: harmless
