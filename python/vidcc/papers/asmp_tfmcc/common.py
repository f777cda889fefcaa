"""What the ASMP/TFMCC suite's checks share: the protocols, the packet size, per-label
summaries over seeds, the ordering check and the RTT a receiver measures.

Every multicast receiver is a row of ``run_flows`` (label = the protocol); the video "throughput"
of a run is the mean over its receivers (all of them sit behind the same bottlenecks; the paper
shows one, docs/papers/asmp-tfmcc.md §3).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from vidcc.papers.measures import FigureData
from vidcc.papers.verdicts import ordering

if TYPE_CHECKING:
    import pandas as pd

PROTOS = ("asmp", "tfmcc")
PACKET_BYTES = 1018  # P: 978 B payload + RTP, UDP and IP headers (docs/papers/asmp-tfmcc.md §1.1)


def scoring_key(d: FigureData, key: str, default: str, allowed: tuple[str, ...], part: str | None = None) -> str:
    """The value the readings of ``part`` (None: of any part of ``d``'s figure) set for the
    scoring key ``key`` (an alternative's ``scoring``, docs/experiments.md), else ``default``.
    Raises ``ValueError`` naming the figure when readings ask for two values at once, or for one
    not in ``allowed``."""
    parts = [p for p in (d.figure.parts if d.figure is not None else []) if part is None or p.name == part]
    found = {str(a.scoring[key]) for p in parts for a in p.alternatives if a.scoring.get(key)}
    where = f"figure {d.figure.id}" if d.figure is not None else "figure"
    if len(found) > 1:
        raise ValueError(f"{where}: readings set {key} to {sorted(found)} at once")
    value = found.pop() if found else default
    if value not in allowed:
        raise ValueError(f"{where}: {key} {value!r}: not one of {', '.join(allowed)}")
    return value


def per_label(df: pd.DataFrame, metric: str, by: str | None = None) -> pd.DataFrame:
    from vidcc.analysis import summarize

    return summarize(df, metric, by=by, group="label")


def by_label(
    d: FigureData, metric: str, by: str | None = None, part=None, labels=PROTOS, within_run: str = "mean"
) -> pd.DataFrame:
    return d.summary(metric, by=by, part=part, where={"label": list(labels)}, within_run=within_run)


def order(metric: str, hi: str, lo: str, name: str, by: str | None = None, at=None):
    return lambda d: ordering(by_label(d, metric, by=by), hi, lo, by=by, name=name, at=at)


def jain2(a: float, b: float) -> float:
    return (a + b) ** 2 / (2 * (a * a + b * b)) if a > 0 or b > 0 else math.nan


def measured_rtt_s(flow_rows: pd.DataFrame) -> float:
    """The RTT a receiver measures, from the run: its packets' mean one-way delay (queueing
    included) plus the return path's propagation delay, half the path RTT (the return path
    carries only reports, so it holds no queue worth counting)."""
    if flow_rows.empty or "mean_delay_ns" not in flow_rows.columns:
        return math.nan
    return float((flow_rows["mean_delay_ns"] + flow_rows["path_rtt_ns"] / 2).mean()) / 1e9
