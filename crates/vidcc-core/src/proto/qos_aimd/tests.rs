//! Bare-state tests of each QoS-AIMD rule with explicit time, the receiver, and a property test of
//! sender and receiver under arbitrary delivery. The analytic model's tests: `model_tests.rs`.

use super::*;
use crate::endpoint::{Datagram, Endpoint, Event, PacketKind, PeerId, Transmit};
use crate::proto::testing::*;
use crate::units::{DataRate, DataSize};
use crate::wire::qos_aimd::{AckHeader, DataHeader, SackVec, SEQ_MASK, SEQ_MODULUS};
use crate::{Duration, Instant};

const PKT: u64 = 125;

fn unpaced() -> QosAimdConfig {
    QosAimdConfig { pacing: Pacing::Off, ..QosAimdConfig::default() }
}

fn sender(c: &QosAimdConfig) -> QosAimdSender {
    QosAimdSender::new(c, Application::Bulk, DataSize::from_bytes(PKT), Instant::ZERO, None).unwrap()
}

fn seqs(t: &[Transmit]) -> Vec<u64> {
    t.iter().map(|x| x.meta.seq).collect()
}

/// An ack for packet `a` reporting `received` (numbers below `a`) in a 16-bit vector.
fn ack(a: u64, received: &[u64]) -> AckHeader {
    let mut v = SackVec::new(16);
    for &s in received {
        v.set((a - s) as u16, true);
    }
    AckHeader { rwnd: 64, ack_a: a as u32 & SEQ_MASK, sackvec: v }
}

fn give(s: &mut QosAimdSender, now: Instant, a: AckHeader) {
    let h = a.emit();
    s.handle_datagram(now, Datagram { from: PeerId::PEER, bytes: h.as_slice(), virtual_payload: 0 }).unwrap();
}

// ---------------------------------------------------------------------------------------------
// Sender rules

#[test]
fn alpha_follows_eq_10() {
    // α = 3(1 − 0.875)/(1 + 0.875) = 0.375/1.875 = 0.2.
    let s = sender(&QosAimdConfig::default());
    assert!((s.alpha() - 0.2).abs() < 1e-15);
    let c = QosAimdConfig { beta: 0.5, ..QosAimdConfig::default() };
    assert_eq!(c.alpha(), 1.0);
    let c = QosAimdConfig { alpha: Some(0.31), ..QosAimdConfig::default() };
    assert_eq!(c.alpha(), 0.31);
}

#[test]
fn slow_start_adds_j_per_ack() {
    let mut s = sender(&unpaced());
    // IW = 1: one packet at t = 0.
    assert_eq!(seqs(&drain(&mut s, ms(0))), [0]);
    // Event B: ack for 0 (j = 1) → cwnd 2, two new packets.
    give(&mut s, ms(100), ack(0, &[]));
    assert_eq!(s.cwnd(), 2.0);
    assert_eq!(seqs(&drain(&mut s, ms(100))), [1, 2]);
    // One ack covering 1 and 2 (ack_a = 2, bit 1 = packet 1): j = 2 → cwnd 4.
    give(&mut s, ms(200), ack(2, &[1]));
    assert_eq!(s.cwnd(), 4.0);
    assert_eq!(s.head(), 3);
    assert_eq!(seqs(&drain(&mut s, ms(200))), [3, 4, 5, 6]);
    assert!(s.in_slow_start());
    assert!(events(&mut s).is_empty(), "growth is not reported per ack");
}

#[test]
fn congestion_avoidance_adds_alpha_per_rtt() {
    let mut s = sender(&unpaced());
    s.set_window(10.0, 5.0);
    assert_eq!(drain(&mut s, ms(0)).len(), 10);
    // Event C, one ack covering all 10 packets: cwnd += α·j/cwnd = 0.2·10/10 = 0.2.
    give(&mut s, ms(100), ack(9, &[0, 1, 2, 3, 4, 5, 6, 7, 8]));
    assert!((s.cwnd() - 10.2).abs() < 1e-12, "cwnd {}", s.cwnd());
    // One ack per packet for one window (10 packets): Σ 0.2/cwnd_k with cwnd from 10.2 up to
    // 10.39: 0.19441…, about α per RTT (α·W/cwnd with cwnd ≈ 10.3).
    let sent = drain(&mut s, ms(100));
    assert_eq!(sent.len(), 10);
    let before = s.cwnd();
    for t in &sent {
        give(&mut s, ms(200), ack(t.meta.seq, &[]));
    }
    let mut expect = before;
    for _ in 0..10 {
        expect += 0.2 / expect;
    }
    assert!((s.cwnd() - expect).abs() < 1e-12);
    assert!((s.cwnd() - before - 0.19441).abs() < 1e-5, "grew {}", s.cwnd() - before);
}

