//! Forged numbers from the peer's own address: an on-path tap between a real sender and a real
//! receiver (the position a spoofing attacker reaches) copies genuine data envelopes with
//! absurd sequence or frame numbers and sends Byes claiming absurd counts, with and without
//! authentication. The receiver must keep running, count every forgery as rejected, and write
//! tables that agree with what really arrived.

mod common;

use common::local;

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;

use vidcc_core::proto::registry::defaults;
use vidcc_core::Duration;
use vidcc_net::auth::Key;
use vidcc_net::driver::NoObserver;
use vidcc_net::envelope;
use vidcc_net::session::{run_receiver, run_sender, Offer, RecvOptions, Security, SendOptions};

fn offer(secs: u64) -> Offer {
    common::offer(defaults("udp").unwrap(), Some(common::cbr_video(1_000_000, &[], 200_000_000)), 1, secs)
}

const HUGE: [u64; 3] = [1 << 31, 1 << 62, u64::MAX];

/// The forgeries made from one genuine data envelope: its copy with each huge sequence number,
/// its copy with a frame number far ahead, and Byes claiming each huge count.
fn forgeries(genuine: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let session: [u8; 4] = genuine[1..5].try_into().unwrap();
    for &n in &HUGE {
        let mut d = genuine.to_vec();
        d[5..13].copy_from_slice(&n.to_be_bytes());
        out.push(d);
        let mut bye = vec![envelope::KIND_BYE];
        bye.extend_from_slice(&session);
        bye.extend_from_slice(&n.to_be_bytes());
        bye.extend_from_slice(&n.to_be_bytes());
        out.push(bye);
    }
    let mut far_frame = genuine.to_vec();
    far_frame[21..25].copy_from_slice(&(u32::MAX - 1).to_be_bytes());
    out.push(far_frame);
    // A data envelope 200,000 ahead: once a 200,001-row `packets` table.
    let mut ahead = genuine.to_vec();
    ahead[5..13].copy_from_slice(&200_000u64.to_be_bytes());
    out.push(ahead);
    out
}

/// Forwards sender ⇄ receiver; after `after` data envelopes, sends the forgeries of the last
/// one to the receiver, from the tap's own socket (the receiver's peer). Returns how many.
fn tap(sock: UdpSocket, rx: SocketAddr, after: u64, done: Arc<AtomicBool>, forged: Arc<AtomicU64>) {
    sock.set_read_timeout(Some(std::time::Duration::from_millis(50))).unwrap();
    let mut buf = vec![0u8; 65_536];
    let mut tx: Option<SocketAddr> = None;
    let mut data = 0u64;
    let mut sent_forgeries = false;
    while !done.load(Ordering::Relaxed) {
        let Ok((n, from)) = sock.recv_from(&mut buf) else { continue };
        if from == rx {
            if let Some(t) = tx {
                let _ = sock.send_to(&buf[..n], t);
            }
            continue;
        }
        tx = Some(from);
        let _ = sock.send_to(&buf[..n], rx);
        if buf[0] == envelope::KIND_DATA {
            data += 1;
            if data == after && !sent_forgeries {
                sent_forgeries = true;
                for f in forgeries(&buf[..n]) {
                    sock.send_to(&f, rx).unwrap();
                    forged.fetch_add(1, Ordering::Relaxed);
                }
            }
        }
    }
}

fn forged_run(key: Option<Key>) {
    let secs = 2;
    let rx = local();
    let rx_addr = rx.local_addr().unwrap();
    let tap_sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    let tap_addr = tap_sock.local_addr().unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let forged = Arc::new(AtomicU64::new(0));
    let (d2, f2) = (Arc::clone(&done), Arc::clone(&forged));
    let tap_thread = thread::spawn(move || tap(tap_sock, rx_addr, 100, d2, f2));
    let rkey = key.clone();
    let receiver = thread::spawn(move || {
        let opts = RecvOptions {
            security: Security { key: rkey },
            idle: Duration::from_secs(3),
            wait_for_offer: Some(Duration::from_secs(20)),
            log: None,
            max_state_bytes: None,
            report_interval: None,
        };
        run_receiver(rx, opts, &AtomicBool::new(false)).unwrap().expect("a session")
    });
    let opts = SendOptions {
        to: tap_addr,
        offer: offer(secs),
        security: Security { key },
        max_rate_bps: None,
        handshake_timeout: Duration::from_secs(20),
        payload: None,
        plain_copy: None,
        feedback_timeout: None,
        circuit_breaker: None,
    };
    let send = run_sender(local(), opts, &AtomicBool::new(false), &mut NoObserver).unwrap();
    let recv = receiver.join().unwrap();
    done.store(true, Ordering::Relaxed);
    tap_thread.join().unwrap();
    let forged = forged.load(Ordering::Relaxed);
    let c = recv.counters;
    println!("forged {forged}; receiver {c:?} ended by {}; sender sent {}", recv.ended_by, send.data_sent);

    assert_eq!(forged, 8, "the tap saw its 100th data envelope and sent every forgery");
    assert_eq!(recv.ended_by, "bye", "the genuine Bye still ended the session");
    assert_eq!(c.rejected(), forged, "every forgery counted as rejected: {c:?}");
    assert!(c.accounted(), "every datagram in exactly one counter: {c:?}");
    assert_eq!(c.data_in, send.data_sent, "only genuine data packets accepted");
    let table = |n: &str| recv.tables.iter().find(|t| t.name == n).unwrap_or_else(|| panic!("no {n}"));
    let summary = table("flow_summary");
    assert_eq!(summary.u64s("sent_packets")[0], send.data_sent);
    assert_eq!(summary.u64s("delivered_packets")[0], send.data_sent, "lossless loopback");
    let packets = table("packets");
    let seqs = packets.u64s("seq");
    assert_eq!(seqs.len() as u64, send.data_sent, "one row per packet really sent");
    assert!(seqs.iter().enumerate().all(|(i, &s)| s == i as u64), "rows are the sequence numbers 0..sent");
    let frames = table("frames");
    assert!(frames.rows() <= (secs as usize + 1) * 25, "frames table: {} rows", frames.rows());
}

#[test]
fn forged_sequence_numbers_and_byes_are_counted_and_change_nothing() {
    forged_run(None);
}

#[test]
fn forged_sequence_numbers_and_byes_are_counted_and_change_nothing_with_a_key() {
    forged_run(Some(Key::new(vec![3; 32]).unwrap()));
}
