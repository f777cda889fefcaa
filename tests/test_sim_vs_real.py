"""Sim-vs-real agreement (issue 12): one TFRC flow and one DVRC flow through a 2 Mbit/s, 40 ms
round-trip, 50-packet DropTail bottleneck, simulated (``vidcc.run``) and real (``vidcc run
--real``'s :func:`vidcc.real.run_real`: the same resolved scenario through ``vidcc-net link`` on
loopback). Mean throughput within 10 %, loss rate within a factor of 2, mean queueing delay within
20 %, all measured the same way on both runs' tables.

Duration: 20 s per flow, not the issue's 60 s. The issue's real-network tests must finish in
under 3 minutes together and the other real-network tests take about two; two 60-second real
runs would take four on their own. 20 s is long enough for each statistic: at 2 Mbit/s a run
carries ~4,700 packets (TFRC) to ~6,000 (DVRC); TFRC loses ~65 packets (its slow-start overshoot
and its later loss events), DVRC, whose video (3 Mbit/s at full quality) exceeds the link, ~10 %
of its packets; the mean queueing delay averages some 4,500 samples of a queue that fills and
drains every few seconds. The statistics are over the whole run, start-up included, as the
simulator's ``flow_summary`` reports them (TFRC's losses after its slow start are a handful in
20 s in either run: too few to compare on their own).

The relay sizes datagrams by the protocol's bytes (``--protocol-sizes``, which ``run_real``
sets), as the simulator sizes packets. Without it the driver's 32-byte envelope costs 3 % of the
link, and DVRC, whose 2 Mbit/s layer then no longer fits the link, lost 17 % of its packets
against the simulator's 9 % (measured; docs/real-network.md, "Sim vs real").
"""

from __future__ import annotations

import numpy as np
import pytest

from vidcc.net import NetError, find_binary
from vidcc.real import run_real
from vidcc.runner import run

DURATION_S = 20
LINK_BPS = 2_000_000
DELAY_NS = 20_000_000  # one way: 40 ms round trip


def _binary_or_build():
    import subprocess
    from pathlib import Path

    try:
        return find_binary()
    except NetError:
        root = Path(__file__).resolve().parent.parent
        subprocess.run(["cargo", "build", "--quiet", "-p", "vidcc-net"], cwd=root, check=True)
        return find_binary()


def scenario(protocol: str) -> dict:
    flow: dict = {"protocol": protocol}
    if protocol == "dvrc":
        # Six cumulative layers up to 3 Mbit/s: more than the link, so DVRC's controller (not the
        # video) sets the rate and the queue fills, as TFRC's does.
        flow["video"] = {"model": "cbr", "rate": "3Mbps", "playout_delay": "500ms",
                         "layers": ["500kbps", "1Mbps", "1.5Mbps", "2Mbps", "2.5Mbps", "3Mbps"]}
    return {
        "scenario": {"duration": f"{DURATION_S}s", "warmup": "0s", "seed": 1, "packet_log": True},
        "topology": {"kind": "dumbbell",
                     "bottleneck": {"bandwidth": "2Mbps", "delay": "20ms",
                                    "queue": {"kind": "droptail", "limit": 50}},
                     "access": {"bandwidth": "1Gbps", "delay": "0ms"}},
        "flows": [flow],
    }


def measure(result) -> dict[str, float]:
    """Mean throughput (protocol bytes arriving in (0, D], bit/s), loss rate (flow_summary's
    drop_rate: packets sent and never delivered over packets sent) and mean queueing delay
    (one-way delay minus propagation minus serialisation of the datagram on the link, over the
    delivered packets), from the run's own tables."""
    p = result.table("packets")
    arrival = p["arrival_ns"].to_numpy().astype(np.float64)
    sent = p["sent_ns"].to_numpy().astype(np.float64)
    size = p["size_bytes"].to_numpy().astype(np.float64)
    ok = arrival >= 0
    inside = ok & (arrival <= DURATION_S * 1e9)
    serialisation = size * 8 / LINK_BPS * 1e9
    queueing = (arrival - sent - DELAY_NS - serialisation)[ok]
    summary = result.records("flow_summary")[0]
    return {
        "throughput_bps": float(size[inside].sum() * 8 / DURATION_S),
        "loss_rate": float(summary["drop_rate"]),
        "queueing_ms": float(queueing.mean() / 1e6),
        "min_queueing_ms": float(queueing.min() / 1e6),
        "packets": int(ok.sum()),
    }


@pytest.mark.parametrize("protocol", ["tfrc", "dvrc"])
def test_simulated_and_real_runs_agree(protocol, monkeypatch):
    monkeypatch.setenv("VIDCC_NET_BIN", str(_binary_or_build()))
    sc = scenario(protocol)
    sim = measure(run(sc))
    real_result = run_real(sc)
    assert real_result.stats["real_network"] is True
    real = measure(real_result)
    print(f"{protocol}: sim {sim}\n{protocol}: real {real}\nlink {real_result.stats['link']}")
    # The real run's link did what the scenario says: it queued up to its limit and dropped.
    link = real_result.stats["link"]["forward"]
    assert link["max_queue_packets"] == 50
    assert link["dropped_queue"] > 0 and sim["loss_rate"] > 0
    # Sanity of the measure: an empty queue costs nothing beyond propagation and serialisation
    # (loopback and the relay's scheduling add well under a millisecond).
    assert -0.5 < real["min_queueing_ms"] < 2.0, real
    assert abs(real["throughput_bps"] / sim["throughput_bps"] - 1) <= 0.10, (sim, real)
    assert 0.5 <= real["loss_rate"] / sim["loss_rate"] <= 2.0, (sim, real)
    assert abs(real["queueing_ms"] / sim["queueing_ms"] - 1) <= 0.20, (sim, real)
