"""Run one scenario in the simulator and hold its results.

A run is one call into Rust (``vidcc._vidcc.simulate``) with the resolved config as JSON; the
GIL is released while it runs. What comes back is columnar and becomes pandas DataFrames here.
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
from typing import TYPE_CHECKING, Any

import numpy as np

from vidcc import _vidcc
from vidcc.scenario import Scenario, ScenarioError, load_scenario, parse_scenario

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Result", "run", "as_scenario", "TABLES"]

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


def _atomic(path: Path, write: Callable[[Path], None]) -> None:
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
        import pandas as pd  # imported here so that `import vidcc` stays quick

        self.tables: dict[str, pd.DataFrame] = {}
        for name, columns in raw.get("tables", {}).items():
            self.tables[name] = pd.DataFrame({col: _column(vals) for col, vals in columns.items()})

    def __repr__(self) -> str:
        return f"Result(source={self.scenario.source!r}, seed={self.seed}, tables={sorted(self.tables)})"

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

    @property
    def summary(self) -> dict[str, Any]:
        return {
            "vidcc_version": _vidcc.__version__,
            "source": self.scenario.source,
            "seed": self.seed,
            "scenario": self.scenario.to_dict(),
            "resolved": self.resolved,
            "stats": self.stats,
            "aggregate": _records(self.aggregate),
            "flows": _records(self.per_flow()),
        }

    def write(self, out_dir: str | PathLike[str], figures: bool = True) -> Path:
        """Write one Parquet file per non-empty table, the figures, then ``summary.json`` (last, so
        its presence means the directory is complete). Returns the directory."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        for name in TABLES:
            df = self.tables.get(name)
            if df is not None and not df.empty:
                _atomic(out / f"{name}.parquet", lambda p, df=df: df.to_parquet(p, engine="pyarrow", index=False))
        if figures:
            from vidcc import plots

            for name, make in plots.FIGURES.items():
                fig = make(self.tables, self.resolved)
                if fig is not None:
                    _atomic(out / f"{name}.png", lambda p, fig=fig: plots.save(fig, p))
        # Wall time lives apart from the summary, which is a pure function of scenario and seed.
        timing = json.dumps({"wall_seconds": self.wall_seconds}) + "\n"
        _atomic(out / "timing.json", lambda p: p.write_text(timing, encoding="utf-8"))
        text = json.dumps(self.summary, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
        _atomic(out / "summary.json", lambda p: p.write_text(text, encoding="utf-8"))
        return out
