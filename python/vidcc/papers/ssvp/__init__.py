"""SSVP (AIMD through the inter-packet gap) and its receiver-buffered layered adaptation:
Papadimitriou & Tsaoussidis, Computer Networks, 2007. Scenarios D1–D4, X1–X3 and claims
C1–C22 of ``docs/papers/ssvp.md``.

Reconstruction notes (the SSVP paper page tags [P]/[I]/[U]; ours are marked "suite"):

* Dumbbell (Fig. 6a): 1 Mbit/s bottleneck, 20 ms one way, access 10 Mbit/s / 1 ms (RTT 44 ms)
  [P/U]; drop-tail buffer = BDP = 6 packets [I]. 60 s runs, 2 s warm-up [P]; 5 seeds [U].
* Cross-traffic topology (Fig. 6b): the graph R1–R2–R3 shared with the DVRC suite
  (papers/cross_traffic.py): R1–R2 5 Mbit/s, R2–R3 10 Mbit/s, 10 ms (suite), so that R1 is the
  MPEG flows' bottleneck and R2 the one they share with the 10 FTP flows (R2→R3), as the DVRC
  paper (§4.1) says of the same figure; drop-tail queues of one bandwidth-delay product [P]
  (R2's queue is measured). Every flow has its own access
  links [P]: U[5, 15] ms, U[2, 10] Mbit/s [P ranges, U uniform]; MPEG sinks 2 Mbit/s with 1 %
  Bernoulli packet errors, data direction [P/U]; start times U[0, 1] s [U].
* MPEG flows carry the TES MPEG-4 video at 380 kbit/s mean [U] (GOP IBBPBBPBBPBB, 25 fps);
  plain UDP sends it as it comes; TFRC runs with ns-2 2.35's Agent/TFRC defaults (suite: the
  paper leaves them to its tool; ``vidcc.protocols.tfrc.NS2_AGENT``); TCPW+ carries it through the ``video-over-tcp`` feature (an
  unbounded send buffer, frames dated by in-order delivery, docs/protocols/tcp.md);
  SSVP-LA's n = 4 equal layers (95 kbit/s each [U]) and SSVP's own keys are added by the SSVP
  issue.
* TCP Reno FTP, 1000 B, 64 kB window [P] (scenario default), ns-2 2.35's Agent/TCP otherwise
  (papers/ns2.py): initial RTO 3 s, min RTO 0.2 s, IW 2, no delayed ACK, no send jitter
  (overhead_ 0). ns-2's limited transmit (singledup_ 1) has no vidcc counterpart: a departure.
* Runs today: every part; as a baseline the D2 dumbbell with
  a plain UDP 380 kbit/s video in place of SSVP. D1 samples throughput every 100 ms (C7's CoV
  bins [I]). Suite additions: a ``startup`` figure (bulk SSVP alone on the free dumbbell, with and
  without startup, for C5) and the ``immediate`` part of Fig. 14 (§6.3's immediate adaptation, C19).
* The unit-level claims C3, C4, C6 and the TFRC sanity claim C22 are checked on the
  implementation's own numbers (``_vidcc.ssvp_unit_measurements``: the layer rule at the worked
  example, Alg. 2 on a scripted stream of control packets, Eq. 2 at the sender endpoint and the
  estimator on fixed and random samples, TFRC's loss-interval average and equation from a steady
  state) against values computed in ``ssvp/units.py`` from the paper's equations.
* C9 uses docs/papers/ssvp.md's PSNR proxy (§4): a decodable frame counts as ≥ 31 dB, an undecodable
  one (lost, or its reference lost, or late) as concealment.
"""

from __future__ import annotations

import math

from vidcc.papers import cross_traffic, ns2
from vidcc.papers.building import droptail, dumbbell, flow, scenario
from vidcc.papers.measures import per_run, queue_stats, video_flows
from vidcc.papers.model import (
    FAIL,
    PASS,
    Alternative,
    Axis,
    ByScale,
    Claim,
    Figure,
    Part,
    Plot,
    Suite,
    Verdict,
    reconstruction_notes,
    with_alternatives_named,
)
from vidcc.papers.ssvp import units
from vidcc.papers.verdicts import all_of, bound, direction, number, ordering, within
from vidcc.protocols.tfrc import NS2_AGENT

SEEDS = ByScale([1, 2], list(range(1, 11)))  # full: 10 seeds, enough for the stability rule (model.PASS_SHARE)
DURATION = ByScale("30s", "60s")
M_AXIS = ByScale([1, 20, 50], [1, 5, 10, 20, 30, 40, 50])
N_AXIS = ByScale([1, 5, 15], list(range(1, 31)))
TARGET = 380_000  # bit/s: the MPEG rate of §6.1 [P]
CAPACITY = 1_000_000

PROTOCOL = {"ssvp": "ssvp", "ssvp-la": "ssvp-layered", "tfrc": "tfrc", "tcpw+": "tcp-westwood-plus", "udp": "udp"}
VIDEO = {"model": "tes-mpeg4", "rate": "380kbps"}
LAYERED = {"model": "tes-mpeg4", "layers": ["95kbps", "190kbps", "285kbps", "380kbps"]}
NEEDS = {"tcpw+": ("video-over-tcp",)}

DUMBBELL = dumbbell("1Mbps", "20ms", access={"bandwidth": "10Mbps", "delay": "1ms"}, queue=droptail(6))


def mpeg(name: str, count=1, *, video: dict | None = None, **keys) -> dict:
    video = video or (LAYERED if name == "ssvp-la" else VIDEO)
    if name == "tcpw+":
        keys = {**TCP_KEYS, **keys}
    if name == "tfrc":
        # The paper ran ns-2 2.35's Agent/TFRC and sets none of its parameters: its defaults,
        # NS2_AGENT = tfrc.cc's rate rules with InitRate_ 300, rate_init_option_ 2, df_ 0.95,
        # ca_ 1 (sqrtrtt_ smoothed by df_), tzero_ at tcp_tick_ 0.1, no-feedback timer 2·rtt_,
        # sink numPkts_ 1, discount_ 1, minDiscountRatio_ 0.5.
        keys = {**NS2_AGENT, **keys}
    return flow(PROTOCOL[name], label=name, count=count, video=video, **keys)


def needs(name: str) -> tuple:
    return NEEDS.get(name, ())


# ns-2 2.35's Agent/TCP where the paper is silent (papers/ns2.py): rtxcur_init_ 3 s, minrto_ 0.2 s,
# windowInit_ 2, an ACK per segment, overhead_ 0 (no send jitter); the 64 kB window is the paper's
# (§5 "maximum congestion window to 64 KB"), the scenario default. ns-2's limited transmit
# (singledup_ 1) has no vidcc counterpart (docs/protocols/tcp.md): a departure.
TCP_KEYS = {k: v for k, v in ns2.tcp_keys(1000).items() if k != "max_window"}


