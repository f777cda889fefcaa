//! Video over TCP: the application side of a TCP agent carrying the flow's `video` (the DVRC and
//! SSVP papers' "TCP Westwood+ carrying MPEG" baseline, docs/papers/dvrc.md §1.3 and Table 2,
//! docs/papers/ssvp.md §3 "TCPW+ (carrying MPEG)"; issue 13). Works with every TCP variant on the shared sender.
//!
//! Application semantics (the paper pages (docs/papers/) say only "reliable, in-order ⇒ HOL delays"
//! and leave the sender buffer open, DVRC U10; the choices below are ours, [D]):
//! - **Frames are written at their generation time.** Each frame that becomes ready (the
//!   stream's ready time, the same frames a `udp`, `dvrc` or `ssvp` flow of that video sends) is
//!   written whole (every layer: full quality, as the papers' TCPW+ sends) into the **send
//!   buffer**, as one write of a byte stream: its bytes, layer after layer, are cut into
//!   segments of `packet_size − 40` payload bytes, the last one short. A segment may hold the end
//!   of one layer and the start of the next; it is tagged with the lowest layer it holds, which
//!   is exact for cumulative layers (a layer is usable only with every layer below it, and the
//!   segment is needed by the lowest one). A layer that fits inside a segment tagged with a
//!   lower layer has no segment of its own (and a frame's `layers_sent` in the frames table
//!   counts only the layers that own a segment: small B frames of a layered video show fewer).
//! - **The send buffer is unbounded and never drops**, like a socket the application writes into:
//!   TCP is reliable, so late data is still delivered, late. (A bounded or deadline-dropping
//!   buffer is a possible option; nothing in the papers asks for it.)
//! - **Segments leave as the window allows**, in order. Two frames never share a segment (as
//!   with TCP_NODELAY and an open window; a real stack would coalesce a backlog across frames,
//!   which a segment tagged with one frame cannot express). A segment keeps its payload and media
//!   tag for retransmissions, and is forgotten once acknowledged.
//! - **The receiver hands data up in order** and reports how far it got
//!   ([`crate::Event::Delivered`]); the simulator dates each video packet's arrival by that
//!   report, so a frame is complete when its last byte reaches the application, head-of-line
//!   blocking included, and is on time if that is no later than its playout deadline.
//!
//! Deviations from ns-2: ns-2's one-way agent rounds each application write up to whole
//! full-size segments (`sendmsg`); here a frame's last segment is as long as its data.
//! Segment numbers still count segments, as everywhere in these agents.

use std::collections::VecDeque;

use crate::media::report::{MediaLog, MediaReport, ProducedFrame};
use crate::media::sender_buffer::{SenderBuffer, SenderBufferConfig};
use crate::media::stream::{FrameFeeder, PartSelection, VideoStream};
use crate::media::{Frame, MediaTag};
use crate::time::{Duration, Instant};

/// The video application of one TCP sender: frames in, segments out.
pub struct TcpVideoSource {
    feeder: FrameFeeder,
    /// Packets written but not yet given a segment number.
    buffer: SenderBuffer,
    /// Segments `base..base + sent.len()`: numbered (sent at least once), not yet acknowledged.
    sent: VecDeque<(u32, MediaTag)>,
    base: u64,
    /// Payload bytes of a full segment.
    payload_bytes: u32,
    /// Every frame written, as segments (`media/report.rs`), once enabled.
    log: MediaLog,
}

impl TcpVideoSource {
    /// `payload_bytes`: the most application bytes per segment (packet size − 40).
    pub fn new(stream: VideoStream, payload_bytes: u32, stop: Option<Instant>) -> Result<Self, String> {
        let feeder = FrameFeeder::new(stream, payload_bytes, stop)?;
        // Unbounded in age and size: a TCP application's writes are never thrown away.
        let buffer = SenderBuffer::new(SenderBufferConfig {
            max_age: Duration::MAX,
            max_packets: usize::MAX,
            ..SenderBufferConfig::default()
        });
        Ok(TcpVideoSource { feeder, buffer, sent: VecDeque::new(), base: 0, payload_bytes, log: MediaLog::default() })
    }

