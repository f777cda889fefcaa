//! Hostile input while streaming: a flood of random and malformed datagrams at both ends, absurd
//! feedback against the sender's rate cap, and authentication (wrong key, truncated tag, replay).
//! No timed assertions: counts and rates are measured on the run's own clock.

mod common;

use common::local;

use std::net::{SocketAddr, UdpSocket};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use rand::Rng;
use vidcc_core::media::MediaTag;
use vidcc_core::proto::registry::defaults;
use vidcc_core::queue::Limit;
use vidcc_core::wire::tfrc::{TfrcFeedback, TfrcHeader};
use vidcc_core::{DataRate, Duration};
use vidcc_net::auth::{Auth, Key, Role};
use vidcc_net::driver::NoObserver;
use vidcc_net::envelope::{self, Kind};
use vidcc_net::link::{DirectionSpec, Link, LinkOptions};
use vidcc_net::session::{run_receiver, run_sender, Offer, RecvOptions, Security, SendOptions};

fn video_offer(secs: u64) -> Offer {
    common::offer(defaults("udp").unwrap(), Some(common::cbr_video(1_000_000, &[], 500_000_000)), 1, secs)
}

/// Random datagrams: pure noise, and noise behind each envelope kind (wrong sessions, truncated
/// or garbage data envelopes).
fn garbage(rng: &mut impl Rng) -> Vec<u8> {
    let n = rng.gen_range(0..200);
    let mut b: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
    if n > 0 && rng.gen_bool(0.7) {
        b[0] = [
            envelope::KIND_OFFER,
            envelope::KIND_ACCEPT,
            envelope::KIND_DATA,
            envelope::KIND_CONTROL,
            envelope::KIND_BYE,
        ][rng.gen_range(0..5)];
    }
    b
}

fn flood(to: SocketAddr, count: usize, seed: u64) -> thread::JoinHandle<usize> {
    thread::spawn(move || {
        let s = UdpSocket::bind("127.0.0.1:0").unwrap();
        let mut rng = vidcc_core::rng::RngStreams::new(seed).stream("flood");
        let mut sent = 0;
        for i in 0..count {
            if s.send_to(&garbage(&mut rng), to).is_ok() {
                sent += 1;
            }
            // Spread over about two seconds, so that the kernel's buffers, not our code, are never
            // what drops them.
            if i % 500 == 499 {
                thread::sleep(std::time::Duration::from_millis(10));
            }
        }
        sent
    })
}

