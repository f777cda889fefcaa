"""Smoothness of the DVRC flows (§5.1, §5.2 Fig. 8b): CoV of the 150 ms throughput and the delay
jitter of the video (C2–C4, C6)."""

from __future__ import annotations

from vidcc.papers.dvrc.summaries import by_label
from vidcc.papers.measures import video_flows
from vidcc.papers.model import FAIL, PASS, Verdict
from vidcc.papers.verdicts import ordering


def steadier_than_reno(d):
    """C2 (§5.1, Fig. 6): DVRC's rate fluctuates far less than either Reno flow's."""
    s = d.summary("cov", by=None, part="dvrc", within_run="min")  # per run: the smaller Reno CoV
    return ordering(s, "reno", "dvrc", name="CoV (Reno: the smaller of the two)")


def smoother_than_tfrc(d):
    """C3 (§5.1): CoV_DVRC = 0.1854 < CoV_TFRC = 0.2229: the ordering."""
    return ordering(d.summary("cov", by=None, part=["dvrc", "tfrc"], where={"label": ["dvrc", "tfrc"]}), "tfrc", "dvrc",
                    name="CoV")


def _dvrc_paced(d) -> bool | None:
    """Whether the DVRC runs of ``d`` pace their packets (the reading ``pacing``, from each run's
    resolved scenario); None when the runs do not say or disagree."""
    import json

    seen = set()
    for r in d.runs("dvrc").to_dict("records"):
        doc = json.loads(r.get("resolved_json") or "{}")
        for f in doc.get("flows", []):
            proto = f.get("protocol") if isinstance(f.get("protocol"), dict) else {}
            if proto.get("kind") == "dvrc" and "pacing" in proto:
                seen.add(bool(proto["pacing"]))
    return seen.pop() if len(seen) == 1 else None


def smoother_than_tfrc_cause(d, m):
    """C3's cause (the check's explanation gives the two CoVs): how each protocol sends — DVRC each
    frame when the application produces it (its packets back to back, or spread over the frame
    interval under the reading ``pacing``, as the runs' resolved scenarios say), TFRC at its
    equation rate out of an unbounded sender buffer — with each one's network drop ratio."""
    f = d.flows(["dvrc", "tfrc"], {"label": ["dvrc", "tfrc"]})
    for lab, g in f.groupby("label"):
        m[f"network drop ratio ({lab})"] = float(g["drop_rate"].mean())
    paced = _dvrc_paced(d)
    how = {True: "paced over the frame interval (reading pacing)", False: "back to back",
           None: "back to back or paced (the runs differ)"}[paced]
    return (f"DVRC sends each frame when the application produces it, its packets {how}, and loses "
            f"{m.get('network drop ratio (dvrc)', float('nan')):.3f} of them in the network; TFRC sends at its "
            f"equation rate out of an unbounded sender buffer "
            f"(drop ratio {m.get('network drop ratio (tfrc)', float('nan')):.3f})")


def jitter_below_75ms(d):
    """§5.1, Fig. 7: "delay jitter does not exceed the frustrating limit of 75 ms" — the jitter J of
    Eq. (13) (``video_summary.jitter_max_ns``, its maximum over the run) — "while a high proportion of
    inter-arrival times are monitored with values below 50 ms" (read: more than half of them)."""
    import numpy as np

    gaps = []
    flows = d.flows("dvrc", {"label": "dvrc"})
    for r in d.runs("dvrc").to_dict("records"):
        pk = d.series(r["run_id"], "packets")
        ids = set(flows[flows["run_id"] == r["run_id"]]["flow"])
        mine = pk["flow"].isin(ids) & (pk["fate"] == "delivered") & (pk["arrival_ns"] >= 2_000_000_000)
        gaps.append(np.diff(np.sort(pk[mine]["arrival_ns"].to_numpy())) / 1e6)
    g = np.concatenate(gaps) if gaps else np.array([])
    v = video_flows(d, "dvrc", {"label": "dvrc"})
    if g.size == 0 or v.empty:
        return Verdict(FAIL, {}, "no DVRC packets or video summary after the warm-up")
    jmax = float(v["jitter_max_ns"].max()) / 1e6
    below = float((g < 50).mean())
    measured = {"jitter J (Eq. 13) max over runs (ms)": jmax, "share of inter-arrival times < 50 ms": below,
                "inter-arrival max (ms)": float(g.max())}
    ok = jmax <= 75 and below > 0.5
    return Verdict(PASS if ok else FAIL, measured, f"jitter max {jmax:.1f} ms ({'≤' if jmax <= 75 else '>'} 75), "
                   f"{100 * below:.1f} % of inter-arrival times below 50 ms "
                   f"({'more' if below > 0.5 else 'not more'} than half)")


def cov_below_tcpw(d):
    """C6 (§5.2, Fig. 8b): DVRC's CoV stays small: below TCPW+'s at every N."""
    return ordering(by_label(d, "cov", ("dvrc", "tcpw+"), ("dvrc", "tcpw+")), "tcpw+", "dvrc", by="n", name="CoV")
