use super::*;
use crate::endpoint::{Datagram, Endpoint, PeerId};
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};

fn drain(s: &mut UdpSender, now: Instant) -> usize {
    std::iter::from_fn(|| s.poll_transmit(now)).count()
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