#[test]
fn a_flood_of_malformed_datagrams_neither_stops_the_stream_nor_skews_its_metrics() {
    let secs = 5;
    let rx = local();
    let rx_addr = rx.local_addr().unwrap();
    let relay = local();
    let relay_addr = relay.local_addr().unwrap();
    let wide = DirectionSpec {
        bandwidth: DataRate::from_bps(200_000_000),
        delay: Duration::from_millis(5),
        limit: Limit::Packets(100_000),
        red: false,
        loss: None,
    };
    let mut link = Link::on(
        relay,
        &LinkOptions {
            listen: relay_addr,
            to: rx_addr,
            forward: wide,
            reverse: wide,
            seed: 1,
            routes: Vec::new(),
            protocol_sizes: false,
        },
    )
    .unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let stop2 = Arc::clone(&stop);
    let link_thread = thread::spawn(move || link.run(&stop2, None).unwrap());
    let log = std::env::temp_dir().join(format!("vidcc-net-flood-{}.csv", std::process::id()));
    let log2 = log.clone();
    let receiver = thread::spawn(move || {
        let opts = RecvOptions {
            security: Security::default(),
            idle: Duration::from_secs(3),
            wait_for_offer: Some(Duration::from_secs(20)),
            log: Some(log2),
            max_state_bytes: None,
            report_interval: None,
        };
        run_receiver(rx, opts, &AtomicBool::new(false)).unwrap().expect("a session")
    });
    let tx = local();
    let tx_addr = tx.local_addr().unwrap();
    let sender = thread::spawn(move || {
        let opts = SendOptions {
            to: relay_addr,
            offer: video_offer(secs),
            security: Security::default(),
            max_rate_bps: None,
            handshake_timeout: Duration::from_secs(20),
            payload: None,
            plain_copy: None,
            feedback_timeout: None,
            circuit_breaker: None,
        };
        run_sender(tx, opts, &AtomicBool::new(false), &mut NoObserver).unwrap()
    });
    thread::sleep(std::time::Duration::from_millis(500));
    // 100,000 through the relay (they reach the receiver from its peer's address, the case a
    // spoofing attacker reaches, so they meet the envelope, window and protocol checks), and
    // 25,000 straight at each end (foreign).
    let floods = [flood(relay_addr, 100_000, 1), flood(rx_addr, 25_000, 2), flood(tx_addr, 25_000, 3)];
    let sent: Vec<usize> = floods.into_iter().map(|f| f.join().unwrap()).collect();
    let send = sender.join().unwrap();
    let recv = receiver.join().unwrap();
    stop.store(true, Ordering::Relaxed);
    let l = link_thread.join().unwrap();
    println!("flood {sent:?}; receiver {:?}; sender {:?}; link {:?}", recv.counters, send.counters, l);

    // The stream went on: everything the sender sent arrived (a wide, lossless link).
    let summary = recv.tables.iter().find(|t| t.name == "flow_summary").unwrap();
    let delivered = summary.u64s("delivered_packets")[0];
    assert_eq!(summary.u64s("sent_packets")[0], send.data_sent);
    assert!(delivered as f64 >= 0.99 * send.data_sent as f64, "{delivered} of {}", send.data_sent);
    assert_eq!(delivered, recv.counters.data_in, "only accepted data packets are counted");
    let logged = std::fs::read_to_string(&log).unwrap().lines().count() as u64 - 1;
    std::fs::remove_file(&log).unwrap();
    assert_eq!(logged, delivered, "the arrival log holds every arrival, and nothing else");
    assert!(
        send.data_sent as f64 >= 0.9 * (secs as f64 * 1e6 / 8000.0),
        "the sender kept its rate: {}",
        send.data_sent
    );
    // The flood was seen and rejected, never delivered.
    let c = recv.counters;
    assert!(c.rejected() > 0 && c.foreign_address > 0, "{c:?}");
    assert!(c.foreign_address <= sent[1] as u64);
    assert!(c.rejected() <= l.forward.forwarded, "{c:?}");
    assert!(
        send.counters.foreign_address > 0 && send.counters.foreign_address <= sent[2] as u64,
        "{:?}",
        send.counters
    );
    assert_eq!(send.counters.rejected(), 0, "the sender's peer sent nothing malformed");
    // Every datagram each end read is in exactly one counter.
    assert!(c.accounted() && send.counters.accounted(), "{c:?} / {:?}", send.counters);
}

/// A fake receiver that accepts the session and answers every data packet with TFRC feedback
/// claiming an enormous receive rate and no loss.
#[test]
fn absurd_feedback_cannot_push_a_sender_above_its_maximum_rate() {
    let secs = 3;
    let cap_bps = 1_000_000u64;
    let fake = UdpSocket::bind("127.0.0.1:0").unwrap();
    fake.set_read_timeout(Some(std::time::Duration::from_millis(200))).unwrap();
    let fake_addr = fake.local_addr().unwrap();
    let done = Arc::new(AtomicBool::new(false));
    let done2 = Arc::clone(&done);
    let liar = thread::spawn(move || {
        let mut buf = vec![0u8; 65_536];
        let mut out = Vec::new();
        let mut data_bytes = 0u64;
        while !done2.load(Ordering::Relaxed) {
            let Ok((n, from)) = fake.recv_from(&mut buf) else { continue };
            let Ok(e) = envelope::parse(&buf[..n]) else { continue };
            match e.kind {
                Kind::Offer => {
                    envelope::write_prefix(&mut out, Kind::Accept, e.session);
                    fake.send_to(&out, from).unwrap();
                }
                Kind::Data => {
                    data_bytes += n as u64;
                    if let Ok(TfrcHeader::Data(d)) = TfrcHeader::parse(e.body) {
                        let fb = TfrcFeedback {
                            echo_seq: d.seq,
                            timestamp_echo_ns: d.timestamp_ns,
                            t_delay_us: 0,
                            x_recv_bps: u64::MAX / 4,
                            p_ppb: 0,
                        };
                        envelope::write_prefix(&mut out, Kind::Control, e.session);
                        out.extend_from_slice(fb.emit().as_slice());
                        fake.send_to(&out, from).unwrap();
                    }
                }
                _ => {}
            }
        }
        data_bytes
    });
    let offer = Offer { video: None, ..video_offer(secs) };
    let offer = Offer { protocol: defaults("tfrc").unwrap(), ..offer };
    let packet_size = offer.packet_size_bytes;
    let opts = SendOptions {
        to: fake_addr,
        offer,
        security: Security::default(),
        max_rate_bps: Some(cap_bps),
        handshake_timeout: Duration::from_secs(20),
        payload: None,
        plain_copy: None,
        feedback_timeout: None,
        circuit_breaker: None,
    };
    let report = run_sender(local(), opts, &AtomicBool::new(false), &mut NoObserver).unwrap();
    done.store(true, Ordering::Relaxed);
    let data_bytes = liar.join().unwrap();
    let elapsed = report.elapsed_ns as f64 / 1e9;
    let rate = data_bytes as f64 * 8.0 / elapsed;
    println!("{report:?}: {rate} bit/s; liar got {data_bytes} B");
    // Never above the cap plus its 20 ms burst, on the sender's own clock (the last transmit
    // precedes `elapsed`). The GCRA admits a datagram while the theoretical arrival time is at
    // most 20 ms ahead, before adding that datagram's cost: the capped bytes may exceed
    // cap × (elapsed + 20 ms) by the one datagram admitted at the burst's edge (the largest this
    // flow sends: envelope + packet). The session's envelopes (the Offer, re-sent every 200 ms
    // until accepted, ~430 B each, and three 21-B Byes) are outside the cap and counted apart.
    let c = report.counters;
    let capped = c.bytes_out - c.session_bytes_out;
    let largest = (envelope::DATA_PREFIX as u64 + packet_size) as f64;
    let allowed = cap_bps as f64 * (elapsed + 0.02) / 8.0 + largest;
    assert!(c.session_bytes_out > 0 && c.session_bytes_out < c.bytes_out, "{c:?}");
    assert!((capped as f64) <= allowed, "{capped} capped bytes out, the cap allows {allowed}");
    assert!(data_bytes <= capped, "the liar got {data_bytes} B of data, more than the {capped} B sent");
    // ... and the feedback really pushed: the cap was what held the sender back.
    assert!(report.counters.rate_capped > 0, "{report:?}");
    assert!(rate > 0.5 * cap_bps as f64, "{rate}");
}

