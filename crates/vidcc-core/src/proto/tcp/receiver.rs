//! The TCP receiver: ns-2 `Agent/TCPSink` (tcp-sink.cc), optionally with `DelAckSink`'s
//! delayed ACKs.
//!
//! - Every data segment is answered with a cumulative ACK carrying the next segment expected
//!   (`rcv_nxt`) and an echo of the segment's send timestamp (ns-2 echoes the segment that
//!   triggered the ACK, `ts_echo_rfc1323_ 0`).
//! - Out-of-order segments are buffered and delivered once the gap is filled; duplicates are
//!   acknowledged again but never delivered twice. `app_bytes_delivered` counts payload bytes
//!   handed up in order (payload = wire size − 40).
//! - Delayed ACK (ns-2 `DelAckSink`, RFC 5681 §4.2): an in-order segment with no ACK pending
//!   starts a 100 ms timer (ns-2 `interval_`) instead of being acknowledged; the next segment,
//!   or the timer, sends one ACK for both. Out-of-order segments, duplicates and segments that
//!   fill a gap are acknowledged at once (ns-2 `RFC2581_immediate_ack_ 1`).
//!
//! - SACK ([`TcpReceiver::with_sack`], `tcp-sack`; RFC 2018 as ns-2's `TCPSink/Sack1`): every
//!   ACK sent while segments wait above a hole carries up to 3 blocks, most recent first: the
//!   block holding the segment that triggered the ACK, then the blocks of the segments that
//!   triggered earlier ACKs (ns-2 keeps them on a stack), each reported as the whole contiguous
//!   run it now belongs to, a block already listed or now below `rcv_nxt` skipped.
//!
//! Parameters: `delayed_ack` [false] from [`super::config::TcpConfig`]; the reassembly buffer
//! holds `buffer_segments` segments past `rcv_nxt` (the pair uses the sender's window limit,
//! which the sender can never exceed). Deviations: none intended; a segment beyond the buffer
//! (impossible with the paired sender) is discarded and answered with a duplicate ACK.

use std::collections::VecDeque;

use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, PacketMeta, Transmit};
use crate::wire::WireError;
use crate::{Duration, Instant};

use super::header::{SackBlocks, TcpHeader, HEADER_BYTES, MAX_SACK_BLOCKS};

/// ns-2 `Agent/TCPSink/DelAck interval_`.
pub const DELAYED_ACK_INTERVAL: Duration = Duration::from_millis(100);
/// ACKs kept for a driver that polls late (oldest dropped beyond: they are cumulative).
const ACK_QUEUE_CAPACITY: usize = 64;

/// An ACK waiting to be sent: the cumulative ACK and the timestamp to echo.
#[derive(Clone, Copy, Debug)]
struct PendingAck {
    ack: u64,
    ts_echo_ns: u64,
    sack: SackBlocks,
}

/// Segments whose blocks earlier ACKs reported, most recent first (ns-2's SACK stack).
const SACK_HISTORY: usize = 8;

pub struct TcpReceiver {
    delayed_ack: bool,
    /// Next segment expected in order.
    rcv_nxt: u64,
    /// Highest segment seen, to recognise gap-filling segments.
    highest_seen: Option<u64>,
    /// Reassembly ring indexed by `seq % len`: payload bytes of buffered out-of-order segments.
    buffer: Vec<Option<u32>>,
    /// `ts` of the latest data segment: the value to echo.
    last_ts_ns: u64,
    /// Sequence number of the latest data segment (the trigger of a delayed ACK).
    last_seq: u64,
    acks: VecDeque<PendingAck>,
    delayed_ack_deadline: Option<Instant>,
    acks_sent: u64,
    /// SACK on, and the out-of-order segments that triggered the latest ACKs.
    sack: bool,
    sack_history: VecDeque<u64>,
    stats: EndpointStats,
}

impl TcpReceiver {
    pub fn new(delayed_ack: bool, buffer_segments: u64) -> Self {
        let len = buffer_segments.clamp(1, 1 << 20) as usize;
        TcpReceiver {
            delayed_ack,
            rcv_nxt: 0,
            highest_seen: None,
            buffer: vec![None; len],
            last_ts_ns: 0,
            last_seq: 0,
            acks: VecDeque::with_capacity(ACK_QUEUE_CAPACITY),
            delayed_ack_deadline: None,
            acks_sent: 0,
            sack: false,
            sack_history: VecDeque::new(),
            stats: EndpointStats::default(),
        }
    }

    /// A receiver that reports SACK blocks (RFC 2018), as ns-2's `TCPSink/Sack1`.
    pub fn with_sack(mut self) -> Self {
        self.sack = true;
        self
    }

