//! TCP SACK (`tcp-sack`): RFC 2018 SACK blocks from the receiver and RFC 6675 loss recovery at
//! the sender, in the place of ns-2's `Agent/TCP/Sack1` + `Agent/TCPSink/Sack1`.
//!
//! Receiver: [`super::receiver::TcpReceiver::with_sack`] (up to 3 blocks, most recent first).
//! Sender: the shared [`super::sender::TcpSender`] with [`Sack`] as its congestion control,
//! which asks for [`AfterFastRetransmit::SackRecovery`]. The sender keeps a [`Scoreboard`] of
//! the segments in [snd_una, snd_max) and, in loss recovery (RFC 6675 §5):
//! - enters it on the third duplicate ACK that SACKs new data (ns-2 counts only those,
//!   `CheckUpdate`) or as soon as `IsLost(snd_una)` holds; ssthresh = max(⌊W/2⌋, 2),
//!   cwnd = W/2 (ns-2 `slowdown(CLOSE_SSTHRESH_HALF|CLOSE_CWND_HALF)`, W the window), the first
//!   unacknowledged segment is retransmitted at once, `RecoveryPoint` = highest segment sent;
//! - on every ACK recomputes `pipe` (SetPipe: each unSACKed segment not deemed lost counts
//!   one, each retransmitted one counts one more) and sends while cwnd − pipe ≥ 1 the segment
//!   NextSeg names: (1) the lowest unSACKed segment above HighRxt that IsLost (≥ 3 segments
//!   SACKed above it), else (2) new data, else (3) the lowest unSACKed, not yet retransmitted
//!   segment above HighRxt below the highest SACKed one;
//! - leaves it when the cumulative ACK passes RecoveryPoint; cwnd then stays as set (ns-2
//!   `newack()` without `opencwnd()`).
//!
//! A timeout clears the scoreboard (RFC 2018 §8: the receiver may renege; ns-2
//! `ClearScoreBoard`) and is handled as Reno's (ssthresh = max(⌊W/2⌋, 2), cwnd = 1,
//! go-back-N). Parameters: none of its own.
//!
//! Deviations from ns-2's Sack1, which predates RFC 6675 (Fall & Floyd 1996): ns-2 keeps `pipe`
//! as a counter (set to the outstanding segments minus 3 on entry, −1 per ACK, +1 per packet
//! sent) and retransmits any hole below the highest SACKed segment without waiting for IsLost;
//! here `pipe` and the choice of segment follow RFC 6675's SetPipe and NextSeg. No rescue
//! retransmission (RFC 6675 rule 4, optional), no D-SACK. Limited transmit on the first two
//! duplicates (ns-2 Sack1's `send_one()`) is the shared sender's.

use std::collections::VecDeque;

use super::header::SackBlocks;
use super::reno::Reno;
use super::sender::{AfterFastRetransmit, CongestionControl, PartialAck, Window};

/// RFC 6675 DupThresh.
pub const DUP_THRESH: u64 = 3;

/// Reno's window response with RFC 6675 SACK-based recovery.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sack;

impl CongestionControl for Sack {
    fn on_fast_retransmit(&mut self, w: &mut Window) {
        Reno.on_fast_retransmit(w);
    }

    fn on_timeout(&mut self, w: &mut Window) {
        Reno.on_timeout(w);
    }

    /// Not asked: SACK recovery handles partial ACKs through the scoreboard.
    fn partial_ack(&self) -> PartialAck {
        PartialAck::RetransmitAndStay
    }

    fn after_fast_retransmit(&self) -> AfterFastRetransmit {
        AfterFastRetransmit::SackRecovery
    }
}

const SACKED: u8 = 1;
const RETRANSMITTED: u8 = 2;

/// What the sender knows of each segment in [`Scoreboard::base`], `base + len`): SACKed, and
/// retransmitted during the current recovery.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    base: u64,
    flags: VecDeque<u8>,
    /// RFC 6675 HighRxt: the highest segment retransmitted in this recovery.
    high_rxt: Option<u64>,
}

