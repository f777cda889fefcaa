"""Per-run statistics the QoS-AIMD checks and their causes share: the delay outage (docs/papers/
qos-aimd.md §5: the share of received packets whose delay jitter exceeds D = 50 ms) and each
experiment's table of means over seeds. Each table is computed once per figure's results
(the checks and their causes read the same packet logs)."""

from __future__ import annotations

import math
import weakref

from vidcc.papers.measures import warmup_ns
from vidcc.papers.qos_aimd.readings import OUTAGE_JITTER, WHOLE_SLOTS
from vidcc.papers.qos_aimd.scenarios import SLOT_S, pkt_per_slot, with_pe

_STATS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # FigureData → {key: table}


def _cached(d, key, compute):
    cache = _STATS.setdefault(d, {})
    if key not in cache:
        cache[key] = compute()
    return cache[key]


SLOT_NS = round(SLOT_S * 1e9)


def whole_slots(d) -> bool:
    """Whether ``d``'s runs are scored under the reading ``outage-whole-slots`` (``readings``): the
    delay jitter counted in whole slots."""
    figure = getattr(d, "figure", None)
    parts = getattr(figure, "parts", ())
    return any(a.scoring.get(OUTAGE_JITTER) == WHOLE_SLOTS for p in parts for a in p.alternatives)


