//! Protocols: one folder each, a sans-IO `Sender`/`Receiver` pair with its configuration.
//! Each exposes `pair(config, Application, packet_size, start, stop) -> Result<EndpointPair, String>`
//! (or a fixed-application variant of it), which drivers call to build a flow.

pub mod app;
pub mod tcp;
pub mod udp;

pub use app::Application;
