//! The event engine: runs a built simulation in integer time. It pops events in (time, insertion)
//! order, services endpoints (their transmits, events and timers), hands packets to forwarding
//! and tells the recorders what happened.
//!
//! Endpoints are addressed by what they ask for: a sender's transmit to `PeerId(i)` goes to its
//! flow's receiver `i`, a receiver's to its sender, and a delivered datagram names the peer it
//! came from. Nothing protocol-specific lives here.

use rand::Rng;
use vidcc_core::{Datagram, Destination, Duration, Instant, PacketKind, PeerId, Transmit};

use crate::build::{self, Built, EndpointSlot, FlowState};
use crate::config::SimConfig;
use crate::forward::{Fabric, Hop, LinkEvent, GROUP_DST};
use crate::metrics::Table;
use crate::multicast::{Groups, PendingChange};
use crate::packet::{DropReason, EndpointId, Packet, PacketArena, PacketId, ReceiverRow, RecordRows, NO_SEND, NO_TREE};
use crate::record::video::VideoRecorders;
use crate::record::{ReceiverInfo, Recorder, Recorders, RunView, Side};
use crate::scheduler::Scheduler;
use crate::topology::{config_error, ConfigError, LinkId, Network, NodeId};

#[derive(Clone, Copy, Debug)]
enum Ev {
    Link(LinkEvent),
    /// An endpoint's requested wake-up.
    Timer {
        ep: EndpointId,
    },
    FlowSample,
    QueueSample,
    /// A flow's measurement window opens (end of warm-up or its start, whichever is later).
    MeasureStart {
        flow: u32,
    },
    /// A jittered data packet leaves its sender's node.
    Inject {
        pkt: PacketId,
    },
    /// A multicast receiver's measurement window opens.
    MeasureStartRow {
        row: ReceiverRow,
    },
    /// A join or leave comes due: the network grafts or prunes the receiver's branch.
    Membership(PendingChange),
}

impl From<LinkEvent> for Ev {
    fn from(e: LinkEvent) -> Self {
        Ev::Link(e)
    }
}

/// Counters describing the run itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    pub events: u64,
    /// Packets (data and control) handed to endpoints.
    pub packets_delivered: u64,
    /// Packets that crossed a monitored link in its forward direction (a dumbbell's bottleneck).
    pub bottleneck_packets: u64,
}

pub struct SimOutput {
    pub tables: Vec<Table>,
    pub stats: RunStats,
}

impl SimOutput {
    pub fn table(&self, name: &str) -> &Table {
        self.tables.iter().find(|t| t.name == name).unwrap_or_else(|| panic!("no table {name}"))
    }
}

/// What the recorders may read: fixed once the run is built.
struct World {
    config: SimConfig,
    net: Network,
    receivers: Vec<ReceiverInfo>,
    receiver_endpoints: Vec<EndpointId>,
    /// Sender node per flow.
    senders: Vec<NodeId>,
    monitored: Vec<LinkId>,
    end: Instant,
}

pub struct Simulation {
    world: World,
    fabric: Fabric,
    flows: Vec<FlowState>,
    endpoints: Vec<EndpointSlot>,
    packets: PacketArena,
    sched: Scheduler<Ev>,
    recorders: Recorders,
    stats: RunStats,
    groups: Groups,
    sends: groups::SendRecords,
    /// Each multicast receiver row's path from its sender.
    data_paths: Vec<Vec<LinkId>>,
}

mod groups;

/// The recorders' view of the run (a free function, so that it borrows only the fields it reads).
fn view<'a>(
    world: &'a World,
    fabric: &'a Fabric,
    app_bytes: &'a dyn Fn(crate::packet::ReceiverRow) -> u64,
) -> RunView<'a> {
    RunView {
        config: &world.config,
        net: &world.net,
        links: &fabric.links,
        monitored: &world.monitored,
        senders: &world.senders,
        receivers: &world.receivers,
        app_bytes,
        end: world.end,
    }
}

impl Simulation {
    pub fn new(config: SimConfig) -> Result<Self, ConfigError> {
        let built = build::build(&config)?;
        Ok(Self::from_built(config, built))
    }

    /// A run whose flows' endpoints `make` builds instead of the protocol registry.
    pub fn with_factory(config: SimConfig, make: build::FlowFactory<'_>) -> Result<Self, ConfigError> {
        let built = build::build_with(&config, make)?;
        Ok(Self::from_built(config, built))
    }

