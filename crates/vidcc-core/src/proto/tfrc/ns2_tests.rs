//! Tests of the ns-2 2.35 options (`rules = "ns2"`, `t_rto = "tcp"`, `q2`): each checks a value
//! that the RFC 5348 default gives differently (hand-computed in the comments, from
//! tcp/tfrc.cc and tcp/formula.h).

use super::ns2::{Ns2Rules, TcpRto};
use super::tests::{bulk, close, feedback, round};
use super::*;
use crate::endpoint::Endpoint;
use crate::estimate::tcp_model::rfc5348_rate;
use crate::proto::testing::*;
use crate::time::{Duration, Instant};

/// ns-2's sender: its rules, RFC 3390's initial window, its 2R no-feedback timer.
fn ns2() -> TfrcConfig {
    TfrcConfig {
        rules: RateRules::Ns2,
        initial_rate: InitialRate::Rfc5348,
        nofeedback_rtts: 2.0,
        ..TfrcConfig::default()
    }
}

#[test]
fn ns2_starts_at_init_rate_300_bytes_per_second() {
    // First packet at once; the next s/InitRate_ = 1000/300 = 3.333 s later; the no-feedback
    // timer at 2s/X = 6.667 s (RFC: 1 packet/s, 1 s and 2 s).
    let mut s = bulk(&ns2());
    assert_eq!(drain(&mut s, Instant::ZERO).len(), 1);
    assert_eq!(s.x_bytes_per_s(), 300.0);
    assert_eq!(s.poll_timeout(), Some(Instant::ZERO + Duration::from_secs_f64(1000.0 / 300.0)));
    assert_eq!(s.nofeedback_deadline(), Some(Instant::ZERO + Duration::from_secs_f64(2000.0 / 300.0)));
}

#[test]
fn ns2_slow_start_holds_for_two_reports_then_doubles_and_falls_to_x_recv() {
    let mut s = bulk(&ns2());
    // Round 1 (R = 0.1 s): X = max(300, W_init/R = 4000/0.1) = 40 000.
    round(&mut s, ms(100), 80_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 40_000.0, 1e-12));
    // Round 2, W > 1 packet: still the initial rate (RFC 5348: min(2X, 2·X_recv) = 20 000).
    round(&mut s, ms(200), 80_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 40_000.0, 1e-12));
    // Round 3, 110 ms > R after the last change, maxrate = 2·40 000: X = min(2X, maxrate) = 80 000.
    round(&mut s, ms(310), 320_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 80_000.0, 1e-12));
    // Round 4: maxrate = 2·50 000 → X = min(160 000, 100 000) = 100 000.
    round(&mut s, ms(420), 400_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 100_000.0, 1e-12));
    // Round 5: X above maxrate = 2·20 000 → X = maxrate/2 = X_recv = 20 000 (RFC: 40 000).
    round(&mut s, ms(530), 160_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 20_000.0, 1e-12));
}

#[test]
fn ns2_leaves_slow_start_at_the_uncapped_equation_rate() {
    // p = 0.01, R = 0.1 s, t_RTO = 4R: X_Bps = 112 332.2 B/s, not min(X_Bps, 2·X_recv) = 20 000.
    let mut s = bulk(&ns2());
    round(&mut s, ms(100), 80_000, 0.0);
    round(&mut s, ms(200), 80_000, 0.01);
    assert!(close(s.x_bytes_per_s(), 112_332.234, 1e-6), "{}", s.x_bytes_per_s());
}

#[test]
fn ns2_equation_caps_the_timeout_factor_at_one() {
    // p = 0.5: 3·√(3·0.5/8) = 1.299 → 1: X = 1000/(0.1·√(1/3) + 0.4·0.5·(1 + 8)) = 538.29 B/s
    // (RFC 5348: 1000/(0.057735 + 0.4·1.299·0.5·9) = 417.3).
    let mut s = bulk(&ns2());
    round(&mut s, ms(100), 80_000, 0.0);
    round(&mut s, ms(200), 80_000, 0.5);
    assert!(close(s.x_bytes_per_s(), 1000.0 / (0.1 * (1.0f64 / 3.0).sqrt() + 1.8), 1e-9), "{}", s.x_bytes_per_s());
}

