//! The one plausibility check every unicast feedback parser calls: a sender judges what its
//! receiver claims against what it really sent, clamps a claim that cannot be true to the
//! nearest one that can, refuses a feedback datagram that nothing can save, and counts each
//! such datagram once ([`EndpointStats::clamped_feedback`](crate::endpoint::EndpointStats)).
//!
//! Why: over a real network feedback is whatever reaches the sender's socket. TFRC feedback
//! claiming X_recv = 2^62 bit/s and p = 0 made a sender flood (issue 21); the UDP runtime's
//! rate ceiling bounds the damage, this check keeps the protocol's own state from believing
//! the impossible. In the simulator feedback is honest, and every bound below lies beyond
//! anything an honest receiver can report, so the check changes no simulated result.
//!
//! The claims and their bounds (the sender's own clock throughout):
//! - **a receive rate** X measured over a window W (the receiver's measurement interval as
//!   the sender knows it, e.g. TFRC's R): the bytes it stands for, X·W, must not exceed
//!   [`RATE_TOLERANCE`] times the bytes sent in `(t − W − slack, now]` plus one packet, where
//!   t is the echoed send time (else now) and `slack = max(`[`MIN_SLACK`]`, 2 × the longest
//!   round trip an echo has shown)`. The slack is the timing tolerance: a queue that drains
//!   during the window delivers in W packets sent over up to W plus the queueing delay; the
//!   factor 2 covers the receiver's and the sender's windows disagreeing. Above: clamped to it;
//! - **a fraction** (loss fraction, loss event rate): outside [0, 1] (or NaN): clamped into it;
//! - **a count of packets** (lost, received) and **a sequence number** (highest received,
//!   acknowledged): above what was sent: clamped to it;
//! - **an echoed send time**: one this sender never used (later than now, before its first
//!   send, or, among the sends it still remembers, none at that instant): the datagram is
//!   refused ([`WireError::Implausible`]), since the round-trip sample it carries is invented;
//! - **a delay the receiver held a packet** (TFRC's t_delay): longer than the packet's whole
//!   round trip: clamped to it.
//!
//! Memory is bounded: the last [`LOG_CAPACITY`] sends are remembered; a question about older
//! sends is answered generously (as if every byte ever sent were in the interval; an echo older
//! than the memory is taken on trust), never harshly.

use std::collections::VecDeque;

use crate::time::{Duration, Instant};
use crate::wire::WireError;

/// How many times the bytes sent over the (widened) interval a claimed receive rate may stand
/// for.
pub const RATE_TOLERANCE: u64 = 2;
/// The least widening of a receive rate's interval (timing tolerance).
pub const MIN_SLACK: Duration = Duration::from_millis(250);
/// Sends remembered (send instant and bytes): 64 KiB per sender.
pub const LOG_CAPACITY: usize = 4096;

/// A sender's record of what it sent, and the count of feedback it had to clamp or refuse.
#[derive(Clone, Debug, Default)]
pub struct FeedbackCheck {
    /// (send instant, bytes sent up to and including this send), oldest first.
    log: VecDeque<(Instant, u64)>,
    /// Whether sends older than the log's first entry were forgotten.
    forgot: bool,
    first_send: Option<Instant>,
    last_send: Option<Instant>,
    packets: u64,
    bytes: u64,
    largest_packet: u64,
    /// The longest round trip an accepted echo has shown.
    longest_rtt: Duration,
    clamped: u64,
    /// Judges nothing ([`FeedbackCheck::trusting`]).
    trusting: bool,
}

impl FeedbackCheck {
    pub fn new() -> Self {
        FeedbackCheck::default()
    }

    /// A check that lets every claim through: for the unit tests of a protocol's rules that
    /// feed hand-made numbers (the arithmetic is under test there, plausibility here).
    #[cfg(test)]
    pub(crate) fn trusting() -> Self {
        FeedbackCheck { trusting: true, ..FeedbackCheck::default() }
    }

    /// The sender put a datagram of `bytes` (header included) on the wire at `now`.
    pub fn on_sent(&mut self, now: Instant, bytes: u64) {
        self.packets += 1;
        self.bytes = self.bytes.saturating_add(bytes);
        self.largest_packet = self.largest_packet.max(bytes);
        // Kept in time order (the searches need it) even if a driver's clock stepped back.
        let now = self.last_send.map_or(now, |t| t.max(now));
        self.first_send.get_or_insert(now);
        self.last_send = Some(now);
        if self.log.len() == LOG_CAPACITY {
            self.log.pop_front();
            self.forgot = true;
        }
        self.log.push_back((now, self.bytes));
    }

