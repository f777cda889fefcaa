//! Unit tests of SSVP's layered adaptation on bare state with explicit time, of its endpoints, the
//! pair over the shared test pipe (clean, and with arbitrary fates), and the shared property
//! driver. The rate controller's: `tests/controller.rs`.

use super::layered::{increase_slope, required_buffer_bytes};
use super::*;
use crate::endpoint::{Endpoint, Event, PacketKind, Transmit};
use crate::media::layers::{LayerRates, LayeredSource};
use crate::media::source::CbrSource;
use crate::media::stream::{SendOrder, StreamSource, VideoStream};
use crate::proto::testing::*;
use crate::proto::Application;
use crate::time::Instant;
use crate::units::{DataRate, DataSize};
use crate::wire::ssvp::{ControlHeader, DataHeader, SsvpPacket};
use crate::wire::WireError;
use proptest::prelude::*;

fn bps(r: DataRate) -> u64 {
    r.as_bps()
}

mod controller;

// ---------------------------------------------------------------------------------------------
// Layered adaptation: Eq. (15), rules (11)+(17), the drop rule, immediate adaptation.

#[test]
fn buffer_rule_worked_example() {
    // docs/papers/ssvp.md §1.2: c̄ = 100 kbit/s, S = 1000 B, RTT = 0.1 s, k = 2, R = 320 kbit/s.
    // λ = 0.31 · 1000 B / 0.01 s² = 31 000 B/s²; C_3 = 37 500 B/s; R = 40 000 B/s.
    let lambda = increase_slope(0.31, 1000.0, millis(100));
    assert!((lambda - 31_000.0).abs() < 1e-6);
    // Literal: (37 500 − 0.125·40 000)² / 62 000 = 32 500² / 62 000 = 17 036 B ≈ 17 packets.
    let p = required_buffer_bytes(37_500.0, 40_000.0, 0.125, lambda);
    assert!((p - 17_036.29).abs() < 0.01, "{p}");
    // Physical: (37 500 − 0.875·40 000)² / 62 000 = 2 500² / 62 000 ≈ 100.8 B.
    let p = required_buffer_bytes(37_500.0, 40_000.0, 0.875, lambda);
    assert!((p - 100.806).abs() < 0.001, "{p}");
    // A-LA-3: a post-loss rate above the new consumption needs no buffer.
    assert_eq!(required_buffer_bytes(37_500.0, 50_000.0, 0.875, lambda), 0.0);
}

fn adaptation(f: impl FnOnce(&mut SsvpLayeredConfig), layers_kbps: &[u64], k: u8) -> LayerAdaptation {
    let mut c = SsvpLayeredConfig { initial_layers: k, ..Default::default() };
    f(&mut c);
    let rates: Vec<f64> = layers_kbps.iter().map(|&r| r as f64 * 1000.0).collect();
    LayerAdaptation::new(&c, &rates)
}

#[test]
fn add_needs_both_rules() {
    // Three layers of 100 kbit/s, k = 2, RTT 100 ms, 1000-byte payloads: P = 17 036 B (above).
    let mut a = adaptation(|_| {}, &[100, 100, 100], 2);
    // Rule (11) fails at R = C_3 = 37 500 B/s exactly (strict >), whatever the buffer.
    assert_eq!(a.check(37_500.0, Some(1_000_000), false, millis(100), 1000.0), None);
    // Rule (11) holds at R = 40 000 B/s but the buffer (17 000 B) is short of 17 036 B.
    assert_eq!(a.check(40_000.0, Some(17_000), false, millis(100), 1000.0), None);
    assert_eq!(a.check(40_000.0, None, false, millis(100), 1000.0), None, "no report: no add");
    assert_eq!(a.layers(), 2);
    assert_eq!(a.check(40_000.0, Some(17_037), false, millis(100), 1000.0), Some(LayerChange::Add));
    assert_eq!(a.layers(), 3);
    // Top layer reached: nothing more to add.
    assert_eq!(a.check(1e9, Some(u64::MAX), false, millis(100), 1000.0), None);
    assert_eq!(a.changes(), (1, 0));
}

