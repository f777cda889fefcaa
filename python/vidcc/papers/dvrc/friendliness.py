"""Friendliness to TCP: normalized throughput of the MPEG and Reno flows (C18–C20) and the Reno-only
baseline (B1)."""

from __future__ import annotations

from vidcc.papers.verdicts import all_of, bound, ordering, within


def reno_near_fair_share_with_dvrc(d):
    """C18 (§5.4, Fig. 15): with DVRC the Reno flows get about their fair share, "more profound in
    the situation of high link-multiplexing": NT(Reno) within [0.75, 1.25] for N ≥ 20."""
    s = d.summary("normalized_throughput", by="n", group="part", part=["dvrc-20", "dvrc-40"], where={"label": "reno"})
    return within(s[s["n"] >= 20], 0.75, 1.25, name="NT of Reno with DVRC")


def tfrc_starves_reno(d):
    """C19 (§5.4, Fig. 16): "TFRC sources achieve higher throughput rates than the link fair share
    with a consequent starvation of the TCP Reno sources"."""
    from vidcc.analysis import summarize

    parts = ["tfrc-20", "tfrc-40"]
    t = d.summary("normalized_throughput", by="n", group="part", part=parts, where={"label": "tfrc"})
    r = d.summary("normalized_throughput", by="n", group="part", part=parts, where={"label": "reno"})
    f = d.flows(["dvrc-20", "dvrc-40", "tfrc-20", "tfrc-40"], {"label": "reno"}).copy()
    f["dev"] = (f["normalized_throughput"] - 1.0).abs()
    f["with"] = f["part"].str.split("-").str[0]
    dev = summarize(f, "dev", group="with")
    return all_of(bound(t, ">", 1.0, name="NT of TFRC"), bound(r, "<", 1.0, name="NT of Reno with TFRC"),
                  ordering(dev, "tfrc", "dvrc", group="with", name="mean |NT(Reno) − 1|"))


def multihop_fair_shares(d):
    """C20 (§5.5, Fig. 17): the DVRC flow "is still able to obtain its fair share" and the forward
    TCP flows' average "is close to the link fair share" at every hop count: NT within [0.7, 1.3]."""
    s = d.summary("normalized_throughput", by="hops", where={"label": ["dvrc", "reno-forward"]})
    return within(s, 0.7, 1.3, name="NT (fair share 500 kbit/s)")


def reno_alone_share_fairly(d):
    """B1: 20 and 40 Reno flows alone in S4's dumbbell share fairly."""
    nt = d.summary("normalized_throughput", by="reno_flows", part="reno-only")
    jain = d.summary("jain", by="reno_flows", table="run_aggregate", part="reno-only", where={"label": "reno"})
    return all_of(within(nt, 0.9, 1.1, name="NT (Reno)"), bound(jain, ">=", 0.9, name="Jain (Reno)"))
