//! TCP Westwood+ (Grieco & Mascolo, "Performance evaluation and comparison of Westwood+, New
//! Reno, and Vegas TCP congestion control", ACM CCR 34(2), 2004; docs/papers/dvrc.md §1.3 and A10):
//! Reno whose loss response sets ssthresh from an end-to-end bandwidth estimate instead of
//! halving.
//!
//! Bandwidth estimate (constants and structure of Linux `net/ipv4/tcp_westwood.c`):
//! - One sample per RTT: b_k = d_k / Δ_k, where d_k counts the segments acknowledged during the
//!   k-th window and Δ_k is its length. A window closes at the first ACK that arrives more than
//!   max(RTT, 50 ms) after it opened (`TCP_WESTWOOD_RTT_MIN`); that ACK's segments count in the
//!   next window. RTT is the latest sample from the timestamp echo.
//! - A duplicate ACK counts one segment (it reports a segment that left the network); the
//!   cumulative ACK that later covers it counts only what was not counted yet
//!   (`westwood_acked_count`).
//! - Low-pass filter, two cascaded EWMAs of gain 1/8:
//!   `bw_ns ← (7·bw_ns + b_k)/8`, `BWE ← (7·BWE + bw_ns)/8`; the first sample initialises both.
//! - RTT_min: the smallest RTT sample; after a timeout the next sample replaces it (Linux
//!   `reset_rtt_min`).
//!
//! Loss response (docs/papers/dvrc.md §1.3, after Grieco & Mascolo 2004), with s = segment size:
//! - 3 duplicate ACKs: ssthresh = max(2, BWE·RTT_min/s); cwnd = min(cwnd, ssthresh); then
//!   Reno fast retransmit/recovery (inflation, exit on the first new ACK).
//! - Timeout: ssthresh = max(2, BWE·RTT_min/s); cwnd = 1.
//! - Otherwise Reno: slow start, congestion avoidance.
//!
//! BWE is kept in segments per second, so BWE·RTT_min/s is simply BWE·RTT_min in segments.
//!
//! Parameters: none beyond the shared ones (the 50 ms window floor and the 1/8 gains are fixed,
//! as in Linux). Deviations: the estimate is `f64` (Linux truncates to integer bytes per jiffy);
//! ssthresh is rounded down after adding 1e-9 so that an exact product such as 10.0 computed
//! as 9.999… still gives 10; Linux additionally resets cwnd = ssthresh = BWE·RTT_min when fast
//! recovery completes (`CA_EVENT_COMPLETE_CWR`), which the paper's algorithm and the DVRC paper
//! page do not, so it is not done here; the c3lab ns-2 code's constants may differ (docs/papers/dvrc.md A10).

use crate::{Duration, Instant};

use super::reno::Reno;
use super::sender::{AckSample, CongestionControl, PartialAck, Window};

/// Shortest bandwidth-sampling window (Linux `TCP_WESTWOOD_RTT_MIN`, HZ/20).
pub const MIN_SAMPLE_WINDOW: Duration = Duration::from_millis(50);

/// Westwood+ state: the bandwidth filter and RTT_min.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WestwoodPlus {
    /// First EWMA stage, segments/s (Linux `bw_ns_est`).
    bw_ns_est: f64,
    /// Filtered estimate, segments/s (Linux `bw_est`).
    bw_est: f64,
    /// Segments acknowledged in the current window (Linux `bk`).
    bk: u64,
    /// Segments already counted through duplicate ACKs (Linux `accounted`).
    accounted: u64,
    window_start: Option<Instant>,
    rtt: Option<Duration>,
    rtt_min: Option<Duration>,
    reset_rtt_min: bool,
    samples: u64,
}

impl WestwoodPlus {
    pub fn new() -> Self {
        Self::default()
    }

    /// Filtered bandwidth estimate BWE in segments per second (0 before the first sample).
    pub fn bandwidth_segments_per_sec(&self) -> f64 {
        self.bw_est
    }

    pub fn rtt_min(&self) -> Option<Duration> {
        self.rtt_min
    }

    /// Bandwidth samples taken so far (one per RTT window).
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// max(2, BWE·RTT_min / segment size), in segments.
    pub fn ssthresh(&self) -> f64 {
        let rtt_min_ns = self.rtt_min.map_or(0, Duration::as_nanos);
        // Multiply before dividing so that integer-valued inputs stay exact.
        let segments = self.bw_est * rtt_min_ns as f64 / 1e9;
        (segments + 1e-9).floor().max(2.0)
    }

    /// Linux `westwood_filter`: the two cascaded EWMAs of gain 1/8.
    fn filter(&mut self, sample: f64) {
        self.samples += 1;
        if self.bw_ns_est == 0.0 && self.bw_est == 0.0 {
            self.bw_ns_est = sample;
            self.bw_est = sample;
        } else {
            self.bw_ns_est = (7.0 * self.bw_ns_est + sample) / 8.0;
            self.bw_est = (7.0 * self.bw_est + self.bw_ns_est) / 8.0;
        }
    }

    /// Linux `westwood_acked_count`, in segments: duplicates count one segment each, and the
    /// cumulative ACK that follows them is credited only with what they did not already count.
    fn acked_count(&mut self, newly_acked: u64) -> u64 {
        let mut cumul = newly_acked;
        if cumul == 0 {
            self.accounted += 1;
            cumul = 1;
        }
        if cumul > 1 {
            if self.accounted >= cumul {
                self.accounted -= cumul;
                cumul = 1;
            } else {
                cumul -= self.accounted;
                self.accounted = 0;
            }
        }
        cumul
    }

