"""TFMCC versus ASMP: Kioumourtzis, Bouras, Gkamas, Int. J. Communication Systems, 2012.
Scenarios S1–S7 and claims C1–C35 of ``docs/papers/asmp-tfmcc.md``.

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
* S4 varies the RTT through both bottleneck delays; it is one part per RTT (tag ``rtt_ms``),
  RTT ∈ {80, 120, 160, 200, 240, 320, 400, 500} ms (docs/papers/asmp-tfmcc.md's 40 ms is below the
  80 ms the access links alone take).
* S5 (Fig. 19): R1–R2–R3–R4 with the shared bottleneck R2–R3 (2 Mbit/s, 20 ms, suite), both
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
from vidcc.papers.asmp_tfmcc import checks as ck
from vidcc.papers.asmp_tfmcc import vchecks as vc
from vidcc.papers.asmp_tfmcc import videoset as vq
from vidcc.papers.building import droptail, flow, glink, graph, scenario
from vidcc.papers.model import (
    Alternative,
    Axis,
    ByScale,
    Claim,
    Figure,
    Part,
    Plot,
    Suite,
    reconstruction_notes,
    with_alternatives_named,
)
from vidcc.papers.verdicts import bound

SEEDS = ByScale([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
DURATION = ByScale("60s", "408s")
WARMUP = ByScale("6s", "40.8s")
PROTOS = ck.PROTOS
NEEDS = ("multicast",)
RTTS = [80, 120, 160, 200, 240, 320, 400, 500]


def video(proto: str, src: str, receivers: list[str], deadline: str | None = None, **keys) -> dict:
    """A multicast flow of ``proto`` carrying the suite's rate-adaptive video (``videoset.py``)."""
    return flow(proto, label=proto, src=src, dst=receivers, packet_size="1018B", video=vq.video_table(deadline), **keys)


# TCP: NewReno FTP [C] with every agent setting [U] ns-2 2.35's default: packetSize_ 1000 of
# payload plus the 40 B TCP/IP header (1040 B on the wire), window_ 20 packets, windowInit_ 2,
# minrto_ 0.2 s, rtxcur_init_ 3 s, an ACK per segment, overhead_ 0 (no send jitter) (ns2.tcp_keys).
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


def s1(proto: str, *, tcp_flows: bool = True, bottleneck_delay: str = "20ms", loss: dict | None = None) -> dict:
    flows = [video(proto, "S", ["R1", "R2"])]
    if tcp_flows:
        flows += [tcp("tcp", "T1", "T1s"), tcp("tcp", "T2", "T2s")]
    return scenario(DURATION, parking_lot(bottleneck_delay, loss), flows, warmup=WARMUP, sample_interval="1s")


def s5_topo() -> dict:
    # DropTail in the routers R1 to R4 [P], ns-2's 50 packets (Queue limit_ 50) everywhere.
    acc = dict(bandwidth="5Mbps", delay="20ms", queue=ns2.droptail(), monitor=False)
    return graph(
        ["S1", "S2", "R1", "R2", "R3", "R4", "D1", "D2"],
        [glink("S1", "R1", **acc), glink("S2", "R1", **acc),
         glink("R1", "R2", "10Mbps", "10ms", queue=ns2.droptail()), glink("R2", "R3", "2Mbps", "20ms", queue=droptail(50)),
         glink("R3", "R4", "10Mbps", "10ms", queue=ns2.droptail()), glink("R4", "D1", **acc), glink("R4", "D2", **acc)],
    )


def square_wave(make, duration_s: int, period_s: int = 20) -> list[dict]:
    """Flows switched on during [20, 40), [60, 80), ... s: one flow entry per on period."""
    return [make(f"{t}s", f"{t + period_s}s") for t in range(period_s, duration_s - 1, 2 * period_s)]


