//! [`SramtConfig`]: every parameter of docs/papers/sramt.md §1.13 with its default and source tag,
//! and the two registry configurations [`SramtSConfig`] (`sramt-s`) and [`SramtLeConfig`]
//! (`sramt-le`), which differ only in their defaults (bands and initial rates). See
//! `docs/protocols/sramt.md`.

use serde::{Deserialize, Serialize};

/// How the calibration parameter `a` turns one-way delays into RTTs (§1.4 step 7).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RttScaling {
    /// \[P\] Eq. 14: RTT = (1 + a)·OWD, a = RTT_echo/OWD_cal − 1 (multiplicative).
    #[default]
    Multiplicative,
    /// \[R\] ablation: RTT = RTT_echo + 2·(OWD − OWD_cal) (additive, as TFMCC/MLDA).
    Additive,
}

/// Which estimate a receiver compares at an epoch end (A-13b).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EpochEstimate {
    /// \[I\] the mean of the per-RTT r_r_tcp values over the epoch just ended.
    #[default]
    EpochMean,
    /// The current r_r_tcp.
    Current,
}

/// The parameters shared by both variants (docs/papers/sramt.md §1.13).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct SramtConfig {
    /// Per-stream (S) or per-layer (LE) rate bands `[min, max]` in bit/s, lowest first \[P\].
    /// Their count is n, the number of groups (1..=5: the 64-byte header carries every group's rate).
    pub bands_bps: Vec<[u64; 2]>,
    /// Initial rate of each stream / layer, bit/s \[P\] (clamped to its band).
    pub initial_rates_bps: Vec<u64>,
    /// Stream (S, 0-based) or level (LE, 1-based count of layers) a receiver starts on \[R\]
    /// the lowest).
    pub initial_group: u8,
    /// P of Eq. 1 in bytes \[R\] A-01; 0 = the flow's packet size.
    pub equation_packet_bytes: u32,
    /// T_epoch \[P\] 5 s.
    pub epoch_ns: u64,
    /// Consecutive epochs above / below the stream rate before a rule-2 move \[P\] 4 (A-16: ≥).
    pub rule2_epochs: u32,
    /// SRAMT-S rule 1 downwards also when the estimate is below the stream's band minimum while
    /// the announced rate is not yet pinned there (the sender has not yet heard the receiver
    /// since it joined; A-28), an option of this implementation; off (default):
    /// docs/papers/sramt.md's rule, a pinned announced rate only.
    pub rule1_estimate_below_band: bool,
    /// Cap the receiver's r_r_tcp at the most the session can carry (the top band's maximum, S;
    /// the sum of the band maxima, LE) \[R\] of this implementation; off (default): A-05, no cap.
    pub cap_estimate: bool,
    /// T_change, the back-off base \[P\] 5 s: after the k-th consecutive unsuccessful change
    /// (one the receiver's next change undoes, §1.7) that change is blocked for 2^k·T_change.
    pub change_ns: u64,
    /// The longest a change may stand and still be unsuccessful when undone: none (default, the
    /// paper's rule as stated: any undo by the next change) or, as the alternative reading
    /// (docs/papers/sramt.md's \[I\]), T_change + T_epoch/2 = 7.5 s, under which only an undo at
    /// the next epoch end counts.
    pub unsuccessful_window_ns: Option<u64>,
    /// Cap on the back-off exponent k \[R\] (the paper gives none; 2^16·T_change is ~4 days).
    pub max_backoff_exponent: u32,
    /// T_loss, the loss-sample interval of the 8-tap filter \[R\] A-03: 1 s.
    pub loss_sample_ns: u64,
    /// Initial calibration a₀ \[R\] 1 (RTT = 2·OWD until the first echo).
    pub initial_calibration: f64,
    pub rtt_scaling: RttScaling,
    pub epoch_estimate: EpochEstimate,
    /// The sender's AIMD stand-in r_AIMD \[R\] A-07 (off: r_AIMD = ∞, the paper's ablation).
    pub aimd: bool,
    /// AIMD thresholds l_u / l_c \[R\] 0.02 / 0.05.
    pub aimd_unloaded_below: f64,
    pub aimd_congested_from: f64,
    /// AIMD additive step per report, as a share of the top of the receiver's band \[R\] 0.05.
    pub aimd_increase_share: f64,
    /// RTCP minimum interval \[P\] 5 s.
    pub rtcp_min_interval_ns: u64,
    /// Share of the session bandwidth given to RTCP \[X\] RFC 3550 5 %, and the receivers' part
    /// of it \[X\] 75 %.
    pub rtcp_bandwidth_share: f64,
    pub rtcp_receiver_share: f64,
    /// T_suspent: an RTCP interval longer than this switches receivers to partial suppression \[P\] 10 s.
    pub suspend_interval_ns: u64,
    /// Suppression timer λ \[R\] 10 and T_rand \[R\] 10 s (a feedback round).
    pub suppression_lambda: f64,
    pub suppression_round_ns: u64,
    /// Reports within this relative distance of a receiver's own rate suppress it \[P\] 2 %.
    pub suppression_similarity: f64,
    /// Feedback suppression on (off: receivers always use the RTCP interval).
    pub suppression: bool,
    /// Receiver-manager timeout in RTCP intervals \[R\] A-22: 5.
    pub manager_timeout_intervals: u32,
    /// Video: a packet is dropped at the sender this long after its frame was ready \[D\].
    pub sender_buffer_max_age_ns: u64,
    /// Video: most packets each group's sender buffer holds \[D\].
    pub sender_buffer_packets: u32,
}