    fn from_built(config: SimConfig, built: Built) -> Self {
        let Built { net, fabric, flows, endpoints, receivers, receiver_endpoints, data_paths, monitored, end } = built;
        let video = VideoRecorders::new(
            &receivers,
            &|flow| config.flows[net.flows[flow as usize].group as usize].video.clone(),
            &|flow| flows[flow as usize].multicast,
        );
        let recorders = Recorders::new(&config, &receivers, video);
        let mut endpoints = endpoints;
        for slot in endpoints.iter_mut().filter(|s| s.side == Side::Sender && recorders.video.carries(s.flow)) {
            // The judge counts what the application produced, not only what left (media/report.rs).
            slot.endpoint.enable_media_reports();
        }
        let senders = flows.iter().map(|f| f.src).collect();
        Simulation {
            world: World { config, net, receivers, receiver_endpoints, senders, monitored, end },
            fabric,
            flows,
            endpoints,
            packets: PacketArena::with_capacity(4096),
            sched: Scheduler::new(),
            recorders,
            stats: RunStats::default(),
            groups: Groups::default(),
            sends: groups::SendRecords::default(),
            data_paths,
        }
    }

    pub fn network(&self) -> &Network {
        &self.world.net
    }

    /// Runs to the configured duration. `progress` receives the fraction of simulated time done,
    /// about every 1 %, and returns `false` to stop the run (Ctrl-C), which then yields
    /// [`SimError::Interrupted`].
    pub fn run(mut self, progress: &mut dyn FnMut(f64) -> bool) -> Result<SimOutput, SimError> {
        let sample = Duration::from_nanos(self.world.config.sample_interval_ns);
        let qsample = Duration::from_nanos(self.world.config.queue_sample_interval_ns);
        self.sched.schedule(Instant::ZERO + sample, Ev::FlowSample);
        if !self.world.monitored.is_empty() {
            self.sched.schedule(Instant::ZERO + qsample, Ev::QueueSample);
        }
        for k in 0..self.flows.len() {
            if !self.flows[k].multicast {
                self.sched.schedule(self.flows[k].measure_from, Ev::MeasureStart { flow: k as u32 });
            }
        }
        // Multicast receivers start on their own (after the unicast flows, whose order is as it was).
        for f in self.flows.iter().filter(|f| f.multicast) {
            for row in f.first_row..f.first_row + f.receivers {
                let from = self.world.receivers[row as usize].measure_from;
                self.sched.schedule(from, Ev::MeasureStartRow { row });
            }
        }
        // Multicast receivers act first at the first instant, their start at t = 0 included, so
        // that a receiver starting with its sender is a member when the sender's first frame
        // leaves (and its later start timers come first among equal times, the queue being
        // FIFO). Sender first, the first frame went to an empty tree and every receiver lost the
        // first GOP. Unicast endpoints keep their order and their timers.
        let joins_first = |ep: &usize| {
            let slot = &self.endpoints[*ep];
            matches!(slot.side, Side::Receiver(_)) && self.flows[slot.flow as usize].multicast
        };
        let (receivers, others): (Vec<usize>, Vec<usize>) = (0..self.endpoints.len()).partition(joins_first);
        for &ep in &receivers {
            let endpoint = &mut self.endpoints[ep].endpoint;
            if endpoint.poll_timeout().is_some_and(|t| t <= Instant::ZERO) {
                endpoint.handle_timeout(Instant::ZERO);
            }
            self.service(ep as EndpointId, Instant::ZERO);
        }
        for ep in others {
            self.service(ep as EndpointId, Instant::ZERO);
        }
        let end = self.world.end;
        let step = (end.as_nanos() / 100).max(1);
        let mut next_progress = step;
        while let Some((now, ev)) = self.sched.pop_until(end) {
            match ev {
                Ev::Link(LinkEvent::Arrive { link }) => {
                    let hop = self.fabric.arrive(link, &self.packets, &mut self.sched, now);
                    self.settle(hop, now);
                }
                Ev::Link(LinkEvent::TxDone { link }) => {
                    let hop = self.fabric.tx_done(link, &self.packets, &mut self.sched, now);
                    self.settle(hop, now);
                }
                Ev::Timer { ep } => {
                    let slot = &mut self.endpoints[ep as usize];
                    if slot.timer_at == Some(now) {
                        slot.timer_at = None;
                    }
                    if slot.endpoint.poll_timeout().is_some_and(|t| t <= now) {
                        slot.endpoint.handle_timeout(now);
                    }
                    self.service(ep, now);
                }
                Ev::FlowSample => {
                    let Simulation { world, fabric, endpoints, recorders, sched, .. } = &mut self;
                    let app = app_bytes(world, endpoints);
                    recorders.on_flow_sample(now, sample, &view(world, fabric, &app));
                    sched.schedule(now + sample, Ev::FlowSample);
                    if now.as_nanos() >= next_progress {
                        if !progress(now.as_nanos() as f64 / end.as_nanos() as f64) {
                            return Err(SimError::Interrupted);
                        }
                        next_progress = now.as_nanos() + step;
                    }
                }
                Ev::QueueSample => {
                    let Simulation { world, fabric, endpoints, recorders, sched, .. } = &mut self;
                    let app = app_bytes(world, endpoints);
                    recorders.on_queue_sample(now, &view(world, fabric, &app));
                    sched.schedule(now + qsample, Ev::QueueSample);
                }
                Ev::Inject { pkt } => {
                    let p = self.packets.get(pkt);
                    let (node, dst) = (self.endpoints[p.from as usize].node, p.dst);
                    if dst == GROUP_DST {
                        self.branch(pkt, node, now);
                    } else {
                        let hop = self.fabric.send_from(node, dst, pkt, &self.packets, &mut self.sched, now);
                        self.settle(hop, now);
                    }
                }
                Ev::MeasureStartRow { row } => {
                    let Simulation { world, fabric, endpoints, recorders, .. } = &mut self;
                    let app = app_bytes(world, endpoints);
                    recorders.on_measure_start(row, &view(world, fabric, &app));
                }
                Ev::Membership(change) => self.membership_due(change, now),
                Ev::MeasureStart { flow } => {
                    let f = &self.flows[flow as usize];
                    let rows = f.first_row..f.first_row + f.receivers;
                    let Simulation { world, fabric, endpoints, recorders, .. } = &mut self;
                    let app = app_bytes(world, endpoints);
                    for row in rows {
                        recorders.on_measure_start(row, &view(world, fabric, &app));
                    }
                }
            }
        }
        progress(1.0);
        self.stats.events = self.sched.processed();
        Ok(self.finish())
    }

