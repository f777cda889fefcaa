//! TCP throughput equations: the Padhye–Firoiu–Towsley–Kurose model and the TFRC form of it.
//!
//! * [`padhye_full`] — J. Padhye, V. Firoiu, D. Towsley, J. Kurose, "Modeling TCP Throughput: A
//!   Simple Model and its Empirical Validation", SIGCOMM 1998, the full model with timeouts and
//!   the receiver-window limit W_max (Eq. 31 / the "full model" of Sec. 2.4), in packets/s:
//!
//!   ```text
//!   E[W]  = (2+b)/(3b) + sqrt( 8(1−p)/(3bp) + ((2+b)/(3b))² )
//!   Q̂(w)  = min(1, (1−(1−p)³)·(1 + (1−p)³·(1−(1−p)^(w−3))) / (1−(1−p)^w))
//!   f(p)  = 1 + p + 2p² + 4p³ + 8p⁴ + 16p⁵ + 32p⁶
//!   B(p)  = ((1−p)/p + E[W] + Q̂(E[W])/(1−p)) / (RTT·(b/2·E[W] + 1) + Q̂(E[W])·T0·f(p)/(1−p))       if E[W] < W_max
//!         = ((1−p)/p + W_max + Q̂(W_max)/(1−p)) / (RTT·(b/8·W_max + (1−p)/(p·W_max) + 2) + Q̂(W_max)·T0·f(p)/(1−p))   otherwise
//!   ```
//!
//! * [`padhye_approx`] — the same paper's approximate model (Eq. 33), packets/s:
//!   `B ≈ 1 / (RTT·sqrt(2bp/3) + T0·min(1, 3·sqrt(3bp/8))·p·(1+32p²))`.
//!
//! * [`rfc5348_rate`] — the TFRC throughput equation, RFC 5348 §3.1, bytes/s:
//!   `X = s / (R·sqrt(2bp/3) + t_RTO·(3·sqrt(3bp/8))·p·(1+32p²))` (no `min(1, …)`, as in the RFC),
//!   and [`rfc5348_rate_default`] with the RFC's recommended b = 1, t_RTO = 4R.
//! * [`rfc5348_inverse_p`] — the loss event rate that gives a target rate, by bisection (used for
//!   the first loss interval, RFC 5348 §6.3.1).
//!
//! Edge cases (defined so that no input produces NaN):
//! * p ≤ [`P_ZERO`] (including 0 and NaN): the p → 0 limit, `f64::INFINITY` except
//!   for `padhye_full` with a window limit, which tends to `W_max/RTT`.
//! * p ≥ 1: `padhye_full` returns its limit `1/(T0·f(1)) = 1/(64·T0)` (the backed-off timeout
//!   regime); the other formulas are evaluated as written at p = 1.
//! * RTT, T0, s: negative or NaN count as 0; b is clamped to [1, 10⁶] (an ACK acknowledges at
//!   least one packet); W_max below 1 counts as 1. A zero denominator gives `f64::INFINITY`.

/// Loss rates at or below this are treated as zero: the formulas would overflow to ∞/∞ there.
pub const P_ZERO: f64 = 1e-100;

fn nonneg(x: f64) -> f64 {
    if x > 0.0 {
        x.min(f64::MAX)
    } else {
        0.0
    }
}

fn clamp_b(b: f64) -> f64 {
    if b >= 1.0 {
        b.min(1e6)
    } else {
        1.0
    }
}

/// p with NaN and negatives as 0, at most 1.
fn clamp_p(p: f64) -> f64 {
    if p > 0.0 {
        p.min(1.0)
    } else {
        0.0
    }
}

/// `1 − (1−p)^x`, accurate for tiny p: `−expm1(x·ln(1−p))`. Requires p < 1.
fn one_minus_q_pow(p: f64, x: f64) -> f64 {
    -(x * (-p).ln_1p()).exp_m1()
}

