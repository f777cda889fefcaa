//! The TFRC sender (RFC 5348 §4): the allowed rate X from the receiver's feedback, pacing, and
//! the no-feedback timer.
//!
//! Initialisation (§4.2): X = s per second (one packet/s), X_recv_set = {∞}, no RTT, the
//! no-feedback timer at 2 s (= 2s/X), tld (time last doubled) unset.
//!
//! On feedback (§4.3), in the RFC's order:
//! 1. R_sample = (t_now − t_recvdata) − t_delay;
//! 2. R = R_sample for the first sample, else R = q·R + (1 − q)·R_sample (q = 0.9);
//! 3. RTO = max(k·R, 2s/X), k = `nofeedback_rtts` (4);
//! 4. if the whole interval the feedback covers was data-limited: on a new loss event (p rose)
//!    halve X_recv_set, X_recv ← 0.85·X_recv, Maximize X_recv_set, recv_limit = max(X_recv_set);
//!    otherwise Maximize and recv_limit = 2·max(X_recv_set). Typically: Update X_recv_set (add
//!    X_recv, drop ∞ and entries older than 2R) and recv_limit = 2·max(X_recv_set). Then
//!    - p > 0: X_Bps = Eq. (1) of §3.1, `s / (R·√(2bp/3) + t_RTO·3√(3bp/8)·p·(1 + 32p²))` with
//!      t_RTO = 4R ([`rfc5348_rate`]), and X = max(min(X_Bps, recv_limit), s/t_mbi);
//!    - p = 0 and t_now − tld ≥ R: slow start, X = max(min(2X, recv_limit), initial_rate),
//!      tld = t_now, with initial_rate = s/R (`rfc3448`, the default) or W_init/R,
//!      W_init = min(4s, max(2s, 4380)) (`rfc5348`);
//! 5. (option, §4.5) R_sqmean = q2·R_sqmean + (1 − q2)·√R_sample, q2 = 0.9;
//! 6. the no-feedback timer restarts at RTO.
//!
//! No-feedback timer expiry (§4.4): without an RTT sample and not idle, X = max(X/2, s/t_mbi);
//! idle since the timer was set with X_recv (p > 0) or X/2 (p = 0) already below recover_rate
//! (= initial_rate): nothing; p = 0: X = max(X/2, s/t_mbi); X_Bps > 2·X_recv:
//! Update_Limits(X_recv); else Update_Limits(X_Bps/2). Update_Limits(l): X_recv_set =
//! {max(l, s/t_mbi)/2}, X recomputed as in step 4. The timer restarts at max(k·R, 2s/X).
//!
//! Sending (§4.6): packet n+1 leaves `size_n / X_inst` after packet n, with X_inst = X (or
//! X·R_sqmean/√R_sample with oscillation prevention). A data-limited sender sends a packet as
//! soon as it exists once that time has passed: no credit accumulates. The sender is "not
//! data-limited" at a send (t_ndl, §8.2.1) when the packet waited for its slot or more data
//! is queued behind it; the interval a feedback covers (previous echoed send time, this one] is
//! data-limited when no such send happened in it.
//!
//! Feedback is judged first by the shared plausibility check ([`crate::proto::plausible`]): an
//! echo of a time this sender never sent is refused; X_recv above what the bytes sent over its
//! window (R, or the time since the last feedback before there is an R) allow, a t_delay longer
//! than the whole round trip, or p outside [0, 1] are clamped. Honest feedback never meets these
//! bounds (docs/protocols/tfrc.md, "Implausible feedback").
//!
//! Options (ns-2 2.35's Agent/TFRC, [`super::ns2`]): `rules = ns2` replaces step 4 and §4.4 by
//! ns-2's rules (and X starts at 300 B/s); `t_rto = tcp` puts TCP's RTO in ticks in the
//! equation instead of 4R; `q2` weights R_sqmean.
//!
//! Application: Bulk fills every packet (`packet_size − 20` payload bytes); Video sends every
//! layer of every frame (full quality, docs/papers/dvrc.md's TFRC baseline; the top stream of a
//! simulcast) through a [`SenderBuffer`]: unbounded FIFO by default (docs/papers/dvrc.md \[D\]), or
//! bounded in packets and age when configured (then deadline drops, highest layer first).

use std::collections::VecDeque;

