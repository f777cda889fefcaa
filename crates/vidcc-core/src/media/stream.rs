//! What a video sender draws from: one frame per frame interval, as one or more parts.
//!
//! - `Single`: one part (the whole frame), tagged layer 0.
//! - `Layered`: k cumulative layers (docs/papers/dvrc.md §2.2): part i is layer i of the frame; a
//!   sender transmitting K layers sends parts 0..K.
//! - `Simulcast`: n alternative streams of the same content at different rates (SRAMT-S): part j
//!   is the frame as stream j codes it; a sender transmits one of them, tagged layer j.
//!
//! - `RateAdaptive`: one trace per quantizer (Evalvid-RA, [`RateAdaptiveSource`]): one part, the
//!   frame as the trace chosen at its GOP start codes it; [`StreamFrame::encoding`] says which
//!   (its position in the scenario's `traces` list) and rides in the packets' layer tag. The
//!   sender steers it with [`VideoStream::set_target_rate`] (see `media/paced.rs`).
//!
//! Every video-carrying protocol (unresponsive UDP now; DVRC, SSVP, TFRC, the multicast schemes
//! later) takes a `VideoStream` and decides how many parts, or which one, to send.
//!
//! **Send order.** Sources make frames in display order. An encoder with B frames transmits them
//! in decode order — an anchor before the B frames that precede it on screen — and Evalvid's
//! sender sends the k-th frame of the bitstream at k/fps. `SendOrder::Decode` (the default) does
//! the same: B frames are held until their forward anchor has been emitted, and the k-th frame
//! emitted is ready at `t0 + k·interval` (`t0`: the first frame's ready time). This is stored-video
//! timing, as in Evalvid: the anchor is not delayed by its capture time. `SendOrder::Display`
//! emits frames as the source makes them (a B frame then leaves before its forward anchor).

use super::layers::{LayerRates, LayerSizes, LayeredSource, RateAdaptiveSource, ScaledSource, SimulcastSource};
use super::source::FrameSource;
use super::{Frame, FrameType, MediaTag};
use crate::time::{Duration, Instant};
use std::collections::VecDeque;

pub type BoxedSource = Box<dyn FrameSource + Send>;

/// Where a stream's frames come from (display order).
pub enum StreamSource {
    Single(BoxedSource),
    /// Layers split a source's frames (scaled to the full-quality rate, or as is for traces).
    Layered(LayeredSource<BoxedSource>),
    LayeredScaled(LayeredSource<ScaledSource<BoxedSource>>),
    Simulcast(SimulcastSource),
    /// A rate-adaptive trace set; `encodings[i]` is the scenario's index of the set's i-th trace
    /// (the set sorts its traces by quantizer).
    RateAdaptive {
        source: Box<RateAdaptiveSource>,
        encodings: Vec<u8>,
    },
}

/// One frame interval's output: the frame (id, type, ready time; `size_bytes` is the sum of the
/// parts for layered video, stream 0's size for simulcast) and its parts.
#[derive(Clone, Debug)]
pub struct StreamFrame {
    pub frame: Frame,
    pub parts: Vec<u32>,
    /// Which encoding the frame was cut from (rate-adaptive sets: the trace's index in the
    /// scenario's list); 0 otherwise. Added to the part index in the packets' layer tag.
    pub encoding: u8,
}

/// How the parts of a stream relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// Cumulative layers: send a prefix.
    Layers,
    /// Alternatives: send one.
    Streams,
}

/// The order in which frames leave the sender (module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SendOrder {
    #[default]
    Decode,
    Display,
}

/// A stream source with its send order: what a video-carrying sender draws from.
pub struct VideoStream {
    source: StreamSource,
    order: SendOrder,
    /// Frames ready to emit, in send order.
    queue: VecDeque<StreamFrame>,
    /// B frames waiting for their forward anchor.
    held: Vec<StreamFrame>,
    emitted: u64,
    t0: Option<Instant>,
}

