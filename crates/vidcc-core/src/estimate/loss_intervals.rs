//! Average loss interval and loss event rate of TFRC, RFC 5348 §5.4 (optional §5.5 history
//! discounting).
//!
//! A loss interval is the number of packets between the starts of two consecutive loss events
//! (RFC 5348 §5.3). I_0 is the open interval since the most recent loss event, I_1..I_n the
//! closed ones, most recent first. With n = 8 and weights (§5.4)
//! `w_i = 1 for i < n/2, else 2(n−i)/(n+2)` = (1, 1, 1, 1, 0.8, 0.6, 0.4, 0.2):
//!
//! ```text
//! I_tot0 = Σ_{i=0}^{k−1} I_i·w_i      I_tot1 = Σ_{i=1}^{k} I_i·w_{i−1}      W_tot = Σ_{i=0}^{k−1} w_i
//! I_mean = max(I_tot0, I_tot1) / W_tot          p = 1 / I_mean
//! ```
//!
//! k is the number of closed intervals, at most n. With fewer than n closed intervals only
//! those are used, with the first k weights. This is the rfc3448bis (RFC 5348) reading, also
//! implemented by Linux DCCP `tfrc_lh_calc_i_mean`. Taking the max means the open interval
//! counts only when it raises the average. Without any closed interval there is no average
//! ([`LossIntervals::average`] is `None`, p = 0). The first closed interval after the first loss
//! is normally synthesised by the protocol (RFC 5348 §6.3.1, see
//! [`super::tcp_model::rfc5348_inverse_p`]) and passed to [`LossIntervals::push_interval`].
//!
//! History discounting (§5.5, off by default, `LossIntervalsConfig::history_discounting`): when
//! the open interval is long, older intervals are weighted down by a general discount factor:
//!
//! ```text
//! I_mean_closed = Σ_{i=1}^{k} I_i·w_{i−1}·DF_i / Σ_{i=1}^{k} w_{i−1}·DF_i
//! DF = max(THRESHOLD, 2·I_mean_closed / I_0)   if I_0 > 2·I_mean_closed,   else 1
//! I_tot0 = I_0·w_0 + Σ_{i=1}^{k−1} I_i·w_i·DF_i·DF      W_tot0 = w_0 + Σ_{i=1}^{k−1} w_i·DF_i·DF
//! I_tot1 = Σ_{i=1}^{k} I_i·w_{i−1}·DF_i               W_tot1 = Σ_{i=1}^{k} w_{i−1}·DF_i
//! p = min(W_tot0/I_tot0, W_tot1/I_tot1)
//! ```
//!
//! When a loss event closes I_0, the DF in force (computed with the closing length) becomes
//! permanent: `DF_i ← DF·DF_i` for the older intervals, and the newly closed interval gets
//! `DF_1 = 1` (RFC 3448 §5.5 with erratum 1459; ns-2 `tfrc-sink.cc` `est_loss_WALI` does the same).
//! THRESHOLD defaults to 0.5 (ns-2 `minDiscountRatio_`), configurable as
//! `discount_threshold`. "I_mean" inside the DF rule is taken over the closed intervals with
//! their DF_i, as ns-2 does.
//!
//! Interval lengths are whole packets (`u64`). Averages are `f64`.
//! Deviation: `loss_event_rate` is capped at 1, because a zero-length interval (a caller error)
//! would otherwise give p = ∞.

use std::collections::VecDeque;

/// Number of closed intervals averaged (RFC 5348 §5.4: n = 8).
pub const N_INTERVALS: usize = 8;

/// RFC 5348 §5.4 weights w_0..w_7 for n = 8.
pub const WEIGHTS: [f64; N_INTERVALS] = [1.0, 1.0, 1.0, 1.0, 0.8, 0.6, 0.4, 0.2];

/// Options of [`LossIntervals`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossIntervalsConfig {
    /// RFC 5348 §5.5 history discounting; default off.
    pub history_discounting: bool,
    /// Lower bound THRESHOLD on the discount factor; default 0.5.
    pub discount_threshold: f64,
}

impl Default for LossIntervalsConfig {
    fn default() -> Self {
        LossIntervalsConfig { history_discounting: false, discount_threshold: 0.5 }
    }
}

/// Loss interval history: the open interval I_0 and up to n closed ones.
#[derive(Clone, Debug, PartialEq)]
pub struct LossIntervals {
    config: LossIntervalsConfig,
    /// I_0, in packets.
    open: u64,
    /// (I_i, DF_i) for i = 1..=k, most recent first.
    closed: VecDeque<(u64, f64)>,
}