def ftp(count, label="ftp", **keys) -> dict:
    return flow("tcp-reno", label=label, count=count, **{**TCP_KEYS, **keys})


CROSS_TOPO = cross_traffic.topology()  # shared with the DVRC suite (papers/cross_traffic.py)


def cross(name: str, count=1, *, errors: bool = True, **keys) -> dict:
    sink = {"bandwidth": "2Mbps", "delay": ["5ms", "15ms"]}
    if errors:
        sink["loss"] = {"kind": "bernoulli", "p": 0.01}
    return scenario(DURATION, CROSS_TOPO, [
        mpeg(name, count, **cross_traffic.mpeg_placement(sink), start=["0s", "1s"]),
        ftp(10, label="ftp", **cross_traffic.ftp_placement(), start=["0s", "1s"]),
    ], **keys)


def m_axis() -> Axis:
    return Axis("flows[0].count", M_AXIS, "m")


def d2(name: str) -> dict:
    return scenario(DURATION, DUMBBELL, [mpeg(name), ftp(1)])


# ---- derived columns ------------------------------------------------------------------------


def tcp_nt(df):
    """Normalized throughput: "the ratio of the average throughput received by each flow over the
    bandwidth fair share on each case" (§5). The DVRC paper of the same authors defines the same
    metric in the same words and writes the fair share out: B/n, n the number of flows sharing the
    bottleneck (DVRC §4.2). With N FTP flows and the SSVP flow: C/(N+1). (The suite's earlier
    max-min share, (C − min(d, C/(N+1)))/N with the video's demand d, differs only at N = 1, where
    d = 380 kbit/s < C/2.)"""
    df = df.copy()
    df["nt"] = df["throughput_bps"] / (CAPACITY / (df["n"].astype(float) + 1))
    return df


def utilisation(df):
    r = per_run(df[["run_id", "part", "seed", "n", "label", "throughput_bps"]].assign(label="all"), "throughput_bps", "sum")
    r["utilisation"] = r["throughput_bps"] / CAPACITY
    return r


def rate_plot(part, sel=None, title="Throughput, 150 ms samples"):
    return Plot(f"rate-{part}", title, "throughput_bps", kind="series", table="flow_samples", parts=[part], select=sel or {},
                ylabel="throughput (Mbit/s)", scale=1e-6)


def versus_m(pid, title, metric, ylabel, *, within="mean", scale=1.0, table="run_flows"):
    return Plot(pid, title, metric, axis="m", table=table, where={"label": ["ssvp", "ssvp-la", "tfrc", "tcpw+", "udp"]},
                within_run=within, xlabel="MPEG flows M", ylabel=ylabel, scale=scale)


def queue_plot(part: str) -> Plot:
    return Plot(f"queue-{part}", "Queue at R2 (towards R3)", "packets", kind="series", table="queue_samples", parts=[part],
                line="link", only=["R2->R3"], ylabel="packets")


FIGURES = [
    Figure(
        "fig7-9", "SSVP against two FTP flows on the 1 Mbit/s dumbbell (D1)", "Fig. 7, 8, 9",
        "One SSVP flow carrying MPEG-4 (380 kbit/s target) and two FTP/Reno flows: sending rates, packet jitter "
        "and per-frame PSNR.",
        parts=[Part("ssvp", scenario(DURATION, DUMBBELL, [mpeg("ssvp"), ftp(2)], sample_interval="100ms"),
                    seeds=SEEDS)],
        plots=[rate_plot("ssvp", title="Throughput, 100 ms samples"),
               Plot("jitter-ssvp", "Packet jitter (RFC 3550 estimate)", "jitter_ns", kind="series", table="flow_samples",
                    parts=["ssvp"], ylabel="jitter (ms)", scale=1e-6, hlines=[(75.0, "75 ms")])],
    ),
    Figure(
        "fig10", "Normalized throughput of N FTP flows against one SSVP flow (D2)", "Fig. 10",
        "One SSVP flow (380 kbit/s target) and N = 1..30 FTP/Reno flows: the FTP flows' throughput over their fair share "
        "B/(N+1), and the bottleneck utilisation. Baseline part udp: plain (unresponsive) UDP sending the "
        "380 kbit/s video in place of SSVP.",
        parts=[
            Part("ssvp", d2("ssvp"), axes=[Axis("flows[1].count", N_AXIS, "n")], seeds=SEEDS),
            Part("udp", d2("udp"), axes=[Axis("flows[1].count", N_AXIS, "n")], seeds=SEEDS, kind="baseline",
                 note="plain UDP video (380 kbit/s) in place of SSVP"),
        ],
        plots=[
            Plot("nt", "FTP flows: throughput / fair share B/(N+1)", "nt", axis="n", group="part", where={"label": "ftp"},
                 prepare=tcp_nt, xlabel="FTP flows N", ylabel="normalized throughput", hlines=[(1.0, "fair share")]),
            Plot("utilisation", "Bottleneck utilisation", "utilisation", axis="n", group="part", prepare=utilisation,
                 xlabel="FTP flows N", ylabel="utilisation", hlines=[(0.8, "0.8")]),
        ],
    ),
    Figure(
        "fig11", "SSVP (1 Mbit/s target) joining an FTP flow at 20 s (D3)", "Fig. 11",
        "One FTP flow from 0 s; one SSVP flow with a 1 Mbit/s target joins at 20 s and competes for 40 s.",
        parts=[Part("ssvp", scenario("60s", DUMBBELL, [ftp(1), mpeg("ssvp", start="20s", video={"model": "tes-mpeg4", "rate": "1Mbps"})]),
                    seeds=SEEDS)],
        plots=[rate_plot("ssvp")],
    ),
    Figure(
        "fig12", "Cross-traffic topology: goodput, VDI, delayed packets vs M (X1)", "Fig. 12a,b,c",
        "M = 1..50 MPEG flows of one protocol (SSVP, TFRC, TCP Westwood+ or UDP) and 10 FTP flows; 1 % packet errors "
        "on the MPEG sinks' links. Parts *-noerr: the same without the error model (claim C18).",
        parts=[*[Part(n, cross(n), axes=[m_axis()], seeds=SEEDS, needs=needs(n)) for n in ("ssvp", "tfrc", "tcpw+", "udp")],
               *[Part(f"{n}-noerr", cross(n, errors=False), axes=[m_axis()], seeds=SEEDS, needs=needs(n), tags={"errors": False})
                 for n in ("ssvp", "tfrc", "tcpw+")]],
        plots=[versus_m("goodput", "Goodput per MPEG flow", "goodput_bps", "goodput (kbit/s)", scale=1e-3),
               versus_m("drops", "Drop rate of the MPEG flows", "drop_rate", "drop rate")],
    ),
    Figure(
        "fig13", "Queue at R2 with 40 MPEG + 10 FTP flows (X2)", "Fig. 13a,b, Table 2",
        "R2's queue over time (10 ms samples) with 40 MPEG flows of each protocol; Table 2 gives the mean queue.",
        parts=[Part(n, cross(n, 40, queue_sample_interval="10ms"), seeds=SEEDS, needs=needs(n)) for n in ("ssvp", "tfrc", "tcpw+", "udp")],
        plots=[queue_plot(n) for n in ("udp", "ssvp", "tfrc", "tcpw+")],
    ),
    Figure(
        "fig14", "Layered SSVP: rate and active layers (D4)", "Fig. 14",
        "One SSVP-LA flow (n = 4 layers) and two FTP flows on the dumbbell: rate and layer count over time.",
        parts=[Part("ssvp-la", scenario(DURATION, DUMBBELL, [mpeg("ssvp-la"), ftp(2)]), seeds=SEEDS),
               Part("immediate", scenario(DURATION, DUMBBELL, [mpeg("ssvp-la", layer_policy="immediate"), ftp(2)]),
                    seeds=SEEDS, note="§6.3's immediate adaptation (the most layers that fit the rate) on the same scenario")],
        plots=[rate_plot("ssvp-la")],
    ),
    Figure(
        "startup", "SSVP's startup phase on a free 1 Mbit/s link (claim C5)", "§3.2 (no figure)",
        "One bulk SSVP flow alone on the 1 Mbit/s / 44 ms dumbbell, with and without the startup phase (docs/papers/ssvp.md C5).",
        parts=[Part("ssvp", scenario("10s", DUMBBELL, [flow("ssvp", label="ssvp")], warmup="0s"),
                    axes=[Axis("flows[0].startup", [True, False], "startup")], seeds=ByScale([1], [1, 2, 3]))],
        plots=[],
    ),
    Figure(
        "fig15", "SSVP vs SSVP-LA in the cross-traffic topology (X3)", "Fig. 15a,b",
        "M MPEG flows of SSVP (single layer, full quality) or SSVP-LA, with the 10 FTP flows: goodput and VDI.",
        parts=[Part(n, cross(n), axes=[m_axis()], seeds=SEEDS) for n in ("ssvp", "ssvp-la")],
        plots=[versus_m("goodput", "Goodput per MPEG flow", "goodput_bps", "goodput (kbit/s)", scale=1e-3)],
    ),
]


