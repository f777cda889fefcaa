"""Checks across keys: what the models cannot tell field by field (warmup < duration, routes in a
graph, which flow keys a topology accepts, a protocol's own checks, a flow's video). The first
problem raises a one-line :class:`ScenarioError`.
"""

from __future__ import annotations

import os
from collections import deque
from typing import TYPE_CHECKING

from vidcc import _vidcc, protocols
from vidcc.schema.document import is_multicast
from vidcc.schema.errors import ScenarioError
from vidcc.schema.models import (
    BYTES_PER_FLOW_INSTANCE,
    BYTES_PER_RECEIVER,
    MIN_PACKET_BYTES,
    BaseFlow,
    Chain,
    Dumbbell,
    Graph,
    Red,
    merge_access,
    multicast_receivers,
    trace_path,
    trace_quantizers,
)

if TYPE_CHECKING:
    from vidcc.schema.document import Document

__all__ = ["check"]


def _multicast_names() -> list[str]:
    return sorted(spec.name for spec in protocols.specs() if is_multicast(spec.name))


def check(doc: Document, source: str) -> None:
    """Raise the first problem across keys of the validated ``doc`` (read from ``source``)."""

    def fail(path: str, message: str):
        raise ScenarioError(source, path, message)

    sc = doc.scenario
    if sc.warmup >= sc.duration:
        fail("scenario.warmup", "must be shorter than scenario.duration")

    topo = doc.topology
    for path, queue in _queues(topo):
        if isinstance(queue, Red):
            if queue.max_thresh <= queue.min_thresh:
                fail(
                    f"{path}.max_thresh",
                    f"must be larger than min_thresh ({queue.min_thresh:g}), got {queue.max_thresh:g}",
                )
            if queue.weight > 1:
                fail(f"{path}.weight", f"must be in (0, 1], got {queue.weight:g}")
    if isinstance(topo, (Dumbbell, Chain)):
        for side in ("source_access", "sink_access"):
            merged = merge_access(topo.access, getattr(topo, side))
            for key in ("bandwidth", "delay"):
                if merged[key] is None:
                    fail(
                        f"topology.{side}.{key}",
                        f"missing required key (set topology.access.{key} or topology.{side}.{key})",
                    )
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

    _check_memory(doc, fail)

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
        if is_multicast(flow.protocol):
            _check_multicast(flow, here, topo, sc.duration, fail)
        else:
            for key in ("receivers", "join_latency", "leave_latency"):
                if getattr(flow, key) is not None:
                    fail(f"{here}.{key}", f'protocol "{flow.protocol}" is unicast: a flow has one receiver, its dst')
            if isinstance(flow.dst, list):
                fail(
                    f"{here}.dst",
                    f'protocol "{flow.protocol}" is unicast: dst names one node (a list of receivers needs a '
                    f"multicast protocol: {', '.join(_multicast_names())})",
                )
        if isinstance(topo, Graph) and not is_multicast(flow.protocol):
            for key in ("src", "dst"):
                name = getattr(flow, key)
                if name is None:
                    fail(
                        f"{here}.{key}",
                        'missing required key (flows in a "graph" topology name their src and dst nodes)',
                    )
                if name not in topo.nodes:
                    fail(f"{here}.{key}", f'unknown node "{name}"; nodes are: {", ".join(topo.nodes)}')
            if flow.src == flow.dst:
                fail(f"{here}.dst", f'must differ from src "{flow.src}"')
            if not _connected(topo, flow.src, flow.dst):
                fail(here, f'no route from "{flow.src}" to "{flow.dst}" (nodes are not connected)')
        if flow.packet_size < MIN_PACKET_BYTES:
            fail(
                f"{here}.packet_size",
                f"must be at least {MIN_PACKET_BYTES}B (room for the protocol's header), got {flow.packet_size}B",
            )
        start_max = flow.start["max"] if isinstance(flow.start, dict) else flow.start
        if start_max >= sc.duration:
            fail(f"{here}.start", "must be before scenario.duration")
        if flow.stop is not None and flow.stop <= start_max:
            fail(f"{here}.stop", "must be after start (the latest start when start is a range)")
        spec = protocols.find(flow.protocol)
        if spec is not None:
            if spec.video == "required" and flow.video is None:
                fail(f"{here}.video", f'missing required key (protocol "{flow.protocol}" carries video)')
            if spec.video == "none" and getattr(flow, "video", None) is not None:
                fail(f"{here}.video", f'protocol "{flow.protocol}" carries bulk data, not video')
            if spec.check is not None:
                spec.check(flow, here, fail)
        if getattr(flow, "video", None) is not None:
            _check_video(flow, f"{here}", source, fail)


