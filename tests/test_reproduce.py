"""Paper reproduction: the framework (parts, claims, checks, NOT-YET), the five suites, and
`vidcc reproduce all --scale quick` end to end."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from vidcc import protocols
from vidcc.papers import PAPERS, load_suite
from vidcc.papers.building import dumbbell, flow, part_spec, scenario
from vidcc.papers.existence import feature_exists, protocol_exists
from vidcc.papers.measures import FigureData
from vidcc.papers.model import (
    FAIL,
    NOT_YET,
    PASS,
    STATUSES,
    UNSTABLE,
    Axis,
    ByScale,
    Claim,
    Figure,
    Part,
    Plot,
    Suite,
    Verdict,
    at_scale,
)
from vidcc.papers.running import run_suite
from vidcc.papers.verdicts import all_of, bound, check_claim, direction, number, ordering, state_cause, within

VIDCC = Path(sys.executable).parent / "vidcc"

# Claim ids of each paper page's claims table (docs/papers/*.md), which every suite must carry.
PAGE_CLAIMS = {
    "dvrc": [f"C{i}" for i in range(1, 27)],
    "ssvp": [f"C{i}" for i in range(1, 23)],
    "asmp-tfmcc": [f"C{i}" for i in range(1, 36)],
    "qos-aimd": [f"A{i}" for i in range(1, 13)] + [f"S{i}" for i in range(1, 19)],
    "sramt": [f"C{i:02d}" for i in range(1, 36)],
}

ROOT = Path(__file__).resolve().parents[1]


def page_claim_ids(paper: str) -> list[str]:
    """The ids in the first column of the claims table of the paper's page, docs/papers/<paper>.md
    (the one table whose header ends in "verdict / category / audit")."""
    lines = (ROOT / "docs" / "papers" / f"{paper}.md").read_text(encoding="utf-8").splitlines()
    header = [i for i, line in enumerate(lines) if line.startswith("|") and "verdict / category / audit" in line]
    assert len(header) == 1, f"docs/papers/{paper}.md: {len(header)} claims tables"
    ids = []
    for line in lines[header[0] + 2:]:
        if not line.startswith("|"):
            break
        ids.append(line.split("|")[1].strip())
    return ids


# --------------------------------------------------------------------------------------------
# What exists


def test_existence_is_asked_of_the_registry_and_the_schema():
    assert protocol_exists("tcp-reno")
    assert protocol_exists("udp-cbr")  # exists although it needs a `rate` key
    assert not protocol_exists("no-such-protocol")
    registered = [s.name for s in protocols.specs()]
    assert registered and all(protocol_exists(name) for name in registered)
    assert not feature_exists("no-such-feature")


def test_at_scale_resolves_nested_values():
    value = {"a": ByScale(1, 2), "b": [ByScale("x", "y"), 3], "c": (ByScale([1], [1, 2]),)}
    assert at_scale(value, "quick") == {"a": 1, "b": ["x", 3], "c": ([1],)}
    assert at_scale(value, "full") == {"a": 2, "b": ["y", 3], "c": ([1, 2],)}
    with pytest.raises(ValueError):
        ByScale(1, 2).at("huge")


# --------------------------------------------------------------------------------------------
# Check helpers: they pass on hand-made results and fail on altered ones


def _summary(rows):
    return pd.DataFrame(rows)


def test_bound_within_number():
    s = _summary([{"n": 1, "mean": 0.95}, {"n": 2, "mean": 0.97}])
    v = bound(s, ">=", 0.9, name="Jain")
    assert v.status == PASS and v.measured == {"Jain[n=1]": 0.95, "Jain[n=2]": 0.97, "Jain: cells": 2}
    v = bound(s, ">=", 0.96, name="Jain")
    assert v.status == FAIL and "n=1" in v.explanation and "0.95" in v.explanation
    assert within(s, 0.9, 1.0, name="x").status == PASS
    assert within(s, 0.96, 1.0, name="x").status == FAIL
    assert number(0.1004, 0.1, 0.001, name="p").status == PASS
    assert number(0.12, 0.1, 0.1, name="p", relative=True).status == FAIL
    assert bound(pd.DataFrame(), ">", 0, name="x").status == FAIL  # no data is never a PASS


def test_ordering_and_direction():
    s = _summary([{"n": 1, "label": "a", "mean": 2.0}, {"n": 1, "label": "b", "mean": 1.0},
                  {"n": 5, "label": "a", "mean": 3.0}, {"n": 5, "label": "b", "mean": 2.9}])
    assert ordering(s, "a", "b", by="n", name="g").status == PASS
    v = ordering(s, "a", "b", by="n", margin=0.5, name="g")
    assert v.status == FAIL and "n=5" in v.explanation
    assert ordering(s, "a", "b", by="n", at=[1], margin=0.5, name="g").status == PASS
    assert ordering(s, "b", "a", name="g").status == FAIL
    assert direction(s, "n", increasing=True, group="label", of="b", name="g").status == PASS
    assert direction(s, "n", increasing=False, group="label", of="b", name="g").status == FAIL
    assert direction(s, "n", increasing=True, group="label", of="a", how="endpoints", min_change=0.5, name="g").status == PASS
    assert direction(s, "n", increasing=True, group="label", of="a", how="monotone", name="g").status == PASS
    both = all_of(ordering(s, "a", "b", by="n", name="g"), ordering(s, "b", "a", by="n", name="h"))
    assert both.status == FAIL and "h" in both.explanation and len(both.measured) == 10  # 8 values, 2 counts


def _fig_data(figure: Figure, **tables) -> FigureData:
    return FigureData(figure, tables, ran=[p.name for p in figure.parts])


def _s4_reno(nt: float, jain: float) -> FigureData:
    suite = load_suite("dvrc")
    fig = suite.figure("fig15-16")
    flows, agg = [], []
    for r in (20, 40):
        for seed in (1, 2):
            run = f"{r}-{seed}"
            for f in range(r):
                flows.append({"part": "reno-only", "run_id": run, "seed": seed, "reno_flows": r, "label": "reno", "flow": f,
                              "normalized_throughput": nt + (0.01 if f % 2 else -0.01)})
            agg.append({"part": "reno-only", "run_id": run, "seed": seed, "reno_flows": r, "label": "reno", "jain": jain})
    return _fig_data(fig, run_flows=pd.DataFrame(flows), run_aggregate=pd.DataFrame(agg))


def test_a_suite_check_passes_on_hand_made_results_and_fails_on_altered_ones():
    b1 = next(c for c in load_suite("dvrc").claims if c.id == "B1")
    v = b1.check(_s4_reno(nt=1.0, jain=0.97))
    assert v.status == PASS, v
    assert v.measured["NT (Reno)[reno_flows=20,label=reno]"] == pytest.approx(1.0)
    v = b1.check(_s4_reno(nt=0.7, jain=0.97))
    assert v.status == FAIL and "0.7" in v.explanation
    v = b1.check(_s4_reno(nt=1.0, jain=0.6))
    assert v.status == FAIL and "Jain" in v.explanation


def test_sramt_friendliness_check_on_hand_made_results():
    b1 = next(c for c in load_suite("sramt").claims if c.id == "B1")
    fig = load_suite("sramt").figure("fig4-6")

    def data(ratio):
        rows = []
        for seed in (1, 2):
            for link in ("c2", "c3", "c4"):
                rows.append({"part": "tcp-only", "run_id": f"r{seed}", "seed": seed, "label": f"tcp-{link}", "throughput_bps": 1e5})
                rows.append({"part": "tcp-only", "run_id": f"r{seed}", "seed": seed, "label": f"standin-{link}", "throughput_bps": 1e5 * ratio})
        return _fig_data(fig, run_flows=pd.DataFrame(rows))

    assert b1.check(data(1.1)).status == PASS
    v = b1.check(data(3.0))
    assert v.status == FAIL and "outside [0.5, 2]" in v.explanation


# --------------------------------------------------------------------------------------------
# NOT-YET


def test_claim_needing_an_unknown_protocol_is_not_yet_never_pass():
    claim = Claim("X1", "would pass", None, ("no-such-protocol",), lambda d: Verdict(PASS, {"x": 1.0}, "passes"))
    r = check_claim(claim, None)
    assert r.status == NOT_YET
    assert "no-such-protocol" in r.explanation and not r.measured
    r = check_claim(Claim("X2", "feature", None, ("tcp-reno",), lambda d: Verdict(PASS, {"x": 1.0}, "passes"), needs=("no-such-feature",)), None)
    assert r.status == NOT_YET
    r = check_claim(Claim("X3", "no check yet", None, ("tcp-reno",), pending="metric Y"), None)
    assert r.status == NOT_YET and "metric Y" in r.explanation
    r = check_claim(Claim("X4", "pass without numbers", None, ("tcp-reno",), lambda d: Verdict(PASS, {}, "trust me")), None)
    assert r.status == FAIL and r.error  # a PASS must show the values that decided it


def tiny_suite() -> Suite:
    base = scenario("3s", dumbbell("10Mbps", "10ms", access={"bandwidth": "100Mbps", "delay": "1ms"}),
                    [flow("tcp-reno", label="reno", count=2, send_jitter="800us", start=["0s", "0.5s"])], warmup="1s")
    future = scenario("3s", dumbbell("10Mbps", "10ms", access={"bandwidth": "100Mbps", "delay": "1ms"}),
                      [flow("no-such-protocol", label="future")])

    def jain(d):
        return d.summary("jain", by="n", table="run_aggregate", where={"label": "reno"})

    fig = Figure("f1", "A tiny <figure>", "Fig. 1", "Reno flows & a protocol that does not exist.",
                 parts=[Part("reno", base, axes=[Axis("flows[0].count", ByScale([2, 4], [2, 4, 8]), "n")], seeds=ByScale([1, 2], [1, 2, 3]), kind="baseline"),
                        Part("future", future, seeds=[1])],
                 plots=[Plot("nt", "Normalized throughput", "normalized_throughput", axis="n"),
                        Plot("rate", "Throughput", "throughput_bps", kind="series", table="flow_samples", parts=["reno"], select={"n": 2}),
                        Plot("nothing", "Future", "throughput_bps", axis="n", parts=["future"])])
    claims = [
        Claim("T1", "Reno shares fairly", "f1", ("tcp-reno",), lambda d: bound(jain(d), ">=", 0.5, name="Jain"), kind="baseline", parts=("reno",)),
        Claim("T2", "Reno is super-fair", "f1", ("tcp-reno",), lambda d: bound(jain(d), ">", 1.5, name="Jain"), kind="baseline"),
        Claim("T3", "the future protocol", "f1", ("no-such-protocol",), lambda d: Verdict(PASS, {"x": 1.0}, "never reached"), parts=("future",)),
        Claim("T4", "a metric that does not exist", "f1", ("tcp-reno",), pending="needs metric Z"),
        Claim("T5", "a buggy check", "f1", ("tcp-reno",), lambda d: 1 / 0),
    ]
    return Suite("tiny", "Tiny suite", "nobody, 2025", "docs/papers/none.md", [fig], claims)


def test_run_suite_runs_what_exists_and_reuses_the_database(tmp_path):
    db = tmp_path / "db.duckdb"
    lines: list[str] = []
    run = run_suite(tiny_suite(), "quick", db=db, out_dir=tmp_path / "out", jobs=1, progress=False, log=lines.append)
    fr = run.figures[0]
    parts = {p.part.name: p for p in fr.parts}
    assert parts["reno"].status == "ran" and parts["reno"].total == 4 and parts["reno"].ran == 4
    assert parts["future"].status == "not-yet" and "no-such-protocol" in parts["future"].reasons[0]
    assert fr.status == "partial"
    flows = fr.data.flows()
    assert set(flows["part"]) == {"reno"} and sorted(flows["n"].unique()) == [2, 4] and sorted(flows["seed"].unique()) == [1, 2]
    assert [Path(i.png).name for i in fr.images] == ["f1-nt.png", "f1-rate.png"]
    assert all(Path(i.svg).exists() for i in fr.images)
    assert any("nothing: no data yet" in n for n in fr.notes)
    status = {c.claim.id: c for c in run.claims}
    assert status["T1"].status == PASS and status["T1"].measured
    assert status["T2"].status == FAIL and "not > 1.5" in status["T2"].explanation
    assert status["T3"].status == NOT_YET
    assert status["T4"].status == NOT_YET and "metric Z" in status["T4"].explanation
    assert status["T5"].status == FAIL and status["T5"].error and "ZeroDivisionError" in status["T5"].explanation
    assert run.counts() == {PASS: 1, FAIL: 2, UNSTABLE: 0, NOT_YET: 2}
    assert any("T5" in e for e in run.errors)
    assert any("part reno: 4 runs" in line for line in lines)

    again = run_suite(tiny_suite(), "quick", db=db, out_dir=tmp_path / "out", jobs=1, progress=False, log=lines.append)
    reno = again.figures[0].parts[0]
    assert (reno.ran, reno.skipped) == (0, 4)
    assert again.claims[0].measured == run.claims[0].measured


# --------------------------------------------------------------------------------------------
# The five suites


@pytest.mark.parametrize("paper", list(PAPERS))
def test_suite_carries_every_paper_page_claim_and_a_checkable_one(paper):
    suite = load_suite(paper)
    suite.validate()
    ids = [c.id for c in suite.claims]
    missing = [c for c in PAGE_CLAIMS[paper] if c not in ids]
    assert not missing, f"{paper}: claims of the paper page missing from the suite: {missing}"
    extra = [c for c in suite.claims if c.id not in PAGE_CLAIMS[paper]]
    assert all(c.kind == "baseline" for c in extra)
    # At least one claim is checkable with what exists today.
    live = [c for c in suite.claims if c.check is not None and not check_claim(c, None).explanation.startswith(("protocol", "feature"))]
    assert live, f"{paper}: no claim can be checked today"
    for c in suite.claims:
        assert c.text and c.kind in ("paper", "baseline")
        assert c.check is not None or c.pending, f"{paper}/{c.id}: no check and no reason"


@pytest.mark.parametrize("paper", list(PAPERS))
def test_paper_page_lists_exactly_the_claims_the_suite_carries(paper):
    assert page_claim_ids(paper) == PAGE_CLAIMS[paper]
    suite_ids = [c.id for c in load_suite(paper).claims if c.kind == "paper"]
    assert sorted(suite_ids) == sorted(PAGE_CLAIMS[paper])


@pytest.mark.parametrize("paper", list(PAPERS))
def test_runnable_parts_are_valid_sweeps_at_both_scales(paper):
    suite = load_suite(paper)
    for fig in suite.figures:
        for part in fig.parts:
            assert part.kind in ("paper", "baseline")
            if part.missing():
                continue
            for scale in ("quick", "full"):
                points = part_spec(suite, fig, part, scale).points()
                bad = [p.error for p in points if p.error]
                assert not bad, f"{paper}/{fig.id}/{part.name} ({scale}): {bad[0]}"


# --------------------------------------------------------------------------------------------
# The command


def test_reproduce_all_quick(tmp_path):
    out, db = tmp_path / "out", tmp_path / "db.duckdb"
    p = subprocess.run([str(VIDCC), "reproduce", "all", "--scale", "quick", "--db", str(db), "--out", str(out), "--jobs", "2"],
                       # a guard against a hung run, not a speed bound: with every DVRC, SSVP and QoS-AIMD
                       # claim running, quick scale is ~30 min of work (docs/experiments.md)
                       capture_output=True, text=True, timeout=3600)
    assert p.returncode == 0, p.stderr[-3000:]
    assert "Traceback" not in p.stderr
    assert re.search(r"all \(quick\): \d+ PASS, \d+ FAIL, \d+ UNSTABLE, \d+ NOT-YET", p.stdout), p.stdout
    doc = json.loads((out / "claims.json").read_text())
    assert doc["paper"] == "all" and doc["scale"] == "quick" and doc["vidcc_version"]
    assert [d["paper"] for d in doc["papers"]] == list(PAPERS)
    page = (out / "report.html").read_text()
    total = {s: 0 for s in STATUSES}
    for paper in doc["papers"]:
        assert paper["scale"] == "quick" and paper["vidcc_version"] == doc["vidcc_version"]
        for c in paper["claims"]:
            assert c["status"] in STATUSES, c
            assert c["explanation"], c
            if c["status"] in (PASS, FAIL):
                assert c["measured"], c
                assert all(v is None or isinstance(v, (int, float, str)) for v in c["measured"].values())
            total[c["status"]] += 1
            # a FAIL or UNSTABLE states its category and evidence, or says it is not classified yet (null)
            assert ("category" in c) == (c["status"] in (FAIL, UNSTABLE)), c
            assert f">{c['id']}<" in page, f"report.html does not name {paper['paper']}/{c['id']}"
        ids = {c["id"] for c in paper["claims"]}
        assert set(PAGE_CLAIMS[paper["paper"]]) <= ids
        assert any(c["kind"] == "baseline" for c in paper["claims"])
        assert any(c["status"] != NOT_YET for c in paper["claims"]), f"{paper['paper']}: nothing checked today"
        sub = out / paper["paper"]
        assert json.loads((sub / "claims.json").read_text())["claims"] == paper["claims"]
        assert (sub / "report.html").exists()
    assert doc["summary"] == total
    assert sum(doc["categories"].values()) == total[FAIL] + total[UNSTABLE]
    # Self-contained: every src/href is a data: URI or an in-page anchor.
    refs = re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)["']""", page)
    assert refs and all(r.startswith(("data:", "#")) for r in refs), [r[:60] for r in refs if not r.startswith(("data:", "#"))]
    assert "<script" not in page and "@import" not in page and "url(" not in page
    assert page.count("data:image/png;base64,") >= 5


