//! `Bernoulli`: independent (uniform) packet loss, as ns-2 `ErrorModel` with `unit_ pkt` and a
//! uniform random variable: each packet crossing the link is lost with probability `p`,
//! whatever happened to the packets before it.
//!
//! Used by DVRC's Fig. 3 ("random loss with 3 % packet error rate", docs/papers/dvrc.md §2.3).
//!
//! Parameters: `p` in [0, 1] (no default; `LossConfig::Bernoulli`). Out-of-range values (and
//! NaN) are rejected by the constructor with a [`ProbabilityError`] naming the parameter.
//!
//! Deviations: none. One uniform number is drawn per packet, except when `p` is exactly 0 or 1,
//! where the outcome is certain and no number is drawn.
//!
//! This file also holds what the loss models share: [`ProbabilityError`] and the single
//! Bernoulli trial [`trial`].

use rand::Rng;

use super::LossModel;
use crate::rng::SimRng;

/// A loss-model parameter that is not a probability.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("loss model parameter `{name}` = {value} is not a probability in [0, 1]")]
pub struct ProbabilityError {
    pub name: &'static str,
    pub value: f64,
}

/// Checks that `value` (called `name` in the configuration) is a probability.
pub fn check_probability(name: &'static str, value: f64) -> Result<f64, ProbabilityError> {
    if (0.0..=1.0).contains(&value) {
        Ok(value)
    } else {
        Err(ProbabilityError { name, value })
    }
}

/// True with probability `p` (already validated). Certain outcomes draw nothing, so a
/// loss-free link costs no random numbers.
#[inline]
pub(crate) fn trial(rng: &mut SimRng, p: f64) -> bool {
    if p <= 0.0 {
        false
    } else if p >= 1.0 {
        true
    } else {
        // gen::<f64>() is uniform on [0, 1): P(u < p) = p exactly (to 2^-53).
        rng.gen::<f64>() < p
    }
}

pub struct Bernoulli {
    p: f64,
    rng: SimRng,
}

impl Bernoulli {
    pub fn new(p: f64, rng: SimRng) -> Result<Self, ProbabilityError> {
        Ok(Bernoulli { p: check_probability("p", p)?, rng })
    }

    pub fn p(&self) -> f64 {
        self.p
    }
}

impl LossModel for Bernoulli {
    #[inline]
    fn should_drop(&mut self) -> bool {
        trial(&mut self.rng, self.p)
    }

    fn stationary_success(&self) -> f64 {
        1.0 - self.p
    }

    /// Memoryless: a failure says nothing about the next attempt.
    fn success_after_failure(&self, _idle_slots: u32) -> f64 {
        1.0 - self.p
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::rng::RngStreams;

    /// Feeds `n` packets; returns (loss rate, mean burst length), a burst being a maximal run
    /// of consecutive losses.
    pub(crate) fn measure(model: &mut dyn LossModel, n: u64) -> (f64, f64) {
        let (mut lost, mut bursts, mut prev) = (0u64, 0u64, false);
        for _ in 0..n {
            let l = model.should_drop();
            lost += l as u64;
            bursts += (l && !prev) as u64;
            prev = l;
        }
        (lost as f64 / n as f64, lost as f64 / bursts as f64)
    }

    pub(crate) fn assert_close(what: &str, got: f64, expected: f64, rel: f64) {
        assert!((got / expected - 1.0).abs() <= rel, "{what}: measured {got:.5}, closed form {expected:.5}");
    }

    #[test]
    fn rejects_probabilities_outside_unit_interval() {
        let rng = || RngStreams::new(1).stream("loss/test");
        for bad in [-0.01, 1.01, f64::NAN, f64::INFINITY] {
            let e = Bernoulli::new(bad, rng()).err().unwrap();
            assert_eq!(e.name, "p");
            assert!(e.to_string().contains("`p`"), "{e}");
        }
        assert!(Bernoulli::new(0.0, rng()).is_ok());
        assert!(Bernoulli::new(1.0, rng()).is_ok());
    }

    #[test]
    fn certain_outcomes() {
        let mut never = Bernoulli::new(0.0, RngStreams::new(1).stream("a")).unwrap();
        let mut always = Bernoulli::new(1.0, RngStreams::new(1).stream("b")).unwrap();
        assert!((0..10_000).all(|_| !never.should_drop() && always.should_drop()));
    }

    #[test]
    fn loss_rate_and_bursts_match_independent_trials() {
        // Independent losses: rate p, runs geometric with mean 1/(1 − p).
        for (p, name) in [(0.03, "loss/bernoulli/a"), (0.2, "loss/bernoulli/b")] {
            let mut m = Bernoulli::new(p, RngStreams::new(2024).stream(name)).unwrap();
            let (rate, burst) = measure(&mut m, 1_000_000);
            assert_close("loss rate", rate, p, 0.03);
            assert_close("mean burst", burst, 1.0 / (1.0 - p), 0.03);
        }
    }
}
