"""SRAMT (simulcast SRAMT-S and layered SRAMT-LE): Bouras & Gkamas, Computer Networks 47(4),
2005. Set-ups of §3 and claims C01–C35 of ``specs/004-sramt.md``.

Reconstruction notes (digest tags [P]/[I]/[R]; ours are marked "suite"):

* Everything the paper runs is multi-rate multicast (``multicast`` feature; protocols
  ``sramt-s`` and ``sramt-le``; the baselines of Figs. 15–19 are ``plm``, ``rlc``, ``mlda``,
  ``dsg``, ``irfm``, issue 11). Multicast flows are graph flows with a ``receivers`` list
  (node, start, and for Scenario A's simulcast the stream each receiver starts on [P]); the bands
  and initial rates are the protocol's defaults, which are the paper's [P].
* Common [R]: 1000 B packets, RED with min_th 5, max_th 15, w_q 0.002, max_p 0.1, gentle off,
  limit 50 packets (droptail 50 in B4); 1000 s runs (quick: 500 s), statistics after a 100 s
  warm-up (quick: 50 s); 1 s bins; 10 seeds (quick: 2). The digest's times for 1000 s runs
  ("held over [500, 1000] s", "before 200 s", "none after 500 s") are read as shares of the run
  (0.5·D, 0.2·D, 0.5·D; suite), so quick scale asks the same questions of shorter runs.
* Traces (suite): stream / level changes are the receivers' ``layers`` events (1-based stream or
  level), the announced group rates the sender's ``group_rate`` events, the reports it hears its
  ``feedback`` events, and the receivers' t_RTT^{e-i} their ``rtt_estimate`` events (once per RTT).
  The SRAMT traffic on a Scenario A bottleneck is read from the receivers behind it (they sit on
  loss-free 10 Mbit/s access links): per 1 s bin, LE: the most any of them receives (its layers
  contain the others'); S: the sum over the streams they are on of the most one receiver gets.
* Unit-level claims (C01–C03, C05–C07, C29) are checked on the implementation's own numbers
  (``_vidcc.sramt_unit_measurements``: Eq. 1 at the digest's vectors, the 8-tap filter, the
  one-way-delay RTT around a calibration, 2,000 random reports through the sender for Eqs. 5–6
  and C07, and the Monte-Carlo of partial suppression at 10,000 receivers) against values this
  suite computes independently (Eq. 1 in Python) or the digest states.
* Scenario A [R]: S and TCP1–3 behind C1 (10 Mbit/s); bottlenecks C1–C2 0.2, C1–C3 0.8, C1–C4
  1.5 Mbit/s; receivers R1, R2 / R3, R4 / R5, R6 and Sink1–3 behind C2 / C3 / C4 (10 Mbit/s); every
  link 10 ms, so every SRAMT receiver and TCP flow has a 60 ms base RTT [P]. TCP is 4.3BSD Tahoe
  [P] (``tcp-tahoe``), starting at U(0, 1) s. SRAMT-S receivers start on their expected streams
  [P]; SRAMT-LE receivers all start at level 1 (A-23), all at 0 s.
* Scenario B [R]: the digest's reconstructed tree (S–C1 10M/10ms, C1–C2 1.5M/20ms, C2–R1
  1.0M/10ms, C2–C3 0.8M/30ms, C3–R2 0.6M/10ms, C3–R3 0.2M/10ms, C3–C4 2.0M/40ms, C4–R4
  0.6M/10ms, C4–C5 0.2M/70ms, C5–R5 10M/10ms; B3/B4: C1–C2 3.0M, C2–C3 1.4M). Background on
  C1–C2, C2–C3 and C3–C4: Pareto on/off at 50 % of the link, ON mean 20 packets, OFF mean 0.5 s
  [P]; the simulator's Pareto source has one shape for both periods, 1.5 here (suite; the
  paper's are 1.1 ON and 1.8 OFF). Receivers join at 0.5, 1.0, 1.5, 2.0 and 2.5 s (R1..R5; the
  paper's U(0, 3) s, fixed here because a receiver's start is not drawn per seed).
* Fig. 2 (RTT estimator): 1 Mbit/s, 10 ms link [R] with a 0.5 Mbit/s on/off background, ON and
  OFF means 0.5 s [R]; the paper's periods are exponential, here Pareto with shape 1 + √2 ≈ 2.41,
  whose coefficient of variation is 1 as the exponential's (suite). One SRAMT-S stream (band
  50–1000 kbit/s, starting at 200 kbit/s) [R]; 200 s (quick: 60 s). True RTT per 1 s bin = the
  mean one-way delay of the receiver's data in the bin + the unloaded reverse path (12 ms of
  propagation plus the report's serialisation) (suite).
* Figs. 15–19 (suite, the digest's recommendation): the paper shows each baseline in its own
  paper's scenario; here every scheme meets one Tahoe flow on one common 1 Mbit/s, 20 ms
  bottleneck (``common_bottleneck``), RED for all but PLM, which runs behind DRR fair queueing as
  its paper requires (``plm_checks``, ``layered_checks``, ``simulcast_checks`` hold C30–C34).
  Their own papers' set-ups (digest §3.4) are figure ``fig15-19-orig`` (``original``; suite
  capacities, the digest gives none: 1 Mbit/s, 20 ms per session and TCP pair, RED, PLM behind
  DRR): PLM with TCP1 from 0 s, PLM from 20 s, TCP2 from 60 s (measured from 60 s); 8 RLC
  sessions and 8 Tahoe flows on 8 Mbit/s; one Tahoe flow and one IRFM session with two receivers.
  MLDA's (MLDA against TCP on one bottleneck) is the common scenario itself; DSG's ("three streams
  over the Internet") names no topology and is not re-run. C30–C34 show the original set-up's F,
  starvation windows, CoV or convergence beside their verdicts, which stay the common
  scenario's (the digest's C30–C34 ask for a common scenario).
* Staggered start (suite, the digest's single-bottleneck common scenario; figure
  ``fig15-19-staggered``): PLM's Fig. 15 set-up with every scheme (SRAMT-LE, SRAMT-S and the five
  baselines): TCP1 from 0 s, the scheme from 20 s, TCP2 from 60 s on one 1 Mbit/s, 20 ms
  bottleneck, RED except PLM's DRR; measured from 60 s. C30–C34 report each baseline's and its
  SRAMT variant's F (per session against the mean TCP flow), starvation windows, CoV and last
  change there, and whether the claim's test holds (reported, not judged). Its PLM part is
  fig15-19-orig's (the same scenario, so the same runs).
* Baselines in Scenario A (suite, the digest's common scenario for layered and simulcast
  schemes; figure ``fig4-9-baselines``, ``baselines_a``): Scenario A's topology, receivers R1–R6
  and Tahoe flows with PLM, RLC, MLDA, DSG or IRFM in SRAMT's place; PLM behind DRR on the three
  bottlenecks (its paper's fair queueing), the others behind the scenario's RED; every scheme's
  default layers / bands / range (they fit the 100 / 400 / 750 kbit/s half-shares); DSG's
  receivers start on SRAMT-S's streams, the others where the scheme puts them. C30–C34 report,
  beside their common-bottleneck verdicts, each bottleneck's F against its own Tahoe flow and its
  starvation windows, the CoV, the last change and each receiver's final position against the
  scheme's expected one (PLM, RLC: the most layers strictly below the half-share; DSG: SRAMT-S's
  streams; IRFM: R1, R2 low, R5, R6 high; MLDA: increasing levels), for the baseline and its
  SRAMT variant (fig7-9 / fig4-6), and whether the claim's own test holds there (reported, not
  judged: the claims compare one scheme with one TCP on one link, as the paper's Figs. 15–19).
* Tables 1–2 (C35, suite; ``tables_checks``): the ratings are read as ordinal (Very good > Good >
  Modest; Yes > Modest > No; Very fast > Relative fast = Satisfactory > Modest) and each row with
  a measured counterpart in the fig15-19 runs is checked pairwise wherever two ratings differ:
  TCP friendliness ↔ |F − 1| (Table 1 with C30's F, Table 2 with C34's), stable transmission
  rate ↔ CoV (Table 1: the received rate, as C30; Table 2: the held streams' announced rates, as
  C33), convergence time ↔ the last level / stream change (as C32 / C33–C34); the better-rated
  scheme must measure strictly better. DSG's friendliness ("–") is not compared. Not checked:
  "Stable operation" (no metric in digest §4; the starvation windows are reported), "Scalability"
  (Table 1 all "Well"; Table 2 would need DSG's and IRFM's reports per round at scale, which no
  suite run measures) and "Limitations".
* Baseline: Scenario A with TCP only: on each bottleneck a Tahoe flow from S's side (standing in
  for the SRAMT stream) and the Tahoe flow from TCPi, the same RTT: C12's friendliness ratio F
  must be ≈ 1 for two TCPs.
"""

