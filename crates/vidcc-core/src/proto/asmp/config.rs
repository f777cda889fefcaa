//! [`AsmpConfig`]: every ASMP parameter. \[P\] = the paper (Kioumourtzis, Bouras, Gkamas 2012),
//! \[C\] = the ASMP/TFMCC paper page's recommendation where the paper is silent
//! (`docs/papers/asmp-tfmcc.md` §1.3, AMB-n), \[X\] = RFC 3550.

use serde::{Deserialize, Serialize};

use crate::estimate::rtcp_interval::RtcpIntervalConfig;
use crate::time::Duration;
use crate::units::DataRate;

/// Which loss ratio enters eq.(2) (AMB-2).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LossMeasure {
    /// \[C\] Loss events since the previous report / packets expected in that interval; losses
    /// within one RTT of an event's first loss belong to it.
    #[default]
    LossEventRatio,
    /// Option A: the report block's fraction lost (lost / expected in the interval).
    FractionLost,
}

/// How a lower r_inst after loss takes effect (AMB-5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Decrease {
    /// \[P\] literal eq.(3): decreases are smoothed by γ like increases.
    #[default]
    Smoothed,
    /// Option: on a lossy interval with r_inst < r, r ← r_inst at once.
    Immediate,
}

/// What a lossy interval's r_inst may be (AMB-6; docs/protocols/asmp.md, "Lossy intervals").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LossyIncrease {
    /// \[P §3.2\] eq.(2) as it comes, even above r: the paper bounds the increase only "when
    /// the receiver has not experienced any packet losses since the previous RTCP report".
    #[default]
    Equation,
    /// Option: eq.(2) capped at r + P/RTT, the loss-free bound applied to lossy intervals too
    /// (§6.6 calls γ·P/RTT ASMP's "maximum increase"): a lossy interval raises r by at most
    /// γ·P/RTT.
    Step,
    /// Option: a lossy interval never raises r: r_inst = min(eq.(2), r) (the receiver
    /// "emulates the behavior of a TCP agent", §3.2, and a TCP agent does not open its window
    /// on a loss).
    Never,
}

/// What a video frame's RTP timestamp stamps: the receiver's G_i, "the sending time of frame i"
/// in the cumulative jitter of eqs.(8)–(9) (§6.4; docs/protocols/asmp.md, "Cumulative jitter").
/// Bulk data is not concerned: each packet is a "frame" stamped with its own send instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameTimestamp {
    /// \[P §6.4\] The send instant of the frame's first packet to leave the sender (every
    /// packet of the frame carries it): the frame's wait in the paced sender buffer is not in
    /// A_i − G_i, which then varies with the network's delay and the frame's own pacing only.
    #[default]
    FirstSend,
    /// Option (vidcc's behaviour before 2026-11-27): the instant the frame was ready (captured
    /// and encoded); the wait in the sender buffer then counts as rising network delay.
    Ready,
}

/// Which arrival is a frame's A_i in the cumulative jitter of eqs.(8)–(9) (§6.4).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FrameArrival {
    /// \[C\] The arrival of the frame's last packet, when the frame is complete ("the amount of
    /// playback delay that must be provided to avoid discarding any frame", §6.4). With G_i the
    /// send time of its first packet, A_i − G_i also holds the frame's own pacing time (its
    /// bytes at X), which grows when the frames grow faster than X.
    #[default]
    LastPacket,
    /// Option: the arrival of the frame's first packet (the frame still counts only when it is
    /// complete): with `FrameTimestamp::FirstSend`, A_i − G_i is one packet's one-way delay.
    FirstPacket,
}

/// ASMP parameters. Raw numbers carry their unit.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct AsmpConfig {
    /// γ in the UNLOADED state (eq.5) \[P\]: 0.9.
    pub gamma_unloaded: f64,
    /// γ in the CONGESTED state (eq.5) \[P\]: 0.2.
    pub gamma_congested: f64,
    /// Weight of a new per-interval mean in the long-running average of cumulative jitter
    /// (AMB-4) \[C\]: 1/8.
    pub cj_long_weight: f64,
    /// The congestion indicator's resolution, RTP clock ticks: CONGESTED needs CJ_short above
    /// CJ_long by more than this (\[I\]: the RTP timestamp gives the sending time G_i only to
    /// the tick, so smaller differences are not measured; 0 = the strict comparison).
    pub cj_resolution_ticks: f64,
    /// What a video frame's RTP timestamp (G_i) stamps \[P §6.4\]: `first_send`.
    pub frame_timestamp: FrameTimestamp,
    /// Which arrival is a frame's A_i (§6.4) \[C\]: `last_packet`.
    pub frame_arrival: FrameArrival,
    /// Loss ratio in eq.(2) (AMB-2) \[C\]: `loss_event_ratio`.
    pub loss_measure: LossMeasure,
    /// Decreases (AMB-5) \[C\]: `smoothed` (the literal rule).
    pub decrease: Decrease,
    /// What a lossy interval's r_inst may be (AMB-6) \[P\]: `equation` (eq.(2), no bound).
    pub lossy_increase: LossyIncrease,
    /// Weight of a new RTT sample at the sender, R ← (1 − w)·R + w·sample \[C\]: 1 (the latest
    /// sample; docs/papers/asmp-tfmcc.md's option is 0.1).
    pub rtt_weight: f64,
    /// The sender's rate before any report (AMB-8) \[C\]: 100 kb/s (the Q = 31 rate).
    pub initial_rate_bps: u64,
    /// Lowest sending rate \[C\]: 100 kb/s (the video's lowest rate, docs/papers/asmp-tfmcc.md §1.3 sender rule).
    pub min_rate_bps: u64,
    /// Highest sending rate \[C\]: none (the video's highest rate when it bounds it).
    pub max_rate_bps: Option<u64>,
    /// RTCP session bandwidth (RFC 3550 §6.2; AMB-9) \[C\]: 1 Mb/s.
    pub session_bandwidth_bps: u64,
    /// RTCP minimum interval T_min (AMB-9) \[X\]: 5 s.
    pub rtcp_min_interval_ns: u64,
    /// RFC 3550's reduced minimum 360/(session kb/s) s \[C\]: off.
    pub rtcp_reduced_minimum: bool,
    /// Lower-layer bytes counted in RTCP packet sizes (RFC 3550 §6.2: UDP + IPv4): 28.
    pub rtcp_overhead_bytes: u64,
    /// RTP timestamp clock (RFC 3551 §5, video) \[X\]: 90 kHz.
    pub clock_rate_hz: u32,
}

