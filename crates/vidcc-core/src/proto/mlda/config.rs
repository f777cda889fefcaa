//! [`MldaConfig`]: MLDA's parameters. The SRAMT paper page (docs/papers/sramt.md §2.3, §6 item 15)
//! records MLDA's rules \[X\] but no values; each default here is tagged: \[X\] from LDA+ (the
//! rate rule MLDA's receivers run), \[R\] this implementation's choice, with the reason in
//! `docs/protocols/mlda.md`.

use serde::{Deserialize, Serialize};

use super::wire::MAX_LAYERS;

/// `mlda`: the resolved configuration.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct MldaConfig {
    /// Each layer's rate before the first re-sizing, bit/s, lowest first \[R\] (64, 64, 128, 256,
    /// 512 kbit/s: cumulative 64 kbit/s … 1.024 Mbit/s). Their number n (1..=8) is the layer count.
    pub initial_rates_bps: Vec<u64>,
    /// Least rate of a layer when the sender re-sizes them \[R\] 16 kbit/s.
    pub min_layer_bps: u64,
    /// Most cumulative rate of all layers \[R\] 10 Mbit/s.
    pub max_rate_bps: u64,
    /// How often a receiver updates its rate and its layers \[R\] 1 s.
    pub update_interval_ns: u64,
    /// LDA+'s least additive increase per update \[X\] 10 kbit/s.
    pub min_increase_bps: u64,
    /// P of the TCP model, bytes; 0 = the flow's packet size.
    pub equation_packet_bytes: u32,
    /// A feedback round, T_rand: receivers report once per round after a truncated-exponential
    /// wait, and the sender re-sizes its layers at each round's start \[R\] 5 s.
    pub round_ns: u64,
    /// λ of the truncated-exponential wait \[R\] 10 (as the SRAMT suite's partial suppression).
    pub suppression_lambda: f64,
    /// Feedback suppression on (off: every receiver reports every round).
    pub suppression: bool,
    /// A relayed report suppresses a receiver's own when both map to the same level and differ
    /// by at most this share of its rate \[R\] 0.1.
    pub suppression_similarity: f64,
    /// The sender re-sizes from the reports of this many latest rounds \[R\] 3.
    pub report_rounds: u32,
    /// Base-layer packets go in back-to-back pairs for the receivers' packet-pair bandwidth
    /// estimate \[X\].
    pub packet_pairs: bool,
    /// Weight of a new pair's estimate in the smoothed bottleneck bandwidth \[R\] 0.25.
    pub pair_weight: f64,
}

impl Default for MldaConfig {
    fn default() -> Self {
        MldaConfig {
            initial_rates_bps: vec![64_000, 64_000, 128_000, 256_000, 512_000],
            min_layer_bps: 16_000,
            max_rate_bps: 10_000_000,
            update_interval_ns: 1_000_000_000,
            min_increase_bps: 10_000,
            equation_packet_bytes: 0,
            round_ns: 5_000_000_000,
            suppression_lambda: 10.0,
            suppression: true,
            suppression_similarity: 0.1,
            report_rounds: 3,
            packet_pairs: true,
            pair_weight: 0.25,
        }
    }
}

impl MldaConfig {
    pub fn layers(&self) -> usize {
        self.initial_rates_bps.len()
    }

    /// Checks every parameter; the error names the key.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.initial_rates_bps.len();
        if !(1..=MAX_LAYERS).contains(&n) {
            return Err(format!("initial_rates_bps: 1 to {MAX_LAYERS} layers, got {n}"));
        }
        if let Some(j) = self.initial_rates_bps.iter().position(|&r| r == 0 || r > u64::from(u32::MAX)) {
            return Err(format!("initial_rates_bps[{j}]: in 1..={} bit/s", u32::MAX));
        }
        if self.min_layer_bps == 0 {
            return Err("min_layer_bps: must be positive".into());
        }
        let floor = self.min_layer_bps.saturating_mul(n as u64);
        if self.max_rate_bps < floor || self.max_rate_bps > u64::from(u32::MAX) {
            return Err(format!("max_rate_bps: at least min_layer_bps × layers ({floor}) and at most {}", u32::MAX));
        }
        for (name, v) in [("update_interval_ns", self.update_interval_ns), ("round_ns", self.round_ns)] {
            if v == 0 {
                return Err(format!("{name}: must be positive"));
            }
        }
        if self.min_increase_bps == 0 {
            return Err("min_increase_bps: must be positive".into());
        }
        if !(self.suppression_lambda.is_finite() && self.suppression_lambda > 0.0) {
            return Err(format!("suppression_lambda: positive, got {}", self.suppression_lambda));
        }
        if !(self.suppression_similarity.is_finite() && (0.0..=1.0).contains(&self.suppression_similarity)) {
            return Err(format!("suppression_similarity: in [0, 1], got {}", self.suppression_similarity));
        }
        if self.report_rounds == 0 {
            return Err("report_rounds: at least 1".into());
        }
        if !(self.pair_weight.is_finite() && self.pair_weight > 0.0 && self.pair_weight <= 1.0) {
            return Err(format!("pair_weight: in (0, 1], got {}", self.pair_weight));
        }
        Ok(())
    }
}

/// The level a rate allows under cumulative layer rates `rates` (bit/s per layer): the most
/// layers k ≥ 1 whose cumulative rate is at most `rate` (1 if even the base layer exceeds it).
pub fn level_for(rate: f64, rates: &[f64]) -> usize {
    let mut sum = 0.0;
    let mut k = 0;
    for r in rates {
        sum += r;
        if sum <= rate {
            k += 1;
        } else {
            break;
        }
    }
    k.max(1)
}

/// Re-sizes the layers to the reported rates \[R\] (MLDA's sender "adjusts the layers to the
/// reports"; docs/papers/sramt.md gives no formula): the cumulative rate of level k is the report
/// at quantile (k − 1)/(n − 1) of the sorted reports (level 1 the lowest, level n the highest),
/// then each layer gets at least `min_layer` and the total at most `max_rate`. Returns the
/// per-layer rates.
pub fn resize(reports: &[f64], n: usize, min_layer: f64, max_rate: f64) -> Vec<f64> {
    let mut sorted: Vec<f64> = reports.iter().copied().filter(|r| r.is_finite() && *r > 0.0).collect();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() || n == 0 {
        return Vec::new();
    }
    let m = sorted.len();
    let mut cumulative = Vec::with_capacity(n);
    for k in 0..n {
        let idx = if n == 1 { 0 } else { k * (m - 1) / (n - 1) };
        let floor = cumulative.last().map_or(min_layer, |c: &f64| c + min_layer);
        cumulative.push(sorted[idx].max(floor));
    }
    // The ceiling, from the top down, keeping every layer at least `min_layer`.
    let mut ceiling = max_rate;
    for c in cumulative.iter_mut().rev() {
        *c = c.min(ceiling);
        ceiling = *c - min_layer;
    }
    let mut prev = 0.0;
    cumulative
        .into_iter()
        .map(|c| {
            let r = c - prev;
            prev = c;
            r
        })
        .collect()
}
