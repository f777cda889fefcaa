//! DVRC tests: the AIAMD control law on bare state with explicit time, the endpoints with
//! hand-made packets, the pair over the shared test pipe, and the shared property driver.

use super::*;
use crate::endpoint::{Datagram, Destination, Endpoint, Event, PacketKind, PeerId, Transmit};
use crate::media::layers::{LayerRates, LayeredSource};
use crate::media::source::CbrSource;
use crate::media::stream::{SendOrder, StreamSource, VideoStream};
use crate::proto::testing::*;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::dvrc::{DvrcControl, DvrcData};
use crate::wire::WireError;
use proptest::prelude::*;

const MS: u64 = 1_000_000;

fn kbps(k: u64) -> DataRate {
    DataRate::from_kbps(k)
}
fn size() -> DataSize {
    DataSize::from_bytes(1000)
}
/// c = (128, 256, 512, 768, 1024) kbit/s.
fn rates() -> LayerRates {
    LayerRates::dvrc_default()
}
fn law(cfg: &DvrcConfig) -> Aiamd {
    Aiamd::new(cfg, &rates(), size())
}
fn stream(full_kbps: u64) -> VideoStream {
    let src: crate::media::stream::BoxedSource = Box::new(CbrSource::for_rate(kbps(full_kbps), 25.0).unwrap());
    VideoStream::new(StreamSource::Layered(LayeredSource::new(src, rates())), SendOrder::Decode)
}

/// With RTT = 80 ms and s = 1000 B, α = 1 packet per RTT is exactly 8000 bit / 0.08 s = 100 kbit/s.
const RTT: Duration = Duration::from_millis(80);

/// Raises R by `rounds` loss-free rounds of 80 ms, starting at `t0` (ms); returns the end time.
fn grow(l: &mut Aiamd, t0: u64, rounds: u64) -> u64 {
    l.on_packet(ms(t0), RTT);
    for i in 1..=rounds {
        l.on_packet(ms(t0 + 80 * i), RTT);
    }
    t0 + 80 * rounds
}

// ---------------------------------------------------------------------------------------------
// The control law on bare state.

#[test]
fn starts_at_the_base_layer_rate() {
    let l = law(&DvrcConfig::default());
    assert_eq!(l.rate(), kbps(128));
    assert_eq!((l.floor(), l.cap()), (kbps(128), kbps(1024)));
    assert_eq!(l.threshold(), None);
    assert_eq!(rates().layers_within(l.rate()), 1);
}

#[test]
fn additive_increase_once_per_loss_free_round() {
    let mut l = law(&DvrcConfig::default());
    // The first packet opens the round; nothing changes before one RTT has passed.
    assert!(!l.on_packet(ms(0), RTT));
    assert!(!l.on_packet(ms(79), RTT));
    assert_eq!(l.rate(), kbps(128));
    // Eq. (11), y = 0: R = 128 000 + 8000/0.08 = 228 000.
    assert!(l.on_packet(ms(80), RTT));
    assert_eq!(l.rate(), kbps(228));
    // The round restarted at 80 ms: the next increase is at 160 ms, not per packet.
    assert!(!l.on_packet(ms(100), RTT));
    assert!(l.on_packet(ms(160), RTT));
    assert_eq!(l.rate(), kbps(328));
    // RTT 70 ms: 8000/0.07 = 114 285.71 → 442 286 (rounded to the nearest bit/s).
    assert!(l.on_packet(ms(230), millis(70)));
    assert_eq!(l.rate(), DataRate::from_bps(442_286));
}

#[test]
fn rate_is_capped_at_full_quality() {
    let mut l = law(&DvrcConfig::default());
    grow(&mut l, 0, 20);
    assert_eq!(l.rate(), kbps(1024));
    let mut c = DvrcConfig { max_rate_factor: 1.5, ..DvrcConfig::default() };
    c.alpha_unit = AlphaUnit::PacketsPerSecond;
    let mut l = law(&c);
    // α = 1 packet/s: +8000 bit/s per round.
    grow(&mut l, 0, 3);
    assert_eq!(l.rate(), kbps(152));
    assert_eq!(l.cap(), kbps(1536));
}

