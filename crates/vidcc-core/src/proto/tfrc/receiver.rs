//! The TFRC receiver (RFC 5348 §5 and §6): loss detection, loss events, the average loss
//! interval, X_recv, and one feedback packet per RTT plus one at once when p rises.
//!
//! Per data packet (§6.1):
//! - loss detection (§5.1): a packet is lost once NDUPACK (`ndupack`, 3) packets with a higher
//!   sequence number have arrived ([`GapDetector::with_reorder_threshold`]);
//! - loss events (§5.2): a lost packet's nominal arrival time is interpolated between the
//!   arrivals before and after its hole, `T_loss = T_before + (T_after − T_before)·(S_loss −
//!   S_before)/(S_after − S_before)`; it starts a new loss event iff `T_loss > T_old + R`, with
//!   T_old the nominal time of the first lost packet of the current event and R the sender's RTT
//!   estimate carried in the data header (R_m);
//! - loss intervals (§5.3): an interval runs from the first lost packet of one event to the first
//!   of the next (`S_new − S_old` packets); the open interval I_0 counts from the last event's
//!   first lost packet to the highest sequence number received, inclusive. The first closed
//!   interval is synthesised (§6.3.1): the p that makes the throughput equation (Eq. 1 of §3.1,
//!   b, t_RTO = 4R) equal X_recv ([`rfc5348_inverse_p`]), I_1 = round(1/p);
//! - p = 1/I_mean from the 8-weight average ([`LossIntervals`], §5.4; §5.5 history discounting
//!   as an option); if p rose, feedback is sent at once (§6.1 step 4).
//!
//! Feedback (§6.2): when the feedback timer (R_m after the last feedback) expires and data
//! arrived since, the receiver sends t_recvdata (the last data packet's timestamp), t_delay,
//! X_recv = the rate received over the last R_m ([`RateMeter`] with window R_m) and p.
//! The first data packet is answered at once (§6.3).
//!
//! Deviations (all where the RFC leaves room or has no case):
//! - Until the sender's header carries an RTT (before its first feedback) there is no R_m: every
//!   data packet is answered (the sender then sends one packet per second), X_recv is the rate
//!   since the previous feedback ([`EpochRate`]), and a first loss event synthesises I_1 as the
//!   packets received so far.
//! - When no data arrived during a feedback interval the timer is not re-armed (the RFC re-arms
//!   it every R_m); the next data packet re-arms it, or triggers feedback at once if R_m has
//!   passed since the last one. Same feedback, fewer idle wake-ups.
//! - T_before/T_after are the arrivals around the hole when it opened; a reordered packet that
//!   later fills part of the hole does not move them. At most 64 open holes are remembered; a
//!   loss in a forgotten hole gets the current time as its nominal arrival.
//! - No ECN (the simulator marks nothing).

use std::collections::VecDeque;

use super::config::TfrcConfig;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::loss_detect::{Arrival, GapDetector};
use crate::estimate::loss_intervals::{LossIntervals, LossIntervalsConfig, N_INTERVALS};
use crate::estimate::rate_meter::{EpochRate, RateMeter};
use crate::estimate::tcp_model::rfc5348_inverse_p;
use crate::time::{Duration, Instant};
use crate::wire::tfrc::{TfrcData, TfrcFeedback, TfrcHeader, DATA_BYTES};
use crate::wire::WireError;

const MAX_HOLES: usize = 64;
const EVENT_CAPACITY: usize = 16;
/// Loss events one declaration can start: beyond n + 1 the history is all new anyway.
const MAX_EVENTS_PER_DECLARATION: usize = N_INTERVALS + 1;

/// A run of missing sequence numbers [start, end) and the arrivals around it when it opened.
#[derive(Clone, Copy, Debug)]
struct Hole {
    start: u64,
    end: u64,
    t_before: Instant,
    t_after: Instant,
}

