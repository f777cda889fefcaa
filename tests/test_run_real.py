"""``vidcc run --real``: a dumbbell scenario with two flows run with real processes on loopback
through one emulated link (python/vidcc/real.py), stored in the results database as a simulated
run is, and marked real. Scenarios a real run cannot emulate are refused with the key named."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from vidcc.net import NetError, find_binary
from vidcc.real import link_arguments, run_real
from vidcc.runner import as_scenario

ROOT = Path(__file__).resolve().parent.parent

SCENARIO = """
[scenario]
duration = "6s"
warmup = "0s"
seed = 3

[topology]
kind = "dumbbell"
bottleneck = { bandwidth = "2Mbps", delay = "10ms", queue = { kind = "droptail", limit = 50 } }
access = { bandwidth = "100Mbps", delay = "5ms" }

[[flows]]
protocol = "udp-cbr"
rate = "500kbps"

[[flows]]
protocol = "tcp-newreno"
start = "1s"
"""


def _env() -> dict[str, str]:
    try:
        binary = find_binary()
    except NetError:
        subprocess.run(["cargo", "build", "--quiet", "-p", "vidcc-net"], cwd=ROOT, check=True)
        binary = find_binary()
    return {**os.environ, "VIDCC_NET_BIN": str(binary),
            "PYTHONPATH": os.pathsep.join([str(ROOT / "python"), os.environ.get("PYTHONPATH", "")])}


def test_a_real_run_shares_one_link_and_is_stored_as_real(tmp_path):
    (tmp_path / "two.toml").write_text(SCENARIO, encoding="utf-8")
    p = subprocess.run([sys.executable, "-m", "vidcc.cli", "run", "--real", "two.toml", "--db", "db/v.duckdb",
                        "--no-figures", "--quiet"], cwd=tmp_path, env=_env(), capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "not the operating system's TCP" in p.stderr  # said, not hidden
    summary = json.loads((tmp_path / "out/two/summary.json").read_text(encoding="utf-8"))
    assert summary["stats"]["real_network"] is True
    flows = {f["label"]: f for f in summary["flows"]}
    assert [f["flow"] for f in summary["flows"]] == [0, 1]
    assert flows["tcp-newreno"]["start_ns"] == 1_000_000_000
    link = summary["stats"]["link"]["forward"]
    # Both flows crossed the one link: it carried every packet either receiver got, and the
    # TCP model filled its queue (drops) while the CBR flow kept its rate.
    delivered = sum(f["delivered_packets"] for f in summary["flows"])
    assert link["forwarded"] >= delivered > 0
    assert link["max_queue_packets"] == 50 and link["dropped_queue"] > 0
    assert flows["udp-cbr"]["throughput_bps"] > 0.8 * 500_000
    # Together they use the link (the TCP model from 1 s: 5/6 of the run).
    assert flows["tcp-newreno"]["throughput_bps"] > 0.5 * (2_000_000 - 500_000) * 5 / 6

    from vidcc import results

    runs = results.load(tmp_path / "db/v.duckdb", "runs", sweep="real")
    assert len(runs) == 1
    row = runs.iloc[0]
    assert row["status"] == "ok" and row["run_id"].startswith("real-") and row["worker"].startswith("real-network:")
    assert json.loads(row["stats_json"])["real_network"] is True
    assert row["scenario_id"] is None or row["scenario_id"] != row["scenario_id"]  # NULL: supersedes no sim run
    stored = results.load(tmp_path / "db/v.duckdb", "run_flows")
    assert sorted(stored["label"]) == ["tcp-newreno", "udp-cbr"]
    assert (tmp_path / "db/runs" / row["run_id"] / "packets.parquet").exists()


def _dumbbell(**bottleneck) -> dict:
    bottleneck = {"queue": {"kind": "droptail", "limit": 50}, **bottleneck}
    return {"scenario": {"duration": "2s"},
            "topology": {"kind": "dumbbell", "bottleneck": {"bandwidth": "2Mbps", "delay": "10ms", **bottleneck},
                         "access": {"bandwidth": "100Mbps", "delay": "1ms"}},
            "flows": [{"protocol": "tfrc"}]}


def test_the_link_is_the_scenarios_bottleneck_with_the_access_delays():
    args = link_arguments(as_scenario(_dumbbell(queue={"kind": "red", "limit": 30},
                                                loss={"kind": "bernoulli", "p": 0.01})).resolve(None))
    assert args[args.index("--delay") + 1] == "12000000ns"  # 10 ms + 2 × 1 ms per direction
    assert args[args.index("--queue") + 1] == "30" and "--red" in args
    assert args[args.index("--loss") + 1] == "bernoulli:p=0.01"


@pytest.mark.parametrize(("change", "words"), [
    (lambda d: d.update(topology={"kind": "chain", "hops": 2, "link": {"bandwidth": "1Mbps", "delay": "10ms"},
                                  "access": {"bandwidth": "10Mbps", "delay": "1ms"}}), "topology.kind"),
    (lambda d: d["topology"]["bottleneck"].update(queue={"kind": "droptail", "limit": "bdp"}), "queue.limit"),
    (lambda d: d["flows"][0].update(count=5), "at most 4"),
    (lambda d: d["topology"]["access"].update(bandwidth="1Mbps"), "source_access.bandwidth"),
])
def test_what_a_real_run_cannot_emulate_is_refused_by_name(change, words):
    doc = _dumbbell()
    change(doc)
    sc = as_scenario(doc)  # a valid scenario: the simulator would run it
    with pytest.raises(NetError, match=words.replace(".", r"\.")):
        run_real(sc)
