"""QoS-aware AIMD for time-sensitive traffic over wired + last-hop wireless links: Cai, Shen,
Mark, Pan (c. 2005). Experiments A–D (Figs. 5–9) and claims A1–A12, S1–S18 of
``docs/papers/qos-aimd.md``.

Reconstruction notes (the QoS-AIMD paper page tags [P]/[D]/[U]; ours are marked "suite"):

* Path CH —100 Mb/s— r1 —100 Mb/s backbone (RED)— r2 —100 Mb/s— BS —wireless— MH [P]; one-way
  delays 1 / 35 / 1 / 1 ms (suite [U]: minimum RTT ≈ 85 ms = 17 slots with the 5 ms slot of a
  125 B packet at 200 kb/s and the 40 B acks). The cross TCP runs "over r1–r2" [P]: each TCP
  source on its own host with its own access link into r1, each sink behind its own link out of
  r2 (100 Mb/s as every wired link [P], 1 ms as the CH's, suite), so the backbone is the only
  link the flows share.
* Wireless downlink 200 kb/s [P]; the simulator's links are symmetric, so the uplink is also
  200 kb/s (suite; the paper's is 100 kb/s, which only acks use). Two-state channel [P]:
  Gilbert-Elliott with loss 1 in the bad state and 0 in the good one, mean bad burst 2 packets
  (r = 0.5, "mildly bursty", docs/papers/qos-aimd.md §2.7), p = p_e·r/(1 − p_e) so that the mean
  loss is p_e; the chain advances per packet, not per slot (suite).
* RED on the backbone [P] with every parameter [U] ns-2 2.35's default (``papers/ns2.py``): byte
  mode, hard limit limit_ 50 × mean_pktsize_ 500 = 25 000 bytes, automatic thresh_ / maxthresh_
  62.5 / 187.5 packets of 500 B (above the hard limit at 100 Mb/s: no early drops), q_weight_
  3.805e-05, max_p 1/linterm_ = 0.1, gentle_. Every other queue: DropTail, ns-2's limit_ 50
  packets (the BS buffer excepted: B = rwnd [P]).
* Link-layer ARQ (persistent retransmission, Figs. 5–9 except UDP-without-ARQ) is the
  ``wireless-arq`` feature; the AIMD protocol is ``qos-aimd``; cross traffic is TCP SACK
  (``tcp-sack``). Runs 80 s, statistics after 5 s [P]; 5 seeds [U].
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

import math
import weakref

from vidcc.papers import ns2
from vidcc.papers.building import droptail, flow, glink, graph, scenario
from vidcc.papers.measures import warmup_ns
from vidcc.papers.model import (
    FAIL,
    NOT_YET,
    PASS,
    Alternative,
    Axis,
    ByScale,
    Claim,
    Figure,
    Part,
    Plot,
    Suite,
    Verdict,
    reconstruction_notes,
    with_alternatives_named,
)
from vidcc.papers.qos_aimd import model
from vidcc.papers.qos_aimd.analytic import ANALYTIC_CHECKS, WIRELESS_BPS
from vidcc.papers.verdicts import all_of, within

SEEDS = ByScale([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
DURATION = ByScale("20s", "80s")
SLOT_S = 0.005
BURST_R = 0.5
PE_AXIS = ByScale([0.01, 0.05, 0.1], [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10])
BACKBONE_LINK = 1  # index of r1–r2 in topology.links
WIRELESS_LINK = 3  # index of BS–MH
# Every wired link is 100 Mb/s [P, §V: "links between CH, r1, r2, and BS are duplex links with 100
# Mbps"]; the TCP hosts' own links are not described: the CH's 100 Mb/s and 1 ms (suite; ns-2's
# duplex-link has no default delay), ns-2's DropTail queue (Queue limit_ 50 packets).
WIRED_BPS, ACCESS_DELAY_S, BACKBONE_DELAY_S = 100e6, 0.001, 0.035
TCP_ACCESS = {"bandwidth": "100Mbps", "delay": "1ms", "queue": ns2.droptail()}


def ge(p_e: float) -> dict:
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
            glink("r1", "r2", "100Mbps", "35ms", queue=ns2.red(WIRED_BPS, BACKBONE_DELAY_S)),
            # r2's side of the BS link: only the 200 kb/s AIMD flow crosses it, so it never queues
            # and its discipline does not matter; ns-2's DropTail.
            glink("r2", "BS", "100Mbps", "1ms", queue=ns2.droptail(), monitor=False),
            wireless,
        ],
    )


def pe_axis() -> Axis:
    return Axis(f"topology.links[{WIRELESS_LINK}].loss.p", ByScale([ge(x)["p"] for x in PE_AXIS.quick], [ge(x)["p"] for x in PE_AXIS.full]), "ge_p")


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
    on the wire); every TCP agent setting
    ns-2 2.35's default (window_ 20 packets, windowInit_ 2, minrto_ 0.2 s, rtxcur_init_ 3 s, an
    ACK per segment: ``ns2.tcp_keys``). They start at times drawn in [0, 1] s (suite; the paper
    gives none): started together, 100 sources behind 100 access links put their first windows
    into the backbone's 25 000-byte buffer at once, most lose them, and they retry in lockstep
    after the 3 s initial RTO (a mean per-flow loss of 45 % over the first 20 s at N = 100)."""
    return flow("tcp-sack", label="tcp", count=count, src="r1", dst="r2", packet_size="1250B", source_access=TCP_ACCESS,
                sink_access=TCP_ACCESS, **{**ns2.tcp_keys(1250), "start": ["0s", "1s"], **keys})


def pkt_per_slot(df, size_bytes: float = 125.0):
    df = df.copy()
    df["pkt_per_slot"] = df["throughput_bps"] * SLOT_S / (size_bytes * 8)
    return df


def rate_kbps(df):
    from vidcc import _vidcc

    df = df.copy()
    df["rate_kbps"] = [_vidcc.parse_rate(r) / 1000 for r in df["rate"]]
    return df


UDP_RATES = ByScale(["120kbps", "160kbps", "180kbps", "200kbps"], ["100kbps", "120kbps", "140kbps", "160kbps", "180kbps", "200kbps", "220kbps"])


# Fig. 9's UDP CBR packets are 125 B, not ns-2's CBR packetSize_ 210: the paper sizes the UDP BS
# buffer as 10 packets = D = 10 slots, and a slot is one 125 B packet's time on the wireless link,
# so its own numbers fix the size (docs/papers/qos-aimd.md §4.5, "presumably 125 B").
def udp_noarq() -> dict:
    return scenario(DURATION, topo(0.1), [flow("udp-cbr", label="udp", rate="160kbps", packet_size="125B", src="CH", dst="MH")],
                    warmup="5s", packet_log=True)


def backbone(n) -> dict:
    """Baseline B1: TCP NewReno alone on the backbone, from hosts attached as the elephants'. Its
    question is whether TCP shares the backbone fairly when nothing else limits it, so (unlike
    the Fig. 6 elephants, which keep ns-2's 20-packet window_) its 1 MB window does not bind."""
    return scenario(DURATION, topo(0.01), [flow("tcp-newreno", label="tcp", count=n, src="r1", dst="r2", packet_size="1250B",
                                                source_access=TCP_ACCESS, sink_access=TCP_ACCESS,
                                                **{**ns2.tcp_keys(1250), "max_window": "1MB"}, start=["0s", "1s"],
                                                send_jitter="100us")], warmup="5s")


def windows(pe: float, rtts) -> list[int]:
    """The selection's eq. (4) windows (equal shares, eq. 7 ≤ 1 %, nearest rounding [D]) for the suite's
    channel (Gilbert, mean burst 2 slots), in the flows' order."""
    from vidcc.qos_aimd_select import select

    order = sorted(range(len(rtts)), key=lambda i: rtts[i])
    w = select(pe, [rtts[i] for i in order], 10, burst=1 / BURST_R)["windows"]
    out = [0] * len(rtts)
    for k, i in enumerate(order):
        out[i] = w[k]
    return out


# S4: the "optimal" link scheme [24] (vidcc-sim arq kind "optimal", docs/protocols/qos-aimd.md):
# after a failure the link pauses until the retry succeeds with ≥ 0.8 [D] (2 slots on this
# channel at every p_e of the axis). The AIMD flow alone (no cross traffic: the analysis'
# conditions), B = 40 ≥ rwnd, rwnd swept around the analytical W_max.
OPT_ARQ = {"kind": "optimal", "threshold": 0.8}
OPT_PE = ByScale([0.01, 0.05, 0.1], PE_AXIS.full)
OPT_RWND = ByScale(list(range(9, 25)), list(range(8, 27)))
R_SLOTS, D_SLOTS = 17, 10