#[test]
fn drop_rule_of_the_digest() {
    // k = 2 of 100 kbit/s layers: C_2 = 25 000 B/s. R = 18 750 B/s (150 kbit/s) → deficit
    // 6 250 B/s; λ = 31 000 B/s²; the buffer must hold 6 250² / 62 000 = 630.04 B.
    let mut a = adaptation(|_| {}, &[100, 100, 100], 2);
    assert_eq!(a.check(18_750.0, Some(700), false, millis(100), 1000.0), None);
    assert_eq!(a.check(18_750.0, Some(600), false, millis(100), 1000.0), Some(LayerChange::Drop));
    assert_eq!(a.layers(), 1);
    // The base layer is never dropped.
    assert_eq!(a.check(0.0, Some(0), true, millis(100), 1000.0), None);
    // Underflow: packets of the top layer missed their deadline while R < C_k.
    let mut a = adaptation(|_| {}, &[100, 100, 100], 3);
    assert_eq!(a.check(30_000.0, Some(1_000_000), true, millis(100), 1000.0), Some(LayerChange::Drop));
    // ... but not when R ≥ C_k, nor with the option off.
    let mut a = adaptation(|_| {}, &[100, 100, 100], 3);
    assert_eq!(a.check(38_000.0, Some(1_000_000), true, millis(100), 1000.0), None);
    let mut a = adaptation(|c| c.underflow_drop = false, &[100, 100, 100], 3);
    assert_eq!(a.check(30_000.0, Some(1_000_000), true, millis(100), 1000.0), None);
}

#[test]
fn immediate_adaptation_and_consumption_rules() {
    // Immediate: k = max(1, max{j : C_j ≤ R}); C = 12 500, 25 000, 37 500 B/s.
    let mut a = adaptation(|c| c.policy = LayerPolicy::Immediate, &[100, 100, 100], 1);
    assert_eq!(a.check(31_250.0, None, false, millis(100), 1000.0), Some(LayerChange::Add));
    assert_eq!(a.layers(), 2);
    assert_eq!(a.check(31_250.0, None, false, millis(100), 1000.0), None);
    assert_eq!(a.check(1_000.0, None, false, millis(100), 1000.0), Some(LayerChange::Drop));
    // Unequal layers 100, 200 kbit/s with k = 1: cumulative C_2 = 37 500 B/s; (k+1)·c̄ = 2 · 12 500.
    let a = adaptation(|_| {}, &[100, 200], 1);
    assert_eq!(a.consumption_of(2), 37_500.0);
    let a = adaptation(|c| c.consumption = ConsumptionRule::MeanTimesCount, &[100, 200], 1);
    assert_eq!(a.consumption_of(2), 25_000.0);
}

// ---------------------------------------------------------------------------------------------
// Endpoints.

fn data_of(t: &Transmit) -> DataHeader {
    match SsvpPacket::parse(t.header.as_slice()).unwrap() {
        SsvpPacket::Data(d) => d,
        p => panic!("not data: {p:?}"),
    }
}

fn control_of(t: &Transmit) -> ControlHeader {
    match SsvpPacket::parse(t.header.as_slice()).unwrap() {
        SsvpPacket::Control(c) => c,
        p => panic!("not control: {p:?}"),
    }
}

fn bulk_sender(f: impl FnOnce(&mut SsvpConfig)) -> SsvpSender {
    let mut c = SsvpConfig::default();
    f(&mut c);
    SsvpSender::new(&c, Application::Bulk, DataSize::from_bytes(1000), Instant::ZERO, None, None).unwrap()
}

fn receiver() -> SsvpReceiver {
    SsvpReceiver::new(40, true, None)
}

fn control_packet(ack: u32, congestion: bool, echo_ns: Option<u64>) -> Transmit {
    let c = ControlHeader { length: 40, ack, congestion, echo_ns, buffered_bytes: 0, layers: 0 };
    Transmit { to: crate::Destination::PEER, header: c.emit(), payload_len: 16, meta: crate::PacketMeta::control() }
}