/// The simulcast defaults (what a resolved configuration's missing keys take; the Python schema
/// always resolves every key, with each variant's own defaults).
impl Default for SramtConfig {
    fn default() -> Self {
        Self::simulcast()
    }
}

impl SramtConfig {
    /// Simulcast defaults \[P\]: 50–200 / 200–600 / 600–1000 kbit/s, starting at 50 / 200 / 600.
    pub fn simulcast() -> Self {
        SramtConfig {
            bands_bps: vec![[50_000, 200_000], [200_000, 600_000], [600_000, 1_000_000]],
            initial_rates_bps: vec![50_000, 200_000, 600_000],
            initial_group: 0,
            ..Self::common()
        }
    }

    /// Layered defaults \[P\]: 50–200 / 50–400 / 50–400 kbit/s, every layer at 150.
    pub fn layered() -> Self {
        SramtConfig {
            bands_bps: vec![[50_000, 200_000], [50_000, 400_000], [50_000, 400_000]],
            initial_rates_bps: vec![150_000, 150_000, 150_000],
            initial_group: 1,
            ..Self::common()
        }
    }

    fn common() -> Self {
        SramtConfig {
            bands_bps: Vec::new(),
            initial_rates_bps: Vec::new(),
            initial_group: 0,
            equation_packet_bytes: 0,
            epoch_ns: 5_000_000_000,
            rule2_epochs: 4,
            rule1_estimate_below_band: false,
            cap_estimate: false,
            change_ns: 5_000_000_000,
            unsuccessful_window_ns: None,
            max_backoff_exponent: 16,
            loss_sample_ns: 1_000_000_000,
            initial_calibration: 1.0,
            rtt_scaling: RttScaling::Multiplicative,
            epoch_estimate: EpochEstimate::EpochMean,
            aimd: true,
            aimd_unloaded_below: 0.02,
            aimd_congested_from: 0.05,
            aimd_increase_share: 0.05,
            rtcp_min_interval_ns: 5_000_000_000,
            rtcp_bandwidth_share: 0.05,
            rtcp_receiver_share: 0.75,
            suspend_interval_ns: 10_000_000_000,
            suppression_lambda: 10.0,
            suppression_round_ns: 10_000_000_000,
            suppression_similarity: 0.02,
            suppression: true,
            manager_timeout_intervals: 5,
            sender_buffer_max_age_ns: 1_000_000_000,
            sender_buffer_packets: 1000,
        }
    }

    /// Number of streams / layers.
    pub fn groups(&self) -> usize {
        self.bands_bps.len()
    }

