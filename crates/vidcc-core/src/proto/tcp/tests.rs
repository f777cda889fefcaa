//! Tests of the TCP agents: bare-state tests with explicit time and hand-made ACKs, then a
//! sender and a receiver joined by the shared test [`Pipe`] (integer time, deterministic drops),
//! then the shared property driver over arbitrary delivery sequences.

use crate::endpoint::{Datagram, Endpoint, EndpointStats, Event, PacketKind, PeerId, Transmit};
use crate::proto::testing::*;
use crate::units::DataSize;
use crate::{Duration, Instant};
use proptest::prelude::*;

use super::config::TcpConfig;
use super::*;

const PKT: u32 = 1000;
const PAYLOAD: u64 = 960;

/// The bare-state tests check each rule on its own: limited transmit, which adds segments on the
/// first two duplicate ACKs, is off here and has its own tests (`limited_transmit_*`).
fn sender<C: CongestionControl>(cc: C) -> TcpSender<C> {
    TcpSender::new(cc, &TcpConfig { limited_transmit: false, ..TcpConfig::default() }, PKT, Instant::ZERO, None)
}

fn sender_with_limited_transmit<C: CongestionControl>(cc: C) -> TcpSender<C> {
    TcpSender::new(cc, &TcpConfig::default(), PKT, Instant::ZERO, None)
}

/// Feeds a hand-made cumulative ACK whose echo says the acknowledged copy left at `echo`.
pub(crate) fn ack<C: CongestionControl>(s: &mut TcpSender<C>, now: Instant, ack: u64, echo: Instant) {
    let h = TcpHeader::Ack { ack, ts_ns: now.as_nanos(), ts_echo_ns: echo.as_nanos(), sack: SackBlocks::EMPTY }.emit();
    receive(s, now, h.as_slice(), 0).unwrap();
}

fn segment(r: &mut TcpReceiver, now: Instant, seq: u64) {
    let h = TcpHeader::Data { seq, ts_ns: now.as_nanos() }.emit();
    receive(r, now, h.as_slice(), PAYLOAD as u32).unwrap();
}

fn acks_of(r: &mut TcpReceiver, now: Instant) -> Vec<u64> {
    sent_seqs(r, now).into_iter().map(|(a, _)| a).collect()
}

