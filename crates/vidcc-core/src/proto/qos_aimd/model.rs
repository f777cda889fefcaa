//! The QoS-AIMD paper's analytic model and its cross-layer parameter selection
//! (`docs/papers/qos-aimd.md` §2; paper §III–IV).
//!
//! Time is slotted: one slot is the time to send one packet on the wireless last hop. The model
//! links the sender window W (or the windows W_i of N flows, S = Σ W_i), the base-station queue
//! and the wireless link's throughput distribution T_n(x) = P(x successes in n slots):
//!
//! - eq. (10) [P]: α = 3(1 − β)/(1 + β) ([`alpha_for_beta`]; inverse [D] [`beta_for_alpha`]);
//! - T_n(x) for a finite-state Markov channel with persistent ARQ (one attempt per slot), by the
//!   forward recursion of docs/papers/qos-aimd.md §2.8 [U → D], started from the stationary
//!   distribution ([`throughput_pmf`]); channels: i.i.d. (Bernoulli), Gilbert (good state
//!   error-free, bad state always in error, docs/papers/qos-aimd.md §2.7 [D]) and general two-state Gilbert–Elliott;
//! - eq. (1) delay outage of one flow with B ≥ W ([`outage`]), eq. (2) with a buffer B
//!   ([`outage_with_buffer`]), the unnumbered overflow loss L(B, W) ([`overflow_loss`]);
//! - eqs. (3)–(4) and their closed form [D] ([`share_windows`]); eq. (5) thinning
//!   ([`thinned_pmf`]); eq. (6) queue-length distribution of N flows ([`queue_pmf`]), with the
//!   k-th factor T_{R_k − R_{k−1}}(·; Σ_{m≥k} p_m), R_0 = 1 [D, erratum 18]; eqs. (7)–(9)
//!   ([`multi_outage`], [`multi_overflow_loss`], [`multi_outage_with_buffer`]);
//! - parameter selection (§IV, docs/papers/qos-aimd.md §2.6): W_max = the largest W with eq. (1) ≤
//!   ε for one flow ([`w_max`]); for N flows S_max from eq. (7) (which depends on the windows only
//!   through S [D]) split by the closed form and rounded ([`s_max`], [`Rounding`]); then rwnd_i =
//!   W_i and B = Σ rwnd_i ([`select`]).
//!
//! Everything is deterministic `f64` arithmetic in a fixed order, so results are identical on
//! every machine. docs/papers/qos-aimd.md's derived reference vectors (§2.7) are unit tests in `tests.rs`.
//!
//! Parameters of [`SelectRequest`] with defaults: outage target ε = 1 % [P §V], β = 0.875 [P],
//! rounding [`Rounding::Nearest`] [U → D], equal shares p_i = 1/N [P §V-C].
//!
//! Choices where the paper is silent ([U] in the QoS-AIMD paper page):
//! - T_n(x) starts from the stationary channel state (docs/papers/qos-aimd.md §2.8), not conditioned on a state.
//! - The product forms of eqs. (2) and (6) are used as printed; they are exact only for i.i.d.
//!   channels (erratum 19), so for a Markov channel eq. (2) with B ≥ W differs a little from
//!   eq. (1) (Gilbert example: 0.0626 vs 0.0537).
//! - A single flow's W_max uses eq. (1) (as the paper does); N ≥ 2 flows use eq. (7).
//! - When W_max < R (or S_max < R_N) the outage target wins: the selection keeps the window and
//!   reports `full_utilization = false` (docs/papers/qos-aimd.md §7 item 11: the paper does not say).
//! - The additivity identity printed under eq. (5) is false as a statement about pmfs
//!   (docs/papers/qos-aimd.md §2.4) and is not used.

use std::fmt;

/// Largest n (slots) the model evaluates: R + D, and R_N + D, must stay below this. The pmfs
/// cost O(n²); 4096 slots is 20 s of 5 ms slots.
pub const MAX_SLOTS: u32 = 4096;

