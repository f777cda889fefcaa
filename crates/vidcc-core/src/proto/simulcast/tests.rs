//! The shared replicated-stream machinery: wire formats (round trips, garbage, one scheme never
//! taking the other's packets), the endpoints under an arbitrary network, and the escalating
//! poll's feedback bound with 1,000 receivers (for both schemes).

use proptest::prelude::*;

use super::wire::{data_header_bytes, DataHeader, Report, Scheme, ToReceiver, MAX_GROUPS, POLL_ALL};
use super::{ReceiverRules, SimulcastReceiver, SimulcastSender, StreamRules};
use crate::endpoint::Endpoint;
use crate::proto::dsg::{DsgConfig, DsgReceiverRules, DsgStreams};
use crate::proto::irfm::{IrfmConfig, IrfmReceiverRules, IrfmStreams};
use crate::proto::testing::*;
use crate::rng::RngStreams;
use crate::time::{Duration, Instant};
use crate::units::DataSize;
use crate::wire::rtcp::ReportBlock;
use crate::wire::WireError;

fn secs(x: f64) -> Instant {
    Instant::from_nanos((x * 1e9) as u64)
}

fn dsg_pair(cfg: &DsgConfig, members: u32) -> (SimulcastSender<DsgStreams>, SimulcastReceiver<DsgReceiverRules>) {
    let s = SimulcastSender::new(
        cfg.core(),
        DsgStreams::new(cfg),
        DataSize::from_bytes(1000),
        Instant::ZERO,
        None,
        members,
    )
    .unwrap();
    let r = SimulcastReceiver::new(
        cfg.core(),
        DsgReceiverRules::new(cfg),
        0,
        0,
        Instant::ZERO,
        RngStreams::new(1).stream("r"),
    );
    (s, r)
}

fn irfm_pair(cfg: &IrfmConfig, members: u32) -> (SimulcastSender<IrfmStreams>, SimulcastReceiver<IrfmReceiverRules>) {
    let s = SimulcastSender::new(
        cfg.core(),
        IrfmStreams::new(cfg),
        DataSize::from_bytes(1000),
        Instant::ZERO,
        None,
        members,
    )
    .unwrap();
    let rules = IrfmReceiverRules::new(cfg, 1000.0);
    let r = SimulcastReceiver::new(cfg.core(), rules, 0, 0, Instant::ZERO, RngStreams::new(1).stream("r"));
    (s, r)
}

fn header(n: u8) -> DataHeader {
    let mut rates_bps = [0; MAX_GROUPS];
    rates_bps[..n as usize].iter_mut().enumerate().for_each(|(j, r)| *r = 100_000 * (j as u32 + 1));
    DataHeader {
        seq: 7,
        timestamp_us: 1234,
        ssrc: 9,
        group: n - 1,
        round: 3,
        poll_ppm: 250_000,
        echo: None,
        n,
        rates_bps,
    }
}

fn report() -> Report {
    let block = ReportBlock {
        source_ssrc: 9,
        fraction_lost: 3,
        cumulative_lost: 4,
        extended_highest_seq: 99,
        jitter: 0,
        lsr: 5,
        dlsr: 6,
    };
    Report { ssrc: 2, block, value: 2, loss_ppb: 60_000_000, position: 1, round: 3 }
}

#[test]
fn data_header_is_36_plus_4n_bytes_and_each_field_is_checked() {
    let h = header(3);
    let b = h.emit(Scheme::Dsg);
    assert_eq!(b.len(), data_header_bytes(3));
    assert_eq!(DataHeader::parse(b.as_slice(), b.len() + 900, Scheme::Dsg), Ok(h));
    // The other scheme's profile is not ours.
    assert!(matches!(DataHeader::parse(b.as_slice(), b.len(), Scheme::Irfm), Err(WireError::Inconsistent(_))));
    let mutate = |at: usize, v: u8| {
        let mut x = b.as_slice().to_vec();
        x[at] = v;
        DataHeader::parse(&x, x.len(), Scheme::Dsg)
    };
    assert!(matches!(mutate(16, 3), Err(WireError::Inconsistent(_))), "stream beyond the count");
    assert!(matches!(mutate(17, 6), Err(WireError::Inconsistent(_))), "six streams");
    assert!(matches!(mutate(18, 2), Err(WireError::Inconsistent(_))), "unknown flag");
    assert!(matches!(mutate(19, 1), Err(WireError::Inconsistent(_))), "reserved byte");
    assert!(matches!(mutate(24, 0xff), Err(WireError::Inconsistent(_))), "poll above one");
    assert!(matches!(mutate(31, 1), Err(WireError::Inconsistent(_))), "echo fields without the flag");
    let mut zero = b.as_slice().to_vec();
    zero[36..40].copy_from_slice(&[0; 4]);
    assert!(matches!(DataHeader::parse(&zero, zero.len(), Scheme::Dsg), Err(WireError::Inconsistent(_))), "zero rate");
    assert!(DataHeader::parse(&b.as_slice()[..40], 40, Scheme::Dsg).is_err(), "truncated");
}

