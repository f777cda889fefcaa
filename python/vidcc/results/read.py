"""Reading the results database: a table or one sweep's runs (:func:`load`), one run's Parquet
time series (:func:`load_series`) and read-only SQL over both (:func:`query`), as pandas,
polars or Arrow."""

from __future__ import annotations

import json
import re
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vidcc.results.database import DB_TABLES, SERIES_TABLES, ResultsError, connect, default_db, runs_dir

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

BACKENDS = ("pandas", "polars", "arrow")

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
    con = connect(db, read_only=True)
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
    con = connect(db, read_only=True)
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
    con = connect(db, read_only=True)
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
