"""The ASMP/TFMCC suite's readings for ``vidcc reproduce asmp-tfmcc --explore``.

Each :class:`~vidcc.papers.model.Alternative` is a reading the paper's text allows where it leaves
something open: a protocol reading (keys of the ``asmp`` flows, docs/protocols/asmp.md), a set-up
reading (values at key paths of the scenarios, :mod:`vidcc.papers.provenance`) or a scoring reading
(how the runs are scored, :func:`vidcc.papers.asmp_tfmcc.videoset.reference_of`). They were
declared from the paper's text before they were run; none becomes a default because it passes.
:data:`BEARING` names, per reading, the claims it may change (those ``--explore`` re-judges); a
reading is applied to the figures of those claims only (``figures``), so that exploring re-runs
no more than it must.
"""

from __future__ import annotations

from vidcc.papers import ns2
from vidcc.papers.model import Alternative

PARKING_LOT = ("fig3-6", "fig7", "fig13-18")
ON_OFF = ("fig24-25", "fig26-28")
_DUMBBELL_ACCESS = ("S-L", "R-V", "US-L", "R-UD")
# A TCP window that never binds in S1/S4: their largest TCP path (RTT 290 ms at 2 Mbit/s, 1040 B segments) holds
# about 70 packets in flight plus the bottleneck's 50 queued.
TCP_WINDOW_OPEN_PACKETS = 200

