"""Whole-command benchmark (issue 14, "Whole command"): what a user waits for, process start-up
included, against ns-2's whole process on the same cases when ns-2 is installed.

Times, each in a fresh process, fastest of ``--repeats`` interleaved rounds:

* ``vidcc --help`` and a scenario error (a bad unit), target under 150 ms;
* for each case in benches/scenarios (dumbbells, 1040 B packets): the simulation call alone
  (``_vidcc.simulate`` in this process, for context), ``vidcc run --quiet --no-figures`` (the
  issue's column) and ``vidcc run`` with its default outputs (tables, summary.json, figures and
  the printed summary, stdout to a pipe);
* ``ns`` (ns-2) on a Tcl script of the same dumbbell, when an ``ns`` command is on the PATH,
  and the ratios ns-2 / vidcc for both vidcc columns. Without ns-2 the table says so and shows
  vidcc's figures alone. To show that both simulated the same thing, an untimed ns-2 run with a
  queue monitor reports the packets that left the bottleneck queue and its drops, printed beside
  vidcc's (its ``links`` table, link 0).

The ``vidcc`` command is run as its console script does it (``from vidcc.cli import main``) with
this interpreter, with Python's bytecode cache on as in an installed package. Prints a table and
the load average around the run (the figures move with the machine's load: compare runs made
side by side) and writes benches/results/cli.json.
Nothing here asserts a time: a missed target is printed as missed.
"""

from __future__ import annotations

import argparse
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
SCENARIOS = ROOT / "benches" / "scenarios"
TARGET_START_S = 0.150

# name, scenario file, ns-2 case: (agent, flows, bottleneck Mbit/s, one-way bottleneck delay ms, seconds, loss)
CASES = [
    ("10 NewReno, 10 Mb/s, 70 ms, 200 s", "newreno-10.toml", ("newreno", 10, 10, 33, 200, 0.0)),
    ("50 NewReno, 10 Mb/s, 70 ms, 200 s", "newreno-50.toml", ("newreno", 50, 10, 33, 200, 0.0)),
    ("100 NewReno, 100 Mb/s, 40 ms, 60 s", "newreno-100.toml", ("newreno", 100, 100, 18, 60, 0.0)),
    ("10 TFRC, 10 Mb/s, 70 ms, 200 s", "tfrc-10.toml", ("tfrc", 10, 10, 33, 200, 0.0)),
    ("1 NewReno, 2 % loss, 120 ms, 300 s", "newreno-loss.toml", ("newreno", 1, 10, 58, 300, 0.02)),
]

VIDCC = [sys.executable, "-c", "import sys; from vidcc.cli import main; sys.exit(main())"]

BAD_SCENARIO = """[scenario]
duration = "10s"
[topology]
kind = "dumbbell"
bottleneck = { bandwidth = "10Mbit", delay = "33ms" }
access = { bandwidth = "1Gbps", delay = "1ms" }
[[flows]]
protocol = "tcp-newreno"
"""

# ns-2 (2.35) one-way agents on the same dumbbell as vidcc's scenario (checked against the resolved
# config and vidcc's `links` table): a 1 Gb/s 1 ms access link per sender and per receiver, the
# bottleneck between routers r0 -> r1; every queue DropTail with vidcc's "bdp" limit in both
# directions (bandwidth x 2 x (bottleneck + 2 access delays), in 1040 B packets, rounded up, at
# least 10: 85 / 481 / 145 packets on the bottleneck, 8414 / 4808 / 14424 on the access links).
# NewReno: FTP over Agent/TCP/Newreno with packetSize_ 1000 + 40 B of TCP/IP header = 1040 B on
# the wire, window_ = vidcc's max_window / packet_size = 64000 / 1040 = 61 segments, windowInit_
# 2, minrto_ 0.2 s and tcpTick_ 0.01 s (ns-2's defaults, vidcc's too), initial RTO 1 s
# (rtxcur_init_, vidcc's initial_rto), Agent/TCPSink acknowledging every packet (vidcc's
# delayed_ack = false). TFRC: Agent/TFRC sending 1040 B packets to Agent/TFRCSink. Every flow
# starts at 0 s as in vidcc's scenario. Loss: a Bernoulli ErrorModel on r0 -> r1 (vidcc's
# bottleneck `loss`, forward direction only). No trace files. With `check 1` a queue monitor on
# r0 -> r1 prints the bottleneck's departures and drops at the end (not in timed runs).
NS2_SCRIPT = """set ns [new Simulator]
set agent {agent}
set flows {flows}
set check {check}
set r0 [$ns node]
set r1 [$ns node]
$ns duplex-link $r0 $r1 {mbps}Mb {delay_ms}ms DropTail
$ns queue-limit $r0 $r1 {queue}
$ns queue-limit $r1 $r0 {queue}
if {{{loss} > 0}} {{
    set em [new ErrorModel]
    $em set rate_ {loss}
    $em unit pkt
    $em ranvar [new RandomVariable/Uniform]
    $em drop-target [new Agent/Null]
    $ns lossmodel $em $r0 $r1
}}
if {{$check}} {{
    set qmon [$ns monitor-queue $r0 $r1 ""]
}}
for {{set i 0}} {{$i < $flows}} {{incr i}} {{
    set s [$ns node]
    set d [$ns node]
    $ns duplex-link $s $r0 1000Mb 1ms DropTail
    $ns duplex-link $r1 $d 1000Mb 1ms DropTail
    foreach {{a b}} [list $s $r0 $r0 $s $r1 $d $d $r1] {{
        $ns queue-limit $a $b {access_queue}
    }}
    if {{$agent == "tfrc"}} {{
        set src [new Agent/TFRC]
        $src set packetSize_ 1040
        set sink [new Agent/TFRCSink]
    }} else {{
        set src [new Agent/TCP/Newreno]
        $src set packetSize_ 1000
        $src set window_ {window}
        $src set windowInit_ 2
        $src set minrto_ 0.2
        $src set tcpTick_ 0.01
        $src set rtxcur_init_ 1.0
        set sink [new Agent/TCPSink]
    }}
    $ns attach-agent $s $src
    $ns attach-agent $d $sink
    $ns connect $src $sink
    if {{$agent == "tfrc"}} {{
        $ns at 0.0 "$src start"
    }} else {{
        set ftp [new Application/FTP]
        $ftp attach-agent $src
        $ns at 0.0 "$ftp start"
    }}
}}
proc finish {{}} {{
    global check qmon
    if {{$check}} {{
        puts "bottleneck departures [$qmon set pdepartures_] drops [$qmon set pdrops_]"
    }}
    exit 0
}}
$ns at {seconds} "finish"
$ns run
"""
PACKET_BYTES = 1040
MAX_WINDOW_BYTES = 64_000  # vidcc's TCP max_window default


