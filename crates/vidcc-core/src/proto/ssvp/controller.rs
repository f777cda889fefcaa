//! The SSVP rate controller on bare state ([`Controller`]): the rate rules of paper §3.2
//! (Alg. 2, Eqs. 8–10) and startup, and the RTT and STO estimation of §3.1 (Eqs. 2–5). No packets
//! and no clock: the sender endpoint ([`super::sender`]) feeds it RTT samples and control packets
//! and paces by its rate.
//!
//! **Rate state.** The paper controls the inter-packet gap; by Eq. (8) `R = S/IPG` (S the full
//! packet on the wire), so the controller keeps R in whole bit/s and paces each packet by its own
//! wire size: the gap after a packet of w bytes is `8w/R` (= IPG for a full packet). Keeping R
//! rather than an integer-nanosecond IPG keeps the additive step exact at any rate (an
//! integer IPG would round the step of Eq. 10 to zero above about 1 Gbit/s).
//! In IPG form the rules below are: decrease `IPG ← IPG/β` (Eq. 9); additive increase
//! `IPG ← IPG/(1 + α·IPG/RTT)`; literal Eq. (10) `IPG ← IPG/(1+α)`.
//!
//! **Alg. 2** (on every control packet, after the startup phase):
//! `acks += 1; if CIn { marks += 1 }`; once `now − adjustment_time ≥ current_rtt`: decrease if
//! `marks/acks > threshold`; increase if `marks == 0`; otherwise hold (a transient loss); then
//! reset the counters and `adjustment_time = now` (initially 0 \[P\]).
//!
//! **Startup** \[P\]: the increase is applied on every control packet until the first one with
//! CIn = 1; then \[U\] one decrease at once, counters reset, `adjustment_time = now`, and Alg. 2
//! from then on (startup control packets are not counted).
//!
//! **STO** \[P §3.1\] = EstimatedRTT + δ·Deviation ([`Controller::sto`]); the sender ships it.
//!
//! **Rate bounds** \[U A-RATE-5\]: `[min_rate_bps, max]`, the max resolved by the sender (see
//! [`super::sender`]).

use super::config::{AdjustPeriod, IncreaseLaw, SsvpConfig};
use crate::estimate::rtt::{PaperEwma, PaperEwmaConfig};
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};

/// What one control packet did to the rate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Inside the adjustment period: counted only.
    Wait,
    Increase,
    /// Marks seen but at most the threshold: a transient loss, rate unchanged.
    Hold,
    Decrease,
}

/// The SSVP rate controller on bare state (Alg. 2, startup, Eqs. 2–5 and 8–10).
#[derive(Clone, Debug)]
pub struct Controller {
    alpha: f64,
    beta: f64,
    threshold: f64,
    law: IncreaseLaw,
    period: AdjustPeriod,
    packet_bits: f64,
    min_rate: DataRate,
    max_rate: DataRate,
    rate: DataRate,
    rtt: PaperEwma,
    last_sample: Option<Duration>,
    in_startup: bool,
    acks: u64,
    congestion_acks: u64,
    adjustment_time: Instant,
}

impl Controller {
    /// `max_rate`: the resolved cap (see the module docs); raised to the floor if below it.
    pub fn new(cfg: &SsvpConfig, packet_size: DataSize, max_rate: DataRate) -> Self {
        let min_rate = DataRate::from_bps(cfg.min_rate_bps);
        let max_rate = max_rate.max(min_rate);
        let ewma = PaperEwmaConfig {
            gamma: cfg.gamma,
            delta: cfg.delta,
            epsilon: cfg.epsilon,
            mode: cfg.deviation.dto_mode(),
        };
        Controller {
            alpha: cfg.alpha,
            beta: cfg.beta,
            threshold: cfg.congestion_level_threshold,
            law: cfg.increase_law,
            period: cfg.adjust_period,
            packet_bits: packet_size.as_bits() as f64,
            min_rate,
            max_rate,
            rate: DataRate::from_bps(cfg.initial_rate_bps).clamp(min_rate, max_rate),
            rtt: PaperEwma::new(ewma),
            last_sample: None,
            in_startup: cfg.startup,
            acks: 0,
            congestion_acks: 0,
            adjustment_time: Instant::ZERO,
        }
    }

