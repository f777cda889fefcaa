"""The SSVP suite's unit-level claims (C3, C4, C6) and the TFRC baseline's sanity claim (C22),
checked against docs/papers/ssvp.md on the implementation's own numbers:
``_vidcc.ssvp_unit_measurements`` (Rust ``vidcc_core::proto::ssvp::claims``) drives the real layer
rule, rate controller, sender endpoint and TFRC estimator with scripted inputs; the expected values
are computed here from the
paper's equations, independently of the Rust code."""

from __future__ import annotations

import functools

from vidcc.papers.model import FAIL, PASS, Verdict

__all__ = ["layer_buffer_rule", "adjustment_rule", "rtt_estimator", "tfrc_responsiveness", "required_buffer_bytes"]

ALPHA, BETA = 0.31, 0.875
PACKET_BYTES = 1000.0
RTT_S = 0.1


@functools.lru_cache(maxsize=1)
def _units() -> dict[str, float]:
    from vidcc import _vidcc

    return dict(_vidcc.ssvp_unit_measurements())


def required_buffer_bytes(next_layers_bps: float, rate_bps: float, postloss: float) -> float:
    """Eq. (15) in SI units (docs/papers/ssvp.md A-LA-2/A-LA-3): P = max(0, C_{k+1} − f·R)² / (2λ), λ = α·S/RTT²,
    rates in bytes/s, P in bytes."""
    lam = ALPHA * PACKET_BYTES / RTT_S**2
    deficit = max(0.0, next_layers_bps / 8 - postloss * rate_bps / 8)
    return deficit * deficit / (2 * lam)


def layer_buffer_rule(_d) -> Verdict:
    m = _units()
    # The worked example (docs/papers/ssvp.md §1.2): c̄ = 100 kbit/s, k = 2, R = 320 kbit/s, RTT 0.1 s, 1000 B.
    want = {
        "c3_example_literal_bytes": required_buffer_bytes(300e3, 320e3, 1 - BETA),  # ≈ 17 036 B ≈ 17 packets
        "c3_example_physical_bytes": required_buffer_bytes(300e3, 320e3, BETA),  # ≈ 101 B
        "c3_clamp_literal_bytes": 0.0,  # 0.125 · 2.5 Mbit/s ≥ 300 kbit/s: P clamped at 0 (A-LA-3)
        "c3_clamp_physical_bytes": 0.0,  # 0.875 · 350 kbit/s ≥ 300 kbit/s
        "c3_deficit_130k_bytes": required_buffer_bytes(300e3, 1.36e6, 1 - BETA),  # half the example's deficit
    }
    measured, bad = {}, []
    for k, w in want.items():
        got = m[k]
        measured[f"{k} (want {w:.1f})"] = got
        # the rule adds from the first whole byte at or above P
        if not (w <= got <= w + 1.0 if w > 0 else got == 0.0):
            bad.append(f"{k} = {got:g}, want ⌈{w:.1f}⌉")
    packets = m["c3_example_literal_bytes"] / PACKET_BYTES
    measured["worked example, packets"] = round(packets, 2)
    ratio = m["c3_example_literal_bytes"] / m["c3_deficit_130k_bytes"]
    measured["P(2·deficit) / P(deficit)"] = round(ratio, 4)
    if abs(packets - 17) > 0.5:
        bad.append(f"worked example {packets:.2f} packets, Eq. 17 as printed gives ≈ 17")
    what = (
        "the layer rule's add threshold (Eq. 15 through LayerAdaptation): worked example ≈ 17 packets from Eq. 17 "
        "as printed (the paper prints the equation, not this example; ≈ 100 B in the physical reading), 0 when the "
        "post-loss rate covers k+1 layers, quadratic in the deficit"
    )
    return Verdict(
        FAIL if bad else PASS,
        measured,
        f"{what}: " + ("; ".join(bad) if bad else f"{packets:.2f} packets, ratio {ratio:.3f}"),
    )


