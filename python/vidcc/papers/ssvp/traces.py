"""Per-run traces the SSVP suite's checks read: a part's events with their flows' labels, Reno's
timeouts, SSVP's measured round-trip time, one flow's throughput samples, SSVP's configured α and β;
and ``judged``, the verdict of a check made of several parts."""

from __future__ import annotations

import math


def events(d, part, kind=None, flow_label=None):
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
    return (
        pd.concat(out, ignore_index=True)
        if out
        else pd.DataFrame(columns=["t_ns", "flow", "side", "kind", "value", "label", "run_id"])
    )


def reno_timeouts(d, part, label="ftp"):
    ev = events(d, part, ("timeout", "loss_event"), label)
    n = ev.groupby("kind").size().to_dict()
    return n.get("timeout", 0), n.get("loss_event", 0)


def rtt_series(d, part, run_id, label="ssvp"):
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


def rtt_before(rtt, t):
    """The latest measured RTT (s) at or before ``t`` (ns), else the first."""
    before = rtt[rtt["t_ns"] <= t]
    return float((before if not before.empty else rtt)["value"].iloc[-1 if not before.empty else 0])


def series_of(d, part, label, run_id):
    f = d.flows(part, {"label": label})
    ids = f[f["run_id"] == run_id]["flow"]
    s = d.series(run_id, "flow_samples")
    return s[s["flow"].isin(ids)]


def first_at(ev, level):
    hit = ev[ev["value"] >= level]
    return float(hit["t_ns"].min()) / 1e9 if not hit.empty else math.nan


def ssvp_defaults():
    from vidcc.protocols.ssvp import SsvpFlow

    fields = SsvpFlow.model_fields
    return float(fields["alpha"].default), float(fields["beta"].default)


def judged(measured, parts, passed):
    """The verdict of a check made of several parts, each ``(holds, text if it does not)``: FAIL
    naming every part that does not hold, else PASS with ``passed`` (one explanation for all)."""
    from vidcc.papers.model import FAIL, PASS, Verdict

    fails = [text for ok, text in parts if not ok]
    return Verdict(FAIL, measured, "; ".join(fails)) if fails else Verdict(PASS, measured, passed)


def decreases_per_packet(d, part, flows) -> float:
    """SSVP's decreases (Alg. 2's, its ``loss_event`` events) per data packet sent by ``flows`` (rows of
    ``d.flows(part)``); NaN without a packet count."""
    dec = events(d, part, "loss_event", "ssvp")
    sent = float(flows["sent_packets"].sum()) if "sent_packets" in flows else math.nan
    return len(dec[dec["run_id"].isin(set(flows["run_id"]))]) / sent if sent else math.nan


def ssvp_threshold() -> float:
    """SSVP's configured congestion level threshold (Alg. 2; 0.005, §3.2)."""
    from vidcc.protocols.ssvp import SsvpFlow

    return float(SsvpFlow.model_fields["congestion_level_threshold"].default)
