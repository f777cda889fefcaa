"""`dvrc`: DVRC, receiver-driven AIAMD rate control for layered video (docs/protocols/dvrc.md).

Every key defaults to the paper's value [P] or the DVRC paper page's interpretation [I] / default
[D] (`docs/papers/dvrc.md` §1.1); `resolve` gives every field of `vidcc_core::proto::dvrc::DvrcConfig`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, Duration, PositiveDuration, invalid, number, show

# Largest DVRC data packet: the header's `length` field is 16 bits.
MAX_PACKET_BYTES = 65_535


def _between(lo: float, hi: float, *, lo_open: bool = False, hi_open: bool = False):
    """A finite number in [lo, hi] (either end open when asked)."""
    finite = number()

    def validate(value: Any) -> float:
        v = finite(value)
        if v < lo or v > hi or (lo_open and v == lo) or (hi_open and v == hi):
            left, right = "(" if lo_open else "[", ")" if hi_open else "]"
            raise invalid(f"must be in {left}{lo:g}, {hi:g}{right}, got {show(value)}")
        return v

    return validate


def _negative(value: Any) -> float:
    v = number()(value)
    if v >= 0:
        raise invalid(f"must be negative (paper Eq. 8: an additive decrease), got {show(value)}")
    return v


class DvrcFlow(CoreFlow):
    protocol: Literal["dvrc"]
    # RTT smoothing and timeout, paper Eqs. (2)-(4).
    gamma: Annotated[float, BeforeValidator(_between(0.0, 1.0))] = 0.9
    delta: Annotated[float, BeforeValidator(number(minimum=0.0))] = 4.0
    epsilon: Annotated[float, BeforeValidator(_between(0.0, 1.0))] = 0.25
    dto_mode: Literal["tcp_like", "paper_literal"] = "tcp_like"
    # AIAMD, paper Eq. (11).
    alpha_i: Annotated[float, BeforeValidator(number(positive=True))] = 1.0
    alpha_d: Annotated[float, BeforeValidator(_negative)] = -1.0
    beta_d: Annotated[float, BeforeValidator(_between(0.0, 1.0, lo_open=True, hi_open=True))] = 0.5
    n: Annotated[float, BeforeValidator(number(minimum=0.0))] = 1.5
    alpha_unit: Literal["packets_per_rtt", "packets_per_second"] = "packets_per_rtt"
    compare: Literal["measured", "r_prev"] = "measured"
    ad_guard: bool = False
    # Epoch history and the receiving-rate meter.
    rbar_gain: Annotated[float, BeforeValidator(_between(0.0, 1.0, lo_open=True))] = 0.125
    dbar_gain: Annotated[float, BeforeValidator(_between(0.0, 1.0, lo_open=True))] = 0.25
    rate_window_min: Duration = 100_000_000
    rtt_fallback: PositiveDuration = 100_000_000
    # The DTO guard (docs/papers/dvrc.md A3) and the rate clamps.
    dto_guard: bool = True
    dto_min: Duration = 200_000_000
    min_rate_factor: Annotated[float, BeforeValidator(_between(0.0, 1.0, lo_open=True))] = 1.0
    max_rate_factor: Annotated[float, BeforeValidator(number(minimum=1.0))] = 1.0
    pacing: bool = False


def resolve(flow: DvrcFlow) -> dict:
    return {
        "gamma": flow.gamma,
        "delta": flow.delta,
        "epsilon": flow.epsilon,
        "dto_mode": flow.dto_mode,
        "alpha_i": flow.alpha_i,
        "alpha_d": flow.alpha_d,
        "beta_d": flow.beta_d,
        "n": flow.n,
        "alpha_unit": flow.alpha_unit,
        "compare": flow.compare,
        "ad_guard": flow.ad_guard,
        "rbar_gain": flow.rbar_gain,
        "dbar_gain": flow.dbar_gain,
        "rate_window_min_ns": flow.rate_window_min,
        "rtt_fallback_ns": flow.rtt_fallback,
        "dto_guard": flow.dto_guard,
        "dto_min_ns": flow.dto_min,
        "min_rate_factor": flow.min_rate_factor,
        "max_rate_factor": flow.max_rate_factor,
        "pacing": flow.pacing,
    }


def check_layered(flow: Any, here: str, fail, name: str) -> None:
    """The flow's video must be layered (DVRC and rtcp-udp adapt the number of layers)."""
    video = flow.video
    if video is None:
        return
    if video.streams is not None:
        fail(f"{here}.video.streams", f'protocol "{name}" adapts layered video, not simulcast streams; use `layers`')
    if video.layers is None:
        fail(f"{here}.video.layers", f'missing required key (protocol "{name}" adapts layered video)')


def check(flow: DvrcFlow, here: str, fail) -> None:
    check_layered(flow, here, fail, "dvrc")
    if flow.packet_size > MAX_PACKET_BYTES:
        fail(
            f"{here}.packet_size",
            f"must be at most {MAX_PACKET_BYTES}B (DVRC's 16-bit length field), got {flow.packet_size}B",
        )


register(ProtocolSpec("dvrc", DvrcFlow, resolve, check, video="required"))
