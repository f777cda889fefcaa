"""The scenario schema's building blocks: errors, field types and validators, and the user-level
models. Protocol modules (``vidcc.protocols``) build their flow models from these names only.

The rest of the schema sits on top of the protocol registry and is imported from its module:

* ``vidcc.schema.document``: the whole document's model (the flow union of every registered
  protocol) and the translation of pydantic errors into one-line messages;
* ``vidcc.schema.checks``: checks across keys;
* ``vidcc.schema.resolve``: the simulator's resolved config;
* ``vidcc.schema.load``: :class:`Scenario`, ``parse_scenario``, ``load_scenario`` (re-exported
  by ``vidcc.scenario``, the public entry point).
"""

from __future__ import annotations

from vidcc.schema.errors import ScenarioError, format_path, invalid, show
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
    integer,
    number,
    unit,
)
from vidcc.schema.models import BaseFlow, CoreFlow, Model, Video

__all__ = [
    "ScenarioError",
    "format_path",
    "invalid",
    "show",
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
    "integer",
    "number",
    "unit",
    "BaseFlow",
    "CoreFlow",
    "Model",
    "Video",
]
