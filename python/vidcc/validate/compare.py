"""Agreement bands, and the verdict of one case.

A metric agrees when |vidcc - ns2| <= max(abs, rel * |ns2|), or, for a band with ``both_above``
(an outcome rather than a number: PLM's estimate behind a FIFO), when both sides reach it. The
two simulators never draw the same random numbers and never start flows at bit-identical
phases, so no band is zero; each is set from what the metric depends on, not from today's
numbers (docs/validation.md repeats this):
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Band:
    abs: float = 0.0
    rel: float = 0.0
    why: str = ""
    cap: float = 0.0  # an absolute floor as a share of the bottleneck's capacity (goodputs)
    both_above: float | None = None  # an outcome both must show: each side >= this, not a difference

    def width(self, reference: float, capacity_bps: float = 0.0) -> float:
        return max(self.abs, self.rel * abs(reference), self.cap * capacity_bps)

    def agrees(self, vidcc: float, ns2: float, capacity_bps: float = 0.0) -> bool:
        if self.both_above is not None:
            return vidcc >= self.both_above and ns2 >= self.both_above
        return abs(vidcc - ns2) <= self.width(ns2, capacity_bps) + 1e-12

    def describe(self) -> str:
        if self.both_above is not None:
            return f"both >= {self.both_above:g}"
        parts = ([f"±{self.abs:g}"] if self.abs else []) + ([f"±{self.rel:.0%}"] if self.rel else [])
        parts += [f"±{self.cap:.0%}C"] if self.cap else []
        return " or ".join(parts)


BANDS: dict[str, Band] = {
    "goodput_total": Band(
        rel=0.05,
        cap=0.01,
        why="a saturated bottleneck: both simulators deliver the capacity less the idle time after "
        "losses; only how many flows back off together (phase, seeds) differs, a few percent of "
        "capacity. Loss-bound cases (random loss, TFRC) widen it, see the case.",
    ),
    "goodput[]": Band(
        rel=0.10,
        cap=0.01,
        why="a group's share of the capacity: with one group it is the total; between groups it "
        "moves with which flows meet the full queue (phase effects, seeds), about ±10 %. A flow "
        "starved below 1 % of the capacity C in both is starved in both: the ratio of two "
        "near-zero numbers is noise, hence the floor of 1 % of C (for every goodput band).",
    ),
    "loss_rate": Band(
        abs=0.002,
        rel=0.30,
        why="the number of congestion events per second is set by AIMD dynamics, but the drops per "
        "event (one or several per window overflow) depend on how bursts meet the queue, which "
        "any phase difference changes: up to a third. 0.2 points for nearly lossless links and "
        "for the binomial noise of random loss.",
    ),
    "mean_queue": Band(
        abs=2.0,
        rel=0.25,
        why="the average of a sawtooth: its level depends on how synchronised the flows' backoffs "
        "are (phase, seeds), a quarter either way; 2 packets where the queue is nearly empty.",
    ),
    "timeouts_per_loss_event": Band(
        abs=0.10,
        why="a behaviour, not a quantity: a correct agent recovers most losses by fast retransmit "
        "and times out only when a window loses too much; a difference of 10 % of the events is "
        "a different recovery rule. Not compared when ns-2 saw fewer than 5 events.",
    ),
    "jain[]": Band(
        abs=0.05,
        why="identical flows are fair in both up to seed noise; 0.05 is a per-flow spread of "
        "about ±20 %, the level at which phase effects show.",
    ),
    "layers[]": Band(
        abs=0.5,
        why="PLM behind a fair queue: the pair's spacing is the time the scheduler takes to serve "
        "the session one packet at its share, so every estimate is the share up to a DRR quantum "
        "and the receiver holds one level, the largest cumulative rate below it; half a layer of "
        "time-weighted mean is spending half the interval on another level, a different decision, "
        "not noise. FIFO cases replace it with an outcome band (cases.py).",
    ),
    "estimate_share[]": Band(
        abs=0.10,
        why="the median pair estimate over the fair share: 1 behind a fair queue up to the quantum's "
        "granularity (250 B of a 1000 B packet between rounds moves single estimates, not their "
        "median), so 0.1; behind a FIFO the pair leaves back to back and measures the link, an "
        "outcome band (cases.py).",
    ),
}
MIN_EVENTS = 5


def band_for(metric: str, overrides: Mapping[str, Band]) -> Band:
    """A case's band for this metric (``goodput[x]``, then ``goodput[]`` for every label), else
    the default."""
    family = metric.split("[")[0] + "[]" if "[" in metric else metric
    band = overrides.get(metric) or overrides.get(family) or BANDS.get(family) or BANDS[metric.split("[")[0]]
    if family.startswith("goodput") and not band.cap and band.both_above is None:
        band = Band(band.abs, band.rel, band.why, BANDS[family].cap)
    return band


@dataclass(frozen=True)
class Expect:
    """A documented outcome that is not agreement: ``kind`` is ``"vidcc-bug"`` (a known fault of
    vidcc, being fixed elsewhere) or ``"ns2-deviation"`` (ns-2 is the one that is wrong, with the
    reason), for the named metrics only."""

    kind: str
    metrics: tuple[str, ...]
    reason: str

    def __post_init__(self) -> None:
        if self.kind not in ("vidcc-bug", "ns2-deviation"):
            raise ValueError(f"Expect.kind must be 'vidcc-bug' or 'ns2-deviation', not {self.kind!r}")


@dataclass(frozen=True)
class MetricResult:
    metric: str
    vidcc: float | None
    ns2: float | None
    band: str
    ok: bool | None  # None: not compared

    def as_dict(self) -> dict:
        return {"metric": self.metric, "vidcc": self.vidcc, "ns2": self.ns2, "band": self.band, "ok": self.ok}


@dataclass(frozen=True)
class CaseResult:
    case: str
    status: str  # PASS, FAIL, XFAIL, XPASS, DEVIATION, ERROR
    metrics: list[MetricResult] = field(default_factory=list)
    note: str = ""

    @property
    def failed(self) -> bool:
        return self.status in ("FAIL", "ERROR")

    def as_dict(self) -> dict:
        return {
            "case": self.case,
            "status": self.status,
            "note": self.note,
            "metrics": [m.as_dict() for m in self.metrics],
        }


def _compare_one(
    metric: str, v: float | None, n: float | None, band: Band, events: int, capacity: float
) -> MetricResult:
    desc = band.describe()
    if v is None and n is None:
        return MetricResult(metric, v, n, desc, None)
    if metric.startswith("timeouts_per_loss_event") and events < MIN_EVENTS:
        return MetricResult(metric, v, n, desc, None)
    if v is None or n is None:
        # Measured on one side only (a receiver that never estimated, a label starved in one
        # simulator): a disagreement, not a metric to skip.
        return MetricResult(metric, v, n, desc, False)
    if not (math.isfinite(v) and math.isfinite(n)):
        return MetricResult(metric, v, n, desc, False)
    return MetricResult(metric, v, n, desc, band.agrees(v, n, capacity))


def compare(
    case: str,
    vidcc: Mapping[str, float | None],
    ns2: Mapping[str, float | None],
    *,
    overrides: Mapping[str, Band] | None = None,
    expect: Expect | None = None,
    ns2_events: int | Mapping[str, int] = MIN_EVENTS,
    capacity_bps: float = 0.0,
) -> CaseResult:
    """Compare metric by metric; ``ns2_events`` is ns-2's count of window reductions (per
    timeouts metric when a mapping), ``capacity_bps`` the bottleneck's bandwidth."""
    if set(vidcc) != set(ns2):
        raise ValueError(f"case {case}: the two sides measured different metrics: {sorted(set(vidcc) ^ set(ns2))}")
    overrides = overrides or {}
    def events(m: str) -> int:
        return ns2_events if isinstance(ns2_events, int) else ns2_events.get(m, 0)

    results = [_compare_one(m, vidcc[m], ns2[m], band_for(m, overrides), events(m), capacity_bps) for m in vidcc]
    out = {r.metric for r in results if r.ok is False}
    if not out:
        if expect is not None and expect.kind == "vidcc-bug":
            return CaseResult(case, "XPASS", results, f"known vidcc bug no longer shows: {expect.reason}")
        return CaseResult(case, "PASS", results)
    if expect is not None and out <= set(expect.metrics):
        status = "XFAIL" if expect.kind == "vidcc-bug" else "DEVIATION"
        return CaseResult(case, status, results, expect.reason)
    return CaseResult(case, "FAIL", results, "outside the band: " + ", ".join(sorted(out)))
