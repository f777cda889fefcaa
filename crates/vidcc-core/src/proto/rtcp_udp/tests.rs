//! RTCP/UDP tests: the sender's and receiver's rules with hand-made packets and explicit time,
//! the pair over the shared test pipe, and the shared property driver.

use super::*;
use crate::endpoint::{Datagram, Destination, Endpoint, Event, PacketKind, PacketMeta, PeerId, Transmit};
use crate::media::layers::{LayerRates, LayeredSource};
use crate::media::source::CbrSource;
use crate::media::stream::{BoxedSource, SendOrder, StreamSource, VideoStream};
use crate::proto::testing::*;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::rtcp_udp::{parse_rtp, rtp_header, ReceiverReport, ReportBlock, SenderReport, ToReceiver};
use proptest::prelude::*;

const MS: u64 = 1_000_000;

fn size() -> DataSize {
    DataSize::from_bytes(1000)
}
fn rates() -> LayerRates {
    LayerRates::dvrc_default()
}
fn stream(full_kbps: u64) -> VideoStream {
    let src: BoxedSource = Box::new(CbrSource::for_rate(DataRate::from_kbps(full_kbps), 25.0).unwrap());
    VideoStream::new(StreamSource::Layered(LayeredSource::new(src, rates())), SendOrder::Decode)
}
fn rtp(seq: u16, ts: u32) -> Transmit {
    let h = rtp_header(false, seq, ts, SENDER_SSRC);
    Transmit { to: Destination::PEER, header: h.emit(), payload_len: 988, meta: PacketMeta::data(seq as u64) }
}
fn rr(fraction: u8, lsr: u32, dlsr: u32) -> Transmit {
    let block = ReportBlock {
        source_ssrc: SENDER_SSRC,
        fraction_lost: fraction,
        cumulative_lost: 0,
        extended_highest_seq: 0,
        jitter: 0,
        lsr,
        dlsr,
    };
    let r = ReceiverReport { ssrc: RECEIVER_SSRC, block: Some(block), rate_bps: None };
    Transmit { to: Destination::PEER, header: r.emit(), payload_len: 0, meta: PacketMeta::control() }
}
/// An RR as [`rr`] (no RTT echo) with the receiving-rate extension.
fn rr_rate(fraction: u8, kbps: u64) -> Transmit {
    let mut t = rr(fraction, 0, 0);
    let block = Some(parse_rr(&t));
    t.header = ReceiverReport { ssrc: RECEIVER_SSRC, block, rate_bps: Some(kbps * 1000) }.emit();
    t
}
fn parse_rr(t: &Transmit) -> ReportBlock {
    ReceiverReport::parse(t.header.as_slice()).unwrap().block.unwrap()
}

#[test]
fn sender_starts_with_the_base_layer_and_an_sr() {
    let cfg = RtcpUdpConfig::default();
    let mut s = RtcpUdpSender::new(&cfg, stream(1024), rates(), size(), Instant::ZERO, None);
    let t = drain(&mut s, Instant::ZERO);
    // An SR first, then frame 0's base layer: 640 B in one packet of 652 B.
    assert_eq!(t.len(), 2);
    assert_eq!(t[0].meta.kind, PacketKind::Control);
    let sr = SenderReport::parse(t[0].header.as_slice()).unwrap();
    assert_eq!((sr.packet_count, sr.octet_count, sr.rtt_ns), (0, 0, 0));
    assert_eq!(t[1].wire_size(), DataSize::from_bytes(652));
    let h = parse_rtp(t[1].header.as_slice()).unwrap();
    assert_eq!((h.seq, h.timestamp, h.marker), (0, 0, true));
    assert_eq!(events(&mut s), vec![Event::LayersChanged { layers: 1 }]);
    // Frame 1 at 40 ms: RTP timestamp 0.04 s · 90 kHz = 3600.
    assert_eq!(s.poll_timeout(), Some(ms(40)));
    let t = drain(&mut s, ms(40));
    assert_eq!(parse_rtp(t[0].header.as_slice()).unwrap().timestamp, 3600);
    // The next SR is due 1 s after the first, with the counts so far: frames 0..=24 (0 to
    // 960 ms), one 640 B packet each.
    assert_eq!(drain(&mut s, ms(999)).len(), 23); // frames at 80..=960 ms
    let t = drain(&mut s, ms(1000));
    let sr = SenderReport::parse(t[0].header.as_slice()).unwrap();
    assert_eq!((sr.packet_count, sr.octet_count), (25, 25 * 640));
    assert_eq!(sr.ntp, 1 << 32);
    assert_eq!(sr.rtp_timestamp, 90_000);
}

