"""`vidcc reproduce PAPER --under READING --figures FIG`: a trial of one suite under some of its
readings and on some of its figures, as the full-scale trials cited in docs/papers/ were run."""

from __future__ import annotations

import pytest

from vidcc.cli import build_parser
from vidcc.papers import load_suite
from vidcc.papers.reproducing import default_out, reproduce, trial_suite


def test_a_trial_keeps_the_named_figures_and_their_claims_unclassified_under_the_readings():
    suite = load_suite("asmp-tfmcc")
    t = trial_suite(suite, under=("frame-timestamp-ready",), figures=("fig13-18",))
    assert [f.id for f in t.figures] == ["fig13-18"]
    assert {c.figure for c in t.claims} == {"fig13-18"}
    assert "C19" in {c.id for c in t.claims} and "C3" not in {c.id for c in t.claims}
    assert all(c.category is None for c in t.claims)
    assert t.name == "asmp-tfmcc~frame-timestamp-ready"
    # The readings that bear on the kept figure stay declared (the claims name them, --explore runs them).
    assert "tcp-window-open" in {a.name for a in t.alternatives}
    assert "s3-capacity" not in {a.name for a in t.alternatives}  # limited to fig10-12
    t.validate()
    assert all(p.alternatives and p.alternatives[0].name == "frame-timestamp-ready" for p in t.figures[0].parts)
    # Figures alone: the defaults, the suite's own sweeps (same name), no categories.
    f = trial_suite(suite, figures=("fig7",))
    assert f.name == suite.name and [c.id for c in f.claims] == ["C7", "C8", "C9"]
    assert trial_suite(suite) is suite


def test_unknown_readings_and_figures_are_named_with_the_known_ones():
    suite = load_suite("dvrc")
    with pytest.raises(ValueError, match=r"no reading 'pacingg'; its readings: .*pacing"):
        trial_suite(suite, under=("pacingg",))
    with pytest.raises(ValueError, match=r"no figure 'fig99'; its figures: .*fig6"):
        trial_suite(suite, figures=("fig99",))
    with pytest.raises(ValueError, match="not 'all'"):
        reproduce("all", under=("pacing",))


def test_the_cli_reads_comma_separated_names_and_the_output_says_it_is_a_trial():
    args = build_parser().parse_args(["reproduce", "dvrc", "--scale", "full", "--under", "pacing,compare-r-prev",
                                      "--figures", "fig8-10"])
    assert args.under == ("pacing", "compare-r-prev") and args.figures == ("fig8-10",)
    out = default_out("dvrc", "full", args.under, args.figures)
    assert out == "out/reproduce/dvrc-full~pacing+compare-r-prev@fig8-10"
    assert default_out("dvrc", "quick") == "out/reproduce/dvrc-quick"
    with pytest.raises(SystemExit):
        build_parser().parse_args(["reproduce", "dvrc", "--under", "pacing,"])
