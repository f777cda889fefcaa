"""Rate-dynamics checks of the ASMP/TFMCC suite (S6, S7, and S4's CoV): start-up, reaction to the
background's on-steps, ASMP's ramp read from its sender's rate events, and the CoV cause.

Time measures (suite): start-up = before the first background step at 20 s; overshoot = peak
1 s bin / mean of [15, 20) s; time to peak = first bin at ≥ 90 % of that peak; reaction = time
after each on-step until the rate falls below 90 % of its mean over the 5 s before (the
period when it never does).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from vidcc.papers.asmp_tfmcc.common import PACKET_BYTES, PROTOS, by_label, measured_rtt_s, per_label, scoring_key
from vidcc.papers.measures import FigureData, warmup_ns
from vidcc.papers.model import Verdict
from vidcc.papers.verdicts import all_of, bound, no_data, ordering

if TYPE_CHECKING:
    import pandas as pd

ON_OFF_FIGURES = ("fig24-25", "fig26-28")  # S6, S7: the background switches on at 20 s


BACKGROUND_PERIOD_S = 20.0  # S6/S7's background: on for 20 s, off for 20 s (suite, §6.8's square wave)


GAMMA_UNLOADED, GAMMA_CONGESTED = 0.9, 0.2  # ASMP's smoothness factor γ per state (docs/protocols/asmp.md)


REACTION_SHARE = 0.9  # a reaction: the rate falls below this share of its rate before the step (suite)


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
    return {
        "early_bps": float(early),
        "peak_bps": peak,
        "t_peak_s": t_peak,
        "overshoot": peak / float(settled) if settled > 0 else math.inf,
    }


def reaction(samples: pd.DataFrame, period_s: float = BACKGROUND_PERIOD_S) -> float:
    """Mean over the background's on steps (at 20, 60, ... s) of the time until the rate first
    falls below 90 % of its mean over the 5 s before the step (the period when it never does)."""
    times = []
    t_on = period_s
    end = float(samples["t_s"].max()) if not samples.empty else 0.0
    while t_on + period_s <= end + 1e-9:
        before = samples[(samples["t_s"] > t_on - 5) & (samples["t_s"] <= t_on)]["rate_bps"].mean()
        after = samples[(samples["t_s"] > t_on) & (samples["t_s"] <= t_on + period_s)]
        low = after[after["rate_bps"] < REACTION_SHARE * before]
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


def tfmcc_faster_with_startup_overshoot(d: FigureData) -> Verdict:
    t = trace_table(d)
    if t.empty:
        return no_data("rate traces")
    return all_of(
        ordering(by_label(d, "throughput_bps"), "tfmcc", "asmp", name="mean throughput"),
        ordering(per_label(t, "reaction_s"), "asmp", "tfmcc", name="time to react to the UDP start (s)"),
        ordering(per_label(t, "early_bps"), "tfmcc", "asmp", name="mean rate in the first 10 s"),
        bound(per_label(t[t["label"] == "tfmcc"], "overshoot"), ">", 1.1, name="TFMCC start-up peak / settled rate"),
    )


def asmp_ramp(d: FigureData, parts=None) -> pd.DataFrame:
    """Per ASMP session (run, flow): its sender's rate as the run recorded it (``events``, side
    sender, kind rate: one event per report that changed it). The ramp runs from the first event
    to the first time the rate reaches its highest value of the run (``top_bps`` at ``t_top_s``).
    ``step_bps``: the median rise per report over the ramp; ``report_s``: the median spacing of
    the ramp's events (the report interval the run had); ``rtt_s``: :func:`measured_rtt_s` of
    the session's receivers; ``step_units`` = step / (P/RTT); ``overshoot`` = the top / the
    sender's time-weighted mean rate after the ramp (NaN when the run ends on the ramp)."""
    import pandas as pd

    flows = d.flows(parts, {"label": "asmp"})
    rows = []
    for (run_id, flow), f in flows.groupby(["run_id", "flow"], sort=True):
        ev = d.series(run_id, "events")
        if ev is None or ev.empty or "kind" not in ev.columns:
            continue
        ev = ev[(ev["flow"] == flow) & (ev["side"] == "sender") & (ev["kind"] == "rate")].sort_values("t_ns")
        if len(ev) < 2:
            continue
        t, r = (ev["t_ns"] / 1e9).tolist(), ev["value"].astype(float).tolist()
        top = max(r)
        k = r.index(top)
        rises = [b - a for a, b in zip(r[:k], r[1 : k + 1]) if b > a]
        gaps = [b - a for a, b in zip(t[:k], t[1 : k + 1])]
        smp = d.series(run_id, "flow_samples")
        end = float(smp[smp["flow"] == flow]["t_ns"].max()) / 1e9 if smp is not None and not smp.empty else t[-1]
        after = [(max(t0, t[k]), min(t1, end), x) for t0, t1, x in zip(t, t[1:] + [end], r) if t1 > t[k] and t0 < end]
        span = sum(b - a for a, b, _ in after)
        rtt = measured_rtt_s(f)
        step = float(pd.Series(rises).median()) if rises else math.nan
        rows.append(
            {
                "run_id": run_id,
                "seed": f["seed"].iloc[0],
                "label": "asmp",
                "flow": flow,
                "top_bps": top,
                "t_top_s": t[k],
                "step_bps": step,
                "steps": len(rises),
                "report_s": float(pd.Series(gaps).median()) if gaps else math.nan,
                "rtt_s": rtt,
                "step_units": step / (PACKET_BYTES * 8 / rtt) if rtt > 0 else math.nan,
                "overshoot": top / (sum((b - a) * x for a, b, x in after) / span) if span > 0 else math.nan,
            }
        )
    return pd.DataFrame(rows)


