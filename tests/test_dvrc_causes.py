"""C19's cause is computed from TFRC's and Reno's own losses in S4 (synthetic results). Fails
before the fix: C19's cause was DVRC's loss classes ("AIAMD judged ... DVRC, too, pushes Reno
away"), which says nothing about why TFRC does not starve Reno."""

from __future__ import annotations

import numpy as np
import pytest

from test_reproduce import _synthetic
from vidcc.papers import load_suite
from vidcc.papers.verdicts import state_cause


def _c19_cause(tfrc_drop: float, reno_drop: float) -> tuple[str, dict]:
    suite = load_suite("dvrc")
    claim = next(c for c in suite.claims if c.id == "C19")
    fig = next(f for f in suite.figures if f.id == claim.figure)
    d = _synthetic(fig, np.random.default_rng(3))
    flows = d._tables["run_flows"]
    flows.loc[flows["label"] == "tfrc", "drop_rate"] = tfrc_drop
    flows.loc[flows["label"] == "reno", "drop_rate"] = reno_drop
    measured = dict(claim.check(d).measured)
    return state_cause(claim.cause, d, measured), measured


@pytest.mark.parametrize(("tfrc", "reno", "how"), [(0.15, 0.05, "more often"), (0.02, 0.05, "less often")])
def test_c19_cause_compares_tfrc_and_reno_losses(tfrc, reno, how):
    text, measured = _c19_cause(tfrc, reno)
    assert f"dropped {how} than the Reno flows'" in text
    assert f"TFRC {tfrc:.3f} vs Reno {reno:.3f} in tfrc-40" in text
    assert measured["network drop ratio (TFRC, tfrc-20)"] == pytest.approx(tfrc)
    assert measured["network drop ratio (Reno, tfrc-40)"] == pytest.approx(reno)
