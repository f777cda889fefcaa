"""Turning a suite's figure parts into sweeps at a scale, and the helpers suites write parts with.

The helpers (:func:`scenario`, :func:`dumbbell`, :func:`chain`, :func:`graph`, :func:`glink`,
:func:`flow`, :func:`droptail`, :func:`red`) build user-level scenario dicts, exactly what a TOML
file holds; any value may be ``ByScale(quick, full)``. :func:`part_spec` makes the
:class:`vidcc.sweep.SweepSpec` of one part at one scale, named by :func:`sweep_name`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from vidcc.papers.model import Figure, Part, Suite, at_scale

__all__ = ["scenario", "droptail", "red", "dumbbell", "chain", "glink", "graph", "flow", "sweep_name", "part_spec"]

# --------------------------------------------------------------------------------------------
# Building blocks for suites: user-level scenario dicts (values may be ByScale)


def scenario(duration: Any, topology: dict, flows: list[dict], *, warmup: Any = "2s", **keys: Any) -> dict:
    return {"scenario": {"duration": duration, "warmup": warmup, **keys}, "topology": topology, "flows": flows}


def droptail(limit: Any = "bdp") -> dict:
    return {"kind": "droptail", "limit": limit}


def red(**keys: Any) -> dict:
    return {"kind": "red", **keys}


def _link(bandwidth: Any, delay: Any, queue: dict | None, loss: dict | None, reverse_loss: dict | None) -> dict:
    out: dict[str, Any] = {"bandwidth": bandwidth, "delay": delay}
    if queue is not None:
        out["queue"] = queue
    if loss is not None:
        out["loss"] = loss
    if reverse_loss is not None:
        out["reverse_loss"] = reverse_loss
    return out


def dumbbell(bandwidth: Any, delay: Any, *, access: dict, queue: dict | None = None, loss: dict | None = None,
             source_access: dict | None = None, sink_access: dict | None = None) -> dict:
    bottleneck = _link(bandwidth, delay, queue, loss, None)
    topo: dict[str, Any] = {"kind": "dumbbell", "bottleneck": bottleneck, "access": access}
    if source_access is not None:
        topo["source_access"] = source_access
    if sink_access is not None:
        topo["sink_access"] = sink_access
    return topo


def chain(hops: Any, bandwidth: Any, delay: Any, *, access: dict, queue: dict | None = None) -> dict:
    return {"kind": "chain", "hops": hops, "link": _link(bandwidth, delay, queue, None, None), "access": access}


def glink(a: str, b: str, bandwidth: Any, delay: Any, *, queue: dict | None = None, loss: dict | None = None,
          reverse_loss: dict | None = None, monitor: bool | None = None) -> dict:
    out = {"a": a, "b": b, **_link(bandwidth, delay, queue, loss, reverse_loss)}
    if monitor is not None:
        out["monitor"] = monitor
    return out


def graph(nodes: Sequence[str], links: Sequence[dict]) -> dict:
    return {"kind": "graph", "nodes": list(nodes), "links": list(links)}


def flow(protocol: str, *, label: str | None = None, count: Any = 1, **keys: Any) -> dict:
    out: dict[str, Any] = {"protocol": protocol}
    if count != 1:
        out["count"] = count
    if label is not None:
        out["label"] = label
    out.update(keys)
    return out


# --------------------------------------------------------------------------------------------
# A part at a scale: one sweep


def sweep_name(suite: Suite, figure: Figure, part: Part, scale: str) -> str:
    return f"reproduce/{suite.name}/{figure.id}/{part.name}/{scale}"


def part_spec(suite: Suite, figure: Figure, part: Part, scale: str):
    """The :class:`vidcc.sweep.SweepSpec` of one part at one scale."""
    from vidcc.sweep import Axis as SweepAxis
    from vidcc.sweep import SweepSpec

    return SweepSpec(
        name=sweep_name(suite, figure, part, scale),
        base=part.scenario(scale),
        axes=[SweepAxis(a.key, list(at_scale(a.values, scale))) for a in part.axes],
        seeds=part.seed_list(scale),
        source=f"vidcc reproduce {suite.name} ({figure.id}, part {part.name}, {scale})",
    )

