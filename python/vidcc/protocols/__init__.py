"""The protocol registry: every protocol a scenario may name, one module each in this package.

A protocol module defines a pydantic flow model (a subclass of `vidcc.schema.CoreFlow`, or of
`vidcc.schema.BaseFlow` for a flow that never carries video, with a `protocol: Literal["name"]`
field and its parameters in user units, using the field types and validators of
`vidcc.schema`), and registers a `ProtocolSpec` with `register(...)`:

- `resolve(flow) -> dict`: the protocol's parameters in the simulator's resolved form (the fields
  of its Rust config, units as suffixes: `_ns`, `_bps`, `_bytes`); `kind` is added by the schema;
- `check(flow, here, fail)`: cross-key checks; `fail(path, message)` raises the one-line error;
- `video`: "required", "optional" or "none" — whether the flow may (must) have a `video` table.
- `rate_adaptive`: whether its sender steers a rate-adaptive set (`traces = [...]`: its rate
  picks the quantizer at each GOP); a flow of any other protocol may not carry one.

Modules are found by `specs()`, which imports every module of this package once, in name order,
the first time the registry is asked. To add a protocol: add its module here; nothing else on the
Python side names it.

`find(name)` answers for one protocol and imports as little as it can (issue 14: a scenario's
validation should not pay for every protocol's models): first the modules named like the
protocol (`tcp-newreno` → `tcp_newreno`, then `tcp`), and only if none of them registers it,
every module, as `specs()`.
"""

from __future__ import annotations

import importlib
import pkgutil
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
    rate_adaptive: bool = False


# Filled by `register` as the protocol modules are imported.
_registered: list[ProtocolSpec] = []
_discovered = False


def register(spec: ProtocolSpec) -> ProtocolSpec:
    """Add a protocol to the registry (each protocol module calls this for its protocols)."""
    if any(s.name == spec.name for s in _registered):
        raise ValueError(f"protocol {spec.name!r} registered twice")
    _registered.append(spec)
    return spec


def modules() -> list[str]:
    """The protocol modules of this package, by name."""
    return sorted(f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__))


def specs() -> tuple[ProtocolSpec, ...]:
    """Every registered protocol: the modules of this package in name order, each module's
    protocols in the order it registers them (whichever module was imported first)."""
    global _discovered
    found = modules()
    if not _discovered:
        for module in found:
            importlib.import_module(module)
        _discovered = True
    rank = {module: i for i, module in enumerate(found)}
    return tuple(sorted(_registered, key=lambda s: rank.get(s.model.__module__, len(rank))))


def _named(name: str) -> ProtocolSpec | None:
    return next((s for s in _registered if s.name == name), None)


def _candidates(name: str) -> list[str]:
    """The modules `name` is looked for in first: its words joined by `_`, then fewer of them
    (`tcp-westwood-plus` → `tcp_westwood_plus`, `tcp_westwood`, `tcp`)."""
    words = name.split("-")
    return [f"{__name__}.{'_'.join(words[:k])}" for k in range(len(words), 0, -1) if all(words[:k])]


def find(name: str) -> ProtocolSpec | None:
    """The protocol called ``name`` (as `get`), importing only the module that defines it when
    that module is named like it; every module otherwise."""
    spec = _named(name)
    if spec is not None or _discovered:
        return spec
    available = set(modules())
    for module in _candidates(name):
        if module in available:
            importlib.import_module(module)
            spec = _named(name)
            if spec is not None:
                return spec
    return get(name)


def names() -> tuple[str, ...]:
    """Every protocol a scenario may name."""
    return tuple(s.name for s in specs())


def get(name: str) -> ProtocolSpec | None:
    """The protocol called ``name``, or None if there is none."""
    return next((s for s in specs() if s.name == name), None)