#[test]
fn sender_adapts_layers_from_reports() {
    let cfg = RtcpUdpConfig::default();
    let mut s = RtcpUdpSender::new(&cfg, stream(1024), rates(), size(), Instant::ZERO, None);
    drain(&mut s, Instant::ZERO);
    events(&mut s);
    // No loss: K 1 → 2 → ... → 5, never beyond.
    for k in 2..=5u8 {
        deliver(&mut s, ms(10), &rr(0, 0, 0)).unwrap();
        assert_eq!(s.layers(), k);
    }
    deliver(&mut s, ms(10), &rr(0, 0, 0)).unwrap();
    assert_eq!(s.layers(), 5);
    // Loss: K − 1 per report, never below 1.
    deliver(&mut s, ms(11), &rr(1, 0, 0)).unwrap();
    assert_eq!(s.layers(), 4);
    for _ in 0..6 {
        deliver(&mut s, ms(12), &rr(255, 0, 0)).unwrap();
    }
    assert_eq!(s.layers(), 1);
    let rates_seen: Vec<Event> = events(&mut s);
    assert_eq!(rates_seen.first(), Some(&Event::RateChanged { rate: DataRate::from_kbps(256) }));
    assert_eq!(rates_seen.last(), Some(&Event::RateChanged { rate: DataRate::from_kbps(128) }));
    assert_eq!(rates_seen.len(), 8); // 4 up, 4 down
                                     // An RR without a report block changes nothing.
    let empty = ReceiverReport { ssrc: RECEIVER_SSRC, block: None, rate_bps: None };
    let t = Transmit { to: Destination::PEER, header: empty.emit(), payload_len: 0, meta: PacketMeta::control() };
    deliver(&mut s, ms(13), &t).unwrap();
    assert_eq!(s.layers(), 1);
    // The new K applies from the next frame: frame 1 (40 ms) after K went to 2.
    deliver(&mut s, ms(20), &rr(0, 0, 0)).unwrap();
    let t: Vec<u8> = drain(&mut s, ms(40)).iter().map(|t| t.meta.media.layer).collect();
    assert_eq!(t, [0, 1]);
}

#[test]
fn sender_computes_the_rtt_from_lsr_and_dlsr() {
    let mut s = RtcpUdpSender::new(&RtcpUdpConfig::default(), stream(1024), rates(), size(), Instant::ZERO, None);
    // SR sent at 1 s: LSR = middle 32 bits of NTP 1.0 s = 0x0001_0000. The RR leaves the
    // receiver 100 ms after the SR arrived (DLSR = floor(0.1·65536) = 6553) and arrives at 1.2 s:
    // A = floor(1.2·65536) = 78 643; RTT = 78 643 − 65 536 − 6553 = 6554 units
    // = 6554·1e9/65536 = 100 006 103 ns.
    deliver(&mut s, ms(1200), &rr(0, 0x0001_0000, 6553)).unwrap();
    assert_eq!(s.srtt(), Some(Duration::from_nanos(100_006_103)));
    // A report with LSR = 0 (no SR seen) gives no sample; a "negative" RTT is ignored.
    let mut s = RtcpUdpSender::new(&RtcpUdpConfig::default(), stream(1024), rates(), size(), Instant::ZERO, None);
    deliver(&mut s, ms(1200), &rr(0, 0, 0)).unwrap();
    deliver(&mut s, ms(1200), &rr(0, 0x0002_0000, 0)).unwrap();
    assert_eq!(s.srtt(), None);
    // Reports never carry payload.
    let mut bad = rr(0, 0, 0);
    bad.payload_len = 4;
    assert!(deliver(&mut s, ms(1300), &bad).is_err());
}