#[test]
fn the_three_branches_of_eq_11() {
    let mut l = law(&DvrcConfig::default());
    let t = grow(&mut l, 0, 5); // 128 + 5·100 = 628 kbit/s at 400 ms
    assert_eq!(l.rate(), kbps(628));

    // First loss event: no history → multiplicative: R = 0.5 · 628 000 = 314 000.
    // Then R̄ = 𝓜 = 600 000, D̄ = 𝓜/2 = 300 000 → threshold 600 000 − 1.5·300 000 = 150 000.
    let d = l.on_loss(ms(t + 10), RTT, kbps(600)).unwrap();
    assert!(d.congestion);
    assert_eq!((d.before, d.after, d.threshold), (kbps(628), kbps(314), None));
    assert_eq!(l.history(), Some((600_000.0, 300_000.0)));
    assert_eq!(l.threshold(), Some(150_000.0));

    // A gap within one RTT of that decrease is the same loss event.
    assert_eq!(l.on_loss(ms(t + 89), RTT, kbps(10)), None);

    // 𝓜 = 400 000 ≥ 150 000 → random loss, additive decrease: 314 000 − 100 000 = 214 000.
    // D̄ = 0.75·300 000 + 0.25·|400 000 − 600 000| = 275 000; R̄ = 0.875·600 000 + 0.125·400 000 = 575 000.
    let d = l.on_loss(ms(t + 90), RTT, kbps(400)).unwrap();
    assert!(!d.congestion);
    assert_eq!((d.after, d.threshold, d.compared), (kbps(214), Some(150_000.0), 400_000.0));
    assert_eq!(l.history(), Some((575_000.0, 275_000.0)));
    // Threshold now 575 000 − 1.5·275 000 = 162 500.
    assert_eq!(l.threshold(), Some(162_500.0));

    // 𝓜 = 100 000 < 162 500 → congestion: R = 0.5·214 000 = 107 000 → clamped to c_1 = 128 000.
    let d = l.on_loss(ms(t + 200), RTT, kbps(100)).unwrap();
    assert!(d.congestion);
    assert_eq!(d.after, kbps(128));
    assert_eq!(l.decision_counts(), (3, 2));
}

#[test]
fn no_increase_in_the_round_of_a_decrease() {
    let mut l = law(&DvrcConfig::default());
    let t = grow(&mut l, 0, 5); // 628 kbit/s
    l.on_loss(ms(t + 10), RTT, kbps(600)).unwrap(); // 314 kbit/s; the round restarts at t + 10
                                                    // The round [t+10, t+90) had the loss: its boundary brings no increase.
    assert!(!l.on_packet(ms(t + 90), RTT));
    assert_eq!(l.rate(), kbps(314));
    // The next round is loss-free: +100 kbit/s.
    assert!(l.on_packet(ms(t + 170), RTT));
    assert_eq!(l.rate(), kbps(414));
}

#[test]
fn dto_forces_a_multiplicative_decrease_and_folds_zero() {
    let mut l = law(&DvrcConfig::default());
    let t = grow(&mut l, 0, 5);
    l.on_loss(ms(t), RTT, kbps(600)).unwrap(); // R = 314 000, R̄ = 600 000, D̄ = 300 000
                                               // 𝓜 would be far above the threshold, but a DTO is always congestion: R = 157 000.
                                               // Folding 𝓜 = 0: D̄ = 0.75·300 000 + 0.25·600 000 = 375 000; R̄ = 0.875·600 000 = 525 000.
    let d = l.on_dto(ms(t + 300), RTT);
    assert!(d.congestion);
    assert_eq!(d.after, kbps(157));
    assert_eq!(l.history(), Some((525_000.0, 375_000.0)));
}

#[test]
fn compare_r_prev_uses_the_computed_rate() {
    let c = DvrcConfig { compare: Compare::RPrev, ..DvrcConfig::default() };
    let mut l = law(&c);
    let t = grow(&mut l, 0, 5); // 628
    l.on_loss(ms(t), RTT, kbps(600)).unwrap(); // MD → 314; threshold 150 000
                                               // 𝓜 = 50 000 would be congestion under `measured`; R(t−1) = 314 000 ≥ 150 000 → additive.
    let d = l.on_loss(ms(t + 100), RTT, kbps(50)).unwrap();
    assert!(!d.congestion);
    assert_eq!((d.compared, d.after), (314_000.0, kbps(214)));
}