#[test]
fn cwnd_is_capped_at_rwnd() {
    let c = QosAimdConfig { rwnd_packets: 3, ..unpaced() };
    let mut s = sender(&c);
    drain(&mut s, ms(0));
    give(&mut s, ms(10), AckHeader { rwnd: 3, ..ack(0, &[]) });
    drain(&mut s, ms(10));
    give(&mut s, ms(20), AckHeader { rwnd: 3, ..ack(2, &[1]) });
    assert_eq!(s.cwnd(), 3.0); // 1 + 1 + 2 = 4, capped at rwnd 3
    assert_eq!(drain(&mut s, ms(20)).len(), 3);
    assert_eq!(s.outstanding(), 3);
}

/// Events D and E: out-of-order acks inflate the window one for one; the third acked packet
/// above a hole declares it lost and reduces cwnd to β × outstanding.
fn loss_after_inflation(base: ReductionBase) -> QosAimdSender {
    let mut s = sender(&QosAimdConfig { reduction_base: base, ..unpaced() });
    s.set_window(16.5, 8.0);
    assert_eq!(drain(&mut s, ms(0)).len(), 16); // ⌊16.5⌋ packets: 0..=15
                                                // Packet 0 is missing. Ack 1: one packet above the hole; the window inflates by 1.
    give(&mut s, ms(100), ack(1, &[]));
    assert_eq!(s.head(), 0);
    assert_eq!(seqs(&drain(&mut s, ms(100))), [16]);
    // Ack 2 (bit for 1 set): two above the hole, one more new packet.
    give(&mut s, ms(101), ack(2, &[1]));
    assert_eq!(seqs(&drain(&mut s, ms(101))), [17]);
    assert_eq!(s.cwnd(), 16.5);
    assert!(events(&mut s).is_empty());
    // Ack 3: three above the hole → packet 0 lost, one reduction, recover = next_seq = 18.
    give(&mut s, ms(102), ack(3, &[2, 1]));
    assert_eq!(s.recover(), 18);
    assert_eq!(s.counters().packets_lost, 1);
    assert_eq!(s.counters().reductions, 1);
    // W_head passes 0 (lost) and 1, 2, 3 (acked, j = 3): congestion avoidance, + 0.2·3/cwnd.
    assert_eq!(s.head(), 4);
    assert_eq!(s.outstanding(), 14);
    let c = s.ssthresh();
    assert!((s.cwnd() - (c + 0.6 / c)).abs() < 1e-12, "cwnd {}", s.cwnd());
    s
}

#[test]
fn duplicate_sack_loss_reduces_to_beta_times_outstanding() {
    // Default, FlightSize: next_seq − W_head = 18 − 0, less the 2 packets of event D
    // inflation = 16 = ⌊cwnd⌋: cwnd = ssthresh = 0.875 × 16 = 14.
    let mut s = loss_after_inflation(ReductionBase::Flight);
    assert_eq!(s.ssthresh(), 14.0);
    // Deflated: 14 outstanding, W = ⌊14.04⌋ = 14: nothing may be sent.
    assert!(drain(&mut s, ms(102)).is_empty());
    assert_eq!(events(&mut s), [Event::LossEvent, Event::WindowChanged { cwnd: DataSize::from_bytes(14 * PKT) }]);
    // pipe: 18 sent − 3 acked = 15 outstanding when found (packet 0 included): 13.125.
    assert_eq!(loss_after_inflation(ReductionBase::Pipe).ssthresh(), 13.125);
    // β × cwnd = 0.875 × 16.5 = 14.4375.
    assert_eq!(loss_after_inflation(ReductionBase::Cwnd).ssthresh(), 14.4375);
}

