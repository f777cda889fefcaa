"""The SRAMT suite's set-up readings for ``vidcc reproduce sramt --explore``.

Where the paper is silent, the suite's scenarios take ns-2 2.35's default (what its authors ran,
§8; ``scenarios``). The values the suite had before, its own reconstructions, are kept here as
set-up readings (:class:`~vidcc.papers.model.Alternative` with ``setup``): each names key-path
patterns of the scenarios and the value they take under the reading. They were declared from the
paper's text (it says "RED", "4.3BSD Tahoe TCP", "a mean of 20 packets" and no more) before any
was run; none becomes a default because it passes.

Each reading bears on every claim whose figure it changes (:func:`bearing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from vidcc.papers.model import Alternative, Claim, Figure
from vidcc.papers.sramt.scenarios import BACKGROUND_PACKET_BYTES, SCENARIO_A_BASELINES, SRAMT_FIGURE_A

SCENARIO_B = ("fig11", "fig12", "fig13", "fig14")

# The suite's earlier RED: classic parameters, set explicitly, in packets.
_CLASSIC_RED = {"min_thresh": 5, "max_thresh": 15, "weight": 0.002, "gentle": False, "bytes": False, "limit": 50}
OLD_PACKET_BYTES = 1000  # the suite's earlier size of the background's packets (and vidcc's TCP default)


def _sramt_flows_with(doc: str, **keys):
    """A set-up value for ``flows[sramt-*]``: the flow with the protocol ``keys`` added (both
    variants at once, so that a claim on S and LE together is run under the one reading)."""

    def reading(flow: dict) -> dict:
        return {**flow, **keys}

    reading.__doc__ = doc
    return reading


def _on_mean_of_1000b_packets(current: str) -> str:
    """ON mean of 20 packets of 1000 B at the generator's peak rate (was 20 of 210 B)"""
    ms = float(current.removesuffix("ms"))
    return f"{ms * OLD_PACKET_BYTES / BACKGROUND_PACKET_BYTES:.1f}ms"


ALTERNATIVES = [
    # Protocol readings of SRAMT itself (both variants), each an ambiguity the paper page's register
    # names (docs/papers/sramt.md §1.14), declared from the paper's words before any was run.
    Alternative(
        "no-aimd", ref="paper §3.2, Eq. 4: r^i = min(r_r_tcp, r_AIMD, r_l_tcp) with the AIMD of [2], which the paper "
                       "does not give (A-07)",
        setup={"flows[sramt-*]": _sramt_flows_with("SRAMT's sender without the AIMD stand-in (aimd = false)",
                                                   aimd=False)},
        note="the sender's preferred rate is the minimum of the two equation rates only (vidcc's `aimd = false`), "
             "instead of also taking the suite's AIMD stand-in (+5 % of the band top per loss-free report, × (1 − √l) "
             "above 5 % loss), which the paper names but does not specify"),
    Alternative(
        "current-estimate", ref="paper §3.3: 'At the end of each epoch, each receiver compares the value of the "
                                "r_r_tcp^i' (A-13b)",
        setup={"flows[sramt-*]": _sramt_flows_with("SRAMT's receivers compare their current estimate at an epoch end "
                                                   "(epoch_estimate = current)", epoch_estimate="current")},
        note="at an epoch end a receiver compares its current r_r_tcp (the value, as §3.3 words it) with the rates, "
             "instead of its mean over the epoch just ended"),
    Alternative(
        "unsuccessful-within-t-change", ref="paper §3.3: 'joins (or leaves) a stream/layer and after a short time "
                                            "period (T_change) drops (or adds) again this stream/layer' (A-17)",
        setup={"flows[sramt-*]": _sramt_flows_with("SRAMT's back-off counts an undo only within T_change + T_epoch/2 "
                                                   "(unsuccessful_window = 7.5 s)", unsuccessful_window="7.5s")},
        note="a change counts as unsuccessful only if undone within T_change (+ half an epoch for the one-way delay: "
             "7.5 s), the paper's words read literally, instead of whenever the receiver's next change undoes it"),
    Alternative(
        "classic-red", ref="paper §8.1, §8.2: 'they use the RED ... policy to their queues' (no parameters)",
        setup={f"topology.links[*].queue.{k}": v for k, v in _CLASSIC_RED.items()},
        note="every RED queue with the classic parameters the suite set before (min_th 5, max_th 15 packets, w_q "
             "0.002, max_p 0.1, gentle off, packet mode, limit 50 packets) instead of ns-2 2.35's Queue/RED defaults "
             "auto-configured from the link (byte mode over mean_pktsize_ 500, thresholds from targetdelay_ 5 ms "
             "and at least 5, weight from the link's RTT, gentle on, limit 25 000 B)"),
    Alternative(
        "droptail-access", ref="paper §8.1: 'All the links in the simulation topology ... use the RED ... policy'",
        setup={p: {"kind": "droptail", "limit": "bdp"}
               for p in ("topology.links[S-C1].queue", "topology.links[TCP*-C1].queue", "topology.links[C2-*].queue",
                         "topology.links[C3-*].queue", "topology.links[C4-*].queue")},
        figures=(*SRAMT_FIGURE_A.values(), SCENARIO_A_BASELINES),
        note="Scenario A's 10 Mbit/s access links with the simulator's DropTail of one bandwidth-delay product, as "
             "the suite had them, instead of RED on every link as §8.1 says"),
    Alternative(
        "vidcc-tahoe", ref="paper §8.1: 'We model the TCP sources as 4.3BSD Tahoe TCP sources' (no parameters)",
        setup={"flows[*].max_window": "64000B", "flows[*].initial_rto": "1s", "flows[tcp*].packet_size": "1000B",
               "flows[standin*].packet_size": "1000B"},
        note="the Tahoe flows with vidcc's TCP defaults, as the suite had them (64 000 B window, 1 s initial RTO, "
             "1000 B packets with their headers) instead of ns-2 2.35's Agent/TCP (window_ 20 packets of 1040 B, "
             "rtxcur_init_ 3 s)"),
    Alternative(
        "background-1000B", ref="paper §8.2: 'a Pareto distribution ... with a mean of 20 packets' (no size)",
        setup={"flows[background].packet_size": "1000B", "flows[background].on_mean": _on_mean_of_1000b_packets},
        figures=SCENARIO_B,
        note="Scenario B's on/off background generators send 1000 B packets, as the suite had them, instead of "
             "ns-2 2.35's Application/Traffic/Pareto packetSize_ 210; the ON mean stays 20 packets"),
    Alternative(
        "fig2-background-1000B", ref="paper §4.2: 'an on/off traffic generator using an exponential distribution "
                                     "with transmission rate of 0.5 Mbps during on times' (no size)",
        setup={"flows[background].packet_size": "1000B"}, figures=("fig2",),
        note="Fig. 2's on/off background sends 1000 B packets, as the suite had them, instead of ns-2 2.35's "
             "Application/Traffic/Exponential packetSize_ 210 (its ON and OFF means are times: unchanged)"),
]


def bearing(claims: Sequence[Claim], figures: Sequence[Figure]) -> Mapping[str, list[str]]:
    """Alternative name → the claims whose figure it changes (a claim without a figure: none)."""
    by_id = {f.id: f for f in figures}
    return {a.name: [c.id for c in claims if c.figure in by_id and a.in_figure(c.figure)
                     and any(a.applies_to(p) for p in by_id[c.figure].parts)]
            for a in ALTERNATIVES}
