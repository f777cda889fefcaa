//! [`RlcConfig`]: RLC's parameters. The paper (Vicisano, Rizzo, Crowcroft, INFOCOM 1998) fixes
//! the structure (rates doubling per layer, synchronisation points spaced in proportion to the
//! cumulative rate, bursts, a deaf period) but the SRAMT paper page (docs/papers/sramt.md §2.2, §6
//! item 15) records no values: every default here is this implementation's choice \[R\],
//! explained in `docs/protocols/rlc.md`.

use serde::{Deserialize, Serialize};

use super::wire::MAX_LAYERS;

/// `rlc`: the resolved configuration.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct RlcConfig {
    /// Number of cumulative layers n \[R\] 6 (1..=16).
    pub layers: u8,
    /// Rate of layer 0, B₀, bit/s \[R\] 32 kbit/s. Layer i ≥ 1 sends 2^(i−1)·B₀, so level L (layers
    /// 0..L−1) receives 2^(L−1)·B₀ \[X\]: the cumulative rate doubles per layer.
    pub base_rate_bps: u64,
    /// Spacing of the synchronisation points of level 1, P₀ \[R\] 1 s. Level L's points are
    /// every 2^(L−1)·P₀ \[X\] (in proportion to its cumulative rate), a subset of level L−1's.
    pub sp_interval_ns: u64,
    /// Length of the double-rate burst before a synchronisation point, and of the pause after
    /// it that keeps each layer's mean rate \[R\] 250 ms. At most half of P₀.
    pub burst_ns: u64,
    /// Deaf period after a layer drop, during which further losses cause no drop \[R\] 1 s
    /// (longer than the leave latency plus a round trip, so that the losses the dropped layer
    /// still causes before its prune are not counted twice).
    pub deaf_ns: u64,
}

impl Default for RlcConfig {
    fn default() -> Self {
        RlcConfig {
            layers: 6,
            base_rate_bps: 32_000,
            sp_interval_ns: 1_000_000_000,
            burst_ns: 250_000_000,
            deaf_ns: 1_000_000_000,
        }
    }
}

impl RlcConfig {
    /// Checks every parameter; the error names the key.
    pub fn validate(&self) -> Result<(), String> {
        if !(1..=MAX_LAYERS).contains(&self.layers) {
            return Err(format!("layers: 1 to {MAX_LAYERS}, got {}", self.layers));
        }
        if self.base_rate_bps == 0 {
            return Err("base_rate_bps: must be positive".into());
        }
        if self.base_rate_bps.checked_shl(u32::from(self.layers) - 1).is_none_or(|top| top > u64::MAX >> 2) {
            return Err(format!(
                "base_rate_bps: {} bit/s doubled over {} layers overflows",
                self.base_rate_bps, self.layers
            ));
        }
        if self.sp_interval_ns == 0 {
            return Err("sp_interval_ns: must be positive".into());
        }
        if self.burst_ns == 0 || self.burst_ns.saturating_mul(2) > self.sp_interval_ns {
            return Err(format!(
                "burst_ns: positive and at most half of sp_interval_ns ({} ns), got {}",
                self.sp_interval_ns / 2,
                self.burst_ns
            ));
        }
        Ok(())
    }

    /// Rate of layer `j` (0-based), bit/s.
    pub fn layer_rate_bps(&self, j: u8) -> u64 {
        if j == 0 {
            self.base_rate_bps
        } else {
            self.base_rate_bps << (j - 1)
        }
    }

    /// The highest level whose receivers may join a layer at synchronisation point `k` (k ≥ 1):
    /// the largest L ≤ n − 1 with 2^(L−1) dividing k. 0 for k = 0 (the start is no point).
    pub fn sp_level(&self, k: u32) -> u8 {
        if k == 0 {
            return 0;
        }
        let top = u32::from(self.layers.saturating_sub(1));
        (k.trailing_zeros() + 1).min(top) as u8
    }
}
