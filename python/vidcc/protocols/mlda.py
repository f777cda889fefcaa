"""Scenario model of `mlda` (vidcc_core::proto::mlda; docs/protocols/mlda.md).

MLDA (Sisalem & Wolisz, IWQoS 2000): receivers measure loss, delay and packet-pair bandwidth,
compute an LDA+ TCP-friendly rate, hold the cumulative layers under it and report it once per
round with truncated-exponential timers and partial suppression; the sender re-sizes the layers
to the reports. Bulk data only. Defaults are this implementation's choices or LDA+'s (the SRAMT
docs/papers/sramt.md §2.3, records none), documented in docs/scenarios.md. The resolved
form is the Rust `MldaConfig`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import BaseFlow, PositiveDuration, Rate, Size, integer, number

# Bytes of the data header with the default five layers (32 + 4 per layer).
HEADER_BYTES = _vidcc.protocol_header_bytes("mlda")
MAX_LAYERS = 8


def _header_bytes(layers: int) -> int:
    return 32 + 4 * layers


_Share = Annotated[float, BeforeValidator(number(minimum=0.0))]


class MldaFlow(BaseFlow):
    protocol: Literal["mlda"]
    initial_rates: list[Rate] = [64_000, 64_000, 128_000, 256_000, 512_000]
    min_layer_rate: Rate = 16_000
    max_rate: Rate = 10_000_000
    update_interval: PositiveDuration = 1_000_000_000
    min_increase: Rate = 10_000
    equation_packet_size: Size | None = None
    round: PositiveDuration = 5_000_000_000
    suppression_lambda: Annotated[float, BeforeValidator(number(above=0.0))] = 10.0
    suppression: bool = True
    suppression_similarity: _Share = 0.1
    report_rounds: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 3
    packet_pairs: bool = True
    pair_weight: Annotated[float, BeforeValidator(number(above=0.0))] = 0.25


def _resolve(flow: MldaFlow) -> dict:
    return {
        "initial_rates_bps": list(flow.initial_rates),
        "min_layer_bps": flow.min_layer_rate,
        "max_rate_bps": flow.max_rate,
        "update_interval_ns": flow.update_interval,
        "min_increase_bps": flow.min_increase,
        "equation_packet_bytes": flow.equation_packet_size or 0,
        "round_ns": flow.round,
        "suppression_lambda": flow.suppression_lambda,
        "suppression": flow.suppression,
        "suppression_similarity": flow.suppression_similarity,
        "report_rounds": flow.report_rounds,
        "packet_pairs": flow.packet_pairs,
        "pair_weight": flow.pair_weight,
    }


def _check(flow: MldaFlow, here: str, fail) -> None:
    n = len(flow.initial_rates)
    if not 1 <= n <= MAX_LAYERS:
        fail(f"{here}.initial_rates",
             f"1 to {MAX_LAYERS} layers (the 64-byte header carries every layer's rate), got {n}")
    if any(r > 2**32 - 1 for r in flow.initial_rates):
        fail(f"{here}.initial_rates", "each below 4.29 Gbit/s (32-bit field)")
    if flow.max_rate < flow.min_layer_rate * n or flow.max_rate > 2**32 - 1:
        fail(f"{here}.max_rate",
             f"at least min_layer_rate × layers ({flow.min_layer_rate * n} bit/s) and below 4.29 Gbit/s")
    for key in ("suppression_similarity", "pair_weight"):
        if getattr(flow, key) > 1.0:
            fail(f"{here}.{key}", f"at most 1, got {getattr(flow, key)}")
    if flow.packet_size <= _header_bytes(n):
        fail(f"{here}.packet_size", f"must be more than the {_header_bytes(n)}B MLDA header, got {flow.packet_size}B")
    for j, r in enumerate(flow.receivers or []):
        if r.groups:
            fail(f"{here}.receivers[{j}].groups",
                 "mlda receivers choose their layers themselves (all start at level 1)")


register(ProtocolSpec("mlda", MldaFlow, _resolve, _check, video="none"))