def optimal_parts() -> list:
    pe = Axis(f"topology.links[{WIRELESS_LINK}].loss.p", ByScale([ge(x)["p"] for x in OPT_PE.quick], [ge(x)["p"] for x in OPT_PE.full]), "ge_p")
    return [Part("optimal", scenario(DURATION, topo(0.05, bs_buffer=40, arq=OPT_ARQ), [aimd(rwnd=16)], warmup="5s", packet_log=True),
                 axes=[pe, Axis("flows[0].rwnd", OPT_RWND, "rwnd")], seeds=SEEDS, needs=("wireless-arq",),
                 note="rwnd × p_e sweep under the optimal link scheme")]


# Exp. A (Fig. 5): rwnd × p_e with B = 40 ≥ rwnd (B ≥ W: no BS overflow, eq. 2 = eq. 1, as the
# paper's B = rwnd). The quick axis keeps p_e = 0.05 and 0.08 for S3. Light: 5 TCP SACK elephants
# all along (the wireless hop the bottleneck). Heavy [U → suite]: 60 more elephants from 30 s to
# 60 s of the 80 s run (quick: 8 s to 15 s of 20 s), the paper's "backbone the bottleneck from 30 s
# to 60 s"; the outage is measured over the whole run after the warm-up, as in Fig. 5.
FIG5_PE = ByScale([0.01, 0.05, 0.08, 0.1], PE_AXIS.full)
FIG5_RWND = ByScale(list(range(16, 25)), list(range(14, 28)))  # quick: around eq. (1)'s 23..17, 144 runs
HEAVY = (ByScale("8s", "30s"), ByScale("15s", "60s"))
HEAVY_SPREAD = ByScale("9s", "31s")  # the 60 start within 1 s of the heavy phase's start, as the elephants at 0 s


def fig5_parts() -> list:
    pe = Axis(f"topology.links[{WIRELESS_LINK}].loss.p", ByScale([ge(x)["p"] for x in FIG5_PE.quick], [ge(x)["p"] for x in FIG5_PE.full]), "ge_p")
    parts = []
    for load in ("light", "heavy"):
        flows = [aimd(rwnd=16), elephants(5)]
        if load == "heavy":
            flows.append(elephants(60, start=[HEAVY[0], HEAVY_SPREAD], stop=HEAVY[1]))
        parts.append(Part(f"aimd-{load}", scenario(DURATION, topo(0.05, bs_buffer=40, arq=True), flows, warmup="5s", packet_log=True),
                          axes=[pe, Axis("flows[0].rwnd", FIG5_RWND, "rwnd")], seeds=SEEDS, needs=("wireless-arq",),
                          tags={"cross": load}, note="rwnd × p_e sweep"))
    return parts


def multi_flows(pe: float, rtts) -> list[dict]:
    fl = []
    for i, (r, w) in enumerate(zip(rtts, windows(pe, rtts))):
        keys = {"rwnd": w}
        if r == 25:  # the second RTT class: 8 slots = 40 ms more round trip on a private access link
            keys["source_access"] = {"bandwidth": "100Mbps", "delay": "20ms", "queue": ns2.droptail()}
        fl.append(aimd(label=f"aimd{i}", **keys))
    return fl


def multi_parts(configs) -> list:
    parts = []
    for rtts in configs:
        name = "-".join(map(str, rtts))
        for pe in PE_AXIS.full:
            w = windows(pe, rtts)
            parts.append(Part(f"aimd-{name}-pe{pe}", scenario(DURATION, topo(pe, bs_buffer=sum(w), arq=True), multi_flows(pe, rtts),
                                                                warmup="5s", packet_log=True),
                              seeds=SEEDS, needs=("wireless-arq",), tags={"rtts": name, "p_e": pe},
                              note=f"rwnd = {w}, B = {sum(w)}"))
    return parts


FIGURES = [
    Figure("fig5", "Largest rwnd meeting the 1 % delay-outage target against p_e (Exp. A)", "Fig. 5a,b",
           "The AIMD flow on the wireless hop (with ARQ) under light (a: 5 TCP SACK elephants) or heavy (b: 60 more "
           "elephants during the middle of the run, the backbone the bottleneck) cross traffic; for each p_e the largest "
           "rwnd whose measured outage stays below 1 %, against the analytical W_max (eq. 1, the suite's Gilbert channel).",
           parts=fig5_parts()),
    Figure("optimal", "Largest rwnd meeting the 1 % delay-outage target under the 'optimal' link scheme (§V-A, not shown)",
           "§V-A text",
           "The AIMD flow alone on the wireless hop whose ARQ pauses after a failed attempt (Zhang & Wasserman [24]; 2 silent "
           "slots here) instead of retrying at once: for each p_e the outage rate (delay jitter > 50 ms) against rwnd, and the "
           "largest rwnd below 1 % against eq. (1)'s W_max with the scheme's T_n.",
           parts=optimal_parts()),
    Figure("fig6", "Utilisation and TCP-friendliness against the number of backbone flows (Exp. B)", "Fig. 6a,b",
           "The target AIMD flow (rwnd = W_max) with 0–100 TCP SACK elephants on the backbone, p_e = 0.01 (a) and 0.1 (b): "
           "its normalised throughput and the average over all backbone flows. Baseline part backbone: TCP NewReno "
           "elephants alone (1250 B, packets per 5 ms slot; expected ≈ 50/N).",
           parts=[*[Part(f"aimd-pe{pe}", scenario(DURATION, topo(pe, bs_buffer=windows(pe, (17,))[0], arq=True),
                                                  [aimd(rwnd=windows(pe, (17,))[0]), elephants(10)], warmup="5s",
                                                  packet_log=True),
                         axes=[Axis("flows[1].count", ByScale([10, 50, 100], list(range(0, 101, 10))[1:]), "n")], seeds=SEEDS,
                         needs=("wireless-arq",), tags={"p_e": pe}) for pe in (0.01, 0.1)],
                  Part("backbone", backbone(10), axes=[Axis("flows[0].count", ByScale([10, 50], list(range(10, 101, 10))), "n")],
                       seeds=SEEDS, kind="baseline", note="TCP NewReno in place of TCP SACK, without the AIMD flow")],
           plots=[Plot("backbone", "Backbone TCP flows: mean throughput per 5 ms slot", "pkt_per_slot", axis="n", parts=["backbone"],
                       where={"label": "tcp"}, prepare=lambda df: pkt_per_slot(df, 1250.0), xlabel="backbone flows N",
                       ylabel="packets (1250 B) per slot"),
                  Plot("backbone-nt", "Backbone TCP flows: throughput / (100 Mb/s / N)", "normalized_throughput", axis="n",
                       parts=["backbone"], where={"label": "tcp"}, xlabel="backbone flows N", ylabel="normalized throughput",
                       hlines=[(1.0, "fair share")])]),
    Figure("fig7", "Two AIMD flows on one wireless link (Exp. C)", "Fig. 7a,b",
           "N = 2 AIMD flows with equal-share windows (eq. 4) from the selection (Gilbert channel, mean burst 2): R = (17, 17) "
           "slots (a) or (17, 25) (b); B = S; per-flow normalised throughput and outage against p_e.",
           parts=multi_parts(((17, 17), (17, 25)))),
    Figure("fig8", "Four AIMD flows on one wireless link (Exp. C)", "Fig. 8a,b",
           "N = 4 AIMD flows with eq. (4) windows, all R = 17 (a) or R = (17, 25, 17, 25) (b); B = S.",
           parts=multi_parts(((17, 17, 17, 17), (17, 25, 17, 25)))),
    Figure("fig9", "AIMD against UDP CBR with and without ARQ (Exp. D, p_e = 0.1)", "Fig. 9",
           "UDP CBR at fixed rates through a 10-packet BS buffer, with and without link ARQ, against the AIMD flow (ARQ, "
           "B = rwnd): normalised goodput, packet loss rate and delay-outage rate (delay jitter > 50 ms).",
           parts=[Part("udp-noarq", udp_noarq(), axes=[Axis("flows[0].rate", UDP_RATES, "rate")], seeds=SEEDS),
                  Part("udp-arq", scenario(DURATION, topo(0.1, arq=True), [flow("udp-cbr", label="udp", rate="160kbps", packet_size="125B",
                                                                                src="CH", dst="MH")], warmup="5s", packet_log=True),
                       axes=[Axis("flows[0].rate", UDP_RATES, "rate")], seeds=SEEDS, needs=("wireless-arq",)),
                  Part("aimd", scenario(DURATION, topo(0.1, bs_buffer=windows(0.1, (17,))[0], arq=True), [aimd(rwnd=windows(0.1, (17,))[0])],
                                       warmup="5s", packet_log=True),
                       seeds=SEEDS, needs=("wireless-arq",))],
           plots=[Plot("loss-udp", "UDP without ARQ: packet loss rate", "drop_rate", axis="rate_kbps", parts=["udp-noarq"],
                       prepare=rate_kbps, xlabel="CBR rate (kb/s)", ylabel="loss rate", hlines=[(0.1, "p_e")]),
                  Plot("goodput-udp", "UDP without ARQ: packets per slot", "pkt_per_slot", axis="rate_kbps", parts=["udp-noarq"],
                       prepare=lambda df: pkt_per_slot(rate_kbps(df)), xlabel="CBR rate (kb/s)", ylabel="packets per 5 ms slot")]),
]


