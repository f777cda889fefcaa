//! The sender-side buffer between the video source and a rate-controlled transport.
//!
//! When the video produces packets faster than the congestion controller lets them out (a
//! non-adaptive stream over TFRC or TCP Westwood+, or a layered sender between two layer
//! changes), the packets wait here. The buffer is bounded in both time and space:
//!
//! * every packet carries a deadline `ready_at + max_age` (its frame's ready time plus a
//!   configured maximum age); a packet still queued after its deadline is useless to the
//!   receiver and is dropped instead of sent ([`SenderBuffer::pop`] drops expired packets before
//!   it returns one);
//! * when a new packet would exceed the limit in packets or bytes, packets are dropped to make
//!   room according to a [`DropPolicy`]. The default, [`DropPolicy::HighestLayerFirst`], gives
//!   up "lowest layer last": the packet of the highest layer goes first, so enhancement layers go
//!   before the base layer, and among packets of that layer the oldest goes first.
//!
//! Sources: issue 4 ("a bounded queue that drops frames past their deadline, lowest layer last
//! (configurable)"); docs/papers/dvrc.md §6 U10 says the papers leave this policy
//! open, and docs/papers/ssvp.md A-LA-6 says deficits hit the top layer first. The
//! counts here let a run report sender drops, which the delivery metrics count as lost
//! (VDI/PDR denominators are packets *sent by the application*, docs/papers/dvrc.md §4).
//!
//! Parameters ([`SenderBufferConfig::default`], all [D]):
//! * `max_age` = 1 s: the default receiver startup delay (see `playout.rs`); a packet older than
//!   this cannot make any deadline the default playout buffer sets;
//! * `max_packets` = 1000 packets (1 MB of 1000 B packets, 8 s at 1 Mbit/s);
//! * `max_bytes` = unlimited (`u64::MAX`);
//! * `policy` = [`DropPolicy::HighestLayerFirst`].
//!
//! Rules where the sources are silent:
//! * A packet expires when `now > deadline`: the deadline instant itself may still be sent.
//! * Packets leave in arrival (FIFO) order across all layers; the policy only decides what to drop.
//! * Overflow drops expired packets first (whatever their position); only then the policy.
//! * The pushed packet is itself a candidate victim: with `HighestLayerFirst` an incoming
//!   enhancement packet never evicts a queued packet of a lower layer; with `DropNewest` the
//!   incoming packet is the victim (tail drop). A packet larger than `max_bytes` is refused
//!   without evicting anything.
//! * Drops are per packet, not per frame. A frame that loses one packet is broken at the
//!   receiver either way, and packets of one frame and layer share a deadline and age, so
//!   deadline and `HighestLayerFirst` drops take them together anyway.

use std::collections::VecDeque;

use crate::media::frame::MediaTag;
use crate::media::report::{MediaLog, MediaReport};
use crate::time::{Duration, Instant};

/// Which packet to drop when the buffer is full.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DropPolicy {
    /// Drop the highest layer first (enhancement before base), oldest first within it.
    #[default]
    HighestLayerFirst,
    /// Drop the incoming packet (tail drop).
    DropNewest,
    /// Drop the oldest queued packet (head drop).
    DropOldest,
}

/// Limits and policy of a [`SenderBuffer`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderBufferConfig {
    /// A packet's deadline is its frame's ready time plus this.
    pub max_age: Duration,
    /// Most packets held at once.
    pub max_packets: usize,
    /// Most bytes held at once (`u64::MAX`: unlimited).
    pub max_bytes: u64,
    pub policy: DropPolicy,
}

impl Default for SenderBufferConfig {
    fn default() -> Self {
        SenderBufferConfig {
            max_age: Duration::from_secs(1),
            max_packets: 1000,
            max_bytes: u64::MAX,
            policy: DropPolicy::HighestLayerFirst,
        }
    }
}

/// A packet waiting in the buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferedPacket {
    pub tag: MediaTag,
    pub size_bytes: u32,
    /// Ready time of the packet's frame.
    pub ready_at: Instant,
    /// Last instant at which the packet may still be sent.
    pub deadline: Instant,
}

/// Drops of one layer, by reason.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerDrops {
    pub deadline: u64,
    pub overflow: u64,
}

