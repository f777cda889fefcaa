//! A sender's rate always has a ceiling, and its duration and signals always win: a fake
//! receiver answers every data packet with TFRC feedback claiming X_recv = 2^62 and no loss
//! (as a Control envelope, or, to a sender with a key it does not know, inside a Data
//! envelope), and the sender runs without `--max-rate`. Rates and times are the sender's own
//! (its report, its data envelopes' send times), never the test's wall clock.

mod common;

use std::net::UdpSocket;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use common::{liar, tfrc_offer};
use vidcc_core::Duration;
use vidcc_net::auth::Key;
use vidcc_net::driver::NoObserver;
use vidcc_net::envelope;
use vidcc_net::session::{run_sender, Security, SendOptions, BULK_CEILING_BPS};
use vidcc_net::socket::Socket;

fn flood_run(key: Option<Key>, in_data: bool) {
    let secs = 2;
    let fake = UdpSocket::bind("127.0.0.1:0").unwrap();
    let fake_addr = fake.local_addr().unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let done2 = Arc::clone(&done);
    let liar_key = if in_data { None } else { key.clone() };
    // With a key the liar knows the handshake (it is the session's peer) but seals nothing
    // else: the Data-envelope feedback is the bypass.
    let handshake_key = key.clone();
    let liar_thread = thread::spawn(move || liar(fake, liar_key.or(handshake_key), in_data, done2));
    let opts = SendOptions {
        to: fake_addr,
        offer: tfrc_offer(secs),
        security: Security { key },
        max_rate_bps: None,
        handshake_timeout: Duration::from_secs(20),
        payload: None,
        plain_copy: None,
        feedback_timeout: None,
        circuit_breaker: None,
    };
    let report = run_sender(
        Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap(),
        opts,
        &AtomicBool::new(false),
        &mut NoObserver,
    )
    .unwrap();
    done.store(true, Ordering::Relaxed);
    let seen = liar_thread.join().unwrap();
    println!("{report:?}; liar {seen:?}");
    let c = report.counters;
    assert_eq!(report.ceiling_bps, BULK_CEILING_BPS, "a bulk flow's default ceiling");
    // Without a key the lies are believed (the sender pushes to its ceiling); with one they are
    // refused and TFRC keeps its no-feedback rate (a packet or two).
    assert!(seen.feedbacks > if in_data { 0 } else { 100 }, "the liar answered: {seen:?}");
    // Never above the ceiling: capped bytes ≤ ceiling × (elapsed + burst) + one datagram.
    let elapsed = report.elapsed_ns as f64 / 1e9;
    let burst = report.ceiling_burst_ns as f64 / 1e9;
    let largest = (envelope::DATA_PREFIX + 1000 + 64) as f64;
    let allowed = report.ceiling_bps as f64 * (elapsed + burst) / 8.0 + largest;
    let capped = (c.bytes_out - c.session_bytes_out) as f64;
    assert!(capped <= allowed, "{capped} bytes out, the ceiling allows {allowed}");
    assert!(seen.data_bytes as f64 <= capped);
    // The sender stopped at its duration: its last data packet left before it (its own clock).
    let span = seen.last_sent_ns - seen.first_sent_ns;
    assert!(span <= secs * 1_000_000_000, "data sent over {span} ns, the duration is {secs} s");
    assert!(!report.stopped_early);
    if in_data {
        // With a key, feedback in an unsealed Data envelope never reaches the parser.
        assert_eq!((c.data_in, c.malformed_protocol), (0, 0), "{c:?}");
        assert!(c.auth_truncated + c.auth_bad_tag + 1 >= seen.feedbacks, "{c:?}");
    } else {
        assert!(c.rate_capped > 0, "the ceiling held the sender back: {c:?}");
    }
}

#[test]
fn absurd_feedback_without_a_key_stays_under_the_default_ceiling() {
    flood_run(None, false);
}

#[test]
fn absurd_feedback_inside_data_envelopes_with_a_key_stays_under_the_default_ceiling() {
    flood_run(Some(Key::new(vec![5; 32]).unwrap()), true);
}
