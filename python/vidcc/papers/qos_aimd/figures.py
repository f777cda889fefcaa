"""The QoS-AIMD suite's figures: each a set of parts (the runs) and plots."""

from __future__ import annotations

from vidcc.papers.model import Axis, Figure, Part, Plot
from vidcc.papers.qos_aimd.scenarios import (
    BACKBONE_N,
    FIG5_PE,
    FIG5_RWND,
    FIG6_N,
    FIG6_PE,
    NEEDS,
    OPT_PE,
    OPT_RWND,
    PE_AXIS,
    SEEDS,
    UDP_RATES,
    backbone,
    fig5,
    fig6,
    fig9_aimd,
    multi,
    optimal,
    pe_axis,
    pkt_per_slot,
    rate_kbps,
    udp,
    windows,
)


def _rwnd(values) -> Axis:
    return Axis("flows[0].rwnd", values, "rwnd")


def optimal_parts() -> list[Part]:
    return [Part("optimal", optimal(), axes=[pe_axis(OPT_PE), _rwnd(OPT_RWND)], seeds=SEEDS, needs=NEEDS,
                 note="rwnd × p_e sweep under the optimal link scheme")]


def fig5_parts() -> list[Part]:
    return [Part(f"aimd-{load}", fig5(load), axes=[pe_axis(FIG5_PE), _rwnd(FIG5_RWND)], seeds=SEEDS, needs=NEEDS,
                 tags={"cross": load}, note="rwnd × p_e sweep") for load in ("light", "heavy")]


def multi_parts(configs) -> list[Part]:
    parts = []
    for rtts in configs:
        name = "-".join(map(str, rtts))
        for pe in PE_AXIS.full:
            w = windows(pe, rtts)
            parts.append(Part(f"aimd-{name}-pe{pe}", multi(pe, rtts), seeds=SEEDS, needs=NEEDS,
                              tags={"rtts": name, "p_e": pe}, note=f"rwnd = {w}, B = {sum(w)}"))
    return parts


def fig6_parts() -> list[Part]:
    return [*[Part(f"aimd-pe{pe}", fig6(pe), axes=[Axis("flows[1].count", FIG6_N, "n")], seeds=SEEDS, needs=NEEDS,
                   tags={"p_e": pe}) for pe in FIG6_PE],
            Part("backbone", backbone(10), axes=[Axis("flows[0].count", BACKBONE_N, "n")], seeds=SEEDS,
                 kind="baseline", note="TCP NewReno in place of TCP SACK, without the AIMD flow")]


def fig9_parts() -> list[Part]:
    rate = Axis("flows[0].rate", UDP_RATES, "rate")
    return [Part("udp-noarq", udp(False), axes=[rate], seeds=SEEDS),
            Part("udp-arq", udp(True), axes=[rate], seeds=SEEDS, needs=NEEDS),
            Part("aimd", fig9_aimd(), seeds=SEEDS, needs=NEEDS)]


FIGURES = [
    Figure("fig5", "Largest rwnd meeting the 1 % delay-outage target against p_e (Exp. A)", "Fig. 5a,b",
           "The AIMD flow on the wireless hop (with ARQ) under light (a: 5 TCP SACK elephants) or heavy (b: 60 more "
           "elephants during the middle of the run, the backbone the bottleneck) cross traffic; for each p_e the "
           "largest rwnd whose measured outage stays below 1 %, against the analytical W_max (eq. 1, the suite's "
           "Gilbert channel).",
           parts=fig5_parts()),
    Figure("optimal", "Largest rwnd meeting the 1 % delay-outage target under the 'optimal' link scheme (§V-A, "
           "not shown)", "§V-A text",
           "The AIMD flow alone on the wireless hop whose ARQ pauses after a failed attempt (Zhang & Wasserman [24]; "
           "2 silent slots here) instead of retrying at once: for each p_e the outage rate (delay jitter > 50 ms) "
           "against rwnd, and the largest rwnd below 1 % against eq. (1)'s W_max with the scheme's T_n.",
           parts=optimal_parts()),
    Figure("fig6", "Utilisation and TCP-friendliness against the number of backbone flows (Exp. B)", "Fig. 6a,b",
           "The target AIMD flow (rwnd = W_max) with 0–100 TCP SACK elephants on the backbone, p_e = 0.01 (a) and "
           "0.1 (b): its normalised throughput and the average over all backbone flows. Baseline part backbone: TCP "
           "NewReno elephants alone (1250 B, packets per 5 ms slot; expected ≈ 50/N).",
           parts=fig6_parts(),
           plots=[Plot("backbone", "Backbone TCP flows: mean throughput per 5 ms slot", "pkt_per_slot", axis="n",
                       parts=["backbone"], where={"label": "tcp"}, prepare=lambda df: pkt_per_slot(df, 1250.0),
                       xlabel="backbone flows N", ylabel="packets (1250 B) per slot"),
                  Plot("backbone-nt", "Backbone TCP flows: throughput / (100 Mb/s / N)", "normalized_throughput",
                       axis="n", parts=["backbone"], where={"label": "tcp"}, xlabel="backbone flows N",
                       ylabel="normalized throughput", hlines=[(1.0, "fair share")])]),
    Figure("fig7", "Two AIMD flows on one wireless link (Exp. C)", "Fig. 7a,b",
           "N = 2 AIMD flows with equal-share windows (eq. 4) from the selection (Gilbert channel, mean burst 2): "
           "R = (17, 17) slots (a) or (17, 25) (b); B = S; per-flow normalised throughput and outage against p_e.",
           parts=multi_parts(((17, 17), (17, 25)))),
    Figure("fig8", "Four AIMD flows on one wireless link (Exp. C)", "Fig. 8a,b",
           "N = 4 AIMD flows with eq. (4) windows, all R = 17 (a) or R = (17, 25, 17, 25) (b); B = S.",
           parts=multi_parts(((17, 17, 17, 17), (17, 25, 17, 25)))),
    Figure("fig9", "AIMD against UDP CBR with and without ARQ (Exp. D, p_e = 0.1)", "Fig. 9",
           "UDP CBR at fixed rates through a 10-packet BS buffer, with and without link ARQ, against the AIMD flow "
           "(ARQ, B = rwnd): normalised goodput, packet loss rate and delay-outage rate (delay jitter > 50 ms).",
           parts=fig9_parts(),
           plots=[Plot("loss-udp", "UDP without ARQ: packet loss rate", "drop_rate", axis="rate_kbps",
                       parts=["udp-noarq"], prepare=rate_kbps, xlabel="CBR rate (kb/s)", ylabel="loss rate",
                       hlines=[(0.1, "p_e")]),
                  Plot("goodput-udp", "UDP without ARQ: packets per slot", "pkt_per_slot", axis="rate_kbps",
                       parts=["udp-noarq"], prepare=lambda df: pkt_per_slot(rate_kbps(df)), xlabel="CBR rate (kb/s)",
                       ylabel="packets per 5 ms slot")]),
]
