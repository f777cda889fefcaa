//! `dsg`: Destination Set Grouping (S. Y. Cheung, M. H. Ammar, X. Li, "On the use of destination
//! set grouping to improve fairness in multicast video distribution", INFOCOM 1996), one of the
//! simulcast schemes the SRAMT paper compares SRAMT-S with (§9, Fig. 18, Table 2;
//! docs/papers/sramt.md §2.4, rules tagged \[X\]; the DSG paper itself is not among our sources).
//!
//! The sender replicates the content in n streams (default 3), each with a rate band. Each round
//! (2 s \[R\]) every receiver classifies itself UNLOADED / LOADED / CONGESTED by its loss rate
//! (thresholds 2 % / 5 % \[R\]); the sender hears a random sample of these states (escalating
//! probabilistic polling, [`crate::proto::simulcast`]: fewer than ~2K reports per stream and
//! round, K = 10) and controls each stream inside its band: more than 10 % congested → halve;
//! ≥ 90 % unloaded → add 5 % of the band's top \[R\]. A receiver CONGESTED for 3 rounds while its
//! stream sits at the band's bottom moves down, one UNLOADED for 3 rounds at the top moves up;
//! moves happen at round boundaries, which the round index in every packet synchronises.
//! Rules: [`rules`]; parameters: [`DsgConfig`]; the machinery shared with `irfm`:
//! [`crate::proto::simulcast`]. Deviations (`docs/protocols/dsg.md`): every number is ours; the
//! back-off after a reversed move is SRAMT's (§1.7), not DSG's; bulk data only.

pub mod config;
pub mod rules;
#[cfg(test)]
mod tests;

pub use config::DsgConfig;
pub use rules::{DsgReceiverRules, DsgStreams, State};

use crate::endpoint::FlowEndpoints;
use crate::proto::registry::FlowContext;
use crate::proto::simulcast::{initial_stream, wire, SimulcastReceiver, SimulcastSender};
use crate::proto::Application;

/// The data header with the default three streams (the registry's header size).
pub const HEADER_BYTES: usize = wire::data_header_bytes(3);

pub type DsgSender = SimulcastSender<DsgStreams>;
pub type DsgReceiver = SimulcastReceiver<DsgReceiverRules>;

/// The registry's factory of `dsg`.
pub fn build(cfg: &DsgConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    cfg.validate()?;
    if !matches!(ctx.app, Application::Bulk) {
        return Err("video: dsg carries bulk data only (no video model yet)".into());
    }
    if ctx.members.len() != ctx.receivers as usize {
        return Err(format!("{} receivers but {} receiver schedules", ctx.receivers, ctx.members.len()));
    }
    let sender = DsgSender::new(cfg.core(), DsgStreams::new(cfg), ctx.packet_size, ctx.start, ctx.stop, ctx.receivers)?;
    let n = cfg.bands_bps.len();
    let mut receivers = Vec::with_capacity(ctx.members.len());
    for (i, m) in ctx.members.iter().enumerate() {
        let start =
            initial_stream(&m.groups, n, cfg.initial_group as usize).map_err(|e| format!("dsg: receiver {i}: {e}"))?;
        let rng = (ctx.rng)(&format!("dsg/receiver{i}"));
        let r =
            DsgReceiver::new(cfg.core(), DsgReceiverRules::new(cfg), i as u32, start, m.start, rng).with_stop(m.stop);
        receivers.push(Box::new(r) as _);
    }
    Ok(FlowEndpoints { sender: Box::new(sender), receivers })
}
