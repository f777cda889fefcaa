//! TFRC tests: sender and receiver rules on bare state with explicit time and hand-made
//! packets (values computed by hand in the comments), the pair over the shared test pipe, and
//! the shared property driver over arbitrary delivery, loss, reordering, duplication and delay.

use proptest::prelude::*;

use super::*;
use crate::endpoint::{Datagram, Endpoint, Event, PacketKind, PeerId, Transmit};
use crate::estimate::tcp_model::rfc5348_rate;
use crate::media::layers::{LayerRates, LayeredSource};
use crate::media::source::{CbrSource, FrameSource};
use crate::media::stream::{StreamSource, VideoStream};
use crate::proto::testing::*;
use crate::time::Duration;
use crate::units::DataRate;
use crate::wire::tfrc::{TfrcData, TfrcFeedback, TfrcHeader, DATA_BYTES};

const S: u32 = 1000;

pub(super) fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

/// A bulk sender that believes every feedback: the rules' tests feed hand-made numbers that no
/// receiver of what it sent could report (`proto::plausible` is tested below and in its module).
pub(super) fn bulk(cfg: &TfrcConfig) -> TfrcSender {
    let mut s = TfrcSender::new(cfg, Application::Bulk, S, Instant::ZERO, None).unwrap();
    s.trust_feedback();
    s
}

fn data_of(t: &Transmit) -> TfrcData {
    match TfrcHeader::parse(t.header.as_slice()) {
        Ok(TfrcHeader::Data(d)) => d,
        other => panic!("not a data packet: {other:?}"),
    }
}

fn feedback_of(t: &Transmit) -> TfrcFeedback {
    match TfrcHeader::parse(t.header.as_slice()) {
        Ok(TfrcHeader::Feedback(f)) => f,
        other => panic!("not a feedback packet: {other:?}"),
    }
}

/// Feeds the sender a feedback packet at `now` that echoes a packet sent at `echo`.
pub(super) fn feedback(s: &mut TfrcSender, now: Instant, echo: Instant, x_recv_bps: u64, p: f64) {
    let fb = TfrcFeedback {
        echo_seq: 0,
        timestamp_echo_ns: echo.as_nanos(),
        t_delay_us: 0,
        x_recv_bps,
        p_ppb: TfrcFeedback::p_to_ppb(p),
    };
    s.handle_datagram(now, Datagram { from: PeerId::PEER, bytes: fb.emit().as_slice(), virtual_payload: 0 }).unwrap();
}

/// Sends what is due at `now - 100 ms` and answers at `now` (R_sample = 100 ms).
pub(super) fn round(s: &mut TfrcSender, now: Instant, x_recv_bps: u64, p: f64) {
    let sent_at = Instant::from_nanos(now.as_nanos() - 100_000_000);
    drain(s, sent_at);
    feedback(s, now, sent_at, x_recv_bps, p);
}

fn data(r: &mut TfrcReceiver, now: Instant, seq: u32, rtt_us: u32) {
    let h = TfrcData { seq, timestamp_ns: seq as u64 * 1000, rtt_us }.emit();
    r.handle_datagram(
        now,
        Datagram { from: PeerId::PEER, bytes: h.as_slice(), virtual_payload: S - DATA_BYTES as u32 },
    )
    .unwrap();
}

// ---------------------------------------------------------------------------------------------
// Sender

#[test]
fn starts_at_one_packet_per_second() {
    let mut s = bulk(&TfrcConfig::default());
    assert_eq!(s.poll_timeout(), Some(Instant::ZERO));
    let t = drain(&mut s, Instant::ZERO);
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].wire_size().as_bytes(), 1000);
    assert_eq!(t[0].payload_len, 980);
    assert_eq!(t[0].meta.kind, PacketKind::Data);
    assert_eq!(data_of(&t[0]), TfrcData { seq: 0, timestamp_ns: 0, rtt_us: 0 });
    // §4.2: X = s/1 s = 1000 B/s = 8000 bit/s; the next packet 1 s later; the no-feedback timer
    // at 2 s (= 2s/X).
    assert_eq!(s.rate(), DataRate::from_bps(8000));
    assert_eq!(s.nofeedback_deadline(), Some(ms(2000)));
    assert_eq!(s.poll_timeout(), Some(ms(1000)));
    assert!(drain(&mut s, ms(999)).is_empty());
    assert_eq!(drain(&mut s, ms(1000)).len(), 1);
    assert_eq!(events(&mut s), vec![Event::RateChanged { rate: DataRate::from_bps(8000) }]);
}

