"""Parameter sweeps: a base scenario, axes over scenario key paths, and seeds.

A sweep file names a base scenario (a file, or an inline ``[base]`` table), one or more axes
(``key`` = a user-level key path such as ``flows[0].count``; ``values`` or an inclusive
``range``) and the seeds. The cross product of the axes and the seeds is the set of runs.

Why it is shaped like this:

* Sweeps edit the **user-level** document (``Scenario.to_dict()``), the same thing a person
  writes, and validate every point again with :class:`vidcc.scenario.Scenario`. So an axis can
  touch any key the schema has, and a bad value gets the schema's own one-line error.
* A run is identified by the hash of its fully **resolved** configuration (which includes the
  seed): the same point reached from two sweeps, or written two ways (``"10Mbps"`` and
  ``"10000kbps"``), is one run. That key is what makes re-running a sweep cheap: only runs
  missing from the results database are executed.
* Workers are pure: :func:`simulate_point` takes (user-level dict, seed) and returns data. Only
  the main process writes the database (:mod:`vidcc.results`), which keeps it consistent when
  anything is interrupted, and lets the same function run on local processes or on Dask
  workers that do not share a file system (:mod:`vidcc.cluster`).

The file format is documented in ``docs/experiments.md`` ("Sweeps"); keep the two in step.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import hashlib
import itertools
import json
import math
import os
import re
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Mapping
from datetime import datetime, timezone
from decimal import Decimal, InvalidOperation
from os import PathLike
from pathlib import Path
from typing import Any

from vidcc.scenario import Scenario, ScenarioError, U64_MAX

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = [
    "Axis",
    "SweepSpec",
    "SweepError",
    "SweepOutcome",
    "SweepProgress",
    "SweepInterrupted",
    "Point",
    "load_sweep",
    "parse_sweep",
    "run_sweep",
    "simulate_point",
    "run_id_of",
    "canonical_json",
]

# How many times a run may be in flight when its worker process dies before it is recorded as
# failed (a run that kills its worker every time must not stall the sweep forever).
MAX_WORKER_DEATHS = 3


class SweepError(ScenarioError):
    """A sweep that cannot start: one line, ``file: key.path: message``.

    A subclass of :class:`ScenarioError` so that every caller that reports scenario errors on
    one line (the CLI exits 2 for them) does the same for sweep files.
    """


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (or SIGTERM) stopped a sweep. Every run that had finished is in the database;
    ``outcome`` says how far it got. Running the sweep again finishes it."""

    def __init__(self, outcome: SweepOutcome):
        super().__init__("sweep interrupted")
        self.outcome = outcome


# --------------------------------------------------------------------------------------------
# The spec


@dataclasses.dataclass(frozen=True)
class Axis:
    """One swept key: a user-level key path and the values it takes, in order."""

    key: str
    values: list[Any]


