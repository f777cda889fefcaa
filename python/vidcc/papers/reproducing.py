"""``vidcc reproduce``: run one paper's suite (or all five), explore its readings, and write the
report and ``claims.json`` (docs/experiments.md, "Reproducing the papers")."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from vidcc.papers import PAPERS, load_suite

__all__ = ["reproduce", "trial_suite", "default_out"]


def trial_suite(suite, under: Sequence[str] = (), figures: Sequence[str] = ()):
    """``suite`` run as a trial: under the readings ``under`` (its alternatives, applied as the
    suite's own set-up and protocol keys: :func:`vidcc.papers.explore.with_alternatives`) and on
    ``figures`` only (the claims of the other figures, and those that read no figure, left out; a
    kept claim that also compares with a figure not kept reports that figure's results missing).
    A trial's claims carry no category: a reading's verdicts are evidence for the default's
    categories, not verdicts to classify. Raises ``ValueError`` naming an unknown reading or
    figure and the suite's known ones."""
    from vidcc.papers.explore import with_alternatives

    if not under and not figures:
        return suite
    known = [a.name for a in suite.alternatives]
    bad = [n for n in under if n not in known]
    if bad:
        raise ValueError(f"suite {suite.name}: no reading {bad[0]!r}; its readings: {', '.join(known)}")
    fids = [f.id for f in suite.figures]
    bad = [f for f in figures if f not in fids]
    if bad:
        raise ValueError(f"suite {suite.name}: no figure {bad[0]!r}; its figures: {', '.join(fids)}")
    variant = with_alternatives(suite, [suite.alternative(n) for n in under]) if under else suite
    if not figures:
        return dataclasses.replace(variant, claims=[dataclasses.replace(c, category=None) for c in variant.claims])
    kept = [f for f in variant.figures if f.id in figures]
    # The suite's readings that still bear on a kept figure (limited to the kept ones), so that
    # --explore works on a trial too; the claims name only those.
    alternatives = []
    for a in variant.alternatives:
        if a.figures:
            a = dataclasses.replace(a, figures=tuple(f for f in a.figures if f in figures))
            if not a.figures:
                continue
        if a.setup and not any(a.applies_to(p) for f in kept if a.in_figure(f.id) for p in f.parts):
            continue
        alternatives.append(a)
    names = {a.name for a in alternatives}
    return dataclasses.replace(
        variant,
        figures=kept,
        alternatives=alternatives,
        claims=[dataclasses.replace(c, category=None, alternatives=tuple(n for n in c.alternatives if n in names))
                for c in variant.claims if c.figure in figures],
    )


def default_out(paper: str, scale: str, under: Sequence[str] = (), figures: Sequence[str] = ()) -> str:
    """``out/reproduce/<paper>-<scale>``, with ``~<readings>`` and ``@<figures>`` for a trial."""
    tag = ("~" + "+".join(under) if under else "") + ("@" + ",".join(figures) if figures else "")
    return f"out/reproduce/{paper}-{scale}{tag}"


def reproduce(paper: str, *, scale: str = "quick", out=None, db=None, jobs=None, cluster=None,
              reuse_stale: bool = False, progress: bool = True, log=print, explore: bool = False,
              under: Sequence[str] = (), figures: Sequence[str] = ()):
    """Run one paper's suite (or ``"all"``), write ``report.html`` and ``claims.json`` into
    ``out`` (default ``out/reproduce/<paper>-<scale>``; with ``all``, one directory per paper
    inside it plus the combined files) and return the list of
    :class:`vidcc.papers.model.SuiteRun`. ``reuse_stale``: reuse runs made by other code
    instead of running them again (:func:`vidcc.sweep.run_sweep`); the report names them.
    ``explore``: then re-run the suite under each alternative reading its FAIL and UNSTABLE
    claims name, and report what each one gains and costs (:mod:`vidcc.papers.explore`)."""
    from pathlib import Path

    from vidcc import report, results
    from vidcc.papers.model import SCALES
    from vidcc.papers.running import run_suite

    if scale not in SCALES:
        raise ValueError(f"unknown scale {scale!r}; expected one of: {', '.join(SCALES)}")
    names = list(PAPERS) if paper == "all" else [paper]
    if paper != "all":
        trial_suite(load_suite(paper), under, figures)  # an unknown name fails before anything runs
    elif under or figures:
        raise ValueError("readings (--under) and figures (--figures) select within one paper, not 'all'")
    out = Path(out) if out is not None else Path(default_out(paper, scale, under, figures))
    db = Path(db) if db is not None else results.default_db()
    runs = []
    for name in names:
        suite = trial_suite(load_suite(name), under, figures)
        where = out / name if paper == "all" else out
        trial = f" — a trial under {', '.join(under) or 'the defaults'}, not the record" if under or figures else ""
        log(f"[{name}] {suite.title} — {scale} scale, {len(suite.figures)} figures, {len(suite.claims)} claims{trial}")
        run = run_suite(suite, scale, db=db, out_dir=where, jobs=jobs, cluster=cluster, reuse_stale=reuse_stale,
                        progress=progress, log=log)
        if explore:
            from vidcc.papers.explore import explore as explore_suite

            def run_variant(variant, where=where):
                return run_suite(variant, scale, db=db, out_dir=where / "explore" / variant.name.split("~", 1)[1],
                                 jobs=jobs,
                                 cluster=cluster, reuse_stale=reuse_stale, progress=progress, log=log)

            run.explored = explore_suite(run, run_variant, log=log)
        page, _ = report.write_suite(run, where)
        c = run.counts()
        log(f"[{name}] claims: {', '.join(f'{v} {k}' for k, v in c.items())} — {page}")
        runs.append(run)
    if paper == "all":
        page, _ = report.write_all(runs, out, scale)
        log(f"[all] report: {page}")
    return runs
