"""The DVRC suite as a whole: a set-up table with a source for every key its scenarios set, its
readings runnable and bearing on the claims whose figures they change, and every classification
sound (vidcc.papers.categories)."""

from __future__ import annotations

import pytest

from vidcc.papers import load_suite
from vidcc.papers.provenance import Ns2, setup_rows, unsourced


@pytest.fixture(scope="module")
def suite():
    return load_suite("dvrc")


def test_every_key_the_scenarios_set_has_a_source(suite):
    # Fails before the set-up table: the suite declared none (every key unsourced).
    assert unsourced(suite) == []


def test_the_tcp_and_tfrc_agents_are_ns2s_where_the_paper_is_silent(suite):
    rows = {r.path: r.source for f in suite.figures for r in setup_rows(suite, f, "full")}
    assert rows["flows[reno].initial_rto"] == Ns2("Agent/TCP rtxcur_init_", "3.0", rows["flows[reno].initial_rto"].note)
    assert isinstance(rows["flows[tfrc].q"], Ns2) and rows["flows[tfrc].q"].variable == "Agent/TFRC df_"


def _core(figure) -> dict:
    topology = figure.parts[0].scenario("quick")["topology"]
    return {(x["a"], x["b"]): x["bandwidth"] for x in topology["links"]}


def test_the_cross_traffic_core_is_as_wide_at_r1_as_at_r2_and_the_ssvp_suites_is_left(suite):
    # Fails before: the DVRC suite took the shared builder's R1–R2 of 5 Mbit/s, through which 40
    # plain UDP flows cannot make R2's queue overflow (Fig. 11b) and 50 base layers of 128 kbit/s
    # (6.4 Mbit/s) cannot pass. The SSVP suite keeps its own (the builder's default).
    from vidcc.papers import ssvp

    for fid in ("fig8-10", "fig11", "fig12-14"):
        assert _core(suite.figure(fid)) == {("R1", "R2"): "10Mbps", ("R2", "R3"): "10Mbps"}, fid
    assert _core(ssvp.SUITE.figure("fig13")) == {("R1", "R2"): "5Mbps", ("R2", "R3"): "10Mbps"}


def test_the_cross_traffic_capacity_reading_changes_only_r1_r2(suite):
    from vidcc.papers.explore import with_alternatives

    variant = with_alternatives(suite, [suite.alternative("r1-5m")])
    for fid in ("fig8-10", "fig11", "fig12-14"):
        assert _core(variant.figure(fid)) == {("R1", "R2"): "5Mbps", ("R2", "R3"): "10Mbps"}, fid
    # Only the cross-traffic figures: the S4 dumbbell is left as it is.
    assert variant.figure("fig15-16").parts[0].scenario("quick") == suite.figure("fig15-16").parts[0].scenario("quick")
    c22 = next(c for c in suite.claims if c.id == "C22")  # reads S3's runs (fig12-14) beside its own
    assert "r1-5m" in c22.alternatives


def test_sending_hosts_queue_as_ns2_and_the_old_bdp_is_a_reading(suite):
    # Fails before: every access link had the BDP queue (10 packets on S0/S1's 1 Mbit/s links), where
    # ns-2 gives a host's interface queue its default limit_ 50; the paper sizes only the routers'.
    from vidcc.papers import ns2
    from vidcc.papers.explore import with_alternatives
    from vidcc.papers.model import at_scale
    from vidcc.papers.provenance import key_paths

    def host_queues(s):
        out = {}
        for f in s.figures:
            for p in f.parts:
                for path, v in key_paths(at_scale(p.scenario("quick"), "quick")):
                    if path.endswith("access.queue.limit") or path in ("topology.links[DS-L].queue.limit",
                                                                        "topology.links[TS-L].queue.limit"):
                        out[(f.id, p.name, path)] = v
        return out

    now = host_queues(suite)
    assert {f for f, _, _ in now} == {f.id for f in suite.figures}  # every figure's senders
    assert set(now.values()) == {ns2.QUEUE_LIMIT}
    old = host_queues(with_alternatives(suite, [suite.alternative("bdp-host-queues")]))
    assert old.keys() == now.keys() and set(old.values()) == {"bdp"}


def test_forty_udp_flows_make_r2s_queue_overflow_through_r1_which_drops_their_excess(suite):
    # Fig. 11b (§5.2): with 40 plain UDP flows "UDP alone … results in rapidly growing queues and
    # eventually in buffer overflows" at R2, and R1 is "the bottleneck for MPEG traffic" (§4.1).
    # Fails before: through a 5 Mbit/s R1–R2 the UDP flows reach R2 at half its capacity and R2's
    # queue sits at its limit for about a quarter of the time only (the Reno flows' doing).
    import vidcc
    from vidcc import parse_scenario

    sc = suite.figure("fig11").part("udp").scenario("quick")
    sc["scenario"].update(duration="6s", warmup="2s", packet_log=False)
    out = vidcc.run(parse_scenario(sc, source="<dvrc fig11 udp>"), seed=1).tables
    links = out["links"].set_index("name")
    r2 = links.loc["R2->R3"]
    q = out["queue_samples"]
    q = q[(q["link"] == r2["link"]) & (q["t_ns"] >= 2_000_000_000)]["packets"]
    assert (q >= 0.9 * r2["queue_limit_packets"]).mean() >= 0.9
    assert links.loc["R1->R2", "dropped_queue"] > links.loc["R2->R3", "dropped_queue"] > 0