use super::config::{InitialRate, RateRules, RtoRule, TfrcConfig};
use super::ns2::{ns2_rate, Ns2Rules, Report, TcpRto, INIT_RATE};
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::ewma::Ewma;
use crate::estimate::tcp_model::rfc5348_rate;
use crate::media::sender_buffer::{SenderBuffer, SenderBufferConfig, SenderBufferStats};
use crate::media::stream::{FrameFeeder, PartSelection};
use crate::media::MediaTag;
use crate::proto::plausible::FeedbackCheck;
use crate::proto::rate_pacing::{EventQueue, Pacer};
use crate::proto::Application;
use crate::time::{Duration, Instant};
use crate::units::DataRate;
use crate::wire::tfrc::{TfrcData, TfrcFeedback, TfrcHeader, DATA_BYTES};
use crate::wire::WireError;

/// X_recv values kept (a feedback per RTT over 2 RTTs needs 3; early feedbacks add a few).
const X_RECV_SET_CAPACITY: usize = 8;

/// Counters for tests and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TfrcSenderCounters {
    pub packets_sent: u64,
    pub feedbacks: u64,
    pub data_limited_feedbacks: u64,
    pub nofeedback_expiries: u64,
}

struct VideoSource {
    /// Sends every frame at full quality: all layers, or the top simulcast stream alone.
    feeder: FrameFeeder,
    buffer: SenderBuffer,
}

enum Source {
    Bulk,
    Video(Box<VideoSource>),
}

/// TFRC sender (see the module docs).
pub struct TfrcSender {
    cfg: TfrcConfig,
    /// s, the nominal packet size on the wire, bytes.
    s: f64,
    packet_size: u32,
    start: Instant,
    stop: Option<Instant>,
    source: Source,
    /// X, bytes/s.
    x: f64,
    /// X_Bps of the last feedback with p > 0.
    x_calc: Option<f64>,
    /// X_recv of the last feedback, bytes/s.
    x_recv: f64,
    /// (time, X_recv bytes/s); ∞ is the initial member.
    x_recv_set: VecDeque<(Instant, f64)>,
    rtt: Ewma,
    r_sample: Option<f64>,
    r_sqmean: Ewma,
    p: f64,
    tld: Option<Instant>,
    /// `rules = "ns2"`: ns-2's rate rules (`super::ns2`).
    ns2: Option<Ns2Rules>,
    /// `t_rto = "tcp"`: ns-2's TCP RTO estimator.
    tcp_rto: Option<TcpRto>,
    /// Video: the last send of a packet that had not waited for its slot (ns-2 `lastlimited_`).
    last_limited: Option<Instant>,
    nofeedback_at: Option<Instant>,
    idle_since_timer: bool,
    t_ndl: Option<Instant>,
    prev_echo: Option<Instant>,
    /// When the last feedback arrived (the window of X_recv before there is an R).
    last_feedback: Option<Instant>,
    /// What was sent, to judge what feedback claims.
    check: FeedbackCheck,
    pacer: Pacer,
    started: bool,
    now: Instant,
    events: EventQueue,
    counters: TfrcSenderCounters,
    stats: EndpointStats,
}

