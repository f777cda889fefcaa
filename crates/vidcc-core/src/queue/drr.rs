//! `Drr`: Deficit Round Robin fair queueing (Shreedhar & Varghese, SIGCOMM 1995), as ns-2
//! `Queue/DRR` (`queue/drr.cc`, Sandeep Bajaj 1997).
//!
//! Arriving packets are hashed into one of `buckets` per-flow FIFO queues. The active buckets
//! are served round robin: a bucket whose turn comes gets `quantum` bytes of credit (its
//! deficit counter) and sends head packets while the credit covers them; the rest of the credit
//! carries over to its next turn, and a bucket that empties loses its credit. Over a round every
//! backlogged bucket sends the same number of bytes (± one packet), whatever its packet sizes,
//! so that a flow gets at most its max-min fair share of the link however fast it sends.
//!
//! The buffer is shared: when the queue exceeds its [`Limit`] after an arrival, the head packet
//! of the bucket holding the most bytes is dropped, repeatedly until it fits (ns-2 `blimit_`
//! with `getMaxflow`). The dropped packet may be one that was already waiting
//! ([`Queue::pop_pushed_out`]) or, if its bucket is the longest and held only the arrival, the
//! arrival itself ([`Enqueue::Dropped`]).
//!
//! Parameters (ns-2 2.35 defaults, `ns-default.tcl`): `limit` (ns-2 `blimit_`, 25000 bytes; here
//! also a packet count), `quantum` (`quantum_`, 250 bytes), `buckets` (`buckets_`, 10), `mask`
//! (`mask_`, off).
//!
//! Keying: ns-2 hashes the packet's *source address* (`iph->saddr()`, the node) with
//! `((i + (i >> 8) + ~(i >> 4)) % (2^24 − 1)) + 1`, then takes it modulo `buckets_`; with
//! `mask_` the low 4 bits of the address are cleared first (aggregating 16 addresses). Here the
//! same hash runs on the driver's flow key ([`QueuedPacket::flow`]: the simulator's flow
//! instance), so that two flows from one host are told apart — in ns-2 scenarios where every
//! flow has its own source node the two coincide. As in ns-2, more active keys than buckets
//! share buckets (and their share).
//!
//! Deviations: none in the scheduling. ns-2 counts a DRR queue's limit in bytes only; a packet
//! limit here counts waiting packets. Determinism: buckets are a `Vec` and the round is a
//! `VecDeque` of bucket indices in activation order, as ns-2's circular list.

use std::collections::VecDeque;

use crate::Instant;

use super::{Enqueue, Limit, Queue, QueuedPacket};

/// ns-2 2.35 `Queue/DRR` defaults (`tcl/lib/ns-default.tcl`).
pub const NS2_BLIMIT_BYTES: u64 = 25_000;
pub const NS2_QUANTUM_BYTES: u32 = 250;
pub const NS2_BUCKETS: u32 = 10;

/// DRR's parameters besides the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DrrParams {
    /// Credit in bytes a bucket gets per turn (ns-2 `quantum_`).
    pub quantum: u32,
    /// Number of per-flow queues (ns-2 `buckets_`).
    pub buckets: u32,
    /// Clear the key's low 4 bits before hashing (ns-2 `mask_`).
    pub mask: bool,
}

impl Default for DrrParams {
    fn default() -> Self {
        DrrParams { quantum: NS2_QUANTUM_BYTES, buckets: NS2_BUCKETS, mask: false }
    }
}

#[derive(Debug, Default)]
struct Bucket {
    packets: VecDeque<QueuedPacket>,
    bytes: u64,
    deficit: u64,
    /// The bucket has had its quantum for the current turn (ns-2 `turn`).
    turn: bool,
}

#[derive(Debug)]
pub struct Drr {
    limit: Limit,
    params: DrrParams,
    buckets: Vec<Bucket>,
    /// Active buckets in round order; the front is the one being served (ns-2 `curr`).
    round: VecDeque<usize>,
    packets: usize,
    bytes: u64,
    pushed_out: VecDeque<QueuedPacket>,
    drops: u64,
}

/// ns-2's bucket hash of a key (`DRR::hash` then `% buckets_`), in C's integer arithmetic.
pub fn ns2_bucket(key: u32, params: DrrParams) -> usize {
    let i = if params.mask { key & 0xfff0 } else { key } as i64;
    // C: (i + (i >> 8) + ~(i >> 4)) % ((2 << 23) - 1) + 1, with truncating `%`; ~x = -x - 1.
    let v = i + (i >> 8) + (-(i >> 4) - 1);
    let h = v % ((2i64 << 23) - 1) + 1;
    h.rem_euclid(params.buckets as i64) as usize
}

impl Drr {
    pub fn new(limit: Limit, params: DrrParams) -> Result<Self, String> {
        if params.quantum == 0 {
            return Err("quantum must be at least 1 byte".into());
        }
        if params.buckets == 0 {
            return Err("buckets must be at least 1".into());
        }
        let buckets = (0..params.buckets).map(|_| Bucket::default()).collect();
        Ok(Drr {
            limit,
            params,
            buckets,
            round: VecDeque::new(),
            packets: 0,
            bytes: 0,
            pushed_out: VecDeque::new(),
            drops: 0,
        })
    }

