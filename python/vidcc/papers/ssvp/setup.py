"""Where every value of the SSVP suite's scenarios comes from: the paper (§ and its words), ns-2
2.35's default (the paper ran ns-2, §5.1), or our reconstruction and why
(:mod:`vidcc.papers.provenance`).

The first matching row wins, so rows limited to some figures come before the general ones. Where
the paper is silent and ns-2 has a default (the Reno agents' initial window, RTOs and ACKs; the
TFRC agent's and sink's parameters) the suite's value is ns-2 2.35's; the suite had them so before
this table was written, so no earlier value is kept as a set-up reading. The readings of the
paper's open points are in ``readings.py``.
"""

from __future__ import annotations

from vidcc.papers.provenance import Ns2, Paper, Reconstruction, SetupKey

DUMBBELL = ("fig7-9", "fig10", "fig11", "fig14", "startup")  # Fig. 6a
CROSS = ("fig12", "fig13", "fig15")  # Fig. 6b

_SETTINGS = "we set the packet size to 1000 bytes for all system flows and the maximum congestion window to 64 KB"
_ACCESS = ("The propagation delays of the access links from all the source nodes and the links to the FTP sink nodes "
           "range from 5 ms to 15 ms, while the corresponding bandwidth capacities range from 2 Mbps to 10 Mbps")
_CORE = ("the figure of the topology (Fig. 6b) is not in the text: routers R1–R2–R3 shared with the DVRC suite "
         "(papers/cross_traffic.py), R1–R2 5 Mbit/s and R2–R3 10 Mbit/s, 10 ms, so that R1 is the MPEG flows' "
         "bottleneck and R2 the one they share with the FTP flows, as the DVRC paper (§4.1) says of the same figure")
_TES = ("the paper's video is a synthetic MPEG-4 trace from TES models of an unnamed clip (§5.1): the simulator's "
        "TES MPEG-4 source (GOP IBBPBBPBBPBB, 25 fps)")

