//! [`SsvpConfig`] (the `ssvp` protocol) and [`SsvpLayeredConfig`] (`ssvp-layered`): every
//! parameter of docs/papers/ssvp.md with its default and source tag. See `docs/protocols/ssvp.md`.

use serde::{Deserialize, Serialize};

use crate::estimate::rtt::DtoMode;
use crate::media::sender_buffer::DropPolicy;

/// Eq. (10): how an increase changes the rate (ambiguity A-RATE-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum IncreaseLaw {
    /// \[I\] default: `R ← R + alpha·S/RTT` (alpha packets per RTT), i.e.
    /// `IPG ← IPG / (1 + alpha·IPG/RTT)`.
    #[default]
    Additive,
    /// \[P\] as printed: `IPG ← IPG / (1 + alpha)`, i.e. `R ← (1 + alpha)·R` (multiplicative).
    LiteralMultiplicative,
}

/// Which RTT paces the once-per-RTT decisions of Alg. 2 (A-RATE-3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum AdjustPeriod {
    /// \[P\] `current_rtt` = the last RTT sample.
    #[default]
    LastSample,
    /// EstimatedRTT (Eq. 3).
    Estimated,
}

/// Form of the deviation equation, Eq. (5) (A-RTT-1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DeviationForm {
    /// \[P\] as printed: `Dev ← ε·Dev + (1−ε)·|EstimatedRTT − EstimatedRTT'|`.
    #[default]
    Literal,
    /// TCP's RTTVAR form: `Dev ← (1−ε)·Dev + ε·|SampleRTT − EstimatedRTT'|`.
    Tcp,
}

impl DeviationForm {
    pub fn dto_mode(self) -> DtoMode {
        match self {
            DeviationForm::Literal => DtoMode::PaperLiteral,
            DeviationForm::Tcp => DtoMode::TcpLike,
        }
    }
}

/// Which packet the sender buffer drops when it is full (`media::sender_buffer::DropPolicy`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum BufferPolicy {
    /// \[U\] docs/papers/ssvp.md §1.1.7: drop the oldest (stalest) packet first.
    #[default]
    DropOldest,
    DropNewest,
    HighestLayerFirst,
}

impl BufferPolicy {
    pub fn drop_policy(self) -> DropPolicy {
        match self {
            BufferPolicy::DropOldest => DropPolicy::DropOldest,
            BufferPolicy::DropNewest => DropPolicy::DropNewest,
            BufferPolicy::HighestLayerFirst => DropPolicy::HighestLayerFirst,
        }
    }
}

/// The SSVP congestion controller, its receiver and its sender buffer.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct SsvpConfig {
    /// Additive increase, packets per RTT \[P\] 0.31 (Eq. 7: 4(1−β²)/3 = 0.3125).
    pub alpha: f64,
    /// Rate kept after a decrease \[P\] 0.875 (Eq. 9: IPG ← IPG/β).
    pub beta: f64,
    /// Share of congestion-marked control packets per adjustment period above which the rate
    /// decreases \[P\] 0.005 (strict `>`); at or below it, with at least one mark, the rate holds.
    pub congestion_level_threshold: f64,
    pub increase_law: IncreaseLaw,
    pub adjust_period: AdjustPeriod,
    /// Per-control-packet increases until the first congestion mark \[P\] (§3.2 startup).
    pub startup: bool,
    /// Weight of the old EstimatedRTT, Eq. (3) \[P\] 0.9.
    pub gamma: f64,
    /// Deviation weight ε, Eq. (5) \[P\] 0.25.
    pub epsilon: f64,
    /// STO = EstimatedRTT + δ·Deviation, Eq. (4) \[P\] δ = 4.
    pub delta: f64,
    pub deviation: DeviationForm,
    /// \[U\] A-RATE-6: one 1000-byte packet per 100 ms (an initial-RTT guess).
    pub initial_rate_bps: u64,
    /// \[U\] A-RATE-5 floor: one 1000-byte packet per second.
    pub min_rate_bps: u64,
    /// \[U\] A-RATE-5 cap ("target sending rate"); 0 = from the application: the video's mean
    /// rate on the wire (headers included) × `app_rate_factor`; bulk data: 10 Gbit/s.
    pub max_rate_bps: u64,
    /// \[D\] Headroom of the derived cap over the video's mean rate, for frame-size bursts.
    pub app_rate_factor: f64,
    /// \[U\] A-RTT-3 guard: receiver timeout = max(STO, 2 × mean inter-arrival time).
    pub receiver_timeout_guard: bool,
    /// \[U\] A-RATE-4 option: without feedback for 2·STO the sender decreases once per STO
    /// (off: the paper has no sender-side timer).
    pub no_feedback_decrease: bool,
    /// \[U\] §1.1.2: control packets on the wire (header + padding), like an ns-2 TCP ACK.
    pub control_packet_bytes: u32,
    /// \[U\] §1.1.7: a video packet is dropped at the sender this long after its frame was ready.
    pub sender_buffer_max_age_ns: u64,
    /// \[U\] §1.1.7: most packets the sender buffer holds.
    pub sender_buffer_packets: u32,
    pub sender_buffer_policy: BufferPolicy,
    /// \[U\] §2 pads every frame's last fragment to the full packet; default off (see docs).
    pub pad_last_fragment: bool,
}