impl Hole {
    /// §5.2 interpolation, in integer ns: T_before + (T_after − T_before)·(S − S_before)/(S_after − S_before)
    /// with S_before = start − 1 and S_after = end.
    fn nominal_time(&self, s: u64) -> Instant {
        let span = (self.end - (self.start - 1)) as u128;
        let dt = self.t_after.saturating_since(self.t_before).as_nanos() as u128;
        let k = (s.clamp(self.start, self.end) - (self.start - 1)) as u128;
        self.t_before + Duration::from_nanos((dt * k / span) as u64)
    }

    /// Smallest s ≥ `from` in the hole whose nominal time is later than `thr`.
    fn first_after(&self, from: u64, thr: Instant) -> Option<u64> {
        if from >= self.end {
            return None;
        }
        if self.nominal_time(from) > thr {
            return Some(from);
        }
        // nominal(s) > thr ⇔ ⌊dt·k/span⌋ ≥ thr − T_before + 1 ⇔ k ≥ ⌈(thr − T_before + 1)·span/dt⌉
        let dt = self.t_after.saturating_since(self.t_before).as_nanos() as u128;
        if dt == 0 {
            return None;
        }
        let span = (self.end - (self.start - 1)) as u128;
        let need = (thr.saturating_since(self.t_before).as_nanos() as u128 + 1) * span;
        let k = need.div_ceil(dt);
        let s = (self.start - 1).saturating_add(u64::try_from(k).unwrap_or(u64::MAX)).max(from);
        (s < self.end).then_some(s)
    }
}

/// The last data packet received: what the next feedback echoes.
#[derive(Clone, Copy, Debug)]
struct LastData {
    seq: u32,
    timestamp_ns: u64,
    arrival: Instant,
}

/// Counters for tests and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TfrcReceiverCounters {
    pub feedbacks: u64,
    pub loss_events: u64,
    pub lost_packets: u64,
}

/// TFRC receiver (see the module docs).
pub struct TfrcReceiver {
    s_bytes: f64,
    b: f64,
    gap: GapDetector,
    intervals: LossIntervals,
    /// Extended highest sequence number received and its arrival time.
    highest: Option<(u64, Instant)>,
    holes: VecDeque<Hole>,
    /// First lost packet of the current loss event and its nominal arrival time.
    event: Option<(u64, Instant)>,
    /// R_m, from the sender's header.
    r_m: Option<Duration>,
    last_data: Option<LastData>,
    meter: RateMeter,
    epoch: EpochRate,
    p: f64,
    fb_deadline: Option<Instant>,
    last_fb: Option<Instant>,
    received_since_fb: bool,
    feedback_due: bool,
    now: Instant,
    events: VecDeque<Event>,
    counters: TfrcReceiverCounters,
    stats: EndpointStats,
}

impl TfrcReceiver {
    /// `packet_size_bytes`: the nominal wire size s of a data packet (for the first-interval
    /// synthesis).
    pub fn new(config: &TfrcConfig, packet_size_bytes: u32) -> Self {
        let li = LossIntervalsConfig {
            history_discounting: config.history_discounting,
            discount_threshold: config.discount_threshold,
        };
        TfrcReceiver {
            s_bytes: packet_size_bytes as f64,
            b: config.b,
            gap: GapDetector::with_reorder_threshold(config.ndupack.max(1)),
            intervals: LossIntervals::with_config(li),
            highest: None,
            holes: VecDeque::with_capacity(MAX_HOLES),
            event: None,
            r_m: None,
            last_data: None,
            meter: RateMeter::new(Duration::from_secs(1)),
            epoch: EpochRate::new(Instant::ZERO),
            p: 0.0,
            fb_deadline: None,
            last_fb: None,
            received_since_fb: false,
            feedback_due: false,
            now: Instant::ZERO,
            events: VecDeque::with_capacity(EVENT_CAPACITY),
            counters: TfrcReceiverCounters::default(),
            stats: EndpointStats::default(),
        }
    }

