//! `udp`: an unresponsive constant-bit-rate media flow over UDP.
//!
//! The baseline every paper uses for "no congestion control" (DVRC Fig. 11b, SSVP's UDP flows,
//! ns-2 `Application/Traffic/CBR` over `Agent/UDP`). The sender emits one packet of
//! `packet_size` bytes on the wire every `packet_size / rate`, from `start` until `stop`,
//! whatever happens to them. The receiver only counts; it sends nothing back.
//!
//! Parameters: `rate` (required), `packet_size` (wire bytes, header included; default 1000 B),
//! `start` (default 0), `stop` (default never).
//!
//! Deviations: none; ns-2 CBR's optional random jitter (`random_`) is not modelled (off by
//! default in ns-2 too).

mod config;
mod receiver;
mod sender;
#[cfg(test)]
mod tests;
mod video_sender;

pub use config::UdpConfig;
pub use receiver::UdpReceiver;
pub use sender::UdpSender;
pub use video_sender::UdpVideoSender;

use crate::endpoint::EndpointPair;

pub fn pair(config: &UdpConfig) -> EndpointPair {
    EndpointPair { sender: Box::new(UdpSender::new(config.clone())), receiver: Box::new(UdpReceiver::new()) }
}
