//! A PLM receiver: packet-pair estimates, the subscription rules and the loss rule (Legout &
//! Biersack 2000 §3; ns-2 2.35 `tcl/plm/plm.tcl`, `plm-ns.tcl`). See `mod.rs` for the rules.

use std::collections::VecDeque;

use super::wire::PlmData;
use super::PlmConfig;
use crate::endpoint::{Datagram, Endpoint, EndpointStats, Event, GroupId, Membership, Transmit};
use crate::proto::registry::ReceiverSpec;
use crate::time::{Duration, Instant};
use crate::units::DataRate;
use crate::wire::WireError;

/// Per layer: what the loss monitor and the pair measurement know (ns-2 `PLMLossTrace`).
#[derive(Clone, Debug, Default)]
struct LayerMonitor {
    /// Next expected sequence number (`None` right after a join: ns-2 `$mon_ clear`).
    expected: Option<u32>,
    /// A pair in progress: arrival of its first packet, next sequence number wanted, packets
    /// of it seen.
    pair: Option<(Instant, u32, u32)>,
}

pub struct PlmReceiver {
    cum_bps: Vec<u64>,
    check: Duration,
    min_estimates: u32,
    burst: u32,
    loss_threshold: Option<f64>,
    drop_without_pairs: bool,
    rejoin_after: Duration,
    start: Instant,
    stop: Option<Instant>,
    started: bool,
    stopped: bool,
    subscription: usize,
    monitors: Vec<LayerMonitor>,
    /// Pair estimates of the current check period: their minimum and how many (ns-2 keeps the
    /// list `PP_estimate` and takes its minimum).
    period_min: f64,
    period_count: u32,
    /// When the current check period may close (ns-2 `time_estimate`; `None`: 0, not started).
    period_end: Option<Instant>,
    /// Deadline of the no-pair rule: a layer is dropped if no pair completes before it.
    pair_deadline: Option<Instant>,
    rejoin_at: Option<Instant>,
    // ns-2 `log-loss` state.
    npkts: u64,
    nlost: u64,
    snapshot: Option<(u64, u64)>,
    loss_window_end: Instant,
    loss_hold_until: Instant,
    membership: VecDeque<Membership>,
    events: VecDeque<Event>,
    stats: EndpointStats,
}

/// ns-2 `log-loss`: the loss rate is measured over at most this long.
const LOSS_WINDOW: Duration = Duration::from_secs(5);
/// ns-2 `log-loss`: no second loss-triggered drop within this time of one.
const LOSS_HOLD: Duration = Duration::from_millis(500);
/// ns-2 `exceed_loss_thresh`: the loss rate counts only over at least this many packets.
const LOSS_MIN_PACKETS: u64 = 10;

impl PlmReceiver {
    pub(super) fn new(config: &PlmConfig, spec: &ReceiverSpec) -> Self {
        let cum_bps = config
            .layer_rates_bps
            .iter()
            .scan(0u64, |acc, &r| {
                *acc += r;
                Some(*acc)
            })
            .collect();
        PlmReceiver {
            cum_bps,
            check: Duration::from_nanos(config.check_period_ns),
            min_estimates: config.min_estimates,
            burst: config.burst,
            loss_threshold: (config.loss_threshold > 0.0).then_some(config.loss_threshold),
            drop_without_pairs: config.drop_without_pairs,
            rejoin_after: Duration::from_nanos(config.rejoin_after_ns),
            start: spec.start,
            stop: spec.stop,
            started: false,
            stopped: false,
            subscription: 0,
            monitors: vec![LayerMonitor::default(); config.layer_rates_bps.len()],
            period_min: f64::INFINITY,
            period_count: 0,
            period_end: None,
            pair_deadline: None,
            rejoin_at: None,
            npkts: 0,
            nlost: 0,
            snapshot: None,
            loss_window_end: Instant::ZERO,
            loss_hold_until: Instant::ZERO,
            membership: VecDeque::new(),
            events: VecDeque::new(),
            stats: EndpointStats::default(),
        }
    }

    /// Layers currently subscribed.
    pub fn subscription(&self) -> usize {
        self.subscription
    }

    /// The subscription an estimate of `bps` allows: the number of cumulative rates strictly
    /// below it (ns-2 compares with the estimate rounded to whole bit/s).
    pub fn fitting(&self, bps: f64) -> usize {
        let est = bps.round();
        self.cum_bps.iter().take_while(|&&c| (c as f64) < est).count()
    }

    fn add_layer(&mut self, now: Instant) {
        if self.subscription < self.cum_bps.len() {
            let l = self.subscription;
            self.monitors[l] = LayerMonitor::default();
            self.membership.push_back(Membership::Join(GroupId(l as u32)));
            self.subscription += 1;
            self.layers_changed();
        }
        self.rejoin_at = None;
        if self.pair_deadline.is_none() {
            self.pair_deadline = Some(now + self.check);
        }
    }

    fn drop_layer(&mut self, now: Instant) {
        if self.subscription > 0 {
            self.subscription -= 1;
            let l = self.subscription;
            self.monitors[l].pair = None;
            self.membership.push_back(Membership::Leave(GroupId(l as u32)));
            self.layers_changed();
        }
        if self.subscription == 0 {
            // ns-2: with every layer dropped, try the session again after 30 s.
            self.rejoin_at = Some(now + self.rejoin_after);
            self.pair_deadline = None;
        }
    }

