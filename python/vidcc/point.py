"""One point of a sweep, run: :func:`simulate_point` takes (user-level dict, seed) and returns
everything the results database stores about the run. Pure and module-level, so that local
worker processes and Dask workers import it by name (``vidcc.cluster``).
"""

from __future__ import annotations

import functools
import json
import os
import re
import socket
import subprocess
import time
from collections.abc import Mapping
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from vidcc.runids import code_fingerprint, run_id_of, scenario_id_of
from vidcc.scenario import Scenario, ScenarioError
from vidcc.sweep_spec import Point

__all__ = ["code_version", "simulate_arrow", "per_flow", "simulate_point", "failed_payload", "one_line"]


# --------------------------------------------------------------------------------------------
# The worker side: pure, module-level (Dask workers import it by name)


def one_line(e: BaseException) -> str:
    """An error as one line of at most 2000 characters (scenario errors without their type)."""
    text = str(e) if isinstance(e, ScenarioError) else f"{type(e).__name__}: {e}"
    text = " ".join(text.split())
    return text if len(text) <= 2000 else text[:1997] + "..."


def utcnow() -> datetime:
    # Naive UTC: the database column is TIMESTAMP, documented as UTC.
    return datetime.now(timezone.utc).replace(tzinfo=None)


@functools.lru_cache(maxsize=1)
def code_version() -> tuple[str, str | None]:
    """(vidcc version, git commit of the checkout the package is imported from, or None).

    The commit is recorded only when the package's own files are tracked by git: a wheel
    installed into a virtualenv that happens to sit inside some repository must not be
    labelled with that repository's commit.
    """
    from vidcc import __version__

    here = Path(__file__).resolve().parent
    commit = None
    try:
        tracked = subprocess.run(
            ["git", "-C", str(here), "ls-files", "--error-unmatch", Path(__file__).name],
            capture_output=True,
            text=True,
            timeout=10,
        )
        if tracked.returncode == 0:
            head = subprocess.run(
                ["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10
            )
            if head.returncode == 0 and re.fullmatch(r"[0-9a-f]{40,64}", head.stdout.strip()):
                commit = head.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = None
    return __version__, commit


def simulate_arrow(scenario: Scenario, seed: int) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any], float]:
    """Simulate and return (resolved config, stats, {table: pyarrow.Table}, simulator wall
    seconds): the columns of ``vidcc.runner.run`` without building pandas DataFrames.

    Why not ``vidcc.run``: turning the simulator's columns into DataFrames and back into Arrow
    for Parquet costs ~60 ms per run, more than a short simulation. This mirrors
    ``vidcc.runner.run`` step for step (resolve, one ``simulate`` call, simulator errors as a
    ScenarioError); ``tests/test_sweep.py::test_sweep_tables_equal_vidcc_run`` fails if the
    two ever stop producing the same tables.
    """
    import pyarrow as pa

    from vidcc import _vidcc

    resolved = scenario.resolve(seed)
    t0 = time.perf_counter()
    try:
        raw = _vidcc.simulate(json.dumps(resolved), None)
    except ValueError as e:
        raise ScenarioError(scenario.source, "", str(e)) from None
    sim_seconds = time.perf_counter() - t0
    tables = {}
    for name, columns in raw.get("tables", {}).items():
        tables[name] = pa.table(
            {
                col: values if not isinstance(values, (list, tuple)) else pa.array(list(values))
                for col, values in columns.items()
            }
        )
    return resolved, dict(raw.get("stats", {})), tables, sim_seconds


