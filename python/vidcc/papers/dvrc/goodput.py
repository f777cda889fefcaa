"""Bandwidth utilisation: aggregate goodput of the MPEG flows against N (C5, C14, C21)."""

from __future__ import annotations

from vidcc.papers.dvrc.scenarios import MPEG
from vidcc.papers.dvrc.summaries import by_label
from vidcc.papers.verdicts import all_of, ordering

S3 = ("dvrc", "tfrc", "rtcp-udp")


def tcpw_behind_at_high_contention(d):
    """C5 (§5.2, Fig. 8a): at 40–50 flows TCPW+'s goodput falls below DVRC's and TFRC's."""
    s = by_label(d, "goodput_bps", MPEG[:3], MPEG[:3], within="sum")
    big = [n for n in s["n"].unique() if n >= 40]
    return all_of(ordering(s, "dvrc", "tcpw+", by="n", at=big, name="aggregate goodput"),
                  ordering(s, "tfrc", "tcpw+", by="n", at=big, name="aggregate goodput"))


def s3_rtcp_udp_lowest(d):
    """C14 (§5.3, Fig. 12): DVRC ≈ TFRC > RTCP/UDP."""
    s = by_label(d, "goodput_bps", S3, S3, within="sum")
    return all_of(ordering(s, "dvrc", "rtcp-udp", by="n", name="aggregate goodput"),
                  ordering(s, "tfrc", "rtcp-udp", by="n", name="aggregate goodput"),
                  ordering(s, "dvrc", "tfrc", by="n", margin=-0.15, relative=True,
                           name="aggregate goodput (DVRC ≥ 0.85·TFRC)"))


def s6_rtcp_udp_limited(d):
    """C21 (§5.5, Fig. 18): DVRC stays high at large N; RTCP/UDP is limited (below DVRC) "as the
    level of contention increases" (N ≥ 10)."""
    s = by_label(d, "goodput_bps", S3, S3, within="sum")
    big = [n for n in s["n"].unique() if n >= 10]
    return ordering(s, "dvrc", "rtcp-udp", by="n", at=big, name="aggregate goodput")
