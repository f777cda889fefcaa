"""The ASMP/TFMCC claims (C1–C35 of docs/papers/asmp-tfmcc.md §5 and the baseline B1): text,
figure, check, cause and, for a FAIL or UNSTABLE, its category with the evidence.

Each check and cause is a function of the figure's data named for what it tests, in the module
for its topic: :mod:`fairness` (against TCP, the S5 pairs), :mod:`delay` (one-way delay and
jitter), :mod:`dynamics` (start-up, reaction, ASMP's ramp, CoV), :mod:`loss` and :mod:`video_quality`
(PSNR and MOS, scored by :mod:`videoset`).
"""

from __future__ import annotations

from vidcc.papers.asmp_tfmcc import delay, dynamics, fairness, loss, video_quality
from vidcc.papers.asmp_tfmcc.common import PROTOS, order
from vidcc.papers.asmp_tfmcc.scenarios import NEEDS
from vidcc.papers.categories import OverClaim, Scale, UnrecordedReading
from vidcc.papers.model import Claim

# What the paper leaves open where a FAIL of the quick run PASSes under a reading (``--explore``,
# quick runs of 2026-11-27; the readings are in readings.py, the runs on docs/papers/asmp-tfmcc.md §5).
PSNR_REFERENCE = UnrecordedReading(
    "the PSNR reference (AMB-18): the paper compares 'the encoded video at the sender with the video received' "
    "(§6.2; §7 'The transmitted and received video files were directly compared') while eq. 6 names the source "
    "image; against the original clip (the suite's reading) ASMP's lower rate, a coarser quantiser, costs it more "
    "than TFMCC's losses; against the video as sent PSNR counts what the network did",
    readings=("sent-reference",),
)
ERROR_RATE_READINGS = UnrecordedReading(
    "how a lossy interval moves ASMP's rate (AMB-6: §3.2 bounds only the loss-free increase, so eq. 2 above r is "
    "taken, and at 1 % errors ASMP climbs to finer frames than at 0.05 %) and the PSNR reference (AMB-18)",
    readings=("lossy-never", "sent-reference"),
)
LOST_FRAMES = UnrecordedReading(
    "how the post-processing treats a lost frame (§2, §4): the paper compares 'the video file sent by the sender "
    "with the same file at the end user on a frame-by-frame basis' and names no step re-inserting lost frames; with "
    "the last frame repeated in a lost one's slot (EvalVid's fixyuv, the suite's reading) TFMCC's losses conceal a "
    "few per cent of its slots, with the lost frames left out of the received file each one shifts the rest of it "
    "against the reference, as loss-sensitive as §6.3's 14 dB at 0.05 % errors",
    readings=("frames-removed",),
)
# C9 fails at the lowest error rates under the suite's reading and under every reading bearing on it
# (--explore, quick run of 2026-11-27, docs/papers/asmp-tfmcc.md §5, "Fourth pass").
SIMILAR_CURVES = OverClaim(
    "'The results are similar for both protocols' (§6.3, Fig. 7) needs, at 0.05 % errors, loss-free PSNRs within "
    "a fraction of a dB: losses that rare move PSNR little, but Evalvid-RA picks each GOP's quantiser from the "
    "sender's rate (§5) and the two rates differ (TFMCC's the higher 'in all of our simulations', §6.7), so the "
    "curves start apart by the two quantisers before any loss",
    bound=video_quality.similar_curves_bound,
    readings=("lossy-never", "sent-reference", "frames-removed", "sent-file-frame-by-frame"),
)
# C3 FAILs at both scales under the suite's readings and under every reading bearing on it, alone and together
# (full scale with --explore, run code 31aa6dd9f61a; docs/papers/asmp-tfmcc.md §5, "Ninth pass").
SMOOTH_CLIMB = OverClaim(
    "'both protocols present high TCP-friendly behavior as they almost equally share the bandwidth in the bottleneck "
    "link with TCP traffic' (§6.1) asks of ASMP as the paper specifies it what its climb does not give: no slow start "
    "(§6.8, TFMCC is above ASMP in the first seconds), a rise of at most γ·P/RTT per RTCP report (eqs. 3–5; the "
    "reports spaced by RTCP's rules, §3.2), and γ = 0.2 whenever the short average of the cumulative jitter is "
    "above the long one (§3.2, a strict comparison: 'when the short running average is bigger'), so ASMP spends "
    "much of the run climbing towards the TCP flows' rate and takes less than they do over the run; the paper "
    "itself names the cause of ASMP's lower index, 'more TCP-friendly than it ought to be ... a direct result of its "
    "smoothing functions'",
    readings=("tcp-window-open", "frame-timestamp-ready"),
)
# C8 PASSes at full scale under frames-removed-drop-from-sent in 10 of 10 seeds; at quick scale ASMP loses no
# packet at 0.05 % errors in either 60 s run, so no reading can give it a drop there (docs/papers/asmp-tfmcc.md §5,
# "Ninth pass").
DROP_FROM_THE_FILE_SENT = UnrecordedReading(
    "what §6.3's 'PSNR drops by approximately 14 dB in the case of a packet error rate of 0.05%' is measured from, "
    "and what becomes of a lost frame: Fig. 7 starts at 0.05 % with no loss-free point, and §4 compares 'the video "
    "file sent by the sender with the same file at the end user on a frame-by-frame basis', naming no step that "
    "re-inserts lost frames; measured from the error-free run with the last frame repeated in a lost one's slot "
    "(the suite's readings), the few losses at 0.05 % move the mean PSNR less than the two runs' quantisers do; "
    "with the lost frames left out of the received file and the drop measured from the file sent, each loss "
    "shifts the rest of the file against it",
    readings=("frames-removed-drop-from-sent",),
    fails_at=("quick",),
)
SENT_FILE = UnrecordedReading(
    "§4's comparison of 'the video file sent by the sender with the same file at the end user on a frame-by-frame "
    "basis', read whole: the reference is the video as sent (AMB-18) and the lost frames are left out of the "
    "received file (nothing re-inserts them); against the original clip ASMP's coarse quantiser never grades a "
    "frame MOS 5, against the video it sent every frame received in place does",
    readings=("sent-file-frame-by-frame",),
)
# C24 was UNSTABLE at full scale only (its loss half: ASMP lost more than TFMCC in seeds 1, 2 and 9); the suite run
# at full scale under immediate-decrease or lossy-never (10 seeds, 2026-11-27, docs/papers/asmp-tfmcc.md §5, "Fifth
# pass") PASSed. Since G_i is the frame's first send it PASSes by default in the quick and full records.
S5_LOSSY_INTERVALS = UnrecordedReading(
    "how a lossy report moves ASMP's rate: the paper bounds only the loss-free increase ('the r_tcp must not be "
    "increased more than one P/RTT', §3.2), so eq. 2's value is taken even above r (AMB-6), and gives no rule for a "
    "decrease, so eq. 3's γ damps it like an increase (AMB-5); two ASMP sessions sharing S5's bottleneck then lose "
    "about as much as the TFMCC pair; with the drop to eq. 2 taken at once, or with a lossy report never raising r "
    "(the receiver 'emulates the behavior of a TCP agent', §3.2), ASMP loses less than TFMCC",
    readings=("immediate-decrease", "lossy-never"),
)
# C14 FAILed at full scale only; the suite at full scale under tcp-window-open (10 seeds, 2026-11-27,
# docs/papers/asmp-tfmcc.md §5, "Fifth pass") PASSed in 10 of 10 seeds (and cost C2, C15, C18). Since G_i is the
# frame's first send it PASSes by default in the quick and full records.
TCP_WINDOW = UnrecordedReading(
    "the background TCP's window (§6.1 gives no TCP parameter): with ns-2's window_ of 20 packets TCP is "
    "window-limited in S1/S4 (beside ASMP it loses no packet in 408 s and gets its window over its RTT), so the "
    "share it takes is set by the queue the video keeps, not by losses; with a window that never binds TCP backs off "
    "on losses as §6.6 describes ('causes TCP to frequently back off') and TFMCC's index is the higher below 160 ms",
    readings=("tcp-window-open",),
)
# C28 FAILs since G_i is the frame's first send (2026-11-27, docs/protocols/asmp.md "G_i and A_i"); the suite under
# frame-timestamp-ready (quick and full, --explore, docs/papers/asmp-tfmcc.md §5, "Seventh pass") PASSes.
FRAME_SENDING_TIME = UnrecordedReading(
    "which instant of a frame is 'the sending time of frame i' (G_i, §6.4) when the frame leaves as several paced "
    "packets: the paper does not say, and §6.8 reports ASMP climbing by 'almost 0.9 packets per RTT' on S6's flat "
    "path. With the first packet's departure (the suite's reading) the cumulative jitter rises as ASMP's frames "
    "grow (a larger first packet takes longer to serialise at the bottleneck), every such rise above one RTP tick "
    "is CONGESTED (§3.2's strict comparison), and ASMP climbs by 0.2·P/RTT; with the instant the application "
    "hands the frame over, the shrinking wait in the sender's buffer offsets that rise and ASMP climbs by about "
    "0.9·P/RTT",
    readings=("frame-timestamp-ready",),
)
# C31 was classified as scale until G_i became the frame's first send: the full-scale run then holds it in 7 of 10
# seeds only (ASMP still climbing by CONGESTED steps), and under frame-timestamp-ready in 10 of 10; the quick run
# (60 s, ASMP ramping under either stamp) fails it under every reading (docs/papers/asmp-tfmcc.md §5, "Seventh pass").
# C22 at full scale: PASS under each of the three (10 seeds); at quick scale UNSTABLE under each (seed 2
# at 80 ms is C18's tie: neither protocol lost a packet), so the category applies at full scale only.
S4_VIDEO = UnrecordedReading(
    "how PSNR is computed (§4, §6.2; AMB-18 and the lost frames): against the original clip (the suite's reading) "
    "the protocol with the lower rate shows frames at a coarser quantiser, so ASMP, which loses less, scores the "
    "lower PSNR; against the video as sent, or with the lost frames left out of the received file, PSNR counts what "
    "the network did, and ASMP's lower loss gives it the higher PSNR at every RTT",
    readings=("sent-reference", "frames-removed", "sent-file-frame-by-frame"),
    fails_at=("quick",),
)
# C31 PASSes at full scale under cov-around-trend (and under frame-timestamp-ready) in 10 of 10 seeds; at quick
# scale ASMP still climbs at 60 s and C31 is UNSTABLE under either (docs/papers/asmp-tfmcc.md §5, "Ninth pass").
S7_CLIMB = UnrecordedReading(
    "what S7's CoV is taken around (§6.8, with §6.6's purpose for it: 'to assess the stability of the two protocols, "
    "in terms of minimizing oscillations of throughput'): with G_i the frame's first send (§6.4, see C28) ASMP climbs "
    "by CONGESTED steps through much of S7's run; around the samples' mean that climb is part of its CoV, around "
    "their least-squares line it is not",
    readings=("cov-around-trend",),
    fails_at=("quick",),
)
COV_OVER_TREND = UnrecordedReading(
    "what 'the coefficients of variation (CoV) of the throughput values' are taken around (§6.6, Fig. 16): the paper "
    "gives them 'to assess the stability of the two protocols, in terms of minimizing oscillations of throughput' "
    "and does not say whether a protocol's steady climb through the run counts; around their mean, ASMP's 1 s "
    "samples carry its climb (the CONGESTED-sized rises of C3), around their least-squares line its oscillations",
    readings=("cov-around-trend",),
)
S6_ACCESS = UnrecordedReading(
    "S6's access links (§6.8 gives only the 4 Mb/s bottleneck): behind the suite's 100 Mbit/s, 1 ms links the "
    "video and the 2 Mb/s CBR fit the bottleneck (as the paper's own rates do), so the on-step leaves nothing to "
    "react to; with §6.1's 5 Mbit/s, 20 ms access links for every agent TFMCC reacts first",
    readings=("s6-access",),
)