#[test]
fn reduction_happens_once_per_window() {
    let mut s = sender(&unpaced());
    s.set_window(16.0, 8.0);
    drain(&mut s, ms(0));
    // As in the test above (cwnd 16): packets 0..=17 sent, 0 lost, recover = 18, cwnd 14.
    for a in [ack(1, &[]), ack(2, &[1]), ack(3, &[2, 1])] {
        give(&mut s, ms(100), a);
        drain(&mut s, ms(100));
    }
    assert_eq!((s.counters().reductions, s.recover()), (1, 18));
    events(&mut s);
    // A second hole in the same window (packet 7 < recover = 18): lost, no second reduction.
    give(&mut s, ms(101), ack(6, &[5, 4]));
    give(&mut s, ms(101), ack(8, &[6, 5]));
    give(&mut s, ms(101), ack(9, &[8]));
    let c = s.cwnd();
    give(&mut s, ms(101), ack(10, &[9, 8]));
    assert_eq!(s.counters().packets_lost, 2);
    assert_eq!(s.counters().reductions, 1);
    assert!(s.cwnd() > c, "only growth: {} → {}", c, s.cwnd());
    assert!(events(&mut s).is_empty());
    // Ack everything up to 17 one by one: new packets from 18 on go out.
    for a in 11..=17 {
        give(&mut s, ms(102), ack(a, &[a - 1]));
    }
    let sent = seqs(&drain(&mut s, ms(102)));
    assert_eq!(sent[0], 18);
    assert!(sent.len() >= 3);
    // A hole at 18 ≥ recover: acks for 19, 20, 21 → a second reduction.
    give(&mut s, ms(200), ack(19, &[]));
    give(&mut s, ms(200), ack(20, &[19]));
    // FlightSize: 18 is W_head; nothing was sent since the hole appeared (no inflation).
    let flight = s.next_seq() - s.head();
    assert_eq!(s.head(), 18);
    give(&mut s, ms(200), ack(21, &[20, 19]));
    let c = 0.875 * flight as f64;
    assert_eq!(s.ssthresh(), c);
    assert!((s.cwnd() - (c + 0.6 / c)).abs() < 1e-12);
    assert_eq!(s.counters().reductions, 2);
    assert_eq!(events(&mut s)[0], Event::LossEvent);
}

#[test]
fn timeout_reinitialises_window_halves_ssthresh_and_doubles_spacing() {
    let mut s = sender(&unpaced());
    s.set_window(16.0, 20.0);
    assert_eq!(drain(&mut s, ms(0)).len(), 16);
    // No RTT sample yet: RTO = initial 1 s; the oldest packet (sent at 0) times out at 1 s.
    assert_eq!(s.poll_timeout(), Some(ms(1000)));
    s.handle_timeout(ms(999));
    assert_eq!(s.counters().timeouts, 0);
    s.handle_timeout(ms(1000));
    // Event A: cwnd = IW = 1, ssthresh = 20/2 = 10, W_head jumps to next_seq, RTO doubles.
    assert_eq!((s.cwnd(), s.ssthresh()), (1.0, 10.0));
    assert_eq!((s.head(), s.next_seq(), s.outstanding()), (16, 16, 0));
    assert_eq!(s.rto(), Duration::from_secs(2));
    assert_eq!(events(&mut s), [Event::Timeout, Event::WindowChanged { cwnd: DataSize::from_bytes(PKT) }]);
    assert_eq!(s.counters().packets_timed_out, 16);
    // "sends W new packets": one, right away.
    assert_eq!(seqs(&drain(&mut s, ms(1000))), [16]);
    // cwnd was already 1: it stays 1 and the next packet waits twice as long (RTO 2 s → 4 s).
    assert_eq!(s.poll_timeout(), Some(ms(3000)));
    s.handle_timeout(ms(3000));
    assert_eq!((s.cwnd(), s.ssthresh()), (1.0, 5.0));
    assert_eq!(seqs(&drain(&mut s, ms(3000))), [17]);
    assert_eq!(s.poll_timeout(), Some(ms(7000)));
    // A late ack for a packet given up at the timeout is stale (event F).
    give(&mut s, ms(3500), ack(5, &[]));
    assert_eq!(s.counters().stale_acks, 1);
    assert_eq!(s.cwnd(), 1.0);
}

