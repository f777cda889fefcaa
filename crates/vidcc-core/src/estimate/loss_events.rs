//! The TFRC receiver's loss history (RFC 5348 §5.1–§5.3), shared by every protocol that
//! measures a TFRC loss event rate: TFRC itself and TFMCC (RFC 4654 §4.2 reuses it as is).
//!
//! Per data packet, in two steps so that the caller can update its own meters in between
//! ([`LossEventHistory::classify`], then [`LossEventHistory::record`]):
//! - loss detection (§5.1): a packet is lost once NDUPACK packets with a higher sequence number
//!   have arrived ([`GapDetector::with_reorder_threshold`]);
//! - loss events (§5.2): a lost packet's nominal arrival time is interpolated between the
//!   arrivals before and after its hole, `T_loss = T_before + (T_after − T_before)·(S_loss −
//!   S_before)/(S_after − S_before)`; it starts a new loss event iff `T_loss > T_old + R`, with
//!   T_old the nominal time of the first lost packet of the current event and R the RTT the
//!   caller passes;
//! - loss intervals (§5.3): an interval runs from the first lost packet of one event to the first
//!   of the next (`S_new − S_old` packets); the open interval I_0 counts from the last event's
//!   first lost packet to the highest sequence number received, inclusive. The first closed
//!   interval is the caller's (RFC 5348 §6.3.1, RFC 4654 §4.2: synthesised from the receive
//!   rate): [`LossEventHistory::record`] asks a closure for it;
//! - p = 1/I_mean from [`LossIntervals`] (§5.4, optional §5.5 discounting).
//!
//! Deviations (where the RFC leaves room): T_before/T_after are the arrivals around the hole
//! when it opened; a reordered packet that later fills part of the hole does not move them. At
//! most 64 open holes are remembered; a loss in a forgotten hole gets the current time as its
//! nominal arrival. At most n + 1 loss events start per declaration (beyond that the history is
//! all new anyway).

use std::collections::VecDeque;

use super::loss_detect::{Arrival, GapDetector};
use super::loss_intervals::{LossIntervals, LossIntervalsConfig, N_INTERVALS};
use crate::time::{Duration, Instant};

const MAX_HOLES: usize = 64;
/// Loss events one declaration can start: beyond n + 1 the history is all new anyway.
const MAX_EVENTS_PER_DECLARATION: usize = N_INTERVALS + 1;

/// A run of missing sequence numbers [start, end) and the arrivals around it when it opened.
#[derive(Clone, Copy, Debug)]
struct Hole {
    start: u64,
    end: u64,
    t_before: Instant,
    t_after: Instant,
}

impl Hole {
    /// §5.2 interpolation, in integer ns: T_before + (T_after − T_before)·(S − S_before)/(S_after − S_before)
    /// with S_before = start − 1 and S_after = end.
    fn nominal_time(&self, s: u64) -> Instant {
        let span = (self.end - (self.start - 1)) as u128;
        let dt = self.t_after.saturating_since(self.t_before).as_nanos() as u128;
        let k = (s.clamp(self.start, self.end) - (self.start - 1)) as u128;
        self.t_before + Duration::from_nanos((dt * k / span) as u64)
    }

    /// Smallest s ≥ `from` in the hole whose nominal time is later than `thr`.
    fn first_after(&self, from: u64, thr: Instant) -> Option<u64> {
        if from >= self.end {
            return None;
        }
        if self.nominal_time(from) > thr {
            return Some(from);
        }
        // nominal(s) > thr ⇔ ⌊dt·k/span⌋ ≥ thr − T_before + 1 ⇔ k ≥ ⌈(thr − T_before + 1)·span/dt⌉
        let dt = self.t_after.saturating_since(self.t_before).as_nanos() as u128;
        if dt == 0 {
            return None;
        }
        let span = (self.end - (self.start - 1)) as u128;
        let need = (thr.saturating_since(self.t_before).as_nanos() as u128 + 1) * span;
        let k = need.div_ceil(dt);
        let s = (self.start - 1).saturating_add(u64::try_from(k).unwrap_or(u64::MAX)).max(from);
        (s < self.end).then_some(s)
    }
}

/// What one recorded packet did to the history.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Recorded {
    /// The first packet of the flow.
    pub first: bool,
    /// Packets declared lost by this arrival.
    pub lost: u32,
    /// Loss events this arrival started.
    pub new_events: u32,
}