#[test]
fn receiver_reports_loss_at_once_and_periodically() {
    let mut r = RtcpUdpReceiver::new(&RtcpUdpConfig::default());
    assert_eq!(r.poll_timeout(), None);
    for seq in 0..3 {
        deliver(&mut r, ms(10 * seq as u64), &rtp(seq, 900 * seq as u32)).unwrap();
    }
    assert!(drain(&mut r, ms(20)).is_empty());
    assert_eq!(r.poll_timeout(), Some(ms(1000)));
    // Seq 3 is missing: an immediate RR. expected 5, received 4 → cumulative 1,
    // fraction = (1 << 8) / 5 = 51.
    deliver(&mut r, ms(40), &rtp(4, 3600)).unwrap();
    let t = drain(&mut r, ms(40));
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].wire_size(), DataSize::from_bytes(32));
    let b = parse_rr(&t[0]);
    assert_eq!((b.fraction_lost, b.cumulative_lost, b.extended_highest_seq), (51, 1, 4));
    assert_eq!((b.lsr, b.dlsr, b.source_ssrc), (0, 0, SENDER_SSRC));
    assert_eq!(events(&mut r), vec![Event::LossEvent]);
    // Another gap 50 ms later: within one RTT (100 ms fallback), no report.
    deliver(&mut r, ms(90), &rtp(6, 7200)).unwrap();
    assert!(drain(&mut r, ms(90)).is_empty());
    assert!(events(&mut r).is_empty());
    // The late seq 3 arrives; the periodic report at 1 s covers seqs 5..=6 since the last
    // report: expected 2, received 2 (6 and the late 3) → fraction 0; cumulative 7 − 6 = 1.
    deliver(&mut r, ms(95), &rtp(3, 2700)).unwrap();
    r.handle_timeout(ms(1000));
    let b = parse_rr(&drain(&mut r, ms(1000))[0]);
    assert_eq!((b.fraction_lost, b.cumulative_lost, b.extended_highest_seq), (0, 1, 6));
    assert_eq!(r.poll_timeout(), Some(ms(2000)));
    // Nothing received since: the next periodic report is skipped.
    r.handle_timeout(ms(2000));
    assert!(drain(&mut r, ms(2000)).is_empty());
    assert_eq!(r.poll_timeout(), Some(ms(3000)));
    assert_eq!(r.reports_sent(), 2);
    assert_eq!(r.stats().app_bytes_delivered, 6 * 988);
}

#[test]
fn receiver_counts_duplicates_and_wraps_sequence_numbers() {
    let mut r = RtcpUdpReceiver::new(&RtcpUdpConfig { immediate_reports: false, ..RtcpUdpConfig::default() });
    deliver(&mut r, ms(0), &rtp(65_534, 0)).unwrap();
    deliver(&mut r, ms(1), &rtp(65_535, 0)).unwrap();
    deliver(&mut r, ms(2), &rtp(0, 0)).unwrap();
    deliver(&mut r, ms(3), &rtp(0, 0)).unwrap();
    r.handle_timeout(ms(1000));
    let b = parse_rr(&drain(&mut r, ms(1000))[0]);
    // Extended highest: cycle 1, seq 0 = 65 536. Expected 3, received 4 (a duplicate): −1.
    assert_eq!((b.extended_highest_seq, b.cumulative_lost, b.fraction_lost), (65_536, -1, 0));
    assert_eq!(r.stats().app_packets_delivered, 3);
}

