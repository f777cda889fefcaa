//! Loopback end to end: a sender, the emulated bottleneck and a receiver in one process (three
//! threads), for every unicast protocol of the registry; a flood of malformed datagrams while
//! streaming; absurd feedback against the rate cap; authentication. No assertion depends on how
//! fast the machine is: rates are measured on the run's own clock and compared with the link's
//! and the video's rates, the link's loss with its model, delays with its propagation delay.

mod common;

use common::local;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread;

use vidcc_core::media::config::VideoConfig;
use vidcc_core::proto::registry::{defaults, ProtocolConfig, Reach, PROTOCOLS};
use vidcc_core::queue::Limit;
use vidcc_core::table::{Column, Table};
use vidcc_core::{DataRate, Duration};
use vidcc_net::auth::Key;
use vidcc_net::driver::NoObserver;
use vidcc_net::link::{DirectionSpec, Link, LinkOptions, LinkStats, LossSpec};
use vidcc_net::session::{
    run_receiver, run_sender, Offer, RecvOptions, RecvOutcome, Security, SendOptions, SendReport,
};

fn video(rate_bps: u64, layers: &[u64]) -> VideoConfig {
    common::cbr_video(rate_bps, layers, 500_000_000)
}

/// A protocol's default configuration with some fields changed (resolved form).
fn protocol(name: &str, changes: serde_json::Value) -> ProtocolConfig {
    let mut v = serde_json::to_value(defaults(name).unwrap()).unwrap();
    for (k, x) in changes.as_object().unwrap() {
        v[k] = x.clone();
    }
    serde_json::from_value(v).unwrap()
}

fn offer(p: ProtocolConfig, video: Option<VideoConfig>, secs: u64) -> Offer {
    common::offer(p, video, 7, secs)
}

struct Run {
    recv: RecvOutcome,
    send: SendReport,
    link: Option<LinkStats>,
}

/// One session through an optional link; `key` for both ends; `max_rate` for the sender.
fn session(offer: Offer, link: Option<DirectionSpec>, key: Option<Key>, max_rate: Option<u64>) -> Run {
    let rx = local();
    let rx_addr = rx.local_addr().unwrap();
    let stop_link = Arc::new(AtomicBool::new(false));
    let mut target = rx_addr;
    let link_thread = link.map(|spec| {
        let s = local();
        target = s.local_addr().unwrap();
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
        let stop = Arc::clone(&stop_link);
        thread::spawn(move || l.run(&stop, None).unwrap())
    });
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
        to: target,
        offer,
        security: Security { key },
        max_rate_bps: max_rate,
        handshake_timeout: Duration::from_secs(20),
        payload: None,
        plain_copy: None,
        feedback_timeout: None,
        circuit_breaker: None,
    };
    let send = run_sender(local(), opts, &AtomicBool::new(false), &mut NoObserver).unwrap();
    let recv = receiver.join().unwrap();
    stop_link.store(true, Ordering::Relaxed);
    let link = link_thread.map(|t| t.join().unwrap());
    Run { recv, send, link }
}

fn table<'a>(r: &'a RecvOutcome, name: &str) -> &'a Table {
    r.tables.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no table {name}"))
}

fn f64s<'a>(t: &'a Table, c: &str) -> &'a [f64] {
    t.f64s(c)
}

/// Mean receive rate (bit/s) over the samples after `from_s` seconds (start-up excluded).
fn steady_rate(r: &RecvOutcome, from_s: f64, to_s: f64) -> f64 {
    let t = table(r, "flow_samples");
    let (ts, x) = (t.u64s("t_ns"), f64s(t, "throughput_bps"));
    let v: Vec<f64> = ts
        .iter()
        .zip(x)
        .filter(|(t, _)| **t as f64 / 1e9 > from_s && (**t as f64 / 1e9) <= to_s)
        .map(|(_, x)| *x)
        .collect();
    assert!(!v.is_empty(), "no samples in ({from_s}, {to_s}] s");
    v.iter().sum::<f64>() / v.len() as f64
}

fn min_delay_ns(r: &RecvOutcome) -> u64 {
    let t = table(r, "packets");
    let (s, a) = (
        t.u64s("sent_ns"),
        match t.get("arrival_ns") {
            Some(Column::I64(v)) => v,
            _ => panic!("arrival_ns"),
        },
    );
    s.iter().zip(a).filter(|(_, a)| **a >= 0).map(|(s, a)| (*a as u64).saturating_sub(*s)).min().unwrap()
}

const LINK_BPS: u64 = 2_000_000;
const VIDEO_BPS: u64 = 1_000_000;
const DELAY_MS: u64 = 20;
const LOSS_P: f64 = 0.002;