def bdp_packets(mbps: float, rtt_s: float) -> int:
    """vidcc's "bdp" queue limit (crates/vidcc-sim build.rs `queue_limit`): bandwidth x mean RTT in
    packets of the largest data packet, rounded up, at least 10."""
    return max(10, -(-round(mbps * 1e6 * rtt_s / 8) // PACKET_BYTES))


def ns2_script(agent: str, flows: int, mbps: int, delay_ms: int, seconds: int, loss: float, *,
               check: bool = False) -> str:
    rtt_s = 2 * (delay_ms + 2) / 1000  # bottleneck + two 1 ms access links, each way
    return NS2_SCRIPT.format(agent=agent, flows=flows, mbps=mbps, delay_ms=delay_ms, queue=bdp_packets(mbps, rtt_s),
                             access_queue=bdp_packets(1000, rtt_s), window=MAX_WINDOW_BYTES // PACKET_BYTES,
                             seconds=seconds, loss=loss, check=int(check))


# The vidcc commands run as an installed package would: with its bytecode cached (an environment
# that sets PYTHONDONTWRITEBYTECODE would otherwise recompile every module in every process).
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(cmd: list[str], *, expect: int | None = 0) -> float:
    t0 = time.perf_counter()
    done = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=CHILD_ENV)
    seconds = time.perf_counter() - t0
    if expect is not None and done.returncode != expect:
        sys.exit(f"error: {' '.join(cmd)} exited {done.returncode}, expected {expect}: {done.stderr.decode().strip()}")
    return seconds


def simulation_call(scenario: Path, repeats: int) -> float:
    from vidcc import _vidcc
    from vidcc.scenario import load_scenario

    config = json.dumps(load_scenario(scenario).resolve())
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        _vidcc.simulate(config)
        best = min(best, time.perf_counter() - t0)
    return best


def ns2_bottleneck(ns: str, tcl: Path) -> tuple[int, int]:
    """(departures, drops) of ns-2's bottleneck queue, from an untimed run with a queue monitor."""
    done = subprocess.run([ns, str(tcl)], capture_output=True, text=True, check=True)
    words = done.stdout.split()
    i = words.index("departures")
    return int(words[i + 1]), int(words[i + 3])


def vidcc_bottleneck(out: Path) -> tuple[int, int]:
    """(delivered, drops) of vidcc's bottleneck (link 0, L->R) from a run's links table."""
    import pyarrow.parquet as pq

    links = pq.read_table(out / "links.parquet").to_pydict()
    return links["delivered_packets"][0], links["dropped_queue"][0] + links["dropped_loss"][0]


def load() -> float:
    return os.getloadavg()[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=int(os.environ.get("VIDCC_BENCH_REPEATS", "5")),
                        help="rounds; the fastest of each is kept (default 5)")
    args = parser.parse_args(argv)
    ns = shutil.which("ns")
    load_before = load()
    work = Path(tempfile.mkdtemp(prefix="vidcc-bench-cli-"))
    packets: dict[int, dict[str, tuple[int, int]]] = {}
    try:
        bad = work / "bad.toml"
        bad.write_text(BAD_SCENARIO)
        commands: dict[str, tuple[list[str], int]] = {
            "help": (VIDCC + ["--help"], 0),
            "error": (VIDCC + ["run", str(bad)], 2),
        }
        for i, (_, file, ns_case) in enumerate(CASES):
            scenario = str(SCENARIOS / file)
            bare = ["run", scenario, "--quiet", "--no-figures", "--out", str(work / f"b{i}")]
            commands[f"{i}:bare"] = (VIDCC + bare, 0)
            commands[f"{i}:default"] = (VIDCC + ["run", scenario, "--out", str(work / f"d{i}")], 0)
            if ns:
                tcl = work / f"case{i}.tcl"
                tcl.write_text(ns2_script(*ns_case))
                commands[f"{i}:ns2"] = ([ns, str(tcl)], 0)
        best = {name: float("inf") for name in commands}
        for _ in range(args.repeats):  # interleaved rounds: a burst of load hits every command alike
            for name, (cmd, expect) in commands.items():
                best[name] = min(best[name], wall(cmd, expect=expect))
        sim = {i: simulation_call(SCENARIOS / file, args.repeats) for i, (_, file, _) in enumerate(CASES)}
        for i, (_, _, ns_case) in enumerate(CASES):  # the same dumbbells? compare what crossed the bottleneck
            packets[i] = {"vidcc": vidcc_bottleneck(work / f"d{i}")}
            if ns:
                check = work / f"check{i}.tcl"
                check.write_text(ns2_script(*ns_case, check=True))
                packets[i]["ns2"] = ns2_bottleneck(ns, check)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    load_after = load()

    def verdict(ok: bool) -> str:
        return "met" if ok else "MISSED"

    print(f"vidcc whole command (fastest of {args.repeats}; load average {load_before:.2f} before, "
          f"{load_after:.2f} after, {os.cpu_count()} cores)")
    for key, name in (("help", "vidcc --help"), ("error", "scenario error")):
        print(f"  {name:16} {best[key]:.3f} s   target < {TARGET_START_S:.3f} s: {verdict(best[key] < TARGET_START_S)}")
    print()
    print(f"{'case':36} {'ns-2 s':>7} {'sim call s':>10} {'run -q --no-fig s':>17} {'ns-2/that':>9} "
          f"{'run (default) s':>15} {'ns-2/that':>9}")
    rows = []
    for i, (name, file, _) in enumerate(CASES):
        ns2 = best.get(f"{i}:ns2")
        row = {"case": name, "scenario": f"benches/scenarios/{file}", "simulation_call_s": sim[i],
               "run_quiet_no_figures_s": best[f"{i}:bare"], "run_default_s": best[f"{i}:default"], "ns2_s": ns2,
               "bottleneck_packets_vidcc": packets[i]["vidcc"][0], "bottleneck_drops_vidcc": packets[i]["vidcc"][1]}
        if ns2:
            row["bottleneck_packets_ns2"], row["bottleneck_drops_ns2"] = packets[i]["ns2"]
        bare_ratio = f"{ns2 / row['run_quiet_no_figures_s']:.2f}x" if ns2 else "-"
        ratio = f"{ns2 / row['run_default_s']:.2f}x" if ns2 else "-"
        ns2_text = f"{ns2:.3f}" if ns2 else "-"
        print(f"{name:36} {ns2_text:>7} {sim[i]:>10.3f} {row['run_quiet_no_figures_s']:>17.3f} {bare_ratio:>9} "
              f"{row['run_default_s']:>15.3f} {ratio:>9}")
        rows.append(row)
    if not ns:
        print("ns-2 is not installed (no `ns` on the PATH): vidcc's figures alone, no ratios. "
              "`apt-get install ns2` (or `make validate`'s installer) to compare.")
    else:
        print()
        print("the same dumbbells? packets out of the bottleneck queue (drops) over the run:")
        for row in rows:
            print(f"  {row['case']:36} ns-2 {row['bottleneck_packets_ns2']:>7} ({row['bottleneck_drops_ns2']:>5})"
                  f"   vidcc {row['bottleneck_packets_vidcc']:>7} ({row['bottleneck_drops_vidcc']:>5})")
        slower = [r["case"] for r in rows if r["ns2_s"] < r["run_default_s"]]
        print(f"vidcc run (default outputs) faster than ns-2 on every case: {verdict(not slower)}"
              + (f" (slower on: {', '.join(slower)})" if slower else ""))
    out_dir = ROOT / "benches" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "cli.json").write_text(json.dumps({
        "machine": platform.platform(), "python": sys.version.split()[0], "cores": os.cpu_count(),
        "load_average_before": load_before, "load_average_after": load_after, "repeats": args.repeats,
        "ns2": ns, "help_s": best["help"], "scenario_error_s": best["error"], "cases": rows,
    }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