#[test]
fn first_feedback_sets_r_and_the_initial_rate() {
    // R_sample = (100 − 0) ms − t_delay 0 = 100 ms; X_recv = 80 kbit/s = 10 000 B/s, p = 0.
    // recv_limit = 2·10 000 = 20 000. rfc3448: X = max(min(2·1000, 20 000), s/R = 10 000) = 10 000 B/s.
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0);
    assert_eq!(s.rtt(), Some(Duration::from_millis(100)));
    assert!(close(s.x_bytes_per_s(), 10_000.0, 1e-12));
    // RTO = max(4R, 2s/X) with the X before the update: max(0.4, 2·1000/1000) = 2 s.
    assert_eq!(s.nofeedback_deadline(), Some(ms(2100)));
    // rfc5348: W_init = min(4s, max(2s, 4380)) = 4000 B → X = 4000/0.1 = 40 000 B/s.
    let mut s = bulk(&TfrcConfig { initial_rate: InitialRate::Rfc5348, ..TfrcConfig::default() });
    round(&mut s, ms(100), 80_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 40_000.0, 1e-12));
    // Packets now leave every s/X = 1000/40 000 = 25 ms after the previous one (sent at 0).
    assert_eq!(s.poll_timeout(), Some(ms(25)));
}

#[test]
fn slow_start_doubles_once_per_rtt_within_twice_x_recv() {
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0); // X = 10 000, tld = 100 ms
                                         // 200 ms: X_recv 10 000 B/s, set {10 000, 10 000}: X = max(min(20 000, 20 000), 10 000) = 20 000
    round(&mut s, ms(200), 80_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 20_000.0, 1e-12));
    // 250 ms: only 50 ms since tld: unchanged.
    round(&mut s, ms(250), 400_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 20_000.0, 1e-12));
    // 300 ms: X_recv = 12 000 B/s; set max = max(10 000, 10 000, 50 000, 12 000) = 50 000
    // → recv_limit 100 000 → X = min(2·20 000, 100 000) = 40 000
    round(&mut s, ms(300), 96_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 40_000.0, 1e-12));
    // 400 ms: 50 000 (from 250 ms) is 150 ms old, kept (≤ 2R = 200 ms... R ≈ 0.1): X_recv 12 000,
    // max = 50 000 → X = min(80 000, 100 000) = 80 000
    round(&mut s, ms(400), 96_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 80_000.0, 1e-12));
    // 500 ms: the 250 ms entry is 250 ms > 2R old and gone; max = 12 000 → X = min(160 000, 24 000)
    round(&mut s, ms(500), 96_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 24_000.0, 1e-12));
}

#[test]
fn congestion_avoidance_follows_the_equation_and_x_recv() {
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0);
    // p = 0.01, R = 0.1 s: X_Bps = 1000 / (0.1·√(0.02/3) + 0.4·3·√(0.03/8)·0.01·(1 + 0.0032))
    //   = 1000 / (0.00816497 + 0.00073720) = 112 332.2 B/s; recv_limit = 2·125 000 → X = X_Bps
    round(&mut s, ms(200), 1_000_000, 0.01);
    assert!(close(s.x_bytes_per_s(), 112_332.234, 1e-6), "{}", s.x_bytes_per_s());
    assert!(close(s.x_calc().unwrap(), 112_332.234, 1e-6));
    // X_recv drops to 40 000 B/s; the 125 000 of 200 ms stays in X_recv_set for 2R.
    round(&mut s, ms(300), 320_000, 0.01);
    round(&mut s, ms(400), 320_000, 0.01);
    assert!(close(s.x_bytes_per_s(), 112_332.234, 1e-6));
    // 500 ms: the 200 ms entry is 300 ms old > 2R: recv_limit = 2·40 000 = 80 000 < X_Bps.
    round(&mut s, ms(500), 320_000, 0.01);
    assert!(close(s.x_bytes_per_s(), 80_000.0, 1e-12));
}

