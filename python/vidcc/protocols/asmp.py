"""Scenario model of `asmp` (vidcc_core::proto::asmp; docs/protocols/asmp.md).

ASMP, the Adaptive Smooth Multicast Protocol (docs/papers/asmp-tfmcc.md
§1.3): single-rate multicast over RTP/RTCP, each receiver computing a TCP-friendly rate per RTCP
report and the sender following the slowest receiver. Bulk data (no `video` table), a video at
full quality, or a rate-adaptive set (`video.traces`): the sending rate picks the quantizer per
GOP. Keys are in user units; every default is the paper's value, docs/papers/asmp-tfmcc.md's
recommendation or RFC 3550's, documented in docs/scenarios.md. The resolved form is the Rust `AsmpConfig`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, PositiveDuration, Rate, integer, number

# The data header (the RTP fixed header), as the protocol registry of vidcc-core declares it.
HEADER_BYTES = _vidcc.protocol_header_bytes("asmp")

# Fractions in [0, 1] and (0, 1]; the upper bound is checked in `_check`.
_Unit = Annotated[float, BeforeValidator(number(minimum=0.0))]
_PositiveUnit = Annotated[float, BeforeValidator(number(above=0.0))]


class AsmpFlow(CoreFlow):
    protocol: Literal["asmp"]
    gamma_unloaded: _Unit = 0.9
    gamma_congested: _Unit = 0.2
    cj_long_weight: _PositiveUnit = 0.125
    cj_resolution_ticks: Annotated[float, BeforeValidator(number(minimum=0.0))] = 1.0
    frame_timestamp: Literal["first_send", "ready"] = "first_send"
    frame_arrival: Literal["last_packet", "first_packet"] = "last_packet"
    loss_measure: Literal["loss_event_ratio", "fraction_lost"] = "loss_event_ratio"
    decrease: Literal["smoothed", "immediate"] = "smoothed"
    lossy_increase: Literal["equation", "step", "never"] = "equation"
    rtt_weight: _PositiveUnit = 1.0
    initial_rate: Rate = 100_000
    min_rate: Rate = 100_000
    max_rate: Rate | None = None
    session_bandwidth: Rate = 1_000_000
    rtcp_min_interval: PositiveDuration = 5_000_000_000
    rtcp_reduced_minimum: bool = False
    rtcp_overhead: Annotated[int, BeforeValidator(integer(minimum=0))] = 28
    clock_rate: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 90_000


def _resolve(flow: AsmpFlow) -> dict:
    return {
        "gamma_unloaded": flow.gamma_unloaded,
        "gamma_congested": flow.gamma_congested,
        "cj_long_weight": flow.cj_long_weight,
        "cj_resolution_ticks": flow.cj_resolution_ticks,
        "frame_timestamp": flow.frame_timestamp,
        "frame_arrival": flow.frame_arrival,
        "loss_measure": flow.loss_measure,
        "decrease": flow.decrease,
        "lossy_increase": flow.lossy_increase,
        "rtt_weight": flow.rtt_weight,
        "initial_rate_bps": flow.initial_rate,
        "min_rate_bps": flow.min_rate,
        "max_rate_bps": flow.max_rate,
        "session_bandwidth_bps": flow.session_bandwidth,
        "rtcp_min_interval_ns": flow.rtcp_min_interval,
        "rtcp_reduced_minimum": flow.rtcp_reduced_minimum,
        "rtcp_overhead_bytes": flow.rtcp_overhead,
        "clock_rate_hz": flow.clock_rate,
    }


def _check(flow: AsmpFlow, here: str, fail) -> None:
    for key in ("gamma_unloaded", "gamma_congested", "cj_long_weight", "rtt_weight"):
        if getattr(flow, key) > 1.0:
            fail(f"{here}.{key}", f"must be at most 1, got {getattr(flow, key)}")
    if flow.max_rate is not None and flow.max_rate < flow.min_rate:
        fail(f"{here}.max_rate", f"must be at least min_rate ({flow.min_rate} bit/s), got {flow.max_rate} bit/s")
    if flow.packet_size <= HEADER_BYTES:
        fail(f"{here}.packet_size", f"must be more than the {HEADER_BYTES}B RTP header, got {flow.packet_size}B")


register(ProtocolSpec("asmp", AsmpFlow, _resolve, _check, video="optional", rate_adaptive=True))