#[test]
fn ad_guard_never_cuts_below_beta_r() {
    // Floor 0.1·c_1 = 12.8 kbit/s so that the floor does not hide the guard.
    let base = DvrcConfig { min_rate_factor: 0.1, ..DvrcConfig::default() };
    let run = |guard: bool| {
        let mut l = law(&DvrcConfig { ad_guard: guard, ..base.clone() });
        l.on_packet(ms(0), RTT);
        l.on_packet(ms(80), RTT); // 228 000
        l.on_loss(ms(100), RTT, kbps(200)).unwrap(); // MD → 114 000; threshold 200 000 − 150 000 = 50 000
        l.on_loss(ms(200), RTT, kbps(190)).unwrap() // AD: 114 000 − 100 000 = 14 000
    };
    assert_eq!(run(false).after, kbps(14));
    // Guard: max(14 000, 0.5·114 000 = 57 000).
    assert_eq!(run(true).after, kbps(57));
}

// ---------------------------------------------------------------------------------------------
// Endpoints.

fn data(seq: u32, ts: Instant, rtt_ms: u64, dto_ms: u64) -> Transmit {
    let h = DvrcData {
        frame_type: 1,
        length: 1000,
        seq,
        timestamp_ns: ts.as_nanos(),
        rtt_est_ns: rtt_ms * MS,
        dto_ns: dto_ms * MS,
        layer: 0,
    };
    Transmit {
        to: Destination::PEER,
        header: h.emit(),
        payload_len: 964,
        meta: crate::endpoint::PacketMeta::data(seq as u64),
    }
}

#[test]
fn receiver_answers_every_data_packet_with_a_control_packet() {
    let mut r = DvrcReceiver::new(&DvrcConfig::default(), rates(), size());
    assert_eq!(r.poll_timeout(), None, "no timer before the first data packet");
    deliver(&mut r, ms(50), &data(0, ms(10), 80, 120)).unwrap();
    let c = r.poll_transmit(ms(50)).unwrap();
    assert_eq!(c.meta.kind, PacketKind::Control);
    assert_eq!(c.wire_size(), DataSize::from_bytes(40));
    let p = DvrcControl::parse(c.header.as_slice()).unwrap();
    assert_eq!((p.layers, p.ack_seq, p.ts_echo_ns, p.rate_bps), (1, 0, 10 * MS, 128_000));
    assert!(r.poll_transmit(ms(50)).is_none());
    assert_eq!(r.stats().app_bytes_delivered, 964);
    // A duplicate is answered but not delivered twice.
    deliver(&mut r, ms(51), &data(0, ms(10), 80, 120)).unwrap();
    assert!(r.poll_transmit(ms(51)).is_some());
    assert_eq!(r.stats().app_bytes_delivered, 964);
    // DTO_eff = max(DTO 120 ms, 2·8000/128 000 = 125 ms, 200 ms) = 200 ms after the last arrival.
    assert_eq!(r.effective_dto(), millis(200));
    assert_eq!(r.poll_timeout(), Some(ms(251)));
}

#[test]
fn receiver_rejects_a_length_that_disagrees_with_the_datagram() {
    let mut r = DvrcReceiver::new(&DvrcConfig::default(), rates(), size());
    let mut t = data(0, ms(0), 80, 120);
    t.payload_len = 963;
    assert!(deliver(&mut r, ms(1), &t).is_err());
    assert!(r.handle_datagram(ms(1), Datagram { from: PeerId::PEER, bytes: &[1, 2], virtual_payload: 0 }).is_err());
    assert_eq!(r.stats().malformed_datagrams, 2);
    assert!(r.poll_transmit(ms(1)).is_none());
}

