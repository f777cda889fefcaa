"""Where every value of the QoS-AIMD suite's scenarios comes from: the paper (§ and its words),
ns-2 2.35's default (the paper ran ns-2, §V), or our reconstruction and why
(:mod:`vidcc.papers.provenance`).

The first matching row wins, so rows limited to some figures come before the general ones.
Where the paper is silent the value is ns-2 2.35's default (RED's parameters, DropTail's limit,
the TCP agents' window and RTOs); the readings of what the authors may have set instead are in
``readings.py`` (``--explore``).
"""

from __future__ import annotations

from vidcc.papers.provenance import Ns2, Paper, Reconstruction, SetupKey

_WIRED = Paper("§V", "Links between CH, r1, r2, and BS are duplex links with 100 Mbps.")
_RED = Paper("§V", "Both r1 and r2 are Random Early Detection (RED) capable.")
_RED_SILENT = "the paper names RED and no parameter; readings red-packets, red-old-suite: "
_CROSS = Paper("§V", "Cross traffic (TCP SACK) connections share the r1r2 backbone link.")
_TCP_HOST = Reconstruction(
    "the paper puts the cross TCP 'over r1r2' and no more: each source and sink on its own host behind its own "
    "100 Mb/s, 1 ms link (the CH's), so that the backbone is the only link the flows share; ns-2's DropTail on it")
_MULTI = Paper("§V-C", "The simulation topology for multiple AIMD flows sharing a wireless link is similar to that "
               "shown in Fig. 2, except that N AIMD senders at N CHs connecting with r1.")
_LABEL = Reconstruction("the name the checks read the flow by")
UDP = ("fig9",)

