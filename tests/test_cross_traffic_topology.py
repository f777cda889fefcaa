"""The cross-traffic topology of the DVRC and SSVP papers (DVRC Fig. 5a, SSVP Fig. 6b), built once
for both suites (python/vidcc/papers/cross_traffic.py): "The router R1 is the bottleneck for MPEG
traffic, while the router R2 is another bottleneck for competing MPEG and cross traffic" (DVRC
§4.1), with drop-tail buffers of one bandwidth-delay product (both papers)."""

import vidcc
from vidcc import parse_scenario
from vidcc.papers import cross_traffic, dvrc, ssvp


def _part(suite, figure, part):
    fig = next(f for f in suite.SUITE.figures if f.id == figure)
    return next(p for p in fig.parts if p.name == part).scenario("quick")


def test_both_suites_build_the_figure_from_the_one_reconstruction():
    # The DVRC suite passes its own R1–R2 capacity (its paper's text asks for one as wide as R2–R3,
    # docs/papers/dvrc.md §3.1); everything else is the one builder's.
    from vidcc.papers.dvrc.scenarios import R1_R2

    ours = {ssvp: cross_traffic.topology(), dvrc: cross_traffic.topology(r1_r2=R1_R2)}
    parts = ((ssvp, "fig13", "ssvp"), (ssvp, "fig12", "tfrc"), (dvrc, "fig11", "dvrc"), (dvrc, "fig8-10", "tfrc"))
    for suite, figure, part in parts:
        sc = _part(suite, figure, part)
        assert sc["topology"] == ours[suite], (suite.__name__, figure)
        mpeg, tcp = sc["flows"][0], sc["flows"][1]
        assert (mpeg["src"], mpeg["dst"]) == ("R1", "R3") and (tcp["src"], tcp["dst"]) == ("R2", "R3")
        # No queue is set by hand: every router buffer is the bandwidth-delay product [P].
        assert all("queue" not in link for link in sc["topology"]["links"])


def test_in_a_short_run_r1_drops_the_mpeg_flows_excess_and_r2_is_a_second_bottleneck():
    # Fails before the fix: the SSVP suite's R1–R2 (10 Mbit/s) was wider than its R2–R3 (5 Mbit/s),
    # so R1→R2 dropped nothing and R2 was the only bottleneck of the MPEG flows.
    sc = _part(ssvp, "fig13", "ssvp")  # 40 SSVP flows and 10 FTP flows
    sc["scenario"].update(duration="6s", warmup="1s", packet_log=False)
    links = vidcc.run(parse_scenario(sc, source="<ssvp fig13>"), seed=1).tables["links"].set_index("name")
    drops = links["dropped_queue"]
    r1, r2 = drops[cross_traffic.MPEG_BOTTLENECK], drops[cross_traffic.SHARED_BOTTLENECK]
    assert drops.idxmax() == "R1->R2", drops.sort_values(ascending=False).head(3)
    assert r1 > 0 and r2 > 0  # R1→R2 carries only MPEG packets; R2→R3 drops MPEG and FTP packets
    # BDP buffers: capacity × the largest propagation RTT of the flows crossing the link.
    assert links.loc["R1->R2", "queue_limit_packets"] != links.loc["R2->R3", "queue_limit_packets"]


def test_every_tcp_flow_of_both_suites_is_ns2s_agent_where_the_papers_are_silent():
    # Fails before the fix: initial RTO 1 s (vidcc's default) and 8 ms / 800 µs of send jitter
    # where ns-2 2.35 has rtxcur_init_ 3.0 and overhead_ 0; the 64 kB window is the papers' own.
    from vidcc.papers import ns2
    from vidcc.papers.model import at_scale

    seen = 0
    for suite in (dvrc, ssvp):
        for fig in suite.SUITE.figures:
            for part in fig.parts:
                for f in at_scale(part.base, "quick")["flows"]:
                    if f["protocol"] in ("tcp-reno", "tcp-westwood-plus"):
                        seen += 1
                        assert f.get("initial_rto") == ns2.TCP_INITIAL_RTO, (suite.__name__, fig.id, part.name)
                        assert "send_jitter" not in f and "max_window" not in f, (suite.__name__, fig.id, part.name)
    assert seen > 20