impl Default for LossIntervals {
    fn default() -> Self {
        Self::new()
    }
}

/// Weighted sums of one §5.4/§5.5 evaluation.
struct Sums {
    i_tot0: f64,
    w_tot0: f64,
    i_tot1: f64,
    w_tot1: f64,
}

impl LossIntervals {
    /// Plain RFC 5348 §5.4 averaging (no discounting).
    pub fn new() -> Self {
        Self::with_config(LossIntervalsConfig::default())
    }

    pub fn with_config(config: LossIntervalsConfig) -> Self {
        LossIntervals { config, open: 0, closed: VecDeque::with_capacity(N_INTERVALS + 1) }
    }

    pub fn config(&self) -> &LossIntervalsConfig {
        &self.config
    }

    /// One more packet in the open interval I_0.
    pub fn on_packet(&mut self) {
        self.open = self.open.saturating_add(1);
    }

    /// A new loss event: the open interval closes with its current length and a new, empty
    /// open interval starts. (Whether the lost packet counts in the new interval is the caller's
    /// choice; RFC 5348 §5.3 starts an interval at the first lost packet.)
    pub fn on_loss_event(&mut self) {
        self.push_interval(self.open);
    }

    /// Closes the open interval with length `len_packets`; it becomes I_1, older ones shift, the
    /// oldest beyond n is dropped, and the open interval restarts at 0. With discounting, the
    /// discount factor computed for an open interval of `len_packets` is made permanent first.
    pub fn push_interval(&mut self, len_packets: u64) {
        if self.config.history_discounting {
            let df = self.general_discount_for(len_packets);
            // §5.5: DF_i ← DF·DF_i for the older intervals; the one closing now keeps DF = 1.
            for (_, df_i) in self.closed.iter_mut() {
                *df_i *= df;
            }
        }
        self.closed.push_front((len_packets, 1.0));
        self.closed.truncate(N_INTERVALS);
        self.open = 0;
    }

    /// Sets the length of the open interval I_0 (for callers that count by sequence numbers).
    pub fn set_open(&mut self, len_packets: u64) {
        self.open = len_packets;
    }

    /// I_0.
    pub fn open(&self) -> u64 {
        self.open
    }

