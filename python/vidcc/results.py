"""The results database: an embedded DuckDB file, with each run's time series as Parquet files
beside it (``<db dir>/runs/<run_id>/<table>.parquet``).

Why this shape:

* **Keyed by content and code.** ``scenario_id`` is the sha256 of the canonical JSON of the
  fully resolved scenario (seed included); ``run_id`` is that scenario run by one build of the
  code (``code_fingerprint``, :mod:`vidcc.runids`). Re-running a sweep skips every run already
  recorded as ``ok`` *by the same code*; the same point reached from two sweeps is one run,
  listed in ``sweep_runs`` once per sweep.
* **Other code's runs are kept, marked.** A scenario run again by new code gets a new row; the
  old row stays (``vidcc results query`` can compare the two) with ``superseded_by`` naming the
  newer run. Sweeps use it only when asked (``reuse_stale``), and then say so. Runs recorded
  before schema 2 have no fingerprint (NULL: unknown code, never current).
* **One writer.** Only the main process of a sweep writes (workers return data), through
  :class:`Store`. DuckDB allows one writing process per file, and a single writer is what
  makes the invariant below simple to keep.
* **Files first, then one transaction.** A run's Parquet files are written (each to a
  temporary name, flushed to disk, renamed) before its rows are inserted in a single
  transaction. An interrupted sweep (Ctrl-C, a killed worker, a killed process) therefore
  never leaves a half-written row, and a row always has its files. Files without a row
  (a process killed between the two steps) are harmless: the run is missing, the next
  invocation runs it again and overwrites them. :func:`check` verifies all of this.
* **Wide tables evolve.** ``run_flows`` and ``run_aggregate`` take whatever columns the
  simulator's ``flows``/``flow_summary``/``aggregate`` tables have; a column that appears in a
  later version is added (older rows hold NULL there).

Read back with :func:`load` (pandas, polars or Arrow), :func:`load_series` (one run's
Parquet), :func:`query` (SQL) or ``vidcc results query "SQL"``. Schema and examples:
``docs/experiments.md`` ("Results database").
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vidcc.runids import canonical_json

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

    from vidcc.sweep_spec import Point, SweepSpec

__all__ = [
    "DEFAULT_DB",
    "DB_TABLES",
    "SERIES_TABLES",
    "ResultsError",
    "Store",
    "CheckReport",
    "default_db",
    "runs_dir",
    "load",
    "load_series",
    "query",
    "check",
]

DEFAULT_DB = "results/vidcc.duckdb"
SCHEMA_VERSION = 2  # 2: runs keyed by code (scenario_id, code_fingerprint, superseded_by)

# Columns schema 2 added to ``runs`` (an older database gets them when a writer opens it).
_RUNS_V2_COLUMNS = ("scenario_id", "code_fingerprint", "superseded_by")
_RUNS_COLUMNS = ("run_id", "status", "error", "seed", "scenario_json", "resolved_json", "stats_json", "parquet_tables",
                 "vidcc_version", "git_commit", "worker", "sim_seconds", "wall_seconds", "started_at", "finished_at",
                 *_RUNS_V2_COLUMNS)

# Tables in the database, and the per-run Parquet tables beside it (vidcc.runner.TABLES).
DB_TABLES = ("runs", "run_flows", "run_aggregate", "sweep_runs", "sweeps")
SERIES_TABLES = ("flows", "flow_summary", "aggregate", "flow_samples", "queue_samples", "links", "events", "packets",
                 "frames", "video_summary")
BACKENDS = ("pandas", "polars", "arrow")

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


class ResultsError(RuntimeError):
    """A results database that cannot be used as asked: one line naming the database."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


def default_db() -> Path:
    """``$VIDCC_DB`` if set, else ``results/vidcc.duckdb`` (relative to the working directory)."""
    return Path(os.environ.get("VIDCC_DB") or DEFAULT_DB)


def runs_dir(db: str | PathLike[str] | None = None) -> Path:
    """Where the Parquet files of a database's runs live: ``<db dir>/runs``."""
    return Path(db if db is not None else default_db()).parent / "runs"


def _connect(db: str | PathLike[str], read_only: bool) -> duckdb.DuckDBPyConnection:
    import duckdb  # here, not at the top: a sweep's start-up should not wait for it

    path = Path(db)
    if read_only and not path.exists():
        raise ResultsError(f"{path}: no such results database (run a sweep first, or pass --db)")
    if not read_only:
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return duckdb.connect(str(path), read_only=read_only)
    except duckdb.IOException as e:
        text = str(e)
        if "lock" in text.lower():
            pid = re.search(r"PID (\d+)", text)
            who = f" (process {pid.group(1)})" if pid else ""
            raise ResultsError(f"{path}: in use by another process{who}, probably a running sweep; DuckDB allows one writer and no reader beside it, try again when it has finished") from None
        raise ResultsError(f"{path}: cannot open: {text}") from None
    except duckdb.Error as e:
        raise ResultsError(f"{path}: cannot open: {e}") from None


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None)


