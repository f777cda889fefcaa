//! The sender's rate setting (docs/papers/sramt.md §1.9–1.10): per receiver, the preferred rate
//! r^i = min(r_r_tcp^i, r_AIMD^i, r_l_tcp^i) (Eq. 4), and per group the stream rate of Eq. 5
//! (SRAMT-S) or the layer rate of the corrected Eq. 6 (SRAMT-LE), clamped to its band.
//!
//! Rates are bit/s throughout; Eq. 1 (bytes/s) is converted at the boundary.

use super::config::SramtConfig;
use super::estimator::tcp_rate;
use crate::time::{Duration, Instant};

/// What a receiver's report (RTCP RR + SRAMT APP) tells the sender.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReportFacts {
    /// Mean r_r_tcp^i since the previous report, bit/s.
    pub rate_bps: f64,
    /// Smoothed loss rate l_i.
    pub loss: f64,
    /// Stream j (S, 0-based) or level k (LE, 1-based).
    pub position: usize,
}

/// The sender's receiver manager of one receiver (§1.1, §1.9).
#[derive(Clone, Debug)]
pub struct ReceiverManager {
    pub facts: ReportFacts,
    /// t_RTT^{r-i} of Eq. 15 (latest, not smoothed \[R\]).
    pub rtt: Option<Duration>,
    pub r_aimd: f64,
    pub r_l_tcp: f64,
    pub preferred: f64,
    pub last_report: Instant,
    /// Reports handled so far.
    pub reports: u64,
}

/// The AIMD stand-in of §1.9 step 3 \[R\] A-07. `band_top` is the top of the receiver's stream
/// band (S) or its level's cumulative maximum (LE).
pub fn aimd_step(cfg: &SramtConfig, r: f64, loss: f64, band_top: f64) -> f64 {
    if loss < cfg.aimd_unloaded_below {
        r + cfg.aimd_increase_share * band_top
    } else if loss < cfg.aimd_congested_from {
        r
    } else {
        r * (1.0 - loss.min(1.0).sqrt())
    }
}

impl ReceiverManager {
    /// A manager created by the receiver's first report; `initial` is the current rate of its
    /// stream (S) or C_k of its level (LE) \[R\] A-05.
    pub fn new(now: Instant, facts: ReportFacts, initial: f64) -> Self {
        ReceiverManager {
            facts,
            rtt: None,
            r_aimd: initial,
            r_l_tcp: initial,
            preferred: initial,
            last_report: now,
            reports: 0,
        }
    }

    /// §1.9 steps 1–5 on a report at `now`: `rtt` is this report's Eq. 15 measurement (if any),
    /// `packet_bytes` P of Eq. 1, `band_top` as for [`aimd_step`]. Returns r^i.
    pub fn on_report(
        &mut self,
        cfg: &SramtConfig,
        now: Instant,
        facts: ReportFacts,
        rtt: Option<Duration>,
        packet_bytes: f64,
        band_top: f64,
    ) -> f64 {
        let first = self.reports == 0;
        self.reports += 1;
        let t_rr = now.saturating_since(self.last_report).as_secs_f64();
        self.facts = facts;
        if rtt.is_some() {
            self.rtt = rtt;
        }
        self.r_aimd = if cfg.aimd { aimd_step(cfg, self.r_aimd, facts.loss, band_top) } else { f64::INFINITY };
        match self.rtt.map(|d| d.as_secs_f64()).filter(|&r| r > 0.0) {
            Some(r) if facts.loss > 0.0 => self.r_l_tcp = 8.0 * tcp_rate(packet_bytes, facts.loss, r),
            // Eq. 3: at most one packet per RTT per RTT over the gap since the previous report.
            Some(r) if !first => self.r_l_tcp += 8.0 * packet_bytes * t_rr / (r * r),
            _ => {}
        }
        self.last_report = now;
        self.preferred = facts.rate_bps.min(self.r_aimd).min(self.r_l_tcp);
        self.preferred
    }
}

/// A band as bit/s.
pub fn band(cfg: &SramtConfig, j: usize) -> [f64; 2] {
    let [lo, hi] = cfg.bands_bps[j];
    [lo as f64, hi as f64]
}

fn clamp(x: f64, [lo, hi]: [f64; 2]) -> f64 {
    if x.is_nan() {
        lo
    } else {
        x.clamp(lo, hi)
    }
}

/// The minimum of each group's values (`None`: no receiver in it); out-of-range groups ignored.
fn minima(n: usize, values: impl Iterator<Item = (usize, f64)>) -> Vec<Option<f64>> {
    let mut minimum: Vec<Option<f64>> = vec![None; n];
    for (j, r) in values {
        if let Some(m) = minimum.get_mut(j) {
            *m = Some(m.map_or(r, |x: f64| x.min(r)));
        }
    }
    minimum
}

/// Eq. 5 + A-11: every stream's rate is the minimum preferred rate of the receivers listening to
/// it, clamped to its band; a stream without receivers keeps its rate \[R\]. `receivers` yields
/// (stream, r^i).
pub fn simulcast_rates(cfg: &SramtConfig, rates: &mut [f64], receivers: impl Iterator<Item = (usize, f64)>) {
    let minimum = minima(rates.len(), receivers);
    for (j, rate) in rates.iter_mut().enumerate() {
        if let Some(m) = minimum[j] {
            *rate = clamp(m, band(cfg, j));
        }
    }
}

/// Eq. 6 as corrected: r_layer-k = min{r^i : i at level exactly k} − Σ_{j<k}
/// r_layer-j, clamped to band k; a level without receivers keeps its layer's rate \[R\].
/// `receivers` yields (level k ≥ 1, r^i).
pub fn layered_rates(cfg: &SramtConfig, rates: &mut [f64], receivers: impl Iterator<Item = (usize, f64)>) {
    let minimum = minima(rates.len(), receivers.filter_map(|(k, r)| Some((k.checked_sub(1)?, r))));
    let mut below = 0.0;
    for (i, rate) in rates.iter_mut().enumerate() {
        if let Some(m) = minimum[i] {
            *rate = clamp(m - below, band(cfg, i));
        }
        below += *rate;
    }
}
