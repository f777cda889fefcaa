"""Multicast benchmark (issue 10, Speed): one `udp-multicast` sender to 1,000 and 10,000
receivers behind a two-level tree (S — R — 100 routers, the receivers spread over them on private
10 Mbit/s access links), 1 Mbit/s of 1000-byte packets for 60 simulated seconds; and issue 10's
case, one `tfmcc` sender to 10,000 receivers on the same tree with S — R a 1 Mbit/s bottleneck
(RFC 4654 defaults: slow start, the CLR, feedback rounds and suppression at full group size).

Each case runs in its own process (the Rust example `bench_multicast`), so the peak memory is the
simulator's own. Prints wall seconds (build and run), delivered receiver-packets per wall second,
events per wall second and peak memory, and writes benches/results/multicast.json.
"""

from __future__ import annotations

import json
import os
import pathlib
import platform
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CASES = [  # protocol, receivers, branches, kbit/s, duration s
    ("udp-multicast", 1_000, 100, 1_000, 60),
    ("udp-multicast", 10_000, 100, 1_000, 60),
    ("tfmcc", 10_000, 100, 1_000, 60),
]
REPEATS = 2


def main() -> int:
    subprocess.run(
        ["cargo", "build", "--release", "--quiet", "-p", "vidcc-sim", "--example", "bench_multicast"],
        cwd=ROOT,
        check=True,
    )
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    exe = target / "release" / "examples" / "bench_multicast"
    rows = []
    head = ("protocol", "receivers", "sim s", "wall s", "rx pkt/s", "events/s", "peak MB")
    print(" ".join(f"{h:>{w}}" for h, w in zip(head, (13, 9, 6, 7, 11, 11, 8))))
    for protocol, receivers, branches, kbps, dur in CASES:
        runs = []
        for _ in range(REPEATS):
            args = [str(exe), str(receivers), str(branches), str(kbps), str(dur), protocol]
            out = subprocess.run(args, capture_output=True, text=True, check=True)
            runs.append(json.loads(out.stdout))
        best = min(runs, key=lambda r: r["wall_s"])  # least disturbed by the rest of the machine
        best["receiver_packets_per_wall_s"] = best["receiver_packets"] / best["wall_s"]
        best["events_per_wall_s"] = best["events"] / best["wall_s"]
        best["wall_s_all_repeats"] = [r["wall_s"] for r in runs]
        rows.append(best)
        print(
            f"{protocol:>13} {receivers:>9} {dur:>6} {best['wall_s']:>7.2f} "
            f"{best['receiver_packets_per_wall_s']:>11,.0f} "
            f"{best['events_per_wall_s']:>11,.0f} {best['peak_rss_bytes'] / 1e6:>8.1f}"
        )
    out_dir = ROOT / "benches" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "multicast.json").write_text(
        json.dumps({"machine": platform.platform(), "python": sys.version.split()[0], "cases": rows}, indent=2)
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
