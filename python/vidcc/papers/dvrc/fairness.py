"""Intra-protocol fairness: Jain's index and worst-case fairness among the MPEG flows (C10–C12, C17,
C24)."""

from __future__ import annotations

from vidcc.papers.dvrc.scenarios import MPEG
from vidcc.papers.dvrc.summaries import by_label, largest_n, several_flows
from vidcc.papers.model import FAIL, PASS, Verdict
from vidcc.papers.verdicts import all_of, bound, direction, ordering

S2 = MPEG[:3]
S3 = ("dvrc", "tfrc", "rtcp-udp")


def s2_jain_dvrc_fair(d):
    """C10 (§5.2, Fig. 10a): Jain's index of DVRC ≈ 1 at every N; TFRC and TCPW+ high, not above DVRC."""
    s = by_label(d, "jain", S2, S2, table="run_aggregate")
    return all_of(bound(s[s["label"] == "dvrc"], ">=", 0.95, name="Jain (DVRC)"),
                  ordering(s, "dvrc", "tfrc", by="n", margin=-0.02, name="Jain (DVRC ≥ TFRC − 0.02)"),
                  ordering(s, "dvrc", "tcpw+", by="n", margin=-0.02, name="Jain (DVRC ≥ TCPW+ − 0.02)"))


def s2_worst_case_others_degrade(d):
    """C11 (§5.2, Fig. 10b): TFRC's and TCPW+'s worst-case fairness "gradually degrades" with N,
    ending below DVRC's."""
    s = by_label(d, "worst_case_fairness", S2, S2, table="run_aggregate")
    return all_of(direction(s, "n", increasing=False, group="label", of="tfrc", name="WCF (TFRC)"),
                  direction(s, "n", increasing=False, group="label", of="tcpw+", name="WCF (TCPW+)"),
                  ordering(s, "dvrc", "tfrc", by="n", at=largest_n(s), name="WCF at the largest N"),
                  ordering(s, "dvrc", "tcpw+", by="n", at=largest_n(s), name="WCF at the largest N"))


def varying_rtts_tfrc_loses_most(d):
    """C12 (§5.2, Fig. 10c): with strongly varying RTTs DVRC stays adequate; "TFRC exhibits the most
    notable reduction in its Fairness Index compared to Fig. 10a" — larger than DVRC's and TCPW+'s —,
    ending below DVRC."""
    labels = ("dvrc", "tfrc", "tcpw+")
    here = by_label(d, "jain", labels, labels, table="run_aggregate")
    there = by_label(d.other("fig8-10"), "jain", labels, labels, table="run_aggregate")
    n = here["n"].max()
    drop = {}
    for lab in labels:
        a = there[(there["label"] == lab) & (there["n"] == n)]["mean"]
        b = here[(here["label"] == lab) & (here["n"] == n)]["mean"]
        drop[lab] = float(a.iloc[0] - b.iloc[0]) if len(a) and len(b) else float("nan")
    measured = {f"Jain drop Fig10a→10c at N={n} ({k})": v for k, v in drop.items()}
    v = ordering(here, "dvrc", "tfrc", by="n", at=[n], name="Jain (S2c)")
    others = [lab for lab in labels if lab != "tfrc"]
    ok = all(drop["tfrc"] > drop[lab] for lab in others)
    largest = Verdict(PASS if ok else FAIL, measured,
                      f"TFRC's Jain drop from Fig. 10a ({drop['tfrc']:.3f}) {'exceeds' if ok else 'does not exceed'} "
                      + " and ".join(f"{lab.upper()}'s ({drop[lab]:.3f})" for lab in others))
    return all_of(v, largest)


def varying_rtts_cause(d, m):
    drops = {k: v for k, v in m.items() if k.startswith("Jain drop Fig10a→10c")}
    cells = ", ".join(f"{k.rsplit('(', 1)[-1].rstrip(')')} {v:.3f}" for k, v in drops.items())
    return (f"with ns-2's Agent/TFRC defaults TFRC's Jain index across the strongly varying RTTs of S2c does not "
            f"fall the most from Fig. 10a, or stays above DVRC's (drops: {cells}); docs/protocols/tfrc.md compares "
            f"these defaults with the RFC's")


def s3_rtcp_udp_least_fair(d):
    """C17 (§5.3, Fig. 14a,b): DVRC and TFRC fair; RTCP/UDP the least fair (lowest Jain and WCF)."""
    j = several_flows(by_label(d, "jain", S3, S3, table="run_aggregate"))
    w = several_flows(by_label(d, "worst_case_fairness", S3, S3, table="run_aggregate"))
    return all_of(bound(j[j["label"].isin(["dvrc", "tfrc"])], ">=", 0.9, name="Jain"),
                  ordering(j, "dvrc", "rtcp-udp", by="n", name="Jain"),
                  ordering(j, "tfrc", "rtcp-udp", by="n", name="Jain"),
                  ordering(w, "dvrc", "rtcp-udp", by="n", name="WCF"),
                  ordering(w, "tfrc", "rtcp-udp", by="n", name="WCF"))


def s6_dvrc_flows_equal(d):
    """C24 (§5.5, Fig. 20a,b): "All competing DVRC flows achieve similar throughput rates"."""
    j = several_flows(by_label(d, "jain", ("dvrc",), ("dvrc",), table="run_aggregate"))
    w = several_flows(by_label(d, "worst_case_fairness", ("dvrc",), ("dvrc",), table="run_aggregate"))
    return all_of(bound(j, ">=", 0.95, name="Jain (DVRC)"), bound(w, ">=", 0.7, name="WCF (DVRC)"))
