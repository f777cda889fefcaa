//! RFC 8083's report-based RTP circuit breakers, on the runtime's own receiver reports.
//!
//! The protocols' feedback differs (TFRC's X_recv and p, TCP's ACKs, RTCP RRs, ...) and is not
//! readable without knowing the protocol, so the driver adds one protocol-independent report of
//! its own, RTCP receiver-report style: every report interval the receiving driver sends a
//! `Report` envelope (sealed like every envelope when a key is set) with
//!
//! ```text
//! received u64     data envelopes accepted so far (cumulative, RFC 3550's "packets received")
//! next_seq u64     one past the highest data sequence number accepted ("extended highest")
//! echo u64         the sender's Unix send time (ns) of the latest data envelope accepted (LSR)
//! delay u64        ns between that arrival and this report (DLSR)
//! ```
//!
//! The sender's [`Breaker`] turns consecutive reports into intervals (expected = next_seq's
//! growth, lost = expected − received's growth, at least 0: RFC 3550 A.3), an RTT
//! (now − echo − delay, all on the sender's own clock) and its own sending rate over the same
//! interval (data bytes it sent between the two reports' arrivals), and applies:
//!
//! - **Media timeout** (RFC 8083 §4.2): [`MEDIA_TIMEOUT_REPORTS`] = 5 consecutive reports (the
//!   RFC's recommended non-reporting threshold k) in which the extended highest sequence number
//!   did not grow while the sender sent data: the forward path delivers nothing.
//! - **Congestion** (§4.3): over the last `CB_INTERVAL` reports, the TCP throughput for the
//!   reported loss and RTT, `X = s / (R·sqrt(2·b·p/3))` (the RFC's simple equation, b = 1, s the
//!   mean data packet size sent over the same intervals, p the fraction lost over them), and the
//!   sender's mean rate over them; the breaker trips when that rate is more than ten times X.
//!   No loss (p = 0) never trips it. `CB_INTERVAL` is the RFC's
//!   `ceil(3·min(max(10·G/Fr, 10·Tdr), max(15 s, 3·Td)) / (3·Tdr))` with G = 1 frame, Fr the
//!   video's frame rate (none for bulk data) and Td = Tdr = the report interval: 10 reports for
//!   any report interval up to 1.5 s.
//!
//! A report is judged before it is believed: its next_seq may not exceed what the sender sent,
//! its echo may not lie in the future or before the session, its delay may not exceed the
//! elapsed time since that echo. An impossible report is counted (`implausible_report`) and
//! ignored. Without a key, a spoofer at the peer's address can still send plausible reports of
//! heavy loss and trip the breaker (as it could send a Bye); with a key it cannot.

use std::collections::VecDeque;

use serde::Serialize;
use vidcc_core::{Duration, Instant};

/// Bytes of a report's body.
pub const REPORT_BYTES: usize = 32;
/// A receiver reports this often unless told otherwise (RFC 3550 §6.2's reduced minimum,
/// 360 / session bandwidth in kbit/s, is below 1 s for any session above 360 kbit/s).
pub const REPORT_INTERVAL: Duration = Duration::from_secs(1);
/// RFC 8083 §4.2's non-reporting threshold k.
pub const MEDIA_TIMEOUT_REPORTS: u32 = 5;
/// RFC 8083 §4.3: the sending rate may reach this many times the TCP throughput.
pub const CONGESTION_FACTOR: f64 = 10.0;

/// The receiving driver's report (see the module header).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Report {
    pub received: u64,
    pub next_seq: u64,
    pub echo_unix_ns: u64,
    pub delay_ns: u64,
}

impl Report {
    pub fn emit(&self, out: &mut Vec<u8>) {
        for v in [self.received, self.next_seq, self.echo_unix_ns, self.delay_ns] {
            out.extend_from_slice(&v.to_be_bytes());
        }
    }
    pub fn parse(body: &[u8]) -> Option<Report> {
        if body.len() != REPORT_BYTES {
            return None;
        }
        let at = |i: usize| u64::from_be_bytes(body[i * 8..i * 8 + 8].try_into().expect("8 bytes"));
        Some(Report { received: at(0), next_seq: at(1), echo_unix_ns: at(2), delay_ns: at(3) })
    }
}

/// What the receiving driver keeps for its reports.
#[derive(Clone, Copy, Debug, Default)]
pub struct Reporter {
    pub interval: Duration,
    pub next_at: Instant,
    received: u64,
    next_seq: u64,
    /// The latest accepted data envelope's send time (sender's Unix ns) and arrival.
    last: Option<(u64, Instant)>,
}

