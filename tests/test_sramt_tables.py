"""C35 of the SRAMT suite (vidcc.papers.sramt.tables) on hand-made runs of the common
bottleneck: it passes when every checkable row of Tables 1–2 orders the schemes as the
measurements do and fails, naming the row and the pair, when one row contradicts them."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from vidcc.papers import load_suite
from vidcc.papers.measures import FigureData
from vidcc.papers.sramt import tables

N = 100  # seconds per hand-made run; warm-up 10 s
LAYERED = ("sramt-le", "plm", "rlc", "mlda")
SIMULCAST = ("sramt-s", "dsg", "irfm")
_made = iter(range(10**6))  # run ids are unique, as in a results database (trace caches runs by id)

# Shaped as Tables 1–2 rate the schemes: (|F − 1|, CoV, seconds until the rate settles) per scheme.
AS_RATED = {
    "sramt-le": (0.02, 0.30, 20.0),
    "plm": (0.10, 0.05, 0.0),
    "rlc": (0.30, 0.08, 20.0),
    "mlda": (0.10, 0.40, 40.0),
    "sramt-s": (0.05, 0.30, 20.0),
    "dsg": (0.90, 0.05, 20.0),
    "irfm": (0.30, 0.30, 40.0),
}


def _data(shape: dict[str, tuple[float, float, float]]) -> FigureData:
    """One run per part: the scheme gets (1 + |F − 1|)·500 kbit/s against TCP's 500 kbit/s, its
    received rate (layered) or its streams' announced rates (simulcast) alternate ± CoV around
    their mean, and its received rate settles after the given time (a multiple of 10 s): until
    then its 10 s windows lie 30 % above and below it in turn (schemes.settling_s); its receiver
    moves at 5 s and at 90 s, a change no rate follows."""
    fig = load_suite("sramt").figure("fig15-19")
    runs, flows, series = [], [], {}
    batch = next(_made)
    for part, (dev, cov, settle) in shape.items():
        run_id = f"run-{batch}-{part}"
        proto = {"kind": part, "initial_rates_bps": [1e5, 3e5, 6e5]}
        resolved = {
            "duration_ns": N * 10**9,
            "warmup_ns": 10 * 10**9,
            "flows": [{"label": part, "protocol": proto}, {"label": "tcp", "protocol": {"kind": "tcp-tahoe"}}],
        }
        runs.append({"part": part, "run_id": run_id, "seed": 1, "resolved_json": json.dumps(resolved)})
        mean = 500e3 * (1 + dev)
        for f, label, dst, bps in ((0, part, "D", mean), (1, "tcp", "TD", 500e3)):
            flows.append(
                {
                    "part": part,
                    "run_id": run_id,
                    "seed": 1,
                    "flow": f,
                    "receiver": 0,
                    "label": label,
                    "dst": dst,
                    "start_ns": 0,
                    "throughput_bps": bps,
                }
            )
        t = np.arange(1, N + 1) * 10**9
        wave = np.resize(np.array([mean * (1 + cov), mean * (1 - cov)]), N)
        window = np.arange(N) // 10
        received = np.where(window < settle // 10, wave * np.where(window % 2, 0.7, 1.3), wave)
        series[(run_id, "flow_samples")] = pd.DataFrame(
            {
                "t_ns": np.concatenate([t, t]),
                "flow": [0] * N + [1] * N,
                "receiver": 0,
                "throughput_bps": np.concatenate([received, np.full(N, 500e3)]),
                "delay_ns": 3e7,
            }
        )
        moves = pd.DataFrame(
            {
                "t_ns": [5 * 10**9, 90 * 10**9],
                "flow": 0,
                "side": "receiver",
                "receiver": 0,
                "kind": "layers",
                "value": [2.0, 1.0],
                "group": -1,
            }
        )
        rates = pd.DataFrame(
            {
                "t_ns": np.concatenate([t, t]),
                "flow": 0,
                "side": "sender",
                "receiver": -1,
                "kind": "group_rate",
                "value": np.concatenate([wave, wave]),
                "group": [0] * N + [1] * N,
            }
        )
        series[(run_id, "events")] = pd.concat([moves, rates], ignore_index=True)
    return FigureData(
        fig,
        {"runs": pd.DataFrame(runs), "run_flows": pd.DataFrame(flows), "run_aggregate": pd.DataFrame()},
        ran=list(shape),
        series=lambda run_id, table: series.get((run_id, table), pd.DataFrame()),
    )


def _c35():
    return next(c for c in load_suite("sramt").claims if c.id == "C35")


def test_c35_is_checked_on_the_common_bottleneck():
    c = _c35()
    assert c.check is not None and c.figure == "fig15-19"


def test_c35_passes_when_every_checkable_row_agrees():
    v = _c35().check(_data(AS_RATED))
    assert v.status == "PASS", v
    assert v.measured["rows agreeing / checked"] == "6 / 6"
    assert v.measured["Table 1 TCP friendliness agrees"] == "yes (5 pairs)"  # PLM = MLDA (both Good): not compared
    assert v.measured["Table 2 TCP friendliness agrees"] == "yes (1 pairs)"  # DSG "–": not compared
    assert "Limitations" in v.explanation and "Stable operation" in v.explanation


def test_c35_fails_naming_the_row_and_pair_that_disagree():
    # RLC (Modest) friendlier than SRAMT-LE (Very good): Table 1's friendliness row disagrees.
    shape = {**AS_RATED, "rlc": (0.01, 0.08, 30.0)}
    v = _c35().check(_data(shape))
    assert v.status == "FAIL"
    assert v.measured["rows agreeing / checked"] == "5 / 6"
    assert v.measured["Table 1 TCP friendliness agrees"].startswith("no (3 of 5 pairs")
    assert "SRAMT-LE (Very good) vs RLC (Modest)" in v.explanation
    # DSG's streams as unsteady as SRAMT-S's: Table 2's stable-rate row (Yes vs Modest) disagrees.
    v = _c35().check(_data({**AS_RATED, "dsg": (0.90, 0.30, 30.0)}))
    assert v.status == "FAIL" and v.measured["Table 2 Stable transmission rate agrees"].startswith("no (2 of 2")
    # IRFM's rate settling first: Table 2's convergence row disagrees.
    v = _c35().check(_data({**AS_RATED, "irfm": (0.30, 0.30, 0.0)}))
    assert v.status == "FAIL" and v.measured["Table 2 Convergence time agrees"].startswith("no (2 of 2")


def test_row_agreement_compares_only_differing_ratings_and_needs_strict_order():
    ratings = {"sramt-le": "Relative fast", "plm": "Very fast", "rlc": "Relative fast"}
    assert tables.row_agreement(ratings, {"sramt-le": 5.0, "plm": 1.0, "rlc": 50.0}) == (2, [])
    compared, wrong = tables.row_agreement(ratings, {"sramt-le": 5.0, "plm": 5.0, "rlc": 50.0})
    assert compared == 2 and wrong == ["PLM (Very fast) vs SRAMT-LE (Relative fast)"]
    assert tables.row_agreement({"sramt-s": "Very good", "dsg": "–"}, {"sramt-s": 9.0, "dsg": 0.0}) == (0, [])
    # A missing number cannot agree.
    assert tables.row_agreement({"sramt-s": "Very good", "irfm": "Modest"}, {"sramt-s": 0.1})[1]
