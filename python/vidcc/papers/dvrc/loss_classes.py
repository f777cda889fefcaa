"""AIAMD's loss classification (C1, C25; docs/papers/dvrc.md §1.1.5–1.1.6): the share of DVRC's loss
events it judged congestive (multiplicative decrease), the bound its own rule puts on that share,
and the causes of other claims that follow from it (``additive_share_cause``)."""

from __future__ import annotations

import math

from vidcc.papers.categories import OverClaim
from vidcc.papers.measures import warmup_ns
from vidcc.papers.model import FAIL, PASS, Verdict
from vidcc.papers.verdicts import all_of, bound, ordering

N_CLASSIFIER = 1.5  # DVRC's n (docs/papers/dvrc.md §1.1.5 [P])


def md_share(d, part, label="dvrc"):
    """Per run: DVRC's loss-event classes after the warm-up (events ``loss_class``: 1 =
    multiplicative, 0 = additive; DTO expiries, always multiplicative (docs/papers/dvrc.md §1.1.6),
    are the ``timeout`` events and are counted apart, they are not the classifier's decision)."""
    import pandas as pd

    flows = d.flows(part, {"label": label})
    rows = []
    for r in d.runs(part).to_dict("records"):
        ids = set(flows[flows["run_id"] == r["run_id"]]["flow"])
        ev = d.series(r["run_id"], "events")
        if ev.empty:  # a run without events: no loss event at all
            ev = pd.DataFrame({"t_ns": [], "flow": [], "side": [], "kind": [], "value": []})
        ev = ev[ev["flow"].isin(ids) & (ev["side"] == "receiver") & (ev["t_ns"] >= warmup_ns(r))]
        cls = ev[ev["kind"] == "loss_class"]["value"]
        md, ad, to = int((cls == 1).sum()), int((cls == 0).sum()), int((ev["kind"] == "timeout").sum())
        rows.append({**{k: r[k] for k in ("run_id", "part", "seed", "n") if k in r},
                     "md": md, "ad": ad, "timeouts": to, "md_share": md / (md + ad) if md + ad else float("nan")})
    return pd.DataFrame(rows)


def random_loss_mostly_additive(d):
    """C1 (§3.2, Fig. 3): under 3 % random loss most loss events are "accurately interpreted as
    error-induced" (additive decrease); congestion events are "infrequent": MD share < 0.5."""
    from vidcc.analysis import summarize

    m = md_share(d, "dvrc")
    if m.empty:
        return Verdict(FAIL, {}, "no DVRC runs")
    v = bound(summarize(m, "md_share", group=None), "<", 0.5, name="MD share of DVRC's loss events")
    v.measured.update({"additive decreases (all runs)": int(m["ad"].sum()),
                       "multiplicative decreases (all runs)": int(m["md"].sum()),
                       "DTO expiries (all runs, not classified)": int(m["timeouts"].sum())})
    return v


def mostly_multiplicative_without_errors(d):
    """C25 (§5.5): with "typically congestion-oriented" losses (S6, no link errors) AIAMD "responds
    with multiplicative backward adjustments": the pooled S6 MD share above one half ("mostly"),
    and at each N above the share with S2's Gilbert errors."""
    import pandas as pd

    from vidcc.analysis import summarize

    s6 = md_share(d, "dvrc").assign(scenario="S6 (no link errors)")
    s2 = md_share(d.other("fig8-10"), "dvrc").assign(scenario="S2 (Gilbert errors)")
    m = pd.concat([s6, s2], ignore_index=True)
    if s6.empty or s2.empty:
        return Verdict(FAIL, {}, "no DVRC runs in S6 or S2")
    s = summarize(m, "md_share", by="n", group="scenario")
    s = s.dropna(subset=["mean"])  # an N at which a scenario's DVRC flows had no classified loss event says nothing
    v = ordering(s, "S6 (no link errors)", "S2 (Gilbert errors)", group="scenario", by="n", name="MD share")
    pooled = float(s6["md"].sum() / max(1, s6["md"].sum() + s6["ad"].sum()))
    mostly = Verdict(PASS if pooled > 0.5 else FAIL, {},
                     f"pooled MD share in S6 {pooled:.3f}, {'above' if pooled > 0.5 else 'not above'} 0.5 ('mostly')")
    v = all_of(mostly, v)
    for sc, g in m.groupby("scenario"):
        v.measured[f"MD share pooled over runs ({sc})"] = g["md"].sum() / max(1, g["md"].sum() + g["ad"].sum())
        v.measured[f"largest MD share of a run ({sc})"] = float(g["md_share"].max())
    return v


def _shares(measured) -> dict:
    return {k: v for k, v in measured.items() if k.startswith("MD share pooled") or k.startswith("largest MD share")}


def md_share_bound_cause(d, measured) -> str:
    """Why C25 fails: the classifier's bound, with the shares measured in these runs."""
    cells = "; ".join(f"{k} {v:.3f}" for k, v in _shares(measured).items())
    # For a normal law D̄ = σ·√(2/π): P(𝓜 < R̄ − n·D̄) = Φ(−n·√(2/π)).
    normal = 0.5 * (1 + math.erf(-N_CLASSIFIER * math.sqrt(2 / math.pi) / math.sqrt(2)))
    measured.update({"classifier n": N_CLASSIFIER, "bound 1/(2n) on the MD share": 1 / (2 * N_CLASSIFIER),
                     "MD share for a normal receiving rate": normal,
                     "D̄/σ for a normal law": math.sqrt(2 / math.pi)})
    return (f"a claim the mechanism cannot meet (docs/protocols/dvrc.md): a loss is multiplicative iff the receiving "
            f"rate 𝓜 < R̄ − n·D̄, with R̄ and D̄ the running mean and mean absolute deviation of that same rate, so "
            f"whatever causes the losses P(𝓜 < R̄ − n·D̄) ≤ 1/(2n) = {1 / (2 * N_CLASSIFIER):.2f} at "
            f"n = {N_CLASSIFIER:g} (Markov's inequality on (R̄ − 𝓜)⁺, whose mean is D̄/2 for any law of 𝓜 with mean "
            f"R̄ and mean absolute deviation D̄; {normal:.2f} for a normal law, whose D̄ = "
            f"{math.sqrt(2 / math.pi):.3f}·σ; the filters only estimate R̄ and D̄): never 'mostly'. Measured: {cells}; "
            f"the S6 vs S2 ordering compares two shares near that typical value")


