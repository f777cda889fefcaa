"""Checks of how SSVP shares the 1 Mbit/s dumbbell with Reno: Fig. 10's normalized throughput and
utilisation (C10, and the plain-UDP baseline B1) and Fig. 11's join at 20 s (C11)."""

from __future__ import annotations

import math

from vidcc.papers.ssvp.rate_law import S_BITS
from vidcc.papers.ssvp.scenarios import CAPACITY, tcp_nt, utilisation
from vidcc.papers.ssvp.traces import decreases_per_packet, judged, reno_timeouts, series_of, ssvp_defaults
from vidcc.papers.verdicts import all_of, bound, within


def tcp_gets_its_fair_share(d):
    nt = d.summary("nt", by="n", part="ssvp", where={"label": "ftp"}, prepare=tcp_nt)
    util = d.summary("utilisation", by="n", group=None, part="ssvp", prepare=utilisation)
    return all_of(within(nt, 0.8, 1.25, name="FTP normalized throughput"), bound(util, ">", 0.8, name="utilisation"))


def ssvp_takes_more_than_its_share(d, m):
    f = tcp_nt(d.flows("ssvp"))
    at = {}
    for n, g in f.groupby("n"):
        ss = g[g["label"] == "ssvp"]["throughput_bps"].mean()
        ft = g[g["label"] == "ftp"]["throughput_bps"].mean()
        share = CAPACITY / (n + 1)
        at[int(n)] = (ss, share, ft)
        m[f"SSVP throughput (kbit/s) [n={int(n)}]"] = round(ss / 1e3)
        m[f"fair share B/(N+1) (kbit/s) [n={int(n)}]"] = round(share / 1e3)
        m[f"FTP throughput per flow (kbit/s) [n={int(n)}]"] = round(ft / 1e3)
    to, le = reno_timeouts(d, "ssvp")
    m["Reno timeouts"], m["Reno loss events"] = to, le
    cells = "; ".join(
        f"N={n}: SSVP {ss / 1e3:.0f} kbit/s vs share {sh / 1e3:.0f}, FTP {ft / 1e3:.0f} kbit/s each"
        for n, (ss, sh, ft) in sorted(at.items())
    )
    return (
        f"SSVP takes more than the FTP flows on the BDP buffer — {cells}; Reno recovers by timeout "
        f"({to} timeouts for {le} loss events)"
    )


def udp_video_leaves_link_used(d):
    return bound(
        d.summary("utilisation", by="n", group=None, part="udp", prepare=utilisation),
        ">",
        0.8,
        name="utilisation with a 380 kbit/s plain UDP video",
    )


def reno_beside_udp_video(d, m):
    f = d.flows("udp")
    f1 = f[f["n"] == f["n"].min()]
    ft = f1[f1["label"] == "ftp"]["throughput_bps"].mean()
    ud = f1[f1["label"] == "udp"]["throughput_bps"].mean()
    to, le = reno_timeouts(d, "udp")
    m.update(
        {
            "smallest N": int(f1["n"].iloc[0]),
            "Reno throughput at the smallest N (kbit/s)": round(ft / 1e3),
            "UDP video throughput at the smallest N (kbit/s)": round(ud / 1e3),
            "capacity the video leaves (kbit/s)": round((CAPACITY - ud) / 1e3),
            "Reno timeouts": to,
            "Reno loss events": le,
        }
    )
    return (
        f"at N = {int(f1['n'].iloc[0])} the single Reno flow gets {ft / 1e3:.0f} kbit/s of the "
        f"{(CAPACITY - ud) / 1e3:.0f} kbit/s the video ({ud / 1e3:.0f} kbit/s) leaves: beside the VBR video on the BDP "
        f"buffer Reno recovers by timeout ({to} timeouts for {le} loss events)"
    )