/// Congestion avoidance for `rtts` round trips of 100 ms: each RTT the sender sends its window
/// (checked to be ⌊cwnd⌋ segments) and every segment is acknowledged one RTT later. Returns the
/// window's growth in each RTT.
pub(crate) fn growth_per_rtt<C: CongestionControl>(s: &mut TcpSender<C>, rtts: u64) -> Vec<f64> {
    let mut acked = s.snd_una();
    (0..rtts)
        .map(|rtt| {
            let sent = sent_seqs(s, ms(100 * rtt)).len() as u64;
            assert_eq!(sent, s.cwnd().floor() as u64, "RTT {rtt}: the whole window goes out");
            let before = s.cwnd();
            for _ in 0..sent {
                acked += 1;
                ack(s, ms(100 * (rtt + 1)), acked, ms(100 * rtt));
            }
            s.cwnd() - before
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Sender, bare state

#[test]
fn starts_at_start_and_sends_the_initial_window() {
    let mut s = TcpSender::new(Reno, &TcpConfig::default(), PKT, ms(1000), None);
    assert_eq!(s.poll_timeout(), Some(ms(1000)));
    assert_eq!(sent_seqs(&mut s, ms(999)), vec![]);
    let t = s.poll_transmit(ms(1000)).unwrap();
    assert_eq!(t.wire_size(), DataSize::from_bytes(1000));
    assert_eq!(t.payload_len, 960);
    assert_eq!(t.meta.kind, PacketKind::Data);
    assert_eq!(sent_seqs(&mut s, ms(1000)), vec![(1, false)]);
    // The timer runs with data outstanding: the initial RTO of 1 s.
    assert_eq!(s.poll_timeout(), Some(ms(2000)));
}

#[test]
fn slow_start_doubles_the_window_in_one_rtt() {
    let mut s = sender(Reno);
    assert_eq!(sent_seqs(&mut s, ms(0)), vec![(0, false), (1, false)]);
    assert_eq!(s.cwnd(), 2.0);
    ack(&mut s, ms(100), 1, ms(0));
    ack(&mut s, ms(100), 2, ms(0));
    assert_eq!(s.cwnd(), 4.0);
    assert_eq!(sent_seqs(&mut s, ms(100)), vec![(2, false), (3, false), (4, false), (5, false)]);
}

#[test]
fn congestion_avoidance_adds_about_one_segment_per_rtt() {
    let mut s = sender(Reno);
    s.set_window(10.0, 10.0);
    // ⌊W⌋ ACKs of 1/W each: a little less than one segment per RTT.
    let growth = growth_per_rtt(&mut s, 10);
    assert!(growth.iter().all(|&g| g > 0.85 && g <= 1.0), "growth per RTT {growth:?}");
    assert!(s.cwnd() > 19.0 && s.cwnd() < 20.0, "cwnd {}", s.cwnd());
}

#[test]
fn window_is_capped_by_max_window() {
    let mut s = sender(Reno);
    s.set_window(64.0, f64::INFINITY);
    assert_eq!(s.window_limit(), 64);
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 64);
    for a in 1..=64 {
        ack(&mut s, ms(100), a, ms(0));
    }
    assert_eq!(s.cwnd(), 64.0, "slow start stops at window_ = 64 000 B / 1000 B");
    assert_eq!(sent_seqs(&mut s, ms(100)).len(), 64);
}

/// Segments 0..=9 sent with cwnd 10 in congestion avoidance, segment 1 lost: the ACK of 0
/// releases segment 10, then 9 duplicate ACKs (for 2..=10) arrive.
fn three_dupacks_one_fast_retransmit<C: CongestionControl>(cc: C) {
    let mut s = sender(cc);
    s.set_window(10.0, 5.0);
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 10);
    ack(&mut s, ms(100), 1, ms(0));
    assert_eq!(sent_seqs(&mut s, ms(100)), vec![(10, false)]);
    ack(&mut s, ms(101), 1, ms(1));
    ack(&mut s, ms(101), 1, ms(1));
    assert_eq!(sent_seqs(&mut s, ms(101)), vec![], "two duplicates do nothing");
    ack(&mut s, ms(101), 1, ms(1));
    assert_eq!(sent_seqs(&mut s, ms(101)), vec![(1, true)], "the third retransmits the hole");
    // The ACK of 0 opened cwnd to 10.1: ssthresh = ⌊10.1/2⌋ = 5, cwnd = 10.1/2 = 5.05 (ns-2
    // CLOSE_CWND_HALF with precisionReduce_), +3 inflation.
    assert_eq!(s.ssthresh(), 5.0);
    assert_eq!(s.cwnd(), 5.05);
    assert!(s.in_recovery());
    assert_eq!(events(&mut s), vec![Event::LossEvent, Event::WindowChanged { cwnd: DataSize::from_bytes(5000) }]);
    // Duplicates 4..=9 inflate the window to ⌊5.05 + 9⌋ = 14: segments up to 1 + 14 − 1 = 14 go
    // out as new data; the hole is not retransmitted again.
    let mut sent = vec![];
    for _ in 4..=9 {
        ack(&mut s, ms(102), 1, ms(2));
        sent.extend(sent_seqs(&mut s, ms(102)));
    }
    assert_eq!(sent, vec![(11, false), (12, false), (13, false), (14, false)]);
    assert_eq!(s.counters().fast_retransmits, 1);
    assert_eq!(s.counters().retransmissions, 1);
    assert_eq!(events(&mut s), vec![], "no window event per ACK");
}

#[test]
fn reno_three_dupacks_trigger_exactly_one_fast_retransmit() {
    three_dupacks_one_fast_retransmit(Reno);
}

#[test]
fn newreno_three_dupacks_trigger_exactly_one_fast_retransmit() {
    three_dupacks_one_fast_retransmit(NewReno);
}

/// RFC 3042 / ns-2 `send_one()`: the first and second duplicate ACKs each release one new segment
/// beyond the window, as long as `snd_nxt + 1 ≤ snd_una + cwnd + dupacks`; the third starts fast
/// retransmit as before, and cwnd is not changed by the limited-transmit segments.
fn limited_transmit_sends_one_new_segment_per_early_duplicate<C: CongestionControl>(cc: C) {
    let mut s = sender_with_limited_transmit(cc);
    s.set_window(10.0, 5.0);
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 10);
    ack(&mut s, ms(100), 1, ms(0)); // cwnd 10.1, segment 10 released
    assert_eq!(sent_seqs(&mut s, ms(100)), vec![(10, false)]);
    ack(&mut s, ms(101), 1, ms(1));
    let first: Vec<_> = std::iter::from_fn(|| s.poll_transmit(ms(101))).collect();
    assert_eq!(
        first.iter().map(|t| (t.meta.seq, t.meta.retransmit, t.meta.urgent)).collect::<Vec<_>>(),
        vec![(11, false, true)],
        "12 ≤ 1 + 10.1 + 1: one new segment, sent at once"
    );
    ack(&mut s, ms(101), 1, ms(1));
    assert_eq!(sent_seqs(&mut s, ms(101)), vec![(12, false)], "13 ≤ 1 + 10.1 + 2");
    assert_eq!(s.cwnd(), 10.1, "limited transmit leaves cwnd alone");
    ack(&mut s, ms(101), 1, ms(1));
    assert_eq!(sent_seqs(&mut s, ms(101)), vec![(1, true)], "the third duplicate retransmits the hole");
    assert_eq!(s.counters().fast_retransmits, 1);
}

#[test]
fn limited_transmit_reno() {
    limited_transmit_sends_one_new_segment_per_early_duplicate(Reno);
}

#[test]
fn limited_transmit_newreno() {
    limited_transmit_sends_one_new_segment_per_early_duplicate(NewReno);
}

#[test]
fn limited_transmit_tahoe() {
    limited_transmit_sends_one_new_segment_per_early_duplicate(Tahoe);
}

