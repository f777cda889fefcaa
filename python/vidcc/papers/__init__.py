"""Paper reproduction suites (``vidcc reproduce PAPER``).

One package per paper, each exposing ``SUITE`` (a :class:`vidcc.papers.model.Suite`);
:data:`PAPERS` maps the CLI names to the packages. The framework: :mod:`vidcc.papers.model`
(the data), :mod:`~vidcc.papers.existence` (what exists today), :mod:`~vidcc.papers.measures`
(a figure's results), :mod:`~vidcc.papers.verdicts` (checks, statuses, causes),
:mod:`~vidcc.papers.building` (scenarios and sweeps), :mod:`~vidcc.papers.running` (running a
suite), :mod:`~vidcc.papers.reproducing` (``vidcc reproduce``: suites, report and exploration).
The HTML report and ``claims.json`` are in :mod:`vidcc.report`.
"""

from __future__ import annotations

import importlib

__all__ = ["PAPERS", "load_suite", "suites"]

# CLI name → package under vidcc.papers.
PAPERS = {
    "dvrc": "dvrc",
    "ssvp": "ssvp",
    "asmp-tfmcc": "asmp_tfmcc",
    "qos-aimd": "qos_aimd",
    "sramt": "sramt",
}


def load_suite(name: str):
    """The suite of one paper by its CLI name (``dvrc``, ``asmp-tfmcc``, ...)."""
    if name not in PAPERS:
        raise KeyError(f"unknown paper {name!r}; expected one of: {', '.join(PAPERS)}")
    return importlib.import_module(f"vidcc.papers.{PAPERS[name]}").SUITE


def suites(names=None) -> list:
    return [load_suite(n) for n in (names or PAPERS)]