from __future__ import annotations

import math

from vidcc.papers.building import droptail, flow, glink, graph, red, scenario
from vidcc.papers.model import Claim, Figure, Part, Plot, Q, Suite, Verdict, reconstruction_notes
from vidcc.papers.sramt import (
    baselines_a,
    checks,
    layered_checks,
    original,
    plm_checks,
    simulcast_checks,
    tables_checks,
    trace,
)
from vidcc.papers.verdicts import within

SEEDS = Q([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
DURATION = Q("500s", "1000s")
WARMUP = Q("50s", "100s")
RED = red(min_thresh=5, max_thresh=15, weight=0.002, max_p=0.1, gentle=False, limit=50)
NEEDS = ("multicast",)
LINKS = {"C2": "0.2Mbps", "C3": "0.8Mbps", "C4": "1.5Mbps"}
S, LE = ("sramt-s",), ("sramt-le",)
TAHOE = ("tcp-tahoe",)


def scenario_a(queue=RED) -> dict:
    fast = dict(bandwidth="10Mbps", delay="10ms", monitor=False)
    links = [glink("S", "C1", **fast)] + [glink(f"TCP{i}", "C1", **fast) for i in (1, 2, 3)]
    for c, bw in LINKS.items():
        links.append(glink("C1", c, bw, "10ms", queue=queue))
    for c, hosts in (("C2", ("R1", "R2", "Sink1")), ("C3", ("R3", "R4", "Sink2")), ("C4", ("R5", "R6", "Sink3"))):
        links += [glink(c, h, **fast) for h in hosts]
    nodes = ["S", "C1", "C2", "C3", "C4", "TCP1", "TCP2", "TCP3", "R1", "R2", "R3", "R4", "R5", "R6", "Sink1", "Sink2", "Sink3"]
    return graph(nodes, links)


def tahoe(i: int, label: str | None = None, src: str | None = None, dst: str | None = None) -> dict:
    return flow("tcp-tahoe", label=label or f"tcp-c{i + 1}", src=src or f"TCP{i}", dst=dst or f"Sink{i}", start=["0s", "1s"])


def sramt(proto: str, receivers: list[dict], **keys) -> dict:
    return flow(proto, label=proto, src="S", receivers=receivers, **keys)


EXPECTED_A = checks.EXPECTED_A  # Scenario A [P]: expected (SRAMT-S: starting) stream / level of each receiver


def a(proto: str) -> dict:
    if proto == "sramt-s":
        receivers = [{"node": n, "groups": [k - 1]} for n, k in EXPECTED_A.items()]
    else:
        receivers = [{"node": n} for n in EXPECTED_A]  # all start at level 1
    return scenario(DURATION, scenario_a(), [sramt(proto, receivers), *[tahoe(i) for i in (1, 2, 3)]], warmup=WARMUP,
                    sample_interval="1s")


def a_scheme(proto: str) -> dict:
    """Scenario A with a baseline of Figs. 15–19 in SRAMT's place (``baselines_a``: PLM behind DRR)."""
    queue = plm_checks.FAIR_QUEUE if proto == "plm" else RED
    session = flow(proto, label=proto, src="S", receivers=baselines_a.receivers(proto, EXPECTED_A))
    return scenario(DURATION, scenario_a(queue), [session, *[tahoe(i) for i in (1, 2, 3)]], warmup=WARMUP, sample_interval="1s")


def a_baseline() -> dict:
    flows = []
    for i, (c, recv) in enumerate((("c2", "R1"), ("c3", "R3"), ("c4", "R5")), 1):
        flows.append(tahoe(i, label=f"standin-{c}", src="S", dst=recv))
        flows.append(tahoe(i, label=f"tcp-{c}"))
    return scenario(DURATION, scenario_a(), flows, warmup=WARMUP, sample_interval="1s")


def scenario_b(c1c2="1.5Mbps", c2c3="0.8Mbps", queue=RED) -> dict:
    bg = dict(bandwidth="100Mbps", delay="1ms", monitor=False)
    links = [
        glink("S", "C1", "10Mbps", "10ms", queue=queue),
        glink("C1", "C2", c1c2, "20ms", queue=queue),
        glink("C2", "R1", "1.0Mbps", "10ms", queue=queue),
        glink("C2", "C3", c2c3, "30ms", queue=queue),
        glink("C3", "R2", "0.6Mbps", "10ms", queue=queue),
        glink("C3", "R3", "0.2Mbps", "10ms", queue=queue),
        glink("C3", "C4", "2.0Mbps", "40ms", queue=queue),
        glink("C4", "R4", "0.6Mbps", "10ms", queue=queue),
        glink("C4", "C5", "0.2Mbps", "70ms", queue=queue),
        glink("C5", "R5", "10Mbps", "10ms", queue=queue),
    ]
    for x, y in (("C1", "C2"), ("C2", "C3"), ("C3", "C4")):
        links += [glink(f"B{x}{y}", x, **bg), glink(y, f"E{x}{y}", **bg)]
    nodes = ["S", "C1", "C2", "C3", "C4", "C5", "R1", "R2", "R3", "R4", "R5"]
    nodes += [f"{p}{x}{y}" for x, y in (("C1", "C2"), ("C2", "C3"), ("C3", "C4")) for p in ("B", "E")]
    return graph(nodes, links)


def background(x: str, y: str, link_bps: float) -> dict:
    peak = link_bps / 2
    on_s = 20 * 8000 / peak  # ON mean = 20 packets at the peak rate [P]
    return flow("udp-pareto", label="background", src=f"B{x}{y}", dst=f"E{x}{y}", rate=f"{peak / 1000:g}kbps",
                on_mean=f"{on_s * 1000:.1f}ms", off_mean="500ms", shape=1.5)


RECEIVERS_B = [{"node": f"R{i}", "start": f"{0.5 * i:g}s"} for i in range(1, 6)]


def b(proto: str, c1c2=1.5e6, c2c3=0.8e6, queue=RED) -> dict:
    flows = [sramt(proto, RECEIVERS_B)]
    flows += [background("C1", "C2", c1c2), background("C2", "C3", c2c3), background("C3", "C4", 2.0e6)]
    return scenario(DURATION, scenario_b(f"{c1c2 / 1e6:g}Mbps", f"{c2c3 / 1e6:g}Mbps", queue), flows, warmup=WARMUP, sample_interval="1s")


def common_bottleneck(proto: str, queue: dict = RED) -> dict:
    """The suite's common scenario for the baselines of Figs. 15–19 (the paper shows figures from
    their own papers): one 1 Mbit/s, 20 ms bottleneck shared with one Tahoe flow; RED, or the
    routers a scheme needs (PLM: fair queueing)."""
    topo = graph(["S", "T", "L", "R", "D", "TD"], [
        glink("S", "L", "10Mbps", "5ms", monitor=False), glink("T", "L", "10Mbps", "5ms", monitor=False),
        glink("L", "R", "1Mbps", "20ms", queue=queue),
        glink("R", "D", "10Mbps", "5ms", monitor=False), glink("R", "TD", "10Mbps", "5ms", monitor=False)])
    return scenario(DURATION, topo, [flow(proto, label=proto, src="S", dst=["D"]),
                                     flow("tcp-tahoe", label="tcp", src="T", dst="TD")], warmup=WARMUP, sample_interval="1s")


FIG2_LINK_S = 0.010
FIG2_REVERSE_S = 0.001 + FIG2_LINK_S + 0.001  # D–R, R–L, L–S propagation of the report's way back


def fig2() -> dict:
    topo = graph(["S", "B", "L", "R", "D", "BD"], [
        glink("S", "L", "10Mbps", "1ms", monitor=False), glink("B", "L", "10Mbps", "1ms", monitor=False),
        glink("L", "R", "1Mbps", f"{FIG2_LINK_S * 1000:g}ms", queue=RED),
        glink("R", "D", "10Mbps", "1ms", monitor=False), glink("R", "BD", "10Mbps", "1ms", monitor=False)])
    one_stream = sramt("sramt-s", [{"node": "D"}], bands=[["50kbps", "1000kbps"]], initial_rates=["200kbps"])
    bg = flow("udp-pareto", label="background", src="B", dst="BD", rate="500kbps", on_mean="500ms", off_mean="500ms",
              shape=1 + math.sqrt(2))
    return scenario(Q("60s", "200s"), topo, [one_stream, bg], warmup="0s", sample_interval="1s")


def _series_plot(pid: str, title: str, part: str, ylabel: str = "throughput (Mbit/s)") -> Plot:
    return Plot(pid, title, "throughput_bps", kind="series", table="flow_samples", parts=[part], ylabel=ylabel, scale=1e-6)


FIGURES = [
    Figure("fig2", "RTT estimate against the true RTT", "Fig. 2",
           "One SRAMT-S sender/receiver pair across a 1 Mbit/s link with a 0.5 Mbit/s on/off background: SRAMT's "
           "one-way-delay-based RTT estimate against the true RTT.",
           parts=[Part("sramt-s", fig2(), seeds=SEEDS, needs=NEEDS)],
           plots=[Plot("delay", "One-way delay of the SRAMT data (1 s bins)", "delay_ns", kind="series", table="flow_samples",
                       parts=["sramt-s"], ylabel="one-way delay (ms)", scale=1e-6)]),
    Figure("fig4-6", "Scenario A, simulcast: SRAMT-S and TCP on each bottleneck", "Fig. 3, 4, 5, 6",
           "Six heterogeneous receivers behind three bottlenecks, each shared with one TCP Tahoe flow of the same RTT: "
           "bandwidth of SRAMT and TCP on C1–C2, C1–C3, C1–C4 over time. Baseline part tcp-only: a Tahoe flow from S's "
           "side in place of the SRAMT stream on each bottleneck.",
           parts=[Part("sramt-s", a("sramt-s"), seeds=SEEDS, needs=NEEDS),
                  Part("tcp-only", a_baseline(), seeds=SEEDS, kind="baseline",
                       note="TCP Tahoe from S's side in place of SRAMT")],
           plots=[_series_plot("throughput-sramt-s", "SRAMT-S receivers and TCP flows: throughput (1 s bins)", "sramt-s"),
                  _series_plot("throughput-tcp-only", "TCP only: throughput of the six flows (1 s bins)", "tcp-only")]),
    Figure("fig7-9", "Scenario A, layered: SRAMT-LE and TCP on each bottleneck", "Fig. 7, 8, 9",
           "As Figs. 4–6 with SRAMT-LE (layers 1..3).",
           parts=[Part("sramt-le", a("sramt-le"), seeds=SEEDS, needs=NEEDS)],
           plots=[_series_plot("throughput-sramt-le", "SRAMT-LE receivers and TCP flows: throughput (1 s bins)", "sramt-le")]),
    Figure("fig11", "Scenario B1: SRAMT-LE on the shared tree", "Fig. 10, 11",
           "Five receivers on a shared distribution tree with on/off background on C1–C2, C2–C3, C3–C4: each receiver's "
           "received rate over time.",
           parts=[Part("sramt-le", b("sramt-le"), seeds=SEEDS, needs=NEEDS)],
           plots=[_series_plot("received", "Received rate per receiver (1 s bins)", "sramt-le")]),
    Figure("fig12", "Scenario B2: SRAMT-S on the shared tree (original capacities)", "Fig. 12",
           "As Fig. 11 with SRAMT-S: C1–C2 and C2–C3 cannot carry all streams.",
           parts=[Part("sramt-s", b("sramt-s"), seeds=SEEDS, needs=NEEDS)],
           plots=[_series_plot("received", "Received rate per receiver (1 s bins)", "sramt-s")]),
    Figure("fig13", "Scenario B3: SRAMT-S with C1–C2 = 3.0 and C2–C3 = 1.4 Mbit/s", "Fig. 13",
           "As Fig. 12 with the two thin links widened.",
           parts=[Part("sramt-s", b("sramt-s", 3.0e6, 1.4e6), seeds=SEEDS, needs=NEEDS)],
           plots=[_series_plot("received", "Received rate per receiver (1 s bins)", "sramt-s")]),
    Figure("fig14", "Scenario B4: as B3 with droptail queues", "Fig. 14",
           "As Fig. 13 with droptail (50 packets) in every router.",
           parts=[Part("sramt-s", b("sramt-s", 3.0e6, 1.4e6, droptail(50)), seeds=SEEDS, needs=NEEDS)],
           plots=[_series_plot("received", "Received rate per receiver (1 s bins)", "sramt-s")]),
    Figure("fig15-19", "The compared schemes (PLM, RLC, MLDA, DSG, IRFM) against TCP", "Fig. 15–19, Tables 1–2",
           "The paper reproduces figures from the baselines' own papers; here each scheme meets one Tahoe flow on a common "
           "1 Mbit/s bottleneck (suite): RED, except PLM behind the fair queueing it needs (DRR).",
           parts=[Part(p, common_bottleneck(p, plm_checks.FAIR_QUEUE if p == "plm" else RED), seeds=SEEDS, needs=NEEDS)
                  for p in ("sramt-le", "sramt-s", "plm", "rlc", "mlda", "dsg", "irfm")]),
    Figure(baselines_a.FIGURE, "Scenario A with the compared schemes in SRAMT's place", "Fig. 3 set-up, schemes of Figs. 15–19",
           "The digest's common scenario for layered and simulcast schemes: Scenario A's topology, six receivers and "
           "three Tahoe flows, each of PLM, RLC, MLDA (layered, against SRAMT-LE's fig7-9) and DSG, IRFM (simulcast, against "
           "SRAMT-S's fig4-6) in SRAMT's place; RED, except PLM behind DRR on its three bottlenecks (suite).",
           parts=[Part(p, a_scheme(p), seeds=SEEDS, needs=NEEDS) for p in baselines_a.BASELINES],
           plots=[_series_plot(f"throughput-{p}", f"{p} receivers and TCP flows: throughput (1 s bins)", p)
                  for p in baselines_a.BASELINES]),
    Figure(original.STAGGERED, "Every scheme in the TCP / scheme / TCP staggered start on one bottleneck",
           "Fig. 15 set-up, schemes of Figs. 15–19",
           "The digest's single-bottleneck common scenario: TCP1 (Tahoe) from 0 s, the scheme from 20 s, TCP2 from 60 s on "
           "one 1 Mbit/s, 20 ms bottleneck (suite capacities as fig15-19-orig), for SRAMT-LE, SRAMT-S and each baseline; RED, "
           "except PLM behind DRR.",
           parts=[Part(p, original.staggered(p, DURATION, WARMUP, plm_checks.FAIR_QUEUE if p == "plm" else RED), seeds=SEEDS,
                       needs=NEEDS) for p in original.SCHEMES],
           plots=[_series_plot(f"throughput-{p}", f"{p} and two Tahoe flows: throughput (1 s bins)", p)
                  for p in ("sramt-le", "sramt-s", "plm", "irfm")]),
    Figure(original.FIGURE, "The compared schemes in their own papers' set-ups", "Fig. 15, 16, 17, 19",
           "The set-ups of the figures the paper copies (suite capacities: 1 Mbit/s per session and TCP pair): PLM behind DRR "
           "with TCP1 from 0 s, PLM from 20 s, TCP2 from 60 s; 8 RLC sessions and 8 Tahoe flows; one Tahoe flow and an IRFM "
           "session with two receivers. MLDA's set-up (MLDA against TCP on one bottleneck) is fig15-19's own; DSG's "
           "('three streams over the Internet') names no topology.",
           parts=[Part("plm", original.plm(DURATION, WARMUP, plm_checks.FAIR_QUEUE), seeds=SEEDS, needs=NEEDS),
                  Part("rlc", original.rlc(DURATION, WARMUP, RED), seeds=SEEDS, needs=NEEDS),
                  Part("irfm", original.irfm(DURATION, WARMUP, RED), seeds=SEEDS, needs=NEEDS)],
           plots=[_series_plot(f"throughput-{p}", f"{p} and Tahoe: throughput (1 s bins)", p) for p in ("plm", "rlc", "irfm")]),
]


def b_friendliness(d):
    """C12's friendliness ratio F = mean stand-in throughput / mean TCP throughput per link."""
    from vidcc.analysis import summarize

    f = d.flows("tcp-only").copy()
    f["link"] = f["label"].str.split("-").str[1]
    f["role"] = f["label"].str.split("-").str[0]
    runs = f.groupby(["run_id", "seed", "link", "role"], as_index=False)["throughput_bps"].sum()
    wide = runs.pivot_table(index=["run_id", "seed", "link"], columns="role", values="throughput_bps").reset_index()
    wide["F"] = wide["standin"] / wide["tcp"]
    s = summarize(wide, "F", group="link")
    return within(s, 0.5, 2.0, name="F = stand-in / TCP throughput")


# --------------------------------------------------------------------------------------------
# Checks: each reads its figure's runs through vidcc.papers.sramt.trace


def _runs(d, part: str, layered: bool) -> list[trace.Run]:
    return trace.runs_of(d, part, part, layered)


def _other(d, fig: str, part: str, layered: bool) -> list[trace.Run]:
    return _runs(d.other(fig), part, layered)


def _units() -> dict[str, float]:
    from vidcc import _vidcc

    return dict(_vidcc.sramt_unit_measurements())


def eq1(loss: float, rtt: float, p: float) -> float:
    """Eq. 1 with D = 1, t_out = 4·RTT (bytes/s), computed here independently of the Rust code."""
    return p / (rtt * math.sqrt(2 * loss / 3)
                + 4 * rtt * min(1.0, 3 * math.sqrt(3 * loss / 8)) * loss * (1 + 32 * loss * loss))


C01_VECTORS = [(0.001, 0.06, 1000.0, 639_739.4), (0.01, 0.06, 1000.0, 187_220.4), (0.05, 0.10, 1000.0, 36_858.9),
               (0.10, 0.20, 1000.0, 8_850.5), (0.30, 0.06, 1000.0, 3_265.9), (0.02, 0.12, 500.0, 30_520.4)]


def c01(_d) -> Verdict:
    m = _units()
    rel = max(abs(m[f"c01_f{i}"] - eq1(x, r, p)) / eq1(x, r, p) for i, (x, r, p, _) in enumerate(C01_VECTORS))
    digest = max(abs(m[f"c01_f{i}"] - want) for i, (*_, want) in enumerate(C01_VECTORS))
    ok = rel < 1e-9 and digest <= 0.051
    return Verdict("PASS" if ok else "FAIL", {"max relative error vs Eq. 1": rel, "max |error| vs digest vectors B/s": round(digest, 4)},
                   f"implementation's Eq. 1 at the 6 vectors: relative error {rel:.2g} (< 1e-9), within {digest:.3f} B/s of the digest's rounded values")


def c02(_d) -> Verdict:
    m = _units()
    e1, e2 = abs(m["c02_newest"] - 0.02 / 6), abs(m["c02_oldest"] - 0.01 / 6)
    return Verdict("PASS" if max(e1, e2) < 1e-12 else "FAIL", {"newest 0.02": m["c02_newest"], "oldest 0.05": m["c02_oldest"]},
                   f"8-tap filter: {m['c02_newest']:.7f} (want 0.02/6) and {m['c02_oldest']:.7f} (want 0.01/6)")


def c03(_d) -> Verdict:
    m = _units()
    ok = (abs(m["c03_before_echo"] - 0.06) < 1e-12 and abs(m["c03_at_echo"] - 0.1) < 1e-12
          and abs(m["c03_owd_50ms"] - 0.125) < 1e-12 and abs(m["c03_owd_20ms"] - 0.05) < 1e-12)
    return Verdict("PASS" if ok else "FAIL", {k: m[k] for k in ("c03_before_echo", "c03_at_echo", "c03_owd_50ms", "c03_owd_20ms")},
                   f"OWD 30 ms before any echo → {m['c03_before_echo']:.3f} s (2·OWD); echo 100 ms at OWD 40 ms → "
                   f"{m['c03_at_echo']:.3f} s; then OWD 50 / 20 ms → {m['c03_owd_50ms']:.3f} / {m['c03_owd_20ms']:.3f} s (× OWD/40 ms)")


def _invariant(names: list[str], what: str) -> Verdict:
    m = _units()
    updates = sum(m[f"c05_c06_{v}_updates"] for v in ("s", "le"))
    bad = sum(m[n] for n in names)
    return Verdict("PASS" if bad == 0 and updates > 0 else "FAIL", {"random reports": int(updates), "violations": int(bad)},
                   f"{what}: {int(bad)} violations after {int(updates)} random reports through the sender (S and LE)")


def c29(_d) -> Verdict:
    m = _units()
    ok = m["c29_6c"] < 10 and m["c29_4c"] > 10
    return Verdict("PASS" if ok else "FAIL", {"reports/round T_rand = 6c": m["c29_6c"], "reports/round T_rand = 4c": m["c29_4c"]},
                   f"10,000 receivers, λ = 10: {m['c29_6c']:.1f} reports per round at T_rand = 6c (< 10; digest ≈ 7.2–7.3), "
                   f"{m['c29_4c']:.1f} at 4c (digest ≈ 17.3: the bound is crossed there, so the check can tell)")


def c04(d) -> Verdict:
    return checks.rtt_tracking(_runs(d, "sramt-s", False), {"D": FIG2_REVERSE_S})


def c11(d) -> Verdict:
    v_s = checks.assignment(_runs(d, "sramt-s", False), EXPECTED_A, what="S")
    v_le = checks.assignment(_other(d, "fig7-9", "sramt-le", True), EXPECTED_A, what="LE")
    measured = {**{f"S {k}": v for k, v in v_s.measured.items()}, **{f"LE {k}": v for k, v in v_le.measured.items()}}
    ok = v_s.status == "PASS" and v_le.status == "PASS"
    return Verdict("PASS" if ok else "FAIL", measured, f"{v_s.explanation}; {v_le.explanation}")


SIGN_CHANGES = 5  # per 1000 s run [R]; scaled to the run's length below


def c14(d) -> Verdict:
    runs = _runs(d, "sramt-s", False)
    need = max(1, round(SIGN_CHANGES * (runs[0].duration_s - runs[0].warmup_s) / 900)) if runs else SIGN_CHANGES
    v_s = checks.alternation(d, runs, False, need)
    v_le = checks.alternation(d.other("fig7-9"), _other(d, "fig7-9", "sramt-le", True), True, need)
    measured = {**{f"S {k}": v for k, v in v_s.measured.items()}, **{f"LE {k}": v for k, v in v_le.measured.items()}}
    ok = v_s.status == "PASS" and v_le.status == "PASS"
    return Verdict("PASS" if ok else "FAIL", measured, f"S: {v_s.explanation}; LE: {v_le.explanation}")


EXPECTED_B = {"R1": 3, "R2": 2, "R3": 1, "R4": 2, "R5": 1}
EXPECTED_B2 = {"R1": 2, "R2": 2, "R3": 1, "R4": 2, "R5": 1}


def c20(d) -> Verdict:
    runs = _runs(d, "sramt-s", False)
    v = checks.assignment(runs, EXPECTED_B2, what="B2 (S)")
    tries, kept = 0, []
    for run in runs:
        c = run.changes[(run.changes["node"] == "R1") & (run.changes["to"] == 3)]
        back = run.changes[(run.changes["node"] == "R1") & (run.changes["from"] == 3)]
        for t in c["t_s"]:
            tries += 1
            if not ((back["t_s"] > t) & (back["t_s"] - t <= trace.REVERSAL_S)).any():
                kept.append(f"{t:.0f} s (seed {run.seed})")
    measured = {**v.measured, "R1 joins of stream 3": tries, "not reversed within one epoch": len(kept)}
    ok = v.status == "PASS" and not kept
    return Verdict("PASS" if ok else "FAIL", measured,
                   f"{v.explanation}; R1 joined stream 3 {tries} times, {len(kept)} not reversed within one epoch"
                   + (f" ({', '.join(kept[:3])})" if kept else ""))


def c21(d) -> Verdict:
    s = d.flows("sramt-s", where={"label": "sramt-s"})
    le = d.other("fig11").flows("sramt-le", where={"label": "sramt-le"})
    if s.empty or le.empty:
        return Verdict("NOT-YET", {}, "no runs of both variants")
    tot_s = float(s.groupby("run_id")["throughput_bps"].sum().mean()) / 1e3
    tot_le = float(le.groupby("run_id")["throughput_bps"].sum().mean()) / 1e3
    return Verdict("PASS" if tot_le > tot_s else "FAIL", {"LE sum of receivers kbit/s": round(tot_le, 1), "S sum of receivers kbit/s": round(tot_s, 1)},
                   f"sum of the receivers' mean received rates: LE {tot_le:.0f} kbit/s {'>' if tot_le > tot_s else '≤'} S {tot_s:.0f} kbit/s")


def c21_cause(d, measured) -> str:
    s = d.flows("sramt-s", where={"label": "sramt-s"}).groupby("dst")["throughput_bps"].mean() / 1e3
    le = d.other("fig11").flows("sramt-le", where={"label": "sramt-le"}).groupby("dst")["throughput_bps"].mean() / 1e3
    for node in sorted(s.index):
        measured[f"kbit/s {node} S / LE"] = f"{s[node]:.0f} / {le.get(node, math.nan):.0f}"
    worse = [n for n in sorted(s.index) if le.get(n, math.inf) < s[n]]
    return ("LE delivers less than S to " + ", ".join(f"{n} ({le[n]:.0f} vs {s[n]:.0f} kbit/s)" for n in worse)
            + "; " + checks.cycling(_runs(d.other("fig11"), "sramt-le", True), measured))


def c26_cause(d, measured) -> str:
    def loss(fd, nodes):
        f = fd.flows("sramt-s", where={"label": "sramt-s"})
        return float(f[f["dst"].isin(nodes)]["drop_rate"].mean())
    red_l, dt_l = loss(d.other("fig13"), ["R3", "R5"]), loss(d, ["R3", "R5"])
    measured["stream-1 receivers' loss RED / droptail"] = f"{red_l:.4f} / {dt_l:.4f}"
    return (f"the stream-1 receivers R3, R5 lose {red_l:.2%} of their packets with RED and {dt_l:.2%} with droptail, and stream 1 "
            "sits near its band floor either way (its rate is the minimum over R3 and R5, set by their thin access links), "
            "so droptail cannot lower it much")


def c26(d) -> Verdict:
    return checks.droptail_lower(_other(d, "fig13", "sramt-s", False), _runs(d, "sramt-s", False))


def c27(d) -> Verdict:
    v_le = checks.undisturbed(_runs(d, "sramt-le", True))
    v_s = checks.undisturbed(_other(d, "fig13", "sramt-s", False))
    measured = {**{f"LE (B1) {k}": v for k, v in v_le.measured.items()}, **{f"S (B3) {k}": v for k, v in v_s.measured.items()}}
    statuses = {v_le.status, v_s.status}
    status = "FAIL" if "FAIL" in statuses else ("PASS" if "PASS" in statuses else "NOT-YET")
    return Verdict(status, measured, f"LE (B1): {v_le.explanation}; S (B3): {v_s.explanation}")


def _b_runs(d, with_le: bool = True) -> list[trace.Run]:
    """Every Scenario B run of the suite (B1–B4)."""
    runs = []
    for fig, part, layered in (("fig11", "sramt-le", True), ("fig12", "sramt-s", False), ("fig13", "sramt-s", False), ("fig14", "sramt-s", False)):
        if layered and not with_le:
            continue
        runs += _runs(d, part, layered) if d.figure.id == fig else _other(d, fig, part, layered)
    return runs


def _a(check, proto):
    """A C30–C34 check with the staggered-start and Scenario A numbers of ``proto`` beside its verdict."""
    return baselines_a.with_scenario_a(original.with_staggered(check, proto), proto)


def C(cid, text, fig, protos, check, ref, **kw):
    return Claim(cid, text, fig, protos, check, needs=NEEDS if fig else (), ref=ref, **kw)


CLAIMS = [
    C("C01", "TCP model with D = 1, t_out = 4·RTT gives the §1.2 vectors (rel. error < 1e-9).", None, S, c01, "Eq. 1"),
    C("C02", "8-tap loss filter with weights (1, 1, 1, 1, .8, .6, .4, .2) gives the §1.3 vectors.", None, S, c02, "Eq. 10"),
    C("C03", "After a calibration the RTT estimate equals the echoed RTT; afterwards it scales with the one-way delay.", None, S, c03,
      "Eqs. 14–16"),
    C("C04", "The one-way-delay-based RTT estimate tracks the true RTT under on/off load (median rel. error ≤ 0.2, ρ > 0.5).", "fig2", S,
      c04, "Fig. 2", cause=lambda d, m: checks.rtt_bias(_runs(d, "sramt-s", False), {"D": FIG2_REVERSE_S}, m)),
    C("C05", "Each simulcast stream rate = the minimum preferred rate of its receivers (clamped).", None, S,
      lambda _d: _invariant(["c05_c06_s_violations"], "Eq. 5 (S)"), "Eq. 5"),
    C("C06", "The cumulative layered rate of level k = the minimum preferred rate of level-k receivers (clamped).", None, LE,
      lambda _d: _invariant(["c05_c06_le_violations"], "Eq. 6 as corrected (LE)"), "Eq. 6"),
    C("C07", "Stream/layer 1's rate never exceeds any of its receivers' preferred rates unless pinned at the band minimum.", None, S + LE,
      lambda _d: _invariant(["c07_s_violations", "c07_le_violations"], "group 1 at most each of its receivers' preferred rates"), "§3.2"),
    C("C08", "Rule 2: no two rule-2 moves of one receiver less than 20 s apart.", "fig13", S,
      lambda d: checks.rule2_spacing(_b_runs(d, with_le=False)), "§3.3"),
    C("C09", "Back-off: the k-th consecutive failed retry of a change comes ≥ 2^k·5 s after the previous failure.", "fig13", S + LE,
      lambda d: checks.backoff_spacing(_b_runs(d)), "§3.3"),
    C("C10", "All receivers' changes happen at epoch boundaries (± one-way delay).", "fig11", S + LE,
      lambda d: checks.epoch_aligned(_b_runs(d)), "§6"),
    C("C11", "Scenario A, S and LE: final assignment R1, R2 → 1; R3, R4 → 2; R5, R6 → 3 (held over [500, 1000] s in ≥ 80 % of seeds).",
      "fig4-6", S + LE, c11, "Figs. 4–9", cause=lambda d, m: checks.cycling(_runs(d, "sramt-s", False) + _other(d, "fig7-9", "sramt-le", True), m)),
    C("C12", "Scenario A, S: on each bottleneck long-term SRAMT ≈ TCP (0.5 ≤ F ≤ 2), no starvation window.", "fig4-6", S + TAHOE,
      lambda d: checks.friendliness(d, _runs(d, "sramt-s", False), False), "Figs. 4–6",
      cause=lambda d, m: checks.link_positions(_runs(d, "sramt-s", False), m)),
    C("C13", "Scenario A, LE: as C12 for the cumulative layer traffic.", "fig7-9", LE + TAHOE,
      lambda d: checks.friendliness(d, _runs(d, "sramt-le", True), True), "Figs. 7–9",
      cause=lambda d, m: checks.link_positions(_runs(d, "sramt-le", True), m)),
    C("C14", "Short-term, SRAMT is sometimes above and sometimes below TCP (≥ 5 sign changes in 10 s bins per link per 1000 s run).",
      "fig4-6", S + LE + TAHOE, c14, "Figs. 4–9",
      cause=lambda d, m: "on a link where it fails one class stays ahead: " + checks.link_positions(_other(d, "fig7-9", "sramt-le", True), m)),
    C("C15", "Simulcast stream rates are steadier than layered cumulative rates in Scenario A (mean CoV S < LE).", "fig4-6", S + LE,
      lambda d: checks.steadier(_runs(d, "sramt-s", False), _other(d, "fig7-9", "sramt-le", True)), "§8.1, §8.3"),
    C("C16", "S and LE give similar per-link SRAMT throughput in Scenario A (within ± 30 %).", "fig4-6", S + LE,
      lambda d: checks.similar_links(d, _runs(d, "sramt-s", False), d.other("fig7-9"), _other(d, "fig7-9", "sramt-le", True)), "§8.1",
      cause=lambda d, m: "LE: " + checks.link_positions(_other(d, "fig7-9", "sramt-le", True), m)),
    C("C17", "Scenario B1 (LE): final levels R1 → 3; R2, R4 → 2; R3, R5 → 1.", "fig11", LE,
      lambda d: checks.assignment(_runs(d, "sramt-le", True), EXPECTED_B, what="B1 (LE)"), "Fig. 11",
      cause=lambda d, m: checks.cycling(_runs(d, "sramt-le", True), m)),
    C("C18", "Scenario B1: the base-layer rate ends well below 200 kbit/s (paper ≈ 120).", "fig11", LE,
      lambda d: checks.low_base_rate(_runs(d, "sramt-le", True), "layer-1", 120), "Fig. 11"),
    C("C19", "Scenario B1: unsuccessful changes concentrated early (≥ 80 % before 200 s), none after 500 s.", "fig11", LE,
      lambda d: checks.unsuccessful_timing(_runs(d, "sramt-le", True), early_share=0.2, late_share=0.5), "Fig. 11",
      cause=lambda d, m: checks.cycling(_runs(d, "sramt-le", True), m)),
    C("C20", "Scenario B2 (S): R1, R2, R4 → stream 2; R3, R5 → stream 1; R1's attempts at stream 3 fail quickly.", "fig12", S, c20, "Fig. 12",
      cause=lambda d, m: checks.cycling(_runs(d, "sramt-s", False), m)),
    C("C21", "Scenario B with the original capacities: LE outperforms S (sum of receivers' mean rates).", "fig12", S + LE, c21, "Figs. 11 vs 12", cause=lambda d, m: c21_cause(d, m)),
    C("C22", "Scenario B3 (S, 3.0/1.4 Mbit/s): R1 → 3; R2, R4 → 2; R3, R5 → 1.", "fig13", S,
      lambda d: checks.assignment(_runs(d, "sramt-s", False), EXPECTED_B, what="B3 (S)"), "Fig. 13",
      cause=lambda d, m: checks.cycling(_runs(d, "sramt-s", False), m)),
    C("C23", "Scenario B3: the stream-1 rate ends well below 200 kbit/s (paper ≈ 100).", "fig13", S,
      lambda d: checks.low_base_rate(_runs(d, "sramt-s", False), "stream-1", 100), "Fig. 13"),
    C("C24", "Scenario B3: unsuccessful changes only early (none after 500 s).", "fig13", S,
      lambda d: checks.unsuccessful_timing(_runs(d, "sramt-s", False), early_share=None, late_share=0.5), "Fig. 13",
      cause=lambda d, m: checks.cycling(_runs(d, "sramt-s", False), m)),
    C("C25", "Scenario B4 (droptail): the same final assignment as C22, stable to the end.", "fig14", S,
      lambda d: checks.assignment(_runs(d, "sramt-s", False), EXPECTED_B, what="B4 (S, droptail)"), "Fig. 14",
      cause=lambda d, m: checks.cycling(_runs(d, "sramt-s", False), m)),
    C("C26", "Droptail lowers SRAMT throughput compared with RED, most for the low-rate streams.", "fig14", S, c26, "Figs. 13 vs 14", cause=lambda d, m: c26_cause(d, m)),
    C("C27", "Synchronised changes keep one receiver's change from disturbing others (others' 5 s mean rate drops < 20 %).", "fig11", S + LE,
      c27, "§6, §8.2"),
    C("C28", "With ≤ 6 receivers the sender hears from every receiver (each updated at least every 2 RTCP intervals).", "fig4-6", S,
      lambda d: checks.feedback_gaps(_runs(d, "sramt-s", False)), "§7"),
    C("C29", "Partial suppression keeps feedback small: N = 10 000, λ = 10, T_rand = 6c → mean reports per round < 10 (≈ 7.2).", None, S,
      c29, "§7, [17]"),
    C("C30", "PLM (behind DRR fair queueing) has a steadier, step-wise rate than SRAMT-LE (behind RED) on the common 1 Mbit/s "
      "bottleneck with one Tahoe flow; TCP gets more than PLM (F_PLM < 1); SRAMT-LE ≈ TCP (|F_SRAMT − 1| < |F_PLM − 1|).",
      "fig15-19", LE + ("plm",) + TAHOE, _a(original.with_original(plm_checks.c30, "plm"), "plm"), "§9, Fig. 15", cause=plm_checks.c30_cause),
    C("C31", "RLC slightly more aggressive than TCP; SRAMT-LE friendlier than RLC; no starvation.", "fig15-19", LE + ("rlc",),
      _a(original.with_original(layered_checks.c31, "rlc"), "rlc"), "§9, Fig. 16", cause=layered_checks.c31_cause),
    C("C32", "MLDA occasionally starves TCP (or is starved) and converges slower than SRAMT-LE.", "fig15-19", LE + ("mlda",),
      _a(original.with_original(layered_checks.c32, "mlda"), "mlda"), "§9, Fig. 17", cause=layered_checks.c32_cause),
    C("C33", "DSG steadier than SRAMT-S (mean CoV of the held streams' rates, common bottleneck); similar convergence.", "fig15-19",
      S + ("dsg",), _a(original.with_original(simulcast_checks.c33, None), "dsg"), "§9, Fig. 18", cause=simulcast_checks.c33_cause),
    C("C34", "SRAMT-S friendlier than IRFM (|F − 1| smaller) and converges faster (last stream change earlier).", "fig15-19",
      S + ("irfm",), _a(original.with_original(simulcast_checks.c34, "irfm"), "irfm"), "§9, Fig. 19", cause=simulcast_checks.c34_cause),
    C("C35", "Tables 1–2: wherever two schemes' ratings differ, the measured order on the common bottleneck agrees (TCP "
      "friendliness ↔ |F − 1|, stable transmission rate ↔ CoV, convergence time ↔ last level / stream change).", "fig15-19",
      S + LE + ("plm", "rlc", "mlda", "dsg", "irfm"), tables_checks.c35, "Tables 1–2"),
    Claim("B1", "Baseline: Scenario A with TCP only — on each bottleneck (C1–C2, C1–C3, C1–C4; RED) a Tahoe flow from S's side and the Tahoe "
          "flow from TCPi, same 60 ms RTT, get friendliness ratio F = 1 within [0.5, 2] (C12's test, Tahoe standing in for SRAMT).",
          "fig4-6", TAHOE, b_friendliness, kind="baseline", parts=("tcp-only",)),
]

SUITE = Suite("sramt", "SRAMT: a hybrid sender and receiver-based adaptation scheme for TCP friendly multicast transmission",
              "Bouras & Gkamas, Computer Networks 47(4):551–575, 2005", "specs/004-sramt.md", FIGURES, CLAIMS,
              notes=reconstruction_notes(__doc__))