/// ns-2 tests against cwnd + dupacks: at cwnd 2 with segments 0..=2 outstanding, the first
/// duplicate would need snd_nxt + 1 = 4 ≤ 0 + 2 + 1 (no), the second allows it (4 ≤ 0 + 2 + 2).
/// Turned off, no duplicate sends anything.
#[test]
fn limited_transmit_respects_cwnd_plus_dupacks_and_can_be_turned_off() {
    for on in [true, false] {
        let cfg = TcpConfig { limited_transmit: on, initial_window: 3, ..TcpConfig::default() };
        let mut s = TcpSender::new(NewReno, &cfg, PKT, Instant::ZERO, None);
        assert_eq!(sent_seqs(&mut s, ms(0)).len(), 3);
        s.set_window(2.0, 1.0);
        ack(&mut s, ms(100), 0, ms(0));
        assert_eq!(sent_seqs(&mut s, ms(100)), vec![], "4 > 0 + 2 + 1");
        ack(&mut s, ms(100), 0, ms(0));
        let expected = if on { vec![(3, false)] } else { vec![] };
        assert_eq!(sent_seqs(&mut s, ms(100)), expected, "4 ≤ 0 + 2 + 2 (limited transmit {on})");
    }
}

#[test]
fn ssthresh_never_below_two_segments() {
    let mut s = sender(Reno);
    s.set_window(3.0, 2.0);
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 3);
    for _ in 0..3 {
        ack(&mut s, ms(100), 0, ms(0));
    }
    // Nothing acknowledged: ack 0 repeats snd_una = 0, and cwnd 3 → max(⌊1.5⌋, 2) = 2.
    assert_eq!(s.ssthresh(), 2.0);
    assert_eq!(s.counters().fast_retransmits, 1);
}

/// Segments 1 and 4 of 0..=10 lost; dupacks for 2, 3, 5..=10 (8 of them), then the
/// retransmitted 1 arrives and the receiver acknowledges up to the next hole: ACK 4.
fn two_losses_until_partial_ack<C: CongestionControl>(cc: C) -> TcpSender<C> {
    let mut s = sender(cc);
    s.set_window(10.0, 5.0);
    sent_seqs(&mut s, ms(0));
    ack(&mut s, ms(100), 1, ms(0));
    sent_seqs(&mut s, ms(100));
    for _ in 0..8 {
        ack(&mut s, ms(101), 1, ms(1));
    }
    // Retransmission of 1, then inflation ⌊5.05 + 8⌋ = 13 → new segments 11, 12, 13.
    assert_eq!(sent_seqs(&mut s, ms(101)), vec![(1, true), (11, false), (12, false), (13, false)]);
    ack(&mut s, ms(201), 4, ms(101));
    s
}

#[test]
fn reno_leaves_recovery_on_the_first_new_ack() {
    let mut s = two_losses_until_partial_ack(Reno);
    assert!(!s.in_recovery());
    // Inflation dropped (cwnd 5.05 ≥ ssthresh 5), then ns-2's per-ACK opencwnd: + 1/5.05.
    assert_eq!(s.cwnd(), 5.05 + 1.0 / 5.05);
    assert_eq!(s.usable_window(), 5);
    assert_eq!(sent_seqs(&mut s, ms(201)), vec![], "4 is not retransmitted; 4 + 5 ≤ snd_nxt = 14");
    // Duplicates for the second hole cannot start another fast retransmit (ACK 4 does not
    // cover more than recover = 10): Reno waits for the timeout.
    for _ in 0..3 {
        ack(&mut s, ms(202), 4, ms(102));
    }
    assert_eq!(sent_seqs(&mut s, ms(202)), vec![]);
    assert_eq!(s.counters().fast_retransmits, 1);
    assert!(s.poll_timeout().is_some());
}

#[test]
fn newreno_retransmits_on_a_partial_ack_and_stays_in_recovery() {
    let mut s = two_losses_until_partial_ack(NewReno);
    assert!(s.in_recovery());
    assert_eq!(s.cwnd(), 5.05);
    // Partial window deflation: inflation 8 − 3 acknowledged + 1 = 6, usable ⌊11.05⌋ = 11 →
    // 4 + 11 = 15.
    assert_eq!(s.usable_window(), 11);
    assert_eq!(sent_seqs(&mut s, ms(201)), vec![(4, true), (14, false)]);
    assert_eq!(s.counters().fast_retransmits, 1);
    // The full ACK (everything up to recover = 10, and beyond) ends recovery.
    ack(&mut s, ms(301), 15, ms(201));
    assert!(!s.in_recovery());
    assert_eq!(s.cwnd(), 5.05 + 1.0 / 5.05);
    assert_eq!(events(&mut s), vec![Event::LossEvent, Event::WindowChanged { cwnd: DataSize::from_bytes(5000) }]);
}

/// Segments 0..=19 sent with cwnd 20, segment 1 lost and 2..=19 plus 20 (released by the ACK
/// of 0) arrive: 19 duplicate ACKs. Fast retransmit at the third (ssthresh ⌊20.05/2⌋ = 10,
/// cwnd 10.025), then the inflation 3 + 16 = 19 sends new segments 21..=29: FlightSize
/// snd_nxt − snd_una = 30 − 1 = 29, nearly three times cwnd.
fn long_recovery<C: CongestionControl>(cc: C) -> TcpSender<C> {
    let mut s = sender(cc);
    s.set_window(20.0, 10.0);
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 20);
    ack(&mut s, ms(100), 1, ms(0));
    assert_eq!(sent_seqs(&mut s, ms(100)), vec![(20, false)]);
    let mut sent = vec![];
    for _ in 0..19 {
        ack(&mut s, ms(101), 1, ms(1));
        sent.extend(sent_seqs(&mut s, ms(101)));
    }
    assert_eq!(sent[0], (1, true));
    assert_eq!(sent[1..], (21..=29).map(|q| (q, false)).collect::<Vec<_>>());
    assert_eq!((s.ssthresh(), s.cwnd(), s.usable_window()), (10.0, 10.025, 29));
    assert_eq!(s.snd_nxt() - s.snd_una(), 29);
    s
}