# Access links 100 Mb/s, 1 ms (suite: not given [C]) with ns-2's DropTail 50 packets.
_ACC = dict(queue=ns2.droptail(), monitor=False)
S6_TOPO = graph(
    ["S", "L", "R", "V", "US", "UD"],
    [glink("S", "L", "100Mbps", "1ms", **_ACC), glink("US", "L", "100Mbps", "1ms", **_ACC),
     glink("L", "R", "4Mbps", "10ms", queue=droptail(50)),
     glink("R", "V", "100Mbps", "1ms", **_ACC), glink("R", "UD", "100Mbps", "1ms", **_ACC)],
)


def s6(proto: str, background: str) -> dict:
    def cbr(start, stop):
        # 2 Mb/s [P]; packets [U]: ns-2's Application/Traffic/CBR packetSize_ 210 bytes.
        return flow("udp-cbr", label="udp", rate="2Mbps", packet_size=f"{ns2.CBR_PACKET_BYTES}B", src="US", dst="UD", start=start,
                    stop=stop)

    def tcps(start, stop):
        return flow("tcp-newreno", label="tcp", count=2, src="US", dst="UD", start=start, stop=stop, **TCP_KEYS)

    make = cbr if background == "udp" else tcps
    return scenario(DURATION, S6_TOPO, ByScale([video(proto, "S", ["V"])] + square_wave(make, 60),
                                         [video(proto, "S", ["V"])] + square_wave(make, 408)),
                    warmup=WARMUP, sample_interval="1s")


def s3(proto: str, deadline: str | None = None) -> dict:
    topo = graph(["S", "L", "R", "V"], [glink("S", "L", "100Mbps", "1ms", **_ACC),
                                        glink("L", "R", "2Mbps", "20ms", queue=droptail(50)),
                                        glink("R", "V", "100Mbps", "1ms", **_ACC)])
    return scenario(ByScale("71s", "71s"), topo, [video(proto, "S", ["V"], deadline)], warmup="0s", sample_interval="1s")


def both(build, **kw) -> list[Part]:
    return [VPart(p, build(p), seeds=SEEDS, needs=NEEDS, **kw) for p in PROTOS]


VPart = vq.VideoPart  # a part whose flows carry the video: the clip is prepared before it runs


def thr_plots(title: str = "Throughput (1 s bins)") -> list[Plot]:
    """One series plot per protocol: the first seed's run (every receiver and background flow)."""
    return [Plot(f"throughput-{p}", f"{title}, {p.upper()}", "throughput_bps", kind="series", table="flow_samples", parts=[p],
                 ylabel="throughput (Mbit/s)", scale=1e-6) for p in PROTOS]


def delay_plots() -> list[Plot]:
    return [Plot(f"delay-{p}", f"Mean one-way delay (1 s bins), {p.upper()}", "delay_ns", kind="series", table="flow_samples",
                 parts=[p], ylabel="one-way delay (ms)", scale=1e-6) for p in PROTOS]


