//! The shared TCP sender: one state machine for Tahoe, Reno, NewReno, SACK, Westwood+ and GAIMD,
//! which differ only in the hooks of [`CongestionControl`] (what ssthresh/cwnd become on a loss signal, what a partial
//! ACK does in fast recovery, and what each ACK teaches a bandwidth estimator).
//!
//! Behaviour follows ns-2's one-way `Agent/TCP` (tcp.cc) with the RFC rules it implements:
//! - Sequence space in segments (ns-2 `seqno_`); every data packet is `packet_size_bytes` on the
//!   wire, header included, so its payload is `packet_size_bytes − 40`.
//! - Usable window = min(⌊cwnd + dupwnd⌋, window_limit) segments, with
//!   window_limit = max_window_bytes / packet_size_bytes (ns-2 `window_`, 64 for 64 kB of 1000 B)
//!   and `dupwnd` the fast-recovery inflation kept apart from cwnd, as ns-2's Reno does.
//! - Slow start (cwnd < ssthresh: cwnd += 1 per new ACK) and congestion avoidance
//!   (cwnd += 1/cwnd per new ACK), RFC 5681 §3.1 as in ns-2 `opencwnd()`: per ACK, not per byte.
//!   Initial cwnd = `initial_window` (2), initial ssthresh unbounded (ns-2 `ssthresh_` 0x7fffffff).
//! - Fast retransmit on the 3rd duplicate ACK (RFC 5681 §3.2), then fast recovery with window
//!   inflation (+3, then +1 per further duplicate). Multiple fast retransmits for losses of one
//!   window are prevented by `recover` (RFC 6582 §3.2 step 2, ns-2 `bugfix_ 1`, for all variants).
//!   The fast retransmission, and NewReno's partial-ACK retransmissions, are sent at once ahead
//!   of the window and marked [`PacketMeta::urgent`]: ns-2 sends them with `output()`, outside
//!   the random delayed send of `overhead_`, and the simulator's `send_jitter` skips them too.
//! - A loss signal reduces W = cwnd without the inflation (ns-2 `windowd()`, its `dupwnd_` being
//!   0 when `slowdown()` runs; cwnd never exceeds window_limit here): the hooks of
//!   [`CongestionControl`] see it as `Window::cwnd`. NewReno's partial ACKs deflate the
//!   inflation first and then cwnd itself (ns-2 `partial_window_deflation_ 1`).
//! - Retransmission timeout per RFC 6298 with the shared estimator
//!   ([`crate::estimate::rtt::Rfc6298`]): min RTO from the config (0.2 s), initial 1 s,
//!   max 60 s, clock granularity G = 10 ms (ns-2 `tcpTick_`). On expiry: the variant sets
//!   ssthresh and cwnd (1), the RTO backs off ×2, and the sender goes back to the first unacked
//!   segment (go-back-N, as ns-2 rewinds `t_seqno_`).
//! - RTT sampling for the RTO follows Karn and ns-2 (`rtt_active_`/`rtt_seq_`): one segment at
//!   a time is timed, retransmitted segments never are, any retransmission cancels the running
//!   measurement, and the backoff is reset only when a timed segment is acknowledged.
//! - Limited transmit (RFC 3042; RFC 5681 §3.2 SHOULD; ns-2 `singledup_ 1`, its default), on by
//!   default (`limited_transmit`): on each of the first two duplicate ACKs outside recovery, one
//!   new segment, as ns-2's `send_one()` decides it: the segment `snd_nxt` if it exists, lies
//!   within the window limit, and `snd_nxt + 1 ≤ snd_una + cwnd + dupacks` (ns-2
//!   `t_seqno_ <= highest_ack_ + cwnd_ + dupacks_`; RFC 5681 allows up to cwnd + 2 on either
//!   duplicate). It leaves at once (ns-2 `output()`), marked urgent, and cwnd is unchanged.
//! - ns-2 restarts the retransmission timer on fast retransmit (`reset_rtx_timer(1,0)`), and on
//!   every new ACK while data is outstanding (RFC 6298 §5.3); so does this sender.
//!
//! Parameters ([`super::config::TcpConfig`], defaults in brackets): `max_window_bytes` [64 000],
//! `initial_window` [2], `min_rto_ns` [200 ms], `initial_rto_ns` [1 s], `transfer_bytes`
//! [None = FTP, always backlogged]; plus `start` and `stop` (no new data from `stop` on;
//! outstanding data is still retransmitted until acknowledged).
//!
//! Deviations from ns-2:
//! - RTT samples are not rounded to `tcpTick_` ticks; G only enters RTO = SRTT + max(G, 4·RTTVAR).
//! - From RFC 5681 Eq. (4): ssthresh halves W as ns-2 does, not
//!   FlightSize = snd_nxt − snd_una. The two differ whenever the window is not full, and most
//!   during and after NewReno recovery, whose inflation keeps sending new data while `snd_una`
//!   advances one hole per RTT (FlightSize then spans several windows; halving it on the
//!   timeout that often ends such a recovery sent slow start far past the path's capacity,
//!   issue 13).
//! - cwnd is capped at window_limit (ns-2 lets `cwnd_` grow past `window_`, where it has no
//!   effect on what is sent).
//! - A finite transfer sends ⌈transfer_bytes / payload⌉ full-size segments, like ns-2.
//! - Video ([`TcpSender::with_video`], [`super::video`]): a segment carries one packet of the
//!   application's video, whose length may be below `packet_size_bytes − 40`.
//! - SACK recovery only for `tcp-sack` ([`super::sack`]); no NewReno `maxburst` of 2 per
//!   duplicate ACK in recovery, no
//!   delayed-ACK-aware byte counting, no handshake. ns-2's initial RTO is 3 s (`rtxcur_init_`);
//!   the default here is RFC 6298's 1 s.
//! - The header's timestamps are echoed by the receiver; besides Westwood+'s per-ACK RTT they
//!   carry no RFC 7323 semantics (no PAWS, no RTO sampling from them).

