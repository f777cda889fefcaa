"""Scenario model of `tfrc` (vidcc_core::proto::tfrc; docs/protocols/tfrc.md).

TFRC (RFC 5348) carries bulk data (no `video` table) or a video at full quality (every layer;
the top stream of a simulcast). Keys are in user units; every default is RFC 5348's value or the
DVRC paper's choice (docs/papers/dvrc.md §1.3), documented in docs/scenarios.md. The resolved
form is the Rust `TfrcConfig`. `NS2_AGENT` holds the keys that make it ns-2 2.35's Agent/TFRC.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, PositiveDuration, integer, number

# The data header, as the protocol registry of vidcc-core declares it.
HEADER_BYTES = _vidcc.protocol_header_bytes("tfrc")

_AtLeastOne = Annotated[float, BeforeValidator(number(minimum=1.0))]


class TfrcFlow(CoreFlow):
    protocol: Literal["tfrc"]
    q: Annotated[float, BeforeValidator(number(minimum=0.0))] = 0.9
    b: _AtLeastOne = 1.0
    t_mbi: PositiveDuration = 64_000_000_000
    nofeedback_rtts: _AtLeastOne = 4.0
    initial_rate: Literal["rfc3448", "rfc5348"] = "rfc3448"
    ndupack: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = 3
    history_discounting: bool = False
    discount_threshold: Annotated[float, BeforeValidator(number(above=0.0))] = 0.5
    oscillation_prevention: bool = False
    rules: Literal["rfc5348", "ns2"] = "rfc5348"
    t_rto: Literal["4r", "tcp"] = "4r"
    tcp_tick: PositiveDuration = 100_000_000
    q2: Annotated[float, BeforeValidator(number(minimum=0.0))] = 0.9
    sender_buffer_packets: Annotated[int, BeforeValidator(integer(minimum=1))] | None = None
    sender_buffer_max_age: PositiveDuration | None = None


def _resolve(flow: TfrcFlow) -> dict:
    return {
        "q": flow.q,
        "b": flow.b,
        "t_mbi_ns": flow.t_mbi,
        "nofeedback_rtts": flow.nofeedback_rtts,
        "initial_rate": flow.initial_rate,
        "ndupack": flow.ndupack,
        "history_discounting": flow.history_discounting,
        "discount_threshold": flow.discount_threshold,
        "oscillation_prevention": flow.oscillation_prevention,
        "rules": flow.rules,
        "t_rto": flow.t_rto,
        "tcp_tick_ns": flow.tcp_tick,
        "q2": flow.q2,
        "sender_buffer_packets": flow.sender_buffer_packets,
        "sender_buffer_max_age_ns": flow.sender_buffer_max_age,
    }


def _check(flow: TfrcFlow, here: str, fail) -> None:
    if flow.q >= 1.0:
        fail(f"{here}.q", f"must be less than 1, got {flow.q}")
    if flow.q2 >= 1.0:
        fail(f"{here}.q2", f"must be less than 1, got {flow.q2}")
    if flow.discount_threshold > 1.0:
        fail(f"{here}.discount_threshold", f"must be at most 1, got {flow.discount_threshold}")
    if flow.packet_size <= HEADER_BYTES:
        fail(f"{here}.packet_size", f"must be more than the {HEADER_BYTES}B TFRC header, got {flow.packet_size}B")


# ns-2 2.35's Agent/TFRC and Agent/TFRCSink defaults (tcl/lib/ns-default.tcl, tcp/tfrc.cc,
# tcp/tfrc-sink.cc) as vidcc keys, for setups that ran ns-2's agent with its defaults (the DVRC
# and SSVP papers); docs/protocols/tfrc.md lists where they differ from RFC 5348.
NS2_AGENT = {
    "rules": "ns2",  # tfrc.cc's slowstart/increase_rate/decrease_rate/no-feedback, InitRate_ 300
    "initial_rate": "rfc5348",  # rate_init_option_ 2: RFC 3390's 4 packets per RTT (1000 B)
    "q": 0.95,  # df_ 0.95
    "q2": 0.95,  # df_ also smooths sqrtrtt_ for ca_
    "oscillation_prevention": True,  # ca_ 1
    "t_rto": "tcp",  # tzero_: TCP's RTO estimate ...
    "tcp_tick": "100ms",  # ... at tcp_tick_ 0.1 (minrto_ 0)
    "nofeedback_rtts": 2,  # no-feedback timer max(2·rtt_, 2·size_/rate_)
    "ndupack": 1,  # sink numPkts_ 1
    "history_discounting": True,  # sink discount_ 1
    "discount_threshold": 0.5,  # sink minDiscountRatio_ 0.5
}

register(ProtocolSpec("tfrc", TfrcFlow, _resolve, _check, video="optional"))
