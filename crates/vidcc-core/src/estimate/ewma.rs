//! A plain exponentially weighted moving average over `f64`, for quantities where floating
//! point is appropriate (rates in formulas, averages of measured rates, weights). Clock values
//! must not go through this type: the RTT estimators in [`super::rtt`] keep integer
//! nanoseconds instead.
//!
//! Update rule (the usual low-pass filter, e.g. Jacobson 1988 / RFC 6298 §2 with a free gain):
//!
//! ```text
//! value ← (1 − weight_of_new)·value + weight_of_new·sample
//! ```
//!
//! Parameters: `weight_of_new` ∈ [0, 1] (no default: every user names its own gain, e.g. 0.125
//! for a Jacobson-style mean, 0.25 for a mean deviation).
//!
//! Initialisation: the first sample becomes the value (no bias towards zero). Deviation from a
//! textbook EWMA started at 0: none intended; this is what RFC 6298 and docs/papers/dvrc.md do.
//! Non-finite samples are ignored, so one bad input can never poison the average.

/// Exponentially weighted moving average; `None` until the first sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ewma {
    /// Gain applied to each new sample, in [0, 1].
    pub weight_of_new: f64,
    /// Current average; `None` before the first sample.
    pub value: Option<f64>,
}

impl Ewma {
    /// A filter with gain `weight_of_new`, clamped to [0, 1] (NaN becomes 0: the average then
    /// keeps its first sample forever, which is visible in tests rather than silently NaN).
    pub fn new(weight_of_new: f64) -> Self {
        let w = if weight_of_new.is_nan() { 0.0 } else { weight_of_new.clamp(0.0, 1.0) };
        Ewma { weight_of_new: w, value: None }
    }

    /// Folds `sample` in and returns the new average. Non-finite samples leave it unchanged.
    pub fn update(&mut self, sample: f64) -> Option<f64> {
        if !sample.is_finite() {
            return self.value;
        }
        self.value = Some(match self.value {
            None => sample,
            // value ← (1 − w)·value + w·sample
            Some(v) => (1.0 - self.weight_of_new) * v + self.weight_of_new * sample,
        });
        self.value
    }

    /// The current average, `None` before any sample.
    pub fn value(&self) -> Option<f64> {
        self.value
    }

    /// Forgets all history.
    pub fn reset(&mut self) {
        self.value = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_sample_initialises_then_filters() {
        let mut e = Ewma::new(0.25);
        assert_eq!(e.value(), None);
        assert_eq!(e.update(100.0), Some(100.0));
        // 0.75·100 + 0.25·200 = 75 + 50 = 125
        assert_eq!(e.update(200.0), Some(125.0));
        // 0.75·125 + 0.25·0 = 93.75
        assert_eq!(e.update(0.0), Some(93.75));
        e.reset();
        assert_eq!(e.value(), None);
    }

    #[test]
    fn non_finite_samples_are_ignored_and_gain_is_clamped() {
        let mut e = Ewma::new(2.0);
        assert_eq!(e.weight_of_new, 1.0);
        e.update(5.0);
        assert_eq!(e.update(f64::NAN), Some(5.0));
        assert_eq!(e.update(f64::INFINITY), Some(5.0));
        // Gain 1: the average is the last sample.
        assert_eq!(e.update(7.0), Some(7.0));
        assert_eq!(Ewma::new(f64::NAN).weight_of_new, 0.0);
    }
}
