"""The ASMP/TFMCC suite's figures: each a set of parts (the runs) and plots."""

from __future__ import annotations

from vidcc.papers.asmp_tfmcc import videoset
from vidcc.papers.asmp_tfmcc.common import PROTOS
from vidcc.papers.asmp_tfmcc.scenarios import (
    DURATION,
    NEEDS,
    RTTS,
    SEEDS,
    WARMUP,
    both_protocols,
    dumbbell_video_run,
    on_off_run,
    pair_topology,
    parking_lot_run,
    tcp,
    video,
)
from vidcc.papers.asmp_tfmcc.videoset import VideoPart
from vidcc.papers.building import scenario
from vidcc.papers.model import Axis, ByScale, Figure, Part, Plot


def throughput_plots(title: str = "Throughput (1 s bins)") -> list[Plot]:
    """One series plot per protocol: the first seed's run (every receiver and background flow)."""
    return [
        Plot(
            f"throughput-{p}",
            f"{title}, {p.upper()}",
            "throughput_bps",
            kind="series",
            table="flow_samples",
            parts=[p],
            ylabel="throughput (Mbit/s)",
            scale=1e-6,
        )
        for p in PROTOS
    ]


def delay_plots() -> list[Plot]:
    return [
        Plot(
            f"delay-{p}",
            f"Mean one-way delay (1 s bins), {p.upper()}",
            "delay_ns",
            kind="series",
            table="flow_samples",
            parts=[p],
            ylabel="one-way delay (ms)",
            scale=1e-6,
        )
        for p in PROTOS
    ]


