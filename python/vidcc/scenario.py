"""Scenario files: the user-facing TOML format, its validation, and its resolution into the
simulator's configuration.

Two layers:

* the **user-level dict** (what the TOML file says, units as people write them) is the source of
  truth: ``Scenario.to_dict()`` returns it unchanged, sweeps edit it by key path and validate it
  again;
* the **resolved config** (``Scenario.resolve()``) is the exact JSON contract of
  ``crates/vidcc-sim/src/config.rs``: base units (``_ns``, ``_bps``, ``_bytes``), every default
  filled in, tagged enums with ``"kind"``.

Validation happens in two passes: pydantic models check the shape, the types and the units
(every unit goes through the Rust parsers in ``vidcc._vidcc``), then :func:`_check` checks what
depends on several keys (warmup < duration, routes in a graph, which flow keys a topology
accepts). Every problem becomes one :class:`ScenarioError` line naming the file and the key path.

The format is documented in ``docs/scenarios.md``; keep the two in step.
"""

from __future__ import annotations

import copy
import json
import math
import typing
from collections import deque
from os import PathLike
from pathlib import Path
from typing import Annotated, Any, Literal, Mapping, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError
from pydantic_core import PydanticCustomError

from vidcc import _vidcc

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10 (pyproject allows it): the same parser, as a package
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = [
    "Scenario",
    "ScenarioError",
    "load_scenario",
    "parse_scenario",
    "format_path",
    "PROTOCOLS",
    "TOPOLOGY_KINDS",
]

PROTOCOLS = ("tcp-reno", "tcp-newreno", "tcp-westwood-plus", "udp-cbr", "udp-pareto", "udp")
TCP_PROTOCOLS = ("tcp-reno", "tcp-newreno", "tcp-westwood-plus")
TOPOLOGY_KINDS = ("dumbbell", "chain", "graph")
# Most flow instances in one scenario (see `_check`).
MAX_FLOW_INSTANCES = 5000
QUEUE_KINDS = ("droptail", "red")
LOSS_KINDS = ("bernoulli", "gilbert-elliott", "correlated-bernoulli")

# The simulator needs room for the largest protocol header in a data packet.
MIN_PACKET_BYTES = 64

U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1


# --------------------------------------------------------------------------------------------
# Errors


class ScenarioError(ValueError):
    """A scenario that cannot be used: one line naming the file, the key path and the problem.

    ``file`` is the source (a path, or ``"<string>"``), ``path`` the key path in the user-level
    document (``"topology.bottleneck.bandwidth"``, ``"flows[1].rate"``; empty for problems with
    the whole file), ``message`` what was expected.
    """

    def __init__(self, file: str, path: str, message: str):
        self.file = str(file)
        self.path = path
        self.message = " ".join(str(message).split())  # always a single line
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.file]
        if self.path:
            parts.append(self.path)
        parts.append(self.message)
        return ": ".join(parts)


def format_path(loc: tuple | list) -> str:
    """``("flows", 1, "rate")`` → ``"flows[1].rate"``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _show(value: Any) -> str:
    """A value as it would be written in TOML (strings in double quotes)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def _fail(message: str) -> PydanticCustomError:
    # The template is a placeholder so that braces in `message` are never interpreted.
    return PydanticCustomError("vidcc", "{message}", {"message": message})


# --------------------------------------------------------------------------------------------
# Unit types: the user writes strings, the models hold base units (ints).


def _unit(parse, what: str, example: str, *, positive: bool = False, maximum: int = U64_MAX):
    def validate(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, str):
            raise _fail(f'expected a {what} as a string with a unit (e.g. "{example}"), got {_show(value)}')
        if positive and value.strip().startswith("-"):
            raise _fail(f'must be positive, got "{value}"')
        try:
            n = parse(value)
        except ValueError as e:
            raise _fail(str(e)) from None
        if positive and n <= 0:
            raise _fail(f'must be positive, got "{value}"')
        if n > maximum:
            raise _fail(f'"{value}" is too large')
        return n

    return validate


Rate = Annotated[int, BeforeValidator(_unit(_vidcc.parse_rate, "rate", "10Mbps", positive=True))]
Duration = Annotated[int, BeforeValidator(_unit(_vidcc.parse_duration, "duration", "35ms"))]
PositiveDuration = Annotated[
    int, BeforeValidator(_unit(_vidcc.parse_duration, "duration", "35ms", positive=True))
]
Size = Annotated[int, BeforeValidator(_unit(_vidcc.parse_size, "size", "1000B", positive=True))]
PacketSize = Annotated[
    int,
    BeforeValidator(_unit(_vidcc.parse_size, "size", "1000B", positive=True, maximum=U32_MAX)),
]


