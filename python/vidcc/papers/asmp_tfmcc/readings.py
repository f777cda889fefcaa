"""The ASMP/TFMCC suite's readings for ``vidcc reproduce asmp-tfmcc --explore``.

Each :class:`~vidcc.papers.model.Alternative` is a reading the paper's text allows where it leaves
something open: a protocol reading (keys of the ``asmp`` flows, docs/protocols/asmp.md) or a set-up
reading (values at key paths of the scenarios, :mod:`vidcc.papers.provenance`). They were declared
from the paper's text before they were run; none becomes a default because it passes.
:data:`BEARING` names, per reading, the claims it may change (those ``--explore`` re-judges).
"""

from __future__ import annotations

from vidcc.papers.model import Alternative

ALTERNATIVES = [
    Alternative(
        "immediate-decrease",
        "asmp",
        {"decrease": "immediate"},
        "docs/papers/asmp-tfmcc.md AMB-5",
        "after a lossy interval ASMP drops to the equation's rate at once instead of by γ of the drop per report",
    ),
    Alternative(
        "fraction-lost",
        "asmp",
        {"loss_measure": "fraction_lost"},
        "docs/papers/asmp-tfmcc.md AMB-2 option A",
        "l is the RR's fraction lost instead of the loss-event ratio",
    ),
]

BEARING = {"immediate-decrease": ("C18", "C23", "C24", "C29", "C32"), "fraction-lost": ("C2", "C18", "C29", "C32")}
