"""What exists today, asked of the code rather than listed: protocols and simulator features.

A protocol exists iff the protocol registry names it (:func:`vidcc.protocols.names`); a feature
(multicast trees, wireless ARQ links, a video source, video over TCP) exists iff the scenario
schema accepts its probe scenario (:data:`FEATURES`). A part or claim that needs something
missing is NOT-YET; :func:`missing` says what, in the words the report shows.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from vidcc import protocols
from vidcc.scenario import ScenarioError, parse_scenario

__all__ = ["Feature", "FEATURES", "protocol_exists", "feature_exists", "missing"]


def _probe_scenario(flow: dict) -> dict:
    return {
        "scenario": {"duration": "1s"},
        "topology": {
            "kind": "dumbbell",
            "bottleneck": {"bandwidth": "1Mbps", "delay": "1ms"},
            "access": {"bandwidth": "10Mbps", "delay": "1ms"},
        },
        "flows": [flow],
    }


def protocol_exists(name: str) -> bool:
    """True iff a scenario may name ``protocol = name``: it is in the protocol registry
    (:func:`vidcc.protocols.names`)."""
    return name in protocols.names()


@dataclass(frozen=True)
class Feature:
    """Something a figure needs besides protocols. It exists iff the schema accepts ``probe()``
    (a user-level scenario using it). The issue that adds the feature makes the probe use the
    feature's real syntax; until then the probe is the expected shape and fails validation."""

    name: str
    description: str
    probe: Callable[[], dict]


def _probe_multicast() -> dict:
    # One sender, two receivers: a flow whose `dst` is a list of nodes (a multicast group).
    return {
        "scenario": {"duration": "1s"},
        "topology": {
            "kind": "graph",
            "nodes": ["S", "R", "A", "B"],
            "links": [
                {"a": "S", "b": "R", "bandwidth": "10Mbps", "delay": "1ms"},
                {"a": "R", "b": "A", "bandwidth": "10Mbps", "delay": "1ms"},
                {"a": "R", "b": "B", "bandwidth": "10Mbps", "delay": "1ms"},
            ],
        },
        "flows": [{"protocol": "udp-multicast", "rate": "1Mbps", "src": "S", "dst": ["A", "B"]}],
    }


def _probe_wireless_arq() -> dict:
    sc = _probe_scenario({"protocol": "udp-cbr", "rate": "100kbps"})
    sc["topology"]["bottleneck"]["arq"] = {"kind": "persistent"}
    return sc


def _probe_video() -> dict:
    return _probe_scenario({"protocol": "udp", "video": {"model": "tes-mpeg4", "rate": "1Mbps"}})


def _probe_video_over_tcp() -> dict:
    return _probe_scenario({"protocol": "tcp-westwood-plus", "video": {"model": "tes-mpeg4", "rate": "1Mbps"}})


FEATURES: dict[str, Feature] = {
    "multicast": Feature("multicast", "one-to-many flows over multicast trees", _probe_multicast),
    "wireless-arq": Feature("wireless-arq", "a wireless last hop with link-layer ARQ", _probe_wireless_arq),
    "video": Feature("video", "a video source feeding a flow: frames, layers, VDI", _probe_video),
    "video-over-tcp": Feature("video-over-tcp", "a TCP flow carrying video through its send buffer",
                              _probe_video_over_tcp),
}


@functools.lru_cache(maxsize=None)
def feature_exists(name: str) -> bool:
    feature = FEATURES.get(name)
    if feature is None:
        return False
    try:
        parse_scenario(feature.probe(), source="<probe>")
    except ScenarioError:
        return False
    return True


def missing(protocols: Iterable[str] = (), features: Iterable[str] = ()) -> list[str]:
    """Reasons something cannot run yet (empty when everything exists)."""
    reasons = [f"protocol {p!r} is not implemented yet" for p in dict.fromkeys(protocols) if not protocol_exists(p)]
    for f in dict.fromkeys(features):
        if not feature_exists(f):
            what = FEATURES[f].description if f in FEATURES else "unknown feature"
            reasons.append(f"feature {f!r} is not available yet ({what})")
    return reasons