impl Reporter {
    pub fn new(interval: Duration, now: Instant) -> Self {
        Reporter { interval, next_at: now + interval, ..Default::default() }
    }
    pub fn on_data(&mut self, seq: u64, sent_unix_ns: u64, now: Instant) {
        self.received += 1;
        self.next_seq = self.next_seq.max(seq.saturating_add(1));
        self.last = Some((sent_unix_ns, now));
    }
    /// The report due at `now`, if one is (none before the first data envelope).
    pub fn due(&mut self, now: Instant) -> Option<Report> {
        if now < self.next_at {
            return None;
        }
        self.next_at = now + self.interval;
        let (echo, at) = self.last?;
        Some(Report {
            received: self.received,
            next_seq: self.next_seq,
            echo_unix_ns: echo,
            delay_ns: now.saturating_since(at).as_nanos(),
        })
    }
}

/// Why a breaker tripped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Trip {
    FeedbackTimeout,
    MediaTimeout,
    Congestion,
}

impl Trip {
    pub fn as_str(self) -> &'static str {
        match self {
            Trip::FeedbackTimeout => "circuit-breaker: feedback-timeout",
            Trip::MediaTimeout => "circuit-breaker: media-timeout",
            Trip::Congestion => "circuit-breaker: congestion",
        }
    }
    /// The code a Bye carries (0 = no trip).
    pub fn code(self) -> u8 {
        match self {
            Trip::FeedbackTimeout => 1,
            Trip::MediaTimeout => 2,
            Trip::Congestion => 3,
        }
    }
    pub fn from_code(c: u8) -> Option<Trip> {
        Some(match c {
            1 => Trip::FeedbackTimeout,
            2 => Trip::MediaTimeout,
            3 => Trip::Congestion,
            _ => return None,
        })
    }
}

/// The congestion breaker's view, for the sender's report.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct BreakerStats {
    pub reports: u64,
    /// Reports after which a full CB_INTERVAL window was judged.
    pub evaluations: u64,
    pub cb_interval_reports: u32,
    /// The largest ratio of sending rate to TCP throughput judged (0 when no loss was reported).
    pub max_ratio: f64,
    /// The latest window's loss fraction, RTT (ns), sending rate and TCP throughput (bit/s; 0
    /// when no loss was reported: unbounded).
    pub loss: f64,
    pub rtt_ns: u64,
    pub rate_bps: f64,
    pub tcp_bps: f64,
}

/// One reporting interval, as the sender saw it.
#[derive(Clone, Copy, Debug)]
struct Interval {
    expected: u64,
    lost: u64,
    bytes: u64,
    packets: u64,
    span: Duration,
    rtt: Duration,
}

/// The sender's report-based breakers (media timeout, congestion).
#[derive(Clone, Debug)]
pub struct Breaker {
    cb_interval: u32,
    prev: Option<(Report, Instant, u64, u64)>,
    window: VecDeque<Interval>,
    stalled: u32,
    pub stats: BreakerStats,
}

/// RFC 8083 §4.3's CB_INTERVAL, in reports, for a report interval `tdr` and, for video, its
/// frame interval (G = 1 frame).
pub fn cb_interval(tdr: Duration, frame_interval: Option<Duration>) -> u32 {
    let tdr_s = tdr.as_nanos().max(1) as f64 / 1e9;
    let g_over_fr = frame_interval.map_or(0.0, |f| f.as_nanos() as f64 / 1e9);
    let inner = (10.0 * g_over_fr).max(10.0 * tdr_s).min(15f64.max(3.0 * tdr_s));
    (3.0 * inner / (3.0 * tdr_s)).ceil().max(1.0) as u32
}

impl Breaker {
    pub fn new(cb_interval: u32) -> Self {
        Breaker {
            cb_interval: cb_interval.max(1),
            prev: None,
            window: VecDeque::new(),
            stalled: 0,
            stats: BreakerStats { cb_interval_reports: cb_interval.max(1), ..Default::default() },
        }
    }

    /// A plausible report arrived at `now` (sender's clock; `now_unix_ns` the same instant in
    /// Unix ns) after the sender had sent `packets` data packets of `bytes` in all.
    pub fn on_report(&mut self, r: Report, now: Instant, now_unix_ns: u64, packets: u64, bytes: u64) -> Option<Trip> {
        self.stats.reports += 1;
        let rtt = Duration::from_nanos(now_unix_ns.saturating_sub(r.echo_unix_ns).saturating_sub(r.delay_ns));
        let (p, at, p_packets, p_bytes) = self.prev.replace((r, now, packets, bytes))?;
        let sent = packets - p_packets;
        // §4.2: the forward path delivered nothing new while the sender sent.
        if r.next_seq <= p.next_seq && sent > 0 {
            self.stalled += 1;
            if self.stalled >= MEDIA_TIMEOUT_REPORTS {
                return Some(Trip::MediaTimeout);
            }
        } else {
            self.stalled = 0;
        }
        let expected = r.next_seq.saturating_sub(p.next_seq);
        let received = r.received.saturating_sub(p.received);
        self.window.push_back(Interval {
            expected,
            lost: expected.saturating_sub(received),
            bytes: bytes - p_bytes,
            packets: sent,
            span: now.saturating_since(at),
            rtt,
        });
        if self.window.len() > self.cb_interval as usize {
            self.window.pop_front();
        }
        if self.window.len() < self.cb_interval as usize {
            return None;
        }
        self.judge()
    }

