//! ASMP: the equation against TFMCC's, the loss-free increment, the γ switch, the sender
//! following the slowest receiver, and parsers and endpoints under arbitrary input.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use super::rate::{eq2_bytes_per_s, update, CongestionIndicator, Interval};
use super::*;
use crate::endpoint::{Datagram, Endpoint, Event, PeerId, Transmit};
use crate::estimate::tcp_model::rfc5348_rate_default;
use crate::proto::testing::*;
use crate::rng::{RngStreams, SimRng};
use crate::time::{Duration, Instant};
use crate::units::DataSize;
use crate::wire::asmp::{data_header, ReceiverReport, ToReceiver};
use crate::wire::rtcp::{ntp_from_ns, SenderInfo};

const P: u32 = 1018;

fn rng(name: &str) -> SimRng {
    RngStreams::new(3).stream(name)
}

/// RFC 4654 §3.1 (docs/papers/asmp-tfmcc.md's eq.(1)), bytes/s, written out here:
/// X = s / (R·(sqrt(2p/3) + 12·sqrt(3p/8)·p·(1 + 32p²))).
fn rfc4654(s: f64, r: f64, p: f64) -> f64 {
    s / (r * ((2.0 * p / 3.0).sqrt() + 12.0 * (3.0 * p / 8.0).sqrt() * p * (1.0 + 32.0 * p * p)))
}

#[test]
fn equation_equals_tfmccs_up_to_8_27_and_exceeds_it_above() {
    for k in 1..=2000 {
        let l = 8.0 / 27.0 * k as f64 / 2000.0;
        for rtt in [0.01, 0.16, 1.0] {
            let (a, b) = (eq2_bytes_per_s(1018.0, rtt, l), rfc4654(1018.0, rtt, l));
            assert!((a / b - 1.0).abs() < 1e-12, "l {l} rtt {rtt}: {a} vs {b}");
            assert!((a / rfc5348_rate_default(1018.0, rtt, l) - 1.0).abs() < 1e-12);
        }
    }
    for k in 1..=100 {
        let l = 8.0 / 27.0 + (1.0 - 8.0 / 27.0) * k as f64 / 100.0;
        assert!(eq2_bytes_per_s(1018.0, 0.16, l) > rfc4654(1018.0, 0.16, l), "l {l}");
    }
    // docs/papers/asmp-tfmcc.md's vectors (P = 1018 B, RTT = 0.16 s), to their printed 0.1 B/s.
    for (l, want) in [(0.001, 244_220.5), (0.005, 105_452.6), (0.01, 71_471.4), (0.05, 23_451.4), (0.1, 11_262.3)] {
        assert!((eq2_bytes_per_s(1018.0, 0.16, l) - want).abs() < 0.06, "l {l}");
    }
    assert!((rfc4654(1018.0, 0.16, 0.3) - 1_239.7).abs() < 0.06);
    assert!((eq2_bytes_per_s(1018.0, 0.16, 0.3) - 1_246.8).abs() < 0.06);
    assert!((eq2_bytes_per_s(1018.0, 0.16, 0.5) - 342.5).abs() < 0.06);
    assert!(eq2_bytes_per_s(1018.0, 0.16, 0.0).is_infinite());
}

