"""Where every value of the ASMP/TFMCC suite's scenarios comes from: the paper (§ and its words), ns-2
2.35's default (the paper ran ns-2, §5), or our reconstruction and why (:mod:`vidcc.papers.provenance`).

The first matching row wins, so rows limited to some figures come before the general ones. Where
the paper is silent and ns-2 has a default (the TCP agent, the queue limit, the CBR packet size)
the suite takes it; the readings of what the paper leaves open are in ``readings.py``.
"""

from __future__ import annotations

from vidcc.papers.provenance import Ns2, Paper, Reconstruction, SetupKey

PARKING_LOT = ("fig3-6", "fig7", "fig13-18")  # Fig. 2's topology: S1, S2, S4
S1_DELAYS = ("fig3-6", "fig7")  # the parking lot at the paper's stated 80 ms one way
DUMBBELL = ("fig10-12", "fig24-25", "fig26-28")  # S3, S6, S7
ON_OFF = ("fig24-25", "fig26-28")  # S6, S7
PAIRS = ("fig19-23",)  # S5, Fig. 19

_ACCESS = Paper("§6.1", "set the access link capacity of all agents to 5 Mb/s with an access delay of 20 ms")
_ROUTERS = Paper("§6.1", "We use Drop Tail queue in the routers with a buffer size of 50 packets, which is a default "
                 "value in ns-2")
_PARKING_ACCESS = ("S-A", "C-R1", "C-R2", "T1-A", "B-T1s", "T2-B", "C-T2s")
_PAIR_ACCESS = ("S1-R1", "S2-R1", "R4-D1", "R4-D2")
_FAST_ACCESS = ("S-L", "R-V", "US-L", "R-UD")
_LABEL = Reconstruction("the name the checks read the flow by")
_VIDEO = ("asmp", "tfmcc")


def _links(names, key: str, source, figures) -> list[SetupKey]:
    return [SetupKey(f"topology.links[{n}].{key}", source, figures=figures) for n in names]


