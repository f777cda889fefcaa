//! The engine's multicast half: group transmits, copies at the tree's branch points, deliveries
//! to members, drops charged to the members below the dropping link, and joins and leaves.
//!
//! Accounting: a sender's group data packet counts (sent, and later delivered or dropped) for
//! the receivers whose branch is grafted and whose host wants the group when it is sent: its
//! *audience*, kept in a send record shared by its copies. A copy dropped on a link is a drop for
//! every audience member below that link; a copy that reaches a member is a delivery. A member
//! grafted while the packet travels gets it without counting it; one pruned meanwhile gets
//! neither (as a packet in flight at the end).
//!
//! A receiver's group transmit (a report multicast to the group) travels by unicast to the
//! sender's node, where the sender gets it, then down the tree to every other member that wants
//! the group: the source tree doubles as the shared tree, rooted at the sender.

use vidcc_core::{Datagram, Duration, GroupId, Instant, Membership, PacketKind, PeerId, Transmit};

use super::{Ev, Simulation};
use crate::forward::GROUP_DST;
use crate::multicast::PendingChange;
use crate::packet::{DropReason, EndpointId, Packet, PacketId, RecordRows, NO_SEND};
use crate::record::{Recorder, Side};
use crate::topology::{LinkId, NodeId};

/// A sender's group data packet: the receivers it counts for (a bit per receiver of the flow)
/// and the rows the recorders keep for each (only when some recorder keeps rows: video, the
/// packet log), shared by its copies.
struct SendRecord {
    counted: Vec<u64>,
    /// Per receiver of the flow (empty: every receiver's rows are the default).
    rows: Vec<RecordRows>,
    /// Copies still in the network.
    copies: u32,
}

#[derive(Default)]
pub(super) struct SendRecords {
    slots: Vec<SendRecord>,
    free: Vec<u32>,
}

impl SendRecords {
    /// A record of the receivers in `audience` (index in the flow, rows), out of `receivers`.
    fn insert(&mut self, receivers: u32, audience: &[(u32, RecordRows)]) -> u32 {
        let mut counted = vec![0u64; (receivers as usize).div_ceil(64)];
        for &(r, _) in audience {
            counted[r as usize / 64] |= 1 << (r % 64);
        }
        let rows = if audience.iter().all(|(_, rows)| *rows == RecordRows::default()) {
            Vec::new()
        } else {
            let mut rows = vec![RecordRows::default(); receivers as usize];
            for &(r, row) in audience {
                rows[r as usize] = row;
            }
            rows
        };
        let rec = SendRecord { counted, rows, copies: 1 };
        match self.free.pop() {
            Some(i) => {
                self.slots[i as usize] = rec;
                i
            }
            None => {
                self.slots.push(rec);
                (self.slots.len() - 1) as u32
            }
        }
    }

    /// The rows of receiver `r` if the packet counts for it.
    fn rows(&self, send: u32, r: u32) -> Option<RecordRows> {
        let s = self.slots.get(send as usize)?;
        let counted = s.counted.get(r as usize / 64).is_some_and(|w| w & (1 << (r % 64)) != 0);
        counted.then(|| s.rows.get(r as usize).copied().unwrap_or_default())
    }

    fn add_copies(&mut self, send: u32, n: u32) {
        if send != NO_SEND {
            self.slots[send as usize].copies += n;
        }
    }

    fn drop_copy(&mut self, send: u32) {
        if send == NO_SEND {
            return;
        }
        let s = &mut self.slots[send as usize];
        s.copies -= 1;
        if s.copies == 0 {
            s.counted = Vec::new();
            s.rows = Vec::new();
            self.free.push(send);
        }
    }
}

