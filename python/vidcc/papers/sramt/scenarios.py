"""The SRAMT suite's scenarios: topologies, flows and scale constants of every figure.

Reconstruction notes (tags [P] paper, [I] interpretation, [R] reconstruction; ours are marked "suite"):

* Everything the paper runs is multi-rate multicast (``multicast`` feature; protocols
  ``sramt-s`` and ``sramt-le``; the baselines of Figs. 15–19 are ``plm``, ``rlc``, ``mlda``,
  ``dsg``, ``irfm``, issue 11). Multicast flows are graph flows with a ``receivers`` list
  (node, start, and for Scenario A's simulcast the stream each receiver starts on [P]); the bands
  and initial rates are the protocol's defaults, which are the paper's [P].
* Where the paper is silent, ns-2 2.35's default (the authors ran ns-2, §8; ``vidcc.papers.ns2``),
  the suite's earlier reconstructions kept as set-up readings for ``--explore`` (``readings.py``):
  every RED queue is ns-2's ``Queue/RED`` as ``duplex-link ... RED`` configures it on that link
  (byte mode, mean_pktsize_ 500, thresholds and weight set automatically from the link, gentle,
  limit 25 000 B; reading ``classic-red``: min_th 5, max_th 15, w_q 0.002, gentle off, packet mode,
  50 packets); droptail is ns-2's 50 packets (B4); the Tahoe flows are ``Agent/TCP`` with its
  defaults (1000 B payload + 40 B header, window_ 20 packets, rtxcur_init_ 3 s; reading
  ``vidcc-tahoe``: vidcc's 1000 B, 64 000 B, 1 s); the background generators send ns-2's 210 B
  packets (``Application/Traffic/Pareto`` and ``Exponential`` packetSize_; readings
  ``background-1000B`` for Scenario B, ``fig2-background-1000B``). SRAMT's own packets are 1000 B
  [R] (its agent is the authors', not ns-2's).
  1000 s runs (quick: 500 s), statistics after a 100 s warm-up (quick: 50 s); 1 s bins; 10 seeds
  (quick: 2). The paper's times for 1000 s runs
  ("held over [500, 1000] s", "before 200 s", "none after 500 s") are read as shares of the run
  (0.5·D, 0.2·D, 0.5·D; suite), so quick scale asks the same questions of shorter runs.
* Traces (suite): stream / level changes are the receivers' ``layers`` events (1-based stream or
  level), the announced group rates the sender's ``group_rate`` events, the reports it hears its
  ``feedback`` events, and the receivers' t_RTT^{e-i} their ``rtt_estimate`` events (once per RTT).
  The SRAMT traffic on a Scenario A bottleneck is read from the receivers behind it (they sit on
  loss-free 10 Mbit/s access links): per 1 s bin, LE: the most any of them receives (its layers
  contain the others'); S: the sum over the streams they are on of the most one receiver gets.
* Unit-level claims (C01–C03, C05–C07, C29) are checked on the implementation's own numbers
  (``_vidcc.sramt_unit_measurements``: Eq. 1 at the paper's vectors, the 8-tap filter, the
  one-way-delay RTT around a calibration, 2,000 random reports through the sender for Eqs. 5–6
  and C07, and the Monte-Carlo of partial suppression at 10,000 receivers) against values this
  suite computes independently (Eq. 1 in Python) or the paper states.
* Scenario A [R]: S and TCP1–3 behind C1 (10 Mbit/s); bottlenecks C1–C2 0.2, C1–C3 0.8, C1–C4
  1.5 Mbit/s; receivers R1, R2 / R3, R4 / R5, R6 and Sink1–3 behind C2 / C3 / C4 (10 Mbit/s); every
  link 10 ms, so every SRAMT receiver and TCP flow has a 60 ms base RTT [P]; every link RED ("All the
  links ... use the RED ... policy to their queues", §8.1 [P]; reading ``droptail-access``: the
  access links' DropTail of one BDP, as the suite had them). TCP is 4.3BSD Tahoe
  [P] (``tcp-tahoe``), starting at U(0, 1) s. SRAMT-S receivers start on their expected streams
  [P]; SRAMT-LE receivers all start at level 1 (A-23), all at 0 s.
* Scenario B [R]: the reconstructed tree (S–C1 10M/10ms, C1–C2 1.5M/20ms, C2–R1
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
* Figs. 15–19 (suite): the paper shows each baseline in its own paper's scenario; here every
  scheme meets one Tahoe flow on one common 1 Mbit/s, 20 ms bottleneck (:func:`common_bottleneck`),
  RED for all but PLM, which runs behind DRR fair queueing as its paper requires (``comparisons``
  holds C30–C34). Their own papers' set-ups are figure ``fig15-19-orig`` (suite capacities, the
  paper gives none: 1 Mbit/s, 20 ms per session and TCP pair, RED, PLM behind DRR): PLM with
  TCP1 from 0 s, PLM from 20 s, TCP2 from 60 s (measured from 60 s); 8 RLC sessions and 8 Tahoe
  flows on 8 Mbit/s; one Tahoe flow and one IRFM session with two receivers. MLDA's (MLDA
  against TCP on one bottleneck) is the common scenario itself; DSG's ("three streams over the
  Internet") names no topology and is not re-run. C30–C34 show the original set-up's F,
  starvation windows, CoV or convergence beside their verdicts, which stay the common scenario's.
* Staggered start (suite; figure ``fig15-19-staggered``): PLM's Fig. 15 set-up with every scheme
  (SRAMT-LE, SRAMT-S and the five baselines): TCP1 from 0 s, the scheme from 20 s, TCP2 from 60 s
  on one 1 Mbit/s, 20 ms bottleneck, RED except PLM's DRR; measured from 60 s. C30–C34 report
  each baseline's and its SRAMT variant's numbers there and whether the claim's test holds
  (reported, not judged). Its PLM part is fig15-19-orig's (the same scenario, so the same runs);
  C30 reports it once.
* Baselines in Scenario A (suite; figure ``fig4-9-baselines``): Scenario A's topology, receivers
  R1–R6 and Tahoe flows with PLM, RLC, MLDA, DSG or IRFM in SRAMT's place; PLM behind DRR on the
  three bottlenecks (its paper's fair queueing), the others behind the scenario's RED; every
  scheme's default layers / bands / range (they fit the 100 / 400 / 750 kbit/s half-shares);
  DSG's receivers start on SRAMT-S's streams, the others where the scheme puts them. C30–C34
  report, beside their common-bottleneck verdicts, each bottleneck's F against its own Tahoe
  flow and its starvation windows, the CoV, the convergence time and each receiver's final
  position against the scheme's expected one, for the baseline and its SRAMT variant (fig7-9 /
  fig4-6), and whether the claim's own test holds there (reported, not judged).
* Measures of C30–C35 (suite): F = the scheme's mean received traffic per session / the mean
  Tahoe flow's throughput on the same link; CoV of a layered scheme: of each receiver's 1 s
  received rate (PLM announces no rate); of a simulcast scheme: of the held streams' announced
  rates; convergence time ("convergence time to the stable state", paper §9): from the session's
  start until its receivers' received rates settle (10 s means, three in a row within the second
  half's level ± the larger of twice its spread and 10 %; ``schemes.settling_s``).
* Tables 1–2 (C35, suite): the ratings are read as ordinal (Very good > Good > Modest; Yes >
  Modest > No; Very fast > Relative fast = Satisfactory > Modest) and each row with a measured
  counterpart in the fig15-19 runs is checked pairwise wherever two ratings differ: TCP
  friendliness ↔ |F − 1|, stable transmission rate ↔ CoV, convergence time ↔ convergence time;
  the better-rated scheme must measure strictly better. DSG's friendliness ("–") is not compared.
  Not checked: "Stable operation" (no metric in the paper; the starvation windows are reported),
  "Scalability" (Table 1 all "Well"; Table 2 would need DSG's and IRFM's reports per round at
  scale, which no suite run measures) and "Limitations".
* Baseline: Scenario A with TCP only: on each bottleneck a Tahoe flow from S's side (standing in
  for the SRAMT stream) and the Tahoe flow from TCPi, the same RTT: C12's friendliness ratio F
  must be ≈ 1 for two TCPs.
"""

