"""The results of one figure as checks and plots see them, and the measurements they share.

:class:`FigureData` holds the loaded tables of one figure (every part that ran, with ``part``,
seed, axis and tag columns) and loads a run's other tables (time series, events, links) on
demand. :func:`queue_stats`, :func:`video_flows`, :func:`per_run` and :func:`warmup_ns` derive
what several suites' checks need from those tables.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


__all__ = ["FigureData", "select", "load_run_table", "video_flows", "warmup_ns", "queue_stats", "per_run"]


class FigureData:
    """The loaded results of one figure: every part that ran, its tables with the axis columns
    (named as the parts' :class:`Axis` names), a ``part`` column and the part's tags."""

    # `figure` is the `vidcc.papers.model.Figure` these results belong to (not imported: model
    # refers to FigureData, and the layering test forbids even a type-only cycle).
    def __init__(self, figure: Any, tables: Mapping[str, pd.DataFrame], ran: Iterable[str],
                 series: Callable[[str, str], pd.DataFrame] | None = None):
        self.figure = figure
        self._tables = dict(tables)
        self.ran = set(ran)
        self._series = series
        self._others: Mapping[str, FigureData] = {}

    def seeds(self) -> list[Any]:
        """The seeds this figure's runs were made with, sorted."""
        found: set[Any] = set()
        for df in self._tables.values():
            if "seed" in df.columns:
                found.update(df["seed"].dropna().tolist())
        return sorted(found)

    def for_seed(self, seed: Any) -> FigureData:
        """The same figure with only the runs of one seed (and so the other figures it compares
        with): what a check sees when it is applied per seed."""
        tables = {name: df[df["seed"] == seed] if "seed" in df.columns else df for name, df in self._tables.items()}
        one = FigureData(self.figure, tables, self.ran, self._series)
        others = self._others
        one._others = _SeedView(others, seed, self.figure.id if self.figure is not None else None, one)
        return one

    def attach_others(self, others: Mapping[str, FigureData]) -> None:
        """Let :meth:`other` see the results of the suite's other figures (by figure id)."""
        self._others = others

    def other(self, figure_id: str) -> FigureData:
        """The results of another figure of the suite (for claims that compare two figures)."""
        if figure_id not in self._others:
            raise KeyError(f"no results of figure {figure_id!r}")
        return self._others[figure_id]

    def table(self, name: str = "run_flows", part: str | Sequence[str] | None = None,
              where: Mapping[str, Any] | None = None) -> pd.DataFrame:
        import pandas as pd

        df = self._tables.get(name)
        if df is None:
            return pd.DataFrame()
        if part is not None:
            parts = [part] if isinstance(part, str) else list(part)
            df = df[df["part"].isin(parts)]
        return select(df, where or {})

    def flows(self, part=None, where=None) -> pd.DataFrame:
        return self.table("run_flows", part, where)

    def aggregate(self, part=None, where=None) -> pd.DataFrame:
        return self.table("run_aggregate", part, where)

    def runs(self, part=None, where=None) -> pd.DataFrame:
        return self.table("runs", part, where)

    def summary(self, metric: str, by: str | Sequence[str] | None = None,
                group: str | Sequence[str] | None = "label", *,
                table: str = "run_flows", part=None, where=None, within_run: str = "mean",
                prepare: Callable[[pd.DataFrame], pd.DataFrame] | None = None) -> pd.DataFrame:
        """:func:`vidcc.analysis.summarize` over this figure's results."""
        from vidcc.analysis import summarize

        df = self.table(table, part, where)
        if prepare is not None and not df.empty:
            df = prepare(df)
        return summarize(df, metric, by=by, group=group, within_run=within_run)

    def series(self, run_id: str, table: str = "flow_samples") -> pd.DataFrame:
        if self._series is None:
            raise RuntimeError("no time series available")
        return self._series(run_id, table)


class _SeedView(Mapping):
    """The suite's other figures seen through one seed, made on first use."""

    def __init__(self, others: Mapping[str, FigureData], seed: Any, own_id: str | None, own: FigureData):
        self._all, self._seed, self._own_id, self._own = others, seed, own_id, own
        self._made: dict[str, FigureData] = {}

    def __getitem__(self, key: str) -> FigureData:
        if key == self._own_id:
            return self._own
        if key not in self._made:
            self._made[key] = self._all[key].for_seed(self._seed)
        return self._made[key]

    def __iter__(self):
        return iter(self._all)

    def __len__(self) -> int:
        return len(self._all)


def select(df: pd.DataFrame, where: Mapping[str, Any]) -> pd.DataFrame:
    for col, value in where.items():
        if col not in df.columns:
            return df.iloc[0:0]
        if isinstance(value, (list, tuple, set)):
            df = df[df[col].isin(list(value))]
        else:
            df = df[df[col] == value]
    return df


def load_run_table(db, run_id: str, table: str) -> pd.DataFrame:
    """One table of one run (``vidcc.results.load_series``); a table the run did not produce is
    empty."""
    from vidcc import results

    return results.load_series(run_id, table=table, db=db)


def video_flows(data: FigureData, part: str | Sequence[str] | None = None,
                where: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """``run_flows`` rows of video flows joined with their ``video_summary`` row by flow and receiver (vdi,
    delayed_packet_rate, packet_drop_rate, frames_*, ...), with the part, seed, axis and tag
    columns. Flows without video are left out."""
    import pandas as pd

    flows = data.flows(part, where)
    out = []
    for run_id, f in flows.groupby("run_id", sort=True):
        v = data.series(run_id, "video_summary")
        if not v.empty:
            keys = [k for k in ("flow", "receiver") if k in f.columns and k in v.columns]
            out.append(f.merge(v, on=keys, how="inner", suffixes=("", "_video")))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()


# --------------------------------------------------------------------------------------------
# Derived measurements that checks and plots share


def warmup_ns(runs_row: Mapping[str, Any]) -> int:
    """The warm-up of a run (a ``runs`` row), from its resolved scenario; 0 when unknown."""
    import json

    text = runs_row.get("resolved_json")
    if not text:
        return 0
    return int(json.loads(text).get("warmup_ns", 0))


def queue_stats(data: FigureData, part: str | Sequence[str] | None, link: str, *, full: float = 0.9,
                where: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Per run: the queue of the link named ``link`` (e.g. ``"R2->R3"``) after warmup:
    ``mean_queue`` (packets), ``frac_full`` (share of samples at ≥ ``full`` × the limit),
    ``queue_limit`` (packets), ``link_drops`` (queue drops over the whole run), ``link_drop_ratio``
    (queue drops / packets offered to the link), with the run's part, seed, axis and tag columns."""
    import pandas as pd

    runs = data.runs(part, where)
    dropped = ("scenario_json", "resolved_json", "stats_json", "parquet_tables", "axes_json", "error")
    keep = [c for c in runs.columns if c not in dropped]
    rows = []
    for r in runs.to_dict("records"):
        links = data.series(r["run_id"], "links")
        match = links[links["name"] == link] if not links.empty else links
        if match.empty:
            raise KeyError(f"run {r['run_id'][:12]}: no link named {link!r}")
        lrow = match.iloc[0]
        samples = data.series(r["run_id"], "queue_samples")
        samples = samples[(samples["link"] == lrow["link"]) & (samples["t_ns"] >= warmup_ns(r))]
        limit = float(lrow["queue_limit_packets"]) if pd.notna(lrow["queue_limit_packets"]) else math.nan
        q = samples["packets"].astype(float)
        offered = float(lrow["delivered_packets"]) + float(lrow["dropped_queue"]) + float(lrow["dropped_loss"])
        rows.append({
            **{k: r[k] for k in keep},
            "mean_queue": float(q.mean()) if len(q) else math.nan,
            "frac_full": float((q >= full * limit).mean()) if len(q) else math.nan,
            "queue_limit": limit,
            "link_drops": float(lrow["dropped_queue"]),
            "link_drop_ratio": float(lrow["dropped_queue"]) / offered if offered else math.nan,
        })
    return pd.DataFrame(rows)


def per_run(df: pd.DataFrame, metric: str, how: str = "sum") -> pd.DataFrame:
    """One row per run: ``metric`` reduced over the run's rows (flows), with the run's part,
    seed, axis and tag columns (every column constant within the run)."""
    import pandas as pd

    if df.empty:
        return df
    const = [c for c in df.columns if c != metric and df.groupby("run_id")[c].nunique(dropna=False).max() <= 1]
    out = df.groupby(const, dropna=False, sort=True)[metric].agg(how).reset_index()
    return out if isinstance(out, pd.DataFrame) else pd.DataFrame(out)

