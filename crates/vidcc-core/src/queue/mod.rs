//! Router queues, one per link direction: `drop_tail.rs`, `red.rs` and the per-flow fair
//! schedulers `drr.rs` (byte-fair) and `sfq.rs` (packet-fair).
//!
//! A queue holds packet ids and sizes (packets themselves live in the driver's store: the simulator's arena, the relay's buffers). It
//! counts the packets *waiting*, not the one being serialised on the link, as ns-2 does.

pub mod drop_tail;
pub mod drr;
pub mod red;
pub mod sfq;

use crate::Instant;

/// Index of a packet in the driver's store.
pub type PacketId = u32;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedPacket {
    pub id: PacketId,
    pub size_bytes: u32,
    /// The driver's flow key (the simulator's flow instance), which fair queues schedule by;
    /// FIFO queues ignore it.
    pub flow: u32,
}

/// What happened to an arriving packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueue {
    Accepted,
    /// The arriving packet was dropped (tail drop or an early drop).
    Dropped,
}

/// Capacity of a queue: in packets or in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Packets(u64),
    Bytes(u64),
}

impl Limit {
    /// Would a queue holding `pkts` packets and `bytes` bytes overflow by adding `size` bytes?
    pub fn overflows(&self, pkts: usize, bytes: u64, size: u32) -> bool {
        match *self {
            Limit::Packets(n) => pkts as u64 + 1 > n,
            Limit::Bytes(n) => bytes + size as u64 > n,
        }
    }
}

pub trait Queue: Send {
    fn enqueue(&mut self, now: Instant, p: QueuedPacket) -> Enqueue;
    fn dequeue(&mut self, now: Instant) -> Option<QueuedPacket>;
    fn len_packets(&self) -> usize;
    fn len_bytes(&self) -> u64;
    /// RED's average queue (in packets, or bytes in byte mode); `None` for queues without one.
    fn average(&self) -> Option<f64> {
        None
    }
    /// A packet that was already waiting and that the last [`Queue::enqueue`] dropped to make
    /// room (DRR drops from its longest flow, as ns-2 does); drain after every enqueue. FIFO
    /// queues only ever drop the arrival and return `None`.
    fn pop_pushed_out(&mut self) -> Option<QueuedPacket> {
        None
    }
}