#[test]
fn report_is_an_rr_and_an_app_of_the_scheme() {
    let r = report();
    let b = r.emit(Scheme::Irfm);
    assert_eq!(b.len(), super::wire::REPORT_BYTES);
    assert_eq!(Report::parse(b.as_slice(), Scheme::Irfm), Ok(r));
    assert!(Report::parse(b.as_slice(), Scheme::Dsg).is_err(), "IRFM's APP name is not DSG's");
    let mutate = |at: usize, v: u8| {
        let mut x = b.as_slice().to_vec();
        x[at] = v;
        Report::parse(&x, Scheme::Irfm)
    };
    assert!(matches!(mutate(39, 8), Err(WireError::Inconsistent(_))), "APP SSRC differs");
    assert!(matches!(mutate(48, 0xff), Err(WireError::Inconsistent(_))), "loss above 1");
    assert!(matches!(mutate(52, 5), Err(WireError::Inconsistent(_))), "stream beyond 5");
    assert!(matches!(mutate(53, 1), Err(WireError::Inconsistent(_))), "reserved byte");
    assert!(Report::parse(&b.as_slice()[..50], Scheme::Irfm).is_err(), "truncated");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_and_endpoints_count_garbage((bytes, extra) in garbage(), irfm: bool) {
        for scheme in [Scheme::Dsg, Scheme::Irfm] {
            let _ = DataHeader::parse(&bytes, bytes.len() + extra as usize, scheme);
            let _ = ToReceiver::parse(&bytes, bytes.len() + extra as usize, scheme);
            let _ = Report::parse(&bytes, scheme);
        }
        if irfm {
            let (mut s, mut r) = irfm_pair(&IrfmConfig::default(), 2);
            feed_garbage(&mut s, secs(1.0), &bytes, extra, Rejections::Counted)?;
            r.handle_timeout(Instant::ZERO);
            feed_garbage(&mut r, secs(1.0), &bytes, extra, Rejections::Counted)?;
        } else {
            let (mut s, mut r) = dsg_pair(&DsgConfig::default(), 2);
            feed_garbage(&mut s, secs(1.0), &bytes, extra, Rejections::Counted)?;
            r.handle_timeout(Instant::ZERO);
            feed_garbage(&mut r, secs(1.0), &bytes, extra, Rejections::Counted)?;
        }
    }

    #[test]
    fn data_headers_round_trip(seq: u16, ts: u32, group in 0u8..5, n in 1u8..=5, echo: Option<(u32, u32)>,
                               rates in proptest::array::uniform5(1u32..), round: u32, poll in 0u32..=POLL_ALL, irfm: bool) {
        let mut rates_bps = [0; MAX_GROUPS];
        rates_bps[..n as usize].copy_from_slice(&rates[..n as usize]);
        let h = DataHeader { seq, timestamp_us: ts, ssrc: 1, group: group % n, round, poll_ppm: poll, echo, n, rates_bps };
        let scheme = if irfm { Scheme::Irfm } else { Scheme::Dsg };
        let b = h.emit(scheme);
        prop_assert_eq!(DataHeader::parse(b.as_slice(), b.len(), scheme), Ok(h));
    }

    #[test]
    fn reports_round_trip(value: u32, loss in 0u32..=1_000_000_000, position in 0u8..5, round: u16, irfm: bool) {
        let r = Report { value, loss_ppb: loss, position, round, ..report() };
        let scheme = if irfm { Scheme::Irfm } else { Scheme::Dsg };
        prop_assert_eq!(Report::parse(r.emit(scheme).as_slice(), scheme), Ok(r));
    }
}

// ---------------------------------------------------------------------------------------------
// The endpoints under an arbitrary network

struct Sane([f64; 2]);

