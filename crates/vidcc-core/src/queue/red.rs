//! `Red`: Random Early Detection, as ns-2 `Queue/RED` (`queue/red.cc`, `REDQueue::enque`).
//!
//! Sources: S. Floyd and V. Jacobson, "Random Early Detection Gateways for Congestion
//! Avoidance", IEEE/ACM ToN 1(4), 1993 (§4 and Fig. 2); S. Floyd, "Recommendation on using the
//! 'gentle_' variant of RED" (2000); the ns-2.35 implementation, which this file follows where
//! the paper leaves a choice.
//!
//! On every arrival (before the packet joins the queue):
//! 1. Average: if the queue was idle since `t_idle`, first age the average as if
//!    m = ⌊(now − t_idle) · bandwidth / (8 · mean_packet_bytes)⌋ empty-queue packets had arrived,
//!    avg ← (1−w)^m · avg (paper §4, "idle time"); then avg ← (1−w) · avg + w · q, with q the
//!    queue the packet finds (packets, or bytes in byte mode). The average changes only here.
//! 2. Early drop, only if avg ≥ min_th and q > 1 (ns-2 never early-drops into a near-empty
//!    queue):
//!    - avg ≥ 2·max_th (gentle) or avg ≥ max_th (not gentle): "forced" drop of every arrival;
//!    - otherwise p_b = max_p · (avg − min_th)/(max_th − min_th) below max_th, and with gentle
//!      p_b = max_p + (1 − max_p) · (avg − max_th)/max_th between max_th and 2·max_th;
//!    - count = arrivals since the last drop, this one included (`count_bytes / mean_packet_bytes`,
//!      integer division, in byte mode). Without `wait` (paper eq. for p_a):
//!      p_a = p_b / (1 − count·p_b) if count·p_b < 1, else 1, so that the gap between early drops
//!      is (about) uniform on 1 … ⌈1/p_b⌉−1 arrivals. With `wait` (ns-2 `modify_p`): p_a = 0 while
//!      count·p_b < 1, p_b / (2 − count·p_b) while count·p_b < 2, else 1: the gap is (about) uniform
//!      on ⌈1/p_b⌉ … ⌈2/p_b⌉−1, never shorter than 1/p_b;
//!    - byte mode: p_a ← p_a · size / mean_packet_bytes (if p_a < 1), capped at 1;
//!    - the first arrival after avg climbs past min_th (or after the queue was near empty) is
//!      never early-dropped; it restarts count at 1 (ns-2 `edv_.old`).
//! 3. Physical buffer: an arrival that would overflow the [`Limit`] is dropped ("forced").
//! 4. Every drop, early or forced, resets count to 0.
//!
//! Parameters ([`RedParams`], the fields of `QueueConfig::Red`), with the project defaults
//! [`NS2_DEFAULTS`] — the classic ns-2 values: `min_thresh` 5, `max_thresh` 15, `weight` 0.002,
//! `max_p` 0.1 (ns-2 `linterm_` 10), `gentle` true, `bytes` false, `mean_packet_bytes` 500,
//! `wait` true. Plus the queue `limit`, the link `bandwidth` (only used to age the average across
//! idle periods) and a random stream.
//!
//! Deviations from ns-2:
//! - ns-2.35's automatic configuration (`thresh_ 0`, `maxthresh_ 0`, `q_weight_ -1`, adaptive
//!   RED, `cautious_`, ECN marking) is not implemented: parameters are taken as given.
//! - ns-2 keeps `thresh_`/`maxthresh_` in packets and multiplies them by `mean_pktsize_` in byte
//!   mode; here (as `QueueConfig::Red` documents) the thresholds are in the unit of the average:
//!   bytes when `bytes` is set.
//! - One flag, `bytes`, sets both ns-2 `bytes_` (byte-scaled drop probability) and
//!   `queue_in_bytes_` (average and thresholds in bytes): ns-2 users set them together.
//! - The physical limit is the project's [`Limit`] (the arrival must fit entirely) instead of
//!   ns-2's `qlen >= qlim` test, which lets a byte-limited queue overshoot by one packet.
//! - ns-2 drops when `u <= p_a`; here `u < p_a` with u in [0, 1), so p_a = 0 never drops and no
//!   random number is drawn when p_a is 0 or 1.
//! - Idle period: ns-2 starts it when the link, done with a packet, finds the queue empty
//!   (`deque()` returns null). A driver need not make that empty call here: when a dequeue
//!   empties the queue, the link will go idle once the packet just handed to it is serialised,
//!   so `t_idle = now + size·8/bandwidth` (exact when, as in the simulator, a dequeued packet
//!   starts serialising at `now`). An empty dequeue at `now` moves `t_idle` to `now` if earlier.
//!   An arrival before `t_idle` (queue empty, link still busy) ages nothing, as in ns-2.
//!   (1−w)^m is computed by binary exponentiation, not ns-2's loop of m multiplications: the same
//!   value up to rounding, in O(log m).

