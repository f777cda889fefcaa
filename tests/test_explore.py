"""``vidcc reproduce --explore``: a suite's FAIL/UNSTABLE claims re-run under the alternative
readings they name, one at a time and in the suggested combination; gains and costs reported."""

from __future__ import annotations

import dataclasses
import json

import pytest

from vidcc import report
from vidcc.papers import load_suite
from vidcc.papers.building import dumbbell, flow, glink, graph, part_spec, red, scenario
from vidcc.papers.categories import UnrecordedReading, problems
from vidcc.papers.explore import explorable, explore, suggested, with_alternatives
from vidcc.papers.model import (
    FAIL,
    PASS,
    UNSTABLE,
    Alternative,
    Axis,
    ByScale,
    Claim,
    ClaimResult,
    Figure,
    Part,
    Suite,
    SuiteRun,
)
from vidcc.papers.provenance import key_paths
from vidcc.papers.running import run_suite
from vidcc.papers.verdicts import bound

SMALL_WINDOW = Alternative("small-window", "tcp-reno", {"max_window": "4KB"}, "test", note="a window far below the BDP")
JITTER = Alternative("jitter", "tcp-reno", {"send_jitter": "1ms"}, "test")


def reno_suite() -> Suite:
    """Two Reno flows on a 10 Mbit/s dumbbell (and a CBR-only figure the alternatives do not touch)."""
    net = dumbbell("10Mbps", "10ms", access={"bandwidth": "100Mbps", "delay": "1ms"})
    reno = scenario("3s", net, [flow("tcp-reno", label="reno", count=2, start=["0s", "0.5s"])], warmup="1s")
    cbr = scenario("3s", net, [flow("udp-cbr", label="cbr", rate="1Mbps")], warmup="1s")

    def total(d):
        return d.summary("throughput_bps", by="n", where={"label": "reno"}, within_run="sum")

    reno_part = Part("reno", reno, axes=[Axis("flows[0].count", [2], "n")], seeds=[1])
    figures = [Figure("f1", "Reno", "Fig. 1", "two Reno flows", parts=[reno_part]),
               Figure("f2", "CBR", "Fig. 2", "a CBR flow", parts=[Part("cbr", cbr, seeds=[1])])]
    claims = [
        Claim("S1", "Reno stays below 3 Mbit/s", "f1", ("tcp-reno",), lambda d: bound(total(d), "<", 3e6, name="rate"),
              alternatives=("small-window", "jitter")),
        Claim("S2", "Reno fills the link", "f1", ("tcp-reno",), lambda d: bound(total(d), ">", 8e6, name="rate"),
              alternatives=("small-window",)),
    ]
    return Suite("renos", "Reno suite", "nobody, 2026", "docs/papers/none.md", figures, claims,
                 alternatives=[SMALL_WINDOW, JITTER])


def test_alternatives_apply_to_their_protocol_only_and_name_their_sweeps():
    suite = reno_suite()
    variant = with_alternatives(suite, [SMALL_WINDOW])
    assert variant.name == "renos~small-window"
    reno = variant.figure("f1").parts[0].scenario("quick")
    assert all(f["max_window"] == "4KB" for f in reno["flows"])
    cbr = variant.figure("f2").parts[0].scenario("quick")
    assert "max_window" not in cbr["flows"][0]
    assert "max_window" not in suite.figure("f1").parts[0].scenario("quick")["flows"][0]  # the defaults are untouched


def test_a_claim_naming_an_unknown_alternative_is_refused():
    suite = reno_suite()
    suite.claims[0].alternatives = ("no-such-reading",)
    with pytest.raises(KeyError, match="no alternative 'no-such-reading'"):
        suite.validate()


def test_explore_runs_the_alternatives_and_reports_gains_and_costs(tmp_path):
    db = tmp_path / "db.duckdb"
    lines: list[str] = []
    runs: dict[str, SuiteRun] = {}

    def run(s: Suite) -> SuiteRun:
        runs[s.name] = run_suite(s, "quick", db=db, out_dir=tmp_path / s.name, jobs=1, progress=False, log=lines.append)
        return runs[s.name]

    default = run(reno_suite())
    status = {c.claim.id: c.status for c in default.claims}
    assert status == {"S1": FAIL, "S2": PASS}
    assert explorable(default) == {"small-window": ("S1",), "jitter": ("S1",)}

    trials = explore(default, run, log=lines.append)
    by_name = {t.name: t for t in trials}
    window = by_name["small-window"]
    assert [c.claim for c in window.gains] == ["S1"] and [c.claim for c in window.costs] == ["S2"]
    assert window.counts[PASS] == 1 and window.counts[FAIL] == 1
    assert by_name["jitter"].gains == []  # 1 ms of jitter leaves Reno filling the link
    assert "small-window + jitter" not in by_name  # only one alternative gained: no combination
    # The CBR figure is the same scenario under every alternative: reused, not run again.
    cbr = runs["renos~small-window"].figures[1].parts[0]
    assert (cbr.ran, cbr.skipped) == (0, 1)
    reno = runs["renos~small-window"].figures[0].parts[0]
    assert (reno.ran, reno.skipped) == (1, 0)
    # The report shows the trials; claims.json lists them.
    default.explored = trials
    page, claims = report.write_suite(default, tmp_path / "report")
    doc = json.loads(claims.read_text())
    assert [t["alternatives"] for t in doc["explore"]] == [["small-window"], ["jitter"]]
    assert doc["explore"][0]["gains"] == ["S1"] and doc["explore"][0]["costs"] == ["S2"]
    html = page.read_text()
    assert "Which reading reproduces the paper" in html and "max_window = 4KB" in html
    assert "a window far below the BDP" in html


