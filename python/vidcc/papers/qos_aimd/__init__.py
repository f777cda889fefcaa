"""QoS-aware AIMD for time-sensitive traffic over wired + last-hop wireless links: Cai, Shen,
Mark, Pan (c. 2005). Experiments A–D (Figs. 5–9) and claims A1–A12, S1–S18 of
``specs/003-qos-aimd.md``.

Reconstruction notes (digest tags [P]/[D]/[U]; ours are marked "suite"):

* Path CH —100 Mb/s— r1 —100 Mb/s backbone (RED)— r2 —100 Mb/s— BS —wireless— MH [P]; one-way
  delays 1 / 35 / 1 / 1 ms (suite [U]: minimum RTT ≈ 85 ms = 17 slots with the 5 ms slot of a
  125 B packet at 200 kb/s and the 40 B acks); cross TCP enters at r1 and leaves at r2.
* Wireless downlink 200 kb/s [P]; the simulator's links are symmetric, so the uplink is also
  200 kb/s (suite; the paper's is 100 kb/s, which only acks use). Two-state channel [P]:
  Gilbert-Elliott with loss 1 in the bad state and 0 in the good one, mean bad burst 2 packets
  (r = 0.5, "mildly bursty", digest §2.7), p = p_e·r/(1 − p_e) so that the mean loss is p_e; the
  chain advances per packet, not per slot (suite).
* RED on the backbone [P] with parameters [U] from ns-2's automatic configuration: thresholds
  50 / 150 packets (5 ms / 15 ms at 100 Mb/s and 1250 B), w_q 0.002, max_p 0.1, gentle.
* Link-layer ARQ (persistent retransmission, Figs. 5–9 except UDP-without-ARQ) is the
  ``wireless-arq`` feature; the AIMD protocol is ``qos-aimd``; cross traffic is TCP SACK
  (``tcp-sack``). Runs 80 s, statistics after 5 s [P]; 5 seeds [U].
* Runs today: Fig. 9's UDP CBR without ARQ (a paper run: BS buffer 10 packets [P], 125 B
  packets [U], rates 0.5–1.1 pkt/slot [U]) and a baseline for Fig. 6: TCP NewReno elephants
  (1250 B [P], 1 MB window so that the window does not bind, suite) alone on the backbone.
"""

from __future__ import annotations

import math

from vidcc.papers.framework import (
    Axis,
    Claim,
    Figure,
    Part,
    Plot,
    Q,
    Suite,
    droptail,
    flow,
    glink,
    graph,
    red,
    scenario,
    within,
)

SEEDS = Q([1, 2], [1, 2, 3, 4, 5])
DURATION = Q("20s", "80s")
SLOT_S = 0.005
WIRELESS_BPS = 200_000
BURST_R = 0.5
PE_AXIS = Q([0.01, 0.05, 0.1], [0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10])
BACKBONE_LINK = 2  # index of r1–r2 in topology.links
WIRELESS_LINK = 5  # index of BS–MH


def ge(p_e: float) -> dict:
    return {"kind": "gilbert-elliott", "p": round(p_e * BURST_R / (1 - p_e), 9), "r": BURST_R}


def topo(p_e: float, *, bs_buffer=10, arq: bool = False) -> dict:
    wireless = glink("BS", "MH", "200kbps", "1ms", queue=droptail(bs_buffer), loss=ge(p_e))
    if arq:
        wireless["arq"] = {"kind": "persistent"}  # the expected shape (see FEATURES["wireless-arq"])
    return graph(
        ["CH", "TS", "r1", "r2", "BS", "TD", "MH"],
        [
            glink("CH", "r1", "100Mbps", "1ms", monitor=False),
            glink("TS", "r1", "100Mbps", "1ms", monitor=False),
            glink("r1", "r2", "100Mbps", "35ms", queue=red(min_thresh=50, max_thresh=150, mean_packet_size="1250B")),
            glink("r2", "BS", "100Mbps", "1ms", monitor=False),
            glink("r2", "TD", "100Mbps", "1ms", monitor=False),
            wireless,
        ],
    )