#[test]
fn ns2_increases_by_at_most_two_packets_per_rtt_and_decreases_at_once() {
    let mut s = bulk(&ns2());
    round(&mut s, ms(100), 80_000, 0.0); // last change at 100 ms
    round(&mut s, ms(200), 80_000, 0.01); // X = 112 332.2, out of slow start
    let x0 = s.x_bytes_per_s();
    // X_Bps(p = 0.005) = 165 7xx > X: X += (s/R)·min(2, (300 − 100)/100) = 2 packets/RTT;
    // maxrate = 2·125 000. RFC 5348 would jump to min(X_Bps, 250 000).
    round(&mut s, ms(300), 1_000_000, 0.005);
    assert!(close(s.x_bytes_per_s(), x0 + 20_000.0, 1e-9));
    // 100 ms later: one packet per RTT.
    round(&mut s, ms(400), 1_000_000, 0.005);
    assert!(close(s.x_bytes_per_s(), x0 + 30_000.0, 1e-9));
    // p = 0.02: X_Bps below X → X = X_Bps at once.
    round(&mut s, ms(500), 1_000_000, 0.02);
    assert!(close(s.x_bytes_per_s(), rfc5348_rate(1000.0, 0.1, 0.02, 0.4, 1.0), 1e-9));
    // An increase is capped by max(maxrate, s/R) = 2·X_recv as well.
    round(&mut s, ms(700), 80_000, 0.005);
    assert!(close(s.x_bytes_per_s(), 20_000.0, 1e-9));
}

#[test]
fn ns2_nofeedback_halves_a_busy_sender_even_when_p_is_positive() {
    // After the exit at X_Bps = 112 332: the timer halves X (RFC 5348: Update_Limits(X_recv)
    // → X = X_recv = 10 000, as X_Bps > 2·X_recv).
    let mut s = bulk(&ns2());
    round(&mut s, ms(100), 80_000, 0.0);
    round(&mut s, ms(200), 80_000, 0.01);
    drain(&mut s, ms(200));
    // ns-2's timer: max(2R, 2s/X) = 200 ms.
    assert_eq!(s.nofeedback_deadline(), Some(ms(400)));
    s.handle_timeout(ms(400));
    assert!(close(s.x_bytes_per_s(), 112_332.234 / 2.0, 1e-6));
}

#[test]
fn ns2_nofeedback_keeps_a_data_limited_sender_near_the_initial_rate() {
    // reduce_rate_on_no_feedback with datalimited_ and RFC 3390's W (init = 40 000 B/s):
    // halve above 2·init, clamp to init between init and 2·init, keep below.
    let mut n = Ns2Rules::new();
    assert_eq!(n.on_nofeedback(100_000.0, true, Some(40_000.0), true), 50_000.0);
    assert_eq!(n.on_nofeedback(70_000.0, true, Some(40_000.0), true), 40_000.0);
    assert_eq!(n.on_nofeedback(30_000.0, true, Some(40_000.0), true), 30_000.0);
    // A fixed one-packet window (rate_init_option_ 1) is never clamped.
    assert_eq!(n.on_nofeedback(70_000.0, true, Some(40_000.0), false), 70_000.0);
    // all_idle_ (limited at the last expiry, nothing sent since) protects a sender with data.
    assert_eq!(n.on_nofeedback(70_000.0, false, Some(40_000.0), true), 40_000.0);
    // Once it has sent, it is halved.
    n.on_sent(70_000.0);
    assert_eq!(n.on_nofeedback(70_000.0, false, Some(40_000.0), true), 35_000.0);
}

