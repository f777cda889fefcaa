"""The compared metrics, measured the same way from a vidcc run and from ns-2's counters.

All over the measurement interval [warmup, duration] (slow start and its overshoot, whose size
depends on when the first random loss falls, are left out):

- ``goodput[label]``: mean goodput of the flows of a label, payload bits per second (TCP: new
  in-order data; others: delivered packets times their payload, the packet less vidcc's header);
- ``goodput_total``: the sum over all flows;
- ``loss_rate``: bottleneck drops (queue and random loss) / packets arriving at its queue;
- ``mean_queue``: mean bottleneck queue length in packets, sampled every queue sample interval;
- ``timeouts_per_loss_event``: TCP retransmission timeouts / window reductions (fast
  retransmits + timeouts), pooled over the TCP flows (None without TCP or without any loss);
  with several TCP labels, ``timeouts_per_loss_event[label]`` per label instead: flows under
  different conditions (a starved end-to-end flow beside one-hop cross traffic) time out at
  very different rates, and a pooled share would weigh them by their event counts, which
  differ between the simulators even where each label's share agrees (chain-3-cross);
- ``jain[label]``: Jain's fairness index of the goodputs of a label's flows (labels of two or
  more flows).

Multicast receivers (PLM) count in ``goodput[label]`` (the mean over the label's flows and
receivers: a receiver's goodput is the payload it received) and in ``goodput_total``, and add,
per receiver ``label/rJ``:

- ``layers[label/rJ]``: the time-weighted mean number of layers subscribed over the interval
  (the subscription at the warmup is the last change before it);
- ``estimate_share[label/rJ]``: the median of the check periods' minimum pair estimates (the
  value each decision used) closing in the interval, over the receiver's max-min fair share of
  its path (vidcc's ``fair_share_bps``, the same number on both sides).
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from vidcc.validate.layout import Layout, SessionSpec
from vidcc.validate.ns2 import Ns2Output, Ns2OutputError
from vidcc.validate.tcl import TCP_HEADER, is_tcp

Metrics = dict[str, float | None]


def jain(values: list[float]) -> float | None:
    if len(values) < 2:
        return None
    s, sq = sum(values), sum(v * v for v in values)
    return 1.0 if sq == 0 else s * s / (len(values) * sq)


def timeout_groups(layout: Layout) -> dict[str, list[int]]:
    """Metric name -> the TCP flows pooled in it: one pool, or one per label when a case has
    several TCP labels (see the module docs)."""
    labels: dict[str, list[int]] = defaultdict(list)
    for f in layout.flows:
        if is_tcp(f.protocol):
            labels[f.label].append(f.index)
    if len(labels) <= 1:
        return {"timeouts_per_loss_event": [i for g in labels.values() for i in g]} if labels else {}
    return {f"timeouts_per_loss_event[{label}]": labels[label] for label in sorted(labels)}


def receiver_name(session: SessionSpec, receiver: int) -> str:
    return f"{session.label}/r{receiver}"


def mean_level(changes: Sequence[tuple[float, float]], start: float, end: float) -> float:
    """Time-weighted mean of a step function given by its changes (time, value), in time order
    (several at one instant: the last holds), over [start, end]; 0 before the first change."""
    level, t, area = 0.0, start, 0.0
    for when, value in changes:
        if when > start:
            area += level * (min(when, end) - t)
            t = min(when, end)
        if when >= end:
            break
        level = value
    area += level * (end - t)
    return area / (end - start)


def _session_metrics(
    layout: Layout,
    layers: Mapping[tuple[int, int], Sequence[tuple[float, float]]],
    estimates: Mapping[tuple[int, int], Sequence[tuple[float, float]]],
) -> Metrics:
    """Per receiver: mean layers and median estimate over the fair share (module docs)."""
    out: Metrics = {}
    start, end = layout.warmup_ns / 1e9, layout.duration_ns / 1e9
    for s in layout.sessions:
        for r in s.receivers:
            key, name = (s.index, r.index), receiver_name(s, r.index)
            out[f"layers[{name}]"] = mean_level(layers.get(key, []), start, end)
            est = [v for t, v in estimates.get(key, []) if start <= t <= end]
            out[f"estimate_share[{name}]"] = statistics.median(est) / r.fair_share_bps if est else None
    return out


def _assemble(
    layout: Layout, per_flow: Mapping[int, float], loss_rate: float, mean_queue: float,
    timeouts: Mapping[int, int], cuts: Mapping[int, int], rx_goodput: Mapping[tuple[int, int], float] | None = None,
) -> Metrics:
    out: Metrics = {}
    rx_goodput = rx_goodput or {}
    by_label: dict[str, list[float]] = defaultdict(list)
    for f in layout.flows:
        by_label[f.label].append(per_flow[f.index])
    session_labels = set()
    for s in layout.sessions:
        session_labels.add(s.label)
        by_label[s.label] += [rx_goodput[(s.index, r.index)] for r in s.receivers]
    for label in sorted(by_label):
        out[f"goodput[{label}]"] = sum(by_label[label]) / len(by_label[label])
    out["goodput_total"] = sum(per_flow.values()) + sum(rx_goodput.values())
    out["loss_rate"] = loss_rate
    out["mean_queue"] = mean_queue
    groups = timeout_groups(layout)
    if not groups:
        out["timeouts_per_loss_event"] = None
    for name, flows in groups.items():
        t, c = sum(timeouts.get(i, 0) for i in flows), sum(cuts.get(i, 0) for i in flows)
        out[name] = t / c if c else None
    # Jain's index within each label of several flows: flows of one label have the same demand,
    # across labels (Pareto sources against TCP) equal shares are not the aim.
    # Flows starved below 1 % of the bottleneck in mean have no meaningful shares: not measured.
    floor = 0.01 * layout.link(layout.bottleneck).bandwidth_bps
    for label in sorted(by_label):
        g = by_label[label]
        if len(g) > 1 and label not in session_labels:
            out[f"jain[{label}]"] = jain(g) if sum(g) / len(g) >= floor else None
    return out


def _interval_s(layout: Layout) -> float:
    return (layout.duration_ns - layout.warmup_ns) / 1e9


def _link_counts(links: Any, name: str) -> tuple[int, int, int]:
    row = links[links["name"] == name].iloc[0]
    dropped = int(row.dropped_queue) + int(row.dropped_loss)
    return int(row.link), int(row.delivered_packets) + dropped, dropped


def from_vidcc(layout: Layout, tables: Mapping[str, Any], warm_links: Any) -> Metrics:
    """``warm_links``: the `links` table of the same scenario run only up to the warmup (the
    simulator is deterministic, so its counters are the full run's at that instant): the
    bottleneck's counters after the warmup are the difference."""
    summary = tables["flow_summary"]
    unicast = {f.index for f in layout.flows}
    per_flow = {int(r.flow): float(r.goodput_bps) for r in summary.itertuples(index=False) if int(r.flow) in unicast}
    rx_goodput = {(int(r.flow), int(r.receiver)): float(r.goodput_bps) for r in summary.itertuples(index=False)
                  if int(r.flow) not in unicast}
    link, arrived_end, dropped_end = _link_counts(tables["links"], layout.bottleneck)
    _, arrived_warm, dropped_warm = _link_counts(warm_links, layout.bottleneck)
    arrived, dropped = arrived_end - arrived_warm, dropped_end - dropped_warm
    q = tables["queue_samples"]
    q = q[(q["link"] == link) & (q["t_ns"] >= layout.warmup_ns)]
    events = tables.get("events")
    timeouts: dict[int, int] = {}
    cuts: dict[int, int] = {}
    tcp = {f.index for f in layout.flows if is_tcp(f.protocol)}
    if events is not None and len(events):
        ev = events[(events["t_ns"] >= layout.warmup_ns) & (events["side"] == "sender") & events["flow"].isin(tcp)]
        for flow in tcp:
            kinds = ev[ev["flow"] == flow]["kind"]
            timeouts[flow] = int((kinds == "timeout").sum())
            cuts[flow] = timeouts[flow] + int((kinds == "loss_event").sum())
    loss_rate = dropped / arrived if arrived else 0.0
    out = _assemble(layout, per_flow, loss_rate, float(q["packets"].mean()), timeouts, cuts, rx_goodput)
    if layout.sessions:
        out.update(_session_metrics(layout, *_vidcc_receiver_logs(layout, events)))
    return out


def _vidcc_receiver_logs(layout: Layout, events: Any) -> tuple[dict, dict]:
    """The receivers' ``layers`` and ``rate`` events as (t s, value) lists keyed (flow, receiver)."""
    layers: dict[tuple[int, int], list[tuple[float, float]]] = {}
    estimates: dict[tuple[int, int], list[tuple[float, float]]] = {}
    if events is None or not len(events):
        return layers, estimates
    flows = {s.index for s in layout.sessions}
    ev = events[(events["side"] == "receiver") & events["flow"].isin(flows) & events["kind"].isin(["layers", "rate"])]
    for row in ev.itertuples(index=False):
        target = layers if row.kind == "layers" else estimates
        target.setdefault((int(row.flow), int(row.receiver)), []).append((row.t_ns / 1e9, float(row.value)))
    return layers, estimates


def from_ns2(layout: Layout, out: Ns2Output, source: str = "<ns-2 output>") -> Metrics:
    missing = sorted({f.index for f in layout.flows} - set(out.flows))
    if missing:
        raise Ns2OutputError(f"{source}: no line for flow(s) {missing}")
    if out.queue_samples == 0:
        raise Ns2OutputError(f"{source}: no queue samples after the warmup")
    seconds = _interval_s(layout)
    per_flow = {}
    timeouts: dict[int, int] = {}
    cuts: dict[int, int] = {}
    for f in layout.flows:
        c = out.flows[f.index]
        payload = f.packet_size - (TCP_HEADER if is_tcp(f.protocol) else f.header_bytes)
        per_flow[f.index] = c.packets * payload * 8 / seconds
        if is_tcp(f.protocol):
            timeouts[f.index], cuts[f.index] = c.timeouts, c.cuts
    rx_goodput = {}
    for s in layout.sessions:
        for r in s.receivers:
            if (s.index, r.index) not in out.receivers:
                raise Ns2OutputError(f"{source}: no line for receiver {r.index} of flow {s.index}")
            payload = s.packet_size - s.header_bytes
            rx_goodput[(s.index, r.index)] = out.receivers[(s.index, r.index)] * payload * 8 / seconds
    dropped = out.queue_drops + out.loss_drops
    loss_rate = dropped / out.arrivals if out.arrivals else 0.0
    m = _assemble(layout, per_flow, loss_rate, out.queue_sum / out.queue_samples, timeouts, cuts, rx_goodput)
    if layout.sessions:
        m.update(_session_metrics(layout, out.layers, out.estimates))
    return m