impl Scoreboard {
    /// Forgets everything below `una` (cumulatively acknowledged).
    pub fn advance(&mut self, una: u64) {
        while self.base < una {
            if self.flags.pop_front().is_none() {
                self.base = una;
                break;
            }
            self.base += 1;
        }
    }

    fn flag(&self, seq: u64) -> u8 {
        seq.checked_sub(self.base).and_then(|i| self.flags.get(i as usize).copied()).unwrap_or(0)
    }

    fn set(&mut self, seq: u64, f: u8) {
        let Some(i) = seq.checked_sub(self.base) else { return };
        let i = i as usize;
        if self.flags.len() <= i {
            self.flags.resize(i + 1, 0);
        }
        self.flags[i] |= f;
    }

    /// Records the blocks, for segments below `snd_max` only; true if any segment is newly
    /// SACKed (ns-2 `CheckUpdate`).
    pub fn record(&mut self, blocks: &SackBlocks, snd_max: u64) -> bool {
        let mut new = false;
        for (l, r) in blocks.iter() {
            for seq in l.max(self.base)..r.min(snd_max) {
                if self.flag(seq) & SACKED == 0 {
                    self.set(seq, SACKED);
                    new = true;
                }
            }
        }
        new
    }

    pub fn is_sacked(&self, seq: u64) -> bool {
        self.flag(seq) & SACKED != 0
    }

    /// Marks `seq` retransmitted and raises HighRxt.
    pub fn mark_retransmitted(&mut self, seq: u64) {
        self.set(seq, RETRANSMITTED);
        self.high_rxt = Some(self.high_rxt.map_or(seq, |h| h.max(seq)));
    }

    /// Empties the board (timeout, end of recovery keeps only SACK flags: see
    /// [`Scoreboard::end_recovery`]).
    pub fn clear(&mut self) {
        self.flags.clear();
        self.high_rxt = None;
    }

    /// Retransmission marks belong to one recovery.
    pub fn end_recovery(&mut self) {
        for f in self.flags.iter_mut() {
            *f &= SACKED;
        }
        self.high_rxt = None;
    }

    /// SACKed segments above each position, from the top: `above[i]` for segment `base + i`.
    fn sacked_above(&self, upto: u64) -> Vec<u64> {
        let n = upto.saturating_sub(self.base) as usize;
        let mut above = vec![0; n];
        let mut count = 0;
        for i in (0..n).rev() {
            above[i] = count;
            if self.flags.get(i).is_some_and(|f| f & SACKED != 0) {
                count += 1;
            }
        }
        above
    }

    /// RFC 6675 IsLost, at segment granularity: at least DupThresh segments above are SACKed.
    pub fn is_lost(&self, seq: u64, snd_max: u64) -> bool {
        let from = seq.saturating_sub(self.base) as usize + 1;
        let n = snd_max.saturating_sub(self.base) as usize;
        (from..n).filter(|&i| self.flags.get(i).is_some_and(|f| f & SACKED != 0)).count() as u64 >= DUP_THRESH
    }

    /// RFC 6675 SetPipe over [base, snd_max).
    pub fn pipe(&self, snd_max: u64) -> u64 {
        let above = self.sacked_above(snd_max);
        let mut pipe = 0;
        for (i, &a) in above.iter().enumerate() {
            let f = self.flags.get(i).copied().unwrap_or(0);
            if f & SACKED != 0 {
                continue;
            }
            if a < DUP_THRESH {
                pipe += 1;
            }
            if f & RETRANSMITTED != 0 {
                pipe += 1;
            }
        }
        pipe
    }

