"""Scenario models of the protocols implemented in vidcc-core, one module each.

A protocol module defines a pydantic flow model (a subclass of `vidcc.scenario.CoreFlow` with a
`protocol: Literal["name"]` field and its parameters in user units), and registers a
`ProtocolSpec` with `register(...)`:

- `resolve(flow) -> dict`: the protocol's parameters in the simulator's resolved form (the fields
  of its Rust config struct, units as suffixes: `_ns`, `_bps`, `_bytes`); `kind` is added here;
- `check(flow, here, fail)`: cross-key checks; `fail(path, message)` raises the one-line error;
- `video`: "required", "optional" or "none" — whether the flow may (must) have a `video` table.

`vidcc.scenario` imports this package after defining the base types the modules use, and puts
every registered model into the flow union. To add a protocol: write its module and add it to
the import list at the bottom of this file.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Literal

Video = Literal["required", "optional", "none"]


@dataclass(frozen=True)
class ProtocolSpec:
    name: str
    model: type
    resolve: Callable[[Any], dict]
    check: Callable[[Any, str, Callable[[str, str], None]], None] | None = None
    video: Video = "optional"


SPECS: list[ProtocolSpec] = []


def names() -> tuple[str, ...]:
    """Every protocol a scenario may name: the simulator's built-in kinds and the registered ones."""
    from vidcc.scenario import PROTOCOLS  # scenario imports this package: resolve at call time

    return tuple(dict.fromkeys([*PROTOCOLS, *(s.name for s in SPECS)]))


def register(spec: ProtocolSpec) -> ProtocolSpec:
    if any(s.name == spec.name for s in SPECS):
        raise ValueError(f"protocol {spec.name!r} registered twice")
    SPECS.append(spec)
    return spec


# Protocol modules (each calls `register`). Keep one import per line, sorted.
from vidcc.protocols import dvrc  # noqa: E402,F401
from vidcc.protocols import gaimd  # noqa: E402,F401
from vidcc.protocols import qos_aimd  # noqa: E402,F401
from vidcc.protocols import rtcp_udp  # noqa: E402,F401
from vidcc.protocols import ssvp  # noqa: E402,F401
from vidcc.protocols import tfrc  # noqa: E402,F401
