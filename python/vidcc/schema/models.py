"""The user-level models of a scenario (what the TOML file says; field names are the user's keys):
the scenario section, topologies, links, queues, loss, ARQ, access links, video, and the bases
of the flow models.

A flow model per protocol lives in ``vidcc.protocols`` (one module each): it subclasses
:class:`BaseFlow` (bulk data) or :class:`CoreFlow` (bulk data or a video). Checks across keys
are in ``vidcc.schema.checks``, the simulator's form in ``vidcc.schema.resolve``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Callable, Literal, NoReturn, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field

from vidcc.schema.errors import invalid
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
    integer,
    non_empty_string,
    number,
)

TOPOLOGY_KINDS = ("dumbbell", "chain", "graph")
QUEUE_KINDS = ("droptail", "red", "drr", "sfq")
LOSS_KINDS = ("bernoulli", "gilbert-elliott", "correlated-bernoulli")
# What one flow instance and one receiver cost the simulator at most, in bytes (measured with
# benches/multicast.py, rounded up): `vidcc.schema.checks` refuses a scenario
# whose estimate exceeds the machine's memory instead of letting the run be killed.
BYTES_PER_FLOW_INSTANCE = 8_192
BYTES_PER_RECEIVER = 4_608
# The simulator needs room for the largest protocol header in a data packet.
MIN_PACKET_BYTES = 64


class Model(BaseModel):
    """Every table of the scenario: unknown keys are errors, no type coercion, immutable.

    ``defer_build``: a model's validator is built the first time it validates, not when its class
    is defined. Building each of the ~50 models (and then the document's union of them all) at
    import took most of the 0.3–0.45 s a scenario error used to cost (issue 14); now the
    document's validator is built once, on the first scenario loaded, and a model never used
    alone never builds its own."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True, defer_build=True)


class DropTail(Model):
    kind: Literal["droptail"]
    limit: QueueLimit = "bdp"


class Red(Model):
    kind: Literal["red"]
    limit: QueueLimit = "bdp"
    min_thresh: Annotated[float, BeforeValidator(number(minimum=0))] = 5.0
    max_thresh: Annotated[float, BeforeValidator(number(positive=True))] = 15.0
    weight: Annotated[float, BeforeValidator(number(positive=True))] = 0.002
    max_p: Probability = 0.1
    gentle: bool = True
    bytes: bool = False
    mean_packet_size: PacketSize = 500
    wait: bool = True


class Drr(Model):
    """Deficit Round Robin fair queueing with ns-2 `Queue/DRR`'s defaults (blimit_ 25000 bytes,
    quantum_ 250, buckets_ 10, mask_ 0)."""

    kind: Literal["drr"]
    limit: QueueLimit = {"bytes": 25_000}
    quantum: PacketSize = 250
    buckets: Annotated[int, BeforeValidator(integer(minimum=1, maximum=65_536))] = 10
    mask: bool = False


class Sfq(Model):
    """Stochastic Fairness Queueing with ns-2 `Queue/SFQ`'s defaults (maxqueue_ 40 packets,
    buckets_ 16): fair in packets, not bytes."""

    kind: Literal["sfq"]
    limit: Annotated[int, BeforeValidator(integer(minimum=1, maximum=U32_MAX))] = 40
    buckets: Annotated[int, BeforeValidator(integer(minimum=1, maximum=65_536))] = 16


Queue = Annotated[Union[DropTail, Red, Drr, Sfq], Field(discriminator="kind")]


class Bernoulli(Model):
    kind: Literal["bernoulli"]
    p: Probability


class GilbertElliott(Model):
    kind: Literal["gilbert-elliott"]
    p: Probability
    r: Probability
    loss_good: Probability = 0.0
    loss_bad: Probability = 1.0


class CorrelatedBernoulli(Model):
    kind: Literal["correlated-bernoulli"]
    p: Probability
    q: Probability


Loss = Annotated[Union[Bernoulli, GilbertElliott, CorrelatedBernoulli], Field(discriminator="kind")]


class PersistentArq(Model):
    """Link-level ARQ: a failed transmission is repeated in the next slot until it succeeds."""

    kind: Literal["persistent"]


class LimitedArq(Model):
    kind: Literal["limited"]
    attempts: Annotated[int, BeforeValidator(integer(minimum=1, maximum=U32_MAX))]


class OptimalArq(Model):
    """The "optimal" scheme of Zhang & Wasserman (QoS-AIMD ref. [24]): persistent, but silent after
    a failed attempt, for `slots` slots or until the chance that the next attempt succeeds has
    recovered to `threshold` (derived from the link's loss model)."""

    kind: Literal["optimal"]
    threshold: Probability = 0.8
    slots: Annotated[int, BeforeValidator(integer(minimum=0, maximum=U32_MAX))] | None = None


Arq = Annotated[Union[PersistentArq, LimitedArq, OptimalArq], Field(discriminator="kind")]


class Link(Model):
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


class Access(Model):
    """Per-flow-instance access links. Every key is optional here: `source_access` and
    `sink_access` override `access` key by key, and the merged table must have bandwidth and
    delay."""

    bandwidth: RateSpread = None
    delay: DurationSpread = None
    queue: Queue | None = None
    loss: Loss | None = None
    reverse_loss: Loss | None = None
    arq: Arq | None = None


class Dumbbell(Model):
    kind: Literal["dumbbell"]
    bottleneck: Link
    access: Access | None = None
    source_access: Access | None = None
    sink_access: Access | None = None


class Chain(Model):
    kind: Literal["chain"]
    hops: Annotated[int, BeforeValidator(integer(minimum=1, maximum=U32_MAX))]
    link: Link
    access: Access | None = None
    source_access: Access | None = None
    sink_access: Access | None = None


class Graph(Model):
    kind: Literal["graph"]
    nodes: list[Name]
    links: list[GraphLink]


Topology = Annotated[Union[Dumbbell, Chain, Graph], Field(discriminator="kind")]


class ScenarioSection(Model):
    duration: PositiveDuration
    warmup: Duration = 0
    seed: Annotated[int, BeforeValidator(integer(maximum=U64_MAX))] = 1
    sample_interval: PositiveDuration = 150_000_000
    queue_sample_interval: PositiveDuration | None = None
    packet_log: bool = False


class Receiver(Model):
    """One receiver of a multicast flow (or ``count`` alike): where it sits (graph only), when it
    starts (joins) and stops (leaves), and which of the sender's groups it is told to join."""

    node: Name | None = None
    count: Annotated[int, BeforeValidator(integer(minimum=1, maximum=U32_MAX))] = 1
    start: Duration | None = None
    stop: Duration | None = None
    groups: list[Annotated[int, BeforeValidator(integer(maximum=U32_MAX - 1))]] | None = None


def _receivers(value: Any) -> Any:
    """``receivers = N`` is N receivers with the flow's defaults."""
    if isinstance(value, int) and not isinstance(value, bool):
        return [{"count": integer(minimum=1, maximum=U32_MAX)(value)}]
    return value


def _dst(value: Any) -> Any:
    """One node, or a list of receivers' nodes (a multicast flow)."""
    if isinstance(value, list):
        if not value:
            raise invalid("must not be empty")
        return [non_empty_string(v) for v in value]
    return non_empty_string(value)


class BaseFlow(Model):
    """The keys every flow has, whatever its protocol: how many instances, packets, timing,
    label and placement. A protocol's model adds `protocol: Literal[...]` and its own keys."""

    count: Annotated[int, BeforeValidator(integer(minimum=1, maximum=U32_MAX))] = 1
    packet_size: PacketSize = 1000
    start: DurationSpread = 0
    stop: Duration | None = None
    # ns-2 `overhead_`: a random delay in [0, send_jitter] before each data packet enters the
    # network (order kept). Breaks DropTail phase effects between flows of equal RTT.
    send_jitter: Duration = 0
    label: Name | None = None
    # Placement keys: which ones a flow may use depends on the topology (vidcc.schema.checks).
    direction: Literal["forward", "reverse"] | None = None
    span: Literal["end-to-end", "per-hop"] | None = None
    src: Name | None = None
    # A node, or (multicast protocols, graph) the list of the receivers' nodes.
    dst: Annotated[Any, BeforeValidator(_dst)] = None
    # Graph only: private access links per instance, joining an edge node to src / dst (per
    # receiver on the sink side).
    source_access: Access | None = None
    sink_access: Access | None = None
    # Multicast protocols only: the receivers (a number, or a list of tables), and how long the
    # network takes to graft a joining receiver's branch and to prune a leaving one's.
    receivers: Annotated[list[Receiver], BeforeValidator(_receivers), Field(min_length=1)] | None = None
    join_latency: Duration | None = None
    leave_latency: Duration | None = None


Quantizer = Annotated[int, BeforeValidator(integer(minimum=1, maximum=255))]


class Video(Model):
    """A flow's video source and its playout (docs/video.md)."""

    model: Literal["tes-mpeg4", "trace", "cbr"]
    # tes-mpeg4 and cbr: the mean rate (with layers: the full-quality rate, the top layer's).
    rate: Rate | None = None
    # trace: a frame-size trace file, relative to the scenario file.
    trace: Name | None = None
    # trace, instead of `trace`: a rate-adaptive set (Evalvid-RA), one trace per quantizer of the
    # same clip; the sender's rate picks the trace at each GOP start (`adapt`).
    traces: Annotated[list[Name], Field(min_length=1, max_length=255)] | None = None
    # The quantizer of each of `traces` (or of each simulcast stream); default for `traces`: read
    # from the manifest.json that `vidcc video prepare` writes beside them.
    quantizers: Annotated[list[Quantizer], Field(min_length=1)] | None = None
    # Which trace fits the rate: the upcoming GOP's bytes (Evalvid-RA) or the trace's mean rate.
    adapt: Literal["upcoming-gop", "long-run-mean"] = "upcoming-gop"
    trace_format: Literal["evalvid", "plain"] = "evalvid"
    fps: Annotated[float, BeforeValidator(number(above=0.0))] = 25.0
    gop: Name = "IBBPBBPBBPBB"
    # Cumulative layer rates (layered video) or simulcast stream rates; at most one of the two.
    layers: Annotated[list[Rate], Field(min_length=1)] | None = None
    streams: Annotated[list[Rate], Field(min_length=1)] | None = None
    # Playout: a startup delay after the first packet arrives (Evalvid), or a per-frame deadline
    # after the frame is ready at the sender; at most one of the two (default: 1 s playout delay).
    playout_delay: Duration | None = None
    deadline: PositiveDuration | None = None
    # What `deadline` counts from: the frame's ready time, or its first packet's send time (ASMP
    # §6.5: the play-out buffer time is "relative to the frame transmission time").
    deadline_from: Literal["ready", "send"] = "ready"
    delayed_threshold: PositiveDuration = 75_000_000
    # Frames leave in decode order (an anchor before the B frames it closes), as encoders and
    # Evalvid send them; "display" sends them as the source makes them.
    send_order: Literal["decode", "display"] = "decode"


class CoreFlow(BaseFlow):
    """Base of the flow models of vidcc-core protocols (see `vidcc.protocols`): a flow that may
    carry a `video` table (bulk data without one)."""

    video: Video | None = None


def multicast_receivers(flow: BaseFlow) -> list[tuple[str, Receiver]]:
    """Every receiver of a multicast flow with the key that names it (``count`` expanded): from
    ``receivers``, else from ``dst`` (graph), else one receiver with the flow's defaults."""
    if flow.receivers is not None:
        return [(f"receivers[{j}]", r) for j, r in enumerate(flow.receivers) for _ in range(r.count)]
    if isinstance(flow.dst, list):
        return [(f"dst[{j}]", Receiver(node=n)) for j, n in enumerate(flow.dst)]
    if flow.dst is not None:
        return [("dst", Receiver(node=flow.dst))]
    return [("receivers", Receiver())]


def trace_path(trace: str, source: str) -> Path:
    """A trace path as written, relative to the scenario file (or the working directory)."""
    p = Path(trace).expanduser()
    if p.is_absolute() or source.startswith("<"):
        return p
    return Path(source).parent / p


# What `vidcc video prepare` writes beside its traces: {"encodings": [{"quantizer", "trace"}, ...]}.
PREPARED_MANIFEST = "manifest.json"


def trace_quantizers(v: Video, source: str, fail: Callable[[str, str], NoReturn], at: str = "video") -> list[int]:
    """The quantizer of each of ``v.traces``: ``quantizers`` as written, else the manifest.json that
    `vidcc video prepare` wrote beside each trace. ``fail(key, message)`` reports a problem."""
    traces = v.traces or []
    if v.quantizers is not None:
        if len(v.quantizers) != len(traces):
            fail(f"{at}.quantizers", f"one quantizer per trace: {len(traces)} traces, {len(v.quantizers)} quantizers")
        return list(v.quantizers)
    out = []
    for i, t in enumerate(traces):
        path = trace_path(t, source)
        manifest = path.parent / PREPARED_MANIFEST
        try:
            encodings = json.loads(manifest.read_text(encoding="utf-8"))["encodings"]
            q = next((e["quantizer"] for e in encodings if e["trace"] == path.name), None)
        except (OSError, ValueError, KeyError, TypeError) as e:
            fail(f"{at}.quantizers", f"missing: give the quantizer of each trace (cannot read {manifest}: {e})")
        if not isinstance(q, int):
            fail(f"{at}.traces[{i}]", f"{path.name} is not a trace of {manifest}; give quantizers = [...]")
        out.append(q)
    return out


def merge_access(common: Access | None, side: Access | None) -> dict[str, Any]:
    """The access-link keys of ``side`` over those of ``common`` (None where neither sets one)."""
    merged: dict[str, Any] = {k: None for k in Access.model_fields}
    for table in (common, side):
        if table is not None:
            for key in table.model_fields_set:
                merged[key] = getattr(table, key)
    return merged
