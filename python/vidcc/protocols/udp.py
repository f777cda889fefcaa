"""Scenario models of the plain UDP sources: `udp-cbr` and `udp-pareto` (bulk data at a constant
rate, or Pareto on/off bursts; no `video` table) and `udp` (a video sent as it is made, without
congestion control; docs/scenarios.md, docs/video.md).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import BaseFlow, PositiveDuration, Rate, Video, integer, number


class CbrFlow(BaseFlow):
    protocol: Literal["udp-cbr"]
    rate: Rate


class ParetoFlow(BaseFlow):
    protocol: Literal["udp-pareto"]
    rate: Rate
    on_mean: PositiveDuration = 500_000_000
    off_mean: PositiveDuration = 500_000_000
    # Pareto periods with the given mean need shape > 1 (scale = mean · (shape − 1) / shape).
    shape: Annotated[float, BeforeValidator(number(above=1.0))] = 1.5


class UdpVideoFlow(BaseFlow):
    protocol: Literal["udp"]
    video: Video
    layers_sent: Annotated[int, BeforeValidator(integer(minimum=1, maximum=255))] | None = None


def _resolve_cbr(flow: CbrFlow) -> dict:
    return {"rate_bps": flow.rate}


def _resolve_pareto(flow: ParetoFlow) -> dict:
    return {"rate_bps": flow.rate, "on_mean_ns": flow.on_mean, "off_mean_ns": flow.off_mean, "shape": flow.shape}


def _resolve_video(flow: UdpVideoFlow) -> dict:
    return {"layers_sent": flow.layers_sent}


register(ProtocolSpec("udp-cbr", CbrFlow, _resolve_cbr, video="none"))
register(ProtocolSpec("udp-pareto", ParetoFlow, _resolve_pareto, video="none"))
register(ProtocolSpec("udp", UdpVideoFlow, _resolve_video, video="required"))