# ---- checks ---------------------------------------------------------------------------------


def c8(d):
    worst = []
    for r in d.runs("ssvp").to_dict("records"):
        s = d.series(r["run_id"], "flow_samples")
        f = d.flows("ssvp", {"label": "ssvp"})
        ids = f[f["run_id"] == r["run_id"]]["flow"]
        s = s[s["flow"].isin(ids) & (s["t_ns"] >= 2_000_000_000)]
        worst.append(float(s["jitter_ns"].max()) / 1e6)
    if not worst:
        return Verdict(FAIL, {}, "no SSVP runs")
    m = max(worst)
    return Verdict(PASS if m < 75 else FAIL, {"max jitter over 2–60 s, all seeds (ms)": m},
                   f"maximum jitter {m:.1f} ms {'<' if m < 75 else '≥'} 75 ms")

# ---- causes of non-reproductions: each a claim's ``cause``, measured when its check fails ------


def _events(d, part, kind=None, flow_label=None):
    """All events of a part's runs, with ``run_id``, ``seed``, axis columns and flow labels."""
    import pandas as pd

    flows = d.flows(part)
    out = []
    for run_id, f in flows.groupby("run_id", sort=True):
        ev = d.series(run_id, "events")
        if ev.empty:
            continue
        ev = ev.merge(f[["flow", "label"]], on="flow", how="left")
        if kind is not None:
            ev = ev[ev["kind"].isin([kind] if isinstance(kind, str) else list(kind))]
        if flow_label is not None:
            ev = ev[ev["label"] == flow_label]
        ev = ev.assign(run_id=run_id, seed=f["seed"].iloc[0])
        out.append(ev)
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame(columns=["t_ns", "flow", "side", "kind", "value", "label", "run_id"])


def _reno_timeouts(d, part, label="ftp"):
    ev = _events(d, part, ("timeout", "loss_event"), label)
    n = ev.groupby("kind").size().to_dict()
    return n.get("timeout", 0), n.get("loss_event", 0)


def c10_cause(d, m):
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
    to, le = _reno_timeouts(d, "ssvp")
    m["Reno timeouts"], m["Reno loss events"] = to, le
    cells = "; ".join(f"N={n}: SSVP {ss / 1e3:.0f} kbit/s vs share {sh / 1e3:.0f}, FTP {ft / 1e3:.0f} kbit/s each"
                      for n, (ss, sh, ft) in sorted(at.items()))
    return (f"SSVP takes more than the FTP flows on the BDP buffer — {cells}; Reno recovers by timeout "
            f"({to} timeouts for {le} loss events) while the paced SSVP loses few packets")


def c10(d):
    nt = d.summary("nt", by="n", part="ssvp", where={"label": "ftp"}, prepare=tcp_nt)
    util = d.summary("utilisation", by="n", group=None, part="ssvp", prepare=utilisation)
    return all_of(within(nt, 0.8, 1.25, name="FTP normalized throughput"), bound(util, ">", 0.8, name="utilisation"))


def b_util(d):
    return bound(d.summary("utilisation", by="n", group=None, part="udp", prepare=utilisation), ">", 0.8,
                 name="utilisation with a 380 kbit/s plain UDP video")


def b_util_cause(d, m):
    f = d.flows("udp")
    f1 = f[f["n"] == f["n"].min()]
    ft = f1[f1["label"] == "ftp"]["throughput_bps"].mean()
    ud = f1[f1["label"] == "udp"]["throughput_bps"].mean()
    to, le = _reno_timeouts(d, "udp")
    m.update({"smallest N": int(f1["n"].iloc[0]), "Reno throughput at the smallest N (kbit/s)": round(ft / 1e3),
              "UDP video throughput at the smallest N (kbit/s)": round(ud / 1e3),
              "capacity the video leaves (kbit/s)": round((CAPACITY - ud) / 1e3), "Reno timeouts": to, "Reno loss events": le})
    return (f"at N = {int(f1['n'].iloc[0])} the single Reno flow gets {ft / 1e3:.0f} kbit/s of the "
            f"{(CAPACITY - ud) / 1e3:.0f} kbit/s the video ({ud / 1e3:.0f} kbit/s) leaves: with the VBR video holding part "
            f"of the BDP buffer Reno loses several packets per window and recovers by timeout ({to} timeouts for "
            f"{le} loss events)")