#[test]
fn gamma_switch_follows_the_jitter_averages_on_a_hand_made_sequence() {
    let cfg = AsmpConfig::default();
    let mut ci = CongestionIndicator::new(0.125, 0.0);
    let mut states = vec![];
    // Per-interval CJ samples (ms): flat, rising, falling, exactly the long average, none.
    let intervals: [&[i64]; 5] = [&[8, 8], &[16, 32], &[1, 3], &[], &[]];
    for (k, samples) in intervals.iter().enumerate() {
        let samples: Vec<i64> = if k == 3 {
            // Exactly the long average: a tie is UNLOADED.
            vec![ci.long().expect("a long average by now") as i64]
        } else {
            samples.to_vec()
        };
        for s in samples {
            ci.sample(s);
        }
        states.push(ci.close_interval());
    }
    // First interval: no long average yet → UNLOADED; long = 8. Second: 24 > 8 → CONGESTED;
    // long = 8 + (24 − 8)/8 = 10. Third: 2 < 10 → UNLOADED; long = 10 − 8/8 = 9.
    // Fourth: a tie (9). Fifth: no sample.
    assert_eq!(states, vec![false, true, false, false, false]);
    assert_eq!(ci.long(), Some(9.0));
    // With a resolution of 2 (ns), a short average 1 above the long one is within it: UNLOADED;
    // 3 above is CONGESTED.
    let mut ci = CongestionIndicator::new(0.5, 2.0);
    ci.sample(10);
    assert!(!ci.close_interval());
    ci.sample(11);
    assert!(!ci.close_interval());
    ci.sample(14);
    assert!(ci.close_interval(), "long {:?}", ci.long());
    // γ per state, without loss: r + γ·P/RTT.
    let (r, p, rtt) = (10_000.0, 1000.0, 0.5);
    let inf = f64::INFINITY;
    let step = |congested| update(&cfg, r, p, rtt, Interval { loss: 0.0, lossy: false, congested }, inf) - r;
    assert!((step(true) - 0.2 * 2000.0).abs() < 1e-9);
    assert!((step(false) - 0.9 * 2000.0).abs() < 1e-9);
    // With loss: γ·eq2 + (1 − γ)·r, or eq2 at once with the immediate decrease.
    let lossy = Interval { loss: 0.05, lossy: true, congested: true };
    let x = eq2_bytes_per_s(p, rtt, 0.05);
    assert!((update(&cfg, r, p, rtt, lossy, inf) - (0.2 * x + 0.8 * r)).abs() < 1e-9);
    let immediate = AsmpConfig { decrease: Decrease::Immediate, ..AsmpConfig::default() };
    assert_eq!(update(&immediate, r, p, rtt, lossy, inf), x);
    // A light loss whose eq.(2) rate is far above r: r heads for eq.(2) (the default), rises by
    // at most γ·P/RTT (`step`), or holds (`never`).
    let light = Interval { loss: 1e-6, lossy: true, congested: false };
    let x = eq2_bytes_per_s(p, rtt, 1e-6);
    assert!(x > 100.0 * r);
    let literal = AsmpConfig { lossy_increase: LossyIncrease::Equation, ..AsmpConfig::default() };
    assert_eq!(cfg, literal);
    assert!((update(&literal, r, p, rtt, light, inf) - (0.9 * x + 0.1 * r)).abs() < 1e-6 * x);
    let capped = AsmpConfig { lossy_increase: LossyIncrease::Step, ..AsmpConfig::default() };
    assert!((update(&capped, r, p, rtt, light, inf) - (r + 0.9 * 2000.0)).abs() < 1e-9);
    let never = AsmpConfig { lossy_increase: LossyIncrease::Never, ..AsmpConfig::default() };
    assert_eq!(update(&never, r, p, rtt, light, inf), r);
    // The ceiling bounds every outcome.
    assert_eq!(update(&cfg, r, p, rtt, Interval { loss: 0.0, lossy: false, congested: false }, r + 1.0), r + 1.0);
    assert_eq!(update(&literal, r, p, rtt, light, 2.0 * r), 2.0 * r);
}

/// Drives one receiver: a data packet sent every 10 ms from `from` to `to`, arriving after
/// `transit(send time)` unless `lose(seq)`; the receiver's reports are returned with its state
/// after each. The RTT echo (100 ms) arrives first.
fn run_receiver(
    r: &mut AsmpReceiver,
    to: u64,
    transit: impl Fn(u64) -> u64,
    lose: impl Fn(u16) -> bool,
) -> Vec<(Instant, ReceiverReport, ReceiverState)> {
    let mut out = vec![];
    let fire = |r: &mut AsmpReceiver, until: Instant, out: &mut Vec<_>| {
        while let Some(t) = r.poll_timeout().filter(|&t| t <= until) {
            r.handle_timeout(t);
            for tx in drain(r, t) {
                out.push((t, ReceiverReport::parse(tx.header.as_slice()).expect("parses"), r.state()));
            }
        }
    };
    fire(r, ms(1), &mut out);
    let echo = ToReceiver::rtt(SENDER_SSRC, receiver_ssrc(0), 100_000);
    receive(r, ms(1), echo.as_slice(), 0).unwrap();
    let sr = ToReceiver::session(
        SENDER_SSRC,
        SenderInfo { ntp: ntp_from_ns(1_000_000), ..SenderInfo::default() },
        2,
        12_500,
        0,
    );
    receive(r, ms(1), sr.as_slice(), 0).unwrap();
    for (k, sent) in (10..to).step_by(10).enumerate() {
        let seq = k as u16;
        let at = ms(sent + transit(sent));
        fire(r, at, &mut out);
        if !lose(seq) {
            let ts = (sent * 90) as u32; // 90 kHz
            let h = data_header(true, seq, ts, SENDER_SSRC).emit();
            receive(r, at, h.as_slice(), P - 12).unwrap();
        }
    }
    fire(r, ms(to), &mut out);
    out
}

fn receiver() -> AsmpReceiver {
    AsmpReceiver::new(&AsmpConfig::default(), receiver_ssrc(0), P, Instant::ZERO, None, rng("r0"))
}