fn bottleneck() -> DirectionSpec {
    DirectionSpec {
        bandwidth: DataRate::from_bps(LINK_BPS),
        delay: Duration::from_millis(DELAY_MS),
        limit: Limit::Packets(50),
        red: false,
        loss: Some(LossSpec::Bernoulli { p: LOSS_P }),
    }
}

/// The configuration each protocol runs with, and the rate it must reach (bit/s).
fn case(name: &str) -> (ProtocolConfig, Option<VideoConfig>, f64) {
    let link = LINK_BPS as f64;
    let v = VIDEO_BPS as f64;
    let layered = || Some(video(VIDEO_BPS, &[250_000, 500_000, VIDEO_BPS]));
    match name {
        "tcp-tahoe" | "tcp-reno" | "tcp-newreno" | "tcp-sack" | "tcp-westwood-plus" | "tfrc" | "gaimd" => {
            (protocol(name, serde_json::json!({})), None, link)
        }
        "udp-cbr" => (protocol(name, serde_json::json!({"rate_bps": VIDEO_BPS})), None, v),
        // On/off: its offered load is random; the target is what it sent (below).
        "udp-pareto" => (protocol(name, serde_json::json!({"rate_bps": VIDEO_BPS})), None, f64::NAN),
        "dvrc" | "rtcp-udp" | "ssvp-layered" => (protocol(name, serde_json::json!({})), layered(), v),
        _ => (protocol(name, serde_json::json!({})), Some(video(VIDEO_BPS, &[])), v),
    }
}

/// What one protocol's session measured.
struct Measured {
    name: &'static str,
    rate: f64,
    target: f64,
    delay: u64,
    link: vidcc_net::link::DirectionStats,
    rejected: u64,
}

fn measure(name: &'static str) -> Measured {
    let (p, v, target) = case(name);
    // Every session runs 10 s and is measured over (5, 9.5] s: layered protocols add a layer at
    // a time (one per report interval for rtcp-udp) and TFRC recovers slowly from its slow
    // start's overshoot, so each is measured once it could have settled (the sessions run at
    // once: the longest sets the test's time). The last half second is left out: the
    // receiver's clock starts a one-way delay before the sender's.
    let (secs, from) = (10, 5.0);
    let r = session(offer(p, v, secs), Some(bottleneck()), None, None);
    let target = if target.is_nan() {
        r.send.data_sent as f64 * 1000.0 * 8.0 / (secs as f64)
    } else {
        target.min(LINK_BPS as f64)
    };
    Measured {
        name,
        rate: steady_rate(&r.recv, from, secs as f64 - 0.5),
        target,
        delay: min_delay_ns(&r.recv),
        link: r.link.unwrap().forward,
        rejected: r.recv.counters.rejected(),
    }
}

/// Every unicast protocol at once, each through its own relay on its own ports (a few Mbit/s
/// each: the CPU they need together is small), so the test takes as long as its longest session
/// rather than the sum of them.
#[test]
fn every_unicast_protocol_streams_through_the_emulated_link() {
    let names: Vec<&'static str> = PROTOCOLS.iter().copied().filter(|n| case(n).0.reach() == Reach::Unicast).collect();
    assert!(names.len() >= 10, "the registry's unicast protocols: {names:?}");
    let sessions: Vec<_> = names.iter().map(|&n| thread::spawn(move || measure(n))).collect();
    let mut failures = Vec::new();
    let mut arrived = 0u64;
    let mut lost = 0u64;
    for s in sessions {
        let m = s.join().unwrap();
        let (name, rate, target, delay, l) = (m.name, m.rate, m.target, m.delay, m.link);
        arrived += l.arrived - l.dropped_queue;
        lost += l.dropped_loss;
        // Propagation + serialisation of the smallest datagram at the link rate, at least.
        let floor = DELAY_MS * 1_000_000;
        println!(
            "{name}: {:.3} Mbit/s (target {:.3}), min delay {:.2} ms, link {:?}",
            rate / 1e6,
            target / 1e6,
            delay as f64 / 1e6,
            l
        );
        if rate < 0.8 * target {
            failures.push(format!("{name}: {:.3} Mbit/s < 80 % of {:.3}", rate / 1e6, target / 1e6));
        }
        if delay < floor || delay > floor + 15_000_000 {
            failures.push(format!("{name}: min one-way delay {delay} ns, link delay {floor} ns"));
        }
        assert_eq!(m.rejected, 0, "{name}: nothing malformed on a clean run");
    }
    // The link's loss model: over every packet that reached the wire, the share lost is p
    // (binomial: within 4 standard deviations).
    let share = lost as f64 / arrived as f64;
    let sd = (LOSS_P * (1.0 - LOSS_P) / arrived as f64).sqrt();
    assert!((share - LOSS_P).abs() < 4.0 * sd + 1e-4, "loss {share} over {arrived} packets, configured {LOSS_P}");
    assert!(failures.is_empty(), "{failures:#?}");
}