def x2_cause(d, m):
    import numpy as np

    f = d.flows("ssvp")
    ss = f[f["label"] == "ssvp"]
    ft = f[f["label"] == "ftp"]
    q = queue_stats(d, "ssvp", "R2->R3")
    lows = []
    for r in q["run_id"]:
        links = d.series(r, "links")
        lid = links[links["name"] == "R2->R3"]["link"].iloc[0]
        s = d.series(r, "queue_samples")
        s = s[(s["link"] == lid) & (s["t_ns"] >= 2_000_000_000)]["packets"]
        if not s.empty:  # no sample after the warm-up: no percentile
            lows.append(float(np.percentile(s, 1)))
    alpha, beta = _ssvp_defaults()
    sst, ftt = ss["throughput_bps"].mean(), ft["throughput_bps"].mean()
    m.update({"SSVP per-flow throughput (kbit/s)": round(sst / 1e3, 1), "FTP per-flow throughput (kbit/s)": round(ftt / 1e3, 1),
              "SSVP/FTP per-flow throughput": sst / ftt if ftt else float("nan"), "SSVP drop rate": round(ss["drop_rate"].mean(), 3),
              "R2 queue 1st percentile, SSVP runs (packets)": min(lows) if lows else float("nan"),
              "R2 buffer (packets)": float(q["queue_limit"].max()) if not q.empty else float("nan"),
              "SSVP alpha (packets/RTT)": alpha, "SSVP beta": beta})
    return (f"the SSVP flows at {sst / 1e3:.0f} kbit/s each lose {100 * ss['drop_rate'].mean():.0f} % of their packets and "
            f"take {m['SSVP/FTP per-flow throughput']:.2f}× the FTP flows' {ftt / 1e3:.0f} kbit/s: at such rates the "
            f"×{beta} decrease (at most one per RTT) barely outweighs +{alpha} packet/RTT, so R2's "
            f"{m['R2 buffer (packets)']:.0f}-packet queue does not drain (1st percentile {m['R2 queue 1st percentile, SSVP runs (packets)']:.0f} "
            f"packets)")


def c15_cause(d, m):
    from vidcc.analysis import summarize

    q = _queues(d)
    full = dict(zip(*[summarize(q, "frac_full")[c] for c in ("label", "mean")]))
    lim = float(q["queue_limit"].max())
    m["R2 buffer (packets)"] = lim
    m.update({f"share of time at ≥ 90 % of R2's buffer [{k}]": v for k, v in full.items()})
    cells = ", ".join(f"{k} {v:.2f}" for k, v in sorted(full.items()))
    return (f"R2's {lim:.0f}-packet queue is at ≥ 90 % of its size for a share of the time of {cells}: the greedy FTP "
            f"flows keep it loaded whatever the MPEG protocol, so its mean does not order the MPEG protocols as Table 2's")


def _goodput(d, parts, labels=None):
    return d.summary("goodput_bps", by="m", part=list(parts), where={"label": list(labels or parts)})


def c12(d):
    s = _goodput(d, ("udp", "ssvp", "tfrc", "tcpw+"))
    hi = [m for m in s["m"].unique() if m >= 30]
    lo = [m for m in s["m"].unique() if m <= 20]
    checks = [ordering(s, a, b, by="m", at=hi, name="goodput (M ≥ 30)") for a, b in (("udp", "ssvp"), ("ssvp", "tfrc"), ("tfrc", "tcpw+"))]
    checks += [ordering(s, a, "tcpw+", by="m", at=lo, name="goodput (M ≤ 20)") for a in ("ssvp", "tfrc")]
    ss, tf = s[s["label"] == "ssvp"].set_index("m")["mean"], s[s["label"] == "tfrc"].set_index("m")["mean"]
    gaps = {m: abs(tf[m] - ss[m]) / ss[m] for m in lo if m in ss and m in tf}
    ok = bool(gaps) and all(g < 0.15 for g in gaps.values())
    checks.append(Verdict(PASS if ok else FAIL, {f"|TFRC − SSVP|/SSVP [m={m}]": g for m, g in gaps.items()},
                          "TFRC within 15 % of SSVP at M ≤ 20" if ok else "TFRC not within 15 % of SSVP at some M ≤ 20"))
    return all_of(*checks)


def c18(d):
    """§6.2: "SSVP adapts to the vagaries of the network and is also less susceptible to random
    packet loss, such as the sporadic wireless errors" — said beside the two protocols the same
    paragraph says errors hurt (TFRC "fails to obtain accurate estimates of the loss event rate",
    TCPW+ "slows down the transmission in response to the transient errors"). Tested per M: the
    share of its error-free goodput a protocol keeps with the 1 % errors is higher for SSVP than for
    TFRC and for TCPW+ (mean goodput over seeds, per M; not pooled over M, which weighs M = 50 fifty
    times more than M = 1)."""
    import pandas as pd

    rows = []
    for lab in ("ssvp", "tfrc", "tcpw+"):
        g = {p: d.summary("goodput_bps", by="m", part=p, where={"label": lab}) for p in (lab, f"{lab}-noerr")}
        if g[lab].empty or g[f"{lab}-noerr"].empty:
            continue
        w, wo = g[lab].set_index("m")["mean"], g[f"{lab}-noerr"].set_index("m")["mean"]
        rows += [{"m": m, "label": lab, "mean": float(w[m] / wo[m])} for m in w.index if m in wo.index and wo[m] > 0]
    s = pd.DataFrame(rows)
    return all_of(ordering(s, "ssvp", "tfrc", by="m", name="goodput kept with errors"),
                  ordering(s, "ssvp", "tcpw+", by="m", name="goodput kept with errors"))


def _queues(d):
    q = queue_stats(d, [p for p in ("udp", "ssvp", "tfrc", "tcpw+") if p in d.ran], "R2->R3")
    q["label"] = q["part"]
    return q


def c15(d):
    from vidcc.analysis import summarize

    s = summarize(_queues(d), "mean_queue")
    mean = dict(zip(s["label"], s["mean"]))
    return all_of(ordering(s, "tfrc", "udp", name="mean R2 queue"), ordering(s, "udp", "ssvp", name="mean R2 queue"),
                  ordering(s, "ssvp", "tcpw+", name="mean R2 queue"),
                  number(mean["ssvp"] / mean["tfrc"], 0.55, 0.15, name="mean queue SSVP/TFRC (paper 15.3/27.8)"))


def c16(d):
    from vidcc.analysis import summarize

    q = _queues(d)
    full = summarize(q, "frac_full")
    ss = q[q["part"] == "ssvp"]
    exc = [cross_traffic.draining_phases(d, r, lim) for r, lim in zip(ss["run_id"], ss["queue_limit"])]
    mean_exc = sum(exc) / len(exc) if exc else math.nan
    return all_of(ordering(full, "udp", "ssvp", name="time at ≥90 % of R2's buffer"),
                  Verdict(PASS if mean_exc >= 2 else FAIL, {"SSVP full→low queue excursions per run": mean_exc},
                          f"{mean_exc:.1f} full→low excursions per SSVP run (want ≥ 2)"))


def c17(d):
    from vidcc.analysis import summarize

    q = _queues(d)
    return all_of(ordering(summarize(q, "mean_queue"), "tfrc", "ssvp", name="mean R2 queue"),
                  ordering(summarize(q, "link_drops"), "tfrc", "ssvp", name="drops at R2"))


