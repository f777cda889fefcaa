//! Video flows in the simulator: records every media packet (send time, arrival) per receiver,
//! and at the end of the run judges each frame with `vidcc_core::media::record` (shared with the
//! real-network receiver), which applies `vidcc_core::media::decodability` and the delivery
//! metrics of `vidcc_core::media::metrics` (docs/video.md).
//!
//! The frames a sender produced are rebuilt from the media tags of the packets it sent (frame,
//! type, layer, packets in the frame's layer). Frame ids are consecutive, so a frame a sender
//! dropped whole (at its buffer) shows as a gap and is recorded `unsent`, its type taken from the
//! trace (display order, looping) or the GOP pattern. References follow the frames' display-order types: a P frame references the
//! previous anchor (I or P), a B frame the previous and the next anchor; the last B frames of a
//! run, whose forward anchor was never sent, are judged on their backward reference alone.
//!
//! Reliable in-order flows (TCP carrying video) report what their receiver handed to the
//! application ([`Event::Delivered`]), and the recorder judges such a receiver by those reports
//! (see `vidcc_core::media::record`).
//!
//! The end of a run cuts some frames short: packets still in the network, or a playout deadline
//! after the last instant simulated. Their fate is unknown, so they are neither lost nor late:
//! the frames table marks them `pending`, and the measurement window ends at the first of them.

use vidcc_core::media::config::VideoConfig;
pub use vidcc_core::media::record::{FrameRow, VideoRecorder, VideoTables};
use vidcc_core::{Event, Instant};

use super::{ReceiverInfo, Recorder, RunView, Side};
use crate::metrics::Table;
use crate::packet::{DropReason, Packet, RecordRows};

/// The video record of every receiver of a video flow (`None` for receivers of other flows).
pub struct VideoRecorders {
    per_receiver: Vec<Option<VideoRecorder>>,
    /// (flow, index among its receivers) of every receiver row, in row order (flow by flow).
    rows: Vec<(u32, u32)>,
}

impl VideoRecorders {
    /// `video_of(flow)`: the flow's video configuration, if it carries video.
    pub fn new(receivers: &[ReceiverInfo], video_of: &dyn Fn(u32) -> Option<VideoConfig>) -> Self {
        VideoRecorders {
            per_receiver: receivers.iter().map(|r| video_of(r.flow).map(VideoRecorder::new)).collect(),
            rows: receivers.iter().map(|r| (r.flow, r.index)).collect(),
        }
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
