"""Scenario models of `ssvp` and `ssvp-layered` (vidcc_core::proto::ssvp; docs/protocols/ssvp.md).

`ssvp` carries bulk data (no `video` table) or a video (any kind; a layered one is sent at full
quality). `ssvp-layered` needs a layered video (`video.layers`). Keys are in user units; every
default is the paper's value or the SSVP paper page's choice (docs/papers/ssvp.md), documented in
docs/scenarios.md. The resolved form is the Rust `SsvpConfig` (and `SsvpLayeredConfig`, which
nests it under `ssvp`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, Duration, PositiveDuration, Rate, Size, integer, number

# The data header, as the protocol registry of vidcc-core declares it; and the highest rate the
# sender uses.
HEADER_BYTES = _vidcc.protocol_header_bytes("ssvp")
MAX_RATE_BPS = 10_000_000_000

_Positive = Annotated[float, BeforeValidator(number(above=0.0))]
_NonNegative = Annotated[float, BeforeValidator(number(minimum=0.0))]


class _SsvpKeys(CoreFlow):
    """The congestion controller's keys, shared by both protocols."""

    alpha: _Positive = 0.31
    beta: _Positive = 0.875
    congestion_level_threshold: _NonNegative = 0.005
    increase_law: Literal["additive", "literal-multiplicative"] = "additive"
    adjust_period: Literal["last-sample", "estimated"] = "last-sample"
    startup: bool = True
    gamma: _NonNegative = 0.9
    epsilon: _NonNegative = 0.25
    delta: _NonNegative = 4.0
    deviation: Literal["literal", "tcp"] = "literal"
    initial_rate: Rate = 80_000
    min_rate: Rate = 8_000
    max_rate: Rate | None = None
    app_rate_factor: Annotated[float, BeforeValidator(number(minimum=1.0))] = 1.2
    receiver_timeout_guard: bool = True
    no_feedback_decrease: bool = False
    control_packet_size: Size = 40
    sender_buffer_max_age: PositiveDuration = 1_000_000_000
    sender_buffer_packets: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 100
    sender_buffer_policy: Literal["drop-oldest", "drop-newest", "highest-layer-first"] = "drop-oldest"
    pad_last_fragment: bool = False


class SsvpFlow(_SsvpKeys):
    protocol: Literal["ssvp"]


class SsvpLayeredFlow(_SsvpKeys):
    protocol: Literal["ssvp-layered"]
    layer_policy: Literal["buffered", "immediate"] = "buffered"
    postloss_factor: Literal["paper-literal", "physical"] = "paper-literal"
    consumption: Literal["cumulative", "mean-times-count"] = "cumulative"
    underflow_drop: bool = True
    initial_layers: Annotated[int, BeforeValidator(integer(minimum=1, maximum=16))] = 1
    # Default: the video table's playout_delay if it has one, else 1 s.
    playout_delay: Duration | None = None
    max_lead: Duration = 1_000_000_000


def _resolve_ssvp(flow: _SsvpKeys) -> dict:
    return {
        "alpha": flow.alpha,
        "beta": flow.beta,
        "congestion_level_threshold": flow.congestion_level_threshold,
        "increase_law": flow.increase_law,
        "adjust_period": flow.adjust_period,
        "startup": flow.startup,
        "gamma": flow.gamma,
        "epsilon": flow.epsilon,
        "delta": flow.delta,
        "deviation": flow.deviation,
        "initial_rate_bps": flow.initial_rate,
        "min_rate_bps": flow.min_rate,
        "max_rate_bps": flow.max_rate if flow.max_rate is not None else 0,
        "app_rate_factor": flow.app_rate_factor,
        "receiver_timeout_guard": flow.receiver_timeout_guard,
        "no_feedback_decrease": flow.no_feedback_decrease,
        "control_packet_bytes": flow.control_packet_size,
        "sender_buffer_max_age_ns": flow.sender_buffer_max_age,
        "sender_buffer_packets": flow.sender_buffer_packets,
        "sender_buffer_policy": flow.sender_buffer_policy,
        "pad_last_fragment": flow.pad_last_fragment,
    }


def _resolve_layered(flow: SsvpLayeredFlow) -> dict:
    delay = flow.playout_delay
    if delay is None:
        v = flow.video
        delay = v.playout_delay if v is not None and v.playout_delay is not None else 1_000_000_000
    return {
        "ssvp": _resolve_ssvp(flow),
        "policy": flow.layer_policy,
        "postloss_factor": flow.postloss_factor,
        "consumption": flow.consumption,
        "underflow_drop": flow.underflow_drop,
        "initial_layers": flow.initial_layers,
        "playout_delay_ns": delay,
        "max_lead_ns": flow.max_lead,
    }


def _check_ssvp(flow: _SsvpKeys, here: str, fail) -> None:
    for key in ("beta", "gamma", "congestion_level_threshold"):
        if getattr(flow, key) >= 1.0:
            fail(f"{here}.{key}", f"must be less than 1, got {getattr(flow, key)}")
    if flow.epsilon > 1.0:
        fail(f"{here}.epsilon", f"must be at most 1, got {flow.epsilon}")
    for key in ("initial_rate", "min_rate", "max_rate"):
        value = getattr(flow, key)
        if value is not None and value > MAX_RATE_BPS:
            fail(f"{here}.{key}", f"must be at most 10Gbps, got {value} bit/s")
    if flow.initial_rate < flow.min_rate:
        fail(f"{here}.initial_rate", f"must be at least min_rate ({flow.min_rate} bit/s)")
    if flow.max_rate is not None:
        if flow.max_rate < flow.min_rate:
            fail(f"{here}.max_rate", f"must be at least min_rate ({flow.min_rate} bit/s)")
        if flow.initial_rate > flow.max_rate:
            fail(f"{here}.initial_rate", f"must be at most max_rate ({flow.max_rate} bit/s)")
    if not HEADER_BYTES <= flow.control_packet_size <= 65_535:
        fail(f"{here}.control_packet_size", f"must be in [{HEADER_BYTES}B, 65535B], got {flow.control_packet_size}B")
    if flow.packet_size > 65_535:
        fail(f"{here}.packet_size", f"SSVP's length field is 16 bits: at most 65535B, got {flow.packet_size}B")


def _check_layered(flow: SsvpLayeredFlow, here: str, fail) -> None:
    _check_ssvp(flow, here, fail)
    if flow.video is not None and flow.video.layers is None:
        fail(f"{here}.video.layers", 'missing required key (protocol "ssvp-layered" needs layered video)')
    if flow.video is not None and flow.video.layers is not None and flow.initial_layers > len(flow.video.layers):
        fail(f"{here}.initial_layers", f"must be at most the number of layers ({len(flow.video.layers)})")


register(ProtocolSpec("ssvp", SsvpFlow, _resolve_ssvp, _check_ssvp, video="optional"))
register(ProtocolSpec("ssvp-layered", SsvpLayeredFlow, _resolve_layered, _check_layered, video="required"))