    /// Writes every frame ready by `now` into the send buffer.
    pub fn produce(&mut self, now: Instant) {
        let mut pieces: Vec<(Frame, u32, MediaTag)> = Vec::new();
        self.feeder.produce(now, |_| PartSelection::Full, |frame, len, tag| pieces.push((*frame, len, tag)));
        for frame in pieces.chunk_by(|a, b| a.0.id == b.0.id) {
            self.write_frame(now, frame);
        }
    }

    /// One frame's packets (layer by layer, as the feeder cut them) re-cut into full segments,
    /// each tagged with the lowest layer it holds (see the module docs).
    fn write_frame(&mut self, now: Instant, pieces: &[(Frame, u32, MediaTag)]) {
        let Some(&(frame, _, first)) = pieces.first() else { return };
        let max = self.payload_bytes;
        // (payload, lowest layer) of each segment.
        let mut segments: Vec<(u32, u8)> = Vec::new();
        let mut open: Option<(u32, u8)> = None;
        for &(_, len, tag) in pieces {
            let mut left = len;
            while left > 0 {
                let (filled, layer) = open.get_or_insert((0, tag.layer));
                let take = left.min(max - *filled);
                *filled += take;
                left -= take;
                if *filled == max {
                    segments.push((max, *layer));
                    open = None;
                }
            }
        }
        segments.extend(open);
        let mut per_layer = [0u16; 256];
        for &(_, l) in &segments {
            per_layer[l as usize] = per_layer[l as usize].saturating_add(1);
        }
        let mut index = [0u16; 256];
        let mut tags = Vec::with_capacity(segments.len());
        for (len, l) in segments {
            let tag = MediaTag { layer: l, index: index[l as usize], count: per_layer[l as usize], ..first };
            index[l as usize] += 1;
            self.buffer.push(now, tag, len, frame.ready_at);
            tags.push(tag);
        }
        // What the application produced is these segments: the judge counts them.
        self.log.push(MediaReport::Produced(ProducedFrame::from_packets(&frame, &tags)));
    }

    /// Reports of the frames written (the buffer never drops: nothing else to report).
    pub fn enable_media_reports(&mut self) {
        self.log.enable();
    }
    pub fn poll_media(&mut self) -> Option<MediaReport> {
        self.log.pop()
    }

    /// One past the highest segment number given out.
    fn end(&self) -> u64 {
        self.base + self.sent.len() as u64
    }

    /// Whether segment `seq` has data at `now`: a numbered segment (a retransmission), or the
    /// next new one if the buffer holds a packet for it (which then gets that number).
    pub fn has(&mut self, seq: u64, now: Instant) -> bool {
        self.produce(now);
        if seq < self.end() {
            return seq >= self.base;
        }
        if seq > self.end() {
            return false;
        }
        match self.buffer.pop(now) {
            Some(p) => {
                self.sent.push_back((p.size_bytes, p.tag));
                true
            }
            None => false,
        }
    }

    /// Payload bytes and media tag of numbered segment `seq` (`None`: never numbered, or
    /// already acknowledged).
    pub fn segment(&self, seq: u64) -> Option<(u32, MediaTag)> {
        let i = seq.checked_sub(self.base)?;
        self.sent.get(usize::try_from(i).ok()?).copied()
    }

    /// Every segment below `ack` is acknowledged: its data leaves the send buffer.
    pub fn release(&mut self, ack: u64) {
        while self.base < ack && self.sent.pop_front().is_some() {
            self.base += 1;
        }
    }

    /// When the next frame is written (`None` once the video has stopped).
    pub fn next_ready(&self) -> Option<Instant> {
        self.feeder.next_ready()
    }

