"""Run one scenario in the simulator and hold its results.

A run is one call into Rust (``vidcc._vidcc.simulate``) with the resolved config as JSON; the
GIL is released while it runs. What comes back is columnar: ``Result.columns`` keeps it as it
came, and ``Result.tables`` turns it into pandas DataFrames on first use.

``Result.write`` (what ``vidcc run`` does) never needs pandas, whose import costs more than many
simulations: the Parquet files are written by pyarrow straight from the columns, with the same
bytes pandas would write (its schema metadata included; tests/test_run.py compares the bytes),
and the summary is built from the columns.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import time
from collections.abc import Callable, Mapping
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from vidcc import _vidcc
from vidcc.scenario import Scenario, ScenarioError, load_scenario, parse_scenario

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Result", "run", "as_scenario", "write_atomic", "FigureDrawer", "TABLES"]

# Every table `simulate` may return, in the order they are written.
TABLES = (
    "flows",
    "flow_summary",
    "aggregate",
    "flow_samples",
    "queue_samples",
    "links",
    "events",
    "packets",
    "frames",
    "video_summary",
)

ProgressArg = bool | Callable[[float], None] | None


class FigureDrawer(Protocol):
    """What ``Result.write`` accepts in place of drawing its figures itself: something that
    draws them elsewhere (``vidcc.figure_worker.FigureWorker``: a child process)."""

    @property
    def submitted(self) -> bool: ...

    def submit(self, tables: Mapping[str, Any], resolved: Mapping[str, Any], out: Path) -> None: ...

    def wait(self) -> None: ...


def as_scenario(scenario: str | PathLike[str] | Scenario | Mapping[str, Any]) -> Scenario:
    """A path, TOML text, a user-level dict or a Scenario → a validated Scenario."""
    if isinstance(scenario, Scenario):
        return scenario
    if isinstance(scenario, Mapping):
        return parse_scenario(scenario)
    if isinstance(scenario, PathLike):
        return load_scenario(scenario)
    if isinstance(scenario, str):
        # TOML text always has a newline or a table header; a path has neither.
        if "\n" in scenario or scenario.lstrip().startswith("["):
            return parse_scenario(scenario)
        return load_scenario(scenario)
    raise TypeError(f"expected a scenario path, TOML text, a dict or a Scenario, got {type(scenario).__name__}")


def _rich_progress() -> tuple[Callable[[float], None], Callable[[], None]]:
    """A rich progress bar on stderr: (callback, close)."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    bar = Progress(
        TextColumn("simulating"),
        BarColumn(),
        TaskProgressColumn(),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task("simulating", total=1.0)
    bar.start()

    def update(fraction: float) -> None:
        bar.update(task, completed=min(max(float(fraction), 0.0), 1.0))

    return update, bar.stop


def run(
    scenario: str | PathLike[str] | Scenario | Mapping[str, Any],
    *,
    seed: int | None = None,
    progress: ProgressArg = False,
) -> Result:
    """Simulate a scenario. ``seed`` overrides ``scenario.seed``. ``progress``: False (silent),
    True (a progress bar on stderr), or a callable receiving the fraction of simulated time done.
    Invalid scenarios raise :class:`vidcc.ScenarioError`."""
    sc = as_scenario(scenario)
    resolved = sc.resolve(seed)
    close = None
    if progress is True:
        callback, close = _rich_progress()
    elif callable(progress):
        callback = progress
    else:
        callback = None
    t0 = time.perf_counter()
    try:
        raw = _vidcc.simulate(json.dumps(resolved), callback)
    except ValueError as e:
        # The simulator's own checks ("<path>: <message>"); the schema should have caught them.
        raise ScenarioError(sc.source, "", str(e)) from None
    finally:
        if close is not None:
            close()
    wall = time.perf_counter() - t0
    return Result(sc, resolved, raw, wall)