impl Simulation {
    /// A transmit to one of the flow's groups.
    pub(super) fn send_group(&mut self, ep: EndpointId, g: GroupId, t: Transmit, now: Instant) {
        let slot = &self.endpoints[ep as usize];
        let (flow_id, side, node) = (slot.flow, slot.side, slot.node);
        let flow = &self.flows[flow_id as usize];
        assert!(flow.multicast, "flow {flow_id}: a transmit to {g:?}, but the flow is unicast");
        let tree = self.groups.tree_of(flow_id, g.0, flow.receivers);
        let to_receiver = side == Side::Sender;
        let mut pkt = Packet {
            flow: flow_id,
            from: ep,
            to: flow.sender,
            dst: if to_receiver { GROUP_DST } else { flow.src },
            receiver: match side {
                Side::Receiver(i) => flow.first_row + i,
                Side::Sender => flow.first_row,
            },
            to_receiver,
            tree,
            send: NO_SEND,
            size: t.wire_size().as_bytes() as u32,
            payload_len: t.payload_len,
            header: t.header,
            meta: t.meta,
            sent_at: now,
            rows: RecordRows::default(),
        };
        if !to_receiver {
            // A report to the group: up to the sender's node by unicast first.
            let id = self.packets.insert(pkt);
            let hop = self.fabric.send_from(node, flow.src, id, &self.packets, &mut self.sched, now);
            return self.settle(hop, now);
        }
        let is_data = t.meta.kind == PacketKind::Data;
        if is_data {
            let (first_row, flow_receivers) = (flow.first_row, flow.receivers);
            let members: Vec<u32> = self.groups.trees[tree as usize].audience().collect();
            let mut audience = Vec::with_capacity(members.len());
            for r in members {
                pkt.receiver = first_row + r;
                let mut rows = RecordRows::default();
                self.recorders.on_data_sent(now, &pkt, &mut rows);
                audience.push((r, rows));
            }
            pkt.receiver = first_row;
            pkt.send = self.sends.insert(flow_receivers, &audience);
        }
        let id = self.packets.insert(pkt);
        if is_data {
            let f = &mut self.flows[flow_id as usize];
            if let Some(rng) = &mut f.jitter_rng {
                use rand::Rng;
                let delay = vidcc_core::Duration::from_nanos(rng.gen_range(0..=f.send_jitter.as_nanos()));
                f.last_inject = (now + delay).max(f.last_inject);
                self.sched.schedule(f.last_inject, Ev::Inject { pkt: id });
                return;
            }
        }
        self.branch(id, node, now);
    }

    /// A receiver's group packet reached the sender's node: the sender gets it, then the tree.
    pub(super) fn reflect(&mut self, pkt: PacketId, now: Instant) {
        let p = self.packets.get(pkt).clone();
        let Side::Receiver(i) = self.endpoints[p.from as usize].side else { unreachable!("a receiver's packet") };
        let sender = p.to;
        let d = Datagram { from: PeerId(i), bytes: p.header.as_slice(), virtual_payload: p.payload_len };
        self.stats.packets_delivered += 1;
        let _ = self.endpoints[sender as usize].endpoint.handle_datagram(now, d);
        // The same packet goes on down the tree (its slot is reused).
        let src = self.flows[p.flow as usize].src;
        let mut down = p;
        down.dst = GROUP_DST;
        self.packets.release(pkt);
        let id = self.packets.insert(down);
        self.branch(id, src, now);
        // Serviced after the copies left, so that the sender's answers follow them.
        self.service(sender, now);
    }

    /// A group packet at a node of its tree: copies down every branch with members, and
    /// delivery to the members on the node. The tree cannot change meanwhile (joins and leaves
    /// come due as events of their own), so its state is read by index, without copies.
    pub(super) fn branch(&mut self, pkt: PacketId, node: NodeId, now: Instant) {
        let mut p = self.packets.get(pkt).clone();
        let tree = p.tree as usize;
        let (outs, locals) = match self.groups.trees[tree].node(node) {
            Some(tn) => (tn.out.len(), tn.local.len()),
            None => (0, 0),
        };
        if outs == 0 {
            self.packets.release(pkt);
        } else {
            self.sends.add_copies(p.send, outs as u32 - 1);
        }
        for k in 0..outs {
            let l = self.groups.trees[tree].node(node).expect("on the tree").out[k].0;
            let id = if k + 1 == outs { pkt } else { self.packets.insert(p.clone()) };
            let hop = self.fabric.send_on(l, id, &self.packets, &mut self.sched, now);
            self.settle(hop, now);
        }
        for k in 0..locals {
            let r = self.groups.trees[tree].node(node).expect("on the tree").local[k];
            self.deliver_member(&mut p, r, now);
        }
        if outs == 0 {
            self.sends.drop_copy(p.send);
        }
    }

