//! Sequence-gap loss detection over a 32-bit sequence space that wraps.
//!
//! Sequence numbers are compared with serial-number arithmetic (RFC 1982 §3.2, SERIAL_BITS = 32):
//! `seq` is *ahead* of the next expected number `e` when `0 < seq − e (mod 2^32) < 2^31`, and
//! *behind* otherwise. The distance 2^31 itself is undefined in RFC 1982; it is treated as behind
//! ("late"), so an arbitrary jump can never panic or declare 2^31 losses. Internally every
//! number is unwrapped into a 64-bit extended sequence (like RTP's cycle count, RFC 3550 A.1),
//! which is what the hole bookkeeping is keyed on.
//!
//! Two policies:
//!
//! * Immediate (default, reorder threshold 1) — docs/papers/dvrc.md §1.1.4 [P]: any packet above
//!   the next expected number declares every skipped number lost at once ([`Arrival::Gap`]); the
//!   next expected number becomes `seq + 1`. A packet below it is [`Arrival::Late`] (reordered,
//!   still counted as received, no new signal) or [`Arrival::Duplicate`].
//! * Reorder threshold n ([`GapDetector::with_reorder_threshold`]) — RFC 5348 §5.1 (NDUPACK = 3):
//!   a missing number is declared lost only once n packets with a higher sequence number have
//!   arrived. Until then it is *pending*; a pending number that arrives is counted as reordered.
//!   An arrival that advances the highest number without declaring a loss returns
//!   [`Arrival::InOrder`] ("new highest, no loss signal"), even if it left a pending hole.
//!
//! Holes are tracked as ranges in two ordered maps (pending and declared), so that a late arrival
//! can be told apart from a duplicate and so that lost-then-arrived numbers are counted as
//! `recovered`. Bound: at most `max_holes` ranges (default [`GapDetector::DEFAULT_MAX_HOLES`] =
//! 1024) are tracked. When the bound is exceeded the oldest range is forgotten; a forgotten
//! *pending* range is declared lost at that moment (reported in the returned `Gap`), and arrivals
//! at or below a forgotten range are reported as `Late` because they can no longer be told from
//! duplicates.
//!
//! Counters: every number between the first packet and the highest one is exactly one of
//! advancing arrival, declared lost, pending, or reordered (filled while pending):
//! `span = (received − late − duplicates) + lost + pending + reordered`.
//!
//! One arrival can declare at most one hole in practice (holes mature oldest first, one count
//! at a time); should several be declared at once, the returned `Gap` carries their total count
//! and the oldest first-missing number.

use std::collections::{BTreeMap, BTreeSet};

/// What one arriving sequence number means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arrival {
    /// The next expected number (or, with a reorder threshold, a new highest number whose
    /// skipped numbers are not yet declared lost). Also returned for the very first packet.
    InOrder,
    /// Numbers were declared lost by this arrival: `lost` of them, the oldest being
    /// `first_missing`. In immediate mode these are exactly the numbers this packet skipped.
    Gap { lost: u32, first_missing: u32 },
    /// Older than expected and not a known duplicate: reordered (or too old to tell).
    Late,
    /// Older than expected and already received.
    Duplicate,
}

/// Sequence-gap loss detector; see the module documentation.
#[derive(Clone, Debug)]
pub struct GapDetector {
    reorder_threshold: u32,
    max_holes: usize,
    /// Extended number of the first packet.
    first_ext: u64,
    /// Extended next expected number (highest + 1); `None` before the first packet.
    next_ext: Option<u64>,
    /// Below this extended number we cannot tell late from duplicate.
    floor_ext: u64,
    /// Missing ranges not yet declared lost: start → (end exclusive, higher arrivals seen).
    pending: BTreeMap<u64, (u64, u32)>,
    /// Ranges declared lost and not yet arrived: start → end exclusive.
    declared: BTreeMap<u64, u64>,
    /// Numbers below the first packet that have arrived (at most `max_holes` of them), so that
    /// a second copy of one is a duplicate rather than late again.
    early: BTreeSet<u64>,
    received: u64,
    lost: u64,
    late: u64,
    duplicates: u64,
    recovered: u64,
    reordered: u64,
}

impl Default for GapDetector {
    fn default() -> Self {
        Self::new()
    }
}

