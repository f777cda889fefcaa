"""Checks of the video SSVP delivers on the dumbbell: Fig. 8's jitter (C8) and Fig. 9's frame
quality (C9)."""

from __future__ import annotations

from vidcc.papers.measures import video_flows, warmup_ns
from vidcc.papers.model import FAIL, PASS, Verdict


def jitter_below_75ms(d):
    """Fig. 8: "jitter never exceeds the frustrating limit of 75 ms" (§6.1). J is Eq. 19's estimate,
    updated at every received packet; the check takes its largest value per run (the video summary's
    ``jitter_max_ns``), and reports the largest of the 100 ms samples after the warm-up (the trace
    Fig. 8 plots) beside it."""
    v = video_flows(d, "ssvp", {"label": "ssvp"})
    sampled = []
    for r in d.runs("ssvp").to_dict("records"):
        s = d.series(r["run_id"], "flow_samples")
        f = d.flows("ssvp", {"label": "ssvp"})
        ids = f[f["run_id"] == r["run_id"]]["flow"]
        s = s[s["flow"].isin(ids) & (s["t_ns"] >= warmup_ns(r))]
        if not s.empty:
            sampled.append(float(s["jitter_ns"].max()) / 1e6)
    if v.empty or "jitter_max_ns" not in v:
        return Verdict(FAIL, {}, "no video summary with the SSVP flow's jitter")
    m = float(v["jitter_max_ns"].max()) / 1e6
    measured = {"largest J at any received packet, all seeds (ms)": m}
    if sampled:
        measured["largest J of the 100 ms samples after the warm-up (ms)"] = max(sampled)
    return Verdict(
        PASS if m < 75 else FAIL,
        measured,
        f"largest jitter J at any received packet {m:.1f} ms {'<' if m < 75 else '≥'} 75 ms",
    )


def received_frames_good(d):
    """PSNR proxy (docs/papers/ssvp.md §4: with synthetic TES video there are no pixels): a decodable frame has the
    codec's PSNR (≥ 31 dB, MOS ≥ 4), an undecodable one the concealment PSNR (20–25 dB, MOS 2)."""
    v = video_flows(d, "ssvp", {"label": "ssvp"})
    if v.empty:
        return Verdict(FAIL, {}, "no video summary for the SSVP flow")
    # "All received video frames" (§6.1): the frames that reached the receiver, i.e. sent by the
    # application, neither lost in the network nor dropped unsent from SSVP's sender buffer.
    received = v["frames_sent"] - v["frames_lost"] - v["frames_unsent"]
    share = v["frames_decodable"].sum() / received.sum()
    per_run = {
        f"decodable share of received frames [seed={s}]": float(dec / rec) if rec else float("nan")
        for s, dec, rec in zip(v["seed"], v["frames_decodable"], received)
    }
    ok = share >= 0.95
    why = {
        k: int(v[k].sum())
        for k in ("frames_sent", "frames_lost", "frames_late", "frames_dependency", "frames_unsent")
        if k in v
    }
    pkt_loss = float(v["packets_lost"].sum() / v["packets_sent"].sum())
    measured = {
        "share of received frames ≥ 31 dB (decodable, PSNR proxy)": share,
        "frames received (all seeds)": int(received.sum()),
        **per_run,
        **{f"{k} (all seeds)": x for k, x in why.items()},
        "packet loss rate of the SSVP video": pkt_loss,
    }
    text = f"{100 * share:.1f} % of the received frames are decodable (PSNR proxy ≥ 31 dB), {'≥' if ok else '<'} 95 %"
    return Verdict(PASS if ok else FAIL, measured, text)


def frames_spoiled(d, m):
    frames = {
        k: m.get(f"{k} (all seeds)", 0)
        for k in ("frames_sent", "frames_lost", "frames_late", "frames_dependency", "frames_unsent")
    }
    return (
        f"{100 * m['packet loss rate of the SSVP video']:.1f} % of the video packets are lost or dropped (on the BDP "
        "buffer "
        f"shared with the Reno flows), and a lost packet spoils its frame and, in an I or P frame, the "
        f"rest of the GOP: {frames['frames_lost']} frames lost, {frames['frames_dependency']} undecodable by "
        f"dependency, {frames['frames_late']} late, {frames['frames_unsent']} unsent of {frames['frames_sent']}"
    )