def _result(claim: Claim, status: str) -> ClaimResult:
    return ClaimResult(claim, status, {"x": 1.0}, f"{claim.id} is {status}")


def test_the_suggested_combination_is_every_alternative_that_gained():
    a, b, c = (Alternative(n, "tcp-reno", {}, "test") for n in ("a", "b", "c"))
    claims = [Claim("X1", "", None, (), alternatives=("a", "b", "c")), Claim("X2", "", None, (), alternatives=("b",)),
              Claim("X3", "", None, ())]
    suite = Suite("s", "", "", "", [], claims, alternatives=[a, b, c])
    statuses = (FAIL, UNSTABLE, PASS)
    default = SuiteRun(suite, "quick", [], [_result(cl, st) for cl, st in zip(claims, statuses)])
    # a fixes X1, b fixes X2, c fixes nothing; a + b together fix both and break X3.
    outcome = {("a",): (PASS, UNSTABLE, PASS), ("b",): (FAIL, PASS, PASS), ("c",): (FAIL, UNSTABLE, PASS),
               ("a", "b"): (PASS, PASS, FAIL)}
    ran = []

    def run(variant: Suite) -> SuiteRun:
        names = tuple(variant.name.split("~", 1)[1].split("+"))
        ran.append(names)
        return SuiteRun(variant, "quick", [], [_result(cl, st) for cl, st in zip(claims, outcome[names])])

    trials = explore(default, run, log=lambda _: None)
    assert ran == [("a",), ("b",), ("c",), ("a", "b")]
    assert suggested(trials) == ("a", "b")
    combined = trials[-1]
    assert combined.combined and combined.targets == ("X1", "X2")
    assert [c.claim for c in combined.gains] == ["X1", "X2"] and [c.claim for c in combined.costs] == ["X3"]


def test_dvrc_names_its_alternatives():
    suite = load_suite("dvrc")
    suite.validate()
    names = {a.name for a in suite.alternatives}
    assert {"pacing", "alpha-per-second", "compare-r-prev"} <= names
    assert "pacing" in next(c for c in suite.claims if c.id == "C24").alternatives


@pytest.mark.parametrize("paper", ["dvrc", "ssvp", "qos-aimd", "sramt"])
def test_every_alternative_makes_valid_scenarios(paper):
    """An alternative's keys are keys of its protocol with valid values: every part that carries
    the protocol still expands to valid runs with the alternative applied."""
    suite = load_suite(paper)
    for alt in suite.alternatives:
        variant = with_alternatives(suite, [alt])
        used = 0
        for fig in variant.figures:
            for part in fig.parts:
                if part.missing() or not alt.applies_to(part):
                    continue
                used += 1
                bad = [p.error for p in part_spec(variant, fig, part, "quick").points() if p.error]
                assert not bad, f"{paper} ~{alt.name}: {fig.id}/{part.name}: {bad[0]}"
        assert used, f"{paper}: alternative {alt.name} applies to no part"


# ------------------------------------------------------------------------------------------------
# Set-up readings: an Alternative that sets values at key paths of the scenario

NARROW = Alternative("narrow-link", setup={"topology.bottleneck.bandwidth": "2Mbps"}, ref="test set-up row",
                     note="a bottleneck a fifth as wide")
CLASSIC_RED = {"kind": "red", "min_thresh": 5, "max_thresh": 15, "weight": 0.002, "max_p": 0.1, "gentle": False,
               "limit": 50}


def tree_part() -> Part:
    """A graph whose links C1-C2 and C1-C3 carry RED, C2-R a default queue, A-C1 a DropTail."""
    queue = red(min_thresh=20, max_thresh=60, weight=0.001, max_p=0.1, gentle=True, limit=100)
    topo = graph(["A", "C1", "C2", "C3", "R"], [
        glink("A", "C1", "10Mbps", "1ms", queue={"kind": "droptail", "limit": 30}),
        glink("C1", "C2", "1Mbps", "10ms", queue=queue), glink("C1", "C3", "2Mbps", "10ms", queue=queue),
        glink("C2", "R", "10Mbps", "1ms")])
    flows = [flow("tcp-reno", label="reno", src="A", dst="R", max_window="64KB"),
             flow("udp-cbr", label="cbr", src="A", dst="R", rate="100kbps")]
    return Part("tree", scenario("3s", topo, flows), seeds=[1])


def _changed(before: dict, after: dict) -> set[str]:
    b, a = dict(key_paths(before)), dict(key_paths(after))
    return {p for p in b.keys() | a.keys() if b.get(p, "<absent>") != a.get(p, "<absent>")}


