"""The QoS-AIMD suite's Fig. 2 topology as the paper describes it (§V: the cross TCP runs "over
r1–r2", whose RED routers make the backbone the bottleneck), and the ns-2 2.35 defaults the
suites take where their papers are silent (python/vidcc/papers/ns2.py)."""

import math

import pytest

import vidcc
from vidcc import parse_scenario
from vidcc.papers import ns2, qos_aimd


def fig6_run(n: int, duration: str = "6s"):
    """A short run of the Fig. 6 part at p_e = 0.1 with ``n`` TCP SACK elephants."""
    fig6 = next(f for f in qos_aimd.SUITE.figures if f.id == "fig6")
    sc = next(p for p in fig6.parts if p.name == "aimd-pe0.1").scenario("quick")
    sc["flows"][1]["count"] = n
    sc["scenario"].update(duration=duration, warmup="1s", packet_log=False)
    return vidcc.run(parse_scenario(sc, source="<fig6>"))


def test_fig6_at_100_flows_the_red_backbone_is_the_bottleneck_and_each_tcp_source_has_its_own_access_link():
    n = 100
    r = fig6_run(n)
    links = r.tables["links"]
    drops = links.assign(drops=links["dropped_queue"] + links["dropped_loss"])
    worst = drops.sort_values("drops", ascending=False).iloc[0]
    top = drops.sort_values("drops", ascending=False).head(3)[["name", "drops"]]
    assert (worst["src"], worst["dst"]) == ("r1", "r2"), top
    assert worst["drops"] > 0
    # Fails before the fix: one shared TS→r1 access link carried all the TCP sources.
    into_r1 = links[(links["dst"] == "r1") & (links["src"] != "r2")]
    assert len(into_r1) == n + 1, sorted(into_r1["src"])  # the CH's link and one per TCP source
    out_of_r2 = links[(links["src"] == "r2") & (links["dst"] != "r1")]
    assert len(out_of_r2) == n + 1, sorted(out_of_r2["src"])  # the BS's link and one per TCP sink


def test_ns2_red_auto_configuration_matches_what_ns_prints():
    """Reference values printed by ns-2 2.35 (``duplex-link $a $b 100Mb 35ms RED``, then the
    queue's thresh_, maxthresh_, q_weight_): 62.5, 187.5, 3.80510264218481e-05; at 1 ms the
    weight is 3.9999200010631952e-05 (the 100 ms floor on the assumed RTT)."""
    p = ns2.red_params(100e6, 0.035)
    assert p["min_thresh"] == 62.5 * 500 and p["max_thresh"] == 187.5 * 500
    assert math.isclose(p["weight"], 3.80510264218481e-05, rel_tol=1e-12)
    assert math.isclose(ns2.red_params(100e6, 0.001)["weight"], 3.9999200010631952e-05, rel_tol=1e-12)
    assert ns2.red(100e6, 0.035)["limit"] == "25000B"  # limit_ 50 × mean_pktsize_ 500 in byte mode
    # A slow link: targetdelay_ · ptc / 2 < 5 packets, so thresh_ stays at 5 (ns prints 5 and 15).
    slow = ns2.red_params(1.5e6, 0.1)
    assert (slow["min_thresh"], slow["max_thresh"]) == (2500, 7500)


@pytest.mark.parametrize("size, window", [(1250, "25000B"), (1040, "20800B")])
def test_ns2_tcp_keys_are_a_twenty_packet_window(size, window):
    keys = ns2.tcp_keys(size)
    assert keys == {"max_window": window, "initial_window": 2, "min_rto": "200ms", "initial_rto": "3s",
                    "delayed_ack": False}


def test_the_target_flows_minimum_rtt_is_the_papers_85_ms():
    """§V: "The minimal rtt for the target flow is 85 ms" (17 slots of 5 ms). The AIMD flow starts
    with one packet and sends its second when the first one's ack is back: that gap is its
    minimum round trip. Fails with the old 35 ms backbone delay (82.64 ms)."""
    fig6 = next(f for f in qos_aimd.SUITE.figures if f.id == "fig6")
    sc = next(p for p in fig6.parts if p.name == "aimd-pe0.1").scenario("quick")
    sc["flows"] = sc["flows"][:1]  # the AIMD flow alone
    sc["scenario"].update(duration="1s", warmup="0s", packet_log=True)
    packets = vidcc.run(parse_scenario(sc, source="<fig6>")).tables["packets"]
    first_two = packets[packets["flow"] == 0].sort_values("seq").head(2)["sent_ns"].to_numpy()
    assert first_two[0] == 0
    assert first_two[1] / 1e6 == pytest.approx(85.0, abs=0.01)