    /// Closed intervals I_1.., most recent first.
    pub fn closed(&self) -> impl Iterator<Item = u64> + '_ {
        self.closed.iter().map(|&(len, _)| len)
    }

    /// Forgets all history.
    pub fn reset(&mut self) {
        self.open = 0;
        self.closed.clear();
    }

    /// §5.5 general discount factor DF for an open interval of `i0` packets (1 when discounting
    /// is off or there is no closed interval).
    fn general_discount_for(&self, i0: u64) -> f64 {
        if !self.config.history_discounting || self.closed.is_empty() {
            return 1.0;
        }
        let (i_tot1, w_tot1) = self
            .closed
            .iter()
            .zip(WEIGHTS.iter())
            .fold((0.0, 0.0), |(it, wt), (&(len, df_i), &w)| (it + len as f64 * w * df_i, wt + w * df_i));
        if w_tot1 <= 0.0 {
            return 1.0;
        }
        let i_mean_closed = i_tot1 / w_tot1;
        let i0 = i0 as f64;
        // DF = 2·I_mean/I_0 if I_0 > 2·I_mean, bounded below by THRESHOLD.
        if i0 > 2.0 * i_mean_closed {
            (2.0 * i_mean_closed / i0).max(self.config.discount_threshold)
        } else {
            1.0
        }
    }

    /// The general discount factor DF currently in force (1 without discounting).
    pub fn general_discount(&self) -> f64 {
        self.general_discount_for(self.open)
    }

    fn sums(&self) -> Sums {
        let k = self.closed.len();
        let df = self.general_discount();
        let mut s = Sums { i_tot0: self.open as f64 * WEIGHTS[0], w_tot0: WEIGHTS[0], i_tot1: 0.0, w_tot1: 0.0 };
        for (j, &(len, df_i)) in self.closed.iter().enumerate() {
            // Closed interval I_i with i = j + 1.
            let i = j + 1;
            let len = len as f64;
            if i < k {
                // I_tot0 over i = 1..k−1 with w_i (discounted by DF_i·DF).
                s.i_tot0 += len * WEIGHTS[i] * df_i * df;
                s.w_tot0 += WEIGHTS[i] * df_i * df;
            }
            // I_tot1 over i = 1..k with w_{i−1} (discounted by DF_i).
            s.i_tot1 += len * WEIGHTS[i - 1] * df_i;
            s.w_tot1 += WEIGHTS[i - 1] * df_i;
        }
        s
    }

    /// Average loss interval I_mean in packets; `None` before the first closed interval.
    pub fn average(&self) -> Option<f64> {
        if self.closed.is_empty() {
            return None;
        }
        let s = self.sums();
        // max(I_tot0/W_tot0, I_tot1/W_tot1); without discounting W_tot0 = W_tot1 = W_tot.
        Some((s.i_tot0 / s.w_tot0).max(s.i_tot1 / s.w_tot1))
    }

    /// Loss event rate p = 1/I_mean; 0 before any loss, at most 1.
    pub fn loss_event_rate(&self) -> f64 {
        match self.average() {
            None => 0.0,
            Some(avg) if avg <= 1.0 => 1.0,
            Some(avg) => 1.0 / avg,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn with(closed_oldest_first: &[u64], open: u64, cfg: LossIntervalsConfig) -> LossIntervals {
        let mut li = LossIntervals::with_config(cfg);
        for &len in closed_oldest_first {
            li.push_interval(len);
        }
        li.set_open(open);
        li
    }

    fn plain(closed_oldest_first: &[u64], open: u64) -> LossIntervals {
        with(closed_oldest_first, open, LossIntervalsConfig::default())
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn weights_follow_the_rfc_formula() {
        // w_i = 1 for i < n/2, else 2(n − i)/(n + 2) with n = 8: i=4 → 8/10, 5 → 6/10, 6 → 4/10, 7 → 2/10
        for (i, &w) in WEIGHTS.iter().enumerate() {
            let expect = if i < 4 { 1.0 } else { 2.0 * (8 - i) as f64 / 10.0 };
            assert!(close(w, expect), "w_{i}");
        }
    }

    #[test]
    fn no_loss_means_no_average() {
        let mut li = LossIntervals::new();
        for _ in 0..1000 {
            li.on_packet();
        }
        assert_eq!(li.average(), None);
        assert_eq!(li.loss_event_rate(), 0.0);
    }

    #[test]
    fn steady_intervals_and_a_long_open_interval() {
        let li = plain(&[100; 8], 100);
        // I_tot0 = 100·(1+1+1+1+0.8+0.6+0.4+0.2 = 6) = 600, I_tot1 = 600, W_tot = 6 → 100
        assert_eq!(li.average(), Some(100.0));
        assert!(close(li.loss_event_rate(), 0.01));
        let li = plain(&[100; 8], 400);
        // I_tot0 = 400·1 + 100·(1+1+1+0.8+0.6+0.4+0.2 = 5) = 900 → 900/6 = 150 > I_tot1/6 = 100
        assert!(close(li.average().unwrap(), 150.0));
        let li = plain(&[100; 8], 10);
        // I_tot0 = 10 + 500 = 510 → 85 < 100: a short open interval does not lower the average
        assert_eq!(li.average(), Some(100.0));
    }

    #[test]
    fn fewer_than_n_intervals_use_the_first_k_weights() {
        // k = 1, I_1 = 50: I_tot0 = I_0·w_0 = 10, I_tot1 = 50·w_0 = 50, W_tot = w_0 = 1 → 50
        assert_eq!(plain(&[50], 10).average(), Some(50.0));
        assert_eq!(plain(&[50], 80).average(), Some(80.0));
        // k = 2, I_1 = 50, I_2 = 100, I_0 = 80:
        // I_tot0 = 80 + 50 = 130, I_tot1 = 50 + 100 = 150, W_tot = 2 → 75
        assert_eq!(plain(&[100, 50], 80).average(), Some(75.0));
        // k = 5, I_1..I_5 = 10, 20, 30, 40, 50, I_0 = 0:
        // I_tot0 = 0 + 10 + 20 + 30 + 40·0.8 = 92;  I_tot1 = 10 + 20 + 30 + 40 + 50·0.8 = 140
        // W_tot = 1 + 1 + 1 + 1 + 0.8 = 4.8 → 140/4.8 = 29.1666…
        assert!(close(plain(&[50, 40, 30, 20, 10], 0).average().unwrap(), 140.0 / 4.8));
    }

    #[test]
    fn keeps_only_n_closed_intervals() {
        let mut li = plain(&[1000, 100, 100, 100, 100, 100, 100, 100], 0);
        // I_1..I_7 = 100, I_8 = 1000: I_tot1 = 100·(1+1+1+1+0.8+0.6+0.4 = 5.8) + 1000·0.2 = 780 → 780/6 = 130
        assert!(close(li.average().unwrap(), 130.0));
        li.push_interval(100);
        // The 1000 falls off: all eight are 100
        assert_eq!(li.closed().count(), 8);
        assert_eq!(li.average(), Some(100.0));
    }

    #[test]
    fn on_packet_and_on_loss_event_count_intervals() {
        let mut li = LossIntervals::new();
        for _ in 0..30 {
            li.on_packet();
        }
        li.on_loss_event();
        for _ in 0..10 {
            li.on_packet();
        }
        assert_eq!(li.closed().collect::<Vec<_>>(), vec![30]);
        assert_eq!(li.open(), 10);
        // k = 1: max(10, 30) = 30, p = 1/30
        assert_eq!(li.average(), Some(30.0));
        assert!(close(li.loss_event_rate(), 1.0 / 30.0));
    }

    #[test]
    fn history_discounting_by_hand() {
        let cfg = LossIntervalsConfig { history_discounting: true, ..Default::default() };
        let mut li = with(&[100; 8], 400, cfg);
        // I_mean_closed = 600/6 = 100; I_0 = 400 > 200 → DF = 200/400 = 0.5 (≥ THRESHOLD 0.5)
        assert!(close(li.general_discount(), 0.5));
        // I_tot0 = 400·1 + 100·5·0.5 = 650, W_tot0 = 1 + 5·0.5 = 3.5 → 185.714…
        // I_tot1/W_tot1 = 600/6 = 100 → average 650/3.5
        assert!(close(li.average().unwrap(), 650.0 / 3.5));
        li.push_interval(400);
        li.set_open(100);
        // Closed: I_1 = 400 (DF_1 = 1), I_2..I_8 = 100 (DF_i = 0.5; the ninth 100 dropped)
        // I_tot1 = 400·1 + 100·0.5·(1+1+1+0.8+0.6+0.4+0.2 = 5) = 650, W_tot1 = 1 + 0.5·5 = 3.5
        // I_0 = 100 < 2·185.7 → DF = 1
        // I_tot0 = 100 + 400 + 100·0.5·(1+1+0.8+0.6+0.4+0.2 = 4) = 700, W_tot0 = 1 + 1 + 0.5·4 = 4 → 175
        // average = max(175, 185.714…) = 650/3.5
        assert!(close(li.general_discount(), 1.0));
        assert!(close(li.average().unwrap(), 650.0 / 3.5));
        // Without discounting the same history averages (100 + 400 + 400)/6 = 150
        assert!(close(plain(&[100, 100, 100, 100, 100, 100, 100, 100, 400], 100).average().unwrap(), 150.0));
    }

    #[test]
    fn history_discount_is_bounded_by_threshold() {
        let cfg = LossIntervalsConfig { history_discounting: true, discount_threshold: 0.5 };
        let li = with(&[100; 8], 1000, cfg);
        // 2·100/1000 = 0.2 < 0.5 → DF = 0.5
        // I_tot0 = 1000 + 100·5·0.5 = 1250, W_tot0 = 3.5 → 357.14…   (plain: 1500/6 = 250)
        assert!(close(li.general_discount(), 0.5));
        assert!(close(li.average().unwrap(), 1250.0 / 3.5));
        assert!(close(plain(&[100; 8], 1000).average().unwrap(), 250.0));
    }

    proptest! {
        #[test]
        fn average_lies_within_the_intervals(closed in proptest::collection::vec(1u64..10_000, 1..12), open in 0u64..20_000, disc in any::<bool>()) {
            let cfg = LossIntervalsConfig { history_discounting: disc, ..Default::default() };
            let li = with(&closed, open, cfg);
            let used: Vec<u64> = li.closed().collect();
            let lo = *used.iter().min().unwrap() as f64;
            let hi = (*used.iter().max().unwrap()).max(open) as f64;
            let avg = li.average().unwrap();
            // A weighted mean of I_1..I_k is at least their minimum; nothing exceeds the largest.
            prop_assert!(avg >= lo * (1.0 - 1e-12) && avg <= hi * (1.0 + 1e-12));
            let p = li.loss_event_rate();
            prop_assert!(p > 0.0 && p <= 1.0);
        }
    }
}
