//! `GilbertElliott`: bursty loss from a two-state Markov chain (E. N. Gilbert, "Capacity of a
//! burst-noise channel", BSTJ 1960; E. O. Elliott, "Estimates of error rates for codes on
//! burst-noise channels", BSTJ 1963), and `CorrelatedBernoulli`, the DVRC paper page's reading of
//! the paper's "correlated Bernoulli" error model (docs/papers/dvrc.md §2.3, ambiguity A11).
//!
//! ## Gilbert–Elliott
//! States Good and Bad; the chain advances once per packet crossing the link. Order, per
//! packet: **first** the packet is lost with `loss_good` or `loss_bad` according to the state it
//! finds, **then** the chain moves Good→Bad with probability `p`, Bad→Good with `r`. The chain
//! starts in Good. Closed forms (stationary, for the state a packet finds):
//! - P(Bad) = π_B = p/(p+r), π_G = r/(p+r);
//! - loss rate P(L) = loss_good·r/(p+r) + loss_bad·p/(p+r);
//! - P(two consecutive losses) P(LL) = π_G·ℓ_G·((1−p)·ℓ_G + p·ℓ_B) + π_B·ℓ_B·(r·ℓ_G + (1−r)·ℓ_B)
//!   (lose in the state found, move, lose again in the new state);
//! - mean burst (run of consecutive losses) = P(L)/(P(L) − P(LL)): losses per run start. For
//!   the Gilbert case loss_good = 0, loss_bad = 1 this is 1/r.
//!
//! Parameters (`LossConfig::GilbertElliott`, no defaults): `p`, `r`, `loss_good`, `loss_bad`,
//! all probabilities in [0, 1], validated by the constructor.
//!
//! ## Correlated Bernoulli (DVRC, A11)
//! The fate of a packet depends on the previous packet's: P(loss | previous delivered) = `p`,
//! P(loss | previous lost) = `q`; the packet before the first counts as delivered. Stationary
//! loss rate p/(1−q+p), mean burst 1/(1−q); the paper's p = 0.01, q = 0.15 give 1.163 % and
//! 1.176 packets. In law this is Gilbert–Elliott with r = 1−q, loss_good = 0, loss_bad = 1 (the
//! state *is* the previous packet's fate), except that Gilbert–Elliott never loses the first
//! packet; it is a struct of its own so that it draws one number per packet, not two.
//!
//! Deviations: none from the sources (neither fixes the order within a step nor the initial
//! state; both choices are documented above). Certain outcomes (probability 0 or 1) draw no
//! random number.

use super::bernoulli::{check_probability, trial, ProbabilityError};
use super::LossModel;
use crate::rng::SimRng;

pub struct GilbertElliott {
    p: f64,
    r: f64,
    loss_good: f64,
    loss_bad: f64,
    bad: bool,
    rng: SimRng,
}

impl GilbertElliott {
    pub fn new(p: f64, r: f64, loss_good: f64, loss_bad: f64, rng: SimRng) -> Result<Self, ProbabilityError> {
        Ok(GilbertElliott {
            p: check_probability("p", p)?,
            r: check_probability("r", r)?,
            loss_good: check_probability("loss_good", loss_good)?,
            loss_bad: check_probability("loss_bad", loss_bad)?,
            bad: false,
            rng,
        })
    }

    /// docs/papers/dvrc.md's correlated Bernoulli model (see the module docs).
    pub fn correlated_bernoulli(p: f64, q: f64, rng: SimRng) -> Result<CorrelatedBernoulli, ProbabilityError> {
        CorrelatedBernoulli::new(p, q, rng)
    }

    /// The state the next packet will find.
    pub fn is_bad(&self) -> bool {
        self.bad
    }

    /// π_B = p/(p+r). A chain that never moves (p = r = 0) stays in Good, where it starts.
    pub fn stationary_bad_probability(&self) -> f64 {
        if self.p + self.r == 0.0 {
            0.0
        } else {
            self.p / (self.p + self.r)
        }
    }