/// Eq. (10) [P]: the TCP-friendly additive increase for a decrease factor β ∈ (0, 1).
pub fn alpha_for_beta(beta: f64) -> f64 {
    // α = 3(1 − β) / (1 + β)                                                              (10)
    3.0 * (1.0 - beta) / (1.0 + beta)
}

/// Inverse of eq. (10) [D]: β = (3 − α)/(3 + α) for α ∈ (0, 3).
pub fn beta_for_alpha(alpha: f64) -> f64 {
    (3.0 - alpha) / (3.0 + alpha)
}

/// The wireless link's packet-level channel, one transmission attempt per slot.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Channel {
    /// Independent errors with probability `error_rate` per attempt (the QoS-AIMD paper page's
    /// reference channel for the derived vectors, §2.7).
    Iid { error_rate: f64 },
    /// Gilbert channel (docs/papers/qos-aimd.md §2.7 [D]): the good state is error-free, the bad
    /// state always in error; stationary error rate `error_rate`, mean bad burst `mean_burst_slots`
    /// slots. P(bad→good) = 1/burst, P(good→bad) = p_e/((1 − p_e)·burst).
    Gilbert { error_rate: f64, mean_burst_slots: f64 },
    /// Two-state Gilbert–Elliott chain with per-state error probabilities.
    GilbertElliott { p_good_to_bad: f64, p_bad_to_good: f64, error_good: f64, error_bad: f64 },
}

/// A two-state chain in the form the recursion needs.
struct Markov2 {
    /// Stationary probabilities (good, bad).
    pi: [f64; 2],
    /// Transition matrix P[s][s'].
    p: [[f64; 2]; 2],
    /// Packet error probability per state.
    eps: [f64; 2],
}

fn unit_interval(name: &str, v: f64) -> Result<(), String> {
    if v.is_finite() && (0.0..=1.0).contains(&v) {
        Ok(())
    } else {
        Err(format!("{name} must be a probability in [0, 1], got {v}"))
    }
}

impl Channel {
    pub fn validate(&self) -> Result<(), String> {
        match *self {
            Channel::Iid { error_rate } => {
                unit_interval("error_rate", error_rate)?;
                if error_rate >= 1.0 {
                    return Err(format!("error_rate must be below 1, got {error_rate}"));
                }
            }
            Channel::Gilbert { error_rate, mean_burst_slots } => {
                unit_interval("error_rate", error_rate)?;
                if error_rate >= 1.0 {
                    return Err(format!("error_rate must be below 1, got {error_rate}"));
                }
                if !(mean_burst_slots.is_finite() && mean_burst_slots >= 1.0) {
                    return Err(format!("mean_burst_slots must be at least 1, got {mean_burst_slots}"));
                }
                let p_gb = error_rate / ((1.0 - error_rate) * mean_burst_slots);
                if p_gb > 1.0 {
                    return Err(format!(
                        "error_rate {error_rate} with mean bursts of {mean_burst_slots} slots needs a \
                         good→bad probability of {p_gb:.3} > 1"
                    ));
                }
            }
            Channel::GilbertElliott { p_good_to_bad, p_bad_to_good, error_good, error_bad } => {
                unit_interval("p_good_to_bad", p_good_to_bad)?;
                unit_interval("p_bad_to_good", p_bad_to_good)?;
                unit_interval("error_good", error_good)?;
                unit_interval("error_bad", error_bad)?;
                if p_good_to_bad + p_bad_to_good <= 0.0 {
                    return Err("p_good_to_bad and p_bad_to_good cannot both be 0".into());
                }
                if self.error_rate() >= 1.0 {
                    return Err("the channel never delivers a packet (mean error rate 1)".into());
                }
            }
        }
        Ok(())
    }