impl TfrcSender {
    /// `packet_size_bytes`: s, the wire size of a full data packet (header included, > 20).
    pub fn new(
        cfg: &TfrcConfig,
        app: Application,
        packet_size_bytes: u32,
        start: Instant,
        stop: Option<Instant>,
    ) -> Result<Self, String> {
        if packet_size_bytes as usize <= DATA_BYTES {
            return Err(format!("tfrc: packet_size {packet_size_bytes} B leaves no payload after the 20-byte header"));
        }
        let source = match app {
            Application::Bulk => Source::Bulk,
            Application::Video(stream) => {
                let feeder = FrameFeeder::new(stream, packet_size_bytes - DATA_BYTES as u32, stop)?;
                let buffer = SenderBuffer::new(SenderBufferConfig {
                    max_age: cfg.sender_buffer_max_age_ns.map_or(Duration::MAX, Duration::from_nanos),
                    max_packets: cfg
                        .sender_buffer_packets
                        .map_or(usize::MAX, |p| usize::try_from(p).unwrap_or(usize::MAX)),
                    ..SenderBufferConfig::default()
                });
                Source::Video(Box::new(VideoSource { feeder, buffer }))
            }
        };
        let s = packet_size_bytes as f64;
        let mut x_recv_set = VecDeque::with_capacity(X_RECV_SET_CAPACITY);
        x_recv_set.push_back((start, f64::INFINITY));
        Ok(TfrcSender {
            cfg: cfg.clone(),
            s,
            packet_size: packet_size_bytes,
            start,
            stop,
            source,
            // §4.2: one packet per second (ns-2: `InitRate_`).
            x: if cfg.rules == RateRules::Ns2 { INIT_RATE } else { s },
            x_calc: None,
            x_recv: 0.0,
            x_recv_set,
            rtt: Ewma::new(1.0 - cfg.q),
            r_sample: None,
            r_sqmean: Ewma::new(1.0 - cfg.q2),
            p: 0.0,
            tld: None,
            ns2: (cfg.rules == RateRules::Ns2).then(Ns2Rules::new),
            tcp_rto: (cfg.t_rto == RtoRule::Tcp).then(|| TcpRto::new(Duration::from_nanos(cfg.tcp_tick_ns))),
            last_limited: None,
            nofeedback_at: None,
            idle_since_timer: true,
            t_ndl: None,
            prev_echo: None,
            last_feedback: None,
            check: FeedbackCheck::new(),
            pacer: Pacer::new(start),
            started: false,
            now: Instant::ZERO,
            events: EventQueue::default(),
            counters: TfrcSenderCounters::default(),
            stats: EndpointStats::default(),
        })
    }

    /// Lets every feedback claim through (the rules' tests feed hand-made numbers).
    #[cfg(test)]
    pub(crate) fn trust_feedback(&mut self) {
        self.check = FeedbackCheck::trusting();
    }