    /// Checks every parameter; the error names the key.
    pub fn validate(&self, layered: bool) -> Result<(), String> {
        let n = self.bands_bps.len();
        if !(1..=super::wire::MAX_GROUPS).contains(&n) {
            return Err(format!("bands_bps: 1 to {} bands, got {n}", super::wire::MAX_GROUPS));
        }
        for (j, [lo, hi]) in self.bands_bps.iter().enumerate() {
            if *lo == 0 || lo > hi || *hi > u64::from(u32::MAX) {
                return Err(format!("bands_bps[{j}]: need 0 < min <= max <= {} bit/s, got [{lo}, {hi}]", u32::MAX));
            }
        }
        if self.initial_rates_bps.len() != n {
            return Err(format!("initial_rates_bps: one rate per band ({n}), got {}", self.initial_rates_bps.len()));
        }
        let first = if layered { 1 } else { 0 };
        let last = if layered { n } else { n - 1 };
        if !(first..=last).contains(&(self.initial_group as usize)) {
            let what = if layered { "level" } else { "stream" };
            return Err(format!("initial_group: {what} {first}..={last}, got {}", self.initial_group));
        }
        for (name, v) in
            [("epoch_ns", self.epoch_ns), ("change_ns", self.change_ns), ("loss_sample_ns", self.loss_sample_ns)]
                .into_iter()
                .chain([
                    ("rtcp_min_interval_ns", self.rtcp_min_interval_ns),
                    ("suppression_round_ns", self.suppression_round_ns),
                ])
        {
            if v == 0 {
                return Err(format!("{name}: must be positive"));
            }
        }
        if self.unsuccessful_window_ns == Some(0) {
            return Err("unsuccessful_window_ns: must be positive (or absent: no bound)".into());
        }
        if self.epoch_ns > u64::from(u32::MAX) * 1000 {
            return Err("epoch_ns: at most 4294 s (the header carries it in microseconds)".into());
        }
        if self.rule2_epochs == 0 {
            return Err("rule2_epochs: at least 1".into());
        }
        if !(self.initial_calibration.is_finite() && self.initial_calibration > -1.0) {
            return Err(format!("initial_calibration: a finite number above -1, got {}", self.initial_calibration));
        }
        let unit = |name: &str, v: f64| {
            if v.is_finite() && v > 0.0 && v <= 1.0 {
                Ok(())
            } else {
                Err(format!("{name}: in (0, 1], got {v}"))
            }
        };
        unit("aimd_unloaded_below", self.aimd_unloaded_below)?;
        unit("aimd_congested_from", self.aimd_congested_from)?;
        unit("aimd_increase_share", self.aimd_increase_share)?;
        unit("rtcp_bandwidth_share", self.rtcp_bandwidth_share)?;
        unit("rtcp_receiver_share", self.rtcp_receiver_share)?;
        if self.rtcp_receiver_share >= 1.0 {
            return Err("rtcp_receiver_share: below 1 (the sender's share is the rest)".into());
        }
        unit("suppression_similarity", self.suppression_similarity)?;
        if self.aimd_unloaded_below > self.aimd_congested_from {
            return Err("aimd_unloaded_below: must not exceed aimd_congested_from".into());
        }
        if !(self.suppression_lambda.is_finite() && self.suppression_lambda > 0.0) {
            return Err(format!("suppression_lambda: positive, got {}", self.suppression_lambda));
        }
        if self.manager_timeout_intervals == 0 {
            return Err("manager_timeout_intervals: at least 1".into());
        }
        if self.sender_buffer_packets == 0 {
            return Err("sender_buffer_packets: at least 1".into());
        }
        Ok(())
    }
}

/// `sramt-s`: SRAMT with simulcast streams (its default is [`SramtConfig::simulcast`]).
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(transparent)]
pub struct SramtSConfig(pub SramtConfig);

/// `sramt-le`: SRAMT with cumulative layers.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(transparent)]
pub struct SramtLeConfig(pub SramtConfig);

impl Default for SramtLeConfig {
    fn default() -> Self {
        SramtLeConfig(SramtConfig::layered())
    }
}