#[test]
fn timeout_ssthresh_variants() {
    // Unbounded ssthresh: "halve" starts from cwnd (16 → 8).
    let mut s = sender(&unpaced());
    s.set_window(16.0, f64::INFINITY);
    drain(&mut s, ms(0));
    s.handle_timeout(ms(1000));
    assert_eq!(s.ssthresh(), 8.0);
    // half-flight: packets 14 and 15 acked, 0..=13 outstanding (only two acked above them,
    // no loss): ssthresh = 14/2 = 7.
    let c = QosAimdConfig { timeout_ssthresh: TimeoutSsthresh::HalfFlight, ..unpaced() };
    let mut s = sender(&c);
    s.set_window(16.0, 40.0);
    drain(&mut s, ms(0));
    give(&mut s, ms(10), ack(15, &[14]));
    assert_eq!(s.outstanding(), 14);
    s.handle_timeout(Instant::from_nanos(1_000_000_000));
    assert_eq!(s.ssthresh(), 7.0);
    // Never below 2 packets.
    let mut s = sender(&c);
    drain(&mut s, ms(0));
    s.handle_timeout(ms(1000));
    assert_eq!(s.ssthresh(), 2.0);
}

#[test]
fn stale_and_invalid_acks_change_nothing() {
    let mut s = sender(&unpaced());
    s.set_window(4.0, 2.0);
    drain(&mut s, ms(0));
    give(&mut s, ms(10), ack(1, &[0]));
    assert_eq!(s.head(), 2);
    let c = s.cwnd();
    // Event F: ack_a = 0 < W_head = 2.
    give(&mut s, ms(11), ack(0, &[]));
    assert_eq!(s.counters().stale_acks, 1);
    // An ack for a packet never sent (next_seq = 6 at most).
    give(&mut s, ms(11), ack(1000, &[]));
    assert_eq!(s.counters().invalid_acks, 1);
    // Judged so by the shared plausibility check, and counted there too (a stale ack is not
    // implausible: it may be late).
    assert_eq!(s.stats().clamped_feedback, 1);
    assert_eq!(s.cwnd(), c);
    // A malformed datagram is an error, counted, and changes nothing.
    let bad = Datagram { from: PeerId::PEER, bytes: &[1, 0x32, 0], virtual_payload: 0 };
    assert!(s.handle_datagram(ms(12), bad).is_err());
    assert_eq!(s.stats().malformed_datagrams, 1);
    assert_eq!(s.cwnd(), c);
}

#[test]
fn packets_are_spaced_rtt_over_w() {
    let mut s = sender(&QosAimdConfig::default());
    assert_eq!(drain(&mut s, ms(0)).len(), 1);
    // RTT sample 100 ms; slow start → cwnd 2: spacing = 100 ms / 2 = 50 ms.
    give(&mut s, ms(100), ack(0, &[]));
    assert_eq!(s.spacing(), Duration::from_millis(50));
    assert_eq!(seqs(&drain(&mut s, ms(100))), [1]);
    assert_eq!(s.poll_timeout(), Some(ms(150)));
    assert!(drain(&mut s, ms(149)).is_empty());
    assert_eq!(seqs(&drain(&mut s, ms(150))), [2]);
    // min-rtt spacing uses the smallest sample; pacing off sends both at once.
    let mut s = sender(&unpaced());
    drain(&mut s, ms(0));
    give(&mut s, ms(100), ack(0, &[]));
    assert_eq!(seqs(&drain(&mut s, ms(100))), [1, 2]);
    let mut s = sender(&QosAimdConfig { pacing: Pacing::MinRtt, ..QosAimdConfig::default() });
    drain(&mut s, ms(0));
    give(&mut s, ms(80), ack(0, &[]));
    assert_eq!(s.min_rtt(), Some(Duration::from_millis(80)));
    assert_eq!(s.spacing(), Duration::from_millis(40));
}