#[test]
fn receiver_raises_k_with_r_and_classifies_gaps() {
    let mut r = DvrcReceiver::new(&DvrcConfig::default(), rates(), size());
    // One packet every 10 ms, RTT 80 ms: R rises 100 kbit/s per 80 ms.
    let mut seq = 0;
    for t in (0..=400).step_by(10) {
        deliver(&mut r, ms(t), &data(seq, ms(t), 80, 100)).unwrap();
        seq += 1;
    }
    // Boundaries at 80, 160, ..., 400: five increases → 628 kbit/s → K = 3 (c_3 = 512 ≤ 628 < 768).
    assert_eq!(r.law().rate(), kbps(628));
    assert_eq!(r.layers(), 3);
    let rates_seen: Vec<Event> = events(&mut r);
    assert_eq!(rates_seen.len(), 5);
    assert_eq!(rates_seen[4], Event::RateChanged { rate: kbps(628) });
    let last = std::iter::from_fn(|| r.poll_transmit(ms(400))).last().unwrap();
    assert_eq!(DvrcControl::parse(last.header.as_slice()).unwrap().layers, 3);
    // Skip one sequence number: the first loss event is multiplicative.
    deliver(&mut r, ms(410), &data(seq + 1, ms(410), 80, 100)).unwrap();
    assert_eq!(r.law().rate(), kbps(314));
    assert_eq!(r.layers(), 2);
    assert_eq!(
        events(&mut r),
        vec![Event::LossEvent, Event::LossClassified { congestion: true }, Event::RateChanged { rate: kbps(314) }]
    );
    // A late packet (the hole filled) raises no new signal.
    deliver(&mut r, ms(411), &data(seq, ms(400), 80, 100)).unwrap();
    assert!(events(&mut r).is_empty());
}

#[test]
fn receiver_dto_expiry_is_a_timeout_with_multiplicative_decrease() {
    let mut r = DvrcReceiver::new(&DvrcConfig::default(), rates(), size());
    for (i, t) in (0..=160).step_by(10).enumerate() {
        deliver(&mut r, ms(t), &data(i as u32, ms(t), 80, 100)).unwrap();
    }
    assert_eq!(r.law().rate(), kbps(328));
    events(&mut r);
    // DTO_eff = max(100 ms, 2·8000/328 000 ≈ 48.8 ms, 200 ms) = 200 ms → 360 ms.
    assert_eq!(r.poll_timeout(), Some(ms(360)));
    r.handle_timeout(ms(359));
    assert!(events(&mut r).is_empty());
    r.handle_timeout(ms(360));
    assert_eq!(r.law().rate(), kbps(164));
    assert_eq!(events(&mut r), vec![Event::LossEvent, Event::Timeout, Event::RateChanged { rate: kbps(164) }]);
    // The timer restarts after each expiry.
    assert_eq!(r.poll_timeout(), Some(ms(560)));
    // Without the A3 guard the header's DTO is used as is.
    let mut r = DvrcReceiver::new(&DvrcConfig { dto_guard: false, ..DvrcConfig::default() }, rates(), size());
    deliver(&mut r, ms(0), &data(0, ms(0), 80, 100)).unwrap();
    assert_eq!(r.poll_timeout(), Some(ms(100)));
}

fn control(k: u8, ack: u32, echo: Instant) -> Transmit {
    let c = DvrcControl { layers: k, ack_seq: ack, ts_echo_ns: echo.as_nanos(), rate_bps: 768_000, recv_rate_bps: 0 };
    Transmit { to: Destination::PEER, header: c.emit(), payload_len: 0, meta: crate::endpoint::PacketMeta::control() }
}