    /// P(L) = loss_good·π_G + loss_bad·π_B.
    pub fn stationary_loss_rate(&self) -> f64 {
        let pi_b = self.stationary_bad_probability();
        self.loss_good * (1.0 - pi_b) + self.loss_bad * pi_b
    }

    /// P(L)/(P(L) − P(LL)); infinite if every packet is lost, NaN if none ever is.
    pub fn mean_burst_length(&self) -> f64 {
        let pi_b = self.stationary_bad_probability();
        let (lg, lb) = (self.loss_good, self.loss_bad);
        let p_ll =
            (1.0 - pi_b) * lg * ((1.0 - self.p) * lg + self.p * lb) + pi_b * lb * (self.r * lg + (1.0 - self.r) * lb);
        let p_l = self.stationary_loss_rate();
        p_l / (p_l - p_ll)
    }
}

impl LossModel for GilbertElliott {
    #[inline]
    fn should_drop(&mut self) -> bool {
        let (loss, leave) = if self.bad { (self.loss_bad, self.r) } else { (self.loss_good, self.p) };
        let lost = trial(&mut self.rng, loss);
        if trial(&mut self.rng, leave) {
            self.bad = !self.bad;
        }
        lost
    }

    fn stationary_success(&self) -> f64 {
        1.0 - self.stationary_loss_rate()
    }

    /// P(Bad) after a failure: π_B·ℓ_B / P(L) (Bayes on the state the failed packet found),
    /// then `idle_slots + 1` moves of the chain: π_B + (b − π_B)·(1 − p − r)^(k+1).
    fn success_after_failure(&self, idle_slots: u32) -> f64 {
        let pi_b = self.stationary_bad_probability();
        let p_l = self.stationary_loss_rate();
        let b = if p_l > 0.0 { pi_b * self.loss_bad / p_l } else { pi_b };
        let bad = pi_b + (b - pi_b) * (1.0 - self.p - self.r).powi(idle_slots as i32 + 1);
        1.0 - (self.loss_good * (1.0 - bad) + self.loss_bad * bad)
    }
}

pub struct CorrelatedBernoulli {
    p: f64,
    q: f64,
    previous_lost: bool,
    rng: SimRng,
}

impl CorrelatedBernoulli {
    pub fn new(p: f64, q: f64, rng: SimRng) -> Result<Self, ProbabilityError> {
        Ok(CorrelatedBernoulli {
            p: check_probability("p", p)?,
            q: check_probability("q", q)?,
            previous_lost: false,
            rng,
        })
    }

    /// p/(1 − q + p); NaN if p = 0 and q = 1 (the model then never leaves its initial state).
    pub fn stationary_loss_rate(&self) -> f64 {
        self.p / (1.0 - self.q + self.p)
    }

    /// 1/(1 − q): runs of losses are geometric.
    pub fn mean_burst_length(&self) -> f64 {
        1.0 / (1.0 - self.q)
    }
}

impl LossModel for CorrelatedBernoulli {
    #[inline]
    fn should_drop(&mut self) -> bool {
        let p = if self.previous_lost { self.q } else { self.p };
        self.previous_lost = trial(&mut self.rng, p);
        self.previous_lost
    }

    fn stationary_success(&self) -> f64 {
        1.0 - self.stationary_loss_rate()
    }

