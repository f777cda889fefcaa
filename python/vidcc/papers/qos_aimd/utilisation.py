"""Exp. B (Fig. 6, §V-B): link utilisation and TCP-friendliness against the number of backbone
flows (S5–S10), and the suite's baseline B1 (TCP alone on the backbone)."""

from __future__ import annotations

import math

from vidcc.papers import ns2
from vidcc.papers.model import FAIL, NOT_YET, PASS, Verdict
from vidcc.papers.qos_aimd import model, stats
from vidcc.papers.qos_aimd.scenarios import (
    ACCESS_DELAY_S,
    BURST_R,
    D_SLOTS,
    R_SLOTS,
    SLOT_S,
    WIRED_BPS,
    pkt_per_slot,
    windows,
)
from vidcc.papers.verdicts import all_of, within


def _per_cell(d, what: str, judge) -> Verdict:
    """``judge(row) -> (measured name, value, problem or None)`` per (p_e, n) cell."""
    m = stats.fig6_stats(d)
    if m.empty:
        return Verdict(NOT_YET, {}, "no runs")
    measured, bad = {}, []
    for r in m.sort_values(["p_e", "n"]).to_dict("records"):
        for name, value, problem in judge(r):
            measured[f"{name}[p_e={r['p_e']:g},N={int(r['n'])}]"] = value
            if problem:
                bad.append(f"p_e = {r['p_e']:g}, N = {int(r['n'])}: {problem}")
    measured["cells"], measured["cells failing"] = len(m), len(bad)
    if bad:
        return Verdict(FAIL, measured, f"{what}: {len(bad)} violations, e.g. " + "; ".join(bad[:3]))
    return Verdict(PASS, measured, f"{what}: holds in all {len(m)} cells (mean over seeds)")


def tcp_friendly_above_50(d):
    # Suite tolerance: "≈ the average" read as AIMD ≤ 1.1 × the mean over all backbone flows (not above it, with
    # 10 % for noise) and ≥ 0.5 × it, at every N > 50.
    def judge(r):
        if r["n"] <= 50:
            return []
        ratio = r["aimd"] / r["mean_all"]
        return [
            (
                "AIMD / mean of all backbone flows",
                round(ratio, 3),
                None
                if 0.5 <= ratio <= 1.1
                else f"AIMD {r['aimd']:.3f} vs mean {r['mean_all']:.3f} pkt/slot (ratio {ratio:.2f})",
            )
        ]

    return _per_cell(d, "N > 50: AIMD pkt/slot within [0.5, 1.1] × the mean of all backbone flows", judge)


def backbone_mean_sides_of_one(d):
    """§V-B: "When the number of coexisting flows is less than 50, the average normalized
    throughput in the backbone link is larger than 1 ... larger than 50, the bottleneck is the
    backbone link": > 1 below 50 flows, < 1 above; 50/(N + 0.1) (the link's share per flow) is
    reported, not judged — the paper states no such band."""

    def judge(r):
        n, v = r["n"], r["mean_all"]
        side = (v > 1) if n < 50 else (v < 1) if n > 50 else True
        return [
            (
                "mean pkt/slot (50/(N + 0.1), reported)",
                f"{v:.3f} ({50 / (n + 0.1):.3f})",
                None if side else f"mean {v:.3f} pkt/slot on the wrong side of 1",
            )
        ]

    return _per_cell(d, "mean normalised throughput of the backbone flows > 1 below 50 flows, < 1 above", judge)


def outage_below_one_percent(d):
    return _per_cell(
        d,
        "AIMD delay outage < 1 % in every Fig. 6 case",
        lambda r: [
            ("outage", round(r["outage"], 5), None if r["outage"] < 0.01 else f"outage {100 * r['outage']:.2f} %")
        ],
    )


