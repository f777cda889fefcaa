//! ns-2 2.35's Agent/TFRC sender rules (tcp/tfrc.cc, tcp/formula.h), the `rules = "ns2"` and
//! `t_rto = "tcp"` options: what the DVRC and SSVP papers' TFRC did where RFC 5348 differs.
//!
//! [`Ns2Rules`] (`TfrcAgent::recv`, `slowstart`, `increase_rate`, `decrease_rate`,
//! `reduce_rate_on_no_feedback`, `nextpkt`), rates in bytes/s, R the smoothed RTT:
//! - start: X = `InitRate_` = 300 B/s until the first feedback;
//! - each feedback (and each no-feedback expiry) counts a round; from the second round on,
//!   maxrate = 2·X_recv (0 before, or when X_recv = 0);
//! - slow start (until the first report with p > 0): in rounds 1 and 2 (round 2 only when the
//!   initial window exceeds one packet) X = max(X, W·s/R); later, with maxrate > 0: when data-limited
//!   recently (`idleFix_`) and maxrate < W·s/R, X = max(X, W·s/R); else when X < maxrate and more
//!   than R has passed since the last change, X = max(min(2X, maxrate), s/R) (`ssmult_` 2);
//!   else when X > maxrate, X = maxrate/2; with maxrate = 0, X = s/R;
//! - the first report with p > 0 ends slow start at X = X_Bps, not capped by X_recv;
//! - after slow start, X_Bps > X: X += (s/R)·min(2, (now − last change)/R), capped at
//!   min(X_Bps, max(maxrate, s/R)) (max(maxrate, W·s/R) when data-limited within the last 1.5R);
//!   X_Bps ≤ X: X = min(X_Bps, max(maxrate, s/R)) (`maxHeavyRounds_` 0);
//! - no-feedback expiry: X/2 unless idle since the timer was set or data-limited now; then X/2
//!   only above 2·W·s/R, and (W_init of RFC 3390 only) X = W·s/R between W·s/R and 2·W·s/R;
//! - `slow_increase_` 1: from round 3 of slow start, the pacing rate starts at the old X and
//!   rises by (X − X_old)/(X·R/s) per packet sent, reaching X after one RTT's packets; `ca_`
//!   (oscillation prevention) applies only when no such ramp is running;
//! - a slow-start report and a no-feedback expiry call `nextpkt()`: a packet (if any) leaves at
//!   once and pacing restarts from it;
//! - the equation (formula.h `p_to_b`) caps 3·√(3bp/8) at 1 and X_Bps at 25 MB/s.
//!
//! W is the configured initial window (`initial_rate`: 1 packet, or RFC 5348's W_init, which
//! is ns-2's `rate_init_option_ 2` for packets up to 1095 B). vidcc keeps the s/t_mbi floor
//! (ns-2 has none; it only matters below 16 B/s).
//!
//! [`TcpRto`] is ns-2's `update_rtt` TCP estimator (`tcp_tick_`, `T_SRTT_BITS` 3,
//! `T_RTTVAR_BITS` 2, `rttvar_exp_` 2): t_RTO = (srtt + 4·rttvar) in whole ticks.

use crate::time::{Duration, Instant};

/// ns-2's `InitRate_`, bytes/s.
pub(super) const INIT_RATE: f64 = 300.0;
/// ns-2's `SMALLFLOAT`.
const SMALLFLOAT: f64 = 1e-7;
/// formula.h's `MAXRATE`, bytes/s.
const MAXRATE: f64 = 25_000_000.0;

/// X_Bps from ns-2's `p_to_b`: Eq. 1 with 3·√(3bp/8) capped at 1, at most 25 MB/s.
pub(super) fn ns2_rate(s: f64, r: f64, p: f64, t_rto: f64, b: f64) -> f64 {
    if p <= 0.0 {
        return f64::INFINITY;
    }
    let t1 = (3.0 * (3.0 * b * p / 8.0).sqrt()).min(1.0);
    let res = r * (2.0 * b * p / 3.0).sqrt() + t1 * t_rto * p * (1.0 + 32.0 * p * p);
    if res < SMALLFLOAT {
        MAXRATE
    } else {
        (s / res).min(MAXRATE)
    }
}

/// What a feedback packet brings to the rules (bytes/s, seconds).
pub(super) struct Report {
    pub now: Instant,
    /// R.
    pub r: Duration,
    pub s: f64,
    pub x_recv: f64,
    pub p: f64,
    /// X_Bps (∞ when p = 0).
    pub x_calc: f64,
    /// W·s/R.
    pub init_rate: f64,
    /// Data-limited now or within the last 1.5R (`datalimited_ || lastlimited_ > now − 1.5R`).
    pub limited: bool,
}

/// The sender state of ns-2's rate rules.
pub(super) struct Ns2Rules {
    /// `round_id`: feedbacks and no-feedback expiries so far.
    round: u32,
    /// `rate_change_ == SLOW_START`.
    slow_start: bool,
    /// `first_pkt_rcvd == 0`.
    first: bool,
    /// `last_change_`.
    last_change: Instant,
    /// `maxrate_` (= `ss_maxrate_`, `conservative_` 0).
    maxrate: f64,
    /// `oldrate_` and `delta_` of `slow_increase_`.
    ramp: f64,
    delta: f64,
    /// Whether the last send used the ramp (then `ca_` is off for it).
    ramping: bool,
    /// `nextpkt()` was called outside the send timer: the next packet may leave at once.
    kick: bool,
    /// `all_idle_`: data-limited at the last no-feedback expiry, nothing sent since.
    all_idle: bool,
}

