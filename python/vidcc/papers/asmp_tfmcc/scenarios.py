"""The ASMP/TFMCC suite's scenarios: topologies, flows and scale constants of every figure.

Reconstruction notes (the ASMP/TFMCC paper page tags [P]/[X]/[C]; ours are marked "suite"):

* Every run is single-rate multicast (the ``multicast`` feature, protocols ``asmp`` and
  ``tfmcc``): a graph flow whose ``dst`` lists the receivers' nodes (docs/scenarios.md,
  "Multicast flows"); every receiver is a row of the flow tables. Both protocols carry the
  rate-adaptive video (``videoset.py``): the project's CIF clip encoded at q = 2..31 [P], the
  sending rate picking the quantiser per GOP [C AMB-13]. ASMP's sender starts at the clip's
  q = 31 rate and is clamped to [q = 31, q = 2] rates [C, docs/papers/asmp-tfmcc.md's sender rule
  with this clip's 128–1829 kbit/s in place of Table 2's 100–1642]; TFMCC keeps RFC 4654's start and
  no clamp (the video itself stops at its q = 2 rate). PSNR and MOS per receiver from each run's
  frames table (``vidcc.video.evaluate``, against the original clip [C AMB-18]); no deadline = a 2 s
  playout delay (suite). The clip's two scenes stand in for S3's low- and high-complexity segments
  (Akiyo, Stefan): the paper's sequences are not to be had here.
* Network metrics are per receiver, averaged over a run's receivers (all sit behind the same
  bottlenecks; the paper shows one [§3]). Jain's index against TCP is taken per bottleneck, the
  video against the TCP flow crossing it, averaged over the bottlenecks [C, AMB-19]; "high" is
  read as ≥ 0.9 (suite). Link utilisation (C17, C24) is compared through the video throughput
  on the same bottleneck (the capacity is common). One-way delay: mean per receiver after
  warm-up, "at times" = the highest 1 s bin mean; cumulative jitter (C35) = the relative
  one-way delay (eqs. 8–9 telescope), measured as mean − lowest 1 s bin mean.
* S6/S7 time measures (suite): start-up = before the first background step at 20 s; overshoot
  = peak 1 s bin / mean of [15, 20) s (> 1.1 is an overshoot); time to peak = first bin at
  ≥ 90 % of that peak; reaction = time after each on-step until the rate falls below 90 % of
  its mean over the 5 s before (20 s if it never does); ASMP's ramp per report = (0.9·peak −
  100 kbit/s) / time to peak × 4.1 s (the mean RTCP interval), to lie within a factor of 2 of
  0.9·P/RTT (the path RTT).
* Parking lot (S1/S2/S4, Fig. 2): S –A–B–C– {R1, R2}; access links 5 Mbit/s, 20 ms [P]; two
  bottlenecks A–B and B–C of 2 Mbit/s, 20 ms each (suite: capacities are not given [C]; 2 Mbit/s
  keeps the per-flow share below the q = 2 clip's 1.64 Mbit/s so that the protocols, not the
  frame sizes, decide losses); DropTail 50 packets [P]; TCP1 crosses A–B, TCP2 crosses B–C [C].
  One-way source→receiver delay 80 ms [P].
* S2's error model is periodic [P]; the simulator has Bernoulli loss, used instead (suite [I]).
* S4 varies the RTT through both_protocols bottleneck delays; it is one part per RTT (tag ``rtt_ms``),
  RTT ∈ {80, 120, 160, 200, 240, 320, 400, 500} ms (docs/papers/asmp-tfmcc.md's 40 ms is below the
  80 ms the access links alone take).
* S5 (Fig. 19): R1–R2–R3–R4 with the shared bottleneck R2–R3 (2 Mbit/s, 20 ms, suite), both_protocols
  sources the same way across it [C, AMB-17]; access 5 Mbit/s / 20 ms like S1 (suite).
* S6/S7: dumbbell 4 Mbit/s, 10 ms [P]; a 2 Mbit/s CBR (S6) or two TCP flows (S7, suite count)
  switched on for 20 s and off for 20 s over the whole run [C].
* Packets: video 1018 B on the wire [P]; TCP NewReno FTP [C] as ns-2 2.35's ``Agent/TCP/Newreno``
  with its defaults [U]: packetSize_ 1000 + 40 B header = 1040 B on the wire, window_ 20
  packets, windowInit_ 2, minrto_ 0.2 s, rtxcur_init_ 3 s, an ACK per segment, no send jitter
  (overhead_ 0); S6's CBR packets 210 B (CBR packetSize_). Every queue is DropTail with 50
  packets [P in the routers; ns-2's Queue limit_ 50 elsewhere]. Runs 408 s [P] (quick:
  60 s); statistics after the first 10 % [C]; 10 seeds (quick: 2).
* Baseline run today: two TCP NewReno flows across the S5 bottleneck (C23's Jain ≥ 0.99 test
  applied to TCP).
"""

from __future__ import annotations

from vidcc.papers import ns2
from vidcc.papers.asmp_tfmcc import videoset
from vidcc.papers.asmp_tfmcc.common import PROTOS
from vidcc.papers.asmp_tfmcc.videoset import VideoPart
from vidcc.papers.building import droptail, flow, glink, graph, scenario
from vidcc.papers.model import ByScale, Part