def loss_negligible_then_wired(d):
    # Suite tolerance: "negligible" = < 0.5 % below 50 flows; "2.8 % at 100 flows" = within [1.4 %, 5.6 %] (a factor
    # of 2: RED's parameters and the cross flows' RTTs are [U]); no BS overflow anywhere.
    def judge(r):
        rows = [
            (
                "BS overflow drops",
                r["bs_overflow"],
                None if r["bs_overflow"] == 0 else f"{r['bs_overflow']:g} BS overflow drops",
            )
        ]
        loss = r["loss"]
        if r["n"] < 50:
            rows.append(
                ("AIMD loss", round(loss, 5), None if loss < 0.005 else f"loss {100 * loss:.2f} % (not negligible)")
            )
        elif r["n"] >= 100:
            rows.append(
                ("AIMD loss", round(loss, 5), None if 0.014 <= loss <= 0.056 else f"loss {100 * loss:.2f} % vs 2.8 %")
            )
        else:
            rows.append(("AIMD loss", round(loss, 5), None))
        return rows

    return _per_cell(d, "AIMD loss < 0.5 % below 50 flows, 2.8 % (× 2) at 100, no BS overflow", judge)


def wireless_underused_when_backbone_binds(d):
    def judge(r):
        if r["n"] <= 50:
            return []
        cap = 1 - r["p_e"]
        return [
            (
                "AIMD pkt/slot (1 − p_e)",
                f"{r['aimd']:.3f} ({cap:.2f})",
                None
                if r["aimd"] < 0.97 * cap
                else f"AIMD {r['aimd']:.3f} pkt/slot, not below 1 − p_e = {cap:.2f} (3 % margin)",
            )
        ]

    return _per_cell(d, "N > 50 (backbone the bottleneck): AIMD pkt/slot < 0.97 × (1 − p_e)", judge)


def fig6_as_measured(d, measured) -> str:
    """Fig. 6 as measured: what binds the elephants at the fewest flows, how the backbone's loss
    splits between TCP and the AIMD flow at the most, and per (p_e, N) the AIMD flow's and TCP's
    loss and throughput."""
    m = stats.fig6_stats(d)
    if m.empty:
        return "no results"
    f = d.flows(["aimd-pe0.01", "aimd-pe0.1"], {"label": "tcp"})
    tcp_loss = f.groupby("n")["drop_rate"].mean() if not f.empty else {}
    rows = m.sort_values(["p_e", "n"]).to_dict("records")
    for r in rows:
        cell = f"p_e={r['p_e']:g},N={int(r['n'])}"
        measured.update(
            {
                f"AIMD pkt/slot[{cell}]": round(r["aimd"], 4),
                f"AIMD loss[{cell}]": round(r["loss"], 5),
                f"TCP loss[{cell}]": round(float(tcp_loss.get(r["n"], math.nan)), 5),
                f"backbone mean pkt/slot[{cell}]": round(r["mean_all"], 4),
            }
        )
    cells = "; ".join(
        f"p_e {r['p_e']:g}, N {int(r['n'])}: AIMD {r['aimd']:.2f} pkt/slot, loss {100 * r['loss']:.2f} % "
        f"(TCP {100 * tcp_loss.get(r['n'], math.nan):.2f} %), backbone mean {r['mean_all']:.2f}"
        for r in rows
    )
    small, big = m[m["n"] == m["n"].min()], m[m["n"] == m["n"].max()]
    n0, n1 = int(small["n"].iloc[0]), int(big["n"].iloc[0])
    tcp1 = 100 * tcp_loss.get(big["n"].iloc[0], math.nan)
    lo, hi = 100 * big["loss"].min(), 100 * big["loss"].max()
    share = (big["aimd"] / big["mean_all"]).mean()
    measured.update(
        {
            "elephants' window_ (packets)": ns2.TCP_WINDOW,
            f"AIMD / backbone mean[N={n1}]": round(float(share), 3),
            f"TCP loss[N={n1}]": round(tcp1 / 100, 5),
            f"AIMD loss, lowest and highest p_e[N={n1}]": f"{lo / 100:.5f}, {hi / 100:.5f}",
            f"backbone mean pkt/slot (50/(N + 0.1))[N={n0}]": f"{small['mean_all'].mean():.3f} ({50 / (n0 + 0.1):.3f})",
        }
    )
    split = "more than TCP's" if lo > tcp1 else "no more than TCP's"
    return (
        f"the elephants keep ns-2's {ns2.TCP_WINDOW}-packet window_: at N = {n0} the backbone mean is "
        f"{small['mean_all'].mean():.2f} pkt/slot against 50/(N + 0.1) = {50 / (n0 + 0.1):.2f}; at N = {n1} the "
        f"backbone drops {tcp1:.2f} % of TCP's packets and {lo:.2f}–{hi:.2f} % of the AIMD flow's, {split}, and the "
        f"AIMD flow gets {share:.2f}× the backbone mean: {cells}"
    )