    /// Arrivals and waiting packets dropped so far.
    pub fn drops(&self) -> u64 {
        self.drops
    }

    fn over_limit(&self) -> bool {
        match self.limit {
            Limit::Packets(n) => self.packets as u64 > n,
            Limit::Bytes(n) => self.bytes > n,
        }
    }

    /// Position in the round of the bucket holding the most bytes: the first such from the
    /// current one on (ns-2 `getMaxflow`, strictly greater wins).
    fn longest(&self) -> usize {
        let mut best = 0;
        for (pos, &b) in self.round.iter().enumerate() {
            if self.buckets[b].bytes > self.buckets[self.round[best]].bytes {
                best = pos;
            }
        }
        best
    }
}

impl Queue for Drr {
    fn enqueue(&mut self, _now: Instant, p: QueuedPacket) -> Enqueue {
        let b = ns2_bucket(p.flow, self.params);
        let bucket = &mut self.buckets[b];
        bucket.packets.push_back(p);
        bucket.bytes += p.size_bytes as u64;
        self.packets += 1;
        self.bytes += p.size_bytes as u64;
        if bucket.packets.len() == 1 {
            // Joins the round just before the current bucket, i.e. last in this round. ns-2
            // resets the credit but not `turn` here.
            bucket.deficit = 0;
            self.round.push_back(b);
        }
        let mut arrival_dropped = false;
        while self.over_limit() {
            let pos = self.longest();
            let victim = &mut self.buckets[self.round[pos]];
            let q = victim.packets.pop_front().expect("active buckets hold packets");
            victim.bytes -= q.size_bytes as u64;
            let emptied = victim.packets.is_empty();
            self.packets -= 1;
            self.bytes -= q.size_bytes as u64;
            self.drops += 1;
            if emptied {
                self.round.remove(pos);
            }
            if q.id == p.id && !arrival_dropped {
                arrival_dropped = true;
            } else {
                self.pushed_out.push_back(q);
            }
        }
        if arrival_dropped {
            Enqueue::Dropped
        } else {
            Enqueue::Accepted
        }
    }

    fn dequeue(&mut self, _now: Instant) -> Option<QueuedPacket> {
        loop {
            let &b = self.round.front()?;
            let quantum = self.params.quantum as u64;
            let bucket = &mut self.buckets[b];
            if !bucket.turn {
                bucket.deficit += quantum;
                bucket.turn = true;
            }
            let head = bucket.packets.front().expect("active buckets hold packets").size_bytes as u64;
            if bucket.deficit >= head {
                bucket.deficit -= head;
                let p = bucket.packets.pop_front().expect("checked");
                bucket.bytes -= head;
                self.packets -= 1;
                self.bytes -= head;
                if bucket.packets.is_empty() {
                    bucket.turn = false;
                    bucket.deficit = 0;
                    self.round.pop_front();
                }
                return Some(p);
            }
            // Not enough credit: the turn passes to the next bucket, the credit carries over.
            bucket.turn = false;
            self.round.rotate_left(1);
        }
    }

    fn len_packets(&self) -> usize {
        self.packets
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }

    fn pop_pushed_out(&mut self) -> Option<QueuedPacket> {
        self.pushed_out.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Instant = Instant::ZERO;

    fn drr(limit: Limit) -> Drr {
        Drr::new(limit, DrrParams::default()).expect("valid")
    }

    #[test]
    fn the_hash_is_ns2s() {
        let p = DrrParams::default();
        // For keys below 16 the hash is the key itself: bucket = key mod 10.
        let got: Vec<usize> = (0..12).map(|k| ns2_bucket(k, p)).collect();
        assert_eq!(got, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1]);
        // 16: 16 + 0 + ~1 = 14, % (2^24-1) = 14, + 1 = 15 -> bucket 5.
        assert_eq!(ns2_bucket(16, p), 5);
        // mask clears the low 4 bits: keys 16..31 share one bucket.
        let m = DrrParams { mask: true, ..p };
        assert!((16..32).all(|k| ns2_bucket(k, m) == ns2_bucket(16, m)));
        assert_ne!(ns2_bucket(17, p), ns2_bucket(16, p));
    }

    /// `n` flows, flow i sending packets of `sizes[i]` bytes, kept backlogged; returns the bytes
    /// each flow got out of `total` dequeued bytes.
    fn share(sizes: &[u32], total: u64, limit: Limit) -> Vec<u64> {
        let mut q = drr(limit);
        let mut id = 0;
        let mut got = vec![0u64; sizes.len()];
        let mut waiting = vec![0usize; sizes.len()];
        let mut sent = 0;
        while sent < total {
            for (f, &s) in sizes.iter().enumerate() {
                while waiting[f] < 4 {
                    assert_eq!(q.enqueue(T, QueuedPacket { id, size_bytes: s, flow: f as u32 }), Enqueue::Accepted);
                    id += 1;
                    waiting[f] += 1;
                }
            }
            let p = q.dequeue(T).expect("backlogged");
            got[p.flow as usize] += p.size_bytes as u64;
            waiting[p.flow as usize] -= 1;
            sent += p.size_bytes as u64;
        }
        got
    }

