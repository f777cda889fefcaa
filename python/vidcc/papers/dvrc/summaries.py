"""Summaries the DVRC checks share: a metric per label and N over the MPEG flows of some parts."""

from __future__ import annotations

from vidcc.papers.measures import video_flows


def by_label(d, metric, parts, labels, *, table="run_flows", by="n", within="mean", group="label"):
    """Mean over seeds of ``metric`` per ``group`` and ``by`` for the flows ``labels`` of ``parts``."""
    return d.summary(metric, by=by, group=group, table=table, part=list(parts), where={"label": list(labels)},
                     within_run=within)


def largest_n(s) -> list:
    """The largest N of a summary (empty for an empty one): where "ending below" is judged."""
    return [s["n"].max()] if not s.empty else []


def several_flows(s):
    """Fairness among the MPEG flows is only defined for N ≥ 2 (one flow is trivially fair: 1 = 1)."""
    return s[s["n"] >= 2] if not s.empty else s


def video_metric(d, metric, labels, by="n"):
    """Mean over seeds of a video metric (per flow: vdi, delayed_packet_rate, ...) per label."""
    from vidcc.analysis import summarize

    return summarize(video_flows(d, list(labels), {"label": list(labels)}), metric, by=by)
