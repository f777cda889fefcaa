//! [`DsgConfig`]: every DSG parameter with its default and source tag (`docs/protocols/dsg.md`).
//! DSG's paper (Cheung, Ammar & Li, INFOCOM 1996) is not among the project's sources; the SRAMT
//! paper page gives its rules (docs/papers/sramt.md §2.4, \[X\]) and no values, so every number
//! here is ours \[R\], chosen where possible to match SRAMT-S for the comparison of Fig. 18 (C33).

use serde::{Deserialize, Serialize};

use crate::proto::simulcast::{validate_bands, wire::Scheme, CoreConfig};
use crate::time::Duration;

#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct DsgConfig {
    /// Each stream's rate band `[min, max]`, bit/s, lowest first \[R\]: SRAMT-S's three bands.
    pub bands_bps: Vec<[u64; 2]>,
    /// Each stream's initial rate, bit/s (clamped to its band) \[R\]: the bands' minima.
    pub initial_rates_bps: Vec<u64>,
    /// Stream (0-based) receivers start on when the scenario names none \[R\]: the lowest.
    pub initial_group: u8,
    /// The feedback / control round \[R\] 2 s.
    pub round_ns: u64,
    /// Loss below this: UNLOADED \[R\] 0.02 (SRAMT's l_u, the same IVS lineage).
    pub unloaded_below: f64,
    /// Loss above this: CONGESTED \[R\] 0.05 (SRAMT's l_c).
    pub congested_above: f64,
    /// The sender lowers a stream's rate when more than this share of its reports is CONGESTED \[R\] 0.1.
    pub congested_share: f64,
    /// ... and raises it when at least this share is UNLOADED ("(nearly) all") \[R\] 0.9.
    pub unloaded_share: f64,
    /// Multiplicative decrease factor \[R\] 0.5 (IVS's halving).
    pub decrease_factor: f64,
    /// Additive increase per round, a share of the band's maximum \[R\] 0.05.
    pub increase_share: f64,
    /// Consecutive rounds CONGESTED at the band minimum (UNLOADED at the maximum) before a
    /// receiver moves down (up) \[R\] 3.
    pub persist_rounds: u32,
    /// Back-off for moves reversed within `persist_rounds + 3` rounds (SRAMT's 2^k rule, §1.7)
    /// \[R\] on: without it a receiver between two bands oscillates every few rounds.
    pub backoff: bool,
    pub max_backoff_exponent: u32,
    /// K: reports per stream per round the escalating poll aims at \[R\] 10.
    pub reports_per_round: u32,
}

impl Default for DsgConfig {
    fn default() -> Self {
        DsgConfig {
            bands_bps: vec![[50_000, 200_000], [200_000, 600_000], [600_000, 1_000_000]],
            initial_rates_bps: vec![50_000, 200_000, 600_000],
            initial_group: 0,
            round_ns: 2_000_000_000,
            unloaded_below: 0.02,
            congested_above: 0.05,
            congested_share: 0.1,
            unloaded_share: 0.9,
            decrease_factor: 0.5,
            increase_share: 0.05,
            persist_rounds: 3,
            backoff: true,
            max_backoff_exponent: 16,
            reports_per_round: 10,
        }
    }
}

impl DsgConfig {
    /// Checks every parameter; the error names the key.
    pub fn validate(&self) -> Result<(), String> {
        validate_bands(&self.bands_bps, &self.initial_rates_bps, self.initial_group)?;
        let unit = |name: &str, v: f64, open_top: bool| {
            let ok = v.is_finite() && v > 0.0 && if open_top { v < 1.0 } else { v <= 1.0 };
            if ok {
                Ok(())
            } else {
                Err(format!("{name}: in (0, 1{}, got {v}", if open_top { ")" } else { "]" }))
            }
        };
        unit("unloaded_below", self.unloaded_below, false)?;
        unit("congested_above", self.congested_above, false)?;
        if self.unloaded_below > self.congested_above {
            return Err("unloaded_below: must not exceed congested_above".into());
        }
        if !(self.congested_share.is_finite() && (0.0..1.0).contains(&self.congested_share)) {
            return Err(format!("congested_share: in [0, 1), got {}", self.congested_share));
        }
        unit("unloaded_share", self.unloaded_share, false)?;
        unit("decrease_factor", self.decrease_factor, true)?;
        unit("increase_share", self.increase_share, false)?;
        if self.persist_rounds == 0 {
            return Err("persist_rounds: at least 1".into());
        }
        self.core().validate()
    }

    pub fn band(&self, j: usize) -> [f64; 2] {
        let [lo, hi] = self.bands_bps[j];
        [lo as f64, hi as f64]
    }

    pub fn core(&self) -> CoreConfig {
        CoreConfig {
            scheme: Scheme::Dsg,
            initial_rates_bps: (0..self.bands_bps.len())
                .map(|j| {
                    let [lo, hi] = self.band(j);
                    self.initial_rates_bps.get(j).map_or(lo, |&r| (r as f64).clamp(lo, hi))
                })
                .collect(),
            round: Duration::from_nanos(self.round_ns),
            reports_per_round: self.reports_per_round,
            // DSG does not use the RTT.
            initial_rtt: Duration::from_millis(100),
            // DSG's rules use no RTT: the raw echo (the adjustment would change nothing).
            owd_rtt: false,
        }
    }
}