def test_reproduce_rejects_an_unknown_paper(tmp_path):
    p = subprocess.run([str(VIDCC), "reproduce", "nope", "--db", str(tmp_path / "db"), "--out", str(tmp_path / "o")],
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 2
    assert "invalid choice: 'nope'" in p.stderr and "Traceback" not in p.stderr
    assert not (tmp_path / "o").exists()


# --------------------------------------------------------------------------------------------
# Every written check runs on synthetic results shaped like its figure's (so that the checks of
# claims that are NOT-YET today do not rot before their protocols arrive)


def test_sramt_baseline_claims_report_scenario_a_on_synthetic_results():
    """C30–C34 read the baselines' Scenario A runs (figure fig4-9-baselines) and the staggered-start
    runs (fig15-19-staggered) beside their verdicts."""
    import numpy as np

    suite = load_suite("sramt")
    data = {f.id: _synthetic(f, np.random.default_rng(7)) for f in suite.figures}
    for d in data.values():
        d.attach_others(data)
    for cid, name in (("C30", "PLM"), ("C31", "RLC"), ("C32", "MLDA"), ("C33", "DSG"), ("C34", "IRFM")):
        claim = next(c for c in suite.claims if c.id == cid)
        v = claim.check(data[claim.figure])
        assert "in Scenario A (fig4-9-baselines" in v.explanation, (cid, v.explanation)
        assert isinstance(v.measured[f"Scenario A {name} F[C1-C2]"], float), (cid, v.measured)
        assert v.measured[f"Scenario A: the claim's test {name}"] in ("holds", "does not hold")
        assert "staggered start (fig15-19-staggered" in v.explanation, (cid, v.explanation)
        assert v.measured[f"staggered: the claim's test {name}"] in ("holds", "does not hold")


def _resolved(base: dict) -> dict:
    """The resolved scenario of a part (its flows' protocol keys and receivers), or only a warm-up
    of 0 where the part cannot be resolved today (a protocol that does not exist yet)."""
    from vidcc.scenario import ScenarioError, parse_scenario

    try:
        return {**parse_scenario(base, source="<synthetic>").resolve(), "warmup_ns": 0}
    except (ScenarioError, ValueError):
        return {"warmup_ns": 0}


def _multicast_events(flows: list[tuple[int, int]], n: int, rng) -> pd.DataFrame:
    """Events of multicast flows: stream / level changes of each receiver at epoch ends, group
    rates, reports heard by the sender, RTT estimates and a single-rate sender's rate."""
    rows = []
    for f, count in flows:
        for k in range(count):
            level = 1
            for t in range(5, n, 5):
                if rng.uniform() < 0.3:
                    level = int(rng.choice([x for x in (1, 2, 3) if x != level]))
                    rows.append((t * 10**9 + 10**7, f, "receiver", k, "layers", float(level), -1))
            for t in range(n):
                rows.append((t * 10**9 + 5 * 10**8, f, "receiver", k, "rtt_estimate", float(rng.uniform(0.05, 0.1)), -1))
            for t in range(0, n, 5):
                rows.append((t * 10**9 + 3 * 10**8, f, "sender", -1, "feedback", float(k), -1))
        for t in range(n):
            for g in range(3):
                rows.append((t * 10**9, f, "sender", -1, "group_rate", float(rng.uniform(5e4, 4e5)), g))
        # A single-rate sender's rate at each report that changed it (ASMP): a climb, then its top;
        # drawn from no generator, so that the other synthetic values keep their draws.
        for k, t in enumerate(range(2, n // 2, 5)):
            rows.append((t * 10**9, f, "sender", -1, "rate", 1e5 + 3e4 * k + 1e3 * f, -1))
    return pd.DataFrame(rows, columns=["t_ns", "flow", "side", "receiver", "kind", "value", "group"])


def _synthetic(figure: Figure, rng) -> FigureData:
    import itertools
    import json as _json

    flows, aggs, runs = [], [], []
    multicast: dict[str, list[tuple[int, int]]] = {}  # run -> (flow, receivers) of its multicast flows
    for part in figure.parts:
        base = at_scale(part.base, "quick")
        labels = [f.get("label", f["protocol"]) for f in base["flows"]]
        axes = part.axis_values("quick")
        for combo in itertools.product(*axes.values()) if axes else [()]:
            for seed in part.seed_list("quick"):
                run = f"{part.name}-{'-'.join(map(str, combo))}-{seed}"
                cols = {"part": part.name, "run_id": run, "seed": seed, **dict(zip(axes, combo)), **part.tags}
                runs.append({**cols, "resolved_json": _json.dumps(_resolved(base))})
                for i, label in enumerate(dict.fromkeys(labels)):
                    for f in range(2):
                        flows.append({**cols, "flow": 2 * i + f, "receiver": 0, "label": label, "protocol": label,
                                      "src": f"n{2 * i + f}", "start_ns": 0, "path_rtt_ns": float(rng.uniform(2e7, 2e8)),
                                      "mean_delay_ns": float(rng.uniform(1e7, 1e8)), "jitter_ns": float(rng.uniform(0, 5e7)),
                                      **{m: float(rng.uniform(0.5, 1.5)) for m in
                                         ("throughput_bps", "goodput_bps", "cov", "drop_rate", "normalized_throughput")}})
                    aggs.append({**cols, "label": label, "jain": float(rng.uniform(0.8, 1.0)),
                                 "worst_case_fairness": float(rng.uniform(0.3, 1.0))})
                # A multicast flow (a `receivers` list, or a graph flow's `dst` list) has a row per
                # receiver, named by its node.
                for i, fl in enumerate(base["flows"]):
                    nodes = [r["node"] for r in fl.get("receivers", []) if "node" in r]
                    nodes = nodes or (list(fl["dst"]) if isinstance(fl.get("dst"), list) else [])
                    if nodes:
                        label = fl.get("label", fl["protocol"])
                        # Replace the unicast stand-in rows of this label, not another multicast flow's
                        # rows of the same label (S5 runs two sessions of one protocol).
                        flows[:] = [r for r in flows if not (r["run_id"] == run and r["label"] == label and r["flow"] < 100)]
                        multicast.setdefault(run, []).append((100 + i, len(nodes)))
                        for k, node in enumerate(nodes):
                            flows.append({**cols, "flow": 100 + i, "receiver": k, "dst": node, "label": label, "protocol": label,
                                          # Delays without drawing from rng: the other synthetic values keep their draws.
                                          "start_ns": 0, "path_rtt_ns": 4e7 + 1e6 * k, "mean_delay_ns": 3e7 + 2e6 * k,
                                          "jitter_ns": 1e6 * (k % 7),
                                          **{m: float(rng.uniform(0.5, 1.5)) * (1e5 if m.endswith("bps") else 1)
                                                           for m in ("throughput_bps", "goodput_bps", "cov", "drop_rate",
                                                                     "normalized_throughput")}})

    def series(run_id, table):
        n = 50
        if table == "links":
            names = ["R2->R3", "L->R", "R1->R2"]
            return pd.DataFrame({"link": range(len(names)), "name": names, "queue_limit_packets": [50.0] * len(names),
                                 "delivered_packets": [1000] * len(names), "dropped_queue": [10] * len(names),
                                 "dropped_loss": [0] * len(names)})
        if table == "queue_samples":
            return pd.DataFrame({"t_ns": [i * 10**7 for i in range(n)] * 3, "link": [0] * n + [1] * n + [2] * n,
                                 "packets": rng.integers(0, 51, 3 * n)})
        if table == "flow_samples":
            rows = pd.DataFrame({"t_ns": [i * 10**9 for i in range(n)] * 2, "flow": [0] * n + [1] * n, "receiver": 0,
                                 "throughput_bps": rng.uniform(0, 1e6, 2 * n), "jitter_ns": rng.uniform(0, 5e7, 2 * n),
                                 "delay_ns": rng.uniform(1e7, 1e8, 2 * n)})
            extra = [pd.DataFrame({"t_ns": [i * 10**9 for i in range(1, n + 1)], "flow": f, "receiver": k,
                                   "throughput_bps": rng.uniform(0, 1e6, n), "jitter_ns": rng.uniform(0, 5e7, n),
                                   "delay_ns": rng.uniform(1e7, 1e8, n)})
                     for f, count in multicast.get(run_id, []) for k in range(count)]
            return pd.concat([rows, *extra], ignore_index=True)
        if table == "events" and run_id in multicast:
            return _multicast_events(multicast[run_id], n, rng)
        if table == "video_summary":
            # Every column of the simulator's video_summary table (crates/vidcc-sim/src/video.rs).
            sent, pkts = rng.integers(100, 1000, 20), rng.integers(1000, 10000, 20)
            dec = (sent * rng.uniform(0.3, 1.0, 20)).astype(int)
            lost = (pkts * rng.uniform(0, 0.2, 20)).astype(int)
            cols = {"flow": range(20), "frames_sent": sent, "frames_decodable": dec, "frames_lost": (sent - dec) // 3,
                    "frames_late": (sent - dec) // 3, "frames_dependency": (sent - dec) // 3, "frames_unsent": 0 * sent,
                    "decodable_frame_rate": rng.uniform(5, 25, 20), "packets_sent": pkts, "packets_received": pkts - lost,
                    "packets_lost": lost, "packets_delayed": (pkts * rng.uniform(0, 0.1, 20)).astype(int),
                    "vdi": rng.uniform(0.5, 1.0, 20), "delayed_packet_rate": rng.uniform(0, 0.2, 20),
                    "packet_drop_rate": rng.uniform(0, 0.2, 20), "jitter_ns": rng.uniform(0, 5e7, 20),
                    "jitter_mean_ns": rng.uniform(0, 5e7, 20), "jitter_max_ns": rng.uniform(5e7, 1e8, 20),
                    "d_over_threshold": rng.integers(0, 10, 20), "layer_changes": rng.integers(0, 50, 20)}
            return pd.DataFrame(cols)
        if table == "frames":
            # Each receiver's frames (the ASMP/TFMCC suite scores them against the tiny clip of
            # `suite_video`): the encoding (an index into q = 2..31) and the fate of each frame.
            keys = sorted({(r["flow"], r["receiver"]) for r in flows if r["run_id"] == run_id})
            return pd.concat([pd.DataFrame({"flow": f, "receiver": k, "frame": range(n), "encoding": rng.integers(0, 30, n),
                                            "decodable": rng.uniform(0, 1, n) < 0.9, "status": "ok"})
                              for f, k in keys], ignore_index=True)
        if table == "packets":
            sent = pd.Series(range(n)) * 10**8
            return pd.DataFrame({"flow": [0] * n, "seq": range(n), "sent_ns": sent,
                                 "arrival_ns": sent + rng.integers(10**7, 10**8, n), "fate": ["delivered"] * n})
        return pd.DataFrame()

    return FigureData(figure, {"runs": pd.DataFrame(runs), "run_flows": pd.DataFrame(flows), "run_aggregate": pd.DataFrame(aggs)},
                      ran=[p.name for p in figure.parts], series=series)


@pytest.fixture(scope="module")
def suite_video(tmp_path_factory):
    """A video cache holding a tiny clip prepared where the ASMP/TFMCC suite looks for its own
    (1 s, 64×48, at its 30 quantizers): its checks score the synthetic frames against it."""
    from vidcc.papers.asmp_tfmcc import videoset
    from vidcc.video import clip

    cache = tmp_path_factory.mktemp("video-cache")
    src = clip.generate(cache / "tiny.y4m", seconds=1, size=(64, 48))
    videoset.ensure_prepared(cache / "asmp-tfmcc" / videoset.prepared_dir().name, clip=src)
    return cache


@pytest.mark.parametrize("paper", list(PAPERS))
def test_every_written_check_runs_on_synthetic_results(paper, suite_video, monkeypatch):
    import numpy as np

    monkeypatch.setenv("VIDCC_CACHE", str(suite_video))

    suite = load_suite(paper)
    data = {f.id: _synthetic(f, np.random.default_rng(7)) for f in suite.figures}
    for d in data.values():
        d.attach_others(data)
    for claim in suite.claims:
        if claim.check is None:
            continue
        v = claim.check(data.get(claim.figure) if claim.figure else None)
        assert isinstance(v, Verdict) and v.status in (PASS, FAIL), f"{paper}/{claim.id}: {v}"
        assert v.measured and v.explanation, f"{paper}/{claim.id}: {v}"
        if claim.cause is not None:  # a cause is one line of text, or says why it could not be computed
            cause = state_cause(claim.cause, data.get(claim.figure) if claim.figure else None, dict(v.measured))
            assert isinstance(cause, str) and cause and "\n" not in cause, f"{paper}/{claim.id}: {cause!r}"
