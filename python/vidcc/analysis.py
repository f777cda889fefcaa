"""Aggregation across seeds and the figures of sweeps.

* :func:`summarize`: any metric column, grouped by any axis columns and by protocol/label: the
  mean over seeds and a 95 % confidence interval (Student t, n − 1 degrees of freedom; a single
  run has no interval). When a run contributes several rows to one cell (several flows of one
  label), they are first reduced to one value per run (``within_run="mean"`` or ``"sum"``), so
  that the interval is over independent runs, never over flows of one run.
* :func:`line_plot`: a metric against an axis, one line per protocol (or label), error bars = CI.
* :func:`series_plot`: the time series of one run (``vidcc.results.load_series``).
* :func:`save_figure`: PNG and SVG side by side; :func:`png_bytes` for embedding in a report.

matplotlib runs on the Agg backend: no display is needed. It is imported by the figure functions,
not with this module: the statistics (which the paper suites' verdicts use) do not need it, and
importing it takes longer than many simulations.

The t quantile is computed here (regularized incomplete beta function and bisection) so that
the package needs no SciPy.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

__all__ = [
    "t_quantile",
    "mean_ci",
    "summarize",
    "line_plot",
    "series_plot",
    "sweep_plot",
    "run_series_plot",
    "save_figure",
    "png_bytes",
    "svg_text",
]

# The statistics columns of `summarize`.
STAT_COLUMNS = ("runs", "mean", "std", "ci_half", "ci_low", "ci_high")

# Columns that identify one run of a sweep, in order of preference.
RUN_COLUMNS = ("run_id", "run", "seed")


# --------------------------------------------------------------------------------------------
# Student t


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 400):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(ln_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, dof: float) -> float:
    """CDF of Student's t distribution with ``dof`` degrees of freedom."""
    if dof <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {dof}")
    x = dof / (dof + t * t)
    tail = 0.5 * _betainc(dof / 2.0, 0.5, x)
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, dof: float) -> float:
    """Quantile (inverse CDF) of Student's t: ``t_quantile(0.975, n - 1)`` is the factor of a
    two-sided 95 % interval."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be in (0, 1), got {p}")
    if dof <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {dof}")
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, dof)
    # Closed forms where they exist; bisection on the CDF otherwise.
    if dof == 1:
        return math.tan(math.pi * (p - 0.5))
    if dof == 2:
        return (2 * p - 1) / math.sqrt(2 * p * (1 - p))
    lo, hi = 0.0, 1.0
    while t_cdf(hi, dof) < p:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if t_cdf(mid, dof) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-13 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


def mean_ci(values: Iterable[float], level: float = 0.95) -> dict[str, float]:
    """n, mean, sample standard deviation, and the two-sided Student-t confidence interval of
    the mean (``ci_half`` = t_{(1+level)/2, n−1} · s / √n). NaN values are ignored; with n ≤ 1
    the interval is NaN (no interval)."""
    x = np.asarray([float(v) for v in values], dtype=float)
    x = x[~np.isnan(x)]
    n = int(x.size)
    if n == 0:
        return {"n": 0, "mean": math.nan, "std": math.nan, "ci_half": math.nan, "ci_low": math.nan, "ci_high": math.nan}
    mean = float(x.mean())
    if n == 1:
        return {"n": 1, "mean": mean, "std": math.nan, "ci_half": math.nan, "ci_low": math.nan, "ci_high": math.nan}
    std = float(x.std(ddof=1))
    half = t_quantile(0.5 + level / 2.0, n - 1) * std / math.sqrt(n)
    return {"n": n, "mean": mean, "std": std, "ci_half": half, "ci_low": mean - half, "ci_high": mean + half}


# --------------------------------------------------------------------------------------------
# Aggregation


def _as_list(x: str | Sequence[str] | None) -> list[str]:
    if x is None:
        return []
    if isinstance(x, str):
        return [x]
    return list(x)


def run_column(df: pd.DataFrame) -> str | None:
    """The column that tells runs apart (``run_id`` in the results database)."""
    for col in RUN_COLUMNS:
        if col in df.columns:
            return col
    return None


def summarize(
    df: pd.DataFrame,
    metric: str,
    by: str | Sequence[str] | None = None,
    group: str | Sequence[str] | None = "label",
    *,
    within_run: str | Callable[[Any], float] = "mean",
    level: float = 0.95,
    run: str | None = None,
) -> pd.DataFrame:
    """Mean and confidence interval of ``metric`` across runs (seeds), per cell of ``by`` (axis
    columns) × ``group`` (``"label"``, ``"protocol"``, ... or None).

    Rows of one run in one cell (several flows of a label) are first reduced with
    ``within_run`` (``"mean"``, ``"sum"``, ``"min"``, ``"max"`` or a callable) to one value per
    run; the interval is then over runs. ``run`` names the run column (default: ``run_id``,
    else ``seed``; without one every row counts as a run).

    Returns one row per cell: the ``by`` and ``group`` columns, then ``runs``, ``mean``,
    ``std``, ``ci_half``, ``ci_low``, ``ci_high``; sorted by the cell columns.
    """
    import pandas as pd

    keys = _as_list(by) + _as_list(group)
    clash = [c for c in keys if c in STAT_COLUMNS]
    if clash:
        raise KeyError(f"summarize: cannot group by {', '.join(map(repr, clash))}: the name of a result column")
    out_cols = keys + list(STAT_COLUMNS)
    if df.empty:  # no rows (e.g. nothing ran): an empty summary, whatever the columns
        return pd.DataFrame(columns=out_cols)
    missing = [c for c in keys + [metric] if c not in df.columns]
    if missing:
        raise KeyError(f"summarize: no column {', '.join(map(repr, missing))}; columns are: {', '.join(map(str, df.columns))}")
    run = run or run_column(df)
    data = df[keys + [metric] + ([run] if run else [])].copy()
    data[metric] = pd.to_numeric(data[metric], errors="coerce")
    if run:
        per_run = data.groupby(keys + [run], dropna=False, sort=True)[metric].agg(within_run).reset_index()
    else:
        per_run = data
    rows = []
    if keys:
        for cell, frame in per_run.groupby(keys, dropna=False, sort=True):
            cell = cell if isinstance(cell, tuple) else (cell,)
            rows.append({**dict(zip(keys, cell)), **_stats(frame[metric], level)})
    else:
        rows.append(_stats(per_run[metric], level))
    return pd.DataFrame(rows, columns=out_cols)


def _stats(values, level: float) -> dict[str, float]:
    s = mean_ci(values, level)
    s["runs"] = s.pop("n")
    return s


# --------------------------------------------------------------------------------------------
# Figures


def _pyplot():
    """matplotlib.pyplot on the Agg backend, imported on first use."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def line_plot(
    summary: pd.DataFrame,
    axis: str,
    *,
    group: str | None = "label",
    title: str = "",
    xlabel: str | None = None,
    ylabel: str = "",
    scale: float = 1.0,
    logx: bool = False,
    ylim: tuple[float | None, float | None] | None = None,
    hlines: Sequence[tuple[float, str]] = (),
    ax=None,
) -> Figure:
    """A metric against an axis: one line per ``group`` value, markers at the means, error bars
    spanning the confidence interval (none where a point has a single run). ``summary`` is the
    output of :func:`summarize` with ``by=axis``. Non-numeric axis values are placed at equal
    spacing, in order. ``scale`` multiplies the values (e.g. 1e-6 for Mbps)."""
    plt = _pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
    else:
        fig = ax.figure
    groups = [None] if group is None or group not in summary.columns else list(dict.fromkeys(summary[group]))
    xs_all = list(dict.fromkeys(summary[axis])) if axis in summary.columns else []
    numeric = all(isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool) for v in xs_all)
    ticks = {v: i for i, v in enumerate(xs_all)}
    cmap = plt.get_cmap("tab10")
    for i, g in enumerate(groups):
        rows = summary if g is None else summary[summary[group] == g]
        rows = rows.sort_values(axis) if numeric else rows
        x = rows[axis].to_numpy(dtype=float) if numeric else np.array([ticks[v] for v in rows[axis]], dtype=float)
        y = rows["mean"].to_numpy(dtype=float) * scale
        err = np.nan_to_num(rows["ci_half"].to_numpy(dtype=float) * abs(scale), nan=0.0)
        ax.errorbar(x, y, yerr=err, marker="o", markersize=4, linewidth=1.4, capsize=3, color=cmap(i % 10),
                    label=str(g) if g is not None else None)
    for value, text in hlines:
        ax.axhline(value, color="0.45", linestyle=":", linewidth=1)
        ax.annotate(text, xy=(1.0, value), xycoords=("axes fraction", "data"), xytext=(-4, 3),
                    textcoords="offset points", ha="right", fontsize="small", color="0.35")
    if not numeric:
        ax.set_xticks(range(len(xs_all)), [str(v) for v in xs_all])
    if logx and numeric:
        ax.set_xscale("log")
    ax.set_xlabel(xlabel if xlabel is not None else axis)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    if ylim is not None:
        ax.set_ylim(*ylim)
    ax.grid(True, alpha=0.3)
    if any(g is not None for g in groups):
        ax.legend(fontsize="small", frameon=False)
    return fig


