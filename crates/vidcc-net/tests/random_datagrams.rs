//! Arbitrary datagram sequences from the peer's own address straight into the driver of both
//! ends of every unicast protocol, with and without a key (a seeded, deterministic property
//! test, not a coverage-guided fuzzer): no panic, every datagram in exactly one counter, the
//! receiver's record within its budget, and the tables built from it consistent with it.

use rand::Rng;
use vidcc_core::media::config::VideoConfig;
use vidcc_core::proto::registry::{defaults, ProtocolConfig, Reach, PROTOCOLS};
use vidcc_core::{Duration, Instant};
use vidcc_net::auth::{Auth, Key, Role};
use vidcc_net::driver::{Driver, NoObserver};
use vidcc_net::envelope::{self, DataInfo};
use vidcc_net::record::{FlowInfo, RecvRecorder, ROW_BYTES};
use vidcc_net::session::Offer;
use vidcc_net::socket::Socket;

fn offer(name: &str) -> Option<Offer> {
    let video: VideoConfig = serde_json::from_value(serde_json::json!({
        "model": {"kind": "cbr", "rate_bps": 1_000_000}, "fps": 25.0, "gop": "IBBPBBPBBPBB",
        "layers_bps": [500_000, 1_000_000],
        "playout": {"kind": "first-arrival", "delay_ns": 200_000_000u64}, "delayed_threshold_ns": 75_000_000u64,
    }))
    .unwrap();
    let mut p = serde_json::to_value(defaults(name).unwrap()).unwrap();
    if p.get("rate_bps").is_some() {
        p["rate_bps"] = serde_json::json!(1_000_000);
    }
    let protocol: ProtocolConfig = serde_json::from_value(p).unwrap();
    if protocol.reach() != Reach::Unicast {
        return None;
    }
    let base = Offer {
        protocol,
        video: Some(video),
        packet_size_bytes: 1000,
        seed: 1,
        flow_index: 0,
        duration_ns: 1_000_000_000,
        stop_ns: None,
        sample_interval_ns: 100_000_000,
        label: String::new(),
        extra: serde_json::Value::Null,
    };
    // Video where the protocol takes it, else bulk.
    if base.build().is_ok() {
        return Some(base);
    }
    let bulk = Offer { video: None, ..base };
    bulk.build().is_ok().then_some(bulk)
}

/// A datagram an attacker at the peer's address might send: noise, or an envelope of any kind
/// for the session with random numbers and body (a fifth of them sealed with the wrong key).
fn datagram(rng: &mut impl Rng, forger: &mut Auth) -> Vec<u8> {
    let n = rng.gen_range(0..120);
    let mut body: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
    match rng.gen_range(0..4) {
        0 => body,
        1 => {
            let seq = match rng.gen_range(0..3) {
                0 => rng.gen_range(0..5000),
                1 => rng.gen(),
                _ => 1 << rng.gen_range(0..64),
            };
            let media = vidcc_core::media::MediaTag {
                frame: if rng.gen_bool(0.5) { rng.gen_range(0..4000) } else { rng.gen() },
                frame_type: rng.gen_range(0..4),
                layer: rng.gen_range(0..3),
                index: rng.gen_range(0..8),
                count: rng.gen_range(0..10),
            };
            let info = DataInfo { seq, sent_unix_ns: rng.gen(), media, retransmit: rng.gen() };
            let mut out = Vec::new();
            envelope::write_data_prefix(&mut out, 5, &info);
            out.append(&mut body);
            if rng.gen_bool(0.2) {
                forger.seal(&mut out);
            }
            out
        }
        _ => {
            let kinds = [envelope::KIND_CONTROL, envelope::KIND_BYE, envelope::KIND_OFFER, envelope::KIND_ACCEPT];
            let mut out = vec![kinds[rng.gen_range(0..kinds.len())], 0, 0, 0, 5];
            out.append(&mut body);
            if rng.gen_bool(0.2) {
                forger.seal(&mut out);
            }
            out
        }
    }
}

fn run(name: &str, o: &Offer, key: Option<Key>, count: usize) {
    let peer = "127.0.0.1:9".parse().unwrap();
    let budget = 64 * ROW_BYTES;
    let ends = o.build().unwrap();
    let mut rx = Driver::new(
        Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap(),
        peer,
        5,
        ends.receivers.into_iter().next().unwrap(),
    );
    let mut tx = Driver::new(Socket::bind("127.0.0.1:0".parse().unwrap()).unwrap(), peer, 5, ends.sender);
    rx.set_auth(key.clone().map(|k| Auth::new(k, Role::Receiver)));
    tx.set_auth(key.map(|k| Auth::new(k, Role::Sender)));
    let mut rec = RecvRecorder::new(rx.clock, Duration::from_millis(100), o.video.clone()).with_max_state(budget);
    let mut forger = Auth::new(Key::new(vec![0xEE; 32]).unwrap(), Role::Sender);
    let mut rng = vidcc_core::rng::RngStreams::new(11).stream(name);
    for _ in 0..count {
        let d = datagram(&mut rng, &mut forger);
        rx.handle(&d, peer, &mut rec);
        tx.handle(&d, peer, &mut NoObserver);
    }
    for (end, c) in [("receiver", rx.counters), ("sender", tx.counters)] {
        assert_eq!(c.datagrams_in, count as u64);
        assert!(c.accounted(), "{name} {end}: every datagram in one counter: {c:?}");
    }
    let recorded = rec.delivered();
    let unrecorded = rec.unrecorded();
    assert_eq!(recorded + unrecorded, rx.counters.data_in, "{name}: every accepted data packet recorded or counted");
    let info = FlowInfo { label: name.into(), protocol: name.into(), src: "a".into(), dst: "b".into() };
    let tables = rec.finish(&info, None, 0, Instant::from_nanos(1_000_000_000));
    let packets = tables.iter().find(|t| t.name == "packets").map_or(0, |t| t.rows() as u64);
    assert!(packets <= budget / ROW_BYTES, "{name}: {packets} packet rows over a budget of {}", budget / ROW_BYTES);
    if let Some(s) = tables.iter().find(|t| t.name == "flow_summary") {
        assert_eq!(s.u64s("delivered_packets")[0], recorded);
    }
}

#[test]
fn arbitrary_datagrams_from_the_peer_never_panic_and_are_all_counted() {
    let cases: Vec<(&str, Offer)> = PROTOCOLS.iter().filter_map(|n| offer(n).map(|o| (*n, o))).collect();
    assert!(cases.len() >= 10, "unicast protocols built: {}", cases.len());
    for (name, o) in &cases {
        run(name, o, None, 4000);
        run(name, o, Some(Key::new(vec![0x11; 32]).unwrap()), 1000);
    }
}
