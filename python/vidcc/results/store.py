"""The writer of the results database (:class:`Store`): the schema, its migration, and a run's
Parquet files written before its rows are committed in one transaction. Why this order:
:mod:`vidcc.results`."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from datetime import datetime, timezone
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vidcc.results.database import ResultsError, connect, runs_dir
from vidcc.runids import canonical_json

if TYPE_CHECKING:
    import duckdb

    from vidcc.sweep_spec import Point, SweepSpec

SCHEMA_VERSION = 2  # 2: runs keyed by code (scenario_id, code_fingerprint, superseded_by)

# Columns schema 2 added to ``runs`` (an older database gets them when a writer opens it).
_RUNS_V2_COLUMNS = ("scenario_id", "code_fingerprint", "superseded_by")
_RUNS_COLUMNS = ("run_id", "status", "error", "seed", "scenario_json", "resolved_json", "stats_json", "parquet_tables",
                 "vidcc_version", "git_commit", "worker", "sim_seconds", "wall_seconds", "started_at", "finished_at",
                 *_RUNS_V2_COLUMNS)


_SCHEMA = """
CREATE TABLE IF NOT EXISTS vidcc_meta (
    key VARCHAR PRIMARY KEY,
    value VARCHAR
);
CREATE TABLE IF NOT EXISTS runs (
    run_id VARCHAR PRIMARY KEY,
    status VARCHAR NOT NULL,
    error VARCHAR,
    seed UBIGINT NOT NULL,
    scenario_json VARCHAR NOT NULL,
    resolved_json VARCHAR,
    stats_json VARCHAR,
    parquet_tables VARCHAR[],
    vidcc_version VARCHAR,
    git_commit VARCHAR,
    worker VARCHAR,
    sim_seconds DOUBLE,
    wall_seconds DOUBLE,
    started_at TIMESTAMP,
    finished_at TIMESTAMP,
    scenario_id VARCHAR,
    code_fingerprint VARCHAR,
    superseded_by VARCHAR
);
CREATE TABLE IF NOT EXISTS sweeps (
    sweep VARCHAR PRIMARY KEY,
    source VARCHAR,
    axes VARCHAR[],
    seeds UBIGINT[],
    spec_json VARCHAR,
    updated_at TIMESTAMP
);
CREATE TABLE IF NOT EXISTS sweep_runs (
    sweep VARCHAR NOT NULL,
    run_id VARCHAR NOT NULL,
    point UBIGINT NOT NULL,
    axes_json VARCHAR NOT NULL,
    PRIMARY KEY (sweep, run_id)
);
CREATE TABLE IF NOT EXISTS run_flows (run_id VARCHAR NOT NULL);
CREATE TABLE IF NOT EXISTS run_aggregate (run_id VARCHAR NOT NULL);
"""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


class Store:
    """The writer. Opened by :func:`vidcc.sweep.run_sweep` for the length of a sweep.

    ``durable``: flush each Parquet file to disk before the row that points to it is committed
    (DuckDB flushes its own log at commit), so that even a power cut cannot leave a committed
    row with a truncated file. Costs about 2 ms per file on a local SSD.
    """

    def __init__(self, db: str | PathLike[str], durable: bool = True):
        self.db = Path(db)
        self.runs = runs_dir(self.db)
        self.durable = durable
        self.con = connect(self.db, read_only=False)
        # Inserting one run's rows needs no parallelism; DuckDB's thread pool would only take
        # cores from the workers.
        self.con.execute("SET threads TO 1")
        self._status: dict[str, str] = {}
        self._columns: dict[str, list[str]] = {}
        try:
            self._create()
        except BaseException:
            self.con.close()
            raise

    def _create(self) -> None:
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(_SCHEMA)
            row = con.execute("SELECT value FROM vidcc_meta WHERE key = 'schema_version'").fetchone()
            if row is not None and int(row[0]) > SCHEMA_VERSION:
                raise ResultsError(f"{self.db}: written by a newer vidcc (schema {row[0]}, this one reads {SCHEMA_VERSION})")
            self._migrate(con)
            con.execute("INSERT OR REPLACE INTO vidcc_meta VALUES ('schema_version', ?)", [str(SCHEMA_VERSION)])
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        self.runs.mkdir(parents=True, exist_ok=True)

    @staticmethod
    def _migrate(con: duckdb.DuckDBPyConnection) -> None:
        """Schema 1 → 2: add the code columns to ``runs``. An old run's id was the hash of its
        resolved scenario, so it becomes its ``scenario_id``; its fingerprint stays NULL
        (unknown code), so no sweep takes it for current."""
        have = {r[0] for r in con.execute("DESCRIBE runs").fetchall()}
        for name in _RUNS_V2_COLUMNS:
            if name not in have:
                con.execute(f"ALTER TABLE runs ADD COLUMN {name} VARCHAR")
        con.execute("UPDATE runs SET scenario_id = run_id WHERE scenario_id IS NULL")

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def statuses(self, run_ids: Iterable[str]) -> dict[str, str]:
        """run_id → "ok"/"failed" for the given ids that have a row."""
        import pyarrow as pa

        run_ids = list(run_ids)
        ids = pa.table({"run_id": pa.array(run_ids, pa.string())})
        self.con.register("_ids", ids)
        try:
            rows = self.con.execute("SELECT r.run_id, r.status FROM runs r JOIN _ids USING (run_id)").fetchall()
        finally:
            self.con.unregister("_ids")
        self._status.update(dict.fromkeys(run_ids))  # None: known to have no row
        self._status.update(dict(rows))
        return dict(rows)

    def other_code_runs(self, points: Iterable[Point]) -> dict[str, tuple[str, str | None]]:
        """For each point without an ``ok`` run by this code: the newest ``ok`` run of the same
        scenario made by other code, as point run_id → (that run's id, its code fingerprint or
        None when unknown). Points with no such run are left out."""
        import pyarrow as pa

        wanted = [p for p in points if self._status.get(p.run_id) != "ok"]
        if not wanted:
            return {}
        ids = pa.table({"run_id": pa.array([p.run_id for p in wanted], pa.string()),
                        "scenario_id": pa.array([p.scenario_id for p in wanted], pa.string())})
        self.con.register("_wanted", ids)
        try:
            rows = self.con.execute(
                "SELECT w.run_id, r.run_id, r.code_fingerprint FROM _wanted w JOIN runs r ON r.scenario_id = w.scenario_id "
                "WHERE r.status = 'ok' AND r.run_id <> w.run_id "
                "QUALIFY row_number() OVER (PARTITION BY w.run_id ORDER BY r.finished_at DESC NULLS LAST, r.run_id) = 1"
            ).fetchall()
        finally:
            self.con.unregister("_wanted")
        return {point: (old, code) for point, old, code in rows}

    def begin_sweep(self, spec: SweepSpec, points: list[Point], done_ok: set[str],
                    reused: Mapping[str, str] | None = None) -> None:
        """Record the sweep's definition and its membership as of now: points that are gone from
        the sweep file leave ``sweep_runs``; points already done (by this sweep or another) join
        it without running. ``reused`` maps a point's run_id to the run of other code that
        stands for it (``reuse_stale``): that run joins the sweep instead."""
        import pyarrow as pa

        reused = reused or {}
        pts = pa.table({
            "run_id": pa.array([reused.get(p.run_id, p.run_id) for p in points], pa.string()),
            "point": pa.array([p.index for p in points], pa.uint64()),
            "axes_json": pa.array([json.dumps(p.axes, ensure_ascii=False) for p in points], pa.string()),
        })
        con = self.con
        con.register("_points", pts)
        con.execute("BEGIN TRANSACTION")
        try:
            con.execute(
                "INSERT OR REPLACE INTO sweeps VALUES (?, ?, ?, ?, ?, ?)",
                [spec.name, spec.source, [a.key for a in spec.axes], list(spec.seeds), canonical_json(spec.to_dict()), _now()],
            )
            con.execute("DELETE FROM sweep_runs WHERE sweep = ? AND run_id NOT IN (SELECT run_id FROM _points)", [spec.name])
            con.execute(
                "INSERT OR REPLACE INTO sweep_runs SELECT ?, p.run_id, p.point, p.axes_json FROM _points p "
                "WHERE p.run_id IN (SELECT run_id FROM runs WHERE status = 'ok')",
                [spec.name],
            )
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
        finally:
            con.unregister("_points")

    def record_single(self, group: str, source: str, point: Point, payload: Mapping[str, Any]) -> None:
        """Store one run made outside a sweep (``vidcc run --real``) under the sweep name
        ``group`` (created with no axes if new), so ``vidcc results`` and :func:`load` find it."""
        self.con.execute(
            "INSERT INTO sweeps SELECT ?, ?, [], [], ?, ? WHERE NOT EXISTS (SELECT 1 FROM sweeps WHERE sweep = ?)",
            [group, source, json.dumps({"name": group, "source": source}), _now(), group],
        )
        self.record(group, point, payload)

    def record(self, sweep: str, point: Point, payload: Mapping[str, Any]) -> None:
        """Store one finished run (ok or failed): its files, then its rows in one transaction."""
        import pyarrow as pa

        run_id = point.run_id
        ok = payload["status"] == "ok"
        if run_id not in self._status:
            self.statuses([run_id])
        if self._status.get(run_id) == "ok":
            # --force: take the old rows out before their files change, so that no row ever
            # points at files of another run. Killed right after this, the run is just missing.
            self._transaction(lambda con: self._delete(con, run_id))
            self._status.pop(run_id, None)
        tables = sorted(payload["files"]) if ok else []
        if ok:
            self._write_files(run_id, payload["files"])
        elif (self.runs / run_id).is_dir():
            self._write_files(run_id, {})  # a failed run has no files (an old ok run's go)

        def insert(con: duckdb.DuckDBPyConnection) -> None:
            if self._status.get(run_id) is not None:
                self._delete(con, run_id)
            con.execute(
                f"INSERT INTO runs ({', '.join(_RUNS_COLUMNS)}) VALUES ({', '.join('?' * len(_RUNS_COLUMNS))})",  # no row now: see above
                [
                    run_id,
                    "ok" if ok else "failed",
                    None if ok else (payload.get("error") or "failed"),
                    point.seed,
                    json.dumps(point.scenario, ensure_ascii=False, default=str),
                    canonical_json(payload["resolved"]) if payload.get("resolved") is not None else None,
                    json.dumps(payload["stats"], sort_keys=True) if payload.get("stats") is not None else None,
                    tables,
                    payload.get("vidcc_version"),
                    payload.get("git_commit"),
                    payload.get("worker"),
                    payload.get("sim_seconds"),
                    payload.get("wall_seconds"),
                    payload.get("started_at"),
                    payload.get("finished_at"),
                    payload.get("scenario_id") or point.scenario_id or None,
                    payload.get("code_fingerprint"),
                    None,
                ],
            )
            if ok and (payload.get("scenario_id") or point.scenario_id):
                # Other code's runs of this scenario stay (to compare), marked as superseded.
                con.execute("UPDATE runs SET superseded_by = ? WHERE scenario_id = ? AND run_id <> ?",
                            [run_id, payload.get("scenario_id") or point.scenario_id, run_id])
            if ok:
                for name, key in (("run_flows", "flows"), ("run_aggregate", "aggregate")):
                    tbl = payload.get(key)
                    if tbl is not None and tbl.num_rows:
                        tbl = tbl.add_column(0, "run_id", pa.array([run_id] * tbl.num_rows, pa.string()))
                        self._insert(con, name, tbl)
            con.execute(
                "INSERT OR REPLACE INTO sweep_runs VALUES (?, ?, ?, ?)",
                [sweep, run_id, point.index, json.dumps(point.axes, ensure_ascii=False)],
            )

        self._transaction(insert)
        self._status[run_id] = "ok" if ok else "failed"

    def _transaction(self, body) -> None:
        con = self.con
        con.execute("BEGIN TRANSACTION")
        try:
            body(con)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            self._columns.clear()  # a rolled-back ALTER TABLE must be seen again
            raise

    @staticmethod
    def _delete(con: duckdb.DuckDBPyConnection, run_id: str) -> None:
        for table in ("run_flows", "run_aggregate", "runs"):
            con.execute(f"DELETE FROM {table} WHERE run_id = ?", [run_id])

    def _insert(self, con: duckdb.DuckDBPyConnection, table: str, tbl) -> None:
        """Append an Arrow table's rows, adding the columns the table does not have yet."""
        have = self._columns.get(table)
        if have is None:
            have = [r[0] for r in con.execute(f"DESCRIBE {table}").fetchall()]
            self._columns[table] = have
        if tbl.column_names == have:  # the usual case, and the cheapest insert
            con.from_arrow(tbl).insert_into(table)
            return
        con.register("_new", tbl)
        try:
            if any(name not in have for name in tbl.column_names):
                for name, typ, *_ in con.execute("DESCRIBE _new").fetchall():
                    if name not in have:
                        con.execute(f"ALTER TABLE {table} ADD COLUMN {_quote(name)} {typ}")
                        have.append(name)
            con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _new")
        finally:
            con.unregister("_new")

    def _write_files(self, run_id: str, files: Mapping[str, bytes]) -> None:
        d = self.runs / run_id
        d.mkdir(parents=True, exist_ok=True)
        wanted = {f"{name}.parquet" for name in files}
        for old in d.iterdir():  # leftovers of a killed writer, or tables an older run had
            if old.name not in wanted and (old.name.endswith(".tmp") or old.name.endswith(".parquet")):
                old.unlink(missing_ok=True)
        for name, data in files.items():
            _atomic_write(d / f"{name}.parquet", data, self.durable)
        if self.durable:
            _fsync_dir(d)


def _atomic_write(path: Path, data: bytes, durable: bool) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _fsync_dir(d: Path) -> None:
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
