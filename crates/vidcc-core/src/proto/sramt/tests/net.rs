//! Whole SRAMT flows over a small in-test multicast network: a sender and receivers, each with
//! its own one-way delay and random loss, group membership applied at once. Checks that
//! receivers with different paths end on different streams / levels, that every change happens
//! at an epoch end (C10), and that group rates stay the clamped minimum of the receivers'
//! preferred rates (C05–C06) all along.

use std::collections::{BTreeMap, BTreeSet};

use rand::Rng;

use super::super::config::SramtConfig;
use super::super::wire::ToReceiver;
use super::super::{SramtReceiver, SramtSender};
use super::expected_rates;
use crate::endpoint::{Datagram, Destination, Endpoint, HeaderBuf, Membership, PeerId};
use crate::proto::Application;
use crate::rng::{RngStreams, SimRng};
use crate::time::{Duration, Instant};
use crate::units::DataSize;

enum Msg {
    ToReceiver(usize, HeaderBuf, u32),
    ToSender(usize, HeaderBuf),
}

/// Receiver `i` behind a path of one-way delay `delay[i]` and loss `loss[i]` (both directions
/// for the delay; loss on data only).
struct Net {
    cfg: SramtConfig,
    layered: bool,
    s: SramtSender,
    rx: Vec<SramtReceiver>,
    joined: Vec<BTreeSet<u32>>,
    delay: Vec<Duration>,
    loss: Vec<f64>,
    rng: SimRng,
    queue: BTreeMap<(Instant, u64), Msg>,
    sent: u64,
    /// Arrival times of flagged packets at each receiver.
    flags: Vec<Vec<Instant>>,
}

impl Net {
    fn new(cfg: SramtConfig, layered: bool, paths: &[(u64, f64)]) -> Self {
        let streams = RngStreams::new(11);
        let s = SramtSender::new(
            &cfg,
            layered,
            Application::Bulk,
            DataSize::from_bytes(1000),
            Instant::ZERO,
            None,
            paths.len() as u32,
            streams.stream("sender"),
        )
        .unwrap();
        let rx = (0..paths.len())
            .map(|i| {
                SramtReceiver::new(&cfg, layered, i as u32, 1000.0, Instant::ZERO, streams.stream(&format!("r{i}")))
            })
            .collect();
        Net {
            cfg,
            layered,
            s,
            rx,
            joined: vec![BTreeSet::new(); paths.len()],
            delay: paths.iter().map(|p| Duration::from_millis(p.0)).collect(),
            loss: paths.iter().map(|p| p.1).collect(),
            rng: streams.stream("net"),
            queue: BTreeMap::new(),
            sent: 0,
            flags: vec![vec![]; paths.len()],
        }
    }

    fn push(&mut self, at: Instant, m: Msg) {
        self.queue.insert((at, self.sent), m);
        self.sent += 1;
    }

    fn service(&mut self, now: Instant) {
        while let Some(t) = self.s.poll_transmit(now) {
            let Destination::Group(g) = t.to else { panic!("the sender only sends to groups") };
            for i in 0..self.rx.len() {
                if self.joined[i].contains(&g.0) {
                    let data = t.meta.kind == crate::endpoint::PacketKind::Data;
                    if !(data && self.rng.gen::<f64>() < self.loss[i]) {
                        self.push(now + self.delay[i], Msg::ToReceiver(i, t.header, t.payload_len));
                    }
                }
            }
        }
        for i in 0..self.rx.len() {
            while let Some(t) = self.rx[i].poll_transmit(now) {
                assert_eq!(t.to, Destination::PEER);
                self.push(now + self.delay[i], Msg::ToSender(i, t.header));
            }
            while let Some(m) = self.rx[i].poll_membership() {
                match m {
                    Membership::Join(g) => assert!(self.joined[i].insert(g.0), "joined {g:?} twice"),
                    Membership::Leave(g) => assert!(self.joined[i].remove(&g.0), "left {g:?} not joined"),
                }
            }
            while self.rx[i].poll_event().is_some() {}
        }
    }

