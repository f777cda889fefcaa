"""The QoS-AIMD suite's Fig. 5 helpers and checks on hand-made results (the suite runs in tests/test_reproduce.py)."""

import pandas as pd

from vidcc.papers import qos_aimd
from vidcc.papers.model import FAIL, PASS


def test_largest_rwnd_takes_the_largest_window_under_one_percent_and_flags_sweep_edges():
    m = pd.DataFrame({"p_e": [0.01] * 4 + [0.1] * 4, "rwnd": [20, 21, 22, 23] * 2,
                      "outage": [0.001, 0.004, 0.012, 0.03, 0.0, 0.001, 0.002, 0.009]})
    assert qos_aimd.largest_rwnd(m, 20, 23) == {0.01: (21, False), 0.1: (23, True)}
    assert qos_aimd.largest_rwnd(m.assign(outage=0.5), 20, 23)[0.01] == (19, True)


def _wmax(monkeypatch, light, heavy=None):
    def fake(d, part):
        sim = light if part == "aimd-light" else heavy
        return {pe: (w, False) for pe, w in sim.items()}, {}
    monkeypatch.setattr(qos_aimd, "fig5_wmax", fake)


def test_s1_s2_s3_against_the_analysis(monkeypatch):
    ana = {pe: qos_aimd.model.w_max(17, 10, pe, burst=2.0) for pe in (0.01, 0.05, 0.08, 0.1)}
    assert ana == {0.01: 23, 0.05: 19, 0.08: 18, 0.1: 17}
    _wmax(monkeypatch, {0.01: 22, 0.05: 19, 0.08: 18, 0.1: 18}, {0.01: 23, 0.05: 20, 0.08: 18, 0.1: 18})
    assert qos_aimd.s1(None).status == PASS
    assert qos_aimd.s2(None).status == PASS
    # S3 reads the optimal rwnd as the analysis (tests/test_qos_aimd_suite.py): the simulated sweep does not move it
    assert qos_aimd.s3(None).status == PASS
    # two windows off; heavy below light
    _wmax(monkeypatch, {0.01: 21, 0.05: 20, 0.08: 18, 0.1: 18}, {0.01: 22, 0.05: 19, 0.08: 18, 0.1: 17})
    assert qos_aimd.s1(None).status == FAIL
    assert qos_aimd.s2(None).status == FAIL
    assert qos_aimd.s3(None).status == PASS
