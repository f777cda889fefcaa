"""`sramt-s` and `sramt-le`: SRAMT, hybrid sender/receiver multicast rate control with simulcast
streams or cumulative layers (vidcc_core::proto::sramt; docs/protocols/sramt.md).

Every key defaults to the paper's value [P] or the SRAMT paper page's choice [I]/[R]
(`docs/papers/sramt.md` §1.13); the two variants differ only in their bands and initial rates.
`resolve` gives every field of the Rust `SramtConfig`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, PositiveDuration, Rate, Size, integer, invalid, number, show

# Bytes of the data header with the default three groups (44 + 4 per group).
HEADER_BYTES = _vidcc.protocol_header_bytes("sramt-s")
MAX_GROUPS = 5


def _header_bytes(groups: int) -> int:
    return 44 + 4 * groups


def _share(value: Any) -> float:
    v = number()(value)
    if not (0.0 < v <= 1.0):
        raise invalid(f"must be in (0, 1], got {show(value)}")
    return v


def _calibration(value: Any) -> float:
    v = number()(value)
    if v <= -1.0:
        raise invalid(f"must be above -1 (RTT = (1 + a)·OWD must stay positive), got {show(value)}")
    return v


def _band(value: Any) -> Any:
    # A scenario file writes a band as a TOML array [min, max] (a list); the strict schema
    # validates tuples only as tuples.
    if isinstance(value, list):
        if len(value) != 2:
            raise invalid(f"must be [min, max] (two rates), got {show(value)}")
        return tuple(value)
    return value


_Share = Annotated[float, BeforeValidator(_share)]
_Band = Annotated[tuple[Rate, Rate], BeforeValidator(_band)]
_Count = Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))]


class _SramtFlow(CoreFlow):
    """Keys shared by both variants (defaults: docs/papers/sramt.md §1.13)."""

    initial_group: Annotated[int, BeforeValidator(integer(minimum=0, maximum=MAX_GROUPS))] = 0
    equation_packet_size: Size | None = None
    epoch: PositiveDuration = 5_000_000_000
    rule2_epochs: _Count = 4
    rule1_estimate_below_band: bool = False
    cap_estimate: bool = False
    t_change: PositiveDuration = 5_000_000_000
    unsuccessful_window: PositiveDuration | None = None
    max_backoff_exponent: Annotated[int, BeforeValidator(integer(minimum=0, maximum=62))] = 16
    loss_sample_interval: PositiveDuration = 1_000_000_000
    initial_calibration: Annotated[float, BeforeValidator(_calibration)] = 1.0
    rtt_scaling: Literal["multiplicative", "additive"] = "multiplicative"
    epoch_estimate: Literal["epoch-mean", "current"] = "epoch-mean"
    aimd: bool = True
    aimd_unloaded_below: _Share = 0.02
    aimd_congested_from: _Share = 0.05
    aimd_increase_share: _Share = 0.05
    rtcp_min_interval: PositiveDuration = 5_000_000_000
    rtcp_bandwidth_share: _Share = 0.05
    rtcp_receiver_share: _Share = 0.75
    suspend_interval: PositiveDuration = 10_000_000_000
    suppression: bool = True
    suppression_lambda: Annotated[float, BeforeValidator(number(positive=True))] = 10.0
    suppression_round: PositiveDuration = 10_000_000_000
    suppression_similarity: _Share = 0.02
    manager_timeout_intervals: _Count = 5
    sender_buffer_max_age: PositiveDuration = 1_000_000_000
    sender_buffer_packets: _Count = 1000


class SramtSFlow(_SramtFlow):
    protocol: Literal["sramt-s"]
    bands: list[_Band] = [(50_000, 200_000), (200_000, 600_000), (600_000, 1_000_000)]
    initial_rates: list[Rate] = [50_000, 200_000, 600_000]


class SramtLeFlow(_SramtFlow):
    protocol: Literal["sramt-le"]
    bands: list[_Band] = [(50_000, 200_000), (50_000, 400_000), (50_000, 400_000)]
    initial_rates: list[Rate] = [150_000, 150_000, 150_000]
    initial_group: Annotated[int, BeforeValidator(integer(minimum=1, maximum=MAX_GROUPS))] = 1


def _resolve(flow: _SramtFlow) -> dict:
    return {
        "bands_bps": [[lo, hi] for lo, hi in flow.bands],
        "initial_rates_bps": list(flow.initial_rates),
        "initial_group": flow.initial_group,
        "equation_packet_bytes": flow.equation_packet_size or 0,
        "epoch_ns": flow.epoch,
        "rule2_epochs": flow.rule2_epochs,
        "rule1_estimate_below_band": flow.rule1_estimate_below_band,
        "cap_estimate": flow.cap_estimate,
        "change_ns": flow.t_change,
        "unsuccessful_window_ns": flow.unsuccessful_window,
        "max_backoff_exponent": flow.max_backoff_exponent,
        "loss_sample_ns": flow.loss_sample_interval,
        "initial_calibration": flow.initial_calibration,
        "rtt_scaling": flow.rtt_scaling,
        "epoch_estimate": flow.epoch_estimate,
        "aimd": flow.aimd,
        "aimd_unloaded_below": flow.aimd_unloaded_below,
        "aimd_congested_from": flow.aimd_congested_from,
        "aimd_increase_share": flow.aimd_increase_share,
        "rtcp_min_interval_ns": flow.rtcp_min_interval,
        "rtcp_bandwidth_share": flow.rtcp_bandwidth_share,
        "rtcp_receiver_share": flow.rtcp_receiver_share,
        "suspend_interval_ns": flow.suspend_interval,
        "suppression_lambda": flow.suppression_lambda,
        "suppression_round_ns": flow.suppression_round,
        "suppression_similarity": flow.suppression_similarity,
        "suppression": flow.suppression,
        "manager_timeout_intervals": flow.manager_timeout_intervals,
        "sender_buffer_max_age_ns": flow.sender_buffer_max_age,
        "sender_buffer_packets": flow.sender_buffer_packets,
    }


def _check(flow: _SramtFlow, here: str, fail, layered: bool) -> None:
    n = len(flow.bands)
    if not 1 <= n <= MAX_GROUPS:
        fail(f"{here}.bands", f"1 to {MAX_GROUPS} bands (the 64-byte header carries every group's rate), got {n}")
    for j, (lo, hi) in enumerate(flow.bands):
        if lo > hi:
            fail(f"{here}.bands[{j}]", f"min {lo} bit/s above max {hi} bit/s")
        if hi > 2**32 - 1:
            fail(f"{here}.bands[{j}]", f"max must be below 4.29 Gbit/s (32-bit field), got {hi} bit/s")
    if len(flow.initial_rates) != n:
        fail(f"{here}.initial_rates", f"one rate per band ({n}), got {len(flow.initial_rates)}")
    first, last = (1, n) if layered else (0, n - 1)
    if not first <= flow.initial_group <= last:
        what = "level" if layered else "stream"
        fail(f"{here}.initial_group", f"a {what} in {first}..{last}, got {flow.initial_group}")
    if flow.aimd_unloaded_below > flow.aimd_congested_from:
        fail(f"{here}.aimd_unloaded_below", "must not exceed aimd_congested_from")
    if flow.epoch > (2**32 - 1) * 1000:
        fail(f"{here}.epoch", "at most 4294s (carried in microseconds)")
    if flow.packet_size <= _header_bytes(n):
        fail(f"{here}.packet_size", f"must be more than the {_header_bytes(n)}B SRAMT header, got {flow.packet_size}B")
    video = flow.video
    if video is not None:
        if layered:
            key, parts, other = "layers", video.layers, video.streams
        else:
            key, parts, other = "streams", video.streams, video.layers
        name = "sramt-le" if layered else "sramt-s"
        if other is not None:
            wrong = "streams" if layered else "layers"
            fail(f"{here}.video.{wrong}", f'protocol "{name}" sends {key}, not {wrong}; use `{key}`')
        if parts is None:
            fail(f"{here}.video.{key}", f'missing required key (protocol "{name}" sends one group per entry)')
        if len(parts) != n:
            fail(f"{here}.video.{key}", f"one entry per band ({n}), got {len(parts)}")


register(ProtocolSpec("sramt-s", SramtSFlow, _resolve, lambda f, h, fail: _check(f, h, fail, False)))
register(ProtocolSpec("sramt-le", SramtLeFlow, _resolve, lambda f, h, fail: _check(f, h, fail, True)))