def per_flow(tables: Mapping[str, Any]):
    """``flows`` joined with ``flow_summary`` on ``flow`` and ``receiver`` (``Result.per_flow`` in
    Arrow), in the order of ``flows``."""
    import pyarrow as pa

    flows, summary = tables.get("flows"), tables.get("flow_summary")
    if flows is None or flows.num_rows == 0 or summary is None or summary.num_rows == 0:
        return summary if flows is None or flows.num_rows == 0 else flows
    import pyarrow.compute as pc

    # A left join on (flow, receiver): the summary row of each receiver of each flow (null where
    # one has none). Tables written before receivers had a column join on the flow alone.
    keys = [k for k in ("flow", "receiver") if k in flows.column_names and k in summary.column_names]

    def key(t):
        if len(keys) == 1:
            return t.column("flow")
        flow = pc.multiply(pc.cast(t.column("flow"), pa.uint64()), 1 << 32)
        return pc.add(flow, pc.cast(t.column("receiver"), pa.uint64()))

    rows = summary.take(pc.index_in(key(flows), key(summary)))
    columns = {c: flows.column(c) for c in flows.column_names}
    columns.update({c: rows.column(c) for c in summary.column_names if c not in keys})
    return pa.table(columns)


def _parquet_bytes(table) -> bytes:
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(table, sink)
    return sink.getvalue().to_pybytes()


def simulate_point(scenario: Mapping[str, Any], seed: int, source: str = "<sweep>") -> dict[str, Any]:
    """Run one point and return everything the results database stores about it.

    Pure: reads no files, writes none, never raises for a bad run (the error is returned as
    one line), so it can run in a local process or on a Dask worker. Returns a dict with
    ``status`` ("ok"/"failed"), ``error``, ``run_id``, ``seed``, ``resolved``, ``stats``,
    ``files`` ({table: Parquet bytes}), ``flows`` (``flows`` joined with ``flow_summary``) and
    ``aggregate`` (pyarrow Tables), ``sim_seconds`` (the simulator call), ``wall_seconds``
    (this whole function), ``started_at``/``finished_at`` (naive UTC), ``vidcc_version``,
    ``git_commit``, ``code_fingerprint`` (:func:`vidcc.runids.code_fingerprint` of this
    process: the run id is made with it, so a worker running other code files its result
    under another id), ``scenario_id``, ``worker``.
    """
    started_at, t0 = utcnow(), time.perf_counter()
    version, commit = code_version()
    out: dict[str, Any] = {
        "status": "failed",
        "error": None,
        "run_id": None,
        "scenario_id": None,
        "code_fingerprint": code_fingerprint(),
        "seed": seed,
        "resolved": None,
        "stats": None,
        "files": {},
        "flows": None,
        "aggregate": None,
        "sim_seconds": None,
        "vidcc_version": version,
        "git_commit": commit,
        "worker": f"{socket.gethostname()}:{os.getpid()}",
        "started_at": started_at,
    }
    try:
        resolved, stats, tables, sim_seconds = simulate_arrow(Scenario(scenario, source), seed)
        out["resolved"] = resolved
        out["scenario_id"] = scenario_id_of(resolved)
        out["run_id"] = run_id_of(resolved, out["code_fingerprint"])
        out["stats"] = stats
        out["sim_seconds"] = sim_seconds
        out["files"] = {name: _parquet_bytes(t) for name, t in tables.items() if t.num_rows}
        out["flows"] = per_flow(tables)
        out["aggregate"] = tables.get("aggregate")
        out["status"] = "ok"
    except Exception as e:  # noqa: BLE001 - a failing run is data, not a crash of the sweep
        out["error"] = one_line(e)
        out["files"], out["flows"], out["aggregate"] = {}, None, None
    out["wall_seconds"] = time.perf_counter() - t0
    out["finished_at"] = utcnow()
    return out


def failed_payload(point: Point, error: str) -> dict[str, Any]:
    """The record of a run that never produced a result (invalid scenario, worker died)."""
    version, commit = code_version()
    now = utcnow()
    return {
        "status": "failed",
        "error": " ".join(error.split()),
        "run_id": point.run_id,
        "scenario_id": point.scenario_id,
        "code_fingerprint": code_fingerprint(),
        "seed": point.seed,
        "resolved": None,
        "stats": None,
        "files": {},
        "flows": None,
        "aggregate": None,
        "sim_seconds": None,
        "wall_seconds": None,
        "vidcc_version": version,
        "git_commit": commit,
        "worker": None,
        "started_at": now,
        "finished_at": now,
    }
