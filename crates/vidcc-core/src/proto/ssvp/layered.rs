//! SSVP-LA: the receiver-buffered layered adaptation (paper §4, docs/papers/ssvp.md §1.2).
//!
//! k of n cumulative layers are active; layer i is consumed at the receiver at c_i (its share of
//! the video's payload rate). R is SSVP's *allowed* rate (A-LA-8 \[I\]) expressed as payload rate
//! (the wire rate × payload/packet size, so that it compares with the consumption rates).
//!
//! **Add** (checked at most once per RTT, on control packets), both rules \[P, §6.3\]:
//!
//! ```text
//! (11)       R > C_{k+1}                               C_{k+1} = consumption of k+1 layers
//! (14)       t2 − t1 = [C_{k+1} − f·R] / λ
//! (13,15)    P = ½ (t2 − t1) [C_{k+1} − f·R] = max(0, C_{k+1} − f·R)² / (2λ)      (A-LA-3 clamp)
//! (12,16)    Σ_{i≤k} buf_i ≥ P
//! ```
//!
//! - f, the post-loss factor (A-LA-1): \[P\] `paper-literal` f = 1−β (Eq. 17's R/8), default;
//!   `physical` f = β (the rate SSVP really falls to).
//! - λ, the slope of the additive increase (A-LA-2): α packets per RTT per RTT, in bytes/s²
//!   `λ = α·S_payload / RTT²` with RTT = EstimatedRTT.
//! - C_{k+1} (A-LA-4): `cumulative` Σ_{i≤k+1} c_i (default), or `mean-times-count` (k+1)·c̄ with
//!   c̄ the mean consumption of the k active layers.
//! - Σ buf_i is the receiver's report (bytes buffered over the k active layers), carried in
//!   control packets; reports about another k than the current one are ignored.
//!
//! **Drop** (the paper gives none; A-LA-5 \[U\], Rejaie-style), checked with the add rule:
//! if k > 1, R < C_k and Σ buf_i < (C_k − R)² / (2λ) (the buffer cannot cover the deficit until
//! the additive increase brings R back to C_k), drop layer k. One layer per check (a check
//! happens once per RTT, so a deep shortfall drops one layer per RTT). With `underflow_drop`,
//! also drop layer k when its packets missed their deadline at the sender (the receiver would
//! find its buffer empty) while R < C_k. The base layer is never dropped.
//!
//! **Immediate** (§6.3's comparison, `policy = immediate`): k = max(1, max{j : C_j ≤ R}).

use super::config::{ConsumptionRule, LayerPolicy, PostLossFactor, SsvpLayeredConfig};
use crate::time::Duration;

/// Eq. (15): the buffered bytes needed to add layer k+1 (A-LA-3: zero if the post-loss rate
/// stays above the new consumption). Rates in bytes/s, `lambda` in bytes/s².
pub fn required_buffer_bytes(next_consumption: f64, rate: f64, postloss: f64, lambda: f64) -> f64 {
    let deficit = (next_consumption - postloss * rate).max(0.0);
    deficit * deficit / (2.0 * lambda)
}

/// A-LA-2: the additive-increase slope λ = α·S/RTT² in bytes/s² (S in bytes).
pub fn increase_slope(alpha: f64, packet_bytes: f64, rtt: Duration) -> f64 {
    let r = rtt.as_secs_f64().max(1e-9);
    alpha * packet_bytes / (r * r)
}

/// A layer change decided by [`LayerAdaptation::check`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LayerChange {
    Add,
    Drop,
}

/// The layer state and rules (see the module docs).
#[derive(Clone, Debug)]
pub struct LayerAdaptation {
    policy: LayerPolicy,
    consumption_rule: ConsumptionRule,
    /// f of Eq. (13).
    postloss: f64,
    alpha: f64,
    underflow_drop: bool,
    /// c_i, payload bytes/s, base first.
    consumption: Vec<f64>,
    k: u8,
    adds: u64,
    drops: u64,
}

