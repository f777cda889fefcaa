"""Scenario model of `tfmcc` (vidcc_core::proto::tfmcc; docs/protocols/tfmcc.md).

TFMCC (RFC 4654) multicasts bulk data or a video (any model; a rate-adaptive set's trace is
picked by the rate at each GOP) at one rate that follows the current limiting receiver.
Keys are in user units; every default is RFC 4654's value as the ASMP/TFMCC paper page chooses it
(docs/papers/asmp-tfmcc.md §1.4), documented in docs/scenarios.md. The resolved form is the Rust
`TfmccConfig`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, PositiveDuration, integer, number

# The data header, as the protocol registry of vidcc-core declares it.
HEADER_BYTES = _vidcc.protocol_header_bytes("tfmcc")

_Unit = Annotated[float, BeforeValidator(number(minimum=0.0))]
_AtLeastOne = Annotated[float, BeforeValidator(number(minimum=1.0))]


class TfmccFlow(CoreFlow):
    protocol: Literal["tfmcc"]
    b: _AtLeastOne = 1.0
    initial_rtt: PositiveDuration = 500_000_000
    feedback_rounds_rtts: _AtLeastOne = 6.0
    max_receivers: Annotated[int, BeforeValidator(integer(minimum=2))] = 10_000
    suppression_margin: _Unit = 0.1
    feedback_timer: Literal["exponential", "uniform"] = "exponential"
    q_clr: _Unit = 0.9
    q_non_clr: _Unit = 0.5
    one_way_delay_adjustment: bool = True
    rmax_decay: Annotated[float, BeforeValidator(number(above=0.0))] = 0.9
    clock_granularity: Annotated[int, BeforeValidator(integer(minimum=0))] = 1_000_000
    clr_silence_rtts: _AtLeastOne = 4.0
    clr_timeout_rtts: _AtLeastOne = 10.0
    slowstart: bool = True
    ndupack: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 3
    history_discounting: bool = False
    discount_threshold: Annotated[float, BeforeValidator(number(above=0.0))] = 0.5
    t_mbi: PositiveDuration = 64_000_000_000


def _resolve(flow: TfmccFlow) -> dict:
    return {
        "b": flow.b,
        "initial_rtt_ns": flow.initial_rtt,
        "feedback_rounds_rtts": flow.feedback_rounds_rtts,
        "max_receivers": flow.max_receivers,
        "suppression_margin": flow.suppression_margin,
        "feedback_timer": flow.feedback_timer,
        "q_clr": flow.q_clr,
        "q_non_clr": flow.q_non_clr,
        "one_way_delay_adjustment": flow.one_way_delay_adjustment,
        "rmax_decay": flow.rmax_decay,
        "clock_granularity_ns": flow.clock_granularity,
        "clr_silence_rtts": flow.clr_silence_rtts,
        "clr_timeout_rtts": flow.clr_timeout_rtts,
        "slowstart": flow.slowstart,
        "ndupack": flow.ndupack,
        "history_discounting": flow.history_discounting,
        "discount_threshold": flow.discount_threshold,
        "t_mbi_ns": flow.t_mbi,
    }


def _check(flow: TfmccFlow, here: str, fail) -> None:
    for key in ("q_clr", "q_non_clr", "suppression_margin"):
        if getattr(flow, key) >= 1.0:
            fail(f"{here}.{key}", f"must be less than 1, got {getattr(flow, key)}")
    if flow.rmax_decay > 1.0:
        fail(f"{here}.rmax_decay", f"must be at most 1, got {flow.rmax_decay}")
    if flow.discount_threshold > 1.0:
        fail(f"{here}.discount_threshold", f"must be at most 1, got {flow.discount_threshold}")
    if flow.clr_timeout_rtts < flow.clr_silence_rtts:
        fail(f"{here}.clr_timeout_rtts", f"must be at least clr_silence_rtts ({flow.clr_silence_rtts})")
    if flow.packet_size <= HEADER_BYTES:
        fail(f"{here}.packet_size", f"must be more than the {HEADER_BYTES}B TFMCC header, got {flow.packet_size}B")


register(ProtocolSpec("tfmcc", TfmccFlow, _resolve, _check, video="optional", rate_adaptive=True))
