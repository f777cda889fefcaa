//! DSG's rules (docs/papers/sramt.md §2.4 \[X\]; parameters \[R\] in [`DsgConfig`]):
//!
//! - receiver state by the round's loss l: UNLOADED if l < `unloaded_below`, CONGESTED if
//!   l > `congested_above`, LOADED otherwise;
//! - intra-stream control at the sender, per stream and round, from the sampled reports:
//!   share congested > `congested_share` → r ← max(min, `decrease_factor`·r); else share
//!   unloaded ≥ `unloaded_share` → r ← min(max, r + `increase_share`·max); else r stays;
//!   no report → r stays;
//! - inter-stream control at the receiver: CONGESTED for `persist_rounds` consecutive rounds
//!   while its stream is at the band minimum → move down; UNLOADED for `persist_rounds` rounds
//!   at the band maximum → move up; a move undone within `persist_rounds + 3` rounds (+ half a
//!   round) blocks it for 2^k such spans (`backoff`, SRAMT's §1.7 rule with T_change = that span).

use super::config::DsgConfig;
use crate::proto::simulcast::{ReceiverRules, RoundMeasure, RoundOutcome, RoundReport, StreamRules};
use crate::proto::sramt::rules::Backoff;
use crate::time::{Duration, Instant};

/// A receiver's state over one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum State {
    Unloaded = 0,
    Loaded = 1,
    Congested = 2,
}

impl State {
    pub fn code(self) -> u32 {
        self as u32
    }
    pub fn from_code(v: u32) -> Option<State> {
        match v {
            0 => Some(State::Unloaded),
            1 => Some(State::Loaded),
            2 => Some(State::Congested),
            _ => None,
        }
    }
}

/// The state of a round with loss rate `loss`.
pub fn classify(cfg: &DsgConfig, loss: f64) -> State {
    if loss < cfg.unloaded_below {
        State::Unloaded
    } else if loss > cfg.congested_above {
        State::Congested
    } else {
        State::Loaded
    }
}

/// Intra-stream control: the stream's next rate from its current `rate`, its `band` and the
/// states its receivers reported this round (unknown codes are left out).
pub fn adjust_rate(cfg: &DsgConfig, rate: f64, band: [f64; 2], states: &[State]) -> f64 {
    if states.is_empty() {
        return rate;
    }
    let n = states.len() as f64;
    let congested = states.iter().filter(|s| **s == State::Congested).count() as f64 / n;
    let unloaded = states.iter().filter(|s| **s == State::Unloaded).count() as f64 / n;
    let next = if congested > cfg.congested_share {
        rate * cfg.decrease_factor
    } else if unloaded >= cfg.unloaded_share {
        rate + cfg.increase_share * band[1]
    } else {
        rate
    };
    next.clamp(band[0], band[1])
}

/// The sender's side.
#[derive(Clone, Debug)]
pub struct DsgStreams {
    cfg: DsgConfig,
}

impl DsgStreams {
    pub fn new(cfg: &DsgConfig) -> Self {
        DsgStreams { cfg: cfg.clone() }
    }
}

impl StreamRules for DsgStreams {
    fn end_round(&mut self, reports: &[Vec<RoundReport>], rates: &mut [f64]) {
        for (j, (rate, reps)) in rates.iter_mut().zip(reports).enumerate() {
            let states: Vec<State> = reps.iter().filter_map(|r| State::from_code(r.value)).collect();
            *rate = adjust_rate(&self.cfg, *rate, self.cfg.band(j), &states);
        }
    }
}

/// Inter-stream control: counts consecutive CONGESTED-at-the-bottom and UNLOADED-at-the-top
/// rounds and says when to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mover {
    pub congested_at_bottom: u32,
    pub unloaded_at_top: u32,
}

impl Mover {
    /// One round in `state` on stream `position` of `n`, whose announced rate is `rate` in
    /// `band`: the stream wanted, if a move.
    pub fn decide(
        &mut self,
        state: State,
        rate: f64,
        band: [f64; 2],
        position: usize,
        n: usize,
        persist: u32,
    ) -> Option<usize> {
        // The announced rate is a whole bit/s: "at" a band edge within 1 bit/s.
        let at_bottom = rate <= band[0] + 1.0;
        let at_top = rate >= band[1] - 1.0;
        self.congested_at_bottom =
            if state == State::Congested && at_bottom { self.congested_at_bottom + 1 } else { 0 };
        self.unloaded_at_top = if state == State::Unloaded && at_top { self.unloaded_at_top + 1 } else { 0 };
        if self.congested_at_bottom >= persist && position > 0 {
            Some(position - 1)
        } else if self.unloaded_at_top >= persist && position + 1 < n {
            Some(position + 1)
        } else {
            None
        }
    }

    pub fn reset(&mut self) {
        *self = Mover::default();
    }
}

/// Rounds beyond `persist_rounds` that a move up may take to be undone and still count as
/// failed \[R\]: the stream joined may sit near its top and needs a few halvings (each a round)
/// to reach the bottom where the persistence count starts (log2(3 Mbit/s / 1.2 Mbit/s) < 2, plus
/// the join's partial round).
pub const BACKOFF_EXTRA_ROUNDS: u32 = 3;

/// The receiver's side.
#[derive(Clone, Debug)]
pub struct DsgReceiverRules {
    cfg: DsgConfig,
    mover: Mover,
    backoff: Backoff,
    states: Vec<State>,
}

impl DsgReceiverRules {
    pub fn new(cfg: &DsgConfig) -> Self {
        let round = Duration::from_nanos(cfg.round_ns);
        let span = round * u64::from(cfg.persist_rounds + BACKOFF_EXTRA_ROUNDS);
        DsgReceiverRules {
            mover: Mover::default(),
            // A move counts as failed only if undone within the span plus half a round (the
            // window this stand-in has always used; SRAMT's own default has none).
            backoff: Backoff::new(
                span,
                Some(span + Duration::from_nanos(round.as_nanos() / 2)),
                cfg.max_backoff_exponent,
            ),
            states: Vec::new(),
            cfg: cfg.clone(),
        }
    }
    /// Every full round's state, in order (tests).
    pub fn states(&self) -> &[State] {
        &self.states
    }
}

impl ReceiverRules for DsgReceiverRules {
    fn end_round(&mut self, now: Instant, m: &RoundMeasure<'_>) -> RoundOutcome {
        let Some(loss) = m.loss.filter(|_| m.full_round) else {
            return RoundOutcome { value: State::Loaded.code(), loss: 0.0, move_to: None };
        };
        let state = classify(&self.cfg, loss);
        self.states.push(state);
        let n = m.rates.len();
        let wanted = self.mover.decide(
            state,
            m.rates[m.position],
            self.cfg.band(m.position),
            m.position,
            n,
            self.cfg.persist_rounds,
        );
        let move_to = wanted.filter(|&to| !self.cfg.backoff || self.backoff.allowed(now, (m.position, to)));
        if let Some(to) = move_to {
            self.backoff.record(now, (m.position, to));
            self.mover.reset();
        }
        RoundOutcome { value: state.code(), loss, move_to }
    }
}