use std::collections::VecDeque;

use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::rtt::Rfc6298;
use crate::proto::plausible::FeedbackCheck;
use crate::units::DataSize;
use crate::wire::WireError;
use crate::{Duration, Instant};

use super::config::TcpConfig;
pub use super::congestion::{AckSample, AfterFastRetransmit, CongestionControl, PartialAck, Window};
use super::header::{SackBlocks, TcpHeader, HEADER_BYTES};
use super::sack::Scoreboard;
use super::video::TcpVideoSource;

/// Duplicate ACKs that trigger fast retransmit (ns-2 `numdupacks_`, RFC 5681 §3.2).
pub const DUPACK_THRESHOLD: u32 = 3;
/// Upper bound of the RTO (RFC 6298 §2.5 allows ≥ 60 s).
pub const MAX_RTO: Duration = Duration::from_secs(60);
/// Clock granularity G of RFC 6298 §2, set to ns-2's `tcpTick_` default.
pub const CLOCK_GRANULARITY: Duration = Duration::from_millis(10);
/// Events kept for a driver that does not drain them (oldest dropped beyond this).
const EVENT_CAPACITY: usize = 16;

/// Counters for tests, logs and summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderCounters {
    /// Data segments sent, retransmissions included.
    pub segments_sent: u64,
    pub retransmissions: u64,
    pub fast_retransmits: u64,
    pub timeouts: u64,
    pub acks_received: u64,
}

/// A one-way TCP sender, generic over its congestion control variant.
pub struct TcpSender<C> {
    cc: C,
    packet_size_bytes: u32,
    payload_bytes: u32,
    window_limit: u64,
    /// Segments of a finite transfer; `None` for a backlogged FTP source.
    total_segments: Option<u64>,
    start: Instant,
    stop: Option<Instant>,
    started: bool,

    w: Window,
    /// Fast-recovery inflation in segments (ns-2 `dupwnd_`); partial ACKs deflate it down to 1
    /// and then cwnd itself ([`TcpSender::deflate_partially`]).
    dupwnd: f64,
    /// Oldest unacknowledged segment.
    snd_una: u64,
    /// Next segment to send (rewound to `snd_una` on timeout).
    snd_nxt: u64,
    /// One past the highest segment ever sent.
    snd_max: u64,
    dupacks: u32,
    in_recovery: bool,
    /// NewReno: a partial ACK has already restarted the timer in this recovery.
    partial_ack_seen: bool,
    /// RFC 6582 `recover`: highest segment sent when the last loss recovery began.
    recover: Option<u64>,
    /// A single segment to retransmit ahead of the window (fast retransmit, partial ACK).
    pending_rtx: Option<u64>,
    /// Limited transmit on (ns-2 `singledup_`).
    limited_transmit: bool,
    /// The new segment limited transmit chose on a duplicate ACK, sent by the next poll.
    pending_limited: Option<u64>,
    /// SACK senders only: what the receiver reported (RFC 6675 scoreboard).
    scoreboard: Option<Scoreboard>,