#[test]
fn receiver_fills_lsr_dlsr_and_jitter() {
    let mut r = RtcpUdpReceiver::new(&RtcpUdpConfig::default());
    let sr = SenderReport {
        ssrc: SENDER_SSRC,
        ntp: (3 << 32) | 0x4000_0000,
        rtp_timestamp: 0,
        packet_count: 0,
        octet_count: 0,
        rtt_ns: 70 * MS,
    };
    let t = Transmit { to: Destination::PEER, header: sr.emit(), payload_len: 0, meta: PacketMeta::control() };
    deliver(&mut r, ms(500), &t).unwrap();
    assert_eq!(r.rtt(), Duration::from_millis(70));
    // Two packets with timestamps 40 ms apart (3600 units) arriving 50 ms apart: D = 10 ms.
    // J = 10 ms / 16 = 625 µs = 56.25 units → 56.
    deliver(&mut r, ms(600), &rtp(0, 0)).unwrap();
    deliver(&mut r, ms(650), &rtp(1, 3600)).unwrap();
    assert_eq!(r.jitter_units(), 56);
    let b = r.report_block(ms(1000)).unwrap();
    // LSR = middle bits of 3.25 s = 0x0003_4000; DLSR = 0.5 s = 32 768 units.
    assert_eq!((b.lsr, b.dlsr, b.jitter), (0x0003_4000, 32_768, 56));
    // An SR with a payload, and garbage, are rejected and counted.
    let mut bad = t;
    bad.payload_len = 1;
    assert!(deliver(&mut r, ms(700), &bad).is_err());
    assert!(r.handle_datagram(ms(700), Datagram { from: PeerId::PEER, bytes: &[0x80], virtual_payload: 0 }).is_err());
    assert_eq!(r.stats().malformed_datagrams, 2);
}

#[test]
fn pair_requires_layered_video() {
    let cfg = RtcpUdpConfig::default();
    let e = pair(&cfg, crate::proto::Application::Bulk, size(), Instant::ZERO, None).err().unwrap();
    assert!(e.contains("layered video"), "{e}");
    let single: BoxedSource = Box::new(CbrSource::for_rate(DataRate::from_kbps(500), 25.0).unwrap());
    let e = pair(&cfg, crate::proto::Application::Video(VideoStream::single(single)), size(), Instant::ZERO, None)
        .err()
        .unwrap();
    assert!(e.contains("layers"), "{e}");
    let bad = RtcpUdpConfig { initial_layers: 0, ..cfg.clone() };
    assert!(pair(&bad, crate::proto::Application::Video(stream(1024)), size(), Instant::ZERO, None).is_err());
    assert!(pair(&cfg, crate::proto::Application::Video(stream(1024)), size(), Instant::ZERO, None).is_ok());
}

/// A lossless path: one more layer per periodic report until all five are sent.
#[test]
fn lossless_loop_climbs_one_layer_per_report() {
    let cfg = RtcpUdpConfig::default();
    let s = RtcpUdpSender::new(&cfg, stream(1024), rates(), size(), Instant::ZERO, None);
    let r = RtcpUdpReceiver::new(&cfg);
    let mut pipe = Pipe::new(s, r, millis(70));
    pipe.run_until(ms(6000));
    let layers_at: Vec<(u64, u8)> = pipe
        .events
        .iter()
        .filter_map(|(t, e)| match e {
            Event::LayersChanged { layers } => Some((t.as_nanos() / MS, *layers)),
            _ => None,
        })
        .collect();
    assert_eq!(pipe.s.layers(), 5);
    // First data at 35 ms at the receiver; RRs at 1.035, 2.035, ... s reach the sender 35 ms
    // later; the next frame (a multiple of 40 ms) takes the new K.
    assert_eq!(layers_at, vec![(0, 1), (1080, 2), (2080, 3), (3080, 4), (4080, 5)]);
    // RTT from LSR/DLSR: the SR round trip is 70 ms (within the 1/65536 s resolution).
    let rtt = pipe.s.srtt().unwrap().as_nanos();
    assert!((69_900_000..=70_100_000).contains(&rtt), "{rtt}");
}