impl VideoStream {
    pub fn new(source: StreamSource, order: SendOrder) -> Self {
        VideoStream { source, order, queue: VecDeque::new(), held: Vec::new(), emitted: 0, t0: None }
    }
    pub fn single(source: BoxedSource) -> Self {
        Self::new(StreamSource::Single(source), SendOrder::Decode)
    }
    pub fn with_order(mut self, order: SendOrder) -> Self {
        self.order = order;
        self
    }
    pub fn order(&self) -> SendOrder {
        self.order
    }

    /// The next frame in send order.
    pub fn next_frame(&mut self) -> StreamFrame {
        if self.order == SendOrder::Display {
            return self.source.next_frame();
        }
        while self.queue.is_empty() {
            let f = self.source.next_frame();
            if f.frame.frame_type == FrameType::B {
                self.held.push(f);
            } else {
                self.queue.push_back(f);
                self.queue.extend(self.held.drain(..));
            }
        }
        let mut f = self.queue.pop_front().expect("filled above");
        let t0 = *self.t0.get_or_insert(f.frame.ready_at);
        f.frame.ready_at = t0 + self.source.frame_interval() * self.emitted;
        self.emitted += 1;
        f
    }

    pub fn parts(&self) -> u8 {
        self.source.parts()
    }
    pub fn kind(&self) -> PartKind {
        self.source.kind()
    }
    pub fn frame_interval(&self) -> Duration {
        self.source.frame_interval()
    }
    pub fn source(&self) -> &StreamSource {
        &self.source
    }
    /// GOP duration of a rate-adaptive set (`None` for other sources).
    pub fn adaptive_gop_duration(&self) -> Option<Duration> {
        match &self.source {
            StreamSource::RateAdaptive { source, .. } => Some(source.set().gop_duration()),
            _ => None,
        }
    }

    /// The rate a rate-adaptive set should fit from its next GOP on; other sources ignore it.
    pub fn set_target_rate(&mut self, rate: crate::units::DataRate) {
        if let StreamSource::RateAdaptive { source, .. } = &mut self.source {
            source.set_target_rate(rate);
        }
    }

    /// Mean rate of the full-quality video: the whole frame (all layers), or the top simulcast
    /// stream.
    pub fn mean_rate(&self) -> crate::units::DataRate {
        match &self.source {
            StreamSource::Single(s) => s.mean_rate(),
            StreamSource::Layered(l) => l.source().mean_rate(),
            StreamSource::LayeredScaled(l) => l.source().mean_rate(),
            StreamSource::Simulcast(s) => s.rate(s.count() - 1),
            StreamSource::RateAdaptive { source, .. } => source.set().mean_rate(0),
        }
    }
    /// The cumulative layer rates of a layered stream (`None` for single and simulcast streams).
    pub fn layer_rates(&self) -> Option<&LayerRates> {
        match &self.source {
            StreamSource::Layered(l) => Some(l.rates()),
            StreamSource::LayeredScaled(l) => Some(l.rates()),
            StreamSource::Single(_) | StreamSource::Simulcast(_) | StreamSource::RateAdaptive { .. } => None,
        }
    }
}

impl StreamSource {
    /// The next frame in display order.
    pub fn next_frame(&mut self) -> StreamFrame {
        let from_layers =
            |frame: Frame, layers: LayerSizes| StreamFrame { frame, parts: layers.as_slice().to_vec(), encoding: 0 };
        match self {
            StreamSource::Single(s) => {
                let frame = s.next_frame();
                StreamFrame { frame, parts: vec![frame.size_bytes], encoding: 0 }
            }
            StreamSource::RateAdaptive { source, encodings } => {
                let frame = source.next_frame();
                StreamFrame { frame, parts: vec![frame.size_bytes], encoding: encodings[source.current_index()] }
            }
            StreamSource::Layered(l) => {
                let f = l.next_layered();
                from_layers(f.frame, f.layers)
            }
            StreamSource::LayeredScaled(l) => {
                let f = l.next_layered();
                from_layers(f.frame, f.layers)
            }
            StreamSource::Simulcast(s) => {
                let frames = s.next_frames();
                StreamFrame { frame: frames[0], parts: frames.iter().map(|f| f.size_bytes).collect(), encoding: 0 }
            }
        }
    }

