//! Feedback no receiver of what the sender sent could report: the shared plausibility check
//! (`proto::plausible`) clamps or refuses it and counts it; honest feedback passes untouched.

use super::tests::feedback;
use super::*;
use crate::endpoint::{Datagram, Endpoint, PeerId};
use crate::proto::testing::*;
use crate::wire::tfrc::TfrcFeedback;
use crate::wire::WireError;

fn sender() -> TfrcSender {
    TfrcSender::new(&TfrcConfig::default(), Application::Bulk, 1000, Instant::ZERO, None).unwrap()
}

#[test]
fn forged_feedback_claiming_x_recv_2_to_the_62_and_no_loss_is_clamped_and_counted() {
    let mut s = sender();
    // The packet of t = 0, answered at 100 ms with what it carried (80 kbit/s): believed.
    // R = 100 ms, X = s/R = 10 000 B/s: the next packet leaves at 100 ms.
    drain(&mut s, Instant::ZERO);
    feedback(&mut s, ms(100), Instant::ZERO, 80_000, 0.0);
    assert_eq!(s.stats().clamped_feedback, 0);
    assert_eq!(s.x_recv_set().collect::<Vec<_>>(), vec![10_000.0]);
    assert_eq!(drain(&mut s, ms(100)).len(), 1);
    // Forged: X_recv = 2^62 bit/s, p = 0, echoing the packet of 100 ms. Two packets (2000 B)
    // were sent; the window (R = 100 ms) widened by the 250 ms slack reaches back past 0, so the
    // most X_recv can stand for is 2 × 2000 B + one packet, 5000 B in 100 ms: 400 kbit/s.
    feedback(&mut s, ms(200), ms(100), 1 << 62, 0.0);
    assert_eq!(s.stats().clamped_feedback, 1);
    assert_eq!(s.x_recv_set().fold(0.0, f64::max), 50_000.0, "X_recv clamped to 400 kbit/s");
    // Slow start doubles X (20 000 B/s), now within 2·X_recv: the 2^59 B/s claimed never counts.
    assert_eq!(s.x_bytes_per_s(), 20_000.0);
    assert_eq!(s.counters().feedbacks, 2, "clamped feedback is still feedback");
}

#[test]
fn feedback_echoing_a_time_nothing_was_sent_is_refused_and_counted() {
    let mut s = sender();
    drain(&mut s, Instant::ZERO);
    let forged =
        TfrcFeedback { echo_seq: 0, timestamp_echo_ns: 50_000_000, t_delay_us: 0, x_recv_bps: 80_000, p_ppb: 0 };
    let r = s
        .handle_datagram(ms(100), Datagram { from: PeerId::PEER, bytes: forged.emit().as_slice(), virtual_payload: 0 });
    assert!(matches!(r, Err(WireError::Implausible(_))), "{r:?}");
    let st = s.stats();
    assert_eq!((st.clamped_feedback, st.malformed_datagrams), (1, 1));
    assert_eq!(s.rtt(), None, "no RTT sample from an invented echo");
    assert_eq!(s.counters().feedbacks, 0);
}

#[test]
fn a_t_delay_longer_than_the_round_trip_is_clamped() {
    let mut s = sender();
    drain(&mut s, Instant::ZERO);
    let forged = TfrcFeedback { echo_seq: 0, timestamp_echo_ns: 0, t_delay_us: 900_000, x_recv_bps: 8_000, p_ppb: 0 };
    s.handle_datagram(ms(100), Datagram { from: PeerId::PEER, bytes: forged.emit().as_slice(), virtual_payload: 0 })
        .unwrap();
    assert_eq!(s.stats().clamped_feedback, 1);
}

#[test]
fn honest_feedback_over_a_lossy_pipe_is_never_clamped() {
    // The pair over the shared test pipe, 60 ms round trip, a few losses, 20 s: every
    // feedback is believed as sent (and there are hundreds).
    let cfg = TfrcConfig::default();
    let (s, r) = (sender(), TfrcReceiver::new(&cfg, 1000));
    let mut pipe = Pipe::new(s, r, millis(60)).drop_first(&[40, 41, 300, 900, 2000]);
    pipe.run_until(ms(20_000));
    assert!(pipe.s.counters().feedbacks > 200, "{:?}", pipe.s.counters());
    assert_eq!(pipe.s.stats().clamped_feedback, 0);
    assert!(pipe.s.loss_event_rate() > 0.0, "the losses were seen");
}