impl Ns2Rules {
    pub fn new() -> Self {
        Ns2Rules {
            round: 0,
            slow_start: true,
            first: true,
            last_change: Instant::ZERO,
            maxrate: 0.0,
            ramp: INIT_RATE,
            delta: 0.0,
            ramping: false,
            kick: false,
            all_idle: false,
        }
    }

    /// `recv()`: the new X after a report, from the X `x` in force.
    pub fn on_feedback(&mut self, x: f64, rep: &Report) -> f64 {
        self.round += 1;
        self.maxrate = if self.round > 1 && rep.x_recv > 0.0 { 2.0 * rep.x_recv } else { 0.0 };
        if self.first {
            self.first = false;
            return self.slowstart(x, rep);
        }
        if self.slow_start {
            if rep.p > 0.0 {
                self.slow_start = false;
                self.ramp = rep.x_calc;
                return rep.x_calc;
            }
            return self.slowstart(x, rep);
        }
        let r = rep.r.as_secs_f64();
        let one = rep.s / r;
        let new = if rep.x_calc > x {
            // increase_rate()
            let mult = (rep.now.saturating_since(self.last_change).as_secs_f64() / r).min(2.0);
            let floor = if rep.limited { rep.init_rate } else { one };
            (x + one * mult).min(self.maxrate.max(floor).min(rep.x_calc))
        } else {
            // decrease_rate()
            rep.x_calc.min(self.maxrate.max(one))
        };
        self.last_change = rep.now;
        new
    }

    /// `slowstart()` (then `nextpkt()`: a packet leaves at once).
    fn slowstart(&mut self, x: f64, rep: &Report) -> f64 {
        self.kick = true;
        let r = rep.r.as_secs_f64();
        let init = rep.init_rate;
        let w_above_one = init * r / rep.s > 1.0 + 1e-9;
        // (new X, ramp start, ramp step per packet)
        let (new, ramp, delta);
        if self.round <= 1
            || (self.round == 2 && w_above_one)
            || (self.maxrate > 0.0 && rep.limited && self.maxrate < init)
        {
            // No good receive rate yet, or data-limited with a small one: at least W·s/R.
            new = x.max(init);
            (ramp, delta) = (x, (new - x) / (new * r / rep.s));
        } else if self.maxrate > 0.0 {
            if x < self.maxrate && rep.now.saturating_since(self.last_change) > rep.r {
                new = (2.0 * x).min(self.maxrate).max(rep.s / r);
                (ramp, delta) = (x, (new - x) / (new * r / rep.s));
            } else if x > self.maxrate {
                new = self.maxrate / 2.0;
                (ramp, delta) = (new, 0.0);
            } else {
                return x;
            }
        } else {
            // No packet received in the last report: back to one packet per RTT (ns-2 leaves
            // the ramp at the old X with no step).
            new = rep.s / r;
            (ramp, delta) = (x, 0.0);
        }
        self.ramp = ramp;
        self.delta = delta;
        self.last_change = rep.now;
        new
    }

    /// `reduce_rate_on_no_feedback()`: `limited` = nothing to send now (`datalimited_`);
    /// `init_rate` = W·s/R (None before an RTT: never reached), `w_init` = whether W is RFC
    /// 3390's (`rate_init_option_` 2) rather than a fixed one packet (option 1).
    pub fn on_nofeedback(&mut self, x: f64, limited: bool, init_rate: Option<f64>, w_init: bool) -> f64 {
        self.round += 1;
        self.kick = true;
        let idle = self.all_idle;
        self.all_idle = limited;
        if !idle && !limited {
            return x / 2.0;
        }
        let Some(init) = init_rate else { return x };
        if x > 2.0 * init {
            x / 2.0
        } else if w_init && x > init {
            init
        } else {
            x
        }
    }

    /// `nextpkt()` after a packet is sent: advances the slow-start ramp.
    pub fn on_sent(&mut self, x: f64) {
        self.kick = false;
        self.all_idle = false;
        self.ramping = self.round > 2 && self.slow_start && self.ramp + SMALLFLOAT < x;
        if self.ramping {
            self.ramp += self.delta;
        }
    }

    /// Whether a packet may leave at once (`nextpkt()` after a report or a timer expiry).
    pub fn kicked(&self) -> bool {
        self.kick
    }

    /// The pacing rate of the ramp, if one is running.
    pub fn ramp_rate(&self) -> Option<f64> {
        self.ramping.then_some(self.ramp)
    }
}

/// ns-2's TCP RTO estimator (`update_rtt`), in ticks of `tcp_tick_`.
pub(super) struct TcpRto {
    tick: f64,
    /// Smoothed RTT ·8 and RTT variation ·4, in ticks (0 = no sample yet).
    srtt: i64,
    rttvar: i64,
}

impl TcpRto {
    pub fn new(tick: Duration) -> Self {
        TcpRto { tick: tick.as_secs_f64(), srtt: 0, rttvar: 0 }
    }

    /// Takes an RTT sample (seconds) and returns t_RTO (seconds).
    pub fn update(&mut self, sample: f64) -> f64 {
        let t_rtt = ((sample / self.tick + 0.5) as i64).max(1);
        if self.srtt != 0 {
            let mut delta = t_rtt - (self.srtt >> 3);
            self.srtt = (self.srtt + delta).max(1);
            delta = delta.abs() - (self.rttvar >> 2);
            self.rttvar = (self.rttvar + delta).max(1);
        } else {
            self.srtt = t_rtt << 3;
            self.rttvar = t_rtt << 1;
        }
        (((self.rttvar << 3) + self.srtt) >> 3) as f64 * self.tick
    }
}