def c20(d):
    s = _goodput(d, ("ssvp", "ssvp-la"))
    return ordering(s, "ssvp", "ssvp-la", by="m", margin=-1e-9, name="goodput (SSVP ≥ SSVP-LA)")


def b_udp_queue(d):
    from vidcc.analysis import summarize

    q = queue_stats(d, "udp", "R2->R3")
    return all_of(bound(summarize(q, "frac_full", group=None), ">=", 0.9, name="share of time at ≥90 % of R2's buffer"),
                  Verdict(PASS, {"mean R2 queue (packets)": float(q["mean_queue"].mean()), "R2 buffer (packets)": float(q["queue_limit"].iloc[0])},
                          "queue reported"))


def _video(d, metric, labels):
    from vidcc.analysis import summarize

    return summarize(video_flows(d, list(labels), {"label": list(labels)}), metric, by="m")


def c13(d):
    s = _video(d, "vdi", ("ssvp", "tfrc", "tcpw+", "udp"))
    return all_of(*[ordering(s, "ssvp", other, by="m", margin=-1e-9, name="VDI (SSVP ≥ other)") for other in ("tfrc", "tcpw+", "udp")],
                  direction(s, "m", increasing=False, group="label", of="ssvp", name="VDI of SSVP"))


def c13_cause(d, m):
    """Why SSVP's VDI is not the best: its losses and delays against TFRC's and TCPW+'s, per M."""
    def cells(metric, label):
        s = _video(d, metric, (label,)).sort_values("m")
        m.update({f"{metric} [{label}, m={int(x)}]": float(v) for x, v in zip(s["m"], s["mean"])})
        return "/".join(f"{v:.2f}" for v in s["mean"])

    ms = "/".join(str(int(x)) for x in sorted(set(_video(d, "vdi", ("ssvp",))["m"])))
    return (f"SSVP loses more of its video (packet drop rate: lost ÷ sent by the application) {cells('packet_drop_rate', 'ssvp')} vs "
            f"TFRC {cells('packet_drop_rate', 'tfrc')} and TCPW+ {cells('packet_drop_rate', 'tcpw+')} (reliable, late instead: "
            f"delayed {cells('delayed_packet_rate', 'tcpw+')}) at M = {ms}")


def c14(d):
    s = _video(d, "delayed_packet_rate", ("ssvp", "tfrc", "tcpw+"))
    return all_of(ordering(s, "tcpw+", "ssvp", by="m", most=True, name="delayed-packet rate"),
                  ordering(s, "tcpw+", "tfrc", by="m", most=True, name="delayed-packet rate"))


def c21(d):
    s = _video(d, "vdi", ("ssvp", "ssvp-la"))
    ms = sorted(m for m in s["m"].unique() if m >= 10)
    v = ordering(s, "ssvp-la", "ssvp", by="m", at=ms, margin=-1e-9, name="VDI (SSVP-LA ≥ SSVP)")
    if len(ms) < 2:
        return v
    la, ss = s[s["label"] == "ssvp-la"].set_index("m")["mean"], s[s["label"] == "ssvp"].set_index("m")["mean"]
    g0, g1 = la[ms[0]] - ss[ms[0]], la[ms[-1]] - ss[ms[-1]]
    grows = Verdict(PASS if g1 > g0 else FAIL, {f"VDI gap at m={ms[0]}": g0, f"VDI gap at m={ms[-1]}": g1},
                    f"the VDI advantage of SSVP-LA {'grows' if g1 > g0 else 'does not grow'} from M = {ms[0]} to {ms[-1]}")
    return all_of(v, grows)


# ---- checks written with the SSVP protocol (C1, C2, C5, C7, C9, C11, C19) ----------------------

S_BITS = 8 * 1000  # one 1000 B packet [P]


def _ssvp_defaults():
    from vidcc.protocols.ssvp import SsvpFlow

    fields = SsvpFlow.model_fields
    return float(fields["alpha"].default), float(fields["beta"].default)


def c1(_d):
    alpha, beta = _ssvp_defaults()
    exact = 4 * (1 - 0.875**2) / 3
    return all_of(number(exact, 0.3125, 1e-12, name="4(1 − 0.875²)/3"),
                  number(beta, 0.875, 0.0, name="configured beta (ssvp default)"),
                  number(alpha, 0.31, 0.0, name="configured alpha (ssvp default)"))


def sender_delay(d_s: float, beta: float) -> float:
    """Eq. (6): the sending delay after a decrease, D = d(1/beta − 1) (docs/papers/ssvp.md §1.1.7)."""
    return d_s * (1 / beta - 1)


def c2(_d):
    _, beta = _ssvp_defaults()
    grid = [0.3 + 0.05 * i for i in range(14)]
    ds = [sender_delay(1.0, b) for b in grid]
    dec = all(a > b for a, b in zip(ds, ds[1:]))
    return all_of(number(sender_delay(1.0, beta), 1 / 7, 1e-12, name="D/d at the configured beta"),
                  number(sender_delay(1.0, 0.5), 1.0, 1e-12, name="D/d at beta 0.5 (TCP/RAP)"),
                  Verdict(PASS if dec else FAIL, {"D/d strictly decreasing in beta over [0.3, 0.95]": dec},
                          "D strictly decreasing in beta" if dec else "D not strictly decreasing in beta"))


def _first_at(ev, level):
    hit = ev[ev["value"] >= level]
    return float(hit["t_ns"].min()) / 1e9 if not hit.empty else math.nan


def _rtt_series(d, part, run_id, label="ssvp"):
    """The flow's measured round-trip time over its run (s, per throughput sample): the one-way delay
    its packets met in that sample interval (``flow_samples.delay_ns``, queueing included) plus the
    return path's propagation delay (half of ``run_flows.path_rtt_ns``; the control packets
    return on an uncongested path). SSVP records no RTT estimate of its own."""
    import pandas as pd

    f = d.flows(part, {"label": label})
    f = f[f["run_id"] == run_id]
    s = d.series(run_id, "flow_samples")
    if f.empty or s.empty or "delay_ns" not in s:
        return pd.DataFrame({"t_ns": [], "value": []})
    s = s[s["flow"].isin(f["flow"])].sort_values("t_ns")
    back = float(f["path_rtt_ns"].iloc[0]) / 2 if "path_rtt_ns" in f else 0.0
    s = s[s["delay_ns"] > 0]
    return pd.DataFrame({"t_ns": s["t_ns"].to_numpy(), "value": (s["delay_ns"].to_numpy() + back) / 1e9})


def _rtt_before(rtt, t):
    """The latest measured RTT (s) at or before ``t`` (ns), else the first."""
    before = rtt[rtt["t_ns"] <= t]
    return float((before if not before.empty else rtt)["value"].iloc[-1 if not before.empty else 0])


