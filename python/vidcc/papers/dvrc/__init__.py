"""DVRC (AIAMD + layered subscription): Papadimitriou, Tsaoussidis, Mamatas, J. Systems and
Software 81(12), 2008. Scenarios S0–S6 and claims C1–C26 of docs/papers/dvrc.md.

The suite is assembled here from its modules: :mod:`scenarios` (topologies, flows, scale constants
and the reconstruction notes), :mod:`figures`, :mod:`claims` (each claim's check and cause, in the
checks modules named for what they test), :mod:`setup` (where every value of the scenarios comes
from) and :mod:`readings` (the readings ``--explore`` runs).
"""

from __future__ import annotations

from vidcc.papers.dvrc import scenarios
from vidcc.papers.dvrc.claims import CLAIMS
from vidcc.papers.dvrc.figures import FIGURES
from vidcc.papers.dvrc.readings import ALTERNATIVES, bearing
from vidcc.papers.dvrc.setup import SETUP
from vidcc.papers.model import Suite, reconstruction_notes, with_alternatives_named

SUITE = Suite("dvrc", "DVRC: a receiver-centric rate control scheme for layered video streams",
              "Papadimitriou, Tsaoussidis, Mamatas, J. Systems and Software 81(12), 2008", "docs/papers/dvrc.md",
              FIGURES, with_alternatives_named(CLAIMS, bearing(CLAIMS, FIGURES)),
              notes=reconstruction_notes(scenarios.__doc__),
              setup=SETUP, alternatives=ALTERNATIVES)
