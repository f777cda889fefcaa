"""Figures of one run (matplotlib, Agg backend: no display needed), drawn from its tables.

* ``throughput``: per-flow throughput over time (Mbps against seconds), one line per flow;
  with many flows the colours and the legend go by label.
* ``queue``: queue length (packets) over time, one line per monitored link direction.

The builders take DataFrames (the run's tables) and the run's times, not a run object, so that
anything holding the tables (``vidcc.runner.Result``, Parquet files, the results database) can
draw them.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["throughput", "queue", "figures", "save", "FIGURES"]

# Up to this many flows, every flow gets its own legend entry.
MAX_FLOW_LEGEND = 10


def _shade_warmup(ax, warmup_ns: int) -> None:
    warmup_s = warmup_ns / 1e9
    if warmup_s > 0:
        ax.axvspan(0, warmup_s, color="0.9", zorder=0, label="_warmup")


def _legend(ax) -> None:
    # Outside the axes, on the right: lines are never hidden behind it.
    n = len(ax.get_legend_handles_labels()[1])
    if n:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="small", ncols=2 if n > 16 else 1, frameon=False)


def throughput(samples: pd.DataFrame, flows: pd.DataFrame, *, duration_ns: int, warmup_ns: int = 0) -> Figure | None:
    """Per-flow throughput from the ``flow_samples`` and ``flows`` tables (None without samples)."""
    if samples.empty:
        return None
    labels = dict(zip(flows["flow"], flows["label"])) if not flows.empty else {}
    flow_ids = sorted(samples["flow"].unique())
    per_flow = len(flow_ids) <= MAX_FLOW_LEGEND
    label_names = sorted(set(labels.get(f, str(f)) for f in flow_ids))
    cmap = plt.get_cmap("tab10" if len(label_names) <= 10 else "tab20")
    colour = {name: cmap(i % cmap.N) for i, name in enumerate(label_names)}

    fig, ax = plt.subplots(figsize=(9, 4.5), layout="constrained")
    _shade_warmup(ax, warmup_ns)
    seen: set[str] = set()
    for i, fid in enumerate(flow_ids):
        rows = samples[samples["flow"] == fid]
        name = labels.get(fid, str(fid))
        if per_flow:
            legend = f"{name} #{fid}" if len(flow_ids) > 1 else name
            kw = {"label": legend, "color": plt.get_cmap("tab10")(i % 10)}
        else:
            kw = {"label": name if name not in seen else "_" + name, "color": colour[name], "alpha": 0.7}
            seen.add(name)
        ax.plot(rows["t_ns"] / 1e9, rows["throughput_bps"] / 1e6, linewidth=1.0, **kw)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("throughput (Mbps)")
    ax.set_title("Per-flow throughput")
    ax.set_xlim(0, duration_ns / 1e9)
    ax.set_ylim(bottom=0)
    ax.grid(True, alpha=0.3)
    _legend(ax)
    return fig


def queue(samples: pd.DataFrame, links: pd.DataFrame, *, duration_ns: int, warmup_ns: int = 0) -> Figure | None:
    """Queue lengths from the ``queue_samples`` and ``links`` tables (None without samples)."""
    if samples.empty:
        return None
    names: dict = {}
    limits: dict = {}
    if not links.empty:
        for row in links.to_dict("records"):
            names[row["link"]] = str(row.get("name") or f"{row.get('src')}->{row.get('dst')}")
            limits[row["link"]] = row.get("queue_limit_packets")
    link_ids = sorted(samples["link"].unique())
    # Directions whose queue never holds a packet (often the ACK direction) only add clutter.
    busy = [lid for lid in link_ids if (samples.loc[samples["link"] == lid, "packets"] > 0).any()]
    link_ids = busy or link_ids[:1]
    # Up to two directions share one plot; more get one panel each, stacked, same axes.
    panels = 1 if len(link_ids) <= 2 else len(link_ids)
    fig, axes = plt.subplots(panels, 1, figsize=(9, 4.5 if panels == 1 else 1.2 + 1.3 * panels), sharex=True,
                             sharey=True, layout="constrained", squeeze=False)
    axes = axes[:, 0]
    cmap = plt.get_cmap("tab10")
    duration_s = duration_ns / 1e9
    drew_limit = False
    for i, lid in enumerate(link_ids):
        ax = axes[0 if panels == 1 else i]
        rows = samples[samples["link"] == lid]
        name = names.get(lid, f"link {lid}")
        colour = cmap(i % 10)
        ax.plot(rows["t_ns"] / 1e9, rows["packets"], linewidth=0.8, color=colour, label=name)
        if "average" in rows and rows["average"].notna().any():
            dark = tuple(0.45 * c for c in colour[:3])
            ax.plot(rows["t_ns"] / 1e9, rows["average"], linewidth=1.3, color=dark, label=f"{name} RED average")
        limit = limits.get(lid)
        if limit and (panels > 1 or len(link_ids) == 1):
            ax.axhline(limit, color="0.4", linestyle=":", linewidth=1, label="_limit")
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


def _table(tables: Mapping[str, pd.DataFrame], name: str) -> pd.DataFrame:
    import pandas as pd

    return tables.get(name, pd.DataFrame())


def _times(resolved: Mapping[str, Any]) -> dict[str, int]:
    return {"duration_ns": resolved["duration_ns"], "warmup_ns": resolved.get("warmup_ns", 0)}


def _throughput_of_run(tables: Mapping[str, pd.DataFrame], resolved: Mapping[str, Any]) -> Figure | None:
    return throughput(_table(tables, "flow_samples"), _table(tables, "flows"), **_times(resolved))


def _queue_of_run(tables: Mapping[str, pd.DataFrame], resolved: Mapping[str, Any]) -> Figure | None:
    return queue(_table(tables, "queue_samples"), _table(tables, "links"), **_times(resolved))


# File stem → figure builder of a run's tables (by name) and its resolved config; a builder
# returns None when the run has no data for it.
FIGURES: dict[str, Callable[[Mapping[str, pd.DataFrame], Mapping[str, Any]], Figure | None]] = {
    "throughput": _throughput_of_run,
    "queue": _queue_of_run,
}


def figures(tables: Mapping[str, pd.DataFrame], resolved: Mapping[str, Any]) -> dict[str, Figure]:
    """Every figure that has data, by file stem, from a run's tables and resolved config."""
    out = {}
    for name, make in FIGURES.items():
        fig = make(tables, resolved)
        if fig is not None:
            out[name] = fig
    return out


def save(fig: Figure, path: str | Path) -> None:
    """Write a figure as PNG and release it."""
    try:
        fig.savefig(path, format="png", dpi=120)
    finally:
        plt.close(fig)
