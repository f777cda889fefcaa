"""DVRC (AIAMD + layered subscription): Papadimitriou, Tsaoussidis, Mamatas, J. Systems and
Software 81(12), 2008. Scenarios S0–S6 and claims C1–C26 of ``docs/papers/dvrc.md``.

Reconstruction notes (the DVRC paper page's [P]/[I]/[D] tags; ours are marked "suite"):

* All links DropTail with a BDP buffer [P] (capacity × nominal propagation RTT, ≥ 10 packets
  [D]); 1000 B packets [P]; TCP Reno FTP with a 64 kB window [P], and ns-2 2.35's Agent/TCP
  otherwise (papers/ns2.py): min RTO 0.2 s, initial RTO 3 s, IW 2, no delayed ACK, no send
  jitter (overhead_ 0). ns-2's limited transmit (singledup_ 1) has no vidcc counterpart: a
  departure (docs/protocols/tcp.md). 2 s warm-up [P]; 200 s runs, 5 seeds, N ∈ {1, 5, 10, …,
  50} [D].
* S2/S3 (cross- and reverse-traffic topologies, Fig. 5a/b) are the graph R1–R2–R3 shared with
  the SSVP suite (papers/cross_traffic.py): R1–R2 5 Mbit/s, R2–R3 10 Mbit/s, 10 ms (suite), so
  that R1 is the MPEG flows' bottleneck and R2 the one they share with the cross traffic, as
  §4.1 says; MPEG flows go R1→R2→R3, TCP (and the Pareto UDP) R2→R3 [D].
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
  segments (docs/papers/dvrc.md §4 [I]). DVRC and RTCP/UDP run with their DVRC paper page defaults;
  TFRC, whose parameters the paper leaves to its tool, with ns-2 2.35's Agent/TFRC defaults
  (``vidcc.protocols.tfrc.NS2_AGENT``; docs/protocols/tfrc.md lists where they differ from RFC 5348).
* Every MPEG flow starts at a time drawn in U[0, 480 ms] (suite: one GOP), except S5's DVRC
  flow, which joins at 10 s [P]. Equal start times with equal access delays synchronised the
  frames of all flows at the bottleneck (a phase effect the paper's randomisation avoids).
* C26 (k = 4): cumulative layers 128, 256, 512, 1024 kbit/s (suite; the paper's are lost).
* Loss classes (C1, C25) are DVRC's ``loss_class`` events after the warm-up (1 = multiplicative);
  DTO expiries (always multiplicative [D]) are counted apart. Fairness orderings (C17, C24) are
  checked at N ≥ 2: one flow is trivially fair.
"""

from __future__ import annotations

