//! ACKs no receiver of what the sender sent could send: the shared plausibility check
//! (`proto::plausible`) ignores or discounts them and counts them; honest ones pass untouched.

use super::tests::ack;
use super::*;
use crate::endpoint::Endpoint;
use crate::proto::testing::*;
use crate::Instant;

#[test]
fn acks_beyond_what_was_sent_or_echoing_no_send_are_counted() {
    let mut s = TcpSender::new(NewReno, &TcpConfig::default(), 1000, Instant::ZERO, None);
    let sent = drain(&mut s, Instant::ZERO).len() as u64;
    assert!(sent >= 1);
    // An ACK of everything sent, echoing the send time: believed.
    ack(&mut s, ms(100), 1, Instant::ZERO);
    assert_eq!((s.snd_una(), s.stats().clamped_feedback), (1, 0));
    // Beyond anything sent: ignored (as before) and now counted.
    ack(&mut s, ms(110), 1 << 40, Instant::ZERO);
    assert_eq!((s.snd_una(), s.stats().clamped_feedback), (1, 1));
    // Acknowledging real data but echoing 50 ms, when nothing was sent: used, counted, no RTT.
    ack(&mut s, ms(120), 2, ms(50));
    assert_eq!((s.snd_una(), s.stats().clamped_feedback), (2, 2));
}
