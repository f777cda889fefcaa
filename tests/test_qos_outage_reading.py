"""The QoS-AIMD suite reads the paper's "delay outage below ≈ 1 %" one way in every claim that says
it (S11-S14 and S18): at most OUTAGE_ABOUT_1PC. S18's check alone read it as ≤ 1 % exactly until
2026-11-27, which failed its full-scale run at 1.22 % where S11-S14 would have passed."""

from __future__ import annotations

import pandas as pd
import pytest

from vidcc.papers.qos_aimd import sharing, udp


def _fig9(outage: float, loss: float = 0.0) -> pd.DataFrame:
    return pd.DataFrame([{"part": "aimd", "outage": outage, "loss": loss, "throughput": 0.89, "goodput": 0.88}])


@pytest.mark.parametrize(("outage", "status"), [(0.0122, "PASS"), (0.0149, "PASS"), (0.0151, "FAIL")])
def test_s18_reads_about_one_percent_as_the_sharing_claims_do(monkeypatch, outage, status):
    monkeypatch.setattr(udp.stats, "fig9_stats", lambda d: _fig9(outage))
    v = udp.aimd_outage_and_loss_bounded(None)
    assert v.status == status
    assert (outage <= sharing.OUTAGE_ABOUT_1PC) == (status == "PASS")


def test_s18_still_fails_on_loss(monkeypatch):
    monkeypatch.setattr(udp.stats, "fig9_stats", lambda d: _fig9(0.005, loss=0.002))
    assert udp.aimd_outage_and_loss_bounded(None).status == "FAIL"