def asmp_gradual_start(d: FigureData) -> Verdict:
    """§6.8: ASMP "does not employ any slow start mechanism and increases its transmission rate
    gradually by almost 0.9 packets per RTT. It takes longer for ASMP to reach its highest
    transmission rate than TFMCC". Read from the sender's own rate (:func:`asmp_ramp`): its
    median rise per report is 0.9·P/RTT within a factor of 2 (the literal congestion indicator
    mixes 0.9 and 0.2 steps, docs/protocols/asmp.md), P/RTT with the RTT the run measured; after
    the ramp it does not fall back from its top (top ≤ 1.1 × its mean rate afterwards: no
    overshoot); and its time to peak is longer than TFMCC's."""
    t = trace_table(d)
    a = asmp_ramp(d)
    if t.empty or a.empty:
        return no_data("ASMP's sender rate and the rate traces")
    after = a.dropna(subset=["overshoot"])
    v = all_of(
        bound(per_label(a, "step_units"), ">=", 0.45, name="ASMP median rise per report / (P/RTT)"),
        bound(per_label(a, "step_units"), "<=", 1.8, name="ASMP median rise per report / (P/RTT)"),
        bound(per_label(after, "overshoot"), "<=", 1.1, name="ASMP top rate / its mean rate after the ramp")
        if not after.empty
        else no_data("ASMP's rate after its ramp (the run ends on the ramp)"),
        ordering(per_label(t, "t_peak_s"), "asmp", "tfmcc", name="time to peak (s)"),
    )
    for col, name, digits in (
        ("step_bps", "ASMP median rise per report (bit/s)", 0),
        ("rtt_s", "ASMP measured RTT (s)", 4),
        ("report_s", "ASMP report interval on its ramp (s)", 2),
        ("top_bps", "ASMP top rate (bit/s)", 0),
        ("t_top_s", "time ASMP first reaches its top rate (s)", 1),
    ):
        v.measured[name] = round(float(a[col].mean()), digits)
    return v


