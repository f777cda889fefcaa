//! `plm`: Packet-pair receiver-driven cumulative Layered Multicast (Legout & Biersack, "PLM:
//! Fast Convergence for Cumulative Layered Multicast Transmission Schemes", ACM SIGMETRICS
//! 2000), as ns-2 2.35 ships it (`tcl/plm/plm.tcl`, `plm-ns.tcl`, `plm-topo.tcl`,
//! `plm/cbr-traffic-PP.cc`, `plm/loss-monitor-plm.cc`); docs/papers/sramt.md §2.1 [X].
//!
//! The sender ([`sender`]) sends every layer as a constant-rate stream of back-to-back packet
//! pairs, layer l to group l. Under fair queueing (`queue.kind = "drr"`) the spacing of a pair
//! at the receiver is the time the bottleneck takes to serve the flow one packet at its fair
//! share, so `size · 8 / gap` estimates that share. A receiver ([`receiver`]):
//! - starts with one layer;
//! - for every pair of a subscribed layer received whole and in sequence, estimates
//!   `bw = size · 8 · (burst − 1) / (t_last − t_first)`;
//! - drops layers at once when an estimate is below its cumulative subscription, down to the
//!   largest subscription whose cumulative rate is strictly below the estimate, and starts a new
//!   check period (ns-2 `stability-drop`);
//! - once a check period `C` has passed and it holds at least `min_estimates` estimates, sets
//!   its subscription (adding or dropping) to the largest one strictly below the minimum
//!   estimate of the period (ns-2 `choose_layer`);
//! - drops a layer when no pair arrives during a whole `C` (docs/papers/sramt.md §2.1 [X]);
//! - drops a layer when the loss rate since its last estimate exceeds `loss_threshold` over at
//!   least 10 packets, at most once per 500 ms, the rate measured over at most 5 s (ns-2
//!   `log-loss`, `exceed_loss_thresh`);
//! - having dropped every layer, joins the base layer again after `rejoin_after` (ns-2: 30 s).
//!
//! Parameters (defaults): `layer_rates_bps` (20 layers of 50 kbit/s; a choice, see the page),
//! `check_period_ns` (1 s, the paper's C), `min_estimates` (3, ns-2 `PP_estimation_length`),
//! `burst` (2, ns-2 `PP_burst_length`: pairs), `jitter` (true: bursts spaced ±50 % uniformly
//! as ns-2 `random_ 1`), `loss_threshold` (0.10, ns-2; 0 turns the loss rule off),
//! `drop_without_pairs` (true), `rejoin_after_ns` (30 s).
//!
//! Deviations: the estimate uses the datagram's size on the wire (ns-2 uses its global
//! `packetSize`, the same number in its scripts). The no-pair rule is docs/papers/sramt.md's [X]
//! reading of the paper; ns-2's scripts have only the loss rule (`drop_without_pairs = false` gives
//! ns-2's behaviour). Everything else as ns-2. docs/protocols/plm.md has the details.

pub mod receiver;
pub mod sender;
pub mod wire;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use crate::endpoint::{Endpoint, FlowEndpoints};
use crate::proto::registry::FlowContext;
use crate::proto::Application;

pub use receiver::PlmReceiver;
pub use sender::PlmSender;
pub use wire::DATA_HEADER_BYTES as HEADER_BYTES;

/// `plm`: the resolved configuration.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PlmConfig {
    /// Each layer's own rate (not cumulative), base layer first.
    pub layer_rates_bps: Vec<u64>,
    /// The check period C.
    pub check_period_ns: u64,
    /// Pair estimates a check period needs before it decides (ns-2 `PP_estimation_length`).
    pub min_estimates: u32,
    /// Packets per burst (ns-2 `PP_burst_length`; 2: pairs).
    pub burst: u32,
    /// Space bursts uniformly in ±50 % of their mean gap (ns-2 `random_ 1`).
    pub jitter: bool,
    /// Loss rate above which a layer is dropped (ns-2 0.10); 0: no loss rule.
    pub loss_threshold: f64,
    /// Drop a layer when no pair arrives during a whole check period.
    pub drop_without_pairs: bool,
    /// After dropping every layer, join the base layer again after this long.
    pub rejoin_after_ns: u64,
}

impl Default for PlmConfig {
    fn default() -> Self {
        PlmConfig {
            layer_rates_bps: vec![50_000; 20],
            check_period_ns: 1_000_000_000,
            min_estimates: 3,
            burst: 2,
            jitter: true,
            loss_threshold: 0.10,
            drop_without_pairs: true,
            rejoin_after_ns: 30_000_000_000,
        }
    }
}

impl PlmConfig {
    fn check(&self) -> Result<(), String> {
        if self.layer_rates_bps.is_empty() || self.layer_rates_bps.len() > u8::MAX as usize {
            return Err(format!("layer_rates: between 1 and 255 layers, got {}", self.layer_rates_bps.len()));
        }
        if let Some(i) = self.layer_rates_bps.iter().position(|&r| r == 0) {
            return Err(format!("layer_rates[{i}]: a layer's rate must be positive"));
        }
        if self.check_period_ns == 0 {
            return Err("check_period must be positive".into());
        }
        if self.burst < 2 {
            return Err(format!("burst must be at least 2 packets (a pair), got {}", self.burst));
        }
        if !(0.0..=1.0).contains(&self.loss_threshold) {
            return Err(format!("loss_threshold must be in [0, 1], got {}", self.loss_threshold));
        }
        Ok(())
    }
}

/// The registry's constructor of `plm`.
pub fn build(config: &PlmConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    config.check()?;
    if !matches!(ctx.app, Application::Bulk) {
        return Err("plm carries bulk data (constant-rate layers), not the flow's video".into());
    }
    let packet = ctx.packet_size.as_bytes();
    if packet as usize <= HEADER_BYTES {
        return Err(format!("packet_size must exceed the {HEADER_BYTES}-byte header"));
    }
    let sender = PlmSender::new(
        &config.layer_rates_bps,
        config.burst,
        packet,
        config.jitter,
        ctx.start,
        ctx.stop,
        (ctx.rng)("traffic"),
    );
    let receivers =
        ctx.members.iter().map(|spec| Box::new(PlmReceiver::new(config, spec)) as Box<dyn Endpoint + Send>).collect();
    Ok(FlowEndpoints { sender: Box::new(sender), receivers })
}
