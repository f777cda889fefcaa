"""Verdicts with their stability: a claim's check is applied to each seed's runs alone and the
claim is PASS or FAIL only when the seeds agree (≥ 80 % / ≤ 20 % of them, and the pooled
check agrees), else UNSTABLE. Synthetic per-seed values go through the real verdict code
(``check_claim`` with a ``FigureData``) and the real report."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from vidcc import report
from vidcc.papers.measures import FigureData
from vidcc.papers.model import (
    FAIL,
    NOT_YET,
    PASS,
    UNSTABLE,
    Claim,
    Figure,
    FigureRun,
    Part,
    PartRun,
    Suite,
    SuiteRun,
)
from vidcc.papers.verdicts import bound, check_claim, ordering

FIG = Figure("f", "synthetic", "Fig. 0", "synthetic per-seed values", parts=[Part("p", {}, seeds=list(range(1, 11)))])


def figure_run(values: dict[int, float], other: dict[int, float] | None = None) -> FigureRun:
    """One flow per seed labelled ``a`` with ``x`` = values[seed] (and one labelled ``b`` with
    other[seed]), three cells n=1,2,3 each holding the same value."""
    rows = []
    for seed, x in values.items():
        for n in (1, 2, 3):
            row = {"run_id": f"r{seed}-{n}", "part": "p", "seed": seed, "n": n}
            rows.append({**row, "label": "a", "x": x})
            if other is not None:
                rows.append({**row, "label": "b", "x": other[seed]})
    flows = pd.DataFrame(rows)
    runs = flows.drop_duplicates("run_id")[["run_id", "part", "seed", "n"]]
    data = FigureData(FIG, {"runs": runs, "run_flows": flows, "run_aggregate": pd.DataFrame()}, ran=["p"])
    return FigureRun(FIG, [PartRun(FIG.parts[0], "ran")], data=data)


def x_positive(d: FigureData):
    return bound(d.summary("x", by="n", where={"label": "a"}), ">", 0, name="x")


POSITIVE = Claim("X1", "x is positive", "f", (), x_positive)


def seeds_holding(k: int, n: int = 10) -> dict[int, float]:
    """x > 0 in the first k of n seeds; the others are far enough below that the mean over all
    seeds is positive only when k > n/2."""
    return {s: 1.0 if s <= k else -1.0 for s in range(1, n + 1)}


@pytest.mark.parametrize(("held", "status"), [(10, PASS), (9, PASS), (8, PASS), (7, UNSTABLE), (5, UNSTABLE),
                                              (3, UNSTABLE), (2, FAIL), (1, FAIL), (0, FAIL)])
def test_share_of_seeds_decides(held, status):
    r = check_claim(POSITIVE, figure_run(seeds_holding(held)))
    assert r.status == status, (r.status, r.stability_text)
    st = r.stability
    assert (st.held, st.decided) == (held, 10) and st.share == held / 10
    assert [s for s, v in st.per_seed.items() if v == PASS] == list(range(1, held + 1))
    assert f"holds in {held} of 10 seeds" in r.stability_text


def test_pooled_and_per_seed_must_agree():
    # 8 of 10 seeds hold, but the two that do not drag the pooled mean below zero.
    values = {s: 0.1 if s <= 8 else -5.0 for s in range(1, 11)}
    r = check_claim(POSITIVE, figure_run(values))
    assert r.stability.held == 8 and r.stability.pooled == FAIL and r.status == UNSTABLE
    # 2 of 10 hold (FAIL share), but pooled they pass: not decisive either.
    values = {s: 5.0 if s <= 2 else -0.1 for s in range(1, 11)}
    r = check_claim(POSITIVE, figure_run(values))
    assert r.stability.held == 2 and r.stability.pooled == PASS and r.status == UNSTABLE


def test_two_group_claim_per_seed_and_the_issue_example():
    """A C3-like claim (one protocol's value above another's): holds in 6 of 20 seeds → UNSTABLE,
    even where the two-seed pooled check passes."""
    tfrc = {s: 0.40 if s <= 6 else 0.25 for s in range(1, 21)}
    dvrc = {s: 0.30 for s in range(1, 21)}
    c3 = Claim("C3", "tfrc varies more", "f", (), lambda d: ordering(d.summary("x"), "a", "b", name="CoV"))
    r = check_claim(c3, figure_run(tfrc, dvrc))
    assert r.status == UNSTABLE and (r.stability.held, r.stability.decided) == (6, 20)
    two = check_claim(c3, figure_run({1: 0.40, 2: 0.40}, {1: 0.30, 2: 0.30}))
    assert two.status == PASS and "few seeds: 2 < 10" in two.stability_text


def test_claims_that_cannot_be_checked_per_seed_keep_the_pooled_status():
    one_seed = check_claim(POSITIVE, figure_run({1: 1.0}))
    assert one_seed.status == PASS and "1 seed" in one_seed.stability_text and one_seed.stability.share is None
    # A check that needs several seeds (here: raises on one) cannot say per seed.
    needs_two = Claim("X2", "two seeds", "f", (), lambda d: x_positive(d) if len(d.seeds()) > 1 else 1 / 0)
    r = check_claim(needs_two, figure_run(seeds_holding(10)))
    assert r.status == PASS and "cannot be applied" in r.stability_text
    assert all(v.startswith("n/a (ZeroDivisionError") for v in r.stability.per_seed.values())
    opted_out = Claim("X3", "pooled only", "f", (), POSITIVE.check, not_per_seed="needs all seeds' variance")
    r = check_claim(opted_out, figure_run(seeds_holding(6)))  # UNSTABLE if checked per seed
    assert r.status == PASS and "needs all seeds' variance" in r.stability_text
    absent = Claim("X4", "a missing protocol", "f", ("no-such-protocol",), POSITIVE.check)
    r = check_claim(absent, figure_run(seeds_holding(10)))
    assert r.status == NOT_YET and r.stability is None


def test_report_counts_and_shows_unstable(tmp_path):
    claims = [check_claim(POSITIVE, figure_run(seeds_holding(k))) for k in (1, 5, 10)]
    claims = [type(c)(Claim(f"X{k}", c.claim.text, "f", (), c.claim.check), c.status, c.measured, c.finding,
                      stability=c.stability) for k, c in zip((1, 5, 10), claims)]
    suite = Suite("syn", "Synthetic", "nobody", "none.md", [FIG], [c.claim for c in claims])
    run = SuiteRun(suite, "full", [FigureRun(FIG, [PartRun(FIG.parts[0], "ran")])], claims)
    assert run.counts() == {PASS: 1, FAIL: 1, UNSTABLE: 1, NOT_YET: 0}
    page, path = report.write_suite(run, tmp_path)
    doc = json.loads(path.read_text())
    assert doc["summary"] == {PASS: 1, FAIL: 1, UNSTABLE: 1, NOT_YET: 0}
    by_id = {c["id"]: c for c in doc["claims"]}
    assert by_id["X5"]["status"] == UNSTABLE and by_id["X5"]["stability"]["seeds_held"] == 5
    assert by_id["X5"]["stability"]["per_seed"]["6"] == FAIL and by_id["X1"]["stability"]["share"] == 0.1
    html = page.read_text()
    assert '<span class="badge UNSTABLE">UNSTABLE</span>1' in html and "holds in 5 of 10 seeds" in html