    /// Runs to `until`, checking the group-rate invariant after every report.
    fn run(&mut self, until: Instant) {
        let mut now = Instant::ZERO;
        loop {
            let mut next = self.queue.keys().next().map(|k| k.0);
            for t in std::iter::once(self.s.poll_timeout()).chain(self.rx.iter().map(|r| r.poll_timeout())).flatten() {
                next = Some(next.map_or(t, |n: Instant| n.min(t)));
            }
            let Some(t) = next else { break };
            if t > until {
                break;
            }
            now = now.max(t);
            while let Some(entry) = self.queue.first_entry() {
                if entry.key().0 > now {
                    break;
                }
                match entry.remove() {
                    Msg::ToReceiver(i, h, len) => {
                        if let Ok(ToReceiver::Data(d)) = ToReceiver::parse(h.as_slice(), h.len() + len as usize) {
                            if d.epoch_end {
                                self.flags[i].push(now);
                            }
                        }
                        let d = Datagram { from: PeerId::PEER, bytes: h.as_slice(), virtual_payload: len };
                        self.rx[i].handle_datagram(now, d).expect("the sender's packets parse");
                    }
                    Msg::ToSender(i, h) => {
                        let d = Datagram { from: PeerId(i as u32), bytes: h.as_slice(), virtual_payload: 0 };
                        let before = self.s.rates().to_vec();
                        self.s.handle_datagram(now, d).expect("reports parse");
                        let prefs: Vec<(usize, f64)> =
                            self.s.managers().values().map(|m| (m.facts.position, m.preferred)).collect();
                        assert_eq!(self.s.rates(), &expected_rates(&self.cfg, self.layered, &before, &prefs)[..]);
                    }
                }
            }
            if self.s.poll_timeout().is_some_and(|t| t <= now) {
                self.s.handle_timeout(now);
            }
            for r in self.rx.iter_mut() {
                if r.poll_timeout().is_some_and(|t| t <= now) {
                    r.handle_timeout(now);
                }
            }
            self.service(now);
        }
    }
}

/// Two receivers: 20 ms away with 1 % loss (TCP-friendly rate ≈ 2.6 Mbit/s at a 40 ms RTT) and
/// 100 ms away with 10 % loss (≈ 70 kbit/s).
const PATHS: [(u64, f64); 2] = [(20, 0.01), (100, 0.10)];

fn check_epoch_aligned(net: &Net) {
    // C10: every change at a flagged packet's arrival, or at the fallback (an epoch after the
    // previous end + OWD + a packet gap).
    for (i, r) in net.rx.iter().enumerate() {
        for c in r.changes() {
            let at_flag = net.flags[i].contains(&c.at);
            let since_boundary = (c.at.as_nanos() % 5_000_000_000) as f64 * 1e-9;
            let owd = net.delay[i].as_secs_f64();
            assert!(
                at_flag || (since_boundary >= owd && since_boundary <= owd + 0.2),
                "receiver {i} changed at {} ({since_boundary} s after a boundary)",
                c.at
            );
        }
    }
}

#[test]
fn simulcast_receivers_on_different_paths_end_on_different_streams() {
    let mut net = Net::new(SramtConfig::simulcast(), false, &PATHS);
    net.run(Instant::from_nanos(200_000_000_000));
    assert_eq!(net.rx[0].position(), 2, "the 1 % receiver climbs to stream 3: {:?}", net.rx[0].changes());
    assert_eq!(net.rx[1].position(), 0, "the 10 % receiver stays on stream 1: {:?}", net.rx[1].changes());
    assert_eq!(net.joined[0], BTreeSet::from([2]));
    assert_eq!(net.joined[1], BTreeSet::from([0]));
    assert!(!net.rx[0].changes().is_empty());
    check_epoch_aligned(&net);
    // C08: rule-2 moves of one receiver are at least 4 epochs apart.
    for r in &net.rx {
        let rule2: Vec<Instant> = r.changes().iter().filter(|c| c.mismatch_rule).map(|c| c.at).collect();
        for w in rule2.windows(2) {
            assert!(w[1].saturating_since(w[0]) >= Duration::from_secs(19), "{rule2:?}");
        }
    }
}

#[test]
fn layered_receivers_on_different_paths_end_on_different_levels() {
    let mut net = Net::new(SramtConfig::layered(), true, &PATHS);
    net.run(Instant::from_nanos(200_000_000_000));
    assert_eq!(net.rx[0].position(), 3, "{:?}", net.rx[0].changes());
    assert_eq!(net.rx[1].position(), 1, "{:?}", net.rx[1].changes());
    assert_eq!(net.joined[0], BTreeSet::from([0, 1, 2]));
    assert_eq!(net.joined[1], BTreeSet::from([0]));
    check_epoch_aligned(&net);
    // The base layer follows the weak receiver: below its band's top.
    assert!(net.s.rates()[0] < 200e3, "{:?}", net.s.rates());
}

#[test]
fn every_data_packet_carries_the_group_rates_and_flags_mark_epoch_ends() {
    let mut net = Net::new(SramtConfig::simulcast(), false, &[(10, 0.0)]);
    net.run(Instant::from_nanos(31_000_000_000));
    // Epoch ends at 5, 10, ... s; the flagged packets leave at the boundary and arrive one OWD
    // (10 ms) later.
    let flags = &net.flags[0];
    assert!(flags.len() >= 5, "{flags:?}");
    for (k, f) in flags.iter().enumerate() {
        let boundary = 5.0 * (k + 1) as f64;
        let late = f.as_secs_f64() - boundary;
        assert!((late - 0.010).abs() < 1e-6, "flag {k} at {f}");
    }
}