impl Default for AsmpConfig {
    fn default() -> Self {
        AsmpConfig {
            gamma_unloaded: 0.9,
            gamma_congested: 0.2,
            cj_long_weight: 0.125,
            cj_resolution_ticks: 1.0,
            frame_timestamp: FrameTimestamp::FirstSend,
            frame_arrival: FrameArrival::LastPacket,
            loss_measure: LossMeasure::LossEventRatio,
            decrease: Decrease::Smoothed,
            lossy_increase: LossyIncrease::Equation,
            rtt_weight: 1.0,
            initial_rate_bps: 100_000,
            min_rate_bps: 100_000,
            max_rate_bps: None,
            session_bandwidth_bps: 1_000_000,
            rtcp_min_interval_ns: 5_000_000_000,
            rtcp_reduced_minimum: false,
            rtcp_overhead_bytes: 28,
            clock_rate_hz: 90_000,
        }
    }
}

impl AsmpConfig {
    /// Checks every field; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        let unit = |v: f64, name: &str, zero_ok: bool| {
            if (zero_ok && (0.0..=1.0).contains(&v)) || (!zero_ok && v > 0.0 && v <= 1.0) {
                Ok(())
            } else {
                Err(format!("asmp: {name} must be in {}, got {v}", if zero_ok { "[0, 1]" } else { "(0, 1]" }))
            }
        };
        unit(self.gamma_unloaded, "gamma_unloaded", true)?;
        unit(self.gamma_congested, "gamma_congested", true)?;
        unit(self.cj_long_weight, "cj_long_weight", false)?;
        unit(self.rtt_weight, "rtt_weight", false)?;
        if !(self.cj_resolution_ticks.is_finite() && self.cj_resolution_ticks >= 0.0) {
            return Err(format!(
                "asmp: cj_resolution_ticks must be a finite number ≥ 0, got {}",
                self.cj_resolution_ticks
            ));
        }
        if self.min_rate_bps == 0 {
            return Err("asmp: min_rate_bps must be positive".into());
        }
        if self.max_rate_bps.is_some_and(|m| m < self.min_rate_bps) {
            return Err("asmp: max_rate_bps must be at least min_rate_bps".into());
        }
        if self.initial_rate_bps == 0 {
            return Err("asmp: initial_rate_bps must be positive".into());
        }
        if self.clock_rate_hz == 0 {
            return Err("asmp: clock_rate_hz must be positive".into());
        }
        self.rtcp().validate().map_err(|e| format!("asmp: {e}"))
    }

    /// The RTCP interval's parameters.
    pub fn rtcp(&self) -> RtcpIntervalConfig {
        RtcpIntervalConfig {
            session_bandwidth: DataRate::from_bps(self.session_bandwidth_bps),
            min_interval: Duration::from_nanos(self.rtcp_min_interval_ns),
            reduced_minimum: self.rtcp_reduced_minimum,
            ..RtcpIntervalConfig::default()
        }
    }

    /// The congestion indicator's resolution in ns.
    pub fn cj_resolution_ns(&self) -> f64 {
        self.cj_resolution_ticks * 1e9 / self.clock_rate_hz as f64
    }

    /// γ for a congestion state (eq.5).
    pub fn gamma(&self, congested: bool) -> f64 {
        if congested {
            self.gamma_congested
        } else {
            self.gamma_unloaded
        }
    }

    /// The highest sending rate, bytes/s (∞ without `max_rate_bps`).
    pub fn max_bytes_per_s(&self) -> f64 {
        self.max_rate_bps.map_or(f64::INFINITY, |m| m as f64 / 8.0)
    }

    /// The sending rate clamped to [min, max], bytes/s.
    pub fn clamp_bytes_per_s(&self, x: f64) -> f64 {
        let lo = self.min_rate_bps as f64 / 8.0;
        x.clamp(lo, self.max_bytes_per_s())
    }
}
