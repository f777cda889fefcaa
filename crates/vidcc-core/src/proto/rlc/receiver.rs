//! The RLC receiver: subscribes to layers 0..L−1 (level L, starting at 1); on a loss drops its
//! top layer at once and then ignores losses for the deaf period; at a synchronisation point of
//! its level, if it has seen no loss since the previous one, joins layer L.

use std::collections::VecDeque;

use super::config::RlcConfig;
use super::wire::RlcHeader;
use crate::endpoint::{Datagram, Endpoint, EndpointStats, Event, GroupId, Membership, Transmit};
use crate::estimate::loss_detect::{Arrival, GapDetector};
use crate::proto::registry::ReceiverSpec;
use crate::time::{Duration, Instant};
use crate::wire::WireError;

/// What the receiver did and when (for tests and traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Joined a layer at synchronisation point `sp`, reaching `level`.
    Join { at: Instant, sp: u32, level: u8 },
    /// Dropped its top layer on a loss, down to `level`, deaf until `deaf_until`.
    Drop { at: Instant, level: u8, deaf_until: Instant },
    /// A loss inside the deaf period: no drop.
    Ignored { at: Instant },
}

pub struct RlcReceiver {
    cfg: RlcConfig,
    start: Instant,
    stop: Option<Instant>,
    started: bool,
    stopped: bool,
    /// Layers subscribed: 0..level.
    level: u8,
    /// Loss detection per subscribed layer (a fresh one on every join).
    detectors: Vec<Option<GapDetector>>,
    /// The newest synchronisation point seen on the base layer.
    last_sp: Option<u32>,
    /// No loss since the previous synchronisation point of the current level.
    clean: bool,
    deaf_until: Option<Instant>,
    actions: Vec<Action>,
    memberships: VecDeque<Membership>,
    events: VecDeque<Event>,
    stats: EndpointStats,
}

impl RlcReceiver {
    pub fn new(cfg: &RlcConfig, spec: &ReceiverSpec) -> Self {
        RlcReceiver {
            cfg: cfg.clone(),
            start: spec.start,
            stop: spec.stop,
            started: false,
            stopped: false,
            level: 1,
            detectors: vec![None; cfg.layers as usize],
            last_sp: None,
            clean: false,
            deaf_until: None,
            actions: Vec::new(),
            memberships: VecDeque::new(),
            events: VecDeque::new(),
            stats: EndpointStats::default(),
        }
    }

    /// Layers subscribed (level L = layers 0..L−1).
    pub fn level(&self) -> u8 {
        self.level
    }

    pub fn actions(&self) -> &[Action] {
        &self.actions
    }

    fn set_level(&mut self, level: u8) {
        self.level = level;
        self.events.push_back(Event::LayersChanged { layers: level });
    }

    fn on_loss(&mut self, now: Instant) {
        self.clean = false;
        if self.deaf_until.is_some_and(|d| now < d) {
            self.actions.push(Action::Ignored { at: now });
            return;
        }
        self.events.push_back(Event::LossEvent);
        if self.level > 1 {
            let top = self.level - 1;
            self.detectors[top as usize] = None;
            self.memberships.push_back(Membership::Leave(GroupId(u32::from(top))));
            self.set_level(top);
        }
        let deaf_until = now + Duration::from_nanos(self.cfg.deaf_ns);
        self.deaf_until = Some(deaf_until);
        self.actions.push(Action::Drop { at: now, level: self.level, deaf_until });
    }

    /// Synchronisation point `k` has passed (seen on the base layer).
    fn on_sp(&mut self, now: Instant, k: u32) {
        if self.level > self.cfg.sp_level(k) {
            return; // not a point of this level
        }
        if self.clean && self.level < self.cfg.layers {
            let j = self.level;
            self.detectors[j as usize] = None;
            self.memberships.push_back(Membership::Join(GroupId(u32::from(j))));
            self.set_level(j + 1);
            self.actions.push(Action::Join { at: now, sp: k, level: j + 1 });
        }
        // The interval to the next point of the (new) level starts clean.
        self.clean = true;
    }

    fn on_data(&mut self, now: Instant, h: &RlcHeader, payload: u32) {
        if h.layers != self.cfg.layers || h.layer >= self.level {
            // Another session's layout, or a layer left (still in flight) or not yet joined.
            return;
        }
        self.stats.app_bytes_delivered += u64::from(payload);
        self.stats.app_packets_delivered += 1;
        let d = self.detectors[h.layer as usize].get_or_insert_with(GapDetector::new);
        if matches!(d.on_packet(h.seq), Arrival::Gap { .. }) {
            self.on_loss(now);
        }
        if h.layer == 0 {
            match self.last_sp {
                None => {
                    // The first point seen: no previous one to have been loss-free since.
                    self.last_sp = Some(h.sp);
                    self.clean = true;
                }
                Some(k) if (h.sp.wrapping_sub(k) as i32) > 0 => {
                    self.last_sp = Some(h.sp);
                    self.on_sp(now, h.sp);
                }
                Some(_) => {}
            }
        }
    }
}

impl Endpoint for RlcReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let h = RlcHeader::parse(d.bytes).inspect_err(|_| self.stats.malformed_datagrams += 1)?;
        if self.started && !self.stopped {
            let payload = (d.wire_size() - super::wire::HEADER_BYTES) as u32;
            self.on_data(now, &h, payload);
        }
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        if !self.started && now >= self.start {
            self.started = true;
            self.memberships.push_back(Membership::Join(GroupId(0)));
        }
        if self.started && !self.stopped && self.stop.is_some_and(|s| now >= s) {
            self.stopped = true;
            for j in (0..self.level).rev() {
                self.memberships.push_back(Membership::Leave(GroupId(u32::from(j))));
            }
        }
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        None
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.started {
            Some(self.start)
        } else if !self.stopped {
            self.stop
        } else {
            None
        }
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