# ---- checks ---------------------------------------------------------------------------------


def outage(d, part: str, label: str = "udp", bound_ms: float = 50.0):
    """Per run: share of received packets whose delay exceeds the flow's minimum by more than
    ``bound_ms`` (delay jitter > D = 50 ms), after the warm-up; with the run's axis columns."""
    import pandas as pd

    rows = []
    flows = d.flows(part, {"label": label})
    for r in d.runs(part).to_dict("records"):
        warm = warmup_ns(r)
        pk = d.series(r["run_id"], "packets")
        ids = set(flows[flows["run_id"] == r["run_id"]]["flow"])
        pk = pk[pk["flow"].isin(ids) & (pk["sent_ns"] >= warm) & (pk["fate"] == "delivered")]
        pk = pk.assign(delay=pk["arrival_ns"] - pk["sent_ns"])
        jitter = pk["delay"] - pk.groupby("flow")["delay"].transform("min")
        late = jitter > bound_ms * 1e6
        frac = float(late.mean()) if len(pk) else math.nan
        rows.append({"run_id": r["run_id"], "seed": r["seed"], "rate": r.get("rate"), "outage": frac})
        for fid, lf in late.groupby(pk["flow"]):
            rows[-1][f"outage_flow{fid}"] = float(lf.mean())
    return pd.DataFrame(rows)


def s15(d):
    from vidcc import _vidcc
    from vidcc.analysis import summarize

    f = d.flows("udp-noarq", {"label": "udp"})[["run_id", "seed", "rate", "drop_rate"]]
    o = outage(d, "udp-noarq")
    m = f.merge(o[["run_id", "outage"]], on="run_id")
    m["loss_plus_outage"] = m["drop_rate"] + m["outage"]
    m = m[[_vidcc.parse_rate(r) < WIRELESS_BPS for r in m["rate"]]]
    s = summarize(m, "loss_plus_outage", by="rate", group=None)
    v = within(s, 0.08, 0.12, name="loss + outage (UDP, no ARQ)")
    v.measured.update({f"outage[rate={r}]": float(x) for r, x in summarize(m, "outage", by="rate", group=None)[["rate", "mean"]].values})
    return v


_STATS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # FigureData → {(part, label): stats}


def optimal_stats(d, part: str = "optimal", label: str | None = None):
    """Per (p_e, rwnd) of a rwnd × p_e sweep (the optimal-scheme one by default): the AIMD
    flow's outage (delay jitter > 50 ms), mean over seeds. Cached per figure's results: S1–S3 and
    their causes read the same packet logs."""
    cache = _STATS.setdefault(d, {})
    if (part, label) not in cache:
        cache[(part, label)] = _optimal_stats(d, part, label)
    return cache[(part, label)]


def _optimal_stats(d, part: str, label: str | None):
    import pandas as pd

    rows = []
    flows = d.flows(part, {"label": label} if label else None)
    for r in d.runs(part).to_dict("records"):
        f = flows[flows["run_id"] == r["run_id"]]
        out, _ = run_outage(d, r["run_id"], warmup_ns(r), set(f["flow"]))
        rows.append({"ge_p": r["ge_p"], "rwnd": int(r["rwnd"]), "seed": r["seed"], "outage": out})
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    return with_pe(df).groupby(["p_e", "rwnd"], as_index=False)["outage"].mean()


def s4(d):
    m = optimal_stats(d)
    if m.empty:
        return Verdict(NOT_YET, {}, "no runs of the optimal-scheme sweep")
    burst = 1 / BURST_R
    measured, bad = {}, []
    # The scheme's T_n reduces to the persistent one without a pause (a check of the recursion).
    same = all(model.w_max_optimal(R_SLOTS, D_SLOTS, pe, burst, 0) == model.w_max(R_SLOTS, D_SLOTS, pe, burst=burst)
               for pe in sorted(set(m["p_e"])))
    measured["T_n(optimal, pause 0) gives the persistent W_max"] = same
    lo, hi = min(m["rwnd"]), max(m["rwnd"])
    for pe, g in m.groupby("p_e"):
        pause = model.optimal_pause(pe, burst, OPT_ARQ["threshold"])
        ana = model.w_max_optimal(R_SLOTS, D_SLOTS, pe, burst, pause)
        ok = g[g["outage"] <= 0.01]["rwnd"]
        sim = int(ok.max()) if len(ok) else lo - 1
        edge = " (sweep edge)" if sim in (lo - 1, hi) else ""
        measured[f"p_e={pe:g}: pause, analytical W_max, simulated"] = f"{pause}, {ana}, {sim}{edge}"
        measured[f"p_e={pe:g}: outage at rwnd {ana - 1}..{ana + 2}"] = ", ".join(
            f"{100 * v:.2f} %" for v in g[g["rwnd"].between(ana - 1, ana + 2)].sort_values("rwnd")["outage"])
        if abs(sim - ana) > 1 or edge:
            bad.append(f"p_e = {pe:g}: simulated {sim}{edge} vs analytical {ana}")
    if not same:
        bad.append("the optimal-scheme T_n without a pause differs from the persistent one")
    what = "largest rwnd with outage ≤ 1 % under the optimal scheme vs eq. (1) with its T_n, |sim − ana| ≤ 1 (S1's tolerance)"
    if bad:
        return Verdict(FAIL, measured, f"{what}: " + "; ".join(bad))
    return Verdict(PASS, measured, f"{what}: holds at every p_e ({len(set(m['p_e']))}; mean over seeds)")


def largest_rwnd(m, lo: int, hi: int) -> dict[float, tuple[int, bool]]:
    """p_e → (largest swept rwnd whose mean outage is ≤ 1 %, whether that is a sweep edge)."""
    out = {}
    for pe, g in m.groupby("p_e"):
        ok = g[g["outage"] <= 0.01]["rwnd"]
        sim = int(ok.max()) if len(ok) else lo - 1
        out[float(pe)] = (sim, sim in (lo - 1, hi))
    return out


def fig5_wmax(d, part: str):
    """(p_e → (simulated W_max, at a sweep edge), measured dict) for a Fig. 5 part; the analysis
    is eq. (1) on the suite's channel (Gilbert, mean bad burst 2 slots)."""
    m = optimal_stats(d, part, "aimd")
    if m.empty:
        return {}, {}
    sim = largest_rwnd(m, int(m["rwnd"].min()), int(m["rwnd"].max()))
    measured = {}
    for pe, (w, edge) in sim.items():
        ana = model.w_max(R_SLOTS, D_SLOTS, pe, burst=1 / BURST_R)
        measured[f"p_e={pe:g}: analytical W_max, simulated"] = f"{ana}, {w}{' (sweep edge)' if edge else ''}"
        g = m[m["p_e"] == pe].sort_values("rwnd")
        measured[f"p_e={pe:g}: outage at rwnd {ana - 1}..{ana + 2}"] = ", ".join(
            f"{100 * v:.2f} %" for v in g[g["rwnd"].between(ana - 1, ana + 2)]["outage"])
    return sim, measured


def s1(d):
    sim, measured = fig5_wmax(d, "aimd-light")
    if not sim:
        return Verdict(NOT_YET, {}, "no runs of the light-traffic sweep")
    bad = []
    for pe, (w, edge) in sim.items():
        ana = model.w_max(R_SLOTS, D_SLOTS, pe, burst=1 / BURST_R)
        if abs(w - ana) > 1 or edge:
            bad.append(f"p_e = {pe:g}: simulated {w}{' (sweep edge)' if edge else ''} vs analytical {ana}")
    what = "light cross traffic: largest rwnd with outage ≤ 1 % vs eq. (1)'s W_max, |sim − ana| ≤ 1"
    if bad:
        return Verdict(FAIL, measured, f"{what}: " + "; ".join(bad))
    return Verdict(PASS, measured, f"{what}: holds at every p_e ({len(sim)}; mean over seeds)")


def s2(d):
    """Fig. 5b: "the analytical results are slightly more conservative with heavy cross traffic
    since, when the bottleneck is the backbone link, cwnd and W are less than rwnd, and smaller
    window size corresponds to lower delay outage rate". Tested as worded: the heavy sweep's
    largest rwnd is not below the light sweep's (the stated mechanism), and the analysis is at
    most one window above it. One window is the grid both sides are read on: W_max is the largest
    integer W whose outage is ≤ 1 % (eq. 1), the simulated one the largest integer rwnd swept, so
    two outage curves crossing 1 % within one window of each other round to values one apart —
    the tolerance S1 gives "match well"."""
    sim, measured = fig5_wmax(d, "aimd-heavy")
    light, _ = fig5_wmax(d, "aimd-light")
    if not sim or not light:
        return Verdict(NOT_YET, {}, "no runs of the light- and heavy-traffic sweeps")
    bad = []
    for pe, (w, _) in sorted(sim.items()):
        ana = model.w_max(R_SLOTS, D_SLOTS, pe, burst=1 / BURST_R)
        lw = light.get(pe, (None,))[0]
        measured[f"p_e={pe:g}: simulated W_max light, heavy"] = f"{lw}, {w}"
        if lw is not None and w < lw:
            bad.append(f"p_e = {pe:g}: heavy {w} < light {lw}")
        if ana > w + 1:
            bad.append(f"p_e = {pe:g}: analytical {ana} > heavy {w} + 1")
    what = "heavy cross traffic: simulated largest rwnd with outage ≤ 1 % ≥ the light sweep's, and analytical W_max ≤ it + 1"
    if bad:
        return Verdict(FAIL, measured, f"{what}: " + "; ".join(bad))
    return Verdict(PASS, measured, f"{what}: holds at every p_e ({len(sim)}; mean over seeds)")


