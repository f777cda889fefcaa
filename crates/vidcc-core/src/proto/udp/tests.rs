//! UDP tests: the sender's schedule and the receiver's counting with explicit time, and the
//! shared property driver.

use super::*;
use crate::endpoint::{Datagram, Endpoint, PeerId, Transmit};
use crate::proto::testing::{drive_network, feed_garbage, garbage, millis, ms, net_ops, Clock, Invariants, Rejections};
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use proptest::prelude::*;

/// How many packets `s` sends at `now`.
fn drain(s: &mut UdpSender, now: Instant) -> usize {
    crate::proto::testing::drain(s, now).len()
}

#[test]
fn sends_on_an_exact_schedule() {
    // 1 Mbps, 1000 B: one packet every 8 ms.
    let mut cfg = UdpConfig::new(DataRate::from_mbps(1));
    cfg.start = Instant::from_nanos(1_000_000);
    let mut s = UdpSender::new(cfg);
    assert_eq!(s.poll_timeout(), Some(Instant::from_nanos(1_000_000)));
    assert_eq!(drain(&mut s, Instant::ZERO), 0);
    assert_eq!(drain(&mut s, Instant::from_nanos(1_000_000)), 1);
    assert_eq!(s.poll_timeout(), Some(Instant::from_nanos(9_000_000)));
    // A driver that wakes late gets every overdue packet at once (nothing silently skipped).
    assert_eq!(drain(&mut s, Instant::from_nanos(1_000_000) + Duration::from_millis(80)), 10);
}

#[test]
fn stops_and_resumes() {
    let mut cfg = UdpConfig::new(DataRate::from_mbps(1));
    cfg.stop = Some(Instant::from_nanos(20_000_000));
    let mut s = UdpSender::new(cfg);
    assert_eq!(drain(&mut s, Instant::from_nanos(100_000_000)), 3); // t = 0, 8, 16 ms
    assert_eq!(s.poll_timeout(), None);
    let mut s = UdpSender::new(UdpConfig::new(DataRate::from_mbps(1)));
    s.set_active(Instant::ZERO, false);
    assert_eq!(s.poll_timeout(), None);
    s.set_active(Instant::from_nanos(5), true);
    assert_eq!(s.poll_timeout(), Some(Instant::from_nanos(5)));
}

#[test]
fn receiver_counts_payload_and_rejects_garbage() {
    let mut s = UdpSender::new(UdpConfig::new(DataRate::from_mbps(1)));
    let mut r = UdpReceiver::new();
    let t = s.poll_transmit(Instant::ZERO).unwrap();
    assert_eq!(t.wire_size(), DataSize::from_bytes(1000));
    let d = Datagram { from: PeerId::PEER, bytes: t.header.as_slice(), virtual_payload: t.payload_len };
    r.handle_datagram(Instant::ZERO, d).unwrap();
    assert_eq!(r.stats().app_bytes_delivered, 984);
    let bad = Datagram { from: PeerId::PEER, bytes: &[1, 2, 3], virtual_payload: 0 };
    assert!(r.handle_datagram(Instant::ZERO, bad).is_err());
    assert_eq!(r.stats().malformed_datagrams, 1);
    assert_eq!(r.stats().app_packets_delivered, 1);
}

/// What must hold for a UDP sender and receiver whatever the network does.
struct UdpInvariants;

impl Invariants<UdpSender, UdpReceiver> for UdpInvariants {
    fn sender_sent(&mut self, s: &UdpSender, t: &Transmit) -> Result<(), TestCaseError> {
        prop_assert_eq!(t.wire_size(), DataSize::from_bytes(1000));
        prop_assert_eq!(t.meta.seq + 1, s.packets_sent());
        Ok(())
    }

    fn receiver_sent(&mut self, _: &UdpReceiver, t: &Transmit) -> Result<(), TestCaseError> {
        prop_assert!(false, "a UDP receiver never answers: {:?}", t);
        Ok(())
    }

    fn after_step(&mut self, s: &UdpSender, r: &UdpReceiver) -> Result<(), TestCaseError> {
        // Unresponsive and without duplicate detection: all the receiver can promise is that it
        // saw no number that was never sent.
        prop_assert!(r.highest_seq().is_none_or(|q| (q as u64) < s.packets_sent()));
        prop_assert_eq!(r.stats().malformed_datagrams, 0);
        Ok(())
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_network_keeps_the_invariants(
        rate_kbps in 10u64..5000,
        stop_ms in proptest::option::of(0u64..5000),
        ops in net_ops(Clock { max_advance: millis(300), max_rewind: millis(50) }, 0..200),
    ) {
        let mut cfg = UdpConfig::new(DataRate::from_kbps(rate_kbps));
        cfg.stop = stop_ms.map(ms);
        let mut s = UdpSender::new(cfg);
        let mut r = UdpReceiver::new();
        drive_network(&mut s, &mut r, &ops, &mut UdpInvariants)?;
    }

    #[test]
    fn endpoints_never_panic_on_random_bytes((bytes, extra) in garbage()) {
        let mut p = pair(&UdpConfig::new(DataRate::from_mbps(1)));
        feed_garbage(&mut p.sender, ms(1), &bytes, extra, Rejections::Counted)?;
        feed_garbage(&mut p.receiver, ms(1), &bytes, extra, Rejections::Counted)?;
    }
}
