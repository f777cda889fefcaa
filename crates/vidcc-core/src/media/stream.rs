//! What a video sender draws from: one frame per frame interval, as one or more parts.
//!
//! - `Single`: one part (the whole frame), tagged layer 0.
//! - `Layered`: k cumulative layers (DVRC digest §2.2): part i is layer i of the frame; a sender
//!   transmitting K layers sends parts 0..K.
//! - `Simulcast`: n alternative streams of the same content at different rates (SRAMT-S): part j
//!   is the frame as stream j codes it; a sender transmits one of them, tagged layer j.
//!
//! Every video-carrying protocol (unresponsive UDP now; DVRC, SSVP, TFRC, the multicast schemes
//! later) takes a `VideoStream` and decides how many parts, or which one, to send.

use super::layers::{LayerSizes, LayeredSource, ScaledSource, SimulcastSource};
use super::source::FrameSource;
use super::Frame;
use crate::time::Duration;

pub type BoxedSource = Box<dyn FrameSource + Send>;

pub enum VideoStream {
    Single(BoxedSource),
    /// Layers split a source's frames (scaled to the full-quality rate, or as is for traces).
    Layered(LayeredSource<BoxedSource>),
    LayeredScaled(LayeredSource<ScaledSource<BoxedSource>>),
    Simulcast(SimulcastSource),
}

/// One frame interval's output: the frame (id, type, ready time; `size_bytes` is the sum of the
/// parts for layered video, stream 0's size for simulcast) and its parts.
#[derive(Clone, Debug)]
pub struct StreamFrame {
    pub frame: Frame,
    pub parts: Vec<u32>,
}

/// How the parts of a stream relate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PartKind {
    /// Cumulative layers: send a prefix.
    Layers,
    /// Alternatives: send one.
    Streams,
}

impl VideoStream {
    pub fn next_frame(&mut self) -> StreamFrame {
        let from_layers = |frame: Frame, layers: LayerSizes| StreamFrame { frame, parts: layers.as_slice().to_vec() };
        match self {
            VideoStream::Single(s) => {
                let frame = s.next_frame();
                StreamFrame { frame, parts: vec![frame.size_bytes] }
            }
            VideoStream::Layered(l) => {
                let f = l.next_layered();
                from_layers(f.frame, f.layers)
            }
            VideoStream::LayeredScaled(l) => {
                let f = l.next_layered();
                from_layers(f.frame, f.layers)
            }
            VideoStream::Simulcast(s) => {
                let frames = s.next_frames();
                StreamFrame { frame: frames[0], parts: frames.iter().map(|f| f.size_bytes).collect() }
            }
        }
    }

    /// Number of parts per frame (layers or streams).
    pub fn parts(&self) -> u8 {
        match self {
            VideoStream::Single(_) => 1,
            VideoStream::Layered(l) => l.rates().count() as u8,
            VideoStream::LayeredScaled(l) => l.rates().count() as u8,
            VideoStream::Simulcast(s) => s.count() as u8,
        }
    }

    pub fn kind(&self) -> PartKind {
        match self {
            VideoStream::Simulcast(_) => PartKind::Streams,
            _ => PartKind::Layers,
        }
    }

    pub fn frame_interval(&self) -> Duration {
        match self {
            VideoStream::Single(s) => s.frame_interval(),
            VideoStream::Layered(l) => l.source().frame_interval(),
            VideoStream::LayeredScaled(l) => l.source().frame_interval(),
            VideoStream::Simulcast(s) => s.frame_interval(),
        }
    }
}
