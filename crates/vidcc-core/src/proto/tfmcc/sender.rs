//! The TFMCC sender (RFC 4654 §3): one rate for the whole group, following the current limiting
//! receiver (CLR).
//!
//! - Start (§3.1): R_max = `initial_rtt` (500 ms), X = one packet per R_max, no CLR, round 0.
//! - Every feedback (a unicast report from receiver i = its `PeerId`) gives an instantaneous RTT
//!   `now − t_echo − offset`; R_max rises at once to any larger one (§3.2) and the round's peak
//!   R_peak is kept. The report's timestamp waits to be echoed.
//! - Rate (§3.3), with X_r the reported rate:
//!   1. a leave report from the CLR: the receiver with the lowest rate among those that reported
//!      in the last `clr_timeout_rtts`·R_max becomes the CLR (none: the next report picks one);
//!   2. a report from a non-CLR receiver with X_r < X: it becomes the CLR, X = X_r;
//!   3. a report from the CLR with X_r < X: X = X_r;
//!   4. a report from the CLR with X_r ≥ X: X = min(X_r, X + s·Δt/R_max²) with Δt the time
//!      since the last increase, at most R_max: an increase of at most 8s/R_max bit/s per R_max.
//!      In slow start (§3.6: until a report has the loss flag) the limit does not apply:
//!      X = X_r, the CLR's 2·X_recv, which doubles the rate per RTT.
//!
//!   Without a CLR, the first report makes its sender the CLR (case 2 or 4). X ≥ s/t_mbi.
//! - CLR silence (§3.5): no CLR report for `clr_silence_rtts` (4) of its RTTs halves X (again
//!   each such period), unless the CLR was chosen less than `clr_timeout_rtts` (10) RTTs ago
//!   (its RTT: the sender's samples smoothed with the receiver's own weights, §4.3.2 [I]);
//!   after `clr_timeout_rtts` RTTs the CLR is presumed gone and the next report picks one.
//! - Feedback rounds (§3.4): T = `feedback_rounds_rtts`·R_max (6). A round ends after T if a
//!   non-CLR report arrived in it, else at the first non-CLR report after T, and at most after
//!   2T. A new round increments the round number, resets X_supp to "none" and sets
//!   R_max = max(0.9·R_max, R_peak, 8s/X + clock granularity) (§3.2). Every non-CLR report
//!   with X_supp > X_r sets X_supp = (1 − g)·X_r, g = 0.1.
//! - Echo (§3.5): each data packet echoes one receiver timestamp, chosen in order: a new CLR (or
//!   a CLR without an RTT), receivers without an RTT, other non-CLR receivers (oldest report
//!   first), the CLR. The echo carries the time since the report arrived, and the CLR flag.
//! - Data go to group 0, paced at X (packet n+1 leaves size/X after packet n). Bulk data fill
//!   every packet; a video (`media::paced::PacedVideo`) queues its frames' packets in an
//!   unbounded FIFO as they become ready and X is the target of a rate-adaptive set (the
//!   quantizer of each GOP, docs/papers/asmp-tfmcc.md §2); the sender idles while the FIFO is empty.
//!
//! Deviations: no application-limited rule (RFC 4654 has none: a video sender below X just
//! sends less, and receivers in slow start report twice what they get); the increase limit is applied per CLR report with
//! the elapsed time (the RFC's "8s/R_max bit/s every R_max"); a new CLR that has no pending
//! report gets its latest timestamp echoed again (the offset keeps the sample exact), so that
//! it learns it is the CLR.

use super::config::TfmccConfig;
use super::wire::{Echo, TfmccData, TfmccFeedback, TfmccHeader, DATA_BYTES, NO_SUPPRESSION};
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, PacketMeta, Transmit};
use crate::media::paced::PacedVideo;
use crate::media::sender_buffer::{SenderBufferConfig, SenderBufferStats};
use crate::media::MediaTag;
use crate::proto::rate_pacing::{EventQueue, Pacer};
use crate::proto::Application;
use crate::time::{Duration, Instant};
use crate::units::DataRate;
use crate::wire::WireError;

/// Counters for tests and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TfmccSenderCounters {
    pub packets_sent: u64,
    pub feedbacks: u64,
    /// Reports from receivers that were not the CLR when they arrived.
    pub non_clr_feedbacks: u64,
    pub clr_changes: u64,
    pub rounds: u64,
    pub clr_silence_halvings: u64,
    pub clr_timeouts: u64,
}

