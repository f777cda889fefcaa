//! SRAMT's tests: the estimators on hand-made inputs (C01–C03), the rate rules (C05–C07), the
//! epoch and back-off rules (C08–C10), suppression at 10,000 receivers (C29) and the endpoints
//! under an arbitrary network; `tests/wire.rs` tests the wire formats, `tests/net.rs` runs whole
//! flows.

use proptest::prelude::*;
use rand::Rng;

use super::config::{RttScaling, SramtConfig};
use super::estimator::{tcp_rate, LossSampler, OwdRtt, Wma8};
use super::feedback::{rtcp_interval, suppresses, truncated_exponential};
use super::rates::{layered_rates, simulcast_rates};
use super::rules::{layered_level, SimulcastRule, SimulcastTrigger};
use super::wire::{DataHeader, ReceiverReport, ToReceiver, MAX_GROUPS};
use super::{SramtReceiver, SramtSender};
use crate::endpoint::{Datagram, Endpoint, PeerId};
use crate::proto::testing::*;
use crate::proto::Application;
use crate::rng::RngStreams;
use crate::time::{Duration, Instant};
use crate::units::DataSize;
use crate::wire::rtcp::ReportBlock;

mod backoff;
mod net;
mod wire;

fn secs(x: f64) -> Instant {
    Instant::from_nanos((x * 1e9).round() as u64)
}

// ---------------------------------------------------------------------------------------------
// C01–C03: the estimators

#[test]
fn c01_tcp_model_matches_the_digest_vectors() {
    // (l, R s, P bytes, f bytes/s) from docs/papers/sramt.md §1.2 (given to 0.1 B/s).
    let vectors = [
        (0.001, 0.06, 1000.0, 639_739.4),
        (0.01, 0.06, 1000.0, 187_220.4),
        (0.05, 0.10, 1000.0, 36_858.9),
        (0.10, 0.20, 1000.0, 8_850.5),
        (0.30, 0.06, 1000.0, 3_265.9),
        (0.02, 0.12, 500.0, 30_520.4),
    ];
    for (l, r, p, want) in vectors {
        let got = tcp_rate(p, l, r);
        assert!((got - want).abs() <= 0.051, "f({l}, {r}) with P={p}: {got} != {want}");
    }
    // The min() saturates at 8/27: the timeout term's factor is exactly 1 beyond it.
    let l = 0.5;
    let r = 0.1;
    let manual = 1000.0 / (r * (2.0 * l / 3.0f64).sqrt() + 4.0 * r * l * (1.0 + 32.0 * l * l));
    assert!((tcp_rate(1000.0, l, r) - manual).abs() < 1e-9 * manual);
    assert_eq!(tcp_rate(1000.0, 0.0, 0.1), f64::INFINITY, "Eq. 1 is for l > 0 only");
}

#[test]
fn c02_eight_tap_filter_matches_the_digest_vectors() {
    // Newest 0.02, seven older zeros: 0.02·1/6.
    let mut f = Wma8::new();
    for s in [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02] {
        f.push(s);
    }
    assert!((f.value().unwrap() - 0.02 / 6.0).abs() < 1e-15);
    // Oldest 0.05 (weight 0.2): 0.01/6.
    let mut f = Wma8::new();
    for s in [0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0] {
        f.push(s);
    }
    assert!((f.value().unwrap() - 0.01 / 6.0).abs() < 1e-15);
    // A ninth sample pushes the oldest out.
    f.push(0.0);
    assert_eq!(f.value(), Some(0.0));
    // Fewer than eight: the first weights, renormalised [R]: (1·0.3 + 1·0.1 + 1·0.2)/3.
    let mut f = Wma8::new();
    assert_eq!(f.value(), None);
    for s in [0.2, 0.1, 0.3] {
        f.push(s);
    }
    assert!((f.value().unwrap() - 0.2).abs() < 1e-15);
    // Six samples: weights 1,1,1,1,0.8,0.6 (newest first).
    let mut f = Wma8::new();
    for s in [1.0, 0.0, 0.0, 0.0, 0.0, 0.0] {
        f.push(s);
    }
    assert!((f.value().unwrap() - 0.6 / 5.4).abs() < 1e-15);
}