use std::collections::VecDeque;

use crate::{DataRate, DataSize, Instant};
use rand::Rng;

use super::drop_tail::preallocation;
use super::{Enqueue, Limit, Queue, QueuedPacket};
use crate::rng::SimRng;

/// RED's tuning knobs (the fields of `QueueConfig::Red` other than `limit`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RedParams {
    /// min_th: no early drops while the average is below (packets, or bytes in byte mode).
    pub min_thresh: f64,
    /// max_th: p_b reaches `max_p` here (packets, or bytes in byte mode).
    pub max_thresh: f64,
    /// w: EWMA weight of the average queue, in (0, 1].
    pub weight: f64,
    pub max_p: f64,
    /// Floyd's "gentle" RED: p_b rises from max_p to 1 between max_th and 2·max_th.
    pub gentle: bool,
    /// Byte mode: queue, average and thresholds in bytes; drop probability scaled by size.
    pub bytes: bool,
    /// Packet size that turns idle time into "virtual" arrivals (ns-2 `mean_pktsize_`), and the
    /// reference size of byte mode.
    pub mean_packet_bytes: u32,
    /// Spread early drops out: no drop until count·p_b ≥ 1 (ns-2 `wait_`).
    pub wait: bool,
}

/// The ns-2 `Queue/RED` defaults the project uses (see the module docs).
pub const NS2_DEFAULTS: RedParams = RedParams {
    min_thresh: 5.0,
    max_thresh: 15.0,
    weight: 0.002,
    max_p: 0.1,
    gentle: true,
    bytes: false,
    mean_packet_bytes: 500,
    wait: true,
};

impl RedParams {
    pub fn ns2_default() -> Self {
        NS2_DEFAULTS
    }

    pub fn validate(&self) -> Result<(), RedParamError> {
        let err = |name, value, expected| Err(RedParamError { name, value, expected });
        if !(self.min_thresh.is_finite() && self.min_thresh >= 0.0) {
            return err("min_thresh", self.min_thresh, "a finite value >= 0");
        }
        // A zero-width band would make p_b a step; ns-2 silently patches it, we refuse it.
        if !(self.max_thresh.is_finite() && self.max_thresh > self.min_thresh) {
            return err("max_thresh", self.max_thresh, "a finite value > min_thresh");
        }
        if !(self.weight > 0.0 && self.weight <= 1.0) {
            return err("weight", self.weight, "a value in (0, 1]");
        }
        if !(0.0..=1.0).contains(&self.max_p) {
            return err("max_p", self.max_p, "a probability in [0, 1]");
        }
        if self.mean_packet_bytes == 0 {
            return err("mean_packet_bytes", 0.0, "at least 1 byte");
        }
        Ok(())
    }
}

#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("invalid RED parameter {name} = {value}: expected {expected}")]
pub struct RedParamError {
    pub name: &'static str,
    pub value: f64,
    pub expected: &'static str,
}