def tcp_not_starved_after_join(d):
    import numpy as np

    ratios, settle_ssvp, settle_tcp, collapse = [], [], [], []
    for r in d.runs("ssvp")["run_id"]:
        s = {lab: series_of(d, "ssvp", lab, r) for lab in ("ftp", "ssvp")}
        win = {lab: x[(x["t_ns"] >= 30e9) & (x["t_ns"] <= 60e9)]["throughput_bps"].mean() for lab, x in s.items()}
        ratios.append(win["ftp"] / win["ssvp"] if win["ssvp"] > 0 else math.inf)
        # Both from 20 s, when SSVP joins and TCP starts sharing the link (§6.1: "TCP converges
        # faster to the steady state than SSVP" is said of the competition after the join).
        for lab, start, out in (("ssvp", 20e9, settle_ssvp), ("ftp", 20e9, settle_tcp)):
            # The first crossing of its 30–60 s mean from the side it starts on: SSVP rises to it,
            # TCP (alone on the link until 20 s) falls to it.
            x = s[lab][s[lab]["t_ns"] >= start].sort_values("t_ns")
            above = x["throughput_bps"].iloc[0] >= win[lab] if not x.empty else False
            hit = x[x["throughput_bps"] <= win[lab]] if above else x[x["throughput_bps"] >= win[lab]]
            out.append((float(hit["t_ns"].min()) - start) / 1e9 if not hit.empty else math.inf)
        x = s["ftp"][s["ftp"]["t_ns"] >= 20e9].sort_values("t_ns")
        low = x["throughput_bps"].to_numpy() < 0.01 * CAPACITY
        dt = float(np.median(np.diff(x["t_ns"].to_numpy()))) / 1e9 if len(x) > 1 else 0.15
        run, longest = 0, 0
        for b in low:
            run = run + 1 if b else 0
            longest = max(longest, run)
        collapse.append(longest * dt)
        win_tp = win
    ratio = sum(ratios) / len(ratios)
    measured = {
        "TCP/SSVP throughput 30–60 s": ratio,
        "SSVP time to its 30–60 s mean rate after 20 s (s)": max(settle_ssvp),
        "TCP time to its 30–60 s mean rate after 20 s (s)": max(settle_tcp),
        "longest TCP stretch < 10 kbit/s after 20 s (s)": max(collapse),
        "TCP throughput 30–60 s, last seed (kbit/s)": win_tp["ftp"] / 1e3,
        "SSVP throughput 30–60 s, last seed (kbit/s)": win_tp["ssvp"] / 1e3,
    }
    checks = [
        (0.5 <= ratio <= 2, f"TCP/SSVP = {ratio:.3f} outside [0.5, 2]"),
        (max(settle_ssvp) > max(settle_tcp), "SSVP does not need more time than TCP to reach its mean rate"),
        (max(collapse) <= 1.0, f"TCP near 0 for {max(collapse):.1f} s after 20 s"),
    ]
    return judged(measured, checks, f"TCP/SSVP = {ratio:.2f}; SSVP settles later than TCP; no TCP collapse")


def reno_recovers_by_timeout(d, m):
    to, le = reno_timeouts(d, "ssvp")
    m["Reno timeouts"], m["Reno loss events"] = to, le
    return (
        f"on the BDP buffer Reno recovers by timeout ({to} timeouts for {le} loss events)"
    )


# Over-claim evidence of C10 and C11 (claims.FRIENDLINESS): what Alg. 2 would need to leave the
# Reno flows the share the claims give them, beside what SSVP met in the run.


def decreases_needed(alpha: float, beta: float, w: float) -> float:
    """The share of SSVP's adjustment periods that must end in a decrease for Alg. 2 to hold a mean
    of ``w`` packets per RTT: +α packets per RTT per increase balance ×β per decrease when
    (1 − q)·α = q·(1 − β)·w, i.e. q = α/(α + (1 − β)·w)."""
    return alpha / (alpha + (1 - beta) * w)


def per_packet_need(share_bps: float, rtt_s: float) -> tuple[float, float]:
    """``(decreases needed per packet sent, packets per RTT)`` for SSVP to hold ``share_bps`` at a
    round-trip time of ``rtt_s``: one adjustment per RTT, or per packet below one packet per RTT."""
    alpha, beta = ssvp_defaults()
    w = share_bps * rtt_s / S_BITS
    return decreases_needed(alpha, beta, w) / max(w, 1.0), w


