//! Unit tests of SSVP's rate controller (`controller.rs`) on bare state with explicit time:
//! startup, Alg. 2 (decrease, hold, increase), the Eq. (10) forms, the rate bounds and STO.

use super::super::*;
use super::bps;
use crate::proto::testing::*;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};

/// A controller at the defaults, 1000-byte packets, capped at 100 Mbit/s.
fn controller(f: impl FnOnce(&mut SsvpConfig)) -> Controller {
    let mut c = SsvpConfig::default();
    f(&mut c);
    Controller::new(&c, DataSize::from_bytes(1000), DataRate::from_mbps(100))
}

/// Leaves startup at `t` with the last RTT sample `rtt`: returns the controller and its rate.
fn after_startup(rtt: Duration, t: Instant) -> Controller {
    let mut c = controller(|_| {});
    c.on_rtt_sample(rtt);
    assert_eq!(c.on_control(t, true), Decision::Decrease);
    c
}

#[test]
fn startup_increases_per_control_packet_and_exits_on_first_mark() {
    let mut c = controller(|_| {});
    assert!(c.in_startup());
    assert_eq!(bps(c.rate()), 80_000);
    c.on_rtt_sample(millis(100));
    // Additive Eq. (10): + α·S/RTT = 0.31 · 8000 bit / 0.1 s = 24 800 bit/s, on every packet.
    assert_eq!(c.on_control(ms(100), false), Decision::Increase);
    assert_eq!(bps(c.rate()), 104_800);
    assert_eq!(c.on_control(ms(101), false), Decision::Increase);
    assert_eq!(bps(c.rate()), 129_600);
    // Startup control packets are not counted for Alg. 2.
    assert_eq!(c.counters(), (0, 0));
    // First CIn = 1: leave startup with one decrease, 129 600 · 0.875 = 113 400.
    assert_eq!(c.on_control(ms(102), true), Decision::Decrease);
    assert_eq!(bps(c.rate()), 113_400);
    assert!(!c.in_startup());
    assert_eq!(c.adjustment_time(), ms(102));
    assert_eq!(c.counters(), (0, 0));
}

#[test]
fn decrease_when_the_marked_share_exceeds_the_threshold() {
    let mut c = after_startup(millis(100), ms(1000));
    let r0 = bps(c.rate()); // 80 000 · 0.875 = 70 000
    assert_eq!(r0, 70_000);
    // Ten control packets 10 ms apart, the third marked: decisions wait for one RTT (100 ms).
    for i in 1..10u64 {
        assert_eq!(c.on_control(ms(1000 + 10 * i), i == 3), Decision::Wait, "packet {i}");
    }
    assert_eq!(c.counters(), (9, 1));
    assert_eq!(bps(c.rate()), r0);
    // At 1100 ms one RTT has passed: 1/10 = 0.1 > 0.005 → IPG/β, rate · 0.875 = 61 250.
    assert_eq!(c.on_control(ms(1100), false), Decision::Decrease);
    assert_eq!(bps(c.rate()), 61_250);
    assert_eq!(c.counters(), (0, 0));
    assert_eq!(c.adjustment_time(), ms(1100));
}

#[test]
fn hold_when_marks_are_at_most_the_threshold_and_decrease_just_above() {
    // 1 mark in 200 control packets = 0.005, not > 0.005: hold (a transient loss).
    let mut c = after_startup(millis(100), ms(0));
    for i in 0..199u64 {
        assert_eq!(c.on_control(Instant::from_nanos(i * 100_000), i == 50), Decision::Wait);
    }
    assert_eq!(c.on_control(ms(100), false), Decision::Hold);
    assert_eq!(bps(c.rate()), 70_000);
    // 1 mark in 199 = 0.005025 > 0.005: decrease.
    let mut c = after_startup(millis(100), ms(0));
    for i in 0..198u64 {
        c.on_control(Instant::from_nanos(i * 100_000), i == 50);
    }
    assert_eq!(c.on_control(ms(100), false), Decision::Decrease);
    assert_eq!(bps(c.rate()), 61_250);
}