    /// Data packets sent so far.
    pub fn packets_sent(&self) -> u64 {
        self.packets
    }

    /// Feedback datagrams clamped or refused so far.
    pub fn clamped(&self) -> u64 {
        self.clamped
    }

    /// Judges one feedback datagram received at `now`: call the judgement's methods for each
    /// claim; it counts the datagram once, when dropped, if any claim was clamped or refused.
    pub fn judge(&mut self, now: Instant) -> Judgement<'_> {
        Judgement { check: self, now, clamped: false }
    }

    /// Bytes sent in `(since, now]` (every byte when `since` predates what the log remembers).
    fn bytes_since(&self, since: Option<Instant>) -> u64 {
        let Some(since) = since else { return self.bytes };
        // Entries at or before `since`: the last of them holds the bytes sent up to `since`.
        let at_or_before = self.log.partition_point(|&(t, _)| t <= since);
        // None: every remembered send is later, so every byte counts (forgotten ones too).
        match at_or_before.checked_sub(1) {
            None => self.bytes,
            Some(i) => self.bytes - self.log[i].1,
        }
    }

    /// Whether some remembered send happened exactly at `t` (true when `t` is older than the
    /// memory and sends were forgotten: taken on trust).
    fn sent_at(&self, t: Instant) -> bool {
        let (Some(first), Some(last)) = (self.first_send, self.last_send) else { return false };
        if t < first || t > last {
            return false;
        }
        match self.log.front() {
            Some(&(oldest, _)) if t < oldest => self.forgot,
            _ => self.log.binary_search_by(|&(s, _)| s.cmp(&t)).is_ok(),
        }
    }
}

/// One feedback datagram being judged ([`FeedbackCheck::judge`]).
pub struct Judgement<'a> {
    check: &'a mut FeedbackCheck,
    now: Instant,
    clamped: bool,
}

impl Judgement<'_> {
    /// An echoed send time: refused unless this sender sent something at that instant. Returns
    /// the round trip it shows (now − echo).
    pub fn echo(&mut self, echo: Instant) -> Result<Duration, WireError> {
        if self.check.trusting {
            // The protocol's own check of an echo from the future still applies.
            return self.now.checked_since(echo).ok_or(WireError::Inconsistent("timestamp echo later than now"));
        }
        let Some(rtt) = self.now.checked_since(echo) else {
            self.clamped = true;
            return Err(WireError::Implausible("timestamp echo later than now"));
        };
        if !self.check.sent_at(echo) {
            self.clamped = true;
            return Err(WireError::Implausible("timestamp echo of a time nothing was sent"));
        }
        self.check.longest_rtt = self.check.longest_rtt.max(rtt);
        Ok(rtt)
    }

    /// A receive rate in bit/s measured over `window`, the latest packet it counts sent at
    /// `echo` (if the feedback says): clamped to what the bytes sent allow (module docs).
    pub fn receive_rate(&mut self, bps: u64, window: Duration, echo: Option<Instant>) -> u64 {
        let limit = self.rate_limit(window, echo);
        if bps > limit && !self.check.trusting {
            self.clamped = true;
            return limit;
        }
        bps
    }

    /// The largest receive rate, bit/s, that [`Judgement::receive_rate`] lets through.
    pub fn rate_limit(&self, window: Duration, echo: Option<Instant>) -> u64 {
        let c = &*self.check;
        let slack = MIN_SLACK.max(c.longest_rtt * 2);
        let reference = echo.unwrap_or(self.now).min(self.now);
        let since = reference.as_nanos().checked_sub((window + slack).as_nanos()).map(Instant::from_nanos);
        let bytes = c.bytes_since(since).saturating_mul(RATE_TOLERANCE).saturating_add(c.largest_packet);
        let w = window.as_nanos().max(1) as u128;
        u64::try_from(bytes as u128 * 8 * 1_000_000_000 / w).unwrap_or(u64::MAX)
    }

    /// A fraction (loss fraction, loss event rate): clamped into [0, 1] (NaN: 1, the claim that
    /// holds the sender back most, since its value is unknowable).
    pub fn fraction(&mut self, f: f64) -> f64 {
        if (0.0..=1.0).contains(&f) || self.check.trusting {
            return f;
        }
        self.clamped = true;
        if f < 0.0 {
            0.0
        } else {
            1.0
        }
    }

    /// A count of data packets (lost, received): at most the packets sent.
    pub fn count(&mut self, n: u64) -> u64 {
        self.at_most(n, self.check.packets)
    }

    /// Any claim with a known bound: clamped to `max`.
    pub fn at_most<T: PartialOrd>(&mut self, value: T, max: T) -> T {
        if value > max && !self.check.trusting {
            self.clamped = true;
            return max;
        }
        value
    }

    /// An acknowledged data sequence number: refused unless below `next_seq`, the next one to
    /// send (an acknowledgement of a packet never sent).
    pub fn acknowledged(&mut self, seq: u64, next_seq: u64) -> Result<(), WireError> {
        if seq < next_seq || self.check.trusting {
            return Ok(());
        }
        self.clamped = true;
        Err(WireError::Implausible("acknowledgement of a packet never sent"))
    }

    /// Whether a claim of this datagram has been clamped so far.
    pub fn is_clamped(&self) -> bool {
        self.clamped
    }
}

