//! Forwarding: directed links with their queues, loss models and link-level ARQ, and hop-by-hop
//! routing of packets towards their destination node.
//!
//! Per packet-hop the cost is one event when the link is idle (arrival at the far end after
//! serialisation + propagation) and two when it is busy (plus the end of serialisation that
//! starts the next packet); a link keeps only its earliest arrival in the heap (`in_flight`). A
//! packet is enqueued even on an idle link, so that RED sees every
//! arrival. Loss models decide when serialisation starts; a lost packet still occupies the link.
//!
//! Forwarding knows nothing of endpoints or metrics: each step returns what became of the packet
//! ([`Hop`]) and the engine acts on it. A group's packet stops at every node of its tree
//! ([`Hop::Branch`]): the engine copies it onto the tree's links there ([`Fabric::send_on`]).

use std::collections::VecDeque;
use vidcc_core::{DataRate, DataSize, Duration, Instant};

use crate::packet::{DropReason, PacketArena, PacketId};
use crate::queue::{Enqueue, Limit, Queue, QueuedPacket};
use crate::routing::Routes;
use crate::scheduler::Scheduler;
use crate::topology::{LinkId, NodeId};

/// The engine's events that forwarding schedules.
#[derive(Clone, Copy, Debug)]
pub enum LinkEvent {
    /// The earliest packet in flight on a link reaches its far end (`LinkState::in_flight`).
    Arrive { link: LinkId },
    /// A link finished serialising; it may start the next queued packet.
    TxDone { link: LinkId },
}

/// What a forwarding step did with a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hop {
    /// Still travelling (queued, on a link, or scheduled to arrive).
    Moving,
    /// Reached its destination node: hand it to the endpoint.
    Arrived(PacketId),
    /// Dropped on this link.
    Dropped(PacketId, DropReason, LinkId),
    /// A group's packet reached this node of its tree: the engine delivers it to the members
    /// there and copies it onwards.
    Branch(PacketId, NodeId),
}

/// The destination of a packet that follows its group's tree.
pub const GROUP_DST: NodeId = NodeId::MAX;

/// A "persistent" ARQ retries until success; a channel that never recovers (a bad state with
/// certain loss and no way out) would hang the run, so it gives up after this many attempts and
/// the packet counts as lost.
pub const PERSISTENT_ARQ_ATTEMPTS: u32 = 1 << 16;

/// One direction of a link and its counters.
pub struct LinkState {
    pub to: NodeId,
    pub bandwidth: DataRate,
    pub delay: Duration,
    pub queue: Box<dyn Queue>,
    pub loss: Option<Box<dyn crate::loss::LossModel>>,
    /// Most transmission attempts per packet (1: no link-level ARQ).
    pub max_attempts: u32,
    /// Silent slots after a failed attempt (the "optimal" ARQ; 0: retry in the next slot).
    pub pause_slots: u32,
    pub busy_until: Instant,
    /// A `TxDone` event is pending for this link.
    pub tx_pending: bool,
    /// Packets propagating on the link, earliest first: (arrival, reserved event sequence, packet).
    /// Arrivals on one link come due in the order they were sent, so only the first has an
    /// `Arrive` event in the scheduler; the next one's is entered when it pops (same key as if
    /// it had been scheduled at once: see `Scheduler::reserve`).
    pub in_flight: VecDeque<(Instant, u64, PacketId)>,
    /// The last packet size serialised here and its transmission time.
    pub last_tx: (u32, Duration),
    pub limit: Limit,
    /// Forward direction of a monitored link: its packets count in `RunStats::bottleneck_packets`.
    pub counts_as_bottleneck: bool,
    pub delivered: u64,
    pub dropped_queue: u64,
    pub dropped_loss: u64,
    pub retransmissions: u64,
}

impl LinkState {
    /// Serialisation time of a packet of `size` bytes. A link direction mostly carries one size
    /// (data one way, acknowledgements the other), so the last answer is kept: the division is
    /// a visible share of a run's time otherwise (perf, issue 14).
    fn transmission_time(&mut self, size: u32) -> Duration {
        if self.last_tx.0 != size {
            self.last_tx = (size, self.bandwidth.transmission_time(DataSize::from_bytes(size as u64)));
        }
        self.last_tx.1
    }
}

/// Every link of the network and the routes over them.
pub struct Fabric {
    pub links: Vec<LinkState>,
    pub routes: Routes,
    /// Packets that crossed a monitored link in its forward direction.
    pub bottleneck_packets: u64,
    /// Waiting packets a fair queue dropped to make room for an arrival (DRR drops from its
    /// longest flow), with their link: the engine drains them after every forwarding step.
    pub pushed_out: Vec<(PacketId, LinkId)>,
}

impl Fabric {
    /// Puts a packet on the first link from `node` towards `dst`.
    pub fn send_from<E: From<LinkEvent> + Copy>(
        &mut self,
        node: NodeId,
        dst: NodeId,
        pkt: PacketId,
        packets: &PacketArena,
        sched: &mut Scheduler<E>,
        now: Instant,
    ) -> Hop {
        let link = self.routes.next_link(node, dst).expect("routes checked at construction");
        self.send_on(link, pkt, packets, sched, now)
    }