S3_PE = tuple(round(0.01 * k, 2) for k in range(1, 11))  # Fig. 5's p_e from 1 % to 10 % [P §V-A]


def s3(d):
    """§V-A: "the optimal rwnd size changes slowly w.r.t. p_e. For instance, when p_e is changed
    from 5 % to 8 %, the optimal rwnd changes only one". The optimal rwnd is W_max (§IV: the
    largest window meeting the outage bound, eq. 1), so the claim is tested on the analysis on
    the suite's channel over Fig. 5's p_e range; the simulated largest rwnd of the light sweep is
    reported beside it (S1 compares the two)."""
    w = [model.w_max(R_SLOTS, D_SLOTS, pe, burst=1 / BURST_R) for pe in S3_PE]
    measured = {"analytical W_max by p_e": ", ".join(f"{pe:g}: {x}" for pe, x in zip(S3_PE, w))}
    sim, _ = fig5_wmax(d, "aimd-light") if d is not None else ({}, {})
    if sim:
        measured["simulated W_max by p_e (light sweep, reported)"] = ", ".join(f"{pe:g}: {x}" for pe, (x, _) in sorted(sim.items()))
    bad = [f"W_max rises from {a} to {b} between p_e = {p:g} and {q:g}" for p, q, a, b in zip(S3_PE, S3_PE[1:], w, w[1:]) if b > a]
    step = w[S3_PE.index(0.05)] - w[S3_PE.index(0.08)]
    measured["W_max(5 %) − W_max(8 %)"] = step
    if step != 1:
        bad.append(f"W_max changes by {step} from p_e = 5 % to 8 % (paper: only one)")
    what = "analytical W_max (the optimal rwnd) never increases with p_e and changes by one from p_e = 5 % to 8 %"
    return Verdict(FAIL if bad else PASS, measured, f"{what}: " + ("; ".join(bad) if bad else "holds"))


def fig6_stats(d):
    """Cached per figure's results (the checks and their causes read the same packet logs): see :func:`_fig6_stats`."""
    cache = _STATS.setdefault(d, {})
    if ("fig6", None) not in cache:
        cache[("fig6", None)] = _fig6_stats(d)
    return cache[("fig6", None)]


def _fig6_stats(d):
    """Per Fig. 6 run (parts aimd-pe0.01, aimd-pe0.1): the AIMD flow's packets per slot, loss and
    outage; the mean over all backbone flows (TCP in 1250 B packets, AIMD in 125 B packets, each
    per 5 ms slot, docs/papers/qos-aimd.md §5 [D]); BS overflow drops; then the mean over seeds per (p_e, n)."""
    import pandas as pd

    rows = []
    parts = ["aimd-pe0.01", "aimd-pe0.1"]
    flows = d.flows(parts)
    for r in d.runs(parts).to_dict("records"):
        f = flows[flows["run_id"] == r["run_id"]]
        a, t = f[f["label"] == "aimd"], f[f["label"] == "tcp"]
        if a.empty:
            continue
        out, _ = run_outage(d, r["run_id"], warmup_ns(r), set(a["flow"]))
        slots = list(pkt_per_slot(a)["pkt_per_slot"]) + list(pkt_per_slot(t, 1250.0)["pkt_per_slot"])
        links = d.series(r["run_id"], "links")
        bs = links[links["name"] == "BS->MH"]["dropped_queue"]
        rows.append({"p_e": r["p_e"], "n": r["n"], "seed": r["seed"], "aimd": slots[0], "mean_all": sum(slots) / len(slots),
                     "loss": float(a["drop_rate"].iloc[0]), "outage": out, "bs_overflow": float(bs.sum()) if len(bs) else math.nan})
    df = pd.DataFrame(rows)
    return df.groupby(["p_e", "n"], as_index=False).mean(numeric_only=True) if not df.empty else df


def _fig6_verdict(d, what: str, judge) -> Verdict:
    """``judge(row) -> (measured name, value, problem or None)`` per (p_e, n) cell."""
    m = fig6_stats(d)
    if m.empty:
        return Verdict(NOT_YET, {}, "no runs")
    measured, bad = {}, []
    for r in m.sort_values(["p_e", "n"]).to_dict("records"):
        for name, value, problem in judge(r):
            measured[f"{name}[p_e={r['p_e']:g},N={int(r['n'])}]"] = value
            if problem:
                bad.append(f"p_e = {r['p_e']:g}, N = {int(r['n'])}: {problem}")
    measured["cells"], measured["cells failing"] = len(m), len(bad)
    if bad:
        return Verdict(FAIL, measured, f"{what}: {len(bad)} violations, e.g. " + "; ".join(bad[:3]))
    return Verdict(PASS, measured, f"{what}: holds in all {len(m)} cells (mean over seeds)")


def s6(d):
    # Suite tolerance: "≈ the average" read as AIMD ≤ 1.1 × the mean over all backbone flows (not above it, with
    # 10 % for noise) and ≥ 0.5 × it, at every N > 50.
    def judge(r):
        if r["n"] <= 50:
            return []
        ratio = r["aimd"] / r["mean_all"]
        return [("AIMD / mean of all backbone flows", round(ratio, 3),
                 None if 0.5 <= ratio <= 1.1 else f"AIMD {r['aimd']:.3f} vs mean {r['mean_all']:.3f} pkt/slot (ratio {ratio:.2f})")]
    return _fig6_verdict(d, "N > 50: AIMD pkt/slot within [0.5, 1.1] × the mean of all backbone flows", judge)


def s7(d):
    """§V-B: "When the number of coexisting flows is less than 50, the average normalized
    throughput in the backbone link is larger than 1 ... larger than 50, the bottleneck is the
    backbone link": > 1 below 50 flows, < 1 above; 50/(N + 0.1) (the link's share per flow) is
    reported, not judged — the paper states no such band."""
    def judge(r):
        n, v = r["n"], r["mean_all"]
        side = (v > 1) if n < 50 else (v < 1) if n > 50 else True
        return [("mean pkt/slot (50/(N + 0.1), reported)", f"{v:.3f} ({50 / (n + 0.1):.3f})",
                 None if side else f"mean {v:.3f} pkt/slot on the wrong side of 1")]
    return _fig6_verdict(d, "mean normalised throughput of the backbone flows > 1 below 50 flows, < 1 above", judge)


def s8(d):
    return _fig6_verdict(d, "AIMD delay outage < 1 % in every Fig. 6 case", lambda r: [
        ("outage", round(r["outage"], 5), None if r["outage"] < 0.01 else f"outage {100 * r['outage']:.2f} %")])


def s9(d):
    # Suite tolerance: "negligible" = < 0.5 % below 50 flows; "2.8 % at 100 flows" = within [1.4 %, 5.6 %] (a factor
    # of 2: RED's parameters and the cross flows' RTTs are [U]); no BS overflow anywhere.
    def judge(r):
        rows = [("BS overflow drops", r["bs_overflow"], None if r["bs_overflow"] == 0 else f"{r['bs_overflow']:g} BS overflow drops")]
        loss = r["loss"]
        if r["n"] < 50:
            rows.append(("AIMD loss", round(loss, 5), None if loss < 0.005 else f"loss {100 * loss:.2f} % (not negligible)"))
        elif r["n"] >= 100:
            rows.append(("AIMD loss", round(loss, 5), None if 0.014 <= loss <= 0.056 else f"loss {100 * loss:.2f} % vs 2.8 %"))
        else:
            rows.append(("AIMD loss", round(loss, 5), None))
        return rows
    return _fig6_verdict(d, "AIMD loss < 0.5 % below 50 flows, 2.8 % (× 2) at 100, no BS overflow", judge)


def s10(d):
    def judge(r):
        if r["n"] <= 50:
            return []
        cap = 1 - r["p_e"]
        return [("AIMD pkt/slot (1 − p_e)", f"{r['aimd']:.3f} ({cap:.2f})",
                 None if r["aimd"] < 0.97 * cap else f"AIMD {r['aimd']:.3f} pkt/slot, not below 1 − p_e = {cap:.2f} (3 % margin)")]
    return _fig6_verdict(d, "N > 50 (backbone the bottleneck): AIMD pkt/slot < 0.97 × (1 − p_e)", judge)