def pe_axis() -> Axis:
    return Axis(f"topology.links[{WIRELESS_LINK}].loss.p", Q([ge(x)["p"] for x in PE_AXIS.quick], [ge(x)["p"] for x in PE_AXIS.full]), "ge_p")


def with_pe(df):
    """p_e (the channel's mean loss) from the swept Gilbert p."""
    df = df.copy()
    df["p_e"] = (df["ge_p"] / (df["ge_p"] + BURST_R)).round(4)
    return df


def aimd(label="aimd", **keys) -> dict:
    return flow("qos-aimd", label=label, src="CH", dst="MH", packet_size="125B", **keys)


def elephants(count, **keys) -> dict:
    return flow("tcp-sack", label="tcp", count=count, src="TS", dst="TD", packet_size="1250B", **keys)


def pkt_per_slot(df, size_bytes: float = 125.0):
    df = df.copy()
    df["pkt_per_slot"] = df["throughput_bps"] * SLOT_S / (size_bytes * 8)
    return df


def rate_kbps(df):
    from vidcc import _vidcc

    df = df.copy()
    df["rate_kbps"] = [_vidcc.parse_rate(r) / 1000 for r in df["rate"]]
    return df


UDP_RATES = Q(["120kbps", "160kbps", "200kbps"], ["100kbps", "120kbps", "140kbps", "160kbps", "180kbps", "200kbps", "220kbps"])


def udp_noarq() -> dict:
    return scenario(DURATION, topo(0.1), [flow("udp-cbr", label="udp", rate="160kbps", packet_size="125B", src="CH", dst="MH")],
                    warmup="5s", packet_log=True)


def backbone(n) -> dict:
    return scenario(DURATION, topo(0.01), [flow("tcp-newreno", label="tcp", count=n, src="TS", dst="TD", packet_size="1250B",
                                                max_window="1MB", start=["0s", "1s"], send_jitter="100us")], warmup="5s")


