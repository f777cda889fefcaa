"""Checks of SSVP-LA, the receiver-buffered layered adaptation: Fig. 14's layer changes (C19) and
Fig. 15's goodput and video delivery against single-layer SSVP (C20, C21)."""

from __future__ import annotations

import math

from vidcc.papers.measures import warmup_ns
from vidcc.papers.model import FAIL, PASS, Verdict
from vidcc.papers.ssvp.contention import VDI_READ_OFF, goodput, video_summary
from vidcc.papers.ssvp.scenarios import LAYERED
from vidcc.papers.ssvp.traces import events, judged
from vidcc.papers.verdicts import all_of, ordering


def layer_plan(runs_row) -> tuple[list[float], float]:
    """The SSVP-LA flow's cumulative layer rates (bit/s) and the payload share of its packets
    (payload ÷ wire size), from the run's resolved scenario, so that a set-up reading's layers are
    the ones judged; the suite's own layers and 1000 B packets when the run carries none."""
    import json

    from vidcc.protocols.ssvp import HEADER_BYTES

    text = runs_row.get("resolved_json") if hasattr(runs_row, "get") else None
    flows = [f for f in json.loads(text).get("flows", []) if f.get("label") == "ssvp-la"] if text else []
    if not flows:
        return [float(x.removesuffix("kbps")) * 1e3 for x in LAYERED["layers"]], (1000 - HEADER_BYTES) / 1000
    size = float(flows[0]["packet_size_bytes"])
    return [float(x) for x in flows[0]["video"]["layers_bps"]], (size - HEADER_BYTES) / size


def few_layer_changes(d):
    lay = events(d, ["ssvp-la", "immediate"], "layers", "ssvp-la")
    runs = d.runs(["ssvp-la", "immediate"])[["run_id", "part"]]
    lay = lay.merge(runs, on="run_id")
    changes = {p: (g.groupby("run_id").size() - 1).mean() for p, g in lay.groupby("part")}
    top = {p: float(g["value"].max()) for p, g in lay.groupby("part")}
    # Rate rises not immediately followed by an add: an interval between two rate decisions in
    # which the allowed rate (payload share of the wire rate) exceeds the consumption of k+1
    # layers while k < n and no layer is added (docs/papers/ssvp.md C19: "some intervals with R >
    # (k+1)c̄ and no add"). Counted only after start-up — after the flow's first decrease (its first
    # congestion signal) and the warm-up: Fig. 14 shows the adaptation "along with long-term
    # variations in the available bandwidth", not the start-up ramp, where every rise outruns the layer rule.
    rate = events(d, "ssvp-la", "rate", "ssvp-la")
    plans = {r["run_id"]: r for r in d.runs("ssvp-la").to_dict("records")}
    occasions, after_changes, n_layers = 0, [], 0
    for r, g in rate.groupby("run_id"):
        cum, payload = layer_plan(plans.get(r, {}))  # cumulative layer rates, payload share
        n_layers = max(n_layers, len(cum))
        lv = lay[lay["run_id"] == r].sort_values("t_ns")
        g = g.sort_values("t_ns")
        vals = g["value"].to_numpy()
        dec = [i for i in range(1, len(vals)) if vals[i] < vals[i - 1]]
        t0 = max(warmup_ns(plans.get(r, {})), int(g["t_ns"].iloc[dec[0]]) if dec else 2**62)
        after_changes.append(int((lv["t_ns"] > t0).sum()))
        ts = g["t_ns"].tolist()
        for i, (t, v) in enumerate(zip(ts, g["value"])):
            if t < t0:
                continue
            before = lv[lv["t_ns"] <= t]
            k = int(before["value"].iloc[-1]) if not before.empty else 1
            if k < len(cum) and v * payload > cum[k] and i + 1 < len(ts):
                nxt = lv[(lv["t_ns"] > t) & (lv["t_ns"] <= ts[i + 1])]
                if nxt.empty:
                    occasions += 1
    n_layers = n_layers or len(LAYERED["layers"])
    n_b, n_i = changes.get("ssvp-la", math.nan), changes.get("immediate", math.nan)
    measured = {
        "layer changes per run (buffered)": n_b,
        "layer changes per run (immediate)": n_i,
        "highest layer (buffered)": top.get("ssvp-la", math.nan),
        "layers of the video": n_layers,
        "layer changes after start-up per run (buffered)": sum(after_changes) / len(after_changes)
        if after_changes
        else math.nan,
        "intervals with R > C(k+1) and no add after start-up (all seeds)": occasions,
    }
    return judged(
        measured,
        (
            (n_b < n_i, f"{n_b:.1f} layer changes, not fewer than immediate's {n_i:.1f}"),
            (top.get("ssvp-la", 0) >= n_layers, f"layer {n_layers} (the top one) never reached"),
            (occasions > 0, "after start-up no rate rise above C(k+1) went without an add"),
        ),
        f"{n_b:.1f} layer changes per run against {n_i:.1f} with immediate adaptation; layer {n_layers} reached; "
        f"{occasions} rate-decision intervals after start-up with R > C(k+1) and no add",
    )


def layered_goodput_lower(d):
    s = goodput(d, ("ssvp", "ssvp-la"))
    return ordering(s, "ssvp", "ssvp-la", by="m", margin=-1e-9, name="goodput (SSVP ≥ SSVP-LA)")


def layered_vdi_higher(d):
    s = video_summary(d, "vdi", ("ssvp", "ssvp-la"))
    ms = sorted(m for m in s["m"].unique() if m >= 10)
    v = ordering(s, "ssvp-la", "ssvp", by="m", at=ms, margin=-VDI_READ_OFF, name="VDI (SSVP-LA ≥ SSVP − 0.01)")
    if len(ms) < 2:
        return v
    la, ss = s[s["label"] == "ssvp-la"].set_index("m")["mean"], s[s["label"] == "ssvp"].set_index("m")["mean"]
    g0, g1 = la[ms[0]] - ss[ms[0]], la[ms[-1]] - ss[ms[-1]]
    grows = Verdict(
        PASS if g1 > g0 else FAIL,
        {f"VDI gap at m={ms[0]}": g0, f"VDI gap at m={ms[-1]}": g1},
        f"the VDI advantage of SSVP-LA {'grows' if g1 > g0 else 'does not grow'} from M = {ms[0]} to {ms[-1]}",
    )
    return all_of(v, grows)