impl GapDetector {
    /// Default bound on tracked hole ranges.
    pub const DEFAULT_MAX_HOLES: usize = 1024;
    /// RFC 5348 §5.1 NDUPACK.
    pub const NDUPACK: u32 = 3;

    /// Immediate detection: any gap is a loss (DVRC).
    pub fn new() -> Self {
        Self::with_reorder_threshold(1)
    }

    /// A missing number is declared lost once `n` higher-numbered packets have arrived
    /// (RFC 5348 §5.1 uses n = [`Self::NDUPACK`] = 3). `n = 0` is treated as 1.
    pub fn with_reorder_threshold(n: u32) -> Self {
        GapDetector {
            reorder_threshold: n.max(1),
            max_holes: Self::DEFAULT_MAX_HOLES,
            first_ext: 0,
            next_ext: None,
            floor_ext: 0,
            pending: BTreeMap::new(),
            declared: BTreeMap::new(),
            early: BTreeSet::new(),
            received: 0,
            lost: 0,
            late: 0,
            duplicates: 0,
            recovered: 0,
            reordered: 0,
        }
    }

    /// Changes the bound on tracked hole ranges (at least 1).
    pub fn with_max_holes(mut self, max_holes: usize) -> Self {
        self.max_holes = max_holes.max(1);
        self
    }

    /// Unwraps `seq` relative to the next expected extended number (RFC 1982 comparison).
    fn extend(next_ext: u64, seq: u32) -> u64 {
        let d = seq.wrapping_sub(next_ext as u32);
        if d < 1 << 31 {
            next_ext.saturating_add(d as u64)
        } else {
            // Behind by 2^32 − d ∈ [1, 2^31]; next_ext ≥ 2^32 so this cannot underflow.
            next_ext - ((1u64 << 32) - d as u64)
        }
    }

    /// Classifies one arriving sequence number and updates the counters.
    pub fn on_packet(&mut self, seq: u32) -> Arrival {
        self.received += 1;
        let Some(next) = self.next_ext else {
            // Start in the second cycle so that numbers up to 2^31 behind stay representable.
            let ext = (1u64 << 32) + seq as u64;
            self.first_ext = ext;
            self.floor_ext = ext;
            self.next_ext = Some(ext + 1);
            return Arrival::InOrder;
        };
        let x = Self::extend(next, seq);
        let mut report = Report::default();
        let arrival = if x >= next {
            // Every pending hole lies below x: one more higher-numbered arrival for each.
            for (_, later) in self.pending.values_mut() {
                *later = later.saturating_add(1);
            }
            if x > next {
                self.pending.insert(next, (x, 1));
            }
            self.next_ext = Some(x + 1);
            Arrival::InOrder
        } else {
            self.on_old(x)
        };
        self.mature(&mut report);
        self.enforce_bound(&mut report);
        match report.first {
            Some(first) => Arrival::Gap { lost: report.count.min(u32::MAX as u64) as u32, first_missing: first as u32 },
            None => arrival,
        }
    }

    /// An arrival below the next expected number.
    fn on_old(&mut self, x: u64) -> Arrival {
        if x < self.floor_ext {
            if x < self.first_ext {
                if self.early.contains(&x) {
                    self.duplicates += 1;
                    return Arrival::Duplicate;
                }
                self.early.insert(x);
                if self.early.len() > self.max_holes {
                    self.early.pop_first();
                }
            }
            self.late += 1;
            return Arrival::Late;
        }
        if let Some((&start, &(end, later))) = self.pending.range(..=x).next_back() {
            if x < end {
                self.pending.remove(&start);
                if start < x {
                    // x is higher than the lower remainder [start, x): one more higher arrival.
                    self.pending.insert(start, (x, later.saturating_add(1)));
                }
                if x + 1 < end {
                    self.pending.insert(x + 1, (end, later));
                }
                self.bump_pending_below(start);
                self.late += 1;
                self.reordered += 1;
                return Arrival::Late;
            }
        }
        if let Some((&start, &end)) = self.declared.range(..=x).next_back() {
            if x < end {
                self.declared.remove(&start);
                if start < x {
                    self.declared.insert(start, x);
                }
                if x + 1 < end {
                    self.declared.insert(x + 1, end);
                }
                self.bump_pending_below(x);
                self.late += 1;
                self.recovered += 1;
                return Arrival::Late;
            }
        }
        self.duplicates += 1;
        Arrival::Duplicate
    }