#[test]
fn rtt_is_an_ewma_with_q_09() {
    let mut s = bulk(&TfrcConfig::default());
    drain(&mut s, ms(0));
    feedback(&mut s, ms(100), ms(0), 80_000, 0.0);
    // R = 0.9·0.1 + 0.1·0.3 = 0.12 s
    feedback(&mut s, ms(400), ms(100), 80_000, 0.0);
    assert!(close(s.rtt().unwrap().as_secs_f64(), 0.12, 1e-9));
    // t_delay is subtracted: (600 − 400) ms − 100 ms = 100 ms → 0.9·0.12 + 0.01 = 0.118
    let fb =
        TfrcFeedback { echo_seq: 0, timestamp_echo_ns: 400_000_000, t_delay_us: 100_000, x_recv_bps: 80_000, p_ppb: 0 };
    s.handle_datagram(ms(600), Datagram { from: PeerId::PEER, bytes: fb.emit().as_slice(), virtual_payload: 0 })
        .unwrap();
    assert!(close(s.rtt().unwrap().as_secs_f64(), 0.118, 1e-9));
}

#[test]
fn rate_never_falls_below_s_over_t_mbi() {
    let mut s = bulk(&TfrcConfig::default());
    drain(&mut s, Instant::ZERO);
    // R = 10 s, p = 1: X_Bps = 1000 / (10·√(2/3) + 40·3·√(3/8)·1·33) = 1000/2433.15 = 0.411 B/s
    // < s/t_mbi = 1000/64 = 15.625 B/s
    feedback(&mut s, ms(10_000), Instant::ZERO, 8_000, 1.0);
    assert!(close(s.x_calc().unwrap(), 0.411, 1e-3));
    assert_eq!(s.x_bytes_per_s(), 15.625);
}

#[test]
fn a_new_loss_in_a_data_limited_interval_cuts_to_085_x_recv() {
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0); // X_recv_set = {10 000}
                                         // Nothing sent since the packet of t = 0, which the first feedback already echoed: the
                                         // interval this feedback covers is data-limited. p rose: X_recv_set halved → {5000};
                                         // X_recv ← 0.85·8000 = 6800; Maximize → {6800}; recv_limit = max = 6800 (no factor 2).
    feedback(&mut s, ms(200), Instant::ZERO, 64_000, 0.01);
    assert_eq!(s.counters().data_limited_feedbacks, 1);
    assert_eq!(s.x_recv_set().collect::<Vec<_>>(), vec![6800.0]);
    assert!(close(s.x_bytes_per_s(), 6800.0, 1e-12));
    // Still data-limited, p unchanged: Maximize keeps 6800 against X_recv 4000 → limit 13 600.
    feedback(&mut s, ms(300), Instant::ZERO, 32_000, 0.01);
    assert!(close(s.x_bytes_per_s(), 13_600.0, 1e-12));
}

#[test]
fn nofeedback_timer_halves_before_the_first_feedback_unless_idle() {
    let mut s = bulk(&TfrcConfig::default());
    drain(&mut s, Instant::ZERO);
    s.handle_timeout(ms(2000));
    // X = max(1000/2, 15.625) = 500 B/s; next expiry after max(4·0, 2·1000/500) = 4 s.
    assert_eq!(s.x_bytes_per_s(), 500.0);
    assert_eq!(s.nofeedback_deadline(), Some(ms(6000)));
    assert_eq!(
        events(&mut s),
        vec![
            Event::RateChanged { rate: DataRate::from_bps(8000) },
            Event::Timeout,
            Event::RateChanged { rate: DataRate::from_bps(4000) },
        ]
    );
    // A sender that sent nothing since the timer was set keeps its rate.
    let mut idle = bulk(&TfrcConfig::default());
    idle.handle_timeout(Instant::ZERO);
    idle.handle_timeout(ms(2000));
    assert_eq!(idle.x_bytes_per_s(), 1000.0);
}

#[test]
fn nofeedback_timer_halves_in_slow_start_and_congestion_avoidance() {
    // p = 0: X = 10 000 after the first feedback; a packet is sent; the timer (2.1 s) halves X.
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0);
    drain(&mut s, ms(100));
    s.handle_timeout(ms(2100));
    assert_eq!(s.x_bytes_per_s(), 5000.0);
    // Restarted after max(4R, 2s/X) = max(0.4, 0.4) s.
    assert_eq!(s.nofeedback_deadline(), Some(ms(2500)));

    // p > 0 and X_Bps (112 332) > 2·X_recv (2·10 000): Update_Limits(X_recv) → X_recv_set =
    // {5000}, X = min(X_Bps, 2·5000) = 10 000 = X_recv: half of the 2·X_recv it had.
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0);
    round(&mut s, ms(200), 80_000, 0.01);
    assert!(close(s.x_bytes_per_s(), 20_000.0, 1e-12));
    drain(&mut s, ms(200));
    let t = s.nofeedback_deadline().unwrap();
    s.handle_timeout(t);
    assert!(close(s.x_bytes_per_s(), 10_000.0, 1e-12));

    // p > 0 and X_Bps ≤ 2·X_recv: Update_Limits(X_Bps/2) → X = X_Bps/2 = 56 166.1
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0);
    round(&mut s, ms(200), 1_000_000, 0.01);
    drain(&mut s, ms(200));
    let t = s.nofeedback_deadline().unwrap();
    s.handle_timeout(t);
    assert!(close(s.x_bytes_per_s(), 112_332.234 / 2.0, 1e-6));
    assert_eq!(s.counters().nofeedback_expiries, 1);
}

