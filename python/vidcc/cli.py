"""The ``vidcc`` command. Subcommands: ``run`` (more to come: sweep, reproduce, video).

Exit codes: 0 success, 1 the run failed, 2 bad usage or an invalid scenario, 130 interrupted.
Problems are one ``error: ...`` line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Sequence

from vidcc import __version__
from vidcc.scenario import ScenarioError

__all__ = ["main", "build_parser"]


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, exit 2, like every other usage problem
        self.print_usage(sys.stderr)
        _error(f"{self.prog}: {message}")
        sys.exit(2)


def _error(message: str) -> None:
    print("error: " + " ".join(str(message).split()), file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="vidcc", description="Congestion-controlled video over UDP: simulate, sweep, reproduce.")
    parser.add_argument("--version", action="version", version=f"vidcc {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True

    p = sub.add_parser("run", help="simulate one scenario file", description="Simulate one scenario file and write its results.")
    p.add_argument("scenario", metavar="SCENARIO.toml", help="scenario file (format: docs/scenarios.md)")
    p.add_argument("--seed", type=_seed, help="master seed (overrides scenario.seed)")
    p.add_argument("--out", metavar="DIR", help="output directory (default: out/<scenario file stem>)")
    p.add_argument("--no-figures", action="store_true", help="do not draw PNG figures")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    p.set_defaults(func=_cmd_run)
    return parser


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

    per_flow = result.per_flow()
    if not per_flow.empty:
        t = Table(title="Flows (after warmup)", title_justify="left", box=box.SIMPLE_HEAD)
        for col, just in (("flow", "right"), ("label", "left"), ("throughput\nMbps", "right"), ("goodput\nMbps", "right"),
                          ("drop\n%", "right"), ("mean delay\nms", "right"), ("CoV", "right")):
            t.add_column(col, justify=just, no_wrap=col == "label", min_width=max(map(len, col.split("\n"))))
        for row in per_flow.to_dict("records"):
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
    agg = result.aggregate
    if not agg.empty:
        t = Table(title="Aggregate (after warmup)", title_justify="left", box=box.SIMPLE_HEAD)
        for col in ("label", "flows", "throughput\nMbps", "Jain", "worst-case\nfairness", "normalized\nthroughput"):
            t.add_column(col, justify="left" if col == "label" else "right", no_wrap=col == "label",
                         min_width=max(map(len, col.split("\n"))))
        for row in agg.to_dict("records"):
            t.add_row(
                str(row.get("label", "")),
                str(row.get("flows", "")),
                _fmt(row.get("throughput_bps_sum"), 1e-6),
                _fmt(row.get("jain"), 1, 4),
                _fmt(row.get("worst_case_fairness"), 1, 4),
                _fmt(row.get("normalized_throughput_mean"), 1, 4),
            )
        console.print(t)


def _cmd_run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from vidcc.runner import run
    from vidcc.scenario import load_scenario

    scenario = load_scenario(args.scenario)
    out = Path(args.out) if args.out else Path("out") / Path(args.scenario).stem
    show_progress = not args.quiet and sys.stderr.isatty()
    result = run(scenario, seed=args.seed, progress=show_progress)
    console = Console()
    if not args.quiet:
        _print_summary(result, console)
    written = result.write(out, figures=not args.no_figures)
    if not args.quiet:
        console.print(
            f"results in [bold]{written}[/bold] "
            f"(seed {result.seed}, {result.stats.get('events', '?')} events, {result.wall_seconds:.2f} s)",
            highlight=False,
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.func(args)
    except ScenarioError as e:
        _error(e)
        return 2
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
    except (OSError, ValueError, RuntimeError) as e:
        _error(f"{type(e).__name__}: {e}" if not isinstance(e, OSError) else e)
        return 1


if __name__ == "__main__":
    sys.exit(main())
