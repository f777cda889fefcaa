"""`rtcp-udp`: RTP/UDP layered video whose application adapts the layer count from RTCP receiver
reports (docs/protocols/rtcp-udp.md; docs/papers/dvrc.md §1.3 [D]). `resolve` gives every field of
`vidcc_core::proto::rtcp_udp::RtcpUdpConfig`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc.protocols import ProtocolSpec, register
from vidcc.protocols.dvrc import check_layered
from vidcc.schema import U32_MAX, CoreFlow, PositiveDuration, integer


class RtcpUdpFlow(CoreFlow):
    protocol: Literal["rtcp-udp"]
    report_interval: PositiveDuration = 1_000_000_000
    immediate_reports: bool = True
    sender_report_interval: PositiveDuration = 1_000_000_000
    rtt_fallback: PositiveDuration = 100_000_000
    initial_layers: Annotated[int, BeforeValidator(integer(minimum=1, maximum=255))] = 1
    clock_rate: Annotated[int, BeforeValidator(integer(minimum=1, maximum=U32_MAX))] = 90_000
    # The layer rule (docs/protocols/rtcp-udp.md "Adaptation"): one step per report (default), or an
    # alternative reading mapping the reported receiving rate B to K = max{j : c_j <= B}.
    adaptation: Literal["step", "rate", "rate_on_loss"] = "step"


def resolve(flow: RtcpUdpFlow) -> dict:
    return {
        "report_interval_ns": flow.report_interval,
        "immediate_reports": flow.immediate_reports,
        "sender_report_interval_ns": flow.sender_report_interval,
        "rtt_fallback_ns": flow.rtt_fallback,
        "initial_layers": flow.initial_layers,
        "clock_rate_hz": flow.clock_rate,
        "adaptation": flow.adaptation,
    }


def check(flow: RtcpUdpFlow, here: str, fail) -> None:
    check_layered(flow, here, fail, "rtcp-udp")
    layers = flow.video.layers if flow.video is not None else None
    if layers is not None and flow.initial_layers > len(layers):
        fail(f"{here}.initial_layers", f"the video has {len(layers)} layers, got {flow.initial_layers}")


register(ProtocolSpec("rtcp-udp", RtcpUdpFlow, resolve, check, video="required"))