def s2_cause(d, measured) -> str:
    """Why the heavy sweep's W_max is not above the analysis: the heavy phase barely touches the AIMD flow."""
    import pandas as pd

    light, _ = fig5_wmax(d, "aimd-light")
    heavy, _ = fig5_wmax(d, "aimd-heavy")
    f = d.flows(["aimd-light", "aimd-heavy"], {"label": "aimd"})
    loss = f.groupby("part")["drop_rate"].mean() if not f.empty else pd.Series(dtype=float)
    tcp = d.flows("aimd-heavy", {"label": "tcp"})
    cells = ", ".join(f"p_e {pe:g}: {light.get(pe, (None,))[0]} / {heavy[pe][0]}" for pe in sorted(heavy))
    ana = {pe: model.w_max(R_SLOTS, D_SLOTS, pe, burst=1 / BURST_R) for pe in sorted(heavy)}
    measured["AIMD loss (light, heavy)"] = f"{loss.get('aimd-light', math.nan):.4f}, {loss.get('aimd-heavy', math.nan):.4f}"
    measured["TCP loss (heavy)"] = round(float(tcp["drop_rate"].mean()), 5) if not tcp.empty else math.nan
    measured["W_max light / heavy / analytical by p_e"] = ", ".join(
        f"{pe:g}: {light.get(pe, (None,))[0]} / {heavy[pe][0]} / {ana[pe]}" for pe in sorted(heavy))
    return (f"simulated W_max light / heavy {cells} against the analysis' "
            + ", ".join(f"{ana[pe]}" for pe in sorted(heavy))
            + f"; the AIMD flow loses {100 * loss.get('aimd-heavy', math.nan):.2f} % of its packets in the heavy sweep (light "
            f"{100 * loss.get('aimd-light', math.nan):.2f} %; TCP {100 * tcp['drop_rate'].mean():.2f} %)")


def fig6_cause(d, measured) -> str:
    """Fig. 6 as measured: what binds the elephants at the fewest flows, how the backbone's loss
    splits between TCP and the AIMD flow at the most, and per (p_e, N) the AIMD flow's and TCP's
    loss and throughput."""
    m = fig6_stats(d)
    if m.empty:
        return "no results"
    f = d.flows(["aimd-pe0.01", "aimd-pe0.1"], {"label": "tcp"})
    tcp_loss = f.groupby("n")["drop_rate"].mean() if not f.empty else {}
    rows = m.sort_values(["p_e", "n"]).to_dict("records")
    for r in rows:
        cell = f"p_e={r['p_e']:g},N={int(r['n'])}"
        measured.update({f"AIMD pkt/slot[{cell}]": round(r["aimd"], 4), f"AIMD loss[{cell}]": round(r["loss"], 5),
                         f"TCP loss[{cell}]": round(float(tcp_loss.get(r["n"], math.nan)), 5),
                         f"backbone mean pkt/slot[{cell}]": round(r["mean_all"], 4)})
    cells = "; ".join(f"p_e {r['p_e']:g}, N {int(r['n'])}: AIMD {r['aimd']:.2f} pkt/slot, loss {100 * r['loss']:.2f} % "
                      f"(TCP {100 * tcp_loss.get(r['n'], math.nan):.2f} %), backbone mean {r['mean_all']:.2f}" for r in rows)
    small, big = m[m["n"] == m["n"].min()], m[m["n"] == m["n"].max()]
    n0, n1 = int(small["n"].iloc[0]), int(big["n"].iloc[0])
    tcp1 = 100 * tcp_loss.get(big["n"].iloc[0], math.nan)
    lo, hi = 100 * big["loss"].min(), 100 * big["loss"].max()
    share = (big["aimd"] / big["mean_all"]).mean()
    limit = ns2.QUEUE_LIMIT * ns2.RED_MEAN_PACKET_BYTES
    min_th = ns2.red_params(WIRED_BPS, BACKBONE_DELAY_S)["min_thresh"]
    measured.update({"elephants' window_ (packets)": ns2.TCP_WINDOW, "backbone RED limit (bytes)": limit,
                     "backbone RED min threshold (bytes)": round(min_th, 0),
                     "backbone RED limit (ms at 100 Mb/s)": round(limit * 8 / WIRED_BPS * 1e3, 2),
                     f"AIMD / backbone mean[N={n1}]": round(float(share), 3),
                     f"TCP loss[N={n1}]": round(tcp1 / 100, 5), f"AIMD loss, lowest and highest p_e[N={n1}]": f"{lo / 100:.5f}, {hi / 100:.5f}",
                     f"backbone mean pkt/slot (50/(N + 0.1))[N={n0}]": f"{small['mean_all'].mean():.3f} ({50 / (n0 + 0.1):.3f})"})
    split = "more than TCP's" if lo > tcp1 else "no more than TCP's"
    return (f"the elephants keep ns-2's {ns2.TCP_WINDOW}-packet window_: at N = {n0} the backbone mean is "
            f"{small['mean_all'].mean():.2f} pkt/slot against 50/(N + 0.1) = {50 / (n0 + 0.1):.2f}; at N = {n1} ns-2's default RED on "
            f"the backbone (a {limit}-byte limit, {limit * 8 / WIRED_BPS * 1e3:.0f} ms, below its own {min_th:.0f}-byte min "
            f"threshold: no early drops) drops {tcp1:.2f} % of TCP's packets and {lo:.2f}–{hi:.2f} % of the AIMD flow's, "
            f"{split}, and the AIMD flow gets {share:.2f}× the backbone mean (ns-2 on the same backbone: "
            f"tools/ns2/qos_aimd_backbone.tcl): {cells}")


def s5(d):
    f = d.flows(["aimd-pe0.01", "aimd-pe0.1"], {"label": "aimd"})
    f = pkt_per_slot(f[f["n"] < 50])
    from vidcc.analysis import summarize

    s = summarize(f, "pkt_per_slot", by="p_e", group=None)
    rows = [within(s[s["p_e"] == pe], 0.97 * (1 - pe), 1.03 * (1 - pe), name=f"AIMD pkt/slot (p_e={pe})") for pe in (0.01, 0.1)]
    v = all_of(*rows)
    for pe in (0.01, 0.1):
        v.measured[f"(1 − p_e) ± 3 %[p_e={pe}]"] = f"{0.97 * (1 - pe):.4f}, {1.03 * (1 - pe):.4f}"
    return v


def b_backbone(d):
    return within(d.summary("normalized_throughput", by="n", part="backbone", where={"label": "tcp"}), 0.9, 1.1,
                  name="mean throughput / (100 Mb/s / N)")


def run_outage(d, run_id, warm, flow_ids, bound_ms: float = 50.0) -> tuple[float, dict]:
    """Share of received packets (after the warm-up) whose one-way delay exceeds their flow's
    minimum by more than D = 50 ms; pooled and per flow."""
    pk = d.series(run_id, "packets")
    pk = pk[pk["flow"].isin(flow_ids) & (pk["fate"] == "delivered")]
    # the minimum over the whole run (warm-up included: a saturated queue must not hide its own delay)
    pk = pk.assign(jitter=(pk["arrival_ns"] - pk["sent_ns"]) - (pk["arrival_ns"] - pk["sent_ns"]).groupby(pk["flow"]).transform("min"))
    pk = pk[pk["sent_ns"] >= warm]
    if pk.empty:
        return math.nan, {}
    late = pk["jitter"] > bound_ms * 1e6
    return float(late.mean()), {int(f): float(v) for f, v in late.groupby(pk["flow"]).mean().items()}


def multi_stats(d, parts):
    """Cached per figure's results (the checks and their causes read the same packet logs): see :func:`_multi_stats`."""
    cache = _STATS.setdefault(d, {})
    if ("multi", tuple(parts)) not in cache:
        cache[("multi", tuple(parts))] = _multi_stats(d, parts)
    return cache[("multi", tuple(parts))]


def _multi_stats(d, parts):
    """Per run of the multi-flow parts: p_e, RTT set, total and per-flow packets per slot, min/max
    throughput ratio, pooled outage; then the mean over seeds per (rtts, p_e)."""
    import pandas as pd

    rows = []
    runs = d.runs(parts)
    flows = d.flows(parts)
    for r in runs.to_dict("records"):
        warm = warmup_ns(r)
        f = pkt_per_slot(flows[flows["run_id"] == r["run_id"]])
        out, _ = run_outage(d, r["run_id"], warm, set(f["flow"]))
        t = list(f.sort_values("flow")["pkt_per_slot"])
        rows.append({"rtts": r["rtts"], "p_e": r["p_e"], "seed": r["seed"], "total": sum(t), "min_flow": min(t), "max_flow": max(t),
                     "ratio": min(t) / max(t) if max(t) > 0 else math.nan, "outage": out, "n": len(t)})
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    return df.groupby(["rtts", "p_e"], as_index=False).mean(numeric_only=True)


