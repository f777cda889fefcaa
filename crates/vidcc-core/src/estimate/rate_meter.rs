//! Receive-rate meters.
//!
//! * [`RateMeter`] — sliding window: `rate(now) = 8 · bytes received in (now − window, now] /
//!   window`. Used for DVRC's measured receiving rate 𝓜 (docs/papers/dvrc.md §1.1.6 [D]: a window
//!   of one EstimatedRTT, at least 100 ms). Samples are `(Instant, bytes)` in a `VecDeque`.
//!   Arrivals at the same instant are merged, and samples at or before `now − window` are evicted
//!   when new bytes arrive. The divisor is always the full window, so during the first window after
//!   start the rate ramps up from zero rather than being extrapolated from a short span. If the
//!   window is enlarged with [`RateMeter::set_window`], bytes already evicted are not restored, so
//!   the rate underestimates until one new window has passed.
//! * [`EpochRate`] — everything received since a start instant, divided by the time elapsed:
//!   DVRC's receiving rate at the end of an epoch (§1.1.6) and TFRC's X_recv, the rate received
//!   since the last feedback report (RFC 5348 §6.2).
//!
//! Time must be non-decreasing across calls. An earlier `now` is treated as the latest instant
//! already seen, so a misbehaving driver cannot make the window go backwards. Rates round
//! down to whole bit/s ([`DataRate::from_size_per`]).
//! Parameters: the window (no default; the protocol chooses it).

use std::collections::VecDeque;

use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};

/// Sliding-window receive-rate meter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RateMeter {
    window: Duration,
    /// (arrival instant, bytes at that instant), oldest first, instants strictly increasing.
    samples: VecDeque<(Instant, u64)>,
    /// Sum of the bytes in `samples`.
    total_bytes: u64,
}

impl RateMeter {
    pub fn new(window: Duration) -> Self {
        RateMeter { window, samples: VecDeque::new(), total_bytes: 0 }
    }

    pub fn window(&self) -> Duration {
        self.window
    }

    /// Changes the window length (e.g. to follow the smoothed RTT).
    pub fn set_window(&mut self, window: Duration) {
        self.window = window;
    }

    /// A sample at `t` is inside the window ending at `now` iff `now − window < t ≤ now`,
    /// i.e. `now − t < window`.
    fn in_window(&self, t: Instant, now: Instant) -> bool {
        now.saturating_since(t) < self.window
    }

    /// Records `bytes` received at `now`.
    pub fn on_bytes(&mut self, now: Instant, bytes: u64) {
        let now = match self.samples.back() {
            Some(&(last, _)) => now.max(last),
            None => now,
        };
        match self.samples.back_mut() {
            Some((t, b)) if *t == now => *b = b.saturating_add(bytes),
            _ => self.samples.push_back((now, bytes)),
        }
        self.total_bytes = self.total_bytes.saturating_add(bytes);
        while let Some(&(t, b)) = self.samples.front() {
            if self.in_window(t, now) {
                break;
            }
            self.samples.pop_front();
            self.total_bytes -= b;
        }
    }

    /// Bytes received in `(now − window, now]`.
    pub fn bytes_in_window(&self, now: Instant) -> DataSize {
        // Samples after `now` (a query in the past) are not counted either.
        let stale: u64 =
            self.samples.iter().filter(|&&(t, _)| !self.in_window(t, now) || t > now).map(|&(_, b)| b).sum();
        DataSize::from_bytes(self.total_bytes - stale)
    }

    /// `8 · bytes_in_window(now) / window`, rounded down; zero for a zero window.
    pub fn rate(&self, now: Instant) -> DataRate {
        DataRate::from_size_per(self.bytes_in_window(now), self.window)
    }

    /// Forgets all samples.
    pub fn reset(&mut self) {
        self.samples.clear();
        self.total_bytes = 0;
    }
}

/// Bytes received since a start instant, and the average rate over that epoch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EpochRate {
    start: Instant,
    bytes: u64,
}

impl EpochRate {
    /// An epoch starting at `start` with nothing received yet.
    pub fn new(start: Instant) -> Self {
        EpochRate { start, bytes: 0 }
    }

    pub fn on_bytes(&mut self, bytes: u64) {
        self.bytes = self.bytes.saturating_add(bytes);
    }

    pub fn start(&self) -> Instant {
        self.start
    }

    pub fn bytes(&self) -> DataSize {
        DataSize::from_bytes(self.bytes)
    }

