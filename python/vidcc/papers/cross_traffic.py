"""The cross-traffic topology both papers of Papadimitriou et al. use (DVRC Fig. 5a, SSVP Fig. 6b),
built once for the two suites (docs/papers/dvrc.md §2, docs/papers/ssvp.md §2).

The papers describe it in the same words: per-flow access links from every source and to every
FTP sink of U[5, 15] ms and U[2, 10] Mbit/s, access links to the MPEG sinks of 2 Mbit/s with
random errors, FTP/Reno cross traffic, "multiple bottlenecks", drop-tail routers whose buffers
follow the bandwidth-delay product. The DVRC paper names the bottlenecks (§4.1): "The router R1
is the bottleneck for MPEG traffic, while the router R2 is another bottleneck for competing MPEG
and cross traffic."

Reconstruction (the figures are not in the text): routers R1–R2–R3; the MPEG flows go R1→R2→R3,
the FTP flows R2→R3 (they meet the MPEG flows at R2 only). For R1 to be the MPEG flows'
bottleneck its link must be narrower than the MPEG flows' share of R2's: R2–R3 10 Mbit/s and
R1–R2 5 Mbit/s, both 10 ms. With M MPEG and 10 FTP flows R2's share for the MPEG flows is
10·M/(M+10) Mbit/s, above R1–R2's 5 Mbit/s from M = 10 on: R1→R2 drops the MPEG flows' excess,
and R2→R3 (loaded by the greedy FTP flows) is the second bottleneck, shared by both. (The
suites had two readings of the same figure before: DVRC's R1–R2 = R2–R3 = 10 Mbit/s, where R1
dropped almost nothing, and SSVP's R1–R2 10, R2–R3 5 Mbit/s, where R1 dropped nothing.)
The DVRC suite passes its own R1–R2 capacity (``topology(r1_r2=...)``): the DVRC paper's text asks
for an R1–R2 as wide as R2–R3 (docs/papers/dvrc.md §3.1); the SSVP suite keeps the default here.
Every queue is drop-tail with the bandwidth-delay product of the flows crossing it [P] (the
``bdp`` limit: capacity × the largest propagation RTT of those flows).
"""

from __future__ import annotations

from vidcc.papers.building import glink, graph

R1_R2 = "5Mbps"  # reconstruction: narrower than the MPEG flows' share of R2–R3 (R1 = MPEG bottleneck)
R2_R3 = "10Mbps"  # reconstruction (DVRC suite's value): shared by MPEG and FTP (R2 = second bottleneck)
CORE_DELAY = "10ms"  # reconstruction (DVRC suite's value)
ACCESS = {"bandwidth": ["2Mbps", "10Mbps"], "delay": ["5ms", "15ms"]}  # per flow instance [P ranges, uniform]
MPEG_SRC, MPEG_DST = "R1", "R3"
FTP_SRC, FTP_DST = "R2", "R3"
MPEG_BOTTLENECK = "R1->R2"  # the link the paper names as the MPEG flows' bottleneck
SHARED_BOTTLENECK = "R2->R3"


def topology(r1_r2: str = R1_R2) -> dict:
    """R1–R2–R3 with bandwidth-delay-product drop-tail queues (the ``bdp`` default); ``r1_r2`` the
    R1–R2 capacity (a suite whose paper asks for another one passes it)."""
    return graph(["R1", "R2", "R3"], [glink("R1", "R2", r1_r2, CORE_DELAY), glink("R2", "R3", R2_R3, CORE_DELAY)])


def mpeg_placement(sink_access: dict) -> dict:
    """The keys placing an MPEG flow: R1→R3, its own source access link, ``sink_access`` (2 Mbit/s
    with the paper's error model)."""
    return {"src": MPEG_SRC, "dst": MPEG_DST, "source_access": ACCESS, "sink_access": sink_access}


def ftp_placement(src: str = FTP_SRC, dst: str = FTP_DST) -> dict:
    """The keys placing an FTP flow: R2→R3 (reverse flows R3→R2), own access links at both ends."""
    return {"src": src, "dst": dst, "source_access": ACCESS, "sink_access": ACCESS}


def draining_phases(d, run_id: str, limit: float, link: str = SHARED_BOTTLENECK) -> int:
    """Full → low excursions of ``link``'s queue in one run (both papers' Fig. 11/13 "buffer
    draining phase"): the queue reaches ≥ 90 % of its buffer, then falls to ≤ 20 % (suite
    thresholds)."""
    links = d.series(run_id, "links")
    lid = links[links["name"] == link]["link"].iloc[0]
    q = d.series(run_id, "queue_samples")
    q = q[q["link"] == lid]["packets"].to_numpy()
    count, high = 0, False
    for x in q:
        if x >= 0.9 * limit:
            high = True
        elif x <= 0.2 * limit and high:
            count, high = count + 1, False
    return count
