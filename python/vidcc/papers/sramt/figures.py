"""The SRAMT suite's figures: each a set of parts (the runs) and plots."""

from __future__ import annotations

from vidcc.papers.model import Figure, Part, Plot
from vidcc.papers.sramt.scenarios import (
    BASELINES,
    COMMON,
    DROPTAIL,
    FAIR_QUEUE,
    NEEDS,
    ORIGINAL,
    RED,
    SCENARIO_A_BASELINES,
    SCHEMES,
    SEEDS,
    STAGGERED,
    a,
    a_baseline,
    a_scheme,
    b,
    common_bottleneck,
    fig2,
    original_irfm,
    original_rlc,
    queue_of,
    staggered,
)


def _series_plot(pid: str, title: str, part: str, ylabel: str = "throughput (Mbit/s)") -> Plot:
    return Plot(pid, title, "throughput_bps", kind="series", table="flow_samples", parts=[part], ylabel=ylabel,
                scale=1e-6)


def _part(name: str, base: dict, **kw) -> Part:
    return Part(name, base, seeds=SEEDS, needs=NEEDS, **kw)


_RECEIVED = "Received rate per receiver (1 s bins)"

FIGURES = [
    Figure("fig2", "RTT estimate against the true RTT", "Fig. 2",
           "One SRAMT-S sender/receiver pair across a 1 Mbit/s link with a 0.5 Mbit/s on/off background: SRAMT's "
           "one-way-delay-based RTT estimate against the true RTT.",
           parts=[_part("sramt-s", fig2())],
           plots=[Plot("delay", "One-way delay of the SRAMT data (1 s bins)", "delay_ns", kind="series",
                       table="flow_samples", parts=["sramt-s"], ylabel="one-way delay (ms)", scale=1e-6)]),
    Figure("fig4-6", "Scenario A, simulcast: SRAMT-S and TCP on each bottleneck", "Fig. 3, 4, 5, 6",
           "Six heterogeneous receivers behind three bottlenecks, each shared with one TCP Tahoe flow of the same RTT: "
           "bandwidth of SRAMT and TCP on C1–C2, C1–C3, C1–C4 over time. Baseline part tcp-only: a Tahoe flow from S's "
           "side in place of the SRAMT stream on each bottleneck.",
           parts=[_part("sramt-s", a("sramt-s")),
                  Part("tcp-only", a_baseline(), seeds=SEEDS, kind="baseline",
                       note="TCP Tahoe from S's side in place of SRAMT")],
           plots=[_series_plot("throughput-sramt-s", "SRAMT-S receivers and TCP flows: throughput (1 s bins)",
                               "sramt-s"),
                  _series_plot("throughput-tcp-only", "TCP only: throughput of the six flows (1 s bins)", "tcp-only")]),
    Figure("fig7-9", "Scenario A, layered: SRAMT-LE and TCP on each bottleneck", "Fig. 7, 8, 9",
           "As Figs. 4–6 with SRAMT-LE (layers 1..3).",
           parts=[_part("sramt-le", a("sramt-le"))],
           plots=[_series_plot("throughput-sramt-le", "SRAMT-LE receivers and TCP flows: throughput (1 s bins)",
                               "sramt-le")]),
    Figure("fig11", "Scenario B1: SRAMT-LE on the shared tree", "Fig. 10, 11",
           "Five receivers on a shared distribution tree with on/off background on C1–C2, C2–C3, C3–C4: each "
           "receiver's received rate over time.",
           parts=[_part("sramt-le", b("sramt-le"))],
           plots=[_series_plot("received", _RECEIVED, "sramt-le")]),
    Figure("fig12", "Scenario B2: SRAMT-S on the shared tree (original capacities)", "Fig. 12",
           "As Fig. 11 with SRAMT-S: C1–C2 and C2–C3 cannot carry all streams.",
           parts=[_part("sramt-s", b("sramt-s"))],
           plots=[_series_plot("received", _RECEIVED, "sramt-s")]),
    Figure("fig13", "Scenario B3: SRAMT-S with C1–C2 = 3.0 and C2–C3 = 1.4 Mbit/s", "Fig. 13",
           "As Fig. 12 with the two thin links widened.",
           parts=[_part("sramt-s", b("sramt-s", 3.0e6, 1.4e6))],
           plots=[_series_plot("received", _RECEIVED, "sramt-s")]),
    Figure("fig14", "Scenario B4: as B3 with droptail queues", "Fig. 14",
           "As Fig. 13 with droptail (50 packets) in every router.",
           parts=[_part("sramt-s", b("sramt-s", 3.0e6, 1.4e6, DROPTAIL))],
           plots=[_series_plot("received", _RECEIVED, "sramt-s")]),
    Figure(COMMON, "The compared schemes (PLM, RLC, MLDA, DSG, IRFM) against TCP", "Fig. 15–19, Tables 1–2",
           "The paper reproduces figures from the baselines' own papers; here each scheme meets one Tahoe flow on a "
           "common 1 Mbit/s bottleneck (suite): RED, except PLM behind the fair queueing it needs (DRR).",
           parts=[_part(p, common_bottleneck(p, queue_of(p))) for p in SCHEMES]),
    Figure(SCENARIO_A_BASELINES, "Scenario A with the compared schemes in SRAMT's place",
           "Fig. 3 set-up, schemes of Figs. 15–19",
           "The common scenario for layered and simulcast schemes: Scenario A's topology, six receivers and "
           "three Tahoe flows, each of PLM, RLC, MLDA (layered, against SRAMT-LE's fig7-9) and DSG, IRFM (simulcast, "
           "against SRAMT-S's fig4-6) in SRAMT's place; RED, except PLM behind DRR on its three bottlenecks (suite).",
           parts=[_part(p, a_scheme(p)) for p in BASELINES],
           plots=[_series_plot(f"throughput-{p}", f"{p} receivers and TCP flows: throughput (1 s bins)", p)
                  for p in BASELINES]),
    Figure(STAGGERED, "Every scheme in the TCP / scheme / TCP staggered start on one bottleneck",
           "Fig. 15 set-up, schemes of Figs. 15–19",
           "The single-bottleneck common scenario: TCP1 (Tahoe) from 0 s, the scheme from 20 s, TCP2 from 60 s on "
           "one 1 Mbit/s, 20 ms bottleneck (suite capacities as fig15-19-orig), for SRAMT-LE, SRAMT-S and each "
           "baseline; RED, except PLM behind DRR.",
           parts=[_part(p, staggered(p)) for p in SCHEMES],
           plots=[_series_plot(f"throughput-{p}", f"{p} and two Tahoe flows: throughput (1 s bins)", p)
                  for p in ("sramt-le", "sramt-s", "plm", "irfm")]),
    Figure(ORIGINAL, "The compared schemes in their own papers' set-ups", "Fig. 15, 16, 17, 19",
           "The set-ups of the figures the paper copies (suite capacities: 1 Mbit/s per session and TCP pair): PLM "
           "behind DRR with TCP1 from 0 s, PLM from 20 s, TCP2 from 60 s; 8 RLC sessions and 8 Tahoe flows; one Tahoe "
           "flow and an IRFM session with two receivers. MLDA's set-up (MLDA against TCP on one bottleneck) is "
           "fig15-19's own; DSG's ('three streams over the Internet') names no topology.",
           parts=[_part("plm", staggered("plm", queue=FAIR_QUEUE)), _part("rlc", original_rlc(queue=RED)),
                  _part("irfm", original_irfm(queue=RED))],
           plots=[_series_plot(f"throughput-{p}", f"{p} and Tahoe: throughput (1 s bins)", p)
                  for p in ("plm", "rlc", "irfm")]),
]