/// What the sender knows of one receiver.
#[derive(Clone, Copy, Debug, Default)]
struct Peer {
    /// (receiver timestamp, arrival) of its latest report.
    last_ts: Option<(u64, Instant)>,
    /// Its latest report's rate, bytes/s, and when it arrived.
    rate: Option<(f64, Instant)>,
    /// Sender-measured RTT of its latest report.
    rtt: Option<Duration>,
    /// Those samples smoothed as the receiver smooths its own (§4.3.2: first as is, then q =
    /// q_clr while it is the CLR, q_non_clr otherwise): the RTT by which it paces its reports.
    srtt: Option<Duration>,
    has_rtt: bool,
    echo_pending: bool,
    left: bool,
}

enum Source {
    Bulk,
    Video(Box<PacedVideo>),
}

/// TFMCC sender (module docs).
pub struct TfmccSender {
    source: Source,
    cfg: TfmccConfig,
    s: f64,
    packet_size: u32,
    start: Instant,
    stop: Option<Instant>,
    peers: Vec<Peer>,
    /// Receivers whose timestamp waits to be echoed, in arrival order.
    pending: Vec<u32>,
    /// X, bytes/s.
    x: f64,
    /// X_supp, bytes/s (∞: none this round).
    x_supp: f64,
    round: u32,
    round_start: Instant,
    round_non_clr: bool,
    r_max: Duration,
    r_peak: Duration,
    clr: Option<u32>,
    clr_since: Instant,
    clr_last_report: Instant,
    clr_last_halving: Instant,
    clr_needs_echo: bool,
    slowstart: bool,
    last_increase: Option<Instant>,
    pacer: Pacer,
    started: bool,
    now: Instant,
    events: EventQueue,
    counters: TfmccSenderCounters,
    stats: EndpointStats,
}

impl TfmccSender {
    /// A sender to `receivers` receivers; `packet_size_bytes` is s (header included, > 48).
    pub fn new(
        cfg: &TfmccConfig,
        app: Application,
        packet_size_bytes: u32,
        receivers: u32,
        start: Instant,
        stop: Option<Instant>,
    ) -> Result<Self, String> {
        if packet_size_bytes as usize <= DATA_BYTES {
            return Err(format!(
                "tfmcc: packet_size {packet_size_bytes} B leaves no payload after the {DATA_BYTES}-byte header"
            ));
        }
        let s = packet_size_bytes as f64;
        let r_max = Duration::from_nanos(cfg.initial_rtt_ns);
        let x0 = s / r_max.as_secs_f64();
        let source = match app {
            Application::Bulk => Source::Bulk,
            // An unbounded FIFO, as TFRC's default: TFMCC drops nothing at the sender; the
            // rate-adaptive set keeps the backlog near one GOP.
            Application::Video(stream) => Source::Video(Box::new(PacedVideo::new(
                stream,
                DataRate::from_bps_f64(x0 * 8.0),
                packet_size_bytes - DATA_BYTES as u32,
                stop,
                SenderBufferConfig { max_age: Duration::MAX, max_packets: usize::MAX, ..SenderBufferConfig::default() },
            )?)),
        };
        Ok(TfmccSender {
            source,
            cfg: cfg.clone(),
            s,
            packet_size: packet_size_bytes,
            start,
            stop,
            peers: vec![Peer::default(); receivers as usize],
            pending: Vec::new(),
            // §3.1: one packet per R_max.
            x: x0,
            x_supp: f64::INFINITY,
            round: 0,
            round_start: start,
            round_non_clr: false,
            r_max,
            r_peak: Duration::ZERO,
            clr: None,
            clr_since: start,
            clr_last_report: start,
            clr_last_halving: start,
            clr_needs_echo: false,
            slowstart: cfg.slowstart,
            last_increase: None,
            pacer: Pacer::new(start),
            started: false,
            now: Instant::ZERO,
            events: EventQueue::default(),
            counters: TfmccSenderCounters::default(),
            stats: EndpointStats::default(),
        })
    }