from __future__ import annotations

import math
from collections.abc import Callable

from vidcc.papers import ns2
from vidcc.papers.building import flow, glink, graph, scenario
from vidcc.papers.model import ByScale

SEEDS = ByScale([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
DURATION = ByScale("500s", "1000s")
WARMUP = ByScale("50s", "100s")

# A link's queue as a function of the link's bandwidth (bit/s) and delay (s): ns-2 2.35 sets RED's
# thresholds and weight from the link it sits on.
Queue = Callable[[float, float], dict]


def RED(bandwidth_bps: float, delay_s: float) -> dict:  # noqa: N802 - named as the paper names the policy
    """ns-2 2.35's ``duplex-link ... RED`` on this link: its defaults, auto-configured (ns2.red)."""
    return ns2.red(bandwidth_bps, delay_s)


def DROPTAIL(bandwidth_bps: float, delay_s: float) -> dict:  # noqa: N802
    """ns-2 2.35's ``duplex-link ... DropTail``: limit_ 50 packets, whatever the link."""
    return ns2.droptail()


def FAIR_QUEUE(bandwidth_bps: float, delay_s: float) -> dict:  # noqa: N802
    """PLM's routers (its paper assumes fair queueing): ns-2 Queue/DRR defaults."""
    return {"kind": "drr"}


def link(a: str, b: str, bandwidth_bps: float, delay_s: float, queue: Queue | None = None, **kw) -> dict:
    """A link of ``bandwidth_bps`` and ``delay_s`` with ``queue`` made for it (None: the simulator's default)."""
    return glink(a, b, f"{bandwidth_bps / 1e6:g}Mbps", f"{delay_s * 1000:g}ms",
                 queue=queue(bandwidth_bps, delay_s) if queue is not None else None, **kw)


TCP_PACKET_BYTES = ns2.TCP_PACKET_BYTES  # Agent/TCP packetSize_ 1000 + 40 B of headers on the wire
BACKGROUND_PACKET_BYTES = ns2.CBR_PACKET_BYTES  # Application/Traffic/{Pareto,Exponential} packetSize_ 210
NEEDS = ("multicast",)
S, LE = ("sramt-s",), ("sramt-le",)
TAHOE = ("tcp-tahoe",)

# The compared schemes of Figs. 15–19: display names, which are layered, and the SRAMT variant each is compared with.
BASELINES = ("plm", "rlc", "mlda", "dsg", "irfm")
SCHEMES = ("sramt-le", "sramt-s", *BASELINES)
NAMES = {"plm": "PLM", "rlc": "RLC", "mlda": "MLDA", "dsg": "DSG", "irfm": "IRFM",
         "sramt-le": "SRAMT-LE", "sramt-s": "SRAMT-S"}
LAYERED = {"plm": True, "rlc": True, "mlda": True, "dsg": False, "irfm": False, "sramt-le": True, "sramt-s": False}
VERSUS = {"plm": "sramt-le", "rlc": "sramt-le", "mlda": "sramt-le", "dsg": "sramt-s", "irfm": "sramt-s"}

# Figure ids other modules name.
COMMON = "fig15-19"
STAGGERED = "fig15-19-staggered"
ORIGINAL = "fig15-19-orig"
SCENARIO_A_BASELINES = "fig4-9-baselines"
SRAMT_FIGURE_A = {"sramt-le": "fig7-9", "sramt-s": "fig4-6"}  # the Scenario A runs of each SRAMT variant

# --------------------------------------------------------------------------------------------
# Scenario A (Figs. 3–9)

LINKS = {"C2": 0.2e6, "C3": 0.8e6, "C4": 1.5e6}  # bit/s
# Scenario A [P]: expected (and, for SRAMT-S, starting) stream / level of each receiver.
EXPECTED_A = {"R1": 1, "R2": 1, "R3": 2, "R4": 2, "R5": 3, "R6": 3}
# Each bottleneck: the receivers behind it, its Tahoe flow's label, its capacity (bit/s).
LINKS_A = {"C1-C2": (("R1", "R2"), "tcp-c2", 0.2e6), "C1-C3": (("R3", "R4"), "tcp-c3", 0.8e6),
           "C1-C4": (("R5", "R6"), "tcp-c4", 1.5e6)}


def scenario_a(queue: Queue = RED) -> dict:
    """Scenario A; ``queue`` on the three bottlenecks (PLM's DRR), RED on every other link (§8.1)."""
    fast = dict(bandwidth_bps=10e6, delay_s=0.010, queue=RED, monitor=False)
    links = [link("S", "C1", **fast)] + [link(f"TCP{i}", "C1", **fast) for i in (1, 2, 3)]
    for c, bw in LINKS.items():
        links.append(link("C1", c, bw, 0.010, queue))
    for c, hosts in (("C2", ("R1", "R2", "Sink1")), ("C3", ("R3", "R4", "Sink2")), ("C4", ("R5", "R6", "Sink3"))):
        links += [link(c, h, **fast) for h in hosts]
    nodes = ["S", "C1", "C2", "C3", "C4", "TCP1", "TCP2", "TCP3", "R1", "R2", "R3", "R4", "R5", "R6",
             "Sink1", "Sink2", "Sink3"]
    return graph(nodes, links)


def tahoe_flow(label: str, src: str, dst: str, start=None) -> dict:
    """A 4.3BSD Tahoe source (§8.1) as ns-2 2.35's ``Agent/TCP/Tahoe`` with its defaults (ns2.tcp_keys)."""
    when = {} if start is None else {"start": start}
    return flow("tcp-tahoe", label=label, src=src, dst=dst, **when, packet_size=f"{TCP_PACKET_BYTES}B",
                **ns2.tcp_keys(TCP_PACKET_BYTES))


def tahoe(i: int, label: str | None = None, src: str | None = None, dst: str | None = None) -> dict:
    return tahoe_flow(label or f"tcp-c{i + 1}", src or f"TCP{i}", dst or f"Sink{i}", ["0s", "1s"])


def sramt(proto: str, receivers: list[dict], **keys) -> dict:
    return flow(proto, label=proto, src="S", receivers=receivers, **keys)


def a(proto: str) -> dict:
    if proto == "sramt-s":
        receivers = [{"node": n, "groups": [k - 1]} for n, k in EXPECTED_A.items()]
    else:
        receivers = [{"node": n} for n in EXPECTED_A]  # all start at level 1
    return scenario(DURATION, scenario_a(), [sramt(proto, receivers), *[tahoe(i) for i in (1, 2, 3)]],
                    warmup=WARMUP, sample_interval="1s")


def scheme_receivers(proto: str, expected: dict[str, int]) -> list[dict]:
    """A compared scheme's receivers R1–R6 in Scenario A: DSG's start on their expected streams (as
    SRAMT-S's), the others where the scheme puts them (PLM, RLC, MLDA: level 1; IRFM: its default stream)."""
    if proto == "dsg":
        return [{"node": n, "groups": [k - 1]} for n, k in expected.items()]
    return [{"node": n} for n in expected]


def a_scheme(proto: str) -> dict:
    """Scenario A with a baseline of Figs. 15–19 in SRAMT's place (PLM behind DRR)."""
    queue = FAIR_QUEUE if proto == "plm" else RED
    session = flow(proto, label=proto, src="S", receivers=scheme_receivers(proto, EXPECTED_A))
    return scenario(DURATION, scenario_a(queue), [session, *[tahoe(i) for i in (1, 2, 3)]], warmup=WARMUP,
                    sample_interval="1s")


def a_baseline() -> dict:
    flows = []
    for i, (c, recv) in enumerate((("c2", "R1"), ("c3", "R3"), ("c4", "R5")), 1):
        flows.append(tahoe(i, label=f"standin-{c}", src="S", dst=recv))
        flows.append(tahoe(i, label=f"tcp-{c}"))
    return scenario(DURATION, scenario_a(), flows, warmup=WARMUP, sample_interval="1s")


# --------------------------------------------------------------------------------------------
# Scenario B (Figs. 10–14)

EXPECTED_B = {"R1": 3, "R2": 2, "R3": 1, "R4": 2, "R5": 1}
EXPECTED_B2 = {"R1": 2, "R2": 2, "R3": 1, "R4": 2, "R5": 1}
RECEIVERS_B = [{"node": f"R{i}", "start": f"{0.5 * i:g}s"} for i in range(1, 6)]


def scenario_b(c1c2=1.5e6, c2c3=0.8e6, queue: Queue = RED) -> dict:
    bg = dict(bandwidth="100Mbps", delay="1ms", monitor=False)
    links = [
        link("S", "C1", 10e6, 0.010, queue),
        link("C1", "C2", c1c2, 0.020, queue),
        link("C2", "R1", 1.0e6, 0.010, queue),
        link("C2", "C3", c2c3, 0.030, queue),
        link("C3", "R2", 0.6e6, 0.010, queue),
        link("C3", "R3", 0.2e6, 0.010, queue),
        link("C3", "C4", 2.0e6, 0.040, queue),
        link("C4", "R4", 0.6e6, 0.010, queue),
        link("C4", "C5", 0.2e6, 0.070, queue),
        link("C5", "R5", 10e6, 0.010, queue),
    ]
    for x, y in (("C1", "C2"), ("C2", "C3"), ("C3", "C4")):
        links += [glink(f"B{x}{y}", x, **bg), glink(y, f"E{x}{y}", **bg)]
    nodes = ["S", "C1", "C2", "C3", "C4", "C5", "R1", "R2", "R3", "R4", "R5"]
    nodes += [f"{p}{x}{y}" for x, y in (("C1", "C2"), ("C2", "C3"), ("C3", "C4")) for p in ("B", "E")]
    return graph(nodes, links)


def on_mean(packets: float, packet_bytes: int, rate_bps: float) -> str:
    """The ON period that sends ``packets`` of ``packet_bytes`` at ``rate_bps``, in ms."""
    return f"{packets * packet_bytes * 8 / rate_bps * 1000:.3f}ms"


def background(x: str, y: str, link_bps: float) -> dict:
    peak = link_bps / 2
    return flow("udp-pareto", label="background", src=f"B{x}{y}", dst=f"E{x}{y}", rate=f"{peak / 1000:g}kbps",
                on_mean=on_mean(20, BACKGROUND_PACKET_BYTES, peak),  # ON mean = 20 packets at the peak rate [P]
                off_mean="500ms", shape=1.5, packet_size=f"{BACKGROUND_PACKET_BYTES}B")


def b(proto: str, c1c2=1.5e6, c2c3=0.8e6, queue: Queue = RED) -> dict:
    flows = [sramt(proto, RECEIVERS_B)]
    flows += [background("C1", "C2", c1c2), background("C2", "C3", c2c3), background("C3", "C4", 2.0e6)]
    topo = scenario_b(c1c2, c2c3, queue)
    return scenario(DURATION, topo, flows, warmup=WARMUP, sample_interval="1s")


# --------------------------------------------------------------------------------------------
# Fig. 2 (the RTT estimator)

FIG2_LINK_S = 0.010
FIG2_REVERSE_S = 0.001 + FIG2_LINK_S + 0.001  # D–R, R–L, L–S propagation of the report's way back


def fig2() -> dict:
    topo = graph(["S", "B", "L", "R", "D", "BD"], [
        glink("S", "L", "10Mbps", "1ms", monitor=False), glink("B", "L", "10Mbps", "1ms", monitor=False),
        link("L", "R", 1e6, FIG2_LINK_S, RED),
        glink("R", "D", "10Mbps", "1ms", monitor=False), glink("R", "BD", "10Mbps", "1ms", monitor=False)])
    one_stream = sramt("sramt-s", [{"node": "D"}], bands=[["50kbps", "1000kbps"]], initial_rates=["200kbps"])
    bg = flow("udp-pareto", label="background", src="B", dst="BD", rate="500kbps", on_mean="500ms",
              off_mean="500ms", shape=1 + math.sqrt(2), packet_size=f"{BACKGROUND_PACKET_BYTES}B")
    return scenario(ByScale("60s", "200s"), topo, [one_stream, bg], warmup="0s", sample_interval="1s")


# --------------------------------------------------------------------------------------------
# Figs. 15–19: the common bottleneck, the staggered start and the baselines' own set-ups

LINK_BPS = 1e6  # the common bottleneck; per scheme session and TCP flow pair in the original set-ups
RLC_SESSIONS = 8


def queue_of(proto: str) -> Queue:
    """The routers a scheme runs behind: PLM fair queueing, the others RED."""
    return FAIR_QUEUE if proto == "plm" else RED


def common_bottleneck(proto: str, queue: Queue = RED) -> dict:
    """The suite's common scenario for the baselines of Figs. 15–19 (the paper shows figures from
    their own papers): one 1 Mbit/s, 20 ms bottleneck shared with one Tahoe flow; RED, or the
    routers a scheme needs (PLM: fair queueing)."""
    topo = graph(["S", "T", "L", "R", "D", "TD"], [
        glink("S", "L", "10Mbps", "5ms", monitor=False), glink("T", "L", "10Mbps", "5ms", monitor=False),
        link("L", "R", LINK_BPS, 0.020, queue),
        glink("R", "D", "10Mbps", "5ms", monitor=False), glink("R", "TD", "10Mbps", "5ms", monitor=False)])
    flows = [flow(proto, label=proto, src="S", dst=["D"]), tahoe_flow("tcp", "T", "TD")]
    return scenario(DURATION, topo, flows, warmup=WARMUP, sample_interval="1s")


def _topo(bps: float, queue: Queue, receivers: list[str], tcps: list[str]) -> dict:
    fast = dict(bandwidth="10Mbps", delay="5ms", monitor=False)
    links = [glink("S", "L", **fast), glink("T", "L", **fast),
             link("L", "R", bps, 0.020, queue)]
    links += [glink("R", n, **fast) for n in receivers + tcps]
    return graph(["S", "T", "L", "R", *receivers, *tcps], links)


def _tcp(label: str, dst: str, start) -> dict:
    return tahoe_flow(label, "T", dst, start)


def staggered(proto: str, duration=DURATION, warmup=WARMUP, queue: Queue | None = None) -> dict:
    """Fig. 15's set-up with any scheme: TCP1 at 0 s, the scheme at 20 s, TCP2 at 60 s on one bottleneck."""
    queue = queue_of(proto) if queue is None else queue
    flows = [_tcp("tcp1", "TD1", "0s"), flow(proto, label=proto, src="S", dst=["D"], start="20s"),
             _tcp("tcp2", "TD2", "60s")]
    return scenario(duration, _topo(LINK_BPS, queue, ["D"], ["TD1", "TD2"]), flows, warmup=warmup,
                    sample_interval="1s")


def original_rlc(duration=DURATION, warmup=WARMUP, queue: Queue = RED) -> dict:
    """Fig. 16's set-up: 8 RLC sessions and 8 Tahoe flows on one bottleneck."""
    n = RLC_SESSIONS
    flows = [flow("rlc", label=f"rlc{i}", src="S", dst=[f"D{i}"]) for i in range(1, n + 1)]
    flows += [_tcp(f"tcp{i}", f"TD{i}", ["0s", "1s"]) for i in range(1, n + 1)]
    topo = _topo(n * LINK_BPS, queue, [f"D{i}" for i in range(1, n + 1)], [f"TD{i}" for i in range(1, n + 1)])
    return scenario(duration, topo, flows, warmup=warmup, sample_interval="1s")


def original_irfm(duration=DURATION, warmup=WARMUP, queue: Queue = RED) -> dict:
    """Fig. 19's set-up: one Tahoe flow and one IRFM session with two receivers on one link."""
    flows = [flow("irfm", label="irfm", src="S", dst=["D1", "D2"]), _tcp("tcp1", "TD1", ["0s", "1s"])]
    return scenario(duration, _topo(LINK_BPS, queue, ["D1", "D2"], ["TD1"]), flows, warmup=warmup,
                    sample_interval="1s")