SETUP = [
    # ---------------------------------------------------------------- run length and sampling
    SetupKey("scenario.duration", Reconstruction(
        "SSVP alone on the free link for C5 (no figure in the paper): 10 s hold its startup and the first "
        "decreases"), figures=("startup",)),
    SetupKey("scenario.duration", Paper("§5.1", "The duration of each experiment is 60 s"), figures=("fig11",)),
    SetupKey("scenario.duration", Paper("§5.1", "The duration of each experiment is 60 s (quick scale: 30 s, "
                                        "a scale-down)")),
    SetupKey("scenario.warmup", Reconstruction("C5 watches the startup itself: nothing discarded"),
             figures=("startup",)),
    SetupKey("scenario.warmup", Paper("§5.1", "The results are collected after 2 s in order to avoid the skew "
                                      "introduced by the startup effect")),
    SetupKey("scenario.sample_interval", Reconstruction(
        "Fig. 7 plots the rate over time with no stated bin: 100 ms samples (C7's CoV and Fig. 8's jitter trace)")),
    SetupKey("scenario.queue_sample_interval", Reconstruction(
        "Fig. 13 plots R2's queue over time with no stated sampling: every 10 ms; Table 2's mean is over them")),
    # ---------------------------------------------------------------- the dumbbell (Fig. 6a)
    SetupKey("topology.kind", Reconstruction("the simulator's dumbbell and graph forms of Fig. 6a and 6b")),
    SetupKey("topology.bottleneck.bandwidth", Paper("§5.1", "a single-bottleneck dumbbell topology with a "
                                                    "bottleneck capacity of 1 Mbps")),
    SetupKey("topology.bottleneck.delay", Reconstruction(
        "§5.1 gives 'a round-trip link delay of 44 ms': 20 ms one way on the bottleneck, 1 ms on each access link "
        "(2·(1 + 20 + 1) = 44 ms)")),
    SetupKey("topology.access.delay", Reconstruction(
        "§5.1 gives 'a round-trip link delay of 44 ms' and no access links: 1 ms each (2·(1 + 20 + 1) = 44 ms)")),
    SetupKey("topology.access.bandwidth", Reconstruction(
        "the access links are not in the text: 10 Mbit/s, ten times the bottleneck, so that they never queue")),
    SetupKey("topology.bottleneck.queue.kind", Paper("§5.1", "In both topologies we used drop-tail routers")),
    SetupKey("topology.bottleneck.queue.limit", Paper(
        "§5.1", "buffer size adjusted in accordance with the bandwidth-delay product (1 Mbit/s × 44 ms = 5.5 "
        "packets of 1000 B, rounded up to 6)")),
    # ---------------------------------------------------------------- the cross-traffic topology (Fig. 6b)
    SetupKey("topology.nodes", Reconstruction(_CORE)),
    SetupKey("topology.links[*", Reconstruction(_CORE)),
    SetupKey("flows[ftp].src", Reconstruction(
        "'Cross traffic includes diverse FTP flows over TCP Reno' (§5.1) without their path: the 10 FTP flows "
        "cross R2–R3 only, where they meet the MPEG flows (R2 'another bottleneck for competing MPEG and cross "
        "traffic', DVRC §4.1)"), figures=CROSS),
    SetupKey("flows[ftp].dst", Reconstruction("the FTP flows cross R2–R3 only (see flows[ftp].src)"), figures=CROSS),
    SetupKey("flows[*].src", Reconstruction("the MPEG sources behind R1, the MPEG flows' bottleneck (DVRC §4.1)"),
             figures=CROSS),
    SetupKey("flows[*].dst", Reconstruction("the MPEG sinks behind R3, after both bottlenecks"), figures=CROSS),
    SetupKey("flows[*].source_access.*", Paper("§5.1", _ACCESS + " (uniform, drawn per flow from the seed)"),
             figures=CROSS),
    SetupKey("flows[ftp].sink_access.*", Paper("§5.1", _ACCESS + " (uniform, drawn per flow from the seed)"),
             figures=CROSS),
    SetupKey("flows[*].sink_access.bandwidth", Paper("§5.1", "The capacity of all access links to the MPEG sink "
                                                     "nodes is set to 2 Mbps"), figures=CROSS),
    SetupKey("flows[*].sink_access.delay", Reconstruction(
        "the MPEG sinks' access delay is not given: the 5–15 ms range of every other access link (§5.1)"),
        figures=CROSS),
    SetupKey("flows[*].sink_access.loss.p", Paper("§5.1", "NS-2 error models were inserted into the access links to "
                                                  "the MPEG sink nodes with packet error rate adjusted at 1%"),
             figures=CROSS),
    SetupKey("flows[*].sink_access.loss.kind", Reconstruction(
        "ns-2's ErrorModel drops each packet independently with probability rate_ (uniform random variable, "
        "unit packet): Bernoulli per packet, on the data direction where the paper inserts it"), figures=CROSS),
    SetupKey("flows[*].start", Reconstruction(
        "§5.1: 'By randomizing RTTs, we avoided synchronization effects'; start times are not given: U[0, 1] s "
        "per flow"), figures=CROSS),
    # ---------------------------------------------------------------- flows of the dumbbell figures
    SetupKey("flows[ssvp].start", Paper("§6.1", "The video flow joins the network at 20 s and competes with FTP "
                                        "traffic for the remaining 40 s"), figures=("fig11",)),
    SetupKey("flows[ftp].count", Paper("§6.1", "an SSVP flow competes with two FTP flows over TCP Reno"),
             figures=("fig7-9",)),
    SetupKey("flows[ftp].count", Paper("§6.3", "a single SSVP flow competes with two FTP flows (over TCP Reno)"),
             figures=("fig14",)),
    SetupKey("flows[ftp].count", Paper("§6.1", "We simulated a single SSVP flow competing with a diverse number of "
                                       "FTP flows (1–30) successively (quick scale: 1, 5, 15)"), figures=("fig10",)),
    SetupKey("flows[ftp].count", Paper("§6.1", "the sending rates of an SSVP and an FTP flow over TCP Reno"),
             figures=("fig11",)),
    SetupKey("flows[ftp].count", Paper("§6.2", "competing with 10 FTP connections of TCP Reno"), figures=CROSS),
    SetupKey("flows[*].count", Paper("§6.2", "We simulated a wide range of MPEG flows (1–50) ... in the presence of "
                                     "40 MPEG flows (plus 10 FTP connections) (the points of M are not given: 1, 5, "
                                     "10, 20, 30, 40, 50; quick scale 1, 20, 50)"), figures=CROSS),
    SetupKey("flows[ssvp].startup", Reconstruction(
        "C5 compares SSVP with and without its startup phase (§3.2) on the free link; no figure in the paper")),
    # ---------------------------------------------------------------- the MPEG flows
    SetupKey("flows[*].protocol", Paper("§6.2", "MPEG flows (1–50) with (i) SSVP, (ii) TFRC, (iii) TCP Westwood+ "
                                        "(TCPW+), and (iv) UDP, competing with ... FTP connections of TCP Reno")),
    SetupKey("flows[*].label", Reconstruction("a flow's name in the suite's checks (no effect on the traffic)")),
    SetupKey("flows[*].video.model", Reconstruction(_TES)),
    SetupKey("flows[ssvp].video.rate", Paper("§6.1", "the target sending rate for SSVP is set to 1 Mbps"),
             figures=("fig11",)),
    SetupKey("flows[ssvp].video.rate", Paper("§6.1", "The target sending rate for SSVP is adjusted at 380 Kbps"),
             figures=("fig10",)),
    SetupKey("flows[*].video.rate", Reconstruction(
        "the MPEG rate is given only for Fig. 10 (380 kbit/s, §6.1) and Fig. 11 (1 Mbit/s): 380 kbit/s for every "
        "other MPEG flow, the plain-UDP baseline's included")),
    SetupKey("flows[ssvp-la].video.layers", Reconstruction(
        "§6.3 gives n = 4 layers ('the highest layer (i.e. layer 4)') and no rates: four equal layers of 95 kbit/s, "
        "cumulative 380 kbit/s, the single-layer flows' rate")),
    SetupKey("flows[ssvp-la].layer_policy", Paper("§6.3", "In contrast to immediate adaptation (i.e. based on "
                                                  "instantaneous available bandwidth), our implementation sends an "
                                                  "additional layer only when both conditions (11) and (17) hold"),
             figures=("fig14",)),
    # ---------------------------------------------------------------- TFRC: ns-2 2.35's Agent/TFRC
    SetupKey("flows[tfrc].rules", Ns2("Agent/TFRC InitRate_", "300", "ns-2's tfrc.cc rate rules (slow start, "
                                      "increase, decrease, no-feedback) starting at InitRate_")),
    SetupKey("flows[tfrc].initial_rate", Ns2("Agent/TFRC rate_init_option_", "2", "RFC 3390's initial rate")),
    SetupKey("flows[tfrc].q", Ns2("Agent/TFRC df_", "0.95", "the RTT filter")),
    SetupKey("flows[tfrc].q2", Ns2("Agent/TFRC df_", "0.95", "df_ also smooths sqrtrtt_ for ca_")),
    SetupKey("flows[tfrc].oscillation_prevention", Ns2("Agent/TFRC ca_", "1")),
    SetupKey("flows[tfrc].t_rto", Ns2("Agent/TFRC tcp_tick_", "0.1", "tzero_: TCP's RTO estimate at this tick")),
    SetupKey("flows[tfrc].tcp_tick", Ns2("Agent/TFRC tcp_tick_", "0.1", "s")),
    SetupKey("flows[tfrc].nofeedback_rtts", Reconstruction(
        "ns-2's tfrc.cc arms the no-feedback timer at max(2·rtt_, 2·size_/rate_) (code, no Tcl variable)")),
    SetupKey("flows[tfrc].ndupack", Ns2("Agent/TFRCSink numPkts_", "1")),
    SetupKey("flows[tfrc].history_discounting", Ns2("Agent/TFRCSink discount_", "1")),
    SetupKey("flows[tfrc].discount_threshold", Ns2("Agent/TFRCSink minDiscountRatio_", "0.5")),
    # ---------------------------------------------------------------- Reno and Westwood+: ns-2 2.35's Agent/TCP
    SetupKey("flows[*].initial_window", Ns2("Agent/TCP windowInit_", "2", "packets")),
    SetupKey("flows[*].min_rto", Ns2("Agent/TCP minrto_", "0.2", "s")),
    SetupKey("flows[*].initial_rto", Ns2("Agent/TCP rtxcur_init_", "3.0", "s")),
    SetupKey("flows[*].delayed_ack", Reconstruction(
        "ns-2's plain Agent/TCPSink acknowledges every segment (the DelAck sink is a separate class): no delayed "
        "ACKs; " + _SETTINGS + " (§5.1) is the scenario default of both")),
]
