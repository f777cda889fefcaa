"""The DVRC suite's readings for ``vidcc reproduce dvrc --explore``: where the paper leaves an
interpretation of DVRC open and the code exposes the other one (protocol readings), and where the
suite's set-up departs from what the paper or ns-2 2.35 would give (set-up readings). Each was
declared from the paper's text before it was run; none becomes a default because it passes.

:data:`BEARING` names the claims each reading may bear on (what ``--explore`` re-judges).
"""

from __future__ import annotations

from vidcc.papers.model import Alternative

ALTERNATIVES = [
    Alternative("pacing", "dvrc", {"pacing": True}, "docs/papers/dvrc.md §1.1.1 reading (b); paper §3.1",
                note="the sender paces packets at the receiver's rate R instead of sending each frame's packets back "
                "to back. The paper says data are 'sent out based on the determined rate at the receiving end' "
                "(§3.1). A reading outside the project found Jain 0.99–0.998 with pacing where frame bursts meeting "
                "the DropTail queue at fixed phases gave 0.7–0.8."),
    Alternative("alpha-per-second", "dvrc", {"alpha_unit": "packets_per_second"}, "docs/papers/dvrc.md A5",
                note="α as one packet per second per round instead of one packet per RTT: a far slower additive "
                "increase, which leaves the competing Reno flows more room."),
    Alternative("compare-r-prev", "dvrc", {"compare": "r_prev"}, "docs/papers/dvrc.md A7 (Eq. 11 as printed)",
                note="the loss classifier compares the previous computed rate R(t−1), as Eq. (11) prints, instead of "
                "the receiving rate measured at the loss (the prose and Fig. 3)."),
]

BEARING = {
    "pacing": ("C12", "C15", "C16", "C17", "C18", "C20", "C22", "C23", "C24"),
    "alpha-per-second": ("C3", "C18", "C19", "C20"),
    "compare-r-prev": ("C1", "C25"),
}