/// §II-B spaces packets "when the sender is allowed to send more than one packet at certain
/// time": the one packet an ack releases into a full window goes at once, not rtt/W after the
/// previous packet; packets the window lets out together are still spaced.
#[test]
fn only_packets_let_out_together_are_spaced() {
    for scope in [SpacingScope::WindowBursts, SpacingScope::EveryPacket] {
        let mut s = sender(&QosAimdConfig { spacing_scope: scope, ..QosAimdConfig::default() });
        assert_eq!(seqs(&drain(&mut s, ms(0))), [0]);
        // RTT 100 ms, slow start → cwnd 2, spacing 50 ms: 1 at once, 2 spaced (window room left).
        give(&mut s, ms(100), ack(0, &[]));
        assert_eq!(seqs(&drain(&mut s, ms(100))), [1]);
        assert!(drain(&mut s, ms(149)).is_empty(), "{scope:?}: two packets allowed together are spaced");
        assert_eq!(seqs(&drain(&mut s, ms(150))), [2]);
        // cwnd 3 after the next ack, 2 outstanding: one packet allowed, 10 ms after packet 2.
        s.set_window(2.0, 2.0);
        give(&mut s, ms(160), ack(1, &[]));
        let now = drain(&mut s, ms(160));
        match scope {
            SpacingScope::WindowBursts => assert_eq!(seqs(&now), [3], "the one packet released goes at once"),
            SpacingScope::EveryPacket => {
                // Packet 2 left at 150 ms with a spacing of 100 ms / 2.
                assert!(now.is_empty() && drain(&mut s, ms(199)).is_empty(), "every packet spaced");
                assert_eq!(seqs(&drain(&mut s, ms(200))), [3]);
            }
        }
    }
}

#[test]
fn bulk_sender_stops_at_stop() {
    let mut s =
        QosAimdSender::new(&unpaced(), Application::Bulk, DataSize::from_bytes(PKT), ms(0), Some(ms(50))).unwrap();
    s.set_window(8.0, 4.0);
    assert_eq!(drain(&mut s, ms(0)).len(), 8);
    give(&mut s, ms(100), ack(7, &(0..7).collect::<Vec<_>>()));
    assert!(drain(&mut s, ms(100)).is_empty(), "stopped at 50 ms");
    assert_eq!(s.poll_timeout(), None);
}

#[test]
fn video_sender_idles_and_restarts_from_iw() {
    use crate::media::source::CbrSource;
    use crate::media::stream::VideoStream;
    // 200 kbps CBR video at 1 fps: one 25 000-byte frame per second, in ⌈25 000/109⌉ = 230
    // packets of at most 125 − 16 = 109 payload bytes.
    let src = Box::new(CbrSource::for_rate(DataRate::from_kbps(200), 1.0).unwrap());
    let app = Application::Video(VideoStream::single(src));
    let mut s = QosAimdSender::new(&unpaced(), app, DataSize::from_bytes(PKT), ms(0), None).unwrap();
    s.set_window(300.0, 4.0);
    let first = drain(&mut s, ms(0));
    assert_eq!(first.len(), 64, "rwnd 64 caps the window");
    assert!(first.iter().all(|x| x.meta.media.frame == 0 && x.payload_len == 109));
    // Ack every packet 1 ms after it leaves: the rest of frame 0 goes, then the sender idles.
    let mut total = 0;
    let mut now = 0;
    let mut batch = first;
    while !batch.is_empty() {
        total += batch.len();
        now += 1;
        for x in &batch {
            give(&mut s, ms(now), ack(x.meta.seq, &[]));
        }
        batch = drain(&mut s, ms(now));
    }
    assert_eq!(total, 230);
    assert!(now < 100);
    assert_eq!(s.outstanding(), 0);
    assert!(s.cwnd() > 1.0);
    assert_eq!(s.poll_timeout(), Some(ms(1000)), "frame 1");
    // RTO = max(1 s, SRTT + 500 ms) = 1 s; at 1.5 s the sender has been idle for more than
    // that, so frame 1 starts from IW = 1 packet.
    assert_eq!(s.rto(), Duration::from_secs(1));
    let t = drain(&mut s, ms(1500));
    assert_eq!(t.len(), 1);
    assert_eq!(t[0].meta.media.frame, 1);
    assert_eq!(s.counters().idle_restarts, 1);
    assert_eq!(s.cwnd(), 1.0);
}

