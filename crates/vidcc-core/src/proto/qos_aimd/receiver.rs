//! The QoS-AIMD receiver (paper §II-A/B, docs/papers/qos-aimd.md §3.2).
//!
//! - It keeps the status of the newest rwnd + |sackvec| + 1 sequence numbers (a ring bitmap),
//!   numbers unwrapped from 24 bits against the largest one received ("largest" in circular
//!   sequence space, RFC 1982 serial arithmetic; 2^23 behind counts as behind).
//! - A packet whose number is below (largest − rwnd) is discarded **without an ack** [P].
//!   Every other packet is buffered (handed to the application at once, counted in
//!   `app_bytes_delivered` unless it is a duplicate) and acked.
//! - An ack names the packet that triggered it (`ack_a`) and reports the |sackvec| numbers
//!   below it, bit i = packet ack_a − i received [I: "ack_a identifies the packet with a valid
//!   sequence number received"; the alternative DCCP reading, ack_a = the largest received, is
//!   not offered]. Duplicates are acked again (acks are redundant anyway).
//! - One ack per packet by default [P]; with `ack_ratio` = k > 1, one ack per k packets, or
//!   `ack_delay_ns` after the first unacked one, naming the latest arrival.
//! - Acks carry rwnd and are padded to `ack_size_bytes` on the wire. Nothing acks the acks and
//!   acks are never retransmitted [P].

use std::collections::VecDeque;

use super::config::QosAimdConfig;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, PacketMeta, Transmit};
use crate::wire::qos_aimd::{AckHeader, Packet, SackVec, DATA_HEADER_BYTES, SEQ_MASK, SEQ_MODULUS};
use crate::wire::WireError;
use crate::{Duration, Instant};

/// Acks waiting for `poll_transmit` beyond this are dropped, oldest first (they are redundant).
const ACK_QUEUE_CAPACITY: usize = 64;

/// Counters for tests and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReceiverCounters {
    pub packets_received: u64,
    /// Below (largest − rwnd): dropped without an ack.
    pub discarded_old: u64,
    pub duplicates: u64,
    pub acks_sent: u64,
    /// Acks dropped because the driver did not poll them in time.
    pub acks_dropped: u64,
}

/// The QoS-AIMD receiver.
pub struct QosAimdReceiver {
    rwnd: u32,
    sackvec_bits: u16,
    ack_ratio: u32,
    ack_delay: Duration,
    ack_size_bytes: u32,
    /// Largest extended number received.
    largest: Option<u64>,
    /// Ring bitmap of received numbers in (largest − capacity, largest].
    bits: Vec<u64>,
    capacity: u64,
    /// Packets received since the last ack, and the latest of them.
    unacked: u32,
    latest: u64,
    ack_deadline: Option<Instant>,
    acks: VecDeque<AckHeader>,
    counters: ReceiverCounters,
    stats: EndpointStats,
}

impl QosAimdReceiver {
    pub fn new(config: &QosAimdConfig) -> Self {
        // rwnd + |sackvec| + 1 statuses [P], rounded up to whole words.
        let needed = config.rwnd_packets as u64 + config.sackvec_bits as u64 + 1;
        let words = needed.div_ceil(64) as usize;
        QosAimdReceiver {
            rwnd: config.rwnd_packets,
            sackvec_bits: config.sackvec_bits,
            ack_ratio: config.ack_ratio.max(1),
            ack_delay: Duration::from_nanos(config.ack_delay_ns),
            ack_size_bytes: config.ack_size_bytes,
            largest: None,
            bits: vec![0; words],
            capacity: words as u64 * 64,
            unacked: 0,
            latest: 0,
            ack_deadline: None,
            acks: VecDeque::with_capacity(ACK_QUEUE_CAPACITY),
            counters: ReceiverCounters::default(),
            stats: EndpointStats::default(),
        }
    }

    pub fn counters(&self) -> ReceiverCounters {
        self.counters
    }

    /// Largest number received, in the receiver's extended numbering (the first packet's 24-bit
    /// number plus 2^24).
    pub fn largest(&self) -> Option<u64> {
        self.largest
    }

    fn bit(&self, ext: u64) -> bool {
        let k = ext % self.capacity;
        self.bits[(k / 64) as usize] & (1 << (k % 64)) != 0
    }