SETUP = [
    # ---------------------------------------------------------------- run length and sampling
    SetupKey("scenario.duration", Reconstruction(
        "80 s at full scale, the paper's ('Each simulation lasts for 80 seconds', §V); 20 s at quick scale, a "
        "scale-down")),
    SetupKey("scenario.warmup", Paper("§V", "To eliminate system warming-up effects, simulation results for the "
                                      "first 5 seconds are not counted.")),
    SetupKey("scenario.packet_log", Reconstruction(
        "a simulator switch: the delay outage is read from each packet's delay (no effect on the traffic)")),
    # ---------------------------------------------------------------- topology (Fig. 2)
    SetupKey("topology.kind", Reconstruction(
        "every topology is a graph of named nodes and links (the simulator's form)")),
    SetupKey("topology.links[*].monitor", Reconstruction(
        "a simulator switch (which links the run records): no effect on the traffic")),
    SetupKey("topology.nodes", Reconstruction(
        "§V: 'the sender is at the CH, and the receiver is at the MH. The MH and the BS are connected to routers r1 "
        "and r2, respectively', read as the CH and the BS (the MH sits behind the BS's wireless link; Fig. 2)")),
    SetupKey("topology.links[*].a", Paper("§V", "Links between CH, r1, r2, and BS are duplex links")),
    SetupKey("topology.links[*].b", Paper("§V", "Links between CH, r1, r2, and BS are duplex links")),
    SetupKey("topology.links[BS-MH].bandwidth", Reconstruction(
        "§V: 'The downlink and uplink bandwidth between the BS and the MH are 200 Kbps and 100 Kbps'; the "
        "simulator's links are symmetric, so the uplink, which carries only acks, is 200 kb/s too")),
    SetupKey("topology.links[*].bandwidth", _WIRED),
    SetupKey("topology.links[*].delay", Reconstruction(
        "the paper gives only 'The minimal rtt for the target flow is 85 ms' (§V): 1 / 36.18 / 1 / 1 ms one way on "
        "CH–r1 / r1–r2 / r2–BS / BS–MH, with the 5 ms slot of the 125 B packet and the 1.6 ms of the 40 B ack on the "
        "200 kb/s uplink, make it 85 ms = 17 slots (measured: the first data packet's round trip)")),
    SetupKey("topology.links[BS-MH].queue.limit", Reconstruction(
        "§V-A: 'The BS buffer size is set to rwnd to avoid buffer overflow': 40 ≥ every swept rwnd, so that the "
        "buffer never overflows as the paper's B = rwnd, with one scenario for the whole rwnd sweep"),
        figures=("fig5", "optimal")),
    SetupKey("topology.links[BS-MH].queue.limit", Paper("§V-C", "The link buffer size is set to the sum of rwnds to "
                                                        "avoid buffer overflow at the BS."), figures=("fig7", "fig8")),
    SetupKey("topology.links[BS-MH].queue.limit", Paper(
        "§V-D", "the BS buffer size is set to 10 packets for UDP flows with constant bit rate (CBR) sources ... the "
        "BS buffer size is set to rwnd for the AIMD flow"), figures=UDP),
    SetupKey("topology.links[BS-MH].queue.limit", Paper("§V", "The BS buffer size is set to rwnd to avoid buffer "
                                                        "overflow.")),
    SetupKey("topology.links[BS-MH].queue.kind", Reconstruction(
        "the BS buffer is a FIFO the paper's model serves in order (§III-B); DropTail, ns-2's default queue")),
    SetupKey("topology.links[BS-MH].loss.kind", Paper(
        "§V-A", "The wireless channel condition evolves following a two state Markov model")),
    SetupKey("topology.links[BS-MH].loss.p", Paper(
        "§V-A", "the average packet error rate, (p_e), is set from 1% to 10%")),
    SetupKey("topology.links[BS-MH].loss.r", Reconstruction(
        "the paper gives only the mean p_e: a mean bad burst of 2 packets (r = 0.5), a mildly bursty channel on "
        "which W_max changes by one from p_e = 5 % to 8 % as §V-A says (paper page §2.7)")),
    SetupKey("topology.links[BS-MH].arq.kind", Paper(
        "§V-A", "using the optimal transmission scheme which suspends transmitting for some slots if the previous "
        "transmission failed [24]"), figures=("optimal",)),
    SetupKey("topology.links[BS-MH].arq.threshold", Reconstruction(
        "[24]'s scheme waits until a retry succeeds with probability ≥ 0.8: 2 silent slots on this channel (the "
        "paper gives no figure or parameter)"), figures=("optimal",)),
    SetupKey("topology.links[BS-MH].arq.kind", Paper(
        "§V-A", "The link layer uses the persistent transmission scheme, i.e., transmitting one packet each time slot "
        "no matter what the previous channel condition was")),
    SetupKey("topology.links[r1-r2].queue.kind", _RED),
    SetupKey("topology.links[r1-r2].queue.limit", Ns2("Queue limit_", "50", _RED_SILENT + "Queue/RED's limit_ × "
                                                      "mean_pktsize_ 500 in byte mode: 25 000 B")),
    SetupKey("topology.links[r1-r2].queue.min_thresh", Ns2("Queue/RED thresh_", "0", _RED_SILENT + "automatic: "
                                                           "targetdelay_ 5 ms × 100 Mb/s / 2 = 62.5 packets of 500 B")),
    SetupKey("topology.links[r1-r2].queue.max_thresh", Ns2("Queue/RED maxthresh_", "0", _RED_SILENT + "automatic: "
                                                           "3 × thresh_ = 187.5 packets of 500 B")),
    SetupKey("topology.links[r1-r2].queue.weight", Ns2("Queue/RED q_weight_", "-1", _RED_SILENT + "automatic from "
                                                       "the link: 3.805e-05")),
    SetupKey("topology.links[r1-r2].queue.max_p", Ns2("Queue/RED linterm_", "10", "max_p = 1 / linterm_ = 0.1")),
    SetupKey("topology.links[r1-r2].queue.gentle", Ns2("Queue/RED gentle_", "true", _RED_SILENT + "off")),
    SetupKey("topology.links[r1-r2].queue.bytes", Ns2("Queue/RED bytes_", "true", "and queue_in_bytes_ true; "
                                                      + _RED_SILENT + "packet mode")),
    SetupKey("topology.links[r1-r2].queue.mean_packet_size", Ns2("Queue/RED mean_pktsize_", "500", "bytes")),
    SetupKey("topology.links[r1-r2].queue.wait", Ns2("Queue/RED wait_", "true")),
    SetupKey("topology.links[*].queue.kind", Reconstruction(
        "the CH's and the BS's wired links: the paper makes r1 and r2 RED-capable, but only the AIMD flow (≤ 200 kb/s "
        "at 100 Mb/s) crosses them, so they never queue and the discipline does not matter; ns-2's DropTail")),
    SetupKey("topology.links[*].queue.limit", Ns2("Queue limit_", "50", "packets: DropTail")),
    # ---------------------------------------------------------------- the target AIMD flow(s)
    SetupKey("flows[aimd*].protocol", Paper("§V", "The TCP-friendly AIMD protocol has α = 0.2 and β = 0.875")),
    SetupKey("flows[aimd*].packet_size", Paper("§V", "The target flow has packet size 125 bytes. Thus, the duration "
                                               "of a time slot is 5 ms.")),
    SetupKey("flows[aimd].src", Paper("§V", "For the target AIMD flow, the sender is at the CH, and the receiver is at "
                                      "the MH.")),
    SetupKey("flows[aimd].dst", Paper("§V", "For the target AIMD flow, the sender is at the CH, and the receiver is at "
                                      "the MH.")),
    SetupKey("flows[aimd*].src", Reconstruction(
        "§V-C's 'N AIMD senders at N CHs connecting with r1': every sender at CH (its 100 Mb/s link carries at most "
        "200 kb/s), a flow of R = 25 slots behind its own 20 ms link (8 slots more round trip)"),
        figures=("fig7", "fig8")),
    SetupKey("flows[aimd*].source_access.*", _MULTI, figures=("fig7", "fig8")),
    SetupKey("flows[aimd*].dst", Paper("§V-C", "Figs. 7, 8: several AIMD flows sharing the wireless link (to the MH)")),
    SetupKey("flows[aimd*].label", _LABEL),
    SetupKey("flows[aimd].rwnd", Paper("§V-A", "We repeat simulations with different values of rwnd and record the "
                                       "maximum one with which the delay outage rate is below 1%."),
             figures=("fig5", "optimal")),
    SetupKey("flows[aimd].rwnd", Reconstruction(
        "Figs. 6 and 9 give no rwnd: eq. (1)'s W_max for the p_e on the suite's channel (the selection of §IV: 23 at "
        "p_e = 0.01, 17 at 0.1), with B = rwnd as §V says")),
    SetupKey("flows[aimd*].rwnd", Paper("§V-C", "Their sender windows should satisfy (4). Also, to bound the delay "
                                        "outage rate, Pr{d_q > D|W} should be less than 0.01. The rwnds are set as the "
                                        "maximum integers satisfying the above two constraints.")),
    # ---------------------------------------------------------------- cross TCP (Figs. 5, 6)
    SetupKey("flows[tcp].protocol", Paper("§V", "Cross traffic (TCP SACK) connections share the r1r2 backbone link."),
             figures=("fig5",)),
    SetupKey("flows[tcp].protocol", Reconstruction(
        "§V: 'Cross traffic (TCP SACK) connections share the r1r2 backbone link'; B1, the suite's baseline, runs "
        "TCP NewReno alone on the backbone")),
    SetupKey("flows[tcp].label", _LABEL),
    SetupKey("flows[tcp].src", _CROSS),
    SetupKey("flows[tcp].dst", _CROSS),
    SetupKey("flows[tcp].source_access.*", _TCP_HOST),
    SetupKey("flows[tcp].sink_access.*", _TCP_HOST),
    SetupKey("flows[tcp].packet_size", Paper("§V-B", "The packet size of the cross TCP flows is 1250 bytes.")),
    SetupKey("flows[tcp].count", Reconstruction(
        "§V-B: 'the number of coexisting TCP flows (elephants) in the backbone link is changed from 0 to 100' (no "
        "step): 10 to 100 in steps of 10 (quick: 10, 50, 100)"), figures=("fig6",)),
    SetupKey("flows[tcp].count", Reconstruction(
        "§V-A: light traffic 'is constrained so that the bottleneck for the target AIMD flow is always the wireless "
        "link', heavy traffic makes 'the bottleneck for the target flow ... the backbone link between 30 s and 60 s' "
        "(no counts): 5 elephants all along (no mice), and 60 more in the middle")),
    SetupKey("flows[tcp].start", Reconstruction(
        "the paper gives no start times: each elephant at U(0, 1) s (100 sources started together lose their first "
        "windows in the backbone's buffer and retry in lockstep after the 3 s initial RTO); Fig. 5's heavy phase "
        "from 30 s (§V-A: 'the bottleneck ... is the backbone link between 30 s and 60 s'; quick: 8 s), within 1 s")),
    SetupKey("flows[tcp].stop", Reconstruction(
        "§V-A: 'the bottleneck for the target flow is the backbone link between 30 s and 60 s': the heavy phase's "
        "elephants stop at 60 s (quick: 15 s of 20 s)")),
    SetupKey("flows[tcp].max_window", Ns2("Agent/TCP window_", "20", "packets × 1250 B = 25 000 B (B1: 1 MB)")),
    SetupKey("flows[tcp].initial_window", Ns2("Agent/TCP windowInit_", "2", "packets")),
    SetupKey("flows[tcp].min_rto", Ns2("Agent/TCP minrto_", "0.2", "s")),
    SetupKey("flows[tcp].initial_rto", Ns2("Agent/TCP rtxcur_init_", "3.0", "s")),
    SetupKey("flows[tcp].delayed_ack", Reconstruction(
        "ns-2's plain Agent/TCPSink acknowledges every segment (the delayed one is Agent/TCPSink/DelAck)")),
    SetupKey("flows[tcp].send_jitter", Reconstruction(
        "B1's NewReno flows: 100 µs of send jitter keeps 10–100 identical flows out of phase (ns-2's overhead_ does "
        "the same for its TCP agents when set)")),
    # ---------------------------------------------------------------- UDP (Fig. 9)
    SetupKey("flows[udp].protocol", Paper("§V-D", "UDP flows with constant bit rate (CBR) sources")),
    SetupKey("flows[udp].label", _LABEL),
    SetupKey("flows[udp].src", Paper("§V-D", "an AIMD flow over the same wireless link (the UDP flow takes the target "
                                     "flow's path, CH to MH)")),
    SetupKey("flows[udp].dst", Paper("§V-D", "an AIMD flow over the same wireless link (the UDP flow takes the target "
                                     "flow's path, CH to MH)")),
    SetupKey("flows[udp].packet_size", Reconstruction(
        "125 B, not ns-2's CBR packetSize_ 210: §V-D sizes the UDP buffer as 10 packets for 'the maximum tolerable "
        "delay jitter is 10 slots', and a slot is one 125 B packet's time")),
    SetupKey("flows[udp].rate", Reconstruction(
        "Fig. 9's x-axis is lost: CBR rates of 0.5–1.1 packets per slot (100–220 kb/s; quick: 120–200), below, at "
        "and above the link's mean throughput 1 − p_e = 0.9 (§V-D: 'the source rate ... should be less than the "
        "average wireless link throughput')")),
]
