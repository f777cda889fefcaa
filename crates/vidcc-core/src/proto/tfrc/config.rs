//! [`TfrcConfig`]: every TFRC parameter, defaulting to RFC 5348 and to the DVRC paper page's
//! choices (docs/papers/dvrc.md §1.3 "TFRC"); ns-2 2.35's Agent/TFRC behaviour is options.

use serde::{Deserialize, Serialize};

/// The rate slow start starts from and never goes below (docs/papers/dvrc.md §1.3 "Initial rate").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum InitialRate {
    /// \[D\] RFC 3448 §4.2/§4.3: 1 packet/s until the first feedback, then slow start
    /// X = max(min(2X, recv_limit), s/R): one packet per RTT.
    #[default]
    Rfc3448,
    /// RFC 5348 §4.2: X = max(min(2X, recv_limit), W_init/R) with
    /// W_init = min(4s, max(2s, 4380 B)): 4 packets per RTT for 1000-byte packets, which is also
    /// what ns-2 starts slow start from (`rate_init_option_ 2`, RFC 3390).
    Rfc5348,
}

/// The sender's rate rules: what a feedback packet and a no-feedback expiry do to X.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RateRules {
    /// RFC 5348 §4.3/§4.4: X = max(min(X_Bps, recv_limit), s/t_mbi) with X_recv_set.
    #[default]
    Rfc5348,
    /// ns-2 2.35's Agent/TFRC (tcp/tfrc.cc, `super::ns2`): InitRate_ 300 B/s until the first
    /// feedback, slow start held at the initial rate for two reports and cut to X_recv when above
    /// 2·X_recv, left at X_Bps (uncapped) on the first loss, then at most 1–2 packets per RTT of
    /// increase towards min(X_Bps, 2·X_recv) and an immediate decrease to it; the no-feedback
    /// timer halves X; `slow_increase_` ramps the pacing rate over a slow-start RTT; ns-2's
    /// equation caps 3·√(3bp/8) at 1.
    Ns2,
}

/// t_RTO in the throughput equation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub enum RtoRule {
    /// RFC 5348 §4.3: t_RTO = 4R.
    #[default]
    #[serde(rename = "4r")]
    FourR,
    /// ns-2 2.35 (`tzero_`): TCP's retransmission timeout, srtt + 4·rttvar in whole ticks of
    /// `tcp_tick` (TCP's integer estimator over the feedback RTT samples; ns-2 `minrto_` 0).
    #[serde(rename = "tcp")]
    Tcp,
}

/// TFRC parameters. Raw numbers carry their unit.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct TfrcConfig {
    /// q, weight of the old RTT in R ← q·R + (1 − q)·R_sample (RFC 5348 §4.3 step 2): 0.9.
    pub q: f64,
    /// b, packets acknowledged per TCP ACK in the throughput equation (RFC 5348 §3.1): 1.
    pub b: f64,
    /// t_mbi, the maximum back-off interval: X ≥ s/t_mbi (RFC 5348 §4.3): 64 s.
    pub t_mbi_ns: u64,
    /// No-feedback timer = max(k·R, 2s/X) with k = this (RFC 5348 §4.3 step 3): 4 (ns-2: 2).
    pub nofeedback_rtts: f64,
    /// Slow start's starting rate and floor \[D\] `rfc3448` (alternative `rfc5348`).
    pub initial_rate: InitialRate,
    /// NDUPACK: a packet is lost once this many later packets arrived (RFC 5348 §5.1): 3
    /// (ns-2 `numPkts_` 1).
    pub ndupack: u32,
    /// RFC 5348 §5.5 history discounting: off (ns-2 `discount_` 1 turns it on).
    pub history_discounting: bool,
    /// Lower bound of the §5.5 discount factor: 0.5 (ns-2 `minDiscountRatio_`).
    pub discount_threshold: f64,
    /// RFC 5348 §4.5 oscillation prevention (inter-packet interval scaled by
    /// R_sqmean/√R_sample): off (ns-2 `ca_` 1 turns it on).
    pub oscillation_prevention: bool,
    /// Rate rules \[D\] `rfc5348` (ns-2's Agent/TFRC: `ns2`).
    pub rules: RateRules,
    /// t_RTO of the equation: `4r` (RFC 5348) or `tcp` (ns-2's `tzero_`).
    pub t_rto: RtoRule,
    /// Clock granularity of `t_rto = tcp`: 100 ms (ns-2 `tcp_tick_` 0.1).
    pub tcp_tick_ns: u64,
    /// q2, weight of the old value in R_sqmean (RFC 5348 §4.5): 0.9 (ns-2 uses `df_`, 0.95).
    pub q2: f64,
    /// Video only: most packets in the sender buffer (`None`: unbounded, docs/papers/dvrc.md's \[D\]).
    pub sender_buffer_packets: Option<u64>,
    /// Video only: a packet older than its frame's ready time plus this is dropped instead of
    /// sent (`None`: never, docs/papers/dvrc.md's \[D\] unbounded FIFO).
    pub sender_buffer_max_age_ns: Option<u64>,
}

impl Default for TfrcConfig {
    fn default() -> Self {
        TfrcConfig {
            q: 0.9,
            b: 1.0,
            t_mbi_ns: 64_000_000_000,
            nofeedback_rtts: 4.0,
            initial_rate: InitialRate::Rfc3448,
            ndupack: 3,
            history_discounting: false,
            discount_threshold: 0.5,
            oscillation_prevention: false,
            rules: RateRules::Rfc5348,
            t_rto: RtoRule::FourR,
            tcp_tick_ns: 100_000_000,
            q2: 0.9,
            sender_buffer_packets: None,
            sender_buffer_max_age_ns: None,
        }
    }
}

impl TfrcConfig {
    pub fn validate(&self) -> Result<(), String> {
        if !(0.0..1.0).contains(&self.q) {
            return Err(format!("tfrc: q must lie in [0, 1), got {}", self.q));
        }
        if !(self.b.is_finite() && self.b >= 1.0) {
            return Err(format!("tfrc: b must be at least 1, got {}", self.b));
        }
        if self.t_mbi_ns == 0 {
            return Err("tfrc: t_mbi_ns must be positive".into());
        }
        if !(self.nofeedback_rtts.is_finite() && self.nofeedback_rtts >= 1.0) {
            return Err(format!("tfrc: nofeedback_rtts must be at least 1, got {}", self.nofeedback_rtts));
        }
        if self.ndupack == 0 {
            return Err("tfrc: ndupack must be at least 1".into());
        }
        if !(self.discount_threshold > 0.0 && self.discount_threshold <= 1.0) {
            return Err(format!("tfrc: discount_threshold must lie in (0, 1], got {}", self.discount_threshold));
        }
        if !(0.0..1.0).contains(&self.q2) {
            return Err(format!("tfrc: q2 must lie in [0, 1), got {}", self.q2));
        }
        if self.tcp_tick_ns == 0 {
            return Err("tfrc: tcp_tick_ns must be positive".into());
        }
        if self.sender_buffer_packets == Some(0) {
            return Err("tfrc: sender_buffer_packets must be at least 1".into());
        }
        if self.sender_buffer_max_age_ns == Some(0) {
            return Err("tfrc: sender_buffer_max_age_ns must be positive".into());
        }
        Ok(())
    }
}
