//! Recorders: everything the simulator measures, behind one trait. The engine tells every
//! recorder what happens to data packets, endpoints' events and the periodic samples; at the end
//! each recorder turns what it kept into tables.
//!
//! | recorder | tables |
//! |---|---|
//! | [`flows::FlowRecorder`] | `flows`, `flow_summary`, `aggregate`, `flow_samples` (a row per receiver) |
//! | [`links::LinkRecorder`] | `queue_samples`, `links` |
//! | [`events::EventLog`] | `events` |
//! | [`video::VideoRecorders`] | `frames`, `video_summary` (video flows; a row set per receiver) |
//! | [`packets::PacketLog`] | `packets` (when `packet_log` is on) |
//!
//! Definitions of every column are in `docs/scenarios.md` and the recorders' modules.

pub mod events;
pub mod flows;
pub mod links;
pub mod packets;
pub mod video;

use vidcc_core::media::report::MediaReport;
use vidcc_core::{Duration, Event, Instant};

use crate::config::SimConfig;
use crate::forward::LinkState;
use crate::metrics::Table;
use crate::packet::{DropReason, Packet, ReceiverRow, RecordRows};
use crate::topology::{LinkId, Network, NodeId};

/// Which end of a flow an endpoint is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Sender,
    /// The flow's receiver with this index (its `PeerId` at the sender).
    Receiver(u32),
}

/// One receiver of one flow: a row of the per-receiver tables.
#[derive(Clone, Debug)]
pub struct ReceiverInfo {
    pub flow: u32,
    /// Index among the flow's receivers (its `PeerId` at the sender).
    pub index: u32,
    pub node: NodeId,
    /// Statistics count what happens in `[measure_from, measure_to)`.
    pub measure_from: Instant,
    pub measure_to: Instant,
    pub fair_share_bps: f64,
    pub path_rtt: Duration,
}

/// What recorders may read of the run: its configuration, network and links, its receivers, and
/// the application bytes each receiver's endpoint has handed up so far.
pub struct RunView<'a> {
    pub config: &'a SimConfig,
    pub net: &'a Network,
    pub links: &'a [LinkState],
    pub monitored: &'a [LinkId],
    /// The flow instance's sender node, per flow.
    pub senders: &'a [NodeId],
    pub receivers: &'a [ReceiverInfo],
    pub app_bytes: &'a dyn Fn(ReceiverRow) -> u64,
    pub end: Instant,
}

/// Something that measures the run. Every hook has a default that ignores it.
pub trait Recorder {
    /// A data packet left its sender for receiver `pkt.receiver` (before any send jitter);
    /// `rows` is where a recorder notes the rows it will need when the packet's fate is known.
    fn on_data_sent(&mut self, _now: Instant, _pkt: &Packet, _rows: &mut RecordRows) {}
    fn on_data_delivered(&mut self, _now: Instant, _pkt: &Packet) {}
    fn on_data_dropped(&mut self, _now: Instant, _pkt: &Packet, _why: DropReason) {}
    /// An endpoint of `flow` reported an event.
    fn on_event(&mut self, _now: Instant, _flow: u32, _side: Side, _event: Event) {}
    /// Receiver `receiver` of `flow` asked to join (`join`) or leave `group` (`effective` false),
    /// or the network grafted or pruned its branch (`effective` true).
    fn on_membership(&mut self, _now: Instant, _flow: u32, _receiver: u32, _group: u32, _join: bool, _effective: bool) {
    }
    /// A receiver's measurement window opens.
    fn on_measure_start(&mut self, _receiver: ReceiverRow, _run: &RunView<'_>) {}
    /// The sender of `flow` reported what its application produced or its buffer dropped
    /// (`vidcc_core::media::report`; video flows only, kept out of the `events` table).
    fn on_media(&mut self, _now: Instant, _flow: u32, _report: &MediaReport) {}
    /// The per-flow sampling instant (every `interval`).
    fn on_flow_sample(&mut self, _now: Instant, _interval: Duration, _run: &RunView<'_>) {}
    /// The queue sampling instant of monitored links.
    fn on_queue_sample(&mut self, _now: Instant, _run: &RunView<'_>) {}
    /// The recorder's tables.
    fn finish(self, run: &RunView<'_>) -> Vec<Table>;
}

/// Every recorder of a run, called in a fixed order (which is also the order of the tables).
pub struct Recorders {
    pub flows: flows::FlowRecorder,
    pub links: links::LinkRecorder,
    pub events: events::EventLog,
    pub video: video::VideoRecorders,
    pub packets: Option<packets::PacketLog>,
}

impl Recorders {
    pub fn new(config: &SimConfig, receivers: &[ReceiverInfo], video: video::VideoRecorders) -> Self {
        Recorders {
            flows: flows::FlowRecorder::new(receivers),
            links: links::LinkRecorder::default(),
            events: events::EventLog::default(),
            video,
            packets: config.packet_log.then(packets::PacketLog::default),
        }
    }
}

impl Recorder for Recorders {
    fn on_data_sent(&mut self, now: Instant, pkt: &Packet, rows: &mut RecordRows) {
        self.video.on_data_sent(now, pkt, rows);
        self.flows.on_data_sent(now, pkt, rows);
        if let Some(log) = &mut self.packets {
            log.on_data_sent(now, pkt, rows);
        }
    }
    fn on_data_delivered(&mut self, now: Instant, pkt: &Packet) {
        self.video.on_data_delivered(now, pkt);
        self.flows.on_data_delivered(now, pkt);
        if let Some(log) = &mut self.packets {
            log.on_data_delivered(now, pkt);
        }
    }
    fn on_data_dropped(&mut self, now: Instant, pkt: &Packet, why: DropReason) {
        self.video.on_data_dropped(now, pkt, why);
        self.flows.on_data_dropped(now, pkt, why);
        if let Some(log) = &mut self.packets {
            log.on_data_dropped(now, pkt, why);
        }
    }
    fn on_event(&mut self, now: Instant, flow: u32, side: Side, event: Event) {
        self.events.on_event(now, flow, side, event);
        self.video.on_event(now, flow, side, event);
    }
    fn on_membership(&mut self, now: Instant, flow: u32, receiver: u32, group: u32, join: bool, effective: bool) {
        self.events.on_membership(now, flow, receiver, group, join, effective);
        self.video.on_membership(now, flow, receiver, group, join, effective);
    }
    fn on_media(&mut self, now: Instant, flow: u32, report: &MediaReport) {
        self.video.on_media(now, flow, report);
    }
    fn on_measure_start(&mut self, receiver: ReceiverRow, run: &RunView<'_>) {
        self.flows.on_measure_start(receiver, run);
    }
    fn on_flow_sample(&mut self, now: Instant, interval: Duration, run: &RunView<'_>) {
        self.flows.on_flow_sample(now, interval, run);
    }
    fn on_queue_sample(&mut self, now: Instant, run: &RunView<'_>) {
        self.links.on_queue_sample(now, run);
    }
    fn finish(self, run: &RunView<'_>) -> Vec<Table> {
        let mut tables = self.flows.finish(run);
        tables.extend(self.links.finish(run));
        tables.extend(self.events.finish(run));
        tables.extend(self.video.finish(run));
        if let Some(log) = self.packets {
            tables.extend(log.finish(run));
        }
        tables
    }
}
