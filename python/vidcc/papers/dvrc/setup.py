"""Where every value of the DVRC suite's scenarios comes from: the paper (§ and its words), ns-2
2.35's default (the paper ran ns-2, §4.1), or our reconstruction and why
(:mod:`vidcc.papers.provenance`).

The first matching row wins, so rows limited to some figures come before the general ones. The
paper sets more than most (capacities, the 70 ms dumbbell, BDP buffers, 1000 B packets, the 64 kB
window, the error model, the 2 s warm-up); where it is silent the TCP and TFRC agents are ns-2
2.35's. The sending hosts' interface queues, which the paper does not size, are ns-2's default
(Queue limit_ 50); the suite's earlier BDP there is the set-up reading ``bdp-host-queues``
(``readings.py``).
"""

from __future__ import annotations

from vidcc.papers.provenance import Ns2, Paper, Reconstruction, SetupKey

S0, S1, S2, S2C, S2Q, S3, S4, S5, S6 = ("fig3",), ("fig6",), ("fig8-10",), ("fig10c",), ("fig11",), ("fig12-14",), \
    ("fig15-16",), ("fig17",), ("fig18-20",)
CROSS = (*S2, *S2Q, *S3)  # the cross-traffic topology (papers/cross_traffic.py)
DUMBBELL_1M = (*S0, *S1)
MULTIHOP = (*S5, *S6)

_DUMBBELL = Paper("§4.1", "a single-bottleneck dumbbell topology with a round-trip link delay of 70 ms")
_BDP = Paper("§4.1", "the routers are drop-tail with buffer size adjusted in accordance with the bandwidth-delay "
                     "product")
_ONE_MBIT = Paper("§5.1", "the dumbbell topology, where all link capacities are set to 1 Mbps")
_CROSS = Paper("§4.1", "The router R1 is the bottleneck for MPEG traffic, while the router R2 is another bottleneck "
                       "for competing MPEG and cross traffic")
_ACCESS = Paper("§4.1", "The propagation delays of the access links from all the source nodes, as well as the links to "
                        "the TCP sink nodes range from 5 ms to 15 ms, while the corresponding bandwidth capacities "
                        "range from 2 Mbps to 10 Mbps")
_MPEG_SINK = Paper("§4.1", "The capacity of all access links to the MPEG sink nodes is set to 2 Mbps")
_ERRORS = Paper("§4.1", "we used a link error model in the access links to the MPEG sink nodes. Error models were "
                        "configured on both directions of the link traffic ... correlated Bernoulli model ... p = 0.01 "
                        "and q = 0.15")
_S2_FLOWS = Paper("§5.2", "We simulated a wide range of MPEG flows (1–50) of (i) DVRC, (ii) TFRC, and (iii) TCP "
                          "Westwood+ competing with 10 FTP connections of TCP Reno")
_S3_FLOWS = Paper("§5.3", "1–50 MPEG flows competing with 15 TCP (5 in the forward and 10 in the reverse direction) "
                          "and 10 UDP flows. The peak sending rates for UDP flows range from 64 to 256 kbps")
_S4 = Paper("§5.4", "a diverse range of MPEG flows (1–50) ... DVRC and TFRC competing with TCP Reno ... the dumbbell "
                    "topology configuring all link capacities at 10 Mbps ... experiments with 20 and 40 TCP "
                    "connections")
_S5 = Paper("§5.5", "one MPEG flow of DVRC traversing through all hops ranging from 1 to 10. The capacity bw of the "
                    "links between the routers was set to 1 Mbps")
_S6 = Paper("§5.5", "diverse main MPEG connections (1–50) running over DVRC, TFRC and RTCP on top of UDP ... The "
                    "capacity of the links between the routers was set to 10 Mbps and the number of hops was fixed "
                    "at 5")
_PER_HOP = Paper("§4.1", "each hop is used by two TCP connections, one in the forward and one in the backward "
                         "direction of the main traffic")
