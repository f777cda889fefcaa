//! Protocols: one folder each, a sans-IO `Sender`/`Receiver` pair with its configuration.
//! Each exposes `build(config, FlowContext) -> Result<FlowEndpoints, String>`, listed once in
//! [`registry`], through which every driver builds a flow (unicast protocols also keep their
//! `pair(...)` constructor, which their unit tests use).

pub mod app;
pub mod asmp;
pub mod dsg;
pub mod dvrc;
pub mod gaimd;
pub mod irfm;
pub mod mlda;
pub mod plausible;
pub mod plm;
pub mod qos_aimd;
pub mod rate_pacing;
pub mod registry;
pub mod rlc;
pub mod rtcp_udp;
pub mod simulcast;
pub mod sramt;
pub mod ssvp;
pub mod tcp;
pub mod tfmcc;
pub mod tfrc;
pub mod udp;
pub mod udp_multicast;

#[cfg(test)]
pub(crate) mod testing;

pub use app::Application;
pub use registry::{FlowContext, ProtocolConfig};