    /// The allowed sending rate X.
    pub fn rate(&self) -> DataRate {
        DataRate::from_bps_f64(self.x * 8.0)
    }
    /// X in bytes/s.
    pub fn x_bytes_per_s(&self) -> f64 {
        self.x
    }
    /// R, the smoothed RTT (`None` before the first feedback).
    pub fn rtt(&self) -> Option<Duration> {
        self.rtt.value().map(Duration::from_secs_f64)
    }
    /// The loss event rate p of the last feedback.
    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }
    /// X_Bps, the throughput equation's rate at the last feedback with p > 0 (bytes/s).
    pub fn x_calc(&self) -> Option<f64> {
        self.x_calc
    }
    /// The current X_recv_set (bytes/s; ∞ until the first feedback).
    pub fn x_recv_set(&self) -> impl Iterator<Item = f64> + '_ {
        self.x_recv_set.iter().map(|&(_, x)| x)
    }
    pub fn counters(&self) -> TfrcSenderCounters {
        self.counters
    }
    pub fn nofeedback_deadline(&self) -> Option<Instant> {
        self.nofeedback_at
    }
    /// Sender-buffer counters of a video flow.
    pub fn buffer_stats(&self) -> Option<&SenderBufferStats> {
        match &self.source {
            Source::Video(v) => Some(v.buffer.stats()),
            Source::Bulk => None,
        }
    }

    /// R in seconds, rounded to whole nanoseconds so that "one RTT has passed" (tld, 2R) is an
    /// exact integer comparison rather than a floating-point coin toss.
    fn r_secs(&self) -> Option<f64> {
        self.rtt().map(|r| r.as_secs_f64())
    }

    /// s/t_mbi.
    fn min_rate(&self) -> f64 {
        self.s / Duration::from_nanos(self.cfg.t_mbi_ns).as_secs_f64()
    }

    /// Slow start's floor, and §4.4's recover_rate.
    fn initial_rate(&self, r: f64) -> f64 {
        let w = match self.cfg.initial_rate {
            InitialRate::Rfc3448 => self.s,
            // W_init = min(4s, max(2s, 4380 B))
            InitialRate::Rfc5348 => (4.0 * self.s).min((2.0 * self.s).max(4380.0)),
        };
        w / r
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    fn rate_event(&mut self) {
        self.events.rate(self.rate());
    }

    /// max(X_recv_set).
    fn x_recv_max(&self) -> f64 {
        self.x_recv_set.iter().fold(0.0, |m, &(_, x)| m.max(x))
    }

    /// Maximize X_recv_set(): add X_recv, drop ∞, keep only the largest, stamped now.
    fn maximize_x_recv_set(&mut self, now: Instant, x_recv: f64) {
        let max = self.x_recv_set.iter().filter(|(_, x)| x.is_finite()).fold(x_recv, |m, &(_, x)| m.max(x));
        self.x_recv_set.clear();
        self.x_recv_set.push_back((now, max));
    }

    /// Update X_recv_set(): add X_recv, drop ∞ and values older than two round-trip times.
    fn update_x_recv_set(&mut self, now: Instant, x_recv: f64, r: Duration) {
        let two_r = r * 2;
        self.x_recv_set.retain(|&(t, x)| x.is_finite() && now.saturating_since(t) <= two_r);
        if self.x_recv_set.len() == X_RECV_SET_CAPACITY {
            self.x_recv_set.pop_front();
        }
        self.x_recv_set.push_back((now, x_recv));
    }

    /// No-feedback interval max(k·R, 2s/X) (R = 0 before the first sample: 2 s at 1 packet/s).
    fn nofeedback_interval(&self) -> Duration {
        let r = self.r_secs().unwrap_or(0.0);
        Duration::from_secs_f64((self.cfg.nofeedback_rtts * r).max(2.0 * self.s / self.x))
    }

    /// §4.3: everything a feedback packet does.
    fn on_feedback(&mut self, now: Instant, fb: TfrcFeedback) -> Result<(), WireError> {
        let echo = Instant::from_nanos(fb.timestamp_echo_ns);
        // The receiver measures X_recv over R_m (our R), or since its last feedback before it has one.
        let window = self.rtt().unwrap_or_else(|| now.saturating_since(self.last_feedback.unwrap_or(self.start)));
        let mut claims = self.check.judge(now);
        let elapsed = claims.echo(echo)?;
        let t_delay_us = claims.at_most(fb.t_delay_us as u64, elapsed.as_nanos() / 1000);
        let x_recv_bps = claims.receive_rate(fb.x_recv_bps, window, Some(echo));
        // The wire already refuses p > 1; judged here all the same, so that no claim bypasses the check.
        let p = claims.fraction(fb.p());
        drop(claims);
        self.last_feedback = Some(now);
        self.counters.feedbacks += 1;
        // (1) R_sample = (t_now − t_recvdata) − t_delay, at least 1 µs.
        let t_delay = Duration::from_micros(t_delay_us);
        let r_sample = elapsed.saturating_sub(t_delay).max(Duration::from_micros(1)).as_secs_f64();
        self.r_sample = Some(r_sample);
        // (2) R = q·R + (1 − q)·R_sample (the first sample is taken as is).
        self.rtt.update(r_sample);
        let r_dur = self.rtt().unwrap_or(Duration::from_micros(1)).max(Duration::from_nanos(1));
        let r = r_dur.as_secs_f64();
        let t_rto = self.tcp_rto.as_mut().map_or(4.0 * r, |t| t.update(r_sample));
        // (3) RTO = max(k·R, 2s/X), with the X in force before this feedback.
        let rto = self.nofeedback_interval();
        // (4) The allowed rate.
        let x_recv = x_recv_bps as f64 / 8.0;
        let data_limited = match self.t_ndl {
            None => true,
            Some(t) => self.prev_echo.is_some_and(|pe| t <= pe),
        };
        self.prev_echo = Some(self.prev_echo.map_or(echo, |pe| pe.max(echo)));
        let recv_limit = if self.ns2.is_some() {
            f64::INFINITY
        } else if data_limited {
            self.counters.data_limited_feedbacks += 1;
            if p > self.p {
                for e in self.x_recv_set.iter_mut() {
                    e.1 /= 2.0;
                }
                self.maximize_x_recv_set(now, 0.85 * x_recv);
                self.x_recv_max()
            } else {
                self.maximize_x_recv_set(now, x_recv);
                2.0 * self.x_recv_max()
            }
        } else {
            self.update_x_recv_set(now, x_recv, r_dur);
            2.0 * self.x_recv_max()
        };
        self.x_recv = x_recv;
        self.p = p;
        if self.ns2.is_some() {
            let x_calc = ns2_rate(self.s, r, p, t_rto, self.cfg.b);
            self.x_calc = (p > 0.0).then_some(x_calc);
            let limited = self.data_limited_within(now, r_dur.mul_f64(1.5));
            let rep = Report { now, r: r_dur, s: self.s, x_recv, p, x_calc, init_rate: self.initial_rate(r), limited };
            let x = self.ns2.as_mut().map_or(self.x, |n| n.on_feedback(self.x, &rep));
            self.x = x.max(self.min_rate());
        } else if p > 0.0 {
            // Eq. (1), RFC 5348 §3.1, with t_RTO = 4R (or TCP's RTO).
            let x_calc = rfc5348_rate(self.s, r, p, t_rto, self.cfg.b);
            self.x_calc = Some(x_calc);
            self.x = x_calc.min(recv_limit).max(self.min_rate());
        } else if self.tld.is_none_or(|t| now.saturating_since(t) >= r_dur) {
            // Initial slow start: double once per RTT, at most recv_limit, at least initial_rate.
            self.x = (2.0 * self.x).min(recv_limit).max(self.initial_rate(r));
            self.tld = Some(now);
        }
        // (5) §4.5: R_sqmean over √R_sample.
        self.r_sqmean.update(r_sample.sqrt());
        // (6)
        self.nofeedback_at = Some(now + rto);
        self.idle_since_timer = true;
        self.rate_event();
        Ok(())
    }

    /// §4.4: the no-feedback timer expired.
    fn on_nofeedback(&mut self, now: Instant) {
        self.counters.nofeedback_expiries += 1;
        self.events.push(Event::Timeout);
        let min = self.min_rate();
        if self.ns2.is_some() {
            let init = self.r_secs().map(|r| self.initial_rate(r));
            let (limited, w_init) = (!self.has_data(), self.cfg.initial_rate == InitialRate::Rfc5348);
            let x = self.ns2.as_mut().map_or(self.x, |n| n.on_nofeedback(self.x, limited, init, w_init));
            self.x = x.max(min);
        } else {
            self.rfc5348_nofeedback(now, min);
        }
        self.nofeedback_at = Some(now + self.nofeedback_interval());
        self.idle_since_timer = true;
        self.rate_event();
    }

    /// §4.4's rules on a no-feedback expiry.
    fn rfc5348_nofeedback(&mut self, now: Instant, min: f64) {
        match self.r_secs() {
            None => {
                // No RTT sample, no feedback yet: halve unless idle all along.
                if !self.idle_since_timer {
                    self.x = (self.x / 2.0).max(min);
                }
            }
            Some(r) => {
                let recover_rate = self.initial_rate(r);
                let p = self.p;
                let low = (p > 0.0 && self.x_recv < recover_rate) || (p == 0.0 && self.x < 2.0 * recover_rate);
                let x_calc = self.x_calc.unwrap_or(f64::INFINITY);
                if self.idle_since_timer && low {
                    // Idle and already at or below the restart rate: keep it.
                } else if p == 0.0 {
                    self.x = (self.x / 2.0).max(min);
                } else if x_calc > 2.0 * self.x_recv {
                    // 2·X_recv was limiting the rate.
                    self.update_limits(now, self.x_recv);
                } else {
                    // X_Bps was limiting the rate.
                    self.update_limits(now, x_calc / 2.0);
                }
            }
        }
    }

    /// Update_Limits(timer_limit) of §4.4.
    fn update_limits(&mut self, now: Instant, timer_limit: f64) {
        let min = self.min_rate();
        let limit = timer_limit.max(min);
        self.x_recv_set.clear();
        self.x_recv_set.push_back((now, limit / 2.0));
        // Step (4) of §4.3 with p > 0: X = max(min(X_Bps, 2·max(X_recv_set)), s/t_mbi).
        let x_calc = self.x_calc.unwrap_or(f64::INFINITY);
        self.x = x_calc.min(2.0 * self.x_recv_max()).max(min);
    }

    /// Data-limited now or within `window` (ns-2 `datalimited_ || lastlimited_ > now − 1.5R`).
    fn data_limited_within(&self, now: Instant, window: Duration) -> bool {
        match &self.source {
            Source::Bulk => false,
            Source::Video(v) => {
                v.buffer.is_empty() || self.last_limited.is_some_and(|t| now.saturating_since(t) < window)
            }
        }
    }

    /// X_inst: X, or X·R_sqmean/√R_sample with §4.5 oscillation prevention (ns-2: the
    /// slow-start ramp instead while it runs).
    fn x_inst(&self) -> f64 {
        if let Some(ramp) = self.ns2.as_ref().and_then(Ns2Rules::ramp_rate) {
            return ramp.max(self.min_rate());
        }
        match (self.cfg.oscillation_prevention, self.r_sqmean.value(), self.r_sample) {
            (true, Some(sq), Some(rs)) if rs > 0.0 => (self.x * sq / rs.sqrt()).max(self.min_rate()),
            _ => self.x,
        }
    }

    /// When the next packet may leave (ns-2: at once after `nextpkt()` outside the timer).
    fn next_send(&self) -> Instant {
        let paced = self.pacer.next_send(self.x_inst());
        match &self.ns2 {
            Some(n) if n.kicked() => paced.min(self.now),
            _ => paced,
        }
    }

    fn has_data(&self) -> bool {
        match &self.source {
            Source::Bulk => true,
            Source::Video(v) => !v.buffer.is_empty(),
        }
    }

    /// Moves every frame that is ready by `now` into the sender buffer.
    fn produce(&mut self, now: Instant) {
        let Source::Video(v) = &mut self.source else {
            return;
        };
        let buffer = &mut v.buffer;
        v.feeder.produce(
            now,
            |_| PartSelection::Full,
            |f, len, tag| {
                buffer.push(now, tag, len, f.ready_at);
            },
        );
    }

    fn start_if_due(&mut self) {
        if !self.started && self.now >= self.start && !self.stopped(self.now) {
            self.started = true;
            // §4.2: the no-feedback timer starts at 2 s (= 2s/X with X = s per second).
            self.nofeedback_at = Some(self.start + self.nofeedback_interval());
            self.rate_event();
        }
    }
}