    fn markov(&self) -> Markov2 {
        match *self {
            Channel::Iid { error_rate } => {
                Markov2 { pi: [1.0, 0.0], p: [[1.0, 0.0], [0.0, 1.0]], eps: [error_rate, error_rate] }
            }
            Channel::Gilbert { error_rate, mean_burst_slots } => {
                let r = 1.0 / mean_burst_slots;
                let p = error_rate * r / (1.0 - error_rate);
                Markov2 { pi: [1.0 - error_rate, error_rate], p: [[1.0 - p, p], [r, 1.0 - r]], eps: [0.0, 1.0] }
            }
            Channel::GilbertElliott { p_good_to_bad: p, p_bad_to_good: r, error_good, error_bad } => {
                let pi_bad = p / (p + r);
                Markov2 { pi: [1.0 - pi_bad, pi_bad], p: [[1.0 - p, p], [r, 1.0 - r]], eps: [error_good, error_bad] }
            }
        }
    }

    /// Stationary packet error rate p_e = Σ_s π_s ε_s.
    pub fn error_rate(&self) -> f64 {
        let m = self.markov();
        m.pi[0] * m.eps[0] + m.pi[1] * m.eps[1]
    }
}

/// T_n(x), x = 0..=n: the probability of exactly x successful transmissions in n slots
/// (docs/papers/qos-aimd.md §2.8 recursion, persistent transmission, stationary start). T_0 = [1].
///
/// f_0(0, s) = π_s;  f_{t+1}(x+1, s') += f_t(x, s)(1 − ε_s)P_{ss'};  f_{t+1}(x, s') += f_t(x, s)ε_s P_{ss'};
/// T_n(x) = Σ_s f_n(x, s).
pub fn throughput_pmf(channel: &Channel, n: u32) -> Vec<f64> {
    let m = channel.markov();
    let n = n as usize;
    let mut f = vec![[0.0f64; 2]; n + 1];
    let mut g = vec![[0.0f64; 2]; n + 1];
    f[0] = m.pi;
    for t in 0..n {
        for row in g.iter_mut().take(t + 2) {
            *row = [0.0; 2];
        }
        for x in 0..=t {
            for (s, &v) in f[x].iter().enumerate() {
                if v == 0.0 {
                    continue;
                }
                let (ok, err) = (v * (1.0 - m.eps[s]), v * m.eps[s]);
                for (s2, &p) in m.p[s].iter().enumerate() {
                    g[x + 1][s2] += ok * p;
                    g[x][s2] += err * p;
                }
            }
        }
        std::mem::swap(&mut f, &mut g);
    }
    f.iter().map(|r| r[0] + r[1]).collect()
}

/// Σ_{x < k} pmf(x): P(fewer than k successes). k beyond the support gives 1 (up to rounding).
fn cdf_below(pmf: &[f64], k: i64) -> f64 {
    if k <= 0 {
        return 0.0;
    }
    pmf.iter().take(k as usize).sum()
}

/// E[T_n] = Σ x·T_n(x) (= n(1 − p_e) for a stationary channel [D]).
pub fn mean(pmf: &[f64]) -> f64 {
    pmf.iter().enumerate().map(|(x, p)| x as f64 * p).sum()
}

/// Eq. (5): T_n(x; p) = Σ_{k=0}^{n−x} C(x+k, x)·p^x·(1−p)^k·T_n(x+k), the successes that belong
/// to a flow with share p (each success independently the flow's with probability p). The
/// binomial weights come from Pascal's recursion (no factorials), so n up to [`MAX_SLOTS`] is
/// safe. T_n(·; 1) = T_n(·).
pub fn thinned_pmf(pmf: &[f64], p: f64) -> Vec<f64> {
    let n = pmf.len().saturating_sub(1);
    let mut out = vec![0.0; n + 1];
    // b[x] = C(m, x) p^x (1−p)^(m−x), advanced one m at a time.
    let mut b = vec![0.0; n + 1];
    b[0] = 1.0;
    for (m, &t) in pmf.iter().enumerate() {
        if m > 0 {
            for x in (1..=m).rev() {
                b[x] = b[x] * (1.0 - p) + b[x - 1] * p;
            }
            b[0] *= 1.0 - p;
        }
        if t != 0.0 {
            for x in 0..=m {
                out[x] += b[x] * t;
            }
        }
    }
    out
}

fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &x) in a.iter().enumerate() {
        for (j, &y) in b.iter().enumerate() {
            out[i + j] += x * y;
        }
    }
    out
}

/// Eq. (1) [P]: Pr{d_q > D | W} = Σ_{x=0}^{W−1} T_{R+D}(x), one flow, W ≥ R, B ≥ W.
pub fn outage(channel: &Channel, rtt_slots: u32, delay_slots: u32, window: u32) -> f64 {
    cdf_below(&throughput_pmf(channel, rtt_slots + delay_slots), window as i64)
}

/// Overflow loss [P, unnumbered]: L(B, W) = Σ_{x=0}^{W−B−1} T_{R−1}(x) (0 when B ≥ W).
pub fn overflow_loss(channel: &Channel, rtt_slots: u32, buffer: u32, window: u32) -> f64 {
    cdf_below(&throughput_pmf(channel, rtt_slots.saturating_sub(1)), window as i64 - buffer as i64)
}

/// Eq. (2) [P]: Pr{d_q > D | W; B} = Σ_{x=W−R+1}^{B} Σ_{i=0}^{x−1} T_{D+1}(i)·T_{R−1}(W − x).
/// Overflowing packets (x > B) are losses, not outages, and are left out (not renormalised).
pub fn outage_with_buffer(channel: &Channel, rtt_slots: u32, delay_slots: u32, window: u32, buffer: u32) -> f64 {
    let t_r = throughput_pmf(channel, rtt_slots.saturating_sub(1));
    let t_d = throughput_pmf(channel, delay_slots + 1);
    let w = window as i64;
    let lo = (w - rtt_slots as i64 + 1).max(1);
    let hi = (buffer as i64).min(w);
    let mut sum = 0.0;
    for x in lo..=hi {
        // x ≥ 1 and x ≤ W: W − x ∈ [0, R − 1], inside T_{R−1}'s support.
        sum += cdf_below(&t_d, x) * t_r[(w - x) as usize];
    }
    sum
}

/// N flows sharing the wireless link: RTTs in slots sorted ascending (R_1 ≤ … ≤ R_N) and the
/// shares p_i (Σ p_i = 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Flows {
    rtt_slots: Vec<u32>,
    shares: Vec<f64>,
}

impl Flows {
    /// Checks: at least one flow, equal lengths, R_i ≥ 1 ascending, shares > 0 summing to 1
    /// (within 1e-9).
    pub fn new(rtt_slots: Vec<u32>, shares: Vec<f64>) -> Result<Self, String> {
        if rtt_slots.is_empty() {
            return Err("at least one flow is needed".into());
        }
        if rtt_slots.len() != shares.len() {
            return Err(format!("{} RTTs but {} shares", rtt_slots.len(), shares.len()));
        }
        if rtt_slots.contains(&0) {
            return Err("every RTT must be at least 1 slot".into());
        }
        if rtt_slots.windows(2).any(|w| w[0] > w[1]) {
            return Err("RTTs must be sorted ascending (R_1 ≤ R_2 ≤ … ≤ R_N)".into());
        }
        if shares.iter().any(|p| !(p.is_finite() && *p > 0.0 && *p <= 1.0)) {
            return Err("every share must be in (0, 1]".into());
        }
        let total: f64 = shares.iter().sum();
        if (total - 1.0).abs() > 1e-9 {
            return Err(format!("shares must add up to 1, they add up to {total}"));
        }
        Ok(Flows { rtt_slots, shares })
    }

    /// N flows with equal shares 1/N.
    pub fn equal_shares(rtt_slots: Vec<u32>) -> Result<Self, String> {
        let n = rtt_slots.len().max(1);
        Flows::new(rtt_slots, vec![1.0 / n as f64; n])
    }