    /// Puts a packet on `link` (a tree's branch).
    pub fn send_on<E: From<LinkEvent> + Copy>(
        &mut self,
        link: LinkId,
        pkt: PacketId,
        packets: &PacketArena,
        sched: &mut Scheduler<E>,
        now: Instant,
    ) -> Hop {
        let (size, flow) = (packets.get(pkt).size, packets.get(pkt).flow);
        let l = &mut self.links[link as usize];
        let verdict = l.queue.enqueue(now, QueuedPacket { id: pkt, size_bytes: size, flow });
        while let Some(p) = l.queue.pop_pushed_out() {
            l.dropped_queue += 1;
            self.pushed_out.push((p.id, link));
        }
        match verdict {
            Enqueue::Dropped => {
                l.dropped_queue += 1;
                Hop::Dropped(pkt, DropReason::Queue, link)
            }
            Enqueue::Accepted => {
                if l.tx_pending {
                    return Hop::Moving;
                }
                if l.busy_until <= now {
                    let p = l.queue.dequeue(now).expect("just enqueued");
                    self.start_tx(link, p.id, packets, sched, now)
                } else {
                    l.tx_pending = true;
                    sched.schedule(l.busy_until, LinkEvent::TxDone { link }.into());
                    Hop::Moving
                }
            }
        }
    }

    fn start_tx<E: From<LinkEvent> + Copy>(
        &mut self,
        link: LinkId,
        pkt: PacketId,
        packets: &PacketArena,
        sched: &mut Scheduler<E>,
        now: Instant,
    ) -> Hop {
        let size = packets.get(pkt).size;
        let l = &mut self.links[link as usize];
        let tx = l.transmission_time(size);
        // Each attempt occupies the link for one packet time and meets the loss model; with
        // link-level ARQ a failed attempt is repeated at once (docs/papers/qos-aimd.md §2.2), or
        // after `pause_slots` silent slots in which the channel moves on (the "optimal" scheme, §3.7).
        let mut attempts = 1;
        let mut slots = 1u64;
        let mut lost = false;
        if let Some(m) = l.loss.as_mut() {
            while m.should_drop() {
                if attempts == l.max_attempts {
                    lost = true;
                    break;
                }
                for _ in 0..l.pause_slots {
                    // Nobody sends: the channel's state for this slot is drawn and thrown away.
                    m.should_drop();
                }
                slots += l.pause_slots as u64 + 1;
                attempts += 1;
            }
        }
        l.retransmissions += (attempts - 1) as u64;
        let busy = tx * slots;
        l.busy_until = now + busy;
        if lost {
            l.dropped_loss += 1;
            Hop::Dropped(pkt, DropReason::Loss, link)
        } else {
            let (at, seq) = (now + busy + l.delay, sched.reserve());
            if l.in_flight.is_empty() {
                sched.schedule_reserved(at, seq, LinkEvent::Arrive { link }.into());
            }
            l.in_flight.push_back((at, seq, pkt));
            Hop::Moving
        }
    }

    /// A link finished serialising: start its next packet, if any.
    pub fn tx_done<E: From<LinkEvent> + Copy>(
        &mut self,
        link: LinkId,
        packets: &PacketArena,
        sched: &mut Scheduler<E>,
        now: Instant,
    ) -> Hop {
        let l = &mut self.links[link as usize];
        l.tx_pending = false;
        let Some(p) = l.queue.dequeue(now) else { return Hop::Moving };
        let hop = self.start_tx(link, p.id, packets, sched, now);
        let l = &mut self.links[link as usize];
        if l.queue.len_packets() > 0 {
            l.tx_pending = true;
            sched.schedule(l.busy_until, LinkEvent::TxDone { link }.into());
        }
        hop
    }

    /// The earliest packet in flight on `link` reached its far end: deliver it there or forward it.
    pub fn arrive<E: From<LinkEvent> + Copy>(
        &mut self,
        link: LinkId,
        packets: &PacketArena,
        sched: &mut Scheduler<E>,
        now: Instant,
    ) -> Hop {
        let l = &mut self.links[link as usize];
        let (_, _, pkt) = l.in_flight.pop_front().expect("an Arrive event has a packet in flight");
        if let Some(&(at, seq, _)) = l.in_flight.front() {
            sched.schedule_reserved(at, seq, LinkEvent::Arrive { link }.into());
        }
        l.delivered += 1;
        if l.counts_as_bottleneck {
            self.bottleneck_packets += 1;
        }
        let node = l.to;
        let dst = packets.get(pkt).dst;
        if dst == GROUP_DST {
            Hop::Branch(pkt, node)
        } else if node == dst {
            Hop::Arrived(pkt)
        } else {
            let next = self.routes.next_link(node, dst).expect("routes checked at construction");
            self.send_on(next, pkt, packets, sched, now)
        }
    }
}
