"""Figures of one run (matplotlib, Agg backend: no display needed), drawn from its tables.

* ``throughput``: per-flow throughput over time (Mbps against seconds), one line per flow;
  with many flows the colours and the legend go by label.
* ``queue``: queue length (packets) over time, one line per monitored link direction.

The builders take tables (pandas DataFrames, or mappings of column name to array such as
``vidcc.runner.Result.columns``) and the run's times, not a run object, so that anything holding
the tables (``Result``, Parquet files, the results database) can draw them.

Speed (``vidcc run`` draws these by default): the figures are plain ``matplotlib.figure.Figure``
objects, not pyplot's (no figure manager, nothing to close); data artists are left out of the
constrained layout's measurements (they are clipped to their axes, so they never move a margin,
and measuring a hundred long lines took half the drawing time); and a series longer than the
figure is wide in pixels is cut to the minimum and maximum of each pixel column (``decimate``),
which draws the same picture from far fewer points; PNGs are written at a lighter zlib level
(the same pixels, slightly larger files).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib
import numpy as np
from matplotlib.figure import Figure

if TYPE_CHECKING:
    import pandas as pd

    Table = pd.DataFrame | Mapping[str, Any]

__all__ = ["throughput", "queue", "figures", "save", "decimate", "FIGURES"]

# Up to this many flows, every flow gets its own legend entry.
MAX_FLOW_LEGEND = 10

# Width of the figures (inches) and resolution of the PNG files: together, the pixel columns a
# series is decimated to.
WIDTH_IN = 9
DPI = 120
# zlib level of the PNG files: 3 instead of Pillow's 6 encodes the same pixels in about half the
# time (30-45 ms less per figure of `vidcc run`) for files 10-20 % larger.
PNG_COMPRESS_LEVEL = 3


def decimate(x: np.ndarray, y: np.ndarray, columns: int = WIDTH_IN * DPI) -> tuple[np.ndarray, np.ndarray]:
    """A series of at most about ``4 * columns`` points that draws like ``(x, y)`` on an axis
    ``columns`` pixels wide: ``x`` (ascending) is cut into ``columns`` equal spans and each span
    keeps its first and last points and the points of its minimum and maximum, in order. NaNs
    (gaps in the line) are kept as they are; short series are returned unchanged."""
    n = len(x)
    if n <= 4 * columns or not np.isfinite(y).all():
        return x, y
    span = (x[-1] - x[0]) or 1
    bucket = np.minimum(((x - x[0]) * (columns / span)).astype(np.int64), columns - 1)
    starts = np.flatnonzero(np.r_[True, bucket[1:] != bucket[:-1]])
    ends = np.r_[starts[1:], n] - 1
    lows = np.minimum.reduceat(y, starts)
    highs = np.maximum.reduceat(y, starts)
    # Index of the first minimum and first maximum inside each span.
    order = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))
    is_low = y == lows[order]
    is_high = y == highs[order]
    low_at = np.minimum.reduceat(np.where(is_low, np.arange(n), n), starts)
    high_at = np.minimum.reduceat(np.where(is_high, np.arange(n), n), starts)
    keep = np.unique(np.concatenate([starts, ends, low_at, high_at]))
    return x[keep], y[keep]


def _columns(table: Table) -> dict[str, np.ndarray]:
    """A table's columns as numpy arrays, whether it is a DataFrame or a mapping of columns."""
    if isinstance(table, Mapping):
        return {name: np.asarray(values) for name, values in table.items()}
    return {name: table[name].to_numpy() for name in table.columns}


def _rows(columns: Mapping[str, np.ndarray]) -> int:
    return len(next(iter(columns.values()))) if columns else 0


def _new_figure(figsize: tuple[float, float]) -> Figure:
    return Figure(figsize=figsize, layout="constrained")


def _shade_warmup(ax, warmup_ns: int) -> None:
    warmup_s = warmup_ns / 1e9
    if warmup_s > 0:
        ax.axvspan(0, warmup_s, color="0.9", zorder=0, label="_warmup", in_layout=False)


def _legend(ax) -> None:
    # Outside the axes, on the right: lines are never hidden behind it.
    n = len(ax.get_legend_handles_labels()[1])
    if n:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", ncols=2 if n > 16 else 1, frameon=False)


def throughput(samples: Table, flows: Table, *, duration_ns: int, warmup_ns: int = 0) -> Figure | None:
    """Per-flow throughput from the ``flow_samples`` and ``flows`` tables (None without samples)."""
    samples, flows = _columns(samples), _columns(flows)
    if not _rows(samples):
        return None
    labels = {int(f): str(label) for f, label in zip(flows["flow"], flows["label"])} if _rows(flows) else {}
    sample_flow = samples["flow"]
    flow_ids = [int(f) for f in np.unique(sample_flow)]
    per_flow = len(flow_ids) <= MAX_FLOW_LEGEND
    label_names = sorted(set(labels.get(f, str(f)) for f in flow_ids))
    cmap = matplotlib.colormaps["tab10" if len(label_names) <= 10 else "tab20"]
    colour = {name: cmap(i % cmap.N) for i, name in enumerate(label_names)}
    tab10 = matplotlib.colormaps["tab10"]

    fig = _new_figure((WIDTH_IN, 4.5))
    ax = fig.subplots()
    _shade_warmup(ax, warmup_ns)
    seen: set[str] = set()
    t_s, mbps = samples["t_ns"] / 1e9, samples["throughput_bps"] / 1e6
    for i, fid in enumerate(flow_ids):
        rows = sample_flow == fid
        name = labels.get(fid, str(fid))
        if per_flow:
            legend = f"{name} #{fid}" if len(flow_ids) > 1 else name
            kw = {"label": legend, "color": tab10(i % 10)}
        else:
            kw = {"label": name if name not in seen else "_" + name, "color": colour[name], "alpha": 0.7}
            seen.add(name)
        ax.plot(*decimate(t_s[rows], mbps[rows]), linewidth=1.0, in_layout=False, **kw)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("throughput (Mbps)")
    ax.set_title("Per-flow throughput")
    ax.set_xlim(0, duration_ns / 1e9)
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    _legend(ax)
    return fig


