"""The ASMP/TFMCC suite's over-claim bounds on synthetic numbers: each must hold for every result
(a bound above what the run measured would wrongly rule a claim out) and be tight where it can."""

from __future__ import annotations

import numpy as np


def test_c9_floor_is_tight_when_the_losses_move_the_two_apart():
    """Loss-free 40 / 30 dB, lossy 39 / 29.5 dB: the drops are 1 and 0.5 dB, so |ΔPSNR| = 9.5 dB
    = 10 − |1 − 0.5|, and the check allows (1 + 0.5) / 4 = 0.375 dB."""
    from vidcc.papers.asmp_tfmcc.video_quality import loss_free_gap_floor

    gap0, floor, half = loss_free_gap_floor({"asmp": 40.0, "tfmcc": 30.0}, {"asmp": 39.0, "tfmcc": 29.5})
    assert (gap0, floor, half) == (10.0, 9.5, 0.375)
    # The losses close the gap: TFMCC, the finer one loss-free, loses 5 dB, ASMP 0.2 dB.
    gap0, floor, half = loss_free_gap_floor({"asmp": 30.0, "tfmcc": 40.0}, {"asmp": 29.8, "tfmcc": 35.0})
    assert (round(gap0, 9), round(floor, 9), round(half, 9)) == (10.0, 5.2, 1.3)


def test_c9_floor_never_exceeds_the_gap_the_run_shows():
    from vidcc.papers.asmp_tfmcc.video_quality import loss_free_gap_floor

    rng = np.random.default_rng(3)
    for _ in range(2000):
        la, lt = rng.uniform(15, 45, 2)
        pa, pt = la - rng.uniform(-3, 20), lt - rng.uniform(-3, 20)
        _, floor, half = loss_free_gap_floor({"asmp": la, "tfmcc": lt}, {"asmp": pa, "tfmcc": pt})
        assert floor <= abs(pa - pt) + 1e-9
        # The check's allowance: half the mean of the two drops (video_quality.similar_psnr_curves).
        assert abs(half - ((la - pa) + (lt - pt)) / 2 / 2) < 1e-9


def test_c9_is_an_over_claim_measured_under_every_reading_that_bears_on_it():
    from vidcc.papers import load_suite
    from vidcc.papers.asmp_tfmcc.readings import BEARING
    from vidcc.papers.categories import OverClaim

    suite = load_suite("asmp-tfmcc")
    c9 = next(c for c in suite.claims if c.id == "C9")
    assert isinstance(c9.category, OverClaim) and c9.category.bound is not None
    assert set(c9.category.readings) == {r for r, claims in BEARING.items() if "C9" in claims}