fn key(b: u8) -> Key {
    Key::new(vec![b; 32]).unwrap()
}

#[test]
fn with_a_key_the_session_runs_and_a_sender_with_another_key_is_never_accepted() {
    let secs = 2;
    let rx = local();
    let rx_addr = rx.local_addr().unwrap();
    let receiver = thread::spawn(move || {
        let opts = RecvOptions {
            security: Security { key: Some(key(7)) },
            idle: Duration::from_secs(2),
            wait_for_offer: Some(Duration::from_secs(20)),
            log: None,
            max_state_bytes: None,
            report_interval: None,
        };
        run_receiver(rx, opts, &AtomicBool::new(false)).unwrap().expect("a session")
    });
    // A sender with the wrong key is never accepted.
    let wrong = SendOptions {
        to: rx_addr,
        offer: video_offer(secs),
        security: Security { key: Some(key(8)) },
        max_rate_bps: None,
        handshake_timeout: Duration::from_millis(700),
        payload: None,
        plain_copy: None,
        feedback_timeout: None,
        circuit_breaker: None,
    };
    let err = run_sender(local(), wrong, &AtomicBool::new(false), &mut NoObserver).unwrap_err();
    assert!(err.contains("no answer"), "{err}");
    // The right key: a normal session.
    let tx = local();
    let right = SendOptions {
        to: rx_addr,
        offer: video_offer(secs),
        security: Security { key: Some(key(7)) },
        max_rate_bps: None,
        handshake_timeout: Duration::from_secs(20),
        payload: None,
        plain_copy: None,
        feedback_timeout: None,
        circuit_breaker: None,
    };
    let send = run_sender(tx, right, &AtomicBool::new(false), &mut NoObserver).unwrap();
    let recv = receiver.join().unwrap();
    assert!(recv.counters.auth_bad_tag >= 1, "the wrong key's offers were counted: {:?}", recv.counters);
    let summary = recv.tables.iter().find(|t| t.name == "flow_summary").unwrap();
    assert_eq!(summary.u64s("delivered_packets")[0], send.data_sent, "lossless loopback, authenticated session");
}