def _rtt(flows) -> float:
    """The flows' mean round-trip time (s): forward delay met, queueing included, plus the return
    path's propagation (half the path's), as traces.rtt_series takes it."""
    return float((flows["mean_delay_ns"] + flows["path_rtt_ns"] / 2).mean()) / 1e9


def share_needs_decreases(d, m) -> str:
    """C10: for every N at which SSVP takes more than its fair share B/(N+1) (so that the FTP flows
    cannot all have NT ≈ 1, the paper's "nearly 1"), the decreases per packet Alg. 2 needs to hold
    B/(N+1), against those it met; the Reno flows' timeouts; and what the Reno flows get beside an
    unresponsive video of the same rate (B1's runs of this figure)."""
    f = d.flows("ssvp")
    udp = d.flows("udp") if "udp" in d.ran else f.iloc[0:0]
    cells = []
    for n, g in f.groupby("n"):
        s = g[g["label"] == "ssvp"]
        allowed = CAPACITY / (int(n) + 1)
        if s.empty or s["throughput_bps"].mean() <= allowed:
            continue
        need, w = per_packet_need(allowed, _rtt(s))
        met = decreases_per_packet(d, "ssvp", s)
        beside_udp = udp[(udp["n"] == n) & (udp["label"] == "ftp")]["throughput_bps"].mean()
        beside_ssvp = g[g["label"] == "ftp"]["throughput_bps"].mean()
        m[f"fair share B/(N+1) (kbit/s) [n={int(n)}]"] = round(allowed / 1e3)
        m[f"SSVP packets per RTT at B/(N+1) [n={int(n)}]"] = w
        m[f"decreases per packet needed to hold B/(N+1) [n={int(n)}]"] = need
        m[f"decreases per packet SSVP met [n={int(n)}]"] = met
        m[f"FTP throughput per flow beside UDP (kbit/s) [n={int(n)}]"] = round(beside_udp / 1e3)
        cells.append(
            f"N={int(n)}: {allowed / 1e3:.0f} kbit/s takes {need:.3f}, it met {met:.3f}; FTP "
            f"{beside_ssvp / 1e3:.0f} kbit/s each beside SSVP, {beside_udp / 1e3:.0f} beside UDP"
        )
    to, le = reno_timeouts(d, "ssvp")
    m["Reno timeouts"], m["Reno loss events"] = to, le
    return (
        f"for every FTP flow to get B/(N+1) (NT = 1) SSVP must hold B/(N+1) too, which by Alg. 2's balance takes a "
        f"decrease per packet it sends of — {'; '.join(cells) or 'no N where SSVP exceeds it'}; the Reno "
        f"flows recover by timeout ({to} timeouts for {le} loss events)"
    )


def half_needs_decreases(d, m) -> str:
    """C11: the decreases per packet Alg. 2 needs for SSVP to keep TCP/SSVP ≥ 0.5 over 30–60 s
    (SSVP at most two thirds of what the two carry), against those it met."""
    f = d.flows("ssvp", {"label": "ssvp"})
    needs, mets = [], []
    for r in d.runs("ssvp")["run_id"]:
        win = {lab: series_of(d, "ssvp", lab, r) for lab in ("ftp", "ssvp")}
        both = sum(x[(x["t_ns"] >= 30e9) & (x["t_ns"] <= 60e9)]["throughput_bps"].mean() for x in win.values())
        s = f[f["run_id"] == r]
        if s.empty or not both > 0:
            continue
        needs.append(per_packet_need(2 * both / 3, _rtt(s))[0])
        mets.append(decreases_per_packet(d, "ssvp", s))
    need = min(needs) if needs else math.nan
    met = max(mets) if mets else math.nan
    to, le = reno_timeouts(d, "ssvp")
    m.update({"decreases per packet needed for TCP/SSVP ≥ 0.5 (least over seeds)": need,
              "decreases per packet SSVP met (most over seeds)": met, "Reno timeouts": to, "Reno loss events": le})
    return (
        f"for TCP/SSVP ≥ 0.5 SSVP must stay at two thirds of what the two carry, which takes at least {need:.4f} "
        f"decreases per packet it sends; it met at most {met:.4f}, while Reno recovered by timeout ({to} timeouts "
        f"for {le} loss events)"
    )