/// Counters of a [`SenderBuffer`]. Always `pushed = popped + dropped_deadline + dropped_overflow + len`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SenderBufferStats {
    pub pushed: u64,
    pub popped: u64,
    pub dropped_deadline: u64,
    pub dropped_overflow: u64,
    pub dropped_deadline_bytes: u64,
    pub dropped_overflow_bytes: u64,
    /// Indexed by layer; as long as the highest layer that saw a drop, plus one.
    pub per_layer: Vec<LayerDrops>,
}

impl SenderBufferStats {
    /// Drops of `layer` (zero for a layer never dropped from).
    pub fn layer(&self, layer: u8) -> LayerDrops {
        self.per_layer.get(layer as usize).copied().unwrap_or_default()
    }
}

/// What became of a pushed packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PushOutcome {
    /// The packet is queued (false: dropped at once, expired or as the overflow victim).
    pub queued: bool,
    /// Queued packets dropped to make room or because they had expired.
    pub evicted: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DropReason {
    Deadline,
    Overflow,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Push order, for FIFO service across the per-layer queues.
    seq: u64,
    packet: BufferedPacket,
}

/// The bounded sender buffer (see the module docs).
#[derive(Clone, Debug)]
pub struct SenderBuffer {
    cfg: SenderBufferConfig,
    /// One FIFO per layer, indexed by layer, so the highest-layer victim is found in O(layers).
    layers: Vec<VecDeque<Entry>>,
    next_seq: u64,
    len: usize,
    bytes: u64,
    stats: SenderBufferStats,
    /// Every dropped packet, once enabled (`media/report.rs`).
    log: MediaLog,
}

impl SenderBuffer {
    pub fn new(cfg: SenderBufferConfig) -> Self {
        SenderBuffer {
            cfg,
            layers: Vec::new(),
            next_seq: 0,
            len: 0,
            bytes: 0,
            stats: SenderBufferStats::default(),
            log: MediaLog::default(),
        }
    }

    pub fn config(&self) -> &SenderBufferConfig {
        &self.cfg
    }

