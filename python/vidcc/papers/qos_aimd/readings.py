"""The QoS-AIMD suite's readings for ``vidcc reproduce qos-aimd --explore``: protocol readings
(where docs/papers/qos-aimd.md §3 leaves the AIMD sender's details open and the code exposes
the other choice) and set-up readings (where the paper is silent and the suite takes ns-2 2.35's
default, ``scenarios``). Each was declared from the paper's text before it was run; none becomes
a default because it passes.

Each reading bears on every claim whose figure it changes (:func:`bearing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vidcc.papers.model import Alternative, Claim, Figure

ALTERNATIVES = [
    Alternative("reduction-pipe", "qos-aimd", {"reduction_base": "pipe"},
                "docs/papers/qos-aimd.md §3.3 (outstanding packets) [I]",
                note="the multiplicative decrease halves the packets in the pipe (sent and neither acked nor lost) "
                "instead of all outstanding packets."),
    Alternative("reduction-cwnd", "qos-aimd", {"reduction_base": "cwnd"},
                "docs/papers/qos-aimd.md §3.3 (outstanding packets) [I]",
                note="the multiplicative decrease halves the congestion window, as ns-2's TCP agents do."),
    Alternative("pacing-off", "qos-aimd", {"pacing": "off"}, "docs/papers/qos-aimd.md §3.5 spacing [U → D]",
                note="no rtt/W spacing between data packets: the window leaves in bursts."),
]


# The protocol readings change every AIMD run; they were declared for the claims whose cause
# they may be (the sender's decrease and spacing decide how evenly several flows share, S11 and
# S14), and ``--explore`` runs them for those only.
PROTOCOL_BEARING = {"reduction-pipe": ("S11", "S14"), "reduction-cwnd": ("S11", "S14"), "pacing-off": ("S11", "S14")}


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