impl<S: StreamRules, R: ReceiverRules> Invariants<SimulcastSender<S>, SimulcastReceiver<R>> for Sane {
    fn after_step(&mut self, s: &SimulcastSender<S>, r: &SimulcastReceiver<R>) -> Result<(), TestCaseError> {
        for rate in s.rates() {
            prop_assert!(rate.is_finite() && *rate >= self.0[0] && *rate <= self.0[1], "rate {}", rate);
        }
        prop_assert!(r.position() < s.rates().len());
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_network_keeps_state_sane(
        ops in net_ops(Clock { max_advance: millis(2000), max_rewind: millis(50) }, 1..300),
        irfm: bool,
    ) {
        if irfm {
            let cfg = IrfmConfig::default();
            let (mut s, mut r) = irfm_pair(&cfg, 1);
            drive_network(&mut s, &mut r, &ops, &mut Sane(cfg.range()))?;
        } else {
            let cfg = DsgConfig::default();
            let (mut s, mut r) = dsg_pair(&cfg, 1);
            drive_network(&mut s, &mut r, &ops, &mut Sane([50e3, 1e6]))?;
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Feedback per round with many receivers

/// Receiver i loses data packet `seq` with probability `share(i)` (a hash, deterministic).
fn lossy(share: fn(usize) -> f64) -> impl Fn(usize, u64) -> bool {
    move |i, seq| {
        let h = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ seq.wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let h = (h ^ (h >> 31)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((h >> 11) as f64 / (1u64 << 53) as f64) < share(i)
    }
}

/// A third of the receivers lose nothing, a third 3 %, a third 10 %.
fn mixed(i: usize) -> f64 {
    [0.0, 0.03, 0.10][i % 3]
}

/// (mean, max) reports per round after the first round of a `n`-receiver DSG session (low bands,
/// so that the test's fan-out stays small), and the rounds seen.
fn dsg_feedback(n: usize) -> (f64, u32, usize) {
    let cfg = DsgConfig {
        bands_bps: vec![[16_000, 32_000], [32_000, 64_000], [64_000, 128_000]],
        initial_rates_bps: vec![16_000, 32_000, 64_000],
        ..DsgConfig::default()
    };
    let s = SimulcastSender::new(
        cfg.core(),
        DsgStreams::new(&cfg),
        DataSize::from_bytes(500),
        Instant::ZERO,
        None,
        n as u32,
    )
    .unwrap();
    let rs = (0..n)
        .map(|i| {
            let rng = RngStreams::new(7).stream(&format!("r{i}"));
            SimulcastReceiver::new(cfg.core(), DsgReceiverRules::new(&cfg), i as u32, 0, Instant::ZERO, rng)
        })
        .collect();
    let mut f = Fanout::new(s, rs, &vec![Duration::from_millis(20); n], lossy(mixed));
    f.run_until(secs(60.0));
    let log = &f.s.report_log()[1..];
    let mean = log.iter().map(|&x| f64::from(x)).sum::<f64>() / log.len() as f64;
    (mean, log.iter().copied().max().unwrap_or(0), log.len())
}

fn irfm_feedback(n: usize) -> (f64, u32, usize) {
    let cfg = IrfmConfig {
        rate_range_bps: [16_000, 128_000],
        initial_rates_bps: vec![16_000, 64_000],
        ..IrfmConfig::default()
    };
    let s = SimulcastSender::new(
        cfg.core(),
        IrfmStreams::new(&cfg),
        DataSize::from_bytes(500),
        Instant::ZERO,
        None,
        n as u32,
    )
    .unwrap();
    let rs = (0..n)
        .map(|i| {
            let rng = RngStreams::new(7).stream(&format!("r{i}"));
            SimulcastReceiver::new(cfg.core(), IrfmReceiverRules::new(&cfg, 500.0), i as u32, 0, Instant::ZERO, rng)
        })
        .collect();
    let mut f = Fanout::new(s, rs, &vec![Duration::from_millis(20); n], lossy(mixed));
    f.run_until(secs(60.0));
    let log = &f.s.report_log()[1..];
    let mean = log.iter().map(|&x| f64::from(x)).sum::<f64>() / log.len() as f64;
    (mean, log.iter().copied().max().unwrap_or(0), log.len())
}

/// The escalating poll keeps feedback per round near K per occupied stream, whatever the group
/// size: with 1,000 receivers no round brings more than 4K per stream (3 streams DSG, 2 IRFM),
/// and the mean barely grows from 100 to 1,000 receivers (without polling it would grow
/// tenfold: every receiver reports every round).
#[test]
fn feedback_per_round_stays_bounded_for_1000_receivers() {
    let k = 10.0;
    for (name, streams, run) in
        [("dsg", 3.0, dsg_feedback as fn(usize) -> (f64, u32, usize)), ("irfm", 2.0, irfm_feedback)]
    {
        let (mean_100, max_100, _) = run(100);
        let (mean_1000, max_1000, rounds) = run(1000);
        eprintln!("{name}: reports per round, 100 receivers mean {mean_100:.1} max {max_100}; 1000: mean {mean_1000:.1} max {max_1000} ({rounds} rounds)");
        assert!(rounds >= 25, "{name}: {rounds} rounds in 60 s");
        assert!(f64::from(max_1000) <= 4.0 * k * streams, "{name}: {max_1000} reports in one round");
        assert!(mean_1000 >= k * 0.5, "{name}: the sender hears too little ({mean_1000:.1} per round)");
        assert!(mean_1000 <= 2.0 * mean_100, "{name}: feedback grows with the group: {mean_100:.1} → {mean_1000:.1}");
    }
}

// --------------------------------------------------------------------------------------------
// The receiver's RTT between echoes

/// Rules that record the RTT the core hands them with each packet.
#[derive(Default)]
struct RecordRtt(Vec<Duration>);

impl ReceiverRules for RecordRtt {
    fn on_packet(&mut self, _now: Instant, _ext_seq: u32, rtt: Duration) {
        self.0.push(rtt);
    }
    fn end_round(&mut self, _now: Instant, _m: &super::RoundMeasure<'_>) -> super::RoundOutcome {
        super::RoundOutcome { value: 0, loss: 0.0, move_to: None }
    }
}

/// The RTT a receiver uses after an echo of 60 ms, for data packets sent every 10 ms whose
/// one-way delay grows from 20 ms (the packet with the echo) by 5 ms a packet.
fn rtts_after_echo(owd_rtt: bool) -> Vec<Duration> {
    let mut cfg = IrfmConfig::default().core();
    cfg.owd_rtt = owd_rtt;
    let mut r = SimulcastReceiver::new(cfg, RecordRtt::default(), 0, 0, Instant::ZERO, RngStreams::new(1).stream("r"));
    r.handle_timeout(Instant::ZERO);
    for k in 0..5u64 {
        let sent = Instant::from_nanos(1_000_000_000 + k * 10_000_000);
        let mut h = header(2);
        h.group = 0;
        h.seq = k as u16;
        h.timestamp_us = (sent.as_nanos() / 1000) as u32;
        h.echo = (k == 0).then_some((0, 60_000));
        let bytes = h.emit(Scheme::Irfm);
        let arrival = sent + Duration::from_millis(20 + 5 * k);
        r.handle_datagram(
            arrival,
            crate::endpoint::Datagram {
                from: crate::endpoint::PeerId(0),
                bytes: bytes.as_slice(),
                virtual_payload: 900,
            },
        )
        .unwrap();
    }
    r.rules().0.clone()
}

#[test]
fn the_echoed_rtt_follows_the_one_way_delay_until_the_next_echo() {
    // R' = R + (D' − D): the forward queue the packets meet after the echo is in the RTT (RFC 4654 §4.3.3).
    let ms: Vec<u64> = rtts_after_echo(true).iter().map(|d| d.as_nanos() / 1_000_000).collect();
    assert_eq!(ms, vec![60, 65, 70, 75, 80]);
    // Without the adjustment: the echo as it came.
    let raw: Vec<u64> = rtts_after_echo(false).iter().map(|d| d.as_nanos() / 1_000_000).collect();
    assert_eq!(raw, vec![60; 5]);
}

#[test]
fn an_srs_ntp_time_reads_in_the_data_timestamps_clock() {
    use super::receiver::{micros32, ntp_micros32};
    use crate::wire::rtcp::ntp_from_ns;
    // Within a microsecond (the NTP fraction truncates), across the 2^32 µs wrap of the data clock.
    for ns in [0u64, 1_234_567_891, 4_294_967_295_000, 4_294_967_296_123_456, 86_400_000_000_000] {
        let a = micros32(Instant::from_nanos(ns));
        let b = ntp_micros32(ntp_from_ns(ns));
        assert!(a.wrapping_sub(b) as i32 <= 1 && b.wrapping_sub(a) as i32 <= 1, "{ns}: {a} vs {b}");
    }
}
