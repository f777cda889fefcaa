"""The SSVP paper's claims (docs/papers/ssvp.md §5) and the suite's baselines: each with its check
and, where it does not reproduce, its measured cause (in the checks modules named for what they test)."""

from __future__ import annotations

from vidcc.papers.categories import OverClaim, Scale, UnrecordedReading
from vidcc.papers.model import Claim
from vidcc.papers.ssvp import contention, queues, sharing, units
from vidcc.papers.ssvp.contention import (
    few_delayed_packets,
    goodput_order,
    ssvp_delivers_video_best,
    ssvp_less_hurt_by_errors,
    video_losses_per_m,
)
from vidcc.papers.ssvp.layers import few_layer_changes, layered_goodput_lower, layered_vdi_higher
from vidcc.papers.ssvp.quality import frames_spoiled, jitter_below_75ms, received_frames_good
from vidcc.papers.ssvp.queues import (
    r2_does_not_drain,
    r2_kept_loaded,
    ssvp_backs_off_more_than_tfrc,
    table2_queue_order,
    udp_fills_r2,
    udp_overflows_ssvp_drains,
)
from vidcc.papers.ssvp.rate_law import (
    alpha_from_beta,
    rate_is_regular,
    sender_delay_falls_with_beta,
    startup_ramps_and_ends,
)
from vidcc.papers.ssvp.sharing import (
    reno_beside_udp_video,
    reno_recovers_by_timeout,
    ssvp_takes_more_than_its_share,
    tcp_gets_its_fair_share,
    tcp_not_starved_after_join,
    udp_video_leaves_link_used,
)

SSVP = ("ssvp",)

# Fig. 6b is lost and the text gives no core capacity: the suite follows the DVRC paper's words on
# the same figure (R1 the MPEG flows' bottleneck); the SSVP text alone (R2's queue under the MPEG
# flows, Fig. 13 and Table 2) reads R2 as every flow's bottleneck (reading r2-bottleneck).
CORE_CAPACITIES = UnrecordedReading(
    "the paper gives neither the cross-traffic topology's core capacities nor which router is the MPEG flows' "
    "bottleneck; the suite makes R1 that bottleneck, as the DVRC paper says of the same figure, where the MPEG "
    "flows' rates are set by R1 and UDP's excess is dropped there, before R2",
    ("r2-bottleneck",),
)

# The protocol readings of readings.py under which C10, C11 and C18 were run at quick scale and fail
# as well (docs/papers/ssvp.md §5).
PROTOCOL_READINGS = ("deviation-tcp", "no-feedback-decrease")

# C10 and C11: Eq. 7's friendliness argument against Reno on the paper's BDP drop-tail buffer.
FRIENDLINESS = (
    "Eq. 7 makes SSVP's AIMD(0.31, 0.875) TCP-friendly through GAIMD's model of TCP: a flow that meets the same "
    "loss-event rate and recovers by fast retransmit. On the paper's BDP drop-tail buffer Reno, as the paper specifies "
    "it, is in its timeout regime (more timeouts than loss events), and SSVP, paced and with no timeout of its own, "
    "meets far fewer decreases than Alg. 2's balance (+α packets per RTT on an increase against ×β on a decrease) "
    "needs for it to leave TCP the claimed share"
)

# C15 and C17: Table 2's "sharper backward adjustments than TFRC".
NOT_SHARPER = OverClaim(
    "'SSVP performs sharper backward adjustments than TFRC' (§6.2) cannot come from Alg. 2: its sharpest response is "
    "one ×β per RTT, which halves the rate no faster than the 5 RTTs §2 gives TFRC; and with the 10 FTP flows "
    "holding R2's queue as high whatever the MPEG protocol, R2's mean queue cannot order the MPEG protocols by "
    "their backward adjustments",
    bound=queues.no_sharper_than_tfrc,
    readings=("r2-bottleneck",),
)