    /// RFC 6675 NextSeg rules 1 and 3 (rule 2, new data, is the sender's): the segment to
    /// retransmit, if any, with `rule_three` allowing rule 3.
    pub fn next_retransmission(&self, snd_max: u64, rule_three: bool) -> Option<u64> {
        let above = self.sacked_above(snd_max);
        let start = self.high_rxt.map_or(self.base, |h| h + 1).max(self.base);
        let candidates = || {
            (start..snd_max).filter(|&s| {
                let f = self.flag(s);
                f & (SACKED | RETRANSMITTED) == 0
            })
        };
        if let Some(s) = candidates().find(|&s| above[(s - self.base) as usize] >= DUP_THRESH) {
            return Some(s);
        }
        if rule_three {
            return candidates().find(|&s| above[(s - self.base) as usize] >= 1);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::endpoint::{Endpoint, Event};
    use crate::proto::tcp::header::TcpHeader;
    use crate::proto::tcp::{NewReno, TcpConfig, TcpReceiver, TcpSender};
    use crate::proto::testing::*;
    use crate::{Duration, Instant};

    fn blocks_of(r: &mut TcpReceiver, now: Instant) -> Vec<(u64, Vec<(u64, u64)>)> {
        std::iter::from_fn(|| r.poll_transmit(now))
            .map(|t| match TcpHeader::parse(t.header.as_slice()).unwrap() {
                TcpHeader::Ack { ack, sack, .. } => (ack, sack.iter().collect()),
                h => panic!("not an ACK: {h:?}"),
            })
            .collect()
    }

    fn deliver_seq(r: &mut TcpReceiver, seq: u64) {
        let h = TcpHeader::Data { seq, ts_ns: 0 }.emit();
        receive(r, ms(0), h.as_slice(), 960).unwrap();
    }

    /// RFC 2018 §4 / ns-2 Sacker: the block of the segment that triggered the ACK first, then
    /// the earlier ones, most recent first, each as its current contiguous run; at most 3.
    #[test]
    fn receiver_reports_the_most_recent_blocks_first() {
        let mut r = TcpReceiver::new(false, 64).with_sack();
        let mut acks = vec![];
        for seq in [0, 2, 3, 5, 8, 6, 10] {
            deliver_seq(&mut r, seq);
            acks.extend(blocks_of(&mut r, ms(0)));
        }
        assert_eq!(
            acks,
            vec![
                (1, vec![]),
                (1, vec![(2, 3)]),
                (1, vec![(2, 4)]),
                (1, vec![(5, 6), (2, 4)]),
                (1, vec![(8, 9), (5, 6), (2, 4)]),
                // 6 joins 5: one block [5, 7), listed once.
                (1, vec![(5, 7), (8, 9), (2, 4)]),
                (1, vec![(10, 11), (5, 7), (8, 9)]),
            ]
        );
        // The hole at 1 filled: ACK 4; 1 is in no block, so the history alone, most recent
        // first; the block [2, 4) is now below the ACK and gone.
        deliver_seq(&mut r, 1);
        assert_eq!(blocks_of(&mut r, ms(0)), vec![(4, vec![(10, 11), (5, 7), (8, 9)])]);
        // A plain sink never sends blocks.
        let mut plain = TcpReceiver::new(false, 64);
        deliver_seq(&mut plain, 3);
        assert_eq!(blocks_of(&mut plain, ms(0)), vec![(0, vec![])]);
    }

    #[test]
    fn scoreboard_pipe_and_next_segment_follow_rfc_6675() {
        let mut sb = Scoreboard::default();
        let mut sack = SackBlocks::EMPTY;
        sack.push(2, 4);
        sack.push(5, 8);
        // Outstanding 0..10; SACKed 2, 3, 5, 6, 7.
        assert!(sb.record(&sack, 10));
        assert!(!sb.record(&sack, 10), "nothing new the second time");
        // IsLost: ≥ 3 SACKed above → 0, 1 (5 above), 4 (3 above); not 8, 9.
        assert!(sb.is_lost(0, 10) && sb.is_lost(1, 10) && sb.is_lost(4, 10));
        assert!(!sb.is_lost(8, 10));
        // pipe = unSACKed and not lost: 8, 9 → 2.
        assert_eq!(sb.pipe(10), 2);
        assert_eq!(sb.next_retransmission(10, false), Some(0));
        sb.mark_retransmitted(0);
        // A retransmitted lost segment counts once more in pipe; NextSeg moves past HighRxt.
        assert_eq!(sb.pipe(10), 3);
        assert_eq!(sb.next_retransmission(10, false), Some(1));
        sb.mark_retransmitted(1);
        sb.mark_retransmitted(4);
        // Nothing lost is left: rule 3 would only name unSACKed segments below the highest
        // SACKed one (none above HighRxt = 4 here).
        assert_eq!(sb.next_retransmission(10, false), None);
        assert_eq!(sb.next_retransmission(10, true), None);
        sb.advance(5);
        assert_eq!(sb.pipe(10), 2, "8 and 9 still in flight");
        sb.clear();
        assert_eq!(sb.pipe(10), 5, "after a timeout nothing is known: 5..10 outstanding");
    }

    /// From the loss event: when the last retransmission left, and when the cumulative ACK
    /// passed the last hole (1 ms resolution).
    fn recovery_time<C: CongestionControl>(cc: C, sack: bool, holes: &[u64]) -> (Duration, Duration, TcpSender<C>) {
        let s = TcpSender::new(cc, &TcpConfig::default(), 1000, Instant::ZERO, None);
        let r = TcpReceiver::new(false, 64);
        let r = if sack { r.with_sack() } else { r };
        let mut pipe = Pipe::new(s, r, Duration::from_millis(100)).drop_first(holes);
        let last = *holes.last().unwrap();
        let (mut t, mut last_rtx, mut rtx) = (ms(0), ms(0), 0);
        while pipe.s.snd_una() <= last {
            t += Duration::from_millis(1);
            assert!(t < ms(60_000), "never recovered");
            pipe.run_until(t);
            if pipe.s.counters().retransmissions > rtx {
                rtx = pipe.s.counters().retransmissions;
                last_rtx = t;
            }
        }
        let loss = pipe.events.iter().find(|(_, e)| *e == Event::LossEvent).expect("a loss event").0;
        (last_rtx.saturating_since(loss), t.saturating_since(loss), pipe.s)
    }

    /// Three losses in one 64-segment window (RTT 100 ms, no bandwidth limit: the sender is
    /// window-limited and each window's segments, and their ACKs, travel as a burst).
    /// - Holes at the start of a burst (1022, 1032, 1042): every duplicate ACK of the window
    ///   arrives at once, pipe falls below the halved cwnd at once, and SACK retransmits all
    ///   three at the loss event: recovered one RTT later, with one loss event and no timeout.
    ///   NewReno learns of one hole per partial ACK: three RTTs.
    /// - Holes in the middle of a burst (1000, 1010, 1020): the 42 segments sent just before
    ///   keep pipe (44) above cwnd (32) until their ACKs return, so the last two retransmissions
    ///   wait one RTT (RFC 6675 as written; ns-2's pipe counter waits likewise): two RTTs, where
    ///   NewReno still takes three.
    #[test]
    fn recovers_three_losses_in_one_window_in_about_one_rtt_where_newreno_takes_three() {
        for (holes, sack_rtts) in [([1022, 1032, 1042], 1), ([1000, 1010, 1020], 2)] {
            let (sack_rtx, sack_done, s) = recovery_time(Sack, true, &holes);
            let c = s.counters();
            assert_eq!((c.fast_retransmits, c.timeouts, c.retransmissions), (1, 0, 3), "{holes:?}: {c:?}");
            let (newreno_rtx, newreno_done, n) = recovery_time(NewReno, false, &holes);
            let c = n.counters();
            assert_eq!((c.fast_retransmits, c.timeouts, c.retransmissions), (1, 0, 3), "{holes:?}: {c:?}");
            eprintln!(
                "holes {holes:?}, last retransmission / recovered after: sack {sack_rtx} / {sack_done}, \
                 newreno {newreno_rtx} / {newreno_done}"
            );
            let rtt = Duration::from_millis(100);
            assert_eq!(sack_rtx, rtt * (sack_rtts - 1), "{holes:?}: sack's last retransmission");
            assert_eq!(sack_done, rtt * sack_rtts, "{holes:?}: sack recovered");
            assert_eq!(newreno_rtx, rtt * 2, "{holes:?}: newreno's last retransmission");
            assert_eq!(newreno_done, rtt * 3, "{holes:?}: newreno recovered");
            // Halved once: W = 64 → ssthresh 32.
            assert_eq!(s.ssthresh(), 32.0);
        }
    }
}