FIGURES = [
    Figure("fig5", "Largest rwnd meeting the 1 % delay-outage target against p_e (Exp. A)", "Fig. 5a,b",
           "The AIMD flow alone on the wireless hop (with ARQ) under light (a) or heavy (b: backbone the bottleneck from 30 "
           "to 60 s) TCP cross traffic; for each p_e the largest rwnd whose measured outage stays below 1 %, against the "
           "analytical W_max.",
           parts=[Part(f"aimd-{load}", scenario(DURATION, topo(0.05, bs_buffer=25, arq=True), [aimd(), elephants(n)], warmup="5s",
                                                 packet_log=True), axes=[pe_axis()], seeds=SEEDS, needs=("wireless-arq",), tags={"cross": load},
                       note="rwnd sweep per p_e: the qos-aimd rwnd key is added with the protocol")
                  for load, n in (("light", 5), ("heavy", 60))]),
    Figure("fig6", "Utilisation and TCP-friendliness against the number of backbone flows (Exp. B)", "Fig. 6a,b",
           "The target AIMD flow (rwnd = W_max) with 0–100 TCP SACK elephants on the backbone, p_e = 0.01 (a) and 0.1 (b): "
           "its normalised throughput and the average over all backbone flows. Baseline part backbone: TCP NewReno "
           "elephants alone (1250 B, packets per 5 ms slot; expected ≈ 50/N).",
           parts=[*[Part(f"aimd-pe{pe}", scenario(DURATION, topo(pe, bs_buffer=25, arq=True), [aimd(), elephants(10)], warmup="5s",
                                                  packet_log=True),
                         axes=[Axis("flows[1].count", Q([10, 50, 100], list(range(0, 101, 10))[1:]), "n")], seeds=SEEDS,
                         needs=("wireless-arq",), tags={"p_e": pe}) for pe in (0.01, 0.1)],
                  Part("backbone", backbone(10), axes=[Axis("flows[0].count", Q([10, 50], list(range(10, 101, 10))), "n")],
                       seeds=SEEDS, kind="baseline", note="TCP NewReno in place of TCP SACK, without the AIMD flow")],
           plots=[Plot("backbone", "Backbone TCP flows: mean throughput per 5 ms slot", "pkt_per_slot", axis="n", parts=["backbone"],
                       where={"label": "tcp"}, prepare=lambda df: pkt_per_slot(df, 1250.0), xlabel="backbone flows N",
                       ylabel="packets (1250 B) per slot"),
                  Plot("backbone-nt", "Backbone TCP flows: throughput / (100 Mb/s / N)", "normalized_throughput", axis="n",
                       parts=["backbone"], where={"label": "tcp"}, xlabel="backbone flows N", ylabel="normalized throughput",
                       hlines=[(1.0, "fair share")])]),
    Figure("fig7", "Two AIMD flows on one wireless link (Exp. C)", "Fig. 7a,b",
           "N = 2 AIMD flows with equal-share windows (eq. 4): R = (17, 17) slots (a) or (17, 25) (b); per-flow normalised "
           "throughput and outage against p_e.",
           parts=[Part(f"aimd-2x{rt}", scenario(DURATION, topo(0.05, bs_buffer=24, arq=True), [aimd(count=2)], warmup="5s", packet_log=True),
                       axes=[pe_axis()], seeds=SEEDS, needs=("wireless-arq",), tags={"rtts": rt},
                       note="the second RTT class (25 slots) needs a per-flow access delay: added with the protocol")
                  for rt in ("17-17", "17-25")]),
    Figure("fig8", "Four AIMD flows on one wireless link (Exp. C)", "Fig. 8a,b",
           "N = 4 AIMD flows with eq. (4) windows, all R = 17 (a) or R = (17, 25, 17, 25) (b).",
           parts=[Part(f"aimd-4x{rt}", scenario(DURATION, topo(0.05, bs_buffer=24, arq=True), [aimd(count=4)], warmup="5s", packet_log=True),
                       axes=[pe_axis()], seeds=SEEDS, needs=("wireless-arq",), tags={"rtts": rt}) for rt in ("17", "17-25")]),
    Figure("fig9", "AIMD against UDP CBR with and without ARQ (Exp. D, p_e = 0.1)", "Fig. 9",
           "UDP CBR at fixed rates through a 10-packet BS buffer, with and without link ARQ, against the AIMD flow (ARQ, "
           "B = rwnd): normalised goodput, packet loss rate and delay-outage rate (delay jitter > 50 ms).",
           parts=[Part("udp-noarq", udp_noarq(), axes=[Axis("flows[0].rate", UDP_RATES, "rate")], seeds=SEEDS),
                  Part("udp-arq", scenario(DURATION, topo(0.1, arq=True), [flow("udp-cbr", label="udp", rate="160kbps", packet_size="125B",
                                                                                src="CH", dst="MH")], warmup="5s", packet_log=True),
                       axes=[Axis("flows[0].rate", UDP_RATES, "rate")], seeds=SEEDS, needs=("wireless-arq",)),
                  Part("aimd", scenario(DURATION, topo(0.1, bs_buffer=20, arq=True), [aimd()], warmup="5s", packet_log=True),
                       seeds=SEEDS, needs=("wireless-arq",))],
           plots=[Plot("loss-udp", "UDP without ARQ: packet loss rate", "drop_rate", axis="rate_kbps", parts=["udp-noarq"],
                       prepare=rate_kbps, xlabel="CBR rate (kb/s)", ylabel="loss rate", hlines=[(0.1, "p_e")]),
                  Plot("goodput-udp", "UDP without ARQ: packets per slot", "pkt_per_slot", axis="rate_kbps", parts=["udp-noarq"],
                       prepare=lambda df: pkt_per_slot(rate_kbps(df)), xlabel="CBR rate (kb/s)", ylabel="packets per 5 ms slot")]),
]