#[test]
fn sequence_numbers_wrap_at_24_bits() {
    let c = unpaced();
    let first = SEQ_MODULUS as u64 - 2;
    let mut s = sender(&c).with_first_seq(first);
    let mut r = QosAimdReceiver::new(&c);
    s.set_window(5.0, 2.0);
    let sent = drain(&mut s, ms(0));
    let wire: Vec<u32> = sent.iter().map(|t| DataHeader::parse(t.header.as_slice()).unwrap().seq).collect();
    assert_eq!(wire, [0xFF_FFFE, 0xFF_FFFF, 0, 1, 2]);
    // Packet 0xFFFFFF is lost; the rest arrive; the acks unwrap across the wrap.
    for t in sent.iter().filter(|t| t.meta.seq != first + 1) {
        let d = Datagram { from: PeerId::PEER, bytes: t.header.as_slice(), virtual_payload: t.payload_len };
        r.handle_datagram(ms(50), d).unwrap();
    }
    for a in drain(&mut r, ms(50)) {
        let d = Datagram { from: PeerId::PEER, bytes: a.header.as_slice(), virtual_payload: a.payload_len };
        s.handle_datagram(ms(100), d).unwrap();
    }
    assert_eq!(s.counters().packets_lost, 1);
    assert_eq!(s.counters().reductions, 1);
    assert_eq!(s.head(), first + 5);
    assert_eq!(s.counters().stale_acks + s.counters().invalid_acks, 0);
}

// ---------------------------------------------------------------------------------------------
// Receiver

fn data(seq: u32) -> DataHeader {
    DataHeader { seq, send_time_ns: 0 }
}

fn recv(r: &mut QosAimdReceiver, now: Instant, seq: u32) {
    let h = data(seq).emit();
    r.handle_datagram(now, Datagram { from: PeerId::PEER, bytes: h.as_slice(), virtual_payload: 109 }).unwrap();
}

fn acks(r: &mut QosAimdReceiver, now: Instant) -> Vec<AckHeader> {
    drain(r, now)
        .iter()
        .map(|t| {
            assert_eq!(t.meta.kind, PacketKind::Control);
            assert_eq!(t.wire_size(), DataSize::from_bytes(40));
            AckHeader::parse(t.header.as_slice()).unwrap()
        })
        .collect()
}

#[test]
fn receiver_acks_each_packet_with_its_sackvec() {
    let mut r = QosAimdReceiver::new(&QosAimdConfig::default());
    for s in [0, 1, 3] {
        recv(&mut r, ms(0), s);
    }
    let a = acks(&mut r, ms(0));
    assert_eq!(a.len(), 3);
    // The ack for 3: bit 1 (packet 2) clear, bit 2 (packet 1) and bit 3 (packet 0) set.
    assert_eq!(a[2].ack_a, 3);
    assert_eq!(a[2].rwnd, 64);
    assert_eq!(a[2].sackvec.iter_set().collect::<Vec<_>>(), [2, 3]);
    // A late packet 2 is acked with its own number and the vector below it.
    recv(&mut r, ms(1), 2);
    let a = acks(&mut r, ms(1));
    assert_eq!((a[0].ack_a, a[0].sackvec.iter_set().collect::<Vec<_>>()), (2, vec![1, 2]));
    assert_eq!(r.stats().app_packets_delivered, 4);
    assert_eq!(r.stats().app_bytes_delivered, 4 * 109);
    // A duplicate is acked again but not delivered twice.
    recv(&mut r, ms(2), 2);
    assert_eq!(acks(&mut r, ms(2)).len(), 1);
    assert_eq!(r.counters().duplicates, 1);
    assert_eq!(r.stats().app_packets_delivered, 4);
}

#[test]
fn receiver_discards_packets_below_largest_minus_rwnd_without_ack() {
    let c = QosAimdConfig { rwnd_packets: 10, ..QosAimdConfig::default() };
    let mut r = QosAimdReceiver::new(&c);
    recv(&mut r, ms(0), 100);
    recv(&mut r, ms(0), 90); // 100 − 10 = 90: not below, kept
    recv(&mut r, ms(0), 89); // below: dropped, no ack
    assert_eq!(acks(&mut r, ms(0)).iter().map(|a| a.ack_a).collect::<Vec<_>>(), [100, 90]);
    assert_eq!(r.counters().discarded_old, 1);
    assert_eq!(r.stats().app_packets_delivered, 2);
    // Across the 24-bit wrap: largest 0x000002 means 0xFFFFF8 (10 behind) is kept and
    // 0xFFFFF7 (11 behind) is dropped.
    let mut r = QosAimdReceiver::new(&c);
    recv(&mut r, ms(0), 0xFF_FFFE);
    recv(&mut r, ms(0), 2);
    recv(&mut r, ms(0), 0xFF_FFF8);
    recv(&mut r, ms(0), 0xFF_FFF7);
    assert_eq!(r.counters().discarded_old, 1);
    let a = acks(&mut r, ms(0));
    assert_eq!(a.len(), 3);
    // The ack for 2 reports 0xFFFFFE four below it (bit 4).
    assert_eq!(a[1].sackvec.iter_set().collect::<Vec<_>>(), [4]);
}

