//! The ASMP receiver's rate rule (docs/papers/asmp-tfmcc.md §1.2–1.3), free of I/O so that it
//! can be tested on hand-made inputs: eq.(2), the loss-free increase, the bound of the sender's
//! advertised maximum, the congestion indicator from cumulative jitter, and the smoothing of
//! eq.(3).

use super::config::{AsmpConfig, Decrease, LossyIncrease};
use crate::estimate::tcp_model::padhye_approx;

/// Eq.(2), bytes/s: `P / (R·sqrt(2Dl/3) + t_out·min(1, 3·sqrt(3Dl/8))·l·(1 + 32l²))` with
/// D = 1 and t_out = 4R (Padhye et al.'s approximate model, `estimate::tcp_model`).
/// Infinite at l = 0.
pub fn eq2_bytes_per_s(packet_bytes: f64, rtt_s: f64, loss: f64) -> f64 {
    packet_bytes * padhye_approx(rtt_s, loss, 4.0 * rtt_s, 1.0)
}

/// One report interval as the rate rule sees it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// The loss ratio l of the interval (AMB-2's measure).
    pub loss: f64,
    /// Whether anything was lost in the interval ("no loss since the previous report").
    pub lossy: bool,
    /// CONGESTED (CJ_short > CJ_long) or UNLOADED.
    pub congested: bool,
}

/// The new smoothed rate r (bytes/s) from the previous `r` at one report:
/// r_inst = r + P/R without loss; with loss eq.(2) (\[P\], [`LossyIncrease::Equation`]), or
/// options: at most r + P/R ([`LossyIncrease::Step`]) or at most r ([`LossyIncrease::Never`]:
/// a lossy interval never raises r);
/// r ← γ·r_inst + (1 − γ)·r (eq.3), γ from the state (eq.5); with [`Decrease::Immediate`] a
/// lossy interval's lower r_inst is taken at once. The result is at most `ceiling`, the
/// highest rate the sender advertises (∞ if it has none): r is the receiver's estimate of the
/// rate the sender should send (§3.2, "the latest estimation of the transmission rate"), and a
/// rate the sender will never send is no estimate of it — left unbounded, r climbs without
/// limit through loss-free intervals while the sender sits at its maximum, and losses must then
/// work it down from there before the sender's rate moves at all.
pub fn update(cfg: &AsmpConfig, r: f64, packet_bytes: f64, rtt_s: f64, interval: Interval, ceiling: f64) -> f64 {
    let step = packet_bytes / rtt_s;
    let r_inst = if interval.lossy {
        let x = eq2_bytes_per_s(packet_bytes, rtt_s, interval.loss);
        match cfg.lossy_increase {
            LossyIncrease::Never => x.min(r),
            LossyIncrease::Step => x.min(r + step),
            LossyIncrease::Equation => x,
        }
    } else {
        r + step
    };
    let mut next = if interval.lossy && cfg.decrease == Decrease::Immediate && r_inst < r {
        r_inst
    } else {
        let gamma = cfg.gamma(interval.congested);
        gamma * r_inst + (1.0 - gamma) * r
    };
    if interval.lossy && cfg.lossy_increase == LossyIncrease::Never {
        // γ·r + (1 − γ)·r can round one ulp above r.
        next = next.min(r);
    }
    next.min(ceiling)
}

/// The congestion indicator (docs/papers/asmp-tfmcc.md §1.3, AMB-4 \[C\]): CJ_short is the mean of
/// the cumulative jitter samples of the current report interval, CJ_long an EWMA of past interval
/// means (weight `cj_long_weight`), updated *after* the comparison. CONGESTED ⇔ CJ_short > CJ_long
/// by more than the measurement's resolution (`resolution_ns`, one RTP clock tick by default):
/// the paper's G_i (§6.4, the frame's sending time) is exact in its ns-2 runs, ours is an RTP
/// timestamp truncated to the tick, so every sample carries an error in [0, 1) tick whose mean
/// depends on how the send instants fall on the tick grid (it shifts when the rate changes).
/// With a constant network delay both averages then lie within one tick of each other, and a
/// strict comparison reads a shift of the error's mean as rising delay — CONGESTED for as long
/// as the EWMA approaches the new mean from below (docs/protocols/asmp.md, "Congestion
/// indicator"). A difference within the resolution, a tie, an interval without samples, and
/// the first interval (no long average yet) are UNLOADED.
#[derive(Clone, Debug, PartialEq)]
pub struct CongestionIndicator {
    weight: f64,
    resolution_ns: f64,
    sum_ns: i128,
    count: u64,
    long_ns: Option<f64>,
}

impl CongestionIndicator {
    /// `weight`: of a new interval mean in the long average; `resolution_ns`: the smallest
    /// difference of the averages that counts as rising delay (0: any).
    pub fn new(weight: f64, resolution_ns: f64) -> Self {
        CongestionIndicator { weight, resolution_ns, sum_ns: 0, count: 0, long_ns: None }
    }

    /// One cumulative-jitter sample CJ_k, ns (one per completely received frame).
    pub fn sample(&mut self, cj_ns: i64) {
        self.sum_ns += cj_ns as i128;
        self.count += 1;
    }

    /// The long-running average, ns.
    pub fn long(&self) -> Option<f64> {
        self.long_ns
    }

    /// Ends the report interval: the state, then the long average takes the interval's mean.
    pub fn close_interval(&mut self) -> bool {
        if self.count == 0 {
            return false;
        }
        let short = self.sum_ns as f64 / self.count as f64;
        let congested = self.long_ns.is_some_and(|long| short - long > self.resolution_ns);
        self.long_ns = Some(match self.long_ns {
            None => short,
            Some(long) => long + self.weight * (short - long),
        });
        self.sum_ns = 0;
        self.count = 0;
        congested
    }
}
