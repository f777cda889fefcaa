"""Running a suite: parts → sweeps (reusing the runs already in the results database) →
loaded tables → drawn figures → checked claims.

:func:`run_suite` is what ``vidcc reproduce`` calls; it returns a
:class:`~vidcc.papers.model.SuiteRun`, which :mod:`vidcc.report` writes as ``report.html`` and
``claims.json``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from vidcc.papers.building import part_spec
from vidcc.papers.existence import missing
from vidcc.papers.measures import FigureData, load_run_table
from vidcc.papers.model import NOT_YET, SCALES, Figure, FigureRun, Image, Part, PartRun, Plot, Suite, SuiteRun
from vidcc.papers.verdicts import check_claim

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["run_suite"]


def _load_part(db, spec, part: Part, run_ids: Sequence[str]) -> dict[str, pd.DataFrame]:
    from vidcc import results

    rename = {a.key: a.column for a in part.axes}
    wanted = set(run_ids)
    out = {}
    for table in ("runs", "run_flows", "run_aggregate"):
        df = results.load(db=db, table=table, sweep=spec.name)
        if "run_id" in df.columns:
            df = df[df["run_id"].isin(wanted)]
        df = df.rename(columns=rename)
        df.insert(0, "part", part.name)
        for k, v in part.tags.items():
            df[k] = v
        out[table] = df.reset_index(drop=True)
    return out


def _run_part(suite: Suite, figure: Figure, part: Part, scale: str, reasons: list[str], *, db, jobs, cluster,
              reuse_stale, progress, log: Callable[[str], None]) -> tuple[PartRun, dict[str, pd.DataFrame]]:
    """Run one part's sweep unless something it needs is missing (``reasons``); its loaded tables."""
    from vidcc.sweep import SweepError, run_sweep

    pr = PartRun(part, "not-yet", reasons, total=part.runs(scale), axes=part.axis_values(scale),
                 seeds=part.seed_list(scale))
    if reasons:
        return pr, {}
    spec = part_spec(suite, figure, part, scale)
    pr.sweep = spec.name
    log(f"[{suite.name}] {figure.id} ({figure.ref}): part {part.name}: {pr.total} runs")
    try:
        outcome = run_sweep(spec, db=db, jobs=jobs, cluster=cluster, reuse_stale=reuse_stale, progress=progress)
    except SweepError as e:
        if e.file in ("--cluster", "--jobs"):  # the executor, not this part: nothing else can run
            raise
        pr.status, pr.errors, pr.failed = "failed", [str(e)], pr.total
        return pr, {}
    pr.ran, pr.skipped, pr.failed, pr.run_ids = outcome.ran, outcome.skipped, outcome.failed, list(outcome.run_ids)
    pr.errors = sorted(set(outcome.errors.values()))
    pr.stale, pr.code = dict(outcome.stale), outcome.code
    if outcome.stale:
        from vidcc.runids import code_summary

        log(f"[{suite.name}] {figure.id}: part {part.name}: {len(outcome.stale)} of {pr.total} runs reused "
            "from other code "
            f"({code_summary(outcome.stale.values())})")
    pr.status = "failed" if outcome.failed else "ran"
    return pr, _load_part(db, spec, part, outcome.run_ids)


def _run_figure(suite: Suite, figure: Figure, scale: str, *, db, jobs, cluster, reuse_stale, progress,
                log: Callable[[str], None]) -> FigureRun:
    """Run every part of one figure that can run and gather their results into its FigureData."""
    import pandas as pd

    parts: list[PartRun] = []
    fig_missing = missing((), figure.needs)
    tables: dict[str, list[pd.DataFrame]] = {"runs": [], "run_flows": [], "run_aggregate": []}
    for part in figure.parts:
        pr, loaded = _run_part(suite, figure, part, scale, fig_missing + part.missing(), db=db, jobs=jobs,
                               cluster=cluster,
                               reuse_stale=reuse_stale, progress=progress, log=log)
        for name, df in loaded.items():
            tables[name].append(df)
        parts.append(pr)
    ran = [p.part.name for p in parts if p.status in ("ran", "failed")]
    merged = {name: (pd.concat(dfs, ignore_index=True) if dfs else pd.DataFrame()) for name, dfs in tables.items()}

    def series(run_id: str, table: str = "flow_samples") -> pd.DataFrame:
        return load_run_table(db, run_id, table)

    return FigureRun(figure, parts, data=FigureData(figure, merged, ran, series))


