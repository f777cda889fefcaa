"""The staggered start and the baselines' own set-ups of the SRAMT suite (vidcc.papers.sramt.schemes
and .comparisons, figures fig15-19-staggered and fig15-19-orig) on hand-made runs: the numbers
C30–C34 report from them are measured where the paper's figure measures (PLM: once both TCPs
run), starvation is seen, PLM's own set-up (the staggered start's PLM part) is reported once,
and the claims' verdicts stay their common-bottleneck checks'."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from vidcc.papers import load_suite
from vidcc.papers.measures import FigureData
from vidcc.papers.model import Verdict
from vidcc.papers.sramt import comparisons, schemes
from vidcc.papers.sramt.scenarios import ORIGINAL, SCHEMES, STAGGERED

N = 100  # seconds; warm-up 10 s
_made = iter(range(10**6))


def _plm(plm_bps: np.ndarray, tcp_bps: np.ndarray) -> FigureData:
    """One run of Fig. 15's set-up: PLM's receiver gets ``plm_bps``, TCP1 and TCP2 each ``tcp_bps``
    per 1 s bin (TCP2 nothing before 60 s)."""
    fig = load_suite("sramt").figure(STAGGERED)
    run_id = f"orig-{next(_made)}"
    resolved = {
        "duration_ns": N * 10**9,
        "warmup_ns": 10 * 10**9,
        "flows": [{"label": "plm", "protocol": {"kind": "plm"}}],
    }
    runs = [{"part": "plm", "run_id": run_id, "seed": 1, "resolved_json": json.dumps(resolved)}]
    flows = [
        {
            "part": "plm",
            "run_id": run_id,
            "seed": 1,
            "flow": f,
            "receiver": 0,
            "label": lab,
            "dst": dst,
            "start_ns": s * 10**9,
        }
        for f, lab, dst, s in ((0, "plm", "D", 20), (1, "tcp1", "TD1", 0), (2, "tcp2", "TD2", 60))
    ]
    t = np.arange(1, N + 1)
    tcp2 = np.where(t > 60, tcp_bps, 0.0)
    samples = pd.DataFrame(
        {
            "t_ns": np.concatenate([t, t, t]) * 10**9,
            "flow": [0] * N + [1] * N + [2] * N,
            "receiver": 0,
            "throughput_bps": np.concatenate([plm_bps, tcp_bps, tcp2]),
            "delay_ns": 3e7,
        }
    )
    moves = pd.DataFrame(
        {
            "t_ns": [30 * 10**9],
            "flow": 0,
            "side": "receiver",
            "receiver": 0,
            "kind": "layers",
            "value": [5.0],
            "group": -1,
        }
    )
    series = {(run_id, "flow_samples"): samples, (run_id, "events"): moves}
    return FigureData(
        fig,
        {"runs": pd.DataFrame(runs), "run_flows": pd.DataFrame(flows), "run_aggregate": pd.DataFrame()},
        ran=["plm"],
        series=lambda r, table: series.get((r, table), pd.DataFrame()),
    )


def test_plm_numbers_are_measured_once_both_tcps_run():
    t = np.arange(1, N + 1)
    plm = np.where(t > 20, 300e3, 0.0)
    tcp = np.where(t > 60, 350e3, 700e3)  # TCP1 alone before 60 s: excluded
    n = schemes.measure(_plm(plm, tcp), "plm", schemes.original("plm"))
    assert n is not None and n.runs == 1
    assert abs(n.F["bottleneck"] - 300 / 350) < 1e-9
    assert n.starvation == {"bottleneck": 0} and n.cov == 0.0
    assert n.convergence_s == 0.0  # its rate is steady from its start (its level change at 30 s moves no rate)
    # PLM starved (20 kbit/s against 2 × 490) over 71–80 s: one 10 s window.
    plm2 = np.where((t > 70) & (t <= 80), 20e3, plm)
    tcp2 = np.where((t > 70) & (t <= 80), 490e3, tcp)
    n = schemes.measure(_plm(plm2, tcp2), "plm", schemes.original("plm"))
    assert n.starved == {"bottleneck": (1, 0)} and n.F["bottleneck"] < 300 / 350 and n.cov > 0


def test_own_set_ups_are_shown_but_the_verdict_stays_the_checks():
    d = _plm(np.full(N, 300e3), np.full(N, 350e3))
    d.attach_others({})
    for status in ("PASS", "FAIL"):
        v = comparisons.with_other_setups(lambda _d, s=status: Verdict(s, {"F PLM": 0.9}, "common"), "plm")(d)
        assert v.status == status and v.measured["F PLM"] == 0.9
        assert v.explanation.startswith("common; ")
        # PLM's own set-up is the staggered start: its numbers are reported once, under "staggered".
        assert comparisons.OWN["plm"] in v.explanation and not any(k.startswith("original") for k in v.measured)
    # A set-up whose runs are absent is said so; DSG's has no topology.
    v = comparisons.with_other_setups(lambda _d: Verdict("PASS", {"x": 1}, "common"), "irfm")(d)
    assert v.status == "PASS" and v.measured["original scenario irfm"] == "not run"
    v = comparisons.with_other_setups(lambda _d: Verdict("FAIL", {"x": 1}, "common"), "dsg")(d)
    assert v.status == "FAIL" and "no topology" in v.explanation


def test_the_original_figure_runs_each_set_up():
    fig = load_suite("sramt").figure(ORIGINAL)
    parts = {p.name: p.base for p in fig.parts}
    assert set(parts) == {"plm", "rlc", "irfm"}
    starts = {f["label"]: f.get("start") for f in parts["plm"]["flows"]}
    assert starts == {"tcp1": "0s", "plm": "20s", "tcp2": "60s"}
    assert parts["plm"]["topology"]["links"][2]["queue"]["kind"] == "drr"
    labels = [f["protocol"] for f in parts["rlc"]["flows"]]
    assert labels.count("rlc") == 8 and labels.count("tcp-tahoe") == 8
    irfm = next(f for f in parts["irfm"]["flows"] if f["protocol"] == "irfm")
    assert irfm["dst"] == ["D1", "D2"]


def _staggered(part: str, scheme_bps, tcp_bps: float, figure: str | None = None) -> FigureData:
    """One staggered-start run of ``part`` (built like Fig. 15's, the scheme labelled ``part``)."""
    d = _plm(np.where(np.arange(1, N + 1) > 20, scheme_bps, 0.0), np.full(N, tcp_bps))
    runs = d.runs().assign(part=part)
    resolved = json.loads(runs["resolved_json"].iloc[0])
    resolved["flows"][0]["label"] = part
    runs["resolved_json"] = json.dumps(resolved)
    flows = d.flows().assign(part=part)
    flows.loc[flows["label"] == "plm", "label"] = part
    fig = load_suite("sramt").figure(figure or STAGGERED)
    tables = {"runs": runs, "run_flows": flows, "run_aggregate": pd.DataFrame()}
    return FigureData(fig, tables, ran=[part], series=d.series)


def test_staggered_numbers_are_shown_with_whether_the_claims_test_holds():
    # PLM at 0.9 of each TCP, SRAMT-LE at 1.05: C30's friendliness parts hold; both rates
    # constant after 60 s but PLM's level change at 30 s is before the window: CoV 0 vs 0, not steadier.
    plm, le = _staggered("plm", 315e3, 350e3), _staggered("sramt-le", 367.5e3, 350e3)

    def both(run_id, table):
        x = plm.series(run_id, table)
        return x if not x.empty else le.series(run_id, table)

    merged = FigureData(plm.figure, {"runs": pd.concat([plm.runs(), le.runs()]), "run_flows": pd.concat([plm.flows(),
                        le.flows()]), "run_aggregate": pd.DataFrame()}, ran=["plm", "sramt-le"], series=both)
    merged.attach_others({})
    v = comparisons.with_other_setups(lambda _d: Verdict("PASS", {"x": 1}, "common"), "plm")(merged)
    assert v.status == "PASS" and v.measured["x"] == 1, "the verdict stays the check's"
    assert abs(v.measured["staggered PLM F"] - 0.9) < 1e-3 and abs(v.measured["staggered SRAMT-LE F"] - 1.05) < 1e-3
    assert v.measured["staggered: the claim's test PLM"] == "does not hold"  # CoV 0 is not < 0
    assert "F_PLM 0.9, F_SRAMT-LE 1.05" in v.explanation
    # Runs absent: said so.
    v = comparisons.with_other_setups(lambda _d: Verdict("FAIL", {"x": 1}, "common"), "irfm")(merged)
    assert v.measured["staggered IRFM"] == "not run" and v.status == "FAIL"


def test_the_staggered_figure_runs_every_scheme_as_fig15():
    fig = load_suite("sramt").figure(STAGGERED)
    assert [p.name for p in fig.parts] == list(SCHEMES)
    for p in fig.parts:
        starts = {f["label"]: f.get("start") for f in p.base["flows"]}
        assert starts == {"tcp1": "0s", p.name: "20s", "tcp2": "60s"}
        assert p.base["topology"]["links"][2]["queue"]["kind"] == ("drr" if p.name == "plm" else "red")
    # Its PLM part is the original figure's: the same scenario, so the same runs.
    orig = load_suite("sramt").figure(ORIGINAL).part("plm")
    assert fig.part("plm").scenario("quick") == orig.scenario("quick")


def test_convergence_counts_from_the_sessions_start_for_layered_and_simulcast_schemes():
    # The scheme starts at 20 s, gets 100 kbit/s for its first 10 s and 300 from 30 s on: it
    # settled 10 s after its start, whether layered (PLM) or simulcast (IRFM); counted from the
    # run's start it would be 30 s.
    t = np.arange(1, N + 1)
    for part in ("plm", "irfm"):
        n = schemes.measure(_staggered(part, np.where(t <= 30, 100e3, 300e3), 350e3), part, schemes.staggered(part))
        assert n is not None and n.convergence_s == 10.0, (part, n)