/// The root of issue 13: a timeout halves the congestion window without its inflation (ns-2
/// `windowd()` after Reno's timeout zeroes `dupwnd_`), not FlightSize, which the inflation has
/// pushed to 29 here and would have given ssthresh 14, past what the path held.
#[test]
fn a_timeout_in_recovery_halves_cwnd_not_the_inflated_flight() {
    for newreno in [false, true] {
        let (ssthresh, cwnd) = if newreno {
            let mut s = long_recovery(NewReno);
            s.handle_timeout(ms(1101));
            assert_eq!(s.counters().timeouts, 1);
            (s.ssthresh(), s.cwnd())
        } else {
            let mut s = long_recovery(Reno);
            s.handle_timeout(ms(1101));
            assert_eq!(s.counters().timeouts, 1);
            (s.ssthresh(), s.cwnd())
        };
        assert_eq!((ssthresh, cwnd), (5.0, 1.0), "⌊10.025 / 2⌋ = 5 (newreno: {newreno})");
    }
}

/// ns-2's partial window deflation (`partialnewack`, `partial_window_deflation_ 1`): once an
/// ACK covers more than the inflation (here most duplicate ACKs were lost), cwnd itself gives
/// up the rest and the inflation stays at 1; the next timeout halves that smaller cwnd.
#[test]
fn newreno_partial_acks_deflate_cwnd_once_the_inflation_is_spent() {
    let mut s = sender(NewReno);
    s.set_window(20.0, 10.0);
    sent_seqs(&mut s, ms(0));
    ack(&mut s, ms(100), 1, ms(0));
    assert_eq!(sent_seqs(&mut s, ms(100)), vec![(20, false)]);
    for _ in 0..3 {
        ack(&mut s, ms(101), 1, ms(1));
    }
    assert_eq!(sent_seqs(&mut s, ms(101)), vec![(1, true)], "1 + ⌊10.025 + 3⌋ = 14 ≤ snd_nxt 21");
    // A partial ACK for 1..=7 (hole at 8): 7 acknowledged > inflation 3 → cwnd 10.025 − (7 − 3)
    // = 6.025, inflation 1, usable ⌊7.025⌋ = 7.
    ack(&mut s, ms(201), 8, ms(101));
    assert!(s.in_recovery());
    assert_eq!((s.cwnd(), s.usable_window()), (6.025, 7));
    assert_eq!(sent_seqs(&mut s, ms(201)), vec![(8, true)]);
    // ⌊6.025 / 2⌋ = 3 (halving ssthresh 10 instead would give 5; FlightSize 21 − 8 = 13, 6).
    let rto = s.poll_timeout().unwrap();
    s.handle_timeout(rto);
    assert_eq!((s.ssthresh(), s.cwnd()), (3.0, 1.0));
    // Recovery ends with its window: a full ACK leaves cwnd as deflated (ns-2
    // exit_recovery_fix_ 0) — checked through a fresh sender in the same state.
    let mut s = sender(NewReno);
    s.set_window(20.0, 10.0);
    sent_seqs(&mut s, ms(0));
    ack(&mut s, ms(100), 1, ms(0));
    sent_seqs(&mut s, ms(100));
    for _ in 0..3 {
        ack(&mut s, ms(101), 1, ms(1));
    }
    sent_seqs(&mut s, ms(101));
    ack(&mut s, ms(201), 8, ms(101));
    sent_seqs(&mut s, ms(201));
    ack(&mut s, ms(301), 21, ms(201));
    assert!(!s.in_recovery());
    // 6.025 < ssthresh 10: slow start's +1 for this ACK.
    assert_eq!(s.cwnd(), 7.025);
}

/// Fast and partial-ACK retransmissions leave at once (ns-2 `output()` outside `overhead_`'s
/// delayed send): they are marked urgent so that a driver does not jitter them; window sends,
/// go-back-N copies after a timeout included, are not.
#[test]
fn only_fast_and_partial_ack_retransmissions_are_urgent() {
    let mut s = sender(NewReno);
    s.set_window(10.0, 5.0);
    let first: Vec<_> = std::iter::from_fn(|| s.poll_transmit(ms(0))).collect();
    assert!(first.iter().all(|t| !t.meta.urgent && !t.meta.retransmit));
    ack(&mut s, ms(100), 1, ms(0));
    sent_seqs(&mut s, ms(100));
    for _ in 0..3 {
        ack(&mut s, ms(101), 1, ms(1));
    }
    let fast = s.poll_transmit(ms(101)).unwrap();
    assert_eq!((fast.meta.seq, fast.meta.retransmit, fast.meta.urgent), (1, true, true));
    ack(&mut s, ms(201), 4, ms(101));
    let partial = s.poll_transmit(ms(201)).unwrap();
    assert_eq!((partial.meta.seq, partial.meta.retransmit, partial.meta.urgent), (4, true, true));
    let rto = s.poll_timeout().unwrap();
    s.handle_timeout(rto);
    let go_back = s.poll_transmit(rto).unwrap();
    assert_eq!((go_back.meta.seq, go_back.meta.retransmit, go_back.meta.urgent), (4, true, false));
}

