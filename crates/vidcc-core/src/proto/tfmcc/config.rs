//! [`TfmccConfig`]: every TFMCC parameter, defaulting to RFC 4654 and to the ASMP/TFMCC paper page
//! (`docs/papers/asmp-tfmcc.md` §1.4, "[C] RFC 4654 defaults"); the alternatives the ASMP/TFMCC
//! paper page names are options.

use serde::{Deserialize, Serialize};

/// How a receiver's feedback timer is drawn (RFC 4654 §4.5).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FeedbackTimer {
    /// RFC 4654 §4.5: t = max(T·(1 + ln x / ln N), 0), x ~ U(0, 1] (unbiased).
    #[default]
    Exponential,
    /// t = x·T, x ~ U(0, 1]: the plain uniform timer the RFC's exponential one replaces (an
    /// option for comparison: it suppresses far less, about N·τ/T messages per round).
    Uniform,
}

/// TFMCC parameters. Raw numbers carry their unit.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct TfmccConfig {
    /// b, packets acknowledged per TCP ACK in the throughput equation (RFC 4654 §4.1, RFC 5348
    /// §3.1): 1. t_RTO is 4R.
    pub b: f64,
    /// Initial (and advertised, until a larger RTT is measured) maximum RTT R_max
    /// (RFC 4654 §3.1: "at least 500 ms"): 500 ms.
    pub initial_rtt_ns: u64,
    /// Feedback round length T in units of R_max (RFC 4654 §3.4): 6 (4 is allowed when
    /// receivers multicast their feedback to the group; vidcc's feedback is unicast).
    pub feedback_rounds_rtts: f64,
    /// N, the upper bound on the group size in the feedback timer (RFC 4654 §4.5): 10 000.
    pub max_receivers: u64,
    /// g, the suppression margin: X_supp = (1 − g)·X_r (RFC 4654 §3.4): 0.1.
    pub suppression_margin: f64,
    /// The feedback timer's distribution: `exponential` (the RFC) or `uniform`.
    pub feedback_timer: FeedbackTimer,
    /// Weight of the old RTT for the CLR: R = q·R + (1 − q)·sample (RFC 4654 §4.3.2): 0.9.
    pub q_clr: f64,
    /// Weight of the old RTT for other receivers (RFC 4654 §4.3.2): 0.5.
    pub q_non_clr: f64,
    /// RFC 4654 §4.3.3 one-way-delay adjustment of the RTT between echoes: on.
    pub one_way_delay_adjustment: bool,
    /// R_max decay per feedback round without a larger RTT (RFC 4654 §3.2): 0.9.
    pub rmax_decay: f64,
    /// Clock granularity added to R_max's floor 8s/X (RFC 4654 §3.2): 1 ms.
    pub clock_granularity_ns: u64,
    /// The sender halves its rate when the CLR has been silent this many of its RTTs
    /// (RFC 4654 §3.5): 4, unless the CLR was chosen less than `clr_timeout_rtts` ago.
    pub clr_silence_rtts: f64,
    /// The CLR is presumed gone after this many of its RTTs without a report (RFC 4654 §3.5):
    /// 10.
    pub clr_timeout_rtts: f64,
    /// Slow start (RFC 4654 §3.6): on.
    pub slowstart: bool,
    /// NDUPACK: a packet is lost once this many later packets arrived (RFC 5348 §5.1): 3.
    pub ndupack: u32,
    /// RFC 5348 §5.5 history discounting (RFC 4654 §4.2 allows it): off.
    pub history_discounting: bool,
    /// Lower bound of the discount factor: 0.5.
    pub discount_threshold: f64,
    /// t_mbi: the sender never goes below s/t_mbi (RFC 5348 §4.3, RFC 4654 keeps TFRC's floor):
    /// 64 s.
    pub t_mbi_ns: u64,
}

impl Default for TfmccConfig {
    fn default() -> Self {
        TfmccConfig {
            b: 1.0,
            initial_rtt_ns: 500_000_000,
            feedback_rounds_rtts: 6.0,
            max_receivers: 10_000,
            suppression_margin: 0.1,
            feedback_timer: FeedbackTimer::Exponential,
            q_clr: 0.9,
            q_non_clr: 0.5,
            one_way_delay_adjustment: true,
            rmax_decay: 0.9,
            clock_granularity_ns: 1_000_000,
            clr_silence_rtts: 4.0,
            clr_timeout_rtts: 10.0,
            slowstart: true,
            ndupack: 3,
            history_discounting: false,
            discount_threshold: 0.5,
            t_mbi_ns: 64_000_000_000,
        }
    }
}

impl TfmccConfig {
    pub fn validate(&self) -> Result<(), String> {
        let unit = |name: &str, v: f64| {
            if (0.0..1.0).contains(&v) {
                Ok(())
            } else {
                Err(format!("tfmcc: {name} must lie in [0, 1), got {v}"))
            }
        };
        unit("q_clr", self.q_clr)?;
        unit("q_non_clr", self.q_non_clr)?;
        unit("suppression_margin", self.suppression_margin)?;
        if !(self.rmax_decay > 0.0 && self.rmax_decay <= 1.0) {
            return Err(format!("tfmcc: rmax_decay must lie in (0, 1], got {}", self.rmax_decay));
        }
        if !(self.b.is_finite() && self.b >= 1.0) {
            return Err(format!("tfmcc: b must be at least 1, got {}", self.b));
        }
        if self.initial_rtt_ns == 0 || self.t_mbi_ns == 0 {
            return Err("tfmcc: initial_rtt_ns and t_mbi_ns must be positive".into());
        }
        if !(self.feedback_rounds_rtts.is_finite() && self.feedback_rounds_rtts >= 1.0) {
            return Err(format!("tfmcc: feedback_rounds_rtts must be at least 1, got {}", self.feedback_rounds_rtts));
        }
        if self.max_receivers < 2 {
            return Err(format!("tfmcc: max_receivers must be at least 2, got {}", self.max_receivers));
        }
        if !(self.clr_silence_rtts.is_finite() && self.clr_silence_rtts >= 1.0) {
            return Err(format!("tfmcc: clr_silence_rtts must be at least 1, got {}", self.clr_silence_rtts));
        }
        if !(self.clr_timeout_rtts.is_finite() && self.clr_timeout_rtts >= self.clr_silence_rtts) {
            return Err(format!(
                "tfmcc: clr_timeout_rtts must be at least clr_silence_rtts ({}), got {}",
                self.clr_silence_rtts, self.clr_timeout_rtts
            ));
        }
        if self.ndupack == 0 {
            return Err("tfmcc: ndupack must be at least 1".into());
        }
        if !(self.discount_threshold > 0.0 && self.discount_threshold <= 1.0) {
            return Err(format!("tfmcc: discount_threshold must lie in (0, 1], got {}", self.discount_threshold));
        }
        Ok(())
    }
}
