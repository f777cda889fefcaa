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


def tfrc_loss_against_reno_cause(d, m):
    """Why C19 fails, from the runs: TFRC sets its rate from the TCP response function of its own
    loss (Eq. 1 of the paper, RFC 5348), so on S4's dumbbell, where every flow has the same path
    RTT, it can take more than a Reno flow only while it loses less than the Reno flows; the
    starvation the paper reports rests on such a difference (it cites Rhee and Xu). The
    network drop ratios of both, per part, show whether the runs have it."""
    f = d.flows(["tfrc-20", "tfrc-40"], {"label": ["tfrc", "reno"]})
    cells, more = [], []
    for part, g in f.groupby("part"):
        t = float(g[g["label"] == "tfrc"]["drop_rate"].mean())
        r = float(g[g["label"] == "reno"]["drop_rate"].mean())
        m[f"network drop ratio (TFRC, {part})"] = t
        m[f"network drop ratio (Reno, {part})"] = r
        cells.append(f"TFRC {t:.3f} vs Reno {r:.3f} in {part}")
        more.append(t > r)
    if not cells:
        return "no TFRC or Reno flows in these runs: the cause is not measured"
    how = ("more often than the Reno flows' in every part" if all(more) else
           "less often than the Reno flows' in every part" if not any(more) else "more often in some parts only")
    return (f"TFRC sets its rate from the TCP response function of its own loss (Eq. 1), so at the Reno flows' "
            f"path RTT it takes more than they do only while it loses less; here TFRC's packets are dropped {how} "
            f"(network drop ratio {'; '.join(cells)}), so the loss difference in TFRC's favour that the paper's "
            f"starvation rests on (Rhee and Xu) {'does not arise' if all(more) else 'is not general'}")


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
