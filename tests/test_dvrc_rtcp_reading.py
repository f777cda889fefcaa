"""The DVRC suite's readings of the RTCP/UDP baseline's layer rule (docs/papers/dvrc.md §1.3,
"RTCP/UDP reading"; docs/protocols/rtcp-udp.md "Adaptation"): declared, applied to the
RTCP/UDP flows only, bearing on C15–C17, and doing what the protocol page says."""

from __future__ import annotations

import pytest

import vidcc
from scenario_testing import dumbbell
from vidcc import parse_scenario
from vidcc.papers import load_suite

READINGS = {"rtcp-rate": "rate", "rtcp-rate-on-loss": "rate_on_loss"}
LAYERS = 'layers = ["128kbps", "256kbps", "512kbps", "768kbps", "1024kbps"]'


@pytest.fixture(scope="module")
def suite():
    return load_suite("dvrc")


def _flows(part, scale="quick"):
    return part.scenario(scale)["flows"]


@pytest.mark.parametrize("name, adaptation", READINGS.items())
def test_the_reading_sets_the_rule_of_the_rtcp_udp_flows_only(suite, name, adaptation):
    # Fails before: the suite declared no reading of RTCP/UDP's rule (suite.alternative raises).
    from vidcc.papers.explore import with_alternatives

    variant = with_alternatives(suite, [suite.alternative(name)])
    changed_flows = 0
    for fid in ("fig12-14", "fig18-20"):
        for part, changed in zip(suite.figure(fid).parts, variant.figure(fid).parts, strict=True):
            for old, new in zip(_flows(part), _flows(changed), strict=True):
                if old.get("protocol") == "rtcp-udp":
                    assert "adaptation" not in old and new["adaptation"] == adaptation, fid
                    changed_flows += 1
                else:
                    assert new == old, fid
    assert changed_flows > 0
    assert {c.id for c in suite.claims if name in c.alternatives} >= {"C15", "C16", "C17"}


def _layers(adaptation: str) -> list[int]:
    flow = f'protocol = "rtcp-udp"\nadaptation = "{adaptation}"\nvideo = {{ model = "tes-mpeg4", {LAYERS} }}\n'
    r = vidcc.run(parse_scenario(dumbbell(flow, duration="8s")))
    ev = r.tables["events"]
    return list(ev[(ev["kind"] == "layers") & (ev["side"] == "sender")]["value"])


def test_alone_on_an_idle_path_only_the_step_rules_climb():
    # The `rate` reading has no probe upwards: the receiving rate of K layers is about c_K, so
    # K = max{j : c_j <= B} never reaches c_{K+1} (it stays at the base layer, or steps down and
    # back when a VBR interval falls below c_1 — the base layer is the floor). The default and
    # `rate_on_loss` add a layer per loss-free report. Fails if the key were ignored (all climb).
    assert _layers("step") == [1, 2, 3, 4, 5]
    assert _layers("rate_on_loss") == [1, 2, 3, 4, 5]
    assert max(_layers("rate")) == 1
