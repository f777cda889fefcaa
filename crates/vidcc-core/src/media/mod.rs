//! The video model: frames and GOPs, frame-size sources (traces, TES, CBR), layered, simulcast
//! and rate-adaptive streams, the packetizer, the sender buffer, and the receiver's playout and
//! decodability rules with the papers' delivery metrics.

pub mod config;
pub mod decodability;
pub mod frame;
pub mod gop;
pub mod layers;
pub mod metrics;
pub mod paced;
pub mod packetizer;
pub mod playout;
pub mod quality;
pub mod record;
pub mod report;
pub mod sender_buffer;
pub mod source;
pub mod stream;
pub mod tes;
pub mod trace;

pub use frame::{Frame, FrameType, MediaTag};
