"""Scenario models of `tcp-tahoe`, `tcp-reno`, `tcp-newreno`, `tcp-sack` and `tcp-westwood-plus`
(vidcc_sim's ns-2-style TCP agents; docs/scenarios.md). They carry bulk data (FTP, or a finite
`transfer`), or with a `video` table the flow's video through the sender's send buffer (the
papers' "TCPW+ carrying MPEG"; docs/protocols/tcp.md "Video over TCP"). The resolved form is the
Rust `TcpConfig`, one per kind.

"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import U32_MAX, BaseFlow, CoreFlow, PositiveDuration, Size, integer

KINDS = ("tcp-tahoe", "tcp-reno", "tcp-newreno", "tcp-sack", "tcp-westwood-plus")


class TcpAgentKeys(BaseFlow):
    """The ns-2 TCP agent keys (Rust `TcpConfig`), shared with GAIMD, which runs on the same
    window machinery."""

    max_window: Size = 64_000
    initial_window: Annotated[int, BeforeValidator(integer(minimum=1, maximum=U32_MAX))] = 2
    min_rto: PositiveDuration = 200_000_000
    initial_rto: PositiveDuration = 1_000_000_000
    delayed_ack: bool = False
    limited_transmit: bool = True
    transfer: Size | None = None


def agent_config(flow: TcpAgentKeys) -> dict:
    """The TCP agent keys in the resolved form (the fields of `TcpConfig`)."""
    return {
        "max_window_bytes": flow.max_window,
        "initial_window": flow.initial_window,
        "min_rto_ns": flow.min_rto,
        "initial_rto_ns": flow.initial_rto,
        "delayed_ack": flow.delayed_ack,
        "limited_transmit": flow.limited_transmit,
        "transfer_bytes": flow.transfer,
    }


class TcpFlow(CoreFlow, TcpAgentKeys):
    protocol: Literal["tcp-tahoe", "tcp-reno", "tcp-newreno", "tcp-sack", "tcp-westwood-plus"]


def _check(flow: TcpFlow, here: str, fail) -> None:
    if flow.video is not None and flow.transfer is not None:
        fail(f"{here}.transfer", "a TCP flow carries either a video or a finite transfer of bulk data, not both")


for kind in KINDS:
    register(ProtocolSpec(kind, TcpFlow, agent_config, _check, video="optional"))