def _column(values: Any) -> Any:
    if isinstance(values, np.ndarray):
        return values
    return list(values)


def _jsonable(value: Any) -> Any:
    """numpy scalars → Python; NaN and ±inf → null (JSON has no such numbers)."""
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return [_jsonable(v) for v in value.tolist()]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return [_jsonable(dict(zip(df.columns, row))) for row in df.itertuples(index=False, name=None)]


def _plain(columns: Mapping[str, Any]) -> bool:
    """Columns that pandas would hold unchanged, so that reading them directly gives what the
    DataFrame would: numpy numbers or booleans, or lists of str, all of one length."""
    lengths = set()
    for values in columns.values():
        if isinstance(values, np.ndarray):
            if values.ndim != 1 or values.dtype.kind not in "biuf" or values.dtype == np.float16:
                return False  # (float16 was not checked against pandas' writer: pandas writes it)
        elif not all(isinstance(v, str) for v in values):
            return False
        lengths.add(len(values))
    return len(lengths) <= 1


def _column_records(columns: Mapping[str, Any]) -> list[dict[str, Any]]:
    """``_records`` of the DataFrame of these (plain) columns, without building it."""
    names = list(columns)
    values = [_jsonable(v) if isinstance(v, np.ndarray) else list(v) for v in columns.values()]
    return [dict(zip(names, row)) for row in zip(*values)]


def _merged_records(left: Mapping[str, Any], right: Mapping[str, Any], on: tuple[str, ...]) -> list[dict] | None:
    """``_records(left.merge(right, on=on, how="left"))`` for (plain) columns when every left row
    meets exactly one right row and the tables share no other column names; None otherwise (then
    pandas' own rules for missing and repeated keys and for clashing names apply)."""
    if set(left) & set(right) != set(on):
        return None
    right_rows = _column_records(right)
    by_key: dict[tuple, dict[str, Any]] = {}
    for row in right_rows:
        key = tuple(row[k] for k in on)
        if key in by_key:
            return None
        by_key[key] = row
    merged = []
    for row in _column_records(left):
        match = by_key.get(tuple(row[k] for k in on))
        if match is None:
            return None
        merged.append({**row, **{k: v for k, v in match.items() if k not in on}})
    return merged


def _pandas_metadata(columns: Mapping[str, Any], pandas_version: str) -> bytes:
    """The ``pandas`` schema metadata that ``DataFrame.to_parquet(index=False)`` writes (pandas 3,
    default string dtype) for a DataFrame of these plain columns."""
    import pyarrow as pa

    described = []
    for name, values in columns.items():
        if isinstance(values, np.ndarray):
            kind = values.dtype.name
            pandas_type, numpy_type = kind, kind
        else:
            pandas_type, numpy_type = "object", "str"
        described.append({"name": name, "field_name": name, "pandas_type": pandas_type, "numpy_type": numpy_type,
                          "metadata": None})
    return json.dumps({
        "index_columns": [],
        "column_indexes": [],
        "columns": described,
        "attributes": {},
        "creator": {"library": "pyarrow", "version": pa.__version__},
        "pandas_version": pandas_version,
    }).encode()


def _installed_pandas_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("pandas")
    except PackageNotFoundError:
        return None


def _arrow_array(values: Any) -> Any:
    """The Arrow array pandas' conversion makes of a plain column (NaN as null, strings as
    large_string), assembled from buffers: ``pyarrow.array`` would import pandas (over half a
    second) just to ask whether the column is a pandas object."""
    import pyarrow as pa

    if not isinstance(values, np.ndarray):
        data = [v.encode() for v in values]
        offsets = np.zeros(len(data) + 1, np.int64)
        np.cumsum([len(b) for b in data], out=offsets[1:])
        buffers = [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(data))]
        return pa.Array.from_buffers(pa.large_string(), len(data), buffers)
    n = len(values)
    if values.dtype.kind == "b":
        return pa.Array.from_buffers(pa.bool_(), n, [None, pa.py_buffer(np.packbits(values, bitorder="little"))])
    values = np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("="))
    validity = None
    if values.dtype.kind == "f":
        nan = np.isnan(values)
        if nan.any():
            validity = pa.py_buffer(np.packbits(~nan, bitorder="little"))
    return pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), n, [validity, pa.py_buffer(values)])


