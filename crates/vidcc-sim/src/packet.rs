//! Packets in flight: an arena of [`Packet`]s that move between links by index, and the fates a
//! data packet can meet.

use vidcc_core::endpoint::HeaderBuf;
use vidcc_core::{Instant, PacketKind, PacketMeta};

use crate::topology::NodeId;

/// `Packet::tree` of a unicast packet.
pub const NO_TREE: u32 = u32::MAX;
/// `Packet::send` of a packet with no send record.
pub const NO_SEND: u32 = u32::MAX;

/// Index of a packet in the [`PacketArena`].
pub type PacketId = u32;

/// Index of an endpoint in the simulation: a flow's sender, then its receivers, flow by flow.
pub type EndpointId = u32;

/// Index of a receiver over the whole run (flow by flow, receivers in order): its row in the
/// per-receiver tables (`flows`, `flow_summary`, `flow_samples`, `frames`, `video_summary`).
pub type ReceiverRow = u32;

/// Why the network dropped a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DropReason {
    /// The queue of a link refused it (DropTail overflow, a RED drop).
    Queue,
    /// The link's loss model destroyed it (after any link-level retransmissions).
    Loss,
}

/// What became of a data packet, as the packet log reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacketFate {
    /// Still in the network when the run ended.
    InFlight,
    Delivered,
    Dropped(DropReason),
}

impl PacketFate {
    /// The name written in the `fate` column of the `packets` table.
    pub fn name(self) -> &'static str {
        match self {
            PacketFate::InFlight => "in_flight",
            PacketFate::Delivered => "delivered",
            PacketFate::Dropped(DropReason::Queue) => "queue",
            PacketFate::Dropped(DropReason::Loss) => "loss",
        }
    }
}

/// Rows a recorder keeps for a packet, so that its arrival or drop finds them again.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordRows {
    /// Row in the packet log, if the log is on.
    pub packet_log: Option<u32>,
    /// Row in its receiver's video record, for media packets of video flows.
    pub media: Option<u32>,
}

#[derive(Clone)]
pub struct Packet {
    pub flow: u32,
    /// Sending and receiving endpoints.
    pub from: EndpointId,
    pub to: EndpointId,
    /// The node of `to`, where forwarding ends (`forward::GROUP_DST`: it follows its group's tree).
    pub dst: NodeId,
    /// The receiver this packet travels to or from (its metrics row; a sender's group packet
    /// has a row per member instead, in its send record).
    pub receiver: ReceiverRow,
    /// The group's tree of a group packet (`NO_TREE` for unicast). A receiver's group packet
    /// travels to the sender's node first, then down the tree.
    pub tree: u32,
    /// A group data packet's record of the receivers it counts for (`NO_SEND` if none).
    pub send: u32,
    /// True for packets from the flow's sender to a receiver.
    pub to_receiver: bool,
    pub size: u32,
    pub payload_len: u32,
    pub header: HeaderBuf,
    pub meta: PacketMeta,
    pub sent_at: Instant,
    pub rows: RecordRows,
}

impl Packet {
    /// Application data travelling sender → receiver: what throughput, delay and drops count.
    pub fn is_forward_data(&self) -> bool {
        self.to_receiver && self.meta.kind == PacketKind::Data
    }
}

/// Packets live here and move by index; freed slots are reused.
#[derive(Default)]
pub struct PacketArena {
    packets: Vec<Packet>,
    free: Vec<PacketId>,
}

impl PacketArena {
    pub fn with_capacity(n: usize) -> Self {
        PacketArena { packets: Vec::with_capacity(n), free: Vec::new() }
    }

    pub fn insert(&mut self, p: Packet) -> PacketId {
        match self.free.pop() {
            Some(id) => {
                self.packets[id as usize] = p;
                id
            }
            None => {
                self.packets.push(p);
                (self.packets.len() - 1) as PacketId
            }
        }
    }

    /// Marks a packet's slot reusable. Its contents stay readable until the next insert.
    pub fn release(&mut self, id: PacketId) {
        self.free.push(id);
    }

    pub fn get(&self, id: PacketId) -> &Packet {
        &self.packets[id as usize]
    }
}