    pub fn rate(&self) -> DataRate {
        DataRate::from_bps_f64(self.x * 8.0)
    }
    pub fn x_bytes_per_s(&self) -> f64 {
        self.x
    }
    /// The current limiting receiver.
    pub fn clr(&self) -> Option<u32> {
        self.clr
    }
    pub fn r_max(&self) -> Duration {
        self.r_max
    }
    pub fn round(&self) -> u32 {
        self.round
    }
    pub fn in_slowstart(&self) -> bool {
        self.slowstart
    }
    /// X_supp in bytes/s (∞: none this round).
    pub fn suppression_rate(&self) -> f64 {
        self.x_supp
    }
    pub fn counters(&self) -> TfmccSenderCounters {
        self.counters
    }
    /// Sender-buffer counters of a video flow.
    pub fn buffer_stats(&self) -> Option<&SenderBufferStats> {
        match &self.source {
            Source::Video(v) => Some(v.buffer_stats()),
            Source::Bulk => None,
        }
    }

    /// Moves every frame ready by `now` into the FIFO, drawn at the current rate.
    fn produce(&mut self, now: Instant) {
        let rate = self.rate();
        if let Source::Video(v) = &mut self.source {
            v.produce(now, rate);
        }
    }

    fn has_data(&self) -> bool {
        match &self.source {
            Source::Bulk => true,
            Source::Video(v) => !v.is_empty(),
        }
    }

    fn min_rate(&self) -> f64 {
        self.s / Duration::from_nanos(self.cfg.t_mbi_ns).as_secs_f64()
    }

