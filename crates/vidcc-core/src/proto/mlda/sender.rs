//! The MLDA sender: n layers, each paced at its rate (the base layer in back-to-back pairs), every
//! packet announcing every layer's rate and the feedback round; at each round's start it
//! re-sizes the layers to the reports of the latest rounds; it measures each reporting
//! receiver's RTT (A − timestamp echo − held) and echoes it on the base layer, and relays the
//! newest report there so that receivers can suppress theirs.

use std::collections::{BTreeMap, VecDeque};

use super::config::{resize, MldaConfig};
use super::wire::{data_header_bytes, DataHeader, Pair, Report, MAX_LAYERS};
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, PacketMeta, Transmit};
use crate::proto::sramt::estimator::timestamp_us;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::WireError;

/// Pending RTT echoes beyond this are dropped oldest first \[R\].
const MAX_PENDING_ECHOES: usize = 1024;

pub struct MldaSender {
    cfg: MldaConfig,
    n: usize,
    start: Instant,
    stop: Option<Instant>,
    now: Instant,
    header_len: usize,
    packet_size: DataSize,
    /// Each layer's rate, bit/s.
    rates: Vec<f64>,
    next_send: Vec<Instant>,
    seq: Vec<u32>,
    /// The second packet of a base-layer pair leaves right after the first.
    second_pending: bool,
    round: u32,
    next_round: Instant,
    /// The newest report of each receiver: (round heard, rate bit/s).
    reports: BTreeMap<u32, (u32, f64)>,
    echoes: VecDeque<(u32, u32)>,
    heard: Option<(u8, u32)>,
    packets: u64,
    events: VecDeque<Event>,
    stats: EndpointStats,
}

impl MldaSender {
    pub fn new(cfg: &MldaConfig, packet_size: DataSize, start: Instant, stop: Option<Instant>) -> Result<Self, String> {
        cfg.validate()?;
        let n = cfg.layers();
        let header_len = data_header_bytes(n);
        if packet_size.as_bytes() as usize <= header_len {
            return Err(format!(
                "packet_size: {} bytes leave no payload after the {header_len}-byte MLDA header",
                packet_size.as_bytes()
            ));
        }
        Ok(MldaSender {
            n,
            start,
            stop,
            now: start,
            header_len,
            packet_size,
            rates: cfg.initial_rates_bps.iter().map(|&r| r as f64).collect(),
            next_send: vec![start; n],
            seq: vec![0; n],
            second_pending: false,
            round: 0,
            next_round: start + Duration::from_nanos(cfg.round_ns),
            reports: BTreeMap::new(),
            echoes: VecDeque::new(),
            heard: None,
            packets: 0,
            events: VecDeque::new(),
            stats: EndpointStats::default(),
            cfg: cfg.clone(),
        })
    }

    /// Each layer's rate, bit/s.
    pub fn rates(&self) -> &[f64] {
        &self.rates
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    /// A round starts: re-size the layers to the reports of the latest `report_rounds` rounds.
    fn on_round(&mut self) {
        self.round = self.round.wrapping_add(1);
        let oldest = self.round.saturating_sub(self.cfg.report_rounds);
        self.reports.retain(|_, (r, _)| *r >= oldest);
        let heard: Vec<f64> = self.reports.values().map(|&(_, rate)| rate).collect();
        let new = resize(&heard, self.n, self.cfg.min_layer_bps as f64, self.cfg.max_rate_bps as f64);
        if new.is_empty() {
            return;
        }
        for (j, (old, new)) in self.rates.iter_mut().zip(new).enumerate() {
            let new = new.round();
            if *old != new {
                *old = new;
                self.events.push_back(Event::GroupRateChanged { group: j as u8, rate: DataRate::from_bps_f64(new) });
            }
        }
    }

    fn on_report(&mut self, now: Instant, from: u32, rep: &Report) {
        self.events.push_back(Event::FeedbackReceived { peer: from });
        self.reports.insert(from, (self.round, f64::from(rep.rate_bps)));
        // RTT = now − the echoed send time − the time the receiver held it (µs clocks, mod 2^32).
        let rtt = timestamp_us(now).wrapping_sub(rep.timestamp_echo_us).wrapping_sub(rep.held_us);
        if rtt > 0 && rtt < 60_000_000 {
            if self.echoes.len() >= MAX_PENDING_ECHOES {
                self.echoes.pop_front();
            }
            self.echoes.push_back((from, rtt));
        }
        if (rep.level as usize) <= self.n {
            self.heard = Some((rep.level, rep.rate_bps));
        }
    }

    fn packet(&mut self, j: usize, now: Instant, pair: Pair) -> Transmit {
        let mut rates_bps = [0u32; MAX_LAYERS];
        for (slot, r) in rates_bps.iter_mut().zip(&self.rates) {
            *slot = (r.round() as u64).clamp(1, u64::from(u32::MAX)) as u32;
        }
        let base = j == 0;
        let h = DataHeader {
            layer: j as u8,
            layers: self.n as u8,
            pair,
            seq: self.seq[j],
            timestamp_us: timestamp_us(now),
            round: self.round,
            echo: if base { self.echoes.pop_front() } else { None },
            heard: if base { self.heard.take() } else { None },
            rates_bps,
        };
        self.seq[j] = self.seq[j].wrapping_add(1);
        let payload = (self.packet_size.as_bytes() as usize - self.header_len) as u32;
        let meta = PacketMeta::data(self.packets);
        self.packets += 1;
        Transmit { to: Destination::Group(GroupId(j as u32)), header: h.emit(), payload_len: payload, meta }
    }
}

impl Endpoint for MldaSender {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let parsed = if d.virtual_payload != 0 {
            Err(WireError::Inconsistent("mlda: report with payload"))
        } else {
            Report::parse(d.bytes)
        };
        let rep = parsed.inspect_err(|_| self.stats.malformed_datagrams += 1)?;
        self.now = self.now.max(now);
        self.on_report(self.now, d.from.0, &rep);
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        while self.now >= self.next_round {
            self.on_round();
            self.next_round += Duration::from_nanos(self.cfg.round_ns);
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.now = self.now.max(now);
        let now = self.now;
        if now < self.start || self.stopped(now) {
            return None;
        }
        if self.second_pending {
            self.second_pending = false;
            return Some(self.packet(0, now, Pair::Second));
        }
        let j = (0..self.n).filter(|&j| self.next_send[j] <= now).min_by_key(|&j| self.next_send[j])?;
        let paired = j == 0 && self.cfg.packet_pairs;
        let packets: u64 = if paired { 2 } else { 1 };
        let gap = DataRate::from_bps_f64(self.rates[j].max(1.0)).transmission_time(self.packet_size) * packets;
        let due = self.next_send[j];
        self.next_send[j] = if due + gap < now { now + gap } else { due + gap };
        self.second_pending = paired;
        Some(self.packet(j, now, if paired { Pair::First } else { Pair::None }))
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.now < self.start {
            return Some(self.start);
        }
        if self.second_pending {
            return Some(self.now);
        }
        if self.stopped(self.now) {
            return None;
        }
        let send = self.next_send.iter().copied().min().unwrap_or(self.next_round);
        Some(send.min(self.next_round).max(self.now))
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