def _multi_verdict(m, what, *, share_tol=None, total_tol=None, ratio_min=None, outage_max=0.015) -> Verdict:
    if m is None or m.empty:
        return Verdict(NOT_YET, {}, f"{what}: no runs")
    measured, bad = {}, []
    for r in m.to_dict("records"):
        cell = f"R={r['rtts']},p_e={r['p_e']:g}"
        fair = (1 - r["p_e"]) / r["n"]
        measured[f"total pkt/slot[{cell}]"] = round(r["total"], 4)
        measured[f"flow pkt/slot min..max[{cell}]"] = f"{r['min_flow']:.4f}..{r['max_flow']:.4f} (target {fair:.4f})"
        measured[f"min/max ratio[{cell}]"] = round(r["ratio"], 4)
        measured[f"outage[{cell}]"] = round(r["outage"], 5)
        if total_tol is not None and abs(r["total"] - (1 - r["p_e"])) > total_tol * (1 - r["p_e"]):
            bad.append(f"{cell}: total {r['total']:.3f} vs 1 − p_e = {1 - r['p_e']:.3f}")
        if share_tol is not None and (r["min_flow"] < (1 - share_tol) * fair or r["max_flow"] > (1 + share_tol) * fair):
            bad.append(f"{cell}: flows {r['min_flow']:.3f}..{r['max_flow']:.3f} vs (1 − p_e)/N = {fair:.3f}")
        if ratio_min is not None and not r["ratio"] >= ratio_min:
            bad.append(f"{cell}: throughput ratio {r['ratio']:.3f} < {ratio_min}")
        if not r["outage"] <= outage_max:
            bad.append(f"{cell}: outage {100 * r['outage']:.2f} % > {100 * outage_max:g} %")
    measured["cells"], measured["cells failing"] = len(m), len(bad)
    if bad:
        return Verdict(FAIL, measured, f"{what}: {len(bad)} violations, e.g. " + "; ".join(bad[:3]))
    return Verdict(PASS, measured, f"{what}: holds in all {len(m)} cells (mean over seeds)")


def _parts(d, prefix):
    return sorted({p for p in d.runs()["part"]} if not d.runs().empty else set(), key=str) and [
        p for p in sorted(set(d.runs()["part"])) if p.startswith(prefix)]


# ---- causes of the FAILs, each computed from the figure's results (the claims' ``cause``)


def _round_trip_slots(f) -> float:
    """The AIMD flow's round trip as the run measured it, in slots: its packets' mean one-way
    delay plus the return path's propagation delay (half the path RTT; the return path carries
    only acks)."""
    return float((f["mean_delay_ns"] + f["path_rtt_ns"] / 2).mean()) / 1e9 / SLOT_S


def s5_cause(d, measured) -> str:
    """S5 per p_e: the AIMD flow's packets per slot against 1 − p_e, its rwnd = B and the round
    trip it measured, in slots (a window shorter than the pipe leaves the wireless link idle)."""
    f = d.flows(["aimd-pe0.01", "aimd-pe0.1"], {"label": "aimd"}) if d is not None else None
    if f is None or f.empty:
        return "no results"
    f = pkt_per_slot(f[f["n"] < 50])
    texts = []
    for pe, g in f.groupby("p_e"):
        w, rt, x = windows(float(pe), (R_SLOTS,))[0], _round_trip_slots(g), float(g["pkt_per_slot"].mean())
        cell = f"p_e={pe:g}"
        measured.update({f"AIMD pkt/slot, N < 50[{cell}]": round(x, 4), f"rwnd = B[{cell}]": w,
                         f"AIMD measured round trip (slots)[{cell}]": round(rt, 2)})
        texts.append(f"p_e {pe:g}: {x:.3f} pkt/slot against 1 − p_e = {1 - pe:.2f}, rwnd = B = {w} against a measured round "
                     f"trip of {rt:.1f} slots")
    return ("with fewer than 50 backbone flows (a window shorter than the round trip leaves the wireless link idle part of "
            "the time): " + "; ".join(texts))


def s8_cause(d, measured) -> str:
    """S8: the cells over 1 % with the rwnd they ran, and Fig. 5's light sweep's outage at the same
    rwnd and p_e (the AIMD flow with only 5 elephants)."""
    m = fig6_stats(d) if d is not None else None
    if m is None or m.empty:
        return "no results"
    try:
        light = optimal_stats(d.other("fig5"), "aimd-light", "aimd")
    except KeyError:
        light = None
    texts = []
    for r in m[m["outage"] >= 0.01].sort_values(["p_e", "n"]).to_dict("records"):
        w = windows(float(r["p_e"]), (R_SLOTS,))[0]
        cell = f"p_e={r['p_e']:g},N={int(r['n'])}"
        measured[f"outage[{cell}]"] = round(r["outage"], 5)
        measured[f"rwnd[{cell}]"] = w
        text = f"p_e {r['p_e']:g}, N {int(r['n'])}: {100 * r['outage']:.2f} % at rwnd {w}"
        if light is not None and not light.empty:
            g = light[(light["p_e"].round(4) == round(float(r["p_e"]), 4)) & (light["rwnd"] == w)]
            if not g.empty:
                o = float(g["outage"].mean())
                measured[f"Fig. 5 light sweep outage at rwnd {w}[p_e={r['p_e']:g}]"] = round(o, 5)
                text += f" (Fig. 5's light sweep: {100 * o:.2f} % at the same rwnd)"
        texts.append(text)
    return "; ".join(texts) if texts else "every cell's outage is below 1 %"


def multi_cause(d, measured, parts) -> str:
    """Fig. 7/8 runs: per cell the windows the selection gave (eq. (4), nearest rounding), their sum
    against the RTTs, the flows' packets per slot and the outage, for the cells whose share ratio
    is below 0.9 or whose outage is above 1.5 %."""
    m = multi_stats(d, parts) if d is not None else None
    if m is None or m.empty:
        return "no results"
    texts = []
    for r in m.to_dict("records"):
        if r["ratio"] >= 0.9 and r["outage"] <= 0.015:
            continue
        rtts = tuple(int(x) for x in str(r["rtts"]).split("-"))
        w = windows(float(r["p_e"]), rtts)
        cell = f"R={r['rtts']},p_e={r['p_e']:g}"
        measured.update({f"windows[{cell}]": ", ".join(map(str, w)), f"window sum[{cell}]": sum(w),
                         f"total pkt/slot[{cell}]": round(r["total"], 4),
                         f"min/max ratio[{cell}]": round(r["ratio"], 4), f"outage[{cell}]": round(r["outage"], 5)})
        texts.append(f"R = ({', '.join(map(str, rtts))}), p_e {r['p_e']:g}: windows {', '.join(map(str, w))} (sum {sum(w)}), "
                     f"flows {r['min_flow']:.3f}..{r['max_flow']:.3f} pkt/slot (ratio {r['ratio']:.3f}), total {r['total']:.3f}, "
                     f"outage {100 * r['outage']:.2f} %")
    return "; ".join(texts) if texts else "every cell's share ratio is ≥ 0.9 and its outage ≤ 1.5 %"


def s11_cause(d, measured) -> str:
    return multi_cause(d, measured, _parts(d, "aimd-17-17-pe")) if d is not None else "no results"


def s14_cause(d, measured) -> str:
    if d is None:
        return "no results"
    parts = [multi_cause(d, measured, _parts(d, "aimd-"))]
    try:
        o = d.other("fig7")
        parts.insert(0, multi_cause(o, measured, _parts(o, "aimd-")))
    except KeyError:
        pass
    return "; ".join(parts)


def s16_cause(d, measured) -> str:
    """S16: the UDP cells where UDP is not worse than AIMD, with both sides' numbers."""
    m = fig9_stats(d) if d is not None else None
    if m is None or m.empty or m[m["part"] == "aimd"].empty:
        return "no results"
    a = m[m["part"] == "aimd"].iloc[0]
    measured.update({"AIMD goodput (pkt/slot)": round(a["goodput"], 4), "AIMD loss + outage": round(a["loss"] + a["outage"], 5),
                     "AIMD rwnd = R": R_SLOTS})
    texts = []
    for r in m[m["part"] != "aimd"].to_dict("records"):
        cell = f"{r['part']},{r['rate']}"
        if r["goodput"] >= a["goodput"] or r["loss"] + r["outage"] <= a["loss"] + a["outage"]:
            measured[f"UDP goodput (pkt/slot)[{cell}]"] = round(r["goodput"], 4)
            measured[f"UDP loss + outage[{cell}]"] = round(r["loss"] + r["outage"], 5)
            measured[f"UDP rate (pkt/slot)[{cell}]"] = round(r["rate_pps"], 3)
            texts.append(f"{r['part']} at {r['rate_pps']:.2f} pkt/slot: goodput {r['goodput']:.3f}, loss + outage "
                         f"{r['loss'] + r['outage']:.4f}")
    return (f"AIMD (rwnd = R = {R_SLOTS}): goodput {a['goodput']:.3f} pkt/slot, loss + outage {a['loss'] + a['outage']:.4f}; "
            + ("; ".join(texts) if texts else "no UDP cell matches or beats it"))


