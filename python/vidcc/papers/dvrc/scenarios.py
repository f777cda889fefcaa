"""The DVRC suite's scenarios: topologies, flows and scale constants of every figure (docs/papers/dvrc.md §3).

Reconstruction notes (the DVRC paper page's [P]/[I]/[D] tags; ours are marked "suite"):

* All links DropTail with a BDP buffer [P] (capacity × nominal propagation RTT, ≥ 10 packets
  [D]); 1000 B packets [P]; TCP Reno FTP with a 64 kB window [P], and ns-2 2.35's Agent/TCP
  otherwise (papers/ns2.py): min RTO 0.2 s, initial RTO 3 s, IW 2, no delayed ACK, no send
  jitter (overhead_ 0), limited transmit (singledup_ 1, vidcc's default too: docs/protocols/tcp.md).
  2 s warm-up [P]; 200 s runs, 10 seeds, N ∈ {1, 5, 10, …, 50} [D] (quick: 20 s, 2 seeds,
  N ∈ {1, 10, 40}).
* Hosts' queues: the paper sizes the routers' buffers ("the routers are drop-tail with buffer size
  adjusted in accordance with the bandwidth-delay product", §4.1) and no other; a sending host's
  interface queue on its access link is ns-2 2.35's default Queue/DropTail, limit_ 50 packets
  (``HOST_QUEUE``; reading ``bdp-host-queues``: the BDP, ≥ 10 packets, as the suite had it, under
  which DVRC's frame bursts overflowed its own 1 Mbit/s access link in S0 and S1). An access
  link's one queue serves both of its directions; its router side carries one flow's packets at
  most at the rate of the link before it, so only S2c's and the cross-traffic topology's 2 Mbit/s
  MPEG-sink links, fed faster than they drain, keep the BDP the paper gives routers.
* S2/S3 (cross- and reverse-traffic topologies, Fig. 5a/b) are the graph R1–R2–R3 built by the
  builder shared with the SSVP suite (papers/cross_traffic.py), MPEG flows R1→R2→R3, TCP (and the
  Pareto UDP) R2→R3 [D], 10 ms per core link [D]. The capacities are lost with Fig. 5a; the text
  bounds them (``R1_R2``, suite): R2–R3 ≈ 10 Mbit/s (a 256 kbit/s Pareto peak is "up to 2.5 % of
  the bottleneck bandwidth", §5.3); R1–R2 at least as wide, since 40 plain UDP flows, which reach
  R2 only through R1, make R2's queue grow "rapidly" and overflow (Fig. 11b, §5.2) and 50 DVRC
  flows "deliver video of acceptable quality regardless of link-multiplexing" (§5.3), falling
  back to the base layer in congestion (§5.4): 50 × 128 kbit/s does not pass 5 Mbit/s. R1–R2 =
  R2–R3 = 10 Mbit/s, the narrowest that meets both; R1 is still "the bottleneck for MPEG
  traffic" (§4.1) whenever the MPEG flows offer more than 10 Mbit/s (40 full-quality flows offer
  ≈ 41). The SSVP suite's 5 Mbit/s is the reading ``r1-5m``.
  Every flow has its own access links [P]: sources and TCP sinks U[2, 10] Mbit/s, U[5, 15] ms
  [I]; MPEG sinks 2 Mbit/s [P], U[5, 15] ms [D], with the Gilbert errors (correlated Bernoulli
  p = 0.01, q = 0.15, A11) in both directions [P].
* S2c (no cross traffic, strongly varying RTTs) is a dumbbell, which does have per-flow access
  links: source and sink access delays U[5, 100] ms [D], source access U[2, 10] Mbit/s [I],
  MPEG-sink access 2 Mbit/s [P]; the bottleneck folds R1–R2–R3 into 10 Mbit/s, 20 ms.
* MPEG flows (DVRC, TFRC, TCPW+, RTCP/UDP, plain UDP) carry the TES MPEG-4 video with k = 5
  cumulative layers c = 128, 256, 512, 768, 1024 kbit/s [D §2.2] (full quality for TFRC, TCPW+
  and plain UDP [P/I]). TCPW+ carries it through the ``video-over-tcp`` feature (a
  ``tcp-westwood-plus`` flow with a ``video``: every frame into an unbounded send buffer, frames
  dated by in-order delivery, docs/protocols/tcp.md); its drop rate is the network drops of its
  segments (docs/papers/dvrc.md §4 [I]). DVRC and RTCP/UDP run with their DVRC paper page
  defaults; TFRC, whose parameters the paper leaves to its tool, with ns-2 2.35's Agent/TFRC
  defaults (``vidcc.protocols.tfrc.NS2_AGENT``; docs/protocols/tfrc.md lists where they differ
  from RFC 5348).
* Every MPEG flow starts at a time drawn in U[0, 480 ms] (suite: one GOP), except S5's DVRC
  flow, which joins at 10 s [P]. Equal start times with equal access delays synchronised the
  frames of all flows at the bottleneck (a phase effect the paper's randomisation avoids).
* C26 (k = 4): cumulative layers 128, 256, 512, 1024 kbit/s (suite; the paper's are lost).
* Loss classes (C1, C25) are DVRC's ``loss_class`` events after the warm-up (1 = multiplicative);
  DTO expiries (always multiplicative [D]) are counted apart. Fairness orderings (C17, C24) are
  checked at N ≥ 2: one flow is trivially fair.
* Where every value comes from (the paper, ns-2 2.35's default, or this reconstruction) is the
  set-up table of each figure (``setup.py``); the readings ``--explore`` runs are in ``readings.py``.
"""