def indicator_cause(d: FigureData | None, measured: dict[str, Any], parts=None) -> str:
    """How ASMP's sender climbed in this figure, from its own rate events (:func:`asmp_ramp`):
    the median rise per report against P/RTT at the RTT the run measured (0.9 = an UNLOADED step
    every report, 0.2 = a CONGESTED one) and the report spacing."""
    a = asmp_ramp(d, parts) if d is not None else None
    if a is None or a.empty:
        return "no ASMP rate events in the run"
    step, units = float(a["step_bps"].mean()), float(a["step_units"].mean())
    rtt, gap, top = float(a["rtt_s"].mean()), float(a["report_s"].mean()), float(a["top_bps"].mean())
    t_top = float(a["t_top_s"].mean())
    measured.update(
        {
            "ASMP median rise per report (bit/s)": round(step, 0),
            "ASMP median rise per report / (P/RTT)": round(units, 3),
            "ASMP measured RTT (s)": round(rtt, 4),
            "ASMP report interval on its ramp (s)": round(gap, 2),
            "ASMP top rate (bit/s)": round(top, 0),
            "time ASMP first reaches its top rate (s)": round(t_top, 1),
            "γ of an UNLOADED, a CONGESTED report (ASMP's rule)": f"{GAMMA_UNLOADED}, {GAMMA_CONGESTED}",
        }
    )
    return (
        f"ASMP's sender rises by a median {step / 1e3:.1f} kbit/s per report = {units:.2f}·P/RTT at the "
        f"{rtt * 1e3:.0f} ms RTT the run measured ({GAMMA_UNLOADED} = an UNLOADED step every report, "
        f"{GAMMA_CONGESTED} = a "
        f"CONGESTED one), "
        f"with reports {gap:.1f} s apart, and first reaches its top rate, {top / 1e3:.0f} kbit/s, at {t_top:.0f} s"
    )


def reaction_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    """C27's parts as measured: the time each protocol took to react to the background's on-steps
    (:func:`reaction`; the step's length means it never fell below 90 % of its rate before the
    step) and how the one-way delay moved during the on-periods (whether the step congested the
    link at all), with TFMCC's start-up peak against its rate before the first step."""
    t = trace_table(d) if d is not None else None
    if t is None or t.empty:
        return "no results"
    react = t.groupby("label")["reaction_s"].mean()
    measured.update(
        {f"time to react to the background's on-steps (s)[{k}]": round(float(v), 1) for k, v in react.items()}
    )
    delay = on_off_delay(d)
    for lab, (off, on) in delay.items():
        measured[f"mean one-way delay, background off (ms)[{lab}]"] = round(off, 1)
        measured[f"mean one-way delay, background on (ms)[{lab}]"] = round(on, 1)
    tf = t[t["label"] == "tfmcc"]
    peak, over = float(tf["peak_bps"].mean()), float(tf["overshoot"].mean())
    measured["TFMCC start-up peak (bit/s)"] = round(peak, 0)
    measured["TFMCC start-up peak / settled rate"] = round(over, 3)
    measured["reaction threshold (share of the rate before the step)"] = REACTION_SHARE
    measured["background on/off period (s)"] = BACKGROUND_PERIOD_S
    parts = ", ".join(f"{lab.upper()} {float(react[lab]):.1f} s" for lab in PROTOS if lab in react.index)
    delays_txt = "; ".join(
        f"{lab.upper()} {off:.1f} ms with the background off, {on:.1f} ms with it on"
        for lab, (off, on) in delay.items()
    )
    return (
        f"time to fall below {REACTION_SHARE:.0%} of the rate before an on-step: {parts} ({BACKGROUND_PERIOD_S:.0f} s: "
        f"never); mean one-way delay: {delays_txt or 'not sampled'}; "
        f"TFMCC's start-up peak is {peak / 1e6:.2f} Mbit/s, {over:.2f}× its rate just before the first step"
    )