@dataclasses.dataclass
class SweepSpec:
    """A sweep: ``base`` is a user-level scenario dict (it need not be valid on its own: the
    axes may complete it), ``source`` names the sweep file in error messages."""

    name: str
    base: dict[str, Any]
    axes: list[Axis]
    seeds: list[int]
    source: str = "<sweep>"

    def points(self) -> list[Point]:
        """The cross product of the axes (first axis outermost) and the seeds (innermost), each
        point validated and keyed. Invalid points carry their error and are recorded as failed
        runs without being simulated."""
        self.check()
        out: list[Point] = []
        combos = itertools.product(*(axis.values for axis in self.axes)) if self.axes else [()]
        for combo in combos:
            axes = {axis.key: value for axis, value in zip(self.axes, combo)}
            doc = copy.deepcopy(self.base)
            for key, value in axes.items():
                _set_path(doc, key, value, self.source)
            try:
                scenario: Scenario | None = Scenario(doc, self.source)
                error = None
            except ScenarioError as e:
                scenario, error = None, str(e)
            for seed in self.seeds:
                if scenario is not None:
                    resolved = scenario.resolve(seed)
                    run_id = run_id_of(resolved)
                else:
                    run_id = run_id_of({"invalid_scenario": doc, "seed": seed})
                out.append(Point(len(out), axes, seed, doc, run_id, error))
        _check_unique(out, self)
        if out and all(p.error is not None for p in out):
            # Nothing could run: a base that is broken for every point is a sweep-file problem.
            raise SweepError(self.source, "", f"no point of the sweep is a valid scenario; the first: {out[0].error}")
        return out

    def check(self) -> None:
        """Problems with the sweep itself (not with single points), as a :class:`SweepError`."""
        src = self.source
        if not isinstance(self.name, str) or not self.name.strip() or "\n" in self.name:
            raise SweepError(src, "sweep.name", f"expected a non-empty one-line string, got {_show(self.name)}")
        if not isinstance(self.base, Mapping):
            raise SweepError(src, "sweep.base", f"expected a scenario table, got {_show(self.base)}")
        if not self.seeds:
            raise SweepError(src, "sweep.seeds", "must not be empty")
        for i, seed in enumerate(self.seeds):
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= U64_MAX:
                raise SweepError(src, f"sweep.seeds[{i}]", f"expected an integer in [0, 2^64), got {_show(seed)}")
        if len(set(self.seeds)) != len(self.seeds):
            raise SweepError(src, "sweep.seeds", "seeds must be distinct")
        seen: list[str] = []
        for i, axis in enumerate(self.axes):
            here = f"axes[{i}]"
            parts = _parse_path(axis.key, src, f"{here}.key")
            if not axis.values:
                raise SweepError(src, f"{here}.values", f'axis "{axis.key}" has no values')
            if parts[:2] == ["scenario", "seed"]:
                raise SweepError(src, f"{here}.key", '"scenario.seed" is set by sweep.seeds; sweep seeds there')
            for other in seen:
                if _overlaps(other, axis.key):
                    raise SweepError(src, f"{here}.key", f'"{axis.key}" overlaps the axis "{other}"; each key may be swept once')
            seen.append(axis.key)
            try:
                json.dumps(axis.values, allow_nan=False)
            except (TypeError, ValueError):
                raise SweepError(src, f"{here}.values", "values must be TOML strings, numbers, booleans, lists or tables (no dates, no NaN)") from None
        self._check_keys_exist()

    def _check_keys_exist(self) -> None:
        """An axis key the schema does not have is a sweep-file error, found up front on the
        first point (all axes at their first value); any other invalid value is a per-run error."""
        doc = copy.deepcopy(self.base)
        for i, axis in enumerate(self.axes):
            _set_path(doc, axis.key, axis.values[0], self.source, where=f"axes[{i}].key")
        for path, message in _schema_errors(doc, self.source):
            for i, axis in enumerate(self.axes):
                if message.startswith("unknown key") and (path == axis.key or _overlaps(path, axis.key)):
                    raise SweepError(self.source, f"axes[{i}].key", f'"{axis.key}" is not a key of this scenario ({path}: {message})')

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "base": copy.deepcopy(self.base),
            "axes": [{"key": a.key, "values": copy.deepcopy(a.values)} for a in self.axes],
            "seeds": list(self.seeds),
            "source": self.source,
        }


@dataclasses.dataclass(frozen=True)
class Point:
    """One run of a sweep: ``axes`` maps each axis key to its value here, ``scenario`` is the
    user-level dict, ``error`` the validation error (then the run is recorded as failed)."""

    index: int
    axes: dict[str, Any]
    seed: int
    scenario: dict[str, Any]
    run_id: str
    error: str | None = None


def _check_unique(points: list[Point], spec: SweepSpec) -> None:
    first: dict[str, Point] = {}
    for p in points:
        if p.run_id in first:
            q = first[p.run_id]
            a = ", ".join(f"{k}={_show(v)}" for k, v in q.axes.items())
            b = ", ".join(f"{k}={_show(v)}" for k, v in p.axes.items())
            raise SweepError(spec.source, "axes", f"two points are the same scenario: ({a}) and ({b}), seed {p.seed}; remove one value")
        first[p.run_id] = p


# --------------------------------------------------------------------------------------------
# Key paths: "flows[0].count", "topology.links[1].loss.p"

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)((?:\[\d+\])*)")


def _parse_path(key: Any, source: str, where: str) -> list[str | int]:
    if not isinstance(key, str) or not key:
        raise SweepError(source, where, f'expected a key path such as "flows[0].count", got {_show(key)}')
    parts: list[str | int] = []
    for segment in key.split("."):
        m = _SEGMENT.fullmatch(segment)
        if m is None:
            raise SweepError(source, where, f'invalid key path "{key}"; expected names joined by "." with [i] for list items, e.g. "flows[0].count"')
        parts.append(m.group(1))
        parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return parts