#[test]
fn an_idle_sender_at_the_restart_rate_is_not_halved() {
    // p = 0, X = 10 000 < 2·recover_rate (2·s/R = 20 000) and idle since the timer was set.
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0);
    let t = s.nofeedback_deadline().unwrap();
    s.handle_timeout(t);
    assert_eq!(s.x_bytes_per_s(), 10_000.0);
}

#[test]
fn packets_are_paced_at_x() {
    let mut s = bulk(&TfrcConfig::default());
    round(&mut s, ms(100), 80_000, 0.0); // X = 10 000 B/s: one packet per 100 ms
    let times: Vec<u64> = (0..5)
        .map(|_| {
            let t = s.poll_timeout().unwrap();
            assert_eq!(drain(&mut s, t).len(), 1);
            t.as_nanos() / 1_000_000
        })
        .collect();
    assert_eq!(times, vec![100, 200, 300, 400, 500]);
}

#[test]
fn oscillation_prevention_scales_the_interval_by_sqrt_of_the_rtt_sample() {
    let cfg = TfrcConfig { oscillation_prevention: true, ..TfrcConfig::default() };
    let mut s = bulk(&cfg);
    round(&mut s, ms(100), 80_000, 0.0); // R_sqmean = √0.1, X = 10 000
    drain(&mut s, ms(100));
    // Sample 0.4 s: R_sqmean = 0.9·0.316228 + 0.1·0.632456 = 0.347851; R = 0.13 → X = s/R floor
    // dominates: X = max(min(20 000, 2·10 000), 1000/0.13) = 20 000.
    // X_inst = 20 000·0.347851/0.632456 = 11 000.0 B/s → 1000 B every 90.909 ms.
    feedback(&mut s, ms(500), ms(100), 80_000, 0.0);
    assert!(close(s.x_bytes_per_s(), 20_000.0, 1e-12));
    let next = s.poll_timeout().unwrap();
    let gap = next.as_nanos() as f64 / 1e9 - 0.1;
    assert!(close(gap, 1000.0 / (20_000.0 * 0.347_851 / 0.632_456), 1e-5), "{gap}");
}

