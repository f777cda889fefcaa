"""The paper framework under one name, for code written against ``vidcc.papers.framework``.

The framework lives in five modules; new code imports from them directly:

* :mod:`vidcc.papers.model`: the data (claims, figures, parts, plots, suites, verdicts,
  statuses, scales, and what a run produced);
* :mod:`vidcc.papers.existence`: which protocols and features exist today;
* :mod:`vidcc.papers.measures`: a figure's results as checks see them, and shared measurements;
* :mod:`vidcc.papers.verdicts`: check helpers and how a claim becomes PASS / FAIL / NOT-YET
  with its cause;
* :mod:`vidcc.papers.building`: scenario helpers and a part's sweep at a scale;
* :mod:`vidcc.papers.running`: running a suite.
"""

from __future__ import annotations

from vidcc.papers.building import chain, droptail, dumbbell, flow, glink, graph, part_spec, red, scenario, sweep_name
from vidcc.papers.existence import FEATURES, Feature, feature_exists, missing, protocol_exists
from vidcc.papers.measures import FigureData, load_run_table, per_run, queue_stats, select, video_flows, warmup_ns
from vidcc.papers.model import (
    FAIL,
    NOT_YET,
    PASS,
    SCALES,
    STATUSES,
    Alternative,
    Axis,
    Cause,
    Claim,
    ClaimResult,
    Figure,
    FigureRun,
    Image,
    Part,
    PartRun,
    Plot,
    Q,
    Suite,
    SuiteRun,
    Verdict,
    at_scale,
    reconstruction_notes,
)
from vidcc.papers.running import run_suite
from vidcc.papers.verdicts import all_of, bound, check_claim, direction, no_data, number, ordering, state_cause, within

__all__ = [
    # model
    "PASS", "FAIL", "NOT_YET", "STATUSES", "SCALES", "Q", "at_scale", "Axis", "Part", "Plot", "Figure", "Verdict",
    "Cause", "Claim", "Alternative", "Suite", "reconstruction_notes", "PartRun", "Image", "FigureRun", "ClaimResult", "SuiteRun",
    # existence
    "Feature", "FEATURES", "protocol_exists", "feature_exists", "missing",
    # measures
    "FigureData", "select", "load_run_table", "video_flows", "warmup_ns", "queue_stats", "per_run",
    # verdicts
    "no_data", "bound", "within", "number", "ordering", "direction", "all_of", "state_cause", "check_claim",
    # building
    "scenario", "droptail", "red", "dumbbell", "chain", "glink", "graph", "flow", "sweep_name", "part_spec",
    # running
    "run_suite",
]
