"""Video-quality checks of the ASMP/TFMCC suite: PSNR/MOS claims (C5–C12, C20–C22, C25, C26, C30, C33, C34) and the
measured cause of a FAIL. Scores come from :func:`vidcc.papers.asmp_tfmcc.videoset.quality`: one row
per receiver, averaged over a run's receivers, then over seeds (``summarize``).

Readings of the paper's approximate numbers (suite): "≈ 50 % / 30 % of frames MOS ≥ 3" and the
like are tested as the ordering and the majority they describe, and the numbers are reported;
"essentially unchanged" (C12) is a fall below 1 dB; "similar" curves (C9) differ by less than
half the loss effect at each error rate.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from vidcc.papers.asmp_tfmcc.common import PROTOS, per_label
from vidcc.papers.asmp_tfmcc.videoset import drop_from_of, quality
from vidcc.papers.model import FAIL, PASS, Verdict
from vidcc.papers.verdicts import all_of, bound, direction, no_data, ordering

if TYPE_CHECKING:
    import pandas as pd

    from vidcc.papers.measures import FigureData


def scores(d: FigureData, parts=PROTOS) -> pd.DataFrame:
    return quality(d, list(parts) if parts is not None else None)


def of_label(df: pd.DataFrame, label: str) -> pd.DataFrame:
    return df[df["label"] == label] if not df.empty else df


def psnr_order(parts=PROTOS, by: str | None = None):
    """Mean PSNR ASMP > TFMCC (at every value of ``by``)."""

    def check(d: FigureData) -> Verdict:
        q = scores(d, parts)
        if q.empty:
            return no_data("mean PSNR")
        return ordering(per_label(q, "mean_psnr_db", by), "asmp", "tfmcc", by=by, name="mean PSNR (dB)")

    return check


def mos_order(parts=PROTOS, by: str | None = None):
    """ "MOS grading discloses that ASMP outperforms TFMCC": the paper states every MOS result as
    the share of the video graded 'fair' to 'excellent' (§6.2 "almost 50 %", §6.7 "90 %", §6.8
    "approximately 75 %"), so that share (MOS ≥ 3) is what is compared; the mean MOS is reported
    beside it, not judged."""

    def check(d: FigureData) -> Verdict:
        q = scores(d, parts)
        if q.empty:
            return no_data("share of frames MOS ≥ 3")
        v = ordering(per_label(q, "share_mos_ge_3", by), "asmp", "tfmcc", by=by, name="share of frames MOS ≥ 3")
        for r in per_label(q, "mean_mos", by).to_dict("records"):
            cell = f",{by}={r[by]:g}" if by else ""
            v.measured[f"mean MOS (reported, not judged)[{r['label']}{cell}]"] = round(float(r["mean"]), 3)
        return v

    return check


def mos_shares_s1(d: FigureData) -> Verdict:
    q = scores(d)
    if q.empty:
        return no_data("MOS shares")
    return all_of(
        ordering(per_label(q, "share_mos_ge_3"), "asmp", "tfmcc", name="share of frames MOS ≥ 3"),
        bound(per_label(of_label(q, "tfmcc"), "share_mos_le_2"), ">", 0.5, name="TFMCC share of frames MOS 1–2"),
    )


def _lossless(d: FigureData) -> dict[str, float]:
    q = scores(d, [f"{p}-lossless" for p in PROTOS])
    return {} if q.empty else {k: float(v) for k, v in q.groupby("label")["mean_psnr_db"].mean().items()}


def psnr_falls_with_error_rate(d: FigureData) -> Verdict:
    q = scores(d)
    if q.empty:
        return no_data("mean PSNR against the error rate")
    s = per_label(q, "mean_psnr_db", "error_rate")
    return all_of(
        *[
            direction(
                s,
                "error_rate",
                increasing=False,
                name=f"{p.upper()} mean PSNR (dB)",
                group="label",
                of=p,
                how="monotone",
            )
            for p in PROTOS
        ]
    )


def psnr_drop_at_lowest_error_rate(d: FigureData) -> Verdict:
    q = scores(d)
    ref = _lossless(d)
    if q.empty or not ref:
        return no_data("PSNR at 0.05 % errors and without")
    low = q[q["error_rate"] == q["error_rate"].min()]
    # The reading psnr_drop_from = "sent" measures the drop from the same run's video as sent.
    from_sent = [drop_from_of(d, str(p)) == "sent" for p in low["part"]]
    base = [s if f else ref.get(lab, math.nan)
            for f, s, lab in zip(from_sent, low.get("mean_psnr_sent_db", [math.nan] * len(low)), low["label"])]
    drops = low.assign(drop_db=[b - v for b, v in zip(base, low["mean_psnr_db"])], base_db=base)
    below = "the video as sent" if all(from_sent) else "the loss-free run"
    v = bound(
        per_label(drops, "drop_db"), ">=", 5.0,
        name=f"PSNR drop below {below} at error rate {float(low['error_rate'].min()):g} (dB)",
    )
    if all(from_sent):
        v.measured.update({f"mean PSNR of the video as sent (dB)[{k}]": round(float(x), 2)
                           for k, x in drops.groupby("label")["base_db"].mean().items()})
    v.measured.update({f"loss-free mean PSNR (dB)[{k}]": round(x, 2) for k, x in ref.items()})
    return v


def similar_psnr_curves(d: FigureData) -> Verdict:
    q = scores(d)
    ref = _lossless(d)
    if q.empty or not ref:
        return no_data("PSNR against the error rate")
    m = q.groupby(["error_rate", "label"])["mean_psnr_db"].mean().unstack("label")
    measured: dict[str, Any] = {}
    bad = []
    for rate, row in m.iterrows():
        gap = abs(float(row.get("asmp", math.nan)) - float(row.get("tfmcc", math.nan)))
        effect = sum(ref.get(p, math.nan) - float(row.get(p, math.nan)) for p in PROTOS) / len(PROTOS)
        measured[f"|ΔPSNR| (dB)[error_rate={rate:g}]"] = round(gap, 2)
        measured[f"loss effect (dB)[error_rate={rate:g}]"] = round(effect, 2)
        if not gap < effect / 2:
            bad.append((rate, gap, effect))
    if bad:
        rate, gap, effect = bad[0]
        return Verdict(
            FAIL,
            measured,
            f"at error rate {rate:g} ASMP and TFMCC differ by {gap:.2f} dB, not below half the "
            f"loss effect ({effect:.2f} dB)",
        )
    return Verdict(PASS, measured, f"|ΔPSNR| below half the loss effect at all {len(m)} error rates")


def asmp_scenes_above_30db(d: FigureData) -> Verdict:
    q = of_label(scores(d, ["asmp"]), "asmp")
    if q.empty:
        return no_data("ASMP PSNR per scene")
    return all_of(
        bound(per_label(q, "psnr_scene0"), ">", 30.0, name="ASMP mean PSNR, first scene (dB)"),
        bound(per_label(q, "psnr_scene1"), ">", 30.0, name="ASMP mean PSNR, second scene (dB)"),
    )


def scene_falls(q: pd.DataFrame) -> pd.DataFrame:
    """Per row: the easier scene's mean PSNR (``easy_db``) and the fall to the harder one
    (``scene_drop_db``); which scene is easier is decided over all rows (the higher mean)."""
    first_easier = float(q["psnr_scene0"].mean()) >= float(q["psnr_scene1"].mean())
    easy, hard = ("psnr_scene0", "psnr_scene1") if first_easier else ("psnr_scene1", "psnr_scene0")
    return q.assign(easy_db=q[easy], scene_drop_db=q[easy] - q[hard])


def scene_psnr_and_fall(d: FigureData) -> Verdict:
    q = scores(d)
    if q.empty:
        return no_data("PSNR per scene")
    s = scene_falls(q)
    return all_of(
        bound(per_label(of_label(s, "tfmcc"), "easy_db"), ">", 30.0, name="TFMCC mean PSNR, easier scene (dB)"),
        ordering(per_label(s, "scene_drop_db"), "tfmcc", "asmp", name="PSNR fall to the harder scene (dB)"),
        ordering(per_label(q, "mean_psnr_db"), "asmp", "tfmcc", name="mean PSNR (dB)"),
    )


def deadline_falls(d: FigureData) -> pd.DataFrame:
    """Per protocol and seed: mean PSNR without and with the 150 ms deadline and the fall."""
    import pandas as pd

    free, late = scores(d), scores(d, [f"{p}-deadline" for p in PROTOS])
    if free.empty or late.empty:
        return pd.DataFrame()
    a = free.groupby(["label", "seed"])["mean_psnr_db"].mean()
    b = late.groupby(["label", "seed"])["mean_psnr_db"].mean()
    df = pd.DataFrame({"free_db": a, "deadline_db": b}).dropna().reset_index()
    return df.assign(fall_db=df["free_db"] - df["deadline_db"])


def deadline_hurts_tfmcc(d: FigureData) -> Verdict:
    f = deadline_falls(d)
    if f.empty:
        return no_data("PSNR with and without the deadline")
    s = per_label(f, "fall_db")
    return all_of(
        ordering(s, "tfmcc", "asmp", name="PSNR fall with D_pb = 150 ms (dB)"),
        bound(s[s["label"] == "asmp"], "<", 1.0, name="ASMP PSNR fall with D_pb = 150 ms (dB)"),
    )


def lower_throughput_better_video(d: FigureData) -> Verdict:
    """At each RTT: the protocol with the lower throughput has the lower loss and the higher PSNR."""
    q = scores(d, None)
    if q.empty:
        return no_data("throughput, loss and PSNR against the RTT")
    m = q.groupby(["rtt_ms", "label"])[["throughput_bps", "drop_rate", "mean_psnr_db"]].mean()
    measured: dict[str, Any] = {}
    bad = []
    for rtt in sorted(q["rtt_ms"].unique()):
        try:
            rows = {p: m.loc[(rtt, p)] for p in PROTOS}
        except KeyError:
            continue
        lo, hi = sorted(PROTOS, key=lambda p: float(rows[p]["throughput_bps"]))
        for p in PROTOS:
            measured[f"throughput (bit/s)[{p},rtt={rtt}]"] = round(float(rows[p]["throughput_bps"]))
            measured[f"loss ratio[{p},rtt={rtt}]"] = round(float(rows[p]["drop_rate"]), 5)
            measured[f"mean PSNR (dB)[{p},rtt={rtt}]"] = round(float(rows[p]["mean_psnr_db"]), 2)
        if not (rows[lo]["drop_rate"] < rows[hi]["drop_rate"] and rows[lo]["mean_psnr_db"] > rows[hi]["mean_psnr_db"]):
            bad.append((rtt, lo))
    if not measured:
        return no_data("both protocols at a common RTT")
    if bad:
        rtt, lo = bad[0]
        if len(bad) > 1:
            measured["more RTTs failing"] = len(bad) - 1
        return Verdict(
            FAIL,
            measured,
            f"at RTT {rtt} ms the lower-throughput protocol ({lo}) does not have both the lower "
            f"loss and the higher PSNR" + (f" (and {len(bad) - 1} more RTTs)" if len(bad) > 1 else ""),
        )
    return Verdict(PASS, measured, "at every RTT the lower-throughput protocol has the lower loss and the higher PSNR")


def psnr_gap_and_variance(d: FigureData) -> Verdict:
    q = scores(d)
    if q.empty:
        return no_data("PSNR of the pairs")
    return all_of(
        ordering(per_label(q, "mean_psnr_db"), "asmp", "tfmcc", name="mean PSNR (dB)"),
        ordering(per_label(q, "psnr_var"), "tfmcc", "asmp", name="per-frame PSNR variance (dB²)"),
    )


def mos_shares_s5(d: FigureData) -> Verdict:
    q = scores(d)
    if q.empty:
        return no_data("MOS shares of the pairs")
    return all_of(
        bound(per_label(of_label(q, "tfmcc"), "share_mos_le_2"), ">", 0.5, name="TFMCC share of frames MOS 1–2"),
        bound(per_label(of_label(q, "asmp"), "share_mos_ge_3"), ">=", 0.75, name="ASMP share of frames MOS ≥ 3"),
        ordering(per_label(q, "share_mos_5"), "asmp", "tfmcc", name="share of frames MOS 5"),
    )


def asmp_mos_share_s6(d: FigureData) -> Verdict:
    q = scores(d)
    if q.empty:
        return no_data("MOS shares")
    return all_of(
        bound(per_label(of_label(q, "asmp"), "share_mos_ge_3"), ">=", 0.65, name="ASMP share of frames MOS ≥ 3"),
        mos_order()(d),
    )


RANKING_FIGURES = {
    "S1": "fig3-6",
    "S3": "fig10-12",
    "S4": "fig13-18",
    "S5": "fig19-23",
    "S6": "fig24-25",
    "S7": "fig26-28",
}


def network_and_video_rankings(d: FigureData) -> Verdict:
    """In each scenario: throughput TFMCC > ASMP (network-centric) and mean PSNR ASMP > TFMCC
    (video-centric). S4 pooled over its RTTs."""
    verdicts = []
    for name, fig in RANKING_FIGURES.items():
        try:
            data = d if fig == d.figure.id else d.other(fig)
        except KeyError:
            verdicts.append(no_data(f"{name} results"))
            continue
        q = scores(data, None)
        q = q[~q["part"].astype(str).str.endswith("-deadline")] if not q.empty else q
        if q.empty:
            verdicts.append(no_data(f"{name} PSNR"))
            continue
        verdicts.append(ordering(per_label(q, "throughput_bps"), "tfmcc", "asmp", name=f"{name} throughput (bit/s)"))
        verdicts.append(ordering(per_label(q, "mean_psnr_db"), "asmp", "tfmcc", name=f"{name} mean PSNR (dB)"))
    return all_of(*verdicts)


def video_cause(d: FigureData | None, measured: dict[str, Any], parts=None) -> str:
    """What sets each protocol's PSNR here: the quantiser of the frames shown (its rate) and
    the share of frames concealed (losses and lateness), measured per protocol."""
    q = quality(d, parts) if d is not None else None
    if q is None or q.empty:
        return "no video scores (did the runs fail?)"
    q = q[~q["part"].astype(str).str.endswith("-deadline")] if parts is None else q
    g = q.groupby("label")[["mean_psnr_db", "mean_quantizer", "concealed", "drop_rate", "throughput_bps"]].mean()
    for lab, row in g.iterrows():
        measured[f"throughput (bit/s)[{lab}]"] = round(float(row["throughput_bps"]), 0)
        measured[f"mean shown quantizer[{lab}]"] = round(float(row["mean_quantizer"]), 2)
        measured[f"frames concealed[{lab}]"] = round(float(row["concealed"]), 4)
        measured[f"mean PSNR (dB)[{lab}]"] = round(float(row["mean_psnr_db"]), 2)
    if not set(PROTOS) <= set(g.index):
        ((lab, row),) = list(g.iterrows())[:1]
        return (
            f"{lab.upper()} shows frames at mean quantiser {row['mean_quantizer']:.1f} and conceals "
            f"{row['concealed']:.1%} of them (loss {row['drop_rate']:.4f})"
        )
    a, t = g.loc["asmp"], g.loc["tfmcc"]
    lead = "quantiser" if abs(a["mean_quantizer"] - t["mean_quantizer"]) > 1 else "concealment"
    return (
        f"ASMP shows frames at mean quantiser {a['mean_quantizer']:.1f} ({a['throughput_bps'] / 1e3:.0f} kbit/s) and "
        f"conceals {a['concealed']:.1%}; TFMCC q {t['mean_quantizer']:.1f} ({t['throughput_bps'] / 1e3:.0f} kbit/s), "
        f"conceals {t['concealed']:.1%}: the PSNR difference follows the {lead}"
        + (
            " — the protocol with the higher rate picks the finer quantiser"
            if lead == "quantiser"
            else " — the frames lost or late"
        )
    )


def frame_fates(d: FigureData, parts) -> dict[str, dict[str, float]]:
    """label -> share of its receivers' frames per status of the frames table (ok, late, lost,
    dependency, ...), over the runs of ``parts``, the mean one-way packet delay (ms) and the late
    frames' mean time from ready to complete (``late_span_ms``) and past their deadline
    (``late_by_ms``)."""
    import pandas as pd

    out: dict[str, list] = {}
    net: dict[str, list] = {}
    spans: dict[str, list] = {}
    overruns: dict[str, list] = {}
    for r in d.flows(parts, {"label": list(PROTOS)}).drop_duplicates("run_id").to_dict("records"):
        fr = d.series(r["run_id"], "frames")
        if fr is None or fr.empty or "status" not in fr.columns:
            continue
        out.setdefault(r["label"], []).append(fr["status"].astype(str))
        net.setdefault(r["label"], []).append(float(r.get("mean_delay_ns", math.nan)) / 1e6)
        if {"ready_ns", "complete_ns"} <= set(fr.columns):
            late = fr[(fr["status"].astype(str) == "late") & (fr["complete_ns"] >= 0)]
            spans.setdefault(r["label"], []).extend(((late["complete_ns"] - late["ready_ns"]) / 1e6).tolist())
            if "deadline_ns" in fr.columns:
                by = (late["complete_ns"].astype(float) - late["deadline_ns"].astype(float)) / 1e6
                overruns.setdefault(r["label"], []).extend(by.tolist())
    res = {}
    for k, v in out.items():
        st = pd.concat(v)
        sp = spans.get(k, [])
        ov = overruns.get(k, [])
        res[k] = {
            **{str(n): float(c) / len(st) for n, c in st.value_counts().items()},
            "network_ms": sum(net[k]) / len(net[k]),
            "late_span_ms": sum(sp) / len(sp) if sp else math.nan,
            "late_by_ms": sum(ov) / len(ov) if ov else math.nan,
        }
    return res


_ANCHORS = {"send-time": "each frame's first packet's send time (§6.5: 'relative to the frame "
                         "transmission time')",
            "ready-time": "each frame's ready time (reading deadline-from-ready)",
            "first-arrival": "the first packet's arrival"}


def deadline_anchor(d: FigureData, parts) -> str:
    """What the runs of ``parts`` count their playout deadline from, read from their resolved
    scenarios (the video table's ``playout`` kind), in words."""
    import json

    kinds = set()
    for r in d.runs(parts).to_dict("records"):
        for f in json.loads(r.get("resolved_json") or "{}").get("flows", []):
            kind = ((f.get("video") or {}).get("playout") or {}).get("kind")
            if kind:
                kinds.add(str(kind))
    return " and ".join(_ANCHORS.get(k, k) for k in sorted(kinds)) or "an unknown anchor"


def deadline_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    f = deadline_falls(d) if d is not None else None
    if f is None or f.empty:
        return "no video scores (did the runs fail?)"
    g = f.groupby("label")["fall_db"].mean()
    measured.update({f"PSNR fall with D_pb (dB)[{k}]": round(float(v), 2) for k, v in g.items()})
    fates = frame_fates(d, [f"{p}-deadline" for p in PROTOS])
    for k, sh in fates.items():
        measured[f"frames late for D_pb[{k}]"] = round(sh.get("late", 0.0), 4)
        measured[f"frames lost[{k}]"] = round(sh.get("lost", 0.0), 4)
        measured[f"mean one-way packet delay (ms)[{k}]"] = round(sh["network_ms"], 1)
        measured[f"late frames' mean ready-to-complete time (ms)[{k}]"] = round(sh["late_span_ms"], 1)
        measured[f"late frames' mean time past their deadline (ms)[{k}]"] = round(sh["late_by_ms"], 1)
    a, t = fates.get("asmp", {}), fates.get("tfmcc", {})

    def part(lab: str, sh: dict[str, float]) -> str:
        return (
            f"{sh.get('late', 0.0):.1%} of {lab}'s frames miss it, completing on average "
            f"{sh.get('late_by_ms', math.nan):.0f} ms past it ({sh.get('late_span_ms', math.nan):.0f} ms after "
            f"their ready time) while its packets cross the network in {sh.get('network_ms', math.nan):.0f} ms on "
            f"average"
        )

    anchor = deadline_anchor(d, [f"{p}-deadline" for p in PROTOS])
    held = scores(d, [f"{p}-deadline" for p in PROTOS]).groupby("label")["concealed"].mean()
    measured.update({f"slots showing an older frame with D_pb[{k}]": round(float(v), 4) for k, v in held.items()})
    return (
        f"with D_pb = 150 ms counted from {anchor} ASMP falls {g.get('asmp', math.nan):.2f} dB and TFMCC "
        f"{g.get('tfmcc', math.nan):.2f} dB: {part('ASMP', a)}; {part('TFMCC', t)}; by §6.5's display rule "
        f"(a late frame is still shown if it is the newest, and frames predicted from it are not lost) "
        f"{held.get('asmp', math.nan):.1%} of ASMP's slots and {held.get('tfmcc', math.nan):.1%} of TFMCC's "
        f"show an older frame"
    )


def error_rate_cause(d: FigureData | None, measured: dict[str, Any]) -> str:
    """C7–C9: what each protocol shows at each error rate (its quantiser and concealment)."""
    q = quality(d, list(PROTOS)) if d is not None else None
    if q is None or q.empty:
        return "no video scores (did the runs fail?)"
    g = q.groupby(["label", "error_rate"])[["mean_psnr_db", "mean_quantizer", "concealed"]].mean()
    parts = []
    for (lab, rate), row in g.iterrows():
        measured[f"mean shown quantizer[{lab},error_rate={rate:g}]"] = round(float(row["mean_quantizer"]), 2)
        measured[f"frames concealed[{lab},error_rate={rate:g}]"] = round(float(row["concealed"]), 4)
    for lab in PROTOS:
        if lab in g.index.get_level_values(0):
            rows = g.loc[lab]
            parts.append(
                f"{lab.upper()} q "
                + "/".join(f"{v:.1f}" for v in rows["mean_quantizer"])
                + ", concealed "
                + "/".join(f"{v:.0%}" for v in rows["concealed"])
            )
    rates = "/".join(f"{r:g}" for r in sorted(q["error_rate"].dropna().unique()))
    moves = []
    for lab in PROTOS:
        if lab in g.index.get_level_values(0) and len(g.loc[lab]) > 1:
            qs = g.loc[lab]["mean_quantizer"].tolist()
            steps = [b - a for a, b in zip(qs, qs[1:])]
            way = "coarser" if all(x > 0 for x in steps) else "finer" if all(x < 0 for x in steps) else "not monotone"
            moves.append(f"{lab.upper()}'s quantiser is {way} as the error rate rises")
    return f"at error rates {rates}: " + "; ".join(parts) + (": " + ", ".join(moves) if moves else "")


def loss_free_gap_floor(lossless: dict[str, float], lossy: dict[str, float]) -> tuple[float, float, float]:
    """C9's bound at one error rate: ``(gap0, floor, half_effect)``. With loss-free PSNRs L_a, L_t
    and lossy ones P_a, P_t the drops are D = L − P, so P_a − P_t = (L_a − L_t) − (D_a − D_t) and
    |ΔPSNR| ≥ |L_a − L_t| − |D_a − D_t| = ``floor`` (the triangle inequality); the check asks
    |ΔPSNR| < (D_a + D_t) / 4 = ``half_effect``, which ``floor`` ≥ ``half_effect`` rules out."""
    la, lt, pa, pt = (float(x[p]) for x in (lossless, lossy) for p in PROTOS)
    gap0 = abs(la - lt)
    floor = gap0 - abs((la - pa) - (lt - pt))
    return gap0, floor, ((la - pa) + (lt - pt)) / 4


def similar_curves_bound(d: FigureData | None, measured: dict[str, Any]) -> str:
    """C9's over-claim bound from the run: the loss-free runs' PSNR gap (the two rates' quantisers)
    against what the losses at the lowest error rate can move it by (:func:`loss_free_gap_floor`)."""
    q = scores(d) if d is not None else None
    ref = _lossless(d) if d is not None else {}
    if q is None or q.empty or not all(p in ref for p in PROTOS):
        return "no loss-free and lossy scores to bound the gap with"
    rate = float(q["error_rate"].min())
    low = q[q["error_rate"] == rate].groupby("label")["mean_psnr_db"].mean()
    gap0, floor, half = loss_free_gap_floor(ref, {p: float(low[p]) for p in PROTOS})
    drops = {p: ref[p] - float(low[p]) for p in PROTOS}
    for p in PROTOS:
        measured[f"loss-free mean PSNR (dB)[{p}]"] = round(ref[p], 2)
        measured[f"PSNR drop (dB)[{p},error_rate={rate:g}]"] = round(drops[p], 2)
    measured["loss-free |ΔPSNR| (dB)"] = round(gap0, 2)
    measured[f"|ΔPSNR| floor (dB)[error_rate={rate:g}]"] = round(floor, 2)
    measured[f"half the loss effect (dB)[error_rate={rate:g}]"] = round(half, 2)
    verdict = "so the curves cannot be that close" if floor >= half else "so the bound alone does not rule it out"
    return (
        f"without losses the runs' PSNRs already differ by {gap0:.2f} dB (ASMP {ref['asmp']:.2f}, TFMCC "
        f"{ref['tfmcc']:.2f} dB: the quantisers of their two rates); at error rate {rate:g} the losses move them "
        f"by {drops['asmp']:.2f} and {drops['tfmcc']:.2f} dB, so |ΔPSNR| ≥ "
        f"{floor:.2f} dB against the {half:.2f} dB (half the loss effect) the check allows, {verdict}"
    )