SEEDS = ByScale([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)


DURATION = ByScale("60s", "408s")


WARMUP = ByScale("6s", "40.8s")


NEEDS = ("multicast",)


RTTS = [80, 120, 160, 200, 240, 320, 400, 500]


def video(proto: str, src: str, receivers: list[str], deadline: str | None = None, **keys) -> dict:
    """A multicast flow of ``proto`` carrying the suite's rate-adaptive video (``videoset.py``)."""
    return flow(
        proto, label=proto, src=src, dst=receivers, packet_size="1018B", video=videoset.video_table(deadline), **keys
    )


TCP_KEYS = {"packet_size": f"{ns2.TCP_PACKET_BYTES}B", **ns2.tcp_keys(ns2.TCP_PACKET_BYTES)}


def tcp(label: str, src: str, dst: str, **keys) -> dict:
    """A TCP flow for the whole run, started within the first second [C]."""
    return flow("tcp-newreno", label=label, src=src, dst=dst, start=["0s", "1s"], **{**TCP_KEYS, **keys})


def parking_lot(bottleneck_delay: str = "20ms", loss: dict | None = None) -> dict:
    # Every agent's access link 5 Mb/s, 20 ms [P]; DropTail 50 packets in the routers [P] (and at
    # the hosts: ns-2's Queue limit_ 50).
    acc = dict(bandwidth="5Mbps", delay="20ms", queue=ns2.droptail(), monitor=False)
    return graph(
        ["S", "A", "B", "C", "R1", "R2", "T1", "T1s", "T2", "T2s"],
        [
            glink("S", "A", **acc),
            glink("A", "B", "2Mbps", bottleneck_delay, queue=droptail(50), loss=loss),
            glink("B", "C", "2Mbps", bottleneck_delay, queue=droptail(50)),
            glink("C", "R1", **acc),
            glink("C", "R2", **acc),
            glink("T1", "A", **acc),
            glink("B", "T1s", **acc),
            glink("T2", "B", **acc),
            glink("C", "T2s", **acc),
        ],
    )


def parking_lot_run(
    proto: str, *, tcp_flows: bool = True, bottleneck_delay: str = "20ms", loss: dict | None = None
) -> dict:
    flows = [video(proto, "S", ["R1", "R2"])]
    if tcp_flows:
        flows += [tcp("tcp", "T1", "T1s"), tcp("tcp", "T2", "T2s")]
    return scenario(DURATION, parking_lot(bottleneck_delay, loss), flows, warmup=WARMUP, sample_interval="1s")


def pair_topology() -> dict:
    # DropTail in the routers R1 to R4 [P], ns-2's 50 packets (Queue limit_ 50) everywhere.
    acc = dict(bandwidth="5Mbps", delay="20ms", queue=ns2.droptail(), monitor=False)
    return graph(
        ["S1", "S2", "R1", "R2", "R3", "R4", "D1", "D2"],
        [
            glink("S1", "R1", **acc),
            glink("S2", "R1", **acc),
            glink("R1", "R2", "10Mbps", "10ms", queue=ns2.droptail()),
            glink("R2", "R3", "2Mbps", "20ms", queue=droptail(50)),
            glink("R3", "R4", "10Mbps", "10ms", queue=ns2.droptail()),
            glink("R4", "D1", **acc),
            glink("R4", "D2", **acc),
        ],
    )


def square_wave(make, duration_s: int, period_s: int = 20) -> list[dict]:
    """Flows switched on during [20, 40), [60, 80), ... s: one flow entry per on period."""
    return [make(f"{t}s", f"{t + period_s}s") for t in range(period_s, duration_s - 1, 2 * period_s)]


FAST_ACCESS = dict(queue=ns2.droptail(), monitor=False)


ON_OFF_DUMBBELL = graph(
    ["S", "L", "R", "V", "US", "UD"],
    [
        glink("S", "L", "100Mbps", "1ms", **FAST_ACCESS),
        glink("US", "L", "100Mbps", "1ms", **FAST_ACCESS),
        glink("L", "R", "4Mbps", "10ms", queue=droptail(50)),
        glink("R", "V", "100Mbps", "1ms", **FAST_ACCESS),
        glink("R", "UD", "100Mbps", "1ms", **FAST_ACCESS),
    ],
)


def on_off_run(proto: str, background: str) -> dict:
    def cbr(start, stop):
        # 2 Mb/s [P]; packets [U]: ns-2's Application/Traffic/CBR packetSize_ 210 bytes.
        return flow(
            "udp-cbr",
            label="udp",
            rate="2Mbps",
            packet_size=f"{ns2.CBR_PACKET_BYTES}B",
            src="US",
            dst="UD",
            start=start,
            stop=stop,
        )

    def tcps(start, stop):
        return flow("tcp-newreno", label="tcp", count=2, src="US", dst="UD", start=start, stop=stop, **TCP_KEYS)

    make = cbr if background == "udp" else tcps
    return scenario(
        DURATION,
        ON_OFF_DUMBBELL,
        ByScale(
            [video(proto, "S", ["V"])] + square_wave(make, 60), [video(proto, "S", ["V"])] + square_wave(make, 408)
        ),
        warmup=WARMUP,
        sample_interval="1s",
    )


def dumbbell_video_run(proto: str, deadline: str | None = None) -> dict:
    topo = graph(
        ["S", "L", "R", "V"],
        [
            glink("S", "L", "100Mbps", "1ms", **FAST_ACCESS),
            glink("L", "R", "2Mbps", "20ms", queue=droptail(50)),
            glink("R", "V", "100Mbps", "1ms", **FAST_ACCESS),
        ],
    )
    return scenario(
        ByScale("71s", "71s"), topo, [video(proto, "S", ["V"], deadline)], warmup="0s", sample_interval="1s"
    )


def both_protocols(build, **kw) -> list[Part]:
    return [VideoPart(p, build(p), seeds=SEEDS, needs=NEEDS, **kw) for p in PROTOS]
