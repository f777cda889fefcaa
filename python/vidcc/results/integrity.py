"""Checking the results database's promises (:func:`check`): every ``ok`` run has its readable
Parquet files and matching rows, failed runs have none, no row is orphaned."""

from __future__ import annotations

from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from vidcc.results.database import DB_TABLES, ResultsError, connect, default_db, runs_dir


@dataclass
class CheckReport:
    """:func:`check`'s findings. ``problems`` break the database's promises; ``orphans`` are
    run directories without a row (left by an interrupted sweep; harmless, rewritten when the
    run is done again); ``pending`` counts ``sweep_runs`` rows whose run is not recorded."""

    runs_ok: int = 0
    runs_failed: int = 0
    pending: int = 0
    problems: list[str] = field(default_factory=list)
    orphans: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def check(db: str | PathLike[str] | None = None) -> CheckReport:
    """Verify the promises of the database: it opens cleanly; every ``ok`` run has each of its
    Parquet files, readable, and as many ``run_flows``/``run_aggregate`` rows as its
    ``flows``/``aggregate`` files; failed runs have an error and no rows elsewhere; no
    ``run_flows``/``run_aggregate`` row belongs to a run that is not there."""
    import duckdb
    import pyarrow.parquet as pq

    db = Path(db) if db is not None else default_db()
    report = CheckReport()
    try:
        con = connect(db, read_only=True)
    except ResultsError as e:
        report.problems.append(str(e))
        return report
    base = runs_dir(db)
    try:
        missing = [t for t in DB_TABLES if not con.execute("SELECT 1 FROM information_schema.tables WHERE table_name = ?", [t]).fetchone()]
        if missing:
            report.problems.append(f"{db}: missing tables: {', '.join(missing)}")
            return report
        flows = dict(con.execute("SELECT run_id, count(*) FROM run_flows GROUP BY run_id").fetchall())
        aggs = dict(con.execute("SELECT run_id, count(*) FROM run_aggregate GROUP BY run_id").fetchall())
        runs = con.execute("SELECT run_id, status, error, parquet_tables FROM runs").fetchall()
        known = set()
        for run_id, status, error, tables in runs:
            known.add(run_id)
            short = run_id[:16]
            if status == "failed":
                report.runs_failed += 1
                if not error:
                    report.problems.append(f"run {short}: failed without an error message")
                if flows.get(run_id) or aggs.get(run_id):
                    report.problems.append(f"run {short}: failed but has run_flows/run_aggregate rows")
                continue
            if status != "ok":
                report.problems.append(f"run {short}: unknown status {status!r}")
                continue
            report.runs_ok += 1
            rows: dict[str, int] = {}
            for table in tables or []:
                path = base / run_id / f"{table}.parquet"
                if not path.exists():
                    report.problems.append(f"run {short}: missing {path}")
                    continue
                try:
                    rows[table] = pq.ParquetFile(path).metadata.num_rows
                except Exception as e:  # noqa: BLE001
                    report.problems.append(f"run {short}: unreadable {path}: {' '.join(str(e).split())}")
            if "flows" not in (tables or []):
                report.problems.append(f"run {short}: ok but has no flows table")
            if "flows" in rows and flows.get(run_id, 0) != rows["flows"]:
                report.problems.append(f"run {short}: {flows.get(run_id, 0)} run_flows rows, flows.parquet has {rows['flows']}")
            if "aggregate" in rows and aggs.get(run_id, 0) != rows["aggregate"]:
                report.problems.append(f"run {short}: {aggs.get(run_id, 0)} run_aggregate rows, aggregate.parquet has {rows['aggregate']}")
        for name, counts in (("run_flows", flows), ("run_aggregate", aggs)):
            stray = [r for r in counts if r not in known]
            if stray:
                report.problems.append(f"{len(stray)} run(s) in {name} without a runs row (first: {stray[0][:16]})")
        # sweep_runs rows without a runs row are points still to run (e.g. after an
        # interrupted --force): membership, not results, so not a problem.
        report.pending = con.execute("SELECT count(*) FROM sweep_runs WHERE run_id NOT IN (SELECT run_id FROM runs)").fetchone()[0]
        if base.is_dir():
            report.orphans = sorted(p.name for p in base.iterdir() if p.is_dir() and p.name not in known)
    except duckdb.Error as e:
        report.problems.append(f"{db}: {' '.join(str(e).split())}")
    finally:
        con.close()
    return report
