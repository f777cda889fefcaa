"""ns-2 2.35's defaults, for what a paper's simulation leaves unset.

The papers ran ns-2; where one does not give a value, a suite takes the one ns-2 2.35 would have
used (the project's reference), not vidcc's own default (which stays as documented for users'
scenarios). Every value below was printed by ns-2 2.35 itself (``puts [Agent/TCP set window_]``
in a script run by ``ns``; for RED, ``[[$ns link $a $b] queue] set thresh_`` after
``duplex-link ... RED``) and agrees with ``tcl/lib/ns-default.tcl`` and ``queue/red.cc``.
"""

from __future__ import annotations

import math

from vidcc.papers.provenance import Ns2

QUEUE_LIMIT = 50  # Queue limit_ 50 (packets): every DropTail queue and RED's hard limit
TCP_WINDOW = 20  # Agent/TCP window_ 20 (packets: the receiver window the sender never exceeds)
TCP_INITIAL_WINDOW = 2  # Agent/TCP windowInit_ 2 (vidcc's default too)
TCP_MIN_RTO = "200ms"  # Agent/TCP minrto_ 0.2 (vidcc's default too)
TCP_INITIAL_RTO = "3s"  # Agent/TCP rtxcur_init_ 3.0 (vidcc's default is RFC 6298's 1 s)
TCP_SINGLEDUP = 1  # Agent/TCP singledup_ 1: limited transmit (vidcc's default too: limited_transmit)
TCP_HEADER_BYTES = 40  # Agent/TCP tcpip_base_hdr_size_ 40, added to packetSize_ (useHeaders_ true)
TCP_PACKET_BYTES = 1000 + TCP_HEADER_BYTES  # packetSize_ 1000 of payload: 1040 B on the wire
CBR_PACKET_BYTES = 210  # Application/Traffic/CBR packetSize_ 210 (over Agent/UDP: one packet each)
RED_MEAN_PACKET_BYTES = 500  # Queue/RED mean_pktsize_ 500
RED_TARGET_DELAY_S = 0.005  # Queue/RED targetdelay_ 0.005
RED_LINTERM = 10  # Queue/RED linterm_ 10: max_p = 1/10

# The constants above as the ns-2 variables they stand for: `make validate` asks `ns` for each and
# fails on a difference (vidcc.validate.defaults), as for the defaults the set-up tables declare.
SOURCES = [
    Ns2("Queue limit_", str(QUEUE_LIMIT)),
    Ns2("Agent/TCP window_", str(TCP_WINDOW)),
    Ns2("Agent/TCP windowInit_", str(TCP_INITIAL_WINDOW)),
    Ns2("Agent/TCP minrto_", str(int(TCP_MIN_RTO.removesuffix("ms")) / 1000)),
    Ns2("Agent/TCP rtxcur_init_", TCP_INITIAL_RTO.removesuffix("s")),
    Ns2("Agent/TCP singledup_", str(TCP_SINGLEDUP)),
    Ns2("Agent/TCP tcpip_base_hdr_size_", str(TCP_HEADER_BYTES)),
    Ns2("Agent/TCP packetSize_", str(TCP_PACKET_BYTES - TCP_HEADER_BYTES)),
    Ns2("Application/Traffic/CBR packetSize_", str(CBR_PACKET_BYTES)),
    Ns2("Queue/RED mean_pktsize_", str(RED_MEAN_PACKET_BYTES)),
    Ns2("Queue/RED targetdelay_", str(RED_TARGET_DELAY_S)),
    Ns2("Queue/RED linterm_", str(RED_LINTERM)),
]


def droptail() -> dict:
    """A DropTail queue as ns-2 makes it: limit_ 50 packets."""
    return {"kind": "droptail", "limit": QUEUE_LIMIT}


def tcp_keys(packet_size_bytes: int) -> dict:
    """The TCP agent keys of an ns-2 2.35 ``Agent/TCP`` with its defaults, for segments of
    ``packet_size_bytes`` on the wire: window_ 20 packets (vidcc counts it in bytes, as
    max_window / packet_size), windowInit_ 2, minrto_ 0.2 s, rtxcur_init_ 3 s, and the plain
    ``Agent/TCPSink``'s ACK per segment (no delayed ACKs). ns-2 2.35 defaults vidcc has no key
    for: maxburst_ 0 (no burst limit, as vidcc), tcpTick_ 0.01 (vidcc's RTO granularity is
    10 ms), syn_ true (a 40 B SYN before the data: vidcc has no handshake)."""
    return {"max_window": f"{TCP_WINDOW * packet_size_bytes}B", "initial_window": TCP_INITIAL_WINDOW,
            "min_rto": TCP_MIN_RTO, "initial_rto": TCP_INITIAL_RTO, "delayed_ack": False}


def red_params(bandwidth_bps: float, delay_s: float) -> dict:
    """What ns-2 2.35's ``Queue/RED`` (``REDQueue::initialize_params``) makes of its defaults on
    a link of this bandwidth and delay. Defaults: thresh_ 0 and maxthresh_ 0 (automatic),
    q_weight_ -1 (automatic), linterm_ 10, gentle_ true, wait_ true, bytes_ and queue_in_bytes_
    true, mean_pktsize_ 500, targetdelay_ 0.005, limit_ 50. With ptc = bandwidth / (8 ·
    mean_pktsize_) packets per second:

    * thresh_ = max(5, targetdelay_ · ptc / 2) packets, maxthresh_ = 3 · thresh_, both times
      mean_pktsize_ in byte mode;
    * q_weight_ = 1 − exp(−1 / (10 · rtt · ptc)), rtt = max(0.1 s, 3 · (delay + 1/ptc));
    * the hard limit in byte mode is limit_ · mean_pktsize_ = 25 000 bytes.

    E.g. 100 Mb/s, 35 ms: thresh_ 62.5, maxthresh_ 187.5 packets, q_weight_ 3.80510264218481e-05
    (as ``ns`` prints them). At such speeds the thresholds (31 250 and 93 750 bytes) lie above the
    25 000-byte limit: the average can never reach them, so ns-2's default RED on a fast link
    never drops early and acts as a 25 000-byte DropTail queue."""
    ptc = bandwidth_bps / (8.0 * RED_MEAN_PACKET_BYTES)
    rtt = max(0.1, 3.0 * (delay_s + 1.0 / ptc))
    th_min = max(5.0, RED_TARGET_DELAY_S * ptc / 2.0)
    return {
        "min_thresh": th_min * RED_MEAN_PACKET_BYTES,
        "max_thresh": 3.0 * th_min * RED_MEAN_PACKET_BYTES,
        "weight": 1.0 - math.exp(-1.0 / (10.0 * rtt * ptc)),
        "max_p": 1.0 / RED_LINTERM,
        "gentle": True,
        "bytes": True,
        "mean_packet_size": f"{RED_MEAN_PACKET_BYTES}B",
        "wait": True,
    }


def red(bandwidth_bps: float, delay_s: float) -> dict:
    """A RED queue as ns-2 2.35 configures ``duplex-link ... RED`` with its defaults (see
    :func:`red_params`), byte limit limit_ · mean_pktsize_. (ns-2 admits an arrival while the
    queue holds fewer than 25 000 bytes, so it may overshoot by one packet; vidcc admits it only
    if it fits.)"""
    return {"kind": "red", "limit": f"{QUEUE_LIMIT * RED_MEAN_PACKET_BYTES}B", **red_params(bandwidth_bps, delay_s)}