def late(jitter_ns, bound_ms: float = 50.0, whole: bool = False):
    """Whether each delay jitter (ns) exceeds the bound: as measured (the suite's default), or in
    whole slots (the reading ``outage-whole-slots``: the fraction of a slot is dropped, so 50 ms
    = 10 slots is exceeded from 11 slots, 55 ms, on)."""
    if whole:
        jitter_ns = (jitter_ns // SLOT_NS) * SLOT_NS
    return jitter_ns > bound_ms * 1e6


def run_outage(d, run_id, warm, flow_ids, bound_ms: float = 50.0, whole: bool | None = None) -> tuple[float, dict]:
    """Share of received packets (after the warm-up) whose one-way delay exceeds their flow's
    minimum by more than D = 50 ms (:func:`late`; in whole slots when ``whole``, by default as
    ``d``'s reading says); pooled and per flow."""
    pk = d.series(run_id, "packets")
    pk = pk[pk["flow"].isin(flow_ids) & (pk["fate"] == "delivered")]
    # the minimum over the whole run (warm-up included: a saturated queue must not hide its own delay)
    delay = pk["arrival_ns"] - pk["sent_ns"]
    pk = pk.assign(jitter=delay - delay.groupby(pk["flow"]).transform("min"))
    pk = pk[pk["sent_ns"] >= warm]
    if pk.empty:
        return math.nan, {}
    lt = late(pk["jitter"], bound_ms, whole_slots(d) if whole is None else whole)
    return float(lt.mean()), {int(f): float(v) for f, v in lt.groupby(pk["flow"]).mean().items()}


def udp_outage(d, part: str, label: str = "udp", bound_ms: float = 50.0):
    """Per run: share of received packets whose delay exceeds the flow's minimum by more than
    ``bound_ms`` (delay jitter > D = 50 ms), after the warm-up; with the run's axis columns."""
    import pandas as pd

    rows = []
    flows = d.flows(part, {"label": label})
    for r in d.runs(part).to_dict("records"):
        warm = warmup_ns(r)
        pk = d.series(r["run_id"], "packets")
        ids = set(flows[flows["run_id"] == r["run_id"]]["flow"])
        pk = pk[pk["flow"].isin(ids) & (pk["sent_ns"] >= warm) & (pk["fate"] == "delivered")]
        pk = pk.assign(delay=pk["arrival_ns"] - pk["sent_ns"])
        jitter = pk["delay"] - pk.groupby("flow")["delay"].transform("min")
        lt = late(jitter, bound_ms, whole_slots(d))
        frac = float(lt.mean()) if len(pk) else math.nan
        rows.append({"run_id": r["run_id"], "seed": r["seed"], "rate": r.get("rate"), "outage": frac})
        for fid, lf in lt.groupby(pk["flow"]):
            rows[-1][f"outage_flow{fid}"] = float(lf.mean())
    return pd.DataFrame(rows)


def sweep_outage(d, part: str = "optimal", label: str | None = None):
    """Per (p_e, rwnd) of a rwnd × p_e sweep (the optimal-scheme one by default): the AIMD
    flow's outage (delay jitter > 50 ms), mean over seeds."""
    return _cached(d, (part, label), lambda: _sweep_outage(d, part, label))


def _sweep_outage(d, part: str, label: str | None):
    import pandas as pd

    rows = []
    flows = d.flows(part, {"label": label} if label else None)
    for r in d.runs(part).to_dict("records"):
        f = flows[flows["run_id"] == r["run_id"]]
        out, _ = run_outage(d, r["run_id"], warmup_ns(r), set(f["flow"]))
        rows.append({"ge_p": r["ge_p"], "rwnd": int(r["rwnd"]), "seed": r["seed"], "outage": out})
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    return with_pe(df).groupby(["p_e", "rwnd"], as_index=False)["outage"].mean()


FIG6_PARTS = ["aimd-pe0.01", "aimd-pe0.1"]


def fig6_stats(d):
    """Per Fig. 6 run (parts aimd-pe0.01, aimd-pe0.1): the AIMD flow's packets per slot, loss and
    outage; the mean over all backbone flows (TCP in 1250 B packets, AIMD in 125 B packets, each
    per 5 ms slot, docs/papers/qos-aimd.md §5 [D]); BS overflow drops; then the mean over seeds per (p_e, n)."""
    return _cached(d, ("fig6", None), lambda: _fig6_stats(d))


def _fig6_stats(d):
    import pandas as pd

    rows = []
    flows = d.flows(FIG6_PARTS)
    for r in d.runs(FIG6_PARTS).to_dict("records"):
        f = flows[flows["run_id"] == r["run_id"]]
        a, t = f[f["label"] == "aimd"], f[f["label"] == "tcp"]
        if a.empty:
            continue
        out, _ = run_outage(d, r["run_id"], warmup_ns(r), set(a["flow"]))
        whole, _ = run_outage(d, r["run_id"], warmup_ns(r), set(a["flow"]), whole=True)
        slots = list(pkt_per_slot(a)["pkt_per_slot"]) + list(pkt_per_slot(t, 1250.0)["pkt_per_slot"])
        links = d.series(r["run_id"], "links")
        bs = links[links["name"] == "BS->MH"]["dropped_queue"]
        rows.append({"p_e": r["p_e"], "n": r["n"], "seed": r["seed"], "aimd": slots[0],
                     "mean_all": sum(slots) / len(slots), "loss": float(a["drop_rate"].iloc[0]),
                     "outage": out, "outage_whole": whole,
                     "bs_overflow": float(bs.sum()) if len(bs) else math.nan})
    df = pd.DataFrame(rows)
    return df.groupby(["p_e", "n"], as_index=False).mean(numeric_only=True) if not df.empty else df


def parts_named(d, prefix: str) -> list[str]:
    """The parts of ``d``'s runs whose name starts with ``prefix``, sorted."""
    runs = d.runs()
    return [p for p in sorted(set(runs["part"])) if p.startswith(prefix)] if not runs.empty else []


def multi_stats(d, parts):
    """Per run of the multi-flow parts: p_e, RTT set, total and per-flow packets per slot, min/max
    throughput ratio, pooled outage; then the mean over seeds per (rtts, p_e)."""
    return _cached(d, ("multi", tuple(parts)), lambda: _multi_stats(d, parts))


def _multi_stats(d, parts):
    import pandas as pd

    rows = []
    runs = d.runs(parts)
    flows = d.flows(parts)
    for r in runs.to_dict("records"):
        warm = warmup_ns(r)
        f = pkt_per_slot(flows[flows["run_id"] == r["run_id"]])
        out, _ = run_outage(d, r["run_id"], warm, set(f["flow"]))
        whole, _ = run_outage(d, r["run_id"], warm, set(f["flow"]), whole=True)
        t = list(f.sort_values("flow")["pkt_per_slot"])
        rows.append({"rtts": r["rtts"], "p_e": r["p_e"], "seed": r["seed"], "total": sum(t), "min_flow": min(t),
                     "max_flow": max(t), "ratio": min(t) / max(t) if max(t) > 0 else math.nan,
                     "outage": out, "outage_whole": whole,
                     "n": len(t)})
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    return df.groupby(["rtts", "p_e"], as_index=False).mean(numeric_only=True)


FIG9_PARTS = ["udp-noarq", "udp-arq", "aimd"]


def fig9_stats(d):
    """Per part (udp-noarq, udp-arq, aimd) and rate: goodput (on-time packets per slot), loss,
    outage; mean over seeds."""
    return _cached(d, ("fig9", None), lambda: _fig9_stats(d))


def _fig9_stats(d):
    import pandas as pd

    from vidcc import _vidcc

    rows = []
    flows = d.flows(FIG9_PARTS)
    for r in d.runs(FIG9_PARTS).to_dict("records"):
        warm = warmup_ns(r)
        f = flows[flows["run_id"] == r["run_id"]]
        out, _ = run_outage(d, r["run_id"], warm, set(f["flow"]))
        tput = float(pkt_per_slot(f)["pkt_per_slot"].sum())
        rate = r.get("rate")
        rows.append({"part": r["part"], "rate": rate if isinstance(rate, str) else "-",
                     "rate_pps": _vidcc.parse_rate(rate) * SLOT_S / 1000 if isinstance(rate, str) else math.nan,
                     "seed": r["seed"], "throughput": tput, "goodput": tput * (1 - out),
                     "loss": float(f["drop_rate"].mean()), "outage": out})
    df = pd.DataFrame(rows)
    return df.groupby(["part", "rate"], as_index=False).mean(numeric_only=True) if not df.empty else df