    /// The loss event rate p last computed.
    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }
    pub fn loss_intervals(&self) -> &LossIntervals {
        &self.intervals
    }
    pub fn counters(&self) -> TfrcReceiverCounters {
        self.counters
    }
    /// R_m, the sender's RTT estimate from the latest data header.
    pub fn sender_rtt(&self) -> Option<Duration> {
        self.r_m
    }
    /// X_recv at `now`, bit/s: the rate received over the last R_m (§6.2).
    pub fn x_recv_bps(&self, now: Instant) -> u64 {
        match self.r_m {
            Some(_) => self.meter.rate(now).as_bps(),
            None => self.epoch.rate(now).as_bps(),
        }
    }

    fn push_event(&mut self, e: Event) {
        if self.events.len() == EVENT_CAPACITY {
            self.events.pop_front();
        }
        self.events.push_back(e);
    }

    /// Extended number of an arriving `seq`, relative to the highest so far (RFC 1982 order).
    fn extend(&self, seq: u32) -> u64 {
        match self.highest {
            None => (1u64 << 32) + seq as u64,
            Some((h, _)) => {
                let d = seq.wrapping_sub(h as u32);
                if d < 1 << 31 {
                    h.saturating_add(d as u64)
                } else {
                    h.saturating_sub((1u64 << 32) - d as u64)
                }
            }
        }
    }

    fn on_data(&mut self, now: Instant, h: TfrcData, wire_bytes: usize) {
        if h.rtt_us > 0 {
            let r = Duration::from_micros(h.rtt_us as u64);
            if self.r_m != Some(r) {
                self.r_m = Some(r);
                self.meter.set_window(r);
            }
        }
        let arrival = self.gap.on_packet(h.seq);
        if arrival == Arrival::Duplicate {
            return;
        }
        let ext = self.extend(h.seq);
        if self.highest.is_none() {
            self.epoch = EpochRate::new(now);
        }
        self.meter.on_bytes(now, wire_bytes as u64);
        self.epoch.on_bytes(wire_bytes as u64);
        self.stats.app_packets_delivered += 1;
        self.stats.app_bytes_delivered += wire_bytes.saturating_sub(DATA_BYTES) as u64;
        self.last_data = Some(LastData { seq: h.seq, timestamp_ns: h.timestamp_ns, arrival: now });
        self.received_since_fb = true;
        let first = self.highest.is_none();
        match self.highest {
            None => self.highest = Some((ext, now)),
            Some((hi, t_hi)) if ext > hi => {
                if ext > hi + 1 {
                    if self.holes.len() == MAX_HOLES {
                        self.holes.pop_front();
                    }
                    self.holes.push_back(Hole { start: hi + 1, end: ext, t_before: t_hi, t_after: now });
                }
                self.highest = Some((ext, now));
            }
            Some(_) => {}
        }
        if let Arrival::Gap { lost, first_missing } = arrival {
            self.counters.lost_packets += lost as u64;
            let hi = self.highest.map_or(ext, |(h, _)| h);
            let lo = hi.saturating_sub((hi as u32).wrapping_sub(first_missing) as u64);
            self.on_losses(now, lo, lo.saturating_add(lost as u64));
        }
        if let (Some((s_old, _)), Some((hi, _))) = (self.event, self.highest) {
            // I_0: from the current event's first lost packet to the highest received, inclusive.
            self.intervals.set_open((hi + 1).saturating_sub(s_old));
        }
        let p_prev = self.p;
        self.p = self.intervals.loss_event_rate();
        if first || self.p > p_prev {
            // §6.3 first packet, §6.1 step 4: p increased.
            self.feedback_due = true;
        } else {
            match (self.r_m, self.fb_deadline) {
                (None, _) => self.feedback_due = true,
                (Some(r), None) => {
                    let due = self.last_fb.map_or(now, |t| t + r);
                    if due <= now {
                        self.feedback_due = true;
                    } else {
                        self.fb_deadline = Some(due);
                    }
                }
                (Some(_), Some(_)) => {}
            }
        }
    }

    /// Packets [lo, hi) were declared lost: group them into loss events (§5.2).
    fn on_losses(&mut self, now: Instant, lo: u64, hi: u64) {
        let lo = lo.max(1);
        let mut found = false;
        for i in 0..self.holes.len() {
            let h = self.holes[i];
            if h.start < hi && lo < h.end {
                found = true;
                self.on_lost_range(now, lo.max(h.start), hi.min(h.end), &h);
            }
        }
        if !found {
            let pseudo = Hole { start: lo, end: hi.max(lo + 1), t_before: now, t_after: now };
            self.on_lost_range(now, lo, hi, &pseudo);
        }
    }

    fn on_lost_range(&mut self, now: Instant, lo: u64, hi: u64, hole: &Hole) {
        let r = self.r_m.unwrap_or(Duration::ZERO);
        let mut s = lo;
        let mut started = 0;
        while s < hi && started < MAX_EVENTS_PER_DECLARATION {
            let t = hole.nominal_time(s);
            match self.event {
                // Part of the current loss event: T_old + R ≥ T_loss (or older than its start).
                Some((s_old, t_old)) if s <= s_old || t <= t_old + r => match hole.first_after(s + 1, t_old + r) {
                    Some(next) if next < hi => s = next,
                    _ => break,
                },
                _ => {
                    self.new_loss_event(now, s, t);
                    started += 1;
                    s += 1;
                }
            }
        }
    }

    fn new_loss_event(&mut self, now: Instant, s: u64, t: Instant) {
        match self.event {
            None => {
                let synth = self.first_interval(now, s);
                self.intervals.push_interval(synth);
            }
            Some((s_old, _)) => self.intervals.push_interval(s - s_old),
        }
        self.event = Some((s, t));
        self.counters.loss_events += 1;
        self.push_event(Event::LossEvent);
    }

    /// §6.3.1: the interval that would give X_recv through the throughput equation.
    fn first_interval(&self, now: Instant, s_loss: u64) -> u64 {
        let x_recv = self.x_recv_bps(now) as f64 / 8.0;
        match self.r_m {
            Some(r) if x_recv > 0.0 => {
                let r = r.as_secs_f64();
                let p = rfc5348_inverse_p(self.s_bytes, r, 4.0 * r, self.b, x_recv);
                if p > 0.0 {
                    (1.0 / p).round().clamp(1.0, u32::MAX as f64) as u64
                } else {
                    u32::MAX as u64
                }
            }
            // No R_m or nothing measured: the packets since the first one.
            _ => {
                let first = self.highest.map_or(s_loss, |(h, _)| (h + 1).saturating_sub(self.gap.span()));
                s_loss.saturating_sub(first).max(1)
            }
        }
    }

    fn build_feedback(&mut self, now: Instant) -> Option<Transmit> {
        self.feedback_due = false;
        let d = self.last_data?;
        let fb = TfrcFeedback {
            echo_seq: d.seq,
            timestamp_echo_ns: d.timestamp_ns,
            t_delay_us: u32::try_from(now.saturating_since(d.arrival).as_nanos() / 1000).unwrap_or(u32::MAX),
            x_recv_bps: self.x_recv_bps(now),
            p_ppb: TfrcFeedback::p_to_ppb(self.p),
        };
        self.received_since_fb = false;
        self.last_fb = Some(now);
        self.epoch.restart(now);
        self.fb_deadline = self.r_m.map(|r| now + r);
        self.counters.feedbacks += 1;
        Some(Transmit { to: Destination::PEER, header: fb.emit(), payload_len: 0, meta: PacketMeta::control() })
    }
}

impl Endpoint for TfrcReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let header = match TfrcHeader::parse(d.bytes) {
            Ok(TfrcHeader::Data(h)) => h,
            Ok(TfrcHeader::Feedback(_)) => {
                self.stats.malformed_datagrams += 1;
                return Err(WireError::Inconsistent("feedback packet sent to a TFRC receiver"));
            }
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        self.now = self.now.max(now);
        self.on_data(self.now, header, d.wire_size());
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        if self.fb_deadline.is_some_and(|t| t <= self.now) {
            self.fb_deadline = None;
            if self.received_since_fb {
                self.feedback_due = true;
            }
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.now = self.now.max(now);
        if !self.feedback_due {
            return None;
        }
        self.build_feedback(self.now)
    }

    fn poll_timeout(&self) -> Option<Instant> {
        self.fb_deadline
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