def wireless_fully_used_below_50(d):
    f = d.flows(["aimd-pe0.01", "aimd-pe0.1"], {"label": "aimd"})
    f = pkt_per_slot(f[f["n"] < 50])
    from vidcc.analysis import summarize

    s = summarize(f, "pkt_per_slot", by="p_e", group=None)
    rows = [
        within(s[s["p_e"] == pe], 0.97 * (1 - pe), 1.03 * (1 - pe), name=f"AIMD pkt/slot (p_e={pe})")
        for pe in (0.01, 0.1)
    ]
    v = all_of(*rows)
    for pe in (0.01, 0.1):
        v.measured[f"(1 − p_e) ± 3 %[p_e={pe}]"] = f"{0.97 * (1 - pe):.4f}, {1.03 * (1 - pe):.4f}"
    return v


def tcp_fair_share_alone(d):
    return within(
        d.summary("normalized_throughput", by="n", part="backbone", where={"label": "tcp"}),
        0.9,
        1.1,
        name="mean throughput / (100 Mb/s / N)",
    )


def link_idle_and_hold(sent_ns, arrival_ns, window: int, warm_ns: float, seq=None) -> dict:
    """One AIMD flow alone on its wireless link, from its packet log (delivered packets in sequence
    order, FIFO): how much of the time after ``warm_ns`` the link was idle, and how much of that idle
    time the sender held a packet the window had already released (its rtt/W spacing).

    Reconstructed from the log with the path's constant delays (below 50 flows nothing queues on
    the wired path, and the flow loses no packet, so the window is rwnd): a packet reaches the BS
    its wired one-way delay after it leaves (the minimum one-way delay less the slot and the BS–MH
    link's delay) and leaves the BS when its last transmission ends (its arrival less the BS–MH
    delay); its ack is back at the sender R·slot − the minimum one-way delay after it arrives, and
    the ack of packet i − W releases packet i (``seq``: the packets' sequence numbers, when some
    are missing from the log; a packet whose packet i − W is missing has no known release). The
    link is idle between a departure and the next packet's arrival at the BS; that gap would have
    been shorter by what the sender held the packet (the model of §III-C has a token re-enter the
    BS R − 1 slots after it left)."""
    import numpy as np

    sent, arr = np.asarray(sent_ns, dtype=float), np.asarray(arrival_ns, dtype=float)
    seq = np.arange(len(sent)) if seq is None else np.asarray(seq, dtype=np.int64)
    slot, bs_mh = SLOT_S * 1e9, ACCESS_DELAY_S * 1e9
    one_way = float((arr - sent).min())
    at_bs, leaves_bs = sent + (one_way - slot - bs_mh), arr - bs_mh
    pos = np.searchsorted(seq, seq - window)  # where packet i − W would be in the (sorted) log
    known = (seq - window >= seq[0]) & (pos < len(seq))
    known[known] = seq[pos[known]] == (seq - window)[known]
    released = np.full(len(sent), np.nan)
    released[known] = arr[pos[known]] + (R_SLOTS * slot - one_way)  # the ack of packet i − W
    hold = sent - released
    at_bs_unheld = np.where(np.isnan(released), at_bs, np.minimum(at_bs, released + (one_way - slot - bs_mh)))
    after = sent[1:] >= warm_ns
    gap = np.maximum(0.0, at_bs[1:] - leaves_bs[:-1])[after]
    gap_unheld = np.maximum(0.0, at_bs_unheld[1:] - leaves_bs[:-1])[after]
    span = float(leaves_bs[-1] - max(warm_ns, leaves_bs[0]))
    held = hold[1:][after]
    held = held[~np.isnan(held)]
    idle = float(gap.sum())
    return {
        "idle share": idle / span if span > 0 else float("nan"),
        "held share of the idle time": (idle - float(gap_unheld.sum())) / idle if idle > 0 else 0.0,
        "mean hold (slots)": float(held.mean()) / slot if len(held) else float("nan"),
        "share of packets held": float((held > slot / 100).mean()) if len(held) else float("nan"),
    }