# ---- checks ---------------------------------------------------------------------------------


def outage(d, part: str, label: str = "udp", bound_ms: float = 50.0):
    """Per run: share of received packets whose delay exceeds the flow's minimum by more than
    ``bound_ms`` (delay jitter > D = 50 ms), after the warm-up; with the run's axis columns."""
    import json

    import pandas as pd

    rows = []
    flows = d.flows(part, {"label": label})
    for r in d.runs(part).to_dict("records"):
        warm = json.loads(r["resolved_json"]).get("warmup_ns", 0)
        pk = d.series(r["run_id"], "packets")
        ids = set(flows[flows["run_id"] == r["run_id"]]["flow"])
        pk = pk[pk["flow"].isin(ids) & (pk["sent_ns"] >= warm) & (pk["fate"] == "delivered")]
        delay = pk["arrival_ns"] - pk["sent_ns"]
        frac = float((delay - delay.min() > bound_ms * 1e6).mean()) if len(delay) else math.nan
        rows.append({"run_id": r["run_id"], "seed": r["seed"], "rate": r.get("rate"), "outage": frac})
    return pd.DataFrame(rows)


def s15(d):
    from vidcc import _vidcc
    from vidcc.analysis import summarize

    f = d.flows("udp-noarq", {"label": "udp"})[["run_id", "seed", "rate", "drop_rate"]]
    o = outage(d, "udp-noarq")
    m = f.merge(o[["run_id", "outage"]], on="run_id")
    m["loss_plus_outage"] = m["drop_rate"] + m["outage"]
    m = m[[_vidcc.parse_rate(r) < WIRELESS_BPS for r in m["rate"]]]
    s = summarize(m, "loss_plus_outage", by="rate", group=None)
    v = within(s, 0.08, 0.12, name="loss + outage (UDP, no ARQ)")
    v.measured.update({f"outage[rate={r}]": float(x) for r, x in summarize(m, "outage", by="rate", group=None)[["rate", "mean"]].values})
    return v


def s5(d):
    f = d.flows(["aimd-pe0.01", "aimd-pe0.1"], {"label": "aimd"})
    f = pkt_per_slot(f[f["n"] < 50])
    from vidcc.analysis import summarize

    s = summarize(f, "pkt_per_slot", by="p_e", group=None)
    rows = [within(s[s["p_e"] == pe], 0.97 * (1 - pe), 1.03 * (1 - pe), name=f"AIMD pkt/slot (p_e={pe})") for pe in (0.01, 0.1)]
    from vidcc.papers.framework import all_of

    return all_of(*rows)


def b_backbone(d):
    return within(d.summary("normalized_throughput", by="n", part="backbone", where={"label": "tcp"}), 0.9, 1.1,
                  name="mean throughput / (100 Mb/s / N)")


def pending(why: str) -> dict:
    return {"pending": why}


ANALYTIC = "analytic claim: checked against the qos-aimd analysis module (T_n, eqs. 1–10) once it exists"
SIM = "needs the AIMD flow's results with link ARQ (outage, rwnd sweep)"
AIMD = ("qos-aimd",)


def A(cid, text, ref):
    return Claim(cid, text, None, AIMD, ref=ref, pending=ANALYTIC)


