"""Where each value of a paper suite's scenarios comes from: the set-up table of every figure.

A verdict is about the paper only if the run is set up as the paper had it. Every value a suite's
scenarios set has a stated source (:data:`Source`):

* :class:`Paper` — the paper says it (its § and a quote);
* :class:`Ns2` — the paper is silent and the value is ns-2 2.35's default, which is what the
  authors ran (the ns-2 variable and its value; ``vidcc.validate`` prints each declared variable
  with ``ns`` and checks the value, see :func:`ns2_script`);
* :class:`Reconstruction` — neither says (a figure that was lost, a quantity ns-2 has no default
  for, a scale-down): our reading and its reason.

A suite declares its set-up as :class:`SetupKey` rows: a pattern over key paths
(:func:`key_paths`: ``scenario.duration``, ``topology.links[L-R].queue.limit``,
``flows[reno].window``, ``flows[srm].receivers[R1].groups``; ``*`` matches anything, the rest is
literal), the source, and optionally the figures it is limited to. :func:`setup_rows` gives one
figure's table (each key set by its parts at a scale, its values, its source); :func:`unsourced`
lists the keys with none, which the report marks "no source declared".
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

# vidcc.papers.model builds on this module (a Suite carries SetupKeys, a Part applies readings),
# so the suites and figures it is given are typed loosely here: no import back into the model.
Figure = Suite = Any

__all__ = ["Paper", "Ns2", "Reconstruction", "Source", "SetupKey", "SetupRow", "key_paths", "setup_rows", "unsourced",
           "ns2_script", "ns2_declared", "set_at"]


@dataclass(frozen=True)
class Paper:
    """The paper states the value: ``ref`` is its § (or Fig./Table), ``quote`` its words."""

    ref: str
    quote: str

    def text(self) -> str:
        return f"paper {self.ref}: “{self.quote}”"


@dataclass(frozen=True)
class Ns2:
    """The paper is silent; ns-2 2.35's default: ``variable`` as ``Class name_`` (``Agent/TCP
    window_``), ``value`` as ``ns`` prints it, and ``note`` for how it maps onto vidcc's key (e.g.
    "packets" or "× packetSize_")."""

    variable: str
    value: str
    note: str = ""

    def text(self) -> str:
        return f"ns-2 2.35 default: {self.variable} = {self.value}" + (f" ({self.note})" if self.note else "")


@dataclass(frozen=True)
class Reconstruction:
    """Neither the paper nor ns-2 gives it: our reading, and why."""

    reason: str

    def text(self) -> str:
        return f"reconstruction: {self.reason}"


Source = Union[Paper, Ns2, Reconstruction]


@dataclass(frozen=True)
class SetupKey:
    """Key paths matching ``pattern`` (``*`` matches anything; brackets are literal) take their value
    from ``source``; limited to ``figures`` when given. The first matching row of a suite's list wins."""

    pattern: str
    source: Source
    figures: Sequence[str] = ()

    def matches(self, path: str, figure: str) -> bool:
        return (not self.figures or figure in self.figures) and _pattern(self.pattern).fullmatch(path) is not None


@functools.lru_cache(maxsize=None)
def _pattern(pattern: str) -> re.Pattern[str]:
    """``*`` matches any run of characters (dots and brackets included); everything else, brackets
    too, is literal (``flows[reno].*``)."""
    return re.compile(".*".join(map(re.escape, pattern.split("*"))))


@dataclass(frozen=True)
class SetupRow:
    """One line of a figure's set-up table: a key path, the values its parts set, its source
    (None when the suite declares none)."""

    path: str
    values: tuple[str, ...]
    source: Source | None


# List items are named by what tells them apart, so that a path reads as the scenario does.
_ITEM_NAMES = {"links": lambda x: f"{x.get('a')}-{x.get('b')}", "flows": lambda x: x.get("label") or x.get("protocol"),
               "receivers": lambda x: x.get("node")}