    /// Number of parts per frame (layers or streams).
    pub fn parts(&self) -> u8 {
        match self {
            StreamSource::Single(_) | StreamSource::RateAdaptive { .. } => 1,
            StreamSource::Layered(l) => l.rates().count() as u8,
            StreamSource::LayeredScaled(l) => l.rates().count() as u8,
            StreamSource::Simulcast(s) => s.count() as u8,
        }
    }

    pub fn kind(&self) -> PartKind {
        match self {
            // One encoding at a time, named by its index: a receiver decodes it as simulcast's.
            StreamSource::Simulcast(_) | StreamSource::RateAdaptive { .. } => PartKind::Streams,
            _ => PartKind::Layers,
        }
    }

    pub fn frame_interval(&self) -> Duration {
        match self {
            StreamSource::Single(s) => s.frame_interval(),
            StreamSource::Layered(l) => l.source().frame_interval(),
            StreamSource::LayeredScaled(l) => l.source().frame_interval(),
            StreamSource::Simulcast(s) => s.frame_interval(),
            StreamSource::RateAdaptive { source, .. } => source.frame_interval(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::gop::GopPattern;
    use crate::media::source::{FrameClock, FrameSource};
    use crate::units::DataRate;

    /// Frames of a GOP pattern, 1000 B each.
    struct Pattern(GopPattern, FrameClock);
    impl FrameSource for Pattern {
        fn next_frame(&mut self) -> Frame {
            let (id, ready_at) = self.1.tick();
            Frame { id, frame_type: self.0.frame_type(id), size_bytes: 1000, ready_at }
        }
        fn frame_interval(&self) -> Duration {
            Duration::from_millis(40)
        }
        fn mean_rate(&self) -> DataRate {
            DataRate::from_kbps(200)
        }
        fn fps(&self) -> f64 {
            25.0
        }
    }

    fn stream(order: SendOrder) -> VideoStream {
        let src = Pattern(GopPattern::parse("IBBPBBPBBPBB").unwrap(), FrameClock::new(Duration::from_millis(40)));
        VideoStream::single(Box::new(src)).with_order(order)
    }

    #[test]
    fn decode_order_sends_anchors_before_their_b_frames_one_per_interval() {
        let mut s = stream(SendOrder::Decode);
        let sent: Vec<(u32, u64)> =
            (0..8).map(|_| s.next_frame().frame).map(|f| (f.id, f.ready_at.as_nanos() / 1_000_000)).collect();
        // I0 P3 B1 B2 P6 B4 B5 P9, at 0, 40, 80, ... ms.
        assert_eq!(sent, [(0, 0), (3, 40), (1, 80), (2, 120), (6, 160), (4, 200), (5, 240), (9, 280)]);
    }

    #[test]
    fn display_order_is_the_source_order() {
        let mut s = stream(SendOrder::Display);
        let ids: Vec<u32> = (0..4).map(|_| s.next_frame().frame.id).collect();
        assert_eq!(ids, [0, 1, 2, 3]);
    }
}

/// Which parts of a frame a sender transmits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartSelection {
    /// The first `k` cumulative layers (every part of a single-layer stream is layer 0).
    Layers(u8),
    /// One simulcast stream (0-based).
    Stream(u8),
    /// Everything: all layers, or the top simulcast stream (full quality).
    Full,
    /// Every part: all layers, or every simulcast stream (a multicast sender feeding a group per
    /// part).
    All,
}

/// Turns a stream's frames into packets as they become ready: the one loop every video sender
/// runs (take each frame ready by `now` and not past `stop`, cut its selected parts into
/// packets, hand them over in order). Senders differ only in which parts they select and where
/// the packets go.
pub struct FrameFeeder {
    stream: VideoStream,
    packetizer: super::packetizer::Packetizer,
    next: StreamFrame,
    stop: Option<Instant>,
    /// Frames skipped because a part needed more than 65 535 packets.
    oversized_frames: u64,
    /// Every frame produced, once enabled (`media/report.rs`).
    log: super::report::MediaLog,
}

impl FrameFeeder {
    /// `max_payload`: payload bytes per packet (packet size minus the protocol's header).
    pub fn new(mut stream: VideoStream, max_payload: u32, stop: Option<Instant>) -> Result<Self, String> {
        let packetizer = super::packetizer::Packetizer::new(max_payload).map_err(|e| e.to_string())?;
        let next = stream.next_frame();
        Ok(FrameFeeder { stream, packetizer, next, stop, oversized_frames: 0, log: Default::default() })
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    /// When the next frame is ready (`None` once past `stop`).
    pub fn next_ready(&self) -> Option<Instant> {
        let t = self.next.frame.ready_at;
        (!self.stopped(t)).then_some(t)
    }

    /// Every frame ready by `now`: `select` picks its parts, `emit(frame, payload_len, tag)`
    /// receives each of its packets in order (layer by layer).
    pub fn produce(
        &mut self,
        now: Instant,
        mut select: impl FnMut(&Frame) -> PartSelection,
        mut emit: impl FnMut(&Frame, u32, MediaTag),
    ) {
        while self.next.frame.ready_at <= now && !self.stopped(self.next.frame.ready_at) {
            let f = self.next.frame;
            let n = self.next.parts.len() as u8;
            let parts = match (select(&f), self.stream.kind()) {
                (PartSelection::Layers(k), PartKind::Layers) => 0..k.clamp(1, n),
                (PartSelection::Full, PartKind::Layers) | (PartSelection::All, _) => 0..n,
                (PartSelection::Stream(j), PartKind::Streams) => j.min(n - 1)..j.min(n - 1) + 1,
                (PartSelection::Full, PartKind::Streams) => n - 1..n,
                // A layer count for simulcast means "the stream of that rank", and vice versa.
                (PartSelection::Layers(k), PartKind::Streams) => k.clamp(1, n) - 1..k.clamp(1, n),
                (PartSelection::Stream(j), PartKind::Layers) => 0..(j + 1).clamp(1, n),
            };
            let mut packets = Vec::new();
            let mut fits = true;
            for layer in parts {
                let tag_layer = layer.saturating_add(self.next.encoding);
                match self.packetizer.fragments(f.id, f.frame_type, tag_layer, self.next.parts[layer as usize]) {
                    Ok(frags) => packets.extend(frags),
                    Err(_) => fits = false,
                }
            }
            if fits {
                let produced = super::report::ProducedFrame::from_packets(&f, packets.iter().map(|(_, tag)| tag));
                self.log.push(super::report::MediaReport::Produced(produced));
                for (len, tag) in packets {
                    emit(&f, len, tag);
                }
            } else {
                self.oversized_frames += 1;
            }
            self.next = self.stream.next_frame();
        }
    }

    pub fn stream(&self) -> &VideoStream {
        &self.stream
    }

    /// From now on, keep a [`super::report::MediaReport::Produced`] per frame for
    /// [`Self::poll_media`].
    pub fn enable_media_reports(&mut self) {
        self.log.enable();
    }
    pub fn poll_media(&mut self) -> Option<super::report::MediaReport> {
        self.log.pop()
    }

    /// The rate a rate-adaptive stream should fit from its next GOP on (other streams ignore it).
    /// The frame after the one pending is drawn with it (the pending one was drawn already).
    pub fn set_target_rate(&mut self, rate: crate::units::DataRate) {
        self.stream.set_target_rate(rate);
    }

    pub fn oversized_frames(&self) -> u64 {
        self.oversized_frames
    }
}