def _check_multicast(flow: BaseFlow, here: str, topo, duration: int, fail) -> None:
    """A multicast flow's receivers: placed where the topology allows, reachable, in time."""
    if isinstance(topo, Chain) and flow.span == "per-hop":
        fail(f"{here}.span", "a multicast flow runs end to end")
    if isinstance(topo, Graph):
        if flow.src is None:
            fail(f"{here}.src", 'missing required key (flows in a "graph" topology name their src node)')
        if flow.src not in topo.nodes:
            fail(f"{here}.src", f'unknown node "{flow.src}"; nodes are: {", ".join(topo.nodes)}')
        if flow.dst is not None and flow.receivers is not None:
            fail(f"{here}.dst", "list the receivers either as dst or as receivers (with their nodes), not both")
        if flow.dst is None and flow.receivers is None:
            fail(f"{here}.dst", "missing required key (the receivers' nodes, or a receivers list)")
        reachable = _reachable(topo, flow.src)
    start = flow.start["max"] if isinstance(flow.start, dict) else flow.start
    for key, r in multicast_receivers(flow):
        at = f"{here}.{key}"
        if isinstance(topo, Graph):
            if r.node is None:
                fail(f"{at}.node", "missing required key (a graph receiver names its node)")
            node_key = at if key.startswith("dst") else f"{at}.node"
            if r.node not in topo.nodes:
                fail(node_key, f'unknown node "{r.node}"; nodes are: {", ".join(topo.nodes)}')
            if r.node == flow.src:
                fail(node_key, f'must differ from src "{flow.src}" (a receiver on the sender\'s node)')
            if r.node not in reachable:
                fail(node_key, f'no route from "{flow.src}" to "{r.node}" (nodes are not connected)')
        elif r.node is not None:
            fail(f"{at}.node", f'receivers sit on nodes of a "graph" only (this topology is "{topo.kind}")')
        begin = r.start if r.start is not None else start
        if begin >= duration:
            fail(f"{at}.start", "must be before scenario.duration")
        if r.stop is not None and r.stop <= begin:
            fail(f"{at}.stop", "must be after the receiver's start")


def _check_memory(doc: Document, fail) -> None:
    """Refuse a scenario that cannot fit in this machine's memory (a clear error, not a killed run)."""
    topo = doc.topology
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return
    need = 0
    for i, flow in enumerate(doc.flows):
        per = topo.hops if isinstance(topo, Chain) and flow.span == "per-hop" else 1
        receivers = sum(r.count for r in flow.receivers) if flow.receivers is not None else (
            len(flow.dst) if isinstance(flow.dst, list) else 1)
        need += flow.count * per * (BYTES_PER_FLOW_INSTANCE + receivers * BYTES_PER_RECEIVER)
        if need > memory:
            key = "receivers" if flow.receivers is not None and receivers > flow.count else "count"
            fail(
                f"flows[{i}].{key}",
                f"the scenario needs about {need / 2**30:.1f} GiB to simulate, more than this machine's "
                f"{memory / 2**30:.1f} GiB of memory",
            )


