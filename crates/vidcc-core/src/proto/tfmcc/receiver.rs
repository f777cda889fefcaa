//! The TFMCC receiver (RFC 4654 §4): loss event rate, RTT, the calculated rate, and when to
//! report.
//!
//! - Joins group 0 at its start ([`Membership::Join`], [`TfmccReceiver::join_at`]; at once by
//!   default) and leaves at [`TfmccReceiver::leave_at`] after a report with the leave flag.
//! - Loss event rate (§4.2): the TFRC loss history ([`LossEventHistory`], RFC 5348 §5, NDUPACK
//!   3, 8 weighted intervals), events grouped by this receiver's RTT; the first interval is the
//!   one that gives the receive rate through the equation (RFC 5348 §6.3.1).
//! - RTT (§4.3): before any echo, R = R_max from the sender's header (§4.3.1). A data packet
//!   echoing this receiver's timestamp gives `sample = now − t_echo − offset` (both on this
//!   receiver's clock); the first sample is taken as is, later ones smoothed `R = q·R + (1 −
//!   q)·sample` with q = 0.9 for the CLR and 0.5 otherwise (§4.3.2). Between samples the
//!   one-way delay D = arrival − sender timestamp adjusts it: `R' = R + (D_now − D_sample)`, at
//!   least 1 ms (§4.3.3; clock offsets cancel).
//! - Calculated rate (§4.1): X_calc = s / (R·√(2bp/3) + 4R·3√(3bp/8)·p·(1 + 32p²))
//!   ([`rfc5348_rate`], b = 1). Before the first loss (slow start, §4.3.4) the receiver reports
//!   X_r = 2·X_recv, the rate received over the last 2R.
//! - Feedback: the CLR (told by the sender's echo flag) reports once per R while data arrives,
//!   never suppressed (§4.5); the others report once per round on the suppressed timer of
//!   [`Suppression`].
//!
//! Deviations: the CLR's report is scheduled from data arrivals (no report when nothing arrived
//! in the last R, as the TFRC receiver); the one-way-delay adjustment applies to the smoothed R.

use std::collections::VecDeque;

use super::config::TfmccConfig;
use super::suppression::{draw_unit, Suppression};
use super::wire::{p_to_ppb, TfmccData, TfmccFeedback, TfmccHeader, DATA_BYTES, NO_SUPPRESSION};
use crate::endpoint::{
    Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, Membership, PacketMeta, Transmit,
};
use crate::estimate::loss_detect::Arrival;
use crate::estimate::loss_events::LossEventHistory;
use crate::estimate::loss_intervals::LossIntervalsConfig;
use crate::estimate::rate_meter::RateMeter;
use crate::estimate::tcp_model::{rfc5348_inverse_p, rfc5348_rate};
use crate::proto::rate_pacing::EventQueue;
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::wire::WireError;

const MIN_RTT: Duration = Duration::from_millis(1);

/// Counters for tests and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TfmccReceiverCounters {
    pub feedbacks: u64,
    pub rtt_samples: u64,
    pub suppressed: u64,
}

/// TFMCC receiver (module docs).
pub struct TfmccReceiver {
    id: u32,
    cfg: TfmccConfig,
    s_bytes: f64,
    history: LossEventHistory,
    meter: RateMeter,
    /// Smoothed RTT from echoes; `None` before the first.
    rtt: Option<Duration>,
    /// One-way delay (ns, signed: clocks may differ) of the packet that carried the last echo.
    d_sample: Option<i128>,
    d_now: Option<i128>,
    r_max: Duration,
    /// (sender timestamp, arrival) of the last data packet.
    last_data: Option<(u64, Instant)>,
    /// X_supp of the last data packet, bytes/s (∞: none).
    x_supp: f64,
    round: u32,
    is_clr: bool,
    clr_next: Option<Instant>,
    received_since_fb: bool,
    supp: Suppression,
    rng: SimRng,
    feedback_due: bool,
    /// When to ask to join group 0 (`None`: asked).
    join_at: Option<Instant>,
    leave_at: Option<Instant>,
    left: bool,
    leave_report_due: bool,
    membership: VecDeque<Membership>,
    now: Instant,
    events: EventQueue,
    counters: TfmccReceiverCounters,
    stats: EndpointStats,
}