    /// Drains an endpoint's transmissions, events and membership requests, and re-arms its timer.
    fn service(&mut self, ep: EndpointId, now: Instant) {
        while let Some(t) = self.endpoints[ep as usize].endpoint.poll_transmit(now) {
            self.send(ep, t, now);
        }
        let slot = &mut self.endpoints[ep as usize];
        while let Some(e) = slot.endpoint.poll_event() {
            self.recorders.on_event(now, slot.flow, slot.side, e);
        }
        while let Some(m) = self.endpoints[ep as usize].endpoint.poll_membership() {
            self.request_membership(ep, m, now);
        }
        let slot = &mut self.endpoints[ep as usize];
        while let Some(r) = slot.endpoint.poll_media() {
            self.recorders.on_media(now, slot.flow, &r);
        }
        let slot = &mut self.endpoints[ep as usize];
        if let Some(t) = slot.endpoint.poll_timeout() {
            if slot.timer_at.is_none_or(|s| t < s) {
                slot.timer_at = Some(t.max(now));
                self.sched.schedule(t, Ev::Timer { ep });
            }
        }
    }

    /// The endpoint a transmit from `ep` goes to.
    fn destination(&self, ep: EndpointId, to: Destination) -> EndpointId {
        let slot = &self.endpoints[ep as usize];
        let flow = &self.flows[slot.flow as usize];
        match (slot.side, to) {
            (Side::Sender, Destination::Peer(PeerId(i))) if i < flow.receivers => flow.sender + 1 + i,
            (Side::Receiver(_), Destination::Peer(PeerId::PEER)) => flow.sender,
            (side, to) => panic!("flow {}: the {side:?} sent to {to:?}, which is no endpoint of its flow", slot.flow),
        }
    }

    fn send(&mut self, ep: EndpointId, t: Transmit, now: Instant) {
        if let Destination::Group(g) = t.to {
            return self.send_group(ep, g, t, now);
        }
        let to = self.destination(ep, t.to);
        let from_slot = &self.endpoints[ep as usize];
        let flow_id = from_slot.flow;
        let to_receiver = from_slot.side == Side::Sender;
        let node = from_slot.node;
        // The receiver end of the packet: its destination, or its source for feedback.
        let receiver_ep = if to_receiver { to } else { ep };
        let receiver = match self.endpoints[receiver_ep as usize].side {
            Side::Receiver(i) => self.flows[flow_id as usize].first_row + i,
            Side::Sender => unreachable!("a flow's sender never talks to itself"),
        };
        let mut pkt = Packet {
            flow: flow_id,
            from: ep,
            to,
            dst: self.endpoints[to as usize].node,
            receiver,
            to_receiver,
            tree: NO_TREE,
            send: NO_SEND,
            size: t.wire_size().as_bytes() as u32,
            payload_len: t.payload_len,
            header: t.header,
            meta: t.meta,
            sent_at: now,
            rows: RecordRows::default(),
        };
        let is_data = to_receiver && t.meta.kind == PacketKind::Data;
        if is_data {
            let mut rows = RecordRows::default();
            self.recorders.on_data_sent(now, &pkt, &mut rows);
            pkt.rows = rows;
        }
        let dst = pkt.dst;
        let id = self.packets.insert(pkt);
        // An urgent packet (a TCP fast or partial-ACK retransmission) skips the send jitter and
        // may overtake the flow's jittered packets, as ns-2's direct `output()` bypasses the
        // delayed send of `overhead_`.
        if is_data && !t.meta.urgent {
            let f = &mut self.flows[flow_id as usize];
            if let Some(rng) = &mut f.jitter_rng {
                let delay = Duration::from_nanos(rng.gen_range(0..=f.send_jitter.as_nanos()));
                f.last_inject = (now + delay).max(f.last_inject);
                self.sched.schedule(f.last_inject, Ev::Inject { pkt: id });
                return;
            }
        }
        let hop = self.fabric.send_from(node, dst, id, &self.packets, &mut self.sched, now);
        self.settle(hop, now);
    }