def _write_parquet_columns(path: Path, columns: Mapping[str, Any]) -> bool:
    """Write plain columns as pandas 3 would (same bytes) and return True; return False, writing
    nothing, when pandas is not version 3 (its metadata and string type differ: the caller then
    goes through pandas itself)."""
    pandas_version = _installed_pandas_version()
    if pandas_version is None or not pandas_version.startswith("3."):
        return False
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_arrays([_arrow_array(v) for v in columns.values()], names=list(columns))
    table = table.replace_schema_metadata({b"pandas": _pandas_metadata(columns, pandas_version)})
    # What pandas' to_parquet(engine="pyarrow") passes: snappy compression, every other option the default.
    pq.write_table(table, path, compression="snappy")
    return True


def write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file in the same directory, then rename: a reader (or an
    interrupted run) sees the old file or the new one, never half of one."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


class Result:
    """The outcome of one run: one DataFrame per table, a summary dict, and ``write()``."""

    def __init__(self, scenario: Scenario, resolved: dict[str, Any], raw: Mapping[str, Any], wall_seconds: float):
        self.scenario = scenario
        self.resolved = resolved
        self.seed: int = resolved["seed"]
        self.wall_seconds = wall_seconds
        self.stats: dict[str, Any] = _jsonable(dict(raw.get("stats", {})))
        # Table name -> column name -> numpy array (numbers) or list (strings), as simulated.
        self.columns: dict[str, dict[str, Any]] = {
            name: {col: _column(vals) for col, vals in columns.items()}
            for name, columns in raw.get("tables", {}).items()
        }
        self._frames: dict[str, pd.DataFrame] | None = None

    @property
    def tables(self) -> dict[str, pd.DataFrame]:
        """One DataFrame per table, built on first use (pandas is imported only then)."""
        if self._frames is None:
            import pandas as pd

            self._frames = {name: pd.DataFrame(columns) for name, columns in self.columns.items()}
        return self._frames

    def _table_is_plain(self, name: str) -> bool:
        # Once the DataFrames exist they are what the user sees (and may have changed): use them.
        return self._frames is None and name in self.columns and _plain(self.columns[name])

    def __repr__(self) -> str:
        return f"Result(source={self.scenario.source!r}, seed={self.seed}, tables={sorted(self.columns)})"

    def table(self, name: str) -> pd.DataFrame:
        """A table by name (an empty DataFrame if the run did not produce it)."""
        import pandas as pd

        return self.tables.get(name, pd.DataFrame())

    flows = property(lambda self: self.table("flows"), doc="One row per flow instance.")
    flow_summary = property(lambda self: self.table("flow_summary"), doc="Per-flow metrics after warmup.")
    aggregate = property(lambda self: self.table("aggregate"), doc='Metrics over "all" flows and per label.')
    flow_samples = property(lambda self: self.table("flow_samples"), doc="Per-flow time series.")
    queue_samples = property(lambda self: self.table("queue_samples"), doc="Queue length of monitored links.")
    links = property(lambda self: self.table("links"), doc="One row per link direction.")
    events = property(lambda self: self.table("events"), doc="Protocol events.")
    packets = property(lambda self: self.table("packets"), doc="Per-packet log (scenario.packet_log).")

    def per_flow(self) -> pd.DataFrame:
        """``flows`` joined with ``flow_summary``: a row per receiver of each flow (one for unicast)."""
        flows, summary = self.flows, self.flow_summary
        if flows.empty or summary.empty:
            return summary if flows.empty else flows
        return flows.merge(summary, on=["flow", "receiver"], how="left")

    def records(self, name: str) -> list[dict[str, Any]]:
        """A table's rows as JSON-ready dicts (numpy scalars as Python numbers, NaN as None)."""
        if self._frames is None and name not in self.columns:
            return []
        if self._table_is_plain(name):
            return _column_records(self.columns[name])
        return _records(self.table(name))

    def per_flow_records(self) -> list[dict[str, Any]]:
        """``per_flow()``'s rows as JSON-ready dicts."""
        if self._table_is_plain("flows") and self._table_is_plain("flow_summary"):
            flows, summary = self.columns["flows"], self.columns["flow_summary"]
            if not _rows(flows) or not _rows(summary):
                return _column_records(summary if not _rows(flows) else flows)
            merged = _merged_records(flows, summary, ("flow", "receiver"))
            if merged is not None:
                return merged
        return _records(self.per_flow())

    @property
    def summary(self) -> dict[str, Any]:
        return {
            "vidcc_version": _vidcc.__version__,
            "source": self.scenario.source,
            "seed": self.seed,
            "scenario": self.scenario.to_dict(),
            "resolved": self.resolved,
            "stats": self.stats,
            "aggregate": self.records("aggregate"),
            "flows": self.per_flow_records(),
        }

    def submit_figures(self, drawer: FigureDrawer, out_dir: str | PathLike[str]) -> None:
        """Hand ``drawer`` the tables and times the figures are drawn from, to draw into
        ``out_dir`` (``write(out_dir, figures=drawer)`` waits for it)."""
        drawer.submit(self.columns if self._frames is None else self._frames, self.resolved, Path(out_dir))

    def write(self, out_dir: str | PathLike[str], figures: bool | FigureDrawer = True) -> Path:
        """Write one Parquet file per non-empty table, the figures, then ``summary.json`` (last, so
        its presence means the directory is complete). Returns the directory.

        ``figures``: True draws them here; a :class:`FigureDrawer` (``vidcc run`` passes a
        ``vidcc.figure_worker.FigureWorker``) draws them elsewhere while the tables are
        written, and is waited for before ``summary.json``."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        worker = None if isinstance(figures, bool) else figures
        if worker is not None and not worker.submitted:
            self.submit_figures(worker, out)
        for name in TABLES:
            if self._frames is None and name not in self.columns:
                continue
            if self._table_is_plain(name):
                if _rows(self.columns[name]):
                    write_atomic(out / f"{name}.parquet", lambda p, name=name: self._write_parquet(p, name))
                continue
            df = self.tables.get(name)
            if df is not None and not df.empty:
                write_atomic(out / f"{name}.parquet", lambda p, df=df: df.to_parquet(p, engine="pyarrow", index=False))
        if worker is not None:
            worker.wait()
        elif figures:
            from vidcc import plots

            tables = self.columns if self._frames is None else self._frames
            for name, make in plots.FIGURES.items():
                fig = make(tables, self.resolved)
                if fig is not None:
                    write_atomic(out / f"{name}.png", lambda p, fig=fig: plots.save(fig, p))
        # Wall time lives apart from the summary, which is a pure function of scenario and seed.
        timing = json.dumps({"wall_seconds": self.wall_seconds}) + "\n"
        write_atomic(out / "timing.json", lambda p: p.write_text(timing, encoding="utf-8"))
        text = json.dumps(self.summary, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        write_atomic(out / "summary.json", lambda p: p.write_text(text, encoding="utf-8"))
        return out

    def _write_parquet(self, path: Path, name: str) -> None:
        if not _write_parquet_columns(path, self.columns[name]):
            self.table(name).to_parquet(path, engine="pyarrow", index=False)


def _rows(columns: Mapping[str, Any]) -> int:
    """Rows of a plain table (a table without columns has none, as an empty DataFrame)."""
    return len(next(iter(columns.values()))) if columns else 0