/// f(p) = 1 + p + 2p² + 4p³ + 8p⁴ + 16p⁵ + 32p⁶ (Padhye et al., timeout backoff series).
fn f_backoff(p: f64) -> f64 {
    // Horner: 1 + p(1 + p(2 + p(4 + p(8 + p(16 + 32p)))))
    1.0 + p * (1.0 + p * (2.0 + p * (4.0 + p * (8.0 + p * (16.0 + 32.0 * p)))))
}

/// Q̂(w): probability that a loss in a window of w packets is detected by timeout.
fn q_hat(p: f64, w: f64) -> f64 {
    let q3 = (1.0 - p).powi(3);
    // (1 − (1−p)³)·(1 + (1−p)³·(1 − (1−p)^(w−3))) / (1 − (1−p)^w)
    let v = one_minus_q_pow(p, 3.0) * (1.0 + q3 * one_minus_q_pow(p, w - 3.0)) / one_minus_q_pow(p, w);
    v.min(1.0)
}

/// Full PFTK throughput in packets/s; see the module documentation for the equations and edge
/// cases. `w_max = None` means no receiver-window limit.
pub fn padhye_full(rtt_s: f64, p: f64, t_rto_s: f64, b: f64, w_max: Option<f64>) -> f64 {
    let (rtt, t0, b, p) = (nonneg(rtt_s), nonneg(t_rto_s), clamp_b(b), clamp_p(p));
    let w_max = w_max.map(|w| if w >= 1.0 { w.min(f64::MAX) } else { 1.0 });
    if p <= P_ZERO {
        // p → 0: E[W] → ∞, so the window limit binds and B → W_max/RTT.
        return match w_max {
            Some(w) => w / rtt,
            None => f64::INFINITY,
        };
    }
    if p >= 1.0 {
        // p → 1: both branches tend to (Q̂/(1−p)) / (Q̂·T0·f(1)/(1−p)) = 1/(64·T0).
        return 1.0 / (t0 * f_backoff(1.0));
    }
    let f = f_backoff(p);
    let a = (2.0 + b) / (3.0 * b);
    // E[W] = (2+b)/(3b) + sqrt(8(1−p)/(3bp) + ((2+b)/(3b))²)
    let ew = a + (8.0 * (1.0 - p) / (3.0 * b * p) + a * a).sqrt();
    match w_max {
        Some(wm) if ew >= wm => {
            let q = q_hat(p, wm);
            let num = (1.0 - p) / p + wm + q / (1.0 - p);
            let den = rtt * (b / 8.0 * wm + (1.0 - p) / (p * wm) + 2.0) + q * t0 * f / (1.0 - p);
            num / den
        }
        _ => {
            let q = q_hat(p, ew);
            let num = (1.0 - p) / p + ew + q / (1.0 - p);
            let den = rtt * (b / 2.0 * ew + 1.0) + q * t0 * f / (1.0 - p);
            num / den
        }
    }
}

/// Approximate PFTK throughput (packets/s):
/// `1 / (RTT·sqrt(2bp/3) + T0·min(1, 3·sqrt(3bp/8))·p·(1+32p²))`.
pub fn padhye_approx(rtt_s: f64, p: f64, t_rto_s: f64, b: f64) -> f64 {
    let (rtt, t0, b, p) = (nonneg(rtt_s), nonneg(t_rto_s), clamp_b(b), clamp_p(p));
    if p <= P_ZERO {
        return f64::INFINITY;
    }
    let den =
        rtt * (2.0 * b * p / 3.0).sqrt() + t0 * (3.0 * (3.0 * b * p / 8.0).sqrt()).min(1.0) * p * (1.0 + 32.0 * p * p);
    1.0 / den
}

/// RFC 5348 §3.1 throughput equation, bytes/s:
/// `X = s / (R·sqrt(2bp/3) + t_RTO·(3·sqrt(3bp/8))·p·(1+32p²))`.
pub fn rfc5348_rate(s_bytes: f64, rtt_s: f64, p: f64, t_rto_s: f64, b: f64) -> f64 {
    let (s, rtt, t_rto, b, p) = (nonneg(s_bytes), nonneg(rtt_s), nonneg(t_rto_s), clamp_b(b), clamp_p(p));
    if s == 0.0 {
        return 0.0;
    }
    if p <= P_ZERO {
        return f64::INFINITY;
    }
    let den = rtt * (2.0 * b * p / 3.0).sqrt() + t_rto * (3.0 * (3.0 * b * p / 8.0).sqrt()) * p * (1.0 + 32.0 * p * p);
    s / den
}

