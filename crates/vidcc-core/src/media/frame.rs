//! Video frames and the tags their packets carry.
//!
//! A frame is identified by its display index (`id`, 0-based in display order); the GOP pattern
//! decides its type and its decode order. Sizes are bytes of coded data for the whole frame
//! (all layers); layered and simulcast streams say how those bytes split (see `layers.rs`).

use crate::time::Instant;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FrameType {
    I,
    P,
    B,
}

impl FrameType {
    pub fn as_char(self) -> char {
        match self {
            FrameType::I => 'I',
            FrameType::P => 'P',
            FrameType::B => 'B',
        }
    }
    pub fn from_char(c: char) -> Option<Self> {
        match c.to_ascii_uppercase() {
            'I' => Some(FrameType::I),
            'P' => Some(FrameType::P),
            'B' => Some(FrameType::B),
            _ => None,
        }
    }
    /// Wire code (0 = none, 1 = I, 2 = P, 3 = B), as carried in headers and packet tags.
    pub fn code(self) -> u8 {
        match self {
            FrameType::I => 1,
            FrameType::P => 2,
            FrameType::B => 3,
        }
    }
    pub fn from_code(c: u8) -> Option<Self> {
        match c {
            1 => Some(FrameType::I),
            2 => Some(FrameType::P),
            3 => Some(FrameType::B),
            _ => None,
        }
    }
}

/// One coded frame as a source produces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Display index, 0-based.
    pub id: u32,
    pub frame_type: FrameType,
    /// Coded size of the whole frame (all layers), bytes.
    pub size_bytes: u32,
    /// When the encoder hands the frame to the sender (for a live source, its capture time).
    pub ready_at: Instant,
}

/// Media facts a packet carries for drivers and evaluation (never read back from the network by
/// a protocol; protocols that need them put them in their own headers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MediaTag {
    /// Display index of the frame (`u32::MAX`: not a media packet).
    pub frame: u32,
    /// `FrameType::code()`; 0 for none.
    pub frame_type: u8,
    /// Layer (layered video, 0 = base) or stream (simulcast) index.
    pub layer: u8,
    /// Index of this packet within its frame's packets of this layer, and their count.
    pub index: u16,
    pub count: u16,
}

impl MediaTag {
    pub const NONE: MediaTag = MediaTag { frame: u32::MAX, frame_type: 0, layer: 0, index: 0, count: 0 };
    pub fn is_media(&self) -> bool {
        self.frame != u32::MAX
    }
}