// ---------------------------------------------------------------------------------------------
// Property: arbitrary delivery, loss, reordering, duplication and delay (the shared driver).

/// What must hold for an RTCP/UDP sender and receiver whatever the network does.
#[derive(Default)]
struct RtcpUdpInvariants {
    last_seq: Option<u16>,
    last_ntp: u64,
}

impl Invariants<RtcpUdpSender, RtcpUdpReceiver> for RtcpUdpInvariants {
    fn sender_sent(&mut self, _: &RtcpUdpSender, t: &Transmit) -> Result<(), TestCaseError> {
        match ToReceiver::parse(t.header.as_slice()).unwrap() {
            ToReceiver::Data(h) => {
                prop_assert!(self.last_seq.is_none_or(|q| h.seq == q.wrapping_add(1)));
                self.last_seq = Some(h.seq);
            }
            ToReceiver::Sr(sr) => {
                // Internal time never runs backwards, even when the driver's does.
                prop_assert!(sr.ntp >= self.last_ntp);
                self.last_ntp = sr.ntp;
            }
        }
        Ok(())
    }

    fn sender_event(&mut self, e: Event) -> Result<(), TestCaseError> {
        match e {
            Event::LayersChanged { layers } => prop_assert!((1..=5).contains(&layers)),
            Event::RateChanged { rate } => {
                prop_assert!(rate >= DataRate::from_kbps(128) && rate <= DataRate::from_kbps(1024))
            }
            _ => {}
        }
        Ok(())
    }