from __future__ import annotations

from vidcc.papers import cross_traffic, ns2
from vidcc.papers.building import chain, droptail, dumbbell, flow, glink, graph, scenario
from vidcc.papers.model import Axis, ByScale, Part
from vidcc.protocols.tfrc import NS2_AGENT

MPEG = ("dvrc", "tfrc", "tcpw+", "rtcp-udp")
PROTOCOL = {"dvrc": "dvrc", "tfrc": "tfrc", "tcpw+": "tcp-westwood-plus", "rtcp-udp": "rtcp-udp", "udp": "udp"}
# Cumulative layer rates, full quality = 5 layers (docs/papers/dvrc.md §2.2).
LAYERS = ["128kbps", "256kbps", "512kbps", "768kbps", "1024kbps"]
VIDEO = {"model": "tes-mpeg4", "layers": LAYERS}
VIDEO_K4 = {"model": "tes-mpeg4", "layers": ["128kbps", "256kbps", "512kbps", "1024kbps"]}  # C26, suite
# What an MPEG part needs besides its protocol.
NEEDS = {"tcpw+": ("video-over-tcp",)}

N_AXIS = ByScale([1, 10, 40], [1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50])
# full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
SEEDS = ByScale([1, 2], list(range(1, 11)))
DURATION = ByScale("20s", "200s")
SHORT_DURATION = ByScale("30s", "200s")  # S0 and S1 (Figs. 3, 6)
MULTIHOP_DURATION = ByScale("60s", "200s")  # S5: "competes with TCP traffic for the remaining 190 s"
HOPS = ByScale([1, 4, 10], list(range(1, 11)))
CORR_LOSS = {"kind": "correlated-bernoulli", "p": 0.01, "q": 0.15}  # A11 [I]
# A sending host's interface queue: ns-2 2.35's default DropTail (Queue limit_ 50 packets); the
# paper sizes only the routers' buffers (§4.1).
HOST_QUEUE = ns2.droptail()


# Suite: every MPEG flow starts at a time drawn in [0, 480 ms] (one GOP of 12 frames at 25 fps),
# so that N independent video sources neither send their frames at the same instants nor their
# I frames in the same frame period. With equal start times and equal access delays (S4, S6) the
# packets of every flow's frame reached the bottleneck together every 40 ms and met a queue the
# Reno flows had filled: at N = 40 in S4 the DVRC flows lost half of their packets, Reno 3 %.
# The paper randomises to avoid synchronisation (§3 General); start times are unspecified (U8).
MPEG_START = ["0s", "480ms"]

