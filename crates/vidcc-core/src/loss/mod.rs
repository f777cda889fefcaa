//! Link loss models, attachable to one direction of a link: `bernoulli.rs`,
//! `gilbert_elliott.rs` (which also provides docs/papers/dvrc.md's "correlated Bernoulli").
//!
//! A model is asked once per packet that finishes crossing the link, in order, and owns its own
//! random stream, so its decisions depend only on the seed and the packet sequence.

pub mod bernoulli;
pub mod gilbert_elliott;

pub trait LossModel: Send {
    /// Decides the fate of the next packet crossing the link.
    fn should_drop(&mut self) -> bool;
    /// Long-run probability that an attempt succeeds (1 − p_e).
    fn stationary_success(&self) -> f64;
    /// Probability that an attempt succeeds when the previous one failed and the channel then
    /// moved on `idle_slots` slots with nobody sending: the belief of a sender that sees only
    /// its own successes and failures (the model's parameters, a stationary channel before the
    /// failure; never the hidden state). What the "optimal" ARQ ([`optimal_pause`]) decides on.
    fn success_after_failure(&self, idle_slots: u32) -> f64;
}

/// Longest pause the "optimal" ARQ considers, in slots.
pub const MAX_PAUSE_SLOTS: u32 = 1000;

/// The "optimal" link transmission scheme of Zhang & Wasserman (INFOCOM 2002, QoS-AIMD paper
/// ref. [24], docs/papers/qos-aimd.md §3.7): after a failed attempt the sender stays silent until
/// the probability that the next attempt succeeds has recovered to `threshold`, i.e. for the fewest
/// slots k with `success_after_failure(k) ≥ min(threshold, 0.99 · stationary_success)` (the second
/// bound: a channel whose long-run success is below the threshold is waited out to within 1 % of
/// it, not forever). On a memoryless channel k = 0: the scheme is persistent transmission.
pub fn optimal_pause(model: &dyn LossModel, threshold: f64) -> u32 {
    let target = threshold.min(0.99 * model.stationary_success());
    (0..=MAX_PAUSE_SLOTS).find(|&k| model.success_after_failure(k) >= target).unwrap_or(MAX_PAUSE_SLOTS)
}

#[cfg(test)]
mod tests {
    use super::bernoulli::Bernoulli;
    use super::gilbert_elliott::{CorrelatedBernoulli, GilbertElliott};
    use super::*;
    use crate::rng::RngStreams;

    /// Success frequency of the attempt `idle` slots after a failure, on a live channel, the
    /// failure being whatever a slot looked at every 40 slots gives (so that its prior is the
    /// stationary one, as in the formula; the first failure after a run of successes would say
    /// more, being likelier a Good-state one).
    fn measured(m: &mut dyn LossModel, idle: u32) -> f64 {
        let (mut tries, mut ok) = (0u64, 0u64);
        for _ in 0..150_000 {
            for _ in 0..40 {
                m.should_drop();
            }
            if m.should_drop() {
                for _ in 0..idle {
                    m.should_drop();
                }
                tries += 1;
                ok += u64::from(!m.should_drop());
            }
        }
        ok as f64 / tries as f64
    }

    #[test]
    fn success_after_failure_matches_the_channel() {
        let rng = |n: &str| RngStreams::new(7).stream(n);
        for k in [0u32, 1, 2, 5] {
            let mut ge = GilbertElliott::new(0.05, 0.3, 0.02, 0.7, rng("ge")).unwrap();
            let want = ge.success_after_failure(k);
            let got = measured(&mut ge, k);
            assert!((got - want).abs() < 0.01, "Gilbert–Elliott k={k}: {got:.4} vs {want:.4}");
            let mut cb = CorrelatedBernoulli::new(0.05, 0.6, rng("cb")).unwrap();
            let want = cb.success_after_failure(k);
            let got = measured(&mut cb, k);
            assert!((got - want).abs() < 0.01, "correlated Bernoulli k={k}: {got:.4} vs {want:.4}");
        }
    }

    #[test]
    fn optimal_pause_waits_for_a_bursty_channel_only() {
        let rng = || RngStreams::new(1).stream("x");
        // The QoS-AIMD suite's channel at p_e = 0.1: after a failure the success probability
        // is 0.9·(1 − 0.444^(k+1)) = 0.5, 0.722, 0.821 for k = 0, 1, 2.
        let ge = GilbertElliott::new(0.1 * 0.5 / 0.9, 0.5, 0.0, 1.0, rng()).unwrap();
        assert!((ge.success_after_failure(0) - 0.5).abs() < 1e-9);
        assert_eq!(optimal_pause(&ge, 0.8), 2);
        assert_eq!(optimal_pause(&ge, 0.5), 0);
        assert_eq!(optimal_pause(&Bernoulli::new(0.1, rng()).unwrap(), 0.8), 0);
        // A channel whose long-run success is below the threshold is waited out to 99 % of it.
        let poor = GilbertElliott::new(0.5, 0.5, 0.0, 1.0, rng()).unwrap();
        let k = optimal_pause(&poor, 0.9);
        assert!(k < MAX_PAUSE_SLOTS && poor.success_after_failure(k) >= 0.99 * 0.5, "{k}");
    }
}
