//! [`GaimdConfig`]: GAIMD's (α, β) and the TCP agent settings of the window machinery it runs on.

use crate::proto::tcp::TcpConfig;

/// ssthresh after a retransmission timeout (the paper pages (docs/papers/) say nothing: \[D\]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutSsthresh {
    /// \[D\] TCP's W/2 (W = cwnd without inflation, as ns-2): a timeout is heavy congestion,
    /// and ssthresh = β·W would send slow start back to the window that just failed.
    #[default]
    Half,
    /// β·W, the loss-event decrease applied to timeouts too.
    Beta,
}

/// GAIMD parameters. Defaults: β = 0.875 (docs/papers/ssvp.md §1.4 \[X\], the (0.31, 0.875) pair
/// Yang & Lam recommend), α = `None` = 4(1 − β²)/3 = 0.3125 for that β (Yang & Lam's
/// TCP-friendliness relation, docs/papers/ssvp.md Eq. 7 / docs/papers/dvrc.md §1.2); the TCP fields
/// default to [`TcpConfig::default`] (docs/papers/dvrc.md §1.3 ns-2 settings).
#[derive(Clone, Debug, PartialEq, serde::Deserialize, serde::Serialize)]
#[serde(deny_unknown_fields, default)]
pub struct GaimdConfig {
    /// Window kept after a loss event, in (0, 1).
    pub beta: f64,
    /// Segments added per RTT in congestion avoidance; `None`: 4(1 − β²)/3.
    pub alpha: Option<f64>,
    /// ssthresh after a timeout \[D\] `half` (alternative `beta`).
    pub timeout_ssthresh: TimeoutSsthresh,
    pub max_window_bytes: u64,
    pub initial_window: u32,
    pub min_rto_ns: u64,
    pub initial_rto_ns: u64,
    pub delayed_ack: bool,
    /// Limited transmit on the first two duplicate ACKs ([`TcpConfig::limited_transmit`]).
    pub limited_transmit: bool,
    /// Bytes of application data to send, then stop (`None`: always backlogged).
    pub transfer_bytes: Option<u64>,
}

impl Default for GaimdConfig {
    fn default() -> Self {
        let tcp = TcpConfig::default();
        GaimdConfig {
            beta: 0.875,
            alpha: None,
            timeout_ssthresh: TimeoutSsthresh::Half,
            max_window_bytes: tcp.max_window_bytes,
            initial_window: tcp.initial_window,
            min_rto_ns: tcp.min_rto_ns,
            initial_rto_ns: tcp.initial_rto_ns,
            delayed_ack: tcp.delayed_ack,
            limited_transmit: tcp.limited_transmit,
            transfer_bytes: tcp.transfer_bytes,
        }
    }
}

/// Yang & Lam's TCP-friendliness relation for GAIMD: α = 4(1 − β²)/3 (docs/papers/ssvp.md Eq. 7).
pub fn friendly_alpha(beta: f64) -> f64 {
    4.0 * (1.0 - beta * beta) / 3.0
}

impl GaimdConfig {
    /// α in force: the configured one, or 4(1 − β²)/3.
    pub fn alpha(&self) -> f64 {
        self.alpha.unwrap_or_else(|| friendly_alpha(self.beta))
    }

    /// The factor of W ssthresh gets on a timeout.
    pub fn timeout_beta(&self) -> f64 {
        match self.timeout_ssthresh {
            TimeoutSsthresh::Half => 0.5,
            TimeoutSsthresh::Beta => self.beta,
        }
    }

    /// The settings of the shared TCP window machinery.
    pub fn tcp(&self) -> TcpConfig {
        TcpConfig {
            max_window_bytes: self.max_window_bytes,
            initial_window: self.initial_window,
            min_rto_ns: self.min_rto_ns,
            initial_rto_ns: self.initial_rto_ns,
            delayed_ack: self.delayed_ack,
            limited_transmit: self.limited_transmit,
            transfer_bytes: self.transfer_bytes,
        }
    }

    pub fn validate(&self) -> Result<(), String> {
        if !(self.beta > 0.0 && self.beta < 1.0) {
            return Err(format!("gaimd: beta must lie in (0, 1), got {}", self.beta));
        }
        if let Some(a) = self.alpha {
            if !(a.is_finite() && a > 0.0) {
                return Err(format!("gaimd: alpha must be a positive number, got {a}"));
            }
        }
        if self.max_window_bytes == 0 {
            return Err("gaimd: max_window_bytes must be positive".into());
        }
        if self.initial_window == 0 {
            return Err("gaimd: initial_window must be at least 1".into());
        }
        if self.min_rto_ns == 0 || self.initial_rto_ns == 0 {
            return Err("gaimd: min_rto_ns and initial_rto_ns must be positive".into());
        }
        Ok(())
    }
}
