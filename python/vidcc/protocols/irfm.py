"""Scenario model of `irfm` (vidcc_core::proto::irfm; docs/protocols/irfm.md).

IRFM, Inter-Receiver Fair Multicast (Jiang, Zegura & Ammar, NOSSDAV 1999): two streams whose
rates maximise the mean inter-receiver fairness min(r, x)/max(r, x) over the receivers'
isolated (TCP-friendly) rates x; each receiver takes its fairer stream. Bulk data only. Every
default is the implementation's [R] choice (the SRAMT paper page gives IRFM's rules, no values;
docs/papers/sramt.md §2.5), documented in docs/scenarios.md. The resolved form is the Rust
`IrfmConfig`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, PositiveDuration, Rate, Size, integer, invalid, show

# The data header with IRFM's two streams (36 + 4 per stream).
HEADER_BYTES = _vidcc.protocol_header_bytes("irfm")


def _pair(value: Any) -> Any:
    if isinstance(value, list):
        if len(value) != 2:
            raise invalid(f"must be two rates, got {show(value)}")
        return tuple(value)
    return value


_Pair = Annotated[tuple[Rate, Rate], BeforeValidator(_pair)]
_Count = Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))]


class IrfmFlow(CoreFlow):
    protocol: Literal["irfm"]
    rate_range: _Pair = (50_000, 1_000_000)
    initial_rates: _Pair = (100_000, 500_000)
    initial_group: Annotated[int, BeforeValidator(integer(minimum=0, maximum=1))] = 0
    round: PositiveDuration = 2_000_000_000
    reports_per_round: _Count = 10
    memory_rounds: _Count = 5
    max_samples: _Count = 64
    initial_rtt: PositiveDuration = 100_000_000
    ndupack: _Count = 3
    equation_packet_size: Size | None = None
    owd_rtt: bool = True


def _resolve(flow: IrfmFlow) -> dict:
    return {
        "rate_range_bps": list(flow.rate_range),
        "initial_rates_bps": list(flow.initial_rates),
        "initial_group": flow.initial_group,
        "round_ns": flow.round,
        "reports_per_round": flow.reports_per_round,
        "memory_rounds": flow.memory_rounds,
        "max_samples": flow.max_samples,
        "initial_rtt_ns": flow.initial_rtt,
        "ndupack": flow.ndupack,
        "equation_packet_bytes": flow.equation_packet_size or 0,
        "owd_rtt": flow.owd_rtt,
    }


def _check(flow: IrfmFlow, here: str, fail) -> None:
    lo, hi = flow.rate_range
    if lo <= 0 or lo > hi:
        fail(f"{here}.rate_range", f"need 0 < min <= max, got [{lo}, {hi}] bit/s")
    if hi > 2**32 - 1:
        fail(f"{here}.rate_range", f"max must be below 4.29 Gbit/s (32-bit field), got {hi} bit/s")
    if flow.packet_size <= HEADER_BYTES:
        fail(f"{here}.packet_size", f"must be more than the {HEADER_BYTES}B IRFM header, got {flow.packet_size}B")


register(ProtocolSpec("irfm", IrfmFlow, _resolve, _check, video="none"))