def c5(d):
    """§3.2: during startup the rate increases per control packet "until the occurrence of
    congestion". Two halves: the flow with startup reaches 800 kbit/s sooner than without; and
    startup ends at the first congestion signal (the first decrease): after it, rate increases
    follow the per-RTT rule — no two increases closer than half the flow's measured RTT of the moment."""
    ev = _events(d, "ssvp", "rate", "ssvp")
    runs = d.runs("ssvp")[["run_id", "startup"]]
    ev = ev.merge(runs, on="run_id")
    t, fast_after, rises_after = {}, 0, 0
    for (st, run_id), g in ev.groupby(["startup", "run_id"]):
        rate = g.sort_values("t_ns")
        t.setdefault(bool(st), []).append(_first_at(rate, 0.8 * CAPACITY))
        rtt = _rtt_series(d, "ssvp", run_id)
        if not st or rate.empty or rtt.empty:
            continue
        v, ts = rate["value"].to_numpy(), rate["t_ns"].to_numpy()
        dec = [i for i in range(1, len(v)) if v[i] < v[i - 1]]
        if not dec:
            continue
        rises = [ts[i] for i in range(dec[0] + 1, len(v)) if v[i] > v[i - 1]]
        rises_after += len(rises)
        fast_after += sum(1 for a, b in zip(rises, rises[1:]) if (b - a) / 1e9 < 0.5 * _rtt_before(rtt, b))
    with_s = sum(t.get(True, [math.nan])) / len(t.get(True, [1]))
    without = sum(t.get(False, [math.nan])) / len(t.get(False, [1]))
    measured = {"time to 800 kbit/s with startup (s)": with_s, "time to 800 kbit/s without startup (s)": without,
                "rate increases after the first decrease (startup runs)": rises_after,
                "of which closer than half an RTT to the previous one": fast_after}
    faster = with_s < without
    ends = rises_after > 0 and fast_after == 0
    text = (f"800 kbit/s reached after {with_s:.2f} s with startup, {without:.2f} s without "
            f"({'faster' if faster else 'not faster'} with startup); after the first decrease {fast_after} of "
            f"{rises_after} increases came within half an RTT of the previous one")
    if rises_after == 0:
        text += " (no increase after a decrease: the exit is not observed)"
    return Verdict(PASS if faster and ends else FAIL, measured, text)


def _series_of(d, part, label, run_id):
    f = d.flows(part, {"label": label})
    ids = f[f["run_id"] == run_id]["flow"]
    s = d.series(run_id, "flow_samples")
    return s[s["flow"].isin(ids)]


def c7(d):
    import numpy as np

    allev = _events(d, "ssvp", "rate", "ssvp").sort_values(["run_id", "t_ns"])
    steps, gains = [], []
    for run_id, g in allev.groupby("run_id"):
        rtt = _rtt_series(d, "ssvp", run_id)
        v, ts = g["value"].to_numpy(), g["t_ns"].to_numpy()
        if len(v) < 2:
            continue
        r = v[1:] / v[:-1]
        steps.extend(r[r < 1].tolist())
        dec = np.nonzero(r < 1)[0]
        if len(dec) and not rtt.empty:  # after startup: increases of the per-RTT rule, in packets per
            # RTT at the flow's measured RTT at that adjustment (Δrate · RTT / S)
            for i in range(dec[0] + 1, len(r)):
                if v[i + 1] > v[i]:
                    gains.append((v[i + 1] - v[i]) * _rtt_before(rtt, ts[i + 1]) / S_BITS)
    worst = min(steps) if steps else math.nan
    dec_ok = bool(steps) and worst >= 0.85
    covs = {}
    for r in d.runs("ssvp")["run_id"]:
        f = d.flows("ssvp")
        f = f[f["run_id"] == r]
        s = d.series(r, "flow_samples")
        s = s[s["t_ns"] >= 2_000_000_000]
        for fl, lab in zip(f["flow"], f["label"]):
            x = s[s["flow"] == fl]["throughput_bps"].to_numpy(dtype=float)
            covs.setdefault(lab if lab == "ssvp" else f"ftp#{fl}", []).append(float(x.std() / x.mean()) if x.mean() > 0 else math.nan)
    cov = {k: sum(v) / len(v) for k, v in covs.items()}
    cov_ok = "ssvp" in cov and all(cov["ssvp"] < c for k, c in cov.items() if k != "ssvp")
    gain = float(np.median(gains)) if gains else math.nan
    gain_ok = gain < 1.0
    measured = {"smallest decrease step (new/old rate)": worst, "decreases": len(steps),
                **{f"CoV of throughput, 100 ms bins [{k}]": v for k, v in cov.items()},
                "SSVP median increase per RTT (packets, at each adjustment's measured RTT)": gain,
                "TCP Reno's increase per RTT in congestion avoidance (packets)": 1}
    fails = [t for ok, t in ((dec_ok, f"a decrease step of {worst:.3f} < 0.85"),
                             (cov_ok, "SSVP's CoV is not below every FTP flow's"),
                             (gain_ok, f"SSVP gains {gain:.2f} packets per RTT, not less than TCP's 1")) if not ok]
    if fails:
        return Verdict(FAIL, measured, "; ".join(fails))
    return Verdict(PASS, measured, f"every decrease ≥ ×{worst:.3f}; CoV SSVP {cov['ssvp']:.2f} below every FTP flow's; "
                                   f"SSVP gains {gain:.2f} packet/RTT (< TCP's 1)")


def c9(d):
    """PSNR proxy (docs/papers/ssvp.md §4: with synthetic TES video there are no pixels): a decodable frame has the
    codec's PSNR (≥ 31 dB, MOS ≥ 4), an undecodable one the concealment PSNR (20–25 dB, MOS 2)."""
    v = video_flows(d, "ssvp", {"label": "ssvp"})
    if v.empty:
        return Verdict(FAIL, {}, "no video summary for the SSVP flow")
    # "All received video frames" (§6.1): the frames that reached the receiver, i.e. sent by the
    # application, neither lost in the network nor dropped unsent from SSVP's sender buffer.
    received = v["frames_sent"] - v["frames_lost"] - v["frames_unsent"]
    share = v["frames_decodable"].sum() / received.sum()
    per_run = {f"decodable share of received frames [seed={s}]": float(dec / rec) if rec else float("nan")
               for s, dec, rec in zip(v["seed"], v["frames_decodable"], received)}
    ok = share >= 0.95
    why = {k: int(v[k].sum()) for k in ("frames_sent", "frames_lost", "frames_late", "frames_dependency", "frames_unsent") if k in v}
    pkt_loss = float(v["packets_lost"].sum() / v["packets_sent"].sum())
    measured = {"share of received frames ≥ 31 dB (decodable, PSNR proxy)": share, "frames received (all seeds)": int(received.sum()),
                **per_run, **{f"{k} (all seeds)": x for k, x in why.items()},
                "packet loss rate of the SSVP video": pkt_loss}
    text = f"{100 * share:.1f} % of the received frames are decodable (PSNR proxy ≥ 31 dB), {'≥' if ok else '<'} 95 %"
    return Verdict(PASS if ok else FAIL, measured, text)


