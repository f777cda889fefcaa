"""The QoS-AIMD suite's Fig. 5 helpers and checks on hand-made results (the suite runs in tests/test_reproduce.py)."""

import pandas as pd

from vidcc.papers.model import FAIL, PASS
from vidcc.papers.qos_aimd import model, rwnd


def test_largest_rwnd_takes_the_largest_window_under_one_percent_and_flags_sweep_edges():
    m = pd.DataFrame({"p_e": [0.01] * 4 + [0.1] * 4, "rwnd": [20, 21, 22, 23] * 2,
                      "outage": [0.001, 0.004, 0.012, 0.03, 0.0, 0.001, 0.002, 0.009]})
    assert rwnd.largest_rwnd(m, 20, 23) == {0.01: (21, False), 0.1: (23, True)}
    assert rwnd.largest_rwnd(m.assign(outage=0.5), 20, 23)[0.01] == (19, True)


def _wmax(monkeypatch, light, heavy=None):
    def fake(d, part):
        sim = light if part == "aimd-light" else heavy
        return {pe: (w, False) for pe, w in sim.items()}, {}
    monkeypatch.setattr(rwnd, "fig5_wmax", fake)


def test_fig5_checks_against_the_analysis(monkeypatch):
    ana = {pe: model.w_max(17, 10, pe, burst=2.0) for pe in (0.01, 0.05, 0.08, 0.1)}
    assert ana == {0.01: 23, 0.05: 19, 0.08: 18, 0.1: 17}
    _wmax(monkeypatch, {0.01: 22, 0.05: 19, 0.08: 18, 0.1: 18}, {0.01: 23, 0.05: 20, 0.08: 18, 0.1: 18})
    assert rwnd.light_traffic_matches_analysis(None).status == PASS
    assert rwnd.heavy_traffic_analysis_conservative(None).status == PASS
    # S3 reads the optimal rwnd as the analysis (tests/test_qos_aimd_suite.py): the simulated sweep does not move it
    assert rwnd.optimal_rwnd_changes_slowly(None).status == PASS
    # two windows off; heavy below light
    _wmax(monkeypatch, {0.01: 21, 0.05: 20, 0.08: 18, 0.1: 18}, {0.01: 22, 0.05: 19, 0.08: 18, 0.1: 17})
    assert rwnd.light_traffic_matches_analysis(None).status == FAIL
    assert rwnd.heavy_traffic_analysis_conservative(None).status == FAIL
    assert rwnd.optimal_rwnd_changes_slowly(None).status == PASS