    /// Packets written and not yet numbered (the unsent part of the send buffer).
    pub fn backlog(&self) -> usize {
        self.buffer.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::layers::{LayerRates, LayeredSource};
    use crate::media::source::CbrSource;
    use crate::media::stream::{SendOrder, StreamSource};
    use crate::units::DataRate;

    fn source() -> TcpVideoSource {
        // 400 kbit/s at 25 fps: 2000 B frames, 960 B of payload per segment → 960, 960, 80.
        let src: Box<dyn crate::media::source::FrameSource + Send> =
            Box::new(CbrSource::for_rate(DataRate::from_kbps(400), 25.0).unwrap());
        TcpVideoSource::new(VideoStream::single(src), 960, None).unwrap()
    }

    #[test]
    fn a_layered_frame_is_one_write_cut_into_full_segments_tagged_by_lowest_layer() {
        // 1 Mbit/s at 25 fps: 5000 B frames; layers 128/256/512/768/1024 kbit/s cumulative →
        // 625, 625, 1250, 1250, 1250 B, i.e. layers start at bytes 0, 625, 1250, 2500, 3750.
        // Segments of 960 B start at 0 (layer 0), 960 (1), 1920 (2), 2880 (3), 3840 (4) and
        // 4800 (4, 200 B): layer 4 has two segments, the others one each.
        let src: Box<dyn crate::media::source::FrameSource + Send> =
            Box::new(CbrSource::for_rate(DataRate::from_mbps(1), 25.0).unwrap());
        let rates = LayerRates::dvrc_default();
        let stream = VideoStream::new(StreamSource::Layered(LayeredSource::new(src, rates)), SendOrder::Decode);
        let mut s = TcpVideoSource::new(stream, 960, None).unwrap();
        let t0 = Instant::ZERO;
        let segs: Vec<(u32, u8, u16, u16)> = (0..6)
            .map(|i| {
                assert!(s.has(i, t0));
                let (len, tag) = s.segment(i).unwrap();
                (len, tag.layer, tag.index, tag.count)
            })
            .collect();
        assert_eq!(
            segs,
            [(960, 0, 0, 1), (960, 1, 0, 1), (960, 2, 0, 1), (960, 3, 0, 1), (960, 4, 0, 2), (200, 4, 1, 2)]
        );
        assert!(!s.has(6, t0), "the next frame is not written before 40 ms");
    }

    #[test]
    fn frames_become_segments_in_order_and_stay_until_acknowledged() {
        let mut s = source();
        let t0 = Instant::ZERO;
        assert!(s.has(0, t0) && s.has(1, t0) && s.has(2, t0));
        assert!(!s.has(3, t0), "frame 1 is not ready before 40 ms");
        assert!(!s.has(5, t0), "a segment beyond the next new one never exists");
        assert_eq!(s.segment(0).map(|x| (x.0, x.1.frame, x.1.index)), Some((960, 0, 0)));
        assert_eq!(s.segment(2).map(|x| (x.0, x.1.index, x.1.count)), Some((80, 2, 3)));
        assert_eq!(s.next_ready(), Some(Instant::from_nanos(40_000_000)));
        // Retransmissions find their segment again until it is acknowledged.
        s.release(2);
        assert!(s.segment(1).is_none() && !s.has(1, t0));
        assert_eq!(s.segment(2).map(|x| x.0), Some(80));
        let t1 = Instant::from_nanos(40_000_000);
        assert!(s.has(3, t1));
        assert_eq!(s.segment(3).map(|x| x.1.frame), Some(1));
        assert_eq!(s.backlog(), 2, "two packets of frame 1 written, not yet numbered");
    }

    #[test]
    fn nothing_is_dropped_however_long_the_window_stays_shut() {
        let mut s = source();
        s.produce(Instant::from_nanos(10_000_000_000));
        // 10 s of frames (251 of them, 3 packets each) wait in the buffer, none expired.
        assert_eq!(s.backlog(), 251 * 3);
        assert!(s.has(0, Instant::from_nanos(10_000_000_000)));
        assert_eq!(s.segment(0).map(|x| x.1.frame), Some(0));
    }

    #[test]
    fn a_video_receiver_reports_in_order_delivery_and_a_bulk_one_does_not() {
        use crate::endpoint::{Endpoint, Event};
        use crate::proto::tcp::{TcpHeader, TcpReceiver};
        let seg = |r: &mut TcpReceiver, seq: u64| {
            let h = TcpHeader::Data { seq, ts_ns: 0 }.emit();
            crate::proto::testing::receive(r, Instant::ZERO, h.as_slice(), 500).unwrap();
        };
        let mut r = TcpReceiver::new(false, 64).with_delivery_reports();
        seg(&mut r, 0);
        assert_eq!(r.poll_event(), Some(Event::Delivered { up_to: 1 }));
        assert_eq!(r.poll_event(), None);
        seg(&mut r, 2);
        assert_eq!(r.poll_event(), None, "segment 2 waits for segment 1");
        seg(&mut r, 1);
        assert_eq!(r.poll_event(), Some(Event::Delivered { up_to: 3 }));
        let mut bulk = TcpReceiver::new(false, 64);
        seg(&mut bulk, 0);
        assert_eq!(bulk.poll_event(), None);
    }
}