def queue(samples: Table, links: Table, *, duration_ns: int, warmup_ns: int = 0) -> Figure | None:
    """Queue lengths from the ``queue_samples`` and ``links`` tables (None without samples)."""
    samples, links = _columns(samples), _columns(links)
    if not _rows(samples):
        return None
    names: dict = {}
    limits: dict = {}
    for i in range(_rows(links)):
        row = {col: values[i] for col, values in links.items()}
        names[int(row["link"])] = str(row.get("name") or f"{row.get('src')}->{row.get('dst')}")
        limits[int(row["link"])] = row.get("queue_limit_packets")
    sample_link = samples["link"]
    link_ids = [int(lid) for lid in np.unique(sample_link)]
    # Directions whose queue never holds a packet (often the ACK direction) only add clutter.
    busy = [lid for lid in link_ids if (samples["packets"][sample_link == lid] > 0).any()]
    link_ids = busy or link_ids[:1]
    # Up to two directions share one plot; more get one panel each, stacked, same axes.
    panels = 1 if len(link_ids) <= 2 else len(link_ids)
    fig = _new_figure((WIDTH_IN, 4.5 if panels == 1 else 1.2 + 1.3 * panels))
    axes = fig.subplots(panels, 1, sharex=True, sharey=True, squeeze=False)[:, 0]
    cmap = matplotlib.colormaps["tab10"]
    duration_s = duration_ns / 1e9
    drew_limit = False
    t_s = samples["t_ns"] / 1e9
    for i, lid in enumerate(link_ids):
        ax = axes[0 if panels == 1 else i]
        rows = sample_link == lid
        name = names.get(lid, f"link {lid}")
        colour = cmap(i % 10)
        ax.plot(*decimate(t_s[rows], samples["packets"][rows].astype(np.float64)), linewidth=0.8, color=colour, label=name,
                in_layout=False)
        average = samples["average"][rows] if "average" in samples else None
        if average is not None and not np.isnan(average).all():
            dark = tuple(0.45 * c for c in colour[:3])
            ax.plot(*decimate(t_s[rows], average), linewidth=1.3, color=dark, label=f"{name} RED average",
                    in_layout=False)
        limit = limits.get(lid)
        if limit and (panels > 1 or len(link_ids) == 1):
            ax.axhline(limit, color="0.4", linestyle=":", linewidth=1, label="_limit", in_layout=False)
            drew_limit = True
    for ax in axes:
        _shade_warmup(ax, warmup_ns)
        ax.set_xlim(0, duration_s)
        ax.set_ylim(bottom=0)
        ax.grid(True, alpha=0.3)
        _legend(ax)
    axes[-1].set_xlabel("time (s)")
    if panels == 1:
        axes[0].set_ylabel("queue length (packets)")
    else:
        fig.supylabel("queue length (packets)")
    fig.suptitle("Queue length of monitored links" + (" (dotted: limit)" if drew_limit else ""))
    return fig


def _table(tables: Mapping[str, Table], name: str) -> Table:
    return tables.get(name, {})


def _times(resolved: Mapping[str, Any]) -> dict[str, int]:
    return {"duration_ns": resolved["duration_ns"], "warmup_ns": resolved.get("warmup_ns", 0)}


def _throughput_of_run(tables: Mapping[str, Table], resolved: Mapping[str, Any]) -> Figure | None:
    return throughput(_table(tables, "flow_samples"), _table(tables, "flows"), **_times(resolved))


def _queue_of_run(tables: Mapping[str, Table], resolved: Mapping[str, Any]) -> Figure | None:
    return queue(_table(tables, "queue_samples"), _table(tables, "links"), **_times(resolved))


# File stem → figure builder of a run's tables (by name) and its resolved config; a builder
# returns None when the run has no data for it.
FIGURES: dict[str, Callable[[Mapping[str, Table], Mapping[str, Any]], Figure | None]] = {
    "throughput": _throughput_of_run,
    "queue": _queue_of_run,
}


def figures(tables: Mapping[str, Table], resolved: Mapping[str, Any]) -> dict[str, Figure]:
    """Every figure that has data, by file stem, from a run's tables and resolved config."""
    out = {}
    for name, make in FIGURES.items():
        fig = make(tables, resolved)
        if fig is not None:
            out[name] = fig
    return out


def save(fig: Figure, path: str | Path) -> None:
    """Write a figure as PNG and release it (a figure made with pyplot is closed too)."""
    try:
        fig.savefig(path, format="png", dpi=DPI, pil_kwargs={"compress_level": PNG_COMPRESS_LEVEL})
    finally:
        import sys

        pyplot = sys.modules.get("matplotlib.pyplot")  # only pyplot's own figures need closing
        if pyplot is not None:
            pyplot.close(fig)
