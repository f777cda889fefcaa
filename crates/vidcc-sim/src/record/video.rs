//! Video flows in the simulator: records, per receiver, every frame the sender's application
//! produced and every media packet (send time, arrival), and at the end of the run judges each
//! frame with `vidcc_core::media::record` (shared with the real-network receiver), which applies
//! `vidcc_core::media::decodability` and the delivery metrics of `vidcc_core::media::metrics`
//! (docs/video.md).
//!
//! **What each receiver is judged against.** The sender of a video flow reports every frame its
//! application produced and every packet its buffer dropped (`vidcc_core::media::report`, turned
//! on by the engine for video senders): the judge counts frames and packets whether or not they
//! left the sender. A unicast receiver is meant to get everything produced: the K layers the
//! sender chose for the frame, or the one stream or encoding it chose. A multicast receiver is
//! meant to get the parts of the frame whose groups it was a member of when the frame was
//! produced (its host asked to join and the network had grafted its branch; group g carries
//! part g, as every video-carrying multicast sender here sends): for cumulative layers the
//! layers from the base up to the first group it was not in, for alternative streams the stream
//! it joined last (of those it is still in); a receiver in no group is meant to get nothing,
//! and the frame counts as `unsent` for it. A sender that produces one part a frame (TFMCC and
//! ASMP, single-rate, a rate-adaptive encoding included) sends it to every member: a receiver
//! in a group is meant to get it.
//!
//! Reliable in-order flows (TCP carrying video) report what their receiver handed to the
//! application ([`Event::Delivered`]), and the recorder judges such a receiver by those reports
//! (see `vidcc_core::media::record`).
//!
//! Every frame whose playout deadline falls by the end of the run is judged (late if its base
//! layer was still at the sender or in the network then); only a frame whose deadline is after
//! the end is `pending`, and left out of the metrics.

use vidcc_core::media::config::VideoConfig;
pub use vidcc_core::media::record::{FrameRow, Share, VideoRecorder, VideoTables};
use vidcc_core::media::report::MediaReport;
use vidcc_core::media::stream::PartKind;
use vidcc_core::{Event, Instant};

use super::{ReceiverInfo, Recorder, RunView, Side};
use crate::metrics::Table;
use crate::packet::{DropReason, Packet, RecordRows};

/// A multicast receiver's groups: asked for by its host, grafted by the network.
#[derive(Clone, Debug, Default)]
struct Groups {
    wanted: Vec<bool>,
    grafted: Vec<bool>,
    /// Groups in the order of their last join (the newest last).
    joined: Vec<u32>,
}

impl Groups {
    fn set(v: &mut Vec<bool>, g: u32, on: bool) {
        if v.len() <= g as usize {
            v.resize(g as usize + 1, false);
        }
        v[g as usize] = on;
    }

    fn member(&self, g: u32) -> bool {
        self.wanted.get(g as usize).copied().unwrap_or(false) && self.grafted.get(g as usize).copied().unwrap_or(false)
    }

    fn change(&mut self, g: u32, join: bool, effective: bool) {
        Self::set(if effective { &mut self.grafted } else { &mut self.wanted }, g, join);
        if join && !effective {
            self.joined.retain(|&j| j != g);
            self.joined.push(g);
        }
    }

    /// What of a frame produced now the receiver is meant to get (module docs).
    fn share(&self, kind: PartKind) -> Share {
        match kind {
            PartKind::Layers => match (0..).take_while(|&g| self.member(g)).count() {
                0 => Share::Nothing,
                k => Share::Layers(k.min(u8::MAX as usize) as u8),
            },
            PartKind::Streams => match self.joined.iter().rev().find(|&&g| self.member(g)) {
                Some(&g) => Share::Stream(g.min(u8::MAX as u32) as u8),
                None => Share::Nothing,
            },
        }
    }
}

/// The video record of every receiver of a video flow (`None` for receivers of other flows).
pub struct VideoRecorders {
    per_receiver: Vec<Option<VideoRecorder>>,
    /// (flow, index among its receivers) of every receiver row, in row order (flow by flow).
    rows: Vec<(u32, u32)>,
    /// Per receiver row: its groups if its flow is multicast.
    groups: Vec<Option<Groups>>,
}

