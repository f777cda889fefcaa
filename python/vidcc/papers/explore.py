"""Which reading reproduces the paper: ``vidcc reproduce PAPER --explore``.

A suite names the readings the paper leaves open (:class:`Alternative`: protocol keys that
select another interpretation or default, or values at key paths of the scenarios for another
reading of the set-up) and, per claim, which of them may bear on it (``Claim.alternatives``).
After the suite has run with its defaults, every claim that is FAIL or UNSTABLE and names
alternatives is explored:

1. each of its alternatives alone: the whole suite re-run with the alternative applied to every
   part (``Part.scenario``). Runs are keyed by their scenario, so only the figures the reading
   changes run again; the others are reused from the database;
2. then the combination the evidence suggests: every alternative that turned at least one of
   these claims to PASS on its own, together (when there are two or more).

Each :class:`Trial` records, claim by claim, the status under the defaults and under the
alternative: what it *gains* (FAIL/UNSTABLE → PASS) and what it *costs* (PASS → FAIL/UNSTABLE).
The report shows them in a table; ``claims.json`` has them under ``explore``. The defaults
stay the paper page's: exploring changes nothing the suite reports as its verdicts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from vidcc.papers.model import FAIL, PASS, UNSTABLE, Alternative, Suite, SuiteRun

__all__ = ["Trial", "Change", "explorable", "with_alternatives", "compare", "suggested", "explore"]

OPEN = (FAIL, UNSTABLE)  # the statuses an alternative may turn into a PASS


@dataclass(frozen=True)
class Change:
    """One claim whose status differs between the defaults and a trial."""

    claim: str
    before: str
    after: str
    explanation: str  # the trial's explanation of the new status

    @property
    def gain(self) -> bool:
        return self.before in OPEN and self.after == PASS

    @property
    def cost(self) -> bool:
        return self.before == PASS and self.after in OPEN


@dataclass
class Trial:
    """The suite re-run under some alternatives: the claims that changed status."""

    alternatives: tuple[str, ...]
    targets: tuple[str, ...]  # the open claims this trial was run for
    changes: list[Change] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    wall_seconds: float = 0.0
    combined: bool = False  # the combination the single trials suggested

    @property
    def gains(self) -> list[Change]:
        return [c for c in self.changes if c.gain]

    @property
    def costs(self) -> list[Change]:
        return [c for c in self.changes if c.cost]

    @property
    def name(self) -> str:
        return " + ".join(self.alternatives)


def explorable(run: SuiteRun) -> dict[str, tuple[str, ...]]:
    """Alternative name → the open (FAIL/UNSTABLE) claims of ``run`` that name it, in suite order."""
    out: dict[str, list[str]] = {a.name: [] for a in run.suite.alternatives}
    for c in run.claims:
        if c.status in OPEN:
            for name in c.claim.alternatives:
                out[name].append(c.claim.id)
    return {name: tuple(ids) for name, ids in out.items() if ids}


def with_alternatives(suite: Suite, alternatives: Sequence[Alternative]) -> Suite:
    """A copy of ``suite`` whose parts apply ``alternatives`` to their flows. Its name (and so
    its sweeps' names) says which, so the defaults' sweeps are left as they are."""
    tag = "+".join(a.name for a in alternatives)
    figures = [dataclasses.replace(f, parts=[dataclasses.replace(p, alternatives=tuple(a for a in alternatives
                                                                                       if a.in_figure(f.id)))
                                             for p in f.parts])
               for f in suite.figures]
    return dataclasses.replace(suite, name=f"{suite.name}~{tag}", figures=figures)


def compare(default: SuiteRun, trial: SuiteRun) -> list[Change]:
    """The claims whose status differs between two runs of the same suite."""
    before = {c.claim.id: c.status for c in default.claims}
    return [Change(c.claim.id, before[c.claim.id], c.status, c.explanation)
            for c in trial.claims if c.claim.id in before and before[c.claim.id] != c.status]


def suggested(trials: Sequence[Trial]) -> tuple[str, ...]:
    """The combination the single trials suggest: every alternative that turned a claim to PASS."""
    return tuple(t.alternatives[0] for t in trials if len(t.alternatives) == 1 and t.gains)


def explore(default: SuiteRun, run: Callable[[Suite], SuiteRun], log: Callable[[str], None] = print) -> list[Trial]:
    """Explore the open claims of ``default`` (a run of the suite with its defaults): ``run``
    runs a suite (same scale, database and jobs as the default run) and returns its result."""
    targets = explorable(default)
    suite = default.suite
    trials: list[Trial] = []

    def trial(names: tuple[str, ...], claims: tuple[str, ...], combined: bool) -> Trial:
        log(f"[{suite.name}] explore: {' + '.join(names)} (for {', '.join(claims)})")
        result = run(with_alternatives(suite, [suite.alternative(n) for n in names]))
        t = Trial(names, claims, compare(default, result), result.counts(), result.wall_seconds, combined)
        log(f"[{suite.name}] explore: {t.name}: {len(t.gains)} gained, {len(t.costs)} lost")
        return t

    for name, claims in targets.items():
        trials.append(trial((name,), claims, False))
    combo = suggested(trials)
    if len(combo) >= 2:
        claims = tuple(dict.fromkeys(c for n in combo for c in targets[n]))
        trials.append(trial(combo, claims, True))
    if not targets:
        log(f"[{suite.name}] explore: no FAIL or UNSTABLE claim names an alternative; nothing to explore")
    return trials