def key_paths(value: Any, prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every leaf of a scenario document as ``(path, value)``: mappings by key, lists of links,
    flows and receivers by name (``links[A-B]``, ``flows[label]``, ``receivers[node]``), other lists
    of mappings by index; a list of plain values is one leaf."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            yield from key_paths(v, f"{prefix}.{k}" if prefix else str(k))
        return
    if isinstance(value, (list, tuple)) and value and all(isinstance(x, Mapping) for x in value):
        name = _ITEM_NAMES.get(prefix.rsplit(".", 1)[-1])
        for i, item in enumerate(value):
            label = name(item) if name else None
            yield from key_paths(item, f"{prefix}[{label if label is not None else i}]")
        return
    yield prefix, value


def _nodes(value: Any, prefix: str = "") -> Iterator[tuple[str, Any, Any]]:
    """Every node of a scenario document below the root, leaves and inner nodes alike, as ``(path,
    container, key)`` (``container[key]`` is the node), named as :func:`key_paths` names leaves."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            path = f"{prefix}.{k}" if prefix else str(k)
            yield path, value, k
            yield from _nodes(v, path)
        return
    if isinstance(value, list) and value and all(isinstance(x, Mapping) for x in value):
        name = _ITEM_NAMES.get(prefix.rsplit(".", 1)[-1])
        for i, item in enumerate(value):
            label = name(item) if name else None
            path = f"{prefix}[{label if label is not None else i}]"
            yield path, value, i
            yield from _nodes(item, path)


def set_at(scenario: dict, values: Mapping[str, Any]) -> list[str]:
    """Set, in ``scenario`` (changed in place), every node whose key path matches a pattern of
    ``values`` (``*`` as in :class:`SetupKey`) to that pattern's value, a deep copy of it, or, when
    the value is callable, to what it returns given the node's current value (a reading that
    scales what the scenario has, e.g. a period stated in packets of another size); the patterns
    apply in their order. A pattern sets only nodes that exist (it never adds a key): a set-up
    reading changes what the scenario already states. A match replaces the whole node (a mapping
    included: a queue given as a reading is that queue, not a merge), and nothing inside a matched
    node is matched again. Returns the matched paths, in order."""
    matched: list[str] = []
    for pattern, new in values.items():
        regex = _pattern(pattern)
        hits: list[tuple[str, Any, Any]] = []
        inside: str | None = None  # the last matched path: its descendants are not matched again
        for path, container, key in _nodes(scenario):
            if inside is not None and (path.startswith(inside + ".") or path.startswith(inside + "[")):
                continue
            if regex.fullmatch(path):
                hits.append((path, container, key))
                inside = path
        for path, container, key in hits:
            container[key] = new(copy.deepcopy(container[key])) if callable(new) else copy.deepcopy(new)
            matched.append(path)
    return matched


def _fmt(v: Any) -> str:
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(map(_fmt, v)) + "]"
    return str(v)


def _source(suite: Suite, path: str, figure: str) -> Source | None:
    return next((k.source for k in suite.setup if k.matches(path, figure)), None)


def setup_rows(suite: Suite, figure: Figure, scale: str) -> list[SetupRow]:
    """The set-up table of ``figure``: every key path its parts' scenarios set at ``scale`` (swept
    axes included, with all their values), in first-seen order, with its source."""
    values: dict[str, list[str]] = {}
    for part in figure.parts:
        for path, v in key_paths(part.scenario(scale)):
            seen = values.setdefault(path, [])
            if _fmt(v) not in seen:
                seen.append(_fmt(v))
        for axis in part.axes:
            path = _axis_path(axis.key, part.scenario(scale))
            seen = values.setdefault(path, [])
            seen.extend(x for x in map(_fmt, part.axis_values(scale)[axis.column]) if x not in seen)
    return [SetupRow(p, tuple(v), _source(suite, p, figure.id)) for p, v in values.items()]


def _axis_path(key: str, scenario: Mapping[str, Any]) -> str:
    """An axis key (``flows[1].count``, indices as the sweep writes them) as a key path: list items
    by name where :func:`key_paths` names them."""
    out, node = [], scenario
    for piece in key.split("."):
        name, _, rest = piece.partition("[")
        node = node.get(name) if isinstance(node, Mapping) else None
        if rest:
            i = int(rest.rstrip("]"))
            item = node[i] if isinstance(node, list) and i < len(node) else None
            label = _ITEM_NAMES[name](item) if name in _ITEM_NAMES and isinstance(item, Mapping) else None
            out.append(f"{name}[{label if label is not None else i}]")
            node = item
        else:
            out.append(name)
    return ".".join(out)


def unsourced(suite: Suite) -> list[str]:
    """``figure: key path`` of every key some figure's parts set, at either scale, that no
    :class:`SetupKey` of the suite covers."""
    out = []
    for figure in suite.figures:
        for scale in ("quick", "full"):
            out.extend(f"{figure.id}: {r.path}" for r in setup_rows(suite, figure, scale) if r.source is None)
    return list(dict.fromkeys(out))


def ns2_declared(suites: Sequence[Suite]) -> list[tuple[str, Ns2]]:
    """``(suite name, Ns2 source)`` of every ns-2 default the suites declare."""
    return [(s.name, k.source) for s in suites for k in s.setup if isinstance(k.source, Ns2)]


def ns2_script(variables: Sequence[str]) -> str:
    """A Tcl script for ``ns`` that prints ``<variable>=<value>`` for each ``Class name_`` given:
    how ``vidcc.validate`` checks the declared defaults against ns-2 itself."""
    lines = []
    for v in dict.fromkeys(variables):
        cls, _, var = v.rpartition(" ")
        lines.append(f'puts "{v}=[{cls} set {var}]"')
    return "\n".join(lines) + "\nexit 0\n"