    /// Counts one more higher-numbered arrival for every pending hole that starts below `limit`
    /// and does not contain the arrival (those were handled by the split).
    fn bump_pending_below(&mut self, limit: u64) {
        for (_, (_, later)) in self.pending.range_mut(..limit) {
            *later = later.saturating_add(1);
        }
    }

    /// Declares every pending hole that has seen `reorder_threshold` higher arrivals.
    fn mature(&mut self, report: &mut Report) {
        let threshold = self.reorder_threshold;
        while let Some((&start, &(end, _))) = self.pending.iter().find(|(_, &(_, later))| later >= threshold) {
            self.pending.remove(&start);
            report.add(start, end);
            self.lost += end - start;
            self.declared.insert(start, end);
        }
    }

    /// Forgets the oldest ranges beyond `max_holes`; a forgotten pending range is declared lost
    /// (and not tracked further). Everything at or below a forgotten range becomes "too old".
    fn enforce_bound(&mut self, report: &mut Report) {
        while self.pending.len() + self.declared.len() > self.max_holes {
            let oldest_pending = self.pending.keys().next().copied();
            let oldest_declared = self.declared.keys().next().copied();
            let take_pending = match (oldest_pending, oldest_declared) {
                (Some(p), Some(d)) => p < d,
                (Some(_), None) => true,
                (None, _) => false,
            };
            let end = if take_pending {
                let Some((start, (end, _))) = self.pending.pop_first() else {
                    break;
                };
                report.add(start, end);
                self.lost += end - start;
                end
            } else {
                let Some((_, end)) = self.declared.pop_first() else {
                    break;
                };
                end
            };
            self.floor_ext = self.floor_ext.max(end);
        }
    }

    /// The next expected sequence number; `None` before the first packet.
    pub fn next_expected(&self) -> Option<u32> {
        self.next_ext.map(|e| e as u32)
    }
    /// The highest sequence number received so far.
    pub fn highest(&self) -> Option<u32> {
        self.next_ext.map(|e| (e - 1) as u32)
    }
    /// Every call to [`Self::on_packet`].
    pub fn received(&self) -> u64 {
        self.received
    }
    /// Numbers declared lost (including ones that arrived later, see [`Self::recovered`]).
    pub fn lost(&self) -> u64 {
        self.lost
    }
    /// Arrivals older than expected that were not identified as duplicates.
    pub fn late(&self) -> u64 {
        self.late
    }
    pub fn duplicates(&self) -> u64 {
        self.duplicates
    }
    /// Declared-lost numbers that arrived afterwards.
    pub fn recovered(&self) -> u64 {
        self.recovered
    }
    /// Pending (not yet declared) numbers that arrived: reordering absorbed by the threshold.
    pub fn reordered(&self) -> u64 {
        self.reordered
    }
    /// Numbers currently missing but not yet declared lost.
    pub fn pending(&self) -> u64 {
        self.pending.iter().map(|(s, (e, _))| e - s).sum()
    }
    /// Count of numbers from the first packet to the highest, inclusive (RFC 3550 A.3 "expected").
    pub fn span(&self) -> u64 {
        self.next_ext.map_or(0, |n| n - self.first_ext)
    }
}

/// Losses declared during one arrival.
#[derive(Default)]
struct Report {
    first: Option<u64>,
    count: u64,
}

