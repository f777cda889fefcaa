//! The ASMP receiver: joins the group at its start, keeps RTP reception statistics
//! ([`RtpReception`]), and on its RTCP schedule ([`RtcpScheduler`], as a receiver of a group of
//! the size the sender advertises) sends an RR with its report block and, once the sender has
//! told it an RTT, an APP with its smoothed rate r (docs/papers/asmp-tfmcc.md §1.3 steps 1, 3–5).
//!
//! Per report: l = loss events in the interval / packets expected in it (or the fraction lost);
//! the congestion state from [`CongestionIndicator`] over one cumulative-jitter sample per
//! completely received frame (a frame is complete when its packets arrived in order after the
//! previous frame's marker; CJ_k = (A_k − G_k) − (A_0 − G_0), G from the RTP timestamp (the
//! sender's send time of the frame's first packet), A = arrival of the frame's last packet \[C\]
//! or, option `frame_arrival = first_packet`, of its first); r from [`super::rate::update`], starting from the
//! rate the sender advertises (AMB-7 \[C\]) or `initial_rate_bps` before one arrives, and never
//! above the highest rate the sender advertises.

use std::collections::VecDeque;

use super::config::{AsmpConfig, FrameArrival, LossMeasure};
use super::rate::{update, CongestionIndicator, Interval};
use crate::endpoint::{
    Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, Membership, PacketMeta, Transmit,
};
use crate::estimate::loss_detect::Arrival;
use crate::estimate::rtcp_interval::{self, Expiry, RtcpScheduler};
use crate::estimate::rtp_reception::RtpReception;
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::wire::asmp::{RateReport, ReceiverReport, ToReceiver, DATA_HEADER_BYTES};
use crate::wire::WireError;

/// The group the data and the session reports go to.
pub const DATA_GROUP: GroupId = GroupId(0);

/// What the receiver last decided, for tests and logs.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ReceiverState {
    /// The smoothed rate r, bytes/s (once the receiver has an RTT).
    pub rate: Option<f64>,
    pub rtt: Option<Duration>,
    /// The last interval's loss ratio.
    pub loss: f64,
    pub congested: bool,
    pub reports_sent: u64,
}

pub struct AsmpReceiver {
    cfg: AsmpConfig,
    ssrc: u32,
    start: Instant,
    stop: Option<Instant>,
    packet_bytes: f64,
    joined: bool,
    left: bool,
    rx: RtpReception,
    sched: Option<RtcpScheduler>,
    rng: SimRng,
    members: u32,
    sender_rate: Option<f64>,
    /// The highest rate the sender advertises, bytes/s (∞ until it advertises one, or if it
    /// has no bound).
    sender_max: f64,
    /// Extended highest sequence number at the previous report.
    prev_highest: Option<u32>,
    lost_events: u64,
    event_start: Option<Instant>,
    ci: CongestionIndicator,
    /// Whether the previous in-order packet ended a frame, and whether the current frame has
    /// been received whole so far.
    prev_marker: bool,
    frame_clean: bool,
    /// When the current frame's first packet arrived.
    frame_start: Instant,
    base_transit: Option<i128>,
    state: ReceiverState,
    now: Instant,
    pending: VecDeque<Transmit>,
    membership: VecDeque<Membership>,
    events: VecDeque<Event>,
    stats: EndpointStats,
}