SETUP = [
    # ---------------------------------------------------------------- run length and sampling
    SetupKey("scenario.duration", Reconstruction(
        "the 1753-frame sequence of §6.5 lasts 70.12 s at 25 fps: 71 s at both scales"), figures=("fig10-12",)),
    SetupKey("scenario.duration", Reconstruction(
        "§6.8 gives no length: the 408 s of the paper's other scenarios (quick: 60 s, a scale-down)"), figures=ON_OFF),
    SetupKey("scenario.duration", Reconstruction(
        "408 s at full scale, the paper's ('a long multicast video flow with duration of 408 seconds', §6.1; "
        "'with a duration of 408 seconds', §6.7; §6.6 uses 'the same topology'); 60 s at quick scale, a scale-down")),
    SetupKey("scenario.warmup", Reconstruction(
        "the paper discards nothing it says; statistics after the first 10 % of the run so that the start does not "
        "weigh in long-run means; S3 none (its claims are per segment of the whole sequence)")),
    SetupKey("scenario.sample_interval", Reconstruction(
        "the paper's figures plot throughput and delay over time with no stated bin: 1 s bins")),
    # ---------------------------------------------------------------- topologies
    SetupKey("topology.kind", Reconstruction(
        "every topology is a graph of named nodes and links (the simulator's form)")),
    SetupKey("topology.links[*].monitor", Reconstruction(
        "a simulator switch (which links the run records): no effect on the traffic")),
    # Fig. 2, the parking lot (S1, S2, S4)
    SetupKey("topology.nodes", Paper("§6.1", "This video sequence passes through two bottleneck links. Two additional "
                                     "short TCP flows are passing through only one bottleneck link. R1 to R2 stand for "
                                     "the video receivers"), figures=PARKING_LOT),
    *_links(_PARKING_ACCESS, "bandwidth", _ACCESS, PARKING_LOT),
    *_links(_PARKING_ACCESS, "delay", _ACCESS, PARKING_LOT),
    *_links(("A-B", "B-C"), "bandwidth", Reconstruction(
        "Fig. 2's capacities survive only in the figure: 2 Mbit/s keeps each flow's share below the clip's q = 2 "
        "rate (1.83 Mbit/s) so that the protocols, not the frame sizes, decide losses"), PARKING_LOT),
    *_links(("A-B", "B-C"), "delay", Paper("§6.1", "the total one-way delay on the path from the video source to video "
                                           "receivers is 80 ms, giving an RTT of 160 ms (with the two 20 ms access "
                                           "links: 40 ms over the two bottlenecks, 20 ms each)"), S1_DELAYS),
    *_links(("A-B", "B-C"), "delay", Reconstruction(
        "§6.6 varies the RTT ('several simulations with different RTT values') without its values: both bottleneck "
        "delays set the path RTT to 80 (the access links alone), 120, 160, 200, 240, 320, 400 or 500 ms"),
        ("fig13-18",)),
    SetupKey("topology.links[A-B].loss.kind", Reconstruction(
        "§6.3's 'periodic error model' has no counterpart in the simulator: Bernoulli loss at the same rate, on the "
        "first bottleneck (the link is not named)"), figures=("fig7",)),
    SetupKey("topology.links[A-B].loss.p", Paper("§6.3", "we implemented a periodic error model and set the packet "
                                                 "error rate from 0.05% to 10%"), figures=("fig7",)),
    SetupKey("topology.links[*].queue.*", _ROUTERS, figures=PARKING_LOT),
    SetupKey("topology.links[*].a", Paper("§6.1", "This video sequence passes through two bottleneck links. Two "
                                          "additional short TCP flows are passing through only one bottleneck link"),
             figures=PARKING_LOT),
    SetupKey("topology.links[*].b", Paper("§6.1", "This video sequence passes through two bottleneck links. Two "
                                          "additional short TCP flows are passing through only one bottleneck link"),
             figures=PARKING_LOT),
    # Fig. 19 (S5)
    SetupKey("topology.links[R2-R3].a", Paper("§6.7", "share the bottleneck link between R2 and R3"), figures=PAIRS),
    SetupKey("topology.links[R2-R3].b", Paper("§6.7", "share the bottleneck link between R2 and R3"), figures=PAIRS),
    SetupKey("topology.links[R2-R3].*", Reconstruction(
        "Fig. 19's capacities survive only in the figure: S1's bottleneck, 2 Mbit/s and 20 ms"), figures=PAIRS),
    *_links(_PAIR_ACCESS, "bandwidth", Reconstruction(
        "§6.7 says only 'via links with the same bandwidth and propagation delay': S1's access links, 5 Mbit/s"),
        PAIRS),
    *_links(_PAIR_ACCESS, "delay", Reconstruction(
        "§6.7 says only 'via links with the same bandwidth and propagation delay': S1's access links, 20 ms"), PAIRS),
    SetupKey("topology.links[*].queue.kind", Paper("§6.7", "We use Drop Tail queues in routers R1 to R4"),
             figures=PAIRS),
    SetupKey("topology.links[*].queue.limit", Ns2("Queue limit_", "50", "packets"), figures=PAIRS),
    SetupKey("topology.*", Reconstruction(
        "Fig. 19 survives as a caption: routers R1–R4 in a line, the two sources behind R1 and their receivers behind "
        "R4 (both cross R2→R3 the same way: 'opposite directions' over a duplex link would share nothing, AMB-17), "
        "10 Mbit/s, 10 ms between the other routers"), figures=PAIRS),
    # The dumbbells (S3, S6, S7)
    SetupKey("topology.links[L-R].delay", Paper("§6.5", "we use a dumbbell topology without any background traffic "
                                                "and set the one-way delay to 20 ms"), figures=("fig10-12",)),
    SetupKey("topology.links[L-R].bandwidth", Reconstruction(
        "§6.5 gives no capacity: 2 Mbit/s, as S1's bottlenecks (above the clip's q = 2 rate, so the video alone "
        "rarely congests it; reading s3-capacity: ns-2's DelayLink bandwidth_ 1.5 Mbit/s)"), figures=("fig10-12",)),
    SetupKey("topology.links[L-R].bandwidth", Paper("§6.8", "The bottleneck link has 4 Mb/s capacity and 10 ms delay"),
             figures=ON_OFF),
    SetupKey("topology.links[L-R].delay", Paper("§6.8", "The bottleneck link has 4 Mb/s capacity and 10 ms delay"),
             figures=ON_OFF),
    *_links(_FAST_ACCESS, "bandwidth", Reconstruction(
        "the dumbbells' access links are not given: 100 Mbit/s, so that only the bottleneck queues (reading "
        "s6-access: §6.1's 5 Mbit/s, 20 ms access links)"), DUMBBELL),
    *_links(_FAST_ACCESS, "delay", Reconstruction(
        "the dumbbells' access links are not given: 1 ms, so that the path delay is the bottleneck's (§6.5's "
        "'one-way delay ... 20 ms')"), DUMBBELL),
    SetupKey("topology.links[*].queue.kind", Reconstruction(
        "DropTail, the queue of every router the paper names (§6.1, §6.7); §6.5 and §6.8 name none"), figures=DUMBBELL),
    SetupKey("topology.links[*].queue.limit", Ns2("Queue limit_", "50", "packets"), figures=DUMBBELL),
    SetupKey("topology.*", Reconstruction(
        "a dumbbell ('we use a dumbbell topology', §6.5, §6.8): the video's sender S and receiver V, and in S6/S7 the "
        "background's source US and sink UD, behind the bottleneck L–R"), figures=DUMBBELL),
    # ---------------------------------------------------------------- the video flows
    *[SetupKey(f"flows[{p}].protocol", Paper("§1", "we compare two single-rate multicast congestion control schemes: "
                                             "TFMCC and ASMP")) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].label", _LABEL) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].packet_size", Paper("§6.1", "The maximum transmission unit (MTU) is set to 1018 bytes for "
                                                "both ASMP and TFMCC")) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].dst", Paper("§6.1", "R1 to R2 stand for the video receivers"), figures=PARKING_LOT)
      for p in _VIDEO],
    *[SetupKey(f"flows[{p}].dst", Paper("§6.7", "two video sources ... to two different multicast groups (one "
                                        "receiver each: 'two representative receivers')"), figures=PAIRS)
      for p in _VIDEO],
    *[SetupKey(f"flows[{p}].src", Paper("§6.7", "connecting two video sources using the same protocol"), figures=PAIRS)
      for p in _VIDEO],
    *[SetupKey(f"flows[{p}].{end}", Reconstruction(
        "one sender and one receiver across the dumbbell (the paper shows one receiver, §6.1)"), figures=DUMBBELL)
      for p in _VIDEO for end in ("src", "dst")],
    *[SetupKey(f"flows[{p}].src", Paper("§6.1", "there is a long multicast video flow. This video sequence passes "
                                        "through two bottleneck links"), figures=PARKING_LOT) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].video.quantizers", Paper("§5", "encoded ... into 30 different encoded MPEG-4 video clips "
                                                     "with quantizer scale values in the range 2–31")) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].video.model", Paper("§5", "the rate-adaptive video: each frame's size from the trace of "
                                                "the quantiser in use (Multi-Evalvid-RA)")) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].video.trace*", Reconstruction(
        "the paper's sequences are not to be had: the project's CIF 25 fps clip encoded at q = 2..31, GOP 12 with "
        "one B frame (IBPBPBPBPBPB, AMB-11), traced as EvalVid does (videoset.py)")) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].video.deadline", Paper("§6.5", "we set the absolute play-out buffer time at 150 ms"),
               figures=("fig10-12",)) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].video.deadline_from", Paper(
        "§6.5", "we specify an absolute play-out buffer time relative to the frame transmission time (eq. 8: G_i, "
        "the sending time of frame i); reading deadline-from-ready: from the frame's ready time"),
        figures=("fig10-12",)) for p in _VIDEO],
    *[SetupKey(f"flows[{p}].video.playout_delay", Reconstruction(
        "'no deadline' (§6.5: 'all received packets are used'): the simulator's judge needs a deadline to close its "
        "window, so 2 s, and the suite re-judges every frame with none (videoset.without_deadline)")) for p in _VIDEO],
    SetupKey("flows[asmp].initial_rate", Reconstruction(
        "the initial rate is not given (AMB-8): the clip's q = 31 rate, as Table 2's lowest (100 kbit/s) is its")),
    SetupKey("flows[asmp].min_rate", Reconstruction(
        "the sender clamps its rate to the video's range: the clip's q = 31 rate (Table 2's 100 kbit/s)")),
    SetupKey("flows[asmp].max_rate", Reconstruction(
        "the sender clamps its rate to the video's range: the clip's q = 2 rate (Table 2's 1642 kbit/s)")),
    # ---------------------------------------------------------------- background traffic
    SetupKey("flows[tcp].protocol", Reconstruction(
        "the paper names no TCP variant (§6.1 'TCP flows'): NewReno, ns-2's Agent/TCP/Newreno")),
    SetupKey("flows[tcp].label", _LABEL),
    SetupKey("flows[tcp].packet_size", Ns2("Agent/TCP packetSize_", "1000", "bytes of payload, + "
                                           "tcpip_base_hdr_size_ 40 on the wire: 1040 B")),
    SetupKey("flows[tcp].max_window", Ns2("Agent/TCP window_", "20", "packets × 1040 B")),
    SetupKey("flows[tcp].initial_window", Ns2("Agent/TCP windowInit_", "2", "packets")),
    SetupKey("flows[tcp].min_rto", Ns2("Agent/TCP minrto_", "0.2", "s")),
    SetupKey("flows[tcp].initial_rto", Ns2("Agent/TCP rtxcur_init_", "3.0", "s")),
    SetupKey("flows[tcp].delayed_ack", Reconstruction(
        "ns-2's plain Agent/TCPSink acknowledges every segment (the delayed one is Agent/TCPSink/DelAck)")),
    SetupKey("flows[tcp].src", Paper("§6.1", "Two additional short TCP flows are passing through only one bottleneck "
                                     "link (one on each)"), figures=PARKING_LOT),
    SetupKey("flows[tcp].dst", Paper("§6.1", "Two additional short TCP flows are passing through only one bottleneck "
                                     "link (one on each)"), figures=PARKING_LOT),
    SetupKey("flows[tcp].start", Reconstruction(
        "the paper gives no start times: each TCP flow starts at U(0, 1) s, out of step"), figures=PARKING_LOT),
    SetupKey("flows[tcp].*", Reconstruction(
        "the suite's baseline (B1): two TCP flows in place of the two video sessions, from S1 and S2 to D1 and D2"),
        figures=PAIRS),
    SetupKey("flows[tcp].count", Reconstruction("§6.8 does not say how many TCP flows: two"), figures=ON_OFF),
    SetupKey("flows[tcp].*", Reconstruction(
        "§6.8: 'we inject TCP background traffic in a similar way' to the UDP square wave: on for 20 s, off for 20 s "
        "from 20 s, from US to UD across the bottleneck"), figures=ON_OFF),
    SetupKey("flows[udp].protocol", Paper("§6.8", "UDP traffic is transmitted by a constant bit rate (CBR) source")),
    SetupKey("flows[udp].rate", Paper("§6.8", "UDP traffic is transmitted by a constant bit rate (CBR) source at "
                                      "2 Mb/s, which occupies one half of the available bandwidth")),
    SetupKey("flows[udp].packet_size", Ns2("Application/Traffic/CBR packetSize_", "210", "bytes")),
    SetupKey("flows[udp].label", _LABEL),
    SetupKey("flows[udp].*", Reconstruction(
        "§6.8: 'we vary the available bandwidth in the bottleneck link as a square wave by injecting UDP traffic "
        "throughout the simulation time' with no period: on for 20 s, off for 20 s from 20 s, from US to UD")),
]