CLAIMS = [
    Claim(
        "C1",
        "alpha = 4(1 − beta²)/3; beta = 0.875 gives 0.31 (config alpha = 0.31).",
        None,
        SSVP,
        alpha_from_beta,
        ref="§3.2 Eq. 7",
    ),
    Claim(
        "C2",
        "Sender delay D = d(1/beta − 1): beta 0.875 → d/7; beta 0.5 → d; strictly decreasing in beta.",
        None,
        SSVP,
        sender_delay_falls_with_beta,
        ref="§3.2 Eq. 6",
    ),
    Claim(
        "C3",
        "Required buffer P = [(k+1)c̄ − (1−beta)R]²/(2λ), clamped at 0; worked example ≈ 17 packets.",
        None,
        ("ssvp-layered",),
        units.layer_buffer_rule,
        ref="§4 Eq. 15–17",
    ),
    Claim(
        "C4",
        "At most one rate change per adjustment period; decrease ×beta; hold if 0 < ratio ≤ 0.005; increase only "
        "without marks.",
        None,
        SSVP,
        units.adjustment_rule,
        ref="§3.2 Alg. 2",
    ),
    Claim(
        "C5",
        "Per-ACK increases during startup ramp faster than the per-RTT rule; startup ends at the first congestion "
        "signal.",
        "startup",
        SSVP,
        startup_ramps_and_ends,
        ref="§3.2 startup",
    ),
    Claim(
        "C6",
        "RTT from the echoed timestamp with γ = 0.9, ε = 0.25, δ = 4; STO ≥ EstimatedRTT always.",
        None,
        SSVP,
        units.rtt_estimator,
        ref="§3.1 Eq. 2–5",
    ),
    Claim(
        "C7",
        "SSVP's rate is regular with gentle reductions (every per-RTT decrease ≥ 0.85× the previous rate) and reacts "
        "more slowly than TCP to freed bandwidth; CoV(SSVP) < CoV of each FTP flow.",
        "fig7-9",
        SSVP,
        rate_is_regular,
        ref="Fig. 7, §6.1",
    ),
    Claim(
        "C8",
        "SSVP packet jitter never exceeds 75 ms (Eq. 19's J < 75 ms at every received packet).",
        "fig7-9",
        SSVP,
        jitter_below_75ms,
        ref="Fig. 8",
    ),
    Claim(
        "C9",
        "Every received frame is MOS good or excellent (≥ 95 % of the received frames ≥ 31 dB PSNR).",
        "fig7-9",
        SSVP,
        received_frames_good,
        ref="Fig. 9",
        cause=frames_spoiled,
    ),
    Claim(
        "C10",
        "TCP flows get ≈ their fair share B/(N+1) for every N = 1..30 (mean FTP NT ∈ [0.8, 1.25]) and bottleneck "
        "utilisation > 0.8.",
        "fig10",
        SSVP,
        tcp_gets_its_fair_share,
        ref="Fig. 10",
        cause=ssvp_takes_more_than_its_share,
        category=OverClaim(FRIENDLINESS, bound=sharing.share_needs_decreases, readings=PROTOCOL_READINGS),
    ),
    Claim(
        "C11",
        "After SSVP joins at 20 s TCP is not starved; over 30–60 s the TCP/SSVP throughput ratio ∈ [0.5, 2]; TCP "
        "reaches steady state faster.",
        "fig11",
        SSVP,
        tcp_not_starved_after_join,
        ref="Fig. 11",
        cause=reno_recovers_by_timeout,
        category=OverClaim(FRIENDLINESS, bound=sharing.half_needs_decreases, readings=PROTOCOL_READINGS),
    ),
    Claim(
        "C12",
        "Goodput: for M ≥ 30 UDP > SSVP > TFRC > TCPW+; for M ≤ 20 TFRC within 15 % of SSVP and TCPW+ lowest.",
        "fig12",
        ("ssvp", "tfrc", "tcp-westwood-plus"),
        goodput_order,
        needs=("video-over-tcp",),
        ref="Fig. 12a",
        category=CORE_CAPACITIES,
    ),
    Claim(
        "C13",
        "VDI: SSVP best at every M ('the most prominent performance on video delivery').",
        "fig12",
        ("ssvp", "tfrc", "tcp-westwood-plus"),
        ssvp_delivers_video_best,
        needs=("video-over-tcp",),
        ref="Fig. 12b",
        cause=video_losses_per_m,
        category=UnrecordedReading(
            "what SSVP's sender does with the data its rate cannot carry yet: §3.2 and Fig. 3 say the data produced "
            "at the old rate 'rest[s] inside the server' until sent and name no drop; the suite's sender drops the "
            "stalest beyond 1 s or 100 packets (§1.1.7), under which SSVP delivers larger packets than its video's "
            "mean (the rest expire), so at the same goodput fewer of the packets VDI counts",
            ("sender-queue-kept",),
        ),
    ),
    Claim(
        "C14",
        "Delayed-packet rate of SSVP and TFRC below TCPW+'s for most M.",
        "fig12",
        ("ssvp", "tfrc", "tcp-westwood-plus"),
        few_delayed_packets,
        needs=("video-over-tcp",),
        ref="Fig. 12c",
    ),
    Claim(
        "C15",
        "Mean R2 queue (40 MPEG + 10 FTP): TFRC 27.8 > UDP 23.6 > SSVP 15.3 > TCPW+ 12.2; SSVP/TFRC ≈ 0.55 (± 0.15, "
        "suite tolerance).",
        "fig13",
        ("ssvp", "tfrc", "tcp-westwood-plus"),
        table2_queue_order,
        needs=("video-over-tcp",),
        ref="Table 2",
        cause=r2_kept_loaded,
        category=NOT_SHARPER,
    ),
    Claim(
        "C16",
        "UDP's queue grows fast and overflows; SSVP's shows repeated draining phases: time near full UDP > SSVP; ≥ 2 "
        "full→low excursions per SSVP run.",
        "fig13",
        SSVP,
        udp_overflows_ssvp_drains,
        ref="Fig. 13",
        cause=r2_does_not_drain,
        # Was an unrecorded reading (deviation-tcp passes it at quick scale); the full-scale run of
        # 2026-11-27 passes it with the defaults: 8 of 10 seeds hold, where quick has 1 of 2.
        category=Scale(
            "two seeds cannot show the pattern stable: it holds on the pooled seeds, not in each of them",
            full="docs/papers/results/ssvp-full.json",
        ),
    ),
    Claim(
        "C17",
        "SSVP backs off more sharply than TFRC, by Table 2's mean queue: R2's mean queue lower with SSVP than "
        "with TFRC.",
        "fig13",
        ("ssvp", "tfrc"),
        ssvp_backs_off_more_than_tfrc,
        ref="§6.2",
        cause=r2_does_not_drain,
        # Under deviation-tcp the quick run is UNSTABLE (one seed of two holds), not a PASS.
        category=OverClaim(NOT_SHARPER.argument, bound=NOT_SHARPER.bound,
                           readings=("no-feedback-decrease", "r2-bottleneck")),
    ),
    Claim(
        "C18",
        "SSVP is less susceptible to 1 % random link errors: at every M, goodput(with errors)/goodput(without) higher "
        "for SSVP than for TFRC and for TCPW+.",
        "fig12",
        ("ssvp", "tfrc", "tcp-westwood-plus"),
        ssvp_less_hurt_by_errors,
        needs=("video-over-tcp",),
        ref="§6.2",
        category=OverClaim(
            "§3.2 makes SSVP robust to transient (wireless) errors through Alg. 2's hold branch: a marked share of the "
            "control packets at most the 0.005 threshold leaves the rate unchanged. That takes more control packets in "
            "one adjustment period (one RTT) than SSVP sends at the paper's rates, so every error mark is a decrease; "
            "and no application-limited flow keeps more than 1 − p of its goodput under a packet error rate p, which "
            "TFRC already nears",
            bound=contention.errors_meet_no_hold,
            readings=(*PROTOCOL_READINGS, "r2-bottleneck"),
        ),
    ),
    Claim(
        "C19",
        "Layered SSVP: fewer layer changes than immediate adaptation; layer 4 reached; after start-up, some rate "
        "rises without a layer add.",
        "fig14",
        ("ssvp-layered",),
        few_layer_changes,
        ref="Fig. 14",
    ),
    Claim(
        "C20",
        "SSVP-LA goodput ≤ SSVP goodput for every M.",
        "fig15",
        ("ssvp", "ssvp-layered"),
        layered_goodput_lower,
        ref="Fig. 15a",
    ),
    Claim(
        "C21",
        "SSVP-LA VDI ≥ SSVP VDI for M ≥ 10, the gap growing with M.",
        "fig15",
        ("ssvp", "ssvp-layered"),
        layered_vdi_higher,
        ref="Fig. 15b",
    ),
    Claim(
        "C22",
        "TFRC increases by ≤ 0.14 pkt/RTT (0.28 with history discounting) and needs ≈ 5 RTTs to halve (± 30 %).",
        None,
        ("tfrc",),
        units.tfrc_responsiveness,
        ref="§2, [9]",
    ),
    Claim(
        "B1",
        "Baseline: with plain UDP sending the 380 kbit/s video in place of SSVP and N = 1..30 FTP flows, the "
        "6-packet-buffer dumbbell stays > 0.8 utilised (C10's utilisation half, with unresponsive video).",
        "fig10",
        ("udp", "tcp-reno"),
        udp_video_leaves_link_used,
        kind="baseline",
        parts=("udp",),
        cause=reno_beside_udp_video,
    ),
    Claim(
        "B2",
        "Baseline (the UDP half of C16): 40 plain UDP flows sending the 380 kbit/s video (15.2 Mbit/s offered to the "
        "5 Mbit/s R1–R2 link, then 10 FTP flows at R2) keep R2's BDP queue ≥ 90 % full ≥ 90 % of the time.",
        "fig13",
        ("udp", "tcp-reno"),
        udp_fills_r2,
        kind="baseline",
        parts=("udp",),
        category=CORE_CAPACITIES,
    ),
]
