//! The analytic model of `model.rs` against the QoS-AIMD paper page's derived reference vectors
//! (`docs/papers/qos-aimd.md` §2.7, claims A1–A12), each to its printed digits.

use super::model::*;
use crate::units::{DataRate, DataSize};
use crate::Duration;

fn iid(p: f64) -> Channel {
    Channel::Iid { error_rate: p }
}

/// |a − b| within half a unit of the last printed digit of `b` (given as `digits` significant).
fn close(a: f64, b: f64, digits: i32) {
    let scale = 10f64.powi(b.abs().log10().floor() as i32 - digits + 1);
    assert!((a - b).abs() <= 0.5 * scale, "{a:e} vs {b:e} ({digits} digits)");
}

#[test]
fn a1_alpha_beta_relation() {
    // eq. (10): α(0.875) = 0.2, α(0.5) = 1, α(0.75) = 3/7, α(0.8) = 1/3, α(0.9) = 0.3/1.9.
    assert!((alpha_for_beta(0.875) - 0.2).abs() < 1e-15);
    assert_eq!(alpha_for_beta(0.5), 1.0);
    assert!((alpha_for_beta(0.75) - 3.0 / 7.0).abs() < 1e-15);
    assert!((alpha_for_beta(0.8) - 1.0 / 3.0).abs() < 1e-15);
    assert!((alpha_for_beta(0.9) - 0.3 / 1.9).abs() < 1e-15);
    // Strictly decreasing onto (0, 3), and the inverse.
    let mut prev = 3.0;
    for k in 1..1000 {
        let b = k as f64 / 1000.0;
        let a = alpha_for_beta(b);
        assert!(a < prev && a > 0.0);
        prev = a;
        assert!((beta_for_alpha(a) - b).abs() < 1e-12);
    }
}

#[test]
fn a2_slot_arithmetic() {
    // 125 B at 200 kb/s = 5 ms; 85 ms = 17 slots; 50 ms = 10 slots.
    let slot = DataRate::from_kbps(200).transmission_time(DataSize::from_bytes(125));
    assert_eq!(slot, Duration::from_millis(5));
    assert_eq!(85_000_000 / slot.as_nanos(), 17);
    assert_eq!(50_000_000 / slot.as_nanos(), 10);
}

#[test]
fn a12_w_max_reference_vector_iid() {
    // R = 17, D = 10, target 1 %: 25, 24, 24, 23, 22, 22, 22, 21, 21, 20 for p_e = 1 %…10 %.
    let want = [25, 24, 24, 23, 22, 22, 22, 21, 21, 20];
    for (k, w) in want.iter().enumerate() {
        let p = (k + 1) as f64 / 100.0;
        assert_eq!(w_max(&iid(p), 17, 10, 0.01), *w, "p_e = {p}");
    }
    // At p_e = 0.05, W = 23 gives 0.01002, just over the target.
    close(outage(&iid(0.05), 17, 10, 23), 0.01002, 4);
}

#[test]
fn a4_eq1_reference_values() {
    // p_e = 0.1, R = 17, D = 10.
    let ch = iid(0.1);
    close(outage(&ch, 17, 10, 17), 2.825387e-05, 7);
    close(outage(&ch, 17, 10, 20), 3.871407e-03, 7);
    close(outage(&ch, 17, 10, 21), 1.466778e-02, 7);
    close(outage(&ch, 17, 10, 22), 4.705689e-02, 7);
    close(outage(&ch, 17, 10, 25), 5.154189e-01, 7);
    // p_e = 0.01: W = 25 → 2.444107e−03, W = 26 → 2.975e−02.
    close(outage(&iid(0.01), 17, 10, 25), 2.444107e-03, 7);
    close(outage(&iid(0.01), 17, 10, 26), 2.975e-02, 4);
    // Never decreasing in W.
    for p in [0.01, 0.05, 0.1] {
        let v: Vec<f64> = (1..40).map(|w| outage(&iid(p), 17, 10, w)).collect();
        assert!(v.windows(2).all(|x| x[0] <= x[1]));
    }
}

