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

# The package's parts, by the role they play: what they share (database), the one writer
# (store), the readers (read) and the checker (integrity). Their public names are this module's.
from vidcc.results.database import DB_TABLES, DEFAULT_DB, SERIES_TABLES, ResultsError, default_db, runs_dir
from vidcc.results.integrity import CheckReport, check
from vidcc.results.read import BACKENDS as BACKENDS  # not in __all__, as before
from vidcc.results.read import load, load_series, query
from vidcc.results.store import SCHEMA_VERSION as SCHEMA_VERSION  # not in __all__, as before
from vidcc.results.store import Store

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