#[test]
fn rto_fires_on_time_backs_off_and_goes_back_to_the_first_unacked_segment() {
    let mut s = sender(Reno);
    assert_eq!(sent_seqs(&mut s, ms(0)), vec![(0, false), (1, false)]);
    // Segment 0 was timed: first sample 100 ms → SRTT 100, RTTVAR 50, RTO = 100 + 200 = 300 ms,
    // restarted by the new ACK.
    ack(&mut s, ms(100), 1, ms(0));
    assert_eq!(s.rto(), Duration::from_millis(300));
    assert_eq!(sent_seqs(&mut s, ms(100)), vec![(2, false), (3, false)]);
    assert_eq!(s.poll_timeout(), Some(ms(400)));
    s.handle_timeout(ms(399));
    assert_eq!(s.counters().timeouts, 0);
    s.handle_timeout(ms(400));
    assert_eq!(s.counters().timeouts, 1);
    assert_eq!(s.cwnd(), 1.0);
    assert_eq!(s.ssthresh(), 2.0, "cwnd 3 → max(⌊1.5⌋, 2)");
    assert_eq!(s.rto(), Duration::from_millis(600), "backed off ×2");
    assert_eq!(s.poll_timeout(), Some(ms(1000)));
    assert_eq!(sent_seqs(&mut s, ms(400)), vec![(1, true)]);
    assert_eq!(events(&mut s), vec![Event::Timeout, Event::WindowChanged { cwnd: DataSize::from_bytes(1000) }]);
    // Lost again: the next timeout doubles once more.
    s.handle_timeout(ms(1000));
    assert_eq!(s.rto(), Duration::from_millis(1200));
    assert_eq!(sent_seqs(&mut s, ms(1000)), vec![(1, true)]);
    // Karn: the ACK of a retransmitted segment gives no RTT sample, so the backoff stays.
    ack(&mut s, ms(1100), 2, ms(1000));
    assert_eq!(s.rto(), Duration::from_millis(1200));
    assert_eq!(s.poll_timeout(), Some(ms(2300)));
    // Slow start again from 1: go-back-N resends 2 and 3, which count as retransmissions.
    assert_eq!(sent_seqs(&mut s, ms(1100)), vec![(2, true), (3, true)]);
    // Once new data (timed) is acknowledged, the sample clears the backoff.
    ack(&mut s, ms(1200), 4, ms(1100));
    // ssthresh 2 reached: congestion avoidance, cwnd 2.5.
    assert_eq!(sent_seqs(&mut s, ms(1200)), vec![(4, false), (5, false)]);
    ack(&mut s, ms(1300), 5, ms(1200));
    // Segment 4 (sent once, at 1200 ms) was timed: sample 100 ms, RTTVAR (3·50 + 0)/4 = 37.5,
    // RTO = 100 + 150 = 250 ms with the backoff gone.
    assert_eq!(s.rto(), Duration::from_millis(250));
}

#[test]
fn finite_transfer_sends_whole_segments_then_idles() {
    let cfg = TcpConfig { transfer_bytes: Some(2_000), ..TcpConfig::default() };
    let mut s = TcpSender::new(Reno, &cfg, PKT, Instant::ZERO, None);
    // ⌈2000 / 960⌉ = 3 segments.
    assert_eq!(sent_seqs(&mut s, ms(0)), vec![(0, false), (1, false)]);
    ack(&mut s, ms(100), 2, ms(0));
    assert_eq!(sent_seqs(&mut s, ms(100)), vec![(2, false)]);
    ack(&mut s, ms(200), 3, ms(100));
    assert!(s.is_complete());
    assert_eq!(s.poll_timeout(), None);
    assert_eq!(sent_seqs(&mut s, ms(200)), vec![]);
}

#[test]
fn stop_ends_new_data_but_not_retransmissions() {
    let mut s = TcpSender::new(Reno, &TcpConfig::default(), PKT, Instant::ZERO, Some(ms(50)));
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 2);
    s.handle_timeout(ms(1000));
    assert_eq!(sent_seqs(&mut s, ms(1000)), vec![(0, true)]);
    ack(&mut s, ms(1100), 2, ms(1000));
    assert_eq!(sent_seqs(&mut s, ms(1100)), vec![], "no new data after stop");
    assert_eq!(s.poll_timeout(), None);
    let mut never = TcpSender::new(Reno, &TcpConfig::default(), PKT, ms(10), Some(ms(10)));
    assert_eq!(never.poll_timeout(), None);
    assert_eq!(sent_seqs(&mut never, ms(20)), vec![]);
}

