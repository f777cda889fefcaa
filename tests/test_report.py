"""report.html (self-contained) and claims.json of a reproduction."""

from __future__ import annotations

import base64
import json
import re

import pytest

from test_reproduce import tiny_suite
from vidcc import __version__, report
from vidcc.papers.model import FAIL, NOT_YET, PASS, UNSTABLE
from vidcc.papers.running import run_suite


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("report")
    run = run_suite(tiny_suite(), "quick", db=tmp / "db.duckdb", out_dir=tmp / "out", jobs=1, progress=False, log=lambda s: None)
    page, claims = report.write_suite(run, tmp / "out")
    return run, page, claims


def _refs(html: str) -> list[str]:
    return re.findall(r"""(?:src|href)\s*=\s*["']([^"']*)["']""", html)


def test_claims_json_has_every_claim_with_its_numbers(tiny_run):
    run, _, claims = tiny_run
    doc = json.loads(claims.read_text())
    assert {k: doc[k] for k in ("paper", "scale", "vidcc_version")} == {"paper": "tiny", "scale": "quick", "vidcc_version": __version__}
    assert doc["summary"] == {PASS: 1, FAIL: 2, UNSTABLE: 0, NOT_YET: 2}
    by_id = {c["id"]: c for c in doc["claims"]}
    assert list(by_id) == ["T1", "T2", "T3", "T4", "T5"]
    t1 = by_id["T1"]
    assert t1["status"] == PASS and t1["kind"] == "baseline" and t1["figure"] == "f1" and t1["protocols"] == ["tcp-reno"]
    # the two cells' values, and the cell count the explanation prints ("in all 2 cells")
    assert set(t1["measured"]) == {"Jain[n=2,label=reno]", "Jain[n=4,label=reno]", "Jain: cells"}
    assert t1["measured"]["Jain: cells"] == 2
    assert all(0.5 <= v <= 1.0 for k, v in t1["measured"].items() if k.startswith("Jain["))
    assert by_id["T2"]["status"] == FAIL and by_id["T2"]["measured"] and "1.5" in by_id["T2"]["explanation"]
    assert by_id["T3"]["status"] == NOT_YET and by_id["T3"]["measured"] == {} and "no-such-protocol" in by_id["T3"]["explanation"]
    fig = doc["figures"][0]
    assert fig["status"] == "partial" and fig["images"] == ["f1-nt.png", "f1-rate.png"]
    parts = {p["name"]: p for p in fig["parts"]}
    assert parts["reno"]["runs"] == 4 and parts["reno"]["axes"] == {"n": [2, 4]} and parts["reno"]["seeds"] == [1, 2]
    assert parts["future"]["status"] == "not-yet" and parts["future"]["reasons"]


def test_report_html_is_self_contained_and_names_every_claim(tiny_run):
    run, page, _ = tiny_run
    html = page.read_text()
    assert html.startswith("<!DOCTYPE html>")
    refs = _refs(html)
    assert all(r.startswith(("data:", "#")) for r in refs)
    assert "<script" not in html and "<link" not in html and "url(" not in html
    for cid in ("T1", "T2", "T3", "T4", "T5"):
        assert f">{cid}<" in html
    # Summary count at the top, before the first figure.
    top = html[: html.index("<h3")]
    assert re.search(r'badge PASS">PASS</span>1 .*badge FAIL">FAIL</span>2 .*badge NOT-YET">NOT-YET</span>2', top)
    # Figures embedded as PNG (decodable) with their SVG as a data: link.
    pngs = re.findall(r"src='data:image/png;base64,([^']+)'", html)
    assert len(pngs) == 2 and all(base64.b64decode(p)[:4] == b"\x89PNG" for p in pngs)
    assert html.count("href='data:image/svg+xml;base64,") == 2
    # Text from suites is escaped.
    assert "A tiny &lt;figure&gt;" in html and "Reno flows &amp; a protocol" in html
    # What was run: the parts with their status.
    assert "no-such-protocol" in html and "not-yet" in html


def test_combined_report_of_several_papers(tiny_run, tmp_path):
    run, _, _ = tiny_run
    page, claims = report.write_all([run, run], tmp_path, "quick")
    doc = json.loads(claims.read_text())
    assert doc["paper"] == "all" and doc["summary"] == {PASS: 2, FAIL: 4, UNSTABLE: 0, NOT_YET: 4} and len(doc["papers"]) == 2
    html = page.read_text()
    assert all(r.startswith(("data:", "#")) for r in _refs(html))
    assert "(10 claims)" in html
