//! Metrics: columnar tables and the summary statistics of the papers (docs/papers/dvrc.md §4).
//!
//! - throughput: data bytes (on the wire) delivered to the receiver per interval;
//! - goodput: application bytes the receiving endpoint handed up (no duplicates, no headers);
//! - CoV: standard deviation over mean of a flow's throughput samples (150 ms by default);
//! - Jain's index (Σx)²/(n·Σx²); worst-case fairness min/max;
//! - normalized throughput: throughput / fair share, where a flow's fair share is the least,
//!   over the links of its data path, of capacity / number of flows whose data crosses the link
//!   (for a dumbbell: B/n). Not clipped to 1 (docs/papers/dvrc.md A13).

/// Result tables live in vidcc-core (the real-network receiver writes the same tables).
pub use vidcc_core::table::{Column, Table};

/// Jain's fairness index; 1 for an empty or all-zero set (nobody is treated unfairly).
pub fn jain(x: &[f64]) -> f64 {
    let s: f64 = x.iter().sum();
    let s2: f64 = x.iter().map(|v| v * v).sum();
    if x.is_empty() || s2 == 0.0 {
        1.0
    } else {
        s * s / (x.len() as f64 * s2)
    }
}

/// min/max; 1 for an empty or all-zero set.
pub fn worst_case_fairness(x: &[f64]) -> f64 {
    let max = x.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let min = x.iter().cloned().fold(f64::INFINITY, f64::min);
    if x.is_empty() || max <= 0.0 {
        1.0
    } else {
        min / max
    }
}

/// Running sums for a coefficient of variation (population standard deviation / mean).
#[derive(Clone, Copy, Debug, Default)]
pub struct Moments {
    pub n: u64,
    pub sum: f64,
    pub sum_sq: f64,
}

impl Moments {
    pub fn push(&mut self, x: f64) {
        self.n += 1;
        self.sum += x;
        self.sum_sq += x * x;
    }
    pub fn mean(&self) -> f64 {
        if self.n == 0 {
            f64::NAN
        } else {
            self.sum / self.n as f64
        }
    }
    /// sqrt(E[x²] − E[x]²) / E[x] (docs/papers/dvrc.md §4); NaN without samples or with a zero mean.
    pub fn cov(&self) -> f64 {
        let m = self.mean();
        if self.n == 0 || m == 0.0 {
            return f64::NAN;
        }
        let var = (self.sum_sq / self.n as f64 - m * m).max(0.0);
        var.sqrt() / m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jain_and_worst_case_by_hand() {
        // (1+1+1+1)² / (4·4) = 1; (1+3)² / (2·(1+9)) = 16/20 = 0.8
        assert_eq!(jain(&[1.0, 1.0, 1.0, 1.0]), 1.0);
        assert!((jain(&[1.0, 3.0]) - 0.8).abs() < 1e-12);
        // One flow takes all: 1/n.
        assert!((jain(&[5.0, 0.0, 0.0, 0.0, 0.0]) - 0.2).abs() < 1e-12);
        assert!((worst_case_fairness(&[2.0, 8.0, 4.0]) - 0.25).abs() < 1e-12);
        assert_eq!(worst_case_fairness(&[]), 1.0);
    }

    #[test]
    fn cov_by_hand() {
        // samples 1, 3: mean 2, E[x²] = 5, var = 1, sd = 1, CoV = 0.5
        let mut m = Moments::default();
        m.push(1.0);
        m.push(3.0);
        assert!((m.cov() - 0.5).abs() < 1e-12);
        assert!(Moments::default().cov().is_nan());
    }
}