    pub fn rtt_slots(&self) -> &[u32] {
        &self.rtt_slots
    }
    pub fn shares(&self) -> &[f64] {
        &self.shares
    }
    pub fn len(&self) -> usize {
        self.rtt_slots.len()
    }
    pub fn is_empty(&self) -> bool {
        self.rtt_slots.is_empty()
    }
    /// R_N, the longest RTT.
    pub fn max_rtt(&self) -> u32 {
        *self.rtt_slots.last().expect("at least one flow")
    }
}

/// The distribution of Y, the tokens outside the BS buffer, for N flows: the convolution of
/// the factors of eq. (6), T_{R_k − R_{k−1}}(·; Σ_{m≥k} p_m) with R_0 = 1 [D]. Independent of S;
/// index y = 0..=R_N − 1.
pub fn tokens_outside_pmf(channel: &Channel, flows: &Flows) -> Vec<f64> {
    let mut y = vec![1.0];
    let mut prev = 1u32;
    for (k, &r) in flows.rtt_slots.iter().enumerate() {
        let n = r.saturating_sub(prev);
        prev = prev.max(r);
        if n == 0 {
            continue; // T_0(0) = 1
        }
        let share: f64 = flows.shares[k..].iter().sum();
        let factor = thinned_pmf(&throughput_pmf(channel, n), share.min(1.0));
        y = convolve(&y, &factor);
    }
    y
}

/// Eq. (6) [P]: Pr{Q = x | W}, x = 0..=S, with Q = (S − Y)^+ (Q = 0 lumps every Y ≥ S, which the
/// paper's range S − R_N + 1 ≤ x ≤ S excludes when S ≥ R_N). Depends on W only through S [D].
pub fn queue_pmf(channel: &Channel, flows: &Flows, window_sum: u32) -> Vec<f64> {
    let y = tokens_outside_pmf(channel, flows);
    queue_from_outside(&y, window_sum)
}

fn queue_from_outside(y: &[f64], s: u32) -> Vec<f64> {
    let s = s as usize;
    let mut q = vec![0.0; s + 1];
    for (yv, &p) in y.iter().enumerate() {
        q[s.saturating_sub(yv)] += p;
    }
    q
}

/// Σ_x Pr{Q = x}·Σ_{j<x} T_{D+1}(j) over 1 ≤ x ≤ min(B, S) (x = 0 waits for nothing).
fn outage_from_queue(q: &[f64], t_d: &[f64], buffer: u32) -> f64 {
    let hi = (buffer as usize).min(q.len() - 1);
    (1..=hi).map(|x| q[x] * cdf_below(t_d, x as i64)).sum()
}

/// Eq. (7) [P]: Pr{d_q > D | W} = Σ_{x=S−R_N+1}^{S} Pr{Q = x | W}·Σ_{j=0}^{x−1} T_{D+1}(j), N flows
/// on one FIFO, no overflow (B ≥ S).
pub fn multi_outage(channel: &Channel, flows: &Flows, delay_slots: u32, window_sum: u32) -> f64 {
    multi_outage_with_buffer(channel, flows, delay_slots, window_sum, window_sum)
}

/// Eq. (9) [P]: eq. (7) with the sum cut at the buffer B (x ≤ B).
pub fn multi_outage_with_buffer(
    channel: &Channel,
    flows: &Flows,
    delay_slots: u32,
    window_sum: u32,
    buffer: u32,
) -> f64 {
    let q = queue_pmf(channel, flows, window_sum);
    let t_d = throughput_pmf(channel, delay_slots + 1);
    outage_from_queue(&q, &t_d, buffer)
}

/// Eq. (8) [P]: L(B, W) = Σ_{x=B+1}^{S} Pr{Q = x | W}.
pub fn multi_overflow_loss(channel: &Channel, flows: &Flows, buffer: u32, window_sum: u32) -> f64 {
    let q = queue_pmf(channel, flows, window_sum);
    q.iter().skip(buffer as usize + 1).sum()
}

