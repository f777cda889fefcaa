//! `rlc`: RLC, receiver-driven layered congestion control (L. Vicisano, L. Rizzo, J. Crowcroft,
//! "TCP-like congestion control for layered multicast data transfer", INFOCOM 1998), as the
//! docs/papers/sramt.md summarises it for the comparison of the SRAMT paper's §9
//! (docs/papers/sramt.md §2.2, rules tagged \[X\]). Bulk data.
//!
//! - **Layers** \[X\]: n cumulative layers; layer 0 sends B₀, layer i ≥ 1 sends 2^(i−1)·B₀, so
//!   level L (layers 0..L−1) receives 2^(L−1)·B₀: the cumulative rate doubles per layer.
//! - **Synchronisation points** \[X\]: SP k at start + k·P₀; it is a point of level L when
//!   2^(L−1) divides k, so level L's points are 2^(L−1)·P₀ apart (in proportion to its cumulative
//!   rate) and a higher level's points are a subset of a lower one's. Every packet carries the
//!   index of the latest SP; receivers notice a point on the first base-layer packet that
//!   carries it.
//! - **Bursts** \[X\]: for `burst` before SP k the layers of the levels that may join at k send
//!   at double rate, then pause for `burst` (each layer's mean rate is unchanged): a receiver's
//!   level briefly carries the next level's rate, a join experiment without joining.
//! - **Receivers** \[X\]: start at level 1; on a loss (a sequence gap on any subscribed layer)
//!   drop the top layer at once and ignore further losses for the deaf period; at an SP of
//!   their level, join the next layer if no loss was seen since the previous SP of their level.
//!   No feedback: the scheme scales with the receivers.
//!
//! Parameters ([`RlcConfig`], all \[R\]: docs/papers/sramt.md records none): n = 6, B₀ = 32 kbit/s,
//! P₀ = 1 s, burst 250 ms, deaf period 1 s. Deviations (`docs/protocols/rlc.md`): bulk data
//! only; losses inside the deaf period cause no drop but still forbid the next join.

pub mod config;
pub mod receiver;
pub mod sender;
#[cfg(test)]
mod tests;
pub mod wire;

pub use config::RlcConfig;
pub use receiver::RlcReceiver;
pub use sender::RlcSender;

use crate::endpoint::FlowEndpoints;
use crate::proto::registry::FlowContext;
use crate::proto::Application;

/// Bytes of the data header (the registry's header size).
pub const HEADER_BYTES: usize = wire::HEADER_BYTES;

/// The registry's factory of `rlc`.
pub fn build(cfg: &RlcConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    if !matches!(ctx.app, Application::Bulk) {
        return Err("rlc carries bulk data only: drop the flow's video table".into());
    }
    let sender = RlcSender::new(cfg, ctx.packet_size, ctx.start, ctx.stop)?;
    let mut receivers: Vec<Box<dyn crate::endpoint::Endpoint + Send>> = Vec::with_capacity(ctx.members.len());
    for (i, m) in ctx.members.iter().enumerate() {
        if !m.groups.is_empty() {
            return Err(format!(
                "receiver {i}: rlc receivers choose their layers themselves (start at level 1); drop its groups"
            ));
        }
        receivers.push(Box::new(RlcReceiver::new(cfg, m)));
    }
    Ok(FlowEndpoints { sender: Box::new(sender), receivers })
}