#[test]
fn sender_paces_by_the_rate_and_ships_sto_once_per_rtt() {
    let mut s = bulk_sender(|_| {});
    assert_eq!(events(&mut s), vec![Event::RateChanged { rate: DataRate::from_bps(80_000) }]);
    let p0 = s.poll_transmit(ms(0)).unwrap();
    assert!(s.poll_transmit(ms(0)).is_none());
    // 1000 B at 80 kbit/s: one packet per 100 ms.
    assert_eq!(s.poll_timeout(), Some(ms(100)));
    let d0 = data_of(&p0);
    assert_eq!((d0.seq, d0.length, d0.carries_sto, d0.timestamp_ns), (0, 1000, false, 0));
    assert_eq!(p0.payload_len, 976);
    assert_eq!(p0.meta.kind, PacketKind::Data);
    // The control packet answering it at 50 ms: SampleRTT 50 ms; startup increase
    // 80 000 + 0.31 · 8000 / 0.05 = 129 600 bit/s; the next packet is due 8000/129 600 s after
    // the first = 61 728 395.06 ns, rounded up.
    deliver(&mut s, ms(50), &control_packet(0, false, Some(0))).unwrap();
    assert_eq!(bps(s.rate()), 129_600);
    assert_eq!(events(&mut s), vec![Event::RateChanged { rate: DataRate::from_bps(129_600) }]);
    assert_eq!(s.poll_timeout(), Some(Instant::from_nanos(61_728_396)));
    // It carries STO = 50 + 4 · 25 = 150 ms (first sample: Dev = sample/2) instead of a timestamp.
    let p1 = s.poll_transmit(Instant::from_nanos(61_728_396)).unwrap();
    let d1 = data_of(&p1);
    assert!(d1.carries_sto);
    assert_eq!(d1.timestamp_ns, 150_000_000);
    // The next three carry timestamps (at most one STO in 4 packets, though one RTT = 50 ms has
    // passed at each 61.7 ms gap); the fourth after it carries STO again.
    for _ in 0..3 {
        let t = s.poll_timeout().unwrap();
        let d = data_of(&s.poll_transmit(t).unwrap());
        assert!(!d.carries_sto && d.timestamp_ns == t.as_nanos());
    }
    let t = s.poll_timeout().unwrap();
    assert!(data_of(&s.poll_transmit(t).unwrap()).carries_sto);
    assert_eq!(s.counters().sto_sent, 2);
}

#[test]
fn control_packets_echoing_a_time_nothing_was_sent_are_refused_and_counted() {
    let mut s = bulk_sender(|_| {});
    s.poll_transmit(ms(0)).unwrap();
    let before = s.rate();
    // Forged: an echo of 30 ms (nothing was sent then), which would give a 20 ms RTT sample.
    let r = deliver(&mut s, ms(50), &control_packet(0, false, Some(30_000_000)));
    assert!(matches!(r, Err(WireError::Implausible(_))), "{r:?}");
    let st = s.stats();
    assert_eq!((st.clamped_feedback, st.malformed_datagrams), (1, 1));
    assert_eq!((s.counters().rtt_samples, s.counters().control_packets, s.rate()), (0, 0, before));
    // The genuine echo of 0 is believed.
    deliver(&mut s, ms(50), &control_packet(0, false, Some(0))).unwrap();
    assert_eq!((s.counters().rtt_samples, s.stats().clamped_feedback), (1, 1));
}

#[test]
fn sender_rejects_data_packets_and_bad_lengths() {
    let mut s = bulk_sender(|_| {});
    let p = s.poll_transmit(ms(0)).unwrap();
    assert_eq!(deliver(&mut s, ms(1), &p), Err(WireError::UnknownType(0)));
    let mut c = control_packet(0, false, Some(0));
    c.payload_len = 17; // length says 40, 41 arrive
    assert!(matches!(deliver(&mut s, ms(1), &c), Err(WireError::Inconsistent(_))));
    assert_eq!(s.stats().malformed_datagrams, 2);
    assert_eq!(s.counters().control_packets, 0);
}

#[test]
fn no_feedback_option_decreases_once_per_sto() {
    let mut s = bulk_sender(|c| {
        c.no_feedback_decrease = true;
        c.initial_rate_bps = 800_000; // one packet per 10 ms
    });
    s.poll_transmit(ms(0)).unwrap();
    // No sample: STO = 1 s; the timer fires 2·STO after the first unanswered packet.
    let mut now = ms(0);
    while now < ms(2000) {
        now = s.poll_timeout().unwrap();
        s.handle_timeout(now);
        while s.poll_transmit(now).is_some() {}
    }
    assert_eq!(now, ms(2000));
    assert_eq!(bps(s.rate()), 700_000);
    assert!(events(&mut s).contains(&Event::Timeout));
    // The next one STO later.
    assert_eq!(s.counters().no_feedback_timeouts, 1);
    let mut last = now;
    while s.counters().no_feedback_timeouts < 2 {
        last = s.poll_timeout().unwrap();
        s.handle_timeout(last);
        while s.poll_transmit(last).is_some() {}
    }
    assert_eq!(last, ms(3000));
    // Off by default: the faithful sender keeps its rate without feedback.
    let mut s = bulk_sender(|_| {});
    for i in 0..100 {
        s.handle_timeout(ms(100 * i));
        while s.poll_transmit(ms(100 * i)).is_some() {}
    }
    assert_eq!(bps(s.rate()), 80_000);
}