def series_plot(
    samples: pd.DataFrame,
    metric: str,
    *,
    line: str = "flow",
    names: dict[Any, str] | None = None,
    time: str = "t_ns",
    title: str = "",
    ylabel: str = "",
    scale: float = 1.0,
    hlines: Sequence[tuple[float, str]] = (),
    max_lines: int = 12,
    ax=None,
) -> Figure:
    """The time series of one run: ``metric`` against time (seconds), one line per value of
    ``line`` (flow, or link for queue samples), named by ``names`` when given. With more than
    ``max_lines`` lines, lines sharing a name share a colour and one legend entry."""
    plt = _pyplot()
    if ax is None:
        fig, ax = plt.subplots(figsize=(8, 4.2), layout="constrained")
    else:
        fig = ax.figure
    names = names or {}
    ids = sorted(samples[line].unique()) if line in samples.columns else [None]
    few = len(ids) <= max_lines
    cmap = plt.get_cmap("tab10")
    name_colour: dict[str, Any] = {}
    for i, ident in enumerate(ids):
        rows = samples if ident is None else samples[samples[line] == ident]
        name = names.get(ident, f"{line} {ident}")
        if few:
            kw = {"color": cmap(i % 10), "label": name}
        else:
            first = name not in name_colour
            colour = name_colour.setdefault(name, cmap(len(name_colour) % 10))
            kw = {"color": colour, "label": name if first else "_" + name, "alpha": 0.6}
        ax.plot(rows[time].to_numpy(dtype=float) / 1e9, rows[metric].to_numpy(dtype=float) * scale, linewidth=1.0, **kw)
    for value, text in hlines:
        ax.axhline(value, color="0.45", linestyle=":", linewidth=1)
        ax.annotate(text, xy=(0.0, value), xycoords=("axes fraction", "data"), xytext=(4, 3),
                    textcoords="offset points", fontsize="small", color="0.35")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(ylabel)
    ax.set_ylim(bottom=0)
    if title:
        ax.set_title(title)
    ax.grid(True, alpha=0.3)
    if ids != [None]:
        ax.legend(fontsize="small", frameon=False, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return fig


def sweep_plot(sweep: str, metric: str, axis: str, *, db=None, table: str = "run_flows", group: str | None = "label",
               within_run: str = "mean", where: dict[str, Any] | None = None, **plot_keys) -> Figure:
    """Load a sweep's results (:func:`vidcc.results.load`), summarize ``metric`` against the
    axis column ``axis`` (a key path such as ``"flows[0].count"``) per ``group``, and draw it
    with :func:`line_plot`. ``where`` keeps rows whose columns equal the given values."""
    from vidcc import results

    df = results.load(db=db, table=table, sweep=sweep)
    for col, value in (where or {}).items():
        df = df[df[col].isin(value if isinstance(value, (list, tuple, set)) else [value])]
    summary = summarize(df, metric, by=axis, group=group, within_run=within_run)
    plot_keys.setdefault("title", f"{metric} ({sweep})")
    plot_keys.setdefault("ylabel", metric)
    return line_plot(summary, axis, group=group, **plot_keys)


def run_series_plot(run_id: str, metric: str = "throughput_bps", *, table: str = "flow_samples", db=None, **plot_keys) -> Figure:
    """The time series of one run of the results database (:func:`vidcc.results.load_series`):
    flows are named by their label (``table="flow_samples"``), links by their name
    (``table="queue_samples"``, metric ``"packets"``)."""
    from vidcc import results

    samples = results.load_series(run_id, table=table, db=db)
    if table == "queue_samples":
        links = results.load_series(run_id, table="links", db=db)
        names = dict(zip(links["link"], links["name"])) if not links.empty else {}
        return series_plot(samples, metric, line="link", names=names, **plot_keys)
    flows = results.load_series(run_id, table="flows", db=db)
    names = {f: f"{lab} #{f}" for f, lab in zip(flows["flow"], flows["label"])} if not flows.empty else {}
    return series_plot(samples, metric, line="flow", names=names, **plot_keys)


def save_figure(fig: Figure, stem: str | Path, *, close: bool = True) -> tuple[Path, Path]:
    """Write ``<stem>.png`` and ``<stem>.svg``; returns both paths."""
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    try:
        fig.savefig(png, format="png", dpi=110)
        fig.savefig(svg, format="svg", metadata={"Date": None})
    finally:
        if close:
            _pyplot().close(fig)
    return png, svg


def png_bytes(fig: Figure, dpi: int = 110) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def svg_text(fig: Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    return buf.getvalue()


def close(fig: Figure) -> None:
    _pyplot().close(fig)