# ns-2 2.35's Agent/TCP where the paper is silent (papers/ns2.py): rtxcur_init_ 3 s, minrto_ 0.2 s,
# windowInit_ 2, an ACK per segment, overhead_ 0 (no send jitter); the 64 kB window is the paper's
# (§4.1 "maximum congestion window to 64 kB"), the scenario default; limited transmit
# (singledup_ 1) is vidcc's default too (docs/protocols/tcp.md).
TCP_KEYS = {k: v for k, v in ns2.tcp_keys(1000).items() if k != "max_window"}


def mpeg(name: str, count=1, label: str | None = None, video: dict | None = None, **keys) -> dict:
    """An MPEG flow of protocol ``name`` (label = name) carrying the layered video."""
    keys.setdefault("start", MPEG_START)
    if name == "tcpw+":
        keys = {**TCP_KEYS, **keys}
    if name == "tfrc":
        # The paper ran ns-2 2.35's Agent/TFRC and sets none of its parameters: its defaults,
        # NS2_AGENT = tfrc.cc's rate rules with InitRate_ 300, rate_init_option_ 2, df_ 0.95,
        # ca_ 1 (sqrtrtt_ smoothed by df_), tzero_ at tcp_tick_ 0.1, no-feedback timer 2·rtt_,
        # sink numPkts_ 1, discount_ 1, minDiscountRatio_ 0.5.
        keys = {**NS2_AGENT, **keys}
    return flow(PROTOCOL[name], label=label or name, count=count, video=video or VIDEO, **keys)


def needs(name: str) -> tuple:
    return NEEDS.get(name, ())


def reno(count, label="reno", **keys) -> dict:
    return flow("tcp-reno", label=label, count=count, **{**TCP_KEYS, **keys})


# ---- topologies -----------------------------------------------------------------------------

# S0/S1: "all links 1 Mbit/s", RTT 70 ms [P]: 5 ms access, 25 ms bottleneck [D]; 10-packet buffer
# (the BDP, 8.75 packets, with the minimum of 10).
S1_TOPO = dumbbell("1Mbps", "25ms", access={"bandwidth": "1Mbps", "delay": "5ms", "queue": HOST_QUEUE},
                   queue=droptail(10))


def random_loss_topology() -> dict:
    """S0 (Fig. 3): S1's 1 Mbit/s path; 3 % random loss on the DVRC receiver's access link, data
    direction only [D]. A graph so that the TCP receiver's link stays clean."""
    return graph(
        ["DS", "TS", "L", "R", "DD", "TD"],
        [
            glink("DS", "L", "1Mbps", "5ms", queue=HOST_QUEUE, monitor=False),
            glink("TS", "L", "1Mbps", "5ms", queue=HOST_QUEUE, monitor=False),
            glink("L", "R", "1Mbps", "25ms", queue=droptail(10)),
            glink("R", "DD", "1Mbps", "5ms", loss={"kind": "bernoulli", "p": 0.03}, monitor=False),
            glink("R", "TD", "1Mbps", "5ms", monitor=False),
        ],
    )


# R1–R2 as wide as R2–R3 (module notes: Fig. 11b's UDP overflow at R2 and 50 base layers through R1).
R1_R2 = "10Mbps"
S2_TOPO = cross_traffic.topology(r1_r2=R1_R2)  # the builder shared with the SSVP suite
ACCESS = cross_traffic.ACCESS  # per flow instance [P ranges, I uniform]
MPEG_SINK = {"bandwidth": "2Mbps", "delay": ["5ms", "15ms"], "loss": CORR_LOSS, "reverse_loss": CORR_LOSS}


def _host_queue(placement: dict) -> dict:
    """A cross-traffic flow's placement with ns-2's host queue on its source's access link."""
    return {**placement, "source_access": {**placement["source_access"], "queue": HOST_QUEUE}}