fn data_packet(seq: u32, ts: u64, sto: bool) -> Transmit {
    let h = DataHeader {
        length: 1000,
        seq,
        timestamp_ns: ts,
        carries_sto: sto,
        frame_type: 0,
        frame: crate::wire::ssvp::NO_FRAME,
        layer: 0,
        layers: 0,
    };
    Transmit {
        to: crate::Destination::PEER,
        header: h.emit(),
        payload_len: 976,
        meta: crate::PacketMeta::data(seq as u64),
    }
}

#[test]
fn receiver_marks_gaps_not_late_or_duplicate_packets() {
    let mut r = receiver();
    let answer = |r: &mut SsvpReceiver, seq: u32, t: u64| {
        deliver(r, ms(t), &data_packet(seq, t * 1_000_000, false)).unwrap();
        let c = control_of(&r.poll_transmit(ms(t)).unwrap());
        assert!(r.poll_transmit(ms(t)).is_none(), "one control packet per data packet");
        assert_eq!(c.ack, seq);
        c
    };
    assert!(!answer(&mut r, 0, 0).congestion);
    assert!(!answer(&mut r, 1, 1).congestion);
    // 2 and 3 missing: one mark for the gap.
    let c = answer(&mut r, 4, 2);
    assert!(c.congestion);
    assert_eq!(c.echo_ns, Some(2_000_000));
    assert!(!answer(&mut r, 5, 3).congestion);
    // 3 arrives late (reordered): no new mark, delivered.
    assert!(!answer(&mut r, 3, 4).congestion);
    // 3 again: a duplicate, answered, not delivered twice.
    assert!(!answer(&mut r, 3, 5).congestion);
    assert_eq!(r.stats().app_packets_delivered, 5);
    assert_eq!(r.stats().app_bytes_delivered, 5 * 976);
    assert_eq!(r.counters().duplicates, 1);
    assert_eq!(r.counters().gap_marks, 1);
    // A control packet is not for the receiver; a wrong length is rejected.
    assert_eq!(deliver(&mut r, ms(6), &control_packet(0, false, None)), Err(WireError::UnknownType(1)));
    let mut bad = data_packet(6, 0, false);
    bad.payload_len = 975;
    assert!(deliver(&mut r, ms(6), &bad).is_err());
    assert_eq!(r.stats().malformed_datagrams, 2);
}

#[test]
fn receiver_timeout_marks_congestion_and_rearms_with_sto() {
    let mut r = SsvpReceiver::new(40, false, None);
    assert_eq!(r.poll_timeout(), None, "no timer before the first packet");
    // STO-carrying packet: STO = 60 ms, the echo says "no RTT sample".
    deliver(&mut r, ms(10), &data_packet(0, 60_000_000, true)).unwrap();
    let c = control_of(&r.poll_transmit(ms(10)).unwrap());
    assert_eq!(c.echo_ns, None);
    assert_eq!(r.sto(), millis(60));
    assert_eq!(r.poll_timeout(), Some(ms(70)));
    r.handle_timeout(ms(69));
    assert!(r.poll_transmit(ms(69)).is_none());
    r.handle_timeout(ms(70));
    let c = control_of(&r.poll_transmit(ms(70)).unwrap());
    assert!(c.congestion);
    assert_eq!((c.echo_ns, c.ack), (None, 0));
    assert_eq!(events(&mut r), vec![Event::Timeout]);
    // Re-armed every STO, no backoff.
    assert_eq!(r.poll_timeout(), Some(ms(130)));
    r.handle_timeout(ms(130));
    assert_eq!(r.poll_timeout(), Some(ms(190)));
    assert_eq!(r.counters().timeouts, 2);
}

