"""The SSVP suite's readings for ``vidcc reproduce ssvp --explore``: the protocol readings
docs/papers/ssvp.md leaves open that the code exposes, and the claims each may bear on."""

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


BEARING = {
    "deviation-tcp": ("C10", "C11", "C16", "C17"),
    "no-feedback-decrease": ("C10", "C11", "C16", "C17"),
    "postloss-physical": ("C16", "C19"),
    "consumption-mean": ("C16", "C19"),
}