    /// Hands a group packet to member `r` (index in the flow) if its host wants the group
    /// (`p.receiver` and `p.rows` are set to the member's for the recorders).
    fn deliver_member(&mut self, p: &mut Packet, r: u32, now: Instant) {
        let flow = &self.flows[p.flow as usize];
        let ep = flow.sender + 1 + r;
        if ep == p.from || !self.groups.trees[p.tree as usize].wants(r) {
            return;
        }
        if p.is_forward_data() {
            if let Some(rows) = self.sends.rows(p.send, r) {
                p.receiver = flow.first_row + r;
                p.rows = rows;
                self.recorders.on_data_delivered(now, p);
            }
        }
        let from = if p.to_receiver { PeerId::PEER } else { PeerId::GROUP_MEMBER };
        let d = Datagram { from, bytes: p.header.as_slice(), virtual_payload: p.payload_len };
        self.stats.packets_delivered += 1;
        let _ = self.endpoints[ep as usize].endpoint.handle_datagram(now, d);
        self.service(ep, now);
    }

    /// A group packet's copy dropped on `link`: a drop for every member it counted for below.
    pub(super) fn drop_group(&mut self, pkt: PacketId, why: DropReason, link: LinkId, now: Instant) {
        self.packets.release(pkt);
        let p = self.packets.get(pkt).clone();
        if p.is_forward_data() && p.send != NO_SEND {
            let mut below = Vec::new();
            self.groups.trees[p.tree as usize].below(&self.world.net.links, link, &mut below);
            below.sort_unstable();
            let first_row = self.flows[p.flow as usize].first_row;
            let mut view = p.clone();
            for r in below {
                if let Some(rows) = self.sends.rows(p.send, r) {
                    view.receiver = first_row + r;
                    view.rows = rows;
                    self.recorders.on_data_dropped(now, &view, why);
                }
            }
        }
        self.sends.drop_copy(p.send);
    }

    /// A receiver asks to join or leave: its host follows at once, the network after the latency.
    pub(super) fn request_membership(&mut self, ep: EndpointId, m: Membership, now: Instant) {
        let slot = &self.endpoints[ep as usize];
        let flow = &self.flows[slot.flow as usize];
        let Side::Receiver(r) = slot.side else {
            panic!("flow {}: the sender asked for {m:?}; only receivers join groups", slot.flow)
        };
        assert!(flow.multicast, "flow {}: receiver {r} asked for {m:?}, but the flow is unicast", slot.flow);
        let (g, join, latency) = match m {
            Membership::Join(g) => (g, true, flow.join_latency),
            Membership::Leave(g) => (g, false, flow.leave_latency),
        };
        let tree = self.groups.tree_of(slot.flow, g.0, flow.receivers);
        let change = self.groups.request(tree, r, join);
        self.recorders.on_membership(now, slot.flow, r, g.0, join, false);
        // No latency: the branch is grafted or pruned now, before anything else this instant (a
        // packet the sender sends at the same instant, its first frame at t = 0, reaches it).
        if latency == Duration::ZERO {
            self.membership_due(change, now);
        } else {
            self.sched.schedule(now + latency, Ev::Membership(change));
        }
    }

    /// A join or leave comes due: graft or prune the receiver's branch.
    pub(super) fn membership_due(&mut self, c: PendingChange, now: Instant) {
        let flow_id = self.groups.trees[c.tree as usize].flow;
        let group = self.groups.trees[c.tree as usize].group;
        let flow = &self.flows[flow_id as usize];
        let row = flow.first_row + c.receiver;
        let node = self.world.receivers[row as usize].node;
        let path = &self.data_paths[row as usize];
        if self.groups.apply(c, &self.world.net.links, path, node) {
            self.recorders.on_membership(now, flow_id, c.receiver, group, c.join, true);
        }
    }
}
