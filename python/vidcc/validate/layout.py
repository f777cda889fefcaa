"""The concrete network a case ran on in vidcc, as plain data for the ns-2 script generator.

A case is a vidcc scenario (the one source of truth). What ns-2 must reproduce is not the
scenario as written but what vidcc built from it: ranges drawn per flow instance (start times,
access delays), ``"bdp"`` queue limits computed, per-hop flows laid out. All of that is in the
run's own tables (``links``: every directed link with its bandwidth, delay and queue limit;
``flows``: every flow instance with its hosts and start time), so the layout is read from a vidcc
run, and the queue kinds, loss models and protocol parameters from its resolved configuration.

Only what the generator can express is accepted: a dumbbell or a chain (graphs would need link
roles the tables do not carry), DropTail and RED queues limited in packets, DRR queues limited in
bytes, Bernoulli and Gilbert-Elliott loss, no link ARQ, no video. A multicast flow (its
``multicast`` column) becomes a :class:`SessionSpec` with one :class:`ReceiverSpec` per receiver
row. Anything else is a :class:`LayoutError` naming it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


class LayoutError(ValueError):
    """The case uses something the ns-2 generator cannot express (message names what and where)."""


@dataclass(frozen=True)
class QueueSpec:
    kind: str  # "droptail", "red" or "drr"
    limit_packets: int  # 0 for DRR, which is limited in bytes
    red: Mapping[str, Any] = field(default_factory=dict)  # the resolved RED keys
    limit_bytes: int = 0  # DRR's shared buffer (ns-2 blimit_)
    drr: Mapping[str, Any] = field(default_factory=dict)  # quantum, buckets, mask


@dataclass(frozen=True)
class LossSpec:
    kind: str  # "bernoulli" or "gilbert-elliott"
    p: float
    r: float = 0.0
    loss_good: float = 0.0
    loss_bad: float = 1.0


@dataclass(frozen=True)
class LinkSpec:
    name: str
    src: str
    dst: str
    bandwidth_bps: int
    delay_ns: int
    queue: QueueSpec
    loss: LossSpec | None = None


@dataclass(frozen=True)
class FlowSpec:
    index: int
    label: str
    protocol: str
    src: str
    dst: str
    start_ns: int
    stop_ns: int | None
    packet_size: int  # bytes on the wire, header included
    header_bytes: int  # vidcc's header of this protocol (goodput counts payload only)
    send_jitter_ns: int
    params: Mapping[str, Any]  # the resolved protocol configuration


@dataclass(frozen=True)
class ReceiverSpec:
    index: int  # the receiver's number in its flow (the tables' ``receiver`` column)
    node: str
    start_ns: int  # when it joins (its own start, else the flow's)
    fair_share_bps: float  # vidcc's max-min fair share of this receiver's path (flows table)


@dataclass(frozen=True)
class SessionSpec:
    """A multicast flow instance: one sender, its receivers."""

    index: int
    label: str
    protocol: str
    src: str
    start_ns: int
    stop_ns: int | None
    packet_size: int  # bytes on the wire, header included
    header_bytes: int
    join_latency_ns: int
    leave_latency_ns: int
    params: Mapping[str, Any]
    receivers: Sequence[ReceiverSpec]


@dataclass(frozen=True)
class Layout:
    name: str
    seed: int
    duration_ns: int
    warmup_ns: int
    queue_sample_interval_ns: int
    bottleneck: str  # name of the link whose queue and losses are measured
    links: Sequence[LinkSpec]
    flows: Sequence[FlowSpec]
    sessions: Sequence[SessionSpec] = ()

    def nodes(self) -> list[str]:
        seen: dict[str, None] = {}
        for link in self.links:
            seen.setdefault(link.src)
            seen.setdefault(link.dst)
        return list(seen)

    def link(self, name: str) -> LinkSpec:
        for link in self.links:
            if link.name == name:
                return link
        raise LayoutError(f"case {self.name}: no link named {name!r}; links are {[lk.name for lk in self.links]}")


_HOST = re.compile(r"^[ab]\d+(\.\d+)?$")  # b<k>.<j>: receiver j of multicast flow k
_ROUTER = re.compile(r"^r(\d+)$")


def _is_forward_core(src: str, dst: str) -> bool:
    """Left to right: L->R in a dumbbell, r_i -> r_(i+1) in a chain."""
    if (src, dst) == ("L", "R"):
        return True
    ms, md = _ROUTER.match(src), _ROUTER.match(dst)
    return bool(ms and md and int(md.group(1)) == int(ms.group(1)) + 1)


def _queue(where: str, resolved: Mapping[str, Any], limit_packets: int, limit_bytes: int) -> QueueSpec:
    kind = resolved["kind"]
    if limit_bytes and kind != "drr":
        raise LayoutError(f"{where}: a queue limit in bytes has no ns-2 translation here; give it in packets")
    if kind == "droptail":
        return QueueSpec("droptail", int(limit_packets))
    if kind == "red":
        keys = ("min_thresh", "max_thresh", "weight", "max_p", "gentle", "bytes", "mean_packet_bytes", "wait")
        return QueueSpec("red", int(limit_packets), {k: resolved[k] for k in keys})
    if kind == "drr":
        if not limit_bytes:
            raise LayoutError(f"{where}: a DRR limit in packets has no ns-2 translation (blimit_ is in bytes)")
        return QueueSpec("drr", 0, limit_bytes=int(limit_bytes),
                         drr={k: resolved[k] for k in ("quantum", "buckets", "mask")})
    raise LayoutError(f"{where}: queue kind {kind!r} is not translated to ns-2 (droptail, red, drr)")


def _loss(where: str, resolved: Mapping[str, Any] | None) -> LossSpec | None:
    if resolved is None:
        return None
    kind = resolved["kind"]
    if kind == "bernoulli":
        return LossSpec("bernoulli", float(resolved["p"]))
    if kind == "gilbert-elliott":
        return LossSpec(
            "gilbert-elliott",
            float(resolved["p"]),
            float(resolved["r"]),
            float(resolved["loss_good"]),
            float(resolved["loss_bad"]),
        )
    raise LayoutError(f"{where}: loss kind {kind!r} is not translated to ns-2 (bernoulli, gilbert-elliott)")


def _link_config(topology: Mapping[str, Any], src: str, dst: str) -> tuple[Mapping[str, Any], str]:
    """The resolved link table a directed link comes from, and which loss key applies to it."""
    if _HOST.match(src) or _HOST.match(dst):
        host = src if _HOST.match(src) else dst
        side = "source_access" if host[0] == "a" else "sink_access"
        # Forward is left to right: host a -> router on the source side, router -> host b on the sink side.
        forward = (host == src) if side == "source_access" else (host == dst)
        return topology[side], "loss" if forward else "reverse_loss"
    core = topology["bottleneck"] if topology["kind"] == "dumbbell" else topology["link"]
    return core, "loss" if _is_forward_core(src, dst) else "reverse_loss"


def from_run(name: str, bottleneck: str, resolved: Mapping[str, Any], tables: Mapping[str, Any]) -> Layout:
    """The layout of one vidcc run: ``resolved`` is ``Result.resolved``, ``tables`` its tables."""
    from vidcc import _vidcc

    topology = resolved["topology"]
    if topology["kind"] not in ("dumbbell", "chain"):
        kind = topology["kind"]
        raise LayoutError(f"case {name}: topology kind {kind!r} is not translated to ns-2 (dumbbell, chain)")
    links = []
    for row in tables["links"].itertuples(index=False):
        where = f"case {name}: link {row.name}"
        config, loss_key = _link_config(topology, row.src, row.dst)
        if config.get("arq") is not None:
            raise LayoutError(f"{where}: link ARQ has no ns-2 translation")
        links.append(
            LinkSpec(
                name=row.name,
                src=row.src,
                dst=row.dst,
                bandwidth_bps=int(row.bandwidth_bps),
                delay_ns=int(row.delay_ns),
                queue=_queue(where, config["queue"], row.queue_limit_packets, row.queue_limit_bytes),
                loss=_loss(where, config.get(loss_key)),
            )
        )
    flows = []
    sessions: dict[int, tuple[Any, Mapping[str, Any]]] = {}  # flow -> (its first row, its group)
    receivers: dict[int, list[ReceiverSpec]] = {}
    for row in tables["flows"].itertuples(index=False):
        group = resolved["flows"][int(row.group)]
        where = f"case {name}: flows[{int(row.group)}]"
        if group.get("video") is not None:
            raise LayoutError(f"{where}: video flows are not translated to ns-2")
        protocol = group["protocol"]["kind"]
        if bool(row.multicast):
            sessions.setdefault(int(row.flow), (row, group))
            receivers.setdefault(int(row.flow), []).append(_receiver(where, row, group))
            continue
        flows.append(
            FlowSpec(
                index=int(row.flow),
                label=str(row.label),
                protocol=protocol,
                src=str(row.src),
                dst=str(row.dst),
                start_ns=int(row.start_ns),
                stop_ns=group["stop_ns"],
                packet_size=int(group["packet_size_bytes"]),
                header_bytes=int(_vidcc.protocol_header_bytes(protocol)),
                send_jitter_ns=int(group["send_jitter_ns"]),
                params=dict(group["protocol"]),
            )
        )
    layout = Layout(
        name=name,
        seed=int(resolved["seed"]),
        duration_ns=int(resolved["duration_ns"]),
        warmup_ns=int(resolved["warmup_ns"]),
        queue_sample_interval_ns=int(resolved["queue_sample_interval_ns"]),
        bottleneck=bottleneck,
        links=links,
        flows=flows,
        sessions=[_session(*sessions[k], receivers[k]) for k in sorted(sessions)],
    )
    layout.link(bottleneck)  # a clear error now rather than a Tcl error later
    return layout


def _receiver(where: str, row: Any, group: Mapping[str, Any]) -> ReceiverSpec:
    """One receiver row of a multicast flow instance."""
    j = int(row.receiver)
    conf = group["multicast"]["receivers"][j]
    if conf.get("stop_ns") is not None:
        raise LayoutError(f"{where}: receiver {j} stops early; receiver stops are not translated to ns-2")
    if conf.get("groups"):
        raise LayoutError(f"{where}: receiver {j} names its groups; only receiver-driven sessions are translated")
    start = conf["start_ns"] if conf.get("start_ns") is not None else int(row.start_ns)
    return ReceiverSpec(j, str(row.dst), int(start), float(row.fair_share_bps))


def _session(row: Any, group: Mapping[str, Any], receivers: list[ReceiverSpec]) -> SessionSpec:
    from vidcc import _vidcc

    mc = group["multicast"]
    protocol = group["protocol"]["kind"]
    return SessionSpec(
        index=int(row.flow),
        label=str(row.label),
        protocol=protocol,
        src=str(row.src),
        start_ns=int(row.start_ns),
        stop_ns=group["stop_ns"],
        packet_size=int(group["packet_size_bytes"]),
        header_bytes=int(_vidcc.protocol_header_bytes(protocol)),
        join_latency_ns=int(mc["join_latency_ns"]),
        leave_latency_ns=int(mc["leave_latency_ns"]),
        params=dict(group["protocol"]),
        receivers=sorted(receivers, key=lambda r: r.index),
    )