impl AsmpReceiver {
    /// A receiver with SSRC `ssrc` that joins at `start` and leaves at `stop` (then falls silent:
    /// the sender times it out); `packet_bytes` is P (the wire size of a full data packet);
    /// `rng` draws its RTCP intervals.
    pub fn new(
        cfg: &AsmpConfig,
        ssrc: u32,
        packet_bytes: u32,
        start: Instant,
        stop: Option<Instant>,
        rng: SimRng,
    ) -> Self {
        AsmpReceiver {
            cfg: cfg.clone(),
            ssrc,
            start,
            stop,
            packet_bytes: packet_bytes as f64,
            joined: false,
            left: false,
            rx: RtpReception::new(cfg.clock_rate_hz),
            sched: None,
            rng,
            members: 2,
            sender_rate: None,
            sender_max: f64::INFINITY,
            prev_highest: None,
            lost_events: 0,
            event_start: None,
            ci: CongestionIndicator::new(cfg.cj_long_weight, cfg.cj_resolution_ns()),
            prev_marker: true,
            frame_clean: true,
            frame_start: Instant::ZERO,
            base_transit: None,
            state: ReceiverState::default(),
            now: Instant::ZERO,
            pending: VecDeque::new(),
            membership: VecDeque::new(),
            events: VecDeque::new(),
            stats: EndpointStats::default(),
        }
    }

    pub fn state(&self) -> ReceiverState {
        self.state
    }

    fn rtcp_membership(&self) -> rtcp_interval::Membership {
        rtcp_interval::Membership { members: self.members.max(2), senders: 1, we_sent: false }
    }

    fn join_if_due(&mut self) {
        if self.joined && !self.left && self.stop.is_some_and(|t| self.now >= t) {
            self.left = true;
            self.sched = None;
            self.membership.push_back(Membership::Leave(DATA_GROUP));
        }
        if !self.joined && self.now >= self.start && self.stop.is_none_or(|t| self.now < t) {
            self.joined = true;
            self.membership.push_back(Membership::Join(DATA_GROUP));
            // RFC 3550 §6.3.2: the first packet's size (an RR with a block and the APP).
            let first = crate::wire::asmp::RECEIVER_REPORT_BYTES as u64 + self.cfg.rtcp_overhead_bytes;
            let m = self.rtcp_membership();
            self.sched = Some(RtcpScheduler::new(self.cfg.rtcp(), m, first, self.now, &mut self.rng));
        }
    }

    fn on_data(&mut self, now: Instant, marker: bool, seq: u16, timestamp: u32, ssrc: u32, wire: usize) {
        let rec = self.rx.on_packet(now, seq, timestamp, ssrc);
        if rec.first {
            self.prev_highest = Some(rec.ext_seq.wrapping_sub(1));
        }
        match rec.arrival {
            Arrival::Duplicate => return,
            Arrival::Late => {}
            Arrival::InOrder | Arrival::Gap { .. } => {
                if let Arrival::Gap { .. } = rec.arrival {
                    self.frame_clean = false;
                    // Losses within one RTT of an event's first loss are that event.
                    let rtt = self.state.rtt.unwrap_or(Duration::ZERO);
                    if self.event_start.is_none_or(|t| now.saturating_since(t) > rtt) {
                        self.event_start = Some(now);
                        self.lost_events += 1;
                        self.events.push_back(Event::LossEvent);
                    }
                } else if self.prev_marker {
                    self.frame_clean = true;
                    self.frame_start = now;
                }
                if marker && self.frame_clean {
                    let arrival = match self.cfg.frame_arrival {
                        FrameArrival::LastPacket => now,
                        FrameArrival::FirstPacket => self.frame_start,
                    };
                    let transit = arrival.as_nanos() as i128 - rec.sent.as_nanos() as i128;
                    let base = *self.base_transit.get_or_insert(transit);
                    self.ci.sample((transit - base).clamp(i64::MIN as i128, i64::MAX as i128) as i64);
                }
                self.prev_marker = marker;
            }
        }
        self.stats.app_packets_delivered += 1;
        self.stats.app_bytes_delivered += wire.saturating_sub(DATA_HEADER_BYTES) as u64;
    }