def adjustment_rule(_d) -> Verdict:
    m = _units()
    names = [
        "c4_periods",
        "c4_increases",
        "c4_decreases",
        "c4_holds",
        "c4_min_gap_between_changes_rtt",
        "c4_rate_changes_while_waiting",
        "c4_decrease_factor_min",
        "c4_decrease_factor_max",
        "c4_decrease_mark_share_min",
        "c4_hold_mark_share_min",
        "c4_hold_mark_share_max",
        "c4_hold_rate_changes",
        "c4_increases_with_marks",
    ]
    measured = {n.removeprefix("c4_"): m[n] for n in names}
    bad = []
    if not m["c4_min_gap_between_changes_rtt"] >= 1.0:
        bad.append(f"two rate changes {m['c4_min_gap_between_changes_rtt']:.3f} RTT apart")
    if m["c4_rate_changes_while_waiting"]:
        bad.append(f"{m['c4_rate_changes_while_waiting']:g} rate changes inside an adjustment period")
    if abs(m["c4_decrease_factor_min"] - BETA) > 1e-4 or abs(m["c4_decrease_factor_max"] - BETA) > 1e-4:  # whole bit/s
        bad.append(
            f"decrease factors {m['c4_decrease_factor_min']:.6f}..{m['c4_decrease_factor_max']:.6f}, want β = {BETA}"
        )
    if not m["c4_decrease_mark_share_min"] > 0.005:
        bad.append(f"a decrease at a mark share of {m['c4_decrease_mark_share_min']:.4f} ≤ 0.005")
    if not (0 < m["c4_hold_mark_share_min"] and m["c4_hold_mark_share_max"] <= 0.005):
        bad.append(
            f"holds at mark shares {m['c4_hold_mark_share_min']:.4f}..{m['c4_hold_mark_share_max']:.4f}, want (0, "
            "0.005]"
        )
    if m["c4_hold_rate_changes"]:
        bad.append(f"{m['c4_hold_rate_changes']:g} holds changed the rate")
    if m["c4_increases_with_marks"]:
        bad.append(f"{m['c4_increases_with_marks']:g} increases in periods with marks")
    if not (m["c4_holds"] and m["c4_increases"] and m["c4_decreases"]):
        bad.append("the script did not exercise all three branches")
    what = (
        f"Alg. 2 on a scripted stream of control packets ({m['c4_periods']:g} periods of 1000, marks 0–1000 per "
        "period): "
        "≤ 1 change per period, decrease ×β only above a 0.005 mark share, hold in (0, 0.005], increase only without "
        "marks"
    )
    return Verdict(
        FAIL if bad else PASS,
        measured,
        f"{what}: "
        + (
            "; ".join(bad)
            if bad
            else f"{m['c4_increases']:g} increases, {m['c4_holds']:g} holds, {m['c4_decreases']:g} decreases"
        ),
    )


def rtt_estimator(_d) -> Verdict:
    m = _units()
    # Samples 100 ms then 200 ms: first sample EstimatedRTT = 100, Dev = 50 (A-RTT-2), STO = 300 ms;
    # then Eq. 3: 0.9·100 + 0.1·200 = 110; Eq. 5 (literal): 0.25·50 + 0.75·|110 − 100| = 20; Eq. 4: 110 + 4·20 = 190 ms.
    want = {
        "c6_endpoint_sample_50ms": 0.050,
        "c6_endpoint_sample_237ms": 0.237,
        "c6_gamma": 0.9,
        "c6_epsilon": 0.25,
        "c6_delta": 4.0,
        "c6_sto_before_samples": 1.0,
        "c6_est_after_0": 0.100,
        "c6_dev_after_0": 0.050,
        "c6_sto_after_0": 0.300,
        "c6_est_after_1": 0.110,
        "c6_dev_after_1": 0.020,
        "c6_sto_after_1": 0.190,
    }
    measured, bad = {}, []
    for k, w in want.items():
        measured[k.removeprefix("c6_")] = m[k]
        if abs(m[k] - w) > 1e-9:
            bad.append(f"{k.removeprefix('c6_')} = {m[k]:g}, want {w:g}")
    measured["min STO − EstimatedRTT over random samples (s)"] = m["c6_min_sto_minus_est"]
    if not m["c6_min_sto_minus_est"] >= 0:
        bad.append(f"STO < EstimatedRTT by {-m['c6_min_sto_minus_est']:g} s")
    what = (
        f"Eq. 2 at the sender endpoint (echoed timestamp), γ = 0.9, ε = 0.25, δ = 4 on the estimator, and STO ≥ "
        f"EstimatedRTT over {m['c6_random_samples']:g} random samples"
    )
    return Verdict(FAIL if bad else PASS, measured, f"{what}: " + ("; ".join(bad) if bad else "all hold"))


C22_P = (0.001, 0.005, 0.01, 0.05)


def tfrc_responsiveness(_d) -> Verdict:
    """TFRC (the paper's [9], Floyd et al. 2000): the allowed rate rises by at most 0.14 packets per
    RTT per RTT without loss (0.28 with history discounting) and halves in about 5 RTTs of
    persistent congestion; suite tolerance ±30 % (docs/papers/ssvp.md C22): rise ≤ 1.3 × bound, halving in
    3.5–6.5 RTTs."""
    m = _units()
    measured, bad = {}, []
    for p in C22_P:
        for tag, cap in (("plain", 0.14), ("discounting", 0.28)):
            rise = m[f"c22_increase_{tag}_p{p}"]
            halve = m[f"c22_halving_rtts_{tag}_p{p}"]
            measured[f"largest rise, pkt/RTT per RTT ({tag}, p={p:g})"] = round(rise, 4)
            measured[f"RTTs to halve ({tag}, p={p:g})"] = halve
            if not rise <= 1.3 * cap:
                bad.append(f"rise {rise:.3f} pkt/RTT > 1.3 × {cap} ({tag}, p = {p:g})")
            if tag == "plain" and not 3.5 <= halve <= 6.5:
                bad.append(f"{halve:g} RTTs to halve (p = {p:g}), want 5 ± 30 %")
    what = (
        "TFRC's loss-interval average and throughput equation (b = 1, t_RTO = 4R): rise without loss ≤ 0.14 pkt/RTT "
        "(0.28 with discounting) and ≈ 5 RTTs to halve under a loss event per RTT, ± 30 %"
    )
    return Verdict(FAIL if bad else PASS, measured, f"{what}: " + ("; ".join(bad) if bad else "holds at every p"))
