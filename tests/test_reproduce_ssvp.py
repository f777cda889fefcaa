"""The SSVP suite's own helpers and analytic checks (the suite runs in tests/test_reproduce.py)."""

import math

from vidcc.papers.framework import FAIL, PASS, Verdict
from vidcc.papers.ssvp import SUITE, because, c1, c2, sender_delay


def test_suite_validates_and_keeps_every_digest_claim():
    SUITE.validate()
    ids = {c.id for c in SUITE.claims}
    assert {f"C{i}" for i in range(1, 23)} <= ids


def test_eq7_and_eq6_claims_pass_on_the_configured_defaults():
    assert c1(None).status == PASS
    assert c2(None).status == PASS
    assert math.isclose(sender_delay(0.7, 0.875), 0.1, rel_tol=1e-12)
    assert sender_delay(1.0, 0.5) == 1.0


def test_because_appends_a_cause_only_to_failures():
    ok = Verdict(PASS, {"x": 1}, "fine")
    assert because(ok, lambda m: "never") is ok
    bad = because(Verdict(FAIL, {"x": 1}, "broken"), lambda m: m.setdefault("y", 2) and "the reason")
    assert bad.status == FAIL and bad.explanation == "broken. Cause: the reason" and bad.measured["y"] == 2
    raised = because(Verdict(FAIL, {}, "broken"), lambda m: 1 / 0)
    assert raised.status == FAIL and "cause not computed" in raised.explanation


def test_unwritten_claims_say_why():
    pending = {c.id: c.pending for c in SUITE.claims if c.check is None}
    assert set(pending) == {"C3", "C4", "C6", "C22"}
    assert all(pending.values())
