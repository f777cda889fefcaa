//! The event queue: a binary heap ordered by (time, insertion sequence).
//!
//! Ties in time are broken by insertion order (FIFO), so two events at the same nanosecond
//! always run in the order they were scheduled: the run is a pure function of the inputs.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use vidcc_core::Instant;

struct Entry<E> {
    time: u64,
    seq: u64,
    event: E,
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, o: &Self) -> bool {
        self.time == o.time && self.seq == o.seq
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl<E> Ord for Entry<E> {
    // BinaryHeap is a max-heap: reverse so the earliest (time, seq) pops first.
    fn cmp(&self, o: &Self) -> Ordering {
        (o.time, o.seq).cmp(&(self.time, self.seq))
    }
}

pub struct Scheduler<E> {
    heap: BinaryHeap<Entry<E>>,
    next_seq: u64,
    now: Instant,
    processed: u64,
}

impl<E> Default for Scheduler<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> Scheduler<E> {
    pub fn new() -> Self {
        Scheduler { heap: BinaryHeap::with_capacity(1024), next_seq: 0, now: Instant::ZERO, processed: 0 }
    }

    /// Schedules `event` at `at`; an instant in the past runs at the current time instead.
    pub fn schedule(&mut self, at: Instant, event: E) {
        let time = at.max(self.now).as_nanos();
        self.heap.push(Entry { time, seq: self.next_seq, event });
        self.next_seq += 1;
    }

    /// Pops the next event if it is due at or before `until`, advancing the clock to it.
    pub fn pop_until(&mut self, until: Instant) -> Option<(Instant, E)> {
        if self.heap.peek()?.time > until.as_nanos() {
            return None;
        }
        let e = self.heap.pop()?;
        self.now = Instant::from_nanos(e.time);
        self.processed += 1;
        Some((self.now, e.event))
    }

    pub fn now(&self) -> Instant {
        self.now
    }

    /// Events popped so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    pub fn pending(&self) -> usize {
        self.heap.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_order_with_fifo_ties() {
        let mut s = Scheduler::new();
        s.schedule(Instant::from_nanos(5), "b");
        s.schedule(Instant::from_nanos(1), "a");
        s.schedule(Instant::from_nanos(5), "c");
        s.schedule(Instant::from_nanos(9), "d");
        let order: Vec<_> = std::iter::from_fn(|| s.pop_until(Instant::from_nanos(8))).map(|(_, e)| e).collect();
        assert_eq!(order, ["a", "b", "c"]);
        assert_eq!(s.now(), Instant::from_nanos(5));
        // The past is clamped to now, so time never runs backwards.
        s.schedule(Instant::from_nanos(2), "late");
        assert_eq!(s.pop_until(Instant::MAX), Some((Instant::from_nanos(5), "late")));
        assert_eq!(s.pop_until(Instant::MAX), Some((Instant::from_nanos(9), "d")));
        assert_eq!(s.processed(), 5);
    }
}
