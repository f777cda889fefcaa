"""The QoS-AIMD suite's scenarios: topology, flows and scale constants of every figure.

Reconstruction notes (the QoS-AIMD paper page tags [P]/[D]/[U]; ours are marked "suite"; where each
value comes from is the set-up table, ``setup.py``):

* Path CH —100 Mb/s— r1 —100 Mb/s backbone (RED)— r2 —100 Mb/s— BS —wireless— MH [P]; one-way
  delays 1 / 36.18 / 1 / 1 ms (suite [U]: with the 5 ms slot of a 125 B packet at 200 kb/s and
  the 1.6 ms of a 40 B ack they make the paper's minimum RTT, 85 ms = 17 slots). The cross TCP
  runs "over r1–r2" [P]: each TCP source on its own host with its own access link into r1, each
  sink behind its own link out of r2 (100 Mb/s as every wired link [P], 1 ms as the CH's,
  suite), so the backbone is the only link the flows share.
* Wireless downlink 200 kb/s [P]; the simulator's links are symmetric, so the uplink is also
  200 kb/s (suite; the paper's is 100 kb/s, which only acks use). Two-state channel [P]:
  Gilbert-Elliott with loss 1 in the bad state and 0 in the good one, mean bad burst 2 packets
  (r = 0.5, "mildly bursty", docs/papers/qos-aimd.md §2.7), p = p_e·r/(1 − p_e) so that the mean
  loss is p_e; the chain advances per packet, not per slot (suite).
* RED on the backbone [P] with every parameter [U] ns-2 2.35's default (``papers/ns2.py``): byte
  mode, hard limit limit_ 50 × mean_pktsize_ 500 = 25 000 bytes, automatic thresh_ / maxthresh_
  62.5 / 187.5 packets of 500 B (above the hard limit at 100 Mb/s: no early drops), q_weight_
  3.805e-05, max_p 1/linterm_ = 0.1, gentle_. Every other queue: DropTail, ns-2's limit_ 50
  packets (the BS buffer excepted: B = rwnd [P]). The paper names RED and no parameter, and
  ns-2's defaults make a 2 ms tail-drop queue of the backbone: the readings ``red-packets``
  (packet mode, thresholds 5 / 15 packets, ns-2's pre-2.1b9 defaults and Floyd's recommended
  ones) and ``red-bdp`` (the same thresholds with a buffer of one bandwidth-delay product, as
  the suite had it) run with ``--explore`` (``readings.py``).
* Link-layer ARQ (persistent retransmission, Figs. 5–9 except UDP-without-ARQ) is the
  ``wireless-arq`` feature; the AIMD protocol is ``qos-aimd``; cross traffic is TCP SACK
  (``tcp-sack``). Runs 80 s, statistics after 5 s [P]; 10 seeds (quick: 2 seeds, 20 s) [U].
* S4 (the "optimal" link scheme of ref. [24], §V-A, no figure in the paper): the ``optimal``
  figure sweeps rwnd × p_e with the link's ``arq = {kind = "optimal", threshold = 0.8}`` [D]
  (2 silent slots after a failure on this channel), the AIMD flow alone, B = 40; the analysis is
  eq. (1) with the scheme's T_n (``model.tn_optimal``: docs/papers/qos-aimd.md §2.8's recursion with
  a wait counter, stationary start).
* Fig. 5 (S1–S3): rwnd × p_e sweeps with B = 40 ≥ rwnd (no BS overflow, as the paper's B = rwnd);
  light traffic = 5 TCP SACK elephants all along; heavy = 60 more from 30 s to 60 s (quick: 8 s to
  15 s of 20 s), suite reading of "the backbone is the bottleneck from 30 s to 60 s" [U]. The
  analysis is eq. (1) on the suite's channel (burst 2). The quick p_e axis keeps 0.05 and 0.08 (S3).
* Fig. 6 (S5–S10): the AIMD flow with rwnd = B = W_max of the selection for p_e
  (docs/papers/qos-aimd.md §4.3 [U]: 23 at p_e = 0.01, 17 at 0.1 on the suite's channel) with 10–100
  TCP SACK elephants, every TCP setting [U] ns-2 2.35's default (window_ 20 packets, windowInit_ 2,
  minrto_ 0.2 s, rtxcur_init_ 3 s, an ACK per segment; ``ns2.tcp_keys``): 20 packets per ≈ 75 ms
  round trip is ≈ 1.3 packets per slot, so below ≈ 40 flows the elephants' windows, not the
  backbone, bound them; normalised throughput in packets per 5 ms slot for both (AIMD 125 B, TCP
  1250 B, docs/papers/qos-aimd.md §5 [D]); "BS overflow" is the BS→MH link's queue drops. Tolerances
  where the paper gives none are the suite's and are stated on each claim.
* Fig. 9's UDP CBR without ARQ: BS buffer 10 packets [P], 125 B packets [U], rates 0.5–1.1
  pkt/slot [U]; a baseline for Fig. 6: TCP NewReno elephants (1250 B [P], attached as the SACK
  elephants, 1 MB window so that the window does not bind, suite) alone on the backbone.
"""

