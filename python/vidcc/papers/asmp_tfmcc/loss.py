"""Loss measures of the ASMP/TFMCC suite: loss episodes per receiver and the measured cause of a
loss-ordering FAIL (with ASMP's sender rate around the background's first on-step in S6/S7).
"""

from __future__ import annotations

import math
from typing import Any

from vidcc.papers.asmp_tfmcc.common import PROTOS
from vidcc.papers.measures import FigureData

ON_OFF_FIGURES = ("fig24-25", "fig26-28")  # S6, S7: the background switches on at 20 s


def loss_episodes(d: FigureData) -> dict[str, float]:
    """label -> mean length (s) of a loss episode: a run of consecutive 1 s bins in which the
    receiver lost packets (its first receiver per run, after warm-up)."""
    out: dict[str, list[float]] = {}
    flows = d.flows(None, {"label": list(PROTOS)})
    for r in flows.sort_values(["run_id", "flow", "receiver"]).drop_duplicates("run_id").to_dict("records"):
        smp = d.series(r["run_id"], "flow_samples")
        if "dropped_packets" not in smp.columns:
            continue
        smp = smp[(smp["flow"] == r["flow"]) & (smp["receiver"] == r["receiver"])].sort_values("t_ns")
        runs, cur = [], 0
        for lost in (smp["dropped_packets"] > 0).tolist():
            if lost:
                cur += 1
            elif cur:
                runs.append(cur)
                cur = 0
        if cur:
            runs.append(cur)
        if runs:
            out.setdefault(r["label"], []).append(sum(runs) / len(runs))
    return {k: sum(v) / len(v) for k, v in out.items()}


def loss_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    flows = d.flows() if d is not None else None
    if flows is None or flows.empty:
        return "no results"
    g = flows.groupby("label")["drop_rate"].mean()
    measured.update({f"loss ratio[{k}]": round(float(v), 5) for k, v in g.items()})
    ep = loss_episodes(d)
    measured.update({f"mean loss episode (s)[{k}]": round(v, 2) for k, v in ep.items()})
    a, t = ep.get("asmp", math.nan), ep.get("tfmcc", math.nan)
    step = step_response(d) if d.figure.id in ON_OFF_FIGURES else None
    text = (
        f"ASMP loses {float(g.get('asmp', math.nan)):.4f} of its packets against TFMCC's "
        f"{float(g.get('tfmcc', math.nan)):.4f}; "
        f"its loss episodes last {a:.1f} s against TFMCC's {t:.1f} s"
    )
    if step:
        measured.update(
            {
                "ASMP sender rate just before the first on-step (bit/s)": round(step[0], 0),
                "ASMP sender's highest rate in the 5 s after it (bit/s)": round(step[1], 0),
                "ASMP report spacing over the run (s, median)": round(step[2], 2),
            }
        )
        text += (
            f"; ASMP's sender was at {step[0] / 1e3:.0f} kbit/s just before the background's first on-step and reached "
            f"{step[1] / 1e3:.0f} kbit/s within 5 s of it (its rate changes {step[2]:.1f} s apart)"
        )
    return text


def step_response(d: FigureData, t_on_s: float = 20.0) -> tuple[float, float, float] | None:
    """ASMP's sender rate (``events``) just before the background's first on-step, its highest
    value in the 5 s after, and the median spacing of its rate changes, averaged over sessions."""
    import pandas as pd

    out = []
    for (run_id, flow), _ in d.flows(None, {"label": "asmp"}).groupby(["run_id", "flow"], sort=True):
        ev = d.series(run_id, "events")
        if ev is None or ev.empty or "kind" not in ev.columns:
            continue
        ev = ev[(ev["flow"] == flow) & (ev["side"] == "sender") & (ev["kind"] == "rate")].sort_values("t_ns")
        t = ev["t_ns"] / 1e9
        before, after = ev[t <= t_on_s]["value"], ev[(t > t_on_s) & (t <= t_on_s + 5)]["value"]
        if before.empty or len(ev) < 2:
            continue
        top = float(after.max()) if not after.empty else float(before.iloc[-1])
        out.append((float(before.iloc[-1]), top, float(pd.Series(t).diff().median())))
    if not out:
        return None
    return tuple(sum(x[i] for x in out) / len(out) for i in range(3))