impl Endpoint for TfrcSender {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        self.now = self.now.max(now);
        let r = match TfrcHeader::parse(d.bytes) {
            Ok(TfrcHeader::Feedback(fb)) if self.started && !self.stopped(self.now) => self.on_feedback(self.now, fb),
            Ok(TfrcHeader::Feedback(_)) => Ok(()),
            Ok(TfrcHeader::Data(_)) => Err(WireError::Inconsistent("data packet sent to a TFRC sender")),
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
        if !self.started || self.stopped(self.now) {
            return;
        }
        self.produce(self.now);
        if self.nofeedback_at.is_some_and(|t| t <= self.now) {
            self.on_nofeedback(self.now);
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
        let due = self.next_send();
        if now < due {
            return None;
        }
        let (payload_len, tag, waited) = match &mut self.source {
            Source::Bulk => (self.packet_size - DATA_BYTES as u32, MediaTag::NONE, true),
            Source::Video(v) => {
                let p = v.buffer.pop(now)?;
                (p.size_bytes, p.tag, p.ready_at < due)
            }
        };
        if waited || self.has_data() {
            self.t_ndl = Some(now);
        }
        if !waited {
            self.last_limited = Some(now);
        }
        let x = self.x;
        if let Some(n) = self.ns2.as_mut() {
            n.on_sent(x);
        }
        let rtt_us = self.rtt().map_or(0, |r| u32::try_from(r.as_nanos() / 1000).unwrap_or(u32::MAX).max(1));
        let seq = self.pacer.seq();
        let header = TfrcData { seq, timestamp_ns: now.as_nanos(), rtt_us }.emit();
        let meta = PacketMeta { media: tag, ..PacketMeta::data(seq as u64) };
        self.pacer.sent(now, payload_len + DATA_BYTES as u32);
        self.check.on_sent(now, (payload_len + DATA_BYTES as u32) as u64);
        self.idle_since_timer = false;
        self.counters.packets_sent += 1;
        Some(Transmit { to: Destination::PEER, header, payload_len, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.stopped(self.now) {
            return None;
        }
        if !self.started {
            return (!self.stopped(self.start)).then_some(self.start);
        }
        let mut t = self.nofeedback_at;
        let mut consider = |x: Instant| t = Some(t.map_or(x, |t| t.min(x)));
        if let Source::Video(v) = &self.source {
            if let Some(ready) = v.feeder.next_ready() {
                consider(ready);
            }
        }
        if self.has_data() {
            consider(self.next_send());
        }
        t
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop()
    }

    fn enable_media_reports(&mut self) {
        if let Source::Video(v) = &mut self.source {
            v.feeder.enable_media_reports();
            v.buffer.enable_media_reports();
        }
    }

    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        match &mut self.source {
            Source::Video(v) => v.feeder.poll_media().or_else(|| v.buffer.poll_media()),
            _ => None,
        }
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats { clamped_feedback: self.check.clamped(), ..self.stats }
    }
}
