//! `DropTail`: a FIFO queue with a hard capacity, as ns-2 `Queue/DropTail` (`queue/drop-tail.cc`).
//!
//! An arriving packet that would overflow the [`Limit`] is dropped; everything else waits in
//! arrival order. As everywhere in `queue/`, the count covers packets *waiting*, not the one the
//! link is serialising.
//!
//! Parameters: `limit` — packets (ns-2 `limit_`) or bytes (ns-2 `queue-in-bytes_` with
//! `limit_ × mean_pktsize_`). No default here: the topology resolves `QueueLimit::Bdp`.
//!
//! Deviations: in byte mode ns-2 accepts a packet while the byte count is still below the limit
//! and may end up over it by one packet; here a packet is accepted only if it fits entirely
//! ([`Limit::overflows`]), so the byte count never exceeds the limit. ns-2's `drop_front_`
//! option is not modelled (it is off by default).

use std::collections::VecDeque;

use crate::Instant;

use super::{Enqueue, Limit, Queue, QueuedPacket};

/// Storage reserved up front. Deliberately small: a ring sized to the queue's limit makes its head
/// walk through the whole buffer (4096 slots were reserved before), so with hundreds of links every
/// enqueue and dequeue touched a cache line nobody had used since the last lap; an access link that
/// never holds more than a few packets now cycles within one or two lines. A queue that does grow
/// deeper doubles its ring (amortised, a handful of times per run) and keeps the capacity.
const MAX_PREALLOCATED_PACKETS: u64 = 8;
/// For a byte limit the packet count is unknown; assume packets of at least this size when
/// choosing how much to reserve.
const PREALLOCATION_PACKET_BYTES: u64 = 64;

#[derive(Debug)]
pub struct DropTail {
    limit: Limit,
    packets: VecDeque<QueuedPacket>,
    bytes: u64,
    drops: u64,
}

impl DropTail {
    pub fn new(limit: Limit) -> Self {
        DropTail { limit, packets: VecDeque::with_capacity(preallocation(limit)), bytes: 0, drops: 0 }
    }

    pub fn limit(&self) -> Limit {
        self.limit
    }

    /// Arrivals dropped so far.
    pub fn drops(&self) -> u64 {
        self.drops
    }
}

/// Packets worth of storage to reserve for a queue with this limit (shared with `red.rs`).
pub(crate) fn preallocation(limit: Limit) -> usize {
    let packets = match limit {
        Limit::Packets(n) => n,
        Limit::Bytes(b) => b / PREALLOCATION_PACKET_BYTES,
    };
    packets.saturating_add(1).min(MAX_PREALLOCATED_PACKETS) as usize
}

impl Queue for DropTail {
    fn enqueue(&mut self, _now: Instant, p: QueuedPacket) -> Enqueue {
        if self.limit.overflows(self.packets.len(), self.bytes, p.size_bytes) {
            self.drops += 1;
            return Enqueue::Dropped;
        }
        self.bytes += p.size_bytes as u64;
        self.packets.push_back(p);
        Enqueue::Accepted
    }

    fn dequeue(&mut self, _now: Instant) -> Option<QueuedPacket> {
        let p = self.packets.pop_front()?;
        self.bytes -= p.size_bytes as u64;
        Some(p)
    }

    fn len_packets(&self) -> usize {
        self.packets.len()
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pkt(id: u32, size_bytes: u32) -> QueuedPacket {
        QueuedPacket { id, size_bytes, flow: 0 }
    }

    const T: Instant = Instant::ZERO;

    #[test]
    fn packet_limit_drops_the_arrival_that_would_overflow() {
        let mut q = DropTail::new(Limit::Packets(3));
        for i in 0..3 {
            assert_eq!(q.enqueue(T, pkt(i, 1000)), Enqueue::Accepted);
        }
        assert_eq!(q.enqueue(T, pkt(3, 40)), Enqueue::Dropped);
        assert_eq!((q.len_packets(), q.len_bytes(), q.drops()), (3, 3000, 1));
        assert_eq!(q.dequeue(T).map(|p| p.id), Some(0));
        // Room for exactly one more.
        assert_eq!(q.enqueue(T, pkt(4, 1000)), Enqueue::Accepted);
        assert_eq!(q.enqueue(T, pkt(5, 1000)), Enqueue::Dropped);
    }

    #[test]
    fn byte_limit_counts_bytes_not_packets() {
        let mut q = DropTail::new(Limit::Bytes(2500));
        assert_eq!(q.enqueue(T, pkt(0, 1000)), Enqueue::Accepted);
        assert_eq!(q.enqueue(T, pkt(1, 1000)), Enqueue::Accepted);
        // 2000 + 1000 > 2500: dropped, but a small packet still fits exactly.
        assert_eq!(q.enqueue(T, pkt(2, 1000)), Enqueue::Dropped);
        assert_eq!(q.enqueue(T, pkt(3, 500)), Enqueue::Accepted);
        assert_eq!(q.len_bytes(), 2500);
        assert_eq!(q.enqueue(T, pkt(4, 1)), Enqueue::Dropped);
        q.dequeue(T);
        assert_eq!(q.len_bytes(), 1500);
        assert_eq!(q.enqueue(T, pkt(5, 1000)), Enqueue::Accepted);
        assert_eq!(q.len_packets(), 3);
    }

    #[test]
    fn fifo_order_is_kept_across_interleaved_operations() {
        let mut q = DropTail::new(Limit::Packets(100));
        let mut out = Vec::new();
        let mut next = 0;
        for round in 0..50 {
            for _ in 0..(round % 4) {
                q.enqueue(T, pkt(next, 100 + next));
                next += 1;
            }
            if round % 3 == 0 {
                out.extend(q.dequeue(T).map(|p| p.id));
            }
        }
        out.extend(std::iter::from_fn(|| q.dequeue(T)).map(|p| p.id));
        assert_eq!(out, (0..next).collect::<Vec<_>>());
        assert_eq!((q.len_packets(), q.len_bytes()), (0, 0));
        assert_eq!(q.dequeue(T), None);
        assert_eq!(q.average(), None);
    }
}
