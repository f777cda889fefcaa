"""Where every value of the SRAMT suite's scenarios comes from: the paper (§ and its words), ns-2
2.35's default (the paper ran ns-2, §8), or our reconstruction and why (:mod:`vidcc.papers.provenance`).

The first matching row wins, so rows limited to some figures come before the general ones.
Where the paper is silent the value is ns-2 2.35's default (RED's parameters, droptail's limit,
the Tahoe agents' window, RTO and packet size, the background generators' packet size); the
suite's earlier reconstructions of those are set-up readings for ``--explore`` (``readings.py``).
"""

from __future__ import annotations

from vidcc.papers.provenance import Ns2, Paper, Reconstruction, SetupKey

A = ("fig4-6", "fig7-9", "fig4-9-baselines")  # Scenario A's topology
B = ("fig11", "fig12", "fig13", "fig14")  # Scenario B's tree
B_WIDE = ("fig13", "fig14")
SINGLE = ("fig15-19", "fig15-19-staggered", "fig15-19-orig")  # the compared schemes on one bottleneck
STAGGERED = ("fig15-19-staggered", "fig15-19-orig")

_RUN = ("1000 s at full scale, the paper's length ('we execute this simulation for 1000s', §8.1; "
        "'for 1000 s', §8.2); 500 s at quick scale, a scale-down")
_AUTO = ("automatic from the link as duplex-link ... RED sets it (vidcc.papers.ns2.red_params); the paper says "
         "RED and no parameters (§8.1); reading classic-red: ")