#[test]
fn ns2_slow_start_report_sends_at_once_and_ramps_the_pacing_rate() {
    let mut s = bulk(&ns2());
    round(&mut s, ms(100), 80_000, 0.0);
    round(&mut s, ms(200), 80_000, 0.0);
    // Every packet due by 310 ms leaves (at 40 000 B/s: the last at 300 ms).
    while let Some(t) = s.poll_timeout().filter(|&t| t <= ms(310)) {
        drain(&mut s, t);
    }
    assert_eq!(s.poll_timeout(), Some(ms(325)));
    // Round 3 doubles 40 000 → 80 000: nextpkt() sends at once, then slow_increase_ paces from
    // the old rate up by (80 000 − 40 000)/(80 000·0.1/1000) = 5000 B/s per packet.
    feedback(&mut s, ms(310), ms(210), 320_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 80_000.0, 1e-12));
    assert_eq!(s.poll_timeout(), Some(ms(310)));
    assert_eq!(drain(&mut s, ms(310)).len(), 1);
    let t1 = s.poll_timeout().unwrap();
    assert_eq!(t1, ms(310) + Duration::from_secs_f64(1000.0 / 45_000.0));
    drain(&mut s, t1);
    assert_eq!(s.poll_timeout().unwrap(), t1 + Duration::from_secs_f64(1000.0 / 50_000.0));
}

#[test]
fn tcp_rto_counts_whole_ticks() {
    // tick 0.1 s. Sample 0.1 s: 1 tick, srtt = 8, rttvar = 2 (scaled) → (2·8 + 8)/8 = 3 ticks.
    let mut t = TcpRto::new(Duration::from_millis(100));
    assert!(close(t.update(0.1), 0.3, 1e-12));
    assert!(close(t.update(0.1), 0.3, 1e-12));
    // 0.34 s → 3 ticks: delta 2, srtt 10, rttvar 2 + 2 = 4 → (4·8 + 10)/8 = 5 ticks.
    assert!(close(t.update(0.34), 0.5, 1e-12));
    // A 30 ms sample still counts one tick.
    let mut t = TcpRto::new(Duration::from_millis(100));
    assert!(close(t.update(0.03), 0.3, 1e-12));
}

#[test]
fn t_rto_tcp_enters_the_equation() {
    // R = 0.1 s, p = 0.01: t_RTO = 0.3 s (TCP, one tick) instead of 4R = 0.4 s.
    let cfg = TfrcConfig { t_rto: RtoRule::Tcp, ..TfrcConfig::default() };
    let mut s = bulk(&cfg);
    round(&mut s, ms(100), 80_000, 0.0);
    round(&mut s, ms(200), 80_000, 0.01);
    let want = rfc5348_rate(1000.0, 0.1, 0.01, 0.3, 1.0);
    assert!(close(s.x_calc().unwrap(), want, 1e-12));
    assert!(!close(want, rfc5348_rate(1000.0, 0.1, 0.01, 0.4, 1.0), 1e-3));
}

#[test]
fn q2_weights_r_sqmean() {
    // As oscillation_prevention_scales_the_interval_by_sqrt_of_the_rtt_sample, with q2 = 0.95:
    // R_sqmean = 0.95·√0.1 + 0.05·√0.4 = 0.332039; X_inst = 20 000·0.332039/0.632456 = 10 500.
    let cfg = TfrcConfig { oscillation_prevention: true, q2: 0.95, ..TfrcConfig::default() };
    let mut s = bulk(&cfg);
    round(&mut s, ms(100), 80_000, 0.0);
    drain(&mut s, ms(100));
    feedback(&mut s, ms(500), ms(100), 80_000, 0.0);
    let gap = s.poll_timeout().unwrap().as_nanos() as f64 / 1e9 - 0.1;
    let sq = 0.95 * 0.1f64.sqrt() + 0.05 * 0.4f64.sqrt();
    assert!(close(gap, 1000.0 / (20_000.0 * sq / 0.4f64.sqrt()), 1e-6), "{gap}");
}

#[test]
fn new_options_are_validated() {
    assert!(TfrcConfig { q2: 1.0, ..TfrcConfig::default() }.validate().unwrap_err().contains("q2"));
    assert!(TfrcConfig { tcp_tick_ns: 0, ..TfrcConfig::default() }.validate().unwrap_err().contains("tcp_tick"));
}