#[test]
fn a5_a6_buffer_overflow_and_eq2() {
    let ch = iid(0.1);
    // L(B = 10, W = 20) = P(Bin(16, 0.9) ≤ 9) = 5.045345e−04; 0 when B ≥ W.
    close(overflow_loss(&ch, 17, 10, 20), 5.045345e-04, 7);
    assert_eq!(overflow_loss(&ch, 17, 20, 20), 0.0);
    // Eq. (2) at (W = 20, B = 10) = 3.505956e−03.
    close(outage_with_buffer(&ch, 17, 10, 20, 10), 3.505956e-03, 7);
    // With B ≥ W and an i.i.d. channel, eq. (2) = eq. (1) (< 1e−12).
    for w in 17..30 {
        assert!((outage_with_buffer(&ch, 17, 10, w, w) - outage(&ch, 17, 10, w)).abs() < 1e-12);
        assert!((outage_with_buffer(&ch, 17, 10, w, 100) - outage(&ch, 17, 10, w)).abs() < 1e-12);
    }
    // Eq. (2) never increases as B decreases below W.
    let v: Vec<f64> = (1..=20).map(|b| outage_with_buffer(&ch, 17, 10, 20, b)).collect();
    assert!(v.windows(2).all(|x| x[0] <= x[1] + 1e-18));
}

#[test]
fn gilbert_channel_examples() {
    // Gilbert, p_e = 0.1, mean bad burst 5 slots, R = 17, D = 10, W = 17: eq. (1) = 0.0626,
    // eq. (2) = 0.0537 (the product form of eq. (2) is exact only for i.i.d. channels).
    let g = Channel::Gilbert { error_rate: 0.1, mean_burst_slots: 5.0 };
    close(outage(&g, 17, 10, 17), 0.0626, 3);
    close(outage_with_buffer(&g, 17, 10, 17, 17), 0.0537, 3);
    assert!((g.error_rate() - 0.1).abs() < 1e-15);
    // W_max with bursts of 2 and 5 slots, p_e = 1 %…10 %.
    let b2 = [23, 21, 21, 20, 19, 19, 18, 18, 17, 17];
    let b5 = [19, 17, 15, 14, 13, 12, 11, 11, 10, 10];
    for k in 0..10 {
        let p = (k + 1) as f64 / 100.0;
        assert_eq!(w_max(&Channel::Gilbert { error_rate: p, mean_burst_slots: 2.0 }, 17, 10, 0.01), b2[k]);
        assert_eq!(w_max(&Channel::Gilbert { error_rate: p, mean_burst_slots: 5.0 }, 17, 10, 0.01), b5[k]);
    }
    // A Gilbert–Elliott chain with the same parameters gives the same pmf.
    let r = 1.0 / 5.0;
    let ge =
        Channel::GilbertElliott { p_good_to_bad: 0.1 * r / 0.9, p_bad_to_good: r, error_good: 0.0, error_bad: 1.0 };
    assert_eq!(throughput_pmf(&ge, 27), throughput_pmf(&g, 27));
}

