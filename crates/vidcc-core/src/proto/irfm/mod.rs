//! `irfm`: Inter-Receiver Fair Multicast (T. Jiang, E. W. Zegura, M. Ammar, "Inter-receiver fair
//! multicast communication over the Internet", NOSSDAV 1999, pp. 103–114), one of the simulcast
//! schemes the SRAMT paper compares SRAMT-S with (§9, Fig. 19, Table 2;
//! docs/papers/sramt.md §2.5, rules tagged \[X\]; the IRFM paper itself is not among our sources).
//!
//! Two streams \[P\]. Every round (2 s \[R\]) each receiver computes its isolated rate x — the
//! TFRC throughput equation X = s/(R·√(2p/3) + 4R·3·√(3p/8)·p·(1 + 32p²)) (RFC 5348 §3.1) at its
//! loss event rate p (RFC 5348 §5, the shared loss history) and the RTT the sender echoes — and
//! the sender hears a random sample of them (escalating probabilistic polling, the feedback
//! suppression of [`crate::proto::simulcast`]). The sender sets the two rates a ≤ b to maximise
//! the mean inter-receiver fairness (1/N)·Σ max(F(a, x_i), F(b, x_i)), F(r, x) = min(r, x)/max(r, x)
//! ([`rules::best_rates`]); each receiver takes the stream with the larger F(r_j, x), at round
//! boundaries. Parameters: [`IrfmConfig`]. Deviations (`docs/protocols/irfm.md`): every number is
//! ours; x before the first loss event is TFRC's slow-start bound; bulk data only.

pub mod config;
pub mod rules;
#[cfg(test)]
mod tests;

pub use config::IrfmConfig;
pub use rules::{IrfmReceiverRules, IrfmStreams};

use crate::endpoint::FlowEndpoints;
use crate::proto::registry::FlowContext;
use crate::proto::simulcast::{initial_stream, wire, SimulcastReceiver, SimulcastSender};
use crate::proto::Application;

/// The data header with IRFM's two streams (the registry's header size).
pub const HEADER_BYTES: usize = wire::data_header_bytes(config::STREAMS);

pub type IrfmSender = SimulcastSender<IrfmStreams>;
pub type IrfmReceiver = SimulcastReceiver<IrfmReceiverRules>;

/// The registry's factory of `irfm`.
pub fn build(cfg: &IrfmConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    cfg.validate()?;
    if !matches!(ctx.app, Application::Bulk) {
        return Err("video: irfm carries bulk data only (no video model yet)".into());
    }
    if ctx.members.len() != ctx.receivers as usize {
        return Err(format!("{} receivers but {} receiver schedules", ctx.receivers, ctx.members.len()));
    }
    let packet_bytes = if cfg.equation_packet_bytes > 0 {
        f64::from(cfg.equation_packet_bytes)
    } else {
        ctx.packet_size.as_bytes() as f64
    };
    let sender =
        IrfmSender::new(cfg.core(), IrfmStreams::new(cfg), ctx.packet_size, ctx.start, ctx.stop, ctx.receivers)?;
    let mut receivers = Vec::with_capacity(ctx.members.len());
    for (i, m) in ctx.members.iter().enumerate() {
        let start = initial_stream(&m.groups, config::STREAMS, cfg.initial_group as usize)
            .map_err(|e| format!("irfm: receiver {i}: {e}"))?;
        let rng = (ctx.rng)(&format!("irfm/receiver{i}"));
        let rules = IrfmReceiverRules::new(cfg, packet_bytes);
        let r = IrfmReceiver::new(cfg.core(), rules, i as u32, start, m.start, rng).with_stop(m.stop);
        receivers.push(Box::new(r) as _);
    }
    Ok(FlowEndpoints { sender: Box::new(sender), receivers })
}
