//! `ssvp` and `ssvp-layered`: the Scalable Streaming Video Protocol (Papadimitriou &
//! Tsaoussidis, Computer Networks 2007; seed 001, docs/papers/ssvp.md) and its
//! receiver-buffered layered adaptation (SSVP-LA).
//!
//! SSVP is a paced, unreliable, sender-driven rate control over UDP: the receiver answers every
//! data packet with a control packet echoing its timestamp and a congestion bit CIn (set on a
//! sequence gap or a receive timeout); once per RTT the sender decreases the rate to β·R if the
//! share of marked control packets exceeds 0.005, increases it by α packets per RTT if none was
//! marked, and holds otherwise; during startup it increases on every control packet until the
//! first mark. The sender computes STO (a TCP-like timeout) and ships it to the receiver.
//!
//! - [`controller`]: the rate controller on bare state ([`Controller`], Alg. 2, Eqs. 2–10);
//! - [`sender`]: the sender endpoint (pacing, STO shipping, bulk / live video / stored layered
//!   video);
//! - [`receiver`]: CIn marking on gap or timeout, the control packets, SSVP-LA's buffers;
//! - [`layered`]: SSVP-LA's add rule (Eqs. 11–17) and docs/papers/ssvp.md's drop rule (A-LA-5);
//! - [`config`]: every parameter with its default and source; wire format in `wire::ssvp`.
//!
//! Parameters (defaults = the paper's values, [I]/[U] choices of docs/papers/ssvp.md otherwise):
//! see [`SsvpConfig`] and [`SsvpLayeredConfig`]. Deviations and choices: `docs/protocols/ssvp.md`
//! (the most important: Eq. 10 is read as an additive increase of α packets per RTT, A-RATE-1).

pub mod claims;
pub mod config;
pub mod controller;
pub mod layered;
pub mod receiver;
pub mod sender;
#[cfg(test)]
mod tests;

pub use config::{
    AdjustPeriod, BufferPolicy, ConsumptionRule, DeviationForm, IncreaseLaw, LayerPolicy, PostLossFactor, SsvpConfig,
    SsvpLayeredConfig,
};
pub use controller::{Controller, Decision};
pub use layered::{LayerAdaptation, LayerChange};
pub use receiver::SsvpReceiver;
pub use sender::SsvpSender;

use crate::endpoint::EndpointPair;
use crate::media::playout::{LayerBuffers, PlayoutConfig};
use crate::proto::Application;
use crate::time::{Duration, Instant};
use crate::units::DataSize;

/// An `ssvp` flow carrying `app` (bulk data or video) in packets of `packet_size` wire bytes.
pub fn pair(
    config: &SsvpConfig,
    app: Application,
    packet_size: DataSize,
    start: Instant,
    stop: Option<Instant>,
) -> Result<EndpointPair, String> {
    config.validate()?;
    let sender = SsvpSender::new(config, app, packet_size, start, stop, None)?;
    let receiver = SsvpReceiver::new(config.control_packet_bytes, config.receiver_timeout_guard, None);
    Ok(EndpointPair { sender: Box::new(sender), receiver: Box::new(receiver) })
}

/// An `ssvp-layered` flow: `app` must be a layered video.
pub fn layered_pair(
    config: &SsvpLayeredConfig,
    app: Application,
    packet_size: DataSize,
    start: Instant,
    stop: Option<Instant>,
) -> Result<EndpointPair, String> {
    config.validate()?;
    let frame_interval = match &app {
        Application::Video(s) => s.frame_interval(),
        Application::Bulk => Duration::from_millis(40),
    };
    let sender = SsvpSender::new(&config.ssvp, app, packet_size, start, stop, Some(config))?;
    let playout = PlayoutConfig {
        startup_delay: Duration::from_nanos(config.playout_delay_ns),
        frame_interval,
        ..PlayoutConfig::default()
    };
    let receiver = SsvpReceiver::new(
        config.ssvp.control_packet_bytes,
        config.ssvp.receiver_timeout_guard,
        Some(LayerBuffers::new(&playout)),
    );
    Ok(EndpointPair { sender: Box::new(sender), receiver: Box::new(receiver) })
}
