"""Scenario model of `gaimd` (vidcc_core::proto::gaimd; docs/protocols/gaimd.md).

GAIMD(alpha, beta) runs on the TCP agents' window machinery and carries bulk data only. Keys
are in user units: GAIMD's own (`beta`, `alpha`, `timeout_ssthresh`) and the TCP agent keys of
`tcp-*` flows. `alpha` defaults to the TCP-friendly 4(1 - beta^2)/3 (Yang & Lam), i.e. 0.3125 at
the default beta = 0.875. The resolved form is the Rust `GaimdConfig`.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.protocols.tcp import TcpAgentKeys, agent_config
from vidcc.schema import CoreFlow, number

# The data header, as the protocol registry of vidcc-core declares it.
HEADER_BYTES = _vidcc.protocol_header_bytes("gaimd")


class GaimdFlow(CoreFlow, TcpAgentKeys):
    protocol: Literal["gaimd"]
    beta: Annotated[float, BeforeValidator(number(above=0.0))] = 0.875
    alpha: Annotated[float, BeforeValidator(number(above=0.0))] | None = None
    timeout_ssthresh: Literal["half", "beta"] = "half"


def _resolve(flow: GaimdFlow) -> dict:
    return {
        "beta": flow.beta,
        "alpha": flow.alpha,
        "timeout_ssthresh": flow.timeout_ssthresh,
        **agent_config(flow),
    }


def _check(flow: GaimdFlow, here: str, fail) -> None:
    if flow.beta >= 1.0:
        fail(f"{here}.beta", f"must be less than 1, got {flow.beta}")
    if flow.packet_size <= HEADER_BYTES:
        fail(f"{here}.packet_size", f"must be more than the {HEADER_BYTES}B TCP header, got {flow.packet_size}B")


register(ProtocolSpec("gaimd", GaimdFlow, _resolve, _check, video="none"))
