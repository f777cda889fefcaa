"""The DVRC suite's own helpers and checks on hand-made results (the suite runs in tests/test_reproduce.py)."""

import json

import pandas as pd

from vidcc.papers.dvrc import SUITE
from vidcc.papers.dvrc.claims import CAUSES
from vidcc.papers.dvrc.loss_classes import random_loss_mostly_additive as c1
from vidcc.papers.dvrc.scenarios import MPEG_START
from vidcc.papers.measures import FigureData
from vidcc.papers.model import FAIL, PASS, Claim, FigureRun, Verdict, at_scale
from vidcc.papers.verdicts import check_claim


def test_suite_validates_and_keeps_every_paper_page_claim():
    SUITE.validate()
    assert {f"C{i}" for i in range(1, 27)} <= {c.id for c in SUITE.claims}


def test_only_video_over_tcp_claims_wait():
    # every protocol of the paper exists except TCPW+ carrying video: no check is left unwritten
    assert [c.id for c in SUITE.claims if c.check is None] == []
    waiting = {c.id for c in SUITE.claims if "video-over-tcp" in c.needs}
    assert waiting == {f"C{i}" for i in range(5, 12)}


def test_mpeg_flows_start_desynchronised_except_the_late_joiner():
    for fig in SUITE.figures:
        for part in fig.parts:
            for f in at_scale(part.base, "quick")["flows"]:
                if "video" not in f:
                    continue
                if fig.id == "fig17":
                    assert f["start"] == "10s"  # S5: the DVRC flow joins at 10 s [P]
                else:
                    assert f["start"] == MPEG_START, (fig.id, part.name)


def test_c26_part_carries_four_layers_off_the_s2_plots():
    part = SUITE.figure("fig8-10").part("dvrc-k4")
    f = at_scale(part.base, "quick")["flows"][0]
    assert f["label"] == "dvrc-k4" and len(f["video"]["layers"]) == 4
    assert f["video"]["layers"][0] == "128kbps" and f["video"]["layers"][-1] == "1024kbps"


def _events_figure(classes_by_part):
    """A FigureData with one DVRC flow per run and the given loss_class values (1 = MD, 0 = AD)."""
    fig = SUITE.figure("fig3")
    runs, flows, events = [], [], {}
    for part, (n, classes) in classes_by_part.items():
        rid = f"{part}-{n}"
        runs.append({"run_id": rid, "part": "dvrc", "seed": 1, "n": n, "resolved_json": json.dumps({"warmup_ns": 2_000_000_000})})
        flows.append({"run_id": rid, "part": "dvrc", "seed": 1, "n": n, "flow": 0, "label": "dvrc"})
        rows = [{"t_ns": 3_000_000_000, "flow": 0, "side": "receiver", "kind": "loss_class", "value": float(c)} for c in classes]
        rows.append({"t_ns": 1_000_000_000, "flow": 0, "side": "receiver", "kind": "loss_class", "value": 1.0})  # warm-up
        rows.append({"t_ns": 3_000_000_000, "flow": 0, "side": "receiver", "kind": "timeout", "value": 1.0})
        events[rid] = pd.DataFrame(rows)
    return FigureData(fig, {"runs": pd.DataFrame(runs), "run_flows": pd.DataFrame(flows), "run_aggregate": pd.DataFrame()},
                      ran=["dvrc"], series=lambda rid, table: events[rid] if table == "events" else pd.DataFrame())


def test_c1_counts_classified_loss_events_after_the_warmup():
    v = c1(_events_figure({"a": (1, [0, 0, 0, 1])}))
    assert v.status == PASS and v.measured["multiplicative decreases (all runs)"] == 1
    assert v.measured["DTO expiries (all runs, not classified)"] == 1
    assert c1(_events_figure({"a": (1, [1, 1, 0])})).status == FAIL


def _c25(s6_classes, s2_classes):
    s6 = _events_figure({"a": (10, s6_classes)})
    s2 = _events_figure({"b": (10, s2_classes)})
    for d in (s6, s2):
        d.attach_others({"fig8-10": s2, "fig18-20": s6})
    claim = next(c for c in SUITE.claims if c.id == "C25")
    return check_claim(claim, FigureRun(SUITE.figure("fig18-20"), [], data=s6))