def link_idle_while_sender_holds(d, measured) -> str:
    """S5 per p_e, below 50 flows: the AIMD flow's packets per slot against 1 − p_e, its rwnd = B, and,
    in the runs where it lost no packet (nothing limits its window but rwnd), how much of the time
    the wireless link idled and how much of that idle time the window had already released the next
    packet, which the sender held for its rtt/W spacing (:func:`link_idle_and_hold`, means over
    those runs); the cells where the backbone dropped its packets, with their loss."""
    import pandas as pd

    from vidcc.papers.measures import warmup_ns

    f = d.flows(["aimd-pe0.01", "aimd-pe0.1"], {"label": "aimd"}) if d is not None else None
    if f is None or f.empty:
        return "no results"
    f = pkt_per_slot(f[f["n"] < 50])
    runs = {r["run_id"]: r for r in d.runs(["aimd-pe0.01", "aimd-pe0.1"]).to_dict("records")}
    rows, lossy = [], []
    for r in f.to_dict("records"):
        if r["dropped_queue"] + r["dropped_loss"] > 0:
            lossy.append(r)
            continue
        w = windows(float(r["p_e"]), (R_SLOTS,))[0]
        pk = d.series(r["run_id"], "packets")
        pk = pk[(pk["flow"] == r["flow"]) & (pk["fate"] == "delivered")].sort_values("seq")
        if len(pk) <= w:
            continue
        h = link_idle_and_hold(pk["sent_ns"], pk["arrival_ns"], w, warmup_ns(runs[r["run_id"]]), seq=pk["seq"])
        rows.append({"p_e": r["p_e"], "x": r["pkt_per_slot"], "w": w, **h})
    texts = []
    for pe, g in (pd.DataFrame(rows).groupby("p_e") if rows else []):
        cell = f"p_e={pe:g}"
        x, w = float(g["x"].mean()), int(g["w"].iloc[0])
        idle, held = float(g["idle share"].mean()), float(g["held share of the idle time"].mean())
        hold, share = float(g["mean hold (slots)"].mean()), float(g["share of packets held"].mean())
        measured.update({
            f"AIMD pkt/slot, N < 50, no loss[{cell}]": round(x, 4),
            f"rwnd = B[{cell}]": w,
            f"wireless link idle (share of the time)[{cell}]": round(idle, 4),
            f"idle time with the next packet released and held (share)[{cell}]": round(held, 3),
            f"sender's mean hold of a released packet (slots)[{cell}]": round(hold, 2),
            f"packets held by the spacing (share)[{cell}]": round(share, 3),
        })
        idle_text = (f"the wireless link never idles ({100 * share:.0f} % of the packets held by the rtt/W spacing)"
                     if idle < 5e-4 else
                     f"the wireless link idles {100 * idle:.1f} % of the time, {100 * held:.0f} % of it while the "
                     f"window had released the next packet and the sender held it for its rtt/W spacing (mean hold "
                     f"{hold:.2f} slots, {100 * share:.0f} % of the packets held)")
        texts.append(f"p_e {pe:g}: {x:.3f} pkt/slot against 1 − p_e = {1 - pe:.2f}, rwnd = B = {w}; {idle_text}")
    text = ("with fewer than 50 backbone flows, in the runs where the AIMD flow lost no packet (nothing limits its "
            "window but rwnd): " + ("; ".join(texts) if texts else "no such run"))
    if lossy:
        cells = pd.DataFrame(lossy).assign(loss=lambda x: (x["dropped_queue"] + x["dropped_loss"]) / x["sent_packets"])
        parts = []
        for (pe, n), g in cells.groupby(["p_e", "n"]):
            cell = f"p_e={pe:g},N={int(n)}"
            loss, x = float(g["loss"].mean()), float(g["pkt_per_slot"].mean())
            measured[f"AIMD loss in the runs with losses[{cell}]"] = round(loss, 4)
            measured[f"AIMD pkt/slot in the runs with losses[{cell}]"] = round(x, 4)
            parts.append(f"p_e {pe:g}, N {int(n)}: {len(g)} runs, loss {100 * loss:.2f} %, {x:.3f} pkt/slot")
        text += ("; the backbone dropped the AIMD flow's packets, so its window fell below rwnd, in " +
                 "; ".join(parts))
    return text