#[test]
fn loss_samples_count_sequence_gaps_per_interval_across_wraparound() {
    let mut s = LossSampler::default();
    // 65530..=65535, 0..=3 with 65533 and 1 missing: 10 expected, 8 received.
    for q in [65530u16, 65531, 65532, 65534, 65535, 0, 2, 3] {
        s.on_packet(q);
    }
    assert_eq!(s.sample(), Some(0.2));
    // Next interval: 4..=7 complete; a late duplicate of 3 does not raise the expectation.
    for q in [4u16, 5, 3, 6, 7] {
        s.on_packet(q);
    }
    assert_eq!(s.sample(), Some(0.0));
    assert_eq!(s.sample(), None, "nothing arrived: no sample");
    assert!((s.loss() - 0.2 / 2.0).abs() < 1e-12, "two samples, equal weights: {}", s.loss());
    // RFC 3550 counts the duplicate as received: cumulative lost = expected − received = 1.
    assert_eq!(s.totals(), (65536 + 7, 1));
}

#[test]
fn c03_one_way_delay_rtt_equals_the_echo_at_calibration_and_scales_with_the_owd_after() {
    let mut e = OwdRtt::new(RttScaling::Multiplicative, 1.0);
    // Before any echo: a = 1, RTT = 2·OWD.
    e.observe(0.030);
    assert!((e.sample().unwrap() - 0.060).abs() < 1e-12);
    // The packet carrying the echo (RTT 100 ms) had OWD 40 ms: a = 100/40 − 1 = 1.5 and that
    // packet's sample is the echoed RTT exactly.
    e.observe(0.040);
    e.calibrate(Duration::from_millis(100));
    assert!((e.a() - 1.5).abs() < 1e-12);
    assert!((e.sample().unwrap() - 0.100).abs() < 1e-12);
    // Afterwards RTT = 100 ms × OWD/40 ms.
    for (owd, rtt) in [(0.050, 0.125), (0.020, 0.050), (0.040, 0.100)] {
        e.observe(owd);
        assert!((e.sample().unwrap() - rtt).abs() < 1e-12, "owd {owd}");
    }
    // Smoothed over the five samples (newest first 0.1, 0.05, 0.125, 0.1, 0.06; weights 1,1,1,1,0.8).
    let want = (0.1 + 0.05 + 0.125 + 0.1 + 0.8 * 0.06) / 4.8;
    assert!((e.rtt().unwrap() - want).abs() < 1e-12);
    // A non-positive OWD keeps the old calibration [R].
    e.observe(0.0);
    e.calibrate(Duration::from_millis(300));
    assert!((e.a() - 1.5).abs() < 1e-12);
    // The additive ablation: RTT_echo + 2·(OWD − OWD_cal).
    let mut add = OwdRtt::new(RttScaling::Additive, 1.0);
    add.observe(0.040);
    add.calibrate(Duration::from_millis(100));
    assert!((add.sample().unwrap() - 0.100).abs() < 1e-12);
    add.observe(0.050);
    assert!((add.sample().unwrap() - 0.120).abs() < 1e-12);
}