#[test]
fn malformed_and_misdirected_datagrams_are_counted_and_change_nothing() {
    let mut s = sender(NewReno);
    sent_seqs(&mut s, ms(0));
    let garbage = Datagram { from: PeerId::PEER, bytes: &[1, 2, 3], virtual_payload: 0 };
    assert!(s.handle_datagram(ms(1), garbage).is_err());
    let data = TcpHeader::Data { seq: 0, ts_ns: 0 }.emit();
    let misdirected = Datagram { from: PeerId::PEER, bytes: data.as_slice(), virtual_payload: 960 };
    assert!(s.handle_datagram(ms(1), misdirected).is_err());
    assert_eq!(s.stats().malformed_datagrams, 2);
    assert_eq!(s.snd_una(), 0);
    // An ACK for data never sent is ignored.
    ack(&mut s, ms(2), 99, ms(0));
    assert_eq!(s.snd_una(), 0);
    let mut r = TcpReceiver::new(false, 64);
    assert!(r.handle_datagram(ms(1), garbage).is_err());
    let a = TcpHeader::Ack { ack: 1, ts_ns: 0, ts_echo_ns: 0, sack: SackBlocks::EMPTY }.emit();
    assert!(r
        .handle_datagram(ms(1), Datagram { from: PeerId::PEER, bytes: a.as_slice(), virtual_payload: 0 })
        .is_err());
    assert_eq!(r.stats().malformed_datagrams, 2);
    assert_eq!(sent_seqs(&mut r, ms(1)), vec![]);
}

// ---------------------------------------------------------------------------------------------
// Westwood+ through the sender

#[test]
fn westwood_sets_ssthresh_from_its_estimate_after_a_steady_ack_stream() {
    let mut s = sender(WestwoodPlus::new());
    s.set_window(64.0, 1.0);
    sent_seqs(&mut s, ms(0));
    // One ACK per segment every 5 ms (200 seg/s), each echoing a send time 100 ms earlier
    // (RTT 100 ms). Segments sent at t are acknowledged at t + 100 ms, so the stream is
    // self-consistent; cwnd stays capped at 64, so a segment is sent for each one acknowledged.
    let mut t = 100;
    let mut next_ack = 1;
    while t <= 1100 {
        ack(&mut s, ms(t), next_ack, ms(t - 100));
        sent_seqs(&mut s, ms(t));
        next_ack += 1;
        t += 5;
    }
    // Windows close at the first ACK more than 100 ms after they opened: every 105 ms, with
    // 21 ACKs each → 21 / 0.105 s = 200 seg/s for every sample, so BWE = 200 exactly.
    let w = s.congestion_control();
    assert_eq!(w.bandwidth_segments_per_sec(), 200.0);
    assert_eq!(w.rtt_min(), Some(Duration::from_millis(100)));
    // Three duplicates: ssthresh = BWE · RTT_min = 200 seg/s · 0.1 s = 20; cwnd = min(64, 20).
    for _ in 0..3 {
        ack(&mut s, ms(t), next_ack - 1, ms(t - 100));
    }
    assert_eq!(s.ssthresh(), 20.0);
    assert_eq!(s.cwnd(), 20.0);
    assert_eq!(s.counters().fast_retransmits, 1);
}

// ---------------------------------------------------------------------------------------------
// Receiver

#[test]
fn receiver_acks_in_order_gap_and_filled_gap() {
    let mut r = TcpReceiver::new(false, 64);
    for seq in 0..3 {
        segment(&mut r, ms(seq), seq);
    }
    assert_eq!(acks_of(&mut r, ms(3)), vec![1, 2, 3]);
    // 3 lost: 4 and 5 are buffered and acknowledged with duplicates of 3.
    segment(&mut r, ms(4), 4);
    segment(&mut r, ms(5), 5);
    assert_eq!(acks_of(&mut r, ms(5)), vec![3, 3]);
    assert_eq!(r.stats().app_bytes_delivered, 3 * PAYLOAD);
    // The retransmitted 3 fills the gap: one cumulative ACK for everything.
    segment(&mut r, ms(9), 3);
    assert_eq!(acks_of(&mut r, ms(9)), vec![6]);
    assert_eq!(r.stats().app_bytes_delivered, 6 * PAYLOAD);
    // A duplicate is acknowledged again but never delivered twice.
    segment(&mut r, ms(10), 4);
    assert_eq!(acks_of(&mut r, ms(10)), vec![6]);
    assert_eq!(
        r.stats(),
        EndpointStats {
            app_bytes_delivered: 6 * PAYLOAD,
            app_packets_delivered: 6,
            malformed_datagrams: 0,
            clamped_feedback: 0
        }
    );
}

#[test]
fn receiver_echoes_the_triggering_segment_and_sends_40_byte_acks() {
    let mut r = TcpReceiver::new(false, 64);
    let h = TcpHeader::Data { seq: 0, ts_ns: 12_345 }.emit();
    r.handle_datagram(ms(50), Datagram { from: PeerId::PEER, bytes: h.as_slice(), virtual_payload: 960 }).unwrap();
    let t: Transmit = r.poll_transmit(ms(50)).unwrap();
    assert_eq!(t.wire_size(), DataSize::from_bytes(40));
    assert_eq!(t.meta.kind, PacketKind::Control);
    assert_eq!(
        TcpHeader::parse(t.header.as_slice()).unwrap(),
        TcpHeader::Ack { ack: 1, ts_ns: ms(50).as_nanos(), ts_echo_ns: 12_345, sack: SackBlocks::EMPTY }
    );
}