def outage_cells(d, measured) -> str:
    """S8: the cells over 1 % with the rwnd they ran, eq. (1)'s outage at that rwnd on the suite's
    channel (the design target), the same runs' outage counted in whole slots (the reading
    ``outage-whole-slots``), and Fig. 5's light sweep's outage at the same rwnd and p_e (the AIMD
    flow with only 5 elephants)."""
    m = stats.fig6_stats(d) if d is not None else None
    if m is None or m.empty:
        return "no results"
    try:
        light = stats.sweep_outage(d.other("fig5"), "aimd-light", "aimd")
    except KeyError:
        light = None
    texts = []
    for r in m[m["outage"] >= 0.01].sort_values(["p_e", "n"]).to_dict("records"):
        w = windows(float(r["p_e"]), (R_SLOTS,))[0]
        cell = f"p_e={r['p_e']:g},N={int(r['n'])}"
        measured[f"outage[{cell}]"] = round(r["outage"], 5)
        measured[f"rwnd[{cell}]"] = w
        ana = model.eq1(w, R_SLOTS, D_SLOTS, float(r["p_e"]), burst=1 / BURST_R)
        measured[f"eq. (1) outage at rwnd[{cell}]"] = round(ana, 5)
        measured[f"outage in whole slots[{cell}]"] = round(r["outage_whole"], 5)
        text = (f"p_e {r['p_e']:g}, N {int(r['n'])}: {100 * r['outage']:.2f} % at rwnd {w}, where eq. (1) gives "
                f"{100 * ana:.2f} %; counted in whole slots {100 * r['outage_whole']:.2f} %")
        if light is not None and not light.empty:
            g = light[(light["p_e"].round(4) == round(float(r["p_e"]), 4)) & (light["rwnd"] == w)]
            if not g.empty:
                o = float(g["outage"].mean())
                measured[f"Fig. 5 light sweep outage at rwnd {w}[p_e={r['p_e']:g}]"] = round(o, 5)
                text += f" (Fig. 5's light sweep: {100 * o:.2f} % at the same rwnd)"
        texts.append(text)
    return "; ".join(texts) if texts else "every cell's outage is below 1 %"


def backbone_buffer_against_pipe(d, measured) -> str:
    """B1 per N: the TCP flows' share of the backbone as measured, against the pipe (bandwidth ×
    the round trip) a window-unlimited TCP must keep full through the backbone's buffer."""
    f = d.flows("backbone", {"label": "tcp"}) if d is not None else None
    if f is None or f.empty:
        return "no results"
    rtt = float((f["path_rtt_ns"]).mean()) / 1e9
    bdp = WIRED_BPS * rtt / 8
    measured.update({"TCP path RTT (s)": round(rtt, 4), "bandwidth × RTT (bytes)": round(bdp, 0)})
    texts = []
    for n, g in f.groupby("n"):
        use = float(g.groupby("run_id")["throughput_bps"].sum().mean()) / WIRED_BPS
        measured[f"share of the backbone used[N={int(n)}]"] = round(use, 4)
        texts.append(f"{int(n)} flows use {100 * use:.1f} % of it")
    return f"a pipe of {bdp / 1e3:.0f} kB ({WIRED_BPS / 1e6:.0f} Mb/s × {rtt * 1e3:.0f} ms): " + ", ".join(texts)

