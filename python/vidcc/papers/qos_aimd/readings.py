"""The QoS-AIMD suite's readings for ``vidcc reproduce qos-aimd --explore``: protocol readings
(where docs/papers/qos-aimd.md §3 leaves the AIMD sender's details open and the code exposes
the other choice), set-up readings (where the paper is silent and the suite takes ns-2 2.35's
default, ``scenarios``) and a scoring reading (how the delay jitter of the outage is counted,
``stats``). Each was declared from the paper's text before it was run; none becomes
a default because it passes.

Each reading bears on every claim whose figure it changes (:func:`bearing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vidcc.papers.model import Alternative, Claim, Figure

_BACKBONE = "topology.links[r1-r2].queue"
# The scoring key the outage reads (``stats.run_outage``) and its whole-slot value.
OUTAGE_JITTER, WHOLE_SLOTS = "outage_jitter", "whole-slots"
_RED_REF = "paper §V: 'Both r1 and r2 are Random Early Detection (RED) capable' (no parameter, no buffer size)"
# Floyd's recommended RED (min_th 5, max_th 15 packets, w_q 0.002, max_p 0.1, no gentle mode), in
# packet mode with ns-2's Queue limit_ of 50 packets: the RED most ns-2 scripts of the time set.
RED_PACKETS = {"kind": "red", "limit": 50, "min_thresh": 5, "max_thresh": 15, "weight": 0.002, "max_p": 0.1,
               "gentle": False, "bytes": False, "mean_packet_size": "500B", "wait": True}
# The suite's RED before it took ns-2's defaults: thresholds 50 / 150 packets (5 / 15 ms of 1250 B
# packets at 100 Mb/s), w_q 0.002, gentle, packet mode, a buffer of one bandwidth-delay product.
RED_OLD_SUITE = {"kind": "red", "limit": "bdp", "min_thresh": 50, "max_thresh": 150, "weight": 0.002, "max_p": 0.1,
                 "gentle": True, "bytes": False, "mean_packet_size": "1250B", "wait": True}

ALTERNATIVES = [
    Alternative(
        "red-packets", setup={_BACKBONE: RED_PACKETS}, figures=("fig6",), ref=_RED_REF,
        note="the backbone's RED with Floyd's recommended parameters in packet mode (min_th 5, max_th 15 packets, "
             "w_q 0.002, max_p 0.1, gentle off, 50 packets) instead of ns-2 2.35's automatic ones, which at 100 Mb/s "
             "put both thresholds above the 25 000-byte hard limit (a tail-drop queue of 2 ms); in packet mode a "
             "125 B AIMD packet is dropped as often as a 1250 B TCP one, as the paper's 2.8 % loss at 100 flows "
             "suggests. Run on Fig. 6 (whose claims rest on the backbone's drops)"),
    Alternative(
        "red-old-suite", setup={_BACKBONE: RED_OLD_SUITE}, figures=("fig6",), ref=_RED_REF,
        note="the backbone's RED as the suite had it before it took ns-2's defaults: min_th 50, max_th 150 packets, "
             "w_q 0.002, max_p 0.1, gentle, packet mode, a buffer of one bandwidth-delay product. Run on Fig. 6"),
    Alternative("reduction-pipe", "qos-aimd", {"reduction_base": "pipe"},
                "docs/papers/qos-aimd.md §3.3 (outstanding packets) [I]",
                note="the multiplicative decrease halves the packets in the pipe (sent and neither acked nor lost) "
                "instead of all outstanding packets."),
    Alternative("reduction-cwnd", "qos-aimd", {"reduction_base": "cwnd"},
                "docs/papers/qos-aimd.md §3.3 (outstanding packets) [I]",
                note="the multiplicative decrease halves the congestion window, as ns-2's TCP agents do."),
    Alternative("pacing-off", "qos-aimd", {"pacing": "off"}, "docs/papers/qos-aimd.md §3.5 spacing [U → D]",
                note="no rtt/W spacing between data packets: the window leaves in bursts."),
    Alternative(
        "pacing-min-rtt", "qos-aimd", {"pacing": "min-rtt"},
        ref="paper §II-B: 'the inter-packet spacing is set to be no less than rtt/W when the sender is allowed to send "
            "more than one packet at certain time' (which rtt is not said); §III-B: 'Let R slots denote the rtt "
            "without the queuing delay and retransmissions over the wireless link'; §IV-D step 3: the sender "
            "'measures or estimates the flow's minimum RTT'",
        note="the rtt of the rtt/W spacing is the flow's minimum round trip (the model's R, which the sender measures "
             "for the parameter selection) instead of the smoothed RTT (SRTT, docs/protocols/qos-aimd.md, [U → D]). "
             "With the SRTT, which includes the BS queue the window itself builds, rtt/W exceeds one wireless slot "
             "when W = R, so packets the window lets out together leave further apart than the link's pace (before "
             "the sender spaced only those, every packet an ack released was held too and the BS queue emptied); "
             "with the minimum it is one slot at W = R, the link's own pace. Run on every figure of the AIMD flow"),
    Alternative(
        "outage-whole-slots", scoring={OUTAGE_JITTER: WHOLE_SLOTS},
        ref="paper §III-B: 'time is discretized into slots. Each slot is long enough to transmit one packet over the "
            "wireless link'; §V-D: 'the maximum tolerable delay jitter is 10 slots'; §V-A: 'the delay outage rate is "
            "the ratio of packets with delay jitter exceeding 50 ms'",
        note="a packet's delay jitter counted in whole slots of the wireless link, as the paper's slotted time counts "
             "it (eq. (1)'s d_q is a number of slots): a packet is late when it waits more than 10 whole slots, i.e. "
             "its jitter reaches 11 slots (55 ms). The simulator's wireless link is not slotted, so a packet that "
             "arrives in the middle of a transmission (a paced one, §3.5) also waits for that slot to end, and under "
             "the suite's default that fraction of a slot alone can carry a jitter of 10 slots past 50 ms. Scoring "
             "only: the runs are the default's"),
]


# The protocol readings change every AIMD run; they were declared for the claims whose cause
# they may be (the sender's decrease and spacing decide how evenly several flows share, S11 and
# S14), and ``--explore`` runs them for those only.
PROTOCOL_BEARING = {"reduction-pipe": ("S11", "S14"), "reduction-cwnd": ("S11", "S14"), "pacing-off": ("S11", "S14"),
                    # the spacing's rtt bears on whether the window keeps the wireless link busy (S5), and on every
                    # other claim of an AIMD run: they are run too, so that what the reading costs is known
                    "pacing-min-rtt": ("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "S11", "S12",
                                       "S13", "S14", "S16", "S18")}


def bearing(claims: Sequence[Claim], figures: Sequence[Figure]) -> Mapping[str, list[str]]:
    """Alternative name → the claims it bears on: a protocol reading those of
    :data:`PROTOCOL_BEARING`; a set-up reading every claim whose figure it changes."""
    by_id = {f.id: f for f in figures}
    out: dict[str, list[str]] = {}
    for a in ALTERNATIVES:
        if a.name in PROTOCOL_BEARING:
            out[a.name] = [c.id for c in claims if c.id in PROTOCOL_BEARING[a.name]]
        else:
            out[a.name] = [c.id for c in claims if c.figure in by_id and a.in_figure(c.figure)
                           and any(a.applies_to(p) for p in by_id[c.figure].parts)]
    return out
