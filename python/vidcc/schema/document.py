"""The model of a whole scenario document, and pydantic's errors as one-line messages.

The flow union holds the model of every protocol in the registry (``vidcc.protocols``); a
pydantic error becomes ``(key path, message)`` in the user's terms (``flows[1].rate``, "unknown
key for protocol ...; expected one of: ...").

What needs every protocol is built on first use (PEP 562: ``Document``, ``Flow``, ``SPECS``,
``PROTOCOLS``, ``MULTICAST``, ``TAGS``), because importing every protocol module and building the
validator of their union is most of what loading a scenario costs (issue 14: a scenario error
should answer in well under a second's fraction). :func:`document_for` picks the model a
document is validated with: while the whole ``Document`` has not been built, a document whose
flows all name known protocols is validated by a ``Document`` whose flow union holds only those
protocols' models. The errors are the same: the union is tagged by ``protocol``, so a flow is
only ever validated against its own protocol's model; a flow without a known protocol (whose
error lists every protocol) goes to the whole ``Document``.
"""

from __future__ import annotations

import functools
import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any, Union

from pydantic import Field, ValidationError, create_model

from vidcc import _vidcc, protocols
from vidcc.schema.errors import INVALID, ScenarioError, format_path, show
from vidcc.schema.models import (
    Bernoulli,
    Chain,
    CorrelatedBernoulli,
    DropTail,
    Drr,
    Dumbbell,
    GilbertElliott,
    Graph,
    LimitedArq,
    Model,
    OptimalArq,
    PersistentArq,
    Red,
    ScenarioSection,
    Sfq,
    Topology,
)

if TYPE_CHECKING:  # built on first use (`__getattr__` below)
    SPECS: dict[str, protocols.ProtocolSpec]
    PROTOCOLS: tuple[str, ...]
    MULTICAST: frozenset[str]
    Flow: Any
    Document: type[Model]
    TAGS: dict[str, tuple[str, type[Model]]]

__all__ = [
    "Document",
    "SPECS",
    "PROTOCOLS",
    "MULTICAST",
    "document_for",
    "is_multicast",
    "translate",
    "problems",
    "validation_error",
]


def _flow_union(models: tuple[type[Model], ...]) -> Any:
    return Annotated[Union[models], Field(discriminator="protocol")]


@functools.lru_cache(maxsize=None)
def _document(models: tuple[type[Model], ...]) -> type[Model]:
    """The model of a whole scenario file whose flows are of ``models``."""
    return create_model(
        "Document",
        __base__=Model,
        __module__=__name__,
        __doc__="A whole scenario file.",
        scenario=(ScenarioSection, ...),
        topology=(Topology, ...),
        flows=(Annotated[list[_flow_union(models)], Field(min_length=1)], ...),
    )


def _specs() -> dict[str, protocols.ProtocolSpec]:
    return {spec.name: spec for spec in protocols.specs()}


def _all_models() -> tuple[type[Model], ...]:
    return tuple(dict.fromkeys(spec.model for spec in protocols.specs()))


# Discriminator values of the topology's tables that pydantic puts into error locations, and what
# they select (the protocols' are looked up in the registry: `_tag`).
KIND_TAGS: dict[str, tuple[str, type[Model]]] = {
    "dumbbell": ("topology kind", Dumbbell),
    "chain": ("topology kind", Chain),
    "graph": ("topology kind", Graph),
    "droptail": ("queue kind", DropTail),
    "red": ("queue kind", Red),
    "drr": ("queue kind", Drr),
    "sfq": ("queue kind", Sfq),
    "bernoulli": ("loss kind", Bernoulli),
    "gilbert-elliott": ("loss kind", GilbertElliott),
    "correlated-bernoulli": ("loss kind", CorrelatedBernoulli),
    "persistent": ("arq kind", PersistentArq),
    "limited": ("arq kind", LimitedArq),
    "optimal": ("arq kind", OptimalArq),
}

# The names built on first use, and how (module `__getattr__` below).
_LAZY: dict[str, typing.Callable[[], Any]] = {
    # Every registered protocol, by name.
    "SPECS": _specs,
    "PROTOCOLS": lambda: tuple(_specs()),
    # The protocols whose flows have any number of receivers (the registry's `reach: Multicast`).
    "MULTICAST": lambda: frozenset(name for name in _specs() if is_multicast(name)),
    "Flow": lambda: _flow_union(_all_models()),
    "Document": lambda: _document(_all_models()),
    # Discriminator values that pydantic puts into error locations, and what they select.
    "TAGS": lambda: {**{name: ("protocol", spec.model) for name, spec in _specs().items()}, **KIND_TAGS},
}


def __getattr__(name: str) -> Any:
    make = _LAZY.get(name)
    if make is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = make()
    globals()[name] = value  # later look-ups skip this function
    return value


def is_multicast(protocol: str) -> bool:
    """Whether flows of the (registered) ``protocol`` have any number of receivers."""
    return _vidcc.protocol_reach(protocol) == "multicast"


def document_for(data: Any) -> type[Model]:
    """The model to validate the user-level dict ``data`` with (module docstring): the whole
    ``Document``, or one whose flow union holds only the protocols ``data``'s flows name."""
    whole = globals().get("Document")
    if whole is not None or not isinstance(data, Mapping) or not isinstance(data.get("flows"), list):
        return whole if whole is not None else __getattr__("Document")
    models: dict[type[Model], None] = {}
    for flow in data["flows"]:
        name = flow.get("protocol") if isinstance(flow, Mapping) else None
        spec = protocols.find(name) if isinstance(name, str) else None
        if spec is None:
            return __getattr__("Document")
        models[spec.model] = None
    return _document(tuple(models))


