//! What the equation-based rate senders TFRC (RFC 5348 §4.6) and TFMCC (RFC 4654 §3, which
//! sends as TFRC does) do alike, kept once: [`Pacer`] spaces packets at the allowed rate X and
//! numbers them, and [`EventQueue`] holds an endpoint's events for the driver (the newest
//! [`EVENT_CAPACITY`], `RateChanged` only when the rate really changed).

use std::collections::VecDeque;

use crate::endpoint::Event;
use crate::time::{Duration, Instant};
use crate::units::DataRate;

/// Events an endpoint keeps for the driver; older ones are dropped (the driver polls after every
/// call, so only a burst longer than this loses any).
pub const EVENT_CAPACITY: usize = 16;

/// RFC 5348 §4.6 pacing: packet n+1 leaves `size_n / X` after packet n; the first at the
/// flow's start. Also the data packets' sequence numbers, from 0, wrapping.
#[derive(Clone, Debug)]
pub struct Pacer {
    start: Instant,
    /// Send time and wire size of the last packet.
    last_send: Option<(Instant, u32)>,
    seq: u32,
}

impl Pacer {
    pub fn new(start: Instant) -> Self {
        Pacer { start, last_send: None, seq: 0 }
    }

    /// When the next packet may leave at `x` bytes/s.
    pub fn next_send(&self, x: f64) -> Instant {
        match self.last_send {
            None => self.start,
            Some((t, size)) => t + Duration::from_secs_f64(size as f64 / x),
        }
    }

    /// The sequence number the next packet carries.
    pub fn seq(&self) -> u32 {
        self.seq
    }

    /// A packet of `wire_bytes` (header included) left at `now` with [`Pacer::seq`].
    pub fn sent(&mut self, now: Instant, wire_bytes: u32) {
        self.seq = self.seq.wrapping_add(1);
        self.last_send = Some((now, wire_bytes));
    }
}

/// An endpoint's pending events (module docs).
#[derive(Clone, Debug)]
pub struct EventQueue {
    events: VecDeque<Event>,
    emitted_rate: Option<DataRate>,
}

impl Default for EventQueue {
    fn default() -> Self {
        EventQueue { events: VecDeque::with_capacity(EVENT_CAPACITY), emitted_rate: None }
    }
}

impl EventQueue {
    pub fn push(&mut self, e: Event) {
        if self.events.len() == EVENT_CAPACITY {
            self.events.pop_front();
        }
        self.events.push_back(e);
    }

    /// `RateChanged { rate }` unless `rate` is the rate last announced.
    pub fn rate(&mut self, rate: DataRate) {
        if self.emitted_rate != Some(rate) {
            self.emitted_rate = Some(rate);
            self.push(Event::RateChanged { rate });
        }
    }

    pub fn pop(&mut self) -> Option<Event> {
        self.events.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: u64) -> Instant {
        Instant::ZERO + Duration::from_millis(ms)
    }

    #[test]
    fn packets_are_spaced_by_their_size_at_the_rate_and_numbered() {
        let mut p = Pacer::new(at(5));
        assert_eq!(p.next_send(1000.0), at(5));
        assert_eq!(p.seq(), 0);
        p.sent(at(7), 500);
        // 500 B at 1000 B/s: half a second after the packet, whatever the start.
        assert_eq!(p.next_send(1000.0), at(507));
        assert_eq!(p.next_send(2000.0), at(257));
        assert_eq!(p.seq(), 1);
    }

    #[test]
    fn the_queue_keeps_the_newest_events_and_announces_a_rate_once() {
        let mut q = EventQueue::default();
        q.rate(DataRate::from_bps(1000));
        q.rate(DataRate::from_bps(1000));
        q.rate(DataRate::from_bps(2000));
        assert_eq!(q.pop(), Some(Event::RateChanged { rate: DataRate::from_bps(1000) }));
        assert_eq!(q.pop(), Some(Event::RateChanged { rate: DataRate::from_bps(2000) }));
        assert_eq!(q.pop(), None);
        for _ in 0..EVENT_CAPACITY + 3 {
            q.push(Event::LossEvent);
        }
        q.push(Event::Timeout);
        let kept: Vec<Event> = std::iter::from_fn(|| q.pop()).collect();
        assert_eq!(kept.len(), EVENT_CAPACITY);
        assert_eq!(kept.last(), Some(&Event::Timeout));
    }
}