#[test]
fn c03_receiver_calibrates_only_on_its_own_echo() {
    let cfg = SramtConfig::simulcast();
    let mut r = SramtReceiver::new(&cfg, false, 7, 1000.0, Instant::ZERO, RngStreams::new(1).stream("r"));
    r.handle_timeout(Instant::ZERO);
    let mut h = data(0, 0, false);
    // Sent at 1.000 s, arrives at 1.040 s: OWD 40 ms, RTT estimate 80 ms (a = 1).
    h.timestamp_us = 1_000_000;
    receive(&mut r, secs(1.04), &emit(&h), 900).unwrap();
    assert!((r.rtt_estimate().unwrap() - 0.080).abs() < 1e-9);
    // An echo for receiver 3 changes nothing; one for 7 makes this packet's sample 100 ms.
    let mut other = h;
    other.seq = 1;
    other.timestamp_us = 2_000_000;
    other.echo = Some((3, 100_000));
    receive(&mut r, secs(2.04), &emit(&other), 900).unwrap();
    assert!((r.rtt_estimate().unwrap() - 0.080).abs() < 1e-9);
    let mut mine = other;
    mine.seq = 2;
    mine.timestamp_us = 3_000_000;
    mine.echo = Some((7, 100_000));
    receive(&mut r, secs(3.04), &emit(&mine), 900).unwrap();
    assert!((r.rtt_estimate().unwrap() - (0.08 * 2.0 + 0.1) / 3.0).abs() < 1e-9);
}

// ---------------------------------------------------------------------------------------------
// C05–C07: group rates