    fn round_length(&self) -> Duration {
        self.r_max.mul_f64(self.cfg.feedback_rounds_rtts)
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    fn rate_event(&mut self) {
        self.x = self.x.max(self.min_rate());
        self.events.rate(self.rate());
    }

    /// The CLR's RTT as measured here (R_max before a sample).
    /// The CLR's RTT for its silence timers: its samples smoothed as it smooths them, since it
    /// reports once per its smoothed RTT. (The latest sample alone made a queue that had just
    /// drained look like four missed reports, and halvings fed on themselves.)
    fn clr_rtt(&self) -> Duration {
        self.clr.and_then(|c| self.peers[c as usize].srtt).unwrap_or(self.r_max).max(Duration::from_millis(1))
    }

    fn set_clr(&mut self, now: Instant, clr: Option<u32>) {
        if self.clr != clr {
            self.counters.clr_changes += 1;
            self.clr = clr;
            self.clr_since = now;
            self.clr_last_report = now;
            self.clr_last_halving = now;
            self.clr_needs_echo = clr.is_some();
        }
    }

    /// Case 4 (and slow start): move X up toward `x_r`.
    fn increase_toward(&mut self, now: Instant, x_r: f64) {
        if self.slowstart {
            self.x = x_r;
        } else {
            let r = self.r_max.as_secs_f64();
            let dt = self.last_increase.map_or(r, |t| now.saturating_since(t).as_secs_f64().min(r));
            // 8s/R_max bit/s per R_max = s/R_max² bytes/s per second.
            self.x = x_r.min(self.x + self.s * dt / (r * r));
        }
        self.last_increase = Some(now);
    }

    /// The non-left receiver with the lowest rate reported within the CLR timeout.
    fn lowest_recent(&self, now: Instant) -> Option<u32> {
        let horizon = self.r_max.mul_f64(self.cfg.clr_timeout_rtts);
        let mut best: Option<(f64, u32)> = None;
        for (i, p) in self.peers.iter().enumerate() {
            if let (false, Some((rate, at))) = (p.left, p.rate) {
                if now.saturating_since(at) <= horizon && best.is_none_or(|(b, _)| rate < b) {
                    best = Some((rate, i as u32));
                }
            }
        }
        best.map(|(_, i)| i)
    }

    fn on_feedback(&mut self, now: Instant, from: u32, fb: TfmccFeedback) -> Result<(), WireError> {
        if from != fb.receiver {
            return Err(WireError::Inconsistent("feedback names another receiver than its sender"));
        }
        let Some(elapsed) = now.checked_since(Instant::from_nanos(fb.echo_ns)) else {
            return Err(WireError::Inconsistent("timestamp echo later than now"));
        };
        let i = from as usize;
        self.counters.feedbacks += 1;
        // §3.2: instantaneous RTT; R_max rises at once.
        let sample =
            elapsed.saturating_sub(Duration::from_micros(fb.echo_offset_us as u64)).max(Duration::from_micros(1));
        self.r_max = self.r_max.max(sample);
        self.r_peak = self.r_peak.max(sample);
        let was_clr = self.clr == Some(from);
        {
            let p = &mut self.peers[i];
            p.rtt = Some(sample);
            let q = if was_clr { self.cfg.q_clr } else { self.cfg.q_non_clr };
            p.srtt = Some(match p.srtt {
                None => sample,
                Some(r) => Duration::from_secs_f64(q * r.as_secs_f64() + (1.0 - q) * sample.as_secs_f64()),
            });
            p.has_rtt = fb.have_rtt;
            p.last_ts = Some((fb.timestamp_ns, now));
            p.rate = Some((fb.rate_bps as f64 / 8.0, now));
            if !p.echo_pending {
                p.echo_pending = true;
                self.pending.push(from);
            }
            p.left = fb.leave;
        }
        if fb.have_loss {
            self.slowstart = false; // §3.6: the first loss anywhere ends slow start
        }
        let x_r = fb.rate_bps as f64 / 8.0;
        if fb.leave {
            if was_clr {
                // Case 1: the next-lowest recent receiver takes over.
                let next = self.lowest_recent(now);
                self.set_clr(now, next);
            }
        } else if was_clr {
            self.clr_last_report = now;
            if x_r < self.x {
                self.x = x_r; // case 3
            } else {
                self.increase_toward(now, x_r); // case 4
            }
        } else {
            self.counters.non_clr_feedbacks += 1;
            if self.clr.is_none() {
                self.set_clr(now, Some(from));
                if x_r < self.x {
                    self.x = x_r;
                } else {
                    self.increase_toward(now, x_r);
                }
            } else if x_r < self.x {
                // Case 2: a slower receiver becomes the CLR, X drops at once.
                self.set_clr(now, Some(from));
                self.x = x_r;
            }
            // §3.4: non-CLR feedback sets the suppression rate and may end the round.
            if self.x_supp > x_r {
                self.x_supp = (1.0 - self.cfg.suppression_margin) * x_r;
            }
            self.round_non_clr = true;
            if now >= self.round_start + self.round_length() {
                self.new_round(now);
            }
        }
        self.rate_event();
        Ok(())
    }

    fn new_round(&mut self, now: Instant) {
        self.round = self.round.wrapping_add(1);
        self.counters.rounds += 1;
        self.round_start = now;
        self.round_non_clr = false;
        self.x_supp = f64::INFINITY;
        // §3.2: decay toward the round's peak, never below one packet interval + granularity.
        let floor = Duration::from_secs_f64(self.s / self.x) + Duration::from_nanos(self.cfg.clock_granularity_ns);
        self.r_max = self.r_max.mul_f64(self.cfg.rmax_decay).max(self.r_peak).max(floor);
        self.r_peak = Duration::ZERO;
    }

    /// Round ends and CLR silence, checked at every wake-up.
    fn on_timers(&mut self, now: Instant) {
        let t = self.round_length();
        let end = if self.round_non_clr { self.round_start + t } else { self.round_start + t * 2 };
        if now >= end {
            self.new_round(now);
        }
        if self.clr.is_some() {
            let r = self.clr_rtt();
            let silent = now.saturating_since(self.clr_last_report);
            if silent >= r.mul_f64(self.cfg.clr_timeout_rtts) {
                self.counters.clr_timeouts += 1;
                self.set_clr(now, None);
            } else if now.saturating_since(self.clr_last_report.max(self.clr_last_halving))
                >= r.mul_f64(self.cfg.clr_silence_rtts)
                && now.saturating_since(self.clr_since) >= r.mul_f64(self.cfg.clr_timeout_rtts)
            {
                self.counters.clr_silence_halvings += 1;
                self.clr_last_halving = now;
                self.x /= 2.0;
                self.events.push(Event::Timeout);
                self.rate_event();
            }
        }
    }

    /// When a timer in [`Self::on_timers`] next needs a look.
    fn timers_deadline(&self) -> Instant {
        let t = self.round_length();
        let mut d = if self.round_non_clr { self.round_start + t } else { self.round_start + t * 2 };
        if self.clr.is_some() {
            let r = self.clr_rtt();
            d = d.min(self.clr_last_report + r.mul_f64(self.cfg.clr_timeout_rtts));
            let halve_at = (self.clr_last_report.max(self.clr_last_halving) + r.mul_f64(self.cfg.clr_silence_rtts))
                .max(self.clr_since + r.mul_f64(self.cfg.clr_timeout_rtts));
            d = d.min(halve_at);
        }
        d
    }

    /// §3.5: the timestamp this packet echoes.
    fn choose_echo(&mut self, now: Instant) -> Option<Echo> {
        let clr = self.clr;
        let pick = if let Some(c) = clr.filter(|&c| {
            let p = &self.peers[c as usize];
            p.last_ts.is_some() && (self.clr_needs_echo || (!p.has_rtt && p.echo_pending))
        }) {
            self.clr_needs_echo = false;
            Some(c)
        } else {
            let rank = |i: u32| {
                let p = &self.peers[i as usize];
                if Some(i) == clr {
                    2
                } else if !p.has_rtt {
                    0
                } else {
                    1
                }
            };
            // `pending` is in arrival order, so the first of the best rank is the oldest.
            self.pending.iter().copied().min_by_key(|&i| rank(i))
        }?;
        let p = &mut self.peers[pick as usize];
        if p.echo_pending {
            p.echo_pending = false;
            self.pending.retain(|&i| i != pick);
        }
        let (ts, arrival) = p.last_ts?;
        Some(Echo {
            receiver: pick,
            timestamp_ns: ts,
            offset_us: u32::try_from(now.saturating_since(arrival).as_nanos() / 1000).unwrap_or(u32::MAX),
            is_clr: clr == Some(pick),
        })
    }

    fn next_send(&self) -> Instant {
        self.pacer.next_send(self.x)
    }

    fn start_if_due(&mut self) {
        if !self.started && self.now >= self.start && !self.stopped(self.now) {
            self.started = true;
            self.round_start = self.now;
            self.rate_event();
        }
    }
}

impl Endpoint for TfmccSender {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        self.now = self.now.max(now);
        let r = match TfmccHeader::parse(d.bytes) {
            Ok(TfmccHeader::Feedback(fb)) if (d.from.0 as usize) >= self.peers.len() => {
                let _ = fb;
                Err(WireError::Inconsistent("feedback from an unknown receiver"))
            }
            Ok(TfmccHeader::Feedback(fb)) if self.started && !self.stopped(self.now) => {
                self.on_feedback(self.now, d.from.0, fb)
            }
            Ok(TfmccHeader::Feedback(_)) => Ok(()),
            Ok(TfmccHeader::Data(_)) => Err(WireError::Inconsistent("data packet sent to a TFMCC sender")),
            Err(e) => Err(e),
        };
        if r.is_err() {
            self.stats.malformed_datagrams += 1;
        }
        r
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        self.start_if_due();
        if self.started && !self.stopped(self.now) {
            self.on_timers(self.now);
            self.produce(self.now);
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.now = self.now.max(now);
        self.start_if_due();
        if !self.started || self.stopped(self.now) {
            return None;
        }
        let now = self.now;
        self.produce(now);
        if now < self.next_send() {
            return None;
        }
        let (payload_len, media) = match &mut self.source {
            Source::Bulk => (self.packet_size - DATA_BYTES as u32, MediaTag::NONE),
            Source::Video(v) => {
                let p = v.pop(now)?;
                (p.size_bytes, p.tag)
            }
        };
        let echo = self.choose_echo(now);
        let r_max_us = u32::try_from(self.r_max.as_nanos() / 1000).unwrap_or(u32::MAX).max(1);
        let x_supp_bps = if self.x_supp.is_finite() {
            ((self.x_supp * 8.0).round() as u64).clamp(1, NO_SUPPRESSION - 1)
        } else {
            NO_SUPPRESSION
        };
        let seq = self.pacer.seq();
        let header =
            TfmccData { seq, timestamp_ns: now.as_nanos(), fb_round: self.round, r_max_us, x_supp_bps, echo }.emit();
        let meta = PacketMeta { media, ..PacketMeta::data(seq as u64) };
        self.pacer.sent(now, payload_len + DATA_BYTES as u32);
        self.counters.packets_sent += 1;
        Some(Transmit { to: Destination::Group(GroupId(0)), header, payload_len, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.stopped(self.now) {
            return None;
        }
        if !self.started {
            return (!self.stopped(self.start)).then_some(self.start);
        }
        let mut t = self.timers_deadline();
        if let Source::Video(v) = &self.source {
            if let Some(ready) = v.next_ready() {
                t = t.min(ready);
            }
        }
        if self.has_data() {
            t = t.min(self.next_send());
        }
        Some(t)
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop()
    }

    fn enable_media_reports(&mut self) {
        if let Source::Video(v) = &mut self.source {
            v.enable_media_reports();
        }
    }

    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        match &mut self.source {
            Source::Video(v) => v.poll_media(),
            _ => None,
        }
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