FIGURES = [
    Figure(
        "fig3-6",
        "ASMP and TFMCC against TCP in the parking lot (S1)",
        "Fig. 3, 4, 5, 6",
        "One multicast video crossing both_protocols bottlenecks, two TCP flows each crossing one: "
        "throughput over time, "
        "per-frame PSNR and the MOS distribution.",
        parts=both_protocols(lambda p: parking_lot_run(p)),
        plots=throughput_plots(),
    ),
    Figure(
        "fig7",
        "PSNR against the packet error rate (S2)",
        "Fig. 7",
        "S1 without TCP; packet error rate 0.05 %–10 % on the first bottleneck (Bernoulli in place "
        "of the paper's periodic model).",
        parts=[
            *[
                VideoPart(
                    p,
                    parking_lot_run(p, tcp_flows=False, loss={"kind": "bernoulli", "p": 0.0005}),
                    axes=[
                        Axis(
                            "topology.links[1].loss.p",
                            ByScale([0.0005, 0.01, 0.1], [0.0005, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1]),
                            "error_rate",
                        )
                    ],
                    seeds=SEEDS,
                    needs=NEEDS,
                )
                for p in PROTOS
            ],
            *[
                VideoPart(
                    f"{p}-lossless",
                    parking_lot_run(p, tcp_flows=False),
                    seeds=SEEDS,
                    needs=NEEDS,
                    note="the loss-free run C8 compares with",
                )
                for p in PROTOS
            ],
        ],
        plots=[
            Plot(
                "loss",
                "Packet loss ratio against the error rate",
                "drop_rate",
                axis="error_rate",
                where={"label": list(PROTOS)},
                parts=list(PROTOS),
                xlabel="packet error rate",
                ylabel="loss ratio",
                logx=True,
            )
        ],
    ),
    Figure(
        "fig10-12",
        "Video with a 150 ms playout deadline on a dumbbell (S3)",
        "Fig. 10, 11, 12",
        "The video alone (the project's clip for the 1753-frame News/Akiyo/Stefan/Paris sequence) on "
        "a 2 Mbit/s (suite), 20 ms dumbbell; PSNR without and "
        "with the 150 ms playout deadline; one-way delay.",
        parts=[
            *both_protocols(lambda p: dumbbell_video_run(p)),
            *[
                VideoPart(
                    f"{p}-deadline",
                    dumbbell_video_run(p, videoset.DEADLINE),
                    seeds=SEEDS,
                    needs=NEEDS,
                    note="the same run scored with D_pb = 150 ms",
                )
                for p in PROTOS
            ],
        ],
        plots=[*delay_plots(), *throughput_plots()],
    ),
    Figure(
        "fig13-18",
        "Fairness, utilisation, loss, CoV, PSNR and MOS against the RTT (S4)",
        "Fig. 13–18",
        "S1 with both_protocols bottleneck delays scaled to set the source→receiver RTT (one part "
        "per RTT, column rtt_ms).",
        parts=[
            VideoPart(
                f"{p}-rtt{r}",
                parking_lot_run(p, bottleneck_delay=f"{(r // 2 - 40) // 2}ms"),
                seeds=SEEDS,
                needs=NEEDS,
                tags={"rtt_ms": r},
            )
            for p in PROTOS
            for r in RTTS
        ],
        plots=[
            Plot(
                "loss",
                "Packet loss ratio against the RTT",
                "drop_rate",
                axis="rtt_ms",
                where={"label": list(PROTOS)},
                xlabel="RTT (ms)",
                ylabel="loss ratio",
            ),
            Plot(
                "cov",
                "Throughput CoV against the RTT",
                "cov",
                axis="rtt_ms",
                where={"label": list(PROTOS)},
                xlabel="RTT (ms)",
                ylabel="CoV",
            ),
            Plot(
                "throughput",
                "Throughput against the RTT (video receivers and TCP flows; utilisation = video / 2 Mbit/s)",
                "throughput_bps",
                axis="rtt_ms",
                where={"label": [*PROTOS, "tcp"]},
                xlabel="RTT (ms)",
                ylabel="throughput (Mbit/s)",
                scale=1e-6,
            ),
        ],
    ),
    Figure(
        "fig19-23",
        "Intra-protocol fairness: two sessions of one protocol (S5)",
        "Fig. 19–23",
        "Two sources of the same protocol, two multicast groups, sharing the R2–R3 bottleneck. Baseline part "
        "tcp-pair: two TCP NewReno flows on the same path.",
        parts=[
            *[
                VideoPart(
                    p,
                    scenario(
                        DURATION,
                        pair_topology(),
                        [video(p, "S1", ["D1"]), video(p, "S2", ["D2"])],
                        warmup=WARMUP,
                        sample_interval="1s",
                    ),
                    seeds=SEEDS,
                    needs=NEEDS,
                )
                for p in PROTOS
            ],
            Part(
                "tcp-pair",
                scenario(
                    DURATION,
                    pair_topology(),
                    [tcp("tcp", "S1", "D1"), tcp("tcp", "S2", "D2")],
                    warmup=WARMUP,
                    sample_interval="1s",
                ),
                seeds=SEEDS,
                kind="baseline",
                note="TCP NewReno in place of the two video sessions",
            ),
        ],
        plots=[
            *throughput_plots(),
            Plot(
                "throughput-tcp-pair",
                "Throughput of the two TCP flows (1 s bins)",
                "throughput_bps",
                kind="series",
                table="flow_samples",
                parts=["tcp-pair"],
                ylabel="throughput (Mbit/s)",
                scale=1e-6,
            ),
        ],
    ),
    Figure(
        "fig24-25",
        "Reaction to a 2 Mbit/s UDP CBR switched on and off (S6)",
        "Fig. 24, 25",
        "Video on a 4 Mbit/s, 10 ms dumbbell with a 2 Mbit/s CBR on for 20 s, off for 20 s: "
        "throughput over time and MOS.",
        parts=both_protocols(lambda p: on_off_run(p, "udp")),
        plots=throughput_plots(),
    ),
    Figure(
        "fig26-28",
        "Reaction to TCP traffic switched on and off (S7)",
        "Fig. 26, 27, 28",
        "As S6 with two TCP flows as the on/off background: throughput over time and MOS.",
        parts=both_protocols(lambda p: on_off_run(p, "tcp")),
        plots=throughput_plots(),
    ),
]
