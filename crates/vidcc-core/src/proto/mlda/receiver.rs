//! The MLDA receiver: measures loss (sequence gaps on its layers), delay (the one-way delay,
//! scaled to an RTT by the sender's occasional echo) and the bottleneck bandwidth (dispersion of
//! the base layer's packet pairs); every update interval computes its TCP-friendly rate (LDA+:
//! under loss the TCP model, otherwise an additive increase that slows as the rate nears the
//! bottleneck) and joins or leaves layers so that its cumulative rate stays under it; once per
//! feedback round reports that rate after a truncated-exponential wait, unless a similar report
//! relayed by the sender suppresses it.

use std::collections::VecDeque;

use rand::Rng;

use super::config::{level_for, MldaConfig};
use super::wire::{DataHeader, Pair, Report};
use crate::endpoint::{
    Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, Membership, PacketMeta, Transmit,
};
use crate::estimate::ewma::Ewma;
use crate::estimate::loss_detect::{Arrival, GapDetector};
use crate::estimate::tcp_model::rfc5348_rate;
use crate::proto::registry::ReceiverSpec;
use crate::proto::sramt::config::RttScaling;
use crate::proto::sramt::estimator::OwdRtt;
use crate::proto::sramt::feedback::{suppresses, truncated_exponential};
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::wire::WireError;

pub struct MldaReceiver {
    cfg: MldaConfig,
    id: u32,
    n: usize,
    /// P of the TCP model, bytes.
    packet_bytes: f64,
    rng: SimRng,
    start: Instant,
    stop: Option<Instant>,
    started: bool,
    stopped: bool,
    now: Instant,
    /// Layers subscribed: 0..level.
    level: usize,
    /// Announced layer rates, bit/s.
    rates: Vec<f64>,
    detectors: Vec<Option<GapDetector>>,
    received: u64,
    lost: u64,
    rtt: OwdRtt,
    /// (send timestamp, arrival) of the newest data packet, for the report's RTT echo.
    newest: Option<(u32, Instant)>,
    pair_first: Option<(u32, Instant)>,
    bandwidth: Ewma,
    /// The TCP-friendly rate, bit/s, and LDA+'s additive increase.
    rate: Option<f64>,
    increase: f64,
    next_update: Option<Instant>,
    round: Option<u32>,
    report_due: Option<Instant>,
    last_loss: f64,
    memberships: VecDeque<Membership>,
    transmits: VecDeque<Transmit>,
    events: VecDeque<Event>,
    stats: EndpointStats,
    reports_sent: u64,
    reports_suppressed: u64,
}

impl MldaReceiver {
    /// Receiver `id` (the sender's `PeerId(id)`) of a flow whose TCP model uses `packet_bytes`.
    pub fn new(cfg: &MldaConfig, id: u32, packet_bytes: f64, spec: &ReceiverSpec, rng: SimRng) -> Self {
        let n = cfg.layers();
        MldaReceiver {
            id,
            n,
            packet_bytes,
            rng,
            start: spec.start,
            stop: spec.stop,
            started: false,
            stopped: false,
            now: spec.start,
            level: 1,
            rates: cfg.initial_rates_bps.iter().map(|&r| r as f64).collect(),
            detectors: vec![None; n],
            received: 0,
            lost: 0,
            // RTT = echoed RTT + 2·(OWD − OWD at the echo) \[X\]; 2·OWD before the first echo.
            rtt: OwdRtt::new(RttScaling::Additive, 1.0),
            newest: None,
            pair_first: None,
            bandwidth: Ewma::new(cfg.pair_weight),
            rate: None,
            increase: cfg.min_increase_bps as f64,
            next_update: None,
            round: None,
            report_due: None,
            last_loss: 0.0,
            memberships: VecDeque::new(),
            transmits: VecDeque::new(),
            events: VecDeque::new(),
            stats: EndpointStats::default(),
            reports_sent: 0,
            reports_suppressed: 0,
            cfg: cfg.clone(),
        }
    }