#[test]
fn receiver_ack_ratio_and_delay() {
    let c = QosAimdConfig { ack_ratio: 3, ack_delay_ns: 50_000_000, ..QosAimdConfig::default() };
    let mut r = QosAimdReceiver::new(&c);
    recv(&mut r, ms(0), 0);
    recv(&mut r, ms(1), 1);
    assert!(acks(&mut r, ms(1)).is_empty());
    assert_eq!(r.poll_timeout(), Some(ms(50)));
    recv(&mut r, ms(2), 2);
    let a = acks(&mut r, ms(2));
    assert_eq!((a.len(), a[0].ack_a), (1, 2));
    assert_eq!(a[0].sackvec.iter_set().collect::<Vec<_>>(), [1, 2]);
    assert_eq!(r.poll_timeout(), None);
    // One packet, then the delay runs out.
    recv(&mut r, ms(10), 3);
    r.handle_timeout(ms(59));
    assert!(acks(&mut r, ms(59)).is_empty());
    r.handle_timeout(ms(60));
    assert_eq!(acks(&mut r, ms(60))[0].ack_a, 3);
    assert_eq!(r.poll_timeout(), None);
}

#[test]
fn receiver_rejects_garbage_and_acks() {
    let mut r = QosAimdReceiver::new(&QosAimdConfig::default());
    let bad = Datagram { from: PeerId::PEER, bytes: &[1, 0x31, 0, 0], virtual_payload: 0 };
    assert!(r.handle_datagram(ms(0), bad).is_err());
    let h = ack(3, &[]).emit();
    assert!(r
        .handle_datagram(ms(0), Datagram { from: PeerId::PEER, bytes: h.as_slice(), virtual_payload: 0 })
        .is_err());
    assert_eq!(r.stats().malformed_datagrams, 2);
    assert!(acks(&mut r, ms(0)).is_empty());
}

#[test]
fn pair_validates_the_config_and_packet_size() {
    let bad = QosAimdConfig { beta: 1.0, ..QosAimdConfig::default() };
    let e = pair(&bad, Application::Bulk, DataSize::from_bytes(125), Instant::ZERO, None).err().unwrap();
    assert!(e.contains("beta"), "{e}");
    let bad = QosAimdConfig { sackvec_bits: 100, ack_size_bytes: 20, ..QosAimdConfig::default() };
    let e = pair(&bad, Application::Bulk, DataSize::from_bytes(125), Instant::ZERO, None).err().unwrap();
    assert!(e.contains("ack_size_bytes"), "{e}");
    let bad = QosAimdConfig { ack_ratio: 18, ..QosAimdConfig::default() };
    assert!(bad.validate().unwrap_err().contains("ack_ratio"));
    let e = pair(&QosAimdConfig::default(), Application::Bulk, DataSize::from_bytes(16), Instant::ZERO, None)
        .err()
        .unwrap();
    assert!(e.contains("packet size"), "{e}");
    assert!(pair(&QosAimdConfig::default(), Application::Bulk, DataSize::from_bytes(17), Instant::ZERO, None).is_ok());
}

// ---------------------------------------------------------------------------------------------
// Sender and receiver together under arbitrary delivery

mod property {
    use super::*;
    use proptest::prelude::*;