pub struct Red {
    limit: Limit,
    params: RedParams,
    bandwidth: DataRate,
    packets: VecDeque<QueuedPacket>,
    bytes: u64,
    avg: f64,
    /// ns-2 `edv_.count` / `count_bytes`: arrivals (bytes) since the last drop.
    count: u64,
    count_bytes: u64,
    /// ns-2 `edv_.old`: the previous arrival was already in the early-drop region.
    old: bool,
    /// The queue is empty and the link goes (went) idle at `idle_since`: the next arrival
    /// ages the average over the time since then, if any.
    idle: bool,
    idle_since: Instant,
    /// avg at which every arrival is dropped: 2·max_th (gentle) or max_th.
    forced_at: f64,
    rng: SimRng,
    early_drops: u64,
    forced_drops: u64,
}

impl Red {
    /// `bandwidth`: the capacity of the link this queue feeds (ages the average when idle).
    pub fn new(limit: Limit, params: RedParams, bandwidth: DataRate, rng: SimRng) -> Result<Self, RedParamError> {
        params.validate()?;
        let forced_at = if params.gentle { 2.0 * params.max_thresh } else { params.max_thresh };
        Ok(Red {
            limit,
            params,
            bandwidth,
            packets: VecDeque::with_capacity(preallocation(limit)),
            bytes: 0,
            avg: 0.0,
            count: 0,
            count_bytes: 0,
            old: false,
            // ns-2 `reset()`: the queue starts idle at time zero.
            idle: true,
            idle_since: Instant::ZERO,
            forced_at,
            rng,
            early_drops: 0,
            forced_drops: 0,
        })
    }

    pub fn params(&self) -> &RedParams {
        &self.params
    }

    /// Random ("unforced") drops so far.
    pub fn early_drops(&self) -> u64 {
        self.early_drops
    }

    /// Drops because avg was above the forced threshold or the buffer was full.
    pub fn forced_drops(&self) -> u64 {
        self.forced_drops
    }

    /// p_b for a given average, before the count correction (ns-2 `calculate_p_new`).
    pub fn base_drop_probability(&self, avg: f64) -> f64 {
        let RedParams { min_thresh: min, max_thresh: max, max_p, gentle, .. } = self.params;
        let p = if avg < min {
            0.0
        } else if avg < max {
            max_p * (avg - min) / (max - min)
        } else if gentle {
            // Floyd's gentle RED: linear from (max_th, max_p) to (2·max_th, 1).
            max_p + (1.0 - max_p) * (avg - max) / max
        } else {
            1.0
        };
        p.min(1.0)
    }

    /// Virtual empty-queue arrivals during an idle period of `idle_ns`: the number of
    /// mean-sized packets the link could have sent (ns-2 `ptc × idle time`, truncated).
    fn idle_packets(&self, idle_ns: u64) -> u64 {
        let den = 8 * self.params.mean_packet_bytes as u128 * 1_000_000_000;
        let m = idle_ns as u128 * self.bandwidth.as_bps() as u128 / den;
        m.min(u64::MAX as u128) as u64
    }

    /// ns-2 `drop_early` + `modify_p`, for an arrival of `size` bytes in the early-drop region.
    fn drop_early(&mut self, size: u32) -> bool {
        let p_b = self.base_drop_probability(self.avg);
        let mean = self.params.mean_packet_bytes as u64;
        let count = if self.params.bytes { self.count_bytes / mean } else { self.count } as f64;
        let cp = count * p_b;
        let mut p_a = if self.params.wait {
            if cp < 1.0 {
                0.0
            } else if cp < 2.0 {
                p_b / (2.0 - cp)
            } else {
                1.0
            }
        } else if cp < 1.0 {
            p_b / (1.0 - cp)
        } else {
            1.0
        };
        if self.params.bytes && p_a < 1.0 {
            // Large packets are more likely to be dropped, so that the drop rate per byte, not
            // per packet, follows p_a.
            p_a = p_a * size as f64 / mean as f64;
        }
        let drop = if p_a <= 0.0 {
            false
        } else if p_a >= 1.0 {
            true
        } else {
            self.rng.gen::<f64>() < p_a
        };
        if drop {
            self.count = 0;
            self.count_bytes = 0;
        }
        drop
    }
}

