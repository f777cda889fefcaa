"""Set-up tables (vidcc.papers.provenance): every key a suite's scenarios set, its values, and where
they come from (the paper, ns-2 2.35's default, or our reconstruction)."""

from __future__ import annotations

from vidcc.papers.building import dumbbell, flow, scenario
from vidcc.papers.model import Axis, ByScale, Figure, Part, Suite, SuiteRun
from vidcc.papers.provenance import Ns2, Paper, Reconstruction, SetupKey, key_paths, ns2_script, setup_rows, unsourced
from vidcc.report import render_html, suite_document

BASE = scenario("30s", dumbbell("1Mbps", "25ms", access={"bandwidth": "10Mbps", "delay": "5ms"}),
                [flow("tcp-reno", label="reno", count=2, window=20)], warmup="2s")
FIG = Figure("f1", "Reno", "Fig. 1", "two Reno flows",
             parts=[Part("reno", BASE, axes=[Axis("flows[0].count", ByScale([2, 4], [2, 4, 8]), "n")])])
FULL_SETUP = [
    SetupKey("scenario.duration", Reconstruction("scaled down from the paper's 200 s at quick scale")),
    SetupKey("scenario.warmup", Paper("§4.2", "the first 2 s are discarded")),
    SetupKey("topology.*", Paper("§4.1", "a 1 Mbit/s dumbbell with 25 ms links")),
    SetupKey("flows[reno].window", Ns2("Agent/TCP window_", "20", "packets")),
    SetupKey("flows[reno].*", Paper("§4.1", "Reno sources")),
]


def suite(setup) -> Suite:
    return Suite("toy", "Toy", "nobody", "docs/papers/toy.md", [FIG], [], setup=setup)


def test_key_paths_name_links_flows_and_receivers_as_the_scenario_does():
    doc = {"topology": {"links": [{"a": "L", "b": "R", "queue": {"limit": 10}}]},
           "flows": [{"label": "srm", "receivers": [{"node": "R1", "groups": [0, 1]}]}, {"protocol": "udp"}],
           "scenario": {"duration": "3s"}}
    assert dict(key_paths(doc)) == {
        "topology.links[L-R].a": "L", "topology.links[L-R].b": "R", "topology.links[L-R].queue.limit": 10,
        "flows[srm].label": "srm", "flows[srm].receivers[R1].node": "R1", "flows[srm].receivers[R1].groups": [0, 1],
        "flows[udp].protocol": "udp", "scenario.duration": "3s"}


def test_a_figure_lists_every_key_its_parts_set_with_the_first_matching_source():
    rows = {r.path: r for r in setup_rows(suite(FULL_SETUP), FIG, "quick")}
    assert rows["flows[reno].window"].source == Ns2("Agent/TCP window_", "20", "packets")  # first match wins
    assert isinstance(rows["flows[reno].protocol"].source, Paper)
    assert rows["flows[reno].count"].values == ("2", "4")  # the swept axis' values at this scale
    full = {r.path: r for r in setup_rows(suite(FULL_SETUP), FIG, "full")}
    assert full["flows[reno].count"].values == ("2", "4", "8") and "topology.bottleneck.bandwidth" in full
    assert all(r.source is not None for r in rows.values())
    assert unsourced(suite(FULL_SETUP)) == []


def test_a_key_without_a_source_is_listed():
    partial = [k for k in FULL_SETUP if k.pattern != "scenario.warmup"]
    assert unsourced(suite(partial)) == ["f1: scenario.warmup"]
    limited = [*partial, SetupKey("scenario.warmup", Paper("§4.2", "2 s"), figures=("other",))]
    assert unsourced(suite(limited)) == ["f1: scenario.warmup"]  # a row limited to other figures does not cover f1


def test_the_report_and_claims_json_show_the_set_up_table():
    run = SuiteRun(suite(FULL_SETUP[1:]), "quick", [], [])
    from vidcc.papers.model import FigureRun

    run.figures = [FigureRun(FIG, [])]
    doc = suite_document(run)
    setup = {r["key"]: r for r in doc["figures"][0]["setup"]}
    assert setup["flows[reno].window"]["source"] == "ns-2 default"
    assert setup["flows[reno].window"]["text"] == "ns-2 2.35 default: Agent/TCP window_ = 20 (packets)"
    assert setup["scenario.duration"]["source"] == "no source" and setup["scenario.duration"]["text"] is None
    page = render_html([run], title="t")
    assert "Set-up: " in page and "1 no source" in page and "no source declared" in page


def test_the_ns2_script_prints_each_declared_variable_once():
    script = ns2_script(["Agent/TCP window_", "Queue limit_", "Agent/TCP window_"])
    assert script.splitlines() == ['puts "Agent/TCP window_=[Agent/TCP set window_]"',
                                   'puts "Queue limit_=[Queue set limit_]"', "exit 0"]


def test_claims_json_counts_each_run_once_even_behind_two_figures():
    import pandas as pd

    from vidcc.papers.measures import FigureData
    from vidcc.papers.model import FigureRun, PartRun

    def doc_for(codes):
        runs = pd.DataFrame({"run_id": ["a", "b"], "wall_seconds": [1.5, 2.0], "part": ["p", "p"],
                             "code_fingerprint": codes})
        part = PartRun(FIG.parts[0], "ran", total=2, ran=1, skipped=1, seeds=[1, 2])
        figures = [FigureRun(FIG, [part], data=FigureData(FIG, {"runs": runs}, ["p"], lambda *a: None))
                   for _ in range(2)]
        return suite_document(SuiteRun(suite(FULL_SETUP), "quick", figures, []))["runs"]

    doc = doc_for(["ab" * 32, "ab" * 32])
    assert doc == {"total": 4, "made": 2, "reused": 2, "failed": 0, "seeds": 2, "seconds": 3.5,
                   "code": "ab" * 32, "codes": "2 by code abababababab"}
    # Runs of two codes, or of a code without a fingerprint, have no single run code.
    assert doc_for(["ab" * 32, "cd" * 32])["code"] is None
    assert doc_for(["ab" * 32, None])["code"] is None
    assert doc_for(["ab" * 32, float("nan")])["code"] is None