def b1_cause(d, measured) -> str:
    """B1 per N: the TCP flows' share of the backbone as measured, against the pipe the backbone's
    buffer could cover (its byte limit against the bandwidth-delay product of the round trip)."""
    f = d.flows("backbone", {"label": "tcp"}) if d is not None else None
    if f is None or f.empty:
        return "no results"
    limit = ns2.QUEUE_LIMIT * ns2.RED_MEAN_PACKET_BYTES
    rtt = float((f["path_rtt_ns"]).mean()) / 1e9
    bdp = WIRED_BPS * rtt / 8
    measured.update({"backbone buffer (bytes)": limit, "TCP path RTT (s)": round(rtt, 4), "bandwidth × RTT (bytes)": round(bdp, 0)})
    texts = []
    for n, g in f.groupby("n"):
        use = float(g.groupby("run_id")["throughput_bps"].sum().mean()) / WIRED_BPS
        measured[f"share of the backbone used[N={int(n)}]"] = round(use, 4)
        texts.append(f"{int(n)} flows use {100 * use:.1f} % of it")
    return (f"ns-2's default RED on the backbone holds at most {limit} bytes against a pipe of {bdp / 1e3:.0f} kB "
            f"({WIRED_BPS / 1e6:.0f} Mb/s × {rtt * 1e3:.0f} ms): " + ", ".join(texts))


def s11(d):
    # §V-C: the flows "fairly share the wireless link, and satisfy the delay outage bounds": the
    # share as S12 tests it (min/max ≥ 0.9), the total reported, not judged (the paper claims no
    # full use here, and the selected windows may sum below R_N).
    return _multi_verdict(multi_stats(d, _parts(d, "aimd-17-17-pe")), "2 flows, R = 17: min/max throughput ≥ 0.9, "
                          "outage ≤ 1.5 %", ratio_min=0.9)


def s12(d):
    return _multi_verdict(multi_stats(d, _parts(d, "aimd-17-25-pe")), "2 flows, R = (17, 25): min/max throughput ≥ 0.9, outage ≤ 1.5 %",
                          ratio_min=0.9)


def s13(d):
    return _multi_verdict(multi_stats(d, _parts(d, "aimd-17-")), "4 flows: each within 10 % of (1 − p_e)/4, outage ≤ 1.5 %",
                          share_tol=0.10)


def s14(d):
    import pandas as pd

    o = d.other("fig7")
    m = pd.concat([multi_stats(o, _parts(o, "aimd-")), multi_stats(d, _parts(d, "aimd-"))], ignore_index=True)
    return _multi_verdict(m, "fig. 7 and 8 runs: min/max throughput ≥ 0.9, outage ≤ 1.5 %", ratio_min=0.9)


def fig9_stats(d):
    """Cached per figure's results (the checks and their causes read the same packet logs): see :func:`_fig9_stats`."""
    cache = _STATS.setdefault(d, {})
    if ("fig9", None) not in cache:
        cache[("fig9", None)] = _fig9_stats(d)
    return cache[("fig9", None)]


def _fig9_stats(d):
    """Per part (udp-noarq, udp-arq, aimd) and rate: goodput (on-time packets per slot), loss, outage; mean over seeds."""
    import pandas as pd

    from vidcc import _vidcc

    rows = []
    flows = d.flows(["udp-noarq", "udp-arq", "aimd"])
    for r in d.runs(["udp-noarq", "udp-arq", "aimd"]).to_dict("records"):
        warm = warmup_ns(r)
        f = flows[flows["run_id"] == r["run_id"]]
        out, _ = run_outage(d, r["run_id"], warm, set(f["flow"]))
        tput = float(pkt_per_slot(f)["pkt_per_slot"].sum())
        rate = r.get("rate")
        rows.append({"part": r["part"], "rate": rate if isinstance(rate, str) else "-",
                     "rate_pps": _vidcc.parse_rate(rate) * SLOT_S / 1000 if isinstance(rate, str) else math.nan,
                     "seed": r["seed"], "throughput": tput, "goodput": tput * (1 - out), "loss": float(f["drop_rate"].mean()),
                     "outage": out})
    df = pd.DataFrame(rows)
    return df.groupby(["part", "rate"], as_index=False).mean(numeric_only=True) if not df.empty else df


def s16(d):
    m = fig9_stats(d)
    a = m[m["part"] == "aimd"]
    if a.empty or m[m["part"] != "aimd"].empty:
        return Verdict(NOT_YET, {}, "no runs")
    a = a.iloc[0]
    measured = {"AIMD goodput": round(a["goodput"], 4), "AIMD loss": round(a["loss"], 5), "AIMD outage": round(a["outage"], 5),
                "AIMD loss + outage": round(a["loss"] + a["outage"], 4)}
    bad = []
    for r in m[m["part"] != "aimd"].to_dict("records"):
        cell = f"{r['part']},{r['rate']}"
        measured[f"UDP goodput/loss/outage[{cell}]"] = f"{r['goodput']:.4f} / {r['loss']:.4f} / {r['outage']:.4f}"
        measured[f"UDP loss + outage[{cell}]"] = round(r["loss"] + r["outage"], 4)
        if not r["goodput"] < a["goodput"]:
            bad.append(f"{cell}: UDP goodput {r['goodput']:.3f} ≥ AIMD {a['goodput']:.3f}")
        if not r["loss"] + r["outage"] > a["loss"] + a["outage"]:
            bad.append(f"{cell}: UDP loss + outage {r['loss'] + r['outage']:.4f} ≤ AIMD {a['loss'] + a['outage']:.4f}")
    what = "UDP goodput < AIMD goodput and UDP loss + outage > AIMD's (the sum: docs/papers/qos-aimd.md [U]) at every rate"
    if bad:
        return Verdict(FAIL, measured, f"{what}: " + "; ".join(bad[:3]))
    return Verdict(PASS, measured, f"{what}: holds at all {len(m) - 1} UDP cells")


def s17(d):
    m = fig9_stats(d)
    u = m[m["part"] == "udp-arq"].sort_values("rate_pps")
    if u.empty:
        return Verdict(NOT_YET, {}, "no runs")
    measured = {f"UDP+ARQ outage[{r['rate']} = {r['rate_pps']:.2f} pkt/slot]": round(r["outage"], 4) for r in u.to_dict("records")}
    below = u[u["rate_pps"] < 0.9]
    above = u[u["rate_pps"] >= 0.9]
    steps = list(u["outage"])
    rising = all(b >= a - 1e-9 for a, b in zip(steps, steps[1:]))
    jump = (above["outage"].min() > 10 * max(below["outage"].max(), 1e-3)) if len(below) and len(above) else False
    what = ("UDP with ARQ: outage non-decreasing in the CBR rate, and at rates ≥ 0.9 pkt/slot at least 10× the worst rate "
            "below it (suite reading of 'heavy outage')")
    return Verdict(PASS if rising and jump else FAIL, measured, f"{what}: " + " → ".join(f"{x:.4f}" for x in steps))


def s18(d):
    m = fig9_stats(d)
    a = m[m["part"] == "aimd"]
    if a.empty:
        return Verdict(NOT_YET, {}, "no runs")
    a = a.iloc[0]
    measured = {"AIMD outage": round(a["outage"], 5), "AIMD loss": round(a["loss"], 5), "AIMD pkt/slot": round(a["throughput"], 4),
                "rwnd = B": windows(0.1, (17,))[0]}
    ok = a["outage"] <= 0.01 and a["loss"] <= 0.001
    return Verdict(PASS if ok else FAIL, measured, f"AIMD (p_e = 0.1, B = rwnd = W_max, ARQ, no cross traffic: the light-traffic reading of Fig. 9): "
                   f"outage {100 * a['outage']:.2f} % (≤ 1 %), loss {100 * a['loss']:.3f} % (≤ 0.1 %, suite reading of ≈ 0)")




AIMD = ("qos-aimd",)


def A(cid, text, ref):
    return Claim(cid, text, None, AIMD, ANALYTIC_CHECKS[cid], ref=ref)


