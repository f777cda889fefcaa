//! The receiver's stream / layer decisions at epoch ends (specs/004-sramt.md §1.6) and the
//! back-off after unsuccessful changes (§1.7).
//!
//! Groups are numbered from 0. For SRAMT-S a receiver's *position* is its stream j (0-based);
//! for SRAMT-LE its subscription level k (1-based: layers 0..k). Rates are bit/s.

use std::collections::BTreeMap;

use crate::time::{Duration, Instant};

/// SRAMT-S (§1.6): rule 1 (band exhausted) and rule 2 (`limit` consecutive epochs above or
/// below the stream's rate, A-16: count ≥ limit). Returns the stream wanted after this epoch.
#[derive(Clone, Debug, Default)]
pub struct SimulcastRule {
    above: u32,
    below: u32,
    /// Rule 1 downwards also when the estimate is below the band (see [`SimulcastRule::decide`]).
    estimate_below_band: bool,
}

/// Why a simulcast move was wanted (rule 1 or rule 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SimulcastTrigger {
    BandExhausted,
    Mismatch,
}

impl SimulcastRule {
    pub fn new(estimate_below_band: bool) -> Self {
        SimulcastRule { above: 0, below: 0, estimate_below_band }
    }

    /// One epoch end: `estimate` E_i, the stream's announced `rate` and `band`, `stream` j of
    /// `n`. Updates the rule-2 counters (they keep counting while a move is blocked, \[R\] §1.7)
    /// and returns the wanted stream with its trigger, if it differs from `stream`.
    pub fn decide(
        &mut self,
        estimate: f64,
        rate: f64,
        band: [f64; 2],
        stream: usize,
        n: usize,
        limit: u32,
    ) -> Option<(usize, SimulcastTrigger)> {
        // Rule-2 counters; a reversal of direction resets the other one [R].
        if estimate > rate {
            self.above += 1;
            self.below = 0;
        } else if estimate < rate {
            self.below += 1;
            self.above = 0;
        } else {
            self.above = 0;
            self.below = 0;
        }
        let down = stream > 0;
        let up = stream + 1 < n;
        // Rule 1: pinned at the band edge and the estimate beyond it. Downwards also when the
        // estimate is below the band's minimum while the announced rate is not yet pinned
        // (`estimate_below_band`): the sender pins it as soon as it hears this receiver, whose
        // reports lag a stream change by up to an RTCP interval.
        let pinned_low = rate <= band[0] || (self.estimate_below_band && estimate < band[0]);
        if down && pinned_low && estimate < rate {
            return Some((stream - 1, SimulcastTrigger::BandExhausted));
        }
        if up && rate >= band[1] && estimate > rate {
            return Some((stream + 1, SimulcastTrigger::BandExhausted));
        }
        if up && self.above >= limit {
            return Some((stream + 1, SimulcastTrigger::Mismatch));
        }
        if down && self.below >= limit {
            return Some((stream - 1, SimulcastTrigger::Mismatch));
        }
        None
    }

    /// After any change both counters restart \[R\].
    pub fn reset(&mut self) {
        self.above = 0;
        self.below = 0;
    }

    pub fn counters(&self) -> (u32, u32) {
        (self.above, self.below)
    }
}

/// SRAMT-LE, Eq. 9 as corrected: the largest level k with C_k ≤ E, and 1 if even C_1 > E.
/// `layer_rates` are r_layer-1..n.
pub fn layered_level(estimate: f64, layer_rates: &[f64]) -> usize {
    let mut cumulative = 0.0;
    let mut k = 1;
    for (j, r) in layer_rates.iter().enumerate() {
        cumulative += r;
        if cumulative <= estimate {
            k = j + 1;
        } else {
            break;
        }
    }
    k
}

/// A change of position (stream or level), from → to.
pub type Change = (usize, usize);

/// Unsuccessful-change tracking and back-off (§1.7, A-17): a change reversed within `window`
/// (= T_change + T_epoch/2 \[I\]) was unsuccessful; after the k-th consecutive unsuccessful
/// change, that same change is blocked for 2^k·T_change. A change not reversed within the window
/// is successful and resets k.
#[derive(Clone, Debug)]
pub struct Backoff {
    t_change: Duration,
    window: Duration,
    max_exponent: u32,
    /// The newest change and when it was made; `judged` once known successful or not.
    last: Option<(Change, Instant, bool)>,
    failures: u32,
    blocked_until: BTreeMap<Change, Instant>,
    /// (time of the failure, the change that failed, block length): for traces and tests.
    failures_log: Vec<(Instant, Change, Duration)>,
}

impl Backoff {
    pub fn new(t_change: Duration, t_epoch: Duration, max_exponent: u32) -> Self {
        Backoff {
            t_change,
            window: t_change + Duration::from_nanos(t_epoch.as_nanos() / 2),
            max_exponent,
            last: None,
            failures: 0,
            blocked_until: BTreeMap::new(),
            failures_log: Vec::new(),
        }
    }

    /// Judges the newest change as successful once its window has passed.
    fn settle(&mut self, now: Instant) {
        if let Some((_, at, judged)) = &mut self.last {
            if !*judged && now.saturating_since(*at) > self.window {
                *judged = true;
                self.failures = 0;
            }
        }
    }

    /// Whether `change` is allowed at `now`.
    pub fn allowed(&mut self, now: Instant, change: Change) -> bool {
        self.settle(now);
        self.blocked_until.get(&change).is_none_or(|&until| now >= until)
    }

    /// Records a change made at `now`: if it reverses the newest change within the window, that
    /// one was unsuccessful and is blocked for 2^k·T_change.
    pub fn record(&mut self, now: Instant, change: Change) {
        self.settle(now);
        if let Some((prev, at, judged)) = self.last {
            if !judged && prev == (change.1, change.0) && now.saturating_since(at) <= self.window {
                self.failures = (self.failures + 1).min(self.max_exponent);
                let block = Duration::from_nanos(self.t_change.as_nanos().saturating_mul(1u64 << self.failures));
                self.blocked_until.insert(prev, now + block);
                self.failures_log.push((now, prev, block));
                // The reversal returns to the state that held before: it is neither a success
                // (which would reset k and stop the back-off from growing, C09) nor a new trial.
                self.last = Some((change, now, true));
                return;
            }
        }
        self.last = Some((change, now, false));
    }

    /// Consecutive unsuccessful changes k.
    pub fn failures(&self) -> u32 {
        self.failures
    }

    pub fn failures_log(&self) -> &[(Instant, Change, Duration)] {
        &self.failures_log
    }
}
