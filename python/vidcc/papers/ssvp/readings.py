"""The SSVP suite's readings for ``vidcc reproduce ssvp --explore``: the protocol readings
docs/papers/ssvp.md leaves open that the code exposes, the set-up readings of what the paper does
not give (its layer rates), and the claims each may bear on. Each was declared from the paper's
text before it was run; none becomes a default because it passes."""

from __future__ import annotations

from vidcc.papers.model import Alternative

ALTERNATIVES = [
    Alternative(
        "deviation-tcp",
        "ssvp",
        {"deviation": "tcp"},
        "docs/papers/ssvp.md A-RTT-1",
        note="TCP's RTTVAR form instead of Eq. (5) as printed: a different STO, so fewer or more receiver "
        "timeouts (each is a congestion mark).",
    ),
    Alternative(
        "no-feedback-decrease",
        "ssvp",
        {"no_feedback_decrease": True},
        "docs/papers/ssvp.md A-RATE-4",
        note="the sender halves its rate when no control packet arrives for an STO, as TCP would.",
    ),
    Alternative(
        "postloss-physical",
        "ssvp-layered",
        {"postloss_factor": "physical"},
        "docs/papers/ssvp.md A-LA-1",
        note="the layer-drop test uses the rate after decrease β·R (the physical reading) instead of Eq. (17) "
        "as printed.",
    ),
    Alternative(
        "consumption-mean",
        "ssvp-layered",
        {"consumption": "mean-times-count"},
        "docs/papers/ssvp.md A-LA-4",
        note="(k+1)·c̄ with c̄ the mean active-layer consumption, as the paper defines it, instead of the "
        "cumulative consumption of layers 1..k+1.",
    ),
]


# §6.3 gives n = 4 layers and no rates; the suite's four layers of 95 kbit/s sum to the 380 kbit/s
# of its single-layer flows. Read from §6.3's words: the flow adapts "along with long-term variations
# in the available bandwidth" and is only "periodically able to transmit at the highest layer": the
# full-quality video then asks for about what the link offers, 1 Mbit/s in four equal layers.
LAYERS_AT_CAPACITY = ["250kbps", "500kbps", "750kbps", "1000kbps"]
ALTERNATIVES.append(
    Alternative(
        "layers-at-capacity",
        ref="paper §6.3: 'adapting video quality along with long-term variations in the available bandwidth', "
        "'periodically able to transmit at the highest layer (i.e. layer 4)' (no layer rates)",
        setup={"flows[ssvp-la].video.layers": LAYERS_AT_CAPACITY},
        figures=("fig14",),
        note="Fig. 14's four layers of 250 kbit/s (full quality 1 Mbit/s, the bottleneck's capacity) instead of "
        "the suite's 95 kbit/s (380 kbit/s, which SSVP beside two FTP flows exceeds at once and keeps)",
    )
)

# The SSVP paper alone never says which router is the MPEG flows' bottleneck: it plots R2's queue
# "in the presence of 40 MPEG flows" (Fig. 13) and averages it per MPEG protocol (Table 2), which
# reads as R2 being where the MPEG flows queue. The suite's scenarios follow the DVRC paper's words
# on the same figure (R1 the MPEG bottleneck, R2 the shared one; papers/cross_traffic.py); this
# reading makes R2 the bottleneck of every flow (the suite's reconstruction before the two suites
# shared one).
ALTERNATIVES.append(
    Alternative(
        "r2-bottleneck",
        ref="paper §6.2: 'selected traces of the queue length of the router R2 (Fig. 13) in the presence of 40 MPEG "
        "flows (plus 10 FTP connections)'; Table 2 (no core capacities in the text)",
        setup={"topology.links[R1-R2].bandwidth": "10Mbps", "topology.links[R2-R3].bandwidth": "5Mbps"},
        figures=("fig12", "fig13", "fig15"),
        note="R1–R2 10 Mbit/s and R2–R3 5 Mbit/s: R2 the bottleneck of the MPEG and FTP flows alike, instead of "
        "R1–R2 5 and R2–R3 10 Mbit/s (R1 the MPEG flows' bottleneck, as the DVRC paper says of the same figure)",
    )
)

# §3.2 (Fig. 3) describes SSVP's sender as a queue that keeps what the coder produced at the old rate
# and drains it at the new one ("packet P will rest inside the server"), with no drop named; the
# suite's sender buffer drops packets older than 1 s or beyond 100 (docs/papers/ssvp.md §1.1.7 [U]),
# while TFRC's and TCPW+'s keep every packet (ns-2's unbounded application queue).
ALTERNATIVES.append(
    Alternative(
        "sender-queue-kept",
        "ssvp",
        {"sender_buffer_packets": 2**32 - 1, "sender_buffer_max_age": "3600s"},
        "paper §3.2, Fig. 3: 'the queue inside the sender is increased with the amount of data …', 'the amount of "
        "time that packet P will rest inside the server' (no drop rule); docs/papers/ssvp.md §1.1.7",
        note="SSVP's sender keeps every packet the application wrote until it is sent, as TFRC's does, instead of "
        "dropping the stalest beyond 1 s or 100 packets",
    )
)

BEARING = {
    # C9, C13 and C18 turn on SSVP's own losses and reactions too (its STO and its silence rule).
    "deviation-tcp": ("C9", "C10", "C11", "C13", "C16", "C17", "C18"),
    "no-feedback-decrease": ("C9", "C10", "C11", "C13", "C16", "C17", "C18"),
    "postloss-physical": ("C16", "C19"),
    "consumption-mean": ("C16", "C19"),
    "layers-at-capacity": ("C19",),
    "sender-queue-kept": ("C9", "C13"),
    "r2-bottleneck": ("C12", "C13", "C14", "C15", "C16", "C17", "C18", "C20", "C21", "B2"),
}