impl Report {
    fn add(&mut self, start: u64, end: u64) {
        self.count += end - start;
        self.first = Some(self.first.map_or(start, |f| f.min(start)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::collections::BTreeSet;

    fn feed(d: &mut GapDetector, seqs: &[u32]) -> Vec<Arrival> {
        seqs.iter().map(|&s| d.on_packet(s)).collect()
    }

    fn advancing(d: &GapDetector) -> u64 {
        d.received() - d.late() - d.duplicates()
    }

    #[test]
    fn immediate_mode_classifies_by_hand() {
        let mut d = GapDetector::new();
        let got = feed(&mut d, &[0, 1, 2, 5, 3, 3, 6, 1]);
        use Arrival::*;
        assert_eq!(
            got,
            vec![InOrder, InOrder, InOrder, Gap { lost: 2, first_missing: 3 }, Late, Duplicate, InOrder, Duplicate]
        );
        // 8 arrivals; advancing = 0,1,2,5,6 = 5; late = {3}; duplicates = {3, 1}
        assert_eq!((d.received(), d.late(), d.duplicates()), (8, 1, 2));
        // lost = {3, 4} = 2, of which 3 arrived later
        assert_eq!((d.lost(), d.recovered()), (2, 1));
        // span 0..=6 = 7 = 5 advancing + 2 lost
        assert_eq!(d.span(), 7);
        assert_eq!(advancing(&d) + d.lost(), d.span());
        assert_eq!(d.next_expected(), Some(7));
        assert_eq!(d.highest(), Some(6));
    }

    #[test]
    fn wraps_around_u32() {
        let mut d = GapDetector::new();
        let m = u32::MAX;
        use Arrival::*;
        assert_eq!(feed(&mut d, &[m - 1, m, 0, 1]), vec![InOrder; 4]);
        // expected 2, got 3: one lost (2)
        assert_eq!(d.on_packet(3), Gap { lost: 1, first_missing: 2 });
        // m is 5 behind the expected 4 and was received: a duplicate across the wrap
        assert_eq!(d.on_packet(m), Duplicate);
        assert_eq!(d.span(), 6); // m−1, m, 0, 1, 2, 3

        let mut d = GapDetector::new();
        d.on_packet(m);
        // expected 0 (wrapped), got 1: number 0 lost
        assert_eq!(d.on_packet(1), Gap { lost: 1, first_missing: 0 });
    }

    #[test]
    fn half_space_jumps_do_not_panic() {
        let mut d = GapDetector::new();
        d.on_packet(10);
        // 2^31 − 1 ahead of expected 11 is still "ahead": 2^31 − 1 numbers lost
        let far = 11u32.wrapping_add((1 << 31) - 1);
        assert_eq!(d.on_packet(far), Arrival::Gap { lost: (1 << 31) - 1, first_missing: 11 });

        let mut d = GapDetector::new();
        d.on_packet(10);
        // exactly 2^31 away is undefined in RFC 1982: treated as late
        assert_eq!(d.on_packet(11u32.wrapping_add(1 << 31)), Arrival::Late);
        assert_eq!((d.lost(), d.late(), d.next_expected()), (0, 1, Some(11)));
    }

    #[test]
    fn reorder_threshold_waits_for_three_higher_packets() {
        let mut d = GapDetector::with_reorder_threshold(GapDetector::NDUPACK);
        use Arrival::*;
        // 2 missing; 3, 4, 5 are the three higher arrivals → declared at 5
        assert_eq!(feed(&mut d, &[0, 1, 3, 4]), vec![InOrder; 4]);
        assert_eq!(d.pending(), 1);
        assert_eq!(d.on_packet(5), Gap { lost: 1, first_missing: 2 });
        assert_eq!((d.lost(), d.pending()), (1, 0));
        // 2 arrives after being declared: late, recovered
        assert_eq!(d.on_packet(2), Late);
        assert_eq!(d.recovered(), 1);
    }

    #[test]
    fn reorder_threshold_absorbs_reordering() {
        let mut d = GapDetector::with_reorder_threshold(3);
        use Arrival::*;
        assert_eq!(feed(&mut d, &[0, 2, 1, 3, 4, 5]), vec![InOrder, InOrder, Late, InOrder, InOrder, InOrder]);
        assert_eq!((d.lost(), d.reordered(), d.pending()), (0, 1, 0));
        // span 6 = 5 advancing + 0 lost + 0 pending + 1 reordered
        assert_eq!(advancing(&d) + d.lost() + d.pending() + d.reordered(), d.span());
    }

    #[test]
    fn reorder_threshold_splits_holes() {
        let mut d = GapDetector::with_reorder_threshold(3);
        use Arrival::*;
        // 4 skips 1,2,3 (count 1); 2 arrives late: [1] has 2 higher (4, 2), [3] has 1 (4)
        assert_eq!(feed(&mut d, &[0, 4, 2]), vec![InOrder, InOrder, Late]);
        assert_eq!(d.pending(), 2);
        // 5: [1] reaches 3 → lost; [3] has 2
        assert_eq!(d.on_packet(5), Gap { lost: 1, first_missing: 1 });
        // 6: [3] reaches 3 → lost
        assert_eq!(d.on_packet(6), Gap { lost: 1, first_missing: 3 });
        assert_eq!((d.lost(), d.reordered()), (2, 1));
    }

    #[test]
    fn hole_bound_forgets_oldest() {
        let mut d = GapDetector::new().with_max_holes(2);
        use Arrival::*;
        // holes [1], [3], [5]: the third exceeds the bound, [1] is forgotten (floor → 2)
        feed(&mut d, &[0, 2, 4, 6]);
        assert_eq!(d.lost(), 3);
        assert_eq!(d.on_packet(1), Late); // can no longer tell: not counted as recovered
        assert_eq!(d.recovered(), 0);
        assert_eq!(d.on_packet(3), Late); // still tracked: recovered
        assert_eq!(d.recovered(), 1);
        assert_eq!(d.on_packet(2), Duplicate);

        // A pending hole pushed out of the bound is declared lost on the spot.
        let mut d = GapDetector::with_reorder_threshold(10).with_max_holes(2);
        assert_eq!(feed(&mut d, &[0, 2, 4]), vec![InOrder; 3]);
        assert_eq!(d.on_packet(6), Gap { lost: 1, first_missing: 1 });
        assert_eq!((d.lost(), d.pending()), (1, 2));
    }

    /// Reference model on unwrapped i64 positions (no bound reached).
    fn model(positions: &[i64]) -> Vec<Arrival> {
        let mut out = Vec::new();
        let (first, mut next) = (positions[0], positions[0] + 1);
        let mut holes = BTreeSet::new();
        // Numbers below the first packet: the first copy is late, any later copy a duplicate.
        let mut early = BTreeSet::new();
        out.push(Arrival::InOrder);
        for &x in &positions[1..] {
            out.push(if x == next {
                next += 1;
                Arrival::InOrder
            } else if x > next {
                let a = Arrival::Gap { lost: (x - next) as u32, first_missing: next as u32 };
                holes.extend(next..x);
                next = x + 1;
                a
            } else if holes.remove(&x) || (x < first && early.insert(x)) {
                Arrival::Late
            } else {
                Arrival::Duplicate
            });
        }
        out
    }

    proptest! {
        #[test]
        fn immediate_mode_matches_model(start in any::<u32>(), steps in proptest::collection::vec(-20i64..40, 1..200)) {
            // Positions wander around `start` (which may sit next to the wrap).
            let mut positions = vec![start as i64 + (1 << 32)];
            let mut hi = positions[0];
            for s in steps {
                let p = hi + s;
                hi = hi.max(p);
                positions.push(p);
            }
            let mut d = GapDetector::new();
            let got: Vec<Arrival> = positions.iter().map(|&p| d.on_packet(p as u32)).collect();
            prop_assert_eq!(got, model(&positions));
            prop_assert_eq!(advancing(&d) + d.lost(), d.span());
        }

        #[test]
        fn arbitrary_sequences_never_panic_and_counts_add_up(
            seqs in proptest::collection::vec(any::<u32>(), 0..300),
            threshold in 1u32..5,
            max_holes in 1usize..8,
        ) {
            let mut d = GapDetector::with_reorder_threshold(threshold).with_max_holes(max_holes);
            let mut declared = 0u64;
            for &s in &seqs {
                if let Arrival::Gap { lost, .. } = d.on_packet(s) {
                    prop_assert!(lost > 0);
                    declared += lost as u64;
                }
            }
            prop_assert_eq!(d.received(), seqs.len() as u64);
            prop_assert_eq!(declared, d.lost());
            prop_assert_eq!(advancing(&d) + d.lost() + d.pending() + d.reordered(), d.span());
            prop_assert!(d.recovered() <= d.late());
        }
    }
}

#[cfg(test)]
mod late_twice {
    use super::*;

    /// A number declared lost that then arrives twice: the first copy is late, the second a
    /// duplicate (a receiver must not hand its payload up twice).
    #[test]
    fn a_lost_number_arriving_twice_is_late_then_duplicate() {
        let mut d = GapDetector::new();
        assert_eq!(d.on_packet(49), Arrival::InOrder);
        let first = d.on_packet(0);
        let second = d.on_packet(0);
        assert_eq!((first, second), (Arrival::Late, Arrival::Duplicate));
    }
}
