"""Sweeps: the sweep file, resuming, interruption, the Dask backend, --force, failing runs.

Runs are short scenarios (a few simulated seconds) so that the file stays within a couple of
minutes on 2 cores. Integrity is checked both with ``vidcc.results.check`` and independently
here (DuckDB and pyarrow directly), so a bug in ``check`` cannot hide a broken database.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]
from pathlib import Path

import duckdb
import pandas as pd
import pyarrow.parquet as pq
import pytest

from scenario_testing import sweep_base
from vidcc import results
from vidcc.cli import main as cli_main
from vidcc.sweep import Axis, SweepError, SweepSpec, load_sweep, parse_sweep, run_sweep, simulate_point

ROOT = Path(__file__).resolve().parents[1]
VIDCC = Path(sys.executable).parent / "vidcc"

# A short dumbbell: ~10-30 ms of simulation per run.
SMALL_BASE = sweep_base('protocol = "tcp-newreno"\ncount = 2\nsend_jitter = "500us"\n[[base.flows]]\nprotocol = "udp-cbr"\nrate = "1Mbps"')

SMALL = f"""
[sweep]
name = "small"
seeds = 2
[[axes]]
key = "flows[0].count"
values = [2, 4]
[[axes]]
key = "topology.bottleneck.bandwidth"
values = ["5Mbps", "10Mbps"]
{SMALL_BASE}
"""

# Slower runs (a few hundred ms each) so that a sweep can be interrupted half way.
SLOW = """
[sweep]
name = "slow"
seeds = 4
[[axes]]
key = "flows[0].count"
values = [30, 40, 50, 60]
""" + sweep_base('protocol = "tcp-newreno"\ncount = 50\nmax_window = "640KB"', duration="2s", bandwidth="1Gbps",
                 access_bandwidth="10Gbps")

# Columns that describe when and where a run ran, not what it computed. (git_commit too: a commit
# made while the tests run must not make two databases differ.)
TIMING = ["started_at", "finished_at", "wall_seconds", "sim_seconds", "worker", "git_commit"]


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def content(db: Path, timing: bool = False) -> dict[str, pd.DataFrame]:
    """Everything a sweep stores (rows sorted, timing columns dropped unless asked), plus a
    digest of every Parquet file."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        out = {
            "runs": con.execute("SELECT * FROM runs ORDER BY run_id").df(),
            "run_flows": con.execute("SELECT * FROM run_flows ORDER BY run_id, flow").df(),
            "run_aggregate": con.execute("SELECT * FROM run_aggregate ORDER BY run_id, label").df(),
            "sweep_runs": con.execute("SELECT * FROM sweep_runs ORDER BY sweep, run_id").df(),
        }
    finally:
        con.close()
    if not timing:
        out["runs"] = out["runs"].drop(columns=TIMING)
    files = sorted((p.relative_to(db.parent).as_posix(), p.read_bytes()) for p in (db.parent / "runs").glob("*/*.parquet"))
    out["files"] = pd.DataFrame(files, columns=["path", "bytes"])
    return out


def assert_same(a: dict[str, pd.DataFrame], b: dict[str, pd.DataFrame]) -> None:
    assert a.keys() == b.keys()
    for name in a:
        pd.testing.assert_frame_equal(a[name].reset_index(drop=True), b[name].reset_index(drop=True), obj=name)