    /// The contiguous run of buffered segments holding `seq` (> `rcv_nxt`), if `seq` is buffered.
    fn run_of(&self, seq: u64) -> Option<(u64, u64)> {
        let len = self.buffer.len() as u64;
        let held = |q: u64| q > self.rcv_nxt && q - self.rcv_nxt < len && self.buffer[(q % len) as usize].is_some();
        if !held(seq) {
            return None;
        }
        let (mut l, mut r) = (seq, seq + 1);
        while held(l - 1) {
            l -= 1;
        }
        while held(r) {
            r += 1;
        }
        Some((l, r))
    }

    /// RFC 2018 §4 blocks for an ACK triggered by `seq`: its block first, then the most recent
    /// earlier ones that still stand above `rcv_nxt`.
    fn sack_blocks(&mut self, seq: u64) -> SackBlocks {
        let mut out = SackBlocks::EMPTY;
        if !self.sack {
            return out;
        }
        if self.run_of(seq).is_some() {
            self.sack_history.retain(|&q| q != seq);
            self.sack_history.push_front(seq);
            self.sack_history.truncate(SACK_HISTORY);
        }
        let mut kept = VecDeque::with_capacity(SACK_HISTORY);
        for &q in &self.sack_history {
            let Some((l, r)) = self.run_of(q) else { continue };
            if out.iter().any(|b| b == (l, r)) {
                continue;
            }
            kept.push_back(q);
            if out.len() < MAX_SACK_BLOCKS {
                out.push(l, r);
            }
        }
        self.sack_history = kept;
        out
    }

    /// Next segment expected: the cumulative ACK value.
    pub fn rcv_nxt(&self) -> u64 {
        self.rcv_nxt
    }

    pub fn acks_sent(&self) -> u64 {
        self.acks_sent
    }

    fn slot(&mut self, seq: u64) -> &mut Option<u32> {
        let i = (seq % self.buffer.len() as u64) as usize;
        &mut self.buffer[i]
    }

    fn deliver(&mut self, payload_bytes: u32) {
        self.stats.app_packets_delivered += 1;
        self.stats.app_bytes_delivered += payload_bytes as u64;
    }

    fn queue_ack(&mut self, trigger: u64) {
        if self.acks.len() == ACK_QUEUE_CAPACITY {
            self.acks.pop_front();
        }
        let sack = self.sack_blocks(trigger);
        self.acks.push_back(PendingAck { ack: self.rcv_nxt, ts_echo_ns: self.last_ts_ns, sack });
    }

    fn on_segment(&mut self, now: Instant, seq: u64, ts_ns: u64, payload_bytes: u32) {
        self.last_ts_ns = ts_ns;
        let in_order = seq == self.rcv_nxt;
        let fills_gap = in_order && self.highest_seen.is_some_and(|h| h > seq);
        if in_order {
            *self.slot(seq) = None;
            self.deliver(payload_bytes);
            self.rcv_nxt += 1;
            let mut next = self.rcv_nxt;
            while let Some(bytes) = self.slot(next).take() {
                self.deliver(bytes);
                next += 1;
            }
            self.rcv_nxt = next;
        } else if seq > self.rcv_nxt && seq - self.rcv_nxt < self.buffer.len() as u64 {
            let slot = self.slot(seq);
            if slot.is_none() {
                *slot = Some(payload_bytes);
            }
        }
        self.highest_seen = Some(self.highest_seen.map_or(seq, |h| h.max(seq)));

        self.last_seq = seq;
        if !self.delayed_ack {
            self.queue_ack(seq);
        } else if in_order && !fills_gap && self.delayed_ack_deadline.is_none() {
            self.delayed_ack_deadline = Some(now + DELAYED_ACK_INTERVAL);
        } else {
            self.delayed_ack_deadline = None;
            self.queue_ack(seq);
        }
    }
}

impl Endpoint for TcpReceiver {
    fn handle_datagram(&mut self, now: Instant, datagram: Datagram<'_>) -> Result<(), WireError> {
        match TcpHeader::parse(datagram.bytes) {
            Ok(TcpHeader::Data { seq, ts_ns }) => {
                let payload = datagram.wire_size().saturating_sub(HEADER_BYTES);
                self.on_segment(now, seq, ts_ns, payload.min(u32::MAX as usize) as u32);
                Ok(())
            }
            Ok(TcpHeader::Ack { .. }) => {
                self.stats.malformed_datagrams += 1;
                Err(WireError::Inconsistent("ACK sent to a one-way TCP receiver"))
            }
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                Err(e)
            }
        }
    }

    fn handle_timeout(&mut self, now: Instant) {
        if self.delayed_ack_deadline.is_some_and(|d| now >= d) {
            self.delayed_ack_deadline = None;
            self.queue_ack(self.last_seq);
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        let a = self.acks.pop_front()?;
        self.acks_sent += 1;
        let header =
            TcpHeader::Ack { ack: a.ack, ts_ns: now.as_nanos(), ts_echo_ns: a.ts_echo_ns, sack: a.sack }.emit();
        let meta = PacketMeta { seq: a.ack, ..PacketMeta::control() };
        Some(Transmit { to: Destination::PEER, header, payload_len: 0, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        self.delayed_ack_deadline
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
