"""Where a results database lives, the tables it holds, its one error type, and how it is
opened: what the writer (:mod:`vidcc.results.store`), the readers (:mod:`vidcc.results.read`) and
the checker (:mod:`vidcc.results.integrity`) share. Why the database has this shape:
:mod:`vidcc.results`."""

from __future__ import annotations

import os
import re
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb

DEFAULT_DB = "results/vidcc.duckdb"

# Tables in the database, and the per-run Parquet tables beside it (vidcc.runner.TABLES).
DB_TABLES = ("runs", "run_flows", "run_aggregate", "sweep_runs", "sweeps")
SERIES_TABLES = ("flows", "flow_summary", "aggregate", "flow_samples", "queue_samples", "links", "events", "packets",
                 "frames", "video_summary")

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


def connect(db: str | PathLike[str], read_only: bool) -> duckdb.DuckDBPyConnection:
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