/// Closed form of eqs. (3)–(4) [D]: W_i = p_i·(S − Σ_j p_j E[T_{R_j−1}]) + p_i·E[T_{R_i−1}].
/// These add up to S and satisfy eq. (4) for every pair.
pub fn share_windows(channel: &Channel, flows: &Flows, window_sum: f64) -> Vec<f64> {
    let e: Vec<f64> = flows.rtt_slots.iter().map(|&r| mean(&throughput_pmf(channel, r.saturating_sub(1)))).collect();
    let pooled: f64 = flows.shares.iter().zip(&e).map(|(p, e)| p * e).sum();
    flows.shares.iter().zip(&e).map(|(p, e)| p * (window_sum - pooled) + p * e).collect()
}

/// Checks R + D against [`MAX_SLOTS`].
fn check_size(rtt_slots: u32, delay_slots: u32) -> Result<(), String> {
    if rtt_slots as u64 + delay_slots as u64 >= MAX_SLOTS as u64 {
        return Err(format!(
            "RTT + delay bound = {} slots is too large for the model (at most {} slots)",
            rtt_slots as u64 + delay_slots as u64,
            MAX_SLOTS - 1
        ));
    }
    Ok(())
}

/// W_max [P §IV step 6]: the largest W with eq. (1) ≤ `target`; 0 if even W = 1 misses it.
/// Eq. (1) never decreases in W, and equals 1 beyond R + D, so the search stops there.
pub fn w_max(channel: &Channel, rtt_slots: u32, delay_slots: u32, target: f64) -> u32 {
    let t = throughput_pmf(channel, rtt_slots + delay_slots);
    let mut cdf = 0.0;
    let mut best = 0;
    for (w, p) in t.iter().enumerate() {
        // cdf = Σ_{x < w+1} T(x) = eq. (1) at W = w + 1.
        cdf += p;
        if cdf <= target {
            best = w as u32 + 1;
        } else {
            break;
        }
    }
    best
}

/// S_max [D, docs/papers/qos-aimd.md §2.6]: the largest window sum S with eq. (7) ≤ `target`; 0 if none.
pub fn s_max(channel: &Channel, flows: &Flows, delay_slots: u32, target: f64) -> u32 {
    let y = tokens_outside_pmf(channel, flows);
    let t_d = throughput_pmf(channel, delay_slots + 1);
    let mut best = 0;
    // Beyond R_N + D every queue position waits longer than D: eq. (7) is then ≈ 1.
    for s in 1..=(flows.max_rtt() + delay_slots + 1) {
        let q = queue_from_outside(&y, s);
        if outage_from_queue(&q, &t_d, s) <= target {
            best = s;
        } else {
            break;
        }
    }
    best
}

/// How integer windows are taken from the closed-form split of S_max (docs/papers/qos-aimd.md §2.6,
/// §7 item 10; the paper does not say).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Rounding {
    /// [D] Round each closed-form W_i(S) to the nearest integer (halves away from zero), starting
    /// at S = S_max and lowering S until the rounded windows add up to exactly S. Keeps flows of
    /// one RTT class equal (docs/papers/qos-aimd.md §2.7: 2 flows R = (17, 25), p_e = 0.01 → (12, 15)).
    #[default]
    Nearest,
    /// [D] Keep the windows' differences integer: W_i = W_1 + round(W_i − W_1), with the largest
    /// W_1 such that Σ W_i ≤ S_max (docs/papers/qos-aimd.md §2.7: → (11, 15)). Equal shares only.
    IntegerGap,
}

impl Rounding {
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "nearest" => Ok(Rounding::Nearest),
            "integer-gap" => Ok(Rounding::IntegerGap),
            other => Err(format!("unknown rounding {other:?}; expected nearest or integer-gap")),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Rounding::Nearest => "nearest",
            Rounding::IntegerGap => "integer-gap",
        }
    }
}

