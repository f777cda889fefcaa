//! The video model: frames and GOPs, frame-size sources (traces, TES, CBR), layered, simulcast
//! and rate-adaptive streams, the packetizer, the sender buffer, and the receiver's playout and
//! decodability rules with the papers' delivery metrics.

pub mod frame;

pub use frame::{Frame, FrameType, MediaTag};
