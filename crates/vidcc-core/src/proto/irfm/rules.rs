//! IRFM's rules (docs/papers/sramt.md §2.5 \[X\]):
//!
//! - inter-receiver fairness of a receiving rate r for a receiver whose isolated rate is x:
//!   F(r, x) = min(r, x) / max(r, x);
//! - the receiver's isolated rate x: what a TCP-friendly unicast flow would get on its path, as
//!   TFRC computes it (RFC 5348 §4.3 \[R\]): the throughput equation (§3.1, b = 1, t_RTO = 4R) at
//!   its loss event rate (§5 loss history) and the RTT the sender echoes, at most twice the rate
//!   it received in the round; before any loss event, twice the received rate (slow start). The
//!   loss intervals are a property of the path: a change of stream starts a new sequence space
//!   (a new loss detection) but the intervals carry on, the open one growing on the new stream \[R\];
//! - the sender's two rates (a ≤ b, in the range) maximise the mean over the sampled receivers of
//!   max(F(a, x_i), F(b, x_i)) ([`best_rates`]);
//! - each receiver picks the stream with the larger F(r_j, x) (ties: the lower stream).

use std::collections::BTreeMap;

use super::config::IrfmConfig;
use crate::estimate::loss_events::LossEventHistory;
use crate::estimate::loss_intervals::{LossIntervals, LossIntervalsConfig};
use crate::estimate::tcp_model::{rfc5348_inverse_p, rfc5348_rate_default};
use crate::proto::simulcast::{ReceiverRules, RoundMeasure, RoundOutcome, RoundReport, StreamRules};
use crate::time::{Duration, Instant};

/// F(r, x) = min(r, x)/max(r, x); 0 unless both are positive.
pub fn fairness(r: f64, x: f64) -> f64 {
    if r > 0.0 && x > 0.0 && r.is_finite() && x.is_finite() {
        r.min(x) / r.max(x)
    } else {
        0.0
    }
}

/// The mean over `xs` of each receiver's best fairness among `rates`.
pub fn mean_fairness(rates: &[f64], xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    xs.iter().map(|&x| rates.iter().map(|&r| fairness(r, x)).fold(0.0, f64::max)).sum::<f64>() / xs.len() as f64
}

/// The two rates a ≤ b in `[lo, hi]` that maximise [`mean_fairness`] over `xs`. The optimum
/// lies on the isolated rates clamped to the range: for a fixed split of the receivers between
/// the streams, each stream's sum of F is Σ r/x_i + Σ x_k/r between neighbouring x, convex in r,
/// so its maximum is at a neighbour. All pairs of those candidates are tried (O(m³)); ties go to
/// the lowest a, then b. `None` without isolated rates.
pub fn best_rates(xs: &[f64], lo: f64, hi: f64) -> Option<[f64; 2]> {
    let mut c: Vec<f64> = xs.iter().filter(|x| x.is_finite() && **x > 0.0).map(|x| x.clamp(lo, hi)).collect();
    if c.is_empty() {
        return None;
    }
    c.sort_by(f64::total_cmp);
    c.dedup();
    let mut best = (f64::NEG_INFINITY, [c[0], c[0]]);
    for (i, &a) in c.iter().enumerate() {
        for &b in &c[i..] {
            let score: f64 = xs.iter().map(|&x| fairness(a, x).max(fairness(b, x))).sum();
            if score > best.0 {
                best = (score, [a, b]);
            }
        }
    }
    Some(best.1)
}

/// The stream (index into `rates`) with the largest F(r_j, x); ties to the lower.
pub fn own_choice(rates: &[f64], x: f64) -> usize {
    let mut best = (f64::NEG_INFINITY, 0);
    for (j, &r) in rates.iter().enumerate() {
        let f = fairness(r, x);
        if f > best.0 {
            best = (f, j);
        }
    }
    best.1
}

/// The sender's side: the newest isolated rate of each receiver heard within `memory_rounds`.
#[derive(Clone, Debug)]
pub struct IrfmStreams {
    cfg: IrfmConfig,
    round: u32,
    /// receiver id → (isolated rate bit/s, round heard).
    heard: BTreeMap<u32, (f64, u32)>,
}

impl IrfmStreams {
    pub fn new(cfg: &IrfmConfig) -> Self {
        IrfmStreams { cfg: cfg.clone(), round: 0, heard: BTreeMap::new() }
    }
    /// The isolated rates the last choice used.
    pub fn samples(&self) -> Vec<f64> {
        let mut v: Vec<(u32, u32, f64)> = self.heard.iter().map(|(&id, &(x, r))| (r, id, x)).collect();
        // Newest first, then by id, for a deterministic cut at max_samples.
        v.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        v.into_iter().take(self.cfg.max_samples as usize).map(|(_, _, x)| x).collect()
    }
}