FIGURES = [
    Figure("fig3-6", "ASMP and TFMCC against TCP in the parking lot (S1)", "Fig. 3, 4, 5, 6",
           "One multicast video crossing both bottlenecks, two TCP flows each crossing one: throughput over time, "
           "per-frame PSNR and the MOS distribution.",
           parts=both(lambda p: s1(p)), plots=thr_plots()),
    Figure("fig7", "PSNR against the packet error rate (S2)", "Fig. 7",
           "S1 without TCP; packet error rate 0.05 %–10 % on the first bottleneck (Bernoulli in place of the paper's periodic model).",
           parts=[*[VPart(p, s1(p, tcp_flows=False, loss={"kind": "bernoulli", "p": 0.0005}),
                          axes=[Axis("topology.links[1].loss.p", ByScale([0.0005, 0.01, 0.1], [0.0005, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1]),
                                     "error_rate")],
                          seeds=SEEDS, needs=NEEDS) for p in PROTOS],
                  *[VPart(f"{p}-lossless", s1(p, tcp_flows=False), seeds=SEEDS, needs=NEEDS, note="the loss-free run C8 compares with")
                    for p in PROTOS]],
           plots=[Plot("loss", "Packet loss ratio against the error rate", "drop_rate", axis="error_rate", where={"label": list(PROTOS)},
                       parts=list(PROTOS), xlabel="packet error rate", ylabel="loss ratio", logx=True)]),
    Figure("fig10-12", "Video with a 150 ms playout deadline on a dumbbell (S3)", "Fig. 10, 11, 12",
           "The video alone (the project's clip for the 1753-frame News/Akiyo/Stefan/Paris sequence) on a 2 Mbit/s (suite), 20 ms dumbbell; PSNR without and "
           "with the 150 ms playout deadline; one-way delay.",
           parts=[*both(lambda p: s3(p)),
                  *[VPart(f"{p}-deadline", s3(p, vq.DEADLINE), seeds=SEEDS, needs=NEEDS, note="the same run scored with D_pb = 150 ms")
                    for p in PROTOS]],
           plots=[*delay_plots(), *thr_plots()]),
    Figure("fig13-18", "Fairness, utilisation, loss, CoV, PSNR and MOS against the RTT (S4)", "Fig. 13–18",
           "S1 with both bottleneck delays scaled to set the source→receiver RTT (one part per RTT, column rtt_ms).",
           parts=[VPart(f"{p}-rtt{r}", s1(p, bottleneck_delay=f"{(r // 2 - 40) // 2}ms"), seeds=SEEDS, needs=NEEDS, tags={"rtt_ms": r})
                  for p in PROTOS for r in RTTS],
           plots=[Plot("loss", "Packet loss ratio against the RTT", "drop_rate", axis="rtt_ms", where={"label": list(PROTOS)},
                       xlabel="RTT (ms)", ylabel="loss ratio"),
                  Plot("cov", "Throughput CoV against the RTT", "cov", axis="rtt_ms", where={"label": list(PROTOS)},
                       xlabel="RTT (ms)", ylabel="CoV"),
                  Plot("throughput", "Throughput against the RTT (video receivers and TCP flows; utilisation = video / 2 Mbit/s)",
                       "throughput_bps", axis="rtt_ms", where={"label": [*PROTOS, "tcp"]}, xlabel="RTT (ms)",
                       ylabel="throughput (Mbit/s)", scale=1e-6)]),
    Figure("fig19-23", "Intra-protocol fairness: two sessions of one protocol (S5)", "Fig. 19–23",
           "Two sources of the same protocol, two multicast groups, sharing the R2–R3 bottleneck. Baseline part "
           "tcp-pair: two TCP NewReno flows on the same path.",
           parts=[*[VPart(p, scenario(DURATION, s5_topo(), [video(p, "S1", ["D1"]), video(p, "S2", ["D2"])], warmup=WARMUP,
                                     sample_interval="1s"), seeds=SEEDS, needs=NEEDS) for p in PROTOS],
                  Part("tcp-pair", scenario(DURATION, s5_topo(), [tcp("tcp", "S1", "D1"), tcp("tcp", "S2", "D2")], warmup=WARMUP,
                                            sample_interval="1s"), seeds=SEEDS, kind="baseline",
                       note="TCP NewReno in place of the two video sessions")],
           plots=[*thr_plots(), Plot("throughput-tcp-pair", "Throughput of the two TCP flows (1 s bins)", "throughput_bps", kind="series",
                       table="flow_samples", parts=["tcp-pair"], ylabel="throughput (Mbit/s)", scale=1e-6)]),
    Figure("fig24-25", "Reaction to a 2 Mbit/s UDP CBR switched on and off (S6)", "Fig. 24, 25",
           "Video on a 4 Mbit/s, 10 ms dumbbell with a 2 Mbit/s CBR on for 20 s, off for 20 s: throughput over time and MOS.",
           parts=both(lambda p: s6(p, "udp")), plots=thr_plots()),
    Figure("fig26-28", "Reaction to TCP traffic switched on and off (S7)", "Fig. 26, 27, 28",
           "As S6 with two TCP flows as the on/off background: throughput over time and MOS.",
           parts=both(lambda p: s6(p, "tcp")), plots=thr_plots()),
]


