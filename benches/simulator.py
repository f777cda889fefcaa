"""Simulator core benchmark (issue 14, "Core"): the simulation call beside ns-2's whole process.

The cases are issue 14's five dumbbells (benches/scenarios/*.toml, the same list and ns-2 Tcl as
benches/cli.py). For each, in one invocation, interleaved round by round so that a burst of load
hits every contender alike, the fastest of ``--repeats`` rounds of:

* ``ns`` (ns-2 2.35) on the Tcl script of the same dumbbell, whole process, when ``ns`` is installed;
* ``_vidcc.simulate`` in this process (the simulation call a ``vidcc run`` makes, its output
  tables handed to Python included);
* the Rust example ``bench_config`` on the same resolved scenario, in its own process: wall and
  CPU seconds of the call (CPU time leaves out what other processes took, so it is the figure
  to compare on a busy machine), scheduler events, bottleneck packets, delivered packets and
  peak resident memory (``VmHWM``).

Prints the ratio ns-2 / simulation call against the target 10x, bottleneck packets per wall
second (target 2 million on the 10-flow case), events per delivered packet, and the per-packet
cost of the 100-flow case against the 10-flow one (target within 1.3x), and the floor the event
kernel alone sets (the Rust example ``bench_scheduler``: events per second of the scheduler with
nothing else to do, so a run of E events takes at least E / that); writes
benches/results/simulator.json. Nothing here asserts a time: a missed target is printed as missed.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET_RATIO = 10.0
TARGET_PKTS_PER_S = 2_000_000
TARGET_SLOWDOWN = 1.3


def _cli_bench():
    """benches/cli.py, for its case list and ns-2 script (one definition of the cases)."""
    spec = importlib.util.spec_from_file_location("vidcc_bench_cli", ROOT / "benches" / "cli.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _timed(cmd: list[str]) -> tuple[float, str]:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(cmd)} exited {done.returncode}: {done.stderr.strip()}")
    return seconds, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=int(os.environ.get("VIDCC_BENCH_REPEATS", "5")),
                        help="rounds; the fastest of each is kept (default 5)")
    args = parser.parse_args(argv)
    if args.repeats < 1:
        parser.error(f"--repeats must be at least 1, got {args.repeats}")

    from vidcc import _vidcc
    from vidcc.scenario import load_scenario

    cli = _cli_bench()
    subprocess.run(["cargo", "build", "--release", "--quiet", "-p", "vidcc-sim", "--example", "bench_config",
                    "--example", "bench_scheduler"], cwd=ROOT, check=True)
    target_dir = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    exe = target_dir / "release" / "examples" / "bench_config"
    # The event kernel alone (a hold model with 100 events pending): no run of E events can take
    # less than E / this rate, so it bounds the ratio any simulation call can reach against ns-2.
    kernel = max((json.loads(_timed([str(target_dir / "release" / "examples" / "bench_scheduler"), "100"])[1])
                  for _ in range(min(args.repeats, 3))), key=lambda k: k["events_per_s"])
    ns = shutil.which("ns")
    load_before = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp(prefix="vidcc-bench-sim-"))
    try:
        cases = []
        for i, (name, file, ns_case) in enumerate(cli.CASES):
            config = json.dumps(load_scenario(cli.SCENARIOS / file).resolve())
            path = work / f"case{i}.json"
            path.write_text(config)
            tcl = None
            if ns:
                tcl = work / f"case{i}.tcl"
                tcl.write_text(cli.ns2_script(*ns_case))
            cases.append({"name": name, "file": file, "config": config, "json": path, "tcl": tcl,
                          "ns2_s": float("inf"), "sim_call_s": float("inf"), "rust": None})
        for _ in range(args.repeats):
            for c in cases:
                if c["tcl"]:
                    c["ns2_s"] = min(c["ns2_s"], _timed([ns, str(c["tcl"])])[0])
                t0 = time.perf_counter()
                _vidcc.simulate(c["config"])
                c["sim_call_s"] = min(c["sim_call_s"], time.perf_counter() - t0)
                _, out = _timed([str(exe), str(c["json"])])
                run = json.loads(out)
                if c["rust"] is None or run["cpu_s"] < c["rust"]["cpu_s"]:
                    c["rust"] = run
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_after = os.getloadavg()[0]

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print(f"simulator core (fastest of {args.repeats}; load average {load_before:.2f} before, {load_after:.2f} after, "
          f"{os.cpu_count()} cores)")
    print(f"{'case':36} {'ns-2 s':>7} {'sim call s':>10} {'ns-2/sim':>8} {'Rust wall s':>11} {'Rust CPU s':>10} "
          f"{'bneck pkt/s':>12} {'ev/deliv':>8} {'ns/bneck pkt':>12} {'peak MB':>7} {'ns-2/kernel floor':>17}")
    rows = []
    for c in cases:
        r = c["rust"]
        ns2 = c["ns2_s"] if c["tcl"] else None
        row = {
            "case": c["name"], "scenario": f"benches/scenarios/{c['file']}", "ns2_s": ns2,
            "simulation_call_s": c["sim_call_s"], "ratio_ns2_over_call": ns2 / c["sim_call_s"] if ns2 else None,
            "rust_wall_s": r["wall_s"], "rust_cpu_s": r["cpu_s"], "events": r["events"],
            "bottleneck_packets": r["bottleneck_packets"], "packets_delivered": r["packets_delivered"],
            "peak_rss_bytes": r["peak_rss_bytes"],
            "bottleneck_pkts_per_wall_s": r["bottleneck_packets"] / c["sim_call_s"],
            "events_per_delivered_packet": r["events"] / max(r["packets_delivered"], 1),
            "cpu_ns_per_bottleneck_packet": r["cpu_s"] * 1e9 / max(r["bottleneck_packets"], 1),
            "kernel_floor_s": r["events"] / kernel["events_per_s"],
        }
        row["ratio_ns2_over_kernel_floor"] = ns2 / row["kernel_floor_s"] if ns2 else None
        rows.append(row)
        ratio = f"{row['ratio_ns2_over_call']:.1f}x" if ns2 else "-"
        bound = f"{row['ratio_ns2_over_kernel_floor']:.1f}x" if ns2 else "-"
        print(f"{c['name']:36} {ns2 if ns2 else float('nan'):>7.3f} {c['sim_call_s']:>10.4f} {ratio:>8} "
              f"{r['wall_s']:>11.4f} {r['cpu_s']:>10.4f} {row['bottleneck_pkts_per_wall_s']:>12,.0f} "
              f"{row['events_per_delivered_packet']:>8.2f} {row['cpu_ns_per_bottleneck_packet']:>12.0f} "
              f"{r['peak_rss_bytes'] / 1e6:>7.1f} {bound:>17}")
    print(f"event kernel alone (bench_scheduler, 100 pending): {kernel['events_per_s']:,.0f} events/s; "
          "'ns-2/kernel floor' is the ratio a run would reach if everything but the event heap cost nothing")
    by_file = {r["scenario"].rsplit("/", 1)[-1]: r for r in rows}
    ten, hundred = by_file.get("newreno-10.toml"), by_file.get("newreno-100.toml")
    summary: dict = {}
    if ten and hundred:
        slowdown = hundred["cpu_ns_per_bottleneck_packet"] / ten["cpu_ns_per_bottleneck_packet"]
        summary["per_packet_slowdown_100_vs_10"] = slowdown
        print(f"per-packet CPU cost, 100 flows / 10 flows: {slowdown:.2f}x (target within {TARGET_SLOWDOWN}x: "
              f"{verdict(slowdown <= TARGET_SLOWDOWN)})")
        pps = ten["bottleneck_pkts_per_wall_s"]
        summary["ten_flow_bottleneck_pkts_per_wall_s"] = pps
        print(f"10-flow case: {pps:,.0f} bottleneck packets per wall second of the simulation call (target "
              f"{TARGET_PKTS_PER_S:,}: {verdict(pps >= TARGET_PKTS_PER_S)})")
    if ns:
        short = [r["case"] for r in rows if r["ratio_ns2_over_call"] < TARGET_RATIO]
        print(f"simulation call at least {TARGET_RATIO:.0f}x faster than ns-2's whole process on every case: "
              f"{verdict(not short)}" + (f" (short on: {', '.join(short)})" if short else ""))
    else:
        print("ns-2 is not installed (no `ns` on the PATH): vidcc's figures alone, no ratios. "
              "`apt-get install ns2` (or `make validate`'s installer) to compare.")
    out_dir = ROOT / "benches" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "simulator.json").write_text(json.dumps({
        "machine": platform.platform(), "python": sys.version.split()[0], "cores": os.cpu_count(),
        "load_average_before": load_before, "load_average_after": load_after, "repeats": args.repeats,
        "ns2": ns, "kernel": kernel, "cases": rows, **summary,
    }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