#[test]
fn receiver_timeout_guard_follows_the_inter_arrival_time() {
    let mut r = receiver();
    deliver(&mut r, ms(0), &data_packet(0, 10_000_000, true)).unwrap(); // STO 10 ms
    deliver(&mut r, ms(100), &data_packet(1, 0, false)).unwrap();
    // Mean inter-arrival = 100 ms (first sample); timeout = max(10, 2 · 100) = 200 ms.
    assert_eq!(r.timeout(), millis(200));
    assert_eq!(r.poll_timeout(), Some(ms(300)));
    // Off: the STO alone.
    let mut r = SsvpReceiver::new(40, false, None);
    deliver(&mut r, ms(0), &data_packet(0, 10_000_000, true)).unwrap();
    deliver(&mut r, ms(100), &data_packet(1, 0, false)).unwrap();
    assert_eq!(r.timeout(), millis(10));
}

fn cbr_single(kbps: u64) -> Application {
    let src = CbrSource::for_rate(DataRate::from_kbps(kbps), 25.0).unwrap();
    Application::Video(VideoStream::single(Box::new(src)))
}

fn cbr_layered(layer_kbps: &[u64]) -> Application {
    let total: u64 = layer_kbps.iter().sum();
    let src: crate::media::stream::BoxedSource =
        Box::new(CbrSource::for_rate(DataRate::from_kbps(total), 25.0).unwrap());
    let rates = LayerRates::from_per_layer(layer_kbps.iter().map(|&k| DataRate::from_kbps(k)).collect()).unwrap();
    Application::Video(VideoStream::new(StreamSource::Layered(LayeredSource::new(src, rates)), SendOrder::Decode))
}

#[test]
fn video_sender_drains_its_buffer_at_the_rate_and_caps_at_the_video_rate() {
    // 400 kbit/s at 25 fps: 2000-byte frames in 976-byte payloads: 976, 976, 48.
    let c = SsvpConfig { initial_rate_bps: 800_000, ..Default::default() };
    let mut s = SsvpSender::new(&c, cbr_single(400), DataSize::from_bytes(1000), Instant::ZERO, None, None).unwrap();
    // Cap = 400 000 · 1000/976 · 1.2 = 491 803 bit/s; the initial 800 kbit/s is clamped to it.
    assert_eq!(s.controller().bounds().1, DataRate::from_bps(491_803));
    let p = s.poll_transmit(ms(0)).unwrap();
    assert_eq!((p.payload_len, p.meta.media.frame, p.meta.media.index), (976, 0, 0));
    // Gap after 1000 wire bytes at 491 803 bit/s: 8e12 / 491 803 = 16 266 675.9 ns, rounded up.
    let t1 = s.poll_timeout().unwrap();
    assert_eq!(t1, Instant::from_nanos(16_266_676));
    assert_eq!(s.poll_transmit(t1).unwrap().payload_len, 976);
    let t2 = s.poll_timeout().unwrap();
    let p = s.poll_transmit(t2).unwrap();
    assert_eq!((p.payload_len, p.meta.media.index, p.meta.media.count), (48, 2, 3));
    // Application-limited until the next frame at 40 ms.
    assert_eq!(s.poll_timeout(), Some(ms(40)));
    let d = data_of(&s.poll_transmit(ms(40)).unwrap());
    assert_eq!((d.frame, d.layer, d.layers, d.frame_type), (1, 0, 0, 1));
}

#[test]
fn video_sender_drops_stale_packets_at_its_buffer() {
    // 800 kbit/s of video at a floor-clamped 8 kbit/s: packets older than 1 s are dropped.
    let c = SsvpConfig { initial_rate_bps: 8_000, max_rate_bps: 8_000, ..Default::default() };
    let mut s = SsvpSender::new(&c, cbr_single(800), DataSize::from_bytes(1000), Instant::ZERO, None, None).unwrap();
    let mut now = Instant::ZERO;
    let mut sent = 0;
    while now < ms(5000) {
        while s.poll_transmit(now).is_some() {
            sent += 1;
        }
        now = s.poll_timeout().unwrap();
    }
    assert_eq!(sent, 5); // one packet per second
    let st = s.sender_buffer().unwrap().stats();
    assert!(st.dropped_deadline + st.dropped_overflow > 100, "{st:?}");
}