#[test]
fn throughput_pmf_is_a_distribution_with_mean_n_one_minus_pe() {
    for ch in [iid(0.07), Channel::Gilbert { error_rate: 0.05, mean_burst_slots: 3.0 }] {
        for n in [0, 1, 16, 27] {
            let t = throughput_pmf(&ch, n);
            assert_eq!(t.len(), n as usize + 1);
            assert!((t.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!((mean(&t) - n as f64 * (1.0 - ch.error_rate())).abs() < 1e-9);
        }
    }
}

#[test]
fn a8_thinning() {
    let t = throughput_pmf(&iid(0.1), 5);
    // T_n(·; 1) = T_n(·); Σ_x T_n(x; p) = 1; mean = p·E[T_n].
    assert_eq!(thinned_pmf(&t, 1.0), t);
    for p in [0.2, 0.3, 0.5, 0.9] {
        let th = thinned_pmf(&t, p);
        assert!((th.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((mean(&th) - p * mean(&t)).abs() < 1e-12);
    }
    // docs/papers/qos-aimd.md's counter-example to the printed additivity: n = 5, p_e = 0.1, x = 0:
    // T(0; 0.3) + T(0; 0.2) = 0.578 ≠ T(0; 0.5) = 0.0503.
    close(thinned_pmf(&t, 0.3)[0] + thinned_pmf(&t, 0.2)[0], 0.578, 3);
    close(thinned_pmf(&t, 0.5)[0], 0.0503, 3);
}

#[test]
fn a7_share_windows_closed_form() {
    for p_e in [0.01, 0.1] {
        let ch = iid(p_e);
        // Two equal-share flows, R = (17, 25): W_2 − W_1 = 0.5·(24 − 16)(1 − p_e) = 4(1 − p_e).
        let f = Flows::equal_shares(vec![17, 25]).unwrap();
        let w = share_windows(&ch, &f, 27.0);
        assert!((w[0] + w[1] - 27.0).abs() < 1e-12);
        assert!((w[1] - w[0] - 4.0 * (1.0 - p_e)).abs() < 1e-12);
        // Four flows, R = (17, 17, 25, 25), p = 1/4: difference 2(1 − p_e).
        let f = Flows::equal_shares(vec![17, 17, 25, 25]).unwrap();
        let w = share_windows(&ch, &f, 26.0);
        assert!((w[2] - w[0] - 2.0 * (1.0 - p_e)).abs() < 1e-12);
        assert_eq!(w[0], w[1]);
        // Equal R and p: equal windows. Eq. (3) holds for every flow.
        let f = Flows::new(vec![17, 20, 25], vec![0.2, 0.3, 0.5]).unwrap();
        let s = 40.0;
        let w = share_windows(&ch, &f, s);
        let e: Vec<f64> = [16u32, 19, 24].iter().map(|&n| mean(&throughput_pmf(&ch, n))).collect();
        let pooled: f64 = (0..3).map(|j| e[j] * f.shares()[j]).sum();
        for i in 0..3 {
            let p3 = (w[i] - e[i] * f.shares()[i]) / (s - pooled);
            assert!((p3 - f.shares()[i]).abs() < 1e-12, "eq. (3) for flow {i}");
        }
    }
    // The 2-flow R = (17, 25) splits of the table: (11.52, 15.48) at S = 27, p_e = 0.01, and
    // (9.70, 13.30) at S = 23, p_e = 0.1.
    let f = Flows::equal_shares(vec![17, 25]).unwrap();
    let w = share_windows(&iid(0.01), &f, 27.0);
    assert!((w[0] - 11.52).abs() < 1e-9 && (w[1] - 15.48).abs() < 1e-9);
    let w = share_windows(&iid(0.1), &f, 23.0);
    assert!((w[0] - 9.70).abs() < 1e-9 && (w[1] - 13.30).abs() < 1e-9);
}

#[test]
fn a9_multi_flow_reductions() {
    let ch = iid(0.1);
    let f = Flows::equal_shares(vec![17, 17]).unwrap();
    let t = throughput_pmf(&ch, 16);
    for s in [17u32, 20, 25] {
        // All R equal: Pr{Q = x} = T_{R−1}(S − x).
        let q = queue_pmf(&ch, &f, s);
        for x in (s - 16)..=s {
            assert!((q[x as usize] - t[(s - x) as usize]).abs() < 1e-15);
        }
        // Eq. (7) = eq. (2) at W = S with B ≥ S (= eq. (1) for i.i.d.); eq. (8) = L(B, S).
        assert!((multi_outage(&ch, &f, 10, s) - outage_with_buffer(&ch, 17, 10, s, s)).abs() < 1e-12);
        assert!((multi_outage(&ch, &f, 10, s) - outage(&ch, 17, 10, s)).abs() < 1e-12);
        for b in [5u32, 10, 15] {
            assert!((multi_overflow_loss(&ch, &f, b, s) - overflow_loss(&ch, 17, b, s)).abs() < 1e-12);
            assert!(
                (multi_outage_with_buffer(&ch, &f, 10, s, b) - outage_with_buffer(&ch, 17, 10, s, b)).abs() < 1e-12
            );
        }
        // L = 0 when B ≥ S.
        assert_eq!(multi_overflow_loss(&ch, &f, s, s), 0.0);
    }
    // Eq. (6) depends on the windows only through S: it takes no windows at all, and for
    // S ≥ R_N its mass sits on S − R_N + 1 ≤ x ≤ S (A10: Q ≥ S − R_N + 1 ≥ 1).
    let f = Flows::equal_shares(vec![17, 25]).unwrap();
    let q = queue_pmf(&ch, &f, 30);
    assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!(q[..6].iter().all(|&p| p == 0.0));
}

#[test]
fn multi_flow_reference_table() {
    let eq7 = |p: f64, r: Vec<u32>, s: u32| multi_outage(&iid(p), &Flows::equal_shares(r).unwrap(), 10, s);
    let smax = |p: f64, r: Vec<u32>| s_max(&iid(p), &Flows::equal_shares(r).unwrap(), 10, 0.01);
    let sel = |p: f64, r: Vec<u32>, rounding: Rounding| {
        let req = SelectRequest { rounding, rtt_slots: r, ..SelectRequest::single(iid(p), 17, 10) };
        select(&req).unwrap()
    };
    // 2 flows, both R = 17: W = 12 each (p_e = 0.01), 10 each (0.1).
    assert_eq!(sel(0.01, vec![17, 17], Rounding::Nearest).windows, [12, 12]);
    assert_eq!(sel(0.1, vec![17, 17], Rounding::Nearest).windows, [10, 10]);
    // 4 flows, all R = 17: 6 each, 5 each.
    assert_eq!(sel(0.01, vec![17; 4], Rounding::Nearest).windows, [6; 4]);
    assert_eq!(sel(0.1, vec![17; 4], Rounding::Nearest).windows, [5; 4]);
    // 2 flows, R = (17, 25), p_e = 0.01: S_max = 27 (outage 2.304e−3; S = 28 gives 0.0161),
    // → (12, 15); keeping the integer gap 4: S = 26 → (11, 15), outage 2.25e−4.
    assert_eq!(smax(0.01, vec![17, 25]), 27);
    close(eq7(0.01, vec![17, 25], 27), 2.304e-3, 4);
    close(eq7(0.01, vec![17, 25], 28), 0.0161, 3);
    assert_eq!(sel(0.01, vec![17, 25], Rounding::Nearest).windows, [12, 15]);
    let g = sel(0.01, vec![17, 25], Rounding::IntegerGap);
    assert_eq!((g.windows.clone(), g.window_sum), (vec![11, 15], 26));
    close(g.outage, 2.25e-4, 3);
    // p_e = 0.1: S_max = 23 (7.195e−3; S = 24 gives 0.0216) → (10, 13); gap: S = 22 → (9, 13),
    // outage 2.079e−3.
    assert_eq!(smax(0.1, vec![17, 25]), 23);
    close(eq7(0.1, vec![17, 25], 23), 7.195e-3, 4);
    close(eq7(0.1, vec![17, 25], 24), 0.0216, 3);
    let n = sel(0.1, vec![17, 25], Rounding::Nearest);
    assert_eq!(n.windows, [10, 13]);
    close(n.outage, 7.195e-3, 4);
    close(n.outage_next, 0.0216, 3);
    let g = sel(0.1, vec![17, 25], Rounding::IntegerGap);
    assert_eq!(g.windows, [9, 13]);
    close(g.outage, 2.079e-3, 4);
    // 4 flows, R = (17, 17, 25, 25): S_max = 27; S = 26 → (6, 6, 7, 7) (split 5.51 / 7.49),
    // outage 2.25e−4; p_e = 0.1: S = 22 → (5, 5, 6, 6) (split 4.6 / 6.4), outage 2.079e−3.
    let a = sel(0.01, vec![17, 17, 25, 25], Rounding::Nearest);
    assert_eq!((a.max_window_sum, a.window_sum, a.windows.clone()), (27, 26, vec![6, 6, 7, 7]));
    assert!((a.exact_windows[0] - 5.51).abs() < 1e-9 && (a.exact_windows[2] - 7.49).abs() < 1e-9);
    close(a.outage, 2.25e-4, 3);
    let b = sel(0.1, vec![17, 17, 25, 25], Rounding::Nearest);
    assert_eq!((b.max_window_sum, b.window_sum, b.windows.clone()), (23, 22, vec![5, 5, 6, 6]));
    assert!((b.exact_windows[0] - 4.6).abs() < 1e-9 && (b.exact_windows[2] - 6.4).abs() < 1e-9);
    close(b.outage, 2.079e-3, 4);
    // Caveat: S = 22 < R_N = 25, so full utilisation is not guaranteed.
    assert!(!b.full_utilization);
    // Flows in any order come back in request order.
    let c = sel(0.1, vec![25, 17], Rounding::Nearest);
    assert_eq!(c.windows, [13, 10]);
}

#[test]
fn single_flow_selection() {
    // p_e = 0.1, R = 17, D = 10: W_max = 20 = rwnd = B; α = 0.2; outage 3.871407e−03, the next
    // window 1.466778e−02; throughput 0.9 pkt/slot; W ≥ R; β·rwnd ≥ R needs rwnd ≥ 20 (A11:
    // 17/0.875 = 19.43).
    let s = select(&SelectRequest::single(iid(0.1), 17, 10)).unwrap();
    assert_eq!((s.windows.clone(), s.window_sum, s.max_window_sum, s.buffer_packets), (vec![20], 20, 20, 20));
    assert!((s.alpha - 0.2).abs() < 1e-15);
    close(s.outage, 3.871407e-03, 7);
    close(s.outage_next, 1.466778e-02, 7);
    assert!((s.throughput_pkt_per_slot[0] - 0.9).abs() < 1e-12);
    assert!(s.full_utilization);
    assert_eq!(s.wired_loss_window, 20);
    assert_eq!(s.overflow_loss, 0.0);
    // p_e = 0.01: W_max = 25, throughput 0.99.
    let s = select(&SelectRequest::single(iid(0.01), 17, 10)).unwrap();
    assert_eq!(s.windows, [25]);
    // W_max < R: reported, not hidden (bursty channel, p_e = 0.1, bursts of 5 → 10 < 17).
    let g = Channel::Gilbert { error_rate: 0.1, mean_burst_slots: 5.0 };
    let s = select(&SelectRequest::single(g, 17, 10)).unwrap();
    assert_eq!(s.windows, [10]);
    assert!(!s.full_utilization);
}

#[test]
fn selection_rejects_out_of_range_inputs() {
    let bad = |req: SelectRequest| select(&req).unwrap_err();
    assert!(bad(SelectRequest::single(iid(1.0), 17, 10)).contains("error_rate"));
    assert!(bad(SelectRequest::single(iid(-0.1), 17, 10)).contains("error_rate"));
    assert!(bad(SelectRequest::single(iid(0.1), 0, 10)).contains("RTT"));
    assert!(bad(SelectRequest::single(iid(0.1), 5000, 10)).contains("too large"));
    assert!(bad(SelectRequest { beta: 1.0, ..SelectRequest::single(iid(0.1), 17, 10) }).contains("beta"));
    assert!(bad(SelectRequest { outage_target: 0.0, ..SelectRequest::single(iid(0.1), 17, 10) }).contains("outage"));
    let g = Channel::Gilbert { error_rate: 0.6, mean_burst_slots: 1.0 };
    assert!(bad(SelectRequest::single(g, 17, 10)).contains("good→bad"));
    let req = SelectRequest {
        shares: Some(vec![0.5, 0.6]),
        rtt_slots: vec![17, 25],
        ..SelectRequest::single(iid(0.1), 17, 10)
    };
    assert!(bad(req).contains("add up to 1"));
    let req = SelectRequest {
        shares: Some(vec![0.3, 0.7]),
        rtt_slots: vec![17, 25],
        rounding: Rounding::IntegerGap,
        ..SelectRequest::single(iid(0.1), 17, 10)
    };
    assert!(bad(req).contains("equal shares"));
}