def md_share_bound(d, measured) -> str:
    """C25's over-claim evidence: the share of loss events AIAMD can judge congestive, bounded by
    its own rule, beside the shares these runs measured."""
    limit = 1 / (2 * N_CLASSIFIER)
    shares = _shares(measured)
    measured["bound 1/(2n) on the MD share"] = limit
    worst = max(shares.values()) if shares else float("nan")
    return (f"at n = {N_CLASSIFIER:g} the MD share is at most 1/(2n) = {limit:.2f} whatever the loss process; "
            f"the largest measured here is {worst:.3f}")


MD_SHARE_OVER_CLAIM = OverClaim(
    "AIAMD decreases multiplicatively iff the receiving rate 𝓜 < R̄ − n·D̄ (§3.2), R̄ and D̄ the running mean "
    "and mean absolute deviation of that same rate; (R̄ − 𝓜)⁺ has mean D̄/2, so by Markov's inequality at most "
    "1/(2n) of the loss events can be judged congestive, whatever causes them: never 'mostly'",
    bound=md_share_bound,
)


def classes(d, parts) -> tuple[int, int]:
    """(multiplicative, additive) loss events of the DVRC flows of ``parts`` after the warm-up."""
    m = md_share(d, parts if isinstance(parts, str) else list(parts))
    return (int(m["md"].sum()), int(m["ad"].sum())) if not m.empty else (0, 0)


def additive_share_cause(parts="dvrc", *, then: str = "DVRC keeps loading the bottleneck like an AIAD control",
                         lead: str = ""):
    """A cause from DVRC's own loss classes in these runs: the share of its loss events AIAMD judged
    random (additive decrease) and what follows from it (``then``)."""
    def cause(d, m):
        md, ad = classes(d, parts)
        m["DVRC loss events after the warm-up (all runs)"] = md + ad
        m["of which additive decreases (judged random)"] = ad
        if md + ad == 0:
            return f"{lead}no classified loss event of the DVRC flows in these runs: the cause is not measured"
        m["MD share of DVRC's loss events"] = md / (md + ad)
        return (f"{lead}AIAMD judged {ad} of DVRC's {md + ad} loss events random (MD share {md / (md + ad):.3f}) and "
                f"decreased additively, so {then}")
    return cause


def congestion_judged_additive_bound(parts="dvrc", *, label: str = "dvrc"):
    """An over-claim's bound from the run (C11, C24): how many of DVRC's loss events were
    congestive, against how many AIAMD judged congestive.

    A loss event needs at least one lost packet, and a packet lost to a link error belongs to at
    most one event, so at least (classified events − packets the flows lost to link errors) events
    hold a queue drop: congestion. (The errors are counted over the whole run, the events after the
    warm-up: the lower bound is conservative.) AIAMD judged ``md`` events congestive, at most
    1/(2n) of all by its rule (C25); the rest of the congestion events got an additive decrease,
    which the paper itself says "does not enforce fast convergence to the fairness point" (§5.5)."""
    def bound_fn(d, measured) -> str:
        md, ad = classes(d, parts)
        events = md + ad
        f = d.flows(parts if isinstance(parts, str) else list(parts), {"label": label})
        if f.empty or not {"dropped_loss", "dropped_queue"} <= set(f.columns):
            measured.update({"DVRC loss events classified after the warm-up": events,
                             "of which judged congestive (multiplicative decrease)": md})
            return (f"the run records no losses by cause (dropped_loss, dropped_queue), so the congestive events are "
                    f"not counted; AIAMD judged {md} of {events} classified loss events congestive")
        errors = int(f["dropped_loss"].sum())
        queue = int(f["dropped_queue"].sum())
        congestive = events - errors
        measured.update({"DVRC loss events classified after the warm-up": events,
                         "of which judged congestive (multiplicative decrease)": md,
                         "DVRC packets lost to link errors (whole run)": errors,
                         "DVRC packets dropped by queues (whole run)": queue,
                         "congestive loss events, at least": max(congestive, 0),
                         "bound 1/(2n) on the MD share": 1 / (2 * N_CLASSIFIER)})
        if events == 0 or congestive <= md:
            return (f"the run does not show the bound: {events} classified loss events, {errors} packets lost to "
                    f"link errors, {md} events judged congestive")
        share = (congestive - md) / congestive
        measured["share of congestive loss events given an additive decrease, at least"] = share
        return (f"of DVRC's {events} classified loss events at least {congestive} were congestive (its flows lost "
                f"{queue} packets to queue drops and only {errors} to link errors, and an event needs a lost packet), "
                f"yet AIAMD judged {md} congestive (its rule allows at most 1/(2n) = {1 / (2 * N_CLASSIFIER):.2f} of "
                f"all events): at least {share:.3f} of the congestion events got an additive decrease")
    return bound_fn
