"""SRAMT (simulcast SRAMT-S and layered SRAMT-LE): Bouras & Gkamas, Computer Networks 47(4), 2005.

The suite is assembled here from its modules: :mod:`scenarios` (topologies, flows, scale
constants and the reconstruction notes), :mod:`figures`, :mod:`claims` (each claim's check and
cause, in the checks modules named for what they test), :mod:`setup` (where every value of
the scenarios comes from) and :mod:`readings` (the set-up readings ``--explore`` runs). The
paper's page is docs/papers/sramt.md.
"""

from __future__ import annotations

from vidcc.papers.model import Suite, reconstruction_notes, with_alternatives_named
from vidcc.papers.sramt import scenarios
from vidcc.papers.sramt.claims import CLAIMS
from vidcc.papers.sramt.figures import FIGURES
from vidcc.papers.sramt.readings import ALTERNATIVES, bearing
from vidcc.papers.sramt.setup import SETUP

SUITE = Suite("sramt", "SRAMT: a hybrid sender and receiver-based adaptation scheme for TCP friendly multicast "
              "transmission", "Bouras & Gkamas, Computer Networks 47(4):551–575, 2005", "docs/papers/sramt.md", FIGURES,
              with_alternatives_named(CLAIMS, bearing(CLAIMS, FIGURES)), notes=reconstruction_notes(scenarios.__doc__),
              setup=SETUP, alternatives=ALTERNATIVES)