def _spread(parse, what: str, example: str, example_range: str, positive: bool):
    one = _unit(parse, what, example, positive=positive)

    def validate(value: Any) -> int | dict[str, int]:
        if isinstance(value, list):
            if len(value) != 2:
                raise _fail(
                    f"expected one {what} or a list of two [min, max] (e.g. {example_range}),"
                    f" got a list of {len(value)}"
                )
            lo, hi = one(value[0]), one(value[1])
            if lo > hi:
                raise _fail(f'[min, max]: min "{value[0]}" is larger than max "{value[1]}"')
            return {"min": lo, "max": hi}
        return one(value)

    return validate


# A fixed value (int) or {"min": .., "max": ..}: drawn uniformly per flow instance by the simulator.
RateSpread = Annotated[Any, BeforeValidator(_spread(_vidcc.parse_rate, "rate", "10Mbps", '["10Mbps", "100Mbps"]', True))]
DurationSpread = Annotated[
    Any, BeforeValidator(_spread(_vidcc.parse_duration, "duration", "5ms", '["5ms", "15ms"]', False))
]


def _probability(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _fail(f"expected a probability (a number in [0, 1]), got {_show(value)}")
    if not (0.0 <= value <= 1.0):
        raise _fail(f"must be a probability in [0, 1], got {value}")
    return float(value)


Probability = Annotated[float, BeforeValidator(_probability)]


def _number(*, positive: bool = False, minimum: float | None = None, above: float | None = None):
    def validate(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise _fail(f"expected a number, got {_show(value)}")
        if not math.isfinite(value):
            raise _fail(f"expected a finite number, got {value}")
        if positive and value <= 0:
            raise _fail(f"must be positive, got {value}")
        if minimum is not None and value < minimum:
            raise _fail(f"must be at least {minimum}, got {value}")
        if above is not None and value <= above:
            raise _fail(f"must be greater than {above}, got {value}")
        return float(value)

    return validate


def _integer(*, minimum: int = 0, maximum: int = U64_MAX):
    def validate(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise _fail(f"expected an integer, got {_show(value)}")
        if value < minimum:
            raise _fail(f"must be at least {minimum}, got {value}")
        if value > maximum:
            raise _fail(f"must be at most {maximum}, got {value}")
        return value

    return validate


def _queue_limit(value: Any) -> Any:
    """Integer → packets, size string → bytes, "bdp" → bandwidth-delay product."""
    if isinstance(value, bool):
        raise _fail(f'expected a number of packets, a size (e.g. "64KB") or "bdp", got {_show(value)}')
    if isinstance(value, int):
        if value < 1:
            raise _fail(f"must be at least 1 packet, got {value}")
        return {"packets": value}
    if value == "bdp":
        return "bdp"
    if isinstance(value, str):
        try:
            n = _vidcc.parse_size(value)
        except ValueError as e:
            raise _fail(f'{e}; or write a number of packets or "bdp"') from None
        if n <= 0:
            raise _fail(f'must be positive, got "{value}"')
        return {"bytes": n}
    raise _fail(f'expected a number of packets, a size (e.g. "64KB") or "bdp", got {_show(value)}')


QueueLimit = Annotated[Any, BeforeValidator(_queue_limit)]


def _non_empty_string(value: Any) -> str:
    if not isinstance(value, str):
        raise _fail(f"expected a string, got {_show(value)}")
    if not value.strip():
        raise _fail("must not be empty")
    return value


Name = Annotated[str, BeforeValidator(_non_empty_string)]


# --------------------------------------------------------------------------------------------
# User-level models (the TOML file). Field names are the user's keys.


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


class DropTail(_Model):
    kind: Literal["droptail"]
    limit: QueueLimit = "bdp"


class Red(_Model):
    kind: Literal["red"]
    limit: QueueLimit = "bdp"
    min_thresh: Annotated[float, BeforeValidator(_number(minimum=0))] = 5.0
    max_thresh: Annotated[float, BeforeValidator(_number(positive=True))] = 15.0
    weight: Annotated[float, BeforeValidator(_number(positive=True))] = 0.002
    max_p: Probability = 0.1
    gentle: bool = True
    bytes: bool = False
    mean_packet_size: PacketSize = 500
    wait: bool = True


Queue = Annotated[Union[DropTail, Red], Field(discriminator="kind")]


class Bernoulli(_Model):
    kind: Literal["bernoulli"]
    p: Probability


class GilbertElliott(_Model):
    kind: Literal["gilbert-elliott"]
    p: Probability
    r: Probability
    loss_good: Probability = 0.0
    loss_bad: Probability = 1.0


class CorrelatedBernoulli(_Model):
    kind: Literal["correlated-bernoulli"]
    p: Probability
    q: Probability


Loss = Annotated[Union[Bernoulli, GilbertElliott, CorrelatedBernoulli], Field(discriminator="kind")]


class PersistentArq(_Model):
    """Link-level ARQ: a failed transmission is repeated in the next slot until it succeeds."""

    kind: Literal["persistent"]


class LimitedArq(_Model):
    kind: Literal["limited"]
    attempts: Annotated[int, BeforeValidator(_integer(minimum=1, maximum=U32_MAX))]


Arq = Annotated[Union[PersistentArq, LimitedArq], Field(discriminator="kind")]


class Link(_Model):
    """A core link (dumbbell bottleneck, chain hop)."""

    bandwidth: Rate
    delay: Duration
    queue: Queue = Field(default_factory=lambda: DropTail(kind="droptail"))
    loss: Loss | None = None
    reverse_loss: Loss | None = None
    arq: Arq | None = None


class GraphLink(Link):
    a: Name
    b: Name
    monitor: bool = True


class Access(_Model):
    """Per-flow-instance access links. Every key is optional here: `source_access` and
    `sink_access` override `access` key by key, and the merged table must have bandwidth and
    delay."""

    bandwidth: RateSpread = None
    delay: DurationSpread = None
    queue: Queue | None = None
    loss: Loss | None = None
    reverse_loss: Loss | None = None
    arq: Arq | None = None


class Dumbbell(_Model):
    kind: Literal["dumbbell"]
    bottleneck: Link
    access: Access | None = None
    source_access: Access | None = None
    sink_access: Access | None = None


class Chain(_Model):
    kind: Literal["chain"]
    hops: Annotated[int, BeforeValidator(_integer(minimum=1, maximum=U32_MAX))]
    link: Link
    access: Access | None = None
    source_access: Access | None = None
    sink_access: Access | None = None


class Graph(_Model):
    kind: Literal["graph"]
    nodes: list[Name]
    links: list[GraphLink]


Topology = Annotated[Union[Dumbbell, Chain, Graph], Field(discriminator="kind")]


class ScenarioSection(_Model):
    duration: PositiveDuration
    warmup: Duration = 0
    seed: Annotated[int, BeforeValidator(_integer(maximum=U64_MAX))] = 1
    sample_interval: PositiveDuration = 150_000_000
    queue_sample_interval: PositiveDuration | None = None
    packet_log: bool = False


class _Flow(_Model):
    count: Annotated[int, BeforeValidator(_integer(minimum=1, maximum=U32_MAX))] = 1
    packet_size: PacketSize = 1000
    start: DurationSpread = 0
    stop: Duration | None = None
    # ns-2 `overhead_`: a random delay in [0, send_jitter] before each data packet enters the
    # network (order kept). Breaks DropTail phase effects between flows of equal RTT.
    send_jitter: Duration = 0
    label: Name | None = None
    # Placement keys: which ones a flow may use depends on the topology (checked in _check).
    direction: Literal["forward", "reverse"] | None = None
    span: Literal["end-to-end", "per-hop"] | None = None
    src: Name | None = None
    dst: Name | None = None
    # Graph only: private access links per instance, joining an edge node to src / dst.
    source_access: Access | None = None
    sink_access: Access | None = None


class TcpFlow(_Flow):
    protocol: Literal["tcp-reno", "tcp-newreno", "tcp-westwood-plus"]
    max_window: Size = 64_000
    initial_window: Annotated[int, BeforeValidator(_integer(minimum=1, maximum=U32_MAX))] = 2
    min_rto: PositiveDuration = 200_000_000
    initial_rto: PositiveDuration = 1_000_000_000
    delayed_ack: bool = False
    transfer: Size | None = None


class CbrFlow(_Flow):
    protocol: Literal["udp-cbr"]
    rate: Rate


class ParetoFlow(_Flow):
    protocol: Literal["udp-pareto"]
    rate: Rate
    on_mean: PositiveDuration = 500_000_000
    off_mean: PositiveDuration = 500_000_000
    # Pareto periods with the given mean need shape > 1 (scale = mean · (shape − 1) / shape).
    shape: Annotated[float, BeforeValidator(_number(above=1.0))] = 1.5


class Video(_Model):
    """A flow's video source and its playout (docs/video.md)."""

    model: Literal["tes-mpeg4", "trace", "cbr"]
    # tes-mpeg4 and cbr: the mean rate (with layers: the full-quality rate, the top layer's).
    rate: Rate | None = None
    # trace: a frame-size trace file, relative to the scenario file.
    trace: Name | None = None
    trace_format: Literal["evalvid", "plain"] = "evalvid"
    fps: Annotated[float, BeforeValidator(_number(above=0.0))] = 25.0
    gop: Name = "IBBPBBPBBPBB"
    # Cumulative layer rates (layered video) or simulcast stream rates; at most one of the two.
    layers: Annotated[list[Rate], Field(min_length=1)] | None = None
    streams: Annotated[list[Rate], Field(min_length=1)] | None = None
    # Playout: a startup delay after the first packet arrives (Evalvid), or a per-frame deadline
    # after the frame is ready at the sender; at most one of the two (default: 1 s playout delay).
    playout_delay: Duration | None = None
    deadline: PositiveDuration | None = None
    delayed_threshold: PositiveDuration = 75_000_000
    # Frames leave in decode order (an anchor before the B frames it closes), as encoders and
    # Evalvid send them; "display" sends them as the source makes them.
    send_order: Literal["decode", "display"] = "decode"


class UdpVideoFlow(_Flow):
    protocol: Literal["udp"]
    video: Video
    layers_sent: Annotated[int, BeforeValidator(_integer(minimum=1, maximum=255))] | None = None


class CoreFlow(_Flow):
    """Base of the flow models of vidcc-core protocols (see `vidcc.protocols`): a flow that may
    carry a `video` table (bulk data without one)."""

    video: Video | None = None


# The protocol modules use the base types above, so they are imported here, not at the top.
from vidcc import protocols as _protocols  # noqa: E402

_CORE = {spec.name: spec for spec in _protocols.SPECS}
PROTOCOLS = PROTOCOLS + tuple(_CORE)

Flow = Annotated[
    Union[(TcpFlow, CbrFlow, ParetoFlow, UdpVideoFlow, *(spec.model for spec in _protocols.SPECS))],
    Field(discriminator="protocol"),
]


class _Document(_Model):
    scenario: ScenarioSection
    topology: Topology
    flows: Annotated[list[Flow], Field(min_length=1)]


# Discriminator values that pydantic puts into error locations, and what they select.
_TAGS: dict[str, tuple[str, type[_Model]]] = {
    **{p: ("protocol", TcpFlow) for p in TCP_PROTOCOLS},
    "udp-cbr": ("protocol", CbrFlow),
    "udp-pareto": ("protocol", ParetoFlow),
    "udp": ("protocol", UdpVideoFlow),
    **{name: ("protocol", spec.model) for name, spec in _CORE.items()},
    "dumbbell": ("topology kind", Dumbbell),
    "chain": ("topology kind", Chain),
    "graph": ("topology kind", Graph),
    "droptail": ("queue kind", DropTail),
    "red": ("queue kind", Red),
    "bernoulli": ("loss kind", Bernoulli),
    "gilbert-elliott": ("loss kind", GilbertElliott),
    "correlated-bernoulli": ("loss kind", CorrelatedBernoulli),
    "persistent": ("arq kind", PersistentArq),
    "limited": ("arq kind", LimitedArq),
}


def _keys(model: type[_Model]) -> str:
    first = [k for k in ("kind", "protocol") if k in model.model_fields]
    return ", ".join(first + [k for k in model.model_fields if k not in first])


def _models_in(annotation: Any) -> list[type[_Model]]:
    """The model classes a field annotation can hold (through Annotated, Optional, list, Union)."""
    if isinstance(annotation, type) and issubclass(annotation, _Model):
        return [annotation]
    out: list[type[_Model]] = []
    for arg in typing.get_args(annotation):
        out.extend(_models_in(arg))
    return out


def _model_at(loc: list) -> type[_Model] | None:
    """The model of the table at a raw pydantic location (None if it cannot be told)."""
    model: type[_Model] | None = _Document
    for part in loc:
        if isinstance(part, str) and part in _TAGS:
            model = _TAGS[part][1]
        elif isinstance(part, str):
            field = model.model_fields.get(part) if model is not None else None
            if field is None:
                return None
            models = _models_in(field.annotation)
            model = models[0] if len(models) == 1 else None
    return model


def _translate(error: dict) -> tuple[str, str]:
    """One pydantic error → (key path, one-line message)."""
    loc = list(error["loc"])
    kind = error["type"]
    ctx = error.get("ctx") or {}
    # Drop the discriminator values pydantic inserts after a tagged union (flows[0].tcp-reno.x),
    # remembering the last one: it says which keys were allowed.
    tag = None
    clean: list = []
    for i, part in enumerate(loc):
        if isinstance(part, str) and part in _TAGS and i < len(loc) - 1:
            tag = part
            continue
        clean.append(part)
    path = format_path(clean)

    if kind == "vidcc":
        return path, ctx["message"]
    if kind == "extra_forbidden":
        if tag is not None and len(loc) >= 2 and loc[-2] == tag:
            what, model = _TAGS[tag]
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
        return path, f"expected a table, got {_show(error.get('input'))}"
    if kind == "list_type":
        return path, f"expected a list, got {_show(error.get('input'))}"
    if kind in ("int_type", "int_parsing"):
        return path, f"expected an integer, got {_show(error.get('input'))}"
    if kind in ("float_type", "float_parsing"):
        return path, f"expected a number, got {_show(error.get('input'))}"
    if kind in ("bool_type", "bool_parsing"):
        return path, f"expected true or false, got {_show(error.get('input'))}"
    if kind in ("string_type",):
        return path, f"expected a string, got {_show(error.get('input'))}"
    if kind == "literal_error":
        expected = ctx.get("expected", "").replace("'", '"')
        return path, f"expected one of {expected}, got {_show(error.get('input'))}"
    if kind == "too_short":
        return path, "must not be empty"
    msg = error.get("msg", kind).replace("Input should be", "must be")
    return path, msg


def _validation_error(source: str, err: ValidationError) -> ScenarioError:
    errors = err.errors(include_url=False)
    path, message = _translate(errors[0])
    if len(errors) > 1:
        message += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return ScenarioError(source, path, message)


# --------------------------------------------------------------------------------------------
# Checks across keys


def _check(doc: _Document, source: str) -> None:
    def fail(path: str, message: str):
        raise ScenarioError(source, path, message)

    sc = doc.scenario
    if sc.warmup >= sc.duration:
        fail("scenario.warmup", "must be shorter than scenario.duration")

    topo = doc.topology
    for path, queue in _queues(topo):
        if isinstance(queue, Red):
            if queue.max_thresh <= queue.min_thresh:
                fail(f"{path}.max_thresh", f"must be larger than min_thresh ({queue.min_thresh:g}), got {queue.max_thresh:g}")
            if queue.weight > 1:
                fail(f"{path}.weight", f"must be in (0, 1], got {queue.weight:g}")
    if isinstance(topo, (Dumbbell, Chain)):
        for side in ("source_access", "sink_access"):
            merged = _merge_access(topo.access, getattr(topo, side))
            for key in ("bandwidth", "delay"):
                if merged[key] is None:
                    fail(f"topology.{side}.{key}", f"missing required key (set topology.access.{key} or topology.{side}.{key})")
    if isinstance(topo, Graph):
        seen: set[str] = set()
        for i, name in enumerate(topo.nodes):
            if name in seen:
                fail(f"topology.nodes[{i}]", f'duplicate node "{name}"')
            seen.add(name)
        for i, link in enumerate(topo.links):
            for end in ("a", "b"):
                name = getattr(link, end)
                if name not in seen:
                    fail(f"topology.links[{i}].{end}", f'unknown node "{name}"; nodes are: {", ".join(topo.nodes)}')
            if link.a == link.b:
                fail(f"topology.links[{i}]", f'a link must join two different nodes, got "{link.a}" twice')

    # Static routing keeps a next-hop table per destination over all nodes: about 16·n² bytes for
    # n flow instances (each has its own end hosts), 400 MB at the limit.
    instances = 0
    for i, flow in enumerate(doc.flows):
        per = topo.hops if isinstance(topo, Chain) and flow.span == "per-hop" else 1
        instances += flow.count * per
        if instances > MAX_FLOW_INSTANCES:
            fail(f"flows[{i}].count", f"the scenario would have {instances} flow instances, more than the simulator's "
                 f"limit of {MAX_FLOW_INSTANCES} (its routing tables grow with the square of the flow count)")

    for i, flow in enumerate(doc.flows):
        here = f"flows[{i}]"
        allowed = {
            "direction": isinstance(topo, (Dumbbell, Chain)),
            "span": isinstance(topo, Chain),
            "src": isinstance(topo, Graph),
            "dst": isinstance(topo, Graph),
            "source_access": isinstance(topo, Graph),
            "sink_access": isinstance(topo, Graph),
        }
        for key, ok in allowed.items():
            if not ok and getattr(flow, key) is not None:
                where = '"dumbbell" or "chain"' if key == "direction" else '"chain"' if key == "span" else '"graph"' 
                fail(f"{here}.{key}", f'only allowed with topology kind {where} (this topology is "{topo.kind}")')
        for side in ("source_access", "sink_access"):
            table = getattr(flow, side)
            if table is not None:
                for key in ("bandwidth", "delay"):
                    if getattr(table, key) is None:
                        fail(f"{here}.{side}.{key}", "missing required key")
        if isinstance(topo, Graph):
            for key in ("src", "dst"):
                name = getattr(flow, key)
                if name is None:
                    fail(f"{here}.{key}", 'missing required key (flows in a "graph" topology name their src and dst nodes)')
                if name not in topo.nodes:
                    fail(f"{here}.{key}", f'unknown node "{name}"; nodes are: {", ".join(topo.nodes)}')
            if flow.src == flow.dst:
                fail(f"{here}.dst", f'must differ from src "{flow.src}"')
            if not _connected(topo, flow.src, flow.dst):
                fail(here, f'no route from "{flow.src}" to "{flow.dst}" (nodes are not connected)')
        if flow.packet_size < MIN_PACKET_BYTES:
            fail(f"{here}.packet_size", f"must be at least {MIN_PACKET_BYTES}B (room for the protocol's header), got {flow.packet_size}B")
        start_max = flow.start["max"] if isinstance(flow.start, dict) else flow.start
        if start_max >= sc.duration:
            fail(f"{here}.start", "must be before scenario.duration")
        if flow.stop is not None and flow.stop <= start_max:
            fail(f"{here}.stop", "must be after start (the latest start when start is a range)")
        spec = _CORE.get(flow.protocol)
        if spec is not None:
            if spec.video == "required" and flow.video is None:
                fail(f"{here}.video", f'missing required key (protocol "{flow.protocol}" carries video)')
            if spec.video == "none" and flow.video is not None:
                fail(f"{here}.video", f'protocol "{flow.protocol}" carries bulk data, not video')
            if spec.check is not None:
                spec.check(flow, here, fail)
        if getattr(flow, "video", None) is not None:
            _check_video(flow, f"{here}", source, fail)


def _trace_path(trace: str, source: str) -> Path:
    """A trace path as written, relative to the scenario file (or the working directory)."""
    p = Path(trace).expanduser()
    if p.is_absolute() or source.startswith("<"):
        return p
    return Path(source).parent / p


def _check_video(flow: "UdpVideoFlow | CoreFlow", here: str, source: str, fail) -> None:
    v, at = flow.video, f"{here}.video"
    try:
        _vidcc.parse_gop(v.gop)
    except ValueError as e:
        fail(f"{at}.gop", str(e))
    if v.layers is not None and v.streams is not None:
        fail(f"{at}.streams", "layers and streams exclude each other")
    if v.layers is not None and any(b <= a for a, b in zip(v.layers, v.layers[1:])):
        fail(f"{at}.layers", "layer rates are cumulative: each must exceed the one before")
    if v.playout_delay is not None and v.deadline is not None:
        fail(f"{at}.deadline", "playout_delay and deadline exclude each other")
    if v.model == "trace":
        if v.trace is None:
            fail(f"{at}.trace", 'missing required key (model "trace" reads a frame-size trace file)')
        if v.rate is not None:
            fail(f"{at}.rate", 'a trace has its own rate; rate is for models "tes-mpeg4" and "cbr"')
        path = _trace_path(v.trace, source)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            fail(f"{at}.trace", f"cannot read {path}: {e.strerror or e}")
        try:
            _vidcc.parse_trace(text, v.trace_format)
        except ValueError as e:
            fail(f"{at}.trace", f"{path}: {e}")
    else:
        if v.trace is not None:
            fail(f"{at}.trace", f'only for model "trace" (this model is "{v.model}")')
        if v.streams is not None and v.rate is not None:
            fail(f"{at}.rate", "simulcast streams each have their own rate (streams); drop rate")
        if v.layers is not None and v.rate is not None and v.rate != v.layers[-1]:
            fail(f"{at}.rate", "with layers the rate is the full-quality rate, the last layer's; drop rate or make them equal")
        if v.rate is None and v.layers is None and v.streams is None:
            fail(f"{at}.rate", f'missing required key (model "{v.model}" needs a rate, layers or streams)')
    parts = len(v.layers or v.streams or [0])
    layers_sent = getattr(flow, "layers_sent", None)
    if layers_sent is not None and layers_sent > parts:
        fail(f"{here}.layers_sent", f"the video has {parts} layer{'s' if parts > 1 else ''} or streams, got {layers_sent}")


def _queues(topo: Dumbbell | Chain | Graph):
    """(key path, queue) of every queue the user wrote."""
    if isinstance(topo, Graph):
        for i, link in enumerate(topo.links):
            yield f"topology.links[{i}].queue", link.queue
        return
    core = "bottleneck" if isinstance(topo, Dumbbell) else "link"
    yield f"topology.{core}.queue", getattr(topo, core).queue
    for side in ("access", "source_access", "sink_access"):
        table = getattr(topo, side)
        if table is not None and table.queue is not None:
            yield f"topology.{side}.queue", table.queue


def _connected(graph: Graph, src: str, dst: str) -> bool:
    adjacent: dict[str, list[str]] = {n: [] for n in graph.nodes}
    for link in graph.links:
        adjacent[link.a].append(link.b)
        adjacent[link.b].append(link.a)
    seen, todo = {src}, deque([src])
    while todo:
        node = todo.popleft()
        if node == dst:
            return True
        for nxt in adjacent[node]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def _merge_access(common: Access | None, side: Access | None) -> dict[str, Any]:
    merged: dict[str, Any] = {k: None for k in Access.model_fields}
    for table in (common, side):
        if table is not None:
            for key in table.model_fields_set:
                merged[key] = getattr(table, key)
    return merged


# --------------------------------------------------------------------------------------------
# Resolution into the simulator's config (crates/vidcc-sim/src/config.rs)


def _resolve_queue(queue: DropTail | Red) -> dict:
    if isinstance(queue, DropTail):
        return {"kind": "droptail", "limit": copy.deepcopy(queue.limit)}
    return {
        "kind": "red",
        "limit": copy.deepcopy(queue.limit),
        "min_thresh": queue.min_thresh,
        "max_thresh": queue.max_thresh,
        "weight": queue.weight,
        "max_p": queue.max_p,
        "gentle": queue.gentle,
        "bytes": queue.bytes,
        "mean_packet_bytes": queue.mean_packet_size,
        "wait": queue.wait,
    }


def _resolve_loss(loss: Bernoulli | GilbertElliott | CorrelatedBernoulli | None) -> dict | None:
    if loss is None:
        return None
    if isinstance(loss, Bernoulli):
        return {"kind": "bernoulli", "p": loss.p}
    if isinstance(loss, GilbertElliott):
        return {"kind": "gilbert-elliott", "p": loss.p, "r": loss.r, "loss_good": loss.loss_good, "loss_bad": loss.loss_bad}
    return {"kind": "correlated-bernoulli", "p": loss.p, "q": loss.q}


def _resolve_link(link: Link, monitor: bool) -> dict:
    return {
        "bandwidth_bps": link.bandwidth,
        "delay_ns": link.delay,
        "queue": _resolve_queue(link.queue),
        "loss": _resolve_loss(link.loss),
        "reverse_loss": _resolve_loss(link.reverse_loss),
        "arq": _resolve_arq(link.arq),
        "monitor": monitor,
    }


def _resolve_arq(arq: PersistentArq | LimitedArq | None) -> dict | None:
    if arq is None:
        return None
    if isinstance(arq, LimitedArq):
        return {"kind": "limited", "attempts": arq.attempts}
    return {"kind": "persistent"}


def _resolve_access(common: Access | None, side: Access | None) -> dict:
    m = _merge_access(common, side)
    # `loss` is the forward (left → right) direction on every link, access links included.
    return {
        "bandwidth_bps": copy.deepcopy(m["bandwidth"]),
        "delay_ns": copy.deepcopy(m["delay"]),
        "queue": _resolve_queue(m["queue"] if m["queue"] is not None else DropTail(kind="droptail")),
        "loss": _resolve_loss(m["loss"]),
        "reverse_loss": _resolve_loss(m["reverse_loss"]),
        "arq": _resolve_arq(m["arq"]),
    }


def _resolve_topology(topo: Dumbbell | Chain | Graph) -> dict:
    if isinstance(topo, Graph):
        return {
            "kind": "graph",
            "nodes": list(topo.nodes),
            "links": [{"a": l.a, "b": l.b, "link": _resolve_link(l, l.monitor)} for l in topo.links],
        }
    access = {
        "source_access": _resolve_access(topo.access, topo.source_access),
        "sink_access": _resolve_access(topo.access, topo.sink_access),
    }
    if isinstance(topo, Dumbbell):
        return {"kind": "dumbbell", "bottleneck": _resolve_link(topo.bottleneck, True), **access}
    return {"kind": "chain", "hops": topo.hops, "link": _resolve_link(topo.link, True), **access}


def _resolve_protocol(flow: TcpFlow | CbrFlow | ParetoFlow) -> dict:
    if isinstance(flow, TcpFlow):
        return {
            "kind": flow.protocol,
            "max_window_bytes": flow.max_window,
            "initial_window": flow.initial_window,
            "min_rto_ns": flow.min_rto,
            "initial_rto_ns": flow.initial_rto,
            "delayed_ack": flow.delayed_ack,
            "transfer_bytes": flow.transfer,
        }
    if isinstance(flow, CbrFlow):
        return {"kind": "udp-cbr", "rate_bps": flow.rate}
    if isinstance(flow, UdpVideoFlow):
        return {"kind": "udp", "layers_sent": flow.layers_sent}
    spec = _CORE.get(flow.protocol)
    if spec is not None:
        return {"kind": flow.protocol, **spec.resolve(flow)}
    return {
        "kind": "udp-pareto",
        "rate_bps": flow.rate,
        "on_mean_ns": flow.on_mean,
        "off_mean_ns": flow.off_mean,
        "shape": flow.shape,
    }


def _resolve_video(v: Video, source: str) -> dict:
    if v.model == "trace":
        path = _trace_path(v.trace, source)
        model = {"kind": "trace", "text": path.read_text(encoding="utf-8"), "format": v.trace_format, "source": str(path)}
    else:
        rate = v.rate if v.rate is not None else (v.layers[-1] if v.layers else 0)
        model = {"kind": v.model, "rate_bps": rate}
    if v.deadline is not None:
        playout = {"kind": "ready-time", "delay_ns": v.deadline}
    else:
        playout = {"kind": "first-arrival", "delay_ns": v.playout_delay if v.playout_delay is not None else 1_000_000_000}
    return {
        "model": model,
        "fps": v.fps,
        "gop": v.gop,
        "layers_bps": list(v.layers or []),
        "streams_bps": list(v.streams or []),
        "playout": playout,
        "delayed_threshold_ns": v.delayed_threshold,
        "display_order": v.send_order == "display",
    }


def _resolve_placement(flow: _Flow, topo: Dumbbell | Chain | Graph) -> dict:
    if isinstance(topo, Graph):
        access = {side: _resolve_access(None, getattr(flow, side)) if getattr(flow, side) is not None else None
                  for side in ("source_access", "sink_access")}
        return {"kind": "nodes", "src": flow.src, "dst": flow.dst, **access}
    reverse = flow.direction == "reverse"
    if isinstance(topo, Chain) and flow.span == "per-hop":
        return {"kind": "per_hop", "reverse": reverse}
    return {"kind": "end_to_end", "reverse": reverse}


# --------------------------------------------------------------------------------------------
# Public API


class Scenario:
    """A validated scenario. ``to_dict()`` is the user-level document (the source of truth),
    ``resolve()`` the simulator's config."""

    def __init__(self, data: Mapping[str, Any], source: str = "<string>"):
        self.source = str(source)
        self._data = copy.deepcopy(dict(data))
        try:
            self._doc = _Document.model_validate(self._data)
        except ValidationError as e:
            raise _validation_error(self.source, e) from None
        _check(self._doc, self.source)

    def __repr__(self) -> str:
        return f"Scenario(source={self.source!r}, topology={self._doc.topology.kind!r}, flows={len(self._doc.flows)})"

    def to_dict(self) -> dict[str, Any]:
        """The user-level document, as written (units as strings, defaults not filled in)."""
        return copy.deepcopy(self._data)

    @property
    def seed(self) -> int:
        return self._doc.scenario.seed

    @property
    def duration_ns(self) -> int:
        return self._doc.scenario.duration

    def resolve(self, seed: int | None = None) -> dict[str, Any]:
        """The resolved config (the JSON contract of ``vidcc_sim::config::SimConfig``).
        ``seed`` overrides ``scenario.seed``."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= U64_MAX:
                raise ScenarioError(self.source, "scenario.seed", f"seed must be an integer in [0, 2^64), got {seed!r}")
        sc, topo = self._doc.scenario, self._doc.topology
        return {
            "duration_ns": sc.duration,
            "warmup_ns": sc.warmup,
            "seed": sc.seed if seed is None else seed,
            "sample_interval_ns": sc.sample_interval,
            "queue_sample_interval_ns": sc.queue_sample_interval if sc.queue_sample_interval is not None else sc.sample_interval,
            "packet_log": sc.packet_log,
            "topology": _resolve_topology(topo),
            "flows": [
                {
                    "label": flow.label if flow.label is not None else flow.protocol,
                    "protocol": _resolve_protocol(flow),
                    "count": flow.count,
                    "packet_size_bytes": flow.packet_size,
                    "start_ns": copy.deepcopy(flow.start),
                    "stop_ns": flow.stop,
                    "placement": _resolve_placement(flow, topo),
                    "send_jitter_ns": flow.send_jitter,
                    "video": _resolve_video(flow.video, self.source) if getattr(flow, "video", None) is not None else None,
                }
                for flow in self._doc.flows
            ],
        }


def parse_scenario(text_or_dict: str | Mapping[str, Any], source: str = "<string>") -> Scenario:
    """Validate TOML text or an already-parsed user-level dict."""
    if isinstance(text_or_dict, Mapping):
        return Scenario(text_or_dict, source)
    if not isinstance(text_or_dict, str):
        raise TypeError(f"expected TOML text or a dict, got {type(text_or_dict).__name__}")
    try:
        data = tomllib.loads(text_or_dict)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(source, "", f"invalid TOML: {e}") from None
    return Scenario(data, source)


def load_scenario(path: str | PathLike[str]) -> Scenario:
    """Read and validate a scenario file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(str(path), "", "no such file") from None
    except IsADirectoryError:
        raise ScenarioError(str(path), "", "is a directory, expected a scenario file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ScenarioError(str(path), "", f"cannot read: {e}") from None
    return parse_scenario(text, source=str(path))