# ---- claims (measures and checks in checks.py)


def b_pair(d):
    s = d.summary("jain", table="run_aggregate", part="tcp-pair", where={"label": "tcp"})
    v = bound(s, ">=", 0.99, name="Jain of the two TCP flows")
    per_seed = d.aggregate("tcp-pair", {"label": "tcp"}).sort_values("seed")
    v.measured.update({f"Jain, seed {seed}": float(j) for seed, j in zip(per_seed["seed"], per_seed["jain"])})
    if v.status != "PASS" and len(per_seed):
        worst = per_seed.loc[per_seed["jain"].idxmin()]
        v.explanation += f" (seed {worst['seed']}: {worst['jain']:.3f}; the other seeds ≥ {per_seed['jain'].drop(worst.name).min():.4f})" \
            if len(per_seed) > 1 else ""
    return v


def C(cid, text, fig, check=None, protos=PROTOS, why=None, ref="", **kw):
    if check is None:
        kw["pending"] = why
    return Claim(cid, text, fig, protos, check, needs=NEEDS, ref=ref, **kw)


CLAIMS = [
    C("C1", "S1: mean video throughput TFMCC > ASMP.", "fig3-6", ck.c_order("throughput_bps", "tfmcc", "asmp", "throughput"), ref="§6.1, Fig. 3–4"),
    C("C2", "S1 packet loss ratio: ASMP 0.16 %, TFMCC 0.67%: loss(TFMCC) > loss(ASMP).", "fig3-6",
      ck.c_order("drop_rate", "tfmcc", "asmp", "loss ratio"), ref="§6.1", cause=ck.loss_cause),
    C("C3", "S1 Jain's index (video vs TCP): TFMCC > ASMP; both high (≥ 0.9).", "fig3-6", ck.c3, ref="§6.1", cause=ck.indicator_cause),
    C("C4", "S1: ASMP takes less than the competing TCP (thr_ASMP < thr_TCP).", "fig3-6", ck.c4, protos=("asmp",), ref="§6.1"),
    C("C5", "S1: mean per-frame PSNR ASMP > TFMCC.", "fig3-6", vc.psnr_order(), cause=vc.video_cause, ref="§6.2, Fig. 5"),
    C("C6", "S1: frames with MOS ≥ 3: ASMP ≈ 50 %, TFMCC ≈ 30 %; TFMCC mostly MOS 1–2 (test: a share above 0.5).", "fig3-6", vc.c6, cause=vc.video_cause, ref="§6.2, Fig. 6"),
    C("C7", "S2: mean PSNR falls monotonically as the error rate rises from 0.05 % to 10 %.", "fig7", vc.c7, cause=vc.error_rate_cause, ref="§6.3, Fig. 7"),
    C("C8", "S2: at 0.05 % errors PSNR is ≈ 14 dB below the loss-free run (test ≥ 5 dB).", "fig7", vc.c8, cause=vc.error_rate_cause, ref="§6.3"),
    C("C9", "S2: ASMP and TFMCC PSNR curves are similar (|ΔPSNR| small against the loss effect).", "fig7", vc.c9, cause=vc.error_rate_cause, ref="§6.3"),
    C("C10", "S3 without deadline: ASMP segment mean PSNR > 30 dB (segments: the clip's two scenes).", "fig10-12", vc.c10, protos=("asmp",),
      cause=vc.video_cause, ref="§6.5, Fig. 10"),
    C("C11", "S3: TFMCC > 30 dB in Akiyo; in Stefan TFMCC drops ≈ 15 dB, ASMP ≈ 10 dB; mean PSNR ASMP > TFMCC (Akiyo/Stefan: the "
      "clip's easier/harder scene).", "fig10-12", vc.c11, cause=vc.video_cause, ref="§6.5, Fig. 10"),
    C("C12", "S3 with a 150 ms deadline: TFMCC PSNR falls a further ≈ 5 dB; ASMP essentially unchanged.", "fig10-12", vc.c12, cause=vc.deadline_cause, ref="§6.5, Fig. 11"),
    C("C13", "S3: TFMCC one-way delay exceeds 150 ms at times; ASMP < 150 ms always and < 50 ms at equilibrium.", "fig10-12", ck.c13,
      ref="§6.5, Fig. 12"),
    C("C14", "S4: Jain's index vs TCP TFMCC > ASMP for RTT < 160 ms.", "fig13-18", ck.c14, ref="§6.6, Fig. 13", cause=ck.indicator_cause),
    C("C15", "S4: for RTT > 200 ms TFMCC takes more than TCP; its share rises with the RTT.", "fig13-18", ck.c15, protos=("tfmcc",),
      ref="§6.6, Fig. 13", cause=ck.c15_cause),
    C("C16", "S4: ASMP stays TCP-friendly (throughput ≤ TCP's) at every RTT.", "fig13-18", ck.c16, protos=("asmp",), ref="§6.6, Fig. 13"),
    C("C17", "S4: link utilisation TFMCC > ASMP at every RTT.", "fig13-18", ck.c_order("throughput_bps", "tfmcc", "asmp", "video throughput", "rtt_ms"),
      ref="§6.6, Fig. 14"),
    C("C18", "S4: packet loss TFMCC > ASMP at every RTT.", "fig13-18", ck.c_order("drop_rate", "tfmcc", "asmp", "loss ratio", "rtt_ms"),
      ref="§6.6, Fig. 15", cause=ck.loss_cause),
    C("C19", "S4: throughput CoV ASMP < TFMCC.", "fig13-18", ck.c_order("cov", "tfmcc", "asmp", "CoV", "rtt_ms"), ref="§6.6, Fig. 16",
      cause=ck.c31_cause),
    C("C20", "S4: mean PSNR of TFMCC ≈ 5 dB below ASMP at every RTT.", "fig13-18", vc.psnr_order(None, "rtt_ms"), cause=vc.video_cause, ref="§6.6, Fig. 17"),
    C("C21", "S4: MOS grading favours ASMP at every RTT: a larger share of its frames graded 'fair' to 'excellent' (MOS ≥ 3).", "fig13-18", vc.mos_order(None, "rtt_ms"), cause=vc.video_cause, ref="§6.6, Fig. 18"),
    C("C22", "S4: the protocol with lower throughput (ASMP) has the lower loss and the higher PSNR.", "fig13-18", vc.c22, cause=vc.video_cause, ref="§6.6"),
    C("C23", "S5: Jain's index between the two same-protocol sessions = 0.99 for ASMP and for TFMCC.", "fig19-23", ck.c23,
      ref="§6.7, Fig. 20–21", cause=ck.pair_cause),
    C("C24", "S5: link utilisation of the TFMCC pair > the ASMP pair; TFMCC loss higher.", "fig19-23", ck.c24, ref="§6.7", cause=ck.c24_cause),
    C("C25", "S5: mean PSNR ASMP ≈ 5 dB above TFMCC; TFMCC per-frame PSNR variance higher.", "fig19-23", vc.c25, cause=vc.video_cause, ref="§6.7, Fig. 22"),
    C("C26", "S5: TFMCC ≈ 70 % of frames MOS 1–2; ASMP ≈ 50 % MOS 5 and ≈ 90 % MOS ≥ 3 (tested: TFMCC's share MOS 1–2 > 0.5, "
      "'the largest part'; ASMP's share MOS ≥ 3 ≥ 0.75; a larger share MOS 5 for ASMP).", "fig19-23", vc.c26, cause=vc.video_cause, ref="§6.7, Fig. 23"),
    C("C27", "S6: TFMCC has higher mean throughput, reacts faster to the UDP steps and overshoots at start (its rate above ASMP's "
      "in the first seconds).", "fig24-25", ck.c27, ref="§6.8, Fig. 24", cause=ck.c27_cause),
    C("C28", "S6: ASMP has no slow start: its sender rises ≈ 0.9·P/RTT per report (median, P/RTT at the measured RTT; within a "
      "factor of 2: 0.45 to 1.8), does "
      "not fall back from its top after the ramp, and takes longer to reach its top rate.", "fig24-25",
      ck.c28, ref="§6.8", cause=ck.indicator_cause),
    C("C29", "S6 packet loss: TFMCC 0.92 %, ASMP 0.046 % (ordering).", "fig24-25", ck.c_order("drop_rate", "tfmcc", "asmp", "loss ratio"), ref="§6.8",
      cause=ck.loss_cause),
    C("C30", "S6: ≈ 75 % of ASMP's frames MOS ≥ 3 (tested ≥ 0.65); a larger share of ASMP's frames MOS ≥ 3 than of TFMCC's.", "fig24-25", vc.c30, cause=vc.video_cause, ref="§6.8, Fig. 25"),
    C("C31", "S7: ASMP's rate smoother than TFMCC's with TCP on/off (CoV_ASMP < CoV_TFMCC).", "fig26-28",
      ck.c_order("cov", "tfmcc", "asmp", "CoV"), ref="§6.8, Fig. 26–27", cause=ck.c31_cause),
    C("C32", "S7 packet loss: ASMP 0.037 %, TFMCC 0.92 % (ordering).", "fig26-28", ck.c_order("drop_rate", "tfmcc", "asmp", "loss ratio"), ref="§6.8",
      cause=ck.loss_cause),
    C("C33", "S7: MOS grading favours ASMP: a larger share of its frames MOS ≥ 3.", "fig26-28", vc.mos_order(), cause=vc.video_cause, ref="§6.8, Fig. 28"),
    C("C34", "Network-centric ranking favours TFMCC, video-centric ranking favours ASMP, in S1, S3, S4, S5, S6 and S7.", "fig3-6", vc.c34, cause=vc.video_cause, ref="§7"),
    C("C35", "ASMP's cumulative jitter and delay stay small compared with TFMCC's (S1/S3).", "fig10-12", ck.c35, ref="§7", cause=ck.c35_cause),
    Claim("B1", "Baseline: two TCP NewReno flows sharing the S5 bottleneck (2 Mbit/s, 50 packets) reach Jain ≥ 0.99 (C23's bound, for TCP).",
          "fig19-23", ("tcp-newreno",), b_pair, kind="baseline", parts=("tcp-pair",)),
]


ALTERNATIVES = [
    Alternative("immediate-decrease", "asmp", {"decrease": "immediate"}, "docs/papers/asmp-tfmcc.md AMB-5",
                "after a lossy interval ASMP drops to the equation's rate at once instead of by γ of the drop per report"),
    Alternative("fraction-lost", "asmp", {"loss_measure": "fraction_lost"}, "docs/papers/asmp-tfmcc.md AMB-2 option A",
                "l is the RR's fraction lost instead of the loss-event ratio"),
]
_EXPLORE = {"immediate-decrease": ("C18", "C23", "C24", "C29", "C32"), "fraction-lost": ("C2", "C18", "C29", "C32")}
CLAIMS = with_alternatives_named(CLAIMS, _EXPLORE)

SUITE = Suite("asmp-tfmcc", "TFMCC versus ASMP: lessons learned from performance evaluation",
              "Kioumourtzis, Bouras, Gkamas, Int. J. Communication Systems, 2012", "docs/papers/asmp-tfmcc.md", FIGURES, CLAIMS,
              notes=reconstruction_notes(__doc__), alternatives=ALTERNATIVES)
