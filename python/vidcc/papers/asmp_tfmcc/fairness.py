"""Sharing checks of the ASMP/TFMCC suite: Jain's index and throughput share against TCP (S1,
S4: per bottleneck, the video against the TCP flow crossing it, averaged; AMB-19 of
docs/papers/asmp-tfmcc.md §4), the same-protocol pairs of S5 and the TCP-pair baseline, with the
measured causes of their FAILs.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from vidcc.papers.asmp_tfmcc.common import PACKET_BYTES, PROTOS, by_label, jain2, measured_rtt_s, per_label
from vidcc.papers.asmp_tfmcc.loss import loss_cause
from vidcc.papers.measures import FigureData
from vidcc.papers.model import Verdict
from vidcc.papers.verdicts import all_of, bound, direction, no_data, ordering

if TYPE_CHECKING:
    import pandas as pd


def tcp_fairness(d: FigureData, parts=None) -> pd.DataFrame:
    """Per run with a video protocol and TCP: ``video`` (mean receiver throughput), ``tcp`` (mean
    TCP throughput), ``jain`` (video vs each TCP flow, averaged over the TCP flows: one per
    bottleneck) and ``share`` = video / TCP; label = the video protocol."""
    import pandas as pd

    flows = d.flows(parts)
    keep = [c for c in ("part", "seed", "rtt_ms") if c in flows.columns]
    rows = []
    for run_id, f in flows.groupby("run_id", sort=True):
        video = f[f["label"].isin(PROTOS)]
        tcp = f[f["label"] == "tcp"]
        if video.empty or tcp.empty:
            continue
        v = float(video["throughput_bps"].mean())
        t = [float(x) for x in tcp["throughput_bps"]]
        first = f.iloc[0]
        rows.append(
            {
                "run_id": run_id,
                "label": video["label"].iloc[0],
                **{k: first[k] for k in keep},
                "video": v,
                "tcp": sum(t) / len(t),
                "jain": sum(jain2(v, x) for x in t) / len(t),
                "share": v / (sum(t) / len(t)) if sum(t) > 0 else math.inf,
            }
        )
    return pd.DataFrame(rows)


def fairer_and_high_against_tcp(d: FigureData) -> Verdict:
    j = tcp_fairness(d)
    if j.empty:
        return no_data("Jain (video vs TCP)")
    s = per_label(j, "jain")
    return all_of(
        ordering(s, "tfmcc", "asmp", name="Jain (video vs TCP)"), bound(s, ">=", 0.9, name="Jain (video vs TCP)")
    )


def tfmcc_fairer_below_160ms(d: FigureData) -> Verdict:
    j = tcp_fairness(d)
    if j.empty:
        return no_data("Jain (video vs TCP)")
    low = sorted(r for r in j["rtt_ms"].unique() if r < 160)
    return ordering(per_label(j, "jain", by="rtt_ms"), "tfmcc", "asmp", by="rtt_ms", at=low, name="Jain (video vs TCP)")


def tfmcc_above_tcp_at_long_rtt(d: FigureData) -> Verdict:
    j = tcp_fairness(d)
    j = j[j["label"] == "tfmcc"] if not j.empty else j
    if j.empty:
        return no_data("TFMCC share of TCP")
    s = per_label(j, "share", by="rtt_ms")
    high = s[s["rtt_ms"] > 200]
    above = (
        bound(high, ">", 1.0, name="TFMCC / TCP throughput (RTT > 200 ms)")
        if not high.empty
        else no_data("RTT > 200 ms")
    )
    return all_of(above, direction(s, "rtt_ms", increasing=True, name="TFMCC / TCP throughput"))


def asmp_tcp_friendly_at_every_rtt(d: FigureData) -> Verdict:
    j = tcp_fairness(d)
    j = j[j["label"] == "asmp"] if not j.empty else j
    if j.empty:
        return no_data("ASMP share of TCP")
    return bound(per_label(j, "share", by="rtt_ms"), "<=", 1.0, name="ASMP / TCP throughput")


def asmp_below_tcp(d: FigureData) -> Verdict:
    s = d.summary("throughput_bps", part="asmp", where={"label": ["asmp", "tcp"]})
    return ordering(s, "tcp", "asmp", name="throughput (ASMP receivers vs TCP flows)")


def pair_jain(d: FigureData) -> pd.DataFrame:
    import pandas as pd

    flows = d.flows(None, {"label": list(PROTOS)})
    rows = []
    for run_id, f in flows.groupby("run_id", sort=True):
        x = f.groupby("flow")["throughput_bps"].mean().tolist()
        if len(x) == 2:
            rows.append({"run_id": run_id, "seed": f["seed"].iloc[0], "label": f["label"].iloc[0], "jain": jain2(*x)})
    return pd.DataFrame(rows)


def pairs_share_equally(d: FigureData) -> Verdict:
    j = pair_jain(d)
    return (
        bound(per_label(j, "jain"), ">=", 0.99, name="Jain of the two sessions")
        if not j.empty
        else no_data("Jain of the pair")
    )


def tfmcc_pair_takes_and_loses_more(d: FigureData) -> Verdict:
    return all_of(
        ordering(by_label(d, "throughput_bps", within_run="sum"), "tfmcc", "asmp", name="pair throughput"),
        ordering(by_label(d, "drop_rate"), "tfmcc", "asmp", name="loss ratio"),
    )


def tcp_equation_bps(p: float, rtt_s: float, size_bytes: float = PACKET_BYTES) -> float:
    """The TCP throughput equation TFMCC follows (RFC 5348 §3.1, b = 1, t_RTO = 4·R), bit/s."""
    if not (p > 0 and rtt_s > 0):
        return math.inf
    return size_bytes * 8 / (rtt_s * math.sqrt(2 * p / 3) + 4 * rtt_s * 3 * math.sqrt(3 * p / 8) * p * (1 + 32 * p * p))


def equation_share_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    flows = d.flows(None, {"label": ["tfmcc", "tcp"]}) if d is not None else None
    if flows is None or flows.empty:
        return "no results"
    flows = flows[flows["part"].str.startswith("tfmcc")]
    if not {"tfmcc", "tcp"} <= set(flows["label"]):
        return "no results for TFMCC and TCP"
    loss = flows.groupby("label")["drop_rate"].mean()
    rtt = {lab: measured_rtt_s(f) for lab, f in flows.groupby("label")}
    eq = {lab: tcp_equation_bps(float(loss[lab]), rtt[lab]) for lab in ("tfmcc", "tcp")}
    thr = flows.groupby("label")["throughput_bps"].mean()
    ratio = eq["tfmcc"] / eq["tcp"] if math.isfinite(eq["tcp"]) and eq["tcp"] > 0 else math.nan
    measured.update(
        {
            "TFMCC loss ratio (all RTTs)": round(float(loss["tfmcc"]), 5),
            "TCP loss ratio (all RTTs)": round(float(loss["tcp"]), 5),
            "TFMCC measured RTT (s, mean)": round(rtt["tfmcc"], 4),
            "TCP measured RTT (s, mean)": round(rtt["tcp"], 4),
            "TCP equation, TFMCC's loss and RTT / TCP's": round(ratio, 3),
            "TFMCC / TCP throughput (all RTTs)": round(float(thr["tfmcc"] / thr["tcp"]), 3)
            if thr["tcp"] > 0
            else math.nan,
        }
    )
    return (
        "TFMCC crosses both bottlenecks and each TCP flow one: over the RTT points TFMCC sees loss "
        f"{float(loss['tfmcc']):.4f} "
        f"and a {rtt['tfmcc'] * 1e3:.0f} ms measured RTT, TCP {float(loss['tcp']):.4f} and "
        f"{rtt['tcp'] * 1e3:.0f} ms: the TCP "
        f"equation on these gives TFMCC {ratio:.2f}× TCP's rate (with the loss ratio for the loss event rate); "
        f"measured, TFMCC gets {float(thr['tfmcc'] / thr['tcp']):.2f}× TCP's throughput"
    )


def pair_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    flows = d.flows(None, {"label": list(PROTOS)}) if d is not None else None
    if flows is None or flows.empty:
        return "no results"
    parts = []
    for label, f in flows.groupby("label"):
        x = f.groupby("flow")["throughput_bps"].mean()
        measured.update({f"{label} session {k} (bit/s)": round(float(v), 0) for k, v in x.items()})
        parts.append(f"{label} " + " vs ".join(f"{float(v) / 1e3:.0f}" for v in x) + " kbit/s")
    return "the two sessions' mean throughputs differ: " + "; ".join(parts)


def pair_throughput_or_loss_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    """C24 has two parts: the pair's throughput and its loss; state the one that failed."""
    thr = by_label(d, "throughput_bps", within_run="sum") if d is not None else None
    if thr is None or thr.empty:
        return "no results"
    m = dict(zip(thr["label"], thr["mean"]))
    if m.get("tfmcc", 0) > m.get("asmp", 0):
        return loss_cause(d, measured)
    return pair_cause(d, measured)


def tcp_pair_jain(d: FigureData) -> Verdict:
    """B1: Jain of the two TCP flows of the baseline part ≥ 0.99, with each seed's value."""
    s = d.summary("jain", table="run_aggregate", part="tcp-pair", where={"label": "tcp"})
    v = bound(s, ">=", 0.99, name="Jain of the two TCP flows")
    per_seed = d.aggregate("tcp-pair", {"label": "tcp"}).sort_values("seed")
    v.measured.update({f"Jain, seed {seed}": float(j) for seed, j in zip(per_seed["seed"], per_seed["jain"])})
    if v.status != "PASS" and len(per_seed):
        worst = per_seed.loc[per_seed["jain"].idxmin()]
        v.explanation += (
            f" (seed {worst['seed']}: {worst['jain']:.3f}; the other seeds ≥ "
            f"{per_seed['jain'].drop(worst.name).min():.4f})"
            if len(per_seed) > 1
            else ""
        )
    return v