_FULL_QUALITY = Paper("§5.3", "DVRC and RTCP/UDP utilize layered adaptation, while TFRC transfers MPEG streams at "
                              "optimal quality")
_TCP_AGENT = "the paper sets only the 64 kB window (§4.1); the rest of Reno (and TCPW+) is ns-2's Agent/TCP"
_TFRC_AGENT = ("the paper ran ns-2's TFRC and sets none of its parameters: ns-2 2.35's Agent/TFRC (tfrc.cc), "
               "which has no variable for this (vidcc.protocols.tfrc.NS2_AGENT)")

SETUP = [
    # ---------------------------------------------------------------- run length, warm-up, sampling
    SetupKey("scenario.duration", Paper("§5.5", "The DVRC flow joins the network after 10 s and competes with TCP "
                                                "traffic for the remaining 190 s"), figures=S5),
    SetupKey("scenario.duration", Reconstruction(
        "the paper gives a length only for Fig. 17 (200 s): 200 s everywhere at full scale; quick scale 20 s (S0, S1 "
        "30 s; S5 60 s), a scale-down")),
    SetupKey("scenario.warmup", Reconstruction(
        "the paper's 2 s ('All the results are collected after 2 s', §4.1) after the DVRC flow's join at 10 s: 12 s"),
        figures=S5),
    SetupKey("scenario.warmup", Paper("§4.1", "All the results are collected after 2 s in order to avoid the skew "
                                              "introduced by the startup effect")),
    SetupKey("scenario.packet_log", Reconstruction("a simulator switch: the packet log C4 reads inter-arrival times "
                                                   "from (no effect on the traffic)")),
    SetupKey("scenario.queue_sample_interval", Reconstruction(
        "Fig. 11 plots the instantaneous queue with no stated period: a sample every 10 ms (no effect on the "
        "traffic)")),
    # ---------------------------------------------------------------- topologies
    SetupKey("topology.kind", Reconstruction("the simulator's form of each topology the paper describes (dumbbell, "
                                             "graph, chain)")),
    SetupKey("topology.links[*].monitor", Reconstruction("a simulator switch (which links the run records): no "
                                                         "effect on the traffic")),
    # Sending hosts' queues: the paper sizes the routers' buffers only.
    *[SetupKey(p, Ns2("Queue limit_", "50", "packets: a sending host's interface queue, which the paper does not size "
                                            "('the routers are drop-tail with buffer size adjusted in accordance with "
                                            "the bandwidth-delay product', §4.1); reading bdp-host-queues: the BDP"))
      for p in ("*access.queue.limit", "topology.links[DS-L].queue.limit", "topology.links[TS-L].queue.limit")],
    *[SetupKey(p, Reconstruction("a host's interface queue is of the type the script gives the link: drop-tail, as "
                                 "the paper's routers ('the routers are drop-tail', §4.1)"))
      for p in ("*access.queue.kind", "topology.links[DS-L].queue.kind", "topology.links[TS-L].queue.kind")],
    # S0 (Fig. 3): the 1 Mbit/s dumbbell as a graph, so that only the DVRC receiver's link has errors.
    SetupKey("topology.nodes", Reconstruction(
        "Fig. 3's set-up as a graph: DVRC and TCP sources (DS, TS), the two routers (L, R), their receivers (DD, TD), "
        "so that the 3 % errors sit on the DVRC receiver's link only"), figures=S0),
    SetupKey("topology.links[*].a", Reconstruction("Fig. 3's graph (see topology.nodes)"), figures=S0),
    SetupKey("topology.links[*].b", Reconstruction("Fig. 3's graph (see topology.nodes)"), figures=S0),
    SetupKey("topology.links[*].bandwidth", Paper("§3.2", "an AIAMD flow shares a 1 Mbps bottleneck link with one TCP "
                                                          "flow"), figures=S0),
    SetupKey("topology.links[L-R].delay", Reconstruction(
        "70 ms round trip (§4.1) split as 5 ms per access link and 25 ms on the bottleneck (the paper gives only the "
        "round trip)"), figures=S0),
    SetupKey("topology.links[*].delay", Reconstruction("5 ms per access link: the 70 ms round trip of §4.1 with a "
                                                       "25 ms bottleneck"), figures=S0),
    SetupKey("topology.links[*].queue.kind", _BDP),
    SetupKey("topology.links[*].queue.limit", Reconstruction(
        "the bandwidth-delay product (§4.1) of 1 Mbit/s × 70 ms is 8.75 packets: at least 10 packets"), figures=S0),
    SetupKey("topology.links[R-DD].loss.*", Paper("§3.2", "simulated random loss with 3% packet error rate"),
             figures=S0),
    # S1, S2c, S4: dumbbells.
    SetupKey("topology.bottleneck.*", Reconstruction(
        "Fig. 10c's topology is lost; 'only varying MPEG flows without cross TCP traffic and link errors ... flow RTTs "
        "vary significantly' (§5.2): Fig. 5a's path folded into one 10 Mbit/s, 20 ms bottleneck with a BDP buffer"),
        figures=S2C),
    SetupKey("topology.bottleneck.bandwidth", _ONE_MBIT, figures=S1),
    SetupKey("topology.access.bandwidth", _ONE_MBIT, figures=S1),
    SetupKey("topology.bottleneck.bandwidth", _S4, figures=S4),
    SetupKey("topology.access.bandwidth", _S4, figures=S4),
    SetupKey("topology.bottleneck.delay", Reconstruction(
        "70 ms round trip (§4.1) split as 5 ms per access link and 25 ms on the bottleneck")),
    SetupKey("topology.access.delay", Reconstruction(
        "5 ms per access link: the 70 ms round trip of §4.1 with a 25 ms bottleneck"), figures=(*S1, *S4)),
    SetupKey("topology.bottleneck.queue.kind", _BDP),
    SetupKey("topology.bottleneck.queue.limit", Reconstruction(
        "the bandwidth-delay product (§4.1) at 70 ms: 1 Mbit/s → 8.75, at least 10 packets (S1); 10 Mbit/s → 88 "
        "packets (S4)")),
    SetupKey("topology.access.bandwidth", _ACCESS, figures=S2C),
    SetupKey("topology.access.delay", Reconstruction(
        "'flow RTTs vary significantly' (§5.2) with no range: source and sink access delays U[5, 100] ms"),
        figures=S2C),
    SetupKey("topology.sink_access.bandwidth", _MPEG_SINK, figures=S2C),
    # S2, S2q, S3: the cross-traffic topology, shared with the SSVP suite.
    SetupKey("topology.nodes", _CROSS, figures=CROSS),
    SetupKey("topology.links[*].a", _CROSS, figures=CROSS),
    SetupKey("topology.links[*].b", _CROSS, figures=CROSS),
    SetupKey("topology.links[*].bandwidth", Reconstruction(
        "Fig. 5a is lost and the text gives no core capacity: R2–R3 10 Mbit/s (a 256 kbit/s Pareto peak is 'up to "
        "2.5 % of the bottleneck bandwidth', §5.3); R1–R2 as wide, 10 Mbit/s: 40 plain UDP flows make R2's queue "
        "overflow (Fig. 11b), which they reach only through R1, and 50 DVRC flows' base layers (6.4 Mbit/s) must pass "
        "R1 (§5.3, §5.4); R1 is 'the bottleneck for MPEG traffic' (§4.1) whenever the MPEG flows offer more than "
        "10 Mbit/s (scenarios.py; the SSVP suite's 5 Mbit/s is the reading r1-5m)"), figures=CROSS),
    SetupKey("topology.links[*].delay", Reconstruction("Fig. 5a is lost: 10 ms per core link"), figures=CROSS),
    SetupKey("flows[*].source_access.*", _ACCESS, figures=CROSS),
    SetupKey("flows[reno*].sink_access.*", _ACCESS, figures=CROSS),
    SetupKey("flows[pareto].sink_access.*", Reconstruction(
        "the Pareto UDP sinks are placed like the TCP sinks (§4.1's ranges); the paper does not say where they sit"),
        figures=CROSS),
    SetupKey("flows[*].sink_access.bandwidth", _MPEG_SINK, figures=CROSS),
    SetupKey("flows[*].sink_access.delay", Reconstruction(
        "the MPEG sinks' access delay is not given: the range of the other access links, U[5, 15] ms (§4.1)"),
        figures=CROSS),
    SetupKey("flows[*].sink_access.*loss.*", _ERRORS, figures=CROSS),
    SetupKey("flows[*].src", _CROSS, figures=CROSS),
    SetupKey("flows[*].dst", _CROSS, figures=CROSS),
    # S5, S6: the multi-hop chain.
    SetupKey("topology.hops", _S5, figures=S5),
    SetupKey("topology.hops", _S6, figures=S6),
    SetupKey("topology.link.bandwidth", _S5, figures=S5),
    SetupKey("topology.link.bandwidth", _S6, figures=S6),
    SetupKey("topology.link.delay", Reconstruction("Fig. 5c is lost: 10 ms per hop"), figures=MULTIHOP),
    SetupKey("topology.access.*", Reconstruction(
        "Fig. 5c is lost and the text gives no access link: 10 Mbit/s, 5 ms, wider than every hop"), figures=MULTIHOP),
    SetupKey("flows[reno-*].span", _PER_HOP, figures=MULTIHOP),
    SetupKey("flows[reno-backward].direction", _PER_HOP, figures=MULTIHOP),
    # ---------------------------------------------------------------- flows
    SetupKey("flows[*].src", Reconstruction("Fig. 3's graph: each source to its own receiver (see topology.nodes)"),
             figures=S0),
    SetupKey("flows[*].dst", Reconstruction("Fig. 3's graph: each source to its own receiver (see topology.nodes)"),
             figures=S0),
    SetupKey("flows[dvrc].start", Paper("§5.5", "The DVRC flow joins the network after 10 s"), figures=S5),
    SetupKey("flows[*].start", Reconstruction(
        "start times are not given; 'By randomizing RTTs, we avoid synchronization effects' (§4.1): every MPEG flow "
        "starts at U[0, 480 ms] (one GOP), so that equal access delays do not line up the flows' frames")),
    SetupKey("flows[*].video.model", Paper("§4.1", "The model developed is based on Transform Expand Sample (TES). We "
                                                   "used three separate TES models for I, P, and B frames")),
    SetupKey("flows[dvrc-k4].video.layers", Reconstruction(
        "§5.2's 4 layers have no rates (Fig. 4 is lost): the 5-layer vector without its 768 kbit/s step, so the base "
        "layer and full quality stay 128 and 1024 kbit/s")),
    SetupKey("flows[*].video.layers", Reconstruction(
        "'a base plus four enhancement layers (i.e., k = 5)' (§4.1) with no rates (Fig. 4 is lost): cumulative 128, "
        "256, 512, 768, 1024 kbit/s; TFRC, TCPW+ and plain UDP send all five ('optimal quality', §5.3)")),
    SetupKey("flows[*].count", _S2_FLOWS, figures=(*S2, *S2C)),
    SetupKey("flows[udp].count", Paper("§5.2", "traces of the queue-length of router R2 (Fig. 11) in the presence of "
                                               "40 MPEG flows"), figures=S2Q),
    SetupKey("flows[dvrc].count", Paper("§5.2", "traces of the queue-length of router R2 (Fig. 11) in the presence of "
                                                "40 MPEG flows"), figures=S2Q),
    SetupKey("flows[reno].count", _S2_FLOWS, figures=S2Q),
    SetupKey("flows[*].count", _S3_FLOWS, figures=S3),
    SetupKey("flows[reno].count", Paper("§5.1", "a single MPEG flow over DVRC competing with two FTP flows of TCP "
                                                "Reno"), figures=S1),
    SetupKey("flows[*].count", _S4, figures=S4),
    SetupKey("flows[*].count", _S6, figures=S6),
    SetupKey("flows[pareto].rate", Reconstruction(
        "'The peak sending rates for UDP flows range from 64 to 256 kbps' (§5.3): ten peaks evenly spaced over that "
        "range"), figures=S3),
    SetupKey("flows[pareto].packet_size", Paper("§4.1", "with the exception of UDP flows in the reverse-traffic "
                                                        "topology which have 250 bytes packet size"), figures=S3),
    SetupKey("flows[udp].*", Paper("§5.2", "UDP alone (i.e., without any supporting end-to-end protocol such as DVRC "
                                           "or RTCP) results in rapidly growing queues"), figures=S2Q),
    SetupKey("flows[*].protocol", Paper("§5", "we compare DVRC with TRFC, TCP Westwood+, and RTCP/UDP ... FTP "
                                              "connections of TCP Reno")),
    SetupKey("flows[*].label", Reconstruction("the name the checks read each flow by (no effect on the traffic)")),
    # ---------------------------------------------------------------- TCP agents (Reno, TCPW+)
    SetupKey("flows[*].initial_window", Ns2("Agent/TCP windowInit_", "2", "packets; " + _TCP_AGENT)),
    SetupKey("flows[*].min_rto", Ns2("Agent/TCP minrto_", "0.2", "s; " + _TCP_AGENT)),
    SetupKey("flows[*].initial_rto", Ns2("Agent/TCP rtxcur_init_", "3.0", "s; " + _TCP_AGENT)),
    SetupKey("flows[*].delayed_ack", Reconstruction(
        "ns-2's plain Agent/TCPSink acknowledges every segment (delayed ACKs are the separate Agent/TCPSink/DelAck): "
        "none; " + _TCP_AGENT)),
    # ---------------------------------------------------------------- TFRC agent (ns-2 2.35's Agent/TFRC)
    SetupKey("flows[tfrc].q", Ns2("Agent/TFRC df_", "0.95", "the RTT filter's weight")),
    SetupKey("flows[tfrc].q2", Ns2("Agent/TFRC df_", "0.95", "df_ also smooths sqrtrtt_ for ca_")),
    SetupKey("flows[tfrc].oscillation_prevention", Ns2("Agent/TFRC ca_", "1")),
    SetupKey("flows[tfrc].initial_rate", Ns2("Agent/TFRC rate_init_option_", "2",
                                             "RFC 3390's initial window of 4 packets per RTT")),
    SetupKey("flows[tfrc].tcp_tick", Ns2("Agent/TFRC tcp_tick_", "0.1", "s: the granularity of tzero_")),
    SetupKey("flows[tfrc].ndupack", Ns2("Agent/TFRCSink numPkts_", "1")),
    SetupKey("flows[tfrc].history_discounting", Ns2("Agent/TFRCSink discount_", "1")),
    SetupKey("flows[tfrc].discount_threshold", Ns2("Agent/TFRCSink minDiscountRatio_", "0.5")),
    SetupKey("flows[tfrc].rules", Reconstruction(_TFRC_AGENT + ": tfrc.cc's slow-start, increase, decrease and "
                                                 "no-feedback rules, InitRate_ 300")),
    SetupKey("flows[tfrc].t_rto", Reconstruction(_TFRC_AGENT + ": tzero_ is TCP's RTO estimate")),
    SetupKey("flows[tfrc].nofeedback_rtts", Reconstruction(_TFRC_AGENT + ": the no-feedback timer is "
                                                           "max(2·rtt_, 2·size_/rate_)")),
]