impl Drop for Judgement<'_> {
    fn drop(&mut self) {
        if self.clamped {
            self.check.clamped += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Instant {
        Instant::from_nanos(n * 1_000_000)
    }

    /// A sender of 1000-byte packets every 10 ms (800 kbit/s) from 0 to 990 ms.
    fn steady() -> FeedbackCheck {
        let mut c = FeedbackCheck::new();
        for i in 0..100 {
            c.on_sent(ms(10 * i), 1000);
        }
        c
    }

    #[test]
    fn an_honest_rate_passes_and_an_absurd_one_is_clamped_and_counted_once() {
        let mut c = steady();
        let mut j = c.judge(ms(1000));
        // 800 kbit/s over 100 ms, the last packet echoed: what was sent.
        assert_eq!(j.receive_rate(800_000, Duration::from_millis(100), Some(ms(990))), 800_000);
        assert!(!j.is_clamped());
        drop(j);
        assert_eq!(c.clamped(), 0);
        let mut j = c.judge(ms(1000));
        // Window 100 ms, slack 250 ms: (640 ms, 1000 ms] holds 35 packets; 2 × 35 000 + 1000 B
        // over 100 ms = 5.68 Mbit/s.
        assert_eq!(j.rate_limit(Duration::from_millis(100), Some(ms(990))), 5_680_000);
        assert_eq!(j.receive_rate(1 << 62, Duration::from_millis(100), Some(ms(990))), 5_680_000);
        assert_eq!(j.fraction(-0.5), 0.0);
        assert_eq!(j.fraction(f64::NAN), 1.0);
        drop(j);
        assert_eq!(c.clamped(), 1, "one datagram, however many claims");
    }

    #[test]
    fn echoes_of_times_never_sent_are_refused() {
        let mut c = steady();
        let mut j = c.judge(ms(1000));
        assert_eq!(j.echo(ms(990)), Ok(Duration::from_millis(10)));
        assert!(j.echo(ms(995)).is_err(), "between two sends");
        drop(j);
        let mut j = c.judge(ms(1000));
        assert!(j.echo(ms(1001)).is_err(), "from the future");
        drop(j);
        assert_eq!(c.clamped(), 2);
        // The longest round trip widens the slack: 2 × 10 ms < 250 ms, so nothing changes yet.
        assert_eq!(c.longest_rtt, Duration::from_millis(10));
    }

    #[test]
    fn counts_and_bounds_are_clamped() {
        let mut c = steady();
        let mut j = c.judge(ms(1000));
        assert_eq!(j.count(100), 100);
        assert!(!j.is_clamped());
        assert_eq!(j.count(u64::MAX), 100);
        assert_eq!(j.at_most(7u32, 5), 5);
        drop(j);
        assert_eq!(c.clamped(), 1);
    }

    #[test]
    fn a_forgetful_log_answers_generously() {
        let mut c = FeedbackCheck::new();
        for i in 0..(LOG_CAPACITY as u64 + 10) {
            c.on_sent(ms(i), 100);
        }
        let j = c.judge(ms(LOG_CAPACITY as u64 + 10));
        // An interval reaching past the memory counts every byte ever sent.
        let all = (LOG_CAPACITY as u64 + 10) * 100;
        let w = Duration::from_secs(100);
        assert_eq!(j.rate_limit(w, None), (2 * all + 100) * 8 / 100);
        drop(j);
        // An echo older than the memory is taken on trust; one before the first send is not.
        let mut j = c.judge(ms(LOG_CAPACITY as u64 + 10));
        assert!(j.echo(ms(3)).is_ok());
        assert!(!j.is_clamped());
    }

    #[test]
    fn nothing_sent_allows_nothing() {
        let mut c = FeedbackCheck::new();
        let mut j = c.judge(ms(5));
        assert!(j.echo(ms(1)).is_err());
        assert_eq!(j.receive_rate(1, Duration::from_millis(10), None), 0);
        assert_eq!(j.count(1), 0);
    }
}