ALTERNATIVES = [
    Alternative(
        "immediate-decrease", "asmp", {"decrease": "immediate"}, "docs/papers/asmp-tfmcc.md §1.3, AMB-5",
        "after a lossy interval ASMP drops to the equation's rate at once instead of by γ of the drop per report",
        figures=("fig13-18", "fig19-23", *ON_OFF)),
    Alternative(
        "fraction-lost", "asmp", {"loss_measure": "fraction_lost"}, "docs/papers/asmp-tfmcc.md §1.3, AMB-2 option A",
        "l is the RR's fraction lost ('packet loss rate', eq. 2's text) instead of the loss-event ratio",
        figures=("fig3-6", "fig13-18", *ON_OFF)),
    Alternative(
        "lossy-never", "asmp", {"lossy_increase": "never"}, "docs/papers/asmp-tfmcc.md §1.3, AMB-6",
        "a lossy interval never raises ASMP's rate (r_inst = min(eq. 2, r): 'the receiver emulates the behavior of "
        "a TCP agent', which does not open its window on a loss) instead of taking eq. 2 above r",
        figures=("fig7", "fig13-18", "fig19-23", "fig26-28")),
    Alternative(
        "sent-reference", ref="paper §6.2: 'we compare the encoded video at the sender with the video received by the "
        "receivers'; §7: 'The transmitted and received video files were directly compared' (AMB-18)",
        note="every picture's PSNR against the picture its sender sent (the frame at the quantiser it used) instead of "
             "the original clip: PSNR and MOS then count what the network did (losses, concealment, lateness), not "
             "the quantiser the rate allowed",
        scoring={"psnr_reference": "sent"}),
    Alternative(
        "frames-removed", ref="paper §4: 'calculate the PSNR by directly comparing the video file sent by the sender "
        "with the same file at the end user on a frame-by-frame basis'; §5: 'The Evaluation Trace Rate Adaptive "
        "(et_ra) program of Evalvid-RA reconstructs the received video' (no step re-inserting lost frames is named); "
        "§6.3: 'PSNR drops by approximately 14 dB in the case of a packet error rate of 0.05%'",
        note="the received file holds only the frames whose packets all arrived and is compared with the reference "
             "frame by frame as far as the shorter file goes (EvalVid's psnr), so every frame lost shifts the rest "
             "of the file by one, instead of repeating the last frame in the lost one's slot (EvalVid's fixyuv, the "
             "suite's reading): a loss handling as sensitive as §6.3's 14 dB at 0.05 % errors suggests",
        scoring={"lost_frames": "removed"}),
    Alternative(
        "sent-file-frame-by-frame", ref="paper §4: 'directly comparing the video file sent by the sender with the "
        "same file at the end user on a frame-by-frame basis' (both halves of the sentence: AMB-18 and the lost "
        "frames)",
        note="the readings sent-reference and frames-removed together: the received file, lost frames left out, "
             "against the video as its sender encoded it",
        scoring={"psnr_reference": "sent", "lost_frames": "removed"}),
    Alternative(
        "drop-from-sent", ref="paper §6.3: 'PSNR drops by approximately 14 dB in the case of a packet error rate of "
        "0.05%' (drops from what is not said: Fig. 7 starts at 0.05 %, with no loss-free point); §6.2: 'we compare "
        "the encoded video at the sender with the video received by the receivers'",
        note="C8's drop is measured from the same run's video as its sender encoded it (the file sent, against the "
             "original clip) instead of from the protocol's run without errors, whose rate, and so quantiser, "
             "differs: the drop then counts what the losses did to that run's video",
        scoring={"psnr_drop_from": "sent"}),
    Alternative(
        "frames-removed-drop-from-sent", ref="paper §4 and §6.3: the readings frames-removed and drop-from-sent "
        "together ('directly comparing the video file sent by the sender with the same file at the end user on a "
        "frame-by-frame basis'; the drop of §6.3 against that file sent)",
        note="the received file, lost frames left out, against the original clip, and its drop measured from the "
             "file sent: EvalVid's comparison of the two files, as loss-sensitive as §6.3's 14 dB at 0.05 % errors "
             "suggests, without counting the error-free run's own congestion losses as the baseline",
        scoring={"lost_frames": "removed", "psnr_drop_from": "sent"}),
    Alternative(
        "cov-around-trend", ref="paper §6.6: 'To assess the stability of the two protocols, in terms of minimizing "
        "oscillations of throughput, we use the coefficients of variation (CoV) of the throughput values' (over "
        "which samples, and whether a steady climb counts as oscillation, is not said)",
        note="the CoV of each receiver's 1 s rate samples around their least-squares line instead of around their "
             "mean: a protocol that climbs steadily through the run (ASMP's γ-limited rise) is then judged by its "
             "oscillations, which is what §6.6 says the CoV assesses",
        scoring={"cov_of": "around-trend"}),
    Alternative(
        "s3-capacity", ref="paper §6.5: 'a dumbbell topology without any background traffic ... one-way delay to "
        "20 ms' (no capacity)",
        setup={"topology.links[L-R].bandwidth": "1.5Mbps"}, figures=("fig10-12",),
        note="S3's bottleneck at 1.5 Mbit/s (ns-2's DelayLink bandwidth_ default) instead of the suite's 2 Mbit/s: "
             "below the clip's q = 2 rate, so that the harder scene congests it as §6.5's Stefan segment did"),
    Alternative(
        "deadline-from-ready", ref="paper §6.5: 'relative to the frame transmission time' (when the tool stamped "
        "it, on handing the frame to the agent or on the agent's send, is not said)",
        setup={"flows[*].video.deadline_from": "ready"}, figures=("fig10-12",),
        note="S3's 150 ms deadline counted from each frame's ready time (the application handing it over) instead of "
             "its first packet's send time: a frame's wait in its sender's pacing buffer counts against it (the "
             "suite's reading until the judge could anchor at the send time)"),
    Alternative(
        "tcp-window-open", ref="paper §6.6: 'TFMCC is more aggressive than ASMP, which causes TCP to frequently back "
        "off'; §6.1 names ns-2's default for the queue ('50 packets, which is a default value in ns-2') and gives no "
        "TCP parameter",
        setup={"flows[tcp].max_window": f"{TCP_WINDOW_OPEN_PACKETS * ns2.TCP_PACKET_BYTES}B"},
        figures=("fig3-6", "fig13-18"),
        note="the background TCP flows' window (ns-2's window_, 20 packets in the suite) at 200 packets, above every "
             "S1/S4 path's bandwidth-delay product plus its 50-packet queue (at most about 120 packets): TCP is then "
             "limited by its losses, backing off as §6.6 describes, not by its window; with 20 packets it gets W/RTT "
             "and no loss beside ASMP, and loses to TFMCC's standing queue without backing off"),
    Alternative(
        "s6-access", ref="paper §6.1: 'set the access link capacity of all agents to 5 Mb/s with an access delay of "
        "20 ms' (said of Fig. 2; §6.8 gives only the bottleneck)",
        setup={**{f"topology.links[{n}].bandwidth": "5Mbps" for n in _DUMBBELL_ACCESS},
               **{f"topology.links[{n}].delay": "20ms" for n in _DUMBBELL_ACCESS}},
        figures=ON_OFF,
        note="S6's and S7's access links as §6.1's (5 Mbit/s, 20 ms) instead of the suite's 100 Mbit/s, 1 ms: a "
             "longer RTT and a 5 Mbit/s link in front of the 4 Mbit/s bottleneck"),
    Alternative(
        "frame-timestamp-ready", "asmp", {"frame_timestamp": "ready"},
        "paper §6.4: 'G_i is the sending time of frame i' (the application's hand-over of the frame, or its first "
        "packet's departure, is not said); docs/protocols/asmp.md, 'G_i and A_i'",
        "G_i (the RTP timestamp) is the instant the frame was ready and handed to ASMP instead of its first packet's "
        "send instant: the frame's wait in the paced sender buffer then counts in the cumulative jitter as rising "
        "delay (vidcc's stamp before 2026-11-27)",
        figures=("fig3-6", "fig13-18", *ON_OFF)),
]

_VIDEO_CLAIMS = ("C5", "C6", "C7", "C8", "C9", "C10", "C11", "C20", "C21", "C22", "C25", "C26", "C30", "C33", "C34")
BEARING = {
    "immediate-decrease": ("C18", "C23", "C24", "C29", "C32"),
    "fraction-lost": ("C2", "C18", "C29", "C32"),
    "lossy-never": ("C7", "C8", "C9", "C19", "C24", "C31"),
    "sent-reference": _VIDEO_CLAIMS,
    "frames-removed": (*_VIDEO_CLAIMS, "C12"),
    "sent-file-frame-by-frame": (*_VIDEO_CLAIMS, "C12"),
    "drop-from-sent": ("C8",),
    "cov-around-trend": ("C19", "C31"),
    "frames-removed-drop-from-sent": ("C8",),
    "s3-capacity": ("C11", "C13", "C34"),
    "deadline-from-ready": ("C12",),
    "s6-access": ("C27", "C29", "C34"),
    "tcp-window-open": ("C3", "C14"),
    "frame-timestamp-ready": ("C3", "C14", "C19", "C28"),
}