    /// §4.3 over the full window.
    fn judge(&mut self) -> Option<Trip> {
        self.stats.evaluations += 1;
        let sum = |f: fn(&Interval) -> u64| self.window.iter().map(f).sum::<u64>();
        let (expected, lost, bytes, packets) =
            (sum(|i| i.expected), sum(|i| i.lost), sum(|i| i.bytes), sum(|i| i.packets));
        let span_ns = sum(|i| i.span.as_nanos());
        let rtt_ns = sum(|i| i.rtt.as_nanos()) / self.window.len() as u64;
        if expected == 0 || packets == 0 || span_ns == 0 || rtt_ns == 0 {
            return None;
        }
        let p = lost as f64 / expected as f64;
        let rate = bytes as f64 * 8.0 / (span_ns as f64 / 1e9);
        let s_bits = bytes as f64 * 8.0 / packets as f64;
        let tcp = s_bits / (rtt_ns as f64 / 1e9 * (2.0 * p / 3.0).sqrt());
        self.stats.loss = p;
        self.stats.rtt_ns = rtt_ns;
        self.stats.rate_bps = rate;
        self.stats.tcp_bps = if p > 0.0 { tcp } else { 0.0 };
        if p <= 0.0 {
            return None;
        }
        let ratio = rate / tcp;
        self.stats.max_ratio = self.stats.max_ratio.max(ratio);
        (ratio > CONGESTION_FACTOR).then_some(Trip::Congestion)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1_000_000_000;

    /// Feeds `n` one-second reports of a flow sending `pps` packets of 1000 B per second with
    /// a fraction `loss` lost and a 100 ms RTT; returns the first trip.
    fn feed(b: &mut Breaker, n: u64, pps: u64, loss: f64, progress: bool) -> Option<Trip> {
        let (mut rx, mut seq) = (0u64, 0u64);
        for k in 1..=n {
            if progress {
                seq += pps;
                rx += (pps as f64 * (1.0 - loss)).round() as u64;
            }
            let now_unix = 10 * S + k * S;
            let r = Report { received: rx, next_seq: seq, echo_unix_ns: now_unix - 100_000_000, delay_ns: 0 };
            if let Some(t) = b.on_report(r, Instant::from_nanos(k * S), now_unix, k * pps, k * pps * 1000) {
                return Some(t);
            }
        }
        None
    }

    #[test]
    fn cb_interval_is_ten_reports_for_short_intervals() {
        assert_eq!(cb_interval(Duration::from_secs(1), Some(Duration::from_millis(40))), 10);
        assert_eq!(cb_interval(Duration::from_millis(200), None), 10);
        assert_eq!(cb_interval(Duration::from_secs(5), None), 3);
    }

    #[test]
    fn far_above_the_tcp_rate_trips_and_near_it_does_not() {
        // p = 10 %, R = 100 ms, s = 8000 bit: X = 8000 / (0.1 · 0.258) = 310 kbit/s.
        // 1000 packets/s = 8 Mbit/s, 26 × X: trips once the window is full (11 reports).
        let mut b = Breaker::new(10);
        assert_eq!(feed(&mut b, 20, 1000, 0.1, true), Some(Trip::Congestion));
        assert_eq!(b.stats.evaluations, 1);
        // 100 packets/s = 800 kbit/s, 2.6 × X: never.
        let mut b = Breaker::new(10);
        assert_eq!(feed(&mut b, 30, 100, 0.1, true), None);
        assert!(b.stats.max_ratio > 2.0 && b.stats.max_ratio < 3.0, "{:?}", b.stats);
        // No loss, however fast: never.
        let mut b = Breaker::new(10);
        assert_eq!(feed(&mut b, 30, 10_000, 0.0, true), None);
    }

    #[test]
    fn reports_without_progress_trip_the_media_timeout() {
        let mut b = Breaker::new(10);
        assert_eq!(feed(&mut b, 20, 100, 0.0, false), Some(Trip::MediaTimeout));
        assert_eq!(b.stats.reports, 1 + MEDIA_TIMEOUT_REPORTS as u64);
    }

    #[test]
    fn a_report_round_trips_and_other_lengths_do_not_parse() {
        let r = Report { received: 1, next_seq: 2, echo_unix_ns: 3, delay_ns: 4 };
        let mut v = Vec::new();
        r.emit(&mut v);
        assert_eq!(Report::parse(&v), Some(r));
        assert_eq!(Report::parse(&v[1..]), None);
    }
}