#[test]
fn increase_once_per_rtt_without_marks() {
    let mut c = after_startup(millis(50), ms(0));
    // 70 000 + 0.31 · 8000 / 0.05 = 70 000 + 49 600 = 119 600, at the first packet ≥ 50 ms.
    assert_eq!(c.on_control(ms(49), false), Decision::Wait);
    assert_eq!(c.on_control(ms(50), false), Decision::Increase);
    assert_eq!(bps(c.rate()), 119_600);
    // At most one change per period: the next packets wait for another 50 ms.
    assert_eq!(c.on_control(ms(60), false), Decision::Wait);
    assert_eq!(c.on_control(ms(99), false), Decision::Wait);
    assert_eq!(c.on_control(ms(100), false), Decision::Increase);
    assert_eq!(bps(c.rate()), 169_200);
}

#[test]
fn literal_multiplicative_increase() {
    let mut c = controller(|c| c.increase_law = IncreaseLaw::LiteralMultiplicative);
    c.on_rtt_sample(millis(100));
    // IPG/(1 + α): rate · 1.31 = 104 800 per control packet in startup.
    c.on_control(ms(0), false);
    assert_eq!(bps(c.rate()), 104_800);
    c.on_control(ms(1), false);
    assert_eq!(bps(c.rate()), 137_288);
}

#[test]
fn adjustment_period_last_sample_or_estimated() {
    // Samples 100 then 200 ms: last sample 200 ms; EstimatedRTT = 0.9·100 + 0.1·200 = 110 ms.
    for (period, decides_at_150) in [(AdjustPeriod::LastSample, false), (AdjustPeriod::Estimated, true)] {
        let mut c = controller(|c| c.adjust_period = period);
        c.on_rtt_sample(millis(100));
        c.on_rtt_sample(millis(200));
        c.on_control(ms(0), true); // leave startup at 0
        let d = c.on_control(ms(150), false);
        assert_eq!(d != Decision::Wait, decides_at_150, "{period:?}");
    }
}

#[test]
fn without_startup_alg2_runs_from_adjustment_time_zero() {
    let mut c = controller(|c| c.startup = false);
    c.on_rtt_sample(millis(100));
    // adjustment_time starts at 0 [P]: the first control packet at 100 ms decides (1 ack, no mark).
    assert_eq!(c.on_control(ms(100), false), Decision::Increase);
    assert_eq!(bps(c.rate()), 104_800);
    assert_eq!(c.on_control(ms(150), true), Decision::Wait);
}

#[test]
fn rate_stays_within_bounds() {
    let mut c = controller(|c| {
        c.min_rate_bps = 50_000;
        c.initial_rate_bps = 60_000;
    });
    c.on_rtt_sample(Duration::from_micros(1));
    for _ in 0..50 {
        c.decrease();
    }
    assert_eq!(bps(c.rate()), 50_000);
    for _ in 0..10 {
        c.increase(); // + 0.31 · 8000 / 1e-6 s = 2.48 Gbit/s per step, capped at 100 Mbit/s
    }
    assert_eq!(bps(c.rate()), 100_000_000);
}

#[test]
fn sto_follows_equations_3_to_5() {
    let mut c = controller(|_| {});
    assert_eq!(c.sto(), Duration::from_secs(1));
    c.on_rtt_sample(millis(100));
    // EstimatedRTT = 100, Deviation = 50 (A-RTT-2), STO = 100 + 4·50 = 300 ms.
    assert_eq!(c.sto(), millis(300));
    c.on_rtt_sample(millis(200));
    // Eq. 3: 0.9·100 + 0.1·200 = 110; Eq. 5 literal: 0.25·50 + 0.75·|110 − 100| = 20;
    // Eq. 4: 110 + 4·20 = 190 ms.
    assert_eq!(c.sto(), millis(190));
    let mut t = controller(|c| c.deviation = DeviationForm::Tcp);
    t.on_rtt_sample(millis(100));
    t.on_rtt_sample(millis(200));
    // TCP form: 0.75·50 + 0.25·|200 − 100| = 62.5; 110 + 250 = 360 ms.
    assert_eq!(t.sto(), millis(360));
}