    fn layers_changed(&mut self) {
        self.events.push_back(Event::LayersChanged { layers: self.subscription.min(u8::MAX as usize) as u8 });
    }

    fn set_subscription(&mut self, target: usize, now: Instant) {
        while self.subscription < target.min(self.cum_bps.len()) {
            self.add_layer(now);
        }
        while self.subscription > target {
            self.drop_layer(now);
        }
    }

    /// ns-2 `make_estimate`: one pair's estimate.
    fn estimate(&mut self, bps: f64, now: Instant) {
        self.pair_deadline = (self.subscription > 0).then_some(now + self.check);
        self.period_min = self.period_min.min(bps);
        self.period_count += 1;
        // Stability drop: an estimate below the subscription drops layers at once, and starts a
        // new check period.
        let fit = self.fitting(bps);
        if self.subscription > fit {
            self.snapshot = None;
            self.set_subscription(fit, now);
            self.period_min = f64::INFINITY;
            self.period_count = 0;
            self.period_end = Some(now + self.check);
        }
        let end = *self.period_end.get_or_insert(now + self.check);
        if end <= now && self.period_count >= self.min_estimates {
            let min = self.period_min;
            self.events.push_back(Event::RateChanged { rate: DataRate::from_bps_f64(min) });
            self.period_min = f64::INFINITY;
            self.period_count = 0;
            self.period_end = Some(now + self.check);
            // An estimate adjusts better than a loss-triggered drop would (ns-2 `choose_layer`).
            self.snapshot = None;
            let fit = self.fitting(min);
            self.set_subscription(fit, now);
        }
    }

    /// ns-2 `log-loss`: called on every detected loss.
    fn on_loss(&mut self, now: Instant) {
        let Some(threshold) = self.loss_threshold else { return };
        if self.loss_window_end <= now {
            self.snapshot = None;
        }
        if self.snapshot.is_none() || self.loss_hold_until >= now {
            self.snapshot = Some((self.npkts, self.nlost));
            self.loss_window_end = now + LOSS_WINDOW;
        }
        let (p0, l0) = self.snapshot.expect("just set");
        let (npkts, nlost) = (self.npkts - p0, self.nlost - l0);
        let exceeded = npkts >= LOSS_MIN_PACKETS && nlost as f64 / (nlost + npkts) as f64 > threshold;
        if exceeded && self.loss_hold_until <= now {
            self.drop_layer(now);
            self.snapshot = None;
            self.loss_hold_until = now + LOSS_HOLD;
        }
    }
}

impl Endpoint for PlmReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let h = match PlmData::parse(d.bytes, self.cum_bps.len()) {
            Ok(h) => h,
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        let l = h.layer as usize;
        if l >= self.subscription || self.stopped {
            // A packet of a layer just left (the network prunes after its latency).
            return Ok(());
        }
        self.stats.app_packets_delivered += 1;
        self.stats.app_bytes_delivered +=
            (d.bytes.len() - super::wire::DATA_HEADER_BYTES) as u64 + d.virtual_payload as u64;
        self.npkts += 1;
        let m = &mut self.monitors[l];
        // Packets skipped since the expected one are lost; one behind it (reordered, a
        // duplicate) is neither a loss nor a step back.
        let gap = m.expected.map_or(0, |e| h.seq.wrapping_sub(e));
        let lost = if gap <= u32::MAX / 2 { gap } else { 0 };
        if gap <= u32::MAX / 2 {
            m.expected = Some(h.seq.wrapping_add(1));
        }
        // The pair measurement: a burst's packets must arrive in sequence after its first.
        let mut done = None;
        if h.first_of_pair {
            m.pair = Some((now, h.seq.wrapping_add(1), 1));
        } else if let Some((first, next, seen)) = m.pair {
            if h.seq == next {
                let seen = seen + 1;
                m.pair = Some((first, next.wrapping_add(1), seen));
                if seen == self.burst {
                    m.pair = None;
                    let gap = now.saturating_since(first);
                    if !gap.is_zero() {
                        let bits = d.wire_size() as f64 * 8.0 * (self.burst - 1) as f64;
                        done = Some(bits / gap.as_secs_f64());
                    }
                }
            } else {
                m.pair = None;
            }
        }
        if lost > 0 {
            self.nlost += lost as u64;
            self.on_loss(now);
        }
        if let Some(bps) = done {
            self.estimate(bps, now);
        }
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        if !self.started && now >= self.start {
            self.started = true;
            self.add_layer(now);
        }
        if !self.started || self.stopped {
            return;
        }
        if self.stop.is_some_and(|s| now >= s) {
            self.stopped = true;
            self.set_subscription(0, now);
            self.rejoin_at = None;
            self.pair_deadline = None;
            return;
        }
        if self.rejoin_at.is_some_and(|t| now >= t) {
            self.add_layer(now);
        }
        if self.drop_without_pairs && self.pair_deadline.is_some_and(|t| now >= t) && self.subscription > 0 {
            // No pair completed in a whole check period: drop a layer (docs/papers/sramt.md §2.1 [X]).
            self.pair_deadline = Some(now + self.check);
            self.drop_layer(now);
        }
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        None
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.started {
            return Some(self.start);
        }
        if self.stopped {
            return None;
        }
        let deadline = if self.drop_without_pairs { self.pair_deadline } else { None };
        [deadline, self.rejoin_at, self.stop].into_iter().flatten().min()
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn poll_membership(&mut self) -> Option<Membership> {
        self.membership.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