    /// Packets queued.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes queued.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    pub fn stats(&self) -> &SenderBufferStats {
        &self.stats
    }

    /// From now on, keep a [`MediaReport::Discarded`] per dropped packet for [`Self::poll_media`].
    pub fn enable_media_reports(&mut self) {
        self.log.enable();
    }
    pub fn poll_media(&mut self) -> Option<MediaReport> {
        self.log.pop()
    }

    /// Enqueues a packet of a frame that became ready at `ready_at`; drops expired packets
    /// and, if the packet does not fit, victims chosen by the policy.
    pub fn push(&mut self, now: Instant, tag: MediaTag, size_bytes: u32, ready_at: Instant) -> PushOutcome {
        self.stats.pushed += 1;
        let packet = BufferedPacket { tag, size_bytes, ready_at, deadline: ready_at + self.cfg.max_age };
        let mut evicted = 0u32;
        if now > packet.deadline {
            self.count_drop(&packet, DropReason::Deadline);
            return PushOutcome { queued: false, evicted };
        }
        // A packet that could never fit is refused without emptying the queue for nothing.
        if self.cfg.max_packets == 0 || size_bytes as u64 > self.cfg.max_bytes {
            self.count_drop(&packet, DropReason::Overflow);
            return PushOutcome { queued: false, evicted };
        }
        if !self.fits(size_bytes) {
            evicted += self.expire(now) as u32;
        }
        while !self.fits(size_bytes) {
            match self.victim(&packet) {
                // The incoming packet loses (or nothing queued could make room for it).
                None => {
                    self.count_drop(&packet, DropReason::Overflow);
                    return PushOutcome { queued: false, evicted };
                }
                Some(layer) => {
                    let entry = self.layers[layer].pop_front().expect("victim layer is non-empty");
                    self.remove_accounting(&entry.packet);
                    self.count_drop(&entry.packet, DropReason::Overflow);
                    evicted += 1;
                }
            }
        }
        let layer = tag.layer as usize;
        if self.layers.len() <= layer {
            self.layers.resize_with(layer + 1, VecDeque::new);
        }
        self.layers[layer].push_back(Entry { seq: self.next_seq, packet });
        self.next_seq += 1;
        self.len += 1;
        self.bytes += size_bytes as u64;
        PushOutcome { queued: true, evicted }
    }

    /// The next packet to send (oldest first), after dropping the expired packets ahead of it.
    pub fn pop(&mut self, now: Instant) -> Option<BufferedPacket> {
        while let Some(layer) = self.oldest_layer() {
            let entry = self.layers[layer].pop_front().expect("oldest layer is non-empty");
            self.remove_accounting(&entry.packet);
            if now > entry.packet.deadline {
                self.count_drop(&entry.packet, DropReason::Deadline);
                continue;
            }
            self.stats.popped += 1;
            return Some(entry.packet);
        }
        None
    }

    /// The packet [`pop`](Self::pop) would return at `now`, dropping expired packets ahead of it.
    pub fn peek(&mut self, now: Instant) -> Option<&BufferedPacket> {
        while let Some(layer) = self.oldest_layer() {
            let expired = now > self.layers[layer].front().expect("oldest layer is non-empty").packet.deadline;
            if !expired {
                return self.layers[layer].front().map(|e| &e.packet);
            }
            let entry = self.layers[layer].pop_front().expect("oldest layer is non-empty");
            self.remove_accounting(&entry.packet);
            self.count_drop(&entry.packet, DropReason::Deadline);
        }
        None
    }

    /// Drops every expired packet wherever it sits; returns how many.
    pub fn expire(&mut self, now: Instant) -> usize {
        let mut dropped = Vec::new();
        for queue in &mut self.layers {
            queue.retain(|e| {
                let keep = now <= e.packet.deadline;
                if !keep {
                    dropped.push(e.packet);
                }
                keep
            });
        }
        for p in &dropped {
            self.remove_accounting(p);
            self.count_drop(p, DropReason::Deadline);
        }
        dropped.len()
    }

    /// The earliest deadline among queued packets (a driver may wake then to expire them).
    pub fn next_deadline(&self) -> Option<Instant> {
        self.layers.iter().flat_map(|q| q.iter()).map(|e| e.packet.deadline).min()
    }

    fn fits(&self, size_bytes: u32) -> bool {
        self.len < self.cfg.max_packets && self.bytes.saturating_add(size_bytes as u64) <= self.cfg.max_bytes
    }

    /// The layer whose queue head leaves next (smallest push order).
    fn oldest_layer(&self) -> Option<usize> {
        self.layers.iter().enumerate().filter_map(|(i, q)| q.front().map(|e| (e.seq, i))).min().map(|(_, i)| i)
    }

    /// The layer whose head is the overflow victim, or `None` if the incoming packet is.
    fn victim(&self, incoming: &BufferedPacket) -> Option<usize> {
        match self.cfg.policy {
            DropPolicy::DropNewest => None,
            DropPolicy::DropOldest => self.oldest_layer(),
            DropPolicy::HighestLayerFirst => {
                let top = self.layers.iter().rposition(|q| !q.is_empty())?;
                // Equal layers: the queued packet is older than the incoming one, so it goes.
                if (incoming.tag.layer as usize) > top {
                    None
                } else {
                    Some(top)
                }
            }
        }
    }

    fn remove_accounting(&mut self, p: &BufferedPacket) {
        self.len -= 1;
        self.bytes -= p.size_bytes as u64;
    }

    fn count_drop(&mut self, p: &BufferedPacket, reason: DropReason) {
        self.log.push(MediaReport::Discarded(p.tag));
        let layer = p.tag.layer as usize;
        if self.stats.per_layer.len() <= layer {
            self.stats.per_layer.resize(layer + 1, LayerDrops::default());
        }
        let per_layer = &mut self.stats.per_layer[layer];
        match reason {
            DropReason::Deadline => {
                self.stats.dropped_deadline += 1;
                self.stats.dropped_deadline_bytes += p.size_bytes as u64;
                per_layer.deadline += 1;
            }
            DropReason::Overflow => {
                self.stats.dropped_overflow += 1;
                self.stats.dropped_overflow_bytes += p.size_bytes as u64;
                per_layer.overflow += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn ms(v: u64) -> Instant {
        Instant::from_nanos(v * 1_000_000)
    }

    fn tag(frame: u32, layer: u8, index: u16) -> MediaTag {
        MediaTag { frame, frame_type: 2, layer, index, count: 4 }
    }

    fn cfg(max_packets: usize, policy: DropPolicy) -> SenderBufferConfig {
        SenderBufferConfig { max_age: Duration::from_millis(100), max_packets, max_bytes: u64::MAX, policy }
    }

    fn ids(buf: &mut SenderBuffer, now: Instant) -> Vec<(u32, u8, u16)> {
        std::iter::from_fn(|| buf.pop(now)).map(|p| (p.tag.frame, p.tag.layer, p.tag.index)).collect()
    }

    #[test]
    fn fifo_across_layers() {
        let mut b = SenderBuffer::new(cfg(10, DropPolicy::HighestLayerFirst));
        b.push(ms(0), tag(0, 0, 0), 1000, ms(0));
        b.push(ms(0), tag(0, 1, 0), 500, ms(0));
        b.push(ms(0), tag(0, 0, 1), 1000, ms(0));
        assert_eq!((b.len(), b.bytes()), (3, 2500));
        assert_eq!(ids(&mut b, ms(1)), vec![(0, 0, 0), (0, 1, 0), (0, 0, 1)]);
        assert_eq!(b.stats().popped, 3);
    }

    #[test]
    fn highest_layer_first_drops_enhancement_then_oldest() {
        let mut b = SenderBuffer::new(cfg(3, DropPolicy::HighestLayerFirst));
        // queue: f0/L0, f0/L2, f1/L2 (full at 3)
        b.push(ms(0), tag(0, 0, 0), 1000, ms(0));
        b.push(ms(0), tag(0, 2, 0), 1000, ms(0));
        b.push(ms(1), tag(1, 2, 0), 1000, ms(1));
        // f1/L1 arrives: highest queued layer is 2 > 1, oldest of layer 2 is f0/L2 → dropped.
        let o = b.push(ms(1), tag(1, 1, 0), 1000, ms(1));
        assert_eq!(o, PushOutcome { queued: true, evicted: 1 });
        // f1/L2 (index 1) arrives: top layer 2 == incoming layer; the queued f1/L2/0 is older → dropped.
        let o = b.push(ms(1), tag(1, 2, 1), 1000, ms(1));
        assert_eq!(o, PushOutcome { queued: true, evicted: 1 });
        // f2/L3 arrives: layer 3 is above everything queued → the incoming packet is dropped.
        let o = b.push(ms(2), tag(2, 3, 0), 1000, ms(2));
        assert_eq!(o, PushOutcome { queued: false, evicted: 0 });
        assert_eq!(b.stats().dropped_overflow, 3);
        assert_eq!(b.stats().layer(2), LayerDrops { deadline: 0, overflow: 2 });
        assert_eq!(b.stats().layer(3), LayerDrops { deadline: 0, overflow: 1 });
        assert_eq!(b.stats().layer(0), LayerDrops::default());
        assert_eq!(ids(&mut b, ms(2)), vec![(0, 0, 0), (1, 1, 0), (1, 2, 1)]);
    }

    #[test]
    fn base_layer_goes_last() {
        let mut b = SenderBuffer::new(cfg(2, DropPolicy::HighestLayerFirst));
        b.push(ms(0), tag(0, 0, 0), 1000, ms(0));
        b.push(ms(0), tag(0, 0, 1), 1000, ms(0));
        // Only base packets queued: the oldest base packet makes room for the new one.
        b.push(ms(0), tag(1, 0, 0), 1000, ms(0));
        assert_eq!(ids(&mut b, ms(0)), vec![(0, 0, 1), (1, 0, 0)]);
        assert_eq!(b.stats().layer(0).overflow, 1);
    }

    #[test]
    fn drop_newest_and_drop_oldest() {
        let mut newest = SenderBuffer::new(cfg(2, DropPolicy::DropNewest));
        let mut oldest = SenderBuffer::new(cfg(2, DropPolicy::DropOldest));
        for b in [&mut newest, &mut oldest] {
            b.push(ms(0), tag(0, 1, 0), 1000, ms(0));
            b.push(ms(0), tag(0, 0, 0), 1000, ms(0));
            b.push(ms(0), tag(1, 0, 0), 1000, ms(0));
        }
        // DropNewest rejects f1 (tail drop); DropOldest drops f0/L1 although it is an enhancement layer
        // only because it is the oldest, and would drop a base packet just the same.
        assert_eq!(ids(&mut newest, ms(0)), vec![(0, 1, 0), (0, 0, 0)]);
        assert_eq!(ids(&mut oldest, ms(0)), vec![(0, 0, 0), (1, 0, 0)]);
        assert_eq!(newest.stats().layer(0).overflow, 1);
        assert_eq!(oldest.stats().layer(1).overflow, 1);
    }

    #[test]
    fn byte_limit() {
        let c = SenderBufferConfig { max_bytes: 2500, max_packets: 100, ..cfg(0, DropPolicy::DropOldest) };
        let mut b = SenderBuffer::new(c);
        b.push(ms(0), tag(0, 0, 0), 1000, ms(0));
        b.push(ms(0), tag(0, 0, 1), 1000, ms(0));
        // 2000 + 1000 > 2500 → drop the oldest (1000 B), then 1000 + 1000 fits.
        assert_eq!(b.push(ms(0), tag(0, 0, 2), 1000, ms(0)), PushOutcome { queued: true, evicted: 1 });
        assert_eq!(b.bytes(), 2000);
        // A packet larger than the whole buffer can never fit: it is refused, the queue kept.
        let o = b.push(ms(0), tag(1, 0, 0), 3000, ms(0));
        assert_eq!(o, PushOutcome { queued: false, evicted: 0 });
        assert_eq!((b.len(), b.stats().dropped_overflow_bytes), (2, 1000 + 3000));
    }

    #[test]
    fn deadlines() {
        // max_age 100 ms: frame ready at 0 may be sent until t = 100 ms inclusive.
        let mut b = SenderBuffer::new(cfg(10, DropPolicy::HighestLayerFirst));
        b.push(ms(0), tag(0, 0, 0), 1000, ms(0));
        b.push(ms(0), tag(0, 0, 1), 1000, ms(0));
        b.push(ms(40), tag(1, 0, 0), 1000, ms(40));
        assert_eq!(b.next_deadline(), Some(ms(100)));
        assert_eq!(b.pop(ms(100)).map(|p| p.tag.frame), Some(0));
        // At 101 ms f0/1 has expired; pop drops it and returns f1 (deadline 140 ms).
        assert_eq!(b.pop(ms(101)).map(|p| p.tag.frame), Some(1));
        assert_eq!(b.stats().dropped_deadline, 1);
        // Pushing an already expired packet drops it at once.
        assert_eq!(b.push(ms(300), tag(2, 1, 0), 700, ms(150)), PushOutcome { queued: false, evicted: 0 });
        assert_eq!(b.stats().layer(1).deadline, 1);
        assert_eq!(b.stats().dropped_deadline_bytes, 1700);
    }

    #[test]
    fn overflow_drops_expired_before_policy() {
        let mut b = SenderBuffer::new(cfg(2, DropPolicy::DropNewest));
        b.push(ms(0), tag(0, 0, 0), 1000, ms(0));
        b.push(ms(50), tag(1, 0, 0), 1000, ms(50));
        // At 120 ms f0 (deadline 100) has expired: it makes room, so DropNewest drops nothing.
        assert_eq!(b.push(ms(120), tag(2, 0, 0), 1000, ms(120)), PushOutcome { queued: true, evicted: 1 });
        assert_eq!((b.stats().dropped_deadline, b.stats().dropped_overflow), (1, 0));
        let mut p = b.clone();
        assert_eq!(p.peek(ms(120)).map(|x| x.tag.frame), Some(1));
        assert_eq!(p.peek(ms(151)).map(|x| x.tag.frame), Some(2));
        assert_eq!(p.stats().dropped_deadline, 2);
    }

    proptest! {
        #[test]
        fn counters_balance(ops in proptest::collection::vec((0u8..3, 0u8..4, 1u32..3000, 0u64..50), 1..200),
                            policy in 0u8..3, max_packets in 0usize..8, max_bytes in 0u64..10_000) {
            let policy = [DropPolicy::HighestLayerFirst, DropPolicy::DropNewest, DropPolicy::DropOldest][policy as usize];
            let c = SenderBufferConfig { max_age: Duration::from_millis(30), max_packets, max_bytes, policy };
            let mut b = SenderBuffer::new(c);
            let mut now = 0u64;
            for (i, &(op, layer, size, dt)) in ops.iter().enumerate() {
                now += dt;
                if op == 0 {
                    if let Some(p) = b.pop(ms(now)) {
                        prop_assert!(ms(now) <= p.deadline);
                    }
                } else {
                    b.push(ms(now), tag(i as u32, layer, 0), size, ms(now.saturating_sub(dt * (op as u64 - 1))));
                }
                prop_assert!(b.len() <= max_packets);
                prop_assert!(b.bytes() <= max_bytes);
                let s = b.stats();
                prop_assert_eq!(s.pushed, s.popped + s.dropped_deadline + s.dropped_overflow + b.len() as u64);
                let per_layer: u64 = s.per_layer.iter().map(|l| l.deadline + l.overflow).sum();
                prop_assert_eq!(per_layer, s.dropped_deadline + s.dropped_overflow);
            }
        }
    }
}