# --------------------------------------------------------------------------------------------
# Writing (the main process of a sweep)


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
        self.con = _connect(self.db, read_only=False)
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


# --------------------------------------------------------------------------------------------
# Reading


def _frame(df: pd.DataFrame, backend: str):
    if backend == "pandas":
        return df
    if backend == "arrow":
        import pyarrow as pa

        return pa.Table.from_pandas(df, preserve_index=False)
    if backend == "polars":
        try:
            import polars as pl
        except ImportError:
            raise ResultsError('backend="polars" needs the polars package, which is not installed (pip install polars)') from None
        return pl.from_pandas(df)
    raise ResultsError(f"unknown backend {backend!r}; expected one of: {', '.join(BACKENDS)}")


def _check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise ResultsError(f"unknown backend {backend!r}; expected one of: {', '.join(BACKENDS)}")
    if backend == "polars":
        try:
            import polars  # noqa: F401
        except ImportError:
            raise ResultsError('backend="polars" needs the polars package, which is not installed (pip install polars)') from None


def load(
    db: str | PathLike[str] | None = None,
    table: str = "runs",
    sweep: str | None = None,
    backend: str = "pandas",
):
    """A table of the results database as a DataFrame.

    ``table``: ``"runs"``, ``"run_flows"``, ``"run_aggregate"``, ``"sweep_runs"`` or
    ``"sweeps"``. With ``sweep``, only that sweep's runs, with ``sweep``, ``point``, ``seed``
    and one column per axis (named by its key path, e.g. ``"flows[0].count"``) in front, in
    the sweep's point order. ``backend``: ``"pandas"`` (default), ``"polars"`` (if installed)
    or ``"arrow"``.
    """
    _check_backend(backend)
    if table not in DB_TABLES:
        raise ResultsError(f"unknown table {table!r}; expected one of: {', '.join(DB_TABLES)}")
    db = Path(db) if db is not None else default_db()
    con = _connect(db, read_only=True)
    try:
        if sweep is None:
            order = {"runs": "run_id", "sweep_runs": "sweep, point", "sweeps": "sweep"}.get(table, "run_id, rowid")
            return _frame(con.execute(f"SELECT * FROM {table} ORDER BY {order}").df(), backend)
        found = con.execute("SELECT axes FROM sweeps WHERE sweep = ?", [sweep]).fetchone()
        if found is None:
            names = [r[0] for r in con.execute("SELECT sweep FROM sweeps ORDER BY sweep").fetchall()]
            raise ResultsError(f"{db}: no sweep named {sweep!r}; sweeps: {', '.join(names) if names else '(none)'}")
        axes = list(found[0] or [])
        if table == "sweeps":
            return _frame(con.execute("SELECT * FROM sweeps WHERE sweep = ?", [sweep]).df(), backend)
        if table == "sweep_runs":
            sql = ("SELECT s.sweep, s.point, s.run_id, r.seed, s.axes_json, r.status, r.error FROM sweep_runs s "
                   "LEFT JOIN runs r USING (run_id) WHERE s.sweep = ? ORDER BY s.point")
        elif table == "runs":
            sql = ("SELECT s.sweep, s.point, s.axes_json, r.* FROM sweep_runs s JOIN runs r USING (run_id) "
                   "WHERE s.sweep = ? ORDER BY s.point")
        else:
            sql = (f"SELECT s.sweep, s.point, r.seed, s.axes_json, t.* FROM sweep_runs s JOIN runs r USING (run_id) "
                   f"JOIN {table} t ON t.run_id = s.run_id WHERE s.sweep = ? ORDER BY s.point, t.rowid")
        df = con.execute(sql, [sweep]).df()
    finally:
        con.close()
    return _frame(_expand_axes(df, axes), backend)


def _expand_axes(df: pd.DataFrame, axes: list[str]) -> pd.DataFrame:
    """``axes_json`` → one column per axis, placed after sweep/point/run_id/seed."""
    import pandas as pd

    parsed = [json.loads(text) for text in df["axes_json"]] if len(df) else []
    front = [c for c in ("sweep", "point", "run_id", "seed") if c in df.columns]
    rest = [c for c in df.columns if c not in front and c != "axes_json"]
    out = df[front].copy()
    for key in axes:
        values = [p.get(key) for p in parsed]
        out[key] = pd.Series(values, index=df.index, dtype=_dtype(values))
    for c in rest:
        out[c] = df[c]
    return out.reset_index(drop=True)