/// Control envelopes from the peer's own address: a good one passes the check, then its replay,
/// a forgery under another key, a tag cut short and a trailer-less envelope are counted apart.
#[test]
fn the_driver_counts_bad_tags_truncations_and_replays_from_its_peer() {
    let a = local();
    let peer = UdpSocket::bind("127.0.0.1:0").unwrap();
    let peer_addr = peer.local_addr().unwrap();
    let endpoint = video_offer(1).build().unwrap().receivers.remove(0);
    let mut d = vidcc_net::Driver::new(a, peer_addr, 5, endpoint);
    d.set_auth(Some(Auth::new(key(7), Role::Receiver)));
    let mut good = Auth::new(key(7), Role::Sender);
    let mut forger = Auth::new(key(9), Role::Sender);
    let sealed = |auth: &mut Auth, body: &[u8]| {
        let mut out = Vec::new();
        envelope::write_prefix(&mut out, Kind::Control, 5);
        out.extend_from_slice(body);
        auth.seal(&mut out);
        out
    };
    let first = sealed(&mut good, b"not a protocol packet");
    d.handle(&first, peer_addr, &mut NoObserver);
    let c = d.counters;
    assert_eq!(
        (c.auth_bad_tag, c.auth_replay, c.auth_truncated, c.malformed_protocol),
        (0, 0, 0, 1),
        "authentic, then refused by the protocol"
    );
    d.handle(&first, peer_addr, &mut NoObserver);
    assert_eq!(d.counters.auth_replay, 1);
    d.handle(&sealed(&mut forger, b"x"), peer_addr, &mut NoObserver);
    assert_eq!(d.counters.auth_bad_tag, 1);
    let next = sealed(&mut good, b"a body long enough that cutting its tag leaves a trailer");
    d.handle(&next[..next.len() - 4], peer_addr, &mut NoObserver);
    assert_eq!(d.counters.auth_bad_tag, 2, "a truncated tag does not verify");
    d.handle(&[envelope::KIND_CONTROL, 0, 0, 0, 5, 1, 2], peer_addr, &mut NoObserver);
    assert_eq!(d.counters.auth_truncated, 1);
    // The truncated copy's sequence number was never accepted: the intact one still is.
    d.handle(&next, peer_addr, &mut NoObserver);
    assert_eq!((d.counters.auth_replay, d.counters.malformed_protocol), (1, 2));
    // Same envelope, another sender address: ignored before any check.
    d.handle(&next, "127.0.0.1:9".parse().unwrap(), &mut NoObserver);
    assert_eq!(d.counters.foreign_address, 1);
    drop(peer);
}

/// With a key, a datagram the driver itself sealed and that comes back from its peer's address
/// (a reflection) fails, data envelopes included; so does an unsealed data envelope.
#[test]
fn a_reflected_or_unsealed_datagram_fails_authentication() {
    let a = local();
    let peer = UdpSocket::bind("127.0.0.1:0").unwrap();
    let peer_addr = peer.local_addr().unwrap();
    let endpoint = video_offer(1).build().unwrap().sender;
    let mut d = vidcc_net::Driver::new(a, peer_addr, 5, endpoint);
    d.set_auth(Some(Auth::new(key(7), Role::Sender)));
    // What the sender sends: sealed with the sender-to-receiver key.
    let mut own = Auth::new(key(7), Role::Sender);
    let info = envelope::DataInfo { seq: 0, sent_unix_ns: 1, media: MediaTag::NONE, retransmit: false };
    let mut data = Vec::new();
    envelope::write_data_prefix(&mut data, 5, &info);
    data.extend_from_slice(b"reflected");
    let unsealed = data.clone();
    own.seal(&mut data);
    let mut control = Vec::new();
    envelope::write_prefix(&mut control, Kind::Control, 5);
    control.extend_from_slice(b"feedback");
    own.seal(&mut control);
    d.handle(&data, peer_addr, &mut NoObserver);
    d.handle(&control, peer_addr, &mut NoObserver);
    d.handle(&unsealed, peer_addr, &mut NoObserver);
    let c = d.counters;
    assert_eq!((c.auth_bad_tag, c.data_in, c.malformed_protocol), (3, 0, 0), "{c:?}");
    drop(peer);
}

/// A multicast protocol offered for a unicast session is refused before any datagram leaves,
/// naming the protocol, where it used to time out waiting for group reports.
#[test]
fn a_multicast_protocol_is_refused_before_the_handshake() {
    for name in ["tfmcc", "asmp", "sramt-s", "udp-multicast"] {
        let offer = Offer { video: None, protocol: defaults(name).unwrap(), ..video_offer(1) };
        let err = offer.build().err().unwrap_or_else(|| panic!("{name} was accepted"));
        assert!(err.contains(name) && err.contains("multicast"), "{err}");
        // The unicast twin of the same offer builds.
        assert!(Offer { protocol: defaults("tfrc").unwrap(), ..offer }.build().is_ok());
    }
}