def _check_video(flow: BaseFlow, here: str, source: str, fail) -> None:
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
    if "deadline_from" in v.model_fields_set and v.deadline is None:
        fail(f"{at}.deadline_from", "only with deadline (playout_delay counts from the first packet's arrival)")
    if v.model == "trace":
        if v.trace is None and v.traces is None:
            fail(f"{at}.trace", 'missing required key (model "trace" reads a frame-size trace file, or `traces`)')
        if v.trace is not None and v.traces is not None:
            fail(f"{at}.traces", "trace and traces exclude each other (traces: a rate-adaptive set)")
        if v.rate is not None:
            fail(f"{at}.rate", 'a trace has its own rate; rate is for models "tes-mpeg4" and "cbr"')
        if v.traces is not None:
            _check_traces(flow, at, source, fail)
        else:
            _read_trace(f"{at}.trace", v.trace, v.trace_format, source, fail)
    else:
        for key in ("trace", "traces"):
            if getattr(v, key) is not None:
                fail(f"{at}.{key}", f'only for model "trace" (this model is "{v.model}")')
        if v.streams is not None and v.rate is not None:
            fail(f"{at}.rate", "simulcast streams each have their own rate (streams); drop rate")
        if v.layers is not None and v.rate is not None and v.rate != v.layers[-1]:
            fail(
                f"{at}.rate",
                "with layers the rate is the full-quality rate, the last layer's; drop rate or make them equal",
            )
        if v.rate is None and v.layers is None and v.streams is None:
            fail(f"{at}.rate", f'missing required key (model "{v.model}" needs a rate, layers or streams)')
    if v.quantizers is not None and v.traces is None and v.streams is None:
        fail(f"{at}.quantizers", "only with traces (a rate-adaptive set) or streams (simulcast)")
    if v.quantizers is not None and v.streams is not None and len(v.quantizers) != len(v.streams):
        fail(f"{at}.quantizers", f"one quantizer per stream: {len(v.streams)} streams, {len(v.quantizers)} quantizers")
    if "adapt" in v.model_fields_set and v.traces is None:
        fail(f"{at}.adapt", "only with traces (a rate-adaptive set)")
    parts = len(v.layers or v.streams or [0])
    layers_sent = getattr(flow, "layers_sent", None)
    if layers_sent is not None and layers_sent > parts:
        fail(
            f"{here}.layers_sent",
            f"the video has {parts} layer{'s' if parts > 1 else ''} or streams, got {layers_sent}",
        )


def _read_trace(key: str, trace: str, fmt: str, source: str, fail) -> str:
    """The text of a trace file, parsed once to report its errors at ``key``."""
    path = trace_path(trace, source)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        fail(key, f"cannot read {path}: {e.strerror or e}")
    try:
        _vidcc.parse_trace(text, fmt)
    except ValueError as e:
        fail(key, f"{path}: {e}")
    return text


def _check_traces(flow: BaseFlow, at: str, source: str, fail) -> None:
    """A rate-adaptive set: readable traces of one clip, a quantizer each, a protocol that steers it."""
    v = flow.video
    spec = protocols.find(flow.protocol)
    if spec is not None and not spec.rate_adaptive:
        steer = ", ".join(s.name for s in protocols.specs() if s.rate_adaptive)
        fail(f"{at}.traces", f'protocol "{flow.protocol}" does not steer a rate-adaptive set (these do: {steer})')
    if v.layers is not None or v.streams is not None:
        fail(f"{at}.traces", "a rate-adaptive set is neither layered nor simulcast (drop layers/streams)")
    lengths = []
    for i, t in enumerate(v.traces):
        text = _read_trace(f"{at}.traces[{i}]", t, v.trace_format, source, fail)
        lengths.append(_vidcc.parse_trace(text, v.trace_format))
    if len(set(lengths)) > 1:
        fail(f"{at}.traces", f"all traces must code the same clip; their frame counts differ: {lengths}")
    quantizers = trace_quantizers(v, source, fail, at)
    if len(set(quantizers)) != len(quantizers):
        fail(f"{at}.quantizers", f"each trace needs its own quantizer, got {quantizers}")


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


def _reachable(graph: Graph, src: str) -> set[str]:
    adjacent: dict[str, list[str]] = {n: [] for n in graph.nodes}
    for link in graph.links:
        adjacent[link.a].append(link.b)
        adjacent[link.b].append(link.a)
    seen, todo = {src}, deque([src])
    while todo:
        for nxt in adjacent[todo.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


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