#[test]
fn sender_sends_k_layers_and_applies_changes_at_the_next_frame() {
    let cfg = DvrcConfig::default();
    // 1024 kbit/s at 25 fps: 5120 B frames → layers 640, 640, 1280, 1280, 1280 B.
    let mut s = DvrcSender::new(&cfg, stream(1024), rates(), size(), None);
    assert_eq!(s.poll_timeout(), Some(Instant::ZERO));
    let t = drain(&mut s, Instant::ZERO);
    // K = 1: the base layer only, 640 B in one packet of 676 B on the wire.
    assert_eq!(t.len(), 1);
    assert_eq!((t[0].payload_len, t[0].wire_size()), (640, DataSize::from_bytes(676)));
    let h = DvrcData::parse(t[0].header.as_slice()).unwrap();
    assert_eq!((h.seq, h.layer, h.frame_type, h.length), (0, 0, 1, 676));
    // No RTT sample yet: EstimatedRTT 0 and the initial 1 s DTO.
    assert_eq!((h.rtt_est_ns, h.dto_ns), (0, 1_000_000_000));
    assert_eq!(events(&mut s), vec![Event::LayersChanged { layers: 1 }]);

    // The control packet echoing t = 0 arrives at 70 ms asking for K = 3.
    deliver(&mut s, ms(70), &control(3, 0, Instant::ZERO)).unwrap();
    assert_eq!(s.target_layers(), 3);
    // First sample: EstimatedRTT = 70 ms, Deviation = 35 ms, DTO = 70 + 4·35 = 210 ms.
    assert_eq!(s.rtt().estimated_rtt(), Some(millis(70)));
    assert_eq!(s.rtt().dto(), millis(210));
    // Frame 1 (ready at 40 ms, not yet produced) is the next frame boundary: it carries layers 0..3.
    assert_eq!(s.poll_timeout(), Some(ms(40)));
    let t = drain(&mut s, ms(40));
    // 640 + 640 + 1280 B at ≤ 964 B per packet: 1 + 1 + 2 packets.
    assert_eq!(t.iter().map(|x| x.meta.media.layer).collect::<Vec<_>>(), [0, 1, 2, 2]);
    let h = DvrcData::parse(t[0].header.as_slice()).unwrap();
    assert_eq!((h.seq, h.rtt_est_ns, h.dto_ns), (1, 70 * MS, 210 * MS));
    assert_eq!(events(&mut s), vec![Event::LayersChanged { layers: 3 }]);
    // A control answering an older packet gives an RTT sample but cannot change K.
    // (Frame 1's packets left at 70 ms, the sender's clock having reached it.)
    deliver(&mut s, ms(90), &control(5, 4, ms(70))).unwrap();
    deliver(&mut s, ms(91), &control(1, 2, ms(70))).unwrap();
    assert_eq!(s.target_layers(), 5);
    // K above the stream's layer count is clamped (and counted: no receiver asks for it), once
    // frame 2 (ready at 80 ms, five layers: seq 5 onwards) has gone at 92 ms.
    assert!(!drain(&mut s, ms(92)).is_empty());
    deliver(&mut s, ms(92), &control(9, 5, ms(92))).unwrap();
    assert_eq!(s.target_layers(), 5);
    assert_eq!(s.stats().clamped_feedback, 1);
    // Control packets never carry payload.
    let mut bad = control(2, 6, ms(40));
    bad.payload_len = 1;
    assert!(deliver(&mut s, ms(93), &bad).is_err());
}

#[test]
fn sender_paces_at_r_when_asked() {
    let cfg = DvrcConfig { pacing: true, ..DvrcConfig::default() };
    let mut s = DvrcSender::new(&cfg, stream(1024), rates(), size(), None);
    // A hand-made control before anything was sent: only a trusting sender believes it.
    s.trust_feedback();
    deliver(&mut s, Instant::ZERO, &control(5, 0, Instant::ZERO)).unwrap();
    // R = 768 kbit/s (from the control packet); frame 0 has layers of 640, 640, 1280, 1280, 1280 B.
    let first = drain(&mut s, Instant::ZERO);
    assert_eq!(first.len(), 1);
    assert_eq!(first[0].wire_size(), DataSize::from_bytes(676));
    // 676 B at 768 kbit/s: 5408 bits·1e9/768 000 = 7 041 666.7 ns, rounded up.
    assert_eq!(s.poll_timeout(), Some(Instant::from_nanos(7_041_667)));
    assert!(drain(&mut s, Instant::from_nanos(7_041_666)).is_empty());
    assert_eq!(drain(&mut s, Instant::from_nanos(7_041_667)).len(), 1);
}