#[test]
fn stop_ends_sending_and_timers() {
    let mut s = TfrcSender::new(&TfrcConfig::default(), Application::Bulk, S, ms(10), Some(ms(1500))).unwrap();
    assert_eq!(s.poll_timeout(), Some(ms(10)));
    assert_eq!(drain(&mut s, ms(10)).len(), 1);
    assert_eq!(drain(&mut s, ms(1010)).len(), 1);
    assert!(drain(&mut s, ms(2010)).is_empty());
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn malformed_and_misdirected_datagrams_are_counted() {
    let mut s = bulk(&TfrcConfig::default());
    let mut r = TfrcReceiver::new(&TfrcConfig::default(), S);
    assert!(s.handle_datagram(ms(1), Datagram { from: PeerId::PEER, bytes: &[1, 2], virtual_payload: 0 }).is_err());
    let d = TfrcData { seq: 0, timestamp_ns: 0, rtt_us: 0 }.emit();
    assert!(s
        .handle_datagram(ms(1), Datagram { from: PeerId::PEER, bytes: d.as_slice(), virtual_payload: 0 })
        .is_err());
    let fb = TfrcFeedback { echo_seq: 0, timestamp_echo_ns: 0, t_delay_us: 0, x_recv_bps: 0, p_ppb: 0 }.emit();
    assert!(r
        .handle_datagram(ms(1), Datagram { from: PeerId::PEER, bytes: fb.as_slice(), virtual_payload: 0 })
        .is_err());
    // An echo of a time not yet reached cannot come from our receiver.
    drain(&mut s, ms(0));
    let future =
        TfrcFeedback { echo_seq: 0, timestamp_echo_ns: 5_000_000, t_delay_us: 0, x_recv_bps: 0, p_ppb: 0 }.emit();
    assert!(s
        .handle_datagram(ms(1), Datagram { from: PeerId::PEER, bytes: future.as_slice(), virtual_payload: 0 })
        .is_err());
    assert_eq!(s.stats().malformed_datagrams, 3);
    assert_eq!(r.stats().malformed_datagrams, 1);
    assert_eq!(s.x_bytes_per_s(), 1000.0);
    assert_eq!(s.counters().feedbacks, 0);
}

fn layered_video(rate_kbps: u64) -> VideoStream {
    let src: Box<dyn FrameSource + Send> = Box::new(CbrSource::for_rate(DataRate::from_kbps(rate_kbps), 25.0).unwrap());
    VideoStream::new(StreamSource::Layered(LayeredSource::new(src, LayerRates::dvrc_default())), Default::default())
}

#[test]
fn video_sends_every_layer_through_the_fifo() {
    // 1 Mbit/s at 25 fps: 5000 B frames split 625/625/1250/1250/1250 over 5 layers; 980 B of
    // payload per packet → 1 + 1 + 2 + 2 + 2 = 8 packets per frame, queued at the frame's time.
    let mut s =
        TfrcSender::new(&TfrcConfig::default(), Application::Video(layered_video(1000)), S, Instant::ZERO, None)
            .unwrap();
    let t = drain(&mut s, Instant::ZERO);
    // At 1 packet/s only the first leaves; the other 7 wait in the buffer.
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].meta.media.layer, 0);
    assert_eq!(t[0].payload_len, 625);
    assert_eq!(t[0].wire_size().as_bytes(), 645);
    assert_eq!(s.buffer_stats().unwrap().pushed, 8);
    // The next packet leaves 645 B / 1000 B/s = 645 ms later; frames keep arriving meanwhile.
    assert_eq!(s.poll_timeout(), Some(ms(40)));
    let t = drain(&mut s, ms(645));
    assert_eq!(t.len(), 1);
    assert_eq!((t[0].meta.media.frame, t[0].meta.media.layer), (0, 1));
    // 17 frames ready by 645 ms (0, 40, …, 640), none dropped: the buffer is unbounded.
    assert_eq!(s.buffer_stats().unwrap().pushed, 17 * 8);
    assert_eq!(s.buffer_stats().unwrap().dropped_deadline + s.buffer_stats().unwrap().dropped_overflow, 0);
    // One packet per visit, 2 s apart (each takes ≤ 1 s at X = 1000 B/s): the rest of frame 0.
    let layers: Vec<u8> =
        (0..6).map(|k| drain(&mut s, ms(10_000 + 2000 * k)).first().map_or(9, |t| t.meta.media.layer)).collect();
    assert_eq!(layers, vec![2, 2, 3, 3, 4, 4]);
}

#[test]
fn bounded_sender_buffer_drops_old_packets() {
    let cfg = TfrcConfig { sender_buffer_max_age_ns: Some(100_000_000), ..TfrcConfig::default() };
    let mut s = TfrcSender::new(&cfg, Application::Video(layered_video(1000)), S, Instant::ZERO, None).unwrap();
    drain(&mut s, Instant::ZERO);
    // At 645 ms only frames ready after 545 ms are still young enough: frames 14, 15, 16.
    let t = drain(&mut s, ms(645));
    assert_eq!(t[0].meta.media.frame, 14);
    assert!(s.buffer_stats().unwrap().dropped_deadline >= 14 * 8 - 1);
}

// ---------------------------------------------------------------------------------------------
// Receiver

#[test]
fn receiver_answers_the_first_packet_and_every_packet_until_it_knows_r() {
    let mut r = TfrcReceiver::new(&TfrcConfig::default(), S);
    data(&mut r, ms(50), 0, 0);
    let t = drain(&mut r, ms(50));
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].meta.kind, PacketKind::Control);
    let f = feedback_of(&t[0]);
    assert_eq!((f.echo_seq, f.timestamp_echo_ns, f.t_delay_us, f.x_recv_bps, f.p_ppb), (0, 0, 0, 0, 0));
    // No R_m yet: the next packet is answered too, 10 ms after it arrived; X_recv = the rate
    // since the last feedback = 1000 B over 1.01 s = 7920.8 → 7920 bit/s.
    data(&mut r, ms(1050), 1, 0);
    let f = feedback_of(&drain(&mut r, ms(1060))[0]);
    assert_eq!((f.echo_seq, f.t_delay_us, f.x_recv_bps), (1, 10_000, 7920));
    assert_eq!(r.stats().app_bytes_delivered, 2 * 980);
}

