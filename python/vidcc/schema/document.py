"""The model of a whole scenario document, and pydantic's errors as one-line messages.

The flow union holds the model of every protocol in the registry (``vidcc.protocols``); a
pydantic error becomes ``(key path, message)`` in the user's terms (``flows[1].rate``, "unknown
key for protocol ...; expected one of: ...").
"""

from __future__ import annotations

import typing
from typing import Annotated, Any, Union

from pydantic import Field, ValidationError

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

__all__ = ["Document", "SPECS", "PROTOCOLS", "MULTICAST", "translate", "problems", "validation_error"]

# Every registered protocol, by name.
SPECS: dict[str, protocols.ProtocolSpec] = {spec.name: spec for spec in protocols.specs()}
PROTOCOLS: tuple[str, ...] = tuple(SPECS)
# The protocols whose flows have any number of receivers (the registry's `reach: Multicast`).
MULTICAST: frozenset[str] = frozenset(name for name in PROTOCOLS if _vidcc.protocol_reach(name) == "multicast")

Flow = Annotated[
    Union[tuple(dict.fromkeys(spec.model for spec in SPECS.values()))],
    Field(discriminator="protocol"),
]


class Document(Model):
    """A whole scenario file."""

    scenario: ScenarioSection
    topology: Topology
    flows: Annotated[list[Flow], Field(min_length=1)]


# Discriminator values that pydantic puts into error locations, and what they select.
TAGS: dict[str, tuple[str, type[Model]]] = {
    **{name: ("protocol", spec.model) for name, spec in SPECS.items()},
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
    model: type[Model] | None = Document
    for part in loc:
        if isinstance(part, str) and part in TAGS:
            model = TAGS[part][1]
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
        if isinstance(part, str) and part in TAGS and i < len(loc) - 1:
            tag = part
            continue
        clean.append(part)
    path = format_path(clean)

    if kind == INVALID:
        return path, ctx["message"]
    if kind == "extra_forbidden":
        if tag is not None and len(loc) >= 2 and loc[-2] == tag:
            what, model = TAGS[tag]
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
        Document.model_validate(data)
    except ValidationError as err:
        return [translate(e) for e in err.errors(include_url=False)]
    return []