from vidcc.papers import cross_traffic, ns2
from vidcc.papers.building import chain, droptail, dumbbell, flow, glink, graph, scenario
from vidcc.papers.categories import OverClaim
from vidcc.papers.measures import queue_stats, video_flows, warmup_ns
from vidcc.papers.model import (
    FAIL,
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
from vidcc.papers.verdicts import all_of, bound, direction, ordering, within
from vidcc.protocols.tfrc import NS2_AGENT

MPEG = ("dvrc", "tfrc", "tcpw+", "rtcp-udp")
PROTOCOL = {"dvrc": "dvrc", "tfrc": "tfrc", "tcpw+": "tcp-westwood-plus", "rtcp-udp": "rtcp-udp", "udp": "udp"}
LAYERS = ["128kbps", "256kbps", "512kbps", "768kbps", "1024kbps"]  # cumulative, full quality = 5 layers [D §2.2]
VIDEO = {"model": "tes-mpeg4", "layers": LAYERS}
VIDEO_K4 = {"model": "tes-mpeg4", "layers": ["128kbps", "256kbps", "512kbps", "1024kbps"]}  # C26, suite
# What an MPEG part needs besides its protocol.
NEEDS = {"tcpw+": ("video-over-tcp",)}

N_AXIS = ByScale([1, 10, 40], [1, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50])
SEEDS = ByScale([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
DURATION = ByScale("20s", "200s")
CORR_LOSS = {"kind": "correlated-bernoulli", "p": 0.01, "q": 0.15}  # A11 [I]


# Suite: every MPEG flow starts at a time drawn in [0, 480 ms] (one GOP of 12 frames at 25 fps),
# so that N independent video sources neither send their frames at the same instants nor their
# I frames in the same frame period. With equal start times and equal access delays (S4, S6) the
# packets of every flow's frame reached the bottleneck together every 40 ms and met a queue the
# Reno flows had filled: at N = 40 in S4 the DVRC flows lost half of their packets, Reno 3 %.
# The paper randomises to avoid synchronisation (§3 General); start times are unspecified (U8).
MPEG_START = ["0s", "480ms"]


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


# ns-2 2.35's Agent/TCP where the paper is silent (papers/ns2.py): rtxcur_init_ 3 s, minrto_ 0.2 s,
# windowInit_ 2, an ACK per segment, overhead_ 0 (no send jitter); the 64 kB window is the paper's
# (§4.1 "maximum congestion window to 64 kB"), the scenario default. ns-2's limited transmit
# (singledup_ 1) has no vidcc counterpart (docs/protocols/tcp.md): a departure.
TCP_KEYS = {k: v for k, v in ns2.tcp_keys(1000).items() if k != "max_window"}


def reno(count, label="reno", **keys) -> dict:
    return flow("tcp-reno", label=label, count=count, **{**TCP_KEYS, **keys})


# ---- topologies -----------------------------------------------------------------------------

# S0/S1: "all links 1 Mbit/s", RTT 70 ms [P]: 5 ms access, 25 ms bottleneck [D]; 10-packet buffer.
S1_TOPO = dumbbell("1Mbps", "25ms", access={"bandwidth": "1Mbps", "delay": "5ms"}, queue=droptail(10))


def s0_topo() -> dict:
    # S0 (Fig. 3): S1's 1 Mbit/s path; 3 % random loss on the DVRC receiver's access link, data
    # direction only [D]. A graph so that the TCP receiver's link stays clean.
    return graph(
        ["DS", "TS", "L", "R", "DD", "TD"],
        [
            glink("DS", "L", "1Mbps", "5ms", monitor=False),
            glink("TS", "L", "1Mbps", "5ms", monitor=False),
            glink("L", "R", "1Mbps", "25ms", queue=droptail(10)),
            glink("R", "DD", "1Mbps", "5ms", loss={"kind": "bernoulli", "p": 0.03}, monitor=False),
            glink("R", "TD", "1Mbps", "5ms", monitor=False),
        ],
    )


S2_TOPO = cross_traffic.topology()  # shared with the SSVP suite (papers/cross_traffic.py)
ACCESS = cross_traffic.ACCESS  # per flow instance [P ranges, I uniform]
MPEG_SINK = {"bandwidth": "2Mbps", "delay": ["5ms", "15ms"], "loss": CORR_LOSS, "reverse_loss": CORR_LOSS}


def s2_mpeg(name: str, count=1, **keys) -> dict:
    """An MPEG flow of Fig. 5a: R1→R2→R3 with its own access links, errors on the sink's."""
    return mpeg(name, count, **cross_traffic.mpeg_placement(MPEG_SINK), **keys)


def s2_tcp(count, label="reno", src="R2", dst="R3") -> dict:
    return reno(count, label=label, **cross_traffic.ftp_placement(src, dst))


S2C_TOPO = dumbbell(
    "10Mbps", "20ms",
    access={"bandwidth": ["2Mbps", "10Mbps"], "delay": ["5ms", "100ms"]},
    sink_access={"bandwidth": "2Mbps"},
)
# S4: all links 10 Mbit/s, RTT 70 ms, buffer 88 packets [P/D].
S4_TOPO = dumbbell("10Mbps", "25ms", access={"bandwidth": "10Mbps", "delay": "5ms"}, queue=droptail(88))


def multihop(hops, bandwidth: str) -> dict:
    # Fig. 5c: N gateways in a row; per-hop delay 10 ms, access 10 Mbit/s / 5 ms [D].
    return chain(hops, bandwidth, "10ms", access={"bandwidth": "10Mbps", "delay": "5ms"})


def s2(name: str, count=1, reverse_traffic: bool = False, duration=DURATION, mpeg_keys: dict | None = None, **keys) -> dict:
    flows = [s2_mpeg(name, count, **(mpeg_keys or {})), s2_tcp(10)]
    if reverse_traffic:
        # S3 (Fig. 5b): 5 forward + 10 reverse Reno; 10 Pareto on/off UDP, peaks 64–256 kbit/s
        # evenly spaced [D], 250 B packets [P], ns-2 defaults 0.5 s / 0.5 s / shape 1.5 [X].
        flows[1]["count"] = 5
        flows.append(s2_tcp(10, label="reno-reverse", src="R3", dst="R2"))
        for i in range(10):
            rate = f"{64 + round(i * 192 / 9)}kbps"
            flows.append(flow("udp-pareto", label="pareto", rate=rate, packet_size="250B", src="R2", dst="R3",
                              source_access=ACCESS, sink_access=ACCESS))
    return scenario(duration, S2_TOPO, flows, **keys)


def n_axis(index: int = 0) -> Axis:
    return Axis(f"flows[{index}].count", N_AXIS, "n")


def mpeg_parts(build, names, **kw) -> list[Part]:
    return [Part(name, build(name), axes=[n_axis()], seeds=SEEDS, needs=needs(name), **kw) for name in names]


# ---- figures --------------------------------------------------------------------------------

rate_plot = lambda part: Plot(f"rate-{part}", "Throughput, 150 ms samples", "throughput_bps", kind="series",  # noqa: E731
                              table="flow_samples", parts=[part], ylabel="throughput (Mbit/s)", scale=1e-6)


def versus_n(pid: str, title: str, metric: str, ylabel: str, *, table="run_flows", labels=MPEG, within="mean", scale=1.0, parts=None):
    return Plot(pid, title, metric, axis="n", table=table, where={"label": list(labels)}, within_run=within,
                xlabel="MPEG flows N", ylabel=ylabel, scale=scale, parts=parts)


S2_PLOTS = [
    versus_n("goodput", "Aggregate goodput of the MPEG flows", "goodput_bps", "goodput (Mbit/s)", within="sum", scale=1e-6),
    versus_n("cov", "CoV of throughput (150 ms), mean over MPEG flows", "cov", "CoV"),
    versus_n("drops", "Packet drop rate of the MPEG flows", "drop_rate", "drop rate"),
    versus_n("jain", "Jain's fairness index among the MPEG flows", "jain", "Jain's index", table="run_aggregate"),
    versus_n("wcf", "Worst-case fairness among the MPEG flows", "worst_case_fairness", "min/max", table="run_aggregate"),
]


def queue_plot(part: str) -> Plot:
    return Plot(f"queue-{part}", "Queue at R2 (towards R3)", "packets", kind="series", table="queue_samples",
                parts=[part], line="link", only=["R2->R3"], ylabel="packets")


FIGURES = [
    Figure(
        "fig3", "AIAMD loss classification under random loss (S0)", "Fig. 3",
        "One DVRC flow and one Reno flow on a 1 Mbit/s path with 3 % random packet errors on the DVRC "
        "receiver's access link: which loss events AIAMD treats as random (additive decrease) and which "
        "as congestion (multiplicative decrease).",
        parts=[Part("dvrc", scenario(ByScale("30s", "200s"), s0_topo(), [mpeg("dvrc", src="DS", dst="DD"), reno(1, src="TS", dst="TD")]),
                    seeds=SEEDS)],
        plots=[rate_plot("dvrc")],
    ),
    Figure(
        "fig6", "DVRC against two Reno flows on a 1 Mbit/s dumbbell (S1)", "Fig. 6, Fig. 7, §5.1 CoV",
        "Sending rate (150 ms bins) of one MPEG flow over DVRC, then over TFRC, sharing a 1 Mbit/s, 70 ms "
        "dumbbell with two FTP/Reno flows; CoV of the MPEG flow.",
        parts=[Part(n, scenario(ByScale("30s", "200s"), S1_TOPO, [mpeg(n), reno(2)], packet_log=True), seeds=SEEDS)
               for n in ("dvrc", "tfrc")],
        plots=[rate_plot("dvrc"), rate_plot("tfrc")],
    ),
    Figure(
        "fig8-10", "Cross-traffic topology: efficiency, smoothness, fairness vs N (S2)", "Fig. 8a,b, 9a–c, 10a,b",
        "1–50 MPEG flows of one protocol (DVRC, TFRC or TCP Westwood+) with 10 FTP/Reno cross flows on the "
        "shared R2–R3 link; Gilbert errors on the MPEG-sink access links.",
        parts=[*mpeg_parts(lambda n: s2(n), ("dvrc", "tfrc", "tcpw+")),
               # C26 (§5.2 text): the same video in k = 4 cumulative layers. docs/papers/dvrc.md
               # gives no rates; suite: the k = 5 vector without its 768 kbit/s step, so the base
               # layer and full quality stay 128 kbit/s and 1024 kbit/s. Label dvrc-k4 keeps it off the plots.
               Part("dvrc-k4", s2("dvrc", mpeg_keys={"label": "dvrc-k4", "video": VIDEO_K4}), axes=[n_axis()], seeds=SEEDS)],
        plots=S2_PLOTS,
    ),
    Figure(
        "fig10c", "Fairness with strongly varying RTTs, no cross traffic (S2c)", "Fig. 10c",
        "The MPEG flows alone (no TCP, no link errors) with access delays drawn from U[5, 100] ms.",
        parts=mpeg_parts(lambda n: scenario(DURATION, S2C_TOPO, [mpeg(n)]), ("dvrc", "tfrc", "tcpw+")),
        plots=[S2_PLOTS[3]],
    ),
    Figure(
        "fig11", "Queue at R2 with 40 MPEG flows: DVRC vs plain UDP (S2q)", "Fig. 11a,b",
        "Instantaneous queue length at R2 with 40 MPEG flows and the 10 Reno cross flows, sampled every "
        "10 ms; plain UDP sends the full-quality video (all five layers).",
        parts=[
            Part("dvrc", s2("dvrc", 40, queue_sample_interval="10ms"), seeds=SEEDS),
            Part("udp", s2("udp", 40, queue_sample_interval="10ms"), seeds=SEEDS),
        ],
        plots=[queue_plot("dvrc"), queue_plot("udp")],
    ),
    Figure(
        "fig12-14", "Reverse-traffic topology (S3)", "Fig. 12, 13a,b, 14a,b",
        "S2 plus 10 reverse Reno flows and 10 Pareto on/off UDP flows (64–256 kbit/s peaks, 250 B); 1–50 MPEG "
        "flows of DVRC, TFRC or RTCP/UDP against 5 forward Reno flows.",
        parts=mpeg_parts(lambda n: s2(n, reverse_traffic=True), ("dvrc", "tfrc", "rtcp-udp")),
        plots=[S2_PLOTS[0], S2_PLOTS[2], S2_PLOTS[3], S2_PLOTS[4]],
    ),
    Figure(
        "fig15-16", "Normalized throughput against 20 or 40 Reno flows (S4)", "Fig. 15a,b, 16a,b",
        "10 Mbit/s, 70 ms dumbbell: 1–50 MPEG flows of DVRC or TFRC against 20 (a) or 40 (b) Reno flows; "
        "normalized throughput = throughput / (B / all flows). Baseline part reno-only: the Reno flows alone.",
        parts=[
            *[Part(f"{n}-{r}", scenario(DURATION, S4_TOPO, [mpeg(n), reno(r)]), axes=[n_axis()],
                   seeds=SEEDS, tags={"reno_flows": r})
              for n in ("dvrc", "tfrc") for r in (20, 40)],
            Part("reno-only", scenario(DURATION, S4_TOPO, [reno(20)]),
                 axes=[Axis("flows[0].count", [20, 40], "reno_flows")], seeds=SEEDS, kind="baseline"),
        ],
        plots=[
            Plot("nt-mpeg", "Normalized throughput of the MPEG flows", "normalized_throughput", axis="n", group="part",
                 where={"label": ["dvrc", "tfrc"]}, xlabel="MPEG flows N", ylabel="normalized throughput",
                 hlines=[(1.0, "fair share")]),
            Plot("nt-reno", "Normalized throughput of the Reno flows", "normalized_throughput", axis="n", group="part",
                 where={"label": "reno"}, xlabel="MPEG flows N", ylabel="normalized throughput", hlines=[(1.0, "fair share")]),
            Plot("nt-reno-only", "Reno flows alone: normalized throughput", "normalized_throughput", axis="reno_flows",
                 parts=["reno-only"], xlabel="Reno flows", ylabel="normalized throughput", hlines=[(1.0, "fair share")]),
        ],
    ),
    Figure(
        "fig17", "One DVRC flow across 1–10 hops with hop-local TCP (S5)", "Fig. 17",
        "Multi-hop chain of 1 Mbit/s links; each hop carries one forward and one backward Reno flow; the DVRC "
        "flow crosses every hop, joining at 10 s of a 200 s run. Throughput of DVRC and of the forward Reno "
        "flows against the hop count.",
        parts=[Part("dvrc", scenario(ByScale("60s", "200s"), multihop(1, "1Mbps"), [
            mpeg("dvrc", start="10s"),
            reno(1, label="reno-forward", span="per-hop"),
            reno(1, label="reno-backward", span="per-hop", direction="reverse"),
        ], warmup="12s"), axes=[Axis("topology.hops", ByScale([1, 4, 10], list(range(1, 11))), "hops")], seeds=SEEDS)],
        plots=[Plot("throughput", "Throughput vs hop count", "throughput_bps", axis="hops",
                    where={"label": ["dvrc", "reno-forward"]}, xlabel="hops", ylabel="throughput (Mbit/s)", scale=1e-6)],
    ),
    Figure(
        "fig18-20", "Multi-hop topology with 1–50 MPEG flows (S6)", "Fig. 18, 19a,b, 20a,b",
        "Chain of 5 hops of 10 Mbit/s; one forward and one backward Reno flow per hop; 1–50 end-to-end MPEG "
        "flows of DVRC, TFRC or RTCP/UDP.",
        parts=mpeg_parts(lambda n: scenario(DURATION, multihop(5, "10Mbps"), [
            mpeg(n),
            reno(1, label="reno-forward", span="per-hop"),
            reno(1, label="reno-backward", span="per-hop", direction="reverse"),
        ]), ("dvrc", "tfrc", "rtcp-udp")),
        plots=[S2_PLOTS[0], S2_PLOTS[2], S2_PLOTS[3], S2_PLOTS[4]],
    ),
]


# ---- checks ---------------------------------------------------------------------------------


def _summary(d, metric, parts, labels, *, table="run_flows", by="n", within="mean", group="label"):
    return d.summary(metric, by=by, group=group, table=table, part=list(parts), where={"label": list(labels)}, within_run=within)


def _max_n(s):
    return [s["n"].max()] if not s.empty else []


def c2(d):
    s = d.summary("cov", by=None, part="dvrc", within_run="min")  # per run: the smaller Reno CoV
    return ordering(s, "reno", "dvrc", name="CoV (Reno: the smaller of the two)")


def c3(d):
    return ordering(d.summary("cov", by=None, part=["dvrc", "tfrc"], where={"label": ["dvrc", "tfrc"]}), "tfrc", "dvrc", name="CoV")


def c4(d):
    """§5.1, Fig. 7: "delay jitter does not exceed the frustrating limit of 75 ms" — the jitter J of
    Eq. (13) (``video_summary.jitter_max_ns``, its maximum over the run) — "while a high proportion of
    inter-arrival times are monitored with values below 50 ms" (read: more than half of them)."""
    import numpy as np

    gaps = []
    flows = d.flows("dvrc", {"label": "dvrc"})
    for r in d.runs("dvrc").to_dict("records"):
        pk = d.series(r["run_id"], "packets")
        ids = set(flows[flows["run_id"] == r["run_id"]]["flow"])
        arr = np.sort(pk[pk["flow"].isin(ids) & (pk["fate"] == "delivered") & (pk["arrival_ns"] >= 2_000_000_000)]["arrival_ns"].to_numpy())
        gaps.append(np.diff(arr) / 1e6)
    g = np.concatenate(gaps) if gaps else np.array([])
    v = video_flows(d, "dvrc", {"label": "dvrc"})
    if g.size == 0 or v.empty:
        return Verdict(FAIL, {}, "no DVRC packets or video summary after the warm-up")
    jmax = float(v["jitter_max_ns"].max()) / 1e6
    below = float((g < 50).mean())
    measured = {"jitter J (Eq. 13) max over runs (ms)": jmax, "share of inter-arrival times < 50 ms": below,
                "inter-arrival max (ms)": float(g.max())}
    ok = jmax <= 75 and below > 0.5
    return Verdict(PASS if ok else FAIL, measured, f"jitter max {jmax:.1f} ms ({'≤' if jmax <= 75 else '>'} 75), "
                   f"{100 * below:.1f} % of inter-arrival times below 50 ms ({'more' if below > 0.5 else 'not more'} than half)")


def c5(d):
    s = _summary(d, "goodput_bps", MPEG[:3], MPEG[:3], within="sum")
    big = [n for n in s["n"].unique() if n >= 40]
    return all_of(ordering(s, "dvrc", "tcpw+", by="n", at=big, name="aggregate goodput"),
                  ordering(s, "tfrc", "tcpw+", by="n", at=big, name="aggregate goodput"))


def c6(d):
    return ordering(_summary(d, "cov", ("dvrc", "tcpw+"), ("dvrc", "tcpw+")), "tcpw+", "dvrc", by="n", name="CoV")


def packet_drop_rate(d, labels):
    """The paper's Packet Drop Rate (§4.2: "the ratio of the number of lost packets over the number
    of packets sent by the application"), per label and N, mean over seeds: ``video_summary``'s
    ``packet_drop_rate`` for the video protocols. TCPW+ retransmits every loss, so its video loses
    no packet; its "packet loss" (§5.2) is read as the network drops of its segments
    (``run_flows.drop_rate``, docs/papers/dvrc.md [I])."""
    import pandas as pd

    from vidcc.analysis import summarize

    video = [x for x in labels if x != "tcpw+"]
    v = video_flows(d, video, {"label": video})
    rows = [v[["run_id", "part", "seed", "n", "label", "packet_drop_rate"]]] if not v.empty else []
    if "tcpw+" in labels:
        t = d.flows("tcpw+", {"label": "tcpw+"})
        if not t.empty:
            rows.append(t[["run_id", "part", "seed", "n", "label"]].assign(packet_drop_rate=t["drop_rate"]))
    if not rows:
        return pd.DataFrame()
    return summarize(pd.concat(rows, ignore_index=True), "packet_drop_rate", by="n")


def c8(d):
    s = packet_drop_rate(d, MPEG[:3])
    return all_of(ordering(s, "tfrc", "dvrc", by="n", name="packet drop rate"),
                  ordering(s, "tcpw+", "dvrc", by="n", name="packet drop rate"))


def c10(d):
    s = _summary(d, "jain", MPEG[:3], MPEG[:3], table="run_aggregate")
    return all_of(bound(s[s["label"] == "dvrc"], ">=", 0.95, name="Jain (DVRC)"),
                  ordering(s, "dvrc", "tfrc", by="n", margin=-0.02, name="Jain (DVRC ≥ TFRC − 0.02)"),
                  ordering(s, "dvrc", "tcpw+", by="n", margin=-0.02, name="Jain (DVRC ≥ TCPW+ − 0.02)"))


def c11(d):
    s = _summary(d, "worst_case_fairness", MPEG[:3], MPEG[:3], table="run_aggregate")
    return all_of(direction(s, "n", increasing=False, group="label", of="tfrc", name="WCF (TFRC)"),
                  direction(s, "n", increasing=False, group="label", of="tcpw+", name="WCF (TCPW+)"),
                  ordering(s, "dvrc", "tfrc", by="n", at=_max_n(s), name="WCF at the largest N"),
                  ordering(s, "dvrc", "tcpw+", by="n", at=_max_n(s), name="WCF at the largest N"))


def c12(d):
    here = _summary(d, "jain", ("dvrc", "tfrc"), ("dvrc", "tfrc"), table="run_aggregate")
    there = _summary(d.other("fig8-10"), "jain", ("dvrc", "tfrc"), ("dvrc", "tfrc"), table="run_aggregate")
    n = here["n"].max()
    drop = {}
    for lab in ("dvrc", "tfrc"):
        a = there[(there["label"] == lab) & (there["n"] == n)]["mean"]
        b = here[(here["label"] == lab) & (here["n"] == n)]["mean"]
        drop[lab] = float(a.iloc[0] - b.iloc[0]) if len(a) and len(b) else float("nan")
    measured = {f"Jain drop Fig10a→10c at N={n} ({k})": v for k, v in drop.items()}
    v = ordering(here, "dvrc", "tfrc", by="n", at=[n], name="Jain (S2c)")
    ok = drop["tfrc"] > drop["dvrc"]
    largest = Verdict(PASS if ok else FAIL, measured,
                      f"TFRC's Jain drop from Fig. 10a ({drop['tfrc']:.3f}) {'exceeds' if ok else 'does not exceed'} DVRC's ({drop['dvrc']:.3f})")
    return all_of(v, largest)


def c13(d):
    """§5.2, Fig. 11: UDP "results in rapidly growing queues and eventually in buffer overflows" while
    DVRC "results in variable buffer conditions … occasionally enforces a persistent buffer draining
    phase": time at ≥ 90 % of R2's buffer higher with UDP, and at least one full → low excursion of
    R2's queue per DVRC run on average ("occasionally")."""
    from vidcc.analysis import summarize

    q = queue_stats(d, ["dvrc", "udp"], "R2->R3")
    q["label"] = q["part"]
    dv = q[q["part"] == "dvrc"]
    phases = [cross_traffic.draining_phases(d, r, lim) for r, lim in zip(dv["run_id"], dv["queue_limit"])]
    mean = sum(phases) / len(phases) if phases else float("nan")
    drains = Verdict(PASS if mean >= 1 else FAIL, {"draining phases of R2's queue per DVRC run": mean},
                     f"{mean:.1f} full → low draining phases of R2's queue per DVRC run (want ≥ 1)")
    return all_of(ordering(summarize(q, "frac_full", group="label"), "udp", "dvrc", name="time at ≥90 % of the buffer"), drains)


def c14(d):
    s = _summary(d, "goodput_bps", ("dvrc", "tfrc", "rtcp-udp"), ("dvrc", "tfrc", "rtcp-udp"), within="sum")
    return all_of(ordering(s, "dvrc", "rtcp-udp", by="n", name="aggregate goodput"),
                  ordering(s, "tfrc", "rtcp-udp", by="n", name="aggregate goodput"),
                  ordering(s, "dvrc", "tfrc", by="n", margin=-0.15, relative=True, name="aggregate goodput (DVRC ≥ 0.85·TFRC)"))


def c16(d):
    s = packet_drop_rate(d, ("dvrc", "tfrc", "rtcp-udp"))
    return all_of(ordering(s, "tfrc", "dvrc", by="n", name="packet drop rate"),
                  ordering(s, "rtcp-udp", "dvrc", by="n", name="packet drop rate"))


def _several(s):
    """Fairness among the MPEG flows is only defined for N ≥ 2 (one flow is trivially fair: 1 = 1)."""
    return s[s["n"] >= 2] if not s.empty else s


def c17(d):
    j = _several(_summary(d, "jain", ("dvrc", "tfrc", "rtcp-udp"), ("dvrc", "tfrc", "rtcp-udp"), table="run_aggregate"))
    w = _several(_summary(d, "worst_case_fairness", ("dvrc", "tfrc", "rtcp-udp"), ("dvrc", "tfrc", "rtcp-udp"), table="run_aggregate"))
    return all_of(bound(j[j["label"].isin(["dvrc", "tfrc"])], ">=", 0.9, name="Jain"),
                  ordering(j, "dvrc", "rtcp-udp", by="n", name="Jain"), ordering(j, "tfrc", "rtcp-udp", by="n", name="Jain"),
                  ordering(w, "dvrc", "rtcp-udp", by="n", name="WCF"), ordering(w, "tfrc", "rtcp-udp", by="n", name="WCF"))


def c18(d):
    s = d.summary("normalized_throughput", by="n", group="part", part=["dvrc-20", "dvrc-40"], where={"label": "reno"})
    return within(s[s["n"] >= 20], 0.75, 1.25, name="NT of Reno with DVRC")


def c19(d):
    from vidcc.analysis import summarize

    t = d.summary("normalized_throughput", by="n", group="part", part=["tfrc-20", "tfrc-40"], where={"label": "tfrc"})
    r = d.summary("normalized_throughput", by="n", group="part", part=["tfrc-20", "tfrc-40"], where={"label": "reno"})
    f = d.flows(["dvrc-20", "dvrc-40", "tfrc-20", "tfrc-40"], {"label": "reno"}).copy()
    f["dev"] = (f["normalized_throughput"] - 1.0).abs()
    f["with"] = f["part"].str.split("-").str[0]
    dev = summarize(f, "dev", group="with")
    return all_of(bound(t, ">", 1.0, name="NT of TFRC"), bound(r, "<", 1.0, name="NT of Reno with TFRC"),
                  ordering(dev, "tfrc", "dvrc", group="with", name="mean |NT(Reno) − 1|"))


def c21(d):
    s = _summary(d, "goodput_bps", ("dvrc", "tfrc", "rtcp-udp"), ("dvrc", "tfrc", "rtcp-udp"), within="sum")
    big = [n for n in s["n"].unique() if n >= 10]
    return ordering(s, "dvrc", "rtcp-udp", by="n", at=big, name="aggregate goodput")


def c23(d):
    s = packet_drop_rate(d, ("dvrc", "tfrc", "rtcp-udp"))
    return all_of(ordering(s, "tfrc", "dvrc", by="n", name="packet drop rate"),
                  ordering(s, "rtcp-udp", "dvrc", by="n", name="packet drop rate"))


def c24(d):
    j = _several(_summary(d, "jain", ("dvrc",), ("dvrc",), table="run_aggregate"))
    w = _several(_summary(d, "worst_case_fairness", ("dvrc",), ("dvrc",), table="run_aggregate"))
    return all_of(bound(j, ">=", 0.95, name="Jain (DVRC)"), bound(w, ">=", 0.7, name="WCF (DVRC)"))


def b_reno_s4(d):
    nt = d.summary("normalized_throughput", by="reno_flows", part="reno-only")
    jain = d.summary("jain", by="reno_flows", table="run_aggregate", part="reno-only", where={"label": "reno"})
    return all_of(within(nt, 0.9, 1.1, name="NT (Reno)"), bound(jain, ">=", 0.9, name="Jain (Reno)"))


def b_udp_queue(d):
    from vidcc.analysis import summarize

    q = queue_stats(d, "udp", "R2->R3")
    full = summarize(q, "frac_full", group=None)
    drops = d.summary("drop_rate", part="udp", where={"label": "udp"})
    return all_of(bound(full, ">=", 0.9, name="share of time at ≥90 % of the R2 buffer"),
                  bound(drops, ">", 0.5, name="drop rate of the UDP video flows"),
                  Verdict(PASS, {"mean R2 queue (packets)": float(q["mean_queue"].mean()),
                                 "R2 buffer (packets)": float(q["queue_limit"].iloc[0])}, "queue reported"))


def _video(d, metric, labels, by="n"):
    """Mean over seeds of a video metric (per flow: vdi, delayed_packet_rate, ...) per label."""
    from vidcc.analysis import summarize

    return summarize(video_flows(d, list(labels), {"label": list(labels)}), metric, by=by)


def c7(d):
    s = _video(d, "vdi", ("dvrc", "tfrc", "tcpw+"))
    return all_of(ordering(s, "dvrc", "tfrc", by="n", name="VDI"), ordering(s, "dvrc", "tcpw+", by="n", name="VDI"),
                  direction(s, "n", increasing=True, group="label", of="dvrc", how="endpoints", min_change=-0.1,
                            name="VDI of DVRC (falls by less than 0.1)"))


def c9(d):
    s = _video(d, "delayed_packet_rate", ("dvrc", "tfrc", "tcpw+"))
    return all_of(ordering(s, "tcpw+", "dvrc", by="n", name="delayed-packet rate"),
                  ordering(s, "tcpw+", "tfrc", by="n", name="delayed-packet rate"))


def c15(d):
    s = _video(d, "vdi", ("dvrc", "tfrc", "rtcp-udp"))
    return all_of(ordering(s, "dvrc", "tfrc", by="n", name="VDI"), ordering(s, "dvrc", "rtcp-udp", by="n", name="VDI"),
                  direction(s, "n", increasing=True, group="label", of="dvrc", how="endpoints", min_change=-0.1,
                            name="VDI of DVRC (roughly flat: falls by less than 0.1)"),
                  direction(s, "n", increasing=False, group="label", of="tfrc", name="VDI of TFRC"),
                  direction(s, "n", increasing=False, group="label", of="rtcp-udp", name="VDI of RTCP/UDP"))


def c22(d):
    from vidcc.analysis import summarize

    s = _video(d, "vdi", ("dvrc", "tfrc", "rtcp-udp"))
    s6 = summarize(video_flows(d, "dvrc", {"label": "dvrc"}), "vdi", group=None)
    s3 = summarize(video_flows(d.other("fig12-14"), "dvrc", {"label": "dvrc"}), "vdi", group=None)
    below = float(s6["mean"].iloc[0]) < float(s3["mean"].iloc[0]) if len(s6) and len(s3) else False
    return all_of(ordering(s, "dvrc", "tfrc", by="n", name="VDI"), ordering(s, "dvrc", "rtcp-udp", by="n", name="VDI"),
                  Verdict(PASS if below else FAIL,
                          {"VDI of DVRC in S6": float(s6["mean"].iloc[0]) if len(s6) else None,
                           "VDI of DVRC in S3": float(s3["mean"].iloc[0]) if len(s3) else None},
                          "DVRC's VDI in S6 is " + ("below" if below else "not below") + " its S3 value"))


def _md_share(d, part, label="dvrc"):
    """Per run: DVRC's loss-event classes after the warm-up (events ``loss_class``: 1 =
    multiplicative, 0 = additive; DTO expiries, always multiplicative [D §1.1.6], are the
    ``timeout`` events and are counted apart, they are not the classifier's decision)."""
    import pandas as pd

    flows = d.flows(part, {"label": label})
    rows = []
    for r in d.runs(part).to_dict("records"):
        ids = set(flows[flows["run_id"] == r["run_id"]]["flow"])
        ev = d.series(r["run_id"], "events")
        if ev.empty:  # a run without events: no loss event at all
            ev = pd.DataFrame({"t_ns": [], "flow": [], "side": [], "kind": [], "value": []})
        ev = ev[ev["flow"].isin(ids) & (ev["side"] == "receiver") & (ev["t_ns"] >= warmup_ns(r))]
        cls = ev[ev["kind"] == "loss_class"]["value"]
        md, ad, to = int((cls == 1).sum()), int((cls == 0).sum()), int((ev["kind"] == "timeout").sum())
        rows.append({**{k: r[k] for k in ("run_id", "part", "seed", "n") if k in r},
                     "md": md, "ad": ad, "timeouts": to, "md_share": md / (md + ad) if md + ad else float("nan")})
    return pd.DataFrame(rows)


def c1(d):
    from vidcc.analysis import summarize

    m = _md_share(d, "dvrc")
    if m.empty:
        return Verdict(FAIL, {}, "no DVRC runs")
    v = bound(summarize(m, "md_share", group=None), "<", 0.5, name="MD share of DVRC's loss events")
    v.measured.update({"additive decreases (all runs)": int(m["ad"].sum()), "multiplicative decreases (all runs)": int(m["md"].sum()),
                       "DTO expiries (all runs, not classified)": int(m["timeouts"].sum())})
    return v


def c25(d):
    import pandas as pd

    from vidcc.analysis import summarize

    s6 = _md_share(d, "dvrc").assign(scenario="S6 (no link errors)")
    s2 = _md_share(d.other("fig8-10"), "dvrc").assign(scenario="S2 (Gilbert errors)")
    m = pd.concat([s6, s2], ignore_index=True)
    if s6.empty or s2.empty:
        return Verdict(FAIL, {}, "no DVRC runs in S6 or S2")
    s = summarize(m, "md_share", by="n", group="scenario")
    s = s.dropna(subset=["mean"])  # an N at which a scenario's DVRC flows had no classified loss event says nothing
    v = ordering(s, "S6 (no link errors)", "S2 (Gilbert errors)", group="scenario", by="n", name="MD share")
    # The paper's own words (§5.5, docs/papers/dvrc.md C25): with mostly congestive losses AIAMD
    # *mostly* uses multiplicative decrease: the pooled S6 share above one half.
    pooled = float(s6["md"].sum() / max(1, s6["md"].sum() + s6["ad"].sum()))
    mostly = Verdict(PASS if pooled > 0.5 else FAIL, {}, f"pooled MD share in S6 {pooled:.3f}, {'above' if pooled > 0.5 else 'not above'} "
                     f"0.5 ('mostly')")
    v = all_of(mostly, v)
    for sc, g in m.groupby("scenario"):
        v.measured[f"MD share pooled over runs ({sc})"] = g["md"].sum() / max(1, g["md"].sum() + g["ad"].sum())
        v.measured[f"largest MD share of a run ({sc})"] = float(g["md_share"].max())
    return v


N_CLASSIFIER = 1.5  # DVRC's n (docs/papers/dvrc.md §1.1.5 [P])


def c25_cause(d, measured) -> str:
    """Why C25 fails: the classifier's bound, with the shares measured in these runs."""
    import math

    shares = {k: v for k, v in measured.items() if k.startswith("MD share pooled") or k.startswith("largest MD share")}
    cells = "; ".join(f"{k} {v:.3f}" for k, v in shares.items())
    # For a normal law D̄ = σ·√(2/π): P(𝓜 < R̄ − n·D̄) = Φ(−n·√(2/π)).
    normal = 0.5 * (1 + math.erf(-N_CLASSIFIER * math.sqrt(2 / math.pi) / math.sqrt(2)))
    measured.update({"classifier n": N_CLASSIFIER, "bound 1/(2n) on the MD share": 1 / (2 * N_CLASSIFIER),
                     "MD share for a normal receiving rate": normal,
                     "D̄/σ for a normal law": math.sqrt(2 / math.pi)})
    return (f"a claim the mechanism cannot meet (docs/protocols/dvrc.md): a loss is multiplicative iff the receiving "
            f"rate 𝓜 < R̄ − n·D̄, with R̄ and D̄ the running mean and mean absolute deviation of that same rate, so "
            f"whatever causes the losses P(𝓜 < R̄ − n·D̄) ≤ 1/(2n) = {1 / (2 * N_CLASSIFIER):.2f} at n = {N_CLASSIFIER:g} "
            f"(Markov's inequality on (R̄ − 𝓜)⁺, whose mean is D̄/2 for any law of 𝓜 with mean R̄ and mean absolute "
            f"deviation D̄; {normal:.2f} for a normal law, whose D̄ = {math.sqrt(2 / math.pi):.3f}·σ; the filters only estimate R̄ and D̄): never "
            f"'mostly'. Measured: {cells}; the S6 vs S2 ordering compares two shares near that typical value")


def c25_bound(d, measured) -> str:
    """C25's over-claim evidence: the share of loss events AIAMD can judge congestive, bounded by
    its own rule, beside the shares these runs measured."""
    bound = 1 / (2 * N_CLASSIFIER)
    shares = {k: v for k, v in measured.items() if k.startswith("MD share pooled") or k.startswith("largest MD share")}
    measured["bound 1/(2n) on the MD share"] = bound
    worst = max(shares.values()) if shares else float("nan")
    return (f"at n = {N_CLASSIFIER:g} the MD share is at most 1/(2n) = {bound:.2f} whatever the loss process; "
            f"the largest measured here is {worst:.3f}")


C25_OVER_CLAIM = OverClaim(
    "AIAMD decreases multiplicatively iff the receiving rate 𝓜 < R̄ − n·D̄ (§3.2), R̄ and D̄ the running mean "
    "and mean absolute deviation of that same rate; (R̄ − 𝓜)⁺ has mean D̄/2, so by Markov's inequality at most "
    "1/(2n) of the loss events can be judged congestive, whatever causes them: never 'mostly'",
    bound=c25_bound,
)


def c26(d):
    """§5.2: "DVRC can achieve satisfactory performance with a small number of layers (4–5
    layers)", said of video delivery (the paragraph on Fig. 9). The paper gives no threshold; the
    test asks that the 4-layer video is delivered as well as the 5-layer one the paper's figures
    show: at every N the VDI with k = 4 is not below the lower end of the 95 % confidence interval
    (over seeds) of the VDI with k = 5. Goodput is reported, not tested: a coarser layer vector
    sends less by construction, which the paper does not call unsatisfactory."""
    from vidcc.analysis import summarize

    v = summarize(video_flows(d, ["dvrc", "dvrc-k4"], {"label": ["dvrc", "dvrc-k4"]}), "vdi", by="n")
    g = _summary(d, "goodput_bps", ("dvrc", "dvrc-k4"), ("dvrc", "dvrc-k4"), within="sum")
    if v.empty:
        return Verdict(FAIL, {}, "no video summary for DVRC with k = 4 or k = 5")
    k5 = v[v["label"] == "dvrc"].set_index("n")
    k4 = v[v["label"] == "dvrc-k4"].set_index("n")
    measured, bad = {}, []
    for n in sorted(set(k5.index) & set(k4.index)):
        lo = float(k5.loc[n, "ci_low"]) if k5.loc[n, "runs"] > 1 else float(k5.loc[n, "mean"])
        measured[f"VDI k=5 [n={n}]"], measured[f"VDI k=5 95 % CI low [n={n}]"] = float(k5.loc[n, "mean"]), lo
        measured[f"VDI k=4 [n={n}]"] = float(k4.loc[n, "mean"])
        if not float(k4.loc[n, "mean"]) >= lo:
            bad.append(n)
    for r in g.to_dict("records"):
        measured[f"aggregate goodput (Mbit/s) [{r['label']}, n={r['n']}]"] = r["mean"] / 1e6
    if not measured or bad:
        return Verdict(FAIL, measured, f"VDI with k = 4 below the 95 % interval of k = 5's at N = {', '.join(map(str, bad))}"
                       if bad else "no common N for k = 4 and k = 5")
    return Verdict(PASS, measured, "VDI with k = 4 within or above the 95 % interval of k = 5's at every N")


# Why a claim does not reproduce: each claim's ``cause``, computed from the claim's own runs when
# its check fails (every number it states is put into the claim's ``measured``).


def _classes(d, parts) -> tuple[int, int]:
    """(multiplicative, additive) loss events of the DVRC flows of ``parts`` after the warm-up."""
    m = _md_share(d, parts if isinstance(parts, str) else list(parts))
    return (int(m["md"].sum()), int(m["ad"].sum())) if not m.empty else (0, 0)


def ad_cause(parts="dvrc", *, then: str = "DVRC keeps loading the bottleneck like an AIAD control", lead: str = ""):
    """A cause from DVRC's own loss classes in these runs: the share of its loss events AIAMD judged
    random (additive decrease) and what follows from it (``then``)."""
    def cause(d, m):
        md, ad = _classes(d, parts)
        m["DVRC loss events after the warm-up (all runs)"] = md + ad
        m["of which additive decreases (judged random)"] = ad
        if md + ad == 0:
            return f"{lead}no classified loss event of the DVRC flows in these runs: the cause is not measured"
        m["MD share of DVRC's loss events"] = md / (md + ad)
        return (f"{lead}AIAMD judged {ad} of DVRC's {md + ad} loss events random (MD share {md / (md + ad):.3f}) and "
                f"decreased additively, so {then}")
    return cause


_UNFAIR = "the DVRC flows' throughputs spread: near-AIAD control does not converge to fairness (Chiu–Jain)"


def c3_cause(d, m):
    f = d.flows(["dvrc", "tfrc"], {"label": ["dvrc", "tfrc"]})
    for lab, g in f.groupby("label"):
        m[f"network drop ratio ({lab})"] = float(g["drop_rate"].mean())
    return (f"DVRC sends each frame's packets back to back at the frame's instant and loses "
            f"{m.get('network drop ratio (dvrc)', float('nan')):.3f} of them in the network, TFRC paces its equation "
            f"rate out of an unbounded sender buffer (drop ratio {m.get('network drop ratio (tfrc)', float('nan')):.3f}), "
            f"which smooths the VBR source")


def c12_cause(d, m):
    drops = {k: v for k, v in m.items() if k.startswith("Jain drop Fig10a→10c")}
    cells = ", ".join(f"{k.rsplit('(', 1)[-1].rstrip(')')} {v:.3f}" for k, v in drops.items())
    return (f"with ns-2's Agent/TFRC defaults TFRC's Jain index across the strongly varying RTTs of S2c falls "
            f"no more than DVRC's from Fig. 10a (drops: {cells}); docs/protocols/tfrc.md compares these defaults "
            f"with the RFC's")


def c26_cause(d, m):
    for name, video in (("k=5", VIDEO), ("k=4", VIDEO_K4)):
        m[f"cumulative layer rates, {name} (kbit/s)"] = ", ".join(x.removesuffix("kbps") for x in video["layers"])
    return ("the k = 4 vector is the suite's (the paper's is lost): a flow whose rate lies between the two vectors' "
            "top steps sends a lower cumulative layer with k = 4 than with k = 5")


CAUSES = {
    "C3": c3_cause,
    "C7": ad_cause(then="DVRC loses more of its video than the other protocols"),
    "C8": ad_cause(then="DVRC keeps loading the bottleneck like an AIAD control and drops more"),
    "C10": ad_cause(then=_UNFAIR),
    "C11": ad_cause(then=_UNFAIR),
    "C13": ad_cause(then="DVRC keeps R2's queue near its limit, with few draining phases"),
    "C15": ad_cause(then="DVRC loses more of its video as N grows"),
    "C16": ad_cause(then="DVRC keeps loading the bottleneck like an AIAD control and drops more"),
    "C17": ad_cause(then=_UNFAIR + ", and the layer steps freeze the differences"),
    "C18": ad_cause(("dvrc-20", "dvrc-40"), then="the DVRC flows take more than their share from Reno"),
    "C12": c12_cause,
    "C19": ad_cause(("dvrc-20", "dvrc-40"), then="DVRC, too, pushes Reno away from its share"),
    "C20": ad_cause(then="at one hop DVRC takes more than its share; across several congested hops the end-to-end "
                         "flow meets every hop's losses while each hop's Reno meets one"),
    "C22": ad_cause(then="DVRC loses more of its video than the other protocols"),
    "C23": ad_cause(then="DVRC keeps loading the bottleneck like an AIAD control and drops more"),
    "C24": ad_cause(then=_UNFAIR + ", and the layer steps freeze the differences"),
    "C26": c26_cause,
}


CLAIMS = [
    Claim("C1", "Under 3 % random loss most DVRC loss events get an additive decrease; multiplicative decreases are infrequent (MD share < 0.5).",
          "fig3", ("dvrc",), c1, ref="§3.2, Fig. 3"),
    Claim("C2", "DVRC's rate fluctuates far less than either Reno flow: CoV(DVRC) < min CoV(Reno).", "fig6", ("dvrc",), c2,
          ref="§5.1, Fig. 6"),
    Claim("C3", "CoV_DVRC = 0.1854 < CoV_TFRC = 0.2229: test the ordering.", "fig6", ("dvrc", "tfrc"), c3, ref="§5.1",
          cause=CAUSES["C3"]),
    Claim("C4", "DVRC's delay jitter (Eq. 13) never exceeds 75 ms (max ≤ 75 ms) and most inter-arrival times are below 50 ms (share > 0.5).", "fig6", ("dvrc",), c4,
          ref="§5.1, Fig. 7"),
    Claim("C5", "Goodput vs N: TFRC comparable to DVRC; at N = 40–50 TCPW+ falls below DVRC and TFRC.", "fig8-10",
          ("dvrc", "tfrc", "tcp-westwood-plus"), c5, needs=("video-over-tcp",), ref="§5.2, Fig. 8a"),
    Claim("C6", "DVRC's CoV stays small at every N: CoV(DVRC) < CoV(TCPW+) at every N.", "fig8-10", ("dvrc", "tcp-westwood-plus"), c6,
          needs=("video-over-tcp",), ref="§5.2, Fig. 8b"),
    Claim("C7", "DVRC has the highest VDI at every N, falling only slightly with N; TFRC lower; TCPW+ lowest.", "fig8-10",
          ("dvrc", "tfrc", "tcp-westwood-plus"), c7, needs=("video-over-tcp",), ref="§5.2, Fig. 9a", cause=CAUSES["C7"]),
    Claim("C8", "Packet Drop Rate (lost ÷ sent by the application; TCPW+: network drops of its segments): DVRC low; TFRC and TCPW+ higher than DVRC.", "fig8-10", ("dvrc", "tfrc", "tcp-westwood-plus"), c8,
          needs=("video-over-tcp",), ref="§5.2, Fig. 9b", cause=CAUSES["C8"]),
    Claim("C9", "Delayed-packet rate: DVRC and TFRC low; TCPW+ clearly the highest.", "fig8-10", ("dvrc", "tfrc", "tcp-westwood-plus"),
          c9, needs=("video-over-tcp",), ref="§5.2, Fig. 9c"),
    Claim("C10", "Jain's index of DVRC ≈ 1 at every N (≥ 0.95); TFRC and TCPW+ high but not above DVRC.", "fig8-10",
          ("dvrc", "tfrc", "tcp-westwood-plus"), c10, needs=("video-over-tcp",), ref="§5.2, Fig. 10a", cause=CAUSES["C10"]),
    Claim("C11", "Worst-case fairness: DVRC stays high; TFRC and TCPW+ trend down with N, ending below DVRC.", "fig8-10",
          ("dvrc", "tfrc", "tcp-westwood-plus"), c11, needs=("video-over-tcp",), ref="§5.2, Fig. 10b", cause=CAUSES["C11"]),
    Claim("C12", "Varying RTTs (S2c): DVRC stays adequate; TFRC shows the largest Jain drop relative to Fig. 10a, ending below DVRC.",
          "fig10c", ("dvrc", "tfrc"), c12, ref="§5.2, Fig. 10c", cause=CAUSES["C12"]),
    Claim("C13", "R2 queue: with plain UDP it stays full, with DVRC it varies with occasional draining phases: time at ≥ 90 % of the buffer higher for UDP; ≥ 1 full → low draining phase per DVRC run.",
          "fig11", ("dvrc",), c13, parts=("dvrc", "udp"), ref="§5.2, Fig. 11", cause=CAUSES["C13"]),
    Claim("C14", "S3 goodput: DVRC ≈ TFRC > RTCP/UDP; DVRC stays high at large N.", "fig12-14", ("dvrc", "tfrc", "rtcp-udp"), c14,
          ref="§5.3, Fig. 12"),
    Claim("C15", "S3 VDI: DVRC high and roughly flat in N; TFRC and RTCP/UDP lower and degrading with N.", "fig12-14",
          ("dvrc", "tfrc", "rtcp-udp"), c15, ref="§5.3, Fig. 13a", cause=CAUSES["C15"]),
    Claim("C16", "S3 Packet Drop Rate (lost ÷ sent by the application): DVRC relatively low; TFRC and RTCP/UDP higher than DVRC.", "fig12-14", ("dvrc", "tfrc", "rtcp-udp"), c16,
          ref="§5.3, Fig. 13b", cause=CAUSES["C16"]),
    Claim("C17", "S3 fairness: DVRC and TFRC fair (high FI); RTCP/UDP clearly less fair (lowest FI and WCF).", "fig12-14",
          ("dvrc", "tfrc", "rtcp-udp"), c17, ref="§5.3, Fig. 14a,b", cause=CAUSES["C17"]),
    Claim("C18", "S4: with DVRC the Reno flows get ≈ their fair share: NT(Reno) within [0.75, 1.25] for N ≥ 20.", "fig15-16", ("dvrc",), c18,
          ref="§5.4, Fig. 15a,b", cause=CAUSES["C18"]),
    Claim("C19", "S4 with TFRC: NT(TFRC) > 1 and NT(Reno) < 1; mean |NT_Reno − 1| larger with TFRC than with DVRC.", "fig15-16",
          ("dvrc", "tfrc"), c19, ref="§5.4, Fig. 16a,b", cause=CAUSES["C19"]),
    Claim("C20", "S5: the DVRC flow and the forward Reno flows each get ≈ the fair share (500 kbit/s: NT within [0.7, 1.3]) at every hop count.", "fig17",
          ("dvrc",), lambda d: within(d.summary("normalized_throughput", by="hops", where={"label": ["dvrc", "reno-forward"]}),
                                      0.7, 1.3, name="NT (fair share 500 kbit/s)"),
          ref="§5.5, Fig. 17", cause=CAUSES["C20"]),
    Claim("C21", "S6 goodput: DVRC stays high at large N; RTCP/UDP is limited (below DVRC).", "fig18-20", ("dvrc", "tfrc", "rtcp-udp"), c21,
          ref="§5.5, Fig. 18"),
    Claim("C22", "S6 VDI: DVRC best, slightly below its S3 value; TFRC and RTCP/UDP lower.", "fig18-20", ("dvrc", "tfrc", "rtcp-udp"),
          c22, ref="§5.5, Fig. 19a", cause=CAUSES["C22"]),
    Claim("C23", "S6 Packet Drop Rate (lost ÷ sent by the application): DVRC lowest; TFRC and RTCP/UDP suffer more loss.", "fig18-20", ("dvrc", "tfrc", "rtcp-udp"), c23,
          ref="§5.5, Fig. 19b", cause=CAUSES["C23"]),
    Claim("C24", "S6 fairness: DVRC flows get near-equal throughput (Jain ≥ 0.95, WCF ≥ 0.7).", "fig18-20", ("dvrc",), c24,
          ref="§5.5, Fig. 20a,b", cause=CAUSES["C24"]),
    Claim("C25", "With mostly congestive losses (S6/S4) DVRC mostly uses multiplicative decrease (pooled MD share > 0.5), and more often "
          "than in S2 (Gilbert errors).",
          "fig18-20", ("dvrc",), c25, ref="§5.5", cause=c25_cause, category=C25_OVER_CLAIM),
    Claim("C26", "4–5 layers suffice: the VDI with k = 4 is at every N within or above the 95 % interval of the VDI with k = 5 (goodput reported).", "fig8-10", ("dvrc",),
          c26, parts=("dvrc-k4",), ref="§5.2", cause=CAUSES["C26"]),
    Claim("B1", "Baseline: in the S4 dumbbell (10 Mbit/s, 70 ms, 88-packet buffer) 20 and 40 Reno flows alone share fairly: mean normalized throughput within [0.9, 1.1] and Jain ≥ 0.9.",
          "fig15-16", ("tcp-reno",), b_reno_s4, kind="baseline", parts=("reno-only",)),
    Claim("B2", "Baseline (the plain-UDP half of C13): 40 plain UDP flows sending the full-quality video (≈ 41 Mbit/s offered to the 5 Mbit/s R1–R2 link) keep R2's queue full: a share ≥ 0.9 of the time at ≥ 90 % of the buffer, and a drop rate > 0.5 of the UDP packets.",
          "fig11", ("udp", "tcp-reno"), b_udp_queue, kind="baseline", parts=("udp",)),
]

# The readings docs/papers/dvrc.md left open that the code exposes (``vidcc reproduce dvrc
# --explore``), and the claims each may bear on.
ALTERNATIVES = [
    Alternative("pacing", "dvrc", {"pacing": True}, "docs/papers/dvrc.md §1.1 reading (b); paper §3.1",
                note="the sender paces packets at the receiver's rate R instead of sending each frame's packets back to "
                "back. The paper says data are 'sent out based on the determined rate at the receiving end' (§3.1). A "
                "reading outside the project found Jain 0.99–0.998 with pacing where frame bursts meeting the DropTail "
                "queue at fixed phases gave 0.7–0.8."),
    Alternative("alpha-per-second", "dvrc", {"alpha_unit": "packets_per_second"}, "docs/papers/dvrc.md A5",
                note="α as one packet per second per round instead of one packet per RTT: a far slower additive "
                "increase, which leaves the competing Reno flows more room."),
    Alternative("compare-r-prev", "dvrc", {"compare": "r_prev"}, "docs/papers/dvrc.md A7 (Eq. 11 as printed)",
                note="the loss classifier compares the previous computed rate R(t−1), as Eq. (11) prints, instead of "
                "the receiving rate measured at the loss (the prose and Fig. 3)."),
]
_EXPLORE = {
    "pacing": ("C12", "C15", "C16", "C17", "C18", "C20", "C22", "C23", "C24"),
    "alpha-per-second": ("C3", "C18", "C19", "C20"),
    "compare-r-prev": ("C1", "C25"),
}
CLAIMS = with_alternatives_named(CLAIMS, _EXPLORE)

SUITE = Suite("dvrc", "DVRC: a receiver-centric rate control scheme for layered video streams",
              "Papadimitriou, Tsaoussidis, Mamatas, J. Systems and Software 81(12), 2008", "docs/papers/dvrc.md",
              FIGURES, CLAIMS, notes=reconstruction_notes(__doc__), alternatives=ALTERNATIVES)