CLAIMS = [
    A("A1", "alpha(β) = 3(1−β)/(1+β): alpha(0.875) = 0.2, alpha(0.5) = 1; strictly decreasing onto (0, 3); beta(alpha(β)) = β.", "eq. (10)"),
    A("A2", "slot = 125·8/200 000 s = 5 ms; R = 85/5 = 17; D = 50/5 = 10 slots; 25 slots = 125 ms.", "§V setup"),
    A("A3", "Single flow with W ≥ R, B ≥ W: the BS queue never empties (Q ≥ W − R + 1); throughput = 1 − p_e pkt/slot.", "§III-C"),
    A("A4", "Pr{d_q > D | W} = Σ_{x<W} T_{R+D}(x), non-decreasing in W; W_max = largest W with value ≤ ε.", "eq. (1)"),
    A("A5", "With B ≥ W and an i.i.d. channel eq. (2) = eq. (1); eq. (2) non-increasing as B falls below W.", "eq. (2)"),
    A("A6", "L(B, W) = Σ_{x=0}^{W−B−1} T_{R−1}(x); 0 when B ≥ W; p_e = 0.1, R = 17, W = 20, B = 10 gives 5.045345e−04.", "§III-C"),
    A("A7", "Closed-form windows add to S and satisfy eqs. (3)–(4); equal R, p give equal windows; R = (17, 25): W_2 − W_1 = 4(1 − p_e).", "eqs. (3)–(4)"),
    A("A8", "T_n(·; 1) = T_n(·); Σ_x T_n(x; p) = 1; mean of T_n(·; p) = p·E[T_n].", "eq. (5)"),
    A("A9", "Equal R_i: Pr{Q = x} = T_{R−1}(S − x); eq. (7) = eq. (2) at W = S; eq. (8) = single-flow L(B, S); L = 0 when B ≥ S.", "eqs. (6)–(8)"),
    A("A10", "S ≥ R_N ⇒ Q ≥ S − R_N + 1 ≥ 1; flow i's throughput = (1 − p_e)p_i.", "§III-D"),
    A("A11", "After one wired loss the window drops to β·rwnd; keeping the link busy needs rwnd ≥ 20 for R = 17, β = 0.875.", "§IV-B"),
    A("A12", "i.i.d. reference W_max = 25, 24, 24, 23, 22, 22, 22, 21, 21, 20 for p_e = 0.01…0.10.", "§2.7 [D]"),
    Claim("S1", "Light cross traffic: the simulated largest rwnd with outage < 1 % matches the analytical W_max (|sim − ana| ≤ 1) for every p_e.",
          "fig5", AIMD + ("tcp-sack",), needs=("wireless-arq",), ref="Fig. 5a", pending=SIM),
    Claim("S2", "Heavy cross traffic: the analytical W_max is at most the simulated one.", "fig5", AIMD + ("tcp-sack",), needs=("wireless-arq",),
          ref="Fig. 5b", pending=SIM),
    Claim("S3", "W_max never increases with p_e; from p_e = 5 % to 8 % it changes by exactly 1.", "fig5", AIMD + ("tcp-sack",),
          needs=("wireless-arq",), ref="Fig. 5", pending=SIM),
    Claim("S4", "With the 'optimal' link scheme in place of persistent transmission, analysis and simulation still agree.", None, AIMD,
          needs=("wireless-arq",), ref="§V-A", pending=SIM + " and the optimal transmission scheme"),
    Claim("S5", "Fewer than 50 backbone flows: the AIMD flow's normalised throughput ≈ 1 − p_e (0.99 at p_e = 0.01, 0.90 at 0.1; ± 3 %).",
          "fig6", AIMD + ("tcp-sack",), s5, needs=("wireless-arq",), ref="Fig. 6a/b"),
    Claim("S6", "More than 50 flows: the AIMD flow's throughput ≈ the average normalised throughput of all backbone flows (not above).",
          "fig6", AIMD + ("tcp-sack",), needs=("wireless-arq",), ref="Fig. 6a/b", pending=SIM),
    Claim("S7", "The backbone's average normalised throughput is > 1 pkt/slot below 50 flows and < 1 above (≈ 50/(N + 0.1)).", "fig6",
          AIMD + ("tcp-sack",), needs=("wireless-arq",), ref="Fig. 6", pending=SIM),
    Claim("S8", "The delay-outage rate stays below 1 % in every Fig. 6 case.", "fig6", AIMD + ("tcp-sack",), needs=("wireless-arq",),
          ref="§V-B", pending=SIM),
    Claim("S9", "AIMD loss is negligible below 50 flows and rises to 2.8 % at 100 flows (wired congestion, no BS overflow).", "fig6",
          AIMD + ("tcp-sack",), needs=("wireless-arq",), ref="§V-B", pending=SIM),
    Claim("S10", "When the backbone is the bottleneck the wireless capacity is under-used (throughput < 1 − p_e).", "fig6",
          AIMD + ("tcp-sack",), needs=("wireless-arq",), ref="§V-B", pending=SIM),
    Claim("S11", "Two AIMD flows, R = 17, equal-share windows: each ≈ (1 − p_e)/2; total ≈ 1 − p_e; outage ≤ ≈ 1 %.", "fig7", AIMD,
          needs=("wireless-arq",), ref="Fig. 7a", pending=SIM),
    Claim("S12", "Two flows with R = 17 and 25, eq. (4) windows: throughputs ≈ equal; outage ≤ ≈ 1 %.", "fig7", AIMD, needs=("wireless-arq",),
          ref="Fig. 7b", pending=SIM),
    Claim("S13", "Four flows (R all 17, or 17/25/17/25): each ≈ (1 − p_e)/4; outage ≤ ≈ 1 %.", "fig8", AIMD, needs=("wireless-arq",),
          ref="Fig. 8a/b", pending=SIM),
    Claim("S14", "Integer windows meet eq. (4) only approximately: throughput ratio within 10 %, outage ≤ 1.5 %.", "fig8", AIMD,
          needs=("wireless-arq",), ref="§V-C", pending=SIM),
    Claim("S15", "p_e = 0.1, UDP without ARQ: packet loss plus delay outage ≈ 0.1 (loss ≈ p_e): within 0.1 ± 0.02 at every CBR rate below the link rate (suite tolerance).",
          "fig9", ("udp-cbr",), s15, parts=("udp-noarq",), ref="Fig. 9"),
    Claim("S16", "At every UDP CBR rate, with or without ARQ, UDP goodput < AIMD goodput and UDP loss and outage > AIMD's.", "fig9",
          AIMD + ("udp-cbr",), needs=("wireless-arq",), ref="Fig. 9", pending=SIM),
    Claim("S17", "UDP with ARQ must stay below the mean link throughput (0.9 pkt/slot) to avoid heavy outage, which rises quickly near it.",
          "fig9", ("udp-cbr",), needs=("wireless-arq",), parts=("udp-arq",), ref="§V-D", pending="needs the UDP-with-ARQ runs"),
    Claim("S18", "The AIMD flow (B = rwnd = W_max, ARQ) keeps outage below ≈ 1 % and loss ≈ 0 with light cross traffic.", "fig9", AIMD,
          needs=("wireless-arq",), ref="§V-D", pending=SIM),
    Claim("B1", "Baseline: N = 10..100 TCP NewReno elephants (1250 B) alone on the 100 Mb/s RED backbone each get ≈ 100 Mb/s / N (≈ 50/N packets per 5 ms slot): mean normalized throughput within 1 ± 0.1.",
          "fig6", ("tcp-newreno",), b_backbone, kind="baseline", parts=("backbone",)),
]

SUITE = Suite(
    name="qos-aimd",
    title="A QoS-aware AIMD protocol for time-sensitive applications in wired/wireless networks",
    citation="Cai, Shen, Mark, Pan (University of Waterloo / NTT MCL), c. 2005",
    digest="specs/003-qos-aimd.md",
    figures=FIGURES,
    claims=CLAIMS,
    notes=[__doc__.split("Reconstruction notes", 1)[1].split("\n", 1)[1].strip()],
)
