//! `Sfq`: Stochastic Fairness Queueing (McKenney, INFOCOM 1990) as ns-2 `Queue/SFQ`
//! (`queue/sfq.cc`, Curtis Villamizar 1997).
//!
//! Arrivals are hashed into `buckets` FIFOs served round robin, **one packet** per bucket per
//! turn: SFQ is fair in packets, not bytes (flows of larger packets get more bytes; DRR,
//! `drr.rs`, is the byte-fair one). An arrival is dropped (never a waiting packet) when its
//! bucket already holds at least half of the room left in the shared buffer of `limit`
//! packets, or, with fewer than `buckets` places left, more than its fair share
//! `limit / buckets`, or when the buffer is full (ns-2 `SFQ::enque`).
//!
//! Parameters (ns-2 2.35 defaults): `limit` (`maxqueue_`, 40 packets), `buckets` (`buckets_`,
//! 16). Keying: ns-2 hashes `saddr + daddr` with `(k + (k >> 8) + ~(k >> 4)) % (2^20 − 1)` and
//! takes it modulo `buckets_`; here the same hash runs on the driver's flow key
//! ([`QueuedPacket::flow`]). Deviation: for a key whose hash is negative (key 0) C's `%` gives a
//! negative bucket index, which ns-2 uses unchecked; here it wraps (`rem_euclid`). The limit is
//! a packet count only, as ns-2's.

use std::collections::VecDeque;

use crate::Instant;

use super::{Enqueue, Queue, QueuedPacket};

/// ns-2 2.35 `Queue/SFQ` defaults.
pub const NS2_MAXQUEUE: u32 = 40;
pub const NS2_BUCKETS: u32 = 16;

#[derive(Debug)]
pub struct Sfq {
    limit: u32,
    buckets: Vec<VecDeque<QueuedPacket>>,
    /// Active buckets in round order; the front is served next (ns-2 `active`).
    round: VecDeque<usize>,
    packets: usize,
    bytes: u64,
    drops: u64,
}

/// ns-2's SFQ bucket of a key.
pub fn ns2_bucket(key: u32, buckets: u32) -> usize {
    let k = key as i64;
    let h = (k + (k >> 8) + (-(k >> 4) - 1)) % ((2i64 << 19) - 1);
    h.rem_euclid(buckets as i64) as usize
}

impl Sfq {
    pub fn new(limit_packets: u32, buckets: u32) -> Result<Self, String> {
        if limit_packets == 0 {
            return Err("limit must be at least 1 packet".into());
        }
        if buckets == 0 {
            return Err("buckets must be at least 1".into());
        }
        Ok(Sfq {
            limit: limit_packets,
            buckets: (0..buckets).map(|_| VecDeque::new()).collect(),
            round: VecDeque::new(),
            packets: 0,
            bytes: 0,
            drops: 0,
        })
    }

    /// Arrivals dropped so far.
    pub fn drops(&self) -> u64 {
        self.drops
    }
}

impl Queue for Sfq {
    fn enqueue(&mut self, _now: Instant, p: QueuedPacket) -> Enqueue {
        let n = self.buckets.len();
        let b = ns2_bucket(p.flow, n as u32);
        let used = self.buckets[b].len() as i64;
        let left = self.limit as i64 - self.packets as i64;
        let fairshare = (self.limit as usize / n) as i64;
        if used >= left >> 1 || (left < n as i64 && used > fairshare) || left <= 0 {
            self.drops += 1;
            return Enqueue::Dropped;
        }
        self.buckets[b].push_back(p);
        self.packets += 1;
        self.bytes += p.size_bytes as u64;
        if self.buckets[b].len() == 1 {
            // Joins the round just before the bucket served next: last in this round.
            self.round.push_back(b);
        }
        Enqueue::Accepted
    }

    fn dequeue(&mut self, _now: Instant) -> Option<QueuedPacket> {
        let b = self.round.pop_front()?;
        let p = self.buckets[b].pop_front().expect("active buckets hold packets");
        self.packets -= 1;
        self.bytes -= p.size_bytes as u64;
        if !self.buckets[b].is_empty() {
            self.round.push_back(b);
        }
        Some(p)
    }

    fn len_packets(&self) -> usize {
        self.packets
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: Instant = Instant::ZERO;

    #[test]
    fn buckets_follow_ns2s_hash() {
        // k − (k >> 4) − 1 + (k >> 8) for small keys: 0 → −1 (wrapped to the last bucket).
        let got: Vec<usize> = (0..4).map(|k| ns2_bucket(k, 16)).collect();
        assert_eq!(got, [15, 0, 1, 2]);
        assert_eq!(ns2_bucket(17, 16), 15); // 17 − 1 − 1 = 15
    }

    #[test]
    fn backlogged_flows_get_equal_packets_whatever_their_sizes() {
        let mut q = Sfq::new(NS2_MAXQUEUE, NS2_BUCKETS).unwrap();
        let sizes = [200u32, 1000, 1500];
        let (mut id, mut pkts, mut bytes) = (0, [0u64; 3], [0u64; 3]);
        for _ in 0..30_000 {
            for (f, &s) in sizes.iter().enumerate() {
                // Offer more than the queue takes: the drop rule keeps each flow's share.
                q.enqueue(T, QueuedPacket { id, size_bytes: s, flow: f as u32 + 1 });
                id += 1;
            }
            let p = q.dequeue(T).expect("backlogged");
            pkts[p.flow as usize - 1] += 1;
            bytes[p.flow as usize - 1] += p.size_bytes as u64;
            assert!(q.len_packets() <= NS2_MAXQUEUE as usize);
        }
        let total: u64 = pkts.iter().sum();
        for (f, &n) in pkts.iter().enumerate() {
            assert!((n as f64 / total as f64 - 1.0 / 3.0).abs() < 0.02 / 3.0, "flow {f}: {n} of {total} packets");
        }
        // Packet-fair, hence not byte-fair.
        assert!(bytes[2] > 5 * bytes[0]);
    }

    #[test]
    fn a_flood_only_loses_its_own_arrivals() {
        let mut q = Sfq::new(NS2_MAXQUEUE, NS2_BUCKETS).unwrap();
        let mut id = 0;
        let mut got = [0u64; 2];
        for _ in 0..10_000 {
            for _ in 0..10 {
                q.enqueue(T, QueuedPacket { id, size_bytes: 1000, flow: 1 });
                id += 1;
            }
            // The polite flow keeps one packet waiting and never loses it.
            if !q.round.iter().any(|&b| b == ns2_bucket(2, NS2_BUCKETS)) {
                assert_eq!(q.enqueue(T, QueuedPacket { id, size_bytes: 1000, flow: 2 }), Enqueue::Accepted);
                id += 1;
            }
            let p = q.dequeue(T).unwrap();
            got[p.flow as usize - 1] += 1;
        }
        assert!((got[0] as f64 / (got[0] + got[1]) as f64 - 0.5).abs() < 0.01, "{got:?}");
        assert!(q.drops() > 0);
        assert!(Sfq::new(0, 1).is_err() && Sfq::new(1, 0).is_err());
    }
}
