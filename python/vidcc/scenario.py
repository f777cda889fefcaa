"""Scenario files: the user-facing TOML format, its validation, and its resolution into the
simulator's configuration. This is the public entry point; the schema itself lives in
``vidcc.schema`` (errors, fields, models, document, checks, resolve, load) and the protocols'
flow models in ``vidcc.protocols``.

Two layers:

* the **user-level dict** (what the TOML file says, units as people write them) is the source of
  truth: ``Scenario.to_dict()`` returns it unchanged, sweeps edit it by key path and validate it
  again;
* the **resolved config** (``Scenario.resolve()``) is the exact JSON contract of
  ``crates/vidcc-sim/src/config.rs``: base units (``_ns``, ``_bps``, ``_bytes``), every default
  filled in, tagged enums with ``"kind"``.

The format is documented in ``docs/scenarios.md``; keep the two in step.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from vidcc.schema.document import problems
from vidcc.schema.errors import ScenarioError, format_path
from vidcc.schema.fields import (
    U32_MAX,
    U64_MAX,
    Duration,
    DurationSpread,
    Name,
    PacketSize,
    PositiveDuration,
    Probability,
    QueueLimit,
    Rate,
    RateSpread,
    Size,
)
from vidcc.schema.load import Scenario, load_scenario, parse_scenario
from vidcc.schema.models import (
    BYTES_PER_FLOW_INSTANCE,
    BYTES_PER_RECEIVER,
    LOSS_KINDS,
    MIN_PACKET_BYTES,
    QUEUE_KINDS,
    TOPOLOGY_KINDS,
    Access,
    Arq,
    Bernoulli,
    Chain,
    CoreFlow,
    CorrelatedBernoulli,
    DropTail,
    Drr,
    Dumbbell,
    GilbertElliott,
    Graph,
    GraphLink,
    LimitedArq,
    Link,
    Loss,
    OptimalArq,
    PersistentArq,
    Queue,
    Receiver,
    Red,
    ScenarioSection,
    Sfq,
    Topology,
    Video,
)

if TYPE_CHECKING:
    from vidcc.protocols.tcp import KINDS as TCP_PROTOCOLS
    from vidcc.protocols.tcp import TcpFlow
    from vidcc.protocols.udp import CbrFlow, ParetoFlow, UdpVideoFlow
    from vidcc.schema.document import PROTOCOLS, Document, Flow

# Names that need every protocol module (or one), imported on first use (PEP 562): loading a
# scenario imports only the protocols it names (vidcc.schema.document).
_LAZY = {
    "PROTOCOLS": ("vidcc.schema.document", "PROTOCOLS"),
    "Document": ("vidcc.schema.document", "Document"),
    "Flow": ("vidcc.schema.document", "Flow"),
    "TCP_PROTOCOLS": ("vidcc.protocols.tcp", "KINDS"),
    "TcpFlow": ("vidcc.protocols.tcp", "TcpFlow"),
    "CbrFlow": ("vidcc.protocols.udp", "CbrFlow"),
    "ParetoFlow": ("vidcc.protocols.udp", "ParetoFlow"),
    "UdpVideoFlow": ("vidcc.protocols.udp", "UdpVideoFlow"),
}


def __getattr__(name: str) -> Any:
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where[0]), where[1])
    globals()[name] = value  # later look-ups skip this function
    return value


__all__ = [
    "Scenario",
    "ScenarioError",
    "load_scenario",
    "parse_scenario",
    "format_path",
    "problems",
    "PROTOCOLS",
    "TOPOLOGY_KINDS",
    # The models and field types, for code that inspects the schema (tests, docs checks).
    "TCP_PROTOCOLS",
    "QUEUE_KINDS",
    "LOSS_KINDS",
    "BYTES_PER_FLOW_INSTANCE",
    "BYTES_PER_RECEIVER",
    "MIN_PACKET_BYTES",
    "Receiver",
    "U32_MAX",
    "U64_MAX",
    "Duration",
    "DurationSpread",
    "Name",
    "PacketSize",
    "PositiveDuration",
    "Probability",
    "QueueLimit",
    "Rate",
    "RateSpread",
    "Size",
    "Access",
    "Arq",
    "Bernoulli",
    "Chain",
    "CoreFlow",
    "CorrelatedBernoulli",
    "Document",
    "DropTail",
    "Drr",
    "Dumbbell",
    "Flow",
    "GilbertElliott",
    "Graph",
    "GraphLink",
    "LimitedArq",
    "Link",
    "Loss",
    "OptimalArq",
    "PersistentArq",
    "Queue",
    "Red",
    "Sfq",
    "ScenarioSection",
    "Topology",
    "Video",
    "TcpFlow",
    "CbrFlow",
    "ParetoFlow",
    "UdpVideoFlow",
]
