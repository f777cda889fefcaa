"""SRAMT (simulcast SRAMT-S and layered SRAMT-LE): Bouras & Gkamas, Computer Networks 47(4),
2005. Set-ups of §3 and claims C01–C35 of ``specs/004-sramt.md``.

Reconstruction notes (digest tags [P]/[I]/[R]; ours are marked "suite"):

* Everything the paper runs is multi-rate multicast (``multicast`` feature; protocols
  ``sramt-s`` and ``sramt-le``; the baselines of Figs. 15–19 are ``plm``, ``rlc``, ``mlda``,
  ``dsg``, ``irfm``). Multicast flows are written as a graph flow whose ``dst`` lists the
  receivers (the expected shape). Stream/layer bands and initial rates [P] are protocol keys
  added by the SRAMT issue.
* Common [R]: 1000 B packets, RED with min_th 5, max_th 15, w_q 0.002, max_p 0.1, gentle off,
  limit 50 packets (droptail 50 in B4); 1000 s runs (quick: 100 s), statistics over
  [100 s, 1000 s] (quick: [10 s, 100 s]); 1 s bins; 5 seeds.
* Scenario A [R]: S and TCP1–3 behind C1 (10 Mbit/s); bottlenecks C1–C2 0.2, C1–C3 0.8, C1–C4
  1.5 Mbit/s; receivers R1, R2 / R3, R4 / R5, R6 and Sink1–3 behind C2 / C3 / C4 (10 Mbit/s); every
  link 10 ms, so every SRAMT receiver and TCP flow has a 60 ms base RTT [P]. TCP is 4.3BSD Tahoe
  [P] (``tcp-tahoe``).
* Scenario B [R]: the digest's reconstructed tree (S–C1 10M/10ms, C1–C2 1.5M/20ms, C2–R1
  1.0M/10ms, C2–C3 0.8M/30ms, C3–R2 0.6M/10ms, C3–R3 0.2M/10ms, C3–C4 2.0M/40ms, C4–R4
  0.6M/10ms, C4–C5 0.2M/70ms, C5–R5 10M/10ms; B3/B4: C1–C2 3.0M, C2–C3 1.4M). Background on
  C1–C2, C2–C3 and C3–C4: Pareto on/off at 50 % of the link, ON mean 20 packets, OFF mean 0.5 s
  [P]; the simulator's Pareto source has one shape for both periods, 1.5 here (suite; the
  paper's are 1.1 ON and 1.8 OFF).
* Fig. 2 (RTT estimator): 1 Mbit/s, 10 ms link [R] with a 0.5 Mbit/s on/off background; the
  paper's is exponential, here Pareto (suite).
* Baseline run today: Scenario A with TCP only: on each bottleneck a Reno flow from S's side
  (standing in for the SRAMT stream) and the Reno flow from TCPi, the same RTT: C12's
  friendliness ratio F must be ≈ 1 for two TCPs (Reno stands in for Tahoe).
"""

from __future__ import annotations

from vidcc.papers.building import droptail, flow, glink, graph, red, scenario
from vidcc.papers.model import Claim, Figure, Part, Plot, Q, Suite, reconstruction_notes
from vidcc.papers.verdicts import within

