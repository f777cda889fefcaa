//! What a video sender's application produced, reported to the driver's judge.
//!
//! The delivery metrics (`metrics.rs`) count "packets sent by the application, whether or not
//! they left the sender", and a frame still waiting in a sender buffer at its deadline must be
//! judged like any other. The packets on the wire cannot say that, so a video sender keeps a
//! [`MediaLog`]: one [`MediaReport::Produced`] per frame as the application packetized it
//! (the parts it chose: K cumulative layers, one simulcast stream, every group of a multicast
//! sender), and one [`MediaReport::Discarded`] per packet its sender buffer dropped. A driver
//! drains it with [`crate::Endpoint::poll_media`] after turning it on with
//! [`crate::Endpoint::enable_media_reports`]; until then nothing is kept, so a driver that never
//! judges production (the real-network driver) pays nothing.
//!
//! These reports are not [`crate::Event`]s: there is one per frame (and one per buffer drop),
//! which would bloat the `events` table; only the video recorder reads them.

use std::collections::VecDeque;

use crate::media::frame::{Frame, FrameType, MediaTag};
use crate::time::Instant;

/// One frame as the sender's application produced it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProducedFrame {
    /// Display index (`MediaTag::frame`).
    pub id: u32,
    pub frame_type: FrameType,
    /// When the application made it (its send slot; decode order for B frames).
    pub ready_at: Instant,
    /// The media-tag layer of the first part produced: 0 for cumulative layers, the stream's
    /// index for one simulcast stream, the encoding of a rate-adaptive frame.
    pub first_layer: u8,
    /// Packets of each part produced, from `first_layer` on (the tags' `count`s).
    pub packets_per_layer: Vec<u16>,
}

impl ProducedFrame {
    /// A frame of packets `packets` (`(payload length, tag)`, as the packetizer made them, in
    /// layer order).
    pub fn from_packets<'a>(frame: &Frame, packets: impl IntoIterator<Item = &'a MediaTag>) -> Self {
        let mut first_layer = None;
        let mut ppl: Vec<u16> = Vec::new();
        for tag in packets {
            let first = *first_layer.get_or_insert(tag.layer);
            let l = tag.layer.saturating_sub(first) as usize;
            if ppl.len() <= l {
                ppl.resize(l + 1, 0);
            }
            ppl[l] = tag.count;
        }
        ProducedFrame {
            id: frame.id,
            frame_type: frame.frame_type,
            ready_at: frame.ready_at,
            first_layer: first_layer.unwrap_or(0),
            packets_per_layer: ppl,
        }
    }
}

/// A video sender's report to its driver (module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MediaReport {
    /// The application produced a frame.
    Produced(ProducedFrame),
    /// The sender buffer dropped this packet: it will never leave the sender.
    Discarded(MediaTag),
}

/// The reports a sender has not handed to its driver yet; empty and inert until enabled.
#[derive(Clone, Debug, Default)]
pub struct MediaLog {
    enabled: bool,
    queue: VecDeque<MediaReport>,
}

impl MediaLog {
    pub fn enable(&mut self) {
        self.enabled = true;
    }
    pub fn is_enabled(&self) -> bool {
        self.enabled
    }
    pub fn push(&mut self, report: MediaReport) {
        if self.enabled {
            self.queue.push_back(report);
        }
    }
    pub fn pop(&mut self) -> Option<MediaReport> {
        self.queue.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_is_kept_until_enabled() {
        let mut log = MediaLog::default();
        log.push(MediaReport::Discarded(MediaTag::NONE));
        assert_eq!(log.pop(), None);
        log.enable();
        log.push(MediaReport::Discarded(MediaTag::NONE));
        assert_eq!(log.pop(), Some(MediaReport::Discarded(MediaTag::NONE)));
    }

    #[test]
    fn a_frame_counts_its_packets_per_part_from_its_first_tag_layer() {
        let f = Frame { id: 7, frame_type: FrameType::P, size_bytes: 0, ready_at: Instant::from_nanos(5) };
        let tag = |layer, index, count| MediaTag { frame: 7, frame_type: FrameType::P.code(), layer, index, count };
        let tags = [tag(2, 0, 2), tag(2, 1, 2), tag(3, 0, 1)];
        let p = ProducedFrame::from_packets(&f, &tags);
        assert_eq!((p.first_layer, p.packets_per_layer), (2, vec![2, 1]));
    }
}
