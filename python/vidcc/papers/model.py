"""The data of a paper suite and of its run: what the report and ``claims.json`` are made of.

A suite (``vidcc/papers/<paper>/``) is a :class:`Suite` of :class:`Figure` objects (each a set of
:class:`Part` sweeps and :class:`Plot` drawings) and :class:`Claim` objects (a claim's text, the
figure it reads, what it needs, its ``check`` and, for a claim known not to reproduce, its
``cause``). Values that differ between the ``quick`` and ``full`` scales are written
``ByScale(quick, full)``; :func:`at_scale` picks one. A check returns a :class:`Verdict` (PASS, FAIL or
NOT-YET with the measured values that decided it). The suite reports a claim as PASS or FAIL only
when the check agrees over the seeds (:class:`Stability`, :data:`PASS_SHARE`); otherwise it is
UNSTABLE.

Running a suite yields a :class:`SuiteRun`: a :class:`FigureRun` per figure (a :class:`PartRun`
per part, the drawn :class:`Image` objects) and a :class:`ClaimResult` per claim.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

from vidcc.papers.categories import Category, Classification, Finding, problems
from vidcc.papers.existence import missing
from vidcc.papers.provenance import SetupKey, set_at

if TYPE_CHECKING:
    import pandas as pd

    from vidcc.papers.measures import FigureData

__all__ = [
    "PASS", "FAIL", "UNSTABLE", "NOT_YET", "UNCLASSIFIED", "STATUSES", "CHECK_STATUSES", "PASS_SHARE", "FAIL_SHARE",
    "FEW_SEEDS",
    "Stability", "SCALES", "ByScale", "at_scale", "Axis", "Part", "Plot", "Figure", "Verdict",
    "Cause", "Claim", "Alternative", "with_alternatives_named", "Suite", "reconstruction_notes", "PartRun", "Image",
    "FigureRun", "ClaimResult", "SuiteRun",
]

PASS, FAIL, UNSTABLE, NOT_YET = "PASS", "FAIL", "UNSTABLE", "NOT-YET"
UNCLASSIFIED = "unclassified"  # a FAIL or UNSTABLE whose category is not stated yet
STATUSES = (PASS, FAIL, UNSTABLE, NOT_YET)  # what a claim can be
CHECK_STATUSES = (PASS, FAIL, NOT_YET)  # what a check can return (UNSTABLE is decided over seeds)
SCALES = ("quick", "full")

# The stability rule (docs/experiments.md, "Verdicts and their stability"): a claim whose check
# can be applied to each seed's runs alone is PASS when it holds in at least PASS_SHARE of the
# seeds (and on all seeds pooled), FAIL when it holds in at most FAIL_SHARE of them (and fails
# pooled), else UNSTABLE. Fewer than FEW_SEEDS seeds decide, but the report says "few seeds".
PASS_SHARE, FAIL_SHARE, FEW_SEEDS = 0.8, 0.2, 10


# --------------------------------------------------------------------------------------------
# Scale-dependent values


@dataclass(frozen=True)
class ByScale:
    """A value that depends on the scale: ``ByScale("20s", "200s")``."""

    quick: Any
    full: Any

    def at(self, scale: str) -> Any:
        if scale not in SCALES:
            raise ValueError(f"unknown scale {scale!r}; expected one of {', '.join(SCALES)}")
        return self.quick if scale == "quick" else self.full


def at_scale(value: Any, scale: str) -> Any:
    """``value`` with every :class:`ByScale` inside (dicts, lists, tuples) resolved for ``scale``."""
    if isinstance(value, ByScale):
        return at_scale(value.at(scale), scale)
    if isinstance(value, Mapping):
        return {k: at_scale(v, scale) for k, v in value.items()}
    if isinstance(value, list):
        return [at_scale(v, scale) for v in value]
    if isinstance(value, tuple):
        return tuple(at_scale(v, scale) for v in value)
    return value


# --------------------------------------------------------------------------------------------
# Figures, parts, plots


@dataclass(frozen=True)
class Axis:
    """One axis of a part: a scenario key path, its values (or ``ByScale(quick, full)``), and the
    short column name the checks and plots use (several parts of a figure may sweep different
    key paths under one name, e.g. ``n`` for ``flows[0].count`` and ``flows[1].count``)."""

    key: str
    values: Any
    name: str = ""

    @property
    def column(self) -> str:
        return self.name or self.key


@dataclass
class Part:
    """One sweep of a figure: a base scenario, axes and seeds.

    ``kind="paper"`` is a run the paper made; ``kind="baseline"`` a sanity run built from what
    exists today (TCP, unresponsive UDP), reported as such. ``tags`` are constant columns added
    to this part's results (e.g. ``{"reno": 20}``) so that plots and checks can tell parts
    apart. ``needs`` names :data:`FEATURES` the part needs besides its protocols."""

    name: str
    base: dict
    axes: Sequence[Axis] = ()
    seeds: Any = field(default_factory=lambda: ByScale([1, 2], list(range(1, 11))))
    kind: str = "paper"
    needs: Sequence[str] = ()
    tags: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    alternatives: Sequence[Alternative] = ()  # readings applied to this part's scenario (``vidcc reproduce --explore``)

    def protocols(self) -> list[str]:
        found: list[str] = []
        for scale in SCALES:
            for flow in at_scale(self.base, scale).get("flows", []):
                p = flow.get("protocol")
                if isinstance(p, str):
                    found.append(p)
        for axis in self.axes:
            if axis.key.endswith(".protocol"):
                values = axis.values
                for scale in SCALES:
                    found.extend(v for v in at_scale(values, scale) if isinstance(v, str))
        return list(dict.fromkeys(found))

    def missing(self) -> list[str]:
        return missing(self.protocols(), self.needs)

    def scenario(self, scale: str) -> dict:
        scenario = copy.deepcopy(at_scale(self.base, scale))
        for alt in self.alternatives:
            alt.apply(scenario, scale)
        return scenario

    def axis_values(self, scale: str) -> dict[str, list]:
        return {a.column: list(at_scale(a.values, scale)) for a in self.axes}

    def seed_list(self, scale: str) -> list[int]:
        return list(at_scale(self.seeds, scale))

    def runs(self, scale: str) -> int:
        n = len(self.seed_list(scale))
        for values in self.axis_values(scale).values():
            n *= len(values)
        return n


@dataclass
class Plot:
    """What to draw from a figure's results.

    ``kind="line"``: ``metric`` (a column of ``table``) against the axis column ``axis``, one
    line per ``group`` value, mean over seeds with 95 % CI error bars. ``where`` keeps rows
    whose columns have the given value (or one of a list of values); ``prepare`` may add
    derived columns first; ``within_run`` reduces several rows of one run (flows of a label).

    ``kind="series"``: ``metric`` of ``table`` (``flow_samples``, ``queue_samples``) over time
    for one run: the first seed of ``part`` at the axis values ``select``; one line per
    ``line`` (``flow`` or ``link``)."""

    id: str
    title: str
    metric: str
    kind: str = "line"
    axis: str | None = None
    table: str = "run_flows"
    group: str | None = "label"
    parts: Sequence[str] | None = None
    where: Mapping[str, Any] = field(default_factory=dict)
    prepare: Callable[[pd.DataFrame], pd.DataFrame] | None = None
    within_run: str = "mean"
    xlabel: str | None = None
    ylabel: str = ""
    scale: float = 1.0
    logx: bool = False
    hlines: Sequence[tuple[float, str]] = ()
    select: Mapping[str, Any] = field(default_factory=dict)
    line: str = "flow"
    only: Sequence[str] = ()  # series: keep only the lines with these names (link names, labels)


@dataclass
class Figure:
    """One figure or table of the paper: ``ref`` is the paper's own reference ("Fig. 8a,b"),
    ``caption`` says what it shows and how it was reconstructed (paper page tags [P]/[I]/[D])."""

    id: str
    title: str
    ref: str
    caption: str
    parts: Sequence[Part] = ()
    plots: Sequence[Plot] = ()
    needs: Sequence[str] = ()
    notes: Sequence[str] = ()

    def part(self, name: str) -> Part:
        return _named(self.parts, "name", name, f"figure {self.id}: no part")


def _named(items: Sequence[Any], attr: str, wanted: str, absent: str) -> Any:
    """The item whose ``attr`` is ``wanted``; a KeyError "<absent> '<wanted>'" when none is."""
    for item in items:
        if getattr(item, attr) == wanted:
            return item
    raise KeyError(f"{absent} {wanted!r}")


# --------------------------------------------------------------------------------------------
# Claims and suites


@dataclass
class Verdict:
    """What a claim's check found: ``status`` (PASS, FAIL or NOT-YET), the measured values that
    decided it and a one-line explanation."""

    status: str
    measured: dict[str, Any]
    explanation: str

    def __post_init__(self):
        if self.status not in CHECK_STATUSES:
            raise ValueError(f"status must be one of {CHECK_STATUSES}, got {self.status!r}")


# Why a claim does not reproduce, stated once per claim (``Claim.cause``) and shown after a
# FAIL's explanation as ". Cause: <text>": either the text itself (known in advance, measured
# once), or a function ``(data, measured) -> text`` that computes it from the figure's results
# when the check fails; it may add the numbers it used to ``measured``.
Cause = Union[str, Callable[["FigureData | None", dict[str, Any]], str]]


@dataclass
class Claim:
    """A claim of the paper (``kind="paper"``, id from the paper page's claims table) or a sanity
    check on what exists today (``kind="baseline"``). ``check(data)`` receives the
    :class:`FigureData` of ``figure`` (None for a claim without a figure) and returns a
    :class:`Verdict`. ``check=None`` means the check is not written yet (its metric does not
    exist yet): the claim is NOT-YET whatever exists. ``cause`` (a :data:`Cause`) says why the
    claim does not reproduce; it is stated only when the check FAILs."""

    id: str
    text: str
    figure: str | None = None
    protocols: Sequence[str] = ()
    check: Callable[[FigureData | None], Verdict] | None = None
    kind: str = "paper"
    needs: Sequence[str] = ()
    parts: Sequence[str] = ()
    ref: str = ""
    pending: str = ""  # why the check is not written yet (check=None)
    cause: Cause | None = None
    not_per_seed: str = ""  # why the check cannot be applied to one seed's runs alone (then no stability)
    alternatives: Sequence[str] = ()  # names of the suite's Alternatives that may bear on this claim (--explore)
    # why the claim does not reproduce, with its evidence (vidcc.papers.categories); stated on a FAIL or UNSTABLE
    category: Classification | None = None


@dataclass(frozen=True)
class Alternative:
    """Another reading of the paper, runnable with ``vidcc reproduce PAPER --explore``
    (:mod:`vidcc.papers.explore`). Two kinds, which one alternative may combine:

    * a protocol reading: where the paper leaves an interpretation or default open and the code
      exposes the other one, the protocol keys that select it (``keys``, set on every flow of
      ``protocol``): ``Alternative("pacing", "dvrc", {"pacing": True}, ref)``;
    * a set-up reading: a reconstruction or interpretation of the scenario named in the suite's
      set-up tables (:mod:`vidcc.papers.provenance`): ``setup`` maps key-path patterns (as
      :class:`~vidcc.papers.provenance.SetupKey` writes them, ``*`` matching anything) to the
      value every matching node of every part's scenario takes instead
      (:func:`~vidcc.papers.provenance.set_at`: only nodes the scenario has, a matched mapping
      replaced whole; values may be ``ByScale(quick, full)`` or a function of the node's current
      value): ``Alternative("classic-red", setup={"topology.links[C1-*].queue": {...}}, ref=...)``;
      ``figures`` limits it to those figures' parts (a pattern that would also match elsewhere).

    * a scoring reading: how the suite scores its runs where the paper's post-processing is
      open (``scoring``, keys the suite's measures read from the part's alternatives, e.g.
      ``{"psnr_reference": "sent"}``); it leaves every scenario as it is, so its runs are reused.

    ``ref`` points at the paper's text (or the set-up row) the reading comes from; ``note`` says
    what the reading is and what evidence suggests it."""

    name: str
    protocol: str = ""
    keys: Mapping[str, Any] = field(default_factory=dict)
    ref: str = ""
    note: str = ""
    setup: Mapping[str, Any] = field(default_factory=dict)
    figures: Sequence[str] = ()
    scoring: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.protocol and not self.setup and not self.scoring:
            raise ValueError(f"alternative {self.name!r}: neither a protocol (with its keys), set-up patterns nor "
                             "scoring keys")
        if self.keys and not self.protocol:
            raise ValueError(f"alternative {self.name!r}: protocol keys {sorted(self.keys)} without a protocol")
        empty = [p for p in self.setup if not isinstance(p, str) or not p.strip()]
        if empty:
            raise ValueError(f"alternative {self.name!r}: set-up pattern {empty[0]!r} is not a key path")

    def apply(self, scenario: dict, scale: str) -> list[str]:
        """Apply this reading to ``scenario`` (changed in place): the protocol keys on every flow of
        ``protocol``, then the set-up values. Returns the key paths the set-up patterns matched."""
        if self.protocol:
            for flow in scenario.get("flows", []):
                if flow.get("protocol") == self.protocol:
                    flow.update(copy.deepcopy(dict(self.keys)))
        return set_at(scenario, at_scale(dict(self.setup), scale)) if self.setup else []

    def applies_to(self, part: Part) -> bool:
        """Whether this reading changes anything in ``part`` at some scale: it carries the protocol,
        or a set-up pattern matches a node of its scenario."""
        if self.protocol and self.protocol in part.protocols():
            return True
        if self.scoring:  # scores every part's runs (the suite's measures decide what it changes)
            return True
        return bool(self.setup) and any(set_at(copy.deepcopy(at_scale(part.base, s)), at_scale(dict(self.setup), s))
                                        for s in SCALES)

    def describe(self) -> str:
        """The reading in one line: its keys and set-up values (for the report)."""
        out = []
        if self.protocol:
            out.append(f"{self.protocol}: " + ", ".join(f"{k} = {v}" for k, v in self.keys.items()))
        out += [f"{p} = {_short(v)}" for p, v in self.setup.items()]
        out += [f"scoring {k} = {_short(v)}" for k, v in self.scoring.items()]
        where = f"; in {', '.join(self.figures)}" if self.figures else ""
        return "; ".join(out) + where + (f" ({self.ref})" if self.ref else "")

    def in_figure(self, figure: str) -> bool:
        return not self.figures or figure in self.figures


def _short(value: Any) -> str:
    if callable(value):  # a function of the current value: its docstring says what it does
        return (value.__doc__ or value.__name__).strip().split("\n")[0]
    if isinstance(value, ByScale):
        return f"ByScale({_short(value.quick)}, {_short(value.full)})"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{k}: {_short(v)}" for k, v in value.items()) + "}"
    return str(value)


def with_alternatives_named(claims: Sequence[Claim], bearing: Mapping[str, Sequence[str]]) -> list[Claim]:
    """``claims`` with ``Claim.alternatives`` set from ``bearing`` (alternative name → the ids of
    the claims it may bear on), in the order ``bearing`` lists the alternatives."""
    return [dataclasses.replace(c, alternatives=tuple(a for a, ids in bearing.items() if c.id in ids)) for c in claims]


@dataclass
class Suite:
    """One paper's suite: its figures and claims, the paper page it follows and the reconstruction
    notes the report prints."""

    name: str  # CLI name: dvrc, ssvp, asmp-tfmcc, qos-aimd, sramt
    title: str
    citation: str
    page: str  # the paper page in this repository, docs/papers/<paper>.md
    figures: Sequence[Figure]
    claims: Sequence[Claim]
    notes: Sequence[str] = ()
    alternatives: Sequence[Alternative] = ()
    # where every value its scenarios set comes from (vidcc.papers.provenance): each figure's set-up table
    setup: Sequence[SetupKey] = ()

    def alternative(self, name: str) -> Alternative:
        return _named(self.alternatives, "name", name, f"suite {self.name}: no alternative")

    def figure(self, fid: str) -> Figure:
        return _named(self.figures, "id", fid, f"suite {self.name}: no figure")

    def validate(self) -> None:
        """Structural checks: unique ids, claims pointing at existing figures and parts."""
        fids = [f.id for f in self.figures]
        if len(set(fids)) != len(fids):
            raise ValueError(f"suite {self.name}: duplicate figure ids")
        cids = [c.id for c in self.claims]
        if len(set(cids)) != len(cids):
            dup = sorted({c for c in cids if cids.count(c) > 1})
            raise ValueError(f"suite {self.name}: duplicate claim ids {dup}")
        for f in self.figures:
            names = [p.name for p in f.parts]
            if len(set(names)) != len(names):
                raise ValueError(f"suite {self.name}: figure {f.id}: duplicate part names")
        for c in self.claims:
            if c.figure is not None:
                fig = self.figure(c.figure)
                for p in c.parts:
                    fig.part(p)
            for name in c.alternatives:
                self.alternative(name)
        wrong = [p for c in self.claims for p in problems(c, self)]
        if wrong:
            raise ValueError("; ".join(wrong))
        anames = [a.name for a in self.alternatives]
        if len(set(anames)) != len(anames):
            raise ValueError(f"suite {self.name}: duplicate alternative names")
        for alt in self.alternatives:
            for fid in alt.figures:
                self.figure(fid)
            for pattern in alt.setup:
                if not any(_matches(pattern, part, scale) for f in self.figures if alt.in_figure(f.id)
                           for part in f.parts for scale in SCALES):
                    raise ValueError(f"suite {self.name}: alternative {alt.name!r}: set-up pattern {pattern!r} matches "
                                     "no key of any part's scenario")


def _matches(pattern: str, part: Part, scale: str) -> bool:
    return bool(set_at(copy.deepcopy(at_scale(part.base, scale)), {pattern: 0}))


def reconstruction_notes(doc: str) -> list[str]:
    """The notes of a suite: its module docstring from the line after "Reconstruction notes"."""
    return [doc.split("Reconstruction notes", 1)[1].split("\n", 1)[1].strip()]


# --------------------------------------------------------------------------------------------
# What a run of a suite produced


@dataclass
class PartRun:
    """What happened to one part: ``status`` is ``"ran"``, ``"not-yet"`` (``reasons`` say
    what is missing) or ``"failed"`` (some or all runs failed; ``errors`` holds them)."""

    part: Part
    status: str
    reasons: list[str] = field(default_factory=list)
    sweep: str | None = None
    total: int = 0
    ran: int = 0
    skipped: int = 0
    failed: int = 0
    errors: list[str] = field(default_factory=list)
    run_ids: list[str] = field(default_factory=list)
    axes: dict[str, list] = field(default_factory=dict)
    seeds: list[int] = field(default_factory=list)
    # reused runs of other code: run_id → its code (None: unknown)
    stale: dict[str, str | None] = field(default_factory=dict)
    code: str = ""  # the code fingerprint of this process (vidcc.runids.code_fingerprint)


@dataclass
class Image:
    plot: Plot
    png: Any  # Path
    svg: Any  # Path
    note: str = ""


@dataclass
class FigureRun:
    figure: Figure
    parts: list[PartRun]
    images: list[Image] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    data: FigureData | None = None

    @property
    def stale(self) -> dict[str, str | None]:
        """The runs of other code this figure's results include (``reuse_stale``): run_id → code."""
        return {run: code for p in self.parts for run, code in p.stale.items()}

    @property
    def status(self) -> str:
        states = {p.status for p in self.parts}
        if not self.parts or states == {"not-yet"}:
            return NOT_YET
        if "failed" in states:
            return "failed"
        return "ran" if states == {"ran"} else "partial"


@dataclass
class Stability:
    """How a claim's check fared on each seed's runs alone. ``per_seed``: seed → PASS, FAIL or
    why it could not be applied to that seed; ``held`` of ``decided`` seeds passed. ``note``
    says why there is no share (``decided == 0``) or that the seeds are few."""

    per_seed: dict[Any, str] = field(default_factory=dict)
    held: int = 0
    decided: int = 0
    pooled: str = ""  # the check's status on all seeds together
    note: str = ""

    @property
    def share(self) -> float | None:
        return self.held / self.decided if self.decided else None

    @property
    def text(self) -> str:
        if not self.decided:
            return self.note
        failing = [str(s) for s, st in self.per_seed.items() if st == FAIL]
        text = f"holds in {self.held} of {self.decided} seeds"
        if failing and self.held:
            text += f" (not in seed{'s' if len(failing) > 1 else ''} {', '.join(failing)})"
        text += f"; all seeds pooled: {self.pooled}"
        return text + (f"; {self.note}" if self.note else "")


@dataclass
class ClaimResult:
    """A claim's status with the measured values that decided it. ``finding`` is what the check
    (or the framework, for a NOT-YET) found; ``cause`` is the claim's stated cause, filled only
    for a FAIL; :attr:`explanation` joins them into the one line the report shows."""

    claim: Claim
    status: str
    measured: dict[str, Any]
    finding: str
    cause: str = ""
    error: bool = False  # the check itself raised (a suite bug)
    stability: Stability | None = None  # the check per seed (None: NOT-YET, check error)
    category: Finding | None = None  # a FAIL's or UNSTABLE's category and evidence (None: unclassified)

    @property
    def explanation(self) -> str:
        return f"{self.finding}. Cause: {self.cause}" if self.cause else self.finding

    @property
    def stability_text(self) -> str:
        """How the check fared per seed ("holds in 7 of 10 seeds (not in seeds 2, 5, 9); all seeds
        pooled: PASS"), or why it was not checked per seed; empty for NOT-YET."""
        return self.stability.text if self.stability is not None else ""


@dataclass
class SuiteRun:
    suite: Suite
    scale: str
    figures: list[FigureRun]
    claims: list[ClaimResult]
    wall_seconds: float = 0.0
    db: str = ""
    explored: list[Any] = field(default_factory=list)  # vidcc.papers.explore.Trial, filled by --explore

    def counts(self) -> dict[str, int]:
        out = {s: 0 for s in STATUSES}
        for c in self.claims:
            out[c.status] += 1
        return out

    def categories(self) -> dict[str, int]:
        """FAIL and UNSTABLE claims by category (``vidcc.papers.categories.Category`` values), and
        how many are not classified yet (``unclassified``)."""
        out = {c.value: 0 for c in Category} | {UNCLASSIFIED: 0}
        for c in self.claims:
            if c.status in (FAIL, UNSTABLE):
                out[c.category.category.value if c.category else UNCLASSIFIED] += 1
        return out

    @property
    def errors(self) -> list[str]:
        errs = []
        for f in self.figures:
            for p in f.parts:
                if p.status == "failed":
                    errs.append(f"{self.suite.name}/{f.figure.id}/{p.part.name}: {p.failed} of {p.total} runs failed"
                                + (f" ({p.errors[0]})" if p.errors else ""))
        for c in self.claims:
            if c.error:
                errs.append(f"{self.suite.name}/{c.claim.id}: {c.explanation}")
        return errs

