"""The DVRC suite's figures: each a set of parts (the runs) and plots."""

from __future__ import annotations

from vidcc.papers.building import scenario
from vidcc.papers.dvrc.scenarios import (
    DURATION,
    HOPS,
    MPEG,
    S1_TOPO,
    S2C_TOPO,
    S4_TOPO,
    SEEDS,
    SHORT_DURATION,
    VIDEO_K4,
    mpeg,
    mpeg_parts,
    n_axis,
    random_loss_topology,
    reno,
    s2,
    s5,
    s6,
)
from vidcc.papers.model import Axis, Figure, Part, Plot


def rate_plot(part: str) -> Plot:
    return Plot(f"rate-{part}", "Throughput, 150 ms samples", "throughput_bps", kind="series", table="flow_samples",
                parts=[part], ylabel="throughput (Mbit/s)", scale=1e-6)


def versus_n(pid: str, title: str, metric: str, ylabel: str, *, table="run_flows", labels=MPEG, within="mean",
             scale=1.0, parts=None) -> Plot:
    return Plot(pid, title, metric, axis="n", table=table, where={"label": list(labels)}, within_run=within,
                xlabel="MPEG flows N", ylabel=ylabel, scale=scale, parts=parts)


GOODPUT = versus_n("goodput", "Aggregate goodput of the MPEG flows", "goodput_bps", "goodput (Mbit/s)", within="sum",
                   scale=1e-6)
COV = versus_n("cov", "CoV of throughput (150 ms), mean over MPEG flows", "cov", "CoV")
DROPS = versus_n("drops", "Packet drop rate of the MPEG flows", "drop_rate", "drop rate")
JAIN = versus_n("jain", "Jain's fairness index among the MPEG flows", "jain", "Jain's index", table="run_aggregate")
WCF = versus_n("wcf", "Worst-case fairness among the MPEG flows", "worst_case_fairness", "min/max",
               table="run_aggregate")


def queue_plot(part: str) -> Plot:
    return Plot(f"queue-{part}", "Queue at R2 (towards R3)", "packets", kind="series", table="queue_samples",
                parts=[part], line="link", only=["R2->R3"], ylabel="packets")


def _nt_plot(pid: str, title: str, label, **kw) -> Plot:
    return Plot(pid, title, "normalized_throughput", **kw, where={"label": label}, ylabel="normalized throughput",
                hlines=[(1.0, "fair share")])


FIGURES = [
    Figure(
        "fig3", "AIAMD loss classification under random loss (S0)", "Fig. 3",
        "One DVRC flow and one Reno flow on a 1 Mbit/s path with 3 % random packet errors on the DVRC "
        "receiver's access link: which loss events AIAMD treats as random (additive decrease) and which "
        "as congestion (multiplicative decrease).",
        parts=[Part("dvrc", scenario(SHORT_DURATION, random_loss_topology(),
                                     [mpeg("dvrc", src="DS", dst="DD"), reno(1, src="TS", dst="TD")]),
                    seeds=SEEDS)],
        plots=[rate_plot("dvrc")],
    ),
    Figure(
        "fig6", "DVRC against two Reno flows on a 1 Mbit/s dumbbell (S1)", "Fig. 6, Fig. 7, §5.1 CoV",
        "Sending rate (150 ms bins) of one MPEG flow over DVRC, then over TFRC, sharing a 1 Mbit/s, 70 ms "
        "dumbbell with two FTP/Reno flows; CoV of the MPEG flow.",
        parts=[Part(n, scenario(SHORT_DURATION, S1_TOPO, [mpeg(n), reno(2)], packet_log=True), seeds=SEEDS)
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
               Part("dvrc-k4", s2("dvrc", mpeg_keys={"label": "dvrc-k4", "video": VIDEO_K4}), axes=[n_axis()],
                    seeds=SEEDS)],
        plots=[GOODPUT, COV, DROPS, JAIN, WCF],
    ),
    Figure(
        "fig10c", "Fairness with strongly varying RTTs, no cross traffic (S2c)", "Fig. 10c",
        "The MPEG flows alone (no TCP, no link errors) with access delays drawn from U[5, 100] ms.",
        parts=mpeg_parts(lambda n: scenario(DURATION, S2C_TOPO, [mpeg(n)]), ("dvrc", "tfrc", "tcpw+")),
        plots=[JAIN],
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
        plots=[GOODPUT, DROPS, JAIN, WCF],
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
            _nt_plot("nt-mpeg", "Normalized throughput of the MPEG flows", ["dvrc", "tfrc"], axis="n", group="part",
                     xlabel="MPEG flows N"),
            _nt_plot("nt-reno", "Normalized throughput of the Reno flows", "reno", axis="n", group="part",
                     xlabel="MPEG flows N"),
            _nt_plot("nt-reno-only", "Reno flows alone: normalized throughput", "reno", axis="reno_flows",
                     parts=["reno-only"], xlabel="Reno flows"),
        ],
    ),
    Figure(
        "fig17", "One DVRC flow across 1–10 hops with hop-local TCP (S5)", "Fig. 17",
        "Multi-hop chain of 1 Mbit/s links; each hop carries one forward and one backward Reno flow; the DVRC "
        "flow crosses every hop, joining at 10 s of a 200 s run. Throughput of DVRC and of the forward Reno "
        "flows against the hop count.",
        parts=[Part("dvrc", s5(), axes=[Axis("topology.hops", HOPS, "hops")], seeds=SEEDS)],
        plots=[Plot("throughput", "Throughput vs hop count", "throughput_bps", axis="hops",
                    where={"label": ["dvrc", "reno-forward"]}, xlabel="hops", ylabel="throughput (Mbit/s)",
                    scale=1e-6)],
    ),
    Figure(
        "fig18-20", "Multi-hop topology with 1–50 MPEG flows (S6)", "Fig. 18, 19a,b, 20a,b",
        "Chain of 5 hops of 10 Mbit/s; one forward and one backward Reno flow per hop; 1–50 end-to-end MPEG "
        "flows of DVRC, TFRC or RTCP/UDP.",
        parts=mpeg_parts(s6, ("dvrc", "tfrc", "rtcp-udp")),
        plots=[GOODPUT, DROPS, JAIN, WCF],
    ),
]