def c9_cause(d, m):
    frames = {k: m.get(f"{k} (all seeds)", 0) for k in ("frames_sent", "frames_lost", "frames_late", "frames_dependency", "frames_unsent")}
    return (f"{100 * m['packet loss rate of the SSVP video']:.1f} % of the video packets are lost or dropped (on the BDP buffer "
            f"shared with the Reno flows), and a lost packet spoils its frame and, in an I or P frame, the "
            f"rest of the GOP: {frames['frames_lost']} frames lost, {frames['frames_dependency']} undecodable by "
            f"dependency, {frames['frames_late']} late, {frames['frames_unsent']} unsent of {frames['frames_sent']}")


def c11(d):
    import numpy as np

    ratios, settle_ssvp, settle_tcp, collapse = [], [], [], []
    for r in d.runs("ssvp")["run_id"]:
        s = {lab: _series_of(d, "ssvp", lab, r) for lab in ("ftp", "ssvp")}
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
        low = (x["throughput_bps"].to_numpy() < 0.01 * CAPACITY)
        dt = float(np.median(np.diff(x["t_ns"].to_numpy()))) / 1e9 if len(x) > 1 else 0.15
        run, longest = 0, 0
        for b in low:
            run = run + 1 if b else 0
            longest = max(longest, run)
        collapse.append(longest * dt)
        win_tp = win
    ratio = sum(ratios) / len(ratios)
    measured = {"TCP/SSVP throughput 30–60 s": ratio, "SSVP time to its 30–60 s mean rate after 20 s (s)": max(settle_ssvp),
                "TCP time to its 30–60 s mean rate after 20 s (s)": max(settle_tcp), "longest TCP stretch < 10 kbit/s after 20 s (s)": max(collapse),
                "TCP throughput 30–60 s, last seed (kbit/s)": win_tp["ftp"] / 1e3, "SSVP throughput 30–60 s, last seed (kbit/s)": win_tp["ssvp"] / 1e3}
    checks = [(0.5 <= ratio <= 2, f"TCP/SSVP = {ratio:.3f} outside [0.5, 2]"),
              (max(settle_ssvp) > max(settle_tcp), "SSVP does not need more time than TCP to reach its mean rate"),
              (max(collapse) <= 1.0, f"TCP near 0 for {max(collapse):.1f} s after 20 s")]
    fails = [t for ok, t in checks if not ok]
    if fails:
        return Verdict(FAIL, measured, "; ".join(fails))
    return Verdict(PASS, measured, f"TCP/SSVP = {ratio:.2f}; SSVP settles later than TCP; no TCP collapse")


def c11_cause(d, m):
    to, le = _reno_timeouts(d, "ssvp")
    m["Reno timeouts"], m["Reno loss events"] = to, le
    return (f"on the BDP buffer Reno loses several packets per window and recovers by timeout ({to} timeouts for "
            f"{le} loss events) while the paced SSVP loses few")


def c19(d):
    lay = _events(d, ["ssvp-la", "immediate"], "layers", "ssvp-la")
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
    cum = [float(x.removesuffix("kbps")) * 1e3 for x in LAYERED["layers"]]  # cumulative layer rates
    rate = _events(d, "ssvp-la", "rate", "ssvp-la")
    occasions, after_changes = 0, []
    for r, g in rate.groupby("run_id"):
        lv = lay[lay["run_id"] == r].sort_values("t_ns")
        g = g.sort_values("t_ns")
        vals = g["value"].to_numpy()
        dec = [i for i in range(1, len(vals)) if vals[i] < vals[i - 1]]
        t0 = max(2_000_000_000, int(g["t_ns"].iloc[dec[0]]) if dec else 2**62)
        after_changes.append(int((lv["t_ns"] > t0).sum()))
        ts = g["t_ns"].tolist()
        for i, (t, v) in enumerate(zip(ts, g["value"])):
            if t < t0:
                continue
            before = lv[lv["t_ns"] <= t]
            k = int(before["value"].iloc[-1]) if not before.empty else 1
            if k < len(cum) and v * (1000 - 24) / 1000 > cum[k] and i + 1 < len(ts):
                nxt = lv[(lv["t_ns"] > t) & (lv["t_ns"] <= ts[i + 1])]
                if nxt.empty:
                    occasions += 1
    n_b, n_i = changes.get("ssvp-la", math.nan), changes.get("immediate", math.nan)
    measured = {"layer changes per run (buffered)": n_b, "layer changes per run (immediate)": n_i,
                "highest layer (buffered)": top.get("ssvp-la", math.nan),
                "layer changes after start-up per run (buffered)": sum(after_changes) / len(after_changes) if after_changes else math.nan,
                "intervals with R > C(k+1) and no add after start-up (all seeds)": occasions}
    fails = [t for ok, t in ((n_b < n_i, f"{n_b:.1f} layer changes, not fewer than immediate's {n_i:.1f}"),
                             (top.get("ssvp-la", 0) >= 4, "layer 4 never reached"),
                             (occasions > 0, "after start-up no rate rise above C(k+1) went without an add")) if not ok]
    if fails:
        return Verdict(FAIL, measured, "; ".join(fails))
    return Verdict(PASS, measured, f"{n_b:.1f} layer changes per run against {n_i:.1f} with immediate adaptation; layer 4 reached; "
                                   f"{occasions} rate-decision intervals after start-up with R > C(k+1) and no add")




SSVP = ("ssvp",)

