"""Resolution of a validated scenario into the simulator's config: the exact JSON contract of
``crates/vidcc-sim/src/config.rs`` (base units ``_ns``, ``_bps``, ``_bytes``; every default filled
in; tagged enums with ``"kind"``). Key order is part of the contract: sweep run ids hash it.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from vidcc import protocols
from vidcc.schema.document import is_multicast
from vidcc.schema.models import (
    Access,
    BaseFlow,
    Bernoulli,
    Chain,
    CorrelatedBernoulli,
    DropTail,
    Drr,
    Dumbbell,
    GilbertElliott,
    Graph,
    LimitedArq,
    Link,
    OptimalArq,
    PersistentArq,
    Red,
    Sfq,
    Video,
    merge_access,
    multicast_receivers,
    trace_path,
    trace_quantizers,
)

if TYPE_CHECKING:
    from vidcc.schema.document import Document

__all__ = ["resolve"]


def _resolve_queue(queue: DropTail | Red | Drr | Sfq) -> dict:
    if isinstance(queue, DropTail):
        return {"kind": "droptail", "limit": copy.deepcopy(queue.limit)}
    if isinstance(queue, Sfq):
        return {"kind": "sfq", "limit": {"packets": queue.limit}, "buckets": queue.buckets}
    if isinstance(queue, Drr):
        return {
            "kind": "drr",
            "limit": copy.deepcopy(queue.limit),
            "quantum": queue.quantum,
            "buckets": queue.buckets,
            "mask": queue.mask,
        }
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
        return {
            "kind": "gilbert-elliott",
            "p": loss.p,
            "r": loss.r,
            "loss_good": loss.loss_good,
            "loss_bad": loss.loss_bad,
        }
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


def _resolve_arq(arq: PersistentArq | LimitedArq | OptimalArq | None) -> dict | None:
    if arq is None:
        return None
    if isinstance(arq, LimitedArq):
        return {"kind": "limited", "attempts": arq.attempts}
    if isinstance(arq, OptimalArq):
        return {"kind": "optimal", "threshold": arq.threshold, "slots": arq.slots}
    return {"kind": "persistent"}


def _resolve_access(common: Access | None, side: Access | None) -> dict:
    m = merge_access(common, side)
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
            "links": [{"a": link.a, "b": link.b, "link": _resolve_link(link, link.monitor)} for link in topo.links],
        }
    access = {
        "source_access": _resolve_access(topo.access, topo.source_access),
        "sink_access": _resolve_access(topo.access, topo.sink_access),
    }
    if isinstance(topo, Dumbbell):
        return {"kind": "dumbbell", "bottleneck": _resolve_link(topo.bottleneck, True), **access}
    return {"kind": "chain", "hops": topo.hops, "link": _resolve_link(topo.link, True), **access}


def _resolve_protocol(flow: BaseFlow) -> dict:
    return {"kind": flow.protocol, **protocols.find(flow.protocol).resolve(flow)}


def _unreachable(key: str, message: str):
    raise AssertionError(f"{key}: {message} (the checks pass before resolving)")


def _resolve_video(v: Video, source: str) -> dict:
    if v.model == "trace" and v.traces is not None:
        quantizers = trace_quantizers(v, source, _unreachable)
        sets = []
        for t, q in zip(v.traces, quantizers):
            path = trace_path(t, source)
            sets.append({"quantizer": q, "text": path.read_text(encoding="utf-8"), "source": str(path)})
        model = {"kind": "rate-adaptive", "traces": sets, "format": v.trace_format, "criterion": v.adapt}
    elif v.model == "trace":
        path = trace_path(v.trace, source)
        model = {
            "kind": "trace",
            "text": path.read_text(encoding="utf-8"),
            "format": v.trace_format,
            "source": str(path),
        }
    else:
        rate = v.rate if v.rate is not None else (v.layers[-1] if v.layers else 0)
        model = {"kind": v.model, "rate_bps": rate}
    if v.deadline is not None:
        kind = "send-time" if v.deadline_from == "send" else "ready-time"
        playout = {"kind": kind, "delay_ns": v.deadline}
    else:
        playout = {
            "kind": "first-arrival",
            "delay_ns": v.playout_delay if v.playout_delay is not None else 1_000_000_000,
        }
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


def _resolve_placement(flow: BaseFlow, topo: Dumbbell | Chain | Graph) -> dict:
    if isinstance(topo, Graph):
        access = {
            side: _resolve_access(None, getattr(flow, side)) if getattr(flow, side) is not None else None
            for side in ("source_access", "sink_access")
        }
        if is_multicast(flow.protocol):
            return {"kind": "tree", "src": flow.src, **access}
        return {"kind": "nodes", "src": flow.src, "dst": flow.dst, **access}
    reverse = flow.direction == "reverse"
    if isinstance(topo, Chain) and flow.span == "per-hop":
        return {"kind": "per_hop", "reverse": reverse}
    return {"kind": "end_to_end", "reverse": reverse}


def _resolve_multicast(flow: BaseFlow) -> dict:
    return {
        "receivers": [
            {"node": r.node, "start_ns": r.start, "stop_ns": r.stop, "groups": list(r.groups or [])}
            for _, r in multicast_receivers(flow)
        ],
        "join_latency_ns": flow.join_latency or 0,
        "leave_latency_ns": flow.leave_latency or 0,
    }


def _resolve_flow(flow: BaseFlow, topo: Dumbbell | Chain | Graph, source: str) -> dict:
    out = {
        "label": flow.label if flow.label is not None else flow.protocol,
        "protocol": _resolve_protocol(flow),
        "count": flow.count,
        "packet_size_bytes": flow.packet_size,
        "start_ns": copy.deepcopy(flow.start),
        "stop_ns": flow.stop,
        "placement": _resolve_placement(flow, topo),
        "send_jitter_ns": flow.send_jitter,
        "video": _resolve_video(flow.video, source) if getattr(flow, "video", None) is not None else None,
    }
    # Only multicast flows have the key: a unicast flow resolves as it always did (run ids hash it).
    if is_multicast(flow.protocol):
        out["multicast"] = _resolve_multicast(flow)
    return out


def resolve(doc: Document, source: str, seed: int | None = None) -> dict[str, Any]:
    """The resolved config of the validated ``doc`` read from ``source`` (trace paths are relative
    to it); ``seed`` overrides ``scenario.seed``."""
    sc, topo = doc.scenario, doc.topology
    return {
        "duration_ns": sc.duration,
        "warmup_ns": sc.warmup,
        "seed": sc.seed if seed is None else seed,
        "sample_interval_ns": sc.sample_interval,
        "queue_sample_interval_ns": sc.queue_sample_interval
        if sc.queue_sample_interval is not None
        else sc.sample_interval,
        "packet_log": sc.packet_log,
        "topology": _resolve_topology(topo),
        "flows": [
            _resolve_flow(flow, topo, source)
            for flow in doc.flows
        ],
    }