SEEDS = Q([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
DURATION = Q("100s", "1000s")
WARMUP = Q("10s", "100s")
RED = red(min_thresh=5, max_thresh=15, weight=0.002, max_p=0.1, gentle=False, limit=50)
NEEDS = ("multicast",)
LINKS = {"C2": "0.2Mbps", "C3": "0.8Mbps", "C4": "1.5Mbps"}


def scenario_a(queue=RED) -> dict:
    fast = dict(bandwidth="10Mbps", delay="10ms", monitor=False)
    links = [glink("S", "C1", **fast)] + [glink(f"TCP{i}", "C1", **fast) for i in (1, 2, 3)]
    for c, bw in LINKS.items():
        links.append(glink("C1", c, bw, "10ms", queue=queue))
    for c, hosts in (("C2", ("R1", "R2", "Sink1")), ("C3", ("R3", "R4", "Sink2")), ("C4", ("R5", "R6", "Sink3"))):
        links += [glink(c, h, **fast) for h in hosts]
    nodes = ["S", "C1", "C2", "C3", "C4", "TCP1", "TCP2", "TCP3", "R1", "R2", "R3", "R4", "R5", "R6", "Sink1", "Sink2", "Sink3"]
    return graph(nodes, links)


def tahoe(i: int) -> dict:
    return flow("tcp-tahoe", label=f"tcp-c{i + 1}", src=f"TCP{i}", dst=f"Sink{i}", start=["0s", "1s"])


def sramt(proto: str, receivers: list[str], **keys) -> dict:
    return flow(proto, label=proto, src="S", dst=receivers, **keys)


RECEIVERS_A = ["R1", "R2", "R3", "R4", "R5", "R6"]


def a(proto: str) -> dict:
    return scenario(DURATION, scenario_a(), [sramt(proto, RECEIVERS_A), *[tahoe(i) for i in (1, 2, 3)]], warmup=WARMUP, sample_interval="1s")


def a_baseline() -> dict:
    flows = []
    for i, (c, recv) in enumerate((("c2", "R1"), ("c3", "R3"), ("c4", "R5")), 1):
        flows.append(flow("tcp-reno", label=f"standin-{c}", src="S", dst=recv, start=["0s", "1s"], send_jitter="1ms"))
        flows.append(flow("tcp-reno", label=f"tcp-{c}", src=f"TCP{i}", dst=f"Sink{i}", start=["0s", "1s"], send_jitter="1ms"))
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


def b(proto: str, c1c2=1.5e6, c2c3=0.8e6, queue=RED) -> dict:
    flows = [sramt(proto, ["R1", "R2", "R3", "R4", "R5"], start=["0s", "3s"])]
    flows += [background("C1", "C2", c1c2), background("C2", "C3", c2c3), background("C3", "C4", 2.0e6)]
    return scenario(DURATION, scenario_b(f"{c1c2 / 1e6:g}Mbps", f"{c2c3 / 1e6:g}Mbps", queue), flows, warmup=WARMUP, sample_interval="1s")


def common_bottleneck(proto: str) -> dict:
    """The suite's common scenario for the baselines of Figs. 15–19 (the paper shows figures from
    their own papers): one 1 Mbit/s, 20 ms RED bottleneck shared with one Reno flow."""
    topo = graph(["S", "T", "L", "R", "D", "TD"], [
        glink("S", "L", "10Mbps", "5ms", monitor=False), glink("T", "L", "10Mbps", "5ms", monitor=False),
        glink("L", "R", "1Mbps", "20ms", queue=RED),
        glink("R", "D", "10Mbps", "5ms", monitor=False), glink("R", "TD", "10Mbps", "5ms", monitor=False)])
    return scenario(DURATION, topo, [flow(proto, label=proto, src="S", dst=["D"]),
                                     flow("tcp-reno", label="tcp", src="T", dst="TD")], warmup=WARMUP, sample_interval="1s")


def fig2() -> dict:
    topo = graph(["S", "B", "L", "R", "D", "BD"], [
        glink("S", "L", "10Mbps", "1ms", monitor=False), glink("B", "L", "10Mbps", "1ms", monitor=False),
        glink("L", "R", "1Mbps", "10ms", queue=RED),
        glink("R", "D", "10Mbps", "1ms", monitor=False), glink("R", "BD", "10Mbps", "1ms", monitor=False)])
    return scenario(Q("60s", "200s"), topo, [sramt("sramt-s", ["D"]),
                                              flow("udp-pareto", label="background", src="B", dst="BD", rate="500kbps")],
                    warmup="0s", sample_interval="1s")


FIGURES = [
    Figure("fig2", "RTT estimate against the true RTT", "Fig. 2",
           "One SRAMT-S sender/receiver pair across a 1 Mbit/s link with a 0.5 Mbit/s on/off background: SRAMT's "
           "one-way-delay-based RTT estimate against the true RTT.",
           parts=[Part("sramt-s", fig2(), seeds=SEEDS, needs=NEEDS)]),
    Figure("fig4-6", "Scenario A, simulcast: SRAMT-S and TCP on each bottleneck", "Fig. 3, 4, 5, 6",
           "Six heterogeneous receivers behind three bottlenecks, each shared with one TCP Tahoe flow of the same RTT: "
           "bandwidth of SRAMT and TCP on C1–C2, C1–C3, C1–C4 over time. Baseline part tcp-only: a Reno flow from S's "
           "side in place of the SRAMT stream on each bottleneck.",
           parts=[Part("sramt-s", a("sramt-s"), seeds=SEEDS, needs=NEEDS),
                  Part("tcp-only", a_baseline(), seeds=SEEDS, kind="baseline",
                       note="TCP Reno from S's side in place of SRAMT; TCP Reno in place of Tahoe")],
           plots=[Plot("throughput-tcp-only", "TCP only: throughput of the six flows (1 s bins)", "throughput_bps", kind="series",
                       table="flow_samples", parts=["tcp-only"], ylabel="throughput (Mbit/s)", scale=1e-6)]),
    Figure("fig7-9", "Scenario A, layered: SRAMT-LE and TCP on each bottleneck", "Fig. 7, 8, 9",
           "As Figs. 4–6 with SRAMT-LE (layers 1..3).",
           parts=[Part("sramt-le", a("sramt-le"), seeds=SEEDS, needs=NEEDS)]),
    Figure("fig11", "Scenario B1: SRAMT-LE on the shared tree", "Fig. 10, 11",
           "Five receivers on a shared distribution tree with on/off background on C1–C2, C2–C3, C3–C4: each receiver's "
           "level and received rate over time.",
           parts=[Part("sramt-le", b("sramt-le"), seeds=SEEDS, needs=NEEDS)]),
    Figure("fig12", "Scenario B2: SRAMT-S on the shared tree (original capacities)", "Fig. 12",
           "As Fig. 11 with SRAMT-S: C1–C2 and C2–C3 cannot carry all streams.",
           parts=[Part("sramt-s", b("sramt-s"), seeds=SEEDS, needs=NEEDS)]),
    Figure("fig13", "Scenario B3: SRAMT-S with C1–C2 = 3.0 and C2–C3 = 1.4 Mbit/s", "Fig. 13",
           "As Fig. 12 with the two thin links widened.",
           parts=[Part("sramt-s", b("sramt-s", 3.0e6, 1.4e6), seeds=SEEDS, needs=NEEDS)]),
    Figure("fig14", "Scenario B4: as B3 with droptail queues", "Fig. 14",
           "As Fig. 13 with droptail (50 packets) in every router.",
           parts=[Part("sramt-s", b("sramt-s", 3.0e6, 1.4e6, droptail(50)), seeds=SEEDS, needs=NEEDS)]),
    Figure("fig15-19", "The compared schemes (PLM, RLC, MLDA, DSG, IRFM) against TCP", "Fig. 15–19, Tables 1–2",
           "The paper reproduces figures from the baselines' own papers; here each scheme meets one Reno flow on a common "
           "1 Mbit/s RED bottleneck (suite).",
           parts=[Part(p, common_bottleneck(p), seeds=SEEDS, needs=NEEDS) for p in ("sramt-le", "sramt-s", "plm", "rlc", "mlda", "dsg", "irfm")]),
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


TRACE = "needs SRAMT's per-receiver traces (stream/level changes, announced rates)"
LINK = "needs the per-link bandwidth of each multicast group (class throughput on C1–C2, C1–C3, C1–C4)"
S, LE = ("sramt-s",), ("sramt-le",)


def C(cid, text, fig, protos, why, ref):
    return Claim(cid, text, fig, protos, None, needs=NEEDS if fig else (), ref=ref, pending=why)


UNIT = "unit-level invariant: checked against the SRAMT implementation once it exists"

CLAIMS = [
    C("C01", "TCP model with D = 1, t_out = 4·RTT gives the §1.2 vectors (rel. error < 1e-9).", None, S, UNIT, "Eq. 1"),
    C("C02", "8-tap loss filter with weights (1, 1, 1, 1, .8, .6, .4, .2) gives the §1.3 vectors.", None, S, UNIT, "Eq. 10"),
    C("C03", "After a calibration the RTT estimate equals the echoed RTT; afterwards it scales with the one-way delay.", None, S, UNIT, "Eqs. 14–16"),
    C("C04", "The one-way-delay-based RTT estimate tracks the true RTT under on/off load (median rel. error ≤ 0.2, ρ > 0.5).", "fig2", S,
      "needs SRAMT's RTT-estimate events", "Fig. 2"),
    C("C05", "Each simulcast stream rate = the minimum preferred rate of its receivers (clamped).", None, S, UNIT, "Eq. 5"),
    C("C06", "The cumulative layered rate of level k = the minimum preferred rate of level-k receivers (clamped).", None, LE, UNIT, "Eq. 6"),
    C("C07", "Stream/layer 1's rate never exceeds any of its receivers' preferred rates unless pinned at the band minimum.", None, S + LE, UNIT, "§3.2"),
    C("C08", "Rule 2: no two rule-2 moves of one receiver less than 20 s apart.", "fig13", S, TRACE, "§3.3"),
    C("C09", "Back-off: the k-th consecutive failed retry of a change comes ≥ 2^k·5 s after the previous failure.", "fig13", S, TRACE, "§3.3"),
    C("C10", "All receivers' changes happen at epoch boundaries (± one-way delay).", "fig11", LE, TRACE, "§6"),
    C("C11", "Scenario A, S and LE: final assignment R1, R2 → 1; R3, R4 → 2; R5, R6 → 3 (held over [500, 1000] s in ≥ 80 % of seeds).",
      "fig4-6", S + LE, TRACE, "Figs. 4–9"),
    C("C12", "Scenario A, S: on each bottleneck long-term SRAMT ≈ TCP (0.5 ≤ F ≤ 2), no starvation window.", "fig4-6", S + ("tcp-tahoe",), LINK,
      "Figs. 4–6"),
    C("C13", "Scenario A, LE: as C12 for the cumulative layer traffic.", "fig7-9", LE + ("tcp-tahoe",), LINK, "Figs. 7–9"),
    C("C14", "Short-term, SRAMT is sometimes above and sometimes below TCP (≥ 5 sign changes in 10 s bins per link).", "fig4-6",
      S + ("tcp-tahoe",), LINK, "Figs. 4–9"),
    C("C15", "Simulcast stream rates are steadier than layered cumulative rates in Scenario A (mean CoV S < LE).", "fig4-6", S + LE, TRACE,
      "§8.1, §8.3"),
    C("C16", "S and LE give similar per-link SRAMT throughput in Scenario A (within ± 30 %).", "fig4-6", S + LE, LINK, "§8.1"),
    C("C17", "Scenario B1 (LE): final levels R1 → 3; R2, R4 → 2; R3, R5 → 1.", "fig11", LE, TRACE, "Fig. 11"),
    C("C18", "Scenario B1: the base-layer rate ends well below 200 kbit/s (paper ≈ 120).", "fig11", LE, TRACE, "Fig. 11"),
    C("C19", "Scenario B1: unsuccessful changes concentrated early (≥ 80 % before 200 s), none after 500 s.", "fig11", LE, TRACE, "Fig. 11"),
    C("C20", "Scenario B2 (S): R1, R2, R4 → stream 2; R3, R5 → stream 1; R1's attempts at stream 3 fail quickly.", "fig12", S, TRACE, "Fig. 12"),
    C("C21", "Scenario B with the original capacities: LE outperforms S (sum of receivers' mean rates).", "fig12", S + LE,
      "needs per-receiver received rates of both variants", "Figs. 11 vs 12"),
    C("C22", "Scenario B3 (S, 3.0/1.4 Mbit/s): R1 → 3; R2, R4 → 2; R3, R5 → 1.", "fig13", S, TRACE, "Fig. 13"),
    C("C23", "Scenario B3: the stream-1 rate ends well below 200 kbit/s (paper ≈ 100).", "fig13", S, TRACE, "Fig. 13"),
    C("C24", "Scenario B3: unsuccessful changes only early (none after 500 s).", "fig13", S, TRACE, "Fig. 13"),
    C("C25", "Scenario B4 (droptail): the same final assignment as C22, stable to the end.", "fig14", S, TRACE, "Fig. 14"),
    C("C26", "Droptail lowers SRAMT throughput compared with RED, most for the low-rate streams.", "fig14", S, TRACE, "Figs. 13 vs 14"),
    C("C27", "Synchronised changes keep one receiver's change from disturbing others (others' 5 s mean rate drops < 20 %).", "fig11", S + LE,
      TRACE, "§6, §8.2"),
    C("C28", "With ≤ 6 receivers the sender hears from every receiver (each updated at least every 2 RTCP intervals).", "fig4-6", S,
      "needs SRAMT's feedback events", "§7"),
    C("C29", "Partial suppression keeps feedback small: N = 10 000, λ = 10, T_rand = 6c → mean reports per round < 10 (≈ 7.2).", None, S,
      "Monte-Carlo check of SRAMT's suppression module once it exists", "§7, [17]"),
    C("C30", "PLM (FQ routers) has a steadier, step-wise rate than SRAMT-LE; TCP gets more than PLM; SRAMT-LE ≈ TCP.", "fig15-19",
      LE + ("plm",), "needs the PLM baseline and per-group rates", "§9, Fig. 15"),
    C("C31", "RLC slightly more aggressive than TCP; SRAMT-LE friendlier than RLC; no starvation.", "fig15-19", LE + ("rlc",),
      "needs the RLC baseline", "§9, Fig. 16"),
    C("C32", "MLDA occasionally starves TCP (or is starved) and converges slower than SRAMT-LE.", "fig15-19", LE + ("mlda",),
      "needs the MLDA baseline", "§9, Fig. 17"),
    C("C33", "DSG steadier than SRAMT-S; similar convergence.", "fig15-19", S + ("dsg",), "needs the DSG baseline", "§9, Fig. 18"),
    C("C34", "SRAMT-S friendlier than IRFM and converges faster.", "fig15-19", S + ("irfm",), "needs the IRFM baseline", "§9, Fig. 19"),
    C("C35", "Tables 1–2: qualitative ratings as copied in the digest §5.2–5.3.", None, S + LE,
      "documentation check only: not testable as stated", "Tables 1–2"),
    Claim("B1", "Baseline: Scenario A with TCP only — on each bottleneck (C1–C2, C1–C3, C1–C4; RED) a Reno flow from S's side and the Reno flow "
          "from TCPi, same 60 ms RTT, get friendliness ratio F = 1 within [0.5, 2] (C12's test, Reno standing in for SRAMT and Tahoe).",
          "fig4-6", ("tcp-reno",), b_friendliness, kind="baseline", parts=("tcp-only",)),
]

SUITE = Suite("sramt", "SRAMT: a hybrid sender and receiver-based adaptation scheme for TCP friendly multicast transmission",
              "Bouras & Gkamas, Computer Networks 47(4):551–575, 2005", "specs/004-sramt.md", FIGURES, CLAIMS,
              notes=reconstruction_notes(__doc__))