def _dtype(values: list[Any]) -> str | None:
    kinds = {type(v) for v in values}
    if kinds == {int}:
        return "int64"
    if kinds <= {int, float} and kinds:
        return "float64"
    if kinds == {bool}:
        return "bool"
    return "object"


def load_series(
    run_id: str,
    table: str = "flow_samples",
    db: str | PathLike[str] | None = None,
    backend: str = "pandas",
):
    """One run's Parquet table (``flow_samples``, ``queue_samples``, ``events``, ``links``,
    ``flows``, ``flow_summary``, ``aggregate``, ``packets``, ``frames``, ``video_summary``). ``run_id`` may be a unique
    prefix. A table the run did not produce (empty) comes back empty."""
    import pandas as pd

    _check_backend(backend)
    if table not in SERIES_TABLES:
        raise ResultsError(f"unknown table {table!r}; expected one of: {', '.join(SERIES_TABLES)}")
    db = Path(db) if db is not None else default_db()
    path = runs_dir(db) / str(run_id) / f"{table}.parquet"
    if re.fullmatch(r"[0-9a-f]{64}", str(run_id)) and path.exists():
        return _frame(pd.read_parquet(path), backend)  # no database needed (nor its lock)
    con = _connect(db, read_only=True)
    try:
        rows = con.execute(
            "SELECT run_id, status, error, parquet_tables FROM runs WHERE starts_with(run_id, ?) ORDER BY run_id LIMIT 2",
            [str(run_id)],
        ).fetchall()
    finally:
        con.close()
    if not rows:
        raise ResultsError(f"{db}: no run {run_id!r}")
    if len(rows) > 1:
        raise ResultsError(f"{db}: run id prefix {run_id!r} is ambiguous ({rows[0][0][:16]}..., {rows[1][0][:16]}..., ...)")
    full, status, error, tables = rows[0]
    if status != "ok":
        raise ResultsError(f"{db}: run {full[:16]} failed: {error}")
    if table not in (tables or []):
        return _frame(pd.DataFrame(), backend)
    path = runs_dir(db) / full / f"{table}.parquet"
    if not path.exists():
        raise ResultsError(f"{path}: missing (the database says the run has it; run `vidcc results check`)")
    return _frame(pd.read_parquet(path), backend)


def _series_views(con: duckdb.DuckDBPyConnection, db: Path) -> None:
    """A temporary view per Parquet table not already in the database (``flow_samples``,
    ``queue_samples``, ``events``, ``links``, ``packets``, ...) over every recorded run's
    files, with a ``run_id`` column, so SQL can join time series with ``runs``."""
    base = runs_dir(db).resolve()
    for table in (t for t in SERIES_TABLES if t not in ("flows", "flow_summary", "aggregate")):  # those are in the db
        pattern = f"*/{table}.parquet"
        if next(iter(base.glob(pattern)), None) is None:
            continue
        glob = str(base / "*" / f"{table}.parquet").replace("'", "''")
        con.execute(
            f"CREATE OR REPLACE TEMP VIEW {table} AS "
            f"SELECT regexp_extract(filename, '([0-9a-f]{{64}})[/\\\\][^/\\\\]+$', 1) AS run_id, * EXCLUDE (filename) "
            f"FROM read_parquet('{glob}', filename = true, union_by_name = true) "
            f"WHERE regexp_extract(filename, '([0-9a-f]{{64}})[/\\\\][^/\\\\]+$', 1) IN (SELECT run_id FROM runs WHERE status = 'ok')"
        )


def query(sql: str, db: str | PathLike[str] | None = None, backend: str = "pandas"):
    """Run read-only SQL on the database (with the time-series views of
    :func:`_series_views`) and return the result as a DataFrame."""
    import duckdb

    _check_backend(backend)
    db = Path(db) if db is not None else default_db()
    con = _connect(db, read_only=True)
    try:
        _series_views(con, db)
        try:
            rel = con.execute(sql)
        except duckdb.Error as e:
            raise ResultsError(f"SQL: {e}") from None
        if rel.description is None:
            import pandas as pd

            return _frame(pd.DataFrame(), backend)
        return _frame(rel.df(), backend)
    finally:
        con.close()


# --------------------------------------------------------------------------------------------
# Integrity


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
        con = _connect(db, read_only=True)
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