impl TfmccReceiver {
    /// Receiver `id` (the sender's `PeerId(id)`), nominal packet size s, its own random stream.
    pub fn new(cfg: &TfmccConfig, id: u32, packet_size_bytes: u32, rng: SimRng) -> Self {
        let li = LossIntervalsConfig {
            history_discounting: cfg.history_discounting,
            discount_threshold: cfg.discount_threshold,
        };
        let r_max = Duration::from_nanos(cfg.initial_rtt_ns);
        TfmccReceiver {
            id,
            cfg: cfg.clone(),
            s_bytes: packet_size_bytes as f64,
            history: LossEventHistory::new(cfg.ndupack, li),
            meter: RateMeter::new(r_max * 2),
            rtt: None,
            d_sample: None,
            d_now: None,
            r_max,
            last_data: None,
            x_supp: f64::INFINITY,
            round: 0,
            is_clr: false,
            clr_next: None,
            received_since_fb: false,
            supp: Suppression::new(cfg.feedback_timer, cfg.max_receivers),
            rng,
            feedback_due: false,
            join_at: Some(Instant::ZERO),
            leave_at: None,
            left: false,
            leave_report_due: false,
            membership: VecDeque::with_capacity(2),
            now: Instant::ZERO,
            events: EventQueue::default(),
            counters: TfmccReceiverCounters::default(),
            stats: EndpointStats::default(),
        }
    }

    /// Join the group at `t` instead of at once (a late join).
    pub fn join_at(&mut self, t: Instant) {
        self.join_at = Some(t);
    }

    /// Leave the group at `t` (after a report with the leave flag).
    pub fn leave_at(&mut self, t: Instant) {
        self.leave_at = Some(t);
    }

    pub fn id(&self) -> u32 {
        self.id
    }
    pub fn is_clr(&self) -> bool {
        self.is_clr
    }
    pub fn has_left(&self) -> bool {
        self.left
    }
    pub fn counters(&self) -> TfmccReceiverCounters {
        self.counters
    }
    pub fn loss_event_rate(&self) -> f64 {
        self.history.loss_event_rate()
    }
    /// The smoothed RTT from echoes (`None` before the first).
    pub fn measured_rtt(&self) -> Option<Duration> {
        self.rtt
    }

    /// The RTT in use (§4.3): R_max before any echo, else the smoothed RTT adjusted by the change
    /// in one-way delay since the last echo, at least 1 ms.
    pub fn rtt(&self) -> Duration {
        let Some(r) = self.rtt else {
            return self.r_max;
        };
        match (self.cfg.one_way_delay_adjustment, self.d_sample, self.d_now) {
            (true, Some(ds), Some(dn)) => {
                let adj = r.as_nanos() as i128 + (dn - ds);
                Duration::from_nanos(adj.clamp(MIN_RTT.as_nanos() as i128, u64::MAX as i128) as u64)
            }
            _ => r.max(MIN_RTT),
        }
    }

    /// X_r in bytes/s: the equation rate after a loss, 2·X_recv before (§4.1, §4.3.4).
    pub fn calculated_rate(&self, now: Instant) -> f64 {
        let r = self.rtt().as_secs_f64();
        if self.history.has_loss() {
            rfc5348_rate(self.s_bytes, r, self.history.loss_event_rate(), 4.0 * r, self.cfg.b)
        } else {
            2.0 * self.meter.rate(now).as_bps() as f64 / 8.0
        }
    }

    fn on_data(&mut self, now: Instant, h: TfmccData, wire_bytes: usize) {
        self.r_max = Duration::from_micros(h.r_max_us as u64);
        let d = now.as_nanos() as i128 - h.timestamp_ns as i128;
        self.d_now = Some(d);
        if let Some(e) = h.echo {
            if e.receiver == self.id {
                self.on_echo(now, e.timestamp_ns, e.offset_us, d);
                self.set_clr(now, e.is_clr);
            } else if e.is_clr {
                self.set_clr(now, false);
            }
        }
        let arrival = self.history.classify(h.seq);
        if arrival == Arrival::Duplicate {
            return;
        }
        let rtt = self.rtt();
        if self.meter.window() != rtt * 2 {
            self.meter.set_window(rtt * 2);
        }
        self.meter.on_bytes(now, wire_bytes as u64);
        self.stats.app_packets_delivered += 1;
        self.stats.app_bytes_delivered += wire_bytes.saturating_sub(DATA_BYTES) as u64;
        self.last_data = Some((h.timestamp_ns, now));
        self.received_since_fb = true;
        let (s_bytes, b, meter) = (self.s_bytes, self.cfg.b, &self.meter);
        let rec = self.history.record(now, h.seq, arrival, rtt, &mut |fallback| {
            // RFC 5348 §6.3.1 (RFC 4654 §4.2): the interval that gives the receive rate.
            let x_recv = meter.rate(now).as_bps() as f64 / 8.0;
            let r = rtt.as_secs_f64();
            let p = rfc5348_inverse_p(s_bytes, r, 4.0 * r, b, x_recv);
            if x_recv > 0.0 && p > 0.0 {
                (1.0 / p).round().clamp(1.0, u32::MAX as f64) as u64
            } else {
                fallback.max(1)
            }
        });
        for _ in 0..rec.new_events {
            self.events.push(Event::LossEvent);
        }
        let x_calc = self.calculated_rate(now);
        self.x_supp = if h.x_supp_bps == NO_SUPPRESSION { f64::INFINITY } else { h.x_supp_bps as f64 / 8.0 };
        self.round = h.fb_round;
        if self.is_clr {
            if self.clr_next.is_none() {
                self.clr_next = Some(now + rtt);
            }
        } else {
            if self.supp.round() != Some(h.fb_round) {
                let x = draw_unit(&mut self.rng);
                let t = self.r_max.mul_f64(self.cfg.feedback_rounds_rtts);
                self.supp.on_round(now, h.fb_round, t, x_calc, x);
            }
            let before = self.supp.cancelled();
            self.supp.on_suppression_rate(self.x_supp, x_calc, self.r_max, rtt);
            self.counters.suppressed += self.supp.cancelled() - before;
        }
    }