def s2_mpeg(name: str, count=1, **keys) -> dict:
    """An MPEG flow of Fig. 5a: R1→R2→R3 with its own access links, errors on the sink's."""
    return mpeg(name, count, **_host_queue(cross_traffic.mpeg_placement(MPEG_SINK)), **keys)


def s2_tcp(count, label="reno", src="R2", dst="R3") -> dict:
    return reno(count, label=label, **_host_queue(cross_traffic.ftp_placement(src, dst)))


S2C_TOPO = dumbbell(
    "10Mbps", "20ms",
    access={"bandwidth": ["2Mbps", "10Mbps"], "delay": ["5ms", "100ms"]},
    source_access={"queue": HOST_QUEUE},
    sink_access={"bandwidth": "2Mbps"},
)
# S4: all links 10 Mbit/s, RTT 70 ms, buffer 88 packets (the BDP, 87.5) [P/D].
S4_TOPO = dumbbell("10Mbps", "25ms", access={"bandwidth": "10Mbps", "delay": "5ms", "queue": HOST_QUEUE},
                   queue=droptail(88))


def multihop(hops, bandwidth: str) -> dict:
    """Fig. 5c: N gateways in a row; per-hop delay 10 ms, access 10 Mbit/s / 5 ms [D]."""
    return chain(hops, bandwidth, "10ms", access={"bandwidth": "10Mbps", "delay": "5ms", "queue": HOST_QUEUE})


def s2(name: str, count=1, reverse_traffic: bool = False, duration=DURATION, mpeg_keys: dict | None = None,
       **keys) -> dict:
    """S2 (Fig. 5a): ``count`` MPEG flows of ``name`` and 10 Reno cross flows; with
    ``reverse_traffic``, S3 (Fig. 5b)."""
    flows = [s2_mpeg(name, count, **(mpeg_keys or {})), s2_tcp(10)]
    if reverse_traffic:
        # S3 (Fig. 5b): 5 forward + 10 reverse Reno; 10 Pareto on/off UDP, peaks 64–256 kbit/s
        # evenly spaced [D], 250 B packets [P], ns-2 defaults 0.5 s / 0.5 s / shape 1.5 [X].
        flows[1]["count"] = 5
        flows.append(s2_tcp(10, label="reno-reverse", src="R3", dst="R2"))
        for i in range(10):
            rate = f"{64 + round(i * 192 / 9)}kbps"
            flows.append(flow("udp-pareto", label="pareto", rate=rate, packet_size="250B", src="R2", dst="R3",
                              source_access={**ACCESS, "queue": HOST_QUEUE}, sink_access=ACCESS))
    return scenario(duration, S2_TOPO, flows, **keys)


def s5(hops: int = 1) -> dict:
    """S5 (Fig. 17): one DVRC flow across ``hops`` 1 Mbit/s hops, joining at 10 s [P]; one forward
    and one backward Reno flow per hop [P]; statistics from 12 s (the join and the paper's 2 s)."""
    return scenario(MULTIHOP_DURATION, multihop(hops, "1Mbps"), [
        mpeg("dvrc", start="10s"),
        reno(1, label="reno-forward", span="per-hop"),
        reno(1, label="reno-backward", span="per-hop", direction="reverse"),
    ], warmup="12s")


def s6(name: str) -> dict:
    """S6 (Figs. 18–20): MPEG flows of ``name`` across 5 hops of 10 Mbit/s, one forward and one
    backward Reno flow per hop [P]."""
    return scenario(DURATION, multihop(5, "10Mbps"), [
        mpeg(name),
        reno(1, label="reno-forward", span="per-hop"),
        reno(1, label="reno-backward", span="per-hop", direction="reverse"),
    ])


def n_axis(index: int = 0) -> Axis:
    return Axis(f"flows[{index}].count", N_AXIS, "n")


def mpeg_parts(build, names, **kw) -> list[Part]:
    return [Part(name, build(name), axes=[n_axis()], seeds=SEEDS, needs=needs(name), **kw) for name in names]
