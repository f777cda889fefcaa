"""`qos-aimd`: the QoS-aware window AIMD of Cai, Shen, Mark and Pan (docs/protocols/qos-aimd.md).

Every key defaults to the paper's value [P] or to the choice the QoS-AIMD paper page
(`docs/papers/qos-aimd.md`) leaves open and docs/protocols/qos-aimd.md records; `resolve` gives
every field of `vidcc_core::proto::qos_aimd::QosAimdConfig`. The receiver window `rwnd` is the
knob of the paper's cross-layer selection: `vidcc qos-aimd select` computes it (W_max).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, Duration, PacketSize, PositiveDuration, integer, invalid, number, show

# Wire constants of crates/vidcc-core/src/wire/qos_aimd.rs (data packets: 16 B of header; the
# scenario layer's 64 B minimum packet size leaves room for it).
ACK_FIXED_BYTES = 10
MAX_SACKVEC_BITS = 432


def _open_unit(value: Any) -> float:
    v = number()(value)
    if not 0.0 < v < 1.0:
        raise invalid(f"must be in (0, 1), got {show(value)}")
    return v


class QosAimdFlow(CoreFlow):
    protocol: Literal["qos-aimd"]
    # AIMD(alpha, beta); alpha defaults to eq. (10), 3(1 - beta)/(1 + beta).
    beta: Annotated[float, BeforeValidator(_open_unit)] = 0.875
    alpha: Annotated[float, BeforeValidator(number(positive=True))] | None = None
    # Windows, in packets.
    rwnd: Annotated[int, BeforeValidator(integer(minimum=1, maximum=65_535))] = 64
    initial_window: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 1
    initial_ssthresh: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] | None = None
    reduction_base: Literal["flight", "pipe", "cwnd"] = "flight"
    dupthresh: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 3
    # Acks.
    sackvec_bits: Annotated[int, BeforeValidator(integer(maximum=MAX_SACKVEC_BITS))] = 16
    ack_ratio: Annotated[int, BeforeValidator(integer(minimum=1, maximum=MAX_SACKVEC_BITS + 1))] = 1
    ack_delay: Duration = 100_000_000
    ack_size: PacketSize = 40
    # Timers.
    initial_rto: PositiveDuration = 1_000_000_000
    min_rto: PositiveDuration = 1_000_000_000
    max_rto: PositiveDuration = 60_000_000_000
    rto_granularity: Duration = 500_000_000
    timeout_ssthresh: Literal["halve-ssthresh", "half-flight"] = "halve-ssthresh"
    # Sending.
    pacing: Literal["srtt", "min-rtt", "off"] = "srtt"
    spacing_scope: Literal["window-bursts", "every-packet"] = "window-bursts"
    idle_restart: bool = True
    # Video sender buffer.
    buffer_max_age: PositiveDuration = 1_000_000_000
    buffer_max_packets: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 1000


def resolve(flow: QosAimdFlow) -> dict:
    return {
        "beta": flow.beta,
        "alpha": flow.alpha,
        "rwnd_packets": flow.rwnd,
        "initial_window_packets": flow.initial_window,
        "initial_ssthresh_packets": flow.initial_ssthresh,
        "sackvec_bits": flow.sackvec_bits,
        "ack_ratio": flow.ack_ratio,
        "ack_delay_ns": flow.ack_delay,
        "ack_size_bytes": flow.ack_size,
        "dupthresh": flow.dupthresh,
        "initial_rto_ns": flow.initial_rto,
        "min_rto_ns": flow.min_rto,
        "max_rto_ns": flow.max_rto,
        "rto_granularity_ns": flow.rto_granularity,
        "reduction_base": flow.reduction_base,
        "timeout_ssthresh": flow.timeout_ssthresh,
        "pacing": flow.pacing,
        "spacing_scope": flow.spacing_scope,
        "idle_restart": flow.idle_restart,
        "buffer_max_age_ns": flow.buffer_max_age,
        "buffer_max_packets": flow.buffer_max_packets,
    }


def check(flow: QosAimdFlow, here: str, fail) -> None:
    if flow.ack_ratio > flow.sackvec_bits + 1:
        fail(
            f"{here}.ack_ratio",
            f"must be at most 1 + sackvec_bits = {flow.sackvec_bits + 1} (an ack reports that many packets), "
            f"got {flow.ack_ratio}",
        )
    if flow.ack_ratio > 1 and flow.ack_delay == 0:
        fail(f"{here}.ack_delay", "must be positive when ack_ratio > 1")
    header = ACK_FIXED_BYTES + (flow.sackvec_bits + 7) // 8
    if flow.ack_size < header:
        fail(
            f"{here}.ack_size",
            f"must be at least the ack header ({header}B with sackvec_bits = {flow.sackvec_bits}),"
            f" got {flow.ack_size}B",
        )
    if flow.max_rto < flow.min_rto:
        fail(f"{here}.max_rto", "must be at least min_rto")


register(ProtocolSpec("qos-aimd", QosAimdFlow, resolve, check, video="optional"))