#[test]
fn growth_without_loss_is_exactly_gamma_p_over_rtt_per_report() {
    let mut r = receiver();
    assert_eq!(r.poll_membership(), None);
    let reports = run_receiver(&mut r, 120_000, |_| 30, |_| false);
    assert!(reports.len() >= 20, "{} reports in 120 s", reports.len());
    // The first report starts from the rate the sender advertised (12 500 B/s).
    let step = 0.9 * P as f64 / 0.1;
    let rates: Vec<f64> = reports.iter().map(|(_, _, s)| s.rate.expect("an RTT is known")).collect();
    assert!((rates[0] - (12_500.0 + step)).abs() < 1e-6, "{}", rates[0]);
    for w in rates.windows(2) {
        assert!((w[1] - w[0] - step).abs() < 1e-6, "{} → {}", w[0], w[1]);
    }
    // Reports carry the rate (rounded to B/s), no loss, UNLOADED; RTCP spacing of a 2-member
    // group: T_min·[0.5, 1.5]/(e − 1.5) = 2.05 … 6.16 s.
    for (_, rr, s) in &reports {
        let rate = rr.rate.expect("rate sent");
        assert_eq!((rate.rate_bytes_per_s, rate.loss, rate.congested), (s.rate.unwrap().round() as u32, 0, false));
        assert_eq!(rr.block.unwrap().fraction_lost, 0);
    }
    for w in reports.windows(2).skip(1) {
        let gap = w[1].0.saturating_since(w[0].0).as_secs_f64();
        assert!((2.05..=6.16).contains(&gap), "{gap}");
    }
}

#[test]
fn receiver_flags_congestion_while_the_delay_grows_and_smooths_by_gamma() {
    let mut r = receiver();
    // Transit 30 ms until 40 s, then growing by 1 ms per 100 ms (a filling queue) until 60 s,
    // flat at its top until 90 s, then back to 30 ms (the queue drained).
    let transit = |t: u64| match t {
        ..40_000 => 30,
        40_000..60_000 => 30 + (t - 40_000) / 100,
        60_000..90_000 => 230,
        _ => 30,
    };
    let reports = run_receiver(&mut r, 150_000, transit, |_| false);
    let step = P as f64 / 0.1;
    let mut phases = [0; 4];
    for w in reports.windows(2) {
        let (t, rr, s) = &w[1];
        let congested = rr.rate.unwrap().congested;
        assert_eq!(congested, s.congested);
        let gamma = if congested { 0.2 } else { 0.9 };
        assert!((s.rate.unwrap() - w[0].2.rate.unwrap() - gamma * step).abs() < 1e-6);
        let secs = t.as_secs_f64();
        let (phase, want) = match secs {
            x if x < 40.0 => (0, false),
            // The first interval of the rise may still be mostly flat.
            x if (46.0..60.0).contains(&x) => (1, true),
            // On the plateau the long average still approaches it from below: short > long.
            x if (60.0..90.0).contains(&x) => (2, true),
            x if x > 96.0 => (3, false),
            _ => continue,
        };
        assert_eq!(congested, want, "at {secs} s");
        phases[phase] += 1;
    }
    assert!(phases.iter().all(|&n| n > 0), "reports per phase {phases:?}");
}

#[test]
fn losses_feed_the_equation_with_the_loss_event_ratio() {
    let mut r = receiver();
    // One packet in 50 lost, each loss its own event (500 ms apart > RTT).
    let reports = run_receiver(&mut r, 60_000, |_| 30, |seq| seq % 50 == 49);
    let lossy: Vec<_> = reports.iter().filter(|(_, rr, _)| rr.rate.unwrap().loss > 0).collect();
    assert!(!lossy.is_empty());
    for (_, rr, s) in &lossy {
        // Loss-event ratio ≈ 1/50 per interval (± one packet's worth at the edges).
        assert!((s.loss - 0.02).abs() < 0.006, "{}", s.loss);
        assert!(rr.block.unwrap().fraction_lost > 0);
    }
    // The smoothed rate heads for eq.(2) at l = 0.02, R = 0.1 s: far below loss-free growth.
    let last = reports.last().unwrap().2.rate.unwrap();
    let target = eq2_bytes_per_s(P as f64, 0.1, 0.02);
    assert!((last / target - 1.0).abs() < 0.15, "{last} vs {target}");
}

/// With `lossy_increase = "never"` a lossy interval never raises r. One loss every 500
/// packets (5 s) at RTT 100 ms gives l ≈ 1/200–1/600 per interval, an eq.(2) rate of
/// 170–300 kB/s, above the r of the first minute (12.5 kB/s + 9.2 kB/s per loss-free report):
/// by default (eq.(2) as it comes) such an interval lifts r toward it.
#[test]
fn with_never_a_lossy_interval_never_raises_the_rate() {
    let never = AsmpConfig { lossy_increase: LossyIncrease::Never, ..AsmpConfig::default() };
    let mut r = AsmpReceiver::new(&never, receiver_ssrc(0), P, Instant::ZERO, None, rng("r0"));
    let reports = run_receiver(&mut r, 60_000, |_| 30, |seq| seq % 500 == 499);
    let (mut lossy, mut tempting) = (0, 0);
    for w in reports.windows(2) {
        let (before, after) = (w[0].2.rate.unwrap(), w[1].2.rate.unwrap());
        if w[1].1.rate.unwrap().loss > 0 {
            lossy += 1;
            tempting += (eq2_bytes_per_s(P as f64, 0.1, w[1].2.loss) > before) as u32;
            assert!(after <= before, "a lossy interval raised r: {before} → {after}");
        } else {
            assert!(after > before, "loss-free intervals still raise it: {before} → {after}");
        }
    }
    assert!(lossy >= 5 && tempting >= 3, "{lossy} lossy intervals, {tempting} with eq.(2) above r");
}

