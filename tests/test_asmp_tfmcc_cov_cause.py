"""C19's and C31's cause reads the CoV the check compares (``flow_summary.cov``: the 1 s samples
from one interval after the later of the receiver's start and the warm-up), not the start-up."""

from __future__ import annotations

import json

import pandas as pd

from vidcc.papers.asmp_tfmcc.dynamics import cov_cause
from vidcc.papers.measures import FigureData

S = 1_000_000_000


def _figure(samples: dict[str, list[float]], warmup_s: int) -> FigureData:
    runs = pd.DataFrame({"run_id": list(samples), "seed": [1] * len(samples), "part": list(samples),
                         "resolved_json": [json.dumps({"warmup_ns": warmup_s * S})] * len(samples)})
    flows = pd.DataFrame({"run_id": list(samples), "seed": [1] * len(samples), "part": list(samples),
                          "label": list(samples), "flow": [0] * len(samples), "receiver": [0] * len(samples),
                          "start_ns": [0] * len(samples)})
    series = {rid: pd.DataFrame({"t_ns": [(i + 1) * S for i in range(len(ys))], "flow": 0, "receiver": 0,
                                 "throughput_bps": ys}) for rid, ys in samples.items()}
    return FigureData(None, {"runs": runs, "run_flows": flows}, set(samples), lambda rid, _t: series[rid])


def test_the_cause_leaves_out_the_start_up_the_check_leaves_out():
    # TFMCC: a slow-start burst in the first 5 s, then a steady rate with a small wobble; ASMP:
    # steady from the start but with a larger wobble. After the 6 s warm-up (what the check's CoV
    # counts) ASMP's CoV is the larger; counted from the start, TFMCC's burst makes it the larger.
    tfmcc = [3e6, 0.2e6, 3e6, 0.2e6, 3e6] + [1e6, 1.05e6] * 20
    asmp = [0.3e6, 0.4e6] * 22 + [0.3e6]
    text = cov_cause(_figure({"asmp": asmp, "tfmcc": tfmcc}, warmup_s=6), measured := {})
    assert text != "ASMP's CoV is below TFMCC's in every cell", text
    assert measured["CoV of the 1 s bins[asmp]"] > measured["CoV of the 1 s bins[tfmcc]"]