#[test]
fn layered_sender_reads_ahead_and_sends_active_layers() {
    let c = SsvpLayeredConfig {
        ssvp: SsvpConfig { initial_rate_bps: 2_000_000, ..Default::default() },
        ..Default::default()
    };
    let mut s = SsvpSender::new(
        &c.ssvp,
        cbr_layered(&[100, 100, 100]),
        DataSize::from_bytes(1000),
        Instant::ZERO,
        None,
        Some(&c),
    )
    .unwrap();
    assert_eq!(s.layers(), Some(1));
    assert!(events(&mut s).contains(&Event::LayersChanged { layers: 1 }));
    // 300 kbit/s at 25 fps: 1500-byte frames, 500 bytes per layer. Reading 1 s ahead: by 100 ms
    // frames 0..=27 (ready at 0..1100 ms) are read, base layer only, one packet each.
    let mut got = Vec::new();
    let mut now = Instant::ZERO;
    while now <= ms(100) {
        while let Some(t) = s.poll_transmit(now) {
            got.push(data_of(&t));
        }
        now = s.poll_timeout().unwrap();
    }
    // Capped at 300 000 · 1000/976 · 1.2 = 368 852 bit/s: 524-byte packets every 11.365 ms,
    // 9 of them in [0, 100] ms.
    assert_eq!(got.len(), 9);
    assert_eq!(s.sender_buffer().unwrap().len(), 28 - 9);
    assert!(got.iter().all(|d| d.layer == 0 && d.layers == 1 && d.length == 524));
    assert_eq!(got.iter().map(|d| d.frame).take(3).collect::<Vec<_>>(), vec![0, 1, 2]);
}

#[test]
fn pair_rejects_what_it_cannot_carry() {
    let c = SsvpLayeredConfig::default();
    assert!(layered_pair(&c, Application::Bulk, DataSize::from_bytes(1000), Instant::ZERO, None).is_err());
    let e = layered_pair(&c, cbr_single(300), DataSize::from_bytes(1000), Instant::ZERO, None).err().unwrap();
    assert!(e.contains("layered video"), "{e}");
    assert!(pair(&SsvpConfig::default(), Application::Bulk, DataSize::from_bytes(24), Instant::ZERO, None).is_err());
    let bad = SsvpConfig { beta: 0.0, ..Default::default() };
    assert!(pair(&bad, Application::Bulk, DataSize::from_bytes(1000), Instant::ZERO, None).is_err());
}

#[test]
fn layered_receiver_reports_buffered_bytes_of_the_active_layers() {
    let playout = crate::media::playout::PlayoutConfig { startup_delay: millis(1000), ..Default::default() };
    let mut r = SsvpReceiver::new(40, true, Some(crate::media::playout::LayerBuffers::new(&playout)));
    let pkt = |seq: u32, frame: u32, layer: u8, layers: u8| {
        let h =
            DataHeader { length: 524, seq, timestamp_ns: 0, carries_sto: false, frame_type: 1, frame, layer, layers };
        Transmit { to: crate::Destination::PEER, header: h.emit(), payload_len: 500, meta: crate::PacketMeta::data(0) }
    };
    deliver(&mut r, ms(0), &pkt(0, 0, 0, 2)).unwrap();
    deliver(&mut r, ms(1), &pkt(1, 0, 1, 2)).unwrap();
    deliver(&mut r, ms(2), &pkt(2, 1, 0, 2)).unwrap();
    let reports: Vec<ControlHeader> = std::iter::from_fn(|| r.poll_transmit(ms(2))).map(|t| control_of(&t)).collect();
    assert_eq!(
        reports.iter().map(|c| (c.buffered_bytes, c.layers)).collect::<Vec<_>>(),
        vec![(500, 2), (1000, 2), (1500, 2)]
    );
    // The sender dropped to one layer: only layer 0 counts (frames 0 and 1: 1000 B).
    deliver(&mut r, ms(3), &pkt(3, 2, 0, 1)).unwrap();
    let c = control_of(&r.poll_transmit(ms(3)).unwrap());
    assert_eq!((c.buffered_bytes, c.layers), (1500, 1));
    // Frame 0 plays at 1000 ms: its bytes leave the buffer.
    r.handle_timeout(ms(1003));
    let c = control_of(&r.poll_transmit(ms(1003)).unwrap());
    assert_eq!((c.buffered_bytes, c.congestion), (1000, true));
}

// ---------------------------------------------------------------------------------------------
// The pair over the shared pipe, and the shared property driver.