    pub fn rate(&self) -> DataRate {
        self.rate
    }
    pub fn bounds(&self) -> (DataRate, DataRate) {
        (self.min_rate, self.max_rate)
    }
    pub fn in_startup(&self) -> bool {
        self.in_startup
    }
    pub fn adjustment_time(&self) -> Instant {
        self.adjustment_time
    }
    /// (acks_within_rtt, congestion_acks_within_rtt).
    pub fn counters(&self) -> (u64, u64) {
        (self.acks, self.congestion_acks)
    }
    pub fn rtt_estimator(&self) -> &PaperEwma {
        &self.rtt
    }
    pub fn last_sample(&self) -> Option<Duration> {
        self.last_sample
    }

    /// Eq. (2): `SampleRTT = now − echoed timestamp`, folded into Eqs. (3) and (5).
    pub fn on_rtt_sample(&mut self, sample: Duration) {
        self.rtt.on_sample(sample);
        self.last_sample = Some(sample);
    }

    /// Eq. (4): `STO = EstimatedRTT + δ·Deviation` (1 s before any sample, A-RTT-2).
    pub fn sto(&self) -> Duration {
        self.rtt.dto()
    }

    /// The RTT of the rules: `current_rtt` (A-RATE-3); 1 s (the initial STO) before any sample.
    pub fn rule_rtt(&self) -> Duration {
        let rtt = match self.period {
            AdjustPeriod::LastSample => self.last_sample,
            AdjustPeriod::Estimated => self.rtt.estimated_rtt(),
        };
        rtt.unwrap_or(PaperEwma::INITIAL_DTO)
    }

    /// Alg. 2 (and startup) for one control packet with congestion indicator `congestion`.
    pub fn on_control(&mut self, now: Instant, congestion: bool) -> Decision {
        if self.in_startup {
            if congestion {
                self.in_startup = false;
                self.decrease();
                self.acks = 0;
                self.congestion_acks = 0;
                self.adjustment_time = now;
                return Decision::Decrease;
            }
            self.increase();
            return Decision::Increase;
        }
        self.acks += 1;
        if congestion {
            self.congestion_acks += 1;
        }
        if now.saturating_since(self.adjustment_time) < self.rule_rtt() {
            return Decision::Wait;
        }
        let ratio = self.congestion_acks as f64 / self.acks as f64;
        let decision = if ratio > self.threshold {
            self.decrease();
            Decision::Decrease
        } else if self.congestion_acks == 0 {
            self.increase();
            Decision::Increase
        } else {
            Decision::Hold
        };
        self.acks = 0;
        self.congestion_acks = 0;
        self.adjustment_time = now;
        decision
    }

    /// Eq. (9): `IPG ← IPG/β`, i.e. `R ← β·R`.
    pub fn decrease(&mut self) {
        self.set_rate(self.rate.as_bps_f64() * self.beta);
    }

    /// Eq. (10), in the configured form (A-RATE-1).
    pub fn increase(&mut self) {
        let r = self.rate.as_bps_f64();
        let next = match self.law {
            // [I] R ← R + α·S/RTT  ⇔  IPG ← IPG / (1 + α·IPG/RTT)
            IncreaseLaw::Additive => r + self.alpha * self.packet_bits / self.rule_rtt().as_secs_f64().max(1e-6),
            // [P] IPG ← IPG / (1 + α)  ⇔  R ← (1 + α)·R
            IncreaseLaw::LiteralMultiplicative => r * (1.0 + self.alpha),
        };
        self.set_rate(next);
    }

    fn set_rate(&mut self, bps: f64) {
        self.rate = DataRate::from_bps_f64(bps).clamp(self.min_rate, self.max_rate);
    }
}