from __future__ import annotations

from vidcc.papers import ns2
from vidcc.papers.building import droptail, flow, glink, graph, scenario
from vidcc.papers.model import Axis, ByScale

AIMD = ("qos-aimd",)  # the protocol every claim but S15, S17 and B1 runs
NEEDS = ("wireless-arq",)

SEEDS = ByScale([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
DURATION = ByScale("20s", "80s")
WARMUP = "5s"
SLOT_S = 0.005
BURST_R = 0.5
PE_AXIS = ByScale([0.01, 0.05, 0.1], [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10])
BACKBONE_LINK = 1  # index of r1–r2 in topology.links
WIRELESS_LINK = 3  # index of BS–MH
R_SLOTS, D_SLOTS = 17, 10  # the target flow's minimum RTT and the delay bound, in slots (§V)
# Every wired link is 100 Mb/s [P, §V: "links between CH, r1, r2, and BS are duplex links with 100
# Mbps"]; the TCP hosts' own links are not described: the CH's 100 Mb/s and 1 ms (suite; ns-2's
# duplex-link has no default delay), ns-2's DropTail queue (Queue limit_ 50 packets).
# The backbone's delay makes the target flow's minimum RTT the paper's 85 ms (§V): 2 × (1 + 36.18 +
# 1 + 1) ms of propagation, 5 ms for the 125 B packet and 1.6 ms for the 40 B ack at 200 kb/s, and
# 0.04 ms on the 100 Mb/s links. (With 35 ms, as before 2026-11-27, it was 82.64 ms.)
WIRED_BPS, ACCESS_DELAY_S, BACKBONE_DELAY_S = 100e6, 0.001, 0.03618
TCP_ACCESS = {"bandwidth": "100Mbps", "delay": "1ms", "queue": ns2.droptail()}


def ge(p_e: float) -> dict:
    """The Gilbert-Elliott channel of mean loss ``p_e`` and mean bad burst 1/BURST_R packets."""
    return {"kind": "gilbert-elliott", "p": round(p_e * BURST_R / (1 - p_e), 9), "r": BURST_R}


def topo(p_e: float, *, bs_buffer=10, arq: bool | dict = False) -> dict:
    """CH —r1 ═RED═ r2— BS ~wireless~ MH (Fig. 2). The cross TCP flows are not in it: each
    attaches with its own access link to r1 and to r2 (``elephants``). ``arq``: True for
    persistent link ARQ, or the ``arq`` table itself."""
    wireless = glink("BS", "MH", "200kbps", "1ms", queue=droptail(bs_buffer), loss=ge(p_e))
    if arq:
        wireless["arq"] = {"kind": "persistent"} if arq is True else arq
    return graph(
        ["CH", "r1", "r2", "BS", "MH"],
        [
            glink("CH", "r1", "100Mbps", "1ms", queue=ns2.droptail(), monitor=False),
            # RED [P, "both r1 and r2 are RED capable"] with every parameter ns-2 2.35's default [U]:
            # byte mode, limit_ 50 × mean_pktsize_ 500 = 25 000 B, automatic thresh_ 62.5 /
            # maxthresh_ 187.5 packets of 500 B (above that limit: no early drops at 100 Mb/s),
            # q_weight_ 3.805e-05, linterm_ 10, gentle_ (ns2.red).
            glink("r1", "r2", "100Mbps", f"{BACKBONE_DELAY_S * 1000:g}ms", queue=ns2.red(WIRED_BPS, BACKBONE_DELAY_S)),
            # r2's side of the BS link: only the 200 kb/s AIMD flow crosses it, so it never queues
            # and its discipline does not matter; ns-2's DropTail.
            glink("r2", "BS", "100Mbps", "1ms", queue=ns2.droptail(), monitor=False),
            wireless,
        ],
    )


def pe_axis(values: ByScale) -> Axis:
    """An axis over the channel's mean loss p_e (swept as the Gilbert chain's p, column ge_p)."""
    return Axis(f"topology.links[{WIRELESS_LINK}].loss.p",
                ByScale([ge(x)["p"] for x in values.quick], [ge(x)["p"] for x in values.full]), "ge_p")


def with_pe(df):
    """p_e (the channel's mean loss) from the swept Gilbert p."""
    df = df.copy()
    df["p_e"] = (df["ge_p"] / (df["ge_p"] + BURST_R)).round(4)
    return df


def aimd(label="aimd", **keys) -> dict:
    return flow("qos-aimd", label=label, src="CH", dst="MH", packet_size="125B", **keys)


def elephants(count, **keys) -> dict:
    """``count`` TCP SACK [P] elephants over r1–r2 [P], each from its own host behind its own
    access link into r1, to its own host behind r2; 1250 B packets [P] (read as the size on the
    wire, as the AIMD flow's 125 B that set the slot; ns-2's packetSize_ 1250 would put 1290 B
    on the wire); every TCP agent setting ns-2 2.35's default (window_ 20 packets, windowInit_ 2,
    minrto_ 0.2 s, rtxcur_init_ 3 s, an ACK per segment: ``ns2.tcp_keys``). They start at times
    drawn in [0, 1] s (suite; the paper gives none): started together, 100 sources behind 100
    access links put their first windows into the backbone's 25 000-byte buffer at once, most
    lose them, and they retry in lockstep after the 3 s initial RTO (a mean per-flow loss of
    45 % over the first 20 s at N = 100)."""
    return flow("tcp-sack", label="tcp", count=count, src="r1", dst="r2", packet_size="1250B",
                source_access=TCP_ACCESS, sink_access=TCP_ACCESS,
                **{**ns2.tcp_keys(1250), "start": ["0s", "1s"], **keys})


def pkt_per_slot(df, size_bytes: float = 125.0):
    """Throughput in packets of ``size_bytes`` per 5 ms slot (the paper's normalised throughput)."""
    df = df.copy()
    df["pkt_per_slot"] = df["throughput_bps"] * SLOT_S / (size_bytes * 8)
    return df


def rate_kbps(df):
    from vidcc import _vidcc

    df = df.copy()
    df["rate_kbps"] = [_vidcc.parse_rate(r) / 1000 for r in df["rate"]]
    return df


def windows(pe: float, rtts) -> list[int]:
    """The selection's eq. (4) windows (equal shares, eq. 7 ≤ 1 %, nearest rounding [D]) for the
    suite's channel (Gilbert, mean burst 2 slots), in the flows' order."""
    from vidcc.qos_aimd_select import select

    order = sorted(range(len(rtts)), key=lambda i: rtts[i])
    w = select(pe, [rtts[i] for i in order], 10, burst=1 / BURST_R)["windows"]
    out = [0] * len(rtts)
    for k, i in enumerate(order):
        out[i] = w[k]
    return out


# ---- Exp. A (Fig. 5) and the optimal scheme (§V-A) -------------------------------------------

# S4: the "optimal" link scheme [24] (vidcc-sim arq kind "optimal", docs/protocols/qos-aimd.md):
# after a failure the link pauses until the retry succeeds with ≥ 0.8 [D] (2 slots on this
# channel at every p_e of the axis). The AIMD flow alone (no cross traffic: the analysis'
# conditions), B = 40 ≥ rwnd, rwnd swept around the analytical W_max.
OPT_ARQ = {"kind": "optimal", "threshold": 0.8}
OPT_PE = ByScale([0.01, 0.05, 0.1], PE_AXIS.full)
OPT_RWND = ByScale(list(range(9, 25)), list(range(8, 27)))

# Exp. A (Fig. 5): rwnd × p_e with B = 40 ≥ rwnd (B ≥ W: no BS overflow, eq. 2 = eq. 1, as the
# paper's B = rwnd). The quick axis keeps p_e = 0.05 and 0.08 for S3. Light: 5 TCP SACK elephants
# all along (the wireless hop the bottleneck). Heavy [U → suite]: 60 more elephants from 30 s to
# 60 s of the 80 s run (quick: 8 s to 15 s of 20 s), the paper's "backbone the bottleneck from 30 s
# to 60 s"; the outage is measured over the whole run after the warm-up, as in Fig. 5.
FIG5_PE = ByScale([0.01, 0.05, 0.08, 0.1], PE_AXIS.full)
FIG5_RWND = ByScale(list(range(16, 25)), list(range(14, 28)))  # quick: around eq. (1)'s 23..17, 144 runs
FIG5_BUFFER = 40
HEAVY = (ByScale("8s", "30s"), ByScale("15s", "60s"))
HEAVY_SPREAD = ByScale("9s", "31s")  # the 60 start within 1 s of the heavy phase's start, as the elephants at 0 s
LIGHT_ELEPHANTS, HEAVY_ELEPHANTS = 5, 60


def optimal() -> dict:
    """The AIMD flow alone behind the optimal-scheme link (rwnd and p_e are swept)."""
    return scenario(DURATION, topo(0.05, bs_buffer=FIG5_BUFFER, arq=OPT_ARQ), [aimd(rwnd=16)], warmup=WARMUP,
                    packet_log=True)


def fig5(load: str) -> dict:
    """The AIMD flow with light (5 elephants) or heavy (60 more in the middle) cross traffic."""
    flows = [aimd(rwnd=16), elephants(LIGHT_ELEPHANTS)]
    if load == "heavy":
        flows.append(elephants(HEAVY_ELEPHANTS, start=[HEAVY[0], HEAVY_SPREAD], stop=HEAVY[1]))
    return scenario(DURATION, topo(0.05, bs_buffer=FIG5_BUFFER, arq=True), flows, warmup=WARMUP, packet_log=True)


# ---- Exp. B (Fig. 6) ---------------------------------------------------------------------------

FIG6_PE = (0.01, 0.1)
FIG6_N = ByScale([10, 50, 100], list(range(10, 101, 10)))
BACKBONE_N = ByScale([10, 50], list(range(10, 101, 10)))


def fig6(pe: float) -> dict:
    """The target flow (rwnd = B = W_max for p_e) and the elephants (their count is swept)."""
    w = windows(pe, (R_SLOTS,))[0]
    return scenario(DURATION, topo(pe, bs_buffer=w, arq=True), [aimd(rwnd=w), elephants(10)], warmup=WARMUP,
                    packet_log=True)


def backbone(n) -> dict:
    """Baseline B1: TCP NewReno alone on the backbone, from hosts attached as the elephants'. Its
    question is whether TCP shares the backbone fairly when nothing else limits it, so (unlike
    the Fig. 6 elephants, which keep ns-2's 20-packet window_) its 1 MB window does not bind."""
    return scenario(DURATION, topo(0.01), [flow("tcp-newreno", label="tcp", count=n, src="r1", dst="r2",
                                                packet_size="1250B", source_access=TCP_ACCESS,
                                                sink_access=TCP_ACCESS,
                                                **{**ns2.tcp_keys(1250), "max_window": "1MB"}, start=["0s", "1s"],
                                                send_jitter="100us")], warmup=WARMUP)


# ---- Exp. C (Figs. 7, 8) -----------------------------------------------------------------------


def multi_flows(pe: float, rtts) -> list[dict]:
    fl = []
    for i, (r, w) in enumerate(zip(rtts, windows(pe, rtts))):
        keys = {"rwnd": w}
        if r == 25:  # the second RTT class: 8 slots = 40 ms more round trip on a private access link
            keys["source_access"] = {"bandwidth": "100Mbps", "delay": "20ms", "queue": ns2.droptail()}
        fl.append(aimd(label=f"aimd{i}", **keys))
    return fl


def multi(pe: float, rtts) -> dict:
    """N AIMD flows of round trips ``rtts`` (slots) with eq. (4) windows, B = their sum."""
    return scenario(DURATION, topo(pe, bs_buffer=sum(windows(pe, rtts)), arq=True), multi_flows(pe, rtts),
                    warmup=WARMUP, packet_log=True)


# ---- Exp. D (Fig. 9) ---------------------------------------------------------------------------

UDP_RATES = ByScale(["120kbps", "160kbps", "180kbps", "200kbps"],
                    ["100kbps", "120kbps", "140kbps", "160kbps", "180kbps", "200kbps", "220kbps"])
UDP_BUFFER = 10  # §V-D: "the BS buffer size is set to 10 packets for UDP flows"
FIG9_PE = 0.1


# Fig. 9's UDP CBR packets are 125 B, not ns-2's CBR packetSize_ 210: the paper sizes the UDP BS
# buffer as 10 packets = D = 10 slots, and a slot is one 125 B packet's time on the wireless link,
# so its own numbers fix the size (docs/papers/qos-aimd.md §4.5, "presumably 125 B").
def udp(arq: bool) -> dict:
    """UDP CBR through the 10-packet BS buffer, with or without link ARQ (its rate is swept)."""
    return scenario(DURATION, topo(FIG9_PE, bs_buffer=UDP_BUFFER, arq=arq),
                    [flow("udp-cbr", label="udp", rate="160kbps", packet_size="125B", src="CH", dst="MH")],
                    warmup=WARMUP, packet_log=True)


def fig9_aimd() -> dict:
    """The AIMD reference of Fig. 9: ARQ, rwnd = B = W_max for p_e = 0.1, no cross traffic."""
    w = windows(FIG9_PE, (R_SLOTS,))[0]
    return scenario(DURATION, topo(FIG9_PE, bs_buffer=w, arq=True), [aimd(rwnd=w)], warmup=WARMUP, packet_log=True)