impl Default for SsvpConfig {
    fn default() -> Self {
        SsvpConfig {
            alpha: 0.31,
            beta: 0.875,
            congestion_level_threshold: 0.005,
            increase_law: IncreaseLaw::Additive,
            adjust_period: AdjustPeriod::LastSample,
            startup: true,
            gamma: 0.9,
            epsilon: 0.25,
            delta: 4.0,
            deviation: DeviationForm::Literal,
            initial_rate_bps: 80_000,
            min_rate_bps: 8_000,
            max_rate_bps: 0,
            app_rate_factor: 1.2,
            receiver_timeout_guard: true,
            no_feedback_decrease: false,
            control_packet_bytes: 40,
            sender_buffer_max_age_ns: 1_000_000_000,
            sender_buffer_packets: 100,
            sender_buffer_policy: BufferPolicy::DropOldest,
            pad_last_fragment: false,
        }
    }
}

/// Highest rate any SSVP sender uses (the cap for bulk data unless `max_rate_bps` says less).
pub const ABSOLUTE_MAX_RATE_BPS: u64 = 10_000_000_000;

fn unit_interval(name: &str, v: f64, open_low: bool, open_high: bool) -> Result<(), String> {
    let ok = v.is_finite() && if open_low { v > 0.0 } else { v >= 0.0 } && if open_high { v < 1.0 } else { v <= 1.0 };
    if ok {
        Ok(())
    } else {
        let (l, h) = (if open_low { "(" } else { "[" }, if open_high { ")" } else { "]" });
        Err(format!("{name} must be in {l}0, 1{h}, got {v}"))
    }
}

impl SsvpConfig {
    pub fn validate(&self) -> Result<(), String> {
        if !(self.alpha.is_finite() && self.alpha > 0.0) {
            return Err(format!("alpha must be a positive number, got {}", self.alpha));
        }
        unit_interval("beta", self.beta, true, true)?;
        unit_interval("congestion_level_threshold", self.congestion_level_threshold, false, true)?;
        unit_interval("gamma", self.gamma, false, true)?;
        unit_interval("epsilon", self.epsilon, false, false)?;
        if !(self.delta.is_finite() && self.delta >= 0.0) {
            return Err(format!("delta must be a non-negative number, got {}", self.delta));
        }
        if self.min_rate_bps == 0 {
            return Err("min_rate_bps must be positive".into());
        }
        if self.max_rate_bps != 0 && self.max_rate_bps < self.min_rate_bps {
            return Err(format!(
                "max_rate_bps ({}) must be at least min_rate_bps ({})",
                self.max_rate_bps, self.min_rate_bps
            ));
        }
        if self.max_rate_bps > ABSOLUTE_MAX_RATE_BPS || self.min_rate_bps > ABSOLUTE_MAX_RATE_BPS {
            return Err(format!("rates above {ABSOLUTE_MAX_RATE_BPS} bit/s are not supported"));
        }
        if self.initial_rate_bps < self.min_rate_bps {
            return Err(format!(
                "initial_rate_bps ({}) must be at least min_rate_bps ({})",
                self.initial_rate_bps, self.min_rate_bps
            ));
        }
        if self.max_rate_bps != 0 && self.initial_rate_bps > self.max_rate_bps {
            return Err(format!(
                "initial_rate_bps ({}) must be at most max_rate_bps ({})",
                self.initial_rate_bps, self.max_rate_bps
            ));
        }
        if !(self.app_rate_factor.is_finite() && self.app_rate_factor >= 1.0) {
            return Err(format!("app_rate_factor must be at least 1, got {}", self.app_rate_factor));
        }
        let header = crate::wire::ssvp::HEADER_BYTES as u32;
        if self.control_packet_bytes < header || self.control_packet_bytes > u16::MAX as u32 {
            return Err(format!(
                "control_packet_bytes must be in [{header}, {}], got {}",
                u16::MAX,
                self.control_packet_bytes
            ));
        }
        if self.sender_buffer_max_age_ns == 0 {
            return Err("sender_buffer_max_age_ns must be positive".into());
        }
        if self.sender_buffer_packets == 0 {
            return Err("sender_buffer_packets must be positive".into());
        }
        Ok(())
    }
}

/// A-LA-1: the rate assumed right after a loss in the buffer rule, Eqs. (13)–(17).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PostLossFactor {
    /// \[P\] Eqs. (13)–(17) as printed: (1−β)·R (Eq. 17's R/8).
    #[default]
    PaperLiteral,
    /// β·R: the rate SSVP actually falls to (§3.2, Fig. 3).
    Physical,
}

