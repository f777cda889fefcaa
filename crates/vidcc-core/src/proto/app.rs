//! What a protocol's sender carries: always-backlogged bulk data, or a video stream.
//!
//! Protocols that carry media take the `VideoStream` (from `media::stream`) and decide how many
//! layers, or which stream, to send; bulk senders fill every packet to the configured size.
//! Every media packet carries its `MediaTag` in `PacketMeta::media`, so that drivers can judge
//! frames at the receiver.

use crate::media::stream::VideoStream;

pub enum Application {
    /// Always backlogged: as much data as the protocol allows (the papers' FTP-like sources).
    Bulk,
    Video(VideoStream),
}

impl Application {
    pub fn is_video(&self) -> bool {
        matches!(self, Application::Video(_))
    }
}