def test_c25_wants_mostly_multiplicative_decreases_above_s2s_share_and_explains_a_failure():
    passed = _c25([1, 1, 1, 0], [1, 0, 0, 0])
    assert passed.status == PASS and passed.cause == "" and "Cause:" not in passed.explanation
    # ordered (0.4 > 0.25) but not "mostly": the paper's words fail
    not_mostly = _c25([1, 1, 0, 0, 0], [1, 0, 0, 0])
    assert not_mostly.status == FAIL and "not above 0.5" in not_mostly.finding
    failed = _c25([1, 0, 0, 0], [1, 1, 1, 0])
    assert failed.status == FAIL
    # the cause states the classifier's bound with the shares these runs measured
    assert "1/(2n) = 0.33" in failed.cause and "MD share pooled over runs (S6 (no link errors)) 0.250" in failed.cause
    assert failed.explanation == f"{failed.finding}. Cause: {failed.cause}"


def test_every_stated_cause_belongs_to_a_claim_with_a_check():
    with_cause = {c.id for c in SUITE.claims if c.cause is not None}
    assert with_cause == set(CAUSES) | {"C25"}  # C25's cause is computed from the runs (md_share_bound_cause)
    assert all(c.check is not None for c in SUITE.claims if c.cause is not None)


def test_a_cause_is_stated_only_on_a_fail():
    ok = Claim("T", "t", None, ("tcp-reno",), lambda d: Verdict(PASS, {"x": 1}, "fine"), cause="never")
    assert check_claim(ok, None).explanation == "fine"


def _drop_figure(figure, cells):
    """A FigureData of ``figure`` with one flow per run: ``cells`` maps (label, n) to (network drop
    ratio of run_flows, the video's packet_drop_rate of video_summary)."""
    runs, flows, video = [], [], {}
    for (label, n), (network, pdr) in cells.items():
        rid = f"{label}-{n}"
        runs.append({"run_id": rid, "part": label, "seed": 1, "n": n})
        flows.append({"run_id": rid, "part": label, "seed": 1, "n": n, "flow": 0, "receiver": 0, "label": label,
                      "drop_rate": network})
        video[rid] = pd.DataFrame({"flow": [0], "receiver": [0], "packet_drop_rate": [pdr]})
    return FigureData(SUITE.figure(figure), {"runs": pd.DataFrame(runs), "run_flows": pd.DataFrame(flows),
                                             "run_aggregate": pd.DataFrame()}, ran=sorted({k[0] for k in cells}),
                      series=lambda rid, table: video[rid] if table == "video_summary" else pd.DataFrame())


def test_drop_rate_claims_read_the_papers_packet_drop_rate():
    """§4.2: "Packet Drop Rate, as the ratio of the number of lost packets over the number of packets
    sent by the application". Fails before the fix: C8, C16, C23 read the network drop ratio of
    run_flows, which here orders the protocols the other way."""
    from vidcc.papers.dvrc.video import s2_drop_rate_dvrc_lowest as c8
    from vidcc.papers.dvrc.video import s3_drop_rate_dvrc_lowest as c16
    from vidcc.papers.dvrc.video import s6_drop_rate_dvrc_lowest as c23

    # The network drops little of TFRC's and TCPW+'s packets, but most of their video never arrives
    # (unsent): TCPW+ is read at the application like the others (it once was read at the network,
    # where it would fail here).
    s2 = {("dvrc", 10): (0.05, 0.05), ("tfrc", 10): (0.01, 0.30), ("tcpw+", 10): (0.01, 0.40)}
    v = c8(_drop_figure("fig8-10", s2))
    assert v.status == PASS, v.explanation
    assert v.measured["packet drop rate[tfrc,n=10]"] == 0.3
    assert v.measured["packet drop rate[tcpw+,n=10]"] == 0.4
    for check, fig in ((c16, "fig12-14"), (c23, "fig18-20")):
        cells = {("dvrc", 10): (0.05, 0.05), ("tfrc", 10): (0.01, 0.30), ("rtcp-udp", 10): (0.02, 0.10)}
        assert check(_drop_figure(fig, cells)).status == PASS
        cells[("tfrc", 10)] = (0.30, 0.01)
        assert check(_drop_figure(fig, cells)).status == FAIL
