//! RFC 8083 §4.1's feedback-timeout circuit breaker: a fake receiver accepts the session and
//! then says nothing. A congestion-controlled sender (TFRC) stops once no feedback came for its
//! timeout and says so in its report; an unresponsive generator (udp) is exempt and runs its
//! duration. Times are the sender's own clock (its report).

use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use vidcc_core::media::config::VideoConfig;
use vidcc_core::proto::registry::defaults;
use vidcc_core::Duration;
use vidcc_net::driver::NoObserver;
use vidcc_net::envelope::{self, Kind};
use vidcc_net::session::{run_sender, Offer, SendOptions, SendReport};
use vidcc_net::socket::Socket;

/// Accepts every Offer, answers nothing else.
fn silent(sock: UdpSocket, done: Arc<AtomicBool>) -> u64 {
    sock.set_read_timeout(Some(std::time::Duration::from_millis(100))).unwrap();
    let mut buf = vec![0u8; 65_536];
    let mut data = 0;
    while !done.load(Ordering::Relaxed) {
        let Ok((n, from)) = sock.recv_from(&mut buf) else { continue };
        match envelope::parse(&buf[..n]) {
            Ok(e) if e.kind == Kind::Offer => {
                let mut out = Vec::new();
                envelope::write_prefix(&mut out, Kind::Accept, e.session);
                sock.send_to(&out, from).unwrap();
            }
            Ok(e) if e.kind == Kind::Data => data += 1,
            _ => {}
        }
    }
    data
}

fn run(protocol: &str, video: Option<VideoConfig>, secs: u64, timeout: Duration) -> (SendReport, u64) {
    let fake = UdpSocket::bind("127.0.0.1:0").unwrap();
    let to = fake.local_addr().unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let d2 = Arc::clone(&done);
    let t = thread::spawn(move || silent(fake, d2));
    let offer = Offer {
        protocol: defaults(protocol).unwrap(),
        video,
        packet_size_bytes: 1000,
        seed: 1,
        flow_index: 0,
        duration_ns: secs * 1_000_000_000,
        stop_ns: None,
        sample_interval_ns: 100_000_000,
        label: String::new(),
        extra: serde_json::Value::Null,
    };
    let opts = SendOptions {
        to,
        offer,
        security: Default::default(),
        max_rate_bps: None,
        handshake_timeout: Duration::from_secs(20),
        payload: None,
        plain_copy: None,
        feedback_timeout: Some(timeout),
        circuit_breaker: None,
    };
    let r = run_sender(
        Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap(),
        opts,
        &AtomicBool::new(false),
        &mut NoObserver,
    )
    .unwrap();
    done.store(true, Ordering::Relaxed);
    let data = t.join().unwrap();
    println!("{protocol}: {r:?}; the silent receiver got {data} data packets");
    (r, data)
}

#[test]
fn a_congestion_controlled_sender_without_feedback_trips_the_breaker() {
    let (r, data) = run("tfrc", None, 6, Duration::from_secs(1));
    assert!(data > 0, "it sent before it stopped");
    assert_eq!(r.ended_by, "circuit-breaker: feedback-timeout");
    assert!(r.stopped_early);
    assert!(r.elapsed_ns >= 1_000_000_000 && r.elapsed_ns < 6_000_000_000, "{}", r.elapsed_ns);
}

#[test]
fn an_unresponsive_generator_is_exempt() {
    let video: VideoConfig = serde_json::from_value(serde_json::json!({
        "model": {"kind": "cbr", "rate_bps": 500_000}, "fps": 25.0, "gop": "IBBPBBPBBPBB",
        "playout": {"kind": "first-arrival", "delay_ns": 200_000_000u64}, "delayed_threshold_ns": 75_000_000u64,
    }))
    .unwrap();
    let (r, data) = run("udp", Some(video), 2, Duration::from_millis(500));
    assert!(data > 0);
    assert_eq!((r.ended_by, r.stopped_early), ("duration", false));
    assert!(r.elapsed_ns >= 2_000_000_000);
}
