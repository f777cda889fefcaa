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


def _video_data(vdi: float, delayed: float) -> "FigureData":
    import pandas as pd

    from vidcc.papers.measures import FigureData

    runs = [f"r{s}" for s in (1, 2)]
    flows = pd.DataFrame({"run_id": runs, "part": "dvrc", "seed": [1, 2], "label": "dvrc", "flow": 0, "receiver": 0,
                          "n": 10})
    summary = pd.DataFrame({"flow": [0], "receiver": [0], "vdi": [vdi], "delayed_packet_rate": [delayed],
                            "packet_drop_rate": [1 - vdi - delayed]})
    return FigureData(None, {"run_flows": flows}, {"dvrc"}, lambda _run, _table: summary)


@pytest.mark.parametrize(("s6", "s3", "more"), [((0.92, 0.01), (0.90, 0.002), "drops"),
                                                 ((0.92, 0.01), (0.90, 0.028), "delays")])
def test_c22_cause_splits_the_s6_and_s3_vdi_when_s6_is_not_below(s6, s3, more):
    # Before the fix C22's cause was DVRC's loss classes ("so DVRC loses more of its video than the
    # other protocols"), while the part that failed was S6 against S3 and DVRC had the best VDI.
    claim = next(c for c in load_suite("dvrc").claims if c.id == "C22")
    d6 = _video_data(*s6)
    d6.attach_others({"fig12-14": _video_data(*s3)})
    measured: dict = dict(claim.check(d6).measured)  # the cause reads the check's two VDIs
    text = state_cause(claim.cause, d6, measured)
    assert f"DVRC's VDI is {s6[0]:.3f} in S6 against {s3[0]:.3f} in S3" in text
    assert f"S3 {more} more of its packets" in text
    assert measured["DVRC packet drop rate in S3"] == pytest.approx(1 - s3[0] - s3[1])
    # S6 below S3: that part holds, and the cause is about the other protocols.
    d3 = _video_data(*s3)
    d3.attach_others({"fig12-14": _video_data(*s6)})
    assert "in S6 against" not in state_cause(claim.cause, d3, dict(claim.check(d3).measured))


@pytest.mark.parametrize(("pacing", "how"), [(False, "back to back"), (True, "paced over the frame interval")])
def test_c3_cause_says_how_the_runs_sent_dvrc_frames(pacing, how):
    # Before the fix the cause said "back to back" also for the runs made under the reading pacing.
    import json

    import pandas as pd

    from vidcc.papers.dvrc.smoothness import smoother_than_tfrc_cause
    from vidcc.papers.measures import FigureData

    resolved = json.dumps({"flows": [{"protocol": {"kind": "dvrc", "pacing": pacing}},
                                     {"protocol": {"kind": "tcp-reno"}}]})
    runs = pd.DataFrame({"run_id": ["a", "b"], "part": ["dvrc", "tfrc"], "seed": 1, "resolved_json": resolved})
    flows = pd.DataFrame({"run_id": ["a", "b"], "part": ["dvrc", "tfrc"], "seed": 1, "label": ["dvrc", "tfrc"],
                          "drop_rate": [0.11, 0.04]})
    d = FigureData(None, {"runs": runs, "run_flows": flows}, {"dvrc", "tfrc"})
    m: dict = {}
    text = smoother_than_tfrc_cause(d, m)
    assert f"its packets {how}" in text and "loses 0.110" in text and "(drop ratio 0.040)" in text