#[test]
fn receiver_feeds_back_once_per_rtt() {
    let mut r = TfrcReceiver::new(&TfrcConfig::default(), S);
    data(&mut r, ms(0), 0, 100_000);
    assert_eq!(drain(&mut r, ms(0)).len(), 1);
    assert_eq!(r.poll_timeout(), Some(ms(100)));
    // Packets every 10 ms: nothing until the timer; then X_recv = 10 packets in (0, 100] ms ...
    for k in 1..=10u32 {
        data(&mut r, ms(10 * k as u64), k, 100_000);
        if k < 10 {
            assert!(drain(&mut r, ms(10 * k as u64)).is_empty());
        }
    }
    r.handle_timeout(ms(100));
    let f = feedback_of(&drain(&mut r, ms(100))[0]);
    // ... = 10 000 B / 0.1 s = 800 000 bit/s (seq 0, at 0 ms, is outside (0, 100])
    assert_eq!((f.echo_seq, f.x_recv_bps), (10, 800_000));
    assert_eq!(r.poll_timeout(), Some(ms(200)));
    // Idle interval: no feedback, and the timer is not re-armed.
    r.handle_timeout(ms(200));
    assert!(drain(&mut r, ms(200)).is_empty());
    assert_eq!(r.poll_timeout(), None);
    // The next packet, R after the last feedback: answered at once.
    data(&mut r, ms(350), 11, 100_000);
    assert_eq!(drain(&mut r, ms(350)).len(), 1);
    assert_eq!(r.counters().feedbacks, 3);
}

/// Packets 0..n at 10 ms spacing with R = 100 ms, except `lost`.
fn stream(r: &mut TfrcReceiver, from: u32, to: u32, lost: &[u32]) -> Vec<TfrcFeedback> {
    let mut fbs = vec![];
    for seq in from..to {
        let t = ms(10 * seq as u64);
        if r.poll_timeout().is_some_and(|d| d <= t) {
            r.handle_timeout(t);
            fbs.extend(drain(r, t).iter().map(feedback_of));
        }
        if !lost.contains(&seq) {
            data(r, t, seq, 100_000);
            fbs.extend(drain(r, t).iter().map(feedback_of));
        }
    }
    fbs
}

#[test]
fn first_loss_needs_three_later_packets_and_synthesises_the_first_interval() {
    let mut r = TfrcReceiver::new(&TfrcConfig::default(), S);
    stream(&mut r, 0, 53, &[50]);
    // 51, 52 arrived: not yet lost (NDUPACK = 3).
    assert_eq!(r.counters().loss_events, 0);
    let fbs = stream(&mut r, 53, 54, &[]);
    assert_eq!(r.counters().loss_events, 1);
    // Feedback at once (p rose). X_recv at 530 ms: seqs 44..=53 minus 50 in (430, 530] ms =
    // 9000 B / 0.1 s = 90 000 B/s. §6.3.1: p with X(p) = 90 000 (s = 1000, R = 0.1, t_RTO = 0.4)
    // is 0.014474 → I_1 = round(69.09) = 69. I_0 = 53 − 50 + 1 = 4 < 69 → p = 1/69.
    assert_eq!(fbs.len(), 1);
    assert_eq!(r.loss_intervals().closed().collect::<Vec<_>>(), vec![69]);
    assert_eq!(r.loss_intervals().open(), 4);
    assert!(close(r.loss_event_rate(), 1.0 / 69.0, 1e-12));
    assert_eq!(fbs[0].p_ppb, 14_492_754); // 10⁹/69 = 14 492 753.6
    assert_eq!(events(&mut r), vec![Event::LossEvent]);
}