    fn after_step(&mut self, s: &RtcpUdpSender, r: &RtcpUdpReceiver) -> Result<(), TestCaseError> {
        prop_assert!((1..=5).contains(&s.layers()));
        prop_assert!(r.poll_timeout().is_none_or(|t| t > Instant::ZERO));
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_network_keeps_state_sane(
        ops in net_ops(Clock { max_advance: millis(1500), max_rewind: millis(50) }, 1..400),
        immediate: bool,
        adaptation in prop_oneof![Just(Adaptation::Step), Just(Adaptation::Rate), Just(Adaptation::RateOnLoss)],
    ) {
        let cfg = RtcpUdpConfig { immediate_reports: immediate, adaptation, ..RtcpUdpConfig::default() };
        let mut s = RtcpUdpSender::new(&cfg, stream(1024), rates(), size(), Instant::ZERO, None);
        let mut r = RtcpUdpReceiver::new(&cfg);
        drive_network(&mut s, &mut r, &ops, &mut RtcpUdpInvariants::default())?;
    }

    #[test]
    fn endpoints_never_panic_on_random_bytes((bytes, extra) in garbage()) {
        let mut r = RtcpUdpReceiver::new(&RtcpUdpConfig::default());
        feed_garbage(&mut r, ms(1), &bytes, extra, Rejections::Counted)?;
        let mut s = RtcpUdpSender::new(&RtcpUdpConfig::default(), stream(1024), rates(), size(), Instant::ZERO, None);
        feed_garbage(&mut s, ms(1), &bytes, extra, Rejections::NotCounted)?;
        prop_assert!((1..=5).contains(&s.layers()));
    }
}

#[test]
fn reports_claiming_more_than_was_sent_are_counted_as_clamped() {
    let mut s = RtcpUdpSender::new(&RtcpUdpConfig::default(), stream(1024), rates(), size(), Instant::ZERO, None);
    // An SR and frame 0's base layer: one data packet, RTP sequence number 0.
    assert_eq!(drain(&mut s, Instant::ZERO).iter().filter(|t| t.meta.kind == PacketKind::Data).count(), 1);
    deliver(&mut s, ms(10), &rr(0, 0, 0)).unwrap();
    assert_eq!(s.stats().clamped_feedback, 0, "an honest report");
    let forged = |lost: i32, highest: u32| {
        let mut t = rr(0, 0, 0);
        let mut b = parse_rr(&t);
        (b.cumulative_lost, b.extended_highest_seq) = (lost, highest);
        t.header = ReceiverReport { ssrc: RECEIVER_SSRC, block: Some(b), rate_bps: None }.emit();
        t
    };
    deliver(&mut s, ms(11), &forged(1_000_000, 0)).unwrap();
    deliver(&mut s, ms(12), &forged(0, 70_000)).unwrap();
    assert_eq!(s.stats().clamped_feedback, 2);
}

// ---------------------------------------------------------------------------------------------
// The alternative readings `adaptation = "rate"` and `"rate_on_loss"` (docs/protocols/rtcp-udp.md
// "Adaptation"). Layer rates c = (128, 256, 512, 768, 1024) kbit/s.

fn sender_with(adaptation: Adaptation, initial_layers: u8) -> RtcpUdpSender {
    let cfg = RtcpUdpConfig { adaptation, initial_layers, ..RtcpUdpConfig::default() };
    let mut s = RtcpUdpSender::new(&cfg, stream(1024), rates(), size(), Instant::ZERO, None);
    drain(&mut s, Instant::ZERO);
    events(&mut s);
    s
}

#[test]
fn rate_rule_maps_the_reported_receiving_rate_to_layers() {
    let mut s = sender_with(Adaptation::Rate, 1);
    // Loss-free at 600 kbit/s: K = max{j : c_j ≤ 600} = 3 at once (the step rule would give 2).
    deliver(&mut s, ms(10), &rr_rate(0, 600)).unwrap();
    assert_eq!(s.layers(), 3);
    assert_eq!(events(&mut s), vec![Event::RateChanged { rate: DataRate::from_kbps(512) }]);
    // Exactly c_4: four layers; above c_5: five, never more.
    deliver(&mut s, ms(11), &rr_rate(0, 768)).unwrap();
    assert_eq!(s.layers(), 4);
    deliver(&mut s, ms(12), &rr_rate(0, 5000)).unwrap();
    assert_eq!(s.layers(), 5);
    // Loss-free but a rate of 300 kbit/s: down to two layers (the step rule would stay at 5).
    deliver(&mut s, ms(13), &rr_rate(0, 300)).unwrap();
    assert_eq!(s.layers(), 2);
    // A lossy report at 260 kbit/s keeps two layers (the step rule would drop to 1).
    deliver(&mut s, ms(14), &rr_rate(40, 260)).unwrap();
    assert_eq!(s.layers(), 2);
    // Below the base layer: still the base layer.
    deliver(&mut s, ms(15), &rr_rate(40, 50)).unwrap();
    assert_eq!(s.layers(), 1);
    // A rate of 0 (nothing arrived in the interval) keeps the base layer too.
    deliver(&mut s, ms(16), &rr_rate(0, 0)).unwrap();
    assert_eq!(s.layers(), 1);
    // An RR without the extension changes nothing under this rule.
    deliver(&mut s, ms(17), &rr_rate(0, 1024)).unwrap();
    assert_eq!(s.layers(), 5);
    deliver(&mut s, ms(18), &rr(255, 0, 0)).unwrap();
    assert_eq!(s.layers(), 5);
}

#[test]
fn rate_on_loss_maps_lossy_reports_and_steps_up_on_clean_ones() {
    let mut s = sender_with(Adaptation::RateOnLoss, 5);
    // A lossy report at 600 kbit/s: K = 3 at once (the step rule would give 4).
    deliver(&mut s, ms(10), &rr_rate(10, 600)).unwrap();
    assert_eq!(s.layers(), 3);
    // A lossy report whose rate would allow more keeps K (loss never adds a layer).
    deliver(&mut s, ms(11), &rr_rate(10, 2000)).unwrap();
    assert_eq!(s.layers(), 3);
    // Loss-free reports add one layer each, whatever the rate says.
    deliver(&mut s, ms(12), &rr_rate(0, 100)).unwrap();
    assert_eq!(s.layers(), 4);
    deliver(&mut s, ms(13), &rr_rate(0, 5000)).unwrap();
    assert_eq!(s.layers(), 5);
    // A lossy report below the base layer's rate: the base layer.
    deliver(&mut s, ms(14), &rr_rate(255, 10)).unwrap();
    assert_eq!(s.layers(), 1);
    // Without the extension: nothing changes.
    deliver(&mut s, ms(15), &rr(0, 0, 0)).unwrap();
    assert_eq!(s.layers(), 1);
}

#[test]
fn step_rule_ignores_a_reported_rate() {
    let mut s = sender_with(Adaptation::Step, 1);
    deliver(&mut s, ms(10), &rr_rate(0, 1024)).unwrap();
    assert_eq!(s.layers(), 2);
    deliver(&mut s, ms(11), &rr_rate(10, 1024)).unwrap();
    assert_eq!(s.layers(), 1);
}

#[test]
fn receiver_reports_its_receiving_rate_over_the_last_interval() {
    let cfg = RtcpUdpConfig { adaptation: Adaptation::Rate, immediate_reports: false, ..RtcpUdpConfig::default() };
    let mut r = RtcpUdpReceiver::new(&cfg);
    // 25 packets of 988 payload bytes, one every 40 ms from t = 0 (first report due at 1 s).
    // The window is (now − 1 s, now]: the packet at t = 0 no longer counts at 1 s.
    for i in 0..26u16 {
        deliver(&mut r, ms(40 * i as u64), &rtp(i, 3600 * i as u32)).unwrap();
    }
    // A duplicate is not received data.
    deliver(&mut r, ms(1000), &rtp(24, 3600 * 24)).unwrap();
    r.handle_timeout(ms(1000));
    let t = drain(&mut r, ms(1000));
    assert_eq!(t[0].wire_size(), DataSize::from_bytes(40));
    let p = ReceiverReport::parse(t[0].header.as_slice()).unwrap();
    // Packets 1..=25 (40..=1000 ms): 25 · 988 B · 8 / 1 s = 197 600 bit/s.
    assert_eq!(p.rate_bps, Some(197_600));
    // Two more packets, at 1.5 and 1.9 s. The report at 2 s counts the arrivals after 1 s only.
    deliver(&mut r, ms(1500), &rtp(26, 0)).unwrap();
    deliver(&mut r, ms(1900), &rtp(27, 0)).unwrap();
    r.handle_timeout(ms(2000));
    let p = ReceiverReport::parse(drain(&mut r, ms(2000))[0].header.as_slice()).unwrap();
    assert_eq!(p.rate_bps, Some(2 * 988 * 8));
    // The default rule's RR has no extension (32 bytes, as before).
    let mut d = RtcpUdpReceiver::new(&RtcpUdpConfig { immediate_reports: false, ..RtcpUdpConfig::default() });
    deliver(&mut d, ms(0), &rtp(0, 0)).unwrap();
    d.handle_timeout(ms(1000));
    let t = drain(&mut d, ms(1000));
    assert_eq!(t[0].wire_size(), DataSize::from_bytes(32));
    assert_eq!(ReceiverReport::parse(t[0].header.as_slice()).unwrap().rate_bps, None);
}

/// The rate rule over a lossless path: the receiving rate of K layers is c_K (the CBR source),
/// so K = max{j : c_j ≤ c_K} stays where it starts: the rule has no probe upwards.
#[test]
fn rate_rule_holds_the_layer_count_on_a_lossless_path() {
    let cfg = RtcpUdpConfig { adaptation: Adaptation::Rate, initial_layers: 3, ..RtcpUdpConfig::default() };
    let s = RtcpUdpSender::new(&cfg, stream(1024), rates(), size(), Instant::ZERO, None);
    let r = RtcpUdpReceiver::new(&cfg);
    let mut pipe = Pipe::new(s, r, millis(70));
    pipe.run_until(ms(6000));
    assert_eq!(pipe.s.layers(), 3);
    assert!(pipe.r.reports_sent() >= 5);
}