CLAIMS = [
    A("A1", "alpha(β) = 3(1−β)/(1+β): alpha(0.875) = 0.2, alpha(0.5) = 1; strictly decreasing onto (0, 3); beta(alpha(β)) = β.", "eq. (10)"),
    A("A2", "slot = 125·8/200 000 s = 5 ms; R = 85/5 = 17; D = 50/5 = 10 slots; 25 slots = 125 ms.", "§V setup"),
    A("A3", "Single flow with W ≥ R, B ≥ W: the BS queue never empties (Q ≥ W − R + 1); throughput = 1 − p_e pkt/slot.", "§III-C"),
    A("A4", "Pr{d_q > D | W} = Σ_{x<W} T_{R+D}(x), non-decreasing in W; W_max = largest W with value ≤ ε.", "eq. (1)"),
    A("A5", "With B ≥ W and an i.i.d. channel eq. (2) = eq. (1); eq. (2) non-increasing as B falls below W.", "eq. (2)"),
    A("A6", "L(B, W) = Σ_{x=0}^{W−B−1} T_{R−1}(x); 0 when B ≥ W; p_e = 0.1, R = 17, W = 20, B = 10 gives 5.045345e−04.", "§III-C"),
    A("A7", "Closed-form windows add to S and satisfy eqs. (3)–(4); equal R, p give equal windows; R = (17, 25): W_2 − W_1 = 4(1 − p_e).", "eqs. (3)–(4)"),
    A("A8", "T_n(·; 1) = T_n(·); Σ_x T_n(x; p) = 1; mean of T_n(·; p) = p·E[T_n].", "eq. (5)"),
    A("A9", "Equal R_i: Pr{Q = x} = T_{R−1}(S − x); eq. (7) = eq. (2) at W = S; eq. (8) = single-flow L(B, S); L = 0 when B ≥ S.", "eqs. (6)–(8)"),
    A("A10", "S ≥ R_N ⇒ Q ≥ S − R_N + 1 ≥ 1; flow i's throughput = (1 − p_e)p_i.", "§III-D"),
    A("A11", "After one wired loss the window drops to β·rwnd; keeping the link busy needs rwnd ≥ 20 for R = 17, β = 0.875.", "§IV-B"),
    A("A12", "i.i.d. reference W_max = 25, 24, 24, 23, 22, 22, 22, 21, 21, 20 for p_e = 0.01…0.10.", "§2.7 [D]"),
    Claim("S1", "Light cross traffic: the simulated largest rwnd with outage < 1 % matches the analytical W_max (|sim − ana| ≤ 1) for every p_e.",
          "fig5", AIMD + ("tcp-sack",), s1, needs=("wireless-arq",), ref="Fig. 5a"),
    Claim("S2", "Heavy cross traffic: the analytical W_max is slightly more conservative: the heavy sweep's largest rwnd is at "
          "least the light sweep's, and the analytical W_max at most one above it.", "fig5", AIMD + ("tcp-sack",), s2,
          needs=("wireless-arq",), ref="Fig. 5b", cause=s2_cause),
    Claim("S3", "The optimal rwnd (eq. (1)'s W_max) never increases with p_e; from p_e = 5 % to 8 % it changes by only one.", "fig5", AIMD + ("tcp-sack",), s3,
          needs=("wireless-arq",), ref="Fig. 5"),
    Claim("S4", "With the 'optimal' link scheme [24] in place of persistent transmission, analysis and simulation still agree: the "
          "simulated largest rwnd with outage ≤ 1 % is within 1 of eq. (1)'s W_max with the scheme's T_n, at every p_e (AIMD alone).",
          "optimal", AIMD, s4, needs=("wireless-arq",), ref="§V-A"),
    Claim("S5", "Fewer than 50 backbone flows: the AIMD flow's normalised throughput ≈ 1 − p_e (0.99 at p_e = 0.01, 0.90 at 0.1; ± 3 %).",
          "fig6", AIMD + ("tcp-sack",), s5, needs=("wireless-arq",), ref="Fig. 6a/b", cause=s5_cause),
    Claim("S6", "More than 50 flows: the AIMD flow's throughput ≈ the average normalised throughput of all backbone flows (not above): "
          "within [0.5, 1.1] × it (suite tolerance).",
          "fig6", AIMD + ("tcp-sack",), s6, needs=("wireless-arq",), ref="Fig. 6a/b", cause=fig6_cause),
    Claim("S7", "The backbone's average normalised throughput is > 1 pkt/slot below 50 flows and < 1 above.", "fig6",
          AIMD + ("tcp-sack",), s7, needs=("wireless-arq",), ref="Fig. 6", cause=fig6_cause),
    Claim("S8", "The delay-outage rate stays below 1 % in every Fig. 6 case.", "fig6", AIMD + ("tcp-sack",), s8, needs=("wireless-arq",),
          ref="§V-B", cause=s8_cause),
    Claim("S9", "AIMD loss is negligible (< 0.5 %, suite) below 50 flows and rises to 2.8 % at 100 flows (within [1.4 %, 5.6 %], suite; "
          "wired congestion, no BS overflow).", "fig6",
          AIMD + ("tcp-sack",), s9, needs=("wireless-arq",), ref="§V-B", cause=fig6_cause),
    Claim("S10", "When the backbone is the bottleneck the wireless capacity is under-used (throughput < 0.97 × (1 − p_e): 3 % margin, suite).", "fig6",
          AIMD + ("tcp-sack",), s10, needs=("wireless-arq",), ref="§V-B", cause=fig6_cause),
    Claim("S11", "Two AIMD flows, R = 17, equal-share windows: they fairly share the wireless link (min/max ≥ 0.9); outage ≤ ≈ 1 % (≤ 1.5 %, suite).", "fig7", AIMD, s11,
          needs=("wireless-arq",), ref="Fig. 7a", cause=s11_cause),
    Claim("S12", "Two flows with R = 17 and 25, eq. (4) windows: throughputs ≈ equal (min/max ≥ 0.9); outage ≤ ≈ 1 % (≤ 1.5 %, suite).", "fig7", AIMD, s12, needs=("wireless-arq",),
          ref="Fig. 7b"),
    Claim("S13", "Four flows (R all 17, or 17/25/17/25): each ≈ (1 − p_e)/4 (within 10 %); outage ≤ ≈ 1 % (≤ 1.5 %, suite).", "fig8", AIMD, s13, needs=("wireless-arq",),
          ref="Fig. 8a/b"),
    Claim("S14", "Integer windows meet eq. (4) only approximately: throughput ratio within 10 %, outage ≤ 1.5 %.", "fig8", AIMD, s14,
          needs=("wireless-arq",), ref="§V-C", cause=s14_cause),
    Claim("S15", "p_e = 0.1, UDP without ARQ: packet loss plus delay outage ≈ 0.1 (loss ≈ p_e): within [0.08, 0.12] (0.1 ± 0.02) at every CBR rate below the link rate (suite tolerance).",
          "fig9", ("udp-cbr",), s15, parts=("udp-noarq",), ref="Fig. 9"),
    Claim("S16", "At every UDP CBR rate, with or without ARQ, UDP goodput < AIMD goodput and UDP loss and outage > AIMD's.", "fig9",
          AIMD + ("udp-cbr",), s16, needs=("wireless-arq",), ref="Fig. 9",
          cause=s16_cause),
    Claim("S17", "UDP with ARQ must stay below the mean link throughput (0.9 pkt/slot) to avoid heavy outage, which rises quickly near it.",
          "fig9", ("udp-cbr",), needs=("wireless-arq",), check=s17, parts=("udp-arq",), ref="§V-D"),
    Claim("S18", "The AIMD flow (B = rwnd = W_max, ARQ) keeps outage below ≈ 1 % and loss ≈ 0 with light cross traffic.", "fig9", AIMD, s18,
          needs=("wireless-arq",), ref="§V-D"),
    Claim("B1", "Baseline: N = 10..100 TCP NewReno elephants (1250 B) alone on the 100 Mb/s RED backbone each get ≈ 100 Mb/s / N (≈ 50/N packets per 5 ms slot): mean normalized throughput within [0.9, 1.1].",
          "fig6", ("tcp-newreno",), b_backbone, kind="baseline", parts=("backbone",), cause=b1_cause),
]

# The readings docs/papers/qos-aimd.md left open that the code exposes (``vidcc reproduce qos-aimd
# --explore``), and the claims each may bear on.
ALTERNATIVES = [
    Alternative("reduction-pipe", "qos-aimd", {"reduction_base": "pipe"}, "docs/papers/qos-aimd.md §3.3 (outstanding packets) [I]",
                note="the multiplicative decrease halves the packets in the pipe (sent and neither acked nor lost) "
                "instead of all outstanding packets."),
    Alternative("reduction-cwnd", "qos-aimd", {"reduction_base": "cwnd"}, "docs/papers/qos-aimd.md §3.3 (outstanding packets) [I]",
                note="the multiplicative decrease halves the congestion window, as ns-2's TCP agents do."),
    Alternative("pacing-off", "qos-aimd", {"pacing": "off"}, "docs/papers/qos-aimd.md §3.5 spacing [U → D]",
                note="no rtt/W spacing between data packets: the window leaves in bursts."),
]
_EXPLORE = {
    "reduction-pipe": ("S11", "S14"),
    "reduction-cwnd": ("S11", "S14"),
    "pacing-off": ("S11", "S14"),
}
CLAIMS = with_alternatives_named(CLAIMS, _EXPLORE)

SUITE = Suite("qos-aimd", "A QoS-aware AIMD protocol for time-sensitive applications in wired/wireless networks",
              "Cai, Shen, Mark, Pan (University of Waterloo / NTT MCL), c. 2005", "docs/papers/qos-aimd.md", FIGURES, CLAIMS,
              notes=reconstruction_notes(__doc__), alternatives=ALTERNATIVES)
