//! The entry points of the fuzz targets (`crates/vidcc-net/fuzz`, `make fuzz`, cargo-fuzz on
//! nightly) and of their replay on the stable toolchain (`tests/fuzz_corpus.rs`, `make test`):
//! the sender's and the receiver's datagram handling and the relay's forwarding, each fed an
//! arbitrary byte string read as a sequence of datagrams from the peer's own address (the case
//! a spoofing attacker reaches). Each checks its invariants and panics when one fails, which is
//! what the fuzzer reports:
//!
//! - [`sender`]: every datagram in exactly one counter, and the bytes the rate ceiling governs
//!   within `ceiling × (elapsed + burst)` plus one datagram, whatever the feedback said;
//! - [`receiver`]: every datagram in one counter, the record within its budget, the tables
//!   built from what was accepted (`packets` rows within the budget, `flow_summary`'s delivered
//!   packets equal to those recorded);
//! - [`relay`]: every stored datagram queued or in flight, no direction accounting for more
//!   than arrived, queues within their limit.
//!
//! Input layout: byte 0 picks the protocol (of the unicast ones that build), byte 1's bit 0
//! sets a key at both ends; then datagrams, each a length byte and that many bytes (the last
//! one cut short by the input's end). For the relay each datagram's length byte is preceded by
//! one byte: bits 0–1 the sender (client, far end, a stranger), bits 2–7 milliseconds elapsed.

use std::net::SocketAddr;
use std::sync::OnceLock;

use vidcc_core::media::config::VideoConfig;
use vidcc_core::proto::registry::{defaults, ProtocolConfig, Reach, PROTOCOLS};
use vidcc_core::queue::Limit;
use vidcc_core::{DataRate, Duration, Instant};

use crate::auth::{Auth, Key, Role};
use crate::breaker::{cb_interval, Breaker, REPORT_INTERVAL};
use crate::driver::{Driver, NoObserver, CAP_BURST};
use crate::link::{DirectionSpec, Link, LinkOptions, LossSpec};
use crate::record::{FlowInfo, RecvRecorder, ROW_BYTES};
use crate::session::Offer;
use crate::socket::{Socket, MAX_DATAGRAM};

/// The session id the drivers use (a datagram must carry it to get past the envelope check).
pub const SESSION: u32 = 5;
/// The sender's rate ceiling.
pub const CEILING_BPS: u64 = 1_000_000;
/// The receiver's state budget, in rows.
pub const BUDGET_ROWS: u64 = 64;

fn peer() -> SocketAddr {
    "127.0.0.1:9".parse().expect("literal")
}

fn local() -> Socket {
    Socket::bind("127.0.0.1:0".parse().expect("literal")).expect("a loopback socket")
}