#[test]
fn losses_within_one_rtt_are_one_loss_event() {
    let mut r = TfrcReceiver::new(&TfrcConfig::default(), S);
    // Nominal times 500 and 550 ms: within R = 100 ms of the event's start, one event; 700 ms
    // is later than 500 + 100: a new event, closing an interval of 70 − 50 = 20 packets.
    stream(&mut r, 0, 100, &[50, 55, 70]);
    assert_eq!(r.counters().lost_packets, 3);
    assert_eq!(r.counters().loss_events, 2);
    assert_eq!(r.loss_intervals().closed().collect::<Vec<_>>(), vec![20, 69]);
    // I_0 = 99 − 70 + 1 = 30; k = 2: I_tot0 = 30 + 20 = 50, I_tot1 = 20 + 69 = 89 → I_mean = 44.5
    assert!(close(r.loss_event_rate(), 1.0 / 44.5, 1e-12));
}

#[test]
fn a_long_outage_is_split_by_interpolated_arrival_times() {
    let mut r = TfrcReceiver::new(&TfrcConfig::default(), S);
    stream(&mut r, 0, 11, &[]);
    // 11..=19 lost; 20 arrives at 1100 ms. T(s) = 100 + 1000·(s − 10)/10 ms: 11 → 200 ms starts
    // an event; the next beyond 200 + 100 is 13 (400), then 15 (600), 17 (800), 19 (1000).
    for (k, seq) in [20u32, 21, 22].into_iter().enumerate() {
        data(&mut r, ms(1100 + 10 * k as u64), seq, 100_000);
    }
    assert_eq!(r.counters().loss_events, 5);
    let closed: Vec<u64> = r.loss_intervals().closed().collect();
    assert_eq!(&closed[..4], &[2, 2, 2, 2]);
    assert_eq!(r.loss_intervals().open(), 22 - 19 + 1);
}

#[test]
fn reordering_within_ndupack_is_not_a_loss_and_duplicates_are_not_delivered() {
    let mut r = TfrcReceiver::new(&TfrcConfig::default(), S);
    for (k, seq) in [0u32, 1, 3, 4, 2, 5, 6, 6].into_iter().enumerate() {
        data(&mut r, ms(10 * k as u64), seq, 100_000);
    }
    assert_eq!(r.counters().loss_events, 0);
    assert_eq!(r.stats().app_packets_delivered, 7);
    // With NDUPACK = 1 (ns-2 numPkts_) the same order is a loss.
    let mut r = TfrcReceiver::new(&TfrcConfig { ndupack: 1, ..TfrcConfig::default() }, S);
    for (k, seq) in [0u32, 1, 3, 4, 2].into_iter().enumerate() {
        data(&mut r, ms(10 * k as u64), seq, 100_000);
    }
    assert_eq!(r.counters().loss_events, 1);
}

// ---------------------------------------------------------------------------------------------
// The pair over a fixed-delay pipe

#[test]
fn periodic_loss_converges_to_the_equation_rate() {
    // One data packet in 100 dropped, RTT 100 ms, no bandwidth limit: every interval is 100
    // packets (drops ≈ 0.9 s apart, > R), so I_mean → 100 and p → 0.01 exactly, R → 0.1 s, and
    // X → X_Bps(p = 0.01, R = 0.1) = 112 332.2 B/s (2·X_recv ≈ 2·0.99·X does not bind).
    let drops: Vec<u64> = (1..=60).map(|k| 100 * k).collect();
    let p = pair(&TfrcConfig::default(), Application::Bulk, DataSize::from_bytes(1000), Instant::ZERO, None).unwrap();
    let mut pipe = Pipe::new(p.sender, p.receiver, Duration::from_millis(100)).drop_first(&drops);
    pipe.run_until(ms(30_000));
    let at_30 = pipe.r.stats().app_bytes_delivered;
    pipe.run_until(ms(50_000));
    let goodput = (pipe.r.stats().app_bytes_delivered - at_30) as f64 / 20.0;
    let x = rfc5348_rate(1000.0, 0.1, 0.01, 0.4, 1.0);
    // Receiver goodput = X·(1 − 0.01)·980/1000 = 108 881 B/s.
    let expected = x * 0.99 * 0.98;
    assert!(close(goodput, expected, 0.01), "goodput {goodput} vs {expected}");
    let rates: Vec<f64> = pipe
        .events
        .iter()
        .filter_map(|(t, e)| match e {
            Event::RateChanged { rate } if *t > ms(40_000) => Some(rate.as_bps_f64() / 8.0),
            _ => None,
        })
        .collect();
    assert!(rates.iter().all(|r| close(*r, x, 0.02)), "{rates:?}");
}