/// TFRC loss history: detection, loss events and the average loss interval (module docs).
#[derive(Clone, Debug)]
pub struct LossEventHistory {
    gap: GapDetector,
    intervals: LossIntervals,
    /// Extended highest sequence number received and its arrival time.
    highest: Option<(u64, Instant)>,
    holes: VecDeque<Hole>,
    /// First lost packet of the current loss event and its nominal arrival time.
    event: Option<(u64, Instant)>,
    lost_packets: u64,
    loss_events: u64,
}

impl LossEventHistory {
    /// `ndupack`: NDUPACK (RFC 5348 §5.1: 3); `intervals`: §5.5 discounting options.
    pub fn new(ndupack: u32, intervals: LossIntervalsConfig) -> Self {
        LossEventHistory {
            gap: GapDetector::with_reorder_threshold(ndupack.max(1)),
            intervals: LossIntervals::with_config(intervals),
            highest: None,
            holes: VecDeque::with_capacity(MAX_HOLES),
            event: None,
            lost_packets: 0,
            loss_events: 0,
        }
    }

    /// Step 1: loss detection. A [`Arrival::Duplicate`] must not be recorded.
    pub fn classify(&mut self, seq: u32) -> Arrival {
        self.gap.on_packet(seq)
    }

    /// No packet recorded yet.
    pub fn is_empty(&self) -> bool {
        self.highest.is_none()
    }

    /// Step 2: records the (non-duplicate) packet `seq` that arrived at `now` and was classified
    /// as `arrival`. `rtt` groups losses into events (zero: every loss is an event). When the
    /// first loss event starts, `first_interval(packets_since_first)` gives the synthesised
    /// first interval (the argument is the number of packets from the first received to the
    /// first lost, a fallback for callers that have no rate yet).
    pub fn record(
        &mut self,
        now: Instant,
        seq: u32,
        arrival: Arrival,
        rtt: Duration,
        first_interval: &mut dyn FnMut(u64) -> u64,
    ) -> Recorded {
        let ext = self.extend(seq);
        let mut out = Recorded { first: self.highest.is_none(), ..Recorded::default() };
        match self.highest {
            None => self.highest = Some((ext, now)),
            Some((hi, t_hi)) if ext > hi => {
                if ext > hi + 1 {
                    if self.holes.len() == MAX_HOLES {
                        self.holes.pop_front();
                    }
                    self.holes.push_back(Hole { start: hi + 1, end: ext, t_before: t_hi, t_after: now });
                }
                self.highest = Some((ext, now));
            }
            Some(_) => {}
        }
        if let Arrival::Gap { lost, first_missing } = arrival {
            self.lost_packets += lost as u64;
            out.lost = lost;
            let hi = self.highest.map_or(ext, |(h, _)| h);
            let lo = hi.saturating_sub((hi as u32).wrapping_sub(first_missing) as u64);
            out.new_events = self.on_losses(now, lo, lo.saturating_add(lost as u64), rtt, first_interval);
        }
        if let (Some((s_old, _)), Some((hi, _))) = (self.event, self.highest) {
            // I_0: from the current event's first lost packet to the highest received, inclusive.
            self.intervals.set_open((hi + 1).saturating_sub(s_old));
        }
        out
    }

    /// p = 1/I_mean (0 before the first loss event).
    pub fn loss_event_rate(&self) -> f64 {
        self.intervals.loss_event_rate()
    }
    pub fn intervals(&self) -> &LossIntervals {
        &self.intervals
    }
    pub fn lost_packets(&self) -> u64 {
        self.lost_packets
    }
    pub fn loss_events(&self) -> u64 {
        self.loss_events
    }
    /// Whether any loss event has happened.
    pub fn has_loss(&self) -> bool {
        self.event.is_some()
    }

    /// Extended number of an arriving `seq`, relative to the highest so far (RFC 1982 order).
    fn extend(&self, seq: u32) -> u64 {
        match self.highest {
            None => (1u64 << 32) + seq as u64,
            Some((h, _)) => {
                let d = seq.wrapping_sub(h as u32);
                if d < 1 << 31 {
                    h.saturating_add(d as u64)
                } else {
                    h.saturating_sub((1u64 << 32) - d as u64)
                }
            }
        }
    }

