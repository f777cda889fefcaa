//! Interarrival jitter of RFC 3550 §6.4.1, computed in integer nanoseconds.
//!
//! For packets i and j with send times S and arrival times R (eq. in §6.4.1):
//!
//! ```text
//! D(i,j) = (Rj − Ri) − (Sj − Si) = (Rj − Sj) − (Ri − Si)
//! J ← J + (|D(i−1,i)| − J)/16
//! ```
//!
//! Fixed point as in RFC 3550 Appendix A.8 (second form): the state is `J·16` and each update
//! is `J16 += |D| − ((J16 + 8) >> 4)`; the reported jitter is `J16 >> 4` (truncated, as in A.8).
//! Units here are nanoseconds instead of RTP timestamp units, so there is no rounding to a media
//! clock. `D` is consecutive in *arrival order* (A.8 computes it per received packet), and
//! the sender and receiver clocks need not be synchronised: only differences of transit times
//! enter. Arithmetic is `i128`/`u128`, so no pair of `u64` instants can overflow it; reported
//! values saturate to `u64`/`i64`.
//!
//! The signed last difference [`Rfc3550Jitter::last_d`] is also the D(i,j) used by the DVRC paper.
//! No parameters (the gain 1/16 is fixed by the RFC).

use crate::time::{Duration, Instant};

/// RFC 3550 interarrival jitter estimator.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rfc3550Jitter {
    /// Transit time R − S of the previous packet, ns (signed: clocks may be unsynchronised).
    last_transit_ns: Option<i128>,
    /// The last D(i−1, i), ns.
    last_d_ns: Option<i128>,
    /// Jitter scaled by 16 (RFC 3550 A.8), ns·16.
    jitter_x16_ns: u128,
}

impl Rfc3550Jitter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a packet sent at `send_time` (sender clock) and received at `arrival`.
    pub fn on_packet(&mut self, send_time: Instant, arrival: Instant) {
        let transit_ns = arrival.as_nanos() as i128 - send_time.as_nanos() as i128;
        if let Some(prev) = self.last_transit_ns {
            // D(i−1, i) = (R_i − S_i) − (R_{i−1} − S_{i−1})
            let d_ns = transit_ns - prev;
            self.last_d_ns = Some(d_ns);
            // A.8: jitter += d − ((jitter + 8) >> 4), jitter kept ×16; |d| < 2^65 so no overflow.
            self.jitter_x16_ns = self.jitter_x16_ns + d_ns.unsigned_abs() - ((self.jitter_x16_ns + 8) >> 4);
        }
        self.last_transit_ns = Some(transit_ns);
    }

    /// The current jitter estimate J (zero before two packets).
    pub fn jitter(&self) -> Duration {
        Duration::from_nanos((self.jitter_x16_ns >> 4).min(u64::MAX as u128) as u64)
    }

    /// The last D(i−1, i) in signed nanoseconds (saturated to `i64`); `None` before two packets.
    pub fn last_d(&self) -> Option<i64> {
        self.last_d_ns.map(|d| d.clamp(i64::MIN as i128, i64::MAX as i128) as i64)
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
    fn hand_computed_sequence() {
        let mut j = Rfc3550Jitter::new();
        // sent every 20 ms; transit 100, 105, 100, 100 ms
        j.on_packet(at_ms(0), at_ms(100));
        assert_eq!((j.jitter(), j.last_d()), (Duration::ZERO, None));
        j.on_packet(at_ms(20), at_ms(125));
        // D = 105 − 100 = +5 ms; J16 = 0 + 5_000_000 − ((0 + 8) >> 4 = 0) = 5_000_000
        // J = 5_000_000 >> 4 = 312_500 ns (= 5 ms / 16)
        assert_eq!(j.last_d(), Some(5_000_000));
        assert_eq!(j.jitter(), Duration::from_nanos(312_500));
        j.on_packet(at_ms(40), at_ms(140));
        // D = −5 ms; (5_000_000 + 8) >> 4 = 312_500; J16 = 5_000_000 + 5_000_000 − 312_500 = 9_687_500
        // J = 9_687_500 >> 4 = 605_468 ns (float form: 312.5 + (5000 − 312.5)/16 = 605.46875 µs)
        assert_eq!(j.last_d(), Some(-5_000_000));
        assert_eq!(j.jitter(), Duration::from_nanos(605_468));
        j.on_packet(at_ms(60), at_ms(160));
        // D = 0; (9_687_500 + 8) >> 4 = 605_469; J16 = 9_687_500 − 605_469 = 9_082_031
        // J = 9_082_031 >> 4 = 567_626 ns (float form: 605.46875 · 15/16 = 567.627 µs)
        assert_eq!(j.last_d(), Some(0));
        assert_eq!(j.jitter(), Duration::from_nanos(567_626));
    }

    #[test]
    fn unsynchronised_clocks_and_extremes() {
        let mut j = Rfc3550Jitter::new();
        // Sender clock far ahead of the receiver's: transit is negative, only differences count.
        j.on_packet(Instant::from_nanos(1_000_000_000), Instant::from_nanos(10));
        j.on_packet(Instant::from_nanos(1_000_000_160), Instant::from_nanos(10 + 160 + 16));
        // D = 16 ns; J16 = 16 → J = 1 ns
        assert_eq!(j.last_d(), Some(16));
        assert_eq!(j.jitter(), Duration::from_nanos(1));
        // Extreme instants saturate instead of overflowing.
        j.on_packet(Instant::ZERO, Instant::MAX);
        j.on_packet(Instant::MAX, Instant::ZERO);
        assert_eq!(j.last_d(), Some(i64::MIN));
        assert!(j.jitter() > Duration::ZERO);
    }

    proptest! {
        #[test]
        fn jitter_is_bounded_by_largest_difference(pairs in proptest::collection::vec((0u64..1u64 << 40, 0u64..1u64 << 40), 2..100)) {
            let mut j = Rfc3550Jitter::new();
            let mut max_abs_d: u64 = 0;
            let mut prev: Option<i128> = None;
            for &(s, r) in &pairs {
                j.on_packet(Instant::from_nanos(s), Instant::from_nanos(r));
                let t = r as i128 - s as i128;
                if let Some(p) = prev {
                    max_abs_d = max_abs_d.max((t - p).unsigned_abs() as u64);
                    prop_assert_eq!(j.last_d(), Some((t - p) as i64));
                }
                prev = Some(t);
            }
            // J is a running average of |D| values: never above the largest one (+1 ns rounding).
            prop_assert!(j.jitter().as_nanos() <= max_abs_d + 1);
        }
    }
}
