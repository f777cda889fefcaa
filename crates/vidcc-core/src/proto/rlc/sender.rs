//! The RLC sender: n layers, layer j paced at its rate (B₀, then doubling), each packet carrying
//! the index of the latest synchronisation point (SP); before SP k the layers of the levels it
//! serves send at double rate for `burst`, then pause for as long after it (their mean rate is
//! unchanged: the burst is a probe of the next level's rate, RLC's join experiment).

use std::collections::VecDeque;

use super::config::RlcConfig;
use super::wire::RlcHeader;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, PacketMeta, Transmit};
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::WireError;

pub struct RlcSender {
    cfg: RlcConfig,
    start: Instant,
    stop: Option<Instant>,
    payload: u32,
    /// Spacing of each layer's packets outside bursts.
    gap: Vec<Duration>,
    next_send: Vec<Instant>,
    seq: Vec<u32>,
    packets: u64,
    now: Instant,
    events: VecDeque<Event>,
    stats: EndpointStats,
}

impl RlcSender {
    pub fn new(cfg: &RlcConfig, packet_size: DataSize, start: Instant, stop: Option<Instant>) -> Result<Self, String> {
        cfg.validate()?;
        let payload = (packet_size.as_bytes() as usize)
            .checked_sub(super::wire::HEADER_BYTES)
            .filter(|&p| p > 0)
            .ok_or_else(|| {
                format!("packet_size: {} bytes leave no payload after the 16-byte RLC header", packet_size.as_bytes())
            })?;
        let n = cfg.layers as usize;
        let gap =
            (0..cfg.layers).map(|j| DataRate::from_bps(cfg.layer_rate_bps(j)).transmission_time(packet_size)).collect();
        // The layers' rates never change: announce them once for the driver's event log.
        let events = (0..cfg.layers)
            .map(|j| Event::GroupRateChanged { group: j, rate: DataRate::from_bps(cfg.layer_rate_bps(j)) })
            .collect();
        Ok(RlcSender {
            cfg: cfg.clone(),
            start,
            stop,
            payload: payload as u32,
            gap,
            next_send: vec![start; n],
            seq: vec![0; n],
            packets: 0,
            now: start,
            events,
            stats: EndpointStats::default(),
        })
    }

    /// Synchronisation points passed at `t`: k with start + k·P₀ ≤ t.
    pub fn sp_index(&self, t: Instant) -> u32 {
        (t.saturating_since(self.start).as_nanos() / self.cfg.sp_interval_ns) as u32
    }

    /// The instant of synchronisation point `k`.
    pub fn sp_time(&self, k: u32) -> Instant {
        self.start + Duration::from_nanos(u64::from(k) * self.cfg.sp_interval_ns)
    }

    /// Whether layer `j` bursts before synchronisation point `k`: it belongs to a level that
    /// may join there (j < the SP's level).
    fn bursts(&self, j: usize, k: u32) -> bool {
        j < self.cfg.sp_level(k) as usize
    }

    /// When layer `j` sends next after a packet scheduled at `t`: its normal spacing, half of
    /// it in the burst window [T_k − burst, T_k) before the next SP T_k if it bursts there, and
    /// nothing in the pause [T_k, T_k + burst) after it.
    fn next_after(&self, j: usize, t: Instant) -> Instant {
        let k = self.sp_index(t) + 1;
        let (tk, b) = (self.sp_time(k), Duration::from_nanos(self.cfg.burst_ns));
        if !self.bursts(j, k) {
            return t + self.gap[j];
        }
        let in_burst = t + b >= tk;
        let next = if in_burst { t + self.gap[j] / 2 } else { t + self.gap[j] };
        if next >= tk && next < tk + b {
            tk + b
        } else {
            next
        }
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }
}

impl Endpoint for RlcSender {
    fn handle_datagram(&mut self, _now: Instant, _d: Datagram<'_>) -> Result<(), WireError> {
        // RLC has no feedback: nothing a receiver could send is valid.
        self.stats.malformed_datagrams += 1;
        Err(WireError::Inconsistent("rlc: the sender takes no datagrams"))
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.now = self.now.max(now);
        let now = self.now;
        if now < self.start || self.stopped(now) {
            return None;
        }
        // The earliest due layer; at equal instants the highest first, so that after a pause
        // the upper layers' packets (which reveal losses in their bursts) precede the base
        // layer's, which is the one that tells receivers a synchronisation point has passed.
        let j =
            (0..self.next_send.len()).rev().filter(|&j| self.next_send[j] <= now).min_by_key(|&j| self.next_send[j])?;
        let h = RlcHeader {
            layer: j as u8,
            layers: self.cfg.layers,
            seq: self.seq[j],
            sp: self.sp_index(now),
            burst: false,
        };
        let k = h.sp + 1;
        let burst = self.bursts(j, k) && now + Duration::from_nanos(self.cfg.burst_ns) >= self.sp_time(k);
        let header = RlcHeader { burst, ..h }.emit();
        self.seq[j] = self.seq[j].wrapping_add(1);
        // Pace from the schedule (no drift), unless the driver fell more than a gap behind.
        let due = self.next_send[j];
        let base = if due + self.gap[j] < now { now } else { due };
        self.next_send[j] = self.next_after(j, base);
        let meta = PacketMeta::data(self.packets);
        self.packets += 1;
        Some(Transmit { to: Destination::Group(GroupId(j as u32)), header, payload_len: self.payload, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.now < self.start {
            return Some(self.start);
        }
        let t = self.next_send.iter().copied().min()?;
        (!self.stopped(t)).then_some(t.max(self.now))
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