    /// Packets [lo, hi) were declared lost: group them into loss events (§5.2).
    fn on_losses(
        &mut self,
        now: Instant,
        lo: u64,
        hi: u64,
        rtt: Duration,
        first_interval: &mut dyn FnMut(u64) -> u64,
    ) -> u32 {
        let lo = lo.max(1);
        let mut found = false;
        let mut started = 0;
        for i in 0..self.holes.len() {
            let h = self.holes[i];
            if h.start < hi && lo < h.end {
                found = true;
                started += self.on_lost_range(lo.max(h.start), hi.min(h.end), &h, rtt, first_interval);
            }
        }
        if !found {
            let pseudo = Hole { start: lo, end: hi.max(lo + 1), t_before: now, t_after: now };
            started += self.on_lost_range(lo, hi, &pseudo, rtt, first_interval);
        }
        started
    }

    fn on_lost_range(
        &mut self,
        lo: u64,
        hi: u64,
        hole: &Hole,
        r: Duration,
        first_interval: &mut dyn FnMut(u64) -> u64,
    ) -> u32 {
        let mut s = lo;
        let mut started = 0;
        while s < hi && started < MAX_EVENTS_PER_DECLARATION {
            let t = hole.nominal_time(s);
            match self.event {
                // Part of the current loss event: T_old + R ≥ T_loss (or older than its start).
                Some((s_old, t_old)) if s <= s_old || t <= t_old + r => match hole.first_after(s + 1, t_old + r) {
                    Some(next) if next < hi => s = next,
                    _ => break,
                },
                _ => {
                    self.new_loss_event(s, t, first_interval);
                    started += 1;
                    s += 1;
                }
            }
        }
        started as u32
    }

    fn new_loss_event(&mut self, s: u64, t: Instant, first_interval: &mut dyn FnMut(u64) -> u64) {
        match self.event {
            None => {
                let first = self.highest.map_or(s, |(h, _)| (h + 1).saturating_sub(self.gap.span()));
                let synth = first_interval(s.saturating_sub(first));
                self.intervals.push_interval(synth);
            }
            Some((s_old, _)) => self.intervals.push_interval(s - s_old),
        }
        self.event = Some((s, t));
        self.loss_events += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> Instant {
        Instant::from_nanos(ms * 1_000_000)
    }

    /// Feeds `seqs` one per 10 ms with R = 100 ms; returns the history.
    fn feed(seqs: impl IntoIterator<Item = u32>) -> LossEventHistory {
        let mut h = LossEventHistory::new(3, LossIntervalsConfig::default());
        for (i, seq) in seqs.into_iter().enumerate() {
            let a = h.classify(seq);
            if a != Arrival::Duplicate {
                h.record(at(10 * i as u64), seq, a, Duration::from_millis(100), &mut |n| n.max(1));
            }
        }
        h
    }

    #[test]
    fn losses_within_one_rtt_are_one_event() {
        // 0..50, lose 50 and 52 (20 ms apart nominally), then 53..100: one event.
        let h = feed((0..50).chain([51]).chain(53..100));
        assert_eq!(h.lost_packets(), 2);
        assert_eq!(h.loss_events(), 1);
        // First interval synthesised from the fallback: 50 packets before the first loss.
        assert_eq!(h.intervals().closed().collect::<Vec<_>>(), vec![50]);
        // I_0 from seq 50 to 99 inclusive.
        assert_eq!(h.intervals().open(), 50);
    }

    #[test]
    fn losses_further_apart_than_rtt_are_two_events() {
        // lose 50 and 80: 30 packets · 10 ms = 300 ms > R = 100 ms
        let h = feed((0..50).chain(51..80).chain(81..120));
        assert_eq!(h.loss_events(), 2);
        assert_eq!(h.intervals().closed().collect::<Vec<_>>(), vec![30, 50]);
        assert!(h.loss_event_rate() > 0.0);
    }

    #[test]
    fn duplicates_are_classified_and_nothing_is_lost_without_gaps() {
        let mut h = LossEventHistory::new(3, LossIntervalsConfig::default());
        assert_eq!(h.classify(7), Arrival::InOrder);
        h.record(at(0), 7, Arrival::InOrder, Duration::ZERO, &mut |n| n);
        assert_eq!(h.classify(7), Arrival::Duplicate);
        assert!(!h.has_loss());
        assert_eq!(h.loss_event_rate(), 0.0);
    }
}