/// One sender with a maximum rate (400 kb/s = 50 kB/s) and one receiver on an idle path (RTT
/// 160 ms): without loss r climbs by 0.9·P/RTT ≈ 5.7 kB/s per report from the 12.5 kB/s the
/// sender starts at, reaches the sender's maximum within ~7 reports and then stays there: the
/// receiver's r never exceeds the maximum the sender advertises in its session reports.
#[test]
fn the_receivers_rate_never_exceeds_the_senders_advertised_maximum() {
    let cfg = AsmpConfig { max_rate_bps: Some(400_000), ..AsmpConfig::default() };
    let max = 50_000.0;
    let s = AsmpSender::new(&cfg, crate::proto::Application::Bulk, P, 1, Instant::ZERO, None, rng("s")).unwrap();
    let rs = vec![AsmpReceiver::new(&cfg, receiver_ssrc(0), P, Instant::ZERO, None, rng("r0"))];
    let mut net = Fanout::new(s, rs, &[millis(80)], |_, _| false);
    let (mut reports, mut at_max) = (0, 0);
    for t in 1..=3000 {
        net.run_until(ms(t * 100));
        let st = net.rs[0].state();
        if st.reports_sent > reports {
            reports = st.reports_sent;
            if let Some(r) = st.rate {
                assert!(r <= max, "r = {r} B/s above the sender's maximum {max} B/s after {reports} reports");
                at_max += (r == max) as u32;
            }
        }
        assert!(net.s.rate().as_bps() <= 400_000);
    }
    assert!(reports >= 50 && at_max * 2 > reports as u32, "{at_max} of {reports} reports at the maximum");
}

/// Three receivers of one sender (through the fan-out harness): two near and lossless, one far
/// and lossy. The sender's X is the minimum of the latest reports, the far receiver's.
#[test]
fn sender_follows_the_slowest_receiver() {
    let cfg = AsmpConfig::default();
    let s = AsmpSender::new(&cfg, crate::proto::Application::Bulk, P, 3, Instant::ZERO, None, rng("s")).unwrap();
    let rs: Vec<AsmpReceiver> = (0..3)
        .map(|i| AsmpReceiver::new(&cfg, receiver_ssrc(i), P, Instant::ZERO, None, rng(&format!("r{i}"))))
        .collect();
    let mut net = Fanout::new(s, rs, &[millis(10), millis(40), millis(10)], |i, seq| i == 1 && seq % 50 == 49);
    let mut checked = 0;
    for t in (20..=300).step_by(20) {
        net.run_until(ms(t * 1000));
        let peers: Vec<PeerState> = (0..3).map(|i| net.s.peer(PeerId(i)).unwrap()).collect();
        let Some(min) = peers.iter().filter_map(|p| p.rate).min_by(f64::total_cmp) else { continue };
        // X = min of the latest reports, clamped to [100 kb/s, ∞).
        assert_eq!(net.s.rate().as_bps(), (cfg.clamp_bytes_per_s(min) * 8.0).round() as u64, "at {t} s");
        if peers.iter().all(|p| p.rate.is_some()) && t >= 100 {
            assert_eq!(peers[1].rate, Some(min), "at {t} s the far lossy receiver is the slowest: {peers:?}");
            assert!(peers[0].rate.unwrap() > min && peers[2].rate.unwrap() > min);
            // RTTs measured from LSR/DLSR: 20 ms and 80 ms within the 1/65536 s resolution.
            let rtt = |i: usize| peers[i].rtt.unwrap().as_secs_f64();
            assert!((rtt(0) - 0.02).abs() < 1e-4 && (rtt(1) - 0.08).abs() < 1e-4, "{peers:?}");
            checked += 1;
        }
    }
    assert!(checked >= 8, "{checked}");
    // The receivers' own view agrees: the far one has the lowest rate.
    let rates: Vec<f64> = net.rs.iter().map(|r| r.state().rate.unwrap()).collect();
    assert!(rates[1] < rates[0] && rates[1] < rates[2], "{rates:?}");
    assert!(net.events.iter().any(|(_, e)| matches!(e, Event::RateChanged { .. })));
}

