"""The concrete network a case ran on in vidcc, as plain data for the ns-2 script generator.

A case is a vidcc scenario (the one source of truth). What ns-2 must reproduce is not the
scenario as written but what vidcc built from it: ranges drawn per flow instance (start times,
access delays), ``"bdp"`` queue limits computed, per-hop flows laid out. All of that is in the
run's own tables (``links``: every directed link with its bandwidth, delay and queue limit;
``flows``: every flow instance with its hosts and start time), so the layout is read from a vidcc
run, and the queue kinds, loss models and protocol parameters from its resolved configuration.

Only what the generator can express is accepted: a dumbbell or a chain (graphs would need link
roles the tables do not carry), DropTail and RED queues limited in packets, Bernoulli and
Gilbert-Elliott loss, no link ARQ, no video. Anything else is a :class:`LayoutError` naming it.
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
    kind: str  # "droptail" or "red"
    limit_packets: int
    red: Mapping[str, Any] = field(default_factory=dict)  # the resolved RED keys


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
class Layout:
    name: str
    seed: int
    duration_ns: int
    warmup_ns: int
    queue_sample_interval_ns: int
    bottleneck: str  # name of the link whose queue and losses are measured
    links: Sequence[LinkSpec]
    flows: Sequence[FlowSpec]

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


_HOST = re.compile(r"^[ab]\d+$")
_ROUTER = re.compile(r"^r(\d+)$")


def _is_forward_core(src: str, dst: str) -> bool:
    """Left to right: L->R in a dumbbell, r_i -> r_(i+1) in a chain."""
    if (src, dst) == ("L", "R"):
        return True
    ms, md = _ROUTER.match(src), _ROUTER.match(dst)
    return bool(ms and md and int(md.group(1)) == int(ms.group(1)) + 1)


def _queue(where: str, resolved: Mapping[str, Any], limit_packets: int, limit_bytes: int) -> QueueSpec:
    kind = resolved["kind"]
    if limit_bytes:
        raise LayoutError(f"{where}: a queue limit in bytes has no ns-2 translation here; give it in packets")
    if kind == "droptail":
        return QueueSpec("droptail", int(limit_packets))
    if kind == "red":
        keys = ("min_thresh", "max_thresh", "weight", "max_p", "gentle", "bytes", "mean_packet_bytes", "wait")
        return QueueSpec("red", int(limit_packets), {k: resolved[k] for k in keys})
    raise LayoutError(f"{where}: queue kind {kind!r} is not translated to ns-2 (droptail, red)")


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
    for row in tables["flows"].itertuples(index=False):
        group = resolved["flows"][int(row.group)]
        where = f"case {name}: flows[{int(row.group)}]"
        if group.get("video") is not None:
            raise LayoutError(f"{where}: video flows are not translated to ns-2")
        protocol = group["protocol"]["kind"]
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
    )
    layout.link(bottleneck)  # a clear error now rather than a Tcl error later
    return layout