/// base^e by binary exponentiation: deterministic IEEE products, O(log e).
fn powu(mut base: f64, mut e: u64) -> f64 {
    let mut acc = 1.0;
    while e > 0 {
        if e & 1 == 1 {
            acc *= base;
        }
        base *= base;
        e >>= 1;
        if acc == 0.0 {
            break;
        }
    }
    acc
}

impl Queue for Red {
    fn enqueue(&mut self, now: Instant, p: QueuedPacket) -> Enqueue {
        let w = self.params.weight;
        if self.idle {
            self.idle = false;
            let m = self.idle_packets(now.saturating_since(self.idle_since).as_nanos());
            self.avg *= powu(1.0 - w, m);
        }
        let q = if self.params.bytes { self.bytes } else { self.packets.len() as u64 };
        self.avg = (1.0 - w) * self.avg + w * q as f64;

        self.count += 1;
        self.count_bytes += p.size_bytes as u64;

        let mut forced = false;
        let mut early = false;
        if self.avg >= self.params.min_thresh && q > 1 {
            if self.avg >= self.forced_at {
                forced = true;
            } else if !self.old {
                self.count = 1;
                self.count_bytes = p.size_bytes as u64;
                self.old = true;
            } else {
                early = self.drop_early(p.size_bytes);
            }
        } else {
            self.old = false;
        }
        if self.limit.overflows(self.packets.len(), self.bytes, p.size_bytes) {
            forced = true;
        }

        if forced {
            self.count = 0;
            self.count_bytes = 0;
            self.forced_drops += 1;
            Enqueue::Dropped
        } else if early {
            self.early_drops += 1;
            Enqueue::Dropped
        } else {
            self.bytes += p.size_bytes as u64;
            self.packets.push_back(p);
            Enqueue::Accepted
        }
    }

    fn dequeue(&mut self, now: Instant) -> Option<QueuedPacket> {
        match self.packets.pop_front() {
            Some(p) => {
                self.bytes -= p.size_bytes as u64;
                if self.packets.is_empty() {
                    self.idle = true;
                    self.idle_since = now + self.bandwidth.transmission_time(DataSize::from_bytes(p.size_bytes as u64));
                }
                Some(p)
            }
            None => {
                // The link asks for work: it is idle now at the latest.
                self.idle_since = if self.idle { self.idle_since.min(now) } else { now };
                self.idle = true;
                None
            }
        }
    }

    fn len_packets(&self) -> usize {
        self.packets.len()
    }

    fn len_bytes(&self) -> u64 {
        self.bytes
    }