def test_a_setup_alternative_changes_exactly_the_matched_keys_of_every_part_that_has_them():
    # C2-R matches the link pattern but has no queue key; A-C1 has a queue but does not match.
    reading = Alternative("classic-red", setup={"topology.links[C*].queue": CLASSIC_RED,
                                                "flows[reno].max_window": ByScale("8KB", "16KB")}, ref="test")
    suite = reno_suite()
    suite.figures = [*suite.figures, Figure("f3", "Tree", "Fig. 3", "a tree", parts=[tree_part()])]
    suite.alternatives = [*suite.alternatives, reading]
    suite.validate()
    variant = with_alternatives(suite, [reading])
    for scale, window in (("quick", "8KB"), ("full", "16KB")):
        before, after = suite.figure("f3").parts[0].scenario(scale), variant.figure("f3").parts[0].scenario(scale)
        changed = _changed(before, after)
        assert {p for p in changed if not p.startswith(("topology.links[C1-C2].queue.",
                                                        "topology.links[C1-C3].queue."))} == {"flows[reno].max_window"}
        for link in ("C1-C2", "C1-C3"):  # the whole queue replaced: gentle off, thresholds 5/15, no key merged
            prefix = f"topology.links[{link}].queue."
            queue = {p.rsplit(".", 1)[1]: v for p, v in key_paths(after) if p.startswith(prefix)}
            assert queue == CLASSIC_RED
        assert dict(key_paths(after))["flows[reno].max_window"] == window
        # a key the scenario does not set is not added: C2-R keeps its default queue
        assert not any(p.startswith("topology.links[C2-R].queue") for p in dict(key_paths(after)))
        # parts without the matched keys are left exactly as they were
        for fid in ("f1", "f2"):
            assert variant.figure(fid).parts[0].scenario(scale) == suite.figure(fid).parts[0].scenario(scale)
    assert reading.applies_to(tree_part()) and not reading.applies_to(suite.figure("f2").parts[0])


def test_a_setup_alternative_keeps_the_protocol_constructor_and_is_checked():
    old = Alternative("window", "tcp-reno", {"max_window": "4KB"}, "ref", "note")  # the positional form still works
    assert (old.protocol, dict(old.keys), old.ref, old.note, dict(old.setup)) == ("tcp-reno", {"max_window": "4KB"},
                                                                                  "ref", "note", {})
    with pytest.raises(ValueError, match="neither a protocol"):
        Alternative("nothing", ref="ref")
    suite = reno_suite()
    suite.alternatives = [*suite.alternatives, Alternative("typo", setup={"topology.bottleneck.qeue": {}}, ref="t")]
    with pytest.raises(ValueError, match="'topology.bottleneck.qeue' matches no key"):
        suite.validate()


def test_an_unrecorded_reading_may_name_a_setup_alternative():
    suite = reno_suite()
    suite.alternatives = [*suite.alternatives, NARROW]
    claim = dataclasses.replace(suite.claims[0], category=UnrecordedReading("the paper gives no capacity",
                                                                            ("narrow-link",)))
    assert problems(claim, suite) == []
    wrong = dataclasses.replace(claim, category=UnrecordedReading("the paper gives no capacity", ("narrow-lnk",)))
    assert problems(wrong, suite) == ["suite renos: claim S1: unrecorded reading: reading 'narrow-lnk' is not an "
                                      "alternative of the suite"]


def test_explore_runs_a_setup_alternative_and_reports_gains_and_costs(tmp_path):
    db = tmp_path / "db.duckdb"
    runs: dict[str, SuiteRun] = {}

    def run(s: Suite) -> SuiteRun:
        runs[s.name] = run_suite(s, "quick", db=db, out_dir=tmp_path / s.name, jobs=1, progress=False,
                                 log=lambda _: None)
        return runs[s.name]

    suite = reno_suite()
    suite.alternatives = [NARROW]
    suite.claims = [dataclasses.replace(c, alternatives=("narrow-link",) if c.id == "S1" else ()) for c in suite.claims]
    default = run(suite)
    assert {c.claim.id: c.status for c in default.claims} == {"S1": FAIL, "S2": PASS}
    trials = explore(default, run, log=lambda _: None)
    assert [t.name for t in trials] == ["narrow-link"]
    narrow = trials[0]
    assert [c.claim for c in narrow.gains] == ["S1"] and [c.claim for c in narrow.costs] == ["S2"]
    # Both figures set the bottleneck's bandwidth, so both ran again under the reading.
    assert [(f.parts[0].ran, f.parts[0].skipped) for f in runs["renos~narrow-link"].figures] == [(1, 0), (1, 0)]
    default.explored = trials
    page, claims = report.write_suite(default, tmp_path / "report")
    doc = json.loads(claims.read_text())
    assert doc["explore"][0]["gains"] == ["S1"] and doc["explore"][0]["costs"] == ["S2"]
    html = page.read_text()
    assert "topology.bottleneck.bandwidth = 2Mbps (test set-up row)" in html and "a bottleneck a fifth as wide" in html
