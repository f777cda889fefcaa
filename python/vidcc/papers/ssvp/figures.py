"""The SSVP suite's figures: each paper figure's parts (scenarios from :mod:`scenarios`) and plots."""

from __future__ import annotations

from vidcc.papers.building import flow, scenario
from vidcc.papers.model import Axis, ByScale, Figure, Part, Plot
from vidcc.papers.ssvp.scenarios import (
    DUMBBELL,
    DURATION,
    N_AXIS,
    SEEDS,
    cross,
    d2,
    ftp,
    m_axis,
    mpeg,
    needs,
    tcp_nt,
    utilisation,
)


def rate_plot(part, sel=None, title="Throughput, 150 ms samples"):
    return Plot(
        f"rate-{part}",
        title,
        "throughput_bps",
        kind="series",
        table="flow_samples",
        parts=[part],
        select=sel or {},
        ylabel="throughput (Mbit/s)",
        scale=1e-6,
    )


def versus_m(pid, title, metric, ylabel, *, within="mean", scale=1.0, table="run_flows"):
    return Plot(
        pid,
        title,
        metric,
        axis="m",
        table=table,
        where={"label": ["ssvp", "ssvp-la", "tfrc", "tcpw+", "udp"]},
        within_run=within,
        xlabel="MPEG flows M",
        ylabel=ylabel,
        scale=scale,
    )


def queue_plot(part: str) -> Plot:
    return Plot(
        f"queue-{part}",
        "Queue at R2 (towards R3)",
        "packets",
        kind="series",
        table="queue_samples",
        parts=[part],
        line="link",
        only=["R2->R3"],
        ylabel="packets",
    )


