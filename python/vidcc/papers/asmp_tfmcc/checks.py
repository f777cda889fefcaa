"""Measures and checks of the ASMP/TFMCC suite (claims table of specs/002-asmp-tfmcc.md §5).

Every multicast receiver is a row of ``run_flows`` (label = the protocol); the video "throughput"
of a run is the mean over its receivers (all of them sit behind the same bottlenecks [§3: results
for one receiver]). Time-series measures (start-up overshoot, time to peak, reaction to the
background steps) read each receiver's 1 s ``flow_samples``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from vidcc.papers.measures import FigureData
from vidcc.papers.model import Verdict
from vidcc.papers.verdicts import all_of, bound, direction, no_data, ordering

if TYPE_CHECKING:
    import pandas as pd

PROTOS = ("asmp", "tfmcc")
PACKET_BYTES = 1018  # P [P §1.1]
RTCP_MEAN_INTERVAL_S = 4.1  # RFC 3550 with two members and T_min = 5 s (digest §1.3)


def _summ(df: pd.DataFrame, metric: str, by: str | None = None) -> pd.DataFrame:
    from vidcc.analysis import summarize

    return summarize(df, metric, by=by, group="label")


def by_label(d: FigureData, metric: str, by: str | None = None, part=None, labels=PROTOS, within_run: str = "mean") -> pd.DataFrame:
    return d.summary(metric, by=by, part=part, where={"label": list(labels)}, within_run=within_run)


def c_order(metric: str, hi: str, lo: str, name: str, by: str | None = None, at=None):
    return lambda d: ordering(by_label(d, metric, by=by), hi, lo, by=by, name=name, at=at)


# ---- fairness against TCP (AMB-19 [C]: per bottleneck, the video vs the TCP flow crossing it, averaged)


def jain2(a: float, b: float) -> float:
    return (a + b) ** 2 / (2 * (a * a + b * b)) if a > 0 or b > 0 else math.nan


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
        rows.append({"run_id": run_id, "label": video["label"].iloc[0], **{k: first[k] for k in keep},
                     "video": v, "tcp": sum(t) / len(t), "jain": sum(jain2(v, x) for x in t) / len(t),
                     "share": v / (sum(t) / len(t)) if sum(t) > 0 else math.inf})
    return pd.DataFrame(rows)


def c3(d: FigureData) -> Verdict:
    j = tcp_fairness(d)
    if j.empty:
        return no_data("Jain (video vs TCP)")
    s = _summ(j, "jain")
    return all_of(ordering(s, "tfmcc", "asmp", name="Jain (video vs TCP)"),
                  bound(s, ">=", 0.9, name="Jain (video vs TCP)"))


def c14(d: FigureData) -> Verdict:
    j = tcp_fairness(d)
    if j.empty:
        return no_data("Jain (video vs TCP)")
    low = sorted(r for r in j["rtt_ms"].unique() if r < 160)
    return ordering(_summ(j, "jain", by="rtt_ms"), "tfmcc", "asmp", by="rtt_ms", at=low, name="Jain (video vs TCP)")


def c15(d: FigureData) -> Verdict:
    j = tcp_fairness(d)
    j = j[j["label"] == "tfmcc"] if not j.empty else j
    if j.empty:
        return no_data("TFMCC share of TCP")
    s = _summ(j, "share", by="rtt_ms")
    high = s[s["rtt_ms"] > 200]
    above = bound(high, ">", 1.0, name="TFMCC / TCP throughput (RTT > 200 ms)") if not high.empty else no_data("RTT > 200 ms")
    return all_of(above, direction(s, "rtt_ms", increasing=True, name="TFMCC / TCP throughput"))


def c16(d: FigureData) -> Verdict:
    j = tcp_fairness(d)
    j = j[j["label"] == "asmp"] if not j.empty else j
    if j.empty:
        return no_data("ASMP share of TCP")
    return bound(_summ(j, "share", by="rtt_ms"), "<=", 1.0, name="ASMP / TCP throughput")


def c4(d: FigureData) -> Verdict:
    s = d.summary("throughput_bps", part="asmp", where={"label": ["asmp", "tcp"]})
    return ordering(s, "tcp", "asmp", name="throughput (ASMP receivers vs TCP flows)")


# ---- one-way delay (C13, C35): delay_ns is the mean one-way delay of a receiver's packets


def delays(d: FigureData, parts=None) -> pd.DataFrame:
    """Per receiver row: ``mean_delay_ms`` (after warm-up), ``max_delay_ms`` (the highest 1 s bin
    mean over the run) and ``queueing_ms`` = mean − the lowest bin mean (the relative one-way
    delay the cumulative jitter of eqs. 8–9 tracks)."""
    import pandas as pd

    flows = d.flows(parts, {"label": list(PROTOS)})
    rows = []
    for r in flows.to_dict("records"):
        smp = d.series(r["run_id"], "flow_samples")
        smp = smp[(smp["flow"] == r["flow"]) & (smp["receiver"] == r.get("receiver", 0))]["delay_ns"].dropna()
        if smp.empty:
            continue
        rows.append({**r, "mean_delay_ms": float(r["mean_delay_ns"]) / 1e6, "max_delay_ms": float(smp.max()) / 1e6,
                     "queueing_ms": (float(r["mean_delay_ns"]) - float(smp.min())) / 1e6})
    return pd.DataFrame(rows)


def c13(d: FigureData) -> Verdict:
    df = delays(d, list(PROTOS))  # the runs without deadline (the deadline parts are the same runs)
    if df.empty:
        return no_data("one-way delay")
    mx = _summ(df, "max_delay_ms")
    return all_of(bound(mx[mx["label"] == "tfmcc"], ">", 150.0, name="TFMCC highest 1 s mean one-way delay (ms)"),
                  bound(mx[mx["label"] == "asmp"], "<", 150.0, name="ASMP highest 1 s mean one-way delay (ms)"),
                  bound(_summ(df[df["label"] == "asmp"], "mean_delay_ms"), "<", 50.0, name="ASMP mean one-way delay (ms)"))


def c35(d: FigureData) -> Verdict:
    s3 = delays(d, list(PROTOS))
    s1 = delays(d.other("fig3-6"))
    if s3.empty or s1.empty:
        return no_data("one-way delay")
    return all_of(ordering(_summ(s3, "queueing_ms"), "tfmcc", "asmp", name="S3 queueing delay (ms)"),
                  ordering(_summ(s1, "queueing_ms"), "tfmcc", "asmp", name="S1 queueing delay (ms)"),
                  ordering(_summ(s3, "jitter_ns"), "tfmcc", "asmp", name="S3 jitter (ns)"),
                  ordering(_summ(s1, "jitter_ns"), "tfmcc", "asmp", name="S1 jitter (ns)"))


# ---- same-protocol pairs (S5)


def pair_jain(d: FigureData) -> pd.DataFrame:
    import pandas as pd

    flows = d.flows(None, {"label": list(PROTOS)})
    rows = []
    for run_id, f in flows.groupby("run_id", sort=True):
        x = f.groupby("flow")["throughput_bps"].mean().tolist()
        if len(x) == 2:
            rows.append({"run_id": run_id, "seed": f["seed"].iloc[0], "label": f["label"].iloc[0], "jain": jain2(*x)})
    return pd.DataFrame(rows)


def c23(d: FigureData) -> Verdict:
    j = pair_jain(d)
    return bound(_summ(j, "jain"), ">=", 0.99, name="Jain of the two sessions") if not j.empty else no_data("Jain of the pair")


def c24(d: FigureData) -> Verdict:
    return all_of(ordering(by_label(d, "throughput_bps", within_run="sum"), "tfmcc", "asmp", name="pair throughput"),
                  ordering(by_label(d, "drop_rate"), "tfmcc", "asmp", name="loss ratio"))


# ---- rate traces (S6, S7): 1 s bins of each receiver


def traces(d: FigureData) -> dict[str, list[tuple[str, Any, pd.DataFrame]]]:
    """label -> [(run_id, seed, samples of its first receiver: t_s, rate_bps)]."""
    out: dict[str, list] = {}
    flows = d.flows(None, {"label": list(PROTOS)})
    for r in flows.sort_values(["run_id", "flow", "receiver"]).drop_duplicates("run_id").to_dict("records"):
        smp = d.series(r["run_id"], "flow_samples")
        smp = smp[(smp["flow"] == r["flow"]) & (smp["receiver"] == r["receiver"])].sort_values("t_ns")
        smp = smp.assign(t_s=smp["t_ns"] / 1e9, rate_bps=smp["throughput_bps"])[["t_s", "rate_bps"]]
        out.setdefault(r["label"], []).append((r["run_id"], r["seed"], smp))
    return out


def startup(samples: pd.DataFrame, until_s: float = 20.0) -> dict[str, float]:
    """Before the first background step: the first-10-s mean, the peak 1 s bin, the time the
    rate first reaches 90 % of that peak, and the overshoot = peak / mean of [until-5, until)."""
    a = samples[samples["t_s"] <= until_s]
    if a.empty:
        return {}
    peak = float(a["rate_bps"].max())
    t_peak = float(a[a["rate_bps"] >= 0.9 * peak]["t_s"].iloc[0])
    settled = a[a["t_s"] > until_s - 5]["rate_bps"].mean()
    early = a[a["t_s"] <= 10]["rate_bps"].mean()
    return {"early_bps": float(early), "peak_bps": peak, "t_peak_s": t_peak,
            "overshoot": peak / float(settled) if settled > 0 else math.inf}


def reaction(samples: pd.DataFrame, period_s: float = 20.0) -> float:
    """Mean over the background's on steps (at 20, 60, ... s) of the time until the rate first
    falls below 90 % of its mean over the 5 s before the step (the period when it never does)."""
    times = []
    t_on = period_s
    end = float(samples["t_s"].max()) if not samples.empty else 0.0
    while t_on + period_s <= end + 1e-9:
        before = samples[(samples["t_s"] > t_on - 5) & (samples["t_s"] <= t_on)]["rate_bps"].mean()
        after = samples[(samples["t_s"] > t_on) & (samples["t_s"] <= t_on + period_s)]
        low = after[after["rate_bps"] < 0.9 * before]
        times.append(float(low["t_s"].iloc[0] - t_on) if len(low) else period_s)
        t_on += 2 * period_s
    return sum(times) / len(times) if times else math.nan


def trace_table(d: FigureData) -> pd.DataFrame:
    import pandas as pd

    rows = []
    for label, runs in traces(d).items():
        for run_id, seed, smp in runs:
            rows.append({"run_id": run_id, "seed": seed, "label": label, **startup(smp), "reaction_s": reaction(smp)})
    return pd.DataFrame(rows)


def c27(d: FigureData) -> Verdict:
    t = trace_table(d)
    if t.empty:
        return no_data("rate traces")
    return all_of(ordering(by_label(d, "throughput_bps"), "tfmcc", "asmp", name="mean throughput"),
                  ordering(_summ(t, "reaction_s"), "asmp", "tfmcc", name="time to react to the UDP start (s)"),
                  ordering(_summ(t, "early_bps"), "tfmcc", "asmp", name="mean rate in the first 10 s"),
                  bound(_summ(t[t["label"] == "tfmcc"], "overshoot"), ">", 1.1, name="TFMCC start-up peak / settled rate"))


def c28(d: FigureData) -> Verdict:
    """No overshoot; the loss-free ramp ≈ 0.9·P/RTT per report (within a factor of 2: the
    literal congestion indicator mixes 0.9 and 0.2 steps, docs/protocols/asmp.md); time to
    peak ASMP > TFMCC."""
    t = trace_table(d)
    if t.empty or "asmp" not in set(t["label"]):
        return no_data("rate traces")
    rtt_s = float(d.flows(None, {"label": "asmp"})["path_rtt_ns"].mean()) / 1e9 if "path_rtt_ns" in d.flows().columns else math.nan
    step = 0.9 * PACKET_BYTES * 8 / rtt_s  # bit/s added per UNLOADED report
    a = t[t["label"] == "asmp"].copy()
    a["ramp_per_report"] = [(p * 0.9 - 100_000) / max(tp, 1e-9) * RTCP_MEAN_INTERVAL_S
                            for p, tp in zip(a["peak_bps"], a["t_peak_s"])]
    ramp = _summ(a, "ramp_per_report")
    v = all_of(bound(_summ(a, "overshoot"), "<=", 1.1, name="ASMP start-up peak / settled rate"),
               bound(ramp, ">=", step / 2, name="ASMP ramp per report (bit/s)"),
               bound(ramp, "<=", step * 2, name="ASMP ramp per report (bit/s)"),
               ordering(_summ(t, "t_peak_s"), "asmp", "tfmcc", name="time to peak (s)"))
    v.measured["0.9·P/RTT (bit/s)"] = round(step, 1)
    return v


# ---- causes of the FAILs: each computed from the figure's results when the check fails


def asmp_climb(d: FigureData, parts=None) -> tuple[float, float]:
    """ASMP's loss-free climb: the least-squares slope of its receivers' 1 s throughput bins
    after warm-up, in bit/s per mean RTCP interval (4.1 s) and as a multiple of P/RTT (the path
    RTT): 0.9 means UNLOADED steps every report, 0.2 CONGESTED ones."""
    flows = d.flows(parts, {"label": "asmp"})
    slopes, units = [], []
    for r in flows.to_dict("records"):
        smp = d.series(r["run_id"], "flow_samples")
        smp = smp[(smp["flow"] == r["flow"]) & (smp["receiver"] == r["receiver"]) & (smp["t_ns"] >= r["start_ns"])]
        if len(smp) < 3:
            continue
        xs = (smp["t_ns"] / 1e9).tolist()
        ys = smp["throughput_bps"].tolist()
        mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
        sxx = sum((x - mx) ** 2 for x in xs)
        slopes.append(sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx * RTCP_MEAN_INTERVAL_S)
        units.append(PACKET_BYTES * 8 / (float(r["path_rtt_ns"]) / 1e9))
    if not slopes:
        return math.nan, math.nan
    per_report = sum(slopes) / len(slopes)
    return per_report, per_report / (sum(units) / len(units))


def indicator_cause(d: FigureData | None, measured: dict[str, Any], parts=None) -> str:
    if d is None:
        return "no results"
    per_report, in_steps = asmp_climb(d, parts)
    measured["ASMP climb per RTCP report (bit/s)"] = round(per_report, 1)
    measured["ASMP climb per report / (P/RTT)"] = round(in_steps, 3)
    try:
        _, idle = asmp_climb(d.other("fig10-12"), ["asmp"])
    except KeyError:
        idle = math.nan
    measured["ASMP climb per report / (P/RTT), alone in S3"] = round(idle, 3)
    return (f"ASMP's throughput climbs {per_report / 1e3:.1f} kbit/s per RTCP report = {in_steps:.2f}·P/RTT here and "
            f"{idle:.2f}·P/RTT alone on the S3 dumbbell (0.9 = an UNLOADED step every report, 0.2 = a CONGESTED one; "
            f"the video's own rate caps what it sends): ASMP stays below TFMCC's rate for that long")


def c15_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    flows = d.flows(None, {"label": ["tfmcc", "tcp"]}) if d is not None else None
    if flows is None or flows.empty:
        return "no results"
    flows = flows[flows["part"].str.startswith("tfmcc")]
    g = flows.groupby("label")[["drop_rate", "path_rtt_ns"]].mean()
    loss_v, loss_t = float(g.loc["tfmcc", "drop_rate"]), float(g.loc["tcp", "drop_rate"])
    rtt_v, rtt_t = float(g.loc["tfmcc", "path_rtt_ns"]) / 1e6, float(g.loc["tcp", "path_rtt_ns"]) / 1e6
    measured.update({"TFMCC loss ratio (all RTTs)": round(loss_v, 5), "TCP loss ratio (all RTTs)": round(loss_t, 5),
                     "TFMCC path RTT (ms, mean)": round(rtt_v, 1), "TCP path RTT (ms, mean)": round(rtt_t, 1)})
    return (f"TFMCC crosses both bottlenecks and each TCP flow one: TFMCC sees loss {loss_v:.4f} against TCP's {loss_t:.4f} "
            f"and a {rtt_v:.0f} ms path RTT against TCP's {rtt_t:.0f} ms (means over the RTT points), so the TCP equation "
            f"gives it less than the TCP flows at every RTT")


def c27_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    t = trace_table(d) if d is not None else None
    if t is None or t.empty:
        return "no results"
    tf = t[t["label"] == "tfmcc"]
    peak, over = float(tf["peak_bps"].mean()), float(tf["overshoot"].mean())
    measured["TFMCC start-up peak (bit/s)"] = round(peak, 0)
    return (f"TFMCC's slow start ends at the link rate and holds it: its 1 s peak before the UDP step is "
            f"{peak / 1e6:.2f} Mbit/s, only {over:.2f}× its rate just before the step: the video it carries stops at its "
            f"q = 2 rate, so there is little above the settled rate to overshoot to")


def c31_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    t = traces(d) if d is not None else {}
    halves = []
    for _, _, smp in t.get("asmp", []):
        mid = float(smp["t_s"].max()) / 2
        first, second = smp[smp["t_s"] <= mid]["rate_bps"].mean(), smp[smp["t_s"] > mid]["rate_bps"].mean()
        halves.append((float(first), float(second)))
    if not halves:
        return "no results"
    first = sum(h[0] for h in halves) / len(halves)
    second = sum(h[1] for h in halves) / len(halves)
    measured.update({"ASMP mean rate, first half (bit/s)": round(first, 0), "ASMP mean rate, second half (bit/s)": round(second, 0)})
    return (f"ASMP's rate is still climbing from its start (the video's lowest rate) through the run (mean {first / 1e3:.0f} kbit/s in the "
            f"first half, {second / 1e3:.0f} in the second), so its CoV measures the ramp, not oscillation")


def c35_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    s1 = delays(d.other("fig3-6")) if d is not None else None
    if s1 is None or s1.empty:
        return "no results"
    g = s1.groupby("label")[["mean_delay_ms", "queueing_ms", "jitter_ns"]].mean()
    measured.update({f"S1 mean one-way delay (ms)[{k}]": round(float(v), 1) for k, v in g["mean_delay_ms"].items()})

    def both(col: str, scale: float = 1.0) -> str:
        return f"ASMP {g.loc['asmp', col] * scale:.1f} ms, TFMCC {g.loc['tfmcc', col] * scale:.1f} ms"

    if not {"asmp", "tfmcc"} <= set(g.index):
        return "no results for both protocols in S1"
    names = {"mean_delay_ms": "mean one-way delay", "queueing_ms": "queueing delay", "jitter_ns": "interarrival jitter"}
    higher = [n for col, n in names.items() if not g.loc["asmp", col] < g.loc["tfmcc", col]]
    return (f"in S1 the video shares both bottlenecks with the TCP flows: mean one-way delay {both('mean_delay_ms')}, "
            f"queueing delay (mean − lowest 1 s bin) {both('queueing_ms')}, interarrival jitter {both('jitter_ns', 1e-6)}: "
            f"ASMP is not the lower in {', '.join(higher) or 'none of them'} (not traced further; in S3, alone, ASMP's "
            f"queueing delay is ≈ 0 against TFMCC's)")


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
    return (f"ASMP loses {float(g.get('asmp', math.nan)):.4f} of its packets against TFMCC's {float(g.get('tfmcc', math.nan)):.4f}: "
            f"its loss episodes last {a:.1f} s against TFMCC's {t:.1f} s: ASMP can lower its rate only at its RTCP "
            f"reports (≈ 4.1 s apart), TFMCC's CLR reports every RTT")


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


def c24_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    """C24 has two parts: the pair's throughput and its loss; state the one that failed."""
    thr = by_label(d, "throughput_bps", within_run="sum") if d is not None else None
    if thr is None or thr.empty:
        return "no results"
    m = dict(zip(thr["label"], thr["mean"]))
    if m.get("tfmcc", 0) > m.get("asmp", 0):
        return loss_cause(d, measured)
    return pair_cause(d, measured)
