//! The receiver's stream / layer decisions at epoch ends (docs/papers/sramt.md §1.6) and the
//! back-off after unsuccessful changes (§1.7).
//!
//! Groups are numbered from 0. For SRAMT-S a receiver's *position* is its stream j (0-based);
//! for SRAMT-LE its subscription level k (1-based: layers 0..k). Rates are bit/s.

use std::collections::BTreeMap;

use super::config::SramtConfig;
use crate::time::{Duration, Instant};

/// A receiver's decision machine at epoch ends (§1.6–1.7): the S rules or LE's Eq. 9, then the
/// back-off. Free of I/O, so that tests can drive it with explicit times.
#[derive(Clone, Debug)]
pub struct EpochRules {
    layered: bool,
    /// The streams' bands, bit/s (S).
    bands: Vec<[f64; 2]>,
    rule2_epochs: u32,
    rule: SimulcastRule,
    backoff: Backoff,
}

impl EpochRules {
    /// For a receiver of a session configured by `cfg` (`layered`: SRAMT-LE).
    pub fn new(cfg: &SramtConfig, layered: bool) -> Self {
        EpochRules {
            layered,
            bands: cfg.bands_bps.iter().map(|&[lo, hi]| [lo as f64, hi as f64]).collect(),
            rule2_epochs: cfg.rule2_epochs,
            rule: SimulcastRule::new(cfg.rule1_estimate_below_band),
            backoff: Backoff::new(
                Duration::from_nanos(cfg.change_ns),
                cfg.unsuccessful_window_ns.map(Duration::from_nanos),
                cfg.max_backoff_exponent,
            ),
        }
    }

    /// The epoch ending at `now` with estimate E = `estimate`, the announced group `rates` and
    /// the receiver's position `from` (stream j, or level k): the position it moves to, and
    /// whether rule 2 (mismatch) moved it, or None (no move wanted, or the move is blocked by
    /// the back-off). A move made is recorded in the back-off.
    pub fn at_epoch_end(&mut self, now: Instant, estimate: f64, rates: &[f64], from: usize) -> Option<(usize, bool)> {
        let wanted = if self.layered {
            Some((layered_level(estimate, rates), false))
        } else {
            let n = self.bands.len();
            self.rule
                .decide(estimate, rates[from], self.bands[from], from, n, self.rule2_epochs)
                .map(|(to, t)| (to, t == SimulcastTrigger::Mismatch))
        };
        let (to, mismatch) = wanted.filter(|&(to, _)| to != from)?;
        if !self.backoff.allowed(now, (from, to)) {
            return None;
        }
        self.backoff.record(now, (from, to));
        self.rule.reset();
        Some((to, mismatch))
    }

    pub fn backoff(&self) -> &Backoff {
        &self.backoff
    }
}

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

/// Unsuccessful-change tracking and back-off (docs/papers/sramt.md §1.7; the paper's §3.3):
/// "a receiver joins (or leaves) a stream/layer and after a short time period (T_change) drops
/// (or adds) again this stream/layer" — a change is **unsuccessful** when the receiver's next
/// change undoes it (goes back the way it came: drops the stream or a layer it joined, or
/// re-adds what it left), and **successful** when the next change does not. After an
/// unsuccessful change that same change (keyed by (from, to)) is forbidden for 2^k·T_change
/// from the change that undid it, where k counts the consecutive unsuccessful changes since the
/// last successful one (k = 1 at the first failure, A-17; capped at `max_exponent` \[R\]).
/// The undoing change returns the receiver to where it was before the failed one: it is
/// neither a success (which would reset k) nor a new trial to be judged (\[I\]: otherwise a
/// receiver that tried a move and fell back would be barred from falling back after its next
/// try, held on a stream that cannot carry it). So a receiver whose move keeps being undone
/// retries it after 10, 20, 40, … s: the growing "time space between stream/layer changes".
///
/// The paper gives the "short time period" no length but the name T_change. Changes come only
/// at epoch ends (T_epoch = T_change = 5 s), so a change always stands at least that long, and
/// the default reads no further bound into it. `window` = Some(w) is the alternative reading
/// (docs/papers/sramt.md's \[I\], w = T_change + T_epoch/2 = 7.5 s): an undo later than w makes the
/// change a success, so only an undo at the next epoch end counts — with SRAMT-S's rule 2
/// (4 epochs) and epoch-mean estimates most undos come later, k resets at almost every change
/// and never grows.
#[derive(Clone, Debug)]
pub struct Backoff {
    t_change: Duration,
    window: Option<Duration>,
    max_exponent: u32,
    /// The newest change, when it was made, and whether it is a trial (judged by the next
    /// change) rather than the undoing of a failed one.
    last: Option<(Change, Instant, bool)>,
    failures: u32,
    blocked_until: BTreeMap<Change, Instant>,
    /// (time of the failure, the change that failed, block length): for traces and tests.
    failures_log: Vec<(Instant, Change, Duration)>,
}

/// Whether `next` goes back the way `prev` came: up then down, or down then up (SRAMT-S moves
/// one stream at a time, so this is a return to the stream it left; SRAMT-LE levels may jump,
/// and any move down after a move up drops a layer that move added).
fn undoes(prev: Change, next: Change) -> bool {
    (prev.1 > prev.0) != (next.1 > next.0)
}

impl Backoff {
    /// `window`: None (the default reading: any undo by the next change) or the longest time a
    /// change may stand and still fail (docs/papers/sramt.md's reading).
    pub fn new(t_change: Duration, window: Option<Duration>, max_exponent: u32) -> Self {
        Backoff {
            t_change,
            window,
            max_exponent,
            last: None,
            failures: 0,
            blocked_until: BTreeMap::new(),
            failures_log: Vec::new(),
        }
    }

    /// Whether `change` is allowed at `now`.
    pub fn allowed(&self, now: Instant, change: Change) -> bool {
        self.blocked_until.get(&change).is_none_or(|&until| now >= until)
    }

    /// Records a change made at `now`, which judges the previous one if that was a trial: if it
    /// undoes it (within the window, if any), that one was unsuccessful, k grows and that change
    /// is blocked for 2^k·T_change from now; otherwise it was successful and k restarts at 0.
    pub fn record(&mut self, now: Instant, change: Change) {
        if let Some((prev, at, true)) = self.last {
            let in_time = self.window.is_none_or(|w| now.saturating_since(at) <= w);
            if undoes(prev, change) && in_time {
                self.failures = (self.failures + 1).min(self.max_exponent);
                let block = Duration::from_nanos(self.t_change.as_nanos().saturating_mul(1u64 << self.failures));
                self.blocked_until.insert(prev, now + block);
                self.failures_log.push((now, prev, block));
                self.last = Some((change, now, false));
                return;
            }
            self.failures = 0;
        }
        self.last = Some((change, now, true));
    }

    /// Consecutive unsuccessful changes k (as of the newest change, which is not judged yet).
    pub fn failures(&self) -> u32 {
        self.failures
    }

    pub fn failures_log(&self) -> &[(Instant, Change, Duration)] {
        &self.failures_log
    }
}