impl LayerAdaptation {
    /// `consumption_bps`: each layer's payload rate in bit/s, base first.
    pub fn new(cfg: &SsvpLayeredConfig, consumption_bps: &[f64]) -> Self {
        assert!(!consumption_bps.is_empty(), "at least one layer");
        let beta = cfg.ssvp.beta;
        let k = cfg.initial_layers.clamp(1, consumption_bps.len() as u8);
        LayerAdaptation {
            policy: cfg.policy,
            consumption_rule: cfg.consumption,
            postloss: match cfg.postloss_factor {
                PostLossFactor::PaperLiteral => 1.0 - beta,
                PostLossFactor::Physical => beta,
            },
            alpha: cfg.ssvp.alpha,
            underflow_drop: cfg.underflow_drop,
            consumption: consumption_bps.iter().map(|b| b / 8.0).collect(),
            k,
            adds: 0,
            drops: 0,
        }
    }

    /// Active layers k.
    pub fn layers(&self) -> u8 {
        self.k
    }

    pub fn layer_count(&self) -> u8 {
        self.consumption.len() as u8
    }

    /// (adds, drops) so far.
    pub fn changes(&self) -> (u64, u64) {
        (self.adds, self.drops)
    }

    /// Consumption of `j` layers, bytes/s (C_j); C_{k+1} follows the configured rule.
    pub fn consumption_of(&self, j: u8) -> f64 {
        let j = (j as usize).min(self.consumption.len());
        let exact: f64 = self.consumption[..j].iter().sum();
        if j == self.k as usize + 1 && self.consumption_rule == ConsumptionRule::MeanTimesCount {
            // (k+1)·c̄, c̄ = mean of the k active layers.
            let k = self.k as usize;
            return (k + 1) as f64 * self.consumption[..k].iter().sum::<f64>() / k as f64;
        }
        exact
    }

    /// One check. `rate` is the allowed rate as payload bytes/s; `buffered` the latest buffer
    /// report for the current k (`None`: none yet); `top_missed` whether packets of layer k
    /// missed their deadline at the sender since the last check; `rtt` the EstimatedRTT;
    /// `payload_bytes` the payload of a full packet.
    pub fn check(
        &mut self,
        rate: f64,
        buffered: Option<u64>,
        top_missed: bool,
        rtt: Duration,
        payload_bytes: f64,
    ) -> Option<LayerChange> {
        let n = self.layer_count();
        let change = match self.policy {
            LayerPolicy::Immediate => {
                // max(1, max{j : C_j ≤ R})
                let fit = (1..=n).take_while(|&j| self.consumption_of(j) <= rate).last().unwrap_or(1);
                match fit.cmp(&self.k) {
                    std::cmp::Ordering::Greater => Some(LayerChange::Add),
                    std::cmp::Ordering::Less => Some(LayerChange::Drop),
                    std::cmp::Ordering::Equal => None,
                }
            }
            LayerPolicy::Buffered => {
                let lambda = increase_slope(self.alpha, payload_bytes, rtt);
                let c_k = self.consumption_of(self.k);
                if self.k < n {
                    let c_next = self.consumption_of(self.k + 1);
                    // (11) R > C_{k+1}, and (12)/(16) Σ buf ≥ P of Eq. (15).
                    let need = required_buffer_bytes(c_next, rate, self.postloss, lambda);
                    if rate > c_next && buffered.is_some_and(|b| b as f64 >= need) {
                        return self.apply(Some(LayerChange::Add));
                    }
                }
                if self.k > 1 && rate < c_k {
                    // A-LA-5: the buffer cannot bridge (C_k − R)²/(2λ), or layer k underflows.
                    let deficit = c_k - rate;
                    let short = buffered.is_some_and(|b| (b as f64) < deficit * deficit / (2.0 * lambda));
                    (short || (self.underflow_drop && top_missed)).then_some(LayerChange::Drop)
                } else {
                    None
                }
            }
        };
        self.apply(change)
    }

    fn apply(&mut self, change: Option<LayerChange>) -> Option<LayerChange> {
        match change {
            Some(LayerChange::Add) => {
                self.k += 1;
                self.adds += 1;
            }
            Some(LayerChange::Drop) => {
                self.k -= 1;
                self.drops += 1;
            }
            None => {}
        }
        change
    }
}