FIGURES = [
    Figure(
        "fig7-9",
        "SSVP against two FTP flows on the 1 Mbit/s dumbbell (D1)",
        "Fig. 7, 8, 9",
        "One SSVP flow carrying MPEG-4 (380 kbit/s target) and two FTP/Reno flows: sending rates, packet jitter "
        "and per-frame PSNR.",
        parts=[
            Part("ssvp", scenario(DURATION, DUMBBELL, [mpeg("ssvp"), ftp(2)], sample_interval="100ms"), seeds=SEEDS)
        ],
        plots=[
            rate_plot("ssvp", title="Throughput, 100 ms samples"),
            Plot(
                "jitter-ssvp",
                "Packet jitter (RFC 3550 estimate)",
                "jitter_ns",
                kind="series",
                table="flow_samples",
                parts=["ssvp"],
                ylabel="jitter (ms)",
                scale=1e-6,
                hlines=[(75.0, "75 ms")],
            ),
        ],
    ),
    Figure(
        "fig10",
        "Normalized throughput of N FTP flows against one SSVP flow (D2)",
        "Fig. 10",
        "One SSVP flow (380 kbit/s target) and N = 1..30 FTP/Reno flows: the FTP flows' throughput over their fair "
        "share "
        "B/(N+1), and the bottleneck utilisation. Baseline part udp: plain (unresponsive) UDP sending the "
        "380 kbit/s video in place of SSVP.",
        parts=[
            Part("ssvp", d2("ssvp"), axes=[Axis("flows[1].count", N_AXIS, "n")], seeds=SEEDS),
            Part(
                "udp",
                d2("udp"),
                axes=[Axis("flows[1].count", N_AXIS, "n")],
                seeds=SEEDS,
                kind="baseline",
                note="plain UDP video (380 kbit/s) in place of SSVP",
            ),
        ],
        plots=[
            Plot(
                "nt",
                "FTP flows: throughput / fair share B/(N+1)",
                "nt",
                axis="n",
                group="part",
                where={"label": "ftp"},
                prepare=tcp_nt,
                xlabel="FTP flows N",
                ylabel="normalized throughput",
                hlines=[(1.0, "fair share")],
            ),
            Plot(
                "utilisation",
                "Bottleneck utilisation",
                "utilisation",
                axis="n",
                group="part",
                prepare=utilisation,
                xlabel="FTP flows N",
                ylabel="utilisation",
                hlines=[(0.8, "0.8")],
            ),
        ],
    ),
    Figure(
        "fig11",
        "SSVP (1 Mbit/s target) joining an FTP flow at 20 s (D3)",
        "Fig. 11",
        "One FTP flow from 0 s; one SSVP flow with a 1 Mbit/s target joins at 20 s and competes for 40 s.",
        parts=[
            Part(
                "ssvp",
                scenario(
                    "60s", DUMBBELL, [ftp(1), mpeg("ssvp", start="20s", video={"model": "tes-mpeg4", "rate": "1Mbps"})]
                ),
                seeds=SEEDS,
            )
        ],
        plots=[rate_plot("ssvp")],
    ),
    Figure(
        "fig12",
        "Cross-traffic topology: goodput, VDI, delayed packets vs M (X1)",
        "Fig. 12a,b,c",
        "M = 1..50 MPEG flows of one protocol (SSVP, TFRC, TCP Westwood+ or UDP) and 10 FTP flows; 1 % packet errors "
        "on the MPEG sinks' links. Parts *-noerr: the same without the error model (claim C18).",
        parts=[
            *[
                Part(n, cross(n), axes=[m_axis()], seeds=SEEDS, needs=needs(n))
                for n in ("ssvp", "tfrc", "tcpw+", "udp")
            ],
            *[
                Part(
                    f"{n}-noerr",
                    cross(n, errors=False),
                    axes=[m_axis()],
                    seeds=SEEDS,
                    needs=needs(n),
                    tags={"errors": False},
                )
                for n in ("ssvp", "tfrc", "tcpw+")
            ],
        ],
        plots=[
            versus_m("goodput", "Goodput per MPEG flow", "goodput_bps", "goodput (kbit/s)", scale=1e-3),
            versus_m("drops", "Drop rate of the MPEG flows", "drop_rate", "drop rate"),
        ],
    ),
    Figure(
        "fig13",
        "Queue at R2 with 40 MPEG + 10 FTP flows (X2)",
        "Fig. 13a,b, Table 2",
        "R2's queue over time (10 ms samples) with 40 MPEG flows of each protocol; Table 2 gives the mean queue.",
        parts=[
            Part(n, cross(n, 40, queue_sample_interval="10ms"), seeds=SEEDS, needs=needs(n))
            for n in ("ssvp", "tfrc", "tcpw+", "udp")
        ],
        plots=[queue_plot(n) for n in ("udp", "ssvp", "tfrc", "tcpw+")],
    ),
    Figure(
        "fig14",
        "Layered SSVP: rate and active layers (D4)",
        "Fig. 14",
        "One SSVP-LA flow (n = 4 layers) and two FTP flows on the dumbbell: rate and layer count over time.",
        parts=[
            Part("ssvp-la", scenario(DURATION, DUMBBELL, [mpeg("ssvp-la"), ftp(2)]), seeds=SEEDS),
            Part(
                "immediate",
                scenario(DURATION, DUMBBELL, [mpeg("ssvp-la", layer_policy="immediate"), ftp(2)]),
                seeds=SEEDS,
                note="§6.3's immediate adaptation (the most layers that fit the rate) on the same scenario",
            ),
        ],
        plots=[rate_plot("ssvp-la")],
    ),
    Figure(
        "startup",
        "SSVP's startup phase on a free 1 Mbit/s link (claim C5)",
        "§3.2 (no figure)",
        "One bulk SSVP flow alone on the 1 Mbit/s / 44 ms dumbbell, with and without the startup phase "
        "(docs/papers/ssvp.md C5).",
        parts=[
            Part(
                "ssvp",
                scenario("10s", DUMBBELL, [flow("ssvp", label="ssvp")], warmup="0s"),
                axes=[Axis("flows[0].startup", [True, False], "startup")],
                seeds=ByScale([1], [1, 2, 3]),
            )
        ],
        plots=[],
    ),
    Figure(
        "fig15",
        "SSVP vs SSVP-LA in the cross-traffic topology (X3)",
        "Fig. 15a,b",
        "M MPEG flows of SSVP (single layer, full quality) or SSVP-LA, with the 10 FTP flows: goodput and VDI.",
        parts=[Part(n, cross(n), axes=[m_axis()], seeds=SEEDS) for n in ("ssvp", "ssvp-la")],
        plots=[versus_m("goodput", "Goodput per MPEG flow", "goodput_bps", "goodput (kbit/s)", scale=1e-3)],
    ),
]