impl StreamRules for IrfmStreams {
    fn end_round(&mut self, reports: &[Vec<RoundReport>], rates: &mut [f64]) {
        for r in reports.iter().flatten() {
            if r.value > 0 {
                self.heard.insert(r.id, (f64::from(r.value), self.round));
            }
        }
        let keep = self.cfg.memory_rounds;
        let now = self.round;
        self.heard.retain(|_, &mut (_, at)| now.wrapping_sub(at) < keep);
        self.round = self.round.wrapping_add(1);
        let [lo, hi] = self.cfg.range();
        if let Some([a, b]) = best_rates(&self.samples(), lo, hi) {
            rates[0] = a;
            rates[1] = b;
        }
    }
}

/// The receiver's side: its loss history on the current stream and its isolated rate.
#[derive(Clone, Debug)]
pub struct IrfmReceiverRules {
    cfg: IrfmConfig,
    packet_bytes: f64,
    history: LossEventHistory,
    isolated: Option<f64>,
    /// The path's loss intervals (RFC 5348 §5.4), across changes of stream.
    path: LossIntervals,
    /// The announced rate of its stream at the last round end (the first loss interval's rate).
    stream_bps: f64,
}

impl IrfmReceiverRules {
    pub fn new(cfg: &IrfmConfig, packet_bytes: f64) -> Self {
        IrfmReceiverRules {
            history: LossEventHistory::new(cfg.ndupack, LossIntervalsConfig::default()),
            cfg: cfg.clone(),
            packet_bytes,
            isolated: None,
            path: LossIntervals::new(),
            stream_bps: 0.0,
        }
    }
    /// The isolated rate, bit/s (after the first full round).
    pub fn isolated(&self) -> Option<f64> {
        self.isolated
    }

    /// The loss event rate in force: the current stream's, else the one left.
    pub fn loss_event_rate(&self) -> Option<f64> {
        self.path.average().map(|_| self.path.loss_event_rate())
    }

    /// The isolated rate after a round in which the receiver got `received_bps`: the TFRC
    /// equation at the loss event rate in force, at most twice the received rate.
    pub fn isolated_rate(&self, rtt: Duration, received_bps: f64) -> f64 {
        let cap = 2.0 * received_bps;
        match self.loss_event_rate() {
            Some(p) => (8.0 * rfc5348_rate_default(self.packet_bytes, rtt.as_secs_f64(), p)).min(cap),
            None => cap,
        }
    }
}

impl ReceiverRules for IrfmReceiverRules {
    fn on_packet(&mut self, now: Instant, ext_seq: u32, rtt: Duration) {
        let arrival = self.history.classify(ext_seq);
        if arrival == crate::estimate::loss_detect::Arrival::Duplicate {
            return;
        }
        // RFC 5348 §6.3.1: the first interval is the one whose rate is the receive rate. The
        // equation is inverted by bisection, so only when a loss event needs it, not per packet.
        let (r, x, s) = (rtt.as_secs_f64(), self.stream_bps / 8.0, self.packet_bytes);
        let first_interval = || {
            let p = rfc5348_inverse_p(s, r, 4.0 * r, 1.0, x);
            if x > 0.0 && p > 0.0 {
                Some((1.0 / p).round().clamp(1.0, f64::from(u32::MAX)) as u64)
            } else {
                None
            }
        };
        let rec = self
            .history
            .record(now, ext_seq, arrival, rtt, &mut |fallback| first_interval().unwrap_or(fallback.max(1)));
        let first = if rec.new_events > 0 && self.path.average().is_none() { first_interval() } else { None };
        for _ in 0..rec.new_events {
            if self.path.average().is_none() {
                self.path.push_interval(first.unwrap_or(self.path.open().max(1)));
            } else {
                self.path.on_loss_event();
            }
        }
        self.path.on_packet();
    }

    fn on_join(&mut self) {
        self.history = LossEventHistory::new(self.cfg.ndupack, LossIntervalsConfig::default());
    }

    fn end_round(&mut self, _now: Instant, m: &RoundMeasure<'_>) -> RoundOutcome {
        self.stream_bps = m.rates[m.position];
        if !m.full_round {
            return RoundOutcome { value: 0, loss: 0.0, move_to: None };
        }
        let x = self.isolated_rate(m.rtt, m.received_bps);
        self.isolated = Some(x);
        let value = x.round().clamp(1.0, f64::from(u32::MAX)) as u32;
        let loss = self.loss_event_rate().unwrap_or(0.0);
        RoundOutcome { value, loss, move_to: Some(own_choice(m.rates, x)) }
    }
}
