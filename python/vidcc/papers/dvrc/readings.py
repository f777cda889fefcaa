"""The DVRC suite's readings for ``vidcc reproduce dvrc --explore``: where the paper leaves an
interpretation of DVRC open and the code exposes the other one (protocol readings), and where the
suite's set-up departs from what the paper or ns-2 2.35 would give (set-up readings). Each was
declared from the paper's text before it was run; none becomes a default because it passes.

Each reading bears on every claim whose figure it changes (:func:`bearing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vidcc.papers.model import Alternative, Claim, Figure

CROSS_TRAFFIC = ("fig8-10", "fig11", "fig12-14")  # the figures on the cross-traffic topology (Fig. 5a, b)

ALTERNATIVES = [
    Alternative("pacing", "dvrc", {"pacing": True}, "docs/papers/dvrc.md §1.1.1 reading (b); paper §3.1",
                note="the sender paces packets at the receiver's rate R instead of sending each frame's packets back "
                "to back. The paper says data are 'sent out based on the determined rate at the receiving end' "
                "(§3.1). A reading outside the project found Jain 0.99–0.998 with pacing where frame bursts meeting "
                "the DropTail queue at fixed phases gave 0.7–0.8."),
    Alternative("alpha-per-second", "dvrc", {"alpha_unit": "packets_per_second"}, "docs/papers/dvrc.md A5",
                note="α as one packet per second per round instead of one packet per RTT: a far slower additive "
                "increase, which leaves the competing Reno flows more room."),
    Alternative("compare-r-prev", "dvrc", {"compare": "r_prev"}, "docs/papers/dvrc.md A7 (Eq. 11 as printed)",
                note="the loss classifier compares the previous computed rate R(t−1), as Eq. (11) prints, instead of "
                "the receiving rate measured at the loss (the prose and Fig. 3)."),
    Alternative(
        "bdp-host-queues",
        ref="paper §4.1: 'the routers are drop-tail with buffer size adjusted in accordance with the "
                               "bandwidth-delay product' (hosts' queues not given)",
        setup={p: {"kind": "droptail", "limit": "bdp"}
               for p in ("*access.queue", "topology.links[DS-L].queue", "topology.links[TS-L].queue")},
        note="every sending host's interface queue the bandwidth-delay product (at least 10 packets), as the suite had "
             "it, instead of ns-2 2.35's default Queue limit_ 50 packets: in S0 and S1 (1 Mbit/s access links) a "
             "10-packet queue drops part of each of DVRC's back-to-back frame bursts at its own host"),
    Alternative(
        "r1-5m", ref="paper §4.1: 'The router R1 is the bottleneck for MPEG traffic, while the router R2 is another "
                     "bottleneck for competing MPEG and cross traffic' (no capacity in the text)",
        setup={"topology.links[R1-R2].bandwidth": "5Mbps"}, figures=CROSS_TRAFFIC,
        note="R1–R2 at 5 Mbit/s, the SSVP suite's value of the shared builder (papers/cross_traffic.py): narrower "
             "than the MPEG flows' share of R2–R3 from 10 flows on, so that R1 drops the MPEG flows' excess even "
             "when they adapt; instead of 10 Mbit/s, as wide as R2–R3 (the suite's value: plain UDP can only make "
             "R2's queue overflow, Fig. 11b, through an R1 at least that wide, and 50 base layers of 128 kbit/s "
             "need 6.4 Mbit/s)"),
    Alternative("rtcp-rate", "rtcp-udp", {"adaptation": "rate"},
                "paper §4.1: 'RTCP/UDP is tested with the specific layered adaptation scheme' (after DVRC's, whose "
                "K = max{j : c_j ≤ B} for a receiver 'with an expected bandwidth B', §3.3); docs/papers/dvrc.md §1.3",
                note="RTCP/UDP's application maps the receiving rate B of the last report interval, which every RR "
                "reports, to K = max{j : c_j ≤ B} instead of one layer down per lossy report and one up per clean "
                "one (docs/protocols/rtcp-udp.md 'Adaptation'). It has no probe upwards: K rises only when the "
                "measured rate reaches the next cumulative rate."),
    Alternative("rtcp-rate-on-loss", "rtcp-udp", {"adaptation": "rate_on_loss"},
                "paper §5.3: RTCP 'simply provides information to the application allowing the source to reduce its "
                "transmission rate on the occurrence of congestion'; §4.1 'the specific layered adaptation scheme'",
                note="on a report with loss RTCP/UDP's application sets K = max{j : c_j ≤ B} from the reported "
                "receiving rate (never adding a layer), on a loss-free report it adds one layer as the default does "
                "(docs/protocols/rtcp-udp.md 'Adaptation')."),
]


# Claims whose check also reads another figure's runs (``d.other``).
ALSO_READS = {"C12": ("fig8-10",), "C22": ("fig12-14",), "C25": ("fig8-10",)}


def bearing(claims: Sequence[Claim], figures: Sequence[Figure]) -> Mapping[str, list[str]]:
    """Alternative name → the claims whose figure (or a figure their check also reads) it changes."""
    by_id = {f.id: f for f in figures}

    def changes(a: Alternative, fid: str) -> bool:
        return fid in by_id and a.in_figure(fid) and any(a.applies_to(p) for p in by_id[fid].parts)

    return {a.name: [c.id for c in claims if c.figure and any(changes(a, f) for f in (c.figure,
                                                                                       *ALSO_READS.get(c.id, ())))]
            for a in ALTERNATIVES}