    /// The state is the last fate, a chain on {lost, delivered} moving once per slot:
    /// P(lost, k + 1 slots after a loss) = π_L + (1 − π_L)·(q − p)^(k+1).
    fn success_after_failure(&self, idle_slots: u32) -> f64 {
        let pi_l = self.stationary_loss_rate();
        if pi_l.is_nan() {
            return 0.0; // p = 0, q = 1: once lost, always lost
        }
        1.0 - (pi_l + (1.0 - pi_l) * (self.q - self.p).powi(idle_slots as i32 + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::super::bernoulli::tests::{assert_close, measure};
    use super::*;
    use crate::rng::RngStreams;

    const N: u64 = 1_000_000;

    fn rng(name: &str) -> SimRng {
        RngStreams::new(2024).stream(name)
    }

    #[test]
    fn rejects_parameters_outside_unit_interval_by_name() {
        let e = |p, r, g, b| GilbertElliott::new(p, r, g, b, rng("x")).err().map(|e| e.name);
        assert_eq!(e(1.2, 0.1, 0.0, 1.0), Some("p"));
        assert_eq!(e(0.1, -0.1, 0.0, 1.0), Some("r"));
        assert_eq!(e(0.1, 0.1, f64::NAN, 1.0), Some("loss_good"));
        assert_eq!(e(0.1, 0.1, 0.0, 2.0), Some("loss_bad"));
        assert_eq!(e(0.1, 0.1, 0.0, 1.0), None);
        assert_eq!(CorrelatedBernoulli::new(0.01, 1.5, rng("x")).err().unwrap().name, "q");
    }

    #[test]
    fn gilbert_closed_forms() {
        let ge = GilbertElliott::new(0.05, 0.5, 0.0, 1.0, rng("x")).unwrap();
        assert!((ge.stationary_bad_probability() - 1.0 / 11.0).abs() < 1e-15);
        assert!((ge.stationary_loss_rate() - 1.0 / 11.0).abs() < 1e-15);
        assert!((ge.mean_burst_length() - 2.0).abs() < 1e-12); // 1/r
    }

    #[test]
    fn gilbert_elliott_matches_closed_forms_over_a_million_packets() {
        // (p, r, loss_good, loss_bad): the pure Gilbert channel (π_B = 1/11, burst 1/r = 2) and
        // an Elliott channel with losses in both states (P(L) = 0.05545, burst 1.896).
        for (p, r, lg, lb, name) in [(0.05, 0.5, 0.0, 1.0, "loss/ge/a"), (0.02, 0.2, 0.001, 0.6, "loss/ge/b")] {
            let mut ge = GilbertElliott::new(p, r, lg, lb, rng(name)).unwrap();
            let (rate_cf, burst_cf, bad_cf) =
                (ge.stationary_loss_rate(), ge.mean_burst_length(), ge.stationary_bad_probability());
            // P(Bad) as seen by packets, on a twin model (same seed, same sequence of states)
            // so that `measure` sees an untouched one.
            let mut twin = GilbertElliott::new(p, r, lg, lb, rng(name)).unwrap();
            let mut bad = 0u64;
            for _ in 0..N {
                bad += twin.is_bad() as u64;
                twin.should_drop();
            }
            let (rate, burst) = measure(&mut ge, N);
            println!(
                "GE {name}: P(Bad) {:.5}/{bad_cf:.5}, loss {rate:.5}/{rate_cf:.5}, burst {burst:.4}/{burst_cf:.4}",
                bad as f64 / N as f64
            );
            assert_close("P(Bad)", bad as f64 / N as f64, bad_cf, 0.03);
            assert_close("loss rate", rate, rate_cf, 0.03);
            assert_close("mean burst", burst, burst_cf, 0.03);
        }
    }

    #[test]
    fn correlated_bernoulli_matches_closed_forms_over_a_million_packets() {
        // DVRC's p = 0.01, q = 0.15 (1.163 %, burst 1.176) and a burstier p = 0.05, q = 0.5.
        for (p, q, name) in [(0.01, 0.15, "loss/cb/dvrc"), (0.05, 0.5, "loss/cb/b")] {
            let mut cb = GilbertElliott::correlated_bernoulli(p, q, rng(name)).unwrap();
            let (rate_cf, burst_cf) = (p / (1.0 - q + p), 1.0 / (1.0 - q));
            assert_eq!((cb.stationary_loss_rate(), cb.mean_burst_length()), (rate_cf, burst_cf));
            let (rate, burst) = measure(&mut cb, N);
            println!("CB {name}: loss {rate:.5}/{rate_cf:.5}, burst {burst:.4}/{burst_cf:.4}");
            assert_close("loss rate", rate, rate_cf, 0.03);
            assert_close("mean burst", burst, burst_cf, 0.03);
        }
    }
}
