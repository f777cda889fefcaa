"""The baselines in Scenario A (vidcc.papers.sramt.schemes and .comparisons, figure fig4-9-baselines) on
hand-made runs: per-bottleneck F against that bottleneck's Tahoe flow, the final positions
against each scheme's expected ones, whether the claim's own test holds there, and the claims'
verdicts staying their common-bottleneck checks'."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from vidcc.papers import load_suite
from vidcc.papers.measures import FigureData
from vidcc.papers.model import Verdict
from vidcc.papers.sramt import comparisons, schemes
from vidcc.papers.sramt.scenarios import BASELINES, SCENARIO_A_BASELINES

N = 100  # seconds; warm-up 10 s
NODES = ["R1", "R2", "R3", "R4", "R5", "R6"]
TCPS = {"R1": "tcp-c2", "R3": "tcp-c3", "R5": "tcp-c4"}
_made = iter(range(10**6))


def _figure_data(fig_id: str, part: str, rx_bps: dict[str, float], tcp_bps: dict[str, float], levels: dict[str, list],
                 protocol: dict) -> FigureData:
    """One run of ``part`` in Scenario A: receiver R_i gets ``rx_bps[R_i]`` in every 1 s bin, the
    Tahoe flow of each bottleneck ``tcp_bps[label]``; ``levels[node]`` lists (t_s, level) changes."""
    fig = load_suite("sramt").figure(fig_id)
    run_id = f"a-{next(_made)}"
    receivers = {"receivers": [{"node": n} for n in NODES]}
    resolved = {"duration_ns": N * 10**9, "warmup_ns": 10 * 10**9,
                "flows": [{"label": part, "protocol": protocol, "multicast": receivers}]}
    runs = [{"part": part, "run_id": run_id, "seed": 1, "resolved_json": json.dumps(resolved)}]
    cols = {"part": part, "run_id": run_id, "seed": 1, "start_ns": 0}
    flows = [{**cols, "flow": 0, "receiver": k, "label": part, "dst": n} for k, n in enumerate(NODES)]
    flows += [{**cols, "flow": 1 + i, "receiver": 0, "label": lab, "dst": f"Sink{i + 1}"}
              for i, lab in enumerate(TCPS.values())]
    t = np.arange(1, N + 1)
    parts = [pd.DataFrame({"t_ns": t * 10**9, "flow": 0, "receiver": k, "throughput_bps": rx_bps[n], "delay_ns": 3e7})
             for k, n in enumerate(NODES)]
    parts += [pd.DataFrame({"t_ns": t * 10**9, "flow": 1 + i, "receiver": 0, "throughput_bps": tcp_bps[lab],
                            "delay_ns": 3e7}) for i, lab in enumerate(TCPS.values())]
    samples = pd.concat(parts, ignore_index=True)
    ev = [(int(ts * 1e9), 0, "receiver", NODES.index(n), "layers", float(v), -1)
          for n, ch in levels.items() for ts, v in ch]
    events = pd.DataFrame(ev, columns=["t_ns", "flow", "side", "receiver", "kind", "value", "group"])

    def series(_run_id, table):
        return {"flow_samples": samples, "events": events}.get(table, pd.DataFrame())

    return FigureData(fig, {"runs": pd.DataFrame(runs), "run_flows": pd.DataFrame(flows)}, ran=[part], series=series)


PLM = {"layer_rates_bps": [50_000] * 20}
LINK_TCP = {"tcp-c2": 100e3, "tcp-c3": 400e3, "tcp-c4": 750e3}


def _pair(plm_rx: dict, plm_levels: dict, le_rx: dict) -> dict[str, FigureData]:
    le_levels = {"R3": [(5, 2)], "R4": [(5, 2)], "R5": [(5, 3)], "R6": [(5, 3)]}
    data = {SCENARIO_A_BASELINES: _figure_data(SCENARIO_A_BASELINES, "plm", plm_rx, LINK_TCP, plm_levels, PLM),
            "fig7-9": _figure_data("fig7-9", "sramt-le", le_rx, LINK_TCP, le_levels, {})}
    for d in data.values():
        d.attach_others(data)
    return data


def test_expected_positions_follow_each_schemes_layers():
    exp = dict(zip(NODES, (1, 1, 2, 2, 3, 3)))
    # PLM, 20 × 50 kbit/s: the most layers whose sum stays strictly below each half-share (100/400/750).
    assert schemes.expected("plm", PLM, exp) == dict(zip(NODES, (1, 1, 7, 7, 14, 14)))
    # RLC, 32·2^(L−1) kbit/s cumulative: 64 < 100, 256 < 400, 512 < 750.
    rlc = {"base_rate_bps": 32_000, "layers": 6}
    assert schemes.expected("rlc", rlc, exp) == dict(zip(NODES, (2, 2, 4, 4, 5, 5)))
    assert schemes.expected("dsg", {}, exp) == exp
    assert schemes.expected("irfm", {}, exp) == dict(zip(NODES, (1, 1, None, None, 2, 2)))
    assert set(schemes.expected("mlda", {}, exp).values()) == {None}


def test_per_bottleneck_friendliness_and_positions_are_measured():
    # PLM at half of each TCP's rate on C1–C2, equal on C1–C3, twice on C1–C4; levels as expected except R6.
    plm_rx = {"R1": 50e3, "R2": 50e3, "R3": 400e3, "R4": 400e3, "R5": 1500e3, "R6": 1500e3}
    levels = {"R3": [(5, 7)], "R4": [(5, 7)], "R5": [(5, 14)], "R6": [(5, 14), (80, 13)]}
    data = _pair(plm_rx, levels, {n: v * 1.0 for n, v in plm_rx.items()})
    d = data[SCENARIO_A_BASELINES]
    n = schemes.measure(d, "plm", schemes.scenario_a("plm"))
    assert n is not None and n.runs == 1
    assert abs(n.F["C1-C2"] - 0.5) < 1e-9 and abs(n.F["C1-C3"] - 1.0) < 1e-9 and abs(n.F["C1-C4"] - 2.0) < 1e-9
    pos = schemes.positions(d, "plm", n)
    assert pos["final"]["R6"] == "moved" and pos["final"]["R5"] == "14" and pos["final"]["R1"] == "1"
    assert pos["at expected"] == (5, 6)  # R6 moved in the second half
    assert pos["ordered"]  # 1 < 7 < 14 (R6 skipped)
    assert n.cov == 0.0  # constant received rates
    # C1–C4 carries 1.5 Mbit/s against 0.75: starvation needs < 10 % vs > 80 % of the link, not reached.
    assert n.starvation == {"C1-C2": 0, "C1-C3": 0, "C1-C4": 0}


def _claim(cid: str):
    return next(c for c in load_suite("sramt").claims if c.id == cid)


def test_the_claims_report_scenario_a_and_keep_their_verdict():
    # PLM below TCP on every link (F 0.8) and SRAMT-LE at TCP's rate: C30's friendliness parts
    # hold on every link, its stability part does not (both rates constant).
    tcp_of = {n: LINK_TCP[TCPS[f"R{(int(n[1]) - 1) // 2 * 2 + 1}"]] for n in NODES}
    plm_rx = {n: 0.8 * r for n, r in tcp_of.items()}
    le_rx = dict(tcp_of)
    data = _pair(plm_rx, {"R3": [(5, 7)], "R4": [(5, 7)], "R5": [(5, 14)], "R6": [(5, 14)]}, le_rx)
    wrapped = comparisons.with_other_setups(lambda _d: Verdict("FAIL", {"common": 1}, "common verdict"), "plm")
    v = wrapped(data[SCENARIO_A_BASELINES])
    assert v.status == "FAIL" and v.measured["common"] == 1, "the verdict stays the common bottleneck's"
    assert v.measured["Scenario A PLM F[C1-C3]"] == 0.8
    assert v.measured["Scenario A SRAMT-LE F[C1-C2]"] == 1.0
    assert v.measured["Scenario A PLM at expected position"].startswith("6 of 6")
    # CoV: PLM constant (0) vs SRAMT-LE constant too: not steadier, so the claim's test does not hold.
    assert v.measured["Scenario A: the claim's test PLM"] == "does not hold"
    assert "CoV PLM 0 ≥ SRAMT-LE 0" in v.explanation and "on 3 of 3 links" in v.explanation


def test_without_scenario_a_runs_the_claim_says_so():
    fig = load_suite("sramt").figure("fig15-19")
    empty = FigureData(fig, {"runs": pd.DataFrame(columns=["part", "run_id", "seed", "resolved_json"])}, ran=[])
    empty.attach_others({})
    v = comparisons.with_other_setups(lambda _d: Verdict("PASS", {"x": 1}, "ok"), "irfm")(empty)
    assert v.status == "PASS" and v.measured["Scenario A IRFM"] == "not run" and "not in the results" in v.explanation


def test_the_figure_puts_each_baseline_in_srams_place_in_scenario_a():
    suite = load_suite("sramt")
    fig = suite.figure(SCENARIO_A_BASELINES)
    assert [p.name for p in fig.parts] == list(BASELINES)
    sramt = suite.figure("fig7-9").part("sramt-le").scenario("quick")
    for p in fig.parts:
        sc = p.scenario("quick")
        assert [f["protocol"] for f in sc["flows"]] == [p.name, "tcp-tahoe", "tcp-tahoe", "tcp-tahoe"]
        assert [r["node"] for r in sc["flows"][0]["receivers"]] == NODES
        assert sc["flows"][1:] == sramt["flows"][1:], "the same Tahoe flows as SRAMT's Scenario A"
        queues = {(lk["a"], lk["b"]): lk.get("queue", {}).get("kind") for lk in sc["topology"]["links"]}
        want = "drr" if p.name == "plm" else "red"
        assert all(queues[("C1", c)] == want for c in ("C2", "C3", "C4")), (p.name, queues)
    dsg = fig.part("dsg").scenario("quick")["flows"][0]["receivers"]
    assert [r["groups"] for r in dsg] == [[0], [0], [1], [1], [2], [2]], "DSG starts where SRAMT-S does"