/// Runs `pipe` until `horizon`: (lowest, highest) rate either side announced, and the payload
/// bytes the receiver delivered.
fn run<S: Endpoint, R: Endpoint>(mut pipe: Pipe<S, R>, horizon: Instant) -> (u64, u64, u64) {
    pipe.run_until(horizon);
    let rates: Vec<u64> = pipe
        .events
        .iter()
        .chain(&pipe.receiver_events)
        .filter_map(|(_, e)| match e {
            Event::RateChanged { rate } => Some(rate.as_bps()),
            _ => None,
        })
        .collect();
    let lo = rates.iter().copied().min().unwrap_or(u64::MAX);
    let hi = rates.iter().copied().max().unwrap_or(0);
    (lo, hi, pipe.r.stats().app_bytes_delivered)
}

#[test]
fn driver_on_a_clean_network_reaches_the_cap() {
    // Every datagram delivered after 20 ms (RTT 40 ms): startup climbs to the 2 Mbit/s cap and
    // stays there (no marks); about 2 Mbit/s · 976/1000 · (3 − 0.5) s ≈ 600 kB delivered.
    let c = SsvpConfig { max_rate_bps: 2_000_000, ..Default::default() };
    let p = pair(&c, Application::Bulk, DataSize::from_bytes(1000), ms(0), None).unwrap();
    let (lo, hi, delivered) = run(Pipe::new(p.sender, p.receiver, millis(40)), ms(3000));
    assert_eq!((lo, hi), (80_000, 2_000_000));
    assert!(delivered > 550_000 && delivered < 732_000, "{delivered}");
}

/// What must hold for an SSVP sender and receiver whatever the network does.
struct SsvpInvariants {
    lowest: DataRate,
    highest: DataRate,
}

impl Invariants<SsvpSender, SsvpReceiver> for SsvpInvariants {
    fn sender_sent(&mut self, _: &SsvpSender, t: &Transmit) -> Result<(), TestCaseError> {
        prop_assert_eq!(t.meta.kind, PacketKind::Data);
        prop_assert_eq!(data_of(t).length as u64, t.wire_size().as_bytes());
        Ok(())
    }

    fn sender_event(&mut self, e: Event) -> Result<(), TestCaseError> {
        if let Event::RateChanged { rate } = e {
            prop_assert!(rate >= self.lowest && rate <= self.highest, "rate {:?}", rate);
        }
        Ok(())
    }