    #[test]
    fn backlogged_flows_with_different_packet_sizes_get_equal_bytes() {
        let sizes = [40, 576, 1000, 1500, 333];
        let got = share(&sizes, 10_000_000, Limit::Packets(1000));
        let fair = got.iter().sum::<u64>() as f64 / sizes.len() as f64;
        for (f, &g) in got.iter().enumerate() {
            assert!((g as f64 / fair - 1.0).abs() < 0.02, "flow {f} ({} B packets): {g} vs fair {fair}", sizes[f]);
        }
        // A FIFO serving the same arrivals in turn would give bytes in proportion to packet size:
        // the smallest flow would get 40/3449 of the link, not a fifth.
        assert!(got[0] as f64 > 0.19 * got.iter().sum::<u64>() as f64);
    }

    #[test]
    fn a_flood_cannot_take_more_than_its_share_and_pushes_out_its_own_packets() {
        // Flow 0 floods (10 packets per departure); flows 1 and 2 keep 2 packets waiting.
        let mut q = drr(Limit::Bytes(25_000));
        let mut id = 0;
        let mut got = [0u64; 3];
        let mut waiting = [0usize; 3];
        let mut flood_drops = 0;
        for _ in 0..30_000 {
            for _ in 0..10 {
                q.enqueue(T, QueuedPacket { id, size_bytes: 1000, flow: 0 });
                id += 1;
            }
            for (f, w) in waiting.iter_mut().enumerate().skip(1) {
                while *w < 2 {
                    assert_eq!(q.enqueue(T, QueuedPacket { id, size_bytes: 500, flow: f as u32 }), Enqueue::Accepted);
                    id += 1;
                    *w += 1;
                }
            }
            while let Some(p) = q.pop_pushed_out() {
                assert_eq!(p.flow, 0, "only the longest (flooding) flow loses packets");
                flood_drops += 1;
            }
            let p = q.dequeue(T).expect("backlogged");
            got[p.flow as usize] += p.size_bytes as u64;
            if p.flow > 0 {
                waiting[p.flow as usize] -= 1;
            }
            assert!(q.len_bytes() <= 25_000);
        }
        let total: u64 = got.iter().sum();
        assert!(flood_drops > 0);
        for (f, &g) in got.iter().enumerate() {
            assert!((g as f64 / total as f64 - 1.0 / 3.0).abs() < 0.02 / 3.0, "flow {f}: {g} of {total}");
        }
    }

    #[test]
    fn the_arrival_is_dropped_when_its_own_flow_is_the_longest_and_it_was_alone() {
        let mut q = drr(Limit::Bytes(2000));
        assert_eq!(q.enqueue(T, QueuedPacket { id: 0, size_bytes: 1000, flow: 0 }), Enqueue::Accepted);
        assert_eq!(q.enqueue(T, QueuedPacket { id: 1, size_bytes: 900, flow: 1 }), Enqueue::Accepted);
        // Flow 2's 1500 B arrival makes it the longest bucket: it is the one dropped.
        assert_eq!(q.enqueue(T, QueuedPacket { id: 2, size_bytes: 1500, flow: 2 }), Enqueue::Dropped);
        assert_eq!(q.pop_pushed_out(), None);
        // Flow 0's second packet makes flow 0 the longest: its head (id 0) is pushed out.
        assert_eq!(q.enqueue(T, QueuedPacket { id: 3, size_bytes: 200, flow: 0 }), Enqueue::Accepted);
        assert_eq!(q.pop_pushed_out().map(|p| p.id), Some(0));
        assert_eq!((q.len_packets(), q.len_bytes(), q.drops()), (2, 1100, 2));
        let order: Vec<u32> = std::iter::from_fn(|| q.dequeue(T)).map(|p| p.id).collect();
        assert_eq!(order, [3, 1]);
        assert_eq!((q.len_packets(), q.len_bytes()), (0, 0));
    }

    #[test]
    fn a_bucket_sends_while_its_credit_lasts_and_keeps_the_rest() {
        let mut q = Drr::new(Limit::Packets(100), DrrParams { quantum: 1000, ..DrrParams::default() }).unwrap();
        for (id, (flow, size)) in [(0, 400), (0, 400), (0, 400), (1, 1500), (1, 100)].into_iter().enumerate() {
            q.enqueue(T, QueuedPacket { id: id as u32, size_bytes: size, flow });
        }
        let order: Vec<u32> = std::iter::from_fn(|| q.dequeue(T)).map(|p| p.id).collect();
        // Flow 0: 1000 credit sends two 400 B packets (200 left); flow 1: 1000 < 1500, passes;
        // flow 0: 1200 sends its last; flow 1: 2000 sends both.
        assert_eq!(order, [0, 1, 2, 3, 4]);
        assert!(Drr::new(Limit::Packets(1), DrrParams { quantum: 0, ..DrrParams::default() }).is_err());
        assert!(Drr::new(Limit::Packets(1), DrrParams { buckets: 0, ..DrrParams::default() }).is_err());
    }
}
