"""``vidcc reproduce``: run one paper's suite (or all five), explore its readings, and write the
report and ``claims.json`` (docs/experiments.md, "Reproducing the papers")."""

from __future__ import annotations

from vidcc.papers import PAPERS, load_suite

__all__ = ["reproduce"]


def reproduce(paper: str, *, scale: str = "quick", out=None, db=None, jobs=None, cluster=None,
              reuse_stale: bool = False, progress: bool = True, log=print, explore: bool = False):
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
        load_suite(paper)  # an unknown name fails before anything runs
    out = Path(out) if out is not None else Path("out") / "reproduce" / f"{paper}-{scale}"
    db = Path(db) if db is not None else results.default_db()
    runs = []
    for name in names:
        suite = load_suite(name)
        where = out / name if paper == "all" else out
        log(f"[{name}] {suite.title} — {scale} scale, {len(suite.figures)} figures, {len(suite.claims)} claims")
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