    fn after_step(&mut self, s: &SsvpSender, _: &SsvpReceiver) -> Result<(), TestCaseError> {
        let (lo, hi) = s.controller().bounds();
        prop_assert!(s.rate() >= lo && s.rate() <= hi, "rate {:?} outside [{:?}, {:?}]", s.rate(), lo, hi);
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn bulk_pair_survives_any_network(fates in proptest::collection::vec(Fate::any(), 1..40),
                                      nofb: bool, law: bool) {
        let c = SsvpConfig {
            max_rate_bps: 2_000_000,
            no_feedback_decrease: nofb,
            increase_law: if law { IncreaseLaw::LiteralMultiplicative } else { IncreaseLaw::Additive },
            ..Default::default()
        };
        let p = pair(&c, Application::Bulk, DataSize::from_bytes(1000), ms(5), Some(ms(2500))).unwrap();
        let (lo, hi, _) = run(Pipe::new(p.sender, p.receiver, millis(0)).with_fates(&fates), ms(3000));
        prop_assert!(lo >= 8_000 && hi <= 2_000_000, "rates {lo}..{hi}");
    }

    #[test]
    fn layered_pair_survives_any_network(fates in proptest::collection::vec(Fate::any(), 1..40),
                                         immediate: bool) {
        let c = SsvpLayeredConfig {
            policy: if immediate { LayerPolicy::Immediate } else { LayerPolicy::Buffered },
            ..Default::default()
        };
        let p = layered_pair(&c, cbr_layered(&[100, 100, 100]), DataSize::from_bytes(1000), ms(0), None).unwrap();
        let (lo, hi, _) = run(Pipe::new(p.sender, p.receiver, millis(0)).with_fates(&fates), ms(3000));
        // Cap: 300 000 · 1000/976 · 1.2 = 368 852 bit/s.
        prop_assert!(lo >= 8_000 && hi <= 368_852, "rates {lo}..{hi}");
    }

    #[test]
    fn arbitrary_network_keeps_the_rate_in_bounds(
        ops in net_ops(Clock { max_advance: millis(300), max_rewind: millis(50) }, 1..400),
        law: bool,
        video: bool,
    ) {
        // Without the no-feedback decrease: this driver can answer a packet at the instant it
        // left, an RTT sample of 0 makes STO 0, and that timer then re-arms at the same instant
        // for ever (a known defect, reported; the pipe tests above do run the option).
        let c = SsvpConfig {
            max_rate_bps: 2_000_000,
            increase_law: if law { IncreaseLaw::LiteralMultiplicative } else { IncreaseLaw::Additive },
            ..Default::default()
        };
        let app = if video { cbr_single(400) } else { Application::Bulk };
        let mut s = SsvpSender::new(&c, app, DataSize::from_bytes(1000), Instant::ZERO, None, None).unwrap();
        let mut r = SsvpReceiver::new(c.control_packet_bytes, c.receiver_timeout_guard, None);
        let (lowest, highest) = s.controller().bounds();
        drive_network(&mut s, &mut r, &ops, &mut SsvpInvariants { lowest, highest })?;
    }

    #[test]
    fn endpoints_never_panic_on_random_bytes((bytes, extra) in garbage(), layered: bool) {
        let size = DataSize::from_bytes(1000);
        let mut p = if layered {
            layered_pair(&SsvpLayeredConfig::default(), cbr_layered(&[100, 100, 100]), size, Instant::ZERO, None)
        } else {
            pair(&SsvpConfig::default(), Application::Bulk, size, Instant::ZERO, None)
        }
        .unwrap();
        drain(&mut p.sender, Instant::ZERO);
        feed_garbage(&mut p.sender, ms(1), &bytes, extra, Rejections::Counted)?;
        feed_garbage(&mut p.receiver, ms(1), &bytes, extra, Rejections::Counted)?;
    }
}

// ---------------------------------------------------------------------------------------------
// The measurements the paper suite checks (claims.rs): they hold the unit-level claims.

#[test]
fn unit_measurements_for_the_paper_suite_hold_the_unit_claims() {
    let m: std::collections::BTreeMap<String, f64> = super::claims::unit_measurements().into_iter().collect();
    for (k, v) in &m {
        eprintln!("{k} = {v}");
    }
    // C3: the worked example ≈ 17 packets (17 036 B), the physical reading ≈ 100 B, the clamp.
    assert!((m["c3_example_literal_bytes"] - 17_036.0).abs() <= 2.0);
    assert!((m["c3_example_physical_bytes"] - 101.0).abs() <= 2.0);
    assert_eq!(m["c3_clamp_literal_bytes"], 0.0);
    assert_eq!(m["c3_clamp_physical_bytes"], 0.0);
    assert!((m["c3_example_literal_bytes"] / m["c3_deficit_130k_bytes"] - 4.0).abs() < 0.01);
    // C4: one change per period, ×β, hold at ratio ≤ 0.005, increase only without marks.
    assert!(m["c4_min_gap_between_changes_rtt"] >= 1.0);
    assert_eq!(m["c4_rate_changes_while_waiting"], 0.0);
    // rates are whole bit/s: ×β within rounding
    assert!((m["c4_decrease_factor_min"] - 0.875).abs() < 1e-4 && (m["c4_decrease_factor_max"] - 0.875).abs() < 1e-4);
    assert!(m["c4_decrease_mark_share_min"] > 0.005);
    assert!(m["c4_hold_mark_share_min"] > 0.0 && m["c4_hold_mark_share_max"] <= 0.005);
    assert_eq!(m["c4_hold_rate_changes"], 0.0);
    assert_eq!(m["c4_increases_with_marks"], 0.0);
    assert!(m["c4_holds"] > 0.0 && m["c4_increases"] > 0.0 && m["c4_decreases"] > 0.0);
    // C6
    assert!((m["c6_endpoint_sample_50ms"] - 0.05).abs() < 1e-9);
    assert!((m["c6_est_after_1"] - 0.11).abs() < 1e-9);
    assert!((m["c6_dev_after_1"] - 0.02).abs() < 1e-9);
    assert!((m["c6_sto_after_1"] - 0.19).abs() < 1e-9);
    assert!(m["c6_min_sto_minus_est"] >= 0.0);
}