#[test]
fn forged_control_packets_are_refused_or_clamped_and_counted() {
    let cfg = DvrcConfig { pacing: true, ..DvrcConfig::default() };
    let mut s = DvrcSender::new(&cfg, stream(1024), rates(), size(), None);
    assert_eq!(drain(&mut s, Instant::ZERO).len(), 1);
    // An ack_seq far ahead (before, it made every honest control look older for 2^31 packets)
    // and an echo of a time nothing was sent at: refused, counted.
    assert!(matches!(deliver(&mut s, ms(10), &control(3, 1 << 30, Instant::ZERO)), Err(WireError::Implausible(_))));
    assert!(matches!(deliver(&mut s, ms(10), &control(3, 0, ms(5))), Err(WireError::Implausible(_))));
    assert_eq!(s.stats().clamped_feedback, 2);
    // The honest answer to packet 0 still counts.
    deliver(&mut s, ms(20), &control(3, 0, Instant::ZERO)).unwrap();
    assert_eq!(s.target_layers(), 3);
    assert_eq!(s.stats().clamped_feedback, 2);
    // Frame 1's first packet (seq 1) leaves at 43 ms (packet 0's gap at c_1 = 128 kbit/s
    // ended at 42.25 ms); the next waits one packet time at R = 768 kbit/s.
    assert_eq!(drain(&mut s, ms(43)).len(), 1);
    // R = 2^62 bit/s answering it: clamped to the receiver's cap, the layers' total
    // (max_rate_factor 1, 1024 kbit/s), and counted.
    let mut c = DvrcControl::parse(control(3, 1, ms(43)).header.as_slice()).unwrap();
    c.rate_bps = 1 << 62;
    let forged = Transmit { header: c.emit(), ..control(3, 1, ms(43)) };
    deliver(&mut s, ms(45), &forged).unwrap();
    assert_eq!(s.stats().clamped_feedback, 3);
    // Paced at the cap, not at 2^62 bit/s: one packet, then one packet time at 1024 kbit/s.
    let next = s.poll_timeout().unwrap();
    let t = drain(&mut s, next);
    assert_eq!(t.len(), 1, "paced, not all at once");
    let gap = rates().total().transmission_time(t[0].wire_size());
    assert_eq!(s.poll_timeout(), Some(next + gap));
}

