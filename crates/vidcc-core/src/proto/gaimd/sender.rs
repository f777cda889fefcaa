//! [`Gaimd`]: the GAIMD(α, β) hooks of the shared TCP sender ([`crate::proto::tcp::TcpSender`]).

use crate::proto::tcp::{CongestionControl, PartialAck, Window};

/// GAIMD's window rules (Yang & Lam 2000; docs/papers/ssvp.md §1.4): +α segments per RTT in
/// congestion avoidance, ×β on a loss event.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gaimd {
    alpha: f64,
    beta: f64,
    timeout_beta: f64,
}

impl Gaimd {
    /// `alpha` > 0 segments per RTT, `beta` ∈ (0, 1) (checked by `GaimdConfig::validate`); a
    /// timeout sets ssthresh to TCP's W/2 (see [`Gaimd::with_timeout_beta`]).
    pub fn new(alpha: f64, beta: f64) -> Self {
        Gaimd { alpha, beta, timeout_beta: 0.5 }
    }

    /// The factor of W that ssthresh gets on a timeout (0.5: TCP's; β: GAIMD's own).
    pub fn with_timeout_beta(mut self, timeout_beta: f64) -> Self {
        self.timeout_beta = timeout_beta;
        self
    }

    pub fn alpha(&self) -> f64 {
        self.alpha
    }

    pub fn beta(&self) -> f64 {
        self.beta
    }

    /// Window after a loss event: W ← β·W with W the congestion window without fast-recovery
    /// inflation (what the TCP agents halve, as ns-2 does), at least 2 segments like TCP's
    /// ssthresh; not rounded, since ⌊0.875·W⌋ would cut small windows much deeper than β.
    pub fn window_after_loss(&self, window: f64) -> f64 {
        (self.beta * window).max(2.0)
    }
}

impl CongestionControl for Gaimd {
    /// Multiplicative decrease: ssthresh = cwnd = β·W, then fast recovery.
    fn on_fast_retransmit(&mut self, w: &mut Window) {
        w.ssthresh = self.window_after_loss(w.cwnd);
        w.cwnd = w.ssthresh;
    }

    /// Timeout: ssthresh = max(b_t·W, 2) with b_t = 1/2 (TCP's, \[D\]) or β, cwnd = 1.
    fn on_timeout(&mut self, w: &mut Window) {
        w.ssthresh = (self.timeout_beta * w.cwnd).max(2.0);
        w.cwnd = 1.0;
    }

    /// NewReno recovery (RFC 6582): one decrease per window of losses.
    fn partial_ack(&self) -> PartialAck {
        PartialAck::RetransmitAndStay
    }

    /// Additive increase: α/cwnd per new ACK, i.e. α segments per RTT with one ACK per segment.
    fn congestion_avoidance_increase(&self, cwnd: f64) -> f64 {
        self.alpha / cwnd
    }
}