#[test]
fn pair_rejects_bad_configs_and_tiny_packets() {
    let size = DataSize::from_bytes(1000);
    let bad = TfrcConfig { q: 1.0, ..TfrcConfig::default() };
    assert!(pair(&bad, Application::Bulk, size, Instant::ZERO, None).err().unwrap().contains("q"));
    let bad = TfrcConfig { ndupack: 0, ..TfrcConfig::default() };
    assert!(pair(&bad, Application::Bulk, size, Instant::ZERO, None).err().unwrap().contains("ndupack"));
    let tiny = DataSize::from_bytes(20);
    assert!(pair(&TfrcConfig::default(), Application::Bulk, tiny, Instant::ZERO, None).is_err());
}

// ---------------------------------------------------------------------------------------------
// Arbitrary network behaviour

fn config() -> impl Strategy<Value = TfrcConfig> {
    (
        1u32..5,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        1.0f64..6.0,
        proptest::option::of(1u64..50),
        any::<(bool, bool)>(),
    )
        .prop_map(|(ndupack, hd, osc, init, k, buf, (ns2, tcp))| TfrcConfig {
            ndupack,
            rules: if ns2 { RateRules::Ns2 } else { RateRules::Rfc5348 },
            t_rto: if tcp { RtoRule::Tcp } else { RtoRule::FourR },
            history_discounting: hd,
            oscillation_prevention: osc,
            initial_rate: if init { InitialRate::Rfc5348 } else { InitialRate::Rfc3448 },
            nofeedback_rtts: k,
            sender_buffer_packets: buf,
            ..TfrcConfig::default()
        })
}

/// What must hold for a TFRC sender and receiver whatever the network does.
struct TfrcInvariants {
    last_timestamp_ns: u64,
    sent_payload: u64,
}

/// X never falls below s/t_mbi = 1000 B / 64 s.
const MIN_RATE: f64 = 1000.0 / 64.0;

impl Invariants<TfrcSender, TfrcReceiver> for TfrcInvariants {
    fn sender_sent(&mut self, _: &TfrcSender, t: &Transmit) -> Result<(), TestCaseError> {
        let d = data_of(t);
        prop_assert!(d.timestamp_ns >= self.last_timestamp_ns, "sender time went backwards");
        self.last_timestamp_ns = d.timestamp_ns;
        self.sent_payload += t.payload_len as u64;
        Ok(())
    }

    fn sender_event(&mut self, e: Event) -> Result<(), TestCaseError> {
        if let Event::RateChanged { rate } = e {
            prop_assert!(rate.as_bps_f64() >= 8.0 * MIN_RATE * (1.0 - 1e-9));
        }
        Ok(())
    }

    fn after_step(&mut self, s: &TfrcSender, r: &TfrcReceiver) -> Result<(), TestCaseError> {
        let x = s.x_bytes_per_s();
        prop_assert!(x.is_finite() && x >= MIN_RATE, "X = {}", x);
        prop_assert!(s.rtt().is_none_or(|r| r > Duration::ZERO));
        let p = r.loss_event_rate();
        prop_assert!((0.0..=1.0).contains(&p), "p = {}", p);
        prop_assert!(s.loss_event_rate() >= 0.0 && s.loss_event_rate() <= 1.0);
        prop_assert!(r.stats().app_bytes_delivered <= self.sent_payload);
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_network_behaviour_keeps_the_invariants(
        cfg in config(),
        video in any::<bool>(),
        ops in net_ops(Clock { max_advance: millis(300), max_rewind: millis(100) }, 0..400),
    ) {
        let app = if video { Application::Video(layered_video(800)) } else { Application::Bulk };
        let mut s = TfrcSender::new(&cfg, app, S, Instant::ZERO, None).unwrap();
        let mut r = TfrcReceiver::new(&cfg, S);
        drive_network(&mut s, &mut r, &ops, &mut TfrcInvariants { last_timestamp_ns: 0, sent_payload: 0 })?;
    }

    #[test]
    fn endpoints_never_panic_on_random_bytes(cfg in config(), (bytes, extra) in garbage()) {
        let mut p = pair(&cfg, Application::Bulk, DataSize::from_bytes(1000), Instant::ZERO, None).unwrap();
        drain(&mut p.sender, Instant::ZERO);
        feed_garbage(&mut p.sender, ms(1), &bytes, extra, Rejections::Counted)?;
        feed_garbage(&mut p.receiver, ms(1), &bytes, extra, Rejections::Counted)?;
    }
}