    rtt: Rfc6298,
    /// Karn: the segment being timed and when it was sent.
    timed: Option<(u64, Instant)>,
    rto_deadline: Option<Instant>,

    events: VecDeque<Event>,
    counters: SenderCounters,
    stats: EndpointStats,
    /// Judges ACKs against what was sent (`proto::plausible`).
    check: FeedbackCheck,
    /// The video this sender carries (`None`: bulk data); see [`super::video`].
    video: Option<Box<TcpVideoSource>>,
}

impl<C: CongestionControl> TcpSender<C> {
    /// Panics if a data packet cannot hold the 40-byte header plus one payload byte: that is a
    /// configuration error the scenario schema rejects first.
    pub fn new(cc: C, config: &TcpConfig, packet_size_bytes: u32, start: Instant, stop: Option<Instant>) -> Self {
        assert!(
            packet_size_bytes as usize > HEADER_BYTES,
            "TCP packet size {packet_size_bytes} B leaves no payload after the 40-byte header"
        );
        let payload_bytes = packet_size_bytes - HEADER_BYTES as u32;
        let window_limit = window_limit_segments(config, packet_size_bytes);
        let total_segments = config.transfer_bytes.map(|b| b.div_ceil(payload_bytes as u64));
        let rtt =
            Rfc6298::new(Duration::from_nanos(config.initial_rto_ns), Duration::from_nanos(config.min_rto_ns), MAX_RTO)
                .with_granularity(CLOCK_GRANULARITY);
        let cwnd = (config.initial_window.max(1) as f64).min(window_limit as f64);
        let sack = cc.after_fast_retransmit() == AfterFastRetransmit::SackRecovery;
        TcpSender {
            cc,
            packet_size_bytes,
            payload_bytes,
            window_limit,
            total_segments,
            start,
            stop,
            started: false,
            w: Window { cwnd, ssthresh: f64::INFINITY },
            dupwnd: 0.0,
            snd_una: 0,
            snd_nxt: 0,
            snd_max: 0,
            dupacks: 0,
            in_recovery: false,
            partial_ack_seen: false,
            recover: None,
            pending_rtx: None,
            limited_transmit: config.limited_transmit,
            pending_limited: None,
            scoreboard: sack.then(Scoreboard::default),
            rtt,
            timed: None,
            rto_deadline: None,
            events: VecDeque::with_capacity(EVENT_CAPACITY),
            counters: SenderCounters::default(),
            stats: EndpointStats::default(),
            check: FeedbackCheck::new(),
            video: None,
        }
    }

    /// Carries `video` instead of bulk data: segments hold its packets as the window allows.
    pub fn with_video(mut self, video: TcpVideoSource) -> Self {
        self.video = Some(Box::new(video));
        self
    }

    pub fn congestion_control(&self) -> &C {
        &self.cc
    }
    /// Congestion window in segments (without fast-recovery inflation).
    pub fn cwnd(&self) -> f64 {
        self.w.cwnd
    }
    /// Slow-start threshold in segments (`f64::INFINITY` until the first loss).
    pub fn ssthresh(&self) -> f64 {
        self.w.ssthresh
    }
    /// Segments the sender may have outstanding now: min(⌊cwnd + dupwnd⌋, window_limit), ≥ 1.
    pub fn usable_window(&self) -> u64 {
        let w = (self.w.cwnd + self.dupwnd).floor();
        if w < 1.0 {
            1
        } else {
            (w as u64).min(self.window_limit)
        }
    }
    /// ns-2 `window_`: the cap on cwnd, in segments.
    pub fn window_limit(&self) -> u64 {
        self.window_limit
    }
    pub fn payload_bytes(&self) -> u32 {
        self.payload_bytes
    }
    pub fn snd_una(&self) -> u64 {
        self.snd_una
    }
    pub fn snd_nxt(&self) -> u64 {
        self.snd_nxt
    }
    pub fn snd_max(&self) -> u64 {
        self.snd_max
    }
    pub fn in_recovery(&self) -> bool {
        self.in_recovery
    }
    pub fn dupacks(&self) -> u32 {
        self.dupacks
    }
    /// Current (backed-off) retransmission timeout.
    pub fn rto(&self) -> Duration {
        self.rtt.rto()
    }
    pub fn srtt(&self) -> Option<Duration> {
        self.rtt.srtt()
    }
    pub fn counters(&self) -> SenderCounters {
        self.counters
    }
    /// A finite transfer whose every segment is acknowledged.
    pub fn is_complete(&self) -> bool {
        self.total_segments.is_some_and(|n| self.snd_una >= n)
    }

