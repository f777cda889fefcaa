//! RFC 8083 §4.2 and §4.3 on the runtime's receiver reports, over loopback through a lossy
//! `vidcc link`: a sender far above the TCP-friendly rate for the reported loss trips the
//! congestion breaker (and its receiver's tables say so); TFRC at its equation rate over a 1 %
//! loss link does not; a receiver whose reports show no progress trips the media timeout.
//! Nothing here depends on how fast the machine is: rates, loss and RTT are the run's own.

mod common;

use common::local;

use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use vidcc_core::proto::registry::{defaults, ProtocolConfig};
use vidcc_core::queue::Limit;
use vidcc_core::{DataRate, Duration};
use vidcc_net::breaker::Report;
use vidcc_net::driver::NoObserver;
use vidcc_net::envelope::{self, Kind};
use vidcc_net::link::{DirectionSpec, Link, LinkOptions, LossSpec};
use vidcc_net::session::{run_receiver, run_sender, Offer, RecvOptions, RecvOutcome, SendOptions, SendReport};

fn offer(protocol: ProtocolConfig, secs: u64) -> Offer {
    common::offer(protocol, None, 5, secs)
}

/// A session through a 10 Mbit/s link of 20 ms delay each way losing `loss` of the forward
/// datagrams; the receiver reports every 200 ms (CB_INTERVAL: 10 reports, 2 s).
fn session(offer: Offer, loss: f64, breaker: Option<bool>) -> (SendReport, RecvOutcome) {
    let rx = local();
    let rx_addr = rx.local_addr().unwrap();
    let s = local();
    let target = s.local_addr().unwrap();
    let spec = DirectionSpec {
        bandwidth: DataRate::from_bps(10_000_000),
        delay: Duration::from_millis(20),
        limit: Limit::Packets(100),
        red: false,
        loss: Some(LossSpec::Bernoulli { p: loss }),
    };
    let opts = LinkOptions {
        listen: target,
        to: rx_addr,
        forward: spec,
        reverse: DirectionSpec { loss: None, ..spec },
        seed: 3,
        routes: Vec::new(),
        protocol_sizes: false,
    };
    let mut l = Link::on(s, &opts).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let stop2 = Arc::clone(&stop);
    let link = thread::spawn(move || l.run(&stop2, None).unwrap());
    let receiver = thread::spawn(move || {
        let opts = RecvOptions {
            security: Default::default(),
            idle: Duration::from_secs(3),
            wait_for_offer: Some(Duration::from_secs(20)),
            log: None,
            max_state_bytes: None,
            report_interval: Some(Duration::from_millis(200)),
        };
        run_receiver(rx, opts, &AtomicBool::new(false)).unwrap().expect("a session")
    });
    let opts = SendOptions {
        to: target,
        offer,
        security: Default::default(),
        max_rate_bps: None,
        handshake_timeout: Duration::from_secs(20),
        payload: None,
        plain_copy: None,
        feedback_timeout: None,
        circuit_breaker: breaker,
    };
    let send = run_sender(local(), opts, &AtomicBool::new(false), &mut NoObserver).unwrap();
    let recv = receiver.join().unwrap();
    stop.store(true, Ordering::Relaxed);
    link.join().unwrap();
    println!("{send:?}\nreceiver ended by {}", recv.ended_by);
    (send, recv)
}

fn cbr(rate_bps: u64) -> ProtocolConfig {
    let mut v = serde_json::to_value(defaults("udp-cbr").unwrap()).unwrap();
    v["rate_bps"] = rate_bps.into();
    serde_json::from_value(v).unwrap()
}