def _claim(cid, text, fig, check=None, protos=PROTOS, why=None, ref="", **kw):
    """A claim of the paper (its § in ``ref``); without a check it is pending (``why``)."""
    if check is None:
        kw["pending"] = why
    return Claim(cid, text, fig, protos, check, needs=NEEDS, ref=ref, **kw)


CLAIMS = [
    _claim(
        "C1",
        "S1: mean video throughput TFMCC > ASMP.",
        "fig3-6",
        order("throughput_bps", "tfmcc", "asmp", "throughput"),
        ref="§6.1, Fig. 3–4",
    ),
    _claim(
        "C2",
        "S1 packet loss ratio: ASMP 0.16 %, TFMCC 0.67%: loss(TFMCC) > loss(ASMP).",
        "fig3-6",
        order("drop_rate", "tfmcc", "asmp", "loss ratio"),
        ref="§6.1",
        cause=loss.loss_cause,
    ),
    _claim(
        "C3",
        "S1 Jain's index (video vs TCP): TFMCC > ASMP; both high (≥ 0.9).",
        "fig3-6",
        fairness.fairer_and_high_against_tcp,
        ref="§6.1",
        cause=dynamics.indicator_cause,
        category=SMOOTH_CLIMB,
    ),
    _claim(
        "C4",
        "S1: ASMP takes less than the competing TCP (thr_ASMP < thr_TCP).",
        "fig3-6",
        fairness.asmp_below_tcp,
        protos=("asmp",),
        ref="§6.1",
    ),
    _claim(
        "C5",
        "S1: mean per-frame PSNR ASMP > TFMCC.",
        "fig3-6",
        video_quality.psnr_order(),
        cause=video_quality.video_cause,
        ref="§6.2, Fig. 5",
        category=PSNR_REFERENCE,
    ),
    _claim(
        "C6",
        "S1: frames with MOS ≥ 3: ASMP ≈ 50 %, TFMCC ≈ 30 %; TFMCC mostly MOS 1–2 (test: a share above 0.5).",
        "fig3-6",
        video_quality.mos_shares_s1,
        cause=video_quality.video_cause,
        ref="§6.2, Fig. 6",
        category=LOST_FRAMES,
    ),
    _claim(
        "C7",
        "S2: mean PSNR falls monotonically as the error rate rises from 0.05 % to 10 %.",
        "fig7",
        video_quality.psnr_falls_with_error_rate,
        cause=video_quality.error_rate_cause,
        ref="§6.3, Fig. 7",
        category=ERROR_RATE_READINGS,
    ),
    _claim(
        "C8",
        "S2: at 0.05 % errors PSNR is ≈ 14 dB below the loss-free run (test ≥ 5 dB).",
        "fig7",
        video_quality.psnr_drop_at_lowest_error_rate,
        cause=video_quality.error_rate_cause,
        ref="§6.3",
        category=DROP_FROM_THE_FILE_SENT,
    ),
    _claim(
        "C9",
        "S2: ASMP and TFMCC PSNR curves are similar (|ΔPSNR| small against the loss effect).",
        "fig7",
        video_quality.similar_psnr_curves,
        cause=video_quality.error_rate_cause,
        ref="§6.3",
        category=SIMILAR_CURVES,
    ),
    _claim(
        "C10",
        "S3 without deadline: ASMP segment mean PSNR > 30 dB (segments: the clip's two scenes).",
        "fig10-12",
        video_quality.asmp_scenes_above_30db,
        protos=("asmp",),
        cause=video_quality.video_cause,
        ref="§6.5, Fig. 10",
    ),
    _claim(
        "C11",
        "S3: TFMCC > 30 dB in Akiyo; in Stefan TFMCC drops ≈ 15 dB, ASMP ≈ 10 dB; mean PSNR ASMP > "
        "TFMCC (Akiyo/Stefan: the "
        "clip's easier/harder scene).",
        "fig10-12",
        video_quality.scene_psnr_and_fall,
        cause=video_quality.video_cause,
        ref="§6.5, Fig. 10",
        category=PSNR_REFERENCE,
    ),
    _claim(
        "C12",
        "S3 with a 150 ms deadline: TFMCC PSNR falls a further ≈ 5 dB; ASMP essentially unchanged.",
        "fig10-12",
        video_quality.deadline_hurts_tfmcc,
        cause=video_quality.deadline_cause,
        ref="§6.5, Fig. 11",
    ),
    _claim(
        "C13",
        "S3: TFMCC one-way delay exceeds 150 ms at times; ASMP < 150 ms always and < 50 ms at equilibrium.",
        "fig10-12",
        delay.delay_bounds,
        ref="§6.5, Fig. 12",
    ),
    _claim(
        "C14",
        "S4: Jain's index vs TCP TFMCC > ASMP for RTT < 160 ms.",
        "fig13-18",
        fairness.tfmcc_fairer_below_160ms,
        ref="§6.6, Fig. 13",
        cause=dynamics.indicator_cause,
        category=TCP_WINDOW,
    ),
    _claim(
        "C15",
        "S4: for RTT > 200 ms TFMCC takes more than TCP; its share rises with the RTT.",
        "fig13-18",
        fairness.tfmcc_above_tcp_at_long_rtt,
        protos=("tfmcc",),
        ref="§6.6, Fig. 13",
        cause=fairness.equation_share_cause,
    ),
    _claim(
        "C16",
        "S4: ASMP stays TCP-friendly (throughput ≤ TCP's) at every RTT.",
        "fig13-18",
        fairness.asmp_tcp_friendly_at_every_rtt,
        protos=("asmp",),
        ref="§6.6, Fig. 13",
    ),
    _claim(
        "C17",
        "S4: link utilisation TFMCC > ASMP at every RTT.",
        "fig13-18",
        order("throughput_bps", "tfmcc", "asmp", "video throughput", "rtt_ms"),
        ref="§6.6, Fig. 14",
    ),
    _claim(
        "C18",
        "S4: packet loss TFMCC > ASMP at every RTT.",
        "fig13-18",
        order("drop_rate", "tfmcc", "asmp", "loss ratio", "rtt_ms"),
        ref="§6.6, Fig. 15",
        cause=loss.loss_cause,
        # The quick run's one failing cell is a tie: seed 2 at 80 ms, where neither protocol lost a
        # packet in its 60 s; the full-scale run (408 s, 10 seeds) holds it in 10 of 10 seeds.
        category=Scale("a 60 s run can end with no loss for either protocol at the shortest RTT, a tie the ordering "
                       "cannot break (seed 2 at 80 ms)", full="docs/papers/results/asmp-tfmcc-full.json"),
    ),
    _claim(
        "C19",
        "S4: throughput CoV ASMP < TFMCC.",
        "fig13-18",
        dynamics.cov_order("rtt_ms"),
        ref="§6.6, Fig. 16",
        cause=dynamics.cov_cause,
        category=COV_OVER_TREND,
    ),
    _claim(
        "C20",
        "S4: mean PSNR of TFMCC ≈ 5 dB below ASMP at every RTT.",
        "fig13-18",
        video_quality.psnr_order(None, "rtt_ms"),
        cause=video_quality.video_cause,
        ref="§6.6, Fig. 17",
        category=PSNR_REFERENCE,
    ),
    _claim(
        "C21",
        "S4: MOS grading favours ASMP at every RTT: a larger share of its frames graded 'fair' to "
        "'excellent' (MOS ≥ 3).",
        "fig13-18",
        video_quality.mos_order(None, "rtt_ms"),
        cause=video_quality.video_cause,
        ref="§6.6, Fig. 18",
    ),
    _claim(
        "C22",
        "S4: the protocol with lower throughput (ASMP) has the lower loss and the higher PSNR.",
        "fig13-18",
        video_quality.lower_throughput_better_video,
        cause=video_quality.video_cause,
        ref="§6.6",
        category=S4_VIDEO,
    ),
    _claim(
        "C23",
        "S5: Jain's index between the two same-protocol sessions = 0.99 for ASMP and for TFMCC.",
        "fig19-23",
        fairness.pairs_share_equally,
        ref="§6.7, Fig. 20–21",
        cause=fairness.pair_cause,
    ),
    _claim(
        "C24",
        "S5: link utilisation of the TFMCC pair > the ASMP pair; TFMCC loss higher.",
        "fig19-23",
        fairness.tfmcc_pair_takes_and_loses_more,
        ref="§6.7",
        cause=fairness.pair_throughput_or_loss_cause,
        category=S5_LOSSY_INTERVALS,
    ),
    _claim(
        "C25",
        "S5: mean PSNR ASMP ≈ 5 dB above TFMCC; TFMCC per-frame PSNR variance higher.",
        "fig19-23",
        video_quality.psnr_gap_and_variance,
        cause=video_quality.video_cause,
        ref="§6.7, Fig. 22",
        category=PSNR_REFERENCE,
    ),
    _claim(
        "C26",
        "S5: TFMCC ≈ 70 % of frames MOS 1–2; ASMP ≈ 50 % MOS 5 and ≈ 90 % MOS ≥ 3 (tested: TFMCC's "
        "share MOS 1–2 > 0.5, "
        "'the largest part'; ASMP's share MOS ≥ 3 ≥ 0.75; a larger share MOS 5 for ASMP).",
        "fig19-23",
        video_quality.mos_shares_s5,
        cause=video_quality.video_cause,
        ref="§6.7, Fig. 23",
        category=SENT_FILE,
    ),
    _claim(
        "C27",
        "S6: TFMCC has higher mean throughput, reacts faster to the UDP steps and overshoots at "
        "start (its rate above ASMP's "
        "in the first seconds).",
        "fig24-25",
        dynamics.tfmcc_faster_with_startup_overshoot,
        ref="§6.8, Fig. 24",
        cause=dynamics.reaction_and_headroom_cause,
        category=S6_ACCESS,
    ),
    _claim(
        "C28",
        "S6: ASMP has no slow start: its sender rises ≈ 0.9·P/RTT per report (median, P/RTT at the "
        "measured RTT; within a "
        "factor of 2: 0.45 to 1.8), does "
        "not fall back from its top after the ramp, and takes longer to reach its top rate.",
        "fig24-25",
        dynamics.asmp_gradual_start,
        ref="§6.8",
        cause=dynamics.indicator_cause,
        category=FRAME_SENDING_TIME,
    ),
    _claim(
        "C29",
        "S6 packet loss: TFMCC 0.92 %, ASMP 0.046 % (ordering).",
        "fig24-25",
        order("drop_rate", "tfmcc", "asmp", "loss ratio"),
        ref="§6.8",
        cause=loss.loss_cause,
    ),
    _claim(
        "C30",
        "S6: ≈ 75 % of ASMP's frames MOS ≥ 3 (tested ≥ 0.65); a larger share of ASMP's frames MOS ≥ 3 than of TFMCC's.",
        "fig24-25",
        video_quality.asmp_mos_share_s6,
        cause=video_quality.video_cause,
        ref="§6.8, Fig. 25",
    ),
    _claim(
        "C31",
        "S7: ASMP's rate smoother than TFMCC's with TCP on/off (CoV_ASMP < CoV_TFMCC).",
        "fig26-28",
        dynamics.cov_order(),
        ref="§6.8, Fig. 26–27",
        cause=dynamics.cov_cause,
        category=S7_CLIMB,
    ),
    _claim(
        "C32",
        "S7 packet loss: ASMP 0.037 %, TFMCC 0.92 % (ordering).",
        "fig26-28",
        order("drop_rate", "tfmcc", "asmp", "loss ratio"),
        ref="§6.8",
        cause=loss.loss_cause,
    ),
    _claim(
        "C33",
        "S7: MOS grading favours ASMP: a larger share of its frames MOS ≥ 3.",
        "fig26-28",
        video_quality.mos_order(),
        cause=video_quality.video_cause,
        ref="§6.8, Fig. 28",
    ),
    _claim(
        "C34",
        "Network-centric ranking favours TFMCC, video-centric ranking favours ASMP, in S1, S3, S4, S5, S6 and S7.",
        "fig3-6",
        video_quality.network_and_video_rankings,
        cause=video_quality.video_cause,
        ref="§7",
        category=PSNR_REFERENCE,
    ),
    _claim(
        "C35",
        "ASMP's cumulative jitter and delay stay small compared with TFMCC's (S1/S3).",
        "fig10-12",
        delay.asmp_smaller_jitter_and_delay,
        ref="§7",
        cause=delay.delay_cause,
    ),
    Claim(
        "B1",
        "Baseline: two TCP NewReno flows sharing the S5 bottleneck (2 Mbit/s, 50 packets) reach Jain "
        "≥ 0.99 (C23's bound, for TCP).",
        "fig19-23",
        ("tcp-newreno",),
        fairness.tcp_pair_jain,
        kind="baseline",
        parts=("tcp-pair",),
    ),
]
