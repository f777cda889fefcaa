"""The ``vidcc`` command: ``run``, ``sweep``, ``results``, ``reproduce``, ``video``, ``send``, ``recv``,
``link``, ``qos-aimd`` and ``demo`` (``vidcc --help`` lists them with what each does).

Exit codes: 0 success, 1 the run failed, 2 bad usage or an invalid scenario, 130 interrupted.
Problems are one ``error: ...`` line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import math
import sys
import threading
from pathlib import Path
from typing import Any, Callable, Sequence

from vidcc import __version__
from vidcc.cli_common import Parser, print_error

__all__ = ["main", "build_parser"]

# Start-up cost matters here (`vidcc --help` should answer in well under 150 ms): this module
# imports only the standard library at load time. Each command imports what it needs when it
# runs, and the `video` command's parser is filled in only when that command is used, because
# importing `vidcc.video` loads numpy.


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="vidcc", description="Congestion-controlled video over UDP: simulate, sweep, reproduce.")
    parser.add_argument("--version", action="version", version=f"vidcc {__version__}")
    # Subcommand parsers may be deferred (filled in on first use): see _DeferredParser.
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_DeferredParser)
    sub.required = True

    p = sub.add_parser("run", help="simulate one scenario file", description="Simulate one scenario file and write its results.")
    p.add_argument("scenario", metavar="SCENARIO.toml", help="scenario file (format: docs/scenarios.md)")
    p.add_argument("--seed", type=_seed, help="master seed (overrides scenario.seed)")
    p.add_argument("--out", metavar="DIR", help="output directory (default: out/<scenario file stem>)")
    p.add_argument("--no-figures", action="store_true", help="do not draw PNG figures")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    p.add_argument("--real", action="store_true",
                   help="run it with real processes on loopback through `vidcc link` (a dumbbell, a few unicast "
                        "flows; docs/real-network.md) and store it in the results database")
    p.add_argument("--db", metavar="FILE", help="results database of --real (default: $VIDCC_DB or "
                                                "results/vidcc.duckdb)")
    p.set_defaults(func=_cmd_run)
    _add_sweep_commands(sub)
    _add_reproduce_command(sub)
    sub.add_parser("video", help="real video: test clip, encodings and traces, PSNR/SSIM/MOS of a run",
                   fill=_fill_video_parser)
    for name, help_ in (("send", "stream one flow over real UDP to a `vidcc recv`"),
                        ("recv", "receive one flow over real UDP and write a run's tables"),
                        ("link", "an emulated bottleneck: a UDP relay with the simulator's queue and loss")):
        sub.add_parser(name, help=help_, fill=_net_filler(name))
    from vidcc.qos_aimd_select import add_qos_aimd_parser  # vidcc qos-aimd select (python/vidcc/qos_aimd_select.py)

    add_qos_aimd_parser(sub)
    p = sub.add_parser("demo", help="the project's job in miniature: one video, four rate controls, PSNR and MOS",
                       description="Prepare the project's test clip, carry the same layered video with DVRC, TFRC, "
                       "SSVP and plain UDP across a bottleneck shared with TCP, score what each receiver could show "
                       "(PSNR, SSIM, MOS) and write a table, a figure and a self-contained report.html "
                       "(scenarios/video/demo.toml).")
    p.add_argument("--out", metavar="DIR", default="out/demo", help="output directory (default: out/demo)")
    p.add_argument("--quiet", "-q", action="store_true", help="print only the table and the report's path")
    p.set_defaults(func=_cmd_demo)
    return parser


def _cmd_demo(args: argparse.Namespace) -> int:
    from vidcc.demo import run_demo, table

    def log(line: str) -> None:
        if not args.quiet:
            print(line, flush=True)

    rows = run_demo(args.out, log=log)
    if args.quiet:
        print(table(rows))
        print(f"report: {Path(args.out) / 'report.html'}")
    return 0


class _DeferredParser(Parser):
    """A subcommand's parser whose arguments are added the first time it parses or shows help, so
    that the module defining them is imported only when the subcommand is used."""

    def __init__(self, *args: Any, fill: Callable[[argparse.ArgumentParser], None] | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._fill = fill

    def _filled(self) -> None:
        fill, self._fill = self._fill, None
        if fill is not None:
            fill(self)

    def parse_known_args(self, args=None, namespace=None):
        self._filled()
        return super().parse_known_args(args, namespace)

    def format_usage(self) -> str:
        self._filled()
        return super().format_usage()

    def format_help(self) -> str:
        self._filled()
        return super().format_help()


class _ExistingParser:
    """Stands in for the subparsers object of ``add_*_parser(sub)`` functions: their
    ``sub.add_parser(name, ...)`` returns the already registered (deferred) parser, which takes the
    description they give."""

    def __init__(self, parser: argparse.ArgumentParser):
        self.parser = parser

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        if "description" in kwargs:
            self.parser.description = kwargs["description"]
        return self.parser


def _fill_video_parser(parser: argparse.ArgumentParser) -> None:
    from vidcc.video.cli import add_video_parser  # vidcc video clip|prepare|quality (python/vidcc/video/cli.py)

    add_video_parser(_ExistingParser(parser))


def _net_filler(name: str) -> Callable[[argparse.ArgumentParser], None]:
    def fill(parser: argparse.ArgumentParser) -> None:
        from vidcc.net import add_net_parser  # vidcc send|recv|link (python/vidcc/net.py, crates/vidcc-net)

        add_net_parser(name, parser)

    return fill


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid seed {text!r}: expected a non-negative integer") from None
    if not 0 <= value < 2**64:
        raise argparse.ArgumentTypeError(f"invalid seed {text!r}: expected an integer in [0, 2^64)")
    return value


def _fmt(value, scale: float = 1.0, digits: int = 3) -> str:
    try:
        v = float(value)
    except (TypeError, ValueError):
        return "-"
    if math.isnan(v):
        return "-"
    return f"{v * scale:.{digits}f}"


def _print_summary(result, console) -> None:
    from rich import box
    from rich.table import Table

    per_flow = result.per_flow_records()
    if per_flow:
        t = Table(title="Flows (after warmup)", title_justify="left", box=box.SIMPLE_HEAD)
        for col, just in (("flow", "right"), ("label", "left"), ("throughput\nMbps", "right"), ("goodput\nMbps", "right"),
                          ("drop\n%", "right"), ("mean delay\nms", "right"), ("CoV", "right")):
            t.add_column(col, justify=just, no_wrap=col == "label", min_width=max(map(len, col.split("\n"))))
        for row in per_flow:
            t.add_row(
                str(row.get("flow", "")),
                str(row.get("label", "")),
                _fmt(row.get("throughput_bps"), 1e-6),
                _fmt(row.get("goodput_bps"), 1e-6),
                _fmt(row.get("drop_rate"), 100, 2),
                _fmt(row.get("mean_delay_ns"), 1e-6, 1),
                _fmt(row.get("cov"), 1, 3),
            )
        console.print(t)
    agg = result.records("aggregate")
    if agg:
        t = Table(title="Aggregate (after warmup)", title_justify="left", box=box.SIMPLE_HEAD)
        for col in ("label", "flows", "throughput\nMbps", "Jain", "worst-case\nfairness", "normalized\nthroughput"):
            t.add_column(col, justify="left" if col == "label" else "right", no_wrap=col == "label",
                         min_width=max(map(len, col.split("\n"))))
        for row in agg:
            t.add_row(
                str(row.get("label", "")),
                str(row.get("flows", "")),
                _fmt(row.get("throughput_bps_sum"), 1e-6),
                _fmt(row.get("jain"), 1, 4),
                _fmt(row.get("worst_case_fairness"), 1, 4),
                _fmt(row.get("normalized_throughput_mean"), 1, 4),
            )
        console.print(t)
    video = result.records("video_summary")
    if video:
        t = Table(title="Video (measured frames)", title_justify="left", box=box.SIMPLE_HEAD)
        for col in ("flow", "frames", "decodable\n%", "lost", "late", "VDI", "delayed\n%", "drop\n%", "jitter\nms"):
            t.add_column(col, justify="right", min_width=max(map(len, col.split("\n"))))
        for row in video:
            sent = row.get("frames_sent") or 0
            t.add_row(
                str(row.get("flow", "")),
                str(sent),
                _fmt(row.get("frames_decodable", 0) / sent if sent else float("nan"), 100, 1),
                str(row.get("frames_lost", "")),
                str(row.get("frames_late", "")),
                _fmt(row.get("vdi"), 1, 4),
                _fmt(row.get("delayed_packet_rate"), 100, 2),
                _fmt(row.get("packet_drop_rate"), 100, 2),
                _fmt(row.get("jitter_mean_ns"), 1e-6, 2),
            )
        console.print(t)


def _cmd_run(args: argparse.Namespace) -> int:
    from vidcc.scenario import load_scenario

    scenario = load_scenario(args.scenario)  # before the heavier imports: a bad scenario fails fast
    out = Path(args.out) if args.out else Path("out") / Path(args.scenario).stem
    if args.real:
        return _cmd_run_real(args, scenario, out)
    from vidcc import figure_worker

    # The figures are drawn by a child process forked now, before numpy and before any thread:
    # it imports matplotlib while this process simulates and writes the tables (figure_worker).
    worker = figure_worker.FigureWorker() if not args.no_figures and figure_worker.available() else None
    try:
        return _simulate_and_write(args, scenario, out, worker)
    finally:
        if worker is not None:
            worker.close()


def _simulate_and_write(args: argparse.Namespace, scenario: Any, out: Path, worker: Any) -> int:
    from vidcc import figure_worker
    from vidcc.runner import run

    show_progress = not args.quiet and sys.stderr.isatty()
    if show_progress:
        import rich.progress  # noqa: F401  (here, not inside run(): see _preload)
    modules = ["pyarrow.parquet", "importlib.metadata"]
    if not args.quiet:
        modules += ["rich.console", "rich.table", "rich.box"]
    draw_here = not args.no_figures and worker is None
    preloading = _preload(modules, [figure_worker.import_figure_modules] if draw_here else [])
    result = run(scenario, seed=args.seed, progress=show_progress)
    preloading.join()
    if worker is not None:
        result.submit_figures(worker, out)  # drawn while the summary is printed and the tables written
    if not args.quiet:
        from rich.console import Console

        console = Console()
        _print_summary(result, console)
    written = result.write(out, figures=worker if worker is not None else draw_here)
    if not args.quiet:
        console.print(
            f"results in [bold]{written}[/bold] "
            f"(seed {result.seed}, {result.stats.get('events', '?')} events, {result.wall_seconds:.2f} s)",
            highlight=False,
        )
    return 0


def _cmd_run_real(args: argparse.Namespace, scenario: Any, out: Path) -> int:
    """``vidcc run --real``: python/vidcc/real.py."""
    from vidcc.net import NetError
    from vidcc.real import run_real, store_real

    try:
        result = run_real(scenario, seed=args.seed)
    except NetError as e:
        print_error(f"{args.scenario}: {e}")
        return 2
    if "tcp" in result.stats:
        print(f"note: {result.stats['tcp']}", file=sys.stderr)
    written = result.write(out, figures=not args.no_figures)
    run_id = store_real(result, args.db)
    if not args.quiet:
        from rich.console import Console

        console = Console()
        _print_summary(result, console)
        console.print(f"real run [bold]{run_id}[/bold]: results in [bold]{written}[/bold] and "
                      f"{args.db or 'the results database'} ({result.wall_seconds:.1f} s)", highlight=False)
    return 0


def _preload(modules: list[str], loaders: Sequence[Callable[[], None]] = ()) -> threading.Thread:
    """Import ``modules`` (then run ``loaders``) on a second thread while the simulation runs (it
    releases the GIL), so that on a multi-core machine the writers' imports (matplotlib alone
    takes longer than many simulations) cost little or no wall time. The caller joins the thread
    before importing anything else, so the two threads never wait on each other's import locks.
    An import that fails here is left to fail again, with its message, where the module is
    really needed."""

    def load() -> None:
        for step in [*(lambda name=name: importlib.import_module(name) for name in modules), *loaders]:
            try:
                step()
            except Exception:  # noqa: BLE001, S110  (reported where the module is used)
                pass

    thread = threading.Thread(target=load, name="vidcc-preload", daemon=True)
    thread.start()
    return thread


# --------------------------------------------------------------------------------------------
# vidcc sweep / vidcc results  (python/vidcc/sweep.py, results.py, cluster.py)


REUSE_STALE_HELP = ("reuse runs made by other code (another build or edited sources: another code fingerprint) "
                    "instead of running them again; the summary and report say which results came from which code")


def _add_sweep_commands(sub) -> None:
    p = sub.add_parser(
        "sweep",
        help="run a parameter sweep into the results database",
        description="Run the cross product of a sweep file's axes and seeds, in parallel, recording every run in the "
        "results database; runs already recorded are skipped (format: docs/experiments.md).",
    )
    p.add_argument("sweep", metavar="SWEEP.toml", help="sweep file")
    p.add_argument("--db", metavar="PATH", help="results database (default: $VIDCC_DB or results/vidcc.duckdb)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", "-j", type=_jobs, metavar="N", help="local worker processes (default: all cores)")
    where.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask scheduler, e.g. tcp://HOST:8786")
    p.add_argument("--force", action="store_true", help="run every point again, even those already recorded")
    p.add_argument("--reuse-stale", action="store_true", help=REUSE_STALE_HELP)
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    p.set_defaults(func=_cmd_sweep)

    p = sub.add_parser("results", help="query the results database", description="Read the results database.")
    rsub = p.add_subparsers(dest="results_command", metavar="ACTION", parser_class=Parser)
    rsub.required = True
    q = rsub.add_parser("query", help="run SQL and print the result", description=(
        "Run read-only SQL. Tables: runs, run_flows, run_aggregate, sweep_runs, sweeps; views over the runs' "
        "Parquet files: flow_samples, queue_samples, events, links, packets, ..."))
    q.add_argument("sql", metavar="SQL")
    q.add_argument("--db", metavar="PATH", help="results database (default: $VIDCC_DB or results/vidcc.duckdb)")
    q.add_argument("--format", "-f", choices=("table", "csv", "json"), default="table", help="output format (default: table)")
    q.set_defaults(func=_cmd_results_query)
    c = rsub.add_parser("check", help="verify the database's integrity", description=(
        "Check that every recorded run has its Parquet files and rows, and that no row is partial."))
    c.add_argument("--db", metavar="PATH", help="results database (default: $VIDCC_DB or results/vidcc.duckdb)")
    c.set_defaults(func=_cmd_results_check)


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid number of jobs {text!r}: expected an integer >= 1") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"invalid number of jobs {text!r}: expected an integer >= 1")
    return value


def _cmd_sweep(args: argparse.Namespace) -> int:
    from vidcc.results import ResultsError, default_db
    from vidcc.sweep import SweepInterrupted, describe, load_sweep, run_sweep

    spec = load_sweep(args.sweep)
    db = Path(args.db) if args.db else default_db()
    progress = not args.quiet and sys.stderr.isatty()
    try:
        outcome = run_sweep(spec, db=db, jobs=args.jobs, cluster=args.cluster, force=args.force,
                            reuse_stale=args.reuse_stale, progress=progress)
    except SweepInterrupted as e:
        if not args.quiet:
            print(describe(e.outcome, spec.name, db), file=sys.stderr)
        return 130
    except ResultsError as e:
        print_error(e)
        return 1
    if not args.quiet:
        print(describe(outcome, spec.name, db))
        for i, (run_id, error) in enumerate(outcome.errors.items()):
            if i == 5:
                print(f"  ... and {len(outcome.errors) - 5} more failed runs (vidcc results query \"SELECT run_id, error FROM runs WHERE status = 'failed'\")", file=sys.stderr)
                break
            print(f"  failed {run_id[:12]}: {error}", file=sys.stderr)
    return 1 if outcome.failed else 0


def _cmd_results_query(args: argparse.Namespace) -> int:
    from vidcc.results import ResultsError, query

    try:
        df = query(args.sql, db=args.db)
    except ResultsError as e:
        print_error(e)
        return 1
    if args.format == "csv":
        df.to_csv(sys.stdout, index=False)
    elif args.format == "json":
        sys.stdout.write(df.to_json(orient="records", date_format="iso", force_ascii=False) + "\n")
    else:
        from rich import box
        from rich.console import Console
        from rich.table import Table

        t = Table(box=box.SIMPLE_HEAD)
        for col in df.columns:
            t.add_column(str(col), overflow="fold")
        for row in df.itertuples(index=False, name=None):
            t.add_row(*("" if v is None else str(v) for v in row))
        Console().print(t)
        print(f"{len(df)} row{'s' if len(df) != 1 else ''}", file=sys.stderr)
    return 0


def _cmd_results_check(args: argparse.Namespace) -> int:
    from vidcc.results import check, default_db

    db = Path(args.db) if args.db else default_db()
    report = check(db)
    for problem in report.problems:
        print_error(problem)
    if report.ok:
        extra = f", {len(report.orphans)} run directories without a row (harmless; rewritten when run again)" if report.orphans else ""
        print(f"{db}: ok: {report.runs_ok} runs ok, {report.runs_failed} failed{extra}")
    return 0 if report.ok else 1


# --------------------------------------------------------------------------------------------
# vidcc reproduce  (python/vidcc/papers/, analysis.py, report.py)


def _add_reproduce_command(sub) -> None:
    from vidcc.papers import PAPERS

    p = sub.add_parser(
        "reproduce",
        help="reproduce a paper's figures and check its claims",
        description="Run the sweeps behind a paper's figures (reusing runs already in the results database), draw the "
        "figures, check the paper's claims, and write a self-contained report.html and claims.json "
        "(docs/experiments.md, \"Reproducing the papers\"). Exits 0 whenever the reproduction ran, whatever the claims' "
        "statuses; 1 if runs or checks failed with errors.",
    )
    p.add_argument("paper", choices=[*PAPERS, "all"], metavar="PAPER", help=f"one of: {', '.join(PAPERS)}, all")
    p.add_argument("--scale", choices=("quick", "full"), default="quick",
                   help="quick: fewer flows, points, seeds and seconds (minutes on 2 cores); full: the paper's size (default: quick)")
    p.add_argument("--out", metavar="DIR", help="output directory (default: out/reproduce/<paper>-<scale>)")
    p.add_argument("--db", metavar="PATH", help="results database (default: $VIDCC_DB or results/vidcc.duckdb)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--jobs", "-j", type=_jobs, metavar="N", help="local worker processes (default: all cores)")
    where.add_argument("--cluster", metavar="ADDRESS", help="run on a Dask scheduler, e.g. tcp://HOST:8786")
    p.add_argument("--reuse-stale", action="store_true", help=REUSE_STALE_HELP)
    p.add_argument("--explore", action="store_true",
                   help="then re-run the suite under each alternative reading (of a protocol or of the set-up) that a FAIL or UNSTABLE "
                   "claim names, one at a time and in the combination the results suggest, and report which claims each "
                   "turns to PASS and which it costs (the verdicts stay the defaults')")
    p.add_argument("--under", type=_names, default=(), metavar="READING[,READING...]",
                   help="a trial: run the paper's suite under these alternative readings together (docs/papers/<paper>.md "
                   "describes each; an unknown name is refused with the paper's list); its claims are judged but not "
                   "classified, and the output (default out/reproduce/<paper>-<scale>~<readings>) is not the record")
    p.add_argument("--figures", type=_names, default=(), metavar="FIG[,FIG...]",
                   help="run only these figures of the paper (ids as in its report, e.g. fig7) and judge only their claims")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors and the final summary")
    p.set_defaults(func=_cmd_reproduce)


def _names(text: str) -> tuple[str, ...]:
    """A comma-separated list of names (readings, figure ids), none empty."""
    names = tuple(n.strip() for n in text.split(","))
    if not all(names):
        raise argparse.ArgumentTypeError(f"{text!r}: an empty name in the comma-separated list")
    return names


def _cmd_reproduce(args: argparse.Namespace) -> int:
    from vidcc.papers.reproducing import default_out, reproduce
    from vidcc.results import ResultsError
    from vidcc.sweep import SweepInterrupted

    def log(line: str) -> None:
        if not args.quiet:
            print(line, file=sys.stderr, flush=True)

    progress = not args.quiet and sys.stderr.isatty()
    try:
        runs = reproduce(args.paper, scale=args.scale, out=args.out, db=args.db, jobs=args.jobs, cluster=args.cluster,
                         reuse_stale=args.reuse_stale, progress=progress, log=log, explore=args.explore,
                         under=args.under, figures=args.figures)
    except SweepInterrupted:
        print_error("interrupted; the runs that finished are in the database, run the command again to finish")
        return 130
    except ResultsError as e:
        print_error(e)
        return 1
    counts: dict[str, int] = {}
    errors = []
    for run in runs:
        for k, v in run.counts().items():
            counts[k] = counts.get(k, 0) + v
        errors += run.errors
    out = args.out or default_out(args.paper, args.scale, args.under, args.figures)
    print(f"{args.paper} ({args.scale}): {', '.join(f'{v} {k}' for k, v in counts.items())}; "
          f"report: {Path(out) / 'report.html'}")
    for e in errors:
        print_error(e)
    return 1 if errors else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except KeyboardInterrupt:
        print_error("interrupted")
        return 130
    except (OSError, ValueError, RuntimeError) as e:
        from vidcc.scenario import ScenarioError  # only on this path: the schema is slow to import

        if isinstance(e, ScenarioError):
            print_error(e)
            return 2
        print_error(f"{type(e).__name__}: {e}" if not isinstance(e, OSError) else e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