    fn average(&self) -> Option<f64> {
        Some(self.avg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    fn pkt(id: u32, size_bytes: u32) -> QueuedPacket {
        QueuedPacket { id, size_bytes, flow: 0 }
    }

    fn red(params: RedParams) -> Red {
        Red::new(Limit::Packets(10_000), params, DataRate::from_mbps(10), SimRng::seed_from_u64(7)).unwrap()
    }

    /// Puts `n` packets of `size` in the buffer without an arrival (so the average is untouched).
    fn prefill(q: &mut Red, n: u32, size: u32) {
        for i in 0..n {
            q.packets.push_back(pkt(1_000_000 + i, size));
            q.bytes += size as u64;
        }
        q.idle = false;
    }

    /// One arrival at `now` to a queue held at a constant length: if the arrival is accepted,
    /// the head leaves, so the next arrival finds the same queue.
    fn arrive_steady(q: &mut Red, now: Instant, size: u32) -> Enqueue {
        let r = q.enqueue(now, pkt(0, size));
        if r == Enqueue::Accepted {
            q.dequeue(now).unwrap();
        }
        r
    }

    fn us(n: u64) -> Instant {
        Instant::from_nanos(n * 1_000)
    }

    #[test]
    fn rejects_bad_parameters_by_name() {
        let bad = |f: fn(&mut RedParams)| {
            let mut p = NS2_DEFAULTS;
            f(&mut p);
            Red::new(Limit::Packets(50), p, DataRate::from_mbps(1), SimRng::seed_from_u64(1)).err().unwrap().name
        };
        assert_eq!(bad(|p| p.weight = 0.0), "weight");
        assert_eq!(bad(|p| p.max_p = 1.5), "max_p");
        assert_eq!(bad(|p| p.max_thresh = 5.0), "max_thresh");
        assert_eq!(bad(|p| p.min_thresh = f64::NAN), "min_thresh");
        assert_eq!(bad(|p| p.mean_packet_bytes = 0), "mean_packet_bytes");
        assert_eq!(RedParams::ns2_default(), NS2_DEFAULTS);
    }

    #[test]
    fn average_after_k_arrivals_matches_the_closed_form() {
        // A queue held at Q: avg_k = Q · (1 − (1−w)^k) from avg_0 = 0 (whatever is dropped).
        for (bytes, q_len, size) in [(false, 10.0, 1000), (false, 40.0, 1000), (true, 6000.0, 500)] {
            let params = RedParams { bytes, ..NS2_DEFAULTS };
            let mut q = red(params);
            let w = params.weight;
            prefill(&mut q, if bytes { (q_len as u32) / size } else { q_len as u32 }, size);
            for k in 1..=3000u64 {
                arrive_steady(&mut q, us(k), size);
                let expected = q_len * (1.0 - (1.0 - w).powi(k as i32));
                let got = q.average().unwrap();
                assert!((got - expected).abs() <= 1e-9 * q_len, "k={k}: avg {got} vs {expected}");
            }
        }
    }

    #[test]
    fn idle_time_ages_the_average() {
        // Two drivers: one that only dequeues when it has something to send (the simulator),
        // one that also asks when the link frees up (ns-2): the same idle period either way.
        for asks_when_free in [false, true] {
            let mut q = red(NS2_DEFAULTS);
            prefill(&mut q, 10, 1000);
            for k in 1..=500 {
                arrive_steady(&mut q, us(k), 1000);
            }
            let before = q.average().unwrap();
            for _ in 0..q.len_packets() {
                q.dequeue(us(600)).unwrap();
            }
            // The last 1000 B packet takes 800 µs at 10 Mbit/s: the link idles from 1.4 ms.
            if asks_when_free {
                assert!(q.dequeue(us(1_400)).is_none());
                assert!(q.dequeue(us(2_000)).is_none()); // asking again changes nothing
            }
            assert_eq!(q.average(), Some(before)); // only arrivals move the average
                                                   // 50 ms idle at 10 Mbit/s with 500 B mean packets: m = 0.05 · 10^7 / 4000 = 125.
            q.enqueue(us(51_400), pkt(1, 1000));
            let expected = before * 0.998f64.powi(126); // 125 virtual arrivals + the real one (q = 0)
            assert!((q.average().unwrap() - expected).abs() < 1e-12, "{:?} vs {expected}", q.average());
        }
    }

    #[test]
    fn an_arrival_while_the_link_is_still_busy_ages_nothing() {
        let mut q = red(NS2_DEFAULTS);
        prefill(&mut q, 1, 1000);
        q.avg = 8.0;
        q.dequeue(us(0)).unwrap(); // serialised until 800 µs
        q.enqueue(us(700), pkt(1, 1000)); // queue empty, link busy: not idle (ns-2 `idle_` = 0)
        assert!((q.average().unwrap() - 8.0 * 0.998).abs() < 1e-12);
    }

    #[test]
    fn no_drops_while_the_average_is_below_min_thresh() {
        // A queue filling without service: avg lags the queue; nothing may be dropped until avg
        // reaches min_th, even though the instantaneous queue is far above it.
        let mut q = red(NS2_DEFAULTS);
        let mut dropped_any = false;
        for k in 0..2000u32 {
            let r = q.enqueue(us(k as u64), pkt(k, 1000));
            if q.average().unwrap() < NS2_DEFAULTS.min_thresh {
                assert_eq!(r, Enqueue::Accepted, "arrival {k} dropped at avg {:?}", q.average());
            }
            dropped_any |= r == Enqueue::Dropped;
        }
        assert!(dropped_any, "the test never left the no-drop region");
    }

    /// Arrivals to a queue held at `q_len`; returns (arrivals, drops) counted once avg ≥ `from`.
    fn drops_above(params: RedParams, q_len: u32, from: f64, n: u32) -> (u32, u32) {
        let mut q = red(params);
        prefill(&mut q, q_len, 1000);
        let (mut arrivals, mut drops) = (0, 0);
        for k in 0..n {
            let measure = q.average().unwrap() >= from;
            let r = arrive_steady(&mut q, us(k as u64), 1000);
            // The decision uses the average updated by this arrival, which is ≥ the old one here.
            if measure {
                arrivals += 1;
                drops += (r == Enqueue::Dropped) as u32;
            }
        }
        (arrivals, drops)
    }

    #[test]
    fn everything_is_dropped_above_the_forced_threshold() {
        // Gentle: above 2·max_th = 30 every arrival goes (queue held at 40).
        let (a, d) = drops_above(NS2_DEFAULTS, 40, 30.0, 4000);
        assert!(a > 2000 && d == a, "gentle: {d}/{a} dropped");
        // Gentle between max_th and 2·max_th: p_b < 1, some arrivals get through.
        let (a, d) = drops_above(NS2_DEFAULTS, 20, 15.0, 4000);
        assert!(a > 1000 && d < a && d > 0, "gentle 15..20: {d}/{a}");
        // Not gentle: everything above max_th = 15 goes.
        let hard = RedParams { gentle: false, ..NS2_DEFAULTS };
        let (a, d) = drops_above(hard, 20, 15.0, 4000);
        assert!(a > 1000 && d == a, "non-gentle: {d}/{a}");
    }

    #[test]
    fn base_probability_is_piecewise_linear() {
        let q = red(NS2_DEFAULTS);
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        assert!(close(q.base_drop_probability(4.9), 0.0));
        assert!(close(q.base_drop_probability(5.0), 0.0));
        assert!(close(q.base_drop_probability(10.0), 0.05));
        assert!(close(q.base_drop_probability(15.0), 0.1));
        assert!(close(q.base_drop_probability(22.5), 0.55));
        assert!(close(q.base_drop_probability(30.0), 1.0));
        let hard = red(RedParams { gentle: false, ..NS2_DEFAULTS });
        assert!(close(hard.base_drop_probability(15.0), 1.0));
    }

    /// Early-drop gaps (arrivals from one drop to the next, the drop included) with avg held
    /// at 11 (p_b = 0.1 · 6/10 = 0.06) over a million arrivals.
    fn gaps_at_p006(wait: bool) -> (f64, u64, u64) {
        let params = RedParams { wait, ..NS2_DEFAULTS };
        let mut q = red(params);
        prefill(&mut q, 11, 1000);
        q.avg = 11.0; // the fixed point of a queue held at 11
        let (mut last, mut gaps, mut sum) = (None, 0u64, 0u64);
        let (mut min_gap, mut max_gap) = (u64::MAX, 0);
        for k in 0..1_000_000u64 {
            if arrive_steady(&mut q, us(k), 1000) == Enqueue::Dropped {
                if let Some(l) = last {
                    let g = k - l;
                    gaps += 1;
                    sum += g;
                    min_gap = min_gap.min(g);
                    max_gap = max_gap.max(g);
                }
                last = Some(k);
            }
        }
        assert_eq!(q.forced_drops(), 0);
        assert!((q.average().unwrap() - 11.0).abs() < 1e-6);
        (sum as f64 / gaps as f64, min_gap, max_gap)
    }

    #[test]
    fn early_drop_rate_at_mid_average_matches_the_count_correction() {
        let p: f64 = 0.06;
        // Without wait, survival after n arrivals telescopes:
        // Π_{i=1..n} (1 − p/(1−ip)) = (1 − (n+1)p)/(1 − p), until p_a reaches 1 at
        // n* = ⌈1/p⌉ − 1 = 16: the gap is uniform on 1..15 plus the remainder at 16.
        // E[gap] = Σ_{n=0}^{15} (1 − (n+1)p)/(1 − p) = 8.3404, drop rate 0.1199 (not p_b = 0.06).
        let e_plain: f64 = (0..16).map(|n| (1.0 - (n + 1) as f64 * p) / (1.0 - p)).sum();
        let (mean, lo, hi) = gaps_at_p006(false);
        println!("RED no wait: mean gap {mean:.4} (closed form {e_plain:.4}), range {lo}..={hi}");
        assert!((mean / e_plain - 1.0).abs() < 0.01, "no wait: mean gap {mean} vs {e_plain}");
        assert_eq!((lo, hi), (1, 16));
        // With wait, p_a = 0 up to n = 16 (16p < 1), then survival (2 − (n+1)p)/(2 − 17p) until
        // p_a reaches 1 at n = ⌈2/p⌉ − 1 = 33: E[gap] = 17 + Σ_{n=17}^{32} (2 − (n+1)p)/(2 − 17p)
        // = 24.673, drop rate 0.0405.
        let e_wait: f64 = 17.0 + (17..33).map(|n| (2.0 - (n + 1) as f64 * p) / (2.0 - 17.0 * p)).sum::<f64>();
        let (mean, lo, hi) = gaps_at_p006(true);
        println!("RED wait: mean gap {mean:.4} (closed form {e_wait:.4}), range {lo}..={hi}");
        assert!((mean / e_wait - 1.0).abs() < 0.01, "wait: mean gap {mean} vs {e_wait}");
        assert_eq!((lo, hi), (17, 33));
    }

    #[test]
    fn byte_mode_scales_the_drop_probability_by_packet_size() {
        // Thresholds in bytes (2500..7500), avg held at 5000: p_b = 0.05. Each trial starts
        // just after a drop (count_bytes = 0) with `old` set, so p_a depends only on the size:
        //   250 B: count = 250/500 = 0 → p_a = p_b = 0.05, × 250/500 → 0.025
        //  1000 B: count = 1000/500 = 2 → p_a = 0.05/(1 − 0.1) = 0.0556, × 2 → 0.1111
        let params = RedParams { bytes: true, wait: false, min_thresh: 2500.0, max_thresh: 7500.0, ..NS2_DEFAULTS };
        for (size, expected) in [(250u32, 0.025), (1000, 0.05 / 0.9 * 2.0)] {
            let mut q = red(params);
            prefill(&mut q, 10, 500);
            let trials = 200_000;
            let mut drops = 0;
            for k in 0..trials {
                q.avg = 5000.0;
                q.count = 0;
                q.count_bytes = 0;
                q.old = true;
                if q.enqueue(us(k), pkt(0, size)) == Enqueue::Dropped {
                    drops += 1;
                } else {
                    q.packets.pop_back();
                    q.bytes -= size as u64;
                }
            }
            let rate = drops as f64 / trials as f64;
            println!("RED bytes, {size} B: drop rate {rate:.5} (expected {expected:.5})");
            assert!((rate / expected - 1.0).abs() < 0.05, "{size} B: drop rate {rate} vs {expected}");
        }
    }

    #[test]
    fn physical_limit_drops_even_below_min_thresh() {
        let mut q =
            Red::new(Limit::Packets(3), NS2_DEFAULTS, DataRate::from_mbps(10), SimRng::seed_from_u64(1)).unwrap();
        let r: Vec<_> = (0..5).map(|i| q.enqueue(Instant::ZERO, pkt(i, 1000))).collect();
        assert_eq!(r[..3], [Enqueue::Accepted; 3]);
        assert_eq!(r[3..], [Enqueue::Dropped; 2]);
        assert_eq!((q.forced_drops(), q.early_drops()), (2, 0));
        assert_eq!(q.dequeue(Instant::ZERO).map(|p| p.id), Some(0));
    }
}