def assert_integrity(db: Path) -> int:
    """Independent of vidcc.results.check: DuckDB opens; every ok run has its Parquet files,
    readable, and its run_flows/run_aggregate rows; failed runs have none; no stray rows.
    Returns the number of ok runs."""
    report = results.check(db)
    assert report.ok, report.problems
    con = duckdb.connect(str(db), read_only=True)
    try:
        runs = con.execute("SELECT run_id, status, error, parquet_tables FROM runs").fetchall()
        flows = dict(con.execute("SELECT run_id, count(*) FROM run_flows GROUP BY run_id").fetchall())
        aggs = dict(con.execute("SELECT run_id, count(*) FROM run_aggregate GROUP BY run_id").fetchall())
    finally:
        con.close()
    ok = 0
    ids = {r[0] for r in runs}
    assert set(flows) <= ids and set(aggs) <= ids, "rows of runs that are not in runs"
    for run_id, status, error, tables in runs:
        assert status in ("ok", "failed")
        if status == "failed":
            assert error and "\n" not in error
            assert run_id not in flows and run_id not in aggs
            continue
        ok += 1
        assert {"flows", "flow_summary", "aggregate", "flow_samples"} <= set(tables)
        for t in tables:
            pq.read_table(db.parent / "runs" / run_id / f"{t}.parquet")  # exists and reads
        assert flows[run_id] == pq.ParquetFile(db.parent / "runs" / run_id / "flows.parquet").metadata.num_rows
        assert aggs[run_id] == pq.ParquetFile(db.parent / "runs" / run_id / "aggregate.parquet").metadata.num_rows
    return ok


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The SMALL sweep on 2 local processes: (sweep file, database, outcome)."""
    d = tmp_path_factory.mktemp("reference")
    path = write(d / "small.toml", SMALL)
    db = d / "db" / "vidcc.duckdb"
    outcome = run_sweep(load_sweep(path), db=db, jobs=2)
    return path, db, outcome


# --------------------------------------------------------------------------------------------
# Resuming and determinism


def test_sweep_twice_identical_and_second_runs_nothing(reference, tmp_path):
    path, db, first = reference
    assert (first.total, first.ran, first.skipped, first.failed) == (8, 8, 0, 0)
    assert len(set(first.run_ids)) == 8
    before = content(db, timing=True)
    again = run_sweep(load_sweep(path), db=db, jobs=2)
    assert (again.ran, again.skipped, again.failed) == (0, 8, 0)
    assert again.run_ids == first.run_ids
    assert_same(before, content(db, timing=True))  # not a byte of it changed
    # The same sweep into a fresh database gives the same content, run for run.
    fresh = tmp_path / "fresh" / "vidcc.duckdb"
    other = run_sweep(load_sweep(path), db=fresh, jobs=1)
    assert other.ran == 8
    assert_same(content(db), content(fresh))
    assert assert_integrity(db) == 8


def test_cli_sweep_second_invocation_runs_nothing(reference, capsys):
    path, db, _ = reference
    assert cli_main(["sweep", str(path), "--db", str(db)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("sweep small: 8 runs: 0 ran (0 ok, 0 failed), 8 already done"), out


def test_force_reruns_everything(reference, tmp_path):
    path, db, _ = reference
    copy = tmp_path / "copy"
    shutil.copytree(db.parent, copy)
    db2 = copy / db.name
    before = content(db2, timing=True)
    outcome = run_sweep(load_sweep(path), db=db2, jobs=2, force=True)
    assert (outcome.ran, outcome.skipped, outcome.failed) == (8, 0, 0)
    after = content(db2, timing=True)
    assert (after["runs"]["started_at"] > before["runs"]["started_at"].max()).all()
    assert_same(content(db), content(db2))  # deterministic: the same results again
    assert assert_integrity(db2) == 8


def test_same_run_from_two_sweeps_is_one_run(reference, tmp_path):
    path, db, first = reference
    copy = tmp_path / "copy"
    shutil.copytree(db.parent, copy)
    db2 = copy / db.name
    # A second sweep whose points are a subset of the first's (bandwidth written in kbps).
    text = SMALL.replace('name = "small"', 'name = "subset"').replace('["5Mbps", "10Mbps"]', '["5000kbps"]')
    sub = run_sweep(parse_sweep(tomllib.loads(text), source="subset.toml"), db=db2, jobs=2)
    assert (sub.total, sub.ran, sub.skipped) == (4, 0, 4)
    assert set(sub.run_ids) < set(first.run_ids)
    con = duckdb.connect(str(db2), read_only=True)
    assert con.execute("SELECT count(*) FROM runs").fetchone()[0] == 8
    assert con.execute("SELECT count(*) FROM sweep_runs WHERE sweep = 'subset'").fetchone()[0] == 4
    con.close()


def test_sweep_tables_equal_vidcc_run(reference):
    """The sweep worker builds Arrow tables straight from the simulator's columns; they must
    hold exactly what ``vidcc.run`` gives (every table, every column, every value)."""
    import vidcc

    path, db, first = reference
    point = load_sweep(path).points()[5]
    result = vidcc.run(point.scenario, seed=point.seed)
    produced = {name for name, df in result.tables.items() if not df.empty}
    con = duckdb.connect(str(db), read_only=True)
    stored = set(con.execute("SELECT parquet_tables FROM runs WHERE run_id = ?", [point.run_id]).fetchone()[0])
    flows = con.execute("SELECT * EXCLUDE (run_id) FROM run_flows WHERE run_id = ? ORDER BY flow", [point.run_id]).df()
    agg = con.execute("SELECT * EXCLUDE (run_id) FROM run_aggregate WHERE run_id = ? ORDER BY rowid", [point.run_id]).df()
    con.close()
    assert stored == produced
    for name in produced:
        pd.testing.assert_frame_equal(results.load_series(point.run_id, name, db=db), result.tables[name], check_dtype=False, obj=name)
    pd.testing.assert_frame_equal(flows, result.per_flow(), check_dtype=False, obj="run_flows")
    pd.testing.assert_frame_equal(agg, result.aggregate, check_dtype=False, obj="run_aggregate")


# --------------------------------------------------------------------------------------------
# Interruption


def _start(path: Path, db: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen(
        [str(VIDCC), "sweep", str(path), "--db", str(db), "--jobs", "2", *extra],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )


def _wait_for_runs(db: Path, n: int, proc: subprocess.Popen, timeout: float = 90) -> None:
    """Until n runs have their files written (their rows follow within milliseconds)."""
    deadline = time.monotonic() + timeout
    runs = db.parent / "runs"
    while time.monotonic() < deadline:
        if runs.is_dir() and sum(1 for d in runs.iterdir() if (d / "flow_summary.parquet").exists()) >= n:
            time.sleep(0.1)
            return
        if proc.poll() is not None:
            pytest.fail(f"the sweep ended before {n} runs were done: {proc.communicate()}")
        time.sleep(0.02)
    pytest.fail(f"no {n} runs within {timeout} s")


def _group_gone(pgid: int, timeout: float = 10) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _cleanup(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the session this test started, and only it
    except ProcessLookupError:
        pass


def _ok_runs(db: Path) -> int:
    con = duckdb.connect(str(db), read_only=True)
    try:
        return con.execute("SELECT count(*) FROM runs WHERE status = 'ok'").fetchone()[0]
    finally:
        con.close()


def _interrupt_and_resume(tmp_path: Path, sig: int) -> None:
    path = write(tmp_path / "slow.toml", SLOW)
    db = tmp_path / "db" / "vidcc.duckdb"
    proc = _start(path, db)
    try:
        _wait_for_runs(db, 2, proc)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
        if sig == signal.SIGINT:
            assert proc.returncode == 130, (out, err)
            assert "interrupted; run again to finish" in err and "Traceback" not in err, err
        else:
            assert proc.returncode == -signal.SIGKILL
        # No worker outlives the sweep, even when its main process was SIGKILLed.
        assert _group_gone(proc.pid), "worker processes survived the sweep"
    finally:
        _cleanup(proc)
    done = assert_integrity(db)
    assert 0 < done < 16, done
    resumed = run_sweep(load_sweep(path), db=db, jobs=2)
    assert (resumed.ran, resumed.skipped, resumed.failed) == (16 - done, done, 0)
    assert assert_integrity(db) == 16


def test_sigint_mid_sweep_then_resume(tmp_path):
    _interrupt_and_resume(tmp_path, signal.SIGINT)


def test_sigkill_main_process_mid_sweep_then_resume(tmp_path):
    _interrupt_and_resume(tmp_path, signal.SIGKILL)


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def test_killed_worker_does_not_lose_runs(tmp_path):
    path = write(tmp_path / "slow.toml", SLOW)
    db = tmp_path / "db" / "vidcc.duckdb"
    proc = _start(path, db)
    try:
        _wait_for_runs(db, 1, proc)
        # Workers are the children of the fork server, itself a child of the sweep.
        workers = [w for child in _children(proc.pid) for w in _children(child)]
        assert workers, "no worker process found"
        os.kill(workers[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, (out, err)
        assert "16 ran (16 ok, 0 failed)" in out, out
    finally:
        _cleanup(proc)
    assert assert_integrity(db) == 16


# --------------------------------------------------------------------------------------------
# Dask


def test_dask_local_cluster_gives_identical_results(reference, tmp_path):
    from distributed import LocalCluster

    path, db, _ = reference
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1", dashboard_address=None) as cluster:
        outcome = run_sweep(load_sweep(path), db=tmp_path / "dask" / "vidcc.duckdb", cluster=cluster.scheduler_address)
    assert (outcome.ran, outcome.failed) == (8, 0)
    dask_db = tmp_path / "dask" / "vidcc.duckdb"
    assert assert_integrity(dask_db) == 8
    assert_same(content(db), content(dask_db))


# --------------------------------------------------------------------------------------------
# Failing runs


def test_failing_run_is_recorded_and_others_complete(tmp_path, capsys):
    path = write(tmp_path / "fail.toml", SMALL.replace("values = [2, 4]", "values = [2, 0]"))
    db = tmp_path / "db" / "vidcc.duckdb"
    assert cli_main(["sweep", str(path), "--db", str(db)]) == 1  # some runs failed
    captured = capsys.readouterr()
    assert "8 ran (4 ok, 4 failed)" in captured.out
    con = duckdb.connect(str(db), read_only=True)
    rows = con.execute("SELECT status, error FROM runs ORDER BY status").fetchall()
    con.close()
    assert [r[0] for r in rows].count("ok") == 4
    errors = {r[1] for r in rows if r[0] == "failed"}
    assert errors == {f"{path}: flows[0].count: must be at least 1, got 0"}
    assert assert_integrity(db) == 4
    # Failed runs are retried by the next invocation; the good ones are not.
    again = run_sweep(load_sweep(path), db=db, jobs=2)
    assert (again.ran, again.skipped, again.failed) == (4, 4, 4)


def test_worker_function_returns_errors_as_data():
    out = simulate_point({"scenario": {"duration": "1s"}}, 3, "x.toml")
    assert out["status"] == "failed" and out["seed"] == 3
    assert out["error"].startswith("x.toml: ") and "\n" not in out["error"]
    good = simulate_point(parse_sweep(tomllib.loads(SMALL)).base, 1)
    assert good["status"] == "ok" and good["error"] is None
    assert {"flows", "flow_summary", "aggregate", "flow_samples"} <= set(good["files"])
    assert good["flows"].num_rows == 3 and good["sim_seconds"] > 0


# --------------------------------------------------------------------------------------------
# Bad sweep files: one line, exit 2


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


BAD = {
    "unknown axis key": (
        SMALL.replace('key = "topology.bottleneck.bandwidth"', 'key = "topology.bottleneck.bandwdth"'),
        'axes[1].key: "topology.bottleneck.bandwdth" is not a key of this scenario (topology.bottleneck.bandwdth: unknown key;',
    ),
    "key of another protocol": (
        SMALL.replace('key = "flows[0].count"', 'key = "flows[0].rate"').replace("values = [2, 4]", 'values = ["1Mbps"]'),
        'axes[0].key: "flows[0].rate" is not a key of this scenario (flows[0].rate: unknown key for protocol "tcp-newreno";',
    ),
    "list index out of range": (
        SMALL.replace('key = "flows[0].count"', 'key = "flows[5].count"'),
        'axes[0].key: "flows[5].count": index 5 is out of range (flows has 2 items in the base)',
    ),
    "empty axis": (SMALL.replace("values = [2, 4]", "values = []"), 'axes[0].values: axis "flows[0].count" has no values'),
    "seed count 0": (SMALL.replace("seeds = 2", "seeds = 0"), "sweep.seeds: the seed count must be at least 1, got 0"),
    "unknown key in the sweep file": (SMALL.replace("seeds = 2", "seeds = 2\nsed = 1"), "sweep.sed: unknown key; expected one of: name, base, seeds, description"),
    "unknown key in an axis": (SMALL.replace("values = [2, 4]", "values = [2, 4]\nstep = 1"), "axes[0].step: unknown key; expected one of: key, values, range"),
    "bad range": (SMALL.replace("values = [2, 4]", "range = { start = 1, stop = 5, step = 0 }"), "axes[0].range.step: must be positive, got 0"),
    "missing base file": (
        '[sweep]\nname = "m"\nbase = "nope.toml"\n[[axes]]\nkey = "flows[0].count"\nvalues = [1]\n',
        'sweep.base: no such file "nope.toml"',
    ),
    "missing name": (SMALL.replace('name = "small"', ""), "sweep.name: missing required key"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_sweep_file_one_line_exit_2(case, tmp_path, capsys):
    text, expected = BAD[case]
    path = write(tmp_path / "bad.toml", text)
    db = tmp_path / "db" / "vidcc.duckdb"
    assert cli_main(["sweep", str(path), "--db", str(db)]) == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"error: {path}: "), err
    assert expected in lines[0], err
    assert not db.exists(), "a bad sweep file must not create a database"


def test_unreachable_cluster_fails_fast(reference, tmp_path, capsys):
    path, _, _ = reference
    address = f"tcp://127.0.0.1:{_free_port()}"
    db = tmp_path / "db" / "vidcc.duckdb"
    t0 = time.monotonic()
    assert cli_main(["sweep", str(path), "--db", str(db), "--cluster", address]) == 2
    assert time.monotonic() - t0 < 6
    lines = capsys.readouterr().err.splitlines()
    assert lines == [f"error: --cluster: {address}: cannot reach the Dask scheduler: Connection refused"], lines
    assert not db.exists()


def test_bad_sweep_file_as_a_real_process(tmp_path):
    path = write(tmp_path / "bad.toml", SMALL.replace("seeds = 2", "seeds = 0"))
    p = subprocess.run([str(VIDCC), "sweep", str(path)], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert p.returncode == 2
    assert p.stderr.splitlines() == [f"error: {path}: sweep.seeds: the seed count must be at least 1, got 0"], p.stderr
    assert p.stdout == "" and not (tmp_path / "results").exists()


def test_bad_jobs_is_a_usage_error(tmp_path, capsys):
    with pytest.raises(SystemExit) as e:
        cli_main(["sweep", "x.toml", "--jobs", "0"])
    assert e.value.code == 2
    assert "--jobs" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# The sweep file format


def test_ranges_values_and_seeds(tmp_path):
    doc = tomllib.loads(SMALL_BASE + """