    /// Linux `westwood_update_window`: close the window once it spans more than
    /// max(RTT, 50 ms) and turn its count into a sample.
    fn update_window(&mut self, now: Instant) {
        let start = *self.window_start.get_or_insert(now);
        let Some(rtt) = self.rtt else { return };
        let len = now.saturating_since(start);
        if len > rtt.max(MIN_SAMPLE_WINDOW) {
            // b_k = d_k / Δ_k in segments per second.
            self.filter(self.bk as f64 * 1e9 / len.as_nanos() as f64);
            self.bk = 0;
            self.window_start = Some(now);
        }
    }
}

impl CongestionControl for WestwoodPlus {
    fn on_ack(&mut self, ack: &AckSample) {
        if let Some(rtt) = ack.rtt {
            self.rtt = Some(rtt);
            self.rtt_min = match self.rtt_min {
                Some(m) if !self.reset_rtt_min => Some(m.min(rtt)),
                _ => Some(rtt),
            };
            self.reset_rtt_min = false;
        }
        self.update_window(ack.now);
        self.bk += self.acked_count(ack.newly_acked);
    }

    fn on_fast_retransmit(&mut self, w: &mut Window) {
        w.ssthresh = self.ssthresh();
        w.cwnd = w.cwnd.min(w.ssthresh);
    }

    fn on_timeout(&mut self, w: &mut Window) {
        w.ssthresh = self.ssthresh();
        w.cwnd = 1.0;
        self.reset_rtt_min = true;
    }

    fn partial_ack(&self) -> PartialAck {
        Reno.partial_ack()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ack(ms: u64, newly_acked: u64, rtt_ms: Option<u64>) -> AckSample {
        AckSample { now: Instant::from_nanos(ms * 1_000_000), newly_acked, rtt: rtt_ms.map(Duration::from_millis) }
    }

    #[test]
    fn ssthresh_from_a_hand_fed_ack_stream() {
        let mut w = WestwoodPlus::new();
        // RTT 100 ms throughout. 10 segments per ACK every 10 ms up to 100 ms, then 20.
        for k in 0..=10 {
            w.on_ack(&ack(10 * k, 10, Some(100)));
        }
        assert_eq!(w.samples(), 0, "the first window is still open at 100 ms");
        for k in 11..=22 {
            w.on_ack(&ack(10 * k, 20, Some(100)));
        }
        // Window 1: ACKs at 0..=100 ms, 110 segments / 0.11 s = 1000 seg/s.
        // Window 2: ACKs at 110..=210 ms, 220 segments / 0.11 s = 2000 seg/s, closed at 220 ms.
        // bw_ns = (7·1000 + 2000)/8 = 1125; BWE = (7·1000 + 1125)/8 = 1015.625 seg/s.
        assert_eq!(w.samples(), 2);
        assert_eq!(w.bandwidth_segments_per_sec(), 1015.625);
        // ssthresh = BWE · RTT_min = 1015.625 · 0.1 = 101.56 → 101 segments.
        assert_eq!(w.ssthresh(), 101.0);
        let mut win = Window { cwnd: 150.0, ssthresh: f64::INFINITY };
        w.on_fast_retransmit(&mut win);
        assert_eq!(win, Window { cwnd: 101.0, ssthresh: 101.0 });
        // Below ssthresh, cwnd is kept: Westwood+ does not cut a window the path can carry.
        let mut win = Window { cwnd: 40.0, ssthresh: f64::INFINITY };
        w.on_fast_retransmit(&mut win);
        assert_eq!(win, Window { cwnd: 40.0, ssthresh: 101.0 });
        w.on_timeout(&mut win);
        assert_eq!(win, Window { cwnd: 1.0, ssthresh: 101.0 });
    }

    #[test]
    fn windows_never_shorter_than_50_ms() {
        let mut w = WestwoodPlus::new();
        // RTT 10 ms: one segment per ms. The window must span more than 50 ms: it closes at
        // the ACK at 51 ms with 51 segments → 51 / 0.051 s = 1000 seg/s.
        for k in 0..=51 {
            w.on_ack(&ack(k, 1, Some(10)));
        }
        assert_eq!(w.samples(), 1);
        assert_eq!(w.bandwidth_segments_per_sec(), 1000.0);
        // RTT_min 10 ms → 10 segments.
        assert_eq!(w.ssthresh(), 10.0);
    }

    #[test]
    fn duplicate_acks_are_not_counted_twice() {
        let mut w = WestwoodPlus::new();
        assert_eq!(w.acked_count(0), 1);
        assert_eq!(w.acked_count(0), 1);
        assert_eq!(w.acked_count(0), 1);
        // The cumulative ACK covering the hole and the 3 reported segments: only the hole is new.
        assert_eq!(w.acked_count(4), 1);
        assert_eq!(w.acked_count(3), 3);
    }

    #[test]
    fn no_estimate_gives_the_floor_and_timeout_resets_rtt_min() {
        let mut w = WestwoodPlus::new();
        assert_eq!(w.ssthresh(), 2.0);
        w.on_ack(&ack(0, 1, Some(100)));
        w.on_ack(&ack(1, 1, Some(50)));
        assert_eq!(w.rtt_min(), Some(Duration::from_millis(50)));
        let mut win = Window { cwnd: 10.0, ssthresh: 20.0 };
        w.on_timeout(&mut win);
        assert_eq!(win, Window { cwnd: 1.0, ssthresh: 2.0 });
        w.on_ack(&ack(2, 1, Some(80)));
        assert_eq!(w.rtt_min(), Some(Duration::from_millis(80)));
    }
}
