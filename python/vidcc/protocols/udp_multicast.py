"""Scenario model of `udp-multicast`: unresponsive multicast, constant-rate groups (bulk data) or
the flow's video with a group per layer or simulcast stream (docs/protocols/udp-multicast.md).
Its receivers are the flow's `receivers` (or a graph flow's `dst` list); each joins its `groups`
(default: every group) at its start and leaves at its stop.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import U32_MAX, CoreFlow, Rate, integer


class UdpMulticastFlow(CoreFlow):
    protocol: Literal["udp-multicast"]
    # Bulk data: the rate of each group's constant-rate stream, and how many groups.
    rate: Rate = 1_000_000
    groups: Annotated[int, BeforeValidator(integer(minimum=1, maximum=U32_MAX))] = 1


def _groups(flow: UdpMulticastFlow) -> int:
    if flow.video is not None:
        return len(flow.video.layers or flow.video.streams or [0])
    return flow.groups


def _resolve(flow: UdpMulticastFlow) -> dict:
    return {"rate_bps": flow.rate, "groups": _groups(flow)}


def _check(flow: UdpMulticastFlow, here: str, fail) -> None:
    if flow.video is not None:
        for key in ("rate", "groups"):
            if key in flow.model_fields_set:
                fail(f"{here}.{key}", "a video flow sends a group per layer or stream of its video; drop " + key)
    groups = _groups(flow)
    for j, r in enumerate(flow.receivers or []):
        for g in r.groups or []:
            if g >= groups:
                fail(f"{here}.receivers[{j}].groups", f"no group {g}: the sender has {groups} (0 .. {groups - 1})")


register(ProtocolSpec("udp-multicast", UdpMulticastFlow, _resolve, check=_check, video="optional"))