    /// Layers subscribed.
    pub fn level(&self) -> usize {
        self.level
    }
    /// The TCP-friendly rate, bit/s.
    pub fn rate(&self) -> Option<f64> {
        self.rate
    }
    /// The smoothed packet-pair bottleneck bandwidth, bit/s.
    pub fn bottleneck(&self) -> Option<f64> {
        self.bandwidth.value()
    }
    /// (sent, suppressed) reports.
    pub fn reports(&self) -> (u64, u64) {
        (self.reports_sent, self.reports_suppressed)
    }

    fn set_level(&mut self, level: usize) {
        for j in level..self.level {
            self.detectors[j] = None;
            self.memberships.push_back(Membership::Leave(GroupId(j as u32)));
        }
        for j in self.level..level {
            self.detectors[j] = None;
            self.memberships.push_back(Membership::Join(GroupId(j as u32)));
        }
        if level != self.level {
            self.level = level;
            self.events.push_back(Event::LayersChanged { layers: level as u8 });
        }
    }

    fn on_data(&mut self, now: Instant, h: &DataHeader, wire_bytes: usize) {
        if h.layers as usize != self.n {
            return;
        }
        self.rates.iter_mut().zip(h.rates()).for_each(|(r, &x)| *r = f64::from(x));
        let j = h.layer as usize;
        if j >= self.level {
            return; // a layer left (still in flight) or not yet joined
        }
        self.stats.app_bytes_delivered += (wire_bytes - h.len()) as u64;
        self.stats.app_packets_delivered += 1;
        match self.detectors[j].get_or_insert_with(GapDetector::new).on_packet(h.seq) {
            Arrival::Gap { lost, .. } => {
                self.lost += u64::from(lost);
                self.received += 1;
            }
            Arrival::InOrder => self.received += 1,
            Arrival::Late | Arrival::Duplicate => {}
        }
        self.rtt.observe(OwdRtt::one_way_delay_s(now, h.timestamp_us));
        if let Some((id, rtt_us)) = h.echo {
            if id == self.id {
                self.rtt.calibrate(Duration::from_micros(u64::from(rtt_us)));
            }
        }
        self.newest = Some((h.timestamp_us, now));
        match h.pair {
            Pair::First => self.pair_first = Some((h.seq, now)),
            Pair::Second => {
                if let Some((seq, at)) = self.pair_first.take() {
                    let gap = now.saturating_since(at).as_secs_f64();
                    if seq.wrapping_add(1) == h.seq && gap > 0.0 {
                        self.bandwidth.update(8.0 * wire_bytes as f64 / gap);
                    }
                }
            }
            Pair::None => {}
        }
        if self.rate.is_none() {
            self.rate = Some(self.rates[..self.level].iter().sum());
            self.next_update = Some(now + Duration::from_nanos(self.cfg.update_interval_ns));
        }
        if self.round != Some(h.round) {
            // A new feedback round: one report, after a truncated-exponential wait.
            self.round = Some(h.round);
            let wait = truncated_exponential(
                self.cfg.suppression_lambda,
                Duration::from_nanos(self.cfg.round_ns),
                self.rng.gen::<f64>(),
            );
            self.report_due = Some(now + wait);
        }
        // Partial suppression: a relayed report that maps to the same level as this receiver's
        // rate and lies within `suppression_similarity` of it makes this one redundant.
        if let (Some((_, rate)), Some(own), true) = (h.heard, self.rate, self.cfg.suppression) {
            let rate = f64::from(rate);
            let (mine, theirs) = (level_for(own, &self.rates), level_for(rate, &self.rates));
            if self.report_due.is_some() && suppresses(mine, own, theirs, rate, self.cfg.suppression_similarity) {
                self.report_due = None;
                self.reports_suppressed += 1;
            }
        }
    }