/// Integer windows (sorted flow order) for `flows` under `s_max`, or an error if every flow
/// cannot get at least one packet.
pub fn allocate(channel: &Channel, flows: &Flows, s_max: u32, rounding: Rounding) -> Result<Vec<u32>, String> {
    let n = flows.len() as u32;
    if s_max < n {
        return Err(format!("the window sum S_max = {s_max} cannot give each of {n} flows one packet"));
    }
    match rounding {
        Rounding::Nearest => {
            for s in (n..=s_max).rev() {
                let w = share_windows(channel, flows, s as f64);
                if w.iter().any(|x| x.round() < 1.0) {
                    continue;
                }
                let rounded: Vec<u32> = w.iter().map(|x| x.round() as u32).collect();
                if rounded.iter().map(|&x| x as u64).sum::<u64>() == s as u64 {
                    return Ok(rounded);
                }
            }
            Err(format!("no split of S ≤ {s_max} rounds to integer windows of at least 1 packet"))
        }
        Rounding::IntegerGap => {
            let first = flows.shares[0];
            if flows.shares.iter().any(|p| (p - first).abs() > 1e-12) {
                return Err("rounding \"integer-gap\" needs equal shares".into());
            }
            let w = share_windows(channel, flows, s_max as f64);
            let gaps: Vec<i64> = w.iter().map(|x| (x - w[0]).round() as i64).collect();
            let spare = s_max as i64 - gaps.iter().sum::<i64>();
            let w1 = spare.div_euclid(n as i64);
            let windows: Vec<i64> = gaps.iter().map(|g| w1 + g).collect();
            if windows.iter().any(|&x| x < 1) {
                return Err(format!("integer gaps {gaps:?} do not fit in S_max = {s_max}"));
            }
            Ok(windows.into_iter().map(|x| x as u32).collect())
        }
    }
}

/// What the application and the link tell the selection (paper §IV steps 1–6).
#[derive(Clone, Debug, PartialEq)]
pub struct SelectRequest {
    pub channel: Channel,
    /// Each flow's RTT without wireless queueing or retransmission, in slots (any order).
    pub rtt_slots: Vec<u32>,
    /// Target shares p_i in the order of `rtt_slots`; `None`: equal shares.
    pub shares: Option<Vec<f64>>,
    /// D: the largest tolerable queueing delay, in slots.
    pub delay_bound_slots: u32,
    /// ε: the tolerable delay-outage probability.
    pub outage_target: f64,
    /// β chosen by the application; α follows from eq. (10).
    pub beta: f64,
    pub rounding: Rounding,
}

impl SelectRequest {
    /// One flow with the paper's defaults (ε = 1 %, β = 0.875).
    pub fn single(channel: Channel, rtt_slots: u32, delay_bound_slots: u32) -> Self {
        SelectRequest {
            channel,
            rtt_slots: vec![rtt_slots],
            shares: None,
            delay_bound_slots,
            outage_target: 0.01,
            beta: 0.875,
            rounding: Rounding::Nearest,
        }
    }
}

/// The chosen parameters and the model's predictions. Per-flow vectors are in request order.
#[derive(Clone, Debug, PartialEq)]
pub struct Selection {
    pub alpha: f64,
    pub beta: f64,
    /// Stationary packet error rate p_e of the channel.
    pub error_rate: f64,
    /// rwnd_i = W_i, the window each receiver advertises (packets).
    pub windows: Vec<u32>,
    /// The closed-form (real) split of the allocated S, eq. (4).
    pub exact_windows: Vec<f64>,
    /// Shares p_i used.
    pub shares: Vec<f64>,
    /// W_max (one flow) or S_max (N flows): the largest window (sum) meeting the target.
    pub max_window_sum: u32,
    /// S = Σ W_i allocated (≤ `max_window_sum`; lower when integer windows force it).
    pub window_sum: u32,
    /// B = S: the BS buffer, so that it never overflows [P §IV].
    pub buffer_packets: u32,
    /// Predicted Pr{d_q > D} at the allocated S (eq. (1) for one flow, eq. (7) for N).
    pub outage: f64,
    /// The same at `max_window_sum + 1`: how close the next window is to the target.
    pub outage_next: f64,
    /// L(B, S) with B = S: always 0.
    pub overflow_loss: f64,
    /// Maximum throughput (1 − p_e)·p_i of each flow, packets per slot [P §III].
    pub throughput_pkt_per_slot: Vec<f64>,
    /// S ≥ R_N: the sufficient condition for full wireless utilisation [P].
    pub full_utilization: bool,
    /// ⌈R_N/β⌉: the window that still keeps the link busy after one wired loss, β·rwnd ≥ R
    /// (docs/papers/qos-aimd.md §2.6 item 3 [D]).
    pub wired_loss_window: u32,
}