    /// The report of one RTCP interval.
    fn report(&mut self, now: Instant) -> ReceiverReport {
        let block = self.rx.report_block(now);
        let congested = self.ci.close_interval();
        let expected = match (block, self.prev_highest) {
            (Some(b), Some(p)) => b.extended_highest_seq.wrapping_sub(p) as u64,
            _ => 0,
        };
        if let Some(b) = block {
            self.prev_highest = Some(b.extended_highest_seq);
        }
        let (loss, lossy) = match self.cfg.loss_measure {
            LossMeasure::LossEventRatio => {
                let l = if expected == 0 { 0.0 } else { (self.lost_events as f64 / expected as f64).min(1.0) };
                (l, self.lost_events > 0)
            }
            LossMeasure::FractionLost => {
                let f = block.map_or(0, |b| b.fraction_lost);
                (f as f64 / 256.0, f > 0)
            }
        };
        self.lost_events = 0;
        self.state.loss = loss;
        self.state.congested = congested;
        let rate = self.state.rtt.map(|rtt| {
            let r = self.state.rate.or(self.sender_rate).unwrap_or(self.cfg.initial_rate_bps as f64 / 8.0);
            let interval = Interval { loss, lossy, congested };
            let r = update(&self.cfg, r, self.packet_bytes, rtt.as_secs_f64(), interval, self.sender_max);
            self.state.rate = Some(r);
            RateReport {
                rate_bytes_per_s: r.round().clamp(0.0, u32::MAX as f64) as u32,
                loss: (loss * 4_294_967_296.0).round().clamp(0.0, u32::MAX as f64) as u32,
                congested,
            }
        });
        self.state.reports_sent += 1;
        ReceiverReport { ssrc: self.ssrc, block, rate }
    }
}

impl Endpoint for AsmpReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let p = match ToReceiver::parse(d.bytes, d.wire_size()) {
            Ok(p) => p,
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        self.now = self.now.max(now);
        let now = self.now;
        match p {
            ToReceiver::Data(h) => self.on_data(now, h.marker, h.seq, h.timestamp, h.ssrc, d.wire_size()),
            ToReceiver::Session { info, members, rate_bytes_per_s, max_bytes_per_s, .. } => {
                self.rx.on_sender_report(now, info.ntp);
                self.sender_rate = Some(rate_bytes_per_s as f64);
                self.sender_max = if max_bytes_per_s == 0 { f64::INFINITY } else { max_bytes_per_s as f64 };
                self.members = members.max(2);
                let m = self.rtcp_membership();
                if let Some(s) = self.sched.as_mut() {
                    s.received(d.wire_size() as u64 + self.cfg.rtcp_overhead_bytes);
                    s.set_membership(now, m);
                }
            }
            ToReceiver::Rtt { receiver_ssrc, rtt_us } => {
                if receiver_ssrc != self.ssrc {
                    self.stats.malformed_datagrams += 1;
                    return Err(WireError::Inconsistent("ASMP RTT echo for another receiver"));
                }
                if rtt_us > 0 {
                    self.state.rtt = Some(Duration::from_micros(rtt_us as u64));
                }
            }
        }
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        self.join_if_due();
        let now = self.now;
        let Some(due) = self.sched.as_ref().map(|s| s.next()) else { return };
        if now < due {
            return;
        }
        let sched = self.sched.as_mut().expect("checked above");
        if sched.expire(now, &mut self.rng) == Expiry::Send {
            let header = self.report(now).emit();
            let bytes = header.len() as u64 + self.cfg.rtcp_overhead_bytes;
            if let Some(s) = self.sched.as_mut() {
                s.sent(now, bytes, &mut self.rng);
            }
            self.pending.push_back(Transmit {
                to: Destination::PEER,
                header,
                payload_len: 0,
                meta: PacketMeta::control(),
            });
        }
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        self.pending.pop_front()
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.left || (!self.joined && self.stop.is_some_and(|t| self.start >= t)) {
            return None;
        }
        let next = match &self.sched {
            None => self.start,
            Some(s) => self.stop.map_or(s.next(), |t| t.min(s.next())),
        };
        Some(next.max(self.now))
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn poll_membership(&mut self) -> Option<Membership> {
        self.membership.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