    /// LDA+ once per update interval, then the layers under the new rate.
    fn update(&mut self, now: Instant) {
        let Some(mut r) = self.rate else { return };
        let Some(rtt) = self.rtt.sample().and(self.rtt.rtt()) else { return };
        self.events.push_back(Event::RttEstimated { rtt: Duration::from_secs_f64(rtt) });
        let expected = self.received + self.lost;
        let l = if expected > 0 { self.lost as f64 / expected as f64 } else { self.last_loss };
        self.last_loss = l;
        (self.received, self.lost) = (0, 0);
        let t = self.cfg.update_interval_ns as f64 * 1e-9;
        let min_inc = self.cfg.min_increase_bps as f64;
        if l > 0.0 {
            // LDA+: r ← max(r·(1 − √l), r_TCP), the increase back to its least \[X\].
            let tcp = 8.0 * rfc5348_rate(self.packet_bytes, rtt, l, 4.0 * rtt, 1.0);
            r = (r * (1.0 - l.sqrt())).max(tcp);
            self.increase = min_inc;
            self.events.push_back(Event::LossEvent);
        } else {
            // LDA+: the increase grows by (2 − r/b) while the rate is below the packet-pair
            // bottleneck b, and never exceeds TCP's one packet per RTT per RTT over the interval.
            let factor = self.bandwidth.value().filter(|b| *b > 0.0).map_or(2.0, |b| (2.0 - r / b).max(0.0));
            let tcp_like = 8.0 * self.packet_bytes * t / (rtt * rtt);
            self.increase = (self.increase * factor).max(min_inc).min(tcp_like.max(min_inc));
            r += self.increase;
        }
        let r = r.clamp(self.cfg.min_layer_bps as f64, self.cfg.max_rate_bps as f64);
        self.rate = Some(r);
        let target = level_for(r, &self.rates);
        // Leave at once as far as needed; join one layer per update \[R\].
        let level = if target < self.level { target } else { (self.level + 1).min(target) };
        self.set_level(level);
        self.next_update = Some(now + Duration::from_nanos(self.cfg.update_interval_ns));
    }

    fn send_report(&mut self, now: Instant) {
        let Some(rate) = self.rate else { return };
        let (ts, held) =
            self.newest.map_or((0, 0), |(ts, at)| (ts, (now.saturating_since(at).as_nanos() / 1000) as u32));
        let rep = Report {
            level: self.level as u8,
            rate_bps: rate.clamp(1.0, f64::from(u32::MAX)) as u32,
            loss_ppb: (self.last_loss.clamp(0.0, 1.0) * 1e9) as u32,
            timestamp_echo_us: ts,
            held_us: held,
        };
        self.transmits.push_back(Transmit {
            to: Destination::PEER,
            header: rep.emit(),
            payload_len: 0,
            meta: PacketMeta::control(),
        });
        self.reports_sent += 1;
    }
}

impl Endpoint for MldaReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let h = DataHeader::parse(d.bytes).inspect_err(|_| self.stats.malformed_datagrams += 1)?;
        if self.started && !self.stopped {
            self.now = self.now.max(now);
            self.on_data(self.now, &h, d.wire_size().max(h.len()));
        }
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        let now = self.now;
        if !self.started && now >= self.start {
            self.started = true;
            self.memberships.push_back(Membership::Join(GroupId(0)));
        }
        if !self.started || self.stopped {
            return;
        }
        if self.stop.is_some_and(|s| now >= s) {
            self.stopped = true;
            for j in (0..self.level).rev() {
                self.memberships.push_back(Membership::Leave(GroupId(j as u32)));
            }
            return;
        }
        if self.next_update.is_some_and(|t| now >= t) {
            self.next_update = Some(now + Duration::from_nanos(self.cfg.update_interval_ns));
            self.update(now);
        }
        if self.report_due.is_some_and(|t| now >= t) {
            self.report_due = None;
            self.send_report(now);
        }
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        self.transmits.pop_front()
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.started {
            return Some(self.start);
        }
        if self.stopped {
            return None;
        }
        [self.stop, self.next_update, self.report_due].into_iter().flatten().min()
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn poll_membership(&mut self) -> Option<Membership> {
        self.memberships.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