    /// Whether segment `seq` may be sent at `now`: it exists (finite transfers), and if it is
    /// new data the application has not stopped.
    fn has_segment(&mut self, seq: u64, now: Instant) -> bool {
        if self.total_segments.is_some_and(|n| seq >= n) {
            return false;
        }
        let exists = seq < self.snd_max || !matches!(self.stop, Some(s) if now >= s);
        // A video sender also needs the application to have written the segment's data.
        exists && self.video.as_mut().is_none_or(|v| v.has(seq, now))
    }

    /// Whether the sender will ever send anything from `start` on.
    fn has_anything_to_send(&self) -> bool {
        self.total_segments != Some(0) && !matches!(self.stop, Some(s) if s <= self.start)
    }

    fn clamp_window(&mut self) {
        let max = self.window_limit as f64;
        self.w.cwnd = self.w.cwnd.clamp(1.0, max);
        if self.w.ssthresh.is_nan() || self.w.ssthresh < 1.0 {
            self.w.ssthresh = 1.0;
        }
    }

    fn push_event(&mut self, e: Event) {
        if self.events.len() == EVENT_CAPACITY {
            self.events.pop_front();
        }
        self.events.push_back(e);
    }

    fn window_event(&mut self) {
        let bytes = self.w.cwnd.floor() as u64 * self.packet_size_bytes as u64;
        self.push_event(Event::WindowChanged { cwnd: DataSize::from_bytes(bytes) });
    }

    /// RFC 5681 §3.1 (ns-2 `opencwnd`): +1 per ACK in slow start, +1/cwnd in congestion avoidance
    /// (the variant's [`CongestionControl::congestion_avoidance_increase`]).
    fn open_cwnd(&mut self) {
        if self.w.cwnd < self.w.ssthresh {
            self.w.cwnd += 1.0;
        } else {
            self.w.cwnd += self.cc.congestion_avoidance_increase(self.w.cwnd);
        }
        self.w.cwnd = self.w.cwnd.min(self.window_limit as f64);
    }

    fn on_ack(&mut self, now: Instant, ack: u64, ts_echo_ns: u64, sack: &SackBlocks) {
        self.counters.acks_received += 1;
        // The shared plausibility check: an ACK beyond anything sent cannot come from our
        // receiver (ignored, counted); an echo of a time no segment was sent at gives no RTT.
        let mut claims = self.check.judge(now);
        if claims.acknowledged(ack, self.snd_max + 1).is_err() {
            return;
        }
        let rtt = claims.echo(Instant::from_nanos(ts_echo_ns)).ok();
        drop(claims);
        // An old ACK carries nothing.
        if ack < self.snd_una {
            return;
        }
        // SACK: a duplicate ACK counts only if it SACKs new data (ns-2 `CheckUpdate`).
        let mut new_sack = true;
        if let Some(sb) = &mut self.scoreboard {
            sb.advance(ack);
            new_sack = sb.record(sack, self.snd_max);
        }
        if ack > self.snd_una {
            self.on_new_ack(now, ack, rtt);
        } else if self.snd_una < self.snd_max && new_sack {
            self.on_duplicate_ack(now);
        }
    }

