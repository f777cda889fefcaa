"""Simulator benchmark (issue #2): the dumbbell with 10, 50 and 100 NewReno flows.

Each case runs in its own process (the Rust example `bench_dumbbell`), so the peak memory is
the simulator's own. Prints wall seconds of the simulation call, bottleneck packets per wall
second, events per wall second and peak memory, and writes benches/results/simulator.json.
"""

from __future__ import annotations

import json
import pathlib
import platform
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CASES = [  # flows, bottleneck Mbps, RTT ms, duration s
    (10, 10, 70, 200),
    (50, 10, 70, 200),
    (100, 10, 70, 200),
    (100, 100, 40, 60),
]
REPEATS = 3


def main() -> int:
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "vidcc-sim", "--example", "bench_dumbbell"],
        cwd=ROOT,
        check=True,
    )
    exe = ROOT / "target" / "release" / "examples" / "bench_dumbbell"
    rows = []
    print(f"{'flows':>5} {'Mbps':>5} {'RTT':>5} {'sim s':>6} {'wall s':>7} {'bneck pkt/s':>12} {'events/s':>11} {'peak MB':>8} {'ns/pkt':>7}")
    for flows, mbps, rtt, dur in CASES:
        runs = []
        for _ in range(REPEATS):
            out = subprocess.run([str(exe), str(flows), str(mbps), str(rtt), str(dur)], capture_output=True, text=True, check=True)
            runs.append(json.loads(out.stdout))
        best = min(runs, key=lambda r: r["wall_s"])  # least disturbed by the rest of the machine
        best["pkts_per_wall_s"] = best["bottleneck_packets"] / best["wall_s"]
        best["events_per_wall_s"] = best["events"] / best["wall_s"]
        best["wall_ns_per_bottleneck_pkt"] = best["wall_s"] * 1e9 / best["bottleneck_packets"]
        best["wall_s_all_repeats"] = [r["wall_s"] for r in runs]
        rows.append(best)
        print(
            f"{flows:>5} {mbps:>5} {rtt:>5} {dur:>6} {best['wall_s']:>7.3f} {best['pkts_per_wall_s']:>12,.0f} "
            f"{best['events_per_wall_s']:>11,.0f} {best['peak_rss_bytes'] / 1e6:>8.1f} {best['wall_ns_per_bottleneck_pkt']:>7.0f}"
        )
    base = rows[0]["wall_ns_per_bottleneck_pkt"]
    worst = max(r["wall_ns_per_bottleneck_pkt"] for r in rows) / base
    print(f"per-packet cost, worst case / 10-flow case: {worst:.2f}x")
    out_dir = ROOT / "benches" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "simulator.json").write_text(
        json.dumps({"machine": platform.platform(), "python": sys.version.split()[0], "cases": rows, "per_packet_slowdown": worst}, indent=2)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