#[test]
fn delayed_ack_every_second_segment_or_after_100_ms() {
    let mut r = TcpReceiver::new(true, 64);
    segment(&mut r, ms(0), 0);
    assert_eq!(acks_of(&mut r, ms(0)), Vec::<u64>::new(), "first in-order segment waits");
    assert_eq!(r.poll_timeout(), Some(ms(100)));
    segment(&mut r, ms(30), 1);
    assert_eq!(acks_of(&mut r, ms(30)), vec![2], "second one is acknowledged with it");
    assert_eq!(r.poll_timeout(), None);
    segment(&mut r, ms(50), 2);
    assert_eq!(r.poll_timeout(), Some(ms(150)));
    r.handle_timeout(ms(149));
    assert_eq!(acks_of(&mut r, ms(149)), Vec::<u64>::new());
    r.handle_timeout(ms(150));
    assert_eq!(acks_of(&mut r, ms(150)), vec![3], "the timer sends the delayed ACK");
    // Out of order: immediate duplicate ACK; the gap-filling segment: immediate ACK too.
    segment(&mut r, ms(200), 4);
    assert_eq!(acks_of(&mut r, ms(200)), vec![3]);
    segment(&mut r, ms(210), 3);
    assert_eq!(acks_of(&mut r, ms(210)), vec![5]);
    assert_eq!(r.poll_timeout(), None);
    // A duplicate is acknowledged at once as well.
    segment(&mut r, ms(220), 1);
    assert_eq!(acks_of(&mut r, ms(220)), vec![5]);
}

// ---------------------------------------------------------------------------------------------
// A sender and a receiver over a fixed-delay pipe

#[test]
fn lossless_long_run_rate_is_max_window_per_rtt() {
    for variant in [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::WestwoodPlus] {
        let p = pair(variant, &TcpConfig::default(), PKT, Instant::ZERO, None);
        let mut pipe = Pipe::new(p.sender, p.receiver, Duration::from_millis(100));
        pipe.run_until(ms(10_000));
        let at_10 = pipe.r.stats().app_bytes_delivered;
        pipe.run_until(ms(30_000));
        let rate = (pipe.r.stats().app_bytes_delivered - at_10) as f64 / 20.0;
        // 64 000 B / 1000 B = 64 segments of 960 B payload per 100 ms.
        let expected = 64.0 * PAYLOAD as f64 / 0.1;
        assert!((rate / expected - 1.0).abs() < 0.02, "{variant:?}: {rate} B/s vs {expected} B/s");
        assert!(pipe.events.is_empty(), "{variant:?}: no loss, no events");
    }
}

#[test]
fn newreno_repairs_a_single_loss_in_congestion_avoidance_without_timeout() {
    let s = sender(NewReno);
    let r = TcpReceiver::new(false, 64);
    let mut pipe = Pipe::new(s, r, Duration::from_millis(100)).drop_first(&[300, 3000]);
    pipe.run_until(ms(3000));
    // The first loss (at the 64-segment cap) halved the window; it is now congestion avoidance.
    assert_eq!(pipe.dropped, vec![300]);
    assert_eq!(pipe.s.counters().fast_retransmits, 1);
    assert_eq!(pipe.s.ssthresh(), 32.0);
    assert!(pipe.s.cwnd() >= pipe.s.ssthresh());
    pipe.run_until(ms(20_000));
    assert_eq!(pipe.dropped, vec![300, 3000]);
    let c = pipe.s.counters();
    assert_eq!((c.fast_retransmits, c.timeouts, c.retransmissions), (2, 0, 2));
    assert_eq!(pipe.r.stats().app_bytes_delivered, pipe.r.rcv_nxt() * PAYLOAD);
    assert!(pipe.r.rcv_nxt() >= pipe.s.snd_una());
    let losses = pipe.events.iter().filter(|(_, e)| *e == Event::LossEvent).count();
    assert_eq!(losses, 2);
}

#[test]
fn westwood_keeps_the_window_the_path_carries_after_a_loss_where_reno_halves() {
    // The pipe carries 64 segments per 100 ms with RTT_min = 100 ms, so BWE·RTT_min → 64.
    // The cascaded filter converges slowly (≈ 5 samples/s here, each window spanning two ACK
    // bursts), the DVRC paper's own diagnosis: drop late, at ≈ 24 s, once it has settled.
    let drop = [15_000];
    let mut pipe = Pipe::new(sender(WestwoodPlus::new()), TcpReceiver::new(false, 64), Duration::from_millis(100))
        .drop_first(&drop);
    pipe.run_until(ms(30_000));
    assert_eq!(pipe.dropped, drop);
    let w = pipe.s.congestion_control();
    assert_eq!(w.rtt_min(), Some(Duration::from_millis(100)));
    assert!(pipe.s.ssthresh() >= 62.0 && pipe.s.ssthresh() <= 64.0, "ssthresh {}", pipe.s.ssthresh());
    assert_eq!(pipe.s.counters().fast_retransmits, 1);
    assert_eq!(pipe.s.counters().timeouts, 0);

    let mut reno = Pipe::new(sender(Reno), TcpReceiver::new(false, 64), Duration::from_millis(100)).drop_first(&drop);
    reno.run_until(ms(30_000));
    assert_eq!(reno.s.ssthresh(), 32.0);
}

