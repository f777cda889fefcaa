"""The queue at R2 with 40 MPEG flows (§5.2, Fig. 11): DVRC against plain UDP (C13, B2)."""

from __future__ import annotations

from vidcc.papers import cross_traffic
from vidcc.papers.measures import queue_stats
from vidcc.papers.model import FAIL, PASS, Verdict
from vidcc.papers.verdicts import all_of, bound, ordering


def udp_fills_dvrc_drains(d):
    """§5.2, Fig. 11: UDP "results in rapidly growing queues and eventually in buffer overflows" while
    DVRC "results in variable buffer conditions … occasionally enforces a persistent buffer draining
    phase": time at ≥ 90 % of R2's buffer higher with UDP, and at least one full → low excursion of
    R2's queue per DVRC run on average ("occasionally")."""
    from vidcc.analysis import summarize

    q = queue_stats(d, ["dvrc", "udp"], "R2->R3")
    q["label"] = q["part"]
    dv = q[q["part"] == "dvrc"]
    phases = [cross_traffic.draining_phases(d, r, lim) for r, lim in zip(dv["run_id"], dv["queue_limit"])]
    mean = sum(phases) / len(phases) if phases else float("nan")
    drains = Verdict(PASS if mean >= 1 else FAIL, {"draining phases of R2's queue per DVRC run": mean},
                     f"{mean:.1f} full → low draining phases of R2's queue per DVRC run (want ≥ 1)")
    return all_of(ordering(summarize(q, "frac_full", group="label"), "udp", "dvrc", name="time at ≥90 % of the buffer"),
                  drains)


def udp_keeps_r2_full(d):
    """B2: 40 plain UDP flows at full quality keep R2's queue full and lose most of their packets."""
    from vidcc.analysis import summarize

    q = queue_stats(d, "udp", "R2->R3")
    full = summarize(q, "frac_full", group=None)
    drops = d.summary("drop_rate", part="udp", where={"label": "udp"})
    return all_of(bound(full, ">=", 0.9, name="share of time at ≥90 % of the R2 buffer"),
                  bound(drops, ">", 0.5, name="drop rate of the UDP video flows"),
                  Verdict(PASS, {"mean R2 queue (packets)": float(q["mean_queue"].mean()),
                                 "R2 buffer (packets)": float(q["queue_limit"].iloc[0])}, "queue reported"))