/// [`rfc5348_rate`] with the RFC 5348 §3.1 recommendations b = 1 and t_RTO = 4R.
pub fn rfc5348_rate_default(s_bytes: f64, rtt_s: f64, p: f64) -> f64 {
    rfc5348_rate(s_bytes, rtt_s, p, 4.0 * nonneg(rtt_s), 1.0)
}

/// The loss event rate p ∈ [0, 1] at which [`rfc5348_rate`] equals `rate_bytes_per_s`
/// (RFC 5348 §6.3.1 needs it to synthesise the first loss interval as 1/p).
///
/// X(p) is strictly decreasing in p, so bisection converges; the result is within 1e-12
/// relative of the root. Targets at or below X(1) (including 0 and NaN, or degenerate
/// `s = 0` / `R = t_RTO = 0`) give 1; targets above X([`P_ZERO`]) (including ∞) give 0.
pub fn rfc5348_inverse_p(s_bytes: f64, rtt_s: f64, t_rto_s: f64, b: f64, rate_bytes_per_s: f64) -> f64 {
    let x = |p: f64| rfc5348_rate(s_bytes, rtt_s, p, t_rto_s, b);
    let target = rate_bytes_per_s;
    // NaN targets compare false everywhere; treat them like an unreachable (too low) target.
    if target.is_nan() || target <= x(1.0) {
        return 1.0;
    }
    // Bracket: find lo with X(lo) ≥ target by halving from 1/2 (hi = 2·lo has X(hi) < target).
    let mut lo = 0.5;
    while x(lo) < target {
        lo *= 0.5;
        if lo <= P_ZERO {
            return 0.0;
        }
    }
    let mut hi = (2.0 * lo).min(1.0);
    // Invariant: X(lo) ≥ target > X(hi).
    while hi - lo > 1e-12 * hi {
        let mid = 0.5 * (lo + hi);
        if x(mid) >= target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn rel_close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol * b.abs()
    }

    #[test]
    fn rfc5348_hand_values() {
        // p = 0.01, R = 0.1 s, s = 1000 B, b = 1, t_RTO = 4R = 0.4 s
        //   R·sqrt(2p/3)                 = 0.1 · sqrt(0.0066667) = 0.1 · 0.0816497 = 0.00816497
        //   t_RTO·3·sqrt(3p/8)·p·(1+32p²) = 0.4 · 3·0.0612372 · 0.01·1.0032
        //                                 = 0.4 · 0.1837117 · 0.010032 = 0.00073720
        //   X = 1000 / (0.00816497 + 0.00073720) = 1000 / 0.00890217 = 112 332.2 B/s
        let x = rfc5348_rate(1000.0, 0.1, 0.01, 0.4, 1.0);
        assert!(rel_close(x, 112_332.234, 1e-6), "{x}");
        assert_eq!(rfc5348_rate_default(1000.0, 0.1, 0.01), x);
        // p = 0.2: 0.1·sqrt(0.13333) = 0.0365148; 0.4·3·sqrt(0.075)·0.2·(1+1.28) = 0.4·0.821584·0.456 = 0.1498569
        //   X = 1000 / 0.1863717 = 5365.62 B/s
        assert!(rel_close(rfc5348_rate(1000.0, 0.1, 0.2, 0.4, 1.0), 5365.6207, 1e-6));
        // p = 0.5: 0.1·sqrt(1/3) = 0.0577350; 0.4·3·sqrt(0.1875)·0.5·(1+8) = 0.4·1.299038·4.5 = 2.3382686
        //   X = 1000 / 2.3960036 = 417.362 B/s (no min(1, …) in RFC 5348)
        assert!(rel_close(rfc5348_rate(1000.0, 0.1, 0.5, 0.4, 1.0), 417.36164, 1e-6));
    }

    #[test]
    fn padhye_approx_hand_values() {
        // p = 0.01, RTT = 0.1, T0 = 0.4, b = 1: min(1, 0.18371) = 0.18371 → same denominator as
        // the RFC 5348 case above: 1 / 0.00890217 = 112.332 packets/s
        assert!(rel_close(padhye_approx(0.1, 0.01, 0.4, 1.0), 112.332234, 1e-6));
        // p = 0.5: 3·sqrt(3·0.5/8) = 1.299 → min(1, ·) = 1
        //   1 / (0.1·0.577350 + 0.4·1·0.5·(1 + 32·0.25)) = 1 / (0.0577350 + 1.8) = 1/1.857735 = 0.538290
        assert!(rel_close(padhye_approx(0.1, 0.5, 0.4, 1.0), 0.5382899, 1e-6));
    }

    #[test]
    fn padhye_full_hand_values() {
        // p = 0.01, RTT = 0.1 s, T0 = 1 s, b = 2:
        //   (2+b)/(3b) = 4/6 = 0.666667; 8(1−p)/(3bp) = 7.92/0.06 = 132
        //   E[W] = 0.666667 + sqrt(132 + 0.444444) = 0.666667 + 11.508451 = 12.175118
        //   1−0.99³ = 0.029701; 0.99^(E[W]−3) = 0.911911; 0.99^E[W] = 0.884826
        //   Q̂ = 0.029701·(1 + 0.970299·0.088089) / 0.115174 = 0.0322396/0.115174 = 0.279922
        //   f(0.01) = 1 + 0.01 + 0.0002 + 0.000004 + … = 1.010204
        //   num = 99 + 12.175118 + 0.279922/0.99 = 99 + 12.175118 + 0.282749 = 111.457867
        //   den = 0.1·(1·12.175118 + 1) + 0.279922·1·1.010204/0.99 = 1.317512 + 0.285634 = 1.603146
        //   B = 111.457867 / 1.603146 = 69.5245 packets/s
        let b = padhye_full(0.1, 0.01, 1.0, 2.0, None);
        assert!(rel_close(b, 69.524463, 1e-6), "{b}");
        // W_max = 20 > E[W]: the unconstrained branch, same value
        assert_eq!(padhye_full(0.1, 0.01, 1.0, 2.0, Some(20.0)), b);
        // W_max = 8 ≤ E[W]: window-limited branch
        //   0.99^5 = 0.950990; 0.99^8 = 0.922745
        //   Q̂(8) = 0.029701·(1 + 0.970299·0.049010) / 0.077255 = 0.0311134/0.077255 = 0.402735
        //   num = 99 + 8 + 0.402735/0.99 = 107.406803
        //   den = 0.1·(2/8·8 + 0.99/(0.01·8) + 2) + 0.402735·1.010204/0.99 = 0.1·16.375 + 0.410954 = 2.048454
        //   B = 107.406803 / 2.048454 = 52.4331 packets/s
        let bw = padhye_full(0.1, 0.01, 1.0, 2.0, Some(8.0));
        assert!(rel_close(bw, 52.433104, 1e-6), "{bw}");
    }

    #[test]
    fn zero_and_full_loss_are_defined() {
        assert_eq!(padhye_full(0.1, 0.0, 1.0, 1.0, None), f64::INFINITY);
        // p → 0 with a window limit: W_max/RTT = 8/0.1 = 80 packets/s, and the formula agrees nearby
        assert_eq!(padhye_full(0.1, 0.0, 1.0, 1.0, Some(8.0)), 80.0);
        assert!(rel_close(padhye_full(0.1, 1e-12, 1.0, 1.0, Some(8.0)), 80.0, 1e-6));
        assert_eq!(padhye_approx(0.1, 0.0, 0.4, 1.0), f64::INFINITY);
        assert_eq!(rfc5348_rate(1000.0, 0.1, 0.0, 0.4, 1.0), f64::INFINITY);
        assert_eq!(rfc5348_rate(1000.0, 0.1, f64::NAN, 0.4, 1.0), f64::INFINITY);
        assert_eq!(rfc5348_rate(0.0, 0.1, 0.0, 0.4, 1.0), 0.0);
        // p = 1: 1/(64·T0) = 1/64 packets/s for T0 = 1 s, and the formula tends to it
        assert_eq!(padhye_full(0.1, 1.0, 1.0, 1.0, None), 1.0 / 64.0);
        assert!(rel_close(padhye_full(0.1, 1.0 - 1e-9, 1.0, 1.0, None), 1.0 / 64.0, 1e-6));
        // RFC 5348 at p = 1: 1000 / (0.1·0.816497 + 0.4·3·0.612372·33) = 1000/24.331598 = 41.0988 B/s
        assert!(rel_close(rfc5348_rate(1000.0, 0.1, 1.0, 0.4, 1.0), 41.098821, 1e-6));
    }

    #[test]
    fn rates_decrease_with_loss() {
        let mut prev = [f64::INFINITY; 4];
        for i in 1..=2000 {
            let p = i as f64 / 2000.0;
            let now = [
                padhye_full(0.1, p, 0.4, 1.0, None),
                padhye_full(0.1, p, 0.4, 2.0, Some(10.0)),
                padhye_approx(0.1, p, 0.4, 1.0),
                rfc5348_rate(1000.0, 0.1, p, 0.4, 1.0),
            ];
            for k in 0..4 {
                assert!(now[k] < prev[k], "formula {k} not decreasing at p = {p}");
            }
            prev = now;
        }
    }

    #[test]
    fn inverse_round_trips() {
        for &p in &[1e-6, 1e-4, 0.01, 0.05, 0.2, 0.7] {
            let x = rfc5348_rate(1000.0, 0.1, p, 0.4, 1.0);
            let back = rfc5348_inverse_p(1000.0, 0.1, 0.4, 1.0, x);
            assert!(rel_close(back, p, 1e-10), "p = {p}, got {back}");
        }
        // Target 112 332.234 B/s from the hand example gives p = 0.01 back
        assert!(rel_close(rfc5348_inverse_p(1000.0, 0.1, 0.4, 1.0, 112_332.234_362_993), 0.01, 1e-10));
        assert_eq!(rfc5348_inverse_p(1000.0, 0.1, 0.4, 1.0, f64::INFINITY), 0.0);
        assert_eq!(rfc5348_inverse_p(1000.0, 0.1, 0.4, 1.0, 0.0), 1.0);
        assert_eq!(rfc5348_inverse_p(1000.0, 0.1, 0.4, 1.0, f64::NAN), 1.0);
        assert_eq!(rfc5348_inverse_p(1000.0, 0.1, 0.4, 1.0, 10.0), 1.0); // below X(1) = 41 B/s
    }

    proptest! {
        #[test]
        fn never_nan(
            rtt in prop_oneof![Just(0.0), Just(f64::NAN), Just(-1.0), 1e-6f64..10.0],
            p in prop_oneof![Just(0.0), Just(1.0), Just(f64::NAN), 0.0f64..=1.0, 1e-300f64..1e-90],
            t in prop_oneof![Just(0.0), 1e-6f64..100.0],
            b in prop_oneof![Just(0.0), Just(1.0), Just(2.0), 0.0f64..8.0],
            w in prop_oneof![Just(None), (0.0f64..1000.0).prop_map(Some)],
        ) {
            let v = [
                padhye_full(rtt, p, t, b, w),
                padhye_approx(rtt, p, t, b),
                rfc5348_rate(1000.0, rtt, p, t, b),
                rfc5348_rate_default(1000.0, rtt, p),
            ];
            for x in v {
                prop_assert!(!x.is_nan() && x >= 0.0, "{:?}", v);
            }
            let inv = rfc5348_inverse_p(1000.0, rtt, t, b, v[2]);
            prop_assert!((0.0..=1.0).contains(&inv));
        }
    }
}
