"""Running the differential suite: each case in vidcc and in ns-2, compared, as a table and JSON.

    python -m vidcc.validate [--jobs N] [--out DIR] [--case NAME ...] [--sabotage KIND]

Writes DIR/<case>.tcl (re-run by hand: ``ns DIR/<case>.tcl out.txt``), DIR/<case>.ns2.txt (what
ns-2 wrote) and DIR/validation.json; prints one table; exits 1 when a case FAILs (or errs) or when
an ns-2 default a paper suite declares is not what ``ns`` prints (vidcc.validate.defaults).
``VIDCC_VALIDATE_SABOTAGE=beta`` (or ``--sabotage beta``) runs the vidcc side deliberately
mis-configured, which must make the suite fail.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from vidcc.validate import cases as case_table
from vidcc.validate import compare, defaults, layout, metrics, ns2, tcl


def measure_vidcc(case: case_table.Case, sabotage: str | None = None) -> tuple[layout.Layout, metrics.Metrics]:
    """The case's layout (from the honest run: it is what ns-2 simulates) and vidcc's metrics
    (from the sabotaged run when asked)."""
    import vidcc

    honest = vidcc.run(case.scenario)
    lay = layout.from_run(case.name, case.bottleneck, honest.resolved, honest.tables)
    scenario = case.scenario if sabotage is None else case_table.sabotage(case.scenario, sabotage)
    tables = honest.tables if sabotage is None else vidcc.run(scenario).tables
    warm = vidcc.run(case_table.until_warmup(scenario)).tables["links"]
    return lay, metrics.from_vidcc(lay, tables, warm)


def judge(
    case: case_table.Case, lay: layout.Layout, vm: metrics.Metrics, out: ns2.Ns2Output, source: str
) -> compare.CaseResult:
    nm = metrics.from_ns2(lay, out, source)
    events = {name: sum(out.flows[i].cuts for i in flows) for name, flows in metrics.timeout_groups(lay).items()}
    return compare.compare(case.name, vm, nm, overrides=case.bands, expect=case.expect, ns2_events=events,
                           capacity_bps=lay.link(lay.bottleneck).bandwidth_bps)


def run_case(name: str, out_dir: str, sabotage: str | None) -> dict[str, Any]:
    """One case end to end (the process-pool worker). Never raises: an error is the case's ERROR."""
    case = case_table.find([name])[0]
    t0 = time.perf_counter()
    try:
        lay, vm = measure_vidcc(case, sabotage)
        script = Path(out_dir) / f"{case.name}.tcl"
        script.write_text(tcl.generate(lay), encoding="utf-8")
        result_path = Path(out_dir) / f"{case.name}.ns2.txt"
        result = judge(case, lay, vm, ns2.run(script, result_path), str(result_path))
    except (layout.LayoutError, ns2.Ns2Error, ns2.Ns2OutputError, ValueError) as e:
        result = compare.CaseResult(case.name, "ERROR", [], str(e))
    d = result.as_dict()
    d["covers"] = case.covers
    d["seconds"] = round(time.perf_counter() - t0, 2)
    return d


def _fmt(x: float | None, metric: str) -> str:
    if x is None:
        return "-"
    if metric.startswith("goodput"):
        return f"{x / 1e6:.3f}M"
    return f"{x:.4f}" if abs(x) < 10 else f"{x:.1f}"


def table(results: list[Mapping[str, Any]]) -> str:
    rows = [("case", "status", "metric", "vidcc", "ns-2", "band", "")]
    for r in results:
        first = True
        for m in r["metrics"] or [{"metric": "", "vidcc": None, "ns2": None, "band": "", "ok": None}]:
            mark = {True: "ok", False: "OUT", None: "n/c"}[m["ok"]] if m["metric"] else ""
            rows.append((r["case"] if first else "", r["status"] if first else "", m["metric"],
                         _fmt(m["vidcc"], m["metric"]), _fmt(m["ns2"], m["metric"]), m["band"], mark))
            first = False
        if r["note"]:
            rows.append(("", "", f"  note: {r['note']}", "", "", "", ""))
    widths = [max(len(row[i]) for row in rows if not row[2].startswith("  note")) for i in range(7)]
    lines = []
    for row in rows:
        if row[2].startswith("  note"):
            lines.append(" " * (widths[0] + widths[1] + 4) + row[2].strip())
        else:
            lines.append("  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip())
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m vidcc.validate", description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="cases run in parallel")
    ap.add_argument("--out", default="out/validate", help="directory for scripts, ns-2 outputs and JSON")
    ap.add_argument("--case", action="append", help="run only this case (repeatable)")
    ap.add_argument("--sabotage", default=os.environ.get("VIDCC_VALIDATE_SABOTAGE") or None,
                    help="mis-configure the vidcc side on purpose (" + ", ".join(case_table.SABOTAGE_KINDS)
                    + "): the suite must fail")
    args = ap.parse_args(argv)
    try:
        ns2.ns_binary()
        chosen = case_table.find(args.case)
        if args.sabotage:
            case_table.sabotage({"flows": []}, args.sabotage)  # an unknown kind fails here, at once
    except (ns2.Ns2Error, KeyError, ValueError) as e:
        print(f"validate: {e}", file=sys.stderr)
        return 2
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    try:
        declared = defaults.check(out)
    except (ns2.Ns2Error, OSError, subprocess.SubprocessError) as e:
        print(f"validate: checking the suites' ns-2 defaults: {e}", file=sys.stderr)
        return 2
    names = [c.name for c in chosen]
    if args.jobs > 1 and len(names) > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            results = list(pool.map(run_case, names, [str(out)] * len(names), [args.sabotage] * len(names)))
    else:
        results = [run_case(n, str(out), args.sabotage) for n in names]
    wall = time.perf_counter() - t0
    counts: dict[str, int] = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    summary = {"ns2": "2.35", "sabotage": args.sabotage, "seconds": round(wall, 1), "counts": counts, "cases": results,
               "suite_defaults": [d.as_dict() for d in declared]}
    (out / "validation.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    print(table(results))
    print(f"\n{len(results)} cases in {wall:.0f} s: " + ", ".join(f"{v} {k}" for k, v in sorted(counts.items())))
    wrong = [d for d in declared if d.status == "FAIL"]
    print(f"ns-2 defaults declared by the paper suites: {len(declared)} checked with ns, {len(wrong)} differ")
    for d in wrong:
        print(f"  {d.suite}: {d.variable} declared {d.declared}, ns-2 says {d.ns2 if d.ns2 is not None else 'nothing'}")
    if args.sabotage:
        print(f"(vidcc side sabotaged: {args.sabotage})")
    print(f"scripts, ns-2 outputs and validation.json in {out}/")
    return 1 if wrong or any(r["status"] in ("FAIL", "ERROR") for r in results) else 0