impl VideoRecorders {
    /// `video_of(flow)`: the flow's video configuration, if it carries video; `multicast(flow)`:
    /// whether its receivers get it through groups.
    pub fn new(
        receivers: &[ReceiverInfo],
        video_of: &dyn Fn(u32) -> Option<VideoConfig>,
        multicast: &dyn Fn(u32) -> bool,
    ) -> Self {
        VideoRecorders {
            per_receiver: receivers.iter().map(|r| video_of(r.flow).map(VideoRecorder::new)).collect(),
            rows: receivers.iter().map(|r| (r.flow, r.index)).collect(),
            groups: receivers.iter().map(|r| multicast(r.flow).then(Groups::default)).collect(),
        }
    }

    /// Whether `flow` carries video (its sender's production is judged).
    pub fn carries(&self, flow: u32) -> bool {
        let at = self.rows.partition_point(|&(f, _)| f < flow);
        self.rows.get(at).is_some_and(|&(f, _)| f == flow) && self.per_receiver[at].is_some()
    }

    /// The receiver rows of `flow`.
    fn rows_of(&self, flow: u32) -> std::ops::Range<usize> {
        self.rows.partition_point(|&(f, _)| f < flow)..self.rows.partition_point(|&(f, _)| f <= flow)
    }
}

impl Recorder for VideoRecorders {
    fn on_data_sent(&mut self, now: Instant, pkt: &Packet, rows: &mut RecordRows) {
        if let Some(v) = &mut self.per_receiver[pkt.receiver as usize] {
            if pkt.meta.media.is_media() {
                rows.media = Some(v.on_sent(pkt.meta.media, pkt.meta.seq, pkt.size, now));
            }
        }
    }

    fn on_data_delivered(&mut self, now: Instant, pkt: &Packet) {
        if let (Some(v), Some(row)) = (&mut self.per_receiver[pkt.receiver as usize], pkt.rows.media) {
            v.on_arrival(row, now);
        }
    }

    fn on_data_dropped(&mut self, _now: Instant, pkt: &Packet, _why: DropReason) {
        if let (Some(v), Some(row)) = (&mut self.per_receiver[pkt.receiver as usize], pkt.rows.media) {
            v.on_dropped(row);
        }
    }

    fn on_event(&mut self, now: Instant, flow: u32, side: Side, event: Event) {
        if let (Event::Delivered { up_to }, Side::Receiver(i)) = (event, side) {
            if let Ok(row) = self.rows.binary_search(&(flow, i)) {
                if let Some(v) = &mut self.per_receiver[row] {
                    v.on_delivered(up_to, now);
                }
            }
        }
    }

    fn on_membership(&mut self, _now: Instant, flow: u32, receiver: u32, group: u32, join: bool, effective: bool) {
        if let Ok(row) = self.rows.binary_search(&(flow, receiver)) {
            if let Some(g) = &mut self.groups[row] {
                g.change(group, join, effective);
            }
        }
    }

    fn on_media(&mut self, _now: Instant, flow: u32, report: &MediaReport) {
        for row in self.rows_of(flow) {
            let Some(v) = &mut self.per_receiver[row] else { continue };
            match report {
                MediaReport::Produced(frame) => {
                    let kind = if v.is_simulcast() { PartKind::Streams } else { PartKind::Layers };
                    let share = self.groups[row].as_ref().map_or(Share::All, |g| g.share(kind));
                    v.on_produced(frame, share);
                }
                MediaReport::Discarded(tag) => v.on_discarded(*tag),
            }
        }
    }

    fn finish(self, run: &RunView<'_>) -> Vec<Table> {
        let mut tables = VideoTables::default();
        for (row, v) in self.per_receiver.iter().enumerate() {
            if let Some(v) = v {
                let r = &run.receivers[row];
                let (frames, metrics) = v.evaluate(r.measure_from, r.measure_to, run.end);
                tables.add(r.flow as u64, r.index as u64, v.is_simulcast(), frames, metrics);
            }
        }
        if tables.is_empty() {
            Vec::new()
        } else {
            tables.into_tables().into()
        }
    }
}
