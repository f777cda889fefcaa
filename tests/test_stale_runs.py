"""Runs keyed by code: a run made by other code (another code fingerprint) is never taken for
current. It is run again (the old run kept, marked superseded) unless ``reuse_stale`` asks to
reuse it, and then the sweep's summary line and the paper report say so. Also: a database of
schema 1 opens and its runs count as other code; kill-and-resume across a code change.

"Other code" is simulated by recording points under another fingerprint through the real
store (:func:`record_as_other_code`): the same resolved scenario, another run id.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import duckdb
import pytest

from test_reproduce import tiny_suite
from test_sweep import SLOW, SMALL, _cleanup, _start, _wait_for_runs, assert_integrity, write
from vidcc import report, results
from vidcc.cli import main as cli_main
from vidcc.papers.building import part_spec
from vidcc.papers.running import run_suite
from vidcc.runids import ANALYSIS_ONLY, analysis_files, code_fingerprint, fingerprint_files, run_id_of, scenario_id_of
from vidcc.sweep import describe, load_sweep, run_sweep, simulate_point

OTHER = "0" * 64  # the fingerprint of "other code"


def record_as_other_code(spec, db: Path, fingerprint: str = OTHER) -> list[str]:
    """Record every point of ``spec`` as if another build of the code had run it: the same
    resolved scenario and tables, filed under ``fingerprint``. Returns the old run ids."""
    ids = []
    with results.Store(db, durable=False) as store:
        for p in spec.points():
            payload = simulate_point(p.scenario, p.seed, spec.source)
            assert payload["status"] == "ok", payload["error"]
            old_id = run_id_of(payload["resolved"], fingerprint)
            payload.update(run_id=old_id, code_fingerprint=fingerprint)
            store.record(spec.name, dataclasses.replace(p, run_id=old_id), payload)
            ids.append(old_id)
    return ids


def runs_rows(db: Path) -> list[tuple]:
    con = duckdb.connect(str(db), read_only=True)
    try:
        sql = "SELECT run_id, scenario_id, code_fingerprint, superseded_by, status FROM runs ORDER BY run_id"
        return con.execute(sql).fetchall()
    finally:
        con.close()


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    d = tmp_path_factory.mktemp("small")
    return load_sweep(write(d / "small.toml", SMALL))


def test_fingerprint_covers_the_extension_and_every_source_and_changes_with_them(tmp_path):
    import vidcc
    from vidcc import _vidcc

    files = fingerprint_files()
    package = Path(vidcc.__file__).resolve().parent
    assert files[0] == Path(_vidcc.__file__).resolve()
    # Every source is hashed by exactly one of the two fingerprints.
    assert set(files[1:]) | set(analysis_files()) == set(package.rglob("*.py")) and len(files) > 40
    assert not set(files[1:]) & set(analysis_files())
    assert package / "runner.py" in files and package / "papers" / "verdicts.py" in analysis_files()
    assert len(code_fingerprint()) == 64 and code_fingerprint() == code_fingerprint()
    # A copy of the package gives the same fingerprint; one edited byte gives another.
    copy = tmp_path / "vidcc"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    probe = "from vidcc.runids import code_fingerprint; print(code_fingerprint())"

    def fingerprint() -> str:
        return subprocess.run([sys.executable, "-c", probe], cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)},
                              capture_output=True, text=True, check=True).stdout.strip()

    assert fingerprint() == code_fingerprint()
    # An edit to a suite's checks leaves the run code alone; an edit to the runner does not.
    target = copy / "papers" / "verdicts.py"
    target.write_text(target.read_text() + "\n# an edit\n")
    assert fingerprint() == code_fingerprint()
    target = copy / "runner.py"
    target.write_text(target.read_text() + "\n# an edit\n")
    assert fingerprint() != code_fingerprint()


def test_making_a_run_imports_none_of_the_analysis_only_code(tmp_path):
    """What :data:`ANALYSIS_ONLY` leaves out of the fingerprint must not take part in a run: a
    fresh process simulates points as a sweep worker does (a plain sweep's, and a paper suite's
    video point, built here and handed over as JSON) and lists the vidcc modules it imported."""
    from vidcc.papers import load_suite

    suite = load_suite("asmp-tfmcc")
    figure = suite.figures[0]
    paper_point = part_spec(suite, figure, figure.parts[0], "quick").points()[0]
    small_point = load_sweep(write(tmp_path / "small.toml", SMALL)).points()[0]
    points = [{"scenario": p.scenario, "seed": p.seed} for p in (small_point, paper_point)]
    (tmp_path / "points.json").write_text(json.dumps(points, default=str))
    probe = (
        "import sys, json\n"
        "from vidcc.point import simulate_point\n"
        f"for p in json.load(open({str(tmp_path / 'points.json')!r})):\n"
        "    out = simulate_point(p['scenario'], p['seed'])\n"
        "    assert out['status'] == 'ok', out['error']\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('vidcc'))))\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    imported = [m.replace(".", "/").removeprefix("vidcc") for m in json.loads(out.strip().splitlines()[-1])]
    assert "/runner" in imported or "/point" in imported  # the probe did run something
    paths = [m.removeprefix("/") for m in imported]
    assert [m for m in paths if any((m + "/").startswith(a) if a.endswith("/") else m + ".py" == a
                                    for a in ANALYSIS_ONLY)] == []


def test_run_id_is_scenario_and_code():
    resolved = {"seed": 1, "duration_ns": 5}
    assert run_id_of(resolved) == run_id_of(resolved, code_fingerprint())
    assert run_id_of(resolved, "a") != run_id_of(resolved, "b")
    assert scenario_id_of(resolved) == scenario_id_of({"duration_ns": 5, "seed": 1})


def test_same_code_reuses_everything(small, tmp_path):
    db = tmp_path / "db.duckdb"
    first = run_sweep(small, db=db, jobs=1)
    assert (first.ran, first.skipped, first.failed) == (8, 0, 0)
    again = run_sweep(small, db=db, jobs=1)
    assert (again.ran, again.skipped, again.rerun_stale, again.stale) == (0, 8, 0, {})
    assert again.run_ids == first.run_ids
    assert "other code" not in describe(again, small.name, db) and "MIXED" not in describe(again, small.name, db)
    assert all(code == code_fingerprint() and sup is None for _, _, code, sup, _ in runs_rows(db))


def test_other_codes_runs_are_run_again_and_kept_as_superseded(small, tmp_path):
    db = tmp_path / "db.duckdb"
    old = record_as_other_code(small, db)
    out = run_sweep(small, db=db, jobs=1)
    assert (out.ran, out.skipped, out.failed, out.rerun_stale) == (8, 0, 0, 8)
    assert not set(out.run_ids) & set(old)
    line = describe(out, small.name, db)
    assert "8 of those ran had only runs by other code, kept as superseded" in line, line
    rows = {r[0]: r for r in runs_rows(db)}
    assert len(rows) == 16  # the old runs stay, to compare
    new_by_scenario = {rows[i][1]: i for i in out.run_ids}
    for i in old:
        assert rows[i][2] == OTHER and rows[i][3] == new_by_scenario[rows[i][1]]
    for i in out.run_ids:
        assert rows[i][2] == code_fingerprint() and rows[i][3] is None
    # The sweep's results are this code's only.
    df = results.load(db=db, sweep=small.name)
    assert sorted(df["run_id"]) == sorted(out.run_ids) and set(df["code_fingerprint"]) == {code_fingerprint()}
    assert_integrity(db)


def test_reuse_stale_runs_nothing_and_says_which_code(small, tmp_path, capsys):
    db = tmp_path / "db.duckdb"
    old = record_as_other_code(small, db)
    out = run_sweep(small, db=db, jobs=1, reuse_stale=True)
    assert (out.ran, out.skipped, out.rerun_stale) == (0, 8, 0)
    assert out.run_ids == old and out.stale == dict.fromkeys(old, OTHER)
    assert f"MIXED CODE: 8 reused from other code (8 by code {OTHER[:12]}" in describe(out, small.name, db)
    df = results.load(db=db, sweep=small.name)
    assert set(df["code_fingerprint"]) == {OTHER} and len(df) == 8
    # The command line: the flag, and the summary line.
    path = write(tmp_path / "small.toml", SMALL)
    assert cli_main(["sweep", str(path), "--db", str(db), "--jobs", "1", "--reuse-stale"]) == 0
    assert "MIXED CODE: 8 reused from other code" in capsys.readouterr().out
    assert cli_main(["sweep", str(path), "--db", str(db), "--jobs", "1"]) == 0
    assert "8 ran (8 ok, 0 failed)" in capsys.readouterr().out
    with pytest.raises(Exception, match="reuse_stale"):
        run_sweep(small, db=db, jobs=1, force=True, reuse_stale=True)


def test_report_marks_figures_made_by_other_code(tmp_path):
    suite = tiny_suite()
    fig = suite.figures[0]
    db = tmp_path / "db.duckdb"
    old = record_as_other_code(part_spec(suite, fig, fig.part("reno"), "quick"), db)
    run = run_suite(suite, "quick", db=db, out_dir=tmp_path / "out", jobs=1, reuse_stale=True, progress=False,
                    log=lambda _: None)
    reno = next(p for p in run.figures[0].parts if p.part.name == "reno")
    assert (reno.ran, reno.skipped) == (0, 4) and sorted(reno.stale) == sorted(old)
    page, claims = report.write_suite(run, tmp_path / "out")
    doc = json.loads(claims.read_text())
    assert doc["figures"][0]["other_code"]["runs"] == 4 and doc["figures"][0]["other_code"]["codes"] == [OTHER]
    assert doc["figures"][0]["parts"][0]["other_code"]["runs"] == 4 and doc["code_fingerprint"] == code_fingerprint()
    html = page.read_text()
    assert "MIXED CODE" in html and f"4 by code {OTHER[:12]}" in html
    # Without the flag the same suite runs them again and the report has no mark.
    fresh = run_suite(suite, "quick", db=db, out_dir=tmp_path / "out2", jobs=1, progress=False, log=lambda _: None)
    reno = next(p for p in fresh.figures[0].parts if p.part.name == "reno")
    assert (reno.ran, reno.stale) == (4, {})
    page, claims = report.write_suite(fresh, tmp_path / "out2")
    assert "MIXED CODE" not in page.read_text() and json.loads(claims.read_text())["figures"][0]["other_code"] is None


V1_RUNS = """CREATE TABLE runs (run_id VARCHAR PRIMARY KEY, status VARCHAR NOT NULL, error VARCHAR,
    seed UBIGINT NOT NULL, scenario_json VARCHAR NOT NULL, resolved_json VARCHAR, stats_json VARCHAR,
    parquet_tables VARCHAR[], vidcc_version VARCHAR, git_commit VARCHAR, worker VARCHAR, sim_seconds DOUBLE,
    wall_seconds DOUBLE, started_at TIMESTAMP, finished_at TIMESTAMP)"""


def make_schema_1(small, db: Path) -> list[str]:
    """A database as vidcc wrote it before runs were keyed by code: run_id = scenario hash, no
    code columns, schema_version 1. Returns its run ids."""
    run_sweep(small, db=db, jobs=1)
    con = duckdb.connect(str(db))
    try:
        rows = con.execute("SELECT run_id, scenario_id FROM runs").fetchall()
        con.execute("CREATE TABLE runs_old AS SELECT * EXCLUDE (scenario_id, code_fingerprint, superseded_by) "
                    "FROM runs")
        con.execute("DROP TABLE runs")
        con.execute(V1_RUNS)
        con.execute("INSERT INTO runs SELECT * FROM runs_old")
        con.execute("DROP TABLE runs_old")
        for table in ("run_flows", "run_aggregate", "sweep_runs"):
            for run_id, scenario_id in rows:
                con.execute(f"UPDATE {table} SET run_id = ? WHERE run_id = ?", [scenario_id, run_id])
        for run_id, scenario_id in rows:
            con.execute("UPDATE runs SET run_id = ? WHERE run_id = ?", [scenario_id, run_id])
            (db.parent / "runs" / run_id).rename(db.parent / "runs" / scenario_id)
        con.execute("UPDATE vidcc_meta SET value = '1' WHERE key = 'schema_version'")
    finally:
        con.close()
    return [s for _, s in rows]


def test_schema_1_database_opens_and_its_runs_are_other_code(small, tmp_path):
    db = tmp_path / "db.duckdb"
    old = make_schema_1(small, db)
    assert len(results.load(db=db, sweep=small.name)) == 8  # readable before any writer migrates it
    stale = run_sweep(small, db=db, jobs=1, reuse_stale=True)
    assert (stale.ran, stale.skipped) == (0, 8) and sorted(stale.stale) == sorted(old)
    assert set(stale.stale.values()) == {None} and "8 by unknown code" in describe(stale, small.name, db)
    rows = {r[0]: r for r in runs_rows(db)}
    assert all(rows[i][1] == i and rows[i][2] is None for i in old)  # scenario_id = the old key; code unknown
    fresh = run_sweep(small, db=db, jobs=1)
    assert (fresh.ran, fresh.skipped, fresh.rerun_stale) == (8, 0, 8)
    rows = {r[0]: r for r in runs_rows(db)}
    assert len(rows) == 16 and all(rows[i][3] in fresh.run_ids for i in old)
    con = duckdb.connect(str(db), read_only=True)
    version = con.execute("SELECT value FROM vidcc_meta WHERE key = 'schema_version'").fetchone()[0]
    assert version == str(results.SCHEMA_VERSION) == "2"
    con.close()
    assert_integrity(db)


def test_kill_and_resume_across_a_code_change(tmp_path):
    """Every point has a run by other code; the sweep (this code) is SIGKILLed half way, then
    resumed: it runs exactly the points still missing a run by this code, loses nothing, and
    every old run is kept and superseded."""
    path = write(tmp_path / "slow.toml", SLOW)
    spec = load_sweep(path)
    db = tmp_path / "db" / "vidcc.duckdb"
    old = record_as_other_code(spec, db)
    assert len(old) == 16
    proc = _start(path, db)
    try:
        _wait_for_runs(db, 16 + 2, proc)  # the 16 old runs' directories, then 2 new ones
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
    finally:
        _cleanup(proc)
    assert_integrity(db)
    current = {r[0] for r in runs_rows(db) if r[2] == code_fingerprint() and r[4] == "ok"}
    assert 0 < len(current) < 16, len(current)
    resumed = run_sweep(spec, db=db, jobs=2)
    assert (resumed.ran, resumed.skipped, resumed.failed) == (16 - len(current), len(current), 0)
    assert current <= set(resumed.run_ids)
    rows = {r[0]: r for r in runs_rows(db)}
    assert len(rows) == 32 and assert_integrity(db) == 32
    assert all(rows[i][3] in resumed.run_ids for i in old)
    assert sorted(results.load(db=db, sweep=spec.name)["run_id"]) == sorted(resumed.run_ids)


def test_a_worker_running_other_code_is_refused(small, tmp_path, monkeypatch):
    """The run id is made with the worker's own fingerprint: a worker running other code (a
    cluster node with another build) cannot file its result under this code's point."""
    from vidcc import cluster

    @dataclasses.dataclass(eq=False)
    class Done:
        payload: dict

    class OtherCodeWorkers:
        """Runs each point in this process, as a worker whose code is OTHER would."""

        window, resubmit_lost = 1, False

        def __init__(self, jobs=None):
            pass

        def prestart(self):
            pass

        def submit(self, scenario, seed, source, key=None):
            out = simulate_point(scenario, seed, source)
            out.update(run_id=run_id_of(out["resolved"], OTHER), code_fingerprint=OTHER)
            return Done(out)

        def wait(self, futures, timeout):
            return list(futures)

        def is_done(self, fut):
            return True

        def result(self, fut):
            return fut.payload

        def close(self, cancel=False):
            pass

    monkeypatch.setattr(cluster, "LocalExecutor", OtherCodeWorkers)
    db = tmp_path / "db.duckdb"
    out = run_sweep(small, db=db, jobs=1)
    assert (out.ran, out.failed) == (8, 8)
    assert all("runs other code" in e and OTHER[:12] in e for e in out.errors.values()), out.errors
    assert not any(r[4] == "ok" for r in runs_rows(db))