#[test]
fn an_unresponsive_sender_far_above_the_tcp_rate_trips_the_congestion_breaker() {
    // udp-cbr is exempt by default; forced on here, it stands for any sender that does not
    // respond to loss. 8 Mbit/s, 30 % loss, RTT ≥ 40 ms: X ≤ 8256 / (0.04 · 0.447) = 462 kbit/s,
    // a ratio above 12 whatever the machine adds to the RTT (a longer RTT only lowers X).
    let (send, recv) = session(offer(cbr(8_000_000), 8), 0.3, Some(true));
    assert_eq!(send.ended_by, "circuit-breaker: congestion");
    assert!(send.stopped_early && send.elapsed_ns < 8_000_000_000, "{}", send.elapsed_ns);
    let b = send.circuit_breaker.unwrap();
    assert!(b.loss > 0.2 && b.loss < 0.4, "{b:?}");
    assert!(b.max_ratio > 10.0);
    assert_eq!(recv.ended_by, "bye: circuit-breaker: congestion");
}

#[test]
fn the_exempt_generator_is_not_judged_by_default() {
    let (send, _) = session(offer(cbr(8_000_000), 3), 0.3, None);
    assert_eq!((send.ended_by, send.circuit_breaker.is_none()), ("duration", true));
}

#[test]
fn tfrc_at_its_equation_rate_over_one_percent_loss_does_not_trip() {
    let (send, recv) = session(offer(defaults("tfrc").unwrap(), 7), 0.01, None);
    assert_eq!(send.ended_by, "duration");
    let b = send.circuit_breaker.expect("on for TFRC by default");
    // Judged on real windows with loss in them, not vacuously.
    assert!(b.evaluations >= 10, "{b:?}");
    assert!(b.loss > 0.0 && b.max_ratio > 0.0 && b.max_ratio < 10.0, "{b:?}");
    assert_eq!(recv.ended_by, "bye");
}

/// Accepts the session and reports every 100 ms that nothing beyond the first data packet
/// arrived.
fn stuck(sock: UdpSocket, done: Arc<AtomicBool>) {
    sock.set_read_timeout(Some(std::time::Duration::from_millis(100))).unwrap();
    let mut buf = vec![0u8; 65_536];
    let mut out = Vec::new();
    let mut first = None;
    while !done.load(Ordering::Relaxed) {
        if let Ok((n, from)) = sock.recv_from(&mut buf) {
            match envelope::parse(&buf[..n]) {
                Ok(e) if e.kind == Kind::Offer => {
                    envelope::write_prefix(&mut out, Kind::Accept, e.session);
                    sock.send_to(&out, from).unwrap();
                }
                Ok(e) if e.kind == Kind::Data && first.is_none() => {
                    first = Some((e.session, e.data.unwrap().sent_unix_ns, from));
                }
                _ => {}
            }
        }
        if let Some((session, echo, from)) = first {
            let r = Report { received: 1, next_seq: 1, echo_unix_ns: echo, delay_ns: 0 };
            envelope::write_prefix(&mut out, Kind::Report, session);
            r.emit(&mut out);
            let _ = sock.send_to(&out, from);
            thread::sleep(std::time::Duration::from_millis(100));
        }
    }
}

#[test]
fn reports_without_progress_trip_the_media_timeout() {
    let fake = UdpSocket::bind("127.0.0.1:0").unwrap();
    let to = fake.local_addr().unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let d2 = Arc::clone(&done);
    let t = thread::spawn(move || stuck(fake, d2));
    let opts = SendOptions {
        to,
        offer: offer(cbr(1_000_000), 8),
        security: Default::default(),
        max_rate_bps: None,
        handshake_timeout: Duration::from_secs(20),
        payload: None,
        plain_copy: None,
        feedback_timeout: None,
        circuit_breaker: Some(true),
    };
    let send = run_sender(local(), opts, &AtomicBool::new(false), &mut NoObserver).unwrap();
    done.store(true, Ordering::Relaxed);
    t.join().unwrap();
    println!("{send:?}");
    assert_eq!(send.ended_by, "circuit-breaker: media-timeout");
    assert!(send.elapsed_ns < 8_000_000_000);
    assert_eq!(send.counters.implausible_report, 0);
}
