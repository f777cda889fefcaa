"""The SSVP suite's own helpers and analytic checks (the suite runs in tests/test_reproduce.py)."""

import math

from vidcc.papers.model import FAIL, PASS, Claim, Verdict
from vidcc.papers.ssvp import SUITE, units
from vidcc.papers.ssvp.rate_law import alpha_from_beta, sender_delay, sender_delay_falls_with_beta
from vidcc.papers.verdicts import check_claim


def test_suite_validates_and_keeps_every_paper_page_claim():
    SUITE.validate()
    ids = {c.id for c in SUITE.claims}
    assert {f"C{i}" for i in range(1, 23)} <= ids


def test_eq7_and_eq6_claims_pass_on_the_configured_defaults():
    assert alpha_from_beta(None).status == PASS
    assert sender_delay_falls_with_beta(None).status == PASS
    assert math.isclose(sender_delay(0.7, 0.875), 0.1, rel_tol=1e-12)
    assert sender_delay(1.0, 0.5) == 1.0


def _claim(status, cause):
    def check(data):
        return Verdict(status, {"x": 1}, "fine" if status == PASS else "broken")

    return Claim("T", "t", None, ("tcp-reno",), check, cause=cause)


def test_a_measured_cause_is_computed_only_for_failures():
    assert check_claim(_claim(PASS, lambda d, m: 1 / 0), None).explanation == "fine"
    bad = check_claim(_claim(FAIL, lambda d, m: m.setdefault("y", 2) and "the reason"), None)
    assert bad.status == FAIL and bad.explanation == "broken. Cause: the reason" and bad.measured == {"x": 1, "y": 2}
    raised = check_claim(_claim(FAIL, lambda d, m: 1 / 0), None)
    assert raised.status == FAIL and not raised.error and "cause not computed: ZeroDivisionError" in raised.explanation


def test_measured_causes_are_stated_on_the_claims_that_do_not_reproduce():
    assert {c.id for c in SUITE.claims if c.cause is not None} == {"C9", "C10", "C11", "C13", "C15", "C16", "C17", "B1"}


def test_every_claim_has_a_check():
    assert [c.id for c in SUITE.claims if c.check is None] == []


def test_unit_claims_hold_on_the_implementations_numbers():
    for check in (units.layer_buffer_rule, units.adjustment_rule, units.rtt_estimator, units.tfrc_responsiveness):
        v = check(None)
        assert v.status == PASS, (check.__name__, v.explanation)
    # the worked example of docs/papers/ssvp.md (§1.2): ≈ 17 packets as printed, ≈ 100 B physically
    assert math.isclose(units.required_buffer_bytes(300e3, 320e3, 0.125), 32_500**2 / 62_000)
    assert round(units.layer_buffer_rule(None).measured["worked example, packets"]) == 17


def test_unit_checks_fail_on_wrong_numbers(monkeypatch):
    good = dict(units._units())
    # the physical reading in place of Eq. 17; TCP's halving in place of ×β; TCP's RTTVAR instead of Eq. 5
    for key, wrong, check in [("c3_example_literal_bytes", 101.0, units.layer_buffer_rule),
                              ("c4_decrease_factor_min", 0.5, units.adjustment_rule),  # TCP's halving in place of ×β
                              ("c4_increases_with_marks", 1.0, units.adjustment_rule),
                              ("c6_dev_after_1", 0.0625, units.rtt_estimator),  # TCP's RTTVAR form instead of Eq. 5
                              ("c22_halving_rtts_plain_p0.01", 12.0, units.tfrc_responsiveness)]:
        monkeypatch.setattr(units, "_units", lambda k=key, w=wrong: {**good, k: w})
        assert check(None).status == FAIL, key
