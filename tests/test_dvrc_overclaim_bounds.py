"""The bound behind DVRC's fairness over-claims (C11, C24), on hand-made results: the congestive loss
events it counts are computed from the run's events and losses, so a wrong count fails here."""

from __future__ import annotations

import pandas as pd
import pytest

from figure_testing import figure_data, run
from vidcc.papers import dvrc
from vidcc.papers.dvrc.loss_classes import congestion_judged_additive_bound

FIG = {f.id: f for f in dvrc.SUITE.figures}


def _data(classes, errors, queue):
    """One DVRC run: loss-event classes (1 = multiplicative) and the flow's lost packets by cause."""
    ev = pd.DataFrame([{"t_ns": 3_000_000_000 + i, "flow": 0, "side": "receiver", "kind": "loss_class", "value": c}
                       for i, c in enumerate(classes)])
    flows = [{"run_id": "r", "flow": 0, "receiver": 0, "label": "dvrc", "dropped_loss": errors,
              "dropped_queue": queue}]
    return figure_data(FIG["fig18-20"], [run("r", "dvrc", n=10)], flows, {("r", "events"): ev})


def test_congestive_events_are_the_events_less_the_error_losses():
    # 100 events, 10 multiplicative; 20 packets lost to link errors, 500 to queues: at least 80
    # events hold a queue drop, 70 of which got an additive decrease (0.875).
    measured = {}
    text = congestion_judged_additive_bound()(_data([1] * 10 + [0] * 90, 20, 500), measured)
    assert measured["congestive loss events, at least"] == 80
    assert measured["share of congestive loss events given an additive decrease, at least"] == pytest.approx(70 / 80)
    assert "at least 80 were congestive" in text and "judged 10 congestive" in text and "0.875" in text


def test_no_bound_when_errors_could_explain_the_events():
    # 100 events, 150 error losses: every event may be an error; the bound says it is not shown.
    measured = {}
    text = congestion_judged_additive_bound()(_data([1] * 10 + [0] * 90, 150, 500), measured)
    assert "does not show the bound" in text
    assert "share of congestive loss events given an additive decrease, at least" not in measured