def on_off_delay(d: FigureData, period_s: float = BACKGROUND_PERIOD_S) -> dict[str, tuple[float, float]]:
    """label -> (mean 1 s one-way delay with the background off, with it on) of its first
    receiver per run, after the first step: the background is on in [20, 40), [60, 80), ... s."""
    out: dict[str, list[tuple[float, float]]] = {}
    flows = d.flows(None, {"label": list(PROTOS)})
    for r in flows.sort_values(["run_id", "flow", "receiver"]).drop_duplicates("run_id").to_dict("records"):
        smp = d.series(r["run_id"], "flow_samples")
        smp = smp[(smp["flow"] == r["flow"]) & (smp["receiver"] == r["receiver"])].dropna(subset=["delay_ns"])
        t = smp["t_ns"] / 1e9
        smp = smp[t > period_s]
        on = ((smp["t_ns"] / 1e9 - 1e-9) // period_s) % 2 == 1
        if on.any() and (~on).any():
            out.setdefault(r["label"], []).append(
                (float(smp[~on]["delay_ns"].mean()) / 1e6, float(smp[on]["delay_ns"].mean()) / 1e6)
            )
    return {k: (sum(a for a, _ in v) / len(v), sum(b for _, b in v) / len(v)) for k, v in out.items()}


def on_step_headroom(d: FigureData | None, measured: dict[str, Any]) -> str:
    """What the background's on-step leaves the video, from the run: the bottleneck's capacity and
    the background's on-rate as the scenario sets them (§6.8's 4 Mb/s and 2 Mb/s) against each
    video's mean receiving rate during the on-periods. When the video plus the background stays
    below the capacity, the on-step takes nothing the video uses: there is nothing to react to."""
    from vidcc import _vidcc

    if d is None:
        return "no results"
    doc = d.figure.parts[0].scenario("quick")
    links = {f"{x['a']}-{x['b']}": x for x in doc["topology"]["links"]}
    capacity = float(_vidcc.parse_rate(links["L-R"]["bandwidth"]))
    background = [f for f in doc["flows"] if f.get("label") == "udp"]
    if not background:
        return "no UDP background in this figure"
    cbr = float(_vidcc.parse_rate(background[0]["rate"]))
    rates: dict[str, list[float]] = {}
    for label, runs in traces(d).items():
        for _, _, smp in runs:
            on = ((smp["t_s"] - 1e-9) // BACKGROUND_PERIOD_S) % 2 == 1
            if on.any():
                rates.setdefault(label, []).append(float(smp[on]["rate_bps"].mean()))
    if not rates:
        return "no rate traces"
    mean = {k: sum(v) / len(v) for k, v in rates.items()}
    measured["bottleneck capacity (bit/s)"] = capacity
    measured["UDP CBR rate when on (bit/s)"] = cbr
    measured.update({f"mean receiving rate with the background on (bit/s)[{k}]": round(v, 0) for k, v in mean.items()})
    top = max(mean.values())
    measured["faster video + CBR with the background on (bit/s)"] = round(top + cbr, 0)
    return (f"with the background on, the faster video receives {top / 1e6:.2f} Mbit/s on average; with the CBR's "
            f"{cbr / 1e6:.2f} Mbit/s that is {(top + cbr) / 1e6:.2f} Mbit/s of the {capacity / 1e6:.2f} Mbit/s "
            f"bottleneck ({'below' if top + cbr < capacity else 'not below'} it)")


def reaction_and_headroom_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    """C27's cause: the reaction times and delays (:func:`reaction_cause`), then what the on-step
    left the video (:func:`on_step_headroom`)."""
    return reaction_cause(d, measured) + "; " + on_step_headroom(d, measured)


def _cov(xs: list[float], ys: list[float], detrend: bool) -> float:
    """CoV of ``ys``, or of its residuals around the least-squares line (plus the mean) with ``detrend``."""
    n = len(ys)
    if n < 3:
        return math.nan
    my = sum(ys) / n
    if detrend:
        mx = sum(xs) / n
        sxx = sum((x - mx) ** 2 for x in xs)
        slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else 0.0
        ys = [y - slope * (x - mx) for x, y in zip(xs, ys)]
    sd = math.sqrt(sum((y - my) ** 2 for y in ys) / n)
    return sd / my if my > 0 else math.nan


COV_OF = ("bins", "around-trend")  # what §6.6's "CoV of the throughput values" is taken over


def cov_of(d: FigureData) -> str:
    """What the figure's CoV claims read (an alternative's ``scoring`` key ``cov_of``): ``"bins"``,
    the suite's, the CoV of the receiver's 1 s rate samples (``flow_summary.cov``); or
    ``"around-trend"``, the CoV of their residuals around the least-squares line, which leaves a
    steady climb out and keeps the oscillations §6.6 says it assesses."""
    return scoring_key(d, "cov_of", "bins", COV_OF)


def _rate_samples(d: FigureData) -> list[tuple[dict[str, Any], list[float], list[float]]]:
    """Per video receiver of the figure (its ``run_flows`` row): the times (s) and rates (bit/s)
    of the samples the check's CoV (``flow_summary.cov``) counts: from one interval after the
    later of its start and the warm-up."""
    flows = d.flows(None, {"label": list(PROTOS)})
    if flows.empty:
        return []
    warm = {r["run_id"]: warmup_ns(r) for r in d.runs().to_dict("records")}
    out = []
    for r in flows.sort_values(["run_id", "flow", "receiver"]).to_dict("records"):
        smp = d.series(r["run_id"], "flow_samples")
        smp = smp[(smp["flow"] == r["flow"]) & (smp["receiver"] == r["receiver"])].sort_values("t_ns")
        if len(smp) < 2:
            continue
        step = float(smp["t_ns"].diff().median())
        since = max(float(r["start_ns"]), float(warm.get(r["run_id"], 0)))
        smp = smp[smp["t_ns"] - since >= step]
        out.append((r, (smp["t_ns"] / 1e9).tolist(), smp["throughput_bps"].astype(float).tolist()))
    return out


def cov_order(by: str | None = None):
    """CoV_ASMP < CoV_TFMCC (at every value of ``by``), over what :func:`cov_of` says."""

    def check(d: FigureData) -> Verdict:
        if cov_of(d) == "bins":
            return ordering(by_label(d, "cov", by=by), "tfmcc", "asmp", by=by, name="CoV")
        import pandas as pd

        rows = [{**r, "cov_around_trend": _cov(xs, ys, True)} for r, xs, ys in _rate_samples(d)]
        df = pd.DataFrame(rows)
        if df.empty:
            return no_data("CoV around the trend")
        return ordering(per_label(df, "cov_around_trend", by), "tfmcc", "asmp", by=by, name="CoV around the trend")

    return check


def cov_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    """Where ASMP's CoV is not below TFMCC's (per RTT where the figure has one): both protocols'
    CoV of the 1 s rate, the CoV around its least-squares trend (what is left once a steady climb
    is taken out) and the mean rate in each half of the run, over the samples the check's CoV
    (``flow_summary.cov``) counts (:func:`_rate_samples`; before 2026-11-27 the cause counted the
    start-up too, where TFMCC's slow start inflates its CoV, and could call ASMP the smoother
    while the check said otherwise)."""
    if d is None:
        return "no results"
    samples = _rate_samples(d)
    if not samples:
        return "no results"
    cell = "rtt_ms" if "rtt_ms" in samples[0][0] else None
    stats: dict[tuple[str, Any], list[tuple[float, float, float, float]]] = {}
    for r, xs, ys in samples:
        if len(ys) < 3:
            continue
        mid = (xs[0] + xs[-1]) / 2
        first = [y for x, y in zip(xs, ys) if x <= mid]
        second = [y for x, y in zip(xs, ys) if x > mid]
        stats.setdefault((r["label"], r.get(cell) if cell else "all"), []).append(
            (
                _cov(xs, ys, False),
                _cov(xs, ys, True),
                sum(first) / len(first),
                sum(second) / len(second) if second else math.nan,
            )
        )
    mean = {k: tuple(sum(v[i] for v in vs) / len(vs) for i in range(4)) for k, vs in stats.items()}
    cells = sorted({c for _, c in mean}, key=str)
    judged = 1 if cov_of(d) == "around-trend" else 0  # the CoV the check compared
    bad = [
        c
        for c in cells
        if ("asmp", c) in mean and ("tfmcc", c) in mean and not mean[("asmp", c)][judged] < mean[("tfmcc", c)][judged]
    ]
    if not bad:
        return "ASMP's CoV is below TFMCC's in every cell"
    texts = []
    for c in bad:
        tag = f",{cell}={c}" if cell else ""
        for lab in PROTOS:
            cov, flat, h1, h2 = mean[(lab, c)]
            measured.update(
                {
                    f"CoV of the 1 s bins[{lab}{tag}]": round(cov, 3),
                    f"CoV around the trend[{lab}{tag}]": round(flat, 3),
                    f"mean rate, first half (bit/s)[{lab}{tag}]": round(h1, 0),
                    f"mean rate, second half (bit/s)[{lab}{tag}]": round(h2, 0),
                }
            )
        a, t = mean[("asmp", c)], mean[("tfmcc", c)]
        texts.append(
            (f"at {cell} {c}: " if cell else "")
            + f"CoV of the 1 s bins ASMP {a[0]:.2f} against TFMCC {t[0]:.2f}, around the trend "
            f"{a[1]:.2f} against {t[1]:.2f}; ASMP's mean rate {a[2] / 1e3:.0f} then {a[3] / 1e3:.0f} "
            "kbit/s over the two "
            f"halves, TFMCC's {t[2] / 1e3:.0f} then {t[3] / 1e3:.0f}"
        )
    return "; ".join(texts)
