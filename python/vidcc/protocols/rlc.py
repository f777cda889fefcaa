"""Scenario model of `rlc` (vidcc_core::proto::rlc; docs/protocols/rlc.md).

RLC (Vicisano, Rizzo, Crowcroft, INFOCOM 1998): receiver-driven cumulative layers whose
cumulative rate doubles per layer; receivers join a layer only at a synchronisation point of
their level with no loss since the previous one, and drop their top layer on a loss, then stay
deaf to losses for a while. Bulk data only; no feedback. Every default is this implementation's
choice (docs/papers/sramt.md §2.2, records none), documented in
docs/scenarios.md. The resolved form is the Rust `RlcConfig`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import BaseFlow, PositiveDuration, Rate, integer

# The data header, as the protocol registry of vidcc-core declares it.
HEADER_BYTES = _vidcc.protocol_header_bytes("rlc")
MAX_LAYERS = 16


class RlcFlow(BaseFlow):
    protocol: Literal["rlc"]
    layers: Annotated[int, BeforeValidator(integer(minimum=1, maximum=MAX_LAYERS))] = 6
    base_rate: Rate = 32_000
    sp_interval: PositiveDuration = 1_000_000_000
    burst: PositiveDuration = 250_000_000
    deaf_period: PositiveDuration = 1_000_000_000


def _resolve(flow: RlcFlow) -> dict:
    return {
        "layers": flow.layers,
        "base_rate_bps": flow.base_rate,
        "sp_interval_ns": flow.sp_interval,
        "burst_ns": flow.burst,
        "deaf_ns": flow.deaf_period,
    }


def _check(flow: RlcFlow, here: str, fail) -> None:
    if 2 * flow.burst > flow.sp_interval:
        fail(f"{here}.burst", f"at most half of sp_interval ({flow.sp_interval / 2e9:g}s): the pause after a point "
             "must end before the next burst begins")
    if flow.base_rate << (flow.layers - 1) > 2**62:
        fail(f"{here}.base_rate", f"doubled over {flow.layers} layers it overflows")
    if flow.packet_size <= HEADER_BYTES:
        fail(f"{here}.packet_size", f"must be more than the {HEADER_BYTES}B RLC header, got {flow.packet_size}B")
    for j, r in enumerate(flow.receivers or []):
        if r.groups:
            fail(f"{here}.receivers[{j}].groups", "rlc receivers choose their layers themselves (all start at level 1)")


register(ProtocolSpec("rlc", RlcFlow, _resolve, _check, video="none"))