    fn on_echo(&mut self, now: Instant, ts: u64, offset_us: u32, d: i128) {
        let Some(elapsed) = now.checked_since(Instant::from_nanos(ts)) else {
            return; // an echo from our future (clock went back): no sample
        };
        let sample = elapsed.saturating_sub(Duration::from_micros(offset_us as u64)).max(Duration::from_micros(1));
        let q = if self.is_clr { self.cfg.q_clr } else { self.cfg.q_non_clr };
        self.rtt = Some(match self.rtt {
            None => sample,
            Some(r) => Duration::from_secs_f64(q * r.as_secs_f64() + (1.0 - q) * sample.as_secs_f64()),
        });
        self.d_sample = Some(d);
        self.counters.rtt_samples += 1;
    }

    fn set_clr(&mut self, now: Instant, clr: bool) {
        if clr && !self.is_clr {
            self.supp.clear();
            self.clr_next = Some(now + self.rtt());
        } else if !clr {
            self.clr_next = None;
        }
        self.is_clr = clr;
    }

    fn build_feedback(&mut self, now: Instant, leave: bool) -> Option<Transmit> {
        let (ts, arrival) = self.last_data?;
        let p = self.history.loss_event_rate();
        let rate_bps = (self.calculated_rate(now) * 8.0).clamp(1.0, u64::MAX as f64) as u64;
        let fb = TfmccFeedback {
            receiver: self.id,
            fb_round: self.round,
            timestamp_ns: now.as_nanos(),
            echo_ns: ts,
            echo_offset_us: u32::try_from(now.saturating_since(arrival).as_nanos() / 1000).unwrap_or(u32::MAX),
            rate_bps,
            p_ppb: p_to_ppb(p),
            have_rtt: self.rtt.is_some(),
            have_loss: p > 0.0,
            leave,
        };
        self.received_since_fb = false;
        self.counters.feedbacks += 1;
        Some(Transmit {
            to: Destination::Peer(crate::endpoint::PeerId::PEER),
            header: fb.emit(),
            payload_len: 0,
            meta: PacketMeta::control(),
        })
    }
}

impl Endpoint for TfmccReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let header = match TfmccHeader::parse(d.bytes) {
            Ok(TfmccHeader::Data(h)) => h,
            Ok(TfmccHeader::Feedback(_)) => {
                self.stats.malformed_datagrams += 1;
                return Err(WireError::Inconsistent("feedback packet sent to a TFMCC receiver"));
            }
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        self.now = self.now.max(now);
        if !self.left {
            self.on_data(self.now, header, d.wire_size());
        }
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        let now = self.now;
        if self.left {
            return;
        }
        if self.join_at.is_some_and(|t| t <= now) {
            self.join_at = None;
            self.membership.push_back(Membership::Join(GroupId(0)));
        }
        if self.leave_at.is_some_and(|t| t <= now) {
            self.left = true;
            self.leave_report_due = true;
            self.supp.clear();
            self.clr_next = None;
            self.membership.push_back(Membership::Leave(GroupId(0)));
            return;
        }
        if self.supp.take_due(now) {
            self.feedback_due = true;
        }
        if self.clr_next.is_some_and(|t| t <= now) {
            // Once per RTT while data arrives (§4.5); the next data packet re-arms it otherwise.
            self.clr_next = if self.received_since_fb { Some(now + self.rtt()) } else { None };
            if self.received_since_fb {
                self.feedback_due = true;
            }
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.now = self.now.max(now);
        if self.leave_report_due {
            self.leave_report_due = false;
            return self.build_feedback(self.now, true);
        }
        if !self.feedback_due || self.left {
            return None;
        }
        self.feedback_due = false;
        self.build_feedback(self.now, false)
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.left {
            return None;
        }
        [self.join_at, self.supp.deadline(), self.clr_next, self.leave_at].into_iter().flatten().min()
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop()
    }

    fn poll_membership(&mut self) -> Option<Membership> {
        if self.join_at.is_some_and(|t| t <= self.now) {
            self.join_at = None;
            self.membership.push_front(Membership::Join(GroupId(0)));
        }
        self.membership.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