/// Group rates recomputed the long way: (position, preferred) pairs of live receivers.
fn expected_rates(cfg: &SramtConfig, layered: bool, old: &[f64], prefs: &[(usize, f64)]) -> Vec<f64> {
    let mut out = old.to_vec();
    let mut below = 0.0;
    for (j, rate) in out.iter_mut().enumerate() {
        let level = if layered { j + 1 } else { j };
        let members: Vec<f64> = prefs.iter().filter(|(p, _)| *p == level).map(|(_, r)| *r).collect();
        if !members.is_empty() {
            let m = members.iter().cloned().fold(f64::INFINITY, f64::min);
            let [lo, hi] = cfg.bands_bps[j];
            let target = if layered { m - below } else { m };
            *rate = target.max(lo as f64).min(hi as f64);
        }
        below += *rate;
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn c05_c07_stream_rates_are_the_clamped_minimum_of_their_receivers(
        prefs in proptest::collection::vec((0usize..3, 0.0f64..2e6), 0..12),
    ) {
        let cfg = SramtConfig::simulcast();
        let mut rates = vec![50e3, 200e3, 600e3];
        let old = rates.clone();
        simulcast_rates(&cfg, &mut rates, prefs.iter().cloned());
        prop_assert_eq!(&rates, &expected_rates(&cfg, false, &old, &prefs));
        // C07: stream 1 never exceeds a listener's preferred rate unless pinned at its minimum.
        for (j, r) in &prefs {
            if *j == 0 && rates[0] > 50e3 {
                prop_assert!(rates[0] <= *r, "stream 1 at {} above a preferred rate {}", rates[0], r);
            }
        }
    }

    #[test]
    fn c06_c07_cumulative_level_rates_are_the_clamped_minimum_of_their_receivers(
        prefs in proptest::collection::vec((1usize..=3, 0.0f64..2e6), 0..12),
    ) {
        let cfg = SramtConfig::layered();
        let mut rates = vec![150e3; 3];
        let old = rates.clone();
        layered_rates(&cfg, &mut rates, prefs.iter().cloned());
        prop_assert_eq!(&rates, &expected_rates(&cfg, true, &old, &prefs));
        for k in 1..=3 {
            let level: Vec<f64> = prefs.iter().filter(|(p, _)| *p == k).map(|(_, r)| *r).collect();
            let Some(m) = level.iter().cloned().reduce(f64::min) else { continue };
            let below: f64 = rates[..k - 1].iter().sum();
            let cumulative = below + rates[k - 1];
            let [lo, hi] = cfg.bands_bps[k - 1];
            // C06: C_k is the level's minimum whenever layer k is inside its band.
            if m - below >= lo as f64 && m - below <= hi as f64 {
                prop_assert!((cumulative - m).abs() < 1e-6, "C_{} = {} but min preferred {}", k, cumulative, m);
            }
        }
        // C07 for the base layer.
        for (k, r) in &prefs {
            if *k == 1 && rates[0] > 50e3 {
                prop_assert!(rates[0] <= *r);
            }
        }
    }
}

/// A report as receiver `peer` sends it.
fn report(rate_bps: u32, loss: f64, position: u8) -> ReceiverReport {
    ReceiverReport { ssrc: 0, block: ReportBlock::default(), rate_bps, loss_ppb: (loss * 1e9) as u32, position }
}

fn sender(cfg: &SramtConfig, layered: bool, receivers: u32) -> SramtSender {
    let stream = RngStreams::new(3).stream("s");
    SramtSender::new(
        cfg,
        layered,
        Application::Bulk,
        DataSize::from_bytes(1000),
        Instant::ZERO,
        None,
        receivers,
        stream,
    )
    .unwrap()
}

fn send_report(s: &mut SramtSender, now: Instant, peer: u32, rr: &ReceiverReport) {
    let bytes = rr.emit();
    s.handle_datagram(now, Datagram { from: PeerId(peer), bytes: bytes.as_slice(), virtual_payload: 0 }).unwrap();
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// C05–C07 through the sender endpoint: after every report the group rates are the clamped
    /// minimum of its receiver managers' preferred rates, and each preferred rate is Eq. 4's
    /// minimum of the three terms.
    #[test]
    fn c05_c06_sender_rates_follow_every_report(
        layered: bool, aimd: bool,
        reports in proptest::collection::vec((0u32..6, 1u32..3_000_000, 0.0f64..0.3, 0u8..3), 1..40),
    ) {
        let cfg = SramtConfig { aimd, ..if layered { SramtConfig::layered() } else { SramtConfig::simulcast() } };
        let mut s = sender(&cfg, layered, 6);
        let mut t = secs(1.0);
        for (peer, rate, loss, pos) in reports {
            let position = if layered { pos + 1 } else { pos };
            // The rates before the report: a group nobody reports keeps them.
            let before = s.rates().to_vec();
            t += Duration::from_millis(700);
            send_report(&mut s, t, peer, &report(rate, loss, position));
            let m = &s.managers()[&peer];
            prop_assert_eq!(m.preferred, m.facts.rate_bps.min(m.r_aimd).min(m.r_l_tcp));
            prop_assert!(m.preferred <= f64::from(rate));
            if !aimd {
                prop_assert_eq!(m.r_aimd, f64::INFINITY);
            }
            let prefs: Vec<(usize, f64)> = s.managers().values().map(|m| (m.facts.position, m.preferred)).collect();
            let want = expected_rates(&cfg, layered, &before, &prefs);
            prop_assert_eq!(s.rates(), &want[..]);
        }
    }
}

#[test]
fn aimd_stand_in_increases_holds_and_decreases_by_loss_class() {
    let cfg = SramtConfig::simulcast();
    let top = 200e3;
    assert_eq!(super::rates::aimd_step(&cfg, 100e3, 0.01, top), 110e3);
    assert_eq!(super::rates::aimd_step(&cfg, 100e3, 0.03, top), 100e3);
    assert!((super::rates::aimd_step(&cfg, 100e3, 0.09, top) - 70e3).abs() < 1e-6);
}

#[test]
fn sender_rtt_is_arrival_minus_lsr_minus_dlsr_and_is_echoed_on_every_stream() {
    let cfg = SramtConfig::simulcast();
    let mut s = sender(&cfg, false, 2);
    // SR sent at 10 s; the receiver held it 0.25 s; the RR arrives at 10.4 s: RTT 150 ms.
    let lsr = super::wire::ntp_middle(secs(10.0));
    let rr = ReceiverReport {
        block: ReportBlock { lsr, dlsr: 65536 / 4, ..ReportBlock::default() },
        ..report(300_000, 0.01, 1)
    };
    send_report(&mut s, secs(10.4), 1, &rr);
    let rtt = s.managers()[&1].rtt.expect("measured").as_secs_f64();
    assert!((rtt - 0.150).abs() < 2e-5, "{rtt}");
    // Every stream's next packet carries (1, ~150 000 µs).
    let mut echoed = [false; 3];
    for t in drain(&mut s, secs(10.4)) {
        if let Ok(ToReceiver::Data(h)) = ToReceiver::parse(t.header.as_slice(), t.wire_size().as_bytes() as usize) {
            if let Some((id, us)) = h.echo {
                assert_eq!(id, 1);
                assert!((i64::from(us) - 150_000).abs() <= 20);
                echoed[h.group as usize] = true;
            }
        }
    }
    assert_eq!(echoed, [true; 3]);
}

// ---------------------------------------------------------------------------------------------
// C08–C10: epoch rules and back-off

#[test]
fn c08_rule_two_moves_need_four_epochs_and_rule_one_acts_at_once() {
    let band = [200e3, 600e3];
    let mut rule = SimulcastRule::default();
    // Estimate above a mid-band rate: moves up after the 4th epoch, never sooner (≥ 20 s).
    let mut moves = vec![];
    for epoch in 1..=12 {
        if let Some((to, why)) = rule.decide(500e3, 400e3, band, 1, 3, 4) {
            assert_eq!((to, why), (2, SimulcastTrigger::Mismatch));
            moves.push(epoch);
            rule.reset();
        }
    }
    assert_eq!(moves, [4, 8, 12]);
    // A reversal restarts the count.
    let mut rule = SimulcastRule::default();
    for e in [500e3, 500e3, 500e3, 300e3, 500e3, 500e3, 500e3] {
        assert_eq!(rule.decide(e, 400e3, band, 1, 3, 4), None);
    }
    // Rule 1: pinned at the top of the band with a larger estimate moves at the first epoch.
    let mut rule = SimulcastRule::default();
    assert_eq!(rule.decide(700e3, 600e3, band, 1, 3, 4), Some((2, SimulcastTrigger::BandExhausted)));
    assert_eq!(rule.decide(100e3, 200e3, band, 1, 3, 4), Some((0, SimulcastTrigger::BandExhausted)));
    // ... but not beyond the last stream or below the first.
    let mut rule = SimulcastRule::default();
    assert_eq!(rule.decide(2e6, 1e6, [600e3, 1e6], 2, 3, 4), None);
}

#[test]
fn layered_level_is_the_largest_cumulative_rate_within_the_estimate() {
    let rates = [150e3, 150e3, 150e3];
    assert_eq!(layered_level(100e3, &rates), 1, "even C_1 > E gives level 1");
    assert_eq!(layered_level(150e3, &rates), 1);
    assert_eq!(layered_level(449e3, &rates), 2);
    assert_eq!(layered_level(450e3, &rates), 3);
    assert_eq!(layered_level(5e6, &rates), 3);
}

// ---------------------------------------------------------------------------------------------
// C29: feedback suppression

#[test]
fn truncated_exponential_has_the_stated_mean_and_range() {
    let t = Duration::from_secs(10);
    let mut rng = RngStreams::new(5).stream("z");
    let n = 200_000;
    let mut sum = 0.0;
    for _ in 0..n {
        let z = truncated_exponential(10.0, t, rng.gen());
        assert!(z <= t);
        sum += z.as_secs_f64();
    }
    // E[z]/T_rand = 1/(1 − e^−λ) − 1/λ = 0.90005 for λ = 10.
    let mean = sum / n as f64 / 10.0;
    assert!((mean - 0.90005).abs() < 0.002, "{mean}");
    assert_eq!(truncated_exponential(10.0, t, 0.0), Duration::ZERO);
    assert_eq!(truncated_exponential(10.0, t, 1.0), t);
}

fn reports_in_a_round(n: usize, latency: Duration, round: u64, rng: &mut crate::rng::SimRng) -> usize {
    super::claims::reports_in_a_round(n, 10.0, Duration::from_secs(10), latency, round, rng)
}

#[test]
fn c29_fewer_than_ten_reports_per_round_for_ten_thousand_receivers() {
    let mut rng = RngStreams::new(29).stream("c29");
    // T_rand = 10 s = 6c: c ≈ 1.67 s (docs/papers/sramt.md's Monte-Carlo ≈ 7.3).
    let c = Duration::from_nanos(10_000_000_000 / 6);
    let rounds = 40;
    let total: usize = (0..rounds).map(|r| reports_in_a_round(10_000, c, r, &mut rng)).sum();
    let mean = total as f64 / rounds as f64;
    assert!(mean < 10.0 && mean > 3.0, "mean reports per round {mean}");
    // T_rand = 4c is beyond the bound (docs/papers/sramt.md ≈ 17.3): the test can tell.
    let c4 = Duration::from_nanos(10_000_000_000 / 4);
    let total: usize = (0..rounds).map(|r| reports_in_a_round(10_000, c4, r, &mut rng)).sum();
    assert!(total as f64 / rounds as f64 > 10.0);
}

#[test]
fn suppression_is_only_by_similar_reports_of_the_same_group() {
    assert!(suppresses(1, 100.0, 1, 102.0, 0.02));
    assert!(!suppresses(1, 100.0, 1, 102.1, 0.02));
    assert!(!suppresses(1, 100.0, 2, 100.0, 0.02));
    // The RTCP interval passes T_suspent = 10 s only for large groups (200 kbit/s session).
    let cfg = SramtConfig::simulcast();
    let t = |m| rtcp_interval(&cfg, m, false, 84.0, 200e3, false);
    assert_eq!(t(6), Duration::from_secs(5));
    assert!(t(10_000) > Duration::from_secs(10));
}

#[test]
fn receivers_of_a_large_group_suppress_on_a_relayed_similar_report() {
    let cfg = SramtConfig::simulcast();
    let mut r = SramtReceiver::new(&cfg, false, 4, 1000.0, Instant::ZERO, RngStreams::new(1).stream("r"));
    r.handle_timeout(Instant::ZERO);
    let mut h = data(0, 0, false);
    h.members = 10_000;
    receive(&mut r, secs(0.5), &emit(&h), 900).unwrap();
    assert!(r.suppressing(), "10,000 members at 50 kbit/s: RTCP interval far above 10 s");
    let own = r.rate_estimate().unwrap();
    // A relayed report from stream 0 within 2 % cancels this round's report.
    let mut h2 = h;
    h2.seq = 1;
    h2.heard = Some((0, (own * 1.01) as u32));
    receive(&mut r, secs(0.6), &emit(&h2), 900).unwrap();
    assert_eq!(r.reports(), (0, 1));
    // One from another stream does not.
    let mut h3 = h2;
    h3.seq = 2;
    h3.heard = Some((1, own as u32));
    receive(&mut r, secs(0.7), &emit(&h3), 900).unwrap();
    assert_eq!(r.reports(), (0, 1));
}

// ---------------------------------------------------------------------------------------------
// Wire-format helpers (the wire tests are in tests/wire.rs; C03 and C29 use them too)

/// A data header of `n` = 3 groups.
fn data(group: u8, seq: u16, epoch_end: bool) -> DataHeader {
    let mut rates_bps = [0; MAX_GROUPS];
    rates_bps[..3].copy_from_slice(&[50_000, 200_000, 600_000]);
    DataHeader {
        seq,
        timestamp_us: 0,
        ssrc: 0x5352_414d,
        group,
        epoch_end,
        epoch_us: 5_000_000,
        epoch_index: 0,
        members: 2,
        echo: None,
        heard: None,
        n: 3,
        rates_bps,
    }
}

fn emit(h: &DataHeader) -> Vec<u8> {
    h.emit().as_slice().to_vec()
}

// ---------------------------------------------------------------------------------------------
// The endpoints under an arbitrary network

struct Sane;

impl Invariants<SramtSender, SramtReceiver> for Sane {
    fn after_step(&mut self, s: &SramtSender, r: &SramtReceiver) -> Result<(), TestCaseError> {
        for (j, rate) in s.rates().iter().enumerate() {
            let [lo, hi] = [50e3, 1e6];
            prop_assert!(rate.is_finite() && *rate >= lo && *rate <= hi, "group {} rate {}", j, rate);
        }
        prop_assert!(r.position() <= 3);
        if let Some(e) = r.rate_estimate() {
            prop_assert!(e.is_finite() && e >= 0.0);
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_network_keeps_state_sane(
        ops in net_ops(Clock { max_advance: millis(2000), max_rewind: millis(50) }, 1..300),
        layered: bool,
    ) {
        let cfg = if layered { SramtConfig::layered() } else { SramtConfig::simulcast() };
        let mut s = sender(&cfg, layered, 1);
        let mut r = SramtReceiver::new(&cfg, layered, 0, 1000.0, Instant::ZERO, RngStreams::new(1).stream("r"));
        drive_network(&mut s, &mut r, &ops, &mut Sane)?;
    }
}

#[test]
fn config_errors_name_the_key_and_registry_builds_both_variants() {
    let mut cfg = SramtConfig::simulcast();
    cfg.initial_rates_bps.pop();
    assert!(cfg.validate(false).unwrap_err().contains("initial_rates_bps"));
    let mut cfg = SramtConfig::layered();
    cfg.initial_group = 0;
    assert!(cfg.validate(true).unwrap_err().contains("initial_group"));
    let mut cfg = SramtConfig::simulcast();
    cfg.bands_bps = vec![[1, 2]; 6];
    assert!(cfg.validate(false).unwrap_err().contains("bands_bps"));
    for name in ["sramt-s", "sramt-le"] {
        let p = crate::proto::registry::defaults(name).unwrap();
        let flow = p
            .build(crate::proto::registry::FlowContext {
                app: Application::Bulk,
                packet_size: DataSize::from_bytes(1000),
                start: Instant::ZERO,
                stop: None,
                receivers: 5,
                members: &[
                    crate::proto::registry::ReceiverSpec::default(),
                    Default::default(),
                    Default::default(),
                    Default::default(),
                    Default::default(),
                ],
                rng: &|n| RngStreams::new(1).stream(n),
            })
            .unwrap();
        assert_eq!(flow.receivers.len(), 5);
    }
}

#[test]
fn sender_reports_each_group_rate_change_and_each_report_heard_as_events() {
    use crate::endpoint::Event;
    let cfg = SramtConfig::simulcast();
    let mut s = sender(&cfg, false, 3);
    let mut changes = 0;
    for (k, (peer, rate, loss, stream)) in
        [(1, 120_000, 0.01, 0), (1, 120_000, 0.01, 0), (2, 900_000, 0.0, 2), (0, 300_000, 0.08, 1), (1, 90_000, 0.1, 0)]
            .into_iter()
            .enumerate()
    {
        let before = s.rates().to_vec();
        // The receiver got an SR 100 ms before its report arrives: the sender measures an RTT.
        let at = 10.0 + k as f64;
        let block = ReportBlock { lsr: super::wire::ntp_middle(secs(at - 0.1)), ..ReportBlock::default() };
        send_report(&mut s, secs(at), peer, &ReceiverReport { block, ..report(rate, loss, stream) });
        let events: Vec<Event> = std::iter::from_fn(|| s.poll_event()).collect();
        // Every report heard is an event, first.
        assert_eq!(events[0], Event::FeedbackReceived { peer }, "{events:?}");
        // A rate event for exactly the groups whose rate changed, with the new rate.
        let mut changed: Vec<u8> = vec![];
        for e in &events[1..] {
            match e {
                Event::GroupRateChanged { group, rate } => {
                    assert!((rate.as_bps_f64() - s.rates()[*group as usize]).abs() <= 1.0, "{e:?} vs {:?}", s.rates());
                    changed.push(*group);
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        let want: Vec<u8> = (0..3u8).filter(|&g| before[g as usize] != s.rates()[g as usize]).collect();
        assert_eq!(changed, want, "before {before:?} after {:?}", s.rates());
        changes += changed.len();
    }
    assert!(changes > 0, "the reports moved no group rate: the test would prove nothing");
}

#[test]
fn receivers_start_on_the_groups_the_scenario_names() {
    use crate::endpoint::GroupId;
    use crate::proto::registry::{defaults, FlowContext, ReceiverSpec};
    let build = |name: &str, groups: Vec<Vec<u32>>| {
        let members: Vec<ReceiverSpec> = groups
            .into_iter()
            .map(|g| ReceiverSpec { groups: g.into_iter().map(GroupId).collect(), ..Default::default() })
            .collect();
        defaults(name).unwrap().build(FlowContext {
            app: Application::Bulk,
            packet_size: DataSize::from_bytes(1000),
            start: Instant::ZERO,
            stop: None,
            receivers: members.len() as u32,
            members: &members,
            rng: &|n| RngStreams::new(1).stream(n),
        })
    };
    // Joined groups at t = 0 tell where each receiver starts.
    let joins = |flow: &mut crate::endpoint::FlowEndpoints| -> Vec<Vec<u32>> {
        flow.receivers
            .iter_mut()
            .map(|r| {
                r.handle_timeout(Instant::ZERO);
                std::iter::from_fn(|| r.poll_membership())
                    .filter_map(|m| match m {
                        crate::endpoint::Membership::Join(g) => Some(g.0),
                        _ => None,
                    })
                    .collect()
            })
            .collect()
    };
    let mut s = build("sramt-s", vec![vec![], vec![1], vec![2]]).unwrap();
    assert_eq!(joins(&mut s), vec![vec![0], vec![1], vec![2]]);
    let mut le = build("sramt-le", vec![vec![0, 1, 2], vec![0], vec![]]).unwrap();
    assert_eq!(joins(&mut le), vec![vec![0, 1, 2], vec![0], vec![0]]);
    let err = build("sramt-s", vec![vec![0, 1]]).err().unwrap();
    assert!(err.contains("receiver 0") && err.contains("exactly one stream"), "{err}");
    let err = build("sramt-le", vec![vec![1]]).err().unwrap();
    assert!(err.contains("cumulative layers"), "{err}");
}

#[test]
fn unit_measurements_for_the_paper_suite_hold_the_unit_claims() {
    let m: std::collections::BTreeMap<String, f64> = super::claims::unit_measurements().into_iter().collect();
    assert!((m["c01_f0"] - 639_739.4).abs() < 0.051 && (m["c01_f5"] - 30_520.4).abs() < 0.051, "{m:?}");
    assert!((m["c02_newest"] - 0.02 / 6.0).abs() < 1e-15 && (m["c02_oldest"] - 0.01 / 6.0).abs() < 1e-15);
    assert!((m["c03_at_echo"] - 0.1).abs() < 1e-12 && (m["c03_owd_50ms"] - 0.125).abs() < 1e-12);
    for v in ["s", "le"] {
        assert_eq!(m[&format!("c05_c06_{v}_updates")], 2000.0);
        assert_eq!(m[&format!("c05_c06_{v}_violations")], 0.0);
        assert_eq!(m[&format!("c07_{v}_violations")], 0.0);
    }
    assert!(m["c29_6c"] < 10.0 && m["c29_4c"] > 10.0, "{m:?}");
}