    fn config() -> impl Strategy<Value = QosAimdConfig> {
        (1u32..40, 0u16..24, 1u32..4, 0usize..3, any::<bool>(), 1u32..4).prop_map(
            |(rwnd, bits, ratio, pacing, half_flight, iw)| QosAimdConfig {
                rwnd_packets: rwnd,
                sackvec_bits: bits,
                ack_ratio: ratio.min(1 + bits as u32),
                pacing: [Pacing::Srtt, Pacing::MinRtt, Pacing::Off][pacing],
                timeout_ssthresh: if half_flight {
                    TimeoutSsthresh::HalfFlight
                } else {
                    TimeoutSsthresh::HalveSsthresh
                },
                initial_window_packets: iw,
                min_rto_ns: 200_000_000,
                rto_granularity_ns: 0,
                ..QosAimdConfig::default()
            },
        )
    }

    /// What must hold for a QoS-AIMD sender and receiver whatever the network does.
    struct QosAimdInvariants {
        rwnd: u32,
        first: u64,
        last_seq: Option<u64>,
        last_time: u64,
        delivered: u64,
    }

    impl Invariants<QosAimdSender, QosAimdReceiver> for QosAimdInvariants {
        fn sender_sent(&mut self, _: &QosAimdSender, t: &Transmit) -> Result<(), TestCaseError> {
            let h = DataHeader::parse(t.header.as_slice()).unwrap();
            // Monotone internal time and numbering: timestamps never go back (even when the
            // driver's clock does), numbers go up by one, the wire carries their low 24 bits.
            prop_assert!(h.send_time_ns >= self.last_time);
            self.last_time = h.send_time_ns;
            prop_assert_eq!(t.meta.seq, self.last_seq.map_or(self.first, |x| x + 1));
            prop_assert_eq!(h.seq as u64, t.meta.seq & SEQ_MASK as u64);
            self.last_seq = Some(t.meta.seq);
            Ok(())
        }

        fn after_step(&mut self, s: &QosAimdSender, r: &QosAimdReceiver) -> Result<(), TestCaseError> {
            // Window bounds: 1 ≤ cwnd ≤ rwnd, outstanding ≤ rwnd, ssthresh ≥ 1.
            let rwnd = self.rwnd;
            prop_assert!(s.cwnd() >= 1.0 && s.cwnd() <= rwnd as f64, "cwnd {}", s.cwnd());
            prop_assert!(s.cwnd().is_finite());
            prop_assert!(s.outstanding() <= rwnd as u64);
            prop_assert!(s.window() >= 1 && s.window() <= rwnd as u64);
            prop_assert!(s.ssthresh() >= 1.0);
            prop_assert!(s.head() <= s.next_seq());
            prop_assert!(s.poll_timeout().is_some(), "a bulk sender always wants a wake-up");
            // Goodput never exceeds what was sent.
            prop_assert!(r.stats().app_packets_delivered <= s.counters().packets_sent);
            prop_assert!(r.stats().app_packets_delivered >= self.delivered);
            self.delivered = r.stats().app_packets_delivered;
            let k = s.counters();
            prop_assert!(k.reductions <= k.packets_lost);
            Ok(())
        }
    }

    /// The clock of QoS-AIMD's property runs: steps of up to 400 ms, back by up to 255 ms.
    const CLOCK: Clock = Clock { max_advance: Duration::from_millis(400), max_rewind: Duration::from_millis(255) };

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        #[test]
        fn arbitrary_delivery_keeps_the_window_in_bounds(
            c in config(),
            first in prop_oneof![Just(0u64), Just(SEQ_MODULUS as u64 - 5)],
            ops in net_ops(CLOCK, 1..300),
        ) {
            let mut s = QosAimdSender::new(&c, Application::Bulk, DataSize::from_bytes(PKT), Instant::ZERO, None)
                .unwrap()
                .with_first_seq(first);
            let mut r = QosAimdReceiver::new(&c);
            let mut check =
                QosAimdInvariants { rwnd: c.rwnd_packets, first, last_seq: None, last_time: 0, delivered: 0 };
            drive_network(&mut s, &mut r, &ops, &mut check)?;
        }

        #[test]
        fn endpoints_never_panic_on_random_bytes(c in config(), (bytes, extra) in garbage()) {
            let mut p = pair(&c, Application::Bulk, DataSize::from_bytes(PKT), Instant::ZERO, None).unwrap();
            drain(&mut p.sender, Instant::ZERO);
            feed_garbage(&mut p.sender, ms(1), &bytes, extra, Rejections::Counted)?;
            feed_garbage(&mut p.receiver, ms(1), &bytes, extra, Rejections::Counted)?;
        }
    }
}