#[test]
fn silent_receivers_time_out_of_the_minimum() {
    let cfg = AsmpConfig::default();
    let s = AsmpSender::new(&cfg, crate::proto::Application::Bulk, P, 2, Instant::ZERO, None, rng("s")).unwrap();
    let rs: Vec<AsmpReceiver> = (0..2)
        .map(|i| AsmpReceiver::new(&cfg, receiver_ssrc(i), P, Instant::ZERO, None, rng(&format!("r{i}"))))
        .collect();
    // Receiver 1 loses one packet in 5: it limits X...
    let mut net = Fanout::new(s, rs, &[millis(10), millis(10)], |i, seq| i == 1 && seq % 5 == 0);
    net.run_until(ms(60_000));
    let p = (net.s.peer(PeerId(0)).unwrap(), net.s.peer(PeerId(1)).unwrap());
    assert!(p.1.rate.unwrap() < p.0.rate.unwrap());
    assert_eq!(net.s.rate().as_bps(), (p.1.rate.unwrap() * 8.0).round() as u64);
    // ...then a sender that hears nothing more from receiver 1 forgets it after the member
    // time-out: here, by feeding the sender only receiver 0's reports from a copy of the state.
    let mut s = net.s;
    let timeout_over = ms(60_000 + 30_000);
    let mut r0 = net.rs.swap_remove(0);
    let mut now = ms(60_000);
    while now < timeout_over {
        now += millis(100);
        r0.handle_timeout(now);
        for t in drain(&mut r0, now) {
            s.handle_datagram(now, Datagram { from: PeerId(0), bytes: t.header.as_slice(), virtual_payload: 0 })
                .unwrap();
        }
        s.handle_timeout(now);
        let _ = drain(&mut s, now);
    }
    let r0_rate = s.peer(PeerId(0)).unwrap().rate.unwrap();
    assert_eq!(s.rate().as_bps(), (r0_rate * 8.0).round() as u64, "receiver 1 no longer limits X");
}

#[test]
fn build_and_configuration() {
    let members: Vec<crate::proto::registry::ReceiverSpec> = vec![Default::default(); 8];
    let ctx = |receivers| crate::proto::FlowContext {
        app: crate::proto::Application::Bulk,
        packet_size: DataSize::from_bytes(1018),
        start: Instant::ZERO,
        stop: None,
        receivers,
        members: &members[..receivers as usize],
        rng: &|name| RngStreams::new(1).stream(name),
    };
    let cfg = crate::proto::registry::defaults("asmp").expect("registered");
    assert_eq!(cfg.reach(), crate::proto::registry::Reach::Multicast);
    let flow = cfg.build(ctx(4)).expect("builds");
    assert_eq!(flow.receivers.len(), 4);
    assert!(build(&AsmpConfig::default(), ctx(0)).is_err());
    let small = crate::proto::FlowContext { packet_size: DataSize::from_bytes(12), ..ctx(1) };
    assert!(build(&AsmpConfig::default(), small).err().unwrap().contains("12-byte"));
    for (c, field) in [
        (AsmpConfig { gamma_unloaded: 1.5, ..Default::default() }, "gamma_unloaded"),
        (AsmpConfig { gamma_congested: -0.1, ..Default::default() }, "gamma_congested"),
        (AsmpConfig { cj_long_weight: 0.0, ..Default::default() }, "cj_long_weight"),
        (AsmpConfig { rtt_weight: 2.0, ..Default::default() }, "rtt_weight"),
        (AsmpConfig { min_rate_bps: 0, ..Default::default() }, "min_rate_bps"),
        (AsmpConfig { max_rate_bps: Some(1), ..Default::default() }, "max_rate_bps"),
        (AsmpConfig { initial_rate_bps: 0, ..Default::default() }, "initial_rate_bps"),
        (AsmpConfig { session_bandwidth_bps: 0, ..Default::default() }, "session_bandwidth"),
        (AsmpConfig { clock_rate_hz: 0, ..Default::default() }, "clock_rate_hz"),
    ] {
        assert!(c.validate().unwrap_err().contains(field), "{field}");
    }
}

// ---------------------------------------------------------------------------------------------
// Arbitrary input

#[derive(Default)]
struct AsmpInvariants;

