"""TFMCC versus ASMP: Kioumourtzis, Bouras, Gkamas, Int. J. Communication Systems, 2012.

The suite is assembled here from its modules: :mod:`scenarios` (topologies, flows, scale
constants and the reconstruction notes), :mod:`figures`, :mod:`claims` (each claim's check and
cause, in the checks modules named for what they test: :mod:`fairness`, :mod:`delay`,
:mod:`dynamics`, :mod:`loss`, :mod:`video_quality`, with :mod:`common` and the video of
:mod:`videoset`), :mod:`setup` (where every value of the scenarios comes from) and
:mod:`readings` (the readings ``--explore`` runs). The paper's page is docs/papers/asmp-tfmcc.md.
"""

from __future__ import annotations

from vidcc.papers.asmp_tfmcc import scenarios
from vidcc.papers.asmp_tfmcc.claims import CLAIMS
from vidcc.papers.asmp_tfmcc.figures import FIGURES
from vidcc.papers.asmp_tfmcc.readings import ALTERNATIVES, BEARING
from vidcc.papers.asmp_tfmcc.setup import SETUP
from vidcc.papers.model import Suite, reconstruction_notes, with_alternatives_named

SUITE = Suite(
    "asmp-tfmcc",
    "TFMCC versus ASMP: lessons learned from performance evaluation",
    "Kioumourtzis, Bouras, Gkamas, Int. J. Communication Systems, 2012",
    "docs/papers/asmp-tfmcc.md",
    FIGURES,
    with_alternatives_named(CLAIMS, BEARING),
    notes=reconstruction_notes(scenarios.__doc__),
    setup=SETUP,
    alternatives=ALTERNATIVES,
)
