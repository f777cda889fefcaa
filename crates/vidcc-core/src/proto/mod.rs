//! Protocols: one folder each, a sans-IO `Sender`/`Receiver` pair with its configuration.
//! Each exposes `pair(config, Application, packet_size, start, stop) -> Result<EndpointPair, String>`
//! (or a fixed-application variant of it), which drivers call to build a flow.

pub mod app;
pub mod dvrc;
pub mod gaimd;
pub mod qos_aimd;
pub mod rtcp_udp;
pub mod ssvp;
pub mod tcp;
pub mod tfrc;
pub mod udp;

#[cfg(test)]
pub(crate) mod testing;

pub use app::Application;
