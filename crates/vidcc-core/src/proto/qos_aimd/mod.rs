//! `qos-aimd`: the QoS-aware, TCP-friendly window AIMD transport of Cai, Shen, Mark and Pan,
//! "A QoS-Aware AIMD Protocol for Time-Sensitive Applications in Wired/Wireless Networks"
//! (`docs/papers/qos-aimd.md`, seed 003), with its analytic model and cross-layer
//! parameter selection ([`model`]).
//!
//! A DCCP-CCID2-like unreliable, window-based protocol (paper §II): the receiver acks every
//! packet with a 24-bit `ack_a` and a selective-ack vector ([`crate::wire::qos_aimd`]) and
//! advertises rwnd; the sender runs TCP-SACK-like slow start, congestion avoidance adding α
//! packets per RTT, a reduction to β × outstanding packets once per window when three packets
//! above a hole are acked, and timeouts that restart from IW; nothing is retransmitted. α and β
//! are tied by eq. (10), α = 3(1 − β)/(1 + β): (0.2, 0.875) by default [P §V].
//!
//! - [`sender`]: the window rules (Fig. 1, events A–F), RTO, spacing, idle restart;
//! - [`receiver`]: the receiver window, status ring and acks;
//! - [`config`]: every parameter with its default and source;
//! - [`model`]: eqs. (1)–(10), W_max and the multi-flow window selection.
//!
//! Parameters ([`QosAimdConfig`], defaults): β 0.875 [P], α from eq. (10) [P], rwnd 64 packets
//! [D] (the paper sets rwnd = B = W_max from [`model::select`]), IW 1 [D], ssthresh unbounded
//! [D], β multiplies TCP's FlightSize [I] ([`config::ReductionBase`]), |sackvec| 16 bits [D],
//! one ack per packet [P], 40-byte acks [D], dupthresh 3 [P], RTO
//! per RFC 6298 with G = 500 ms [P], min 1 s [X], max 60 s [X], timeout ssthresh halving
//! [`config::TimeoutSsthresh::HalveSsthresh`] [P], spacing rtt/W with the smoothed RTT [D],
//! idle restart after one RTO [P/X].
//!
//! Deviations (and why) are listed in each module and in `docs/protocols/qos-aimd.md`:
//! no connection set-up or feature negotiation (|sackvec| and rwnd come from the shared
//! config; DCCP would negotiate them); the data header carries a send timestamp so that a
//! receiving application can measure delay jitter; acks are padded to a fixed wire size.

pub mod config;
pub mod model;
#[cfg(test)]
mod model_tests;
pub mod receiver;
pub mod sender;
#[cfg(test)]
mod tests;

pub use config::{Pacing, QosAimdConfig, ReductionBase, SpacingScope, TimeoutSsthresh};
pub use receiver::{QosAimdReceiver, ReceiverCounters};
pub use sender::{QosAimdSender, SenderCounters};

use crate::endpoint::EndpointPair;
use crate::proto::Application;
use crate::units::DataSize;
use crate::Instant;

/// A QoS-AIMD sender and receiver. `packet_size` is the wire size of a data packet, header
/// included (payload = packet_size − 16 B); the sender starts at `start` and sends no new data
/// from `stop` on.
pub fn pair(
    config: &QosAimdConfig,
    app: Application,
    packet_size: DataSize,
    start: Instant,
    stop: Option<Instant>,
) -> Result<EndpointPair, String> {
    config.validate()?;
    let sender = QosAimdSender::new(config, app, packet_size, start, stop)?;
    Ok(EndpointPair { sender: Box::new(sender), receiver: Box::new(QosAimdReceiver::new(config)) })
}