/// Runs the cross-layer parameter selection (paper §IV, docs/papers/qos-aimd.md §2.6).
pub fn select(req: &SelectRequest) -> Result<Selection, String> {
    req.channel.validate()?;
    if !(req.beta.is_finite() && req.beta > 0.0 && req.beta < 1.0) {
        return Err(format!("beta must be in (0, 1), got {}", req.beta));
    }
    if !(req.outage_target.is_finite() && req.outage_target > 0.0 && req.outage_target < 1.0) {
        return Err(format!("the outage target must be in (0, 1), got {}", req.outage_target));
    }
    if req.rtt_slots.is_empty() {
        return Err("at least one flow's RTT is needed".into());
    }
    if req.rtt_slots.contains(&0) {
        return Err("every RTT must be at least 1 slot".into());
    }
    let n = req.rtt_slots.len();
    let shares = match &req.shares {
        Some(s) => {
            if s.len() != n {
                return Err(format!("{n} RTTs but {} shares", s.len()));
            }
            s.clone()
        }
        None => vec![1.0 / n as f64; n],
    };
    // Sort by RTT (stable: equal RTTs keep their order) and remember where each flow came from.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| req.rtt_slots[i]);
    let flows =
        Flows::new(order.iter().map(|&i| req.rtt_slots[i]).collect(), order.iter().map(|&i| shares[i]).collect())?;
    check_size(flows.max_rtt(), req.delay_bound_slots)?;
    let ch = &req.channel;
    let d = req.delay_bound_slots;
    let eps = req.outage_target;

    let (max_sum, sorted_windows, outage_at, outage_next) = if n == 1 {
        let r = flows.max_rtt();
        let w = w_max(ch, r, d, eps);
        if w == 0 {
            return Err(format!("no window meets the outage target {eps} (even W = 1 misses it)"));
        }
        (w, vec![w], outage(ch, r, d, w), outage(ch, r, d, w + 1))
    } else {
        let s = s_max(ch, &flows, d, eps);
        if s == 0 {
            return Err(format!("no window sum meets the outage target {eps}"));
        }
        let w = allocate(ch, &flows, s, req.rounding)?;
        let allocated: u32 = w.iter().sum();
        (s, w, multi_outage(ch, &flows, d, allocated), multi_outage(ch, &flows, d, s + 1))
    };
    let window_sum: u32 = sorted_windows.iter().sum();
    let exact_sorted = share_windows(ch, &flows, window_sum as f64);
    let p_e = ch.error_rate();
    let mut windows = vec![0; n];
    let mut exact = vec![0.0; n];
    for (k, &i) in order.iter().enumerate() {
        windows[i] = sorted_windows[k];
        exact[i] = exact_sorted[k];
    }
    Ok(Selection {
        alpha: alpha_for_beta(req.beta),
        beta: req.beta,
        error_rate: p_e,
        windows,
        exact_windows: exact,
        throughput_pkt_per_slot: shares.iter().map(|p| (1.0 - p_e) * p).collect(),
        shares,
        max_window_sum: max_sum,
        window_sum,
        buffer_packets: window_sum,
        outage: outage_at,
        outage_next,
        overflow_loss: 0.0,
        full_utilization: window_sum >= flows.max_rtt(),
        wired_loss_window: (flows.max_rtt() as f64 / req.beta).ceil() as u32,
    })
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "alpha {:.6} beta {} windows {:?} (S {} of S_max {}) outage {:.6e}",
            self.alpha, self.beta, self.windows, self.window_sum, self.max_window_sum, self.outage
        )
    }
}