#[test]
fn finite_transfer_over_the_pipe_with_delayed_acks_completes_and_goes_idle() {
    let cfg = TcpConfig { transfer_bytes: Some(100_000), delayed_ack: true, ..TcpConfig::default() };
    let s = TcpSender::new(Reno, &cfg, PKT, ms(5), None);
    let mut pipe = Pipe::new(s, TcpReceiver::new(true, 64), Duration::from_millis(100)).drop_first(&[20, 21]);
    pipe.run_until(ms(60_000));
    assert!(pipe.s.is_complete());
    // ⌈100 000 / 960⌉ = 105 segments, each delivered once.
    assert_eq!(pipe.r.stats().app_packets_delivered, 105);
    assert_eq!(pipe.r.stats().app_bytes_delivered, 105 * PAYLOAD);
    assert_eq!(pipe.s.poll_timeout(), None);
    assert_eq!(pipe.r.poll_timeout(), None);
}

// ---------------------------------------------------------------------------------------------
// Arbitrary delivery, loss, reordering and duplication (the shared driver)

/// The clock of TCP's property runs: steps of up to 400 ms, back by up to 100 ms.
pub(crate) const CLOCK: Clock =
    Clock { max_advance: Duration::from_millis(400), max_rewind: Duration::from_millis(100) };

/// What must hold for a TCP sender and receiver whatever the network does.
struct TcpInvariants {
    transfer_bytes: Option<u64>,
}

impl<C: CongestionControl> Invariants<TcpSender<C>, TcpReceiver> for TcpInvariants {
    fn sender_sent(&mut self, s: &TcpSender<C>, t: &Transmit) -> Result<(), TestCaseError> {
        prop_assert!(t.meta.seq < s.snd_max());
        Ok(())
    }

    fn after_step(&mut self, s: &TcpSender<C>, r: &TcpReceiver) -> Result<(), TestCaseError> {
        let max = s.window_limit() as f64;
        prop_assert!(s.cwnd() >= 1.0 && s.cwnd() <= max, "cwnd {} outside [1, {}]", s.cwnd(), max);
        prop_assert!(s.ssthresh() >= 1.0);
        prop_assert!(s.usable_window() >= 1 && s.usable_window() <= s.window_limit());
        prop_assert!(s.snd_una() <= s.snd_nxt() && s.snd_nxt() <= s.snd_max());
        prop_assert!(s.snd_una() <= r.rcv_nxt(), "the sender cannot learn of more than arrived");
        let st = r.stats();
        prop_assert!(st.app_packets_delivered == r.rcv_nxt());
        prop_assert!(st.app_bytes_delivered <= s.snd_max() * s.payload_bytes() as u64);
        if let Some(n) = self.transfer_bytes {
            prop_assert!(s.snd_max() <= n.div_ceil(s.payload_bytes() as u64));
        }
        Ok(())
    }
}

/// A sender with `cc` and a receiver, both configured by `cfg`, through `ops`.
pub(crate) fn drive<C: CongestionControl>(cc: C, cfg: &TcpConfig, ops: &[NetOp]) -> Result<(), TestCaseError> {
    let mut s = TcpSender::new(cc, cfg, PKT, Instant::ZERO, None);
    let mut r = TcpReceiver::new(cfg.delayed_ack, s.window_limit());
    drive_network(&mut s, &mut r, ops, &mut TcpInvariants { transfer_bytes: cfg.transfer_bytes })
}

/// `tcp-sack`'s sender and SACK receiver through `ops`.
fn drive_sack(cfg: &TcpConfig, ops: &[NetOp]) -> Result<(), TestCaseError> {
    let mut s = TcpSender::new(Sack, cfg, PKT, Instant::ZERO, None);
    let mut r = TcpReceiver::new(cfg.delayed_ack, s.window_limit()).with_sack();
    drive_network(&mut s, &mut r, ops, &mut TcpInvariants { transfer_bytes: cfg.transfer_bytes })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_network_behaviour_keeps_the_invariants(
        variant in 0u8..5,
        window_segments in 1u64..80,
        initial_window in 1u32..5,
        delayed_ack: bool,
        transfer in proptest::option::of(0u64..60_000),
        ops in net_ops(CLOCK, 0..400),
    ) {
        let cfg = TcpConfig {
            max_window_bytes: window_segments * PKT as u64,
            initial_window,
            delayed_ack,
            transfer_bytes: transfer,
            ..TcpConfig::default()
        };
        match variant {
            0 => drive(Reno, &cfg, &ops)?,
            1 => drive(NewReno, &cfg, &ops)?,
            2 => drive(Tahoe, &cfg, &ops)?,
            3 => drive_sack(&cfg, &ops)?,
            _ => drive(WestwoodPlus::new(), &cfg, &ops)?,
        }
    }

    #[test]
    fn endpoints_never_panic_on_random_bytes(variant in 0u8..5, (bytes, extra) in garbage()) {
        let variant = [TcpVariant::Reno, TcpVariant::NewReno, TcpVariant::WestwoodPlus, TcpVariant::Tahoe, TcpVariant::Sack]
            [variant as usize];
        let mut p = pair(variant, &TcpConfig::default(), PKT, Instant::ZERO, None);
        sent_seqs(&mut p.sender, Instant::ZERO);
        feed_garbage(&mut p.sender, ms(1), &bytes, extra, Rejections::Counted)?;
        feed_garbage(&mut p.receiver, ms(1), &bytes, extra, Rejections::Counted)?;
    }
}
