//! `mlda`: MLDA, the Multicast enhanced Loss-Delay based Adaptation (D. Sisalem, A. Wolisz,
//! "MLDA: A TCP-friendly congestion control framework for heterogeneous multicast
//! environments", IWQoS 2000), as the SRAMT paper page summarises it for the comparison of the
//! SRAMT paper's §9 (docs/papers/sramt.md §2.3, rules tagged \[X\]). Bulk data.
//!
//! - **Receivers** \[X\] measure loss (sequence gaps on their layers), delay (one-way delays,
//!   turned into an RTT by the sender's occasional end-to-end measurement: RTT = RTT_echo +
//!   2·(OWD − OWD_echo)) and the bottleneck bandwidth b (dispersion of the base layer's
//!   back-to-back packet pairs). Every update interval T they compute a TCP-friendly rate with
//!   LDA+'s rules: under loss l, r ← max(r·(1 − √l), r_TCP(l, RTT)) with the PFTK model
//!   (t_RTO = 4·RTT, shared `estimate::tcp_model`); otherwise r ← r + AIR, where AIR grows by
//!   the factor (2 − r/b) and stays between `min_increase` and TCP's 8·P·T/RTT².
//! - **Layers** \[X\]: cumulative; a receiver holds the most layers whose cumulative announced
//!   rate is at most r, leaving at once, joining one layer per update.
//! - **Feedback** \[X\]: once per round of T_rand a receiver reports its rate after a
//!   truncated-exponential wait (λ = 10, SRAMT's Eq. 18 timer, shared); the sender relays the
//!   newest report on the base layer and a receiver whose own rate maps to the same level and
//!   lies within 10 % of it cancels its own (partial suppression).
//! - **Sender** \[X\]: at each round's start re-sizes the layers to the reports of the latest
//!   rounds (level k's cumulative rate = the report at quantile (k − 1)/(n − 1), \[R\]), and
//!   echoes each reporter's RTT (now − timestamp echo − time held).
//!
//! Parameters: [`MldaConfig`]. Deviations (`docs/protocols/mlda.md`): bulk data only; the
//! re-sizing rule and every timer are reconstructions \[R\] (docs/papers/sramt.md records none).

pub mod config;
pub mod receiver;
pub mod sender;
#[cfg(test)]
mod tests;
pub mod wire;

pub use config::MldaConfig;
pub use receiver::MldaReceiver;
pub use sender::MldaSender;

use crate::endpoint::FlowEndpoints;
use crate::proto::registry::FlowContext;
use crate::proto::Application;

/// Bytes of the data header with the default five layers (the registry's header size).
pub const HEADER_BYTES: usize = wire::data_header_bytes(5);

/// The registry's factory of `mlda`.
pub fn build(cfg: &MldaConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    if !matches!(ctx.app, Application::Bulk) {
        return Err("mlda carries bulk data only: drop the flow's video table".into());
    }
    let sender = MldaSender::new(cfg, ctx.packet_size, ctx.start, ctx.stop)?;
    let packet_bytes = if cfg.equation_packet_bytes > 0 {
        f64::from(cfg.equation_packet_bytes)
    } else {
        ctx.packet_size.as_bytes() as f64
    };
    let mut receivers: Vec<Box<dyn crate::endpoint::Endpoint + Send>> = Vec::with_capacity(ctx.members.len());
    for (i, m) in ctx.members.iter().enumerate() {
        if !m.groups.is_empty() {
            return Err(format!(
                "receiver {i}: mlda receivers choose their layers themselves (start at level 1); drop its groups"
            ));
        }
        let rng = (ctx.rng)(&format!("mlda/receiver{i}"));
        receivers.push(Box::new(MldaReceiver::new(cfg, i as u32, packet_bytes, m, rng)));
    }
    Ok(FlowEndpoints { sender: Box::new(sender), receivers })
}