/// Every unicast protocol's offer that builds (video where it takes video, else bulk).
pub fn offers() -> &'static [(&'static str, Offer)] {
    static OFFERS: OnceLock<Vec<(&'static str, Offer)>> = OnceLock::new();
    OFFERS.get_or_init(|| {
        let video: VideoConfig = serde_json::from_value(serde_json::json!({
            "model": {"kind": "cbr", "rate_bps": 1_000_000}, "fps": 25.0, "gop": "IBBPBBPBBPBB",
            "layers_bps": [500_000, 1_000_000],
            "playout": {"kind": "first-arrival", "delay_ns": 200_000_000u64}, "delayed_threshold_ns": 75_000_000u64,
        }))
        .expect("a valid video");
        PROTOCOLS
            .iter()
            .filter_map(|&name| {
                let mut p = serde_json::to_value(defaults(name)?).ok()?;
                if p.get("rate_bps").is_some() {
                    p["rate_bps"] = serde_json::json!(1_000_000);
                }
                let protocol: ProtocolConfig = serde_json::from_value(p).ok()?;
                if protocol.reach() != Reach::Unicast {
                    return None;
                }
                let base = Offer {
                    protocol,
                    video: Some(video.clone()),
                    packet_size_bytes: 1000,
                    seed: 1,
                    flow_index: 0,
                    duration_ns: 1_000_000_000,
                    stop_ns: None,
                    sample_interval_ns: 100_000_000,
                    label: String::new(),
                    extra: serde_json::Value::Null,
                };
                if base.build().is_ok() {
                    return Some((name, base));
                }
                let bulk = Offer { video: None, ..base };
                bulk.build().is_ok().then_some((name, bulk))
            })
            .collect()
    })
}

/// The datagrams of `input` after its two header bytes (length-prefixed).
fn datagrams(mut rest: &[u8]) -> impl Iterator<Item = &[u8]> {
    std::iter::from_fn(move || {
        let (&n, tail) = rest.split_first()?;
        let n = (n as usize).min(tail.len());
        let (d, more) = tail.split_at(n);
        rest = more;
        Some(d)
    })
}

/// The protocol and key an input asks for.
fn header(input: &[u8]) -> Option<(&'static str, &'static Offer, Option<Key>, &[u8])> {
    let (&pick, &flags, rest) = (input.first()?, input.get(1)?, &input[2..]);
    let all = offers();
    let (name, offer) = &all[pick as usize % all.len()];
    let key = (flags & 1 != 0).then(|| Key::new(vec![0x11; 32]).expect("a 32-byte key"));
    Some((name, offer, key, rest))
}

/// The sender's datagram handling: arbitrary datagrams as feedback, the driver stepping between.
pub fn sender(input: &[u8]) {
    let Some((name, offer, key, rest)) = header(input) else { return };
    let ends = offer.build().expect("built before");
    let mut tx = Driver::new(local(), peer(), SESSION, ends.sender);
    tx.set_auth(key.map(|k| Auth::new(k, Role::Sender)));
    tx.set_ceiling(Some(CEILING_BPS), CAP_BURST);
    tx.set_breaker(Some(Breaker::new(cb_interval(REPORT_INTERVAL, None))));
    let mut n = 0;
    for d in datagrams(rest) {
        tx.handle(d, peer(), &mut NoObserver);
        n += 1;
        tx.step(&mut NoObserver, Duration::ZERO).expect("a loopback step");
    }
    let c = tx.counters;
    assert_eq!(c.datagrams_in, n);
    assert!(c.accounted(), "{name} sender: every datagram in one counter: {c:?}");
    let elapsed = tx.clock.now().as_nanos() as u128;
    let allowed = CEILING_BPS as u128 * (elapsed + CAP_BURST.as_nanos() as u128) / 8_000_000_000 + MAX_DATAGRAM as u128;
    let capped = (c.bytes_out - c.session_bytes_out) as u128;
    assert!(capped <= allowed, "{name} sender: {capped} bytes under the ceiling, {allowed} allowed");
}

/// The receiver's datagram handling: arbitrary datagrams as data, control and session
/// envelopes, recorded within a budget of [`BUDGET_ROWS`] rows, and the tables built.
pub fn receiver(input: &[u8]) {
    let Some((name, offer, key, rest)) = header(input) else { return };
    let ends = offer.build().expect("built before");
    let receiver = ends.receivers.into_iter().next().expect("a unicast receiver");
    let mut rx = Driver::new(local(), peer(), SESSION, receiver);
    rx.set_auth(key.map(|k| Auth::new(k, Role::Receiver)));
    rx.set_reports(Some(Duration::from_millis(1)));
    let budget = BUDGET_ROWS * ROW_BYTES;
    let mut rec = RecvRecorder::new(rx.clock, Duration::from_millis(100), offer.video.clone()).with_max_state(budget);
    let mut n = 0;
    for d in datagrams(rest) {
        rx.handle(d, peer(), &mut rec);
        n += 1;
        rx.step(&mut rec, Duration::ZERO).expect("a loopback step");
    }
    let c = rx.counters;
    assert_eq!(c.datagrams_in, n);
    assert!(c.accounted(), "{name} receiver: every datagram in one counter: {c:?}");
    let recorded = rec.delivered();
    assert_eq!(recorded + rec.unrecorded(), c.data_in, "{name}: every accepted data packet recorded or counted");
    let info = FlowInfo { label: name.into(), protocol: name.into(), src: "a".into(), dst: "b".into() };
    let tables = rec.finish(&info, None, 0, Instant::from_nanos(1_000_000_000));
    let packets = tables.iter().find(|t| t.name == "packets").map_or(0, |t| t.rows() as u64);
    assert!(packets <= BUDGET_ROWS, "{name}: {packets} packet rows over a budget of {BUDGET_ROWS}");
    if let Some(s) = tables.iter().find(|t| t.name == "flow_summary") {
        assert_eq!(s.u64s("delivered_packets")[0], recorded, "{name}: flow_summary against the record");
    }
}

/// The relay's forwarding: arbitrary datagrams from its client, its far end and a stranger,
/// in time the input sets, through a 1 Mbit/s, 10 ms, 8-packet link losing 10 %.
pub fn relay(input: &[u8]) {
    const LIMIT: u64 = 8;
    let spec = DirectionSpec {
        bandwidth: DataRate::from_bps(1_000_000),
        delay: Duration::from_millis(10),
        limit: Limit::Packets(LIMIT),
        red: input.first().is_some_and(|b| b & 1 != 0),
        loss: Some(LossSpec::Bernoulli { p: 0.1 }),
    };
    let socket = local();
    let opts = LinkOptions {
        listen: socket.local_addr().expect("bound"),
        to: peer(),
        forward: spec,
        reverse: DirectionSpec { loss: None, ..spec },
        seed: 3,
        routes: Vec::new(),
        protocol_sizes: input.get(1).is_some_and(|b| b & 1 != 0),
    };
    let mut link = Link::on(socket, &opts).expect("a link");
    let senders: [SocketAddr; 3] = ["127.0.0.1:10".parse().unwrap(), peer(), "127.0.0.1:11".parse().expect("literal")];
    let mut now = Instant::ZERO;
    let mut rest = input.get(2..).unwrap_or(&[]);
    while let Some((&how, tail)) = rest.split_first() {
        let Some(d) = datagrams(tail).next() else { break };
        rest = &tail[1 + d.len()..];
        now += Duration::from_millis((how >> 2) as u64);
        link.arrive(now, d, senders[(how & 3) as usize % 3]);
        if let Err(e) = link.check_conservation() {
            panic!("relay: {e}");
        }
    }
    let s = link.stats();
    for d in [s.forward, s.reverse] {
        assert!(d.max_queue_packets <= LIMIT, "relay: a queue of {} over {LIMIT}", d.max_queue_packets);
    }
}
