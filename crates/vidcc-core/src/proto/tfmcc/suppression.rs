//! Feedback rounds and suppression at a non-CLR receiver (RFC 4654 §4.5), on its own so that
//! the mechanism can be measured alone (the tests run it for 10 … 10 000 receivers).
//!
//! At the start of every feedback round (a data packet with a new round number) a non-CLR
//! receiver arms a timer
//!
//! ```text
//! t = max(T·(1 + ln x / ln N), 0),   x ~ U(0, 1],   T = k·R_max (k = 6, §3.4)
//! ```
//!
//! (the exponentially weighted timer; N = 10 000 is the upper bound on the group size) and
//! remembers X_fbr, its calculated rate at the round's start. When the timer fires it sends its
//! report, unless a data packet has in the meantime carried a suppression rate X_supp (the
//! sender's (1 − g)·lowest non-CLR rate of the round) with
//!
//! ```text
//! (X_supp < X_calc  or  X_supp < X_fbr)   and   R_max ≥ own RTT
//! ```
//!
//! which cancels it: someone already reported a rate at most 1/(1 − g) of ours, so ours would not
//! lower the sending rate (a receiver whose RTT exceeds the advertised R_max always reports, so
//! that the sender learns the larger RTT). A packet of a newer round cancels a pending report of
//! the older round and arms a new timer.
//!
//! Expected feedback per round (the analysis behind the timer, RFC 4654 §4.5 and Widmer &
//! Handley, SIGCOMM 2001 §2.5): the CDF of t is F(s) = N^(s/T − 1) on [0, T] (mass 1/N at 0), so
//! shifting a time by the suppression delay τ (one RTT: report to sender, echo back) multiplies
//! F by N^(τ/T). Everyone whose timer falls within τ of the first one reports: about N^(τ/T)
//! messages (4.6 for N = 10 000, τ/T = 1/6) when all rates are equal, independent of the group
//! size n ≤ N. With distinct rates a later timer still reports when its rate is below every
//! rate already echoed (a new minimum of the order in which timers fire), which adds the
//! record count of a random sequence, H_n ≈ ln n + 0.58: E[M] ≲ N^(τ/T)·(1 + H_n), logarithmic
//! in n (`tests` measure it).

use rand::Rng;

use super::config::FeedbackTimer;
use crate::rng::SimRng;
use crate::time::{Duration, Instant};

/// The timer of one round: `max(T·(1 + ln x / ln N), 0)` for `x` in (0, 1] (exponential), or
/// `x·T` (uniform).
pub fn timer_delay(kind: FeedbackTimer, t: Duration, n: u64, x: f64) -> Duration {
    let x = if x > 0.0 { x.min(1.0) } else { f64::MIN_POSITIVE };
    match kind {
        FeedbackTimer::Exponential => {
            let frac = 1.0 + x.ln() / (n.max(2) as f64).ln();
            t.mul_f64(frac.max(0.0))
        }
        FeedbackTimer::Uniform => t.mul_f64(x),
    }
}

/// x ~ U(0, 1] from `rng`.
pub fn draw_unit(rng: &mut SimRng) -> f64 {
    1.0 - rng.gen::<f64>()
}

/// One receiver's feedback-round state.
#[derive(Clone, Debug)]
pub struct Suppression {
    kind: FeedbackTimer,
    n: u64,
    round: Option<u32>,
    /// When the pending report is due (`None`: none pending this round).
    deadline: Option<Instant>,
    /// X_fbr: the calculated rate when the round started, bytes/s.
    x_fbr: f64,
    cancelled: u64,
}

impl Suppression {
    pub fn new(kind: FeedbackTimer, max_receivers: u64) -> Self {
        Suppression { kind, n: max_receivers, round: None, deadline: None, x_fbr: f64::INFINITY, cancelled: 0 }
    }

    /// The round number of a data packet: a new round arms a timer of `t` (= k·R_max) drawn with
    /// `x`, replacing any report still pending from the older round. Returns whether the round
    /// is new.
    pub fn on_round(&mut self, now: Instant, round: u32, t: Duration, x_calc: f64, x: f64) -> bool {
        if self.round == Some(round) {
            return false;
        }
        self.round = Some(round);
        self.x_fbr = x_calc;
        self.deadline = Some(now + timer_delay(self.kind, t, self.n, x));
        true
    }

    /// The suppression rate of a data packet (bytes/s; ∞ = none): cancels the pending report
    /// when someone reported low enough and R_max covers our RTT.
    pub fn on_suppression_rate(&mut self, x_supp: f64, x_calc: f64, r_max: Duration, own_rtt: Duration) {
        if self.deadline.is_some() && (x_supp < x_calc || x_supp < self.x_fbr) && r_max >= own_rtt {
            self.deadline = None;
            self.cancelled += 1;
        }
    }

    /// When the pending report is due.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The pending report is due at `now`: take it (one report per round).
    pub fn take_due(&mut self, now: Instant) -> bool {
        if self.deadline.is_some_and(|d| d <= now) {
            self.deadline = None;
            return true;
        }
        false
    }

    /// Forget any pending report (the receiver became the CLR, or left).
    pub fn clear(&mut self) {
        self.deadline = None;
    }

    pub fn round(&self) -> Option<u32> {
        self.round
    }

    /// Reports cancelled by suppression so far.
    pub fn cancelled(&self) -> u64 {
        self.cancelled
    }
}
