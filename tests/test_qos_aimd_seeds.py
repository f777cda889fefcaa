"""How the QoS-AIMD suite judges its simulated claims: on the mean over seeds, as the paper reports
them (§V), not seed by seed; and how the delay outage counts a packet's jitter (as measured, or in
whole slots under the reading ``outage-whole-slots``)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from test_reproduce import _synthetic
from vidcc.papers import load_suite
from vidcc.papers.explore import with_alternatives
from vidcc.papers.model import FAIL, PASS, FigureRun
from vidcc.papers.qos_aimd import stats
from vidcc.papers.verdicts import check_claim


@pytest.fixture(scope="module")
def suite():
    return load_suite("qos-aimd")


def _fig7(suite, figure=None):
    figure = figure or suite.figure("fig7")
    return _synthetic(figure, np.random.default_rng(7))


def _cell(outage: float) -> pd.DataFrame:
    return pd.DataFrame([{"rtts": "17-17", "p_e": 0.02, "total": 0.98, "min_flow": 0.49, "max_flow": 0.49,
                          "ratio": 1.0, "outage": outage, "outage_whole": outage, "n": 2}])


@pytest.mark.parametrize("seed_one, mean, expected", [(0.02, 0.012, PASS), (0.02, 0.02, FAIL)])
def test_a_paper_claim_is_judged_on_the_mean_over_seeds(suite, monkeypatch, seed_one, mean, expected):
    """S11 on a result whose mean over seeds holds (or not) while seed 1 alone fails: the verdict is
    the mean's. Before the claims carried `not_per_seed` the first case was UNSTABLE (1 of 2 seeds)."""
    d = _fig7(suite)
    assert len(d.seeds()) == 2
    monkeypatch.setattr(stats, "multi_stats",
                        lambda data, parts: _cell(seed_one if list(data.seeds()) == [d.seeds()[0]] else mean))
    claim = next(c for c in suite.claims if c.id == "S11")
    result = check_claim(claim, FigureRun(suite.figure("fig7"), [], data=d), "quick")
    assert result.status == expected
    assert result.stability.decided == 0 and "not checked per seed" in result.stability.note


def test_every_simulated_claim_of_the_paper_is_on_the_mean_and_the_baseline_per_seed(suite):
    on_mean = {c.id for c in suite.claims if c.figure is not None and c.not_per_seed}
    assert on_mean == {c.id for c in suite.claims if c.figure is not None and c.kind == "paper"}
    assert all("different initial randomization seeds" in c.not_per_seed for c in suite.claims if c.id in on_mean)
    assert not next(c for c in suite.claims if c.id == "B1").not_per_seed


def test_late_counts_jitter_as_measured_or_in_whole_slots():
    jitter = pd.Series([49.9e6, 50e6, 50.5e6, 54.9e6, 55e6, 61e6])
    assert list(stats.late(jitter)) == [False, False, True, True, True, True]
    assert list(stats.late(jitter, whole=True)) == [False, False, False, False, True, True]


class _Packets:
    """A figure's results with one run whose packets have the given delays (ns)."""

    def __init__(self, figure, delays):
        self.figure = figure
        n = len(delays)
        sent = np.arange(n) * 10**9 + 6 * 10**9
        self.table = pd.DataFrame({"flow": 0, "seq": range(n), "size_bytes": 125, "sent_ns": sent,
                                   "arrival_ns": sent + np.asarray(delays), "fate": "delivered"})

    def series(self, run_id, table):
        assert table == "packets"
        return self.table


def test_the_whole_slot_reading_changes_the_outage_of_the_runs_it_scores(suite):
    """The same packets: 3 of 5 late as measured (jitters of 50.5, 52 and 56 ms past the 43 ms
    minimum), 1 under the reading (only the 56 ms jitter reaches 11 whole slots)."""
    delays = [43e6, 60e6, 93.5e6, 95e6, 99e6]
    default = _Packets(suite.figure("fig7"), delays)
    reading = with_alternatives(suite, [suite.alternative("outage-whole-slots")])
    whole = _Packets(reading.figure("fig7"), delays)
    assert not stats.whole_slots(default) and stats.whole_slots(whole)
    assert stats.run_outage(default, "r", 0, {0})[0] == pytest.approx(3 / 5)
    assert stats.run_outage(whole, "r", 0, {0})[0] == pytest.approx(1 / 5)
    assert stats.run_outage(default, "r", 0, {0}, whole=True)[0] == pytest.approx(1 / 5)
