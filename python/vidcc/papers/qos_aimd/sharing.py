"""Exp. C (Figs. 7, 8, §V-C): several AIMD flows with eq. (4) windows sharing one wireless link
(S11–S14): their throughput shares and the delay outage."""

from __future__ import annotations

from vidcc.papers.model import FAIL, NOT_YET, PASS, Verdict
from vidcc.papers.qos_aimd import model, stats
from vidcc.papers.qos_aimd.scenarios import BURST_R, windows

# The suite's reading of the paper's "delay outage below ≈ 1 %": the design bound is 1 % (§V-A), and
# the paper itself says the outage "in some case ... exceed[s] the desired 1% slightly" (§V-C).
# One reading for every claim that says it (S11-S14, S18).
OUTAGE_ABOUT_1PC = 0.015


def _verdict(m, what, *, share_tol=None, total_tol=None, ratio_min=None, outage_max=OUTAGE_ABOUT_1PC) -> Verdict:
    if m is None or m.empty:
        return Verdict(NOT_YET, {}, f"{what}: no runs")
    measured, bad = {}, []
    for r in m.to_dict("records"):
        cell = f"R={r['rtts']},p_e={r['p_e']:g}"
        fair = (1 - r["p_e"]) / r["n"]
        measured[f"total pkt/slot[{cell}]"] = round(r["total"], 4)
        measured[f"flow pkt/slot min..max[{cell}]"] = f"{r['min_flow']:.4f}..{r['max_flow']:.4f} (target {fair:.4f})"
        measured[f"min/max ratio[{cell}]"] = round(r["ratio"], 4)
        measured[f"outage[{cell}]"] = round(r["outage"], 5)
        if total_tol is not None and abs(r["total"] - (1 - r["p_e"])) > total_tol * (1 - r["p_e"]):
            bad.append(f"{cell}: total {r['total']:.3f} vs 1 − p_e = {1 - r['p_e']:.3f}")
        if share_tol is not None and (r["min_flow"] < (1 - share_tol) * fair or r["max_flow"] > (1 + share_tol) * fair):
            bad.append(f"{cell}: flows {r['min_flow']:.3f}..{r['max_flow']:.3f} vs (1 − p_e)/N = {fair:.3f}")
        if ratio_min is not None and not r["ratio"] >= ratio_min:
            bad.append(f"{cell}: throughput ratio {r['ratio']:.3f} < {ratio_min}")
        if not r["outage"] <= outage_max:
            bad.append(f"{cell}: outage {100 * r['outage']:.2f} % > {100 * outage_max:g} %")
    measured["cells"], measured["cells failing"] = len(m), len(bad)
    if bad:
        return Verdict(FAIL, measured, f"{what}: {len(bad)} violations, e.g. " + "; ".join(bad[:3]))
    return Verdict(PASS, measured, f"{what}: holds in all {len(m)} cells (mean over seeds)")


def two_equal_flows_share_fairly(d):
    # §V-C: the flows "fairly share the wireless link, and satisfy the delay outage bounds": the
    # share as S12 tests it (min/max ≥ 0.9), the total reported, not judged (the paper claims no
    # full use here, and the selected windows may sum below R_N).
    return _verdict(
        stats.multi_stats(d, stats.parts_named(d, "aimd-17-17-pe")),
        "2 flows, R = 17: min/max throughput ≥ 0.9, outage ≤ 1.5 %",
        ratio_min=0.9,
    )


def two_rtts_share_fairly(d):
    return _verdict(
        stats.multi_stats(d, stats.parts_named(d, "aimd-17-25-pe")),
        "2 flows, R = (17, 25): min/max throughput ≥ 0.9, outage ≤ 1.5 %",
        ratio_min=0.9,
    )


def four_flows_get_equal_shares(d):
    return _verdict(
        stats.multi_stats(d, stats.parts_named(d, "aimd-17-")),
        "4 flows: each within 10 % of (1 − p_e)/4, outage ≤ 1.5 %",
        share_tol=0.10,
    )


def _fig7_and_fig8(d):
    import pandas as pd

    o = d.other("fig7")
    return pd.concat(
        [stats.multi_stats(o, stats.parts_named(o, "aimd-")), stats.multi_stats(d, stats.parts_named(d, "aimd-"))],
        ignore_index=True,
    )


ANTICIPATED = 0.05  # suite tolerance: the measured min/max share ratio within 0.05 of eq. (3)'s


def anticipated_ratio(rtts: str, pe: float) -> float:
    """The min/max throughput ratio eq. (3) gives the integer windows the selection chose (what
    "such deviations can be anticipated" computes)."""
    r = tuple(int(x) for x in str(rtts).split("-"))
    p = model.shares_of_windows(windows(pe, r), r, pe, burst=1 / BURST_R)
    return min(p) / max(p)