    fn set_bit(&mut self, ext: u64, v: bool) {
        let k = ext % self.capacity;
        let w = &mut self.bits[(k / 64) as usize];
        if v {
            *w |= 1 << (k % 64);
        } else {
            *w &= !(1 << (k % 64));
        }
    }

    /// Whether `ext` was received, as far as the window of statuses remembers.
    pub fn received(&self, ext: u64) -> bool {
        match self.largest {
            Some(l) => ext <= l && ext + self.capacity > l && self.bit(ext),
            None => false,
        }
    }

    /// Extended number of a 24-bit `seq`, relative to the largest received.
    fn extend(&self, seq: u32) -> u64 {
        match self.largest {
            // Start in the second cycle so that numbers up to 2^23 behind stay representable.
            None => SEQ_MODULUS as u64 + seq as u64,
            Some(l) => {
                let d = seq.wrapping_sub(l as u32) & SEQ_MASK;
                if d < SEQ_MODULUS / 2 {
                    l + d as u64
                } else {
                    l.saturating_sub((SEQ_MODULUS - d) as u64)
                }
            }
        }
    }

    fn on_data(&mut self, now: Instant, seq: u32, payload: u64) {
        self.counters.packets_received += 1;
        let ext = self.extend(seq);
        match self.largest {
            Some(l) if ext > l => {
                // Forget the statuses that fall out of the ring, then record the new largest.
                let clear = (ext - l).min(self.capacity);
                for s in (ext - clear + 1)..=ext {
                    self.set_bit(s, false);
                }
                self.largest = Some(ext);
            }
            Some(l) => {
                // "sequence number less than the largest minus rwnd": discarded, no ack [P].
                if ext + (self.rwnd as u64) < l {
                    self.counters.discarded_old += 1;
                    return;
                }
            }
            None => self.largest = Some(ext),
        }
        if self.bit(ext) {
            self.counters.duplicates += 1;
        } else {
            self.set_bit(ext, true);
            self.stats.app_packets_delivered += 1;
            self.stats.app_bytes_delivered += payload;
        }
        self.unacked += 1;
        self.latest = ext;
        if self.unacked >= self.ack_ratio {
            self.queue_ack();
        } else if self.ack_deadline.is_none() {
            self.ack_deadline = Some(now + self.ack_delay);
        }
    }

    fn queue_ack(&mut self) {
        let a = self.latest;
        let mut v = SackVec::new(self.sackvec_bits);
        for i in 1..=self.sackvec_bits {
            match a.checked_sub(i as u64) {
                Some(s) => v.set(i, self.received(s)),
                None => break,
            }
        }
        if self.acks.len() == ACK_QUEUE_CAPACITY {
            self.acks.pop_front();
            self.counters.acks_dropped += 1;
        }
        let rwnd = self.rwnd.min(u16::MAX as u32) as u16;
        self.acks.push_back(AckHeader { rwnd, ack_a: a as u32 & SEQ_MASK, sackvec: v });
        self.unacked = 0;
        self.ack_deadline = None;
    }
}

impl Endpoint for QosAimdReceiver {
    fn handle_datagram(&mut self, now: Instant, datagram: Datagram<'_>) -> Result<(), WireError> {
        match Packet::parse(datagram.bytes) {
            Ok(Packet::Data(h)) => {
                let payload = datagram.wire_size().saturating_sub(DATA_HEADER_BYTES) as u64;
                self.on_data(now, h.seq, payload);
                Ok(())
            }
            Ok(Packet::Ack(_)) => {
                self.stats.malformed_datagrams += 1;
                Err(WireError::Inconsistent("ack sent to a qos-aimd receiver"))
            }
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                Err(e)
            }
        }
    }

    fn handle_timeout(&mut self, now: Instant) {
        if self.ack_deadline.is_some_and(|d| now >= d) {
            if self.unacked > 0 {
                self.queue_ack();
            }
            self.ack_deadline = None;
        }
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        let ack = self.acks.pop_front()?;
        self.counters.acks_sent += 1;
        let header = ack.emit();
        let payload_len = self.ack_size_bytes.saturating_sub(header.len() as u32);
        Some(Transmit { to: Destination::PEER, header, payload_len, meta: PacketMeta::control() })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        self.ack_deadline
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