impl Invariants<AsmpSender, AsmpReceiver> for AsmpInvariants {
    fn sender_sent(&mut self, _: &AsmpSender, t: &Transmit) -> Result<(), TestCaseError> {
        prop_assert!(ToReceiver::parse(t.header.as_slice(), t.wire_size().as_bytes() as usize).is_ok());
        Ok(())
    }
    fn receiver_sent(&mut self, _: &AsmpReceiver, t: &Transmit) -> Result<(), TestCaseError> {
        prop_assert!(ReceiverReport::parse(t.header.as_slice()).is_ok());
        Ok(())
    }
    fn after_step(&mut self, s: &AsmpSender, r: &AsmpReceiver) -> Result<(), TestCaseError> {
        prop_assert!(s.rate().as_bps() >= 100_000);
        if let Some(x) = r.state().rate {
            prop_assert!(x.is_finite() && x > 0.0, "{}", x);
        }
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    /// The rate rule over arbitrary sequences of intervals (loss ratio, lossy or not, state)
    /// and RTTs, under either decrease rule and every `lossy_increase`: r never exceeds the
    /// ceiling (the sender's advertised maximum); a lossy interval raises r by at most γ·P/RTT
    /// with `step` and not at all with `never`.
    #[test]
    fn the_rate_rule_respects_the_ceiling_and_the_lossy_bound(
        r0 in 1.0f64..1e7,
        ceiling in 1e3f64..1e7,
        immediate: bool,
        lossy_increase in prop_oneof![Just(LossyIncrease::Equation), Just(LossyIncrease::Step), Just(LossyIncrease::Never)],
        steps in proptest::collection::vec((0.0f64..=1.0, any::<bool>(), any::<bool>(), 0.001f64..3.0), 1..200),
    ) {
        let decrease = if immediate { Decrease::Immediate } else { Decrease::Smoothed };
        let cfg = AsmpConfig { decrease, lossy_increase, ..AsmpConfig::default() };
        let mut r = r0.min(ceiling);
        for (loss, lossy, congested, rtt) in steps {
            let next = update(&cfg, r, P as f64, rtt, Interval { loss, lossy, congested }, ceiling);
            prop_assert!(next.is_finite() && next > 0.0, "{} → {}", r, next);
            prop_assert!(next <= ceiling, "{} → {} above the ceiling {}", r, next, ceiling);
            let bound = match (lossy, lossy_increase) {
                (true, LossyIncrease::Never) => r,
                (true, LossyIncrease::Step) => r + cfg.gamma(congested) * P as f64 / rtt,
                _ => f64::INFINITY,
            };
            prop_assert!(next <= bound * (1.0 + 1e-12), "a lossy interval (l = {}) raised r: {} → {}", loss, r, next);
            r = next;
        }
    }

    #[test]
    fn arbitrary_network_keeps_state_sane(ops in net_ops(Clock { max_advance: millis(3000), max_rewind: millis(50) }, 1..400)) {
        let cfg = AsmpConfig::default();
        let mut s = AsmpSender::new(&cfg, crate::proto::Application::Bulk, P, 1, Instant::ZERO, None, rng("s")).unwrap();
        let mut r = AsmpReceiver::new(&cfg, receiver_ssrc(0), P, Instant::ZERO, None, rng("r"));
        drive_network(&mut s, &mut r, &ops, &mut AsmpInvariants)?;
    }

    #[test]
    fn endpoints_never_panic_on_random_bytes((bytes, extra) in garbage()) {
        let cfg = AsmpConfig::default();
        let mut r = AsmpReceiver::new(&cfg, receiver_ssrc(0), P, Instant::ZERO, None, rng("r"));
        feed_garbage(&mut r, ms(1), &bytes, extra, Rejections::Counted)?;
        let mut s = AsmpSender::new(&cfg, crate::proto::Application::Bulk, P, 1, Instant::ZERO, None, rng("s")).unwrap();
        feed_garbage(&mut s, ms(1), &bytes, extra, Rejections::Counted)?;
    }
}

/// One bulk sender and one receiver on an idle path (80 ms each way, nothing else on it):
/// (congested, rate) after each of the receiver's reports over `secs` seconds.
fn idle_path(cfg: &AsmpConfig, secs: u64) -> Vec<(bool, f64)> {
    let s = AsmpSender::new(cfg, crate::proto::Application::Bulk, P, 1, Instant::ZERO, None, rng("s")).unwrap();
    let rs = vec![AsmpReceiver::new(cfg, receiver_ssrc(0), P, Instant::ZERO, None, rng("r0"))];
    let mut net = Fanout::new(s, rs, &[millis(80)], |_, _| false);
    let mut out = vec![];
    for t in 1..=secs * 10 {
        net.run_until(ms(t * 100));
        let st = net.rs[0].state();
        if st.reports_sent as usize > out.len() {
            out.push((st.congested, st.rate.unwrap_or(0.0)));
        }
    }
    out
}

/// On an idle path the cumulative jitter is constant but for the 90 kHz truncation of each
/// packet's sending time in its RTP timestamp: every report reads UNLOADED (the paper's
/// "almost constant" CJ) and r climbs by exactly 0.9·P/RTT. With the strict comparison
/// (resolution 0) the truncation error's mean, which moves with the packet spacing, reads as
/// rising delay at most reports.
#[test]
fn an_idle_path_reads_unloaded_at_every_report() {
    let reports = idle_path(&AsmpConfig::default(), 300);
    assert!(reports.len() >= 50, "{} reports", reports.len());
    let congested = reports.iter().filter(|r| r.0).count();
    assert_eq!(congested, 0, "CONGESTED at {congested} of {} reports", reports.len());
    // RTT 160 ms (measured from LSR/DLSR, 1/65536 s resolution): 0.9·P/RTT per report.
    let step = 0.9 * P as f64 / 0.16;
    for w in reports.windows(2).skip(2) {
        assert!(((w[1].1 - w[0].1) / step - 1.0).abs() < 1e-3, "{} → {}", w[0].1, w[1].1);
    }
    let strict = idle_path(&AsmpConfig { cj_resolution_ticks: 0.0, ..AsmpConfig::default() }, 300);
    let n = strict.iter().filter(|r| r.0).count();
    assert!(n * 2 > strict.len(), "strict comparison: CONGESTED at {n} of {} reports", strict.len());
    // With an exact clock (the simulator's ns) there is nothing to resolve: strict is UNLOADED.
    let exact = AsmpConfig { cj_resolution_ticks: 0.0, clock_rate_hz: 1_000_000_000, ..AsmpConfig::default() };
    assert!(idle_path(&exact, 300).iter().all(|r| !r.0));
}

/// What [`paced_video_on_a_flat_path`] saw: the receiver's state after each report, the
/// longest wait of a frame in the sender buffer, and whether the RTP timestamps kept RTP's
/// rules (one per frame, never backwards).
struct PacedRun {
    reports: Vec<ReceiverState>,
    max_wait: Duration,
    rtp_ok: bool,
}

/// A 400 kbit/s CBR video (2000 B frames at 25 fps: 2 packets, 404.8 kbit/s on the wire) from a
/// sender whose rate X stays at 400 kbit/s (its receiver's reports are not delivered), to one
/// receiver 40 ms away on a path that adds no delay of its own: the backlog grows by 600 B/s,
/// so each frame waits 12 ms longer per second in the paced sender buffer (under the buffer's
/// 1 s age limit for `secs` ≤ 75), while every packet's one-way delay is 40 ms.
fn paced_video_on_a_flat_path(stamp: FrameTimestamp, secs: u64) -> PacedRun {
    use crate::media::config::{build_stream, PlayoutConfigSpec, VideoConfig, VideoModel};
    let cfg = AsmpConfig { frame_timestamp: stamp, initial_rate_bps: 400_000, ..AsmpConfig::default() };
    let video = VideoConfig {
        model: VideoModel::Cbr { rate_bps: 400_000 },
        fps: 25.0,
        gop: "IPPP".into(),
        layers_bps: vec![],
        streams_bps: vec![],
        playout: PlayoutConfigSpec::FirstArrival { delay_ns: 1_000_000_000 },
        delayed_threshold_ns: 75_000_000,
        display_order: false,
    };
    let streams = RngStreams::new(1);
    let stream = build_stream(&video, Instant::ZERO, &|| streams.stream("video")).unwrap();
    let app = crate::proto::Application::Video(stream);
    let mut s = AsmpSender::new(&cfg, app, P, 1, Instant::ZERO, None, rng("s")).unwrap();
    let mut r = AsmpReceiver::new(&cfg, receiver_ssrc(0), P, Instant::ZERO, None, rng("r0"));
    // The RTT (80 ms) as the sender would echo it, so that every report carries a rate.
    receive(&mut r, Instant::ZERO, ToReceiver::rtt(SENDER_SSRC, receiver_ssrc(0), 80_000).as_slice(), 0).unwrap();
    let (one_way, end) = (millis(40), ms(secs * 1000));
    let mut in_flight: std::collections::VecDeque<(Instant, Transmit)> = Default::default();
    let mut run = PacedRun { reports: vec![], max_wait: Duration::ZERO, rtp_ok: true };
    let mut last_stamp: Option<(u32, u32)> = None;
    let mut now = Instant::ZERO;
    loop {
        while let Some(t) = s.poll_transmit(now) {
            if t.meta.media.is_media() {
                let ready = ms(40 * t.meta.media.frame as u64);
                run.max_wait = run.max_wait.max(now.saturating_since(ready));
                let Ok(ToReceiver::Data(h)) = ToReceiver::parse(t.header.as_slice(), t.wire_size().as_bytes() as usize)
                else {
                    panic!("a data packet that does not parse")
                };
                let ts = h.timestamp;
                let frame = t.meta.media.frame;
                run.rtp_ok &= match last_stamp {
                    Some((f, prev)) if f == frame => prev == ts,
                    Some((_, prev)) => ts >= prev,
                    None => true,
                };
                last_stamp = Some((frame, ts));
            }
            in_flight.push_back((now + one_way, t));
        }
        while r.poll_transmit(now).is_some() {
            run.reports.push(r.state());
        }
        let timers = [s.poll_timeout(), r.poll_timeout(), in_flight.front().map(|f| f.0)];
        match timers.into_iter().flatten().min() {
            Some(t) if t <= end => now = now.max(t),
            _ => return run,
        }
        while in_flight.front().is_some_and(|f| f.0 <= now) {
            let (_, t) = in_flight.pop_front().expect("checked");
            deliver(&mut r, now, &t).unwrap();
        }
        if s.poll_timeout().is_some_and(|t| t <= now) {
            s.handle_timeout(now);
        }
        if r.poll_timeout().is_some_and(|t| t <= now) {
            r.handle_timeout(now);
        }
    }
}

/// §6.4's G_i is "the sending time of frame i": frames that wait longer and longer in the paced
/// sender buffer, on a path whose delay is flat, read UNLOADED at every report and r climbs by
/// exactly 0.9·P/RTT per report. Stamped with the frame's ready time (the option `ready`, and
/// vidcc's behaviour before 2026-11-27) the growing wait reads as rising network delay:
/// CONGESTED at every report after the first, a climb of 0.2·P/RTT.
#[test]
fn a_frame_waiting_in_the_pacing_buffer_on_a_flat_path_reads_unloaded() {
    let step = |gamma: f64| gamma * P as f64 / 0.08;
    let rises = |reports: &[ReceiverState]| -> Vec<f64> {
        reports.windows(2).map(|w| w[1].rate.unwrap() - w[0].rate.unwrap()).collect()
    };
    let run = paced_video_on_a_flat_path(FrameTimestamp::FirstSend, 60);
    assert!(run.rtp_ok, "a frame's packets share one timestamp and timestamps never go backwards");
    assert!(run.max_wait > millis(500), "frames waited at most {:?}", run.max_wait);
    assert!(run.reports.len() >= 10, "{} reports", run.reports.len());
    let congested = run.reports.iter().filter(|s| s.congested).count();
    assert_eq!(congested, 0, "CONGESTED at {congested} of {} reports", run.reports.len());
    for d in rises(&run.reports) {
        assert!((d / step(0.9) - 1.0).abs() < 1e-9, "a rise of {d} B/s, not 0.9·P/RTT = {} B/s", step(0.9));
    }
    assert_eq!(AsmpConfig::default().frame_timestamp, FrameTimestamp::FirstSend);

    let ready = paced_video_on_a_flat_path(FrameTimestamp::Ready, 60);
    assert!(ready.rtp_ok && ready.max_wait > millis(500));
    assert!(ready.reports.iter().skip(1).all(|s| s.congested), "ready time: {:?}", ready.reports);
    for d in rises(&ready.reports) {
        assert!((d / step(0.2) - 1.0).abs() < 1e-9, "a rise of {d} B/s, not 0.2·P/RTT = {} B/s", step(0.2));
    }
}

/// Congestion states at the reports of a receiver fed 2-packet frames every 40 ms for 60 s: the
/// first packet of each frame stamped with its send time and arriving 40 ms later, the second
/// (the marker) following it by a spacing that grows from 0 to 30 ms (the frame's own pacing
/// time growing, as when frames grow faster than the sending rate); the path's delay is flat.
fn growing_frame_spread(arrival: FrameArrival) -> Vec<bool> {
    let cfg = AsmpConfig { frame_arrival: arrival, ..AsmpConfig::default() };
    let mut r = AsmpReceiver::new(&cfg, receiver_ssrc(0), P, Instant::ZERO, None, rng("r0"));
    receive(&mut r, Instant::ZERO, ToReceiver::rtt(SENDER_SSRC, receiver_ssrc(0), 80_000).as_slice(), 0).unwrap();
    let mut states = vec![];
    let mut fire = |r: &mut AsmpReceiver, until: Instant| {
        while let Some(t) = r.poll_timeout().filter(|&t| t <= until) {
            r.handle_timeout(t);
            if !drain(r, t).is_empty() {
                states.push(r.state().congested);
            }
        }
    };
    for k in 0..1500u64 {
        let sent = 40 * k;
        let spread = sent / 2000; // ms: 0 … 29
        for (i, at) in [(0u16, sent + 40), (1, sent + 40 + spread)] {
            fire(&mut r, ms(at));
            let h = data_header(i == 1, (2 * k) as u16 + i, (sent * 90) as u32, SENDER_SSRC).emit();
            receive(&mut r, ms(at), h.as_slice(), P - 12).unwrap();
        }
    }
    fire(&mut r, ms(60_000));
    states
}

/// A_i is the arrival of the frame's last packet by default \[C\]: a frame's growing pacing time
/// then reads as rising delay. With `frame_arrival = first_packet`, A_i − G_i is the first
/// packet's one-way delay, flat here: UNLOADED at every report.
#[test]
fn the_frame_arrival_option_excludes_the_frames_own_pacing_time() {
    let last = growing_frame_spread(FrameArrival::LastPacket);
    let first = growing_frame_spread(FrameArrival::FirstPacket);
    assert!(last.len() >= 10 && first.len() == last.len(), "{} / {} reports", last.len(), first.len());
    assert!(last.iter().filter(|&&c| c).count() * 2 > last.len(), "last packet: {last:?}");
    assert!(first.iter().all(|&c| !c), "first packet: {first:?}");
    assert_eq!(AsmpConfig::default().frame_arrival, FrameArrival::LastPacket);
}