def _overlaps(a: str, b: str) -> bool:
    """One key path is the other or contains it (``topology.bottleneck`` and
    ``topology.bottleneck.bandwidth``)."""
    return a == b or b.startswith(a + ".") or b.startswith(a + "[") or a.startswith(b + ".") or a.startswith(b + "[")


def _set_path(doc: dict[str, Any], key: str, value: Any, source: str, where: str = "axes") -> None:
    """Set ``key`` in ``doc``. Missing tables on the way are created (so an axis can add a
    ``loss`` table the base does not have); list items must exist."""
    parts = _parse_path(key, source, where)
    node: Any = doc
    walked = ""
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(part, int):
            if not isinstance(node, list):
                raise SweepError(source, where, f'"{key}": {walked} is not a list')
            if part >= len(node):
                raise SweepError(source, where, f'"{key}": index {part} is out of range ({walked} has {len(node)} item{"s" if len(node) != 1 else ""} in the base)')
            if last:
                node[part] = copy.deepcopy(value)
            else:
                node = node[part]
            walked += f"[{part}]"
        else:
            if not isinstance(node, dict):
                raise SweepError(source, where, f'"{key}": {walked} is {_show(node)}, not a table')
            if last:
                node[part] = copy.deepcopy(value)
            else:
                if part not in node:
                    if isinstance(parts[i + 1], int):
                        raise SweepError(source, where, f'"{key}": the base has no list "{walked + "." if walked else ""}{part}"')
                    node[part] = {}
                node = node[part]
            walked += f".{part}" if walked else part


def _schema_errors(doc: dict[str, Any], source: str) -> list[tuple[str, str]]:
    """Every (key path, message) the schema reports for ``doc``. ``Scenario`` reports only the
    first problem; the model's full error list keeps one bad value from hiding an unknown key."""
    try:
        Scenario(doc, source)
        return []
    except ScenarioError as e:
        found = [(e.path, e.message)]
    try:  # the scenario module's internals: use them when they are there, else the first error
        from pydantic import ValidationError

        from vidcc.scenario import _Document, _translate  # type: ignore[attr-defined]

        _Document.model_validate(doc)
    except ValidationError as err:
        found += [_translate(e) for e in err.errors(include_url=False)]
    except Exception:  # noqa: BLE001
        pass
    return found


# --------------------------------------------------------------------------------------------
# Sweep files

_SWEEP_KEYS = ("name", "base", "seeds", "description")
_AXIS_KEYS = ("key", "values", "range")
_RANGE_KEYS = ("start", "stop", "step")
_UNIT_NUMBER = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\d\s.+-][^\s]*)\s*")