    /// `8 · bytes / (now − start)`, rounded down; zero if no time has elapsed.
    pub fn rate(&self, now: Instant) -> DataRate {
        DataRate::from_size_per(self.bytes(), now.saturating_since(self.start))
    }

    /// Ends the epoch at `now`: returns its rate and starts a new, empty epoch at `now`.
    pub fn restart(&mut self, now: Instant) -> DataRate {
        let r = self.rate(now);
        *self = EpochRate::new(now);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn at_ms(ms: u64) -> Instant {
        Instant::from_nanos(ms * 1_000_000)
    }

    #[test]
    fn sliding_window_by_hand_with_exact_boundaries() {
        let mut m = RateMeter::new(Duration::from_millis(100));
        m.on_bytes(at_ms(0), 1000);
        m.on_bytes(at_ms(50), 1000);
        // window (−50, 50] holds both: 2000 B · 8 / 0.1 s = 160 000 bit/s
        assert_eq!(m.rate(at_ms(50)).as_bps(), 160_000);
        // at exactly 100 ms the sample at 0 is on the open edge (0, 100]: excluded
        assert_eq!(m.rate(at_ms(100)).as_bps(), 80_000);
        // 1 ns earlier it is still in: (−0.000001, 99.999999]
        assert_eq!(m.rate(Instant::from_nanos(100_000_000 - 1)).as_bps(), 160_000);
        m.on_bytes(at_ms(100), 1000);
        // on_bytes at 100 ms evicted the sample at 0 (boundary): two samples remain
        assert_eq!(m.samples.len(), 2);
        // (0, 100]: 50 ms and 100 ms → 2000 B → 160 kbit/s
        assert_eq!(m.rate(at_ms(100)).as_bps(), 160_000);
        // (50, 150]: only 100 ms → 1000 B → 80 kbit/s
        assert_eq!(m.rate(at_ms(150)).as_bps(), 80_000);
        // (100, 200]: empty
        assert_eq!(m.rate(at_ms(200)), DataRate::ZERO);
        assert_eq!(m.bytes_in_window(at_ms(150)).as_bytes(), 1000);
    }

    #[test]
    fn same_instant_merges_and_time_never_goes_back() {
        let mut m = RateMeter::new(Duration::from_millis(10));
        m.on_bytes(at_ms(5), 100);
        m.on_bytes(at_ms(5), 150);
        assert_eq!(m.samples.len(), 1);
        // An earlier `now` is booked at 5 ms.
        m.on_bytes(at_ms(1), 50);
        assert_eq!(m.samples.len(), 1);
        // 300 B · 8 / 0.01 s = 240 000 bit/s
        assert_eq!(m.rate(at_ms(5)).as_bps(), 240_000);
        m.set_window(Duration::ZERO);
        assert_eq!(m.rate(at_ms(5)), DataRate::ZERO);
    }

    #[test]
    fn epoch_rate_by_hand() {
        let mut e = EpochRate::new(at_ms(1000));
        assert_eq!(e.rate(at_ms(1000)), DataRate::ZERO); // no time elapsed
        e.on_bytes(1500);
        e.on_bytes(500);
        // 2000 B · 8 / 0.25 s = 64 000 bit/s
        assert_eq!(e.rate(at_ms(1250)).as_bps(), 64_000);
        assert_eq!(e.restart(at_ms(1250)).as_bps(), 64_000);
        assert_eq!((e.start(), e.bytes().as_bytes()), (at_ms(1250), 0));
        e.on_bytes(3);
        // 3 B · 8 / 0.007 s = 3428.57 → 3428 bit/s (rounded down)
        assert_eq!(e.rate(at_ms(1257)).as_bps(), 3428);
    }

    proptest! {
        #[test]
        fn window_sum_matches_a_direct_count(steps in proptest::collection::vec((0u64..30, 0u64..2000), 1..100), window_ms in 1u64..50) {
            let window = Duration::from_millis(window_ms);
            let mut m = RateMeter::new(window);
            let mut log = Vec::new();
            let mut now = 0u64;
            for (dt, bytes) in steps {
                now += dt * 1_000_000;
                m.on_bytes(Instant::from_nanos(now), bytes);
                log.push((now, bytes));
                let direct: u64 = log.iter().filter(|&&(t, _)| now - t < window.as_nanos()).map(|&(_, b)| b).sum();
                prop_assert_eq!(m.bytes_in_window(Instant::from_nanos(now)).as_bytes(), direct);
            }
        }
    }
}
