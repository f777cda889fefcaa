"""SSVP (AIMD through the inter-packet gap) and its receiver-buffered layered adaptation:
Papadimitriou & Tsaoussidis, Computer Networks, 2007.

The suite is assembled here from its modules: :mod:`scenarios` (topologies, flows, scale constants
and the reconstruction notes), :mod:`figures`, :mod:`claims` (each claim's check and cause, in the
checks modules named for what they test: :mod:`rate_law`, :mod:`sharing`, :mod:`quality`,
:mod:`contention`, :mod:`queues`, :mod:`layers`, and :mod:`units` on the implementation's own
numbers), :mod:`setup` (where every value of the scenarios comes from) and :mod:`readings` (the
readings ``--explore`` runs). The paper's page is
docs/papers/ssvp.md.
"""

from __future__ import annotations

from vidcc.papers.model import Suite, reconstruction_notes, with_alternatives_named
from vidcc.papers.ssvp import scenarios
from vidcc.papers.ssvp.claims import CLAIMS
from vidcc.papers.ssvp.figures import FIGURES
from vidcc.papers.ssvp.readings import ALTERNATIVES, BEARING
from vidcc.papers.ssvp.setup import SETUP

SUITE = Suite(
    "ssvp",
    "SSVP: a congestion control scheme for real-time video streaming",
    "Papadimitriou & Tsaoussidis, Computer Networks, 2007",
    "docs/papers/ssvp.md",
    FIGURES,
    with_alternatives_named(CLAIMS, BEARING),
    notes=reconstruction_notes(scenarios.__doc__),
    setup=SETUP,
    alternatives=ALTERNATIVES,
)