[sweep]
name = "r"
seeds = [7, 9]
[[axes]]
key = "flows[0].count"
range = { start = 1, stop = 50, step = 5 }
[[axes]]
key = "topology.bottleneck.loss"
values = [{ kind = "bernoulli", p = 0.0 }, { kind = "bernoulli", p = 0.01 }]
[[axes]]
key = "topology.bottleneck.delay"
range = { start = "10ms", stop = "20ms", step = "2.5ms" }
""")
    spec = parse_sweep(doc, source="r.toml")
    assert spec.axes[0].values == [1, 6, 11, 16, 21, 26, 31, 36, 41, 46]
    assert spec.axes[2].values == ["10ms", "12.5ms", "15ms", "17.5ms", "20ms"]
    assert spec.seeds == [7, 9]
    points = spec.points()
    assert len(points) == 10 * 2 * 5 * 2
    assert points[0].axes == {"flows[0].count": 1, "topology.bottleneck.loss": {"kind": "bernoulli", "p": 0.0}, "topology.bottleneck.delay": "10ms"}
    assert [p.seed for p in points[:3]] == [7, 9, 7]
    assert points[0].scenario["topology"]["bottleneck"]["loss"] == {"kind": "bernoulli", "p": 0.0}
    floats = parse_sweep(tomllib.loads(SMALL_BASE + '[sweep]\nname = "f"\n[[axes]]\nkey = "flows[1].send_jitter"\nvalues = ["0s"]\n'
                                       '[[axes]]\nkey = "topology.bottleneck.queue"\nvalues = [{ kind = "red", max_p = 0.1 }]\n'))
    assert floats.seeds == [1]  # the base's own seed
    # Equivalent values are one run: a sweep-file error rather than a silent duplicate.
    with pytest.raises(SweepError, match="two points are the same scenario"):
        SweepSpec("d", spec.base, [Axis("topology.bottleneck.bandwidth", ["10Mbps", "10000kbps"])], [1], "d.toml").points()


def test_example_sweep_file_is_valid():
    spec = load_sweep(ROOT / "scenarios" / "sweeps" / "newreno-flows.toml")
    assert spec.name == "newreno-flows" and len(spec.points()) == 100
