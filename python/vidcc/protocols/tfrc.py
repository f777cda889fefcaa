"""Scenario model of `tfrc` (vidcc_core::proto::tfrc; docs/protocols/tfrc.md).

TFRC (RFC 5348) carries bulk data (no `video` table) or a video at full quality (every layer;
the top stream of a simulcast). Keys are in user units; every default is RFC 5348's value or the
DVRC digest's choice (specs/000-dvrc.md §1.3), documented in docs/scenarios.md. The resolved form
is the Rust `TfrcConfig`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, PositiveDuration, integer, number

# The data header, as the protocol registry of vidcc-core declares it.
HEADER_BYTES = _vidcc.protocol_header_bytes("tfrc")

_AtLeastOne = Annotated[float, BeforeValidator(number(minimum=1.0))]


class TfrcFlow(CoreFlow):
    protocol: Literal["tfrc"]
    q: Annotated[float, BeforeValidator(number(minimum=0.0))] = 0.9
    b: _AtLeastOne = 1.0
    t_mbi: PositiveDuration = 64_000_000_000
    nofeedback_rtts: _AtLeastOne = 4.0
    initial_rate: Literal["rfc3448", "rfc5348"] = "rfc3448"
    ndupack: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 3
    history_discounting: bool = False
    discount_threshold: Annotated[float, BeforeValidator(number(above=0.0))] = 0.5
    oscillation_prevention: bool = False
    sender_buffer_packets: Annotated[int, BeforeValidator(integer(minimum=1))] | None = None
    sender_buffer_max_age: PositiveDuration | None = None


def _resolve(flow: TfrcFlow) -> dict:
    return {
        "q": flow.q,
        "b": flow.b,
        "t_mbi_ns": flow.t_mbi,
        "nofeedback_rtts": flow.nofeedback_rtts,
        "initial_rate": flow.initial_rate,
        "ndupack": flow.ndupack,
        "history_discounting": flow.history_discounting,
        "discount_threshold": flow.discount_threshold,
        "oscillation_prevention": flow.oscillation_prevention,
        "sender_buffer_packets": flow.sender_buffer_packets,
        "sender_buffer_max_age_ns": flow.sender_buffer_max_age,
    }


def _check(flow: TfrcFlow, here: str, fail) -> None:
    if flow.q >= 1.0:
        fail(f"{here}.q", f"must be less than 1, got {flow.q}")
    if flow.discount_threshold > 1.0:
        fail(f"{here}.discount_threshold", f"must be at most 1, got {flow.discount_threshold}")
    if flow.packet_size <= HEADER_BYTES:
        fail(f"{here}.packet_size", f"must be more than the {HEADER_BYTES}B TFRC header, got {flow.packet_size}B")


register(ProtocolSpec("tfrc", TfrcFlow, _resolve, _check, video="optional"))
