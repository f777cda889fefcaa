"""QoS-aware AIMD for time-sensitive traffic over wired + last-hop wireless links: Cai, Shen,
Mark, Pan (c. 2005). Experiments A–D (Figs. 5–9) and claims A1–A12, S1–S18 of
docs/papers/qos-aimd.md.

The suite is assembled here from its modules: :mod:`scenarios` (topology, flows, scale
constants and the reconstruction notes), :mod:`figures`, :mod:`claims` (each claim's check and
cause, in the checks modules named for what they test: :mod:`analytic`, :mod:`rwnd`,
:mod:`utilisation`, :mod:`sharing`, :mod:`udp`, on the tables of :mod:`stats`; the analysis
itself is :mod:`model`), :mod:`setup` (where every value of the scenarios comes from) and
:mod:`readings` (the readings ``--explore`` runs).
"""

from __future__ import annotations

from vidcc.papers.model import Suite, reconstruction_notes, with_alternatives_named
from vidcc.papers.qos_aimd import scenarios
from vidcc.papers.qos_aimd.claims import CLAIMS
from vidcc.papers.qos_aimd.figures import FIGURES
from vidcc.papers.qos_aimd.readings import ALTERNATIVES, bearing
from vidcc.papers.qos_aimd.setup import SETUP

SUITE = Suite("qos-aimd", "A QoS-aware AIMD protocol for time-sensitive applications in wired/wireless networks",
              "Cai, Shen, Mark, Pan (University of Waterloo / NTT MCL), c. 2005", "docs/papers/qos-aimd.md", FIGURES,
              with_alternatives_named(CLAIMS, bearing(CLAIMS, FIGURES)), notes=reconstruction_notes(scenarios.__doc__),
              setup=SETUP, alternatives=ALTERNATIVES)