SETUP = [
    # ---------------------------------------------------------------- run length and sampling
    SetupKey("scenario.duration", Reconstruction(_RUN), figures=(*A, *B)),
    SetupKey("scenario.duration", Reconstruction("Fig. 2 gives no length: 200 s (quick: 60 s) of estimates"),
             figures=("fig2",)),
    SetupKey("scenario.duration", Reconstruction(
        "the compared schemes' figures (§9) give no length: the suite's 1000 s (quick: 500 s), as Scenario A and B")),
    SetupKey("scenario.warmup", Reconstruction(
        "the paper discards nothing; statistics after a tenth of the run (100 s, quick 50 s) so that start-up "
        "does not weigh in the long-term shares; Fig. 2 keeps all (0 s)")),
    SetupKey("scenario.sample_interval", Reconstruction(
        "the paper's figures plot bandwidth over time with no stated bin; 1 s bins")),
    # ---------------------------------------------------------------- topologies
    SetupKey("topology.kind", Reconstruction(
        "every topology is a graph of named nodes and links (the simulator's form)")),
    SetupKey("topology.links[*].monitor", Reconstruction(
        "a simulator switch (which links the run records): no effect on the traffic")),
    SetupKey("topology.nodes", Paper("§8.1", "one sender (S) ... a group of 6 receivers (R1–R6) ... 3 TCP sources "
                                     "TCP1, TCP2, TCP3, which transmit data to Sink1, Sink2, Sink3"), figures=A),
    SetupKey("topology.links[*].a", Paper("§8.1", "we have three bottleneck links (C1–C2, C1–C3 and C1–C4) and each "
                                          "router (C2, C3, C4) is shared between SRAMT and a TCP connection"),
             figures=A),
    SetupKey("topology.links[*].b", Paper("§8.1", "we have three bottleneck links (C1–C2, C1–C3 and C1–C4) and each "
                                          "router (C2, C3, C4) is shared between SRAMT and a TCP connection"),
             figures=A),
    SetupKey("topology.links[*].bandwidth", Reconstruction(
        "§8.1 gives only 'varies from 0.2 Mbps to 10.0 Mbps' (the values are in Fig. 3, not in the text): "
        "bottlenecks 0.2 / 0.8 / 1.5 Mbit/s put each fair half-share inside its expected stream's band; "
        "10 Mbit/s elsewhere"), figures=A),
    SetupKey("topology.links[*].delay", Paper("§8.1", "they have delay 10 ms"), figures=A),
    SetupKey("topology.links[C1-C2].bandwidth", Paper("§8.2", "we increase the bandwidth of link C1–C2 to 3.0Mbps"),
             figures=B_WIDE),
    SetupKey("topology.links[C2-C3].bandwidth", Paper("§8.2", "the bandwidth of link C2–C3 to 1.4Mbps"),
             figures=B_WIDE),
    SetupKey("topology.links[B*", Reconstruction(
        "the background generators' attachment (100 Mbit/s, 1 ms): not in the paper; each loads only its link"),
        figures=B),
    SetupKey("topology.links[*-E*", Reconstruction(
        "the background generators' attachment (100 Mbit/s, 1 ms): not in the paper; each loads only its link"),
        figures=B),
    # ---------------------------------------------------------------- queues
    SetupKey("topology.links[*].queue.limit", Ns2("Queue limit_", "50", "packets: droptail"), figures=("fig14",)),
    SetupKey("topology.links[*].queue.limit", Ns2("Queue limit_", "50", "Queue/RED's limit_ × mean_pktsize_ 500 "
                                                  "in byte mode: 25 000 B; reading classic-red: 50 packets")),
    SetupKey("topology.links[*].queue.kind", Paper("§8.1", "they use the RED (Random Early Drop—[9]) policy to their "
                                                   "queues"), figures=A[:2]),
    SetupKey("topology.links[*].queue.kind", Paper("§8.2", "we change the queuing management technique of the routers "
                                                   "of the topology of Fig. 10 to droptail"), figures=("fig14",)),
    SetupKey("topology.links[*].queue.kind", Paper("§8.2", "they use again the RED policy to their queues"),
             figures=B),
    SetupKey("topology.links[*].queue.kind", Reconstruction(
        "RED as in the paper's own runs (§8); PLM's bottleneck DRR fair queueing, as its paper assumes (§9: PLM "
        "'assumes that the routers ... support some kind of a fair queuing mechanism')")),
    SetupKey("topology.links[*].queue.min_thresh", Ns2("Queue/RED thresh_", "0", _AUTO + "5 packets")),
    SetupKey("topology.links[*].queue.max_thresh", Ns2("Queue/RED maxthresh_", "0", _AUTO + "15 packets")),
    SetupKey("topology.links[*].queue.weight", Ns2("Queue/RED q_weight_", "-1", _AUTO + "0.002")),
    SetupKey("topology.links[*].queue.max_p", Ns2("Queue/RED linterm_", "10", "max_p = 1 / linterm_ = 0.1")),
    SetupKey("topology.links[*].queue.gentle", Ns2("Queue/RED gentle_", "true", "reading classic-red: off")),
    SetupKey("topology.links[*].queue.bytes", Ns2("Queue/RED bytes_", "true",
                                                  "and queue_in_bytes_ true; reading classic-red: packet mode")),
    SetupKey("topology.links[*].queue.mean_packet_size", Ns2("Queue/RED mean_pktsize_", "500", "bytes")),
    SetupKey("topology.links[*].queue.wait", Ns2("Queue/RED wait_", "true")),
    SetupKey("topology.*", Reconstruction(
        "Fig. 10's tree is only in the figure; §8.2 gives 'varies from 0.2–10.0 Mbps', delays 'from 10–70 ms', "
        "5 receivers, background on C1–C2, C2–C3 and C3–C4: a tree consistent with every such constraint "
        "(C1–C2 and C2–C3 too thin for all streams, R5 behind the longest path)"), figures=B),
    SetupKey("topology.*", Reconstruction(
        "§4.2 says only 'over a 1 Mbit link': 10 ms on it, 10 Mbit/s, 1 ms access links for the sender and the "
        "background"), figures=("fig2",)),
    SetupKey("topology.*", Reconstruction(
        "§9 copies the baselines' figures and gives no capacities or delays: one 1 Mbit/s, 20 ms bottleneck per "
        "scheme session and TCP pair (8 Mbit/s for 8 RLC sessions), 10 Mbit/s, 5 ms access links"), figures=SINGLE),
    # ---------------------------------------------------------------- flows of Scenarios A and B
    SetupKey("flows[sramt-s].receivers[*].groups", Paper(
        "§8.1", "Receivers R1 and R2 join the stream one, receivers R3 and R4 join the stream two and Receivers R5 and "
        "R6 join the stream three"), figures=("fig4-6",)),
    SetupKey("flows[dsg].receivers[*].groups", Reconstruction(
        "DSG's receivers start where SRAMT-S's do in Scenario A (§8.1), its bands being SRAMT-S's")),
    SetupKey("flows[*].receivers[*].start", Reconstruction(
        "§8.2: 'the receivers join randomly ... during the first 3 seconds'; fixed at 0.5, 1, 1.5, 2 and 2.5 s "
        "because a receiver's start is not drawn per seed")),
    SetupKey("flows[sramt-*].receivers[*].node", Paper("§8.1", "a group of 6 receivers (R1–R6)"), figures=A),
    SetupKey("flows[sramt-*].receivers[*].node", Paper("§8.2", "a group of 5 receivers (R1–R5)"), figures=B),
    SetupKey("flows[*].receivers[*].node", Reconstruction(
        "each compared scheme in SRAMT's place with SRAMT's receivers (Scenario A), or one receiver (Fig. 2)")),
    SetupKey("flows[sramt-*].protocol", Paper("§8", "We evaluate both SRAMT-S and SRAMT-LE variations")),
    SetupKey("flows[sramt-*].src", Paper("§8.1", "one sender (S), which transmits multimedia data with the use of "
                                         "SRAMT")),
    SetupKey("flows[sramt-*].label", Reconstruction("the name the checks read the flow by")),
    SetupKey("flows[sramt-s].bands", Reconstruction(
        "Fig. 2 gives no SRAMT configuration: one stream over 50–1000 kbit/s, the span of Scenario A's three")),
    SetupKey("flows[sramt-s].initial_rates", Reconstruction("Fig. 2: the one stream starts at 200 kbit/s")),
    SetupKey("flows[tcp*].protocol", Paper("§8.1", "We model the TCP sources as “4.3BSD Tahoe TCP” [22] sources, "
                                           "which always have data to send")),
    SetupKey("flows[tcp*].src", Paper("§8.1", "3 TCP sources TCP1, TCP2, TCP3, which transmit data to Sink1, Sink2, "
                                      "Sink3 respectively"), figures=A),
    SetupKey("flows[tcp*].dst", Paper("§8.1", "3 TCP sources TCP1, TCP2, TCP3, which transmit data to Sink1, Sink2, "
                                      "Sink3 respectively"), figures=A),
    SetupKey("flows[tcp*].label", Reconstruction("the name the checks read the flow by")),
    # The Tahoe agents (every flow with a window: the TCP flows and the baseline's stand-ins)
    SetupKey("flows[*].max_window", Ns2("Agent/TCP window_", "20", "packets × 1040 B; reading vidcc-tahoe: 64 000 B")),
    SetupKey("flows[*].initial_rto", Ns2("Agent/TCP rtxcur_init_", "3.0", "s; reading vidcc-tahoe: 1 s")),
    SetupKey("flows[*].initial_window", Ns2("Agent/TCP windowInit_", "2", "packets")),
    SetupKey("flows[*].min_rto", Ns2("Agent/TCP minrto_", "0.2", "s")),
    SetupKey("flows[*].delayed_ack", Reconstruction(
        "ns-2's plain Agent/TCPSink acknowledges every segment (the delayed one is Agent/TCPSink/DelAck)")),
    SetupKey("flows[tcp*].packet_size", Ns2("Agent/TCP packetSize_", "1000", "bytes of payload, + "
                                            "tcpip_base_hdr_size_ 40 on the wire: 1040 B; reading vidcc-tahoe: "
                                            "1000 B")),
    SetupKey("flows[standin*].packet_size", Ns2("Agent/TCP packetSize_", "1000", "+ 40 B of headers: 1040 B")),
    SetupKey("flows[background].packet_size", Ns2("Application/Traffic/Pareto packetSize_", "210",
                                                  "bytes; reading background-1000B: 1000 B"), figures=B),
    SetupKey("flows[background].packet_size", Ns2("Application/Traffic/Exponential packetSize_", "210",
                                                  "bytes (the paper's generator is exponential); reading "
                                                  "fig2-background-1000B: 1000 B"), figures=("fig2",)),
    SetupKey("flows[tcp1].start", Paper("§9", "Initially the first TCP connections transmits data"),
             figures=("fig15-19-staggered",)),
    SetupKey("flows[tcp2].start", Paper("§9", "at the 60th second starts the transmission of the second TCP "
                                        "connection"), figures=STAGGERED),
    SetupKey("flows[tcp1].start", Reconstruction(
        "PLM's set-up: TCP1 from 0 s (§9: 'Initially the first TCP connections transmits data'); the RLC and IRFM "
        "set-ups give no start times: U(0, 1) s as the other Tahoe flows"), figures=("fig15-19-orig",)),
    SetupKey("flows[tcp*].start", Reconstruction(
        "the paper gives no start times: each Tahoe flow starts at U(0, 1) s to keep the flows out of step (ns-2 "
        "starts an FTP source when the script says; the paper's scripts are not given)")),
    SetupKey("flows[standin-*].*", Reconstruction(
        "the suite's baseline (B1): a Tahoe flow from S's side to R1 / R3 / R5 in SRAMT's place, as the TCP flows")),
    # Scenario B's background [P] and Fig. 2's on/off source
    SetupKey("flows[background].rate", Paper("§8.2", "an uncorrelated background traffic, which consumes maximally the "
                                             "50% of the link capacity"), figures=B),
    SetupKey("flows[background].on_mean", Paper("§8.2", "During the active periods the transmission rate of the "
                                                "traffic generator follows a Pareto distribution with a scale factor "
                                                "of 1.1 and a mean of 20 packets"), figures=B),
    SetupKey("flows[background].off_mean", Paper("§8.2", "idle periods drawn by a Pareto distribution with a scale "
                                                 "factor of 1.8 and a mean 0.5 s"), figures=B),
    SetupKey("flows[background].shape", Reconstruction(
        "the paper's shapes are 1.1 (ON) and 1.8 (OFF); the simulator's Pareto source has one shape for both: 1.5 "
        "(ns-2's Application/Traffic/Pareto shape_ default, between the two)"), figures=B),
    SetupKey("flows[background].rate", Paper("§4.2", "an on/off traffic generator using an exponential distribution "
                                             "with transmission rate of 0.5 Mbps during on times"), figures=("fig2",)),
    SetupKey("flows[background].on_mean", Ns2("Application/Traffic/Exponential burst_time_", ".5", "s"),
             figures=("fig2",)),
    SetupKey("flows[background].off_mean", Ns2("Application/Traffic/Exponential idle_time_", ".5", "s"),
             figures=("fig2",)),
    SetupKey("flows[background].shape", Reconstruction(
        "the paper's periods are exponential; the simulator's on/off source is Pareto: shape 1 + √2 gives the "
        "exponential's coefficient of variation of 1")),
    SetupKey("flows[background].*", Reconstruction(
        "one generator per loaded link, from a node beside its head to one beside its tail, crossing only that link")),
    # ---------------------------------------------------------------- the compared schemes (§9)
    SetupKey("flows[plm].start", Paper("§9", "at the 20th second starts the transmission of the PLM session"),
             figures=STAGGERED),
    SetupKey("flows[*].start", Reconstruction(
        "Fig. 15's staggered start (§9: PLM at the 20th second) given to every scheme")),
    SetupKey("flows[rlc*].*", Paper("§9", "The simulation scenario includes the transmission of 8 RLC sessions "
                                    "together with 8 TCP connections over a bottleneck link"),
             figures=("fig15-19-orig",)),
    SetupKey("flows[irfm].dst", Paper("§9", "one TCP connection and IRFM traffic (two multicast streams) over a "
                                      "network link"), figures=("fig15-19-orig",)),
    SetupKey("flows[*].protocol", Paper("§9", "Comparison of SRAMT with other schemes: PLM, RLC, MLDA, DSG, IRFM")),
    SetupKey("flows[*].*", Reconstruction(
        "§9 copies the baselines' figures without their set-ups: the scheme from S to its receivers, the Tahoe flows "
        "from T (or TCPi) to their sinks, named for the checks")),
]
