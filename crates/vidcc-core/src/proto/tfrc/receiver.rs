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
//! - Loss history (detection, events, intervals) is `estimate::loss_events`, shared with TFMCC;
//!   T_before/T_after are the arrivals around the hole when it opened; a reordered packet that
//!   later fills part of the hole does not move them. At most 64 open holes are remembered; a
//!   loss in a forgotten hole gets the current time as its nominal arrival.
//! - No ECN (the simulator marks nothing).

use super::config::TfrcConfig;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::loss_detect::Arrival;
use crate::estimate::loss_events::LossEventHistory;
use crate::estimate::loss_intervals::{LossIntervals, LossIntervalsConfig};
use crate::estimate::rate_meter::{EpochRate, RateMeter};
use crate::estimate::tcp_model::rfc5348_inverse_p;
use crate::proto::rate_pacing::EventQueue;
use crate::time::{Duration, Instant};
use crate::wire::tfrc::{TfrcData, TfrcFeedback, TfrcHeader, DATA_BYTES};
use crate::wire::WireError;

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
    /// Loss detection, loss events and intervals (RFC 5348 §5.1–§5.4).
    history: LossEventHistory,
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
    events: EventQueue,
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
            history: LossEventHistory::new(config.ndupack, li),
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
            events: EventQueue::default(),
            counters: TfrcReceiverCounters::default(),
            stats: EndpointStats::default(),
        }
    }

    /// The loss event rate p last computed.
    pub fn loss_event_rate(&self) -> f64 {
        self.p
    }
    pub fn loss_intervals(&self) -> &LossIntervals {
        self.history.intervals()
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

    fn on_data(&mut self, now: Instant, h: TfrcData, wire_bytes: usize) {
        if h.rtt_us > 0 {
            let r = Duration::from_micros(h.rtt_us as u64);
            if self.r_m != Some(r) {
                self.r_m = Some(r);
                self.meter.set_window(r);
            }
        }
        let arrival = self.history.classify(h.seq);
        if arrival == Arrival::Duplicate {
            return;
        }
        if self.history.is_empty() {
            self.epoch = EpochRate::new(now);
        }
        self.meter.on_bytes(now, wire_bytes as u64);
        self.epoch.on_bytes(wire_bytes as u64);
        self.stats.app_packets_delivered += 1;
        self.stats.app_bytes_delivered += wire_bytes.saturating_sub(DATA_BYTES) as u64;
        self.last_data = Some(LastData { seq: h.seq, timestamp_ns: h.timestamp_ns, arrival: now });
        self.received_since_fb = true;
        let r = self.r_m.unwrap_or(Duration::ZERO);
        let (s_bytes, b, r_m) = (self.s_bytes, self.b, self.r_m);
        let (meter, epoch) = (&self.meter, &self.epoch);
        let rec = self.history.record(now, h.seq, arrival, r, &mut |fallback| {
            // X_recv as `x_recv_bps` measures it, only when a first interval is needed.
            let x_recv = if r_m.is_some() { meter.rate(now) } else { epoch.rate(now) };
            first_interval(s_bytes, b, r_m, x_recv.as_bps() as f64 / 8.0, fallback)
        });
        let first = rec.first;
        self.counters.lost_packets += rec.lost as u64;
        self.counters.loss_events += rec.new_events as u64;
        for _ in 0..rec.new_events {
            self.events.push(Event::LossEvent);
        }
        let p_prev = self.p;
        self.p = self.history.loss_event_rate();
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
        self.events.pop()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}

/// §6.3.1: the first loss interval, the one that would give X_recv (bytes/s) through the
/// throughput equation; without R_m or a measured rate, the packets since the first one.
fn first_interval(s_bytes: f64, b: f64, r_m: Option<Duration>, x_recv: f64, fallback: u64) -> u64 {
    match r_m {
        Some(r) if x_recv > 0.0 => {
            let r = r.as_secs_f64();
            let p = rfc5348_inverse_p(s_bytes, r, 4.0 * r, b, x_recv);
            if p > 0.0 {
                (1.0 / p).round().clamp(1.0, u32::MAX as f64) as u64
            } else {
                u32::MAX as u64
            }
        }
        _ => fallback.max(1),
    }
}