    /// Acts on what forwarding did with a packet.
    fn settle(&mut self, hop: Hop, now: Instant) {
        match hop {
            Hop::Moving => {}
            Hop::Arrived(pkt) if self.packets.get(pkt).tree != NO_TREE => self.reflect(pkt, now),
            Hop::Arrived(pkt) => self.deliver(pkt, now),
            Hop::Dropped(pkt, why, link) if self.packets.get(pkt).dst == GROUP_DST => {
                self.drop_group(pkt, why, link, now)
            }
            Hop::Dropped(pkt, why, _) => self.drop_packet(pkt, why, now),
            Hop::Branch(pkt, node) => self.branch(pkt, node, now),
        }
        // Waiting packets a fair queue pushed out to make room are dropped like arrivals.
        while let Some((pkt, link)) = self.fabric.pushed_out.pop() {
            if self.packets.get(pkt).dst == GROUP_DST {
                self.drop_group(pkt, DropReason::Queue, link, now);
            } else {
                self.drop_packet(pkt, DropReason::Queue, now);
            }
        }
    }

    fn deliver(&mut self, pkt: PacketId, now: Instant) {
        self.packets.release(pkt);
        self.stats.packets_delivered += 1;
        let p = self.packets.get(pkt);
        if p.is_forward_data() {
            self.recorders.on_data_delivered(now, p);
        }
        let to = p.to;
        let from = match self.endpoints[p.from as usize].side {
            Side::Sender => PeerId::PEER,
            Side::Receiver(i) => PeerId(i),
        };
        // The header is read in place (a copy of its 64-byte buffer per delivery showed in the profile).
        let d = Datagram { from, bytes: p.header.as_slice(), virtual_payload: p.payload_len };
        // A malformed datagram is counted by the endpoint (stats().malformed_datagrams).
        let _ = self.endpoints[to as usize].endpoint.handle_datagram(now, d);
        self.service(to, now);
    }

    fn drop_packet(&mut self, pkt: PacketId, why: DropReason, now: Instant) {
        self.packets.release(pkt);
        let p = self.packets.get(pkt);
        if p.is_forward_data() {
            self.recorders.on_data_dropped(now, p, why);
        }
    }

    fn finish(mut self) -> SimOutput {
        self.stats.bottleneck_packets = self.fabric.bottleneck_packets;
        let Simulation { world, fabric, endpoints, recorders, stats, .. } = self;
        let app = app_bytes(&world, &endpoints);
        let tables = recorders.finish(&view(&world, &fabric, &app));
        SimOutput { tables, stats }
    }
}

/// Application bytes each receiver row's endpoint has handed up so far.
fn app_bytes<'a>(world: &'a World, endpoints: &'a [EndpointSlot]) -> impl Fn(crate::packet::ReceiverRow) -> u64 + 'a {
    move |row| endpoints[world.receiver_endpoints[row as usize] as usize].endpoint.stats().app_bytes_delivered
}

#[derive(Debug, thiserror::Error)]
pub enum SimError {
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("interrupted")]
    Interrupted,
}

/// Parses a resolved configuration (JSON) and runs it.
pub fn run_json(json: &str, progress: &mut dyn FnMut(f64) -> bool) -> Result<SimOutput, SimError> {
    let config: SimConfig = serde_json::from_str(json).map_err(|e| config_error("config", e.to_string()))?;
    Simulation::new(config)?.run(progress)
}

/// Runs without progress reporting.
pub fn run_config(config: SimConfig) -> Result<SimOutput, SimError> {
    Simulation::new(config)?.run(&mut |_| true)
}