    /// `rtt`: now − the echoed timestamp, when it names a send.
    fn on_new_ack(&mut self, now: Instant, ack: u64, rtt: Option<Duration>) {
        let acked = ack - self.snd_una;
        self.cc.on_ack(&AckSample { now, newly_acked: acked, rtt });
        self.snd_una = ack;
        self.snd_nxt = self.snd_nxt.max(ack);
        if let Some(v) = self.video.as_mut() {
            v.release(ack);
        }
        self.dupacks = 0;
        self.pending_limited = None;
        if self.pending_rtx.is_some_and(|s| s < ack) {
            self.pending_rtx = None;
        }

        // Karn: only a segment sent once, and timed since, yields an RTO sample; that sample
        // is also what ends the exponential backoff (RFC 6298 §5, Karn & Partridge 1987).
        if let Some((seq, sent)) = self.timed {
            if ack > seq {
                // `on_sample` also clears the backoff.
                self.rtt.on_sample(now.saturating_since(sent));
                self.timed = None;
            }
        }

        let mut restart_timer = true;
        if self.in_recovery && self.scoreboard.is_some() {
            // RFC 6675: recovery ends when the cumulative ACK passes RecoveryPoint; cwnd stays
            // as set (ns-2 Sack1 `newack()`, no `opencwnd()`). A partial ACK only moves the
            // scoreboard; what to send next is NextSeg's, in `poll_transmit`.
            if !matches!(self.recover, Some(r) if ack <= r) {
                self.in_recovery = false;
                if let Some(sb) = &mut self.scoreboard {
                    sb.end_recovery();
                }
            }
        } else if self.in_recovery {
            let full = !matches!(self.recover, Some(r) if ack <= r);
            if full || self.cc.partial_ack() == PartialAck::ExitRecovery {
                // RFC 5681 step 6 / RFC 6582 step 3: deflate to ssthresh. ns-2 then runs its
                // usual per-ACK `opencwnd()` on this same ACK; so do we.
                self.in_recovery = false;
                self.dupwnd = 0.0;
                self.open_cwnd();
            } else {
                // RFC 6582 §3.2 step 5: retransmit the first unacknowledged segment, deflate by
                // the amount acknowledged and add back one segment; the timer is reset only for
                // the first partial ACK ("Impatient", §4).
                self.pending_rtx = Some(ack);
                self.deflate_partially(acked);
                restart_timer = !self.partial_ack_seen;
                self.partial_ack_seen = true;
            }
        } else {
            self.open_cwnd();
        }

        if self.snd_una >= self.snd_max {
            self.rto_deadline = None;
        } else if restart_timer {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
    }

    /// Partial window deflation as ns-2's NewReno does it (`partialnewack`,
    /// `partial_window_deflation_ 1`): the inflation absorbs what was acknowledged as long as it
    /// can; beyond that, cwnd itself shrinks and the inflation stays at 1 (the segment about to
    /// be retransmitted). The usable window cwnd + dupwnd ends the same as RFC 6582's "deflate
    /// by the amount acknowledged, add back one segment"; where the reduction lands matters for
    /// the window a later timeout halves and for cwnd when recovery ends.
    fn deflate_partially(&mut self, acked: u64) {
        let acked = acked as f64;
        if self.dupwnd > acked {
            self.dupwnd -= acked - 1.0;
        } else {
            self.w.cwnd = (self.w.cwnd - (acked - self.dupwnd)).max(1.0);
            self.dupwnd = 1.0;
        }
    }

    fn on_duplicate_ack(&mut self, now: Instant) {
        self.dupacks = self.dupacks.saturating_add(1);
        self.cc.on_ack(&AckSample { now, newly_acked: 0, rtt: None });
        if self.in_recovery {
            // RFC 5681 §3.2 step 4: each further duplicate means a segment left the network
            // (SACK recovery counts that through the scoreboard instead).
            if self.scoreboard.is_none() {
                self.dupwnd += 1.0;
            }
            return;
        }
        // RFC 6582 §3.2 step 2: duplicates for data sent before the last loss recovery began
        // (e.g. go-back-N copies after a timeout) do not trigger another fast retransmit.
        let beyond_recover = !matches!(self.recover, Some(r) if self.snd_una <= r.saturating_add(1));
        // RFC 6675 §5 step 2: with SACK, IsLost(HighACK + 1) also starts recovery.
        let lost = self.scoreboard.as_ref().is_some_and(|sb| sb.is_lost(self.snd_una, self.snd_max));
        if (self.dupacks == DUPACK_THRESHOLD || lost) && beyond_recover {
            self.enter_fast_recovery(now);
        } else if self.limited_transmit && self.dupacks < DUPACK_THRESHOLD && !self.in_recovery {
            self.choose_limited_transmit(now);
        }
    }

    /// ns-2 `send_one()` (RFC 3042): the next segment, if it exists, fits the window limit and
    /// keeps `snd_nxt + 1 ≤ snd_una + cwnd + dupacks` (ns-2's `highest_ack_` is `snd_una − 1`).
    fn choose_limited_transmit(&mut self, now: Instant) {
        let seq = self.snd_nxt;
        let within_limit = seq < self.snd_una + self.window_limit;
        let within_cwnd = (seq + 1) as f64 <= self.snd_una as f64 + self.w.cwnd + self.dupacks as f64;
        if within_limit && within_cwnd && self.has_segment(seq, now) {
            self.pending_limited = Some(seq);
        }
    }

    fn enter_fast_recovery(&mut self, now: Instant) {
        self.pending_limited = None;
        self.cc.on_fast_retransmit(&mut self.w);
        self.clamp_window();
        self.recover = Some(self.snd_max - 1);
        if self.cc.after_fast_retransmit() == AfterFastRetransmit::SlowStart {
            // Tahoe: ns-2 `reset_rtx_timer(0,0)` rewinds to the hole and restarts the timer
            // without backoff; the hole then leaves through the window of 1.
            self.dupwnd = 0.0;
            self.pending_rtx = None;
            self.snd_nxt = self.snd_una;
            self.counters.fast_retransmits += 1;
            self.rto_deadline = Some(now + self.rtt.rto());
            self.push_event(Event::LossEvent);
            self.window_event();
            return;
        }
        // No inflation with SACK: pipe counts what left the network.
        self.dupwnd = if self.scoreboard.is_some() { 0.0 } else { DUPACK_THRESHOLD as f64 };
        self.in_recovery = true;
        self.partial_ack_seen = false;
        self.pending_rtx = Some(self.snd_una);
        self.counters.fast_retransmits += 1;
        self.rto_deadline = Some(now + self.rtt.rto());
        self.push_event(Event::LossEvent);
        self.window_event();
    }

    fn on_retransmission_timeout(&mut self, now: Instant) {
        self.counters.timeouts += 1;
        self.cc.on_timeout(&mut self.w);
        self.clamp_window();
        self.recover = Some(self.snd_max - 1);
        self.in_recovery = false;
        self.dupwnd = 0.0;
        self.dupacks = 0;
        self.pending_rtx = None;
        self.pending_limited = None;
        if let Some(sb) = &mut self.scoreboard {
            sb.clear();
        }
        // Go-back-N from the first unacknowledged segment (ns-2 resets `t_seqno_`).
        self.snd_nxt = self.snd_una;
        self.rtt.backoff();
        self.rto_deadline = Some(now + self.rtt.rto());
        self.push_event(Event::Timeout);
        self.window_event();
    }

    /// `urgent`: a fast or partial-ACK retransmission, which a driver must not delay (see
    /// [`PacketMeta::urgent`]).
    fn transmit(&mut self, now: Instant, seq: u64, retransmit: bool, urgent: bool) -> Transmit {
        self.counters.segments_sent += 1;
        if retransmit {
            self.counters.retransmissions += 1;
            // Karn: the ACK that would end the current measurement may now be caused by this copy.
            self.timed = None;
        } else if self.timed.is_none() {
            self.timed = Some((seq, now));
        }
        if self.rto_deadline.is_none() {
            self.rto_deadline = Some(now + self.rtt.rto());
        }
        let header = TcpHeader::Data { seq, ts_ns: now.as_nanos() }.emit();
        self.check.on_sent(now, HEADER_BYTES as u64 + self.payload_bytes as u64);
        let (payload_len, media) = match &self.video {
            Some(v) => v.segment(seq).expect("a video segment is numbered before it is sent"),
            None => (self.payload_bytes, crate::media::MediaTag::NONE),
        };
        let meta = PacketMeta { retransmit, urgent, media, ..PacketMeta::data(seq) };
        Transmit { to: Destination::PEER, header, payload_len, meta }
    }

    /// RFC 6675 §5 (C): while cwnd − pipe ≥ 1, the segment NextSeg names. The retransmissions
    /// go through the driver's send jitter, as ns-2's Sack1 sends them from `send_much()`.
    fn next_sack_segment(&mut self, now: Instant) -> Option<Transmit> {
        let sb = self.scoreboard.as_ref()?;
        let pipe = sb.pipe(self.snd_max) as f64;
        if self.w.cwnd - pipe < 1.0 {
            return None;
        }
        let new = self.snd_max;
        let seq = match sb.next_retransmission(self.snd_max, false) {
            Some(s) => s,
            None if new < self.snd_una + self.window_limit && self.has_segment(new, now) => {
                self.snd_nxt = new + 1;
                self.snd_max = new + 1;
                return Some(self.transmit(now, new, false, false));
            }
            // Re-borrowed: `has_segment` may have asked the video source for data.
            None => self.scoreboard.as_ref()?.next_retransmission(self.snd_max, true)?,
        };
        if let Some(sb) = &mut self.scoreboard {
            sb.mark_retransmitted(seq);
        }
        Some(self.transmit(now, seq, true, false))
    }

    fn maybe_start(&mut self, now: Instant) {
        if !self.started && now >= self.start {
            self.started = true;
        }
    }
}

/// ns-2 `window_` in segments: max_window_bytes / packet_size, at least 1.
pub fn window_limit_segments(config: &TcpConfig, packet_size_bytes: u32) -> u64 {
    (config.max_window_bytes / packet_size_bytes.max(1) as u64).max(1)
}

impl<C: CongestionControl> Endpoint for TcpSender<C> {
    fn handle_datagram(&mut self, now: Instant, datagram: Datagram<'_>) -> Result<(), WireError> {
        let header = match TcpHeader::parse(datagram.bytes) {
            Ok(h) => h,
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        match header {
            TcpHeader::Ack { ack, ts_echo_ns, sack, .. } => {
                self.on_ack(now, ack, ts_echo_ns, &sack);
                Ok(())
            }
            TcpHeader::Data { .. } => {
                self.stats.malformed_datagrams += 1;
                Err(WireError::Inconsistent("data segment sent to a one-way TCP sender"))
            }
        }
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.maybe_start(now);
        if let Some(v) = self.video.as_mut() {
            v.produce(now);
        }
        if self.rto_deadline.is_some_and(|d| now >= d) {
            if self.snd_una < self.snd_max {
                self.on_retransmission_timeout(now);
            } else {
                self.rto_deadline = None;
            }
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.maybe_start(now);
        if !self.started {
            return None;
        }
        // A fast or partial-ACK retransmission goes out regardless of the window (ns-2
        // `output(last_ack_ + 1)`): it replaces a segment that has left the network.
        if let Some(seq) = self.pending_rtx.take() {
            if seq >= self.snd_una && seq < self.snd_max {
                if let Some(sb) = &mut self.scoreboard {
                    sb.mark_retransmitted(seq);
                }
                return Some(self.transmit(now, seq, true, true));
            }
        }
        // Limited transmit: the segment a duplicate ACK allowed beyond the window (ns-2 sends it
        // from `send_one()` with `output()`, at once).
        if let Some(seq) = self.pending_limited.take() {
            if seq == self.snd_nxt && !self.in_recovery && self.has_segment(seq, now) {
                self.snd_nxt += 1;
                let retransmit = seq < self.snd_max;
                self.snd_max = self.snd_max.max(self.snd_nxt);
                return Some(self.transmit(now, seq, retransmit, true));
            }
        }
        if self.in_recovery && self.scoreboard.is_some() {
            return self.next_sack_segment(now);
        }
        let seq = self.snd_nxt;
        if seq < self.snd_una + self.usable_window() && self.has_segment(seq, now) {
            self.snd_nxt += 1;
            let retransmit = seq < self.snd_max;
            self.snd_max = self.snd_max.max(self.snd_nxt);
            return Some(self.transmit(now, seq, retransmit, false));
        }
        None
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.started {
            return self.has_anything_to_send().then_some(self.start);
        }
        // A video sender also wakes when its next frame is written (and may be sent).
        let frame = self.video.as_ref().and_then(|v| v.next_ready());
        match (self.rto_deadline, frame) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn enable_media_reports(&mut self) {
        if let Some(v) = self.video.as_mut() {
            v.enable_media_reports();
        }
    }

    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        self.video.as_mut().and_then(|v| v.poll_media())
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats { clamped_feedback: self.check.clamped(), ..self.stats }
    }
}

#[cfg(test)]
impl<C: CongestionControl> TcpSender<C> {
    /// Bare-state tests start from a chosen window instead of replaying slow start.
    pub(crate) fn set_window(&mut self, cwnd: f64, ssthresh: f64) {
        self.w = Window { cwnd, ssthresh };
    }
}