def integer_windows_deviate_slightly(d):
    """§V-C: "Since window size is an integer, we may not be able to get a group of rwnds to satisfy
    (4) exactly. Therefore, the results may slightly deviate from our designed target due to
    quantization errors, e.g., in some cases the throughputs of coexisting AIMD flows have a small
    difference, in some case the delay outage rates exceed the desired 1% slightly. Nevertheless,
    such deviations can be anticipated and controlled." Tested as worded: in every cell of Figs. 7
    and 8 the flows' min/max throughput ratio is the one eq. (3) anticipates for the integer
    windows (within 0.05), and the outage exceeds 1 % at most slightly (≤ 1.5 %)."""
    m = _fig7_and_fig8(d)
    what = (f"fig. 7 and 8 runs: min/max throughput ratio within {ANTICIPATED} of eq. (3)'s for the integer windows, "
            "outage ≤ 1.5 %")
    if m is None or m.empty:
        return Verdict(NOT_YET, {}, f"{what}: no runs")
    measured, bad = {}, []
    for r in m.to_dict("records"):
        cell = f"R={r['rtts']},p_e={r['p_e']:g}"
        ana = anticipated_ratio(r["rtts"], float(r["p_e"]))
        measured[f"min/max ratio, eq. (3)'s[{cell}]"] = f"{r['ratio']:.4f}, {ana:.4f}"
        measured[f"outage[{cell}]"] = round(r["outage"], 5)
        if not abs(r["ratio"] - ana) <= ANTICIPATED:
            bad.append(f"{cell}: throughput ratio {r['ratio']:.3f} against eq. (3)'s {ana:.3f}")
        if not r["outage"] <= OUTAGE_ABOUT_1PC:
            bad.append(f"{cell}: outage {100 * r['outage']:.2f} % > 1.5 %")
    far = [r for r in m.to_dict("records") if r["ratio"] < 0.9]
    measured["cells"], measured["cells failing"] = len(m), len(bad)
    measured["cells with min/max ratio < 0.9"] = len(far)
    if bad:
        return Verdict(FAIL, measured, f"{what}: {len(bad)} violations, e.g. " + "; ".join(bad[:3]))
    return Verdict(PASS, measured, f"{what}: holds in all {len(m)} cells (mean over seeds); {len(far)} cells "
                   "below a 0.9 ratio, each as eq. (3) anticipates")


def multi_cause(d, measured, parts) -> str:
    """Fig. 7/8 runs: per cell the windows the selection gave (eq. (4), nearest rounding), their sum
    against the RTTs, the flows' packets per slot and the outage, for the cells whose share ratio
    is below 0.9 or whose outage is above 1.5 %."""
    m = stats.multi_stats(d, parts) if d is not None else None
    if m is None or m.empty:
        return "no results"
    texts = []
    for r in m.to_dict("records"):
        if r["ratio"] >= 0.9 and r["outage"] <= OUTAGE_ABOUT_1PC:
            continue
        rtts = tuple(int(x) for x in str(r["rtts"]).split("-"))
        w = windows(float(r["p_e"]), rtts)
        cell = f"R={r['rtts']},p_e={r['p_e']:g}"
        measured.update(
            {
                f"windows[{cell}]": ", ".join(map(str, w)),
                f"window sum[{cell}]": sum(w),
                f"total pkt/slot[{cell}]": round(r["total"], 4),
                f"min/max ratio[{cell}]": round(r["ratio"], 4),
                f"outage[{cell}]": round(r["outage"], 5),
                f"outage in whole slots[{cell}]": round(r["outage_whole"], 5),
            }
        )
        texts.append(
            f"R = ({', '.join(map(str, rtts))}), p_e {r['p_e']:g}: windows {', '.join(map(str, w))} (sum {sum(w)}), "
            f"flows {r['min_flow']:.3f}..{r['max_flow']:.3f} pkt/slot (ratio {r['ratio']:.3f}), "
            f"total {r['total']:.3f}, outage {100 * r['outage']:.2f} % ({100 * r['outage_whole']:.2f} % in whole slots)"
        )
    return "; ".join(texts) if texts else "every cell's share ratio is ≥ 0.9 and its outage ≤ 1.5 %"


def two_equal_flows_cells(d, measured) -> str:
    return multi_cause(d, measured, stats.parts_named(d, "aimd-17-17-pe")) if d is not None else "no results"


def deviating_cells(d, measured) -> str:
    """S14: per cell of Figs. 7 and 8 whose ratio is below 0.9 or whose outage is above 1 %: the
    integer windows, the measured min/max ratio against eq. (3)'s for those windows, the outage."""
    m = _fig7_and_fig8(d) if d is not None else None
    if m is None or m.empty:
        return "no results"
    texts = []
    for r in m.to_dict("records"):
        if r["ratio"] >= 0.9 and r["outage"] <= 0.01:
            continue
        rtts = tuple(int(x) for x in str(r["rtts"]).split("-"))
        w = windows(float(r["p_e"]), rtts)
        ana = anticipated_ratio(r["rtts"], float(r["p_e"]))
        cell = f"R={r['rtts']},p_e={r['p_e']:g}"
        measured.update({f"round trips (slots)[{cell}]": ", ".join(map(str, rtts)),
                         f"windows[{cell}]": ", ".join(map(str, w)), f"min/max ratio[{cell}]": round(r["ratio"], 4),
                         f"eq. (3) min/max ratio[{cell}]": round(ana, 4), f"outage[{cell}]": round(r["outage"], 5)})
        measured[f"outage in whole slots[{cell}]"] = round(r["outage_whole"], 5)
        texts.append(f"R = ({', '.join(map(str, rtts))}), p_e {r['p_e']:g}: windows {', '.join(map(str, w))}, "
                     f"ratio {r['ratio']:.3f} (eq. (3): {ana:.3f}), outage {100 * r['outage']:.2f} % "
                     f"({100 * r['outage_whole']:.2f} % in whole slots)")
    return "; ".join(texts) if texts else "every cell's ratio is ≥ 0.9 and its outage ≤ 1 %"