/// A-LA-4: the consumption of k+1 layers in rule (11) and Eq. (13).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConsumptionRule {
    /// Σ_{i≤k+1} c_i (exact for any layer rates; docs/papers/ssvp.md's recommendation).
    #[default]
    Cumulative,
    /// (k+1)·c̄ with c̄ the mean of the k active layers (the paper's notation).
    MeanTimesCount,
}

/// When layers change (§4, §6.3).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LayerPolicy {
    /// \[P\] add only when rules (11) and (17) hold; drop by docs/papers/ssvp.md's rule (A-LA-5).
    #[default]
    Buffered,
    /// §6.3's "immediate adaptation": the most layers whose consumption fits the rate.
    Immediate,
}

/// `ssvp-layered`: SSVP plus the receiver-buffered layered adaptation.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct SsvpLayeredConfig {
    /// The congestion controller (same keys and defaults as `ssvp`).
    pub ssvp: SsvpConfig,
    pub policy: LayerPolicy,
    pub postloss_factor: PostLossFactor,
    pub consumption: ConsumptionRule,
    /// A-LA-5 \[U\]: also drop the top layer when its packets miss their deadline at the sender
    /// while the rate is below the active layers' consumption.
    pub underflow_drop: bool,
    /// Layers sent at the start \[U\] (the base layer).
    pub initial_layers: u8,
    /// \[U\] A-LA-7: the receiver plays a frame this long after the first packet arrived.
    pub playout_delay_ns: u64,
    /// \[U\] A-LA-7: how far ahead of real time the server reads the stored video (receiver
    /// buffer cap = playout delay + lead = 2 s of playout).
    pub max_lead_ns: u64,
}

impl Default for SsvpLayeredConfig {
    fn default() -> Self {
        SsvpLayeredConfig {
            ssvp: SsvpConfig::default(),
            policy: LayerPolicy::Buffered,
            postloss_factor: PostLossFactor::PaperLiteral,
            consumption: ConsumptionRule::Cumulative,
            underflow_drop: true,
            initial_layers: 1,
            playout_delay_ns: 1_000_000_000,
            max_lead_ns: 1_000_000_000,
        }
    }
}

impl SsvpLayeredConfig {
    pub fn validate(&self) -> Result<(), String> {
        self.ssvp.validate().map_err(|e| format!("ssvp.{e}"))?;
        if self.initial_layers == 0 || self.initial_layers > crate::wire::ssvp::MAX_LAYERS {
            return Err(format!(
                "initial_layers must be in [1, {}], got {}",
                crate::wire::ssvp::MAX_LAYERS,
                self.initial_layers
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_are_the_papers_and_validate() {
        let c = SsvpConfig::default();
        c.validate().unwrap();
        // C1: alpha = 4(1 − β²)/3 = 4(1 − 0.765625)/3 = 0.3125; the paper rounds to 0.31.
        assert!((4.0 * (1.0 - c.beta * c.beta) / 3.0 - 0.3125).abs() < 1e-12);
        assert_eq!((c.alpha, c.beta, c.congestion_level_threshold), (0.31, 0.875, 0.005));
        assert_eq!((c.gamma, c.epsilon, c.delta), (0.9, 0.25, 4.0));
        SsvpLayeredConfig::default().validate().unwrap();
    }

    #[test]
    fn validation_names_the_field() {
        let bad = |f: fn(&mut SsvpConfig)| {
            let mut c = SsvpConfig::default();
            f(&mut c);
            c.validate().unwrap_err()
        };
        assert!(bad(|c| c.beta = 1.0).starts_with("beta"));
        assert!(bad(|c| c.alpha = f64::NAN).starts_with("alpha"));
        assert!(bad(|c| c.congestion_level_threshold = -0.1).starts_with("congestion_level_threshold"));
        assert!(bad(|c| c.min_rate_bps = 0).starts_with("min_rate_bps"));
        assert!(bad(|c| c.max_rate_bps = 1000).starts_with("max_rate_bps"));
        assert!(bad(|c| c.initial_rate_bps = 1).starts_with("initial_rate_bps"));
        assert!(bad(|c| c.control_packet_bytes = 10).starts_with("control_packet_bytes"));
        assert!(bad(|c| c.app_rate_factor = 0.5).starts_with("app_rate_factor"));
        let l = SsvpLayeredConfig { initial_layers: 0, ..Default::default() };
        assert!(l.validate().unwrap_err().starts_with("initial_layers"));
        let l = SsvpLayeredConfig { ssvp: SsvpConfig { beta: 2.0, ..Default::default() }, ..Default::default() };
        assert!(l.validate().unwrap_err().starts_with("ssvp.beta"));
    }
}