def _tag(part: Any) -> tuple[str, type[Model]] | None:
    """What a discriminator value in an error location selects (None if ``part`` is not one).
    A protocol in a location was validated, so its module is imported: the registry answers
    without importing the others. (No key of any table is named like a tag.)"""
    if not isinstance(part, str):
        return None
    if part in KIND_TAGS:
        return KIND_TAGS[part]
    spec = protocols.find(part) if _is_protocol_name(part) else None
    return ("protocol", spec.model) if spec is not None else None


@functools.lru_cache(maxsize=1)
def _protocol_names() -> frozenset[str]:
    # The simulator's registry, which the Python one equals (tests/test_protocol_registry.py):
    # telling a protocol's name from a key costs no import.
    return frozenset(_vidcc.protocol_names())


def _is_protocol_name(part: str) -> bool:
    return part in _protocol_names()


def _keys(model: type[Model]) -> str:
    first = [k for k in ("kind", "protocol") if k in model.model_fields]
    return ", ".join(first + [k for k in model.model_fields if k not in first])


def _models_in(annotation: Any) -> list[type[Model]]:
    """The model classes a field annotation can hold (through Annotated, Optional, list, Union)."""
    if isinstance(annotation, type) and issubclass(annotation, Model):
        return [annotation]
    out: list[type[Model]] = []
    for arg in typing.get_args(annotation):
        out.extend(_models_in(arg))
    return out


def _model_at(loc: list) -> type[Model] | None:
    """The model of the table at a raw pydantic location (None if it cannot be told)."""
    model: type[Model] | None = __getattr__("Document")
    for part in loc:
        tag = _tag(part)
        if tag is not None:
            model = tag[1]
        elif isinstance(part, str):
            field = model.model_fields.get(part) if model is not None else None
            if field is None:
                return None
            models = _models_in(field.annotation)
            model = models[0] if len(models) == 1 else None
    return model


def translate(error: dict) -> tuple[str, str]:
    """One pydantic error → (key path, one-line message)."""
    loc = list(error["loc"])
    kind = error["type"]
    ctx = error.get("ctx") or {}
    # Drop the discriminator values pydantic inserts after a tagged union (flows[0].tcp-reno.x),
    # remembering the last one: it says which keys were allowed.
    tag = None
    clean: list = []
    for i, part in enumerate(loc):
        if _tag(part) is not None and i < len(loc) - 1:
            tag = part
            continue
        clean.append(part)
    path = format_path(clean)

    if kind == INVALID:
        return path, ctx["message"]
    if kind == "extra_forbidden":
        if tag is not None and len(loc) >= 2 and loc[-2] == tag:
            what, model = _tag(tag)
            return path, f'unknown key for {what} "{tag}"; expected one of: {_keys(model)}'
        parent = _model_at(loc[:-1])
        return path, f"unknown key; expected one of: {_keys(parent)}" if parent is not None else "unknown key"
    if kind == "missing":
        return path, "missing required key"
    if kind == "union_tag_invalid":
        key = ctx.get("discriminator", "").strip("'")
        names = {"protocol": "protocol", "kind": "kind"}
        tags = ", ".join(t.strip().strip("'") for t in ctx.get("expected_tags", "").split(","))
        value = ctx.get("tag")
        return format_path(clean + [key]), f'unknown {names.get(key, key)} "{value}"; expected one of: {tags}'
    if kind == "union_tag_not_found":
        key = ctx.get("discriminator", "").strip("'")
        return format_path(clean + [key]), "missing required key"
    if kind in ("model_attributes_type", "model_type", "dict_type"):
        return path, f"expected a table, got {show(error.get('input'))}"
    if kind == "list_type":
        return path, f"expected a list, got {show(error.get('input'))}"
    if kind in ("int_type", "int_parsing"):
        return path, f"expected an integer, got {show(error.get('input'))}"
    if kind in ("float_type", "float_parsing"):
        return path, f"expected a number, got {show(error.get('input'))}"
    if kind in ("bool_type", "bool_parsing"):
        return path, f"expected true or false, got {show(error.get('input'))}"
    if kind in ("string_type",):
        return path, f"expected a string, got {show(error.get('input'))}"
    if kind == "literal_error":
        expected = ctx.get("expected", "").replace("'", '"')
        return path, f"expected one of {expected}, got {show(error.get('input'))}"
    if kind == "too_short":
        return path, "must not be empty"
    msg = error.get("msg", kind).replace("Input should be", "must be")
    return path, msg


def validation_error(source: str, err: ValidationError) -> ScenarioError:
    errors = err.errors(include_url=False)
    path, message = translate(errors[0])
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return ScenarioError(source, path, message)


def problems(data: Any) -> list[tuple[str, str]]:
    """Every (key path, message) the document's model reports for the user-level dict ``data``
    (not only the first, and without the checks across keys); empty if the shape is right."""
    try:
        document_for(data).model_validate(data)
    except ValidationError as err:
        return [translate(e) for e in err.errors(include_url=False)]
    return []