def load_sweep(path: str | PathLike[str]) -> SweepSpec:
    """Read a sweep file, check it, and return its :class:`SweepSpec`. Problems raise
    :class:`SweepError` (one line naming the file and the key)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SweepError(str(path), "", "no such file") from None
    except IsADirectoryError:
        raise SweepError(str(path), "", "is a directory, expected a sweep file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SweepError(str(path), "", f"cannot read: {e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SweepError(str(path), "", f"invalid TOML: {e}") from None
    return parse_sweep(data, source=str(path), base_dir=p.parent)


def parse_sweep(data: Mapping[str, Any], source: str = "<sweep>", base_dir: str | PathLike[str] | None = None) -> SweepSpec:
    """A parsed sweep document (the TOML as a dict) → a checked :class:`SweepSpec`. A
    ``sweep.base`` path is relative to ``base_dir`` (the sweep file's directory)."""

    def fail(path: str, message: str):
        raise SweepError(source, path, message)

    for key in data:
        if key not in ("sweep", "axes", "base"):
            fail(key, "unknown key; expected one of: sweep, axes, base")
    sweep = data.get("sweep")
    if not isinstance(sweep, Mapping):
        fail("sweep", "missing [sweep] table" if sweep is None else f"expected a table, got {_show(sweep)}")
    for key in sweep:
        if key not in _SWEEP_KEYS:
            fail(f"sweep.{key}", f"unknown key; expected one of: {', '.join(_SWEEP_KEYS)}")
    if "name" not in sweep:
        fail("sweep.name", "missing required key")
    name = sweep["name"]
    if not isinstance(name, str) or not name.strip():
        fail("sweep.name", f"expected a non-empty string, got {_show(name)}")

    base: dict[str, Any]
    if "base" in sweep and "base" in data:
        fail("sweep.base", "give either sweep.base (a scenario file) or a [base] table, not both")
    if "base" in sweep:
        ref = sweep["base"]
        if not isinstance(ref, str) or not ref:
            fail("sweep.base", f"expected a path to a scenario file, got {_show(ref)}")
        base_path = Path(base_dir or ".") / ref
        try:
            base_text = base_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            fail("sweep.base", f'no such file "{ref}" (looked for {base_path})')
        except (OSError, UnicodeDecodeError) as e:
            fail("sweep.base", f'cannot read "{ref}": {e}')
        try:
            base = tomllib.loads(base_text)
        except tomllib.TOMLDecodeError as e:
            raise SweepError(str(base_path), "", f"invalid TOML: {e}") from None
    elif "base" in data:
        if not isinstance(data["base"], Mapping):
            fail("base", f"expected a table holding a scenario, got {_show(data['base'])}")
        base = dict(data["base"])
    else:
        fail("sweep.base", "missing: set sweep.base to a scenario file, or write the scenario in a [base] table")

    if "seeds" in sweep:
        seeds_value = sweep["seeds"]
        if isinstance(seeds_value, bool) or not isinstance(seeds_value, (int, list)):
            fail("sweep.seeds", f"expected a seed count or a list of seeds, got {_show(seeds_value)}")
        if isinstance(seeds_value, int):
            if seeds_value < 1:
                fail("sweep.seeds", f"the seed count must be at least 1, got {seeds_value}")
            seeds = list(range(1, seeds_value + 1))
        else:
            if not seeds_value:
                fail("sweep.seeds", "the list of seeds must not be empty")
            seeds = list(seeds_value)
    else:
        scen = base.get("scenario") if isinstance(base, Mapping) else None
        seed = scen.get("seed", 1) if isinstance(scen, Mapping) else 1
        seeds = [seed]

    raw_axes = data.get("axes", [])
    if not isinstance(raw_axes, list) or not all(isinstance(a, Mapping) for a in raw_axes):
        fail("axes", "expected [[axes]] tables")
    axes = [_parse_axis(a, f"axes[{i}]", source) for i, a in enumerate(raw_axes)]
    spec = SweepSpec(name=name, base=base, axes=axes, seeds=seeds, source=source)
    spec.check()
    return spec


def _parse_axis(table: Mapping[str, Any], here: str, source: str) -> Axis:
    def fail(path: str, message: str):
        raise SweepError(source, path, message)

    for key in table:
        if key not in _AXIS_KEYS:
            fail(f"{here}.{key}", f"unknown key; expected one of: {', '.join(_AXIS_KEYS)}")
    if "key" not in table:
        fail(f"{here}.key", "missing required key")
    key = table["key"]
    _parse_path(key, source, f"{here}.key")
    if ("values" in table) == ("range" in table):
        fail(here, f'axis "{key}": give exactly one of values = [...] or range = {{ start, stop, step }}')
    if "values" in table:
        values = table["values"]
        if not isinstance(values, list):
            fail(f"{here}.values", f"expected a list, got {_show(values)}")
        if not values:
            fail(f"{here}.values", f'axis "{key}" has no values')
        return Axis(key, list(values))
    return Axis(key, _expand_range(table["range"], f"{here}.range", source))


def _expand_range(rng: Any, here: str, source: str) -> list[Any]:
    """``{start, stop, step}``, stop inclusive. Numbers, or strings with one unit
    (``"10ms"``..``"50ms"`` by ``"10ms"``). Arithmetic is decimal so that 0.1 steps land on
    0.3, not 0.30000000000000004."""

    def fail(path: str, message: str):
        raise SweepError(source, path, message)

    if not isinstance(rng, Mapping):
        fail(here, f"expected a table {{ start = ..., stop = ..., step = ... }}, got {_show(rng)}")
    for key in rng:
        if key not in _RANGE_KEYS:
            fail(f"{here}.{key}", f"unknown key; expected one of: {', '.join(_RANGE_KEYS)}")
    for key in _RANGE_KEYS:
        if key not in rng:
            fail(f"{here}.{key}", "missing required key")
    start, stop, step = (rng[k] for k in _RANGE_KEYS)
    kinds = {type(v) for v in (start, stop, step)}
    if kinds & {bool} or not (kinds <= {int, float} or kinds == {str}):
        fail(here, "start, stop and step must all be numbers, or all strings with the same unit (e.g. \"10ms\")")
    unit = None
    nums: list[Decimal] = []
    for key, value in zip(_RANGE_KEYS, (start, stop, step)):
        if isinstance(value, str):
            m = _UNIT_NUMBER.fullmatch(value)
            if m is None:
                fail(f"{here}.{key}", f'expected a number with a unit such as "10ms", got {_show(value)}')
            if unit is not None and m.group(2) != unit:
                fail(f"{here}.{key}", f'unit "{m.group(2)}" differs from "{unit}"; use one unit for start, stop and step')
            unit = m.group(2)
            text = m.group(1)
        else:
            if isinstance(value, float) and not math.isfinite(value):
                fail(f"{here}.{key}", f"expected a finite number, got {value}")
            text = repr(value)
        try:
            nums.append(Decimal(text))
        except InvalidOperation:
            fail(f"{here}.{key}", f"not a number: {_show(value)}")
    d_start, d_stop, d_step = nums
    if d_step <= 0:
        fail(f"{here}.step", f"must be positive, got {_show(step)}")
    if d_stop < d_start:
        fail(f"{here}.stop", f"must be at least start ({_show(start)}), got {_show(stop)}")
    count = int((d_stop - d_start) / d_step) + 1
    if count > 100_000:
        fail(here, f"gives {count} values; more than 100000 is surely a mistake")
    all_int = all(isinstance(v, int) for v in (start, stop, step))
    out: list[Any] = []
    for i in range(count):
        v = d_start + i * d_step
        if unit is not None:
            out.append(f"{format(v.normalize(), 'f')}{unit}")
        elif all_int:
            out.append(int(v))
        else:
            out.append(float(v))
    return out


def _show(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)


# --------------------------------------------------------------------------------------------
# Run identity


def canonical_json(value: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces, no NaN. Its hash is a run's id."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=str)


def run_id_of(resolved: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a fully resolved scenario (``Scenario.resolve(seed)``,
    which holds the seed): equal ids mean the simulator receives the same input."""
    return hashlib.sha256(canonical_json(resolved).encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------------------------
# The worker side: pure, module-level (Dask workers import it by name)


def _one_line(e: BaseException) -> str:
    text = str(e) if isinstance(e, ScenarioError) else f"{type(e).__name__}: {e}"
    text = " ".join(text.split())
    return text if len(text) <= 2000 else text[:1997] + "..."


def _utcnow() -> datetime:
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
            capture_output=True, text=True, timeout=10,
        )
        if tracked.returncode == 0:
            head = subprocess.run(["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10)
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
        tables[name] = pa.table({col: values if not isinstance(values, (list, tuple)) else pa.array(list(values)) for col, values in columns.items()})
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
        return pc.add(pc.multiply(pc.cast(t.column("flow"), pa.uint64()), 1 << 32), pc.cast(t.column("receiver"), pa.uint64()))

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
    ``git_commit``, ``worker``.
    """
    started_at, t0 = _utcnow(), time.perf_counter()
    version, commit = code_version()
    out: dict[str, Any] = {
        "status": "failed",
        "error": None,
        "run_id": None,
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
        out["run_id"] = run_id_of(resolved)
        out["stats"] = stats
        out["sim_seconds"] = sim_seconds
        out["files"] = {name: _parquet_bytes(t) for name, t in tables.items() if t.num_rows}
        out["flows"] = per_flow(tables)
        out["aggregate"] = tables.get("aggregate")
        out["status"] = "ok"
    except Exception as e:  # noqa: BLE001 - a failing run is data, not a crash of the sweep
        out["error"] = _one_line(e)
        out["files"], out["flows"], out["aggregate"] = {}, None, None
    out["wall_seconds"] = time.perf_counter() - t0
    out["finished_at"] = _utcnow()
    return out


def failed_payload(point: Point, error: str) -> dict[str, Any]:
    """The record of a run that never produced a result (invalid scenario, worker died)."""
    version, commit = code_version()
    now = _utcnow()
    return {
        "status": "failed",
        "error": " ".join(error.split()),
        "run_id": point.run_id,
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


# --------------------------------------------------------------------------------------------
# Running a sweep (main process)


@dataclasses.dataclass
class SweepOutcome:
    """What one invocation did. ``total`` points; ``ran`` executed now (ok or failed);
    ``skipped`` already done (status ok) in the database; ``failed`` of those ran;
    ``run_ids`` of every point, in point order."""

    total: int
    ran: int
    skipped: int
    failed: int
    run_ids: list[str]
    errors: dict[str, str] = dataclasses.field(default_factory=dict)
    wall_seconds: float = 0.0
    interrupted: bool = False

    @property
    def remaining(self) -> int:
        return self.total - self.ran - self.skipped


@dataclasses.dataclass(frozen=True)
class SweepProgress:
    """Passed to a ``progress`` callable after every recorded run."""

    total: int
    skipped: int
    done: int
    failed: int
    remaining: int


ProgressArg = bool | Callable[[SweepProgress], None] | None


def run_sweep(
    spec: SweepSpec,
    *,
    db: str | PathLike[str] | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    force: bool = False,
    progress: ProgressArg = False,
) -> SweepOutcome:
    """Run the points of ``spec`` that the database ``db`` does not hold yet (all of them with
    ``force``) and record each as it finishes.

    ``jobs``: local worker processes (default: all cores). ``cluster``: the address of a Dask
    scheduler (``tcp://host:port``) to run on instead. ``progress``: False, True (a rich bar on
    stderr) or a callable receiving :class:`SweepProgress`.

    A failing run is recorded with its error and does not stop the sweep. Ctrl-C (SIGINT) or
    SIGTERM stops it after recording what has finished and raises :class:`SweepInterrupted`.
    A sweep-file problem or an unreachable cluster raises :class:`SweepError`.
    """
    from vidcc import cluster as backends
    from vidcc import results

    t_start = time.perf_counter()
    if jobs is not None and (isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1):
        raise SweepError("--jobs", "", f"expected a number of processes >= 1, got {jobs!r}")
    if jobs is not None and cluster is not None:
        raise SweepError("--cluster", "", "give either jobs (local processes) or cluster, not both")
    db = Path(db) if db is not None else results.default_db()
    if cluster is None:
        executor = backends.LocalExecutor(jobs)
        if force or not db.exists():
            # Everything will run: the workers' imports start now, beside the validation of
            # the points and the creation of the database.
            executor.prestart()
    points = spec.points()
    if cluster is not None:
        executor = backends.connect(cluster)  # fail fast, before touching the database
    try:
        store = results.Store(db)
    except BaseException:
        executor.close()
        raise
    outcome = SweepOutcome(total=len(points), ran=0, skipped=0, failed=0, run_ids=[p.run_id for p in points])
    bar = _Bar(spec.name, progress) if progress else None
    stop = _StopFlag()
    try:
        status = store.statuses([p.run_id for p in points])
        done_ok = {p.run_id for p in points if status.get(p.run_id) == "ok"} if not force else set()
        store.begin_sweep(spec, points, done_ok)
        todo = [p for p in points if p.run_id not in done_ok]
        outcome.skipped = len(points) - len(todo)

        def record(point: Point, payload: dict[str, Any]) -> None:
            store.record(spec.name, point, payload)
            outcome.ran += 1
            if payload["status"] != "ok":
                outcome.failed += 1
                outcome.errors[point.run_id] = payload["error"] or "failed"
            report()

        def report() -> None:
            state = SweepProgress(outcome.total, outcome.skipped, outcome.ran - outcome.failed, outcome.failed, outcome.remaining)
            if bar is not None:
                bar.update(state)

        report()
        runnable = []
        for p in todo:
            if p.error is not None:
                record(p, failed_payload(p, p.error))
            else:
                runnable.append(p)
        if runnable:
            if isinstance(executor, backends.LocalExecutor):
                executor.prestart()
            with stop.installed():
                _execute(executor, runnable, spec.source, record, stop)
        if stop.requested:
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        outcome.interrupted = True
        outcome.wall_seconds = time.perf_counter() - t_start
        if executor is not None:
            executor.close(cancel=True)
            executor = None
        raise SweepInterrupted(outcome) from None
    except BaseException:
        if executor is not None:  # do not wait for running simulations whose results are lost
            executor.close(cancel=True)
            executor = None
        raise
    finally:
        if bar is not None:
            bar.close()
        if executor is not None:
            executor.close()
        store.close()
    outcome.wall_seconds = time.perf_counter() - t_start
    return outcome


def _execute(executor, points: list[Point], source: str, record: Callable[[Point, dict], None], stop: _StopFlag) -> None:
    """Keep the executor busy until every point is recorded or a stop is requested. A run whose
    worker died is resubmitted, up to MAX_WORKER_DEATHS times."""
    from vidcc.cluster import WorkerLost

    pending = list(reversed(points))  # pop() from the end keeps point order
    inflight: dict[Any, Point] = {}
    deaths: dict[str, int] = {}

    def fill() -> None:
        while pending and len(inflight) < executor.window:
            p = pending.pop()
            inflight[executor.submit(p.scenario, p.seed, source, key=f"{p.run_id}-{deaths.get(p.run_id, 0)}")] = p

    while pending or inflight:
        if stop.requested:
            break
        fill()
        done: list[tuple[Point, dict]] = []
        for fut in executor.wait(list(inflight), timeout=0.25):
            p = inflight.pop(fut)
            try:
                payload = executor.result(fut)
            except WorkerLost as e:
                deaths[p.run_id] = deaths.get(p.run_id, 0) + 1
                if deaths[p.run_id] >= MAX_WORKER_DEATHS or not executor.resubmit_lost:
                    times = f" {deaths[p.run_id]} times" if executor.resubmit_lost else ""
                    done.append((p, failed_payload(p, f"the worker process died{times} while running it ({e})")))
                else:
                    pending.append(p)
                continue
            if payload.get("status") == "ok" and payload.get("run_id") != p.run_id:
                # A worker whose scenario code resolves differently (another vidcc version on a
                # cluster) must not file its result under this point's id.
                payload = failed_payload(p, f"the worker resolved a different configuration (worker vidcc {payload.get('vidcc_version')}); is the same vidcc installed everywhere?")
            done.append((p, payload))
        if not stop.requested:
            fill()  # the workers get their next run before this process spends time recording
        for p, payload in done:
            record(p, payload)
    if stop.requested:
        # Keep what has already finished, then let the caller stop the workers.
        for fut in [f for f in inflight if executor.is_done(f)]:
            p = inflight.pop(fut)
            try:
                payload = executor.result(fut)
            except Exception:  # noqa: BLE001
                continue
            if payload.get("status") == "ok" and payload.get("run_id") == p.run_id:
                record(p, payload)


class _StopFlag:
    """The first SIGINT/SIGTERM asks the sweep to stop between two runs (so no database write
    is cut in half); a second SIGINT interrupts at once."""

    def __init__(self):
        self.requested = False

    def _handle(self, signum, frame):
        if self.requested and signum == signal.SIGINT:
            raise KeyboardInterrupt
        self.requested = True

    def installed(self):
        flag = self

        class _Ctx:
            def __enter__(self):
                self.old = {}
                if threading.current_thread() is threading.main_thread():
                    for sig in (signal.SIGINT, signal.SIGTERM):
                        self.old[sig] = signal.signal(sig, flag._handle)
                return flag

            def __exit__(self, *exc):
                for sig, handler in self.old.items():
                    signal.signal(sig, handler)
                return False

        return _Ctx()


class _Bar:
    """A rich progress bar on stderr: runs done / failed / remaining."""

    def __init__(self, name: str, progress: ProgressArg):
        self.callback = progress if callable(progress) else None
        self.bar = None
        if progress is True:
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

            self.bar = Progress(
                TextColumn(f"[bold]{_escape(name)}"),
                BarColumn(),
                TextColumn("[green]{task.fields[done]} done[/] [red]{task.fields[failed]} failed[/] {task.fields[remaining]} remaining"),
                TimeElapsedColumn(),
                TextColumn("eta"),
                TimeRemainingColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self.task = None
            self.bar.start()

    def update(self, s: SweepProgress) -> None:
        if self.callback is not None:
            self.callback(s)
        if self.bar is not None:
            todo = s.total - s.skipped
            if self.task is None:
                self.task = self.bar.add_task("sweep", total=todo, done=0, failed=0, remaining=todo)
            self.bar.update(self.task, completed=s.done + s.failed, done=s.done, failed=s.failed, remaining=s.remaining)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _escape(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def describe(outcome: SweepOutcome, name: str, db: str | PathLike[str]) -> str:
    """The one-line summary the CLI prints at the end of a sweep."""
    ok = outcome.ran - outcome.failed
    text = (
        f"sweep {name}: {outcome.total} run{'s' if outcome.total != 1 else ''}: "
        f"{outcome.ran} ran ({ok} ok, {outcome.failed} failed), {outcome.skipped} already done"
    )
    if outcome.interrupted:
        text += f", {outcome.remaining} not run (interrupted; run again to finish)"
    return text + f"; {outcome.wall_seconds:.1f} s; {db}"
