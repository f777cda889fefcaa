//! The `events` table: what endpoints report ([`vidcc_core::Event`]: rate and window changes,
//! loss events, timeouts, layer changes, loss classifications), one row each. In-order delivery
//! reports ([`Event::Delivered`], one per arrival at a TCP receiver carrying video) are not
//! events of the congestion control: the video recorder dates frames by them, this table skips
//! them.

use vidcc_core::{Event, Instant};

use super::{Recorder, RunView, Side};
use crate::metrics::{Column, Table};

/// The `kind` column: one name per [`Event`] variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    Rate,
    Window,
    LossEvent,
    Timeout,
    Layers,
    LossClass,
    /// A receiver's request to join (leave) a group; the value is the group.
    Join,
    Leave,
    /// The network grafted (pruned) the receiver's branch of a group; the value is the group.
    Graft,
    Prune,
    /// A multicast sender's group rate (bit/s); the group is in the `group` column.
    GroupRate,
    /// A receiver's RTT estimate (seconds).
    RttEstimate,
    /// A multicast sender heard a report; the value is the receiver's index.
    Feedback,
}

impl EventKind {
    pub fn name(self) -> &'static str {
        match self {
            EventKind::Rate => "rate",
            EventKind::Window => "window",
            EventKind::LossEvent => "loss_event",
            EventKind::Timeout => "timeout",
            EventKind::Layers => "layers",
            EventKind::LossClass => "loss_class",
            EventKind::Join => "join",
            EventKind::Leave => "leave",
            EventKind::Graft => "graft",
            EventKind::Prune => "prune",
            EventKind::GroupRate => "group_rate",
            EventKind::RttEstimate => "rtt_estimate",
            EventKind::Feedback => "feedback",
        }
    }

    /// The event's kind and the number in its `value` column (bit/s, bytes, layers, 1 for a
    /// congestive loss classification and 0 for a random one, seconds for an RTT estimate, the
    /// receiver's index for feedback, 1 otherwise); `None` for what the table does not log
    /// (delivery reports).
    pub fn of(e: Event) -> Option<(EventKind, f64)> {
        Some(match e {
            Event::GroupRateChanged { rate, .. } => (EventKind::GroupRate, rate.as_bps_f64()),
            Event::RttEstimated { rtt } => (EventKind::RttEstimate, rtt.as_secs_f64()),
            Event::FeedbackReceived { peer } => (EventKind::Feedback, f64::from(peer)),
            Event::RateChanged { rate } => (EventKind::Rate, rate.as_bps_f64()),
            Event::WindowChanged { cwnd } => (EventKind::Window, cwnd.as_bytes() as f64),
            Event::LossEvent => (EventKind::LossEvent, 1.0),
            Event::Timeout => (EventKind::Timeout, 1.0),
            Event::LayersChanged { layers } => (EventKind::Layers, layers as f64),
            Event::LossClassified { congestion } => (EventKind::LossClass, if congestion { 1.0 } else { 0.0 }),
            Event::Delivered { .. } => return None,
        })
    }
}

#[derive(Default)]
pub struct EventLog {
    t_ns: Vec<u64>,
    flow: Vec<u64>,
    side: Vec<Side>,
    kind: Vec<EventKind>,
    value: Vec<f64>,
    /// The group an event is about (group rates, joins, leaves, grafts, prunes), else -1.
    group: Vec<i64>,
}

impl Recorder for EventLog {
    fn on_event(&mut self, now: Instant, flow: u32, side: Side, event: Event) {
        let Some((kind, value)) = EventKind::of(event) else { return };
        self.group.push(match event {
            Event::GroupRateChanged { group, .. } => i64::from(group),
            _ => -1,
        });
        self.t_ns.push(now.as_nanos());
        self.flow.push(flow as u64);
        self.side.push(side);
        self.kind.push(kind);
        self.value.push(value);
    }

    fn on_membership(&mut self, now: Instant, flow: u32, receiver: u32, group: u32, join: bool, effective: bool) {
        let kind = match (join, effective) {
            (true, false) => EventKind::Join,
            (false, false) => EventKind::Leave,
            (true, true) => EventKind::Graft,
            (false, true) => EventKind::Prune,
        };
        self.t_ns.push(now.as_nanos());
        self.flow.push(flow as u64);
        self.side.push(Side::Receiver(receiver));
        self.kind.push(kind);
        self.value.push(group as f64);
        self.group.push(i64::from(group));
    }

    fn finish(self, _run: &RunView<'_>) -> Vec<Table> {
        let side = |s: &Side| match s {
            Side::Sender => "sender".to_string(),
            Side::Receiver(_) => "receiver".to_string(),
        };
        vec![Table::new("events")
            .col("t_ns", Column::U64(self.t_ns))
            .col("flow", Column::U64(self.flow))
            .col("side", Column::Str(self.side.iter().map(side).collect()))
            // The receiver's index in its flow (-1 for the sender).
            .col(
                "receiver",
                Column::I64(
                    self.side
                        .iter()
                        .map(|s| match s {
                            Side::Sender => -1,
                            Side::Receiver(i) => *i as i64,
                        })
                        .collect(),
                ),
            )
            .col("kind", Column::Str(self.kind.iter().map(|k| k.name().to_string()).collect()))
            .col("value", Column::F64(self.value))
            .col("group", Column::I64(self.group))]
    }
}