CLAIMS = [
    Claim("C1", "alpha = 4(1 − beta²)/3; beta = 0.875 gives 0.31 (config alpha = 0.31).", None, SSVP, c1, ref="§3.2 Eq. 7"),
    Claim("C2", "Sender delay D = d(1/beta − 1): beta 0.875 → d/7; beta 0.5 → d; strictly decreasing in beta.", None, SSVP, c2, ref="§3.2 Eq. 6"),
    Claim("C3", "Required buffer P = [(k+1)c̄ − (1−beta)R]²/(2λ), clamped at 0; worked example ≈ 17 packets.", None, ("ssvp-layered",),
          units.c3, ref="§4 Eq. 15–17"),
    Claim("C4", "At most one rate change per adjustment period; decrease ×beta; hold if 0 < ratio ≤ 0.005; increase only without marks.",
          None, SSVP, units.c4, ref="§3.2 Alg. 2"),
    Claim("C5", "Per-ACK increases during startup ramp faster than the per-RTT rule; startup ends at the first congestion signal.",
          "startup", SSVP, c5, ref="§3.2 startup"),
    Claim("C6", "RTT from the echoed timestamp with γ = 0.9, ε = 0.25, δ = 4; STO ≥ EstimatedRTT always.", None, SSVP, units.c6,
          ref="§3.1 Eq. 2–5"),
    Claim("C7", "SSVP's rate is regular with gentle reductions (every per-RTT decrease ≥ 0.85× the previous rate) and reacts more slowly than TCP to freed bandwidth; CoV(SSVP) < CoV of each FTP flow.",
          "fig7-9", SSVP, c7, ref="Fig. 7, §6.1"),
    Claim("C8", "SSVP packet jitter never exceeds 75 ms (max J(t) over 2–60 s < 75 ms).", "fig7-9", SSVP, c8, ref="Fig. 8"),
    Claim("C9", "Every received frame is MOS good or excellent (≥ 95 % of the received frames ≥ 31 dB PSNR).", "fig7-9", SSVP, c9, ref="Fig. 9",
          cause=c9_cause),
    Claim("C10", "TCP flows get ≈ their fair share B/(N+1) for every N = 1..30 (mean FTP NT ∈ [0.8, 1.25]) and bottleneck utilisation > 0.8.",
          "fig10", SSVP, c10, ref="Fig. 10", cause=c10_cause),
    Claim("C11", "After SSVP joins at 20 s TCP is not starved; over 30–60 s the TCP/SSVP throughput ratio ∈ [0.5, 2]; TCP reaches steady state faster.",
          "fig11", SSVP, c11, ref="Fig. 11", cause=c11_cause),
    Claim("C12", "Goodput: for M ≥ 30 UDP > SSVP > TFRC > TCPW+; for M ≤ 20 TFRC within 15 % of SSVP and TCPW+ lowest.", "fig12",
          ("ssvp", "tfrc", "tcp-westwood-plus"), c12, needs=("video-over-tcp",), ref="Fig. 12a"),
    Claim("C13", "VDI: SSVP best at every M (esp. M ≥ 30); VDI non-increasing in M.", "fig12", ("ssvp", "tfrc", "tcp-westwood-plus"), c13,
          needs=("video-over-tcp",), ref="Fig. 12b", cause=c13_cause),
    Claim("C14", "Delayed-packet rate of SSVP and TFRC below TCPW+'s for most M.", "fig12", ("ssvp", "tfrc", "tcp-westwood-plus"), c14,
          needs=("video-over-tcp",), ref="Fig. 12c"),
    Claim("C15", "Mean R2 queue (40 MPEG + 10 FTP): TFRC 27.8 > UDP 23.6 > SSVP 15.3 > TCPW+ 12.2; SSVP/TFRC ≈ 0.55 (± 0.15, suite tolerance).",
          "fig13", ("ssvp", "tfrc", "tcp-westwood-plus"), c15, needs=("video-over-tcp",), ref="Table 2",
          cause=c15_cause),
    Claim("C16", "UDP's queue grows fast and overflows; SSVP's shows repeated draining phases: time near full UDP > SSVP; ≥ 2 full→low excursions per SSVP run.",
          "fig13", SSVP, c16, ref="Fig. 13", cause=x2_cause),
    Claim("C17", "SSVP backs off more sharply than TFRC: mean queue and drops at R2 lower with SSVP than with TFRC.", "fig13", ("ssvp", "tfrc"),
          c17, ref="§6.2", cause=x2_cause),
    Claim("C18", "SSVP is less susceptible to 1 % random link errors: at every M, goodput(with errors)/goodput(without) higher for SSVP than for TFRC and for TCPW+.",
          "fig12", ("ssvp", "tfrc", "tcp-westwood-plus"), c18, needs=("video-over-tcp",), ref="§6.2"),
    Claim("C19", "Layered SSVP: fewer layer changes than immediate adaptation; layer 4 reached; after start-up, some rate rises without a layer add.", "fig14",
          ("ssvp-layered",), c19, ref="Fig. 14"),
    Claim("C20", "SSVP-LA goodput ≤ SSVP goodput for every M.", "fig15", ("ssvp", "ssvp-layered"), c20, ref="Fig. 15a"),
    Claim("C21", "SSVP-LA VDI ≥ SSVP VDI for M ≥ 10, the gap growing with M.", "fig15", ("ssvp", "ssvp-layered"), c21,
          ref="Fig. 15b"),
    Claim("C22", "TFRC increases by ≤ 0.14 pkt/RTT (0.28 with history discounting) and needs ≈ 5 RTTs to halve (± 30 %).", None, ("tfrc",),
          units.c22, ref="§2, [9]"),
    Claim("B1", "Baseline: with plain UDP sending the 380 kbit/s video in place of SSVP and N = 1..30 FTP flows, the 6-packet-buffer dumbbell stays > 0.8 utilised (C10's utilisation half, with unresponsive video).",
          "fig10", ("udp", "tcp-reno"), b_util, kind="baseline", parts=("udp",), cause=b_util_cause),
    Claim("B2", "Baseline (the UDP half of C16): 40 plain UDP flows sending the 380 kbit/s video (15.2 Mbit/s offered to the 5 Mbit/s R1–R2 link, then 10 FTP flows at R2) keep R2's BDP queue ≥ 90 % full ≥ 90 % of the time.",
          "fig13", ("udp", "tcp-reno"), b_udp_queue, kind="baseline", parts=("udp",)),
]

# The readings docs/papers/ssvp.md left open that the code exposes (``vidcc reproduce ssvp
# --explore``), and the claims each may bear on.
ALTERNATIVES = [
    Alternative("deviation-tcp", "ssvp", {"deviation": "tcp"}, "docs/papers/ssvp.md A-RTT-1",
                note="TCP's RTTVAR form instead of Eq. (5) as printed: a different STO, so fewer or more receiver "
                "timeouts (each is a congestion mark)."),
    Alternative("no-feedback-decrease", "ssvp", {"no_feedback_decrease": True}, "docs/papers/ssvp.md A-RATE-4",
                note="the sender halves its rate when no control packet arrives for an STO, as TCP would."),
    Alternative("postloss-physical", "ssvp-layered", {"postloss_factor": "physical"}, "docs/papers/ssvp.md A-LA-1",
                note="the layer-drop test uses the rate after decrease β·R (the physical reading) instead of Eq. (17) "
                "as printed."),
    Alternative("consumption-mean", "ssvp-layered", {"consumption": "mean-times-count"}, "docs/papers/ssvp.md A-LA-4",
                note="(k+1)·c̄ with c̄ the mean active-layer consumption, as the paper defines it, instead of the "
                "cumulative consumption of layers 1..k+1."),
]
_EXPLORE = {
    "deviation-tcp": ("C10", "C11", "C16", "C17"),
    "no-feedback-decrease": ("C10", "C11", "C16", "C17"),
    "postloss-physical": ("C16", "C19"),
    "consumption-mean": ("C16", "C19"),
}
CLAIMS = with_alternatives_named(CLAIMS, _EXPLORE)

SUITE = Suite("ssvp", "SSVP: a congestion control scheme for real-time video streaming",
              "Papadimitriou & Tsaoussidis, Computer Networks, 2007", "docs/papers/ssvp.md", FIGURES, CLAIMS,
              notes=reconstruction_notes(__doc__), alternatives=ALTERNATIVES)