def run_suite(suite: Suite, scale: str, *, db, out_dir, jobs: int | None = None, cluster: str | None = None,
              reuse_stale: bool = False, progress: bool = True, log: Callable[[str], None] = print) -> SuiteRun:
    """Run every part that can run (reusing the runs this code already made in ``db``; with
    ``reuse_stale`` also those other code made), load the results, draw the figures into
    ``out_dir/figures`` and check the claims."""
    import time
    from pathlib import Path

    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; expected one of {', '.join(SCALES)}")
    suite.validate()
    t0 = time.perf_counter()
    fig_dir = Path(out_dir) / "figures"
    fig_runs: list[FigureRun] = []
    for fi, figure in enumerate(suite.figures, 1):
        fr = _run_figure(suite, figure, scale, db=db, jobs=jobs, cluster=cluster, reuse_stale=reuse_stale,
                         progress=progress, log=log)
        state = {"ran": "ran", "partial": "partly ran", NOT_YET: "NOT-YET", "failed": "runs failed"}[fr.status]
        why = "; ".join(dict.fromkeys(r for p in fr.parts for r in p.reasons))
        shown_why = f" — {why}" if why and fr.status != "ran" else ""
        log(f"[{suite.name}] figure {fi}/{len(suite.figures)} {figure.id} ({figure.ref}): {state}{shown_why}")
        if fr.data.ran:
            _draw(suite, fr, fig_dir)
        fig_runs.append(fr)

    by_id = {f.figure.id: f for f in fig_runs}
    others = {fid: f.data for fid, f in by_id.items() if f.data is not None}
    for f in fig_runs:
        if f.data is not None:
            f.data.attach_others(others)
    claims = [check_claim(c, by_id.get(c.figure) if c.figure else None, scale) for c in suite.claims]
    return SuiteRun(suite, scale, fig_runs, claims, time.perf_counter() - t0, str(db))


def _draw(suite: Suite, fr: FigureRun, fig_dir) -> None:
    from vidcc import analysis

    data = fr.data
    for plot in fr.figure.plots:
        stem = fig_dir / f"{fr.figure.id}-{plot.id}"
        try:
            fig = _plot(plot, data)
        except Exception as e:  # noqa: BLE001 - a figure that cannot be drawn is noted, not fatal
            fr.notes.append(f"{plot.id}: not drawn ({type(e).__name__}: {e})")
            continue
        if fig is None:
            fr.notes.append(f"{plot.id}: no data yet")
            continue
        png, svg = analysis.save_figure(fig, stem)
        fr.images.append(Image(plot, png, svg))


def _plot(plot: Plot, data: FigureData):
    from vidcc import analysis

    parts = list(plot.parts) if plot.parts is not None else None
    if parts is not None and not any(p in data.ran for p in parts):
        return None
    if plot.kind == "line":
        df = data.table(plot.table, parts, plot.where)
        if df.empty:
            return None
        if plot.prepare is not None:
            df = plot.prepare(df)
        if plot.axis not in df.columns:
            return None
        summary = analysis.summarize(df, plot.metric, by=plot.axis, group=plot.group, within_run=plot.within_run)
        return analysis.line_plot(summary, plot.axis, group=plot.group, title=plot.title, xlabel=plot.xlabel,
                                  ylabel=plot.ylabel, scale=plot.scale, logx=plot.logx, hlines=plot.hlines)
    if plot.kind == "series":
        runs = data.runs(parts, plot.select)
        if runs.empty:
            return None
        row = runs.sort_values(["part", "seed"]).iloc[0]
        samples = data.series(row["run_id"], plot.table)
        if samples.empty:
            return None
        if plot.prepare is not None:
            samples = plot.prepare(samples)
        names = {}
        if plot.line == "flow":
            flows = data.flows(row["part"])
            flows = flows[flows["run_id"] == row["run_id"]]
            names = {f: f"{lab} #{f}" for f, lab in zip(flows["flow"], flows["label"])}
            if len(names) > 12:
                names = dict(zip(flows["flow"], flows["label"]))
        elif plot.line == "link":
            links = data.series(row["run_id"], "links")
            if not links.empty:
                names = dict(zip(links["link"], links["name"]))
            busy = samples.groupby("link")[plot.metric].max()
            samples = samples[samples["link"].isin(busy[busy > 0].index)]
        if plot.only:
            keep = [k for k, v in names.items() if v in plot.only or str(v).split(" #")[0] in plot.only]
            samples = samples[samples[plot.line].isin(keep)]
        where = ", ".join(f"{k}={v}" for k, v in plot.select.items())
        title = plot.title + (f" ({row['part']}{', ' + where if where else ''}, seed {row['seed']})")
        return analysis.series_plot(samples, plot.metric, line=plot.line, names=names, title=title, ylabel=plot.ylabel,
                                    scale=plot.scale, hlines=plot.hlines)
    raise ValueError(f"unknown plot kind {plot.kind!r}")