#[test]
fn sender_stops_producing_at_stop() {
    let mut s = DvrcSender::new(&DvrcConfig::default(), stream(1024), rates(), size(), Some(ms(100)));
    // Frames at 0, 40, 80 ms; one base-layer packet each.
    assert_eq!(drain(&mut s, ms(1000)).len(), 3);
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn pair_requires_layered_video() {
    let cfg = DvrcConfig::default();
    let e = pair(&cfg, crate::proto::Application::Bulk, size(), Instant::ZERO, None).err().unwrap();
    assert!(e.contains("layered video"), "{e}");
    let single: crate::media::stream::BoxedSource = Box::new(CbrSource::for_rate(kbps(500), 25.0).unwrap());
    let e = pair(&cfg, crate::proto::Application::Video(VideoStream::single(single)), size(), Instant::ZERO, None)
        .err()
        .unwrap();
    assert!(e.contains("layers"), "{e}");
    let e = pair(&cfg, crate::proto::Application::Video(stream(1024)), DataSize::from_bytes(36), Instant::ZERO, None)
        .err()
        .unwrap();
    assert!(e.contains("packet size"), "{e}");
    let bad = DvrcConfig { beta_d: 2.0, ..DvrcConfig::default() };
    let e = pair(&bad, crate::proto::Application::Video(stream(1024)), size(), Instant::ZERO, None).err().unwrap();
    assert!(e.contains("beta_d"), "{e}");
    assert!(pair(&cfg, crate::proto::Application::Video(stream(1024)), size(), Instant::ZERO, None).is_ok());
}

/// A lossless, fixed-delay path: R climbs to full quality and K follows to 5.
#[test]
fn lossless_loop_reaches_full_quality() {
    let cfg = DvrcConfig::default();
    let s = DvrcSender::new(&cfg, stream(1024), rates(), size(), None);
    let r = DvrcReceiver::new(&cfg, rates(), size());
    let mut pipe = Pipe::new(s, r, millis(70));
    pipe.run_until(ms(5000));
    assert_eq!(pipe.r.law().rate(), kbps(1024));
    assert_eq!(pipe.s.target_layers(), 5);
    assert_eq!(pipe.r.law().decision_counts(), (0, 0));
    assert_eq!(pipe.s.rtt().estimated_rtt(), Some(millis(70)));
}

// ---------------------------------------------------------------------------------------------
// Property: arbitrary delivery, loss, reordering, duplication and delay (the shared driver).

fn check_rate(rate: DataRate, floor: DataRate, cap: DataRate) -> Result<(), TestCaseError> {
    prop_assert!(rate >= floor && rate <= cap, "rate {rate:?} outside [{floor:?}, {cap:?}]");
    Ok(())
}

/// What must hold for a DVRC sender and receiver whatever the network does.
struct DvrcInvariants {
    floor: DataRate,
    cap: DataRate,
    last_timestamp_ns: u64,
    last_seq: Option<u32>,
}

impl Invariants<DvrcSender, DvrcReceiver> for DvrcInvariants {
    fn sender_sent(&mut self, _: &DvrcSender, t: &Transmit) -> Result<(), TestCaseError> {
        let h = DvrcData::parse(t.header.as_slice()).unwrap();
        // Internal time never runs backwards, even when the driver's does.
        prop_assert!(h.timestamp_ns >= self.last_timestamp_ns);
        prop_assert!(self.last_seq.is_none_or(|q| h.seq == q + 1));
        prop_assert!(h.layer < 5 && h.length as usize == t.wire_size().as_bytes() as usize);
        self.last_timestamp_ns = h.timestamp_ns;
        self.last_seq = Some(h.seq);
        Ok(())
    }

    fn receiver_event(&mut self, e: Event) -> Result<(), TestCaseError> {
        if let Event::RateChanged { rate } = e {
            check_rate(rate, self.floor, self.cap)?;
        }
        Ok(())
    }

    fn sender_event(&mut self, e: Event) -> Result<(), TestCaseError> {
        if let Event::LayersChanged { layers } = e {
            prop_assert!((1..=5).contains(&layers));
        }
        Ok(())
    }

    fn after_step(&mut self, s: &DvrcSender, r: &DvrcReceiver) -> Result<(), TestCaseError> {
        check_rate(r.law().rate(), self.floor, self.cap)?;
        prop_assert!((1..=5).contains(&r.layers()));
        prop_assert!((1..=5).contains(&s.target_layers()));
        if let Some((rbar, dbar)) = r.law().history() {
            prop_assert!(rbar.is_finite() && dbar.is_finite() && rbar >= 0.0 && dbar >= 0.0);
        }
        prop_assert!(r.effective_dto() > Duration::ZERO);
        prop_assert!(r.dto_deadline().is_none_or(|d| d > Instant::ZERO));
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_network_keeps_state_sane(ops in net_ops(Clock { max_advance: millis(300), max_rewind: millis(50) }, 1..400),
                                          guard: bool, r_prev: bool, pacing: bool, literal: bool) {
        let cfg = DvrcConfig {
            dto_guard: guard,
            compare: if r_prev { Compare::RPrev } else { Compare::Measured },
            pacing,
            dto_mode: if literal { DtoModeConfig::PaperLiteral } else { DtoModeConfig::TcpLike },
            ..DvrcConfig::default()
        };
        let mut s = DvrcSender::new(&cfg, stream(1024), rates(), size(), None);
        let mut r = DvrcReceiver::new(&cfg, rates(), size());
        let (floor, cap) = (r.law().floor(), r.law().cap());
        let mut check = DvrcInvariants { floor, cap, last_timestamp_ns: 0, last_seq: None };
        drive_network(&mut s, &mut r, &ops, &mut check)?;
    }

    #[test]
    fn receiver_never_panics_on_random_bytes((bytes, extra) in garbage()) {
        let mut r = DvrcReceiver::new(&DvrcConfig::default(), rates(), size());
        feed_garbage(&mut r, ms(1), &bytes, extra, Rejections::Counted)?;
        let mut s = DvrcSender::new(&DvrcConfig::default(), stream(1024), rates(), size(), None);
        feed_garbage(&mut s, ms(1), &bytes, extra, Rejections::NotCounted)?;
        prop_assert!((1..=5).contains(&s.target_layers()));
    }
}
