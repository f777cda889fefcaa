//! The replicated-stream receiver (see [`super`]): one stream at a time, its RTP reception
//! statistics (the shared [`RtpReception`]), each round's loss, the report when polled, and the
//! moves a scheme's [`ReceiverRules`] ask for at round boundaries.

use std::collections::VecDeque;

use rand::Rng;

use super::wire::{Report, ToReceiver, POLL_ALL};
use super::CoreConfig;
use crate::endpoint::{
    Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, Membership, PacketMeta, Transmit,
};
use crate::estimate::rtp_reception::RtpReception;
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::wire::WireError;

/// An instant as the data header's timestamp clock: microseconds modulo 2^32.
pub(super) fn micros32(t: Instant) -> u32 {
    (t.as_nanos() / 1000) as u32
}

/// An SR's 64-bit NTP timestamp (32.32 s) in the same clock as [`micros32`].
pub(super) fn ntp_micros32(ntp: u64) -> u32 {
    let secs = ntp >> 32;
    let frac_us = ((ntp & 0xffff_ffff) * 1_000_000) >> 32;
    secs.wrapping_mul(1_000_000).wrapping_add(frac_us) as u32
}

/// What a receiver measured over one round on its stream.
#[derive(Clone, Debug)]
pub struct RoundMeasure<'a> {
    pub position: usize,
    /// Lost / expected packets of the round; `None` when the round was partial (just joined)
    /// and nothing arrived. A whole round with nothing received counts as loss 1.
    pub loss: Option<f64>,
    /// Whether the receiver was on this stream for the whole round.
    pub full_round: bool,
    /// Bits per second received in the round.
    pub received_bps: f64,
    /// The announced stream rates, bit/s.
    pub rates: &'a [f64],
    /// The RTT the receiver knows (the sender's echo, or the initial value).
    pub rtt: Duration,
}

/// What the scheme decided at a round's end.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundOutcome {
    /// The report's value (DSG: state code; IRFM: isolated rate, bit/s) and loss.
    pub value: u32,
    pub loss: f64,
    /// The stream to move to, if any.
    pub move_to: Option<usize>,
}

/// A scheme's receiver side.
pub trait ReceiverRules {
    /// A data packet of the receiver's stream with extended sequence number `ext_seq`.
    fn on_packet(&mut self, _now: Instant, _ext_seq: u32, _rtt: Duration) {}
    /// The receiver joined a stream (a fresh sequence space).
    fn on_join(&mut self) {}
    fn end_round(&mut self, now: Instant, m: &RoundMeasure<'_>) -> RoundOutcome;
}

/// A stream change the receiver made: (when, from, to).
pub type ChangeRecord = (Instant, usize, usize);

pub struct SimulcastReceiver<R: ReceiverRules> {
    cfg: CoreConfig,
    rules: R,
    id: u32,
    rng: SimRng,
    start: Instant,
    started: bool,
    stop: Option<Instant>,
    stopped: bool,
    now: Instant,
    position: usize,
    rx: RtpReception,
    rates: Vec<f64>,
    round: Option<u32>,
    boundary: Instant,
    full_round: bool,
    at_start: (Option<u32>, u64),
    bytes_in_round: u64,
    /// The round's report (value, loss) waiting for the poll, and this round's key.
    pending: Option<(u32, f64)>,
    key: f64,
    rtt: Option<Duration>,
    /// One-way delays as 32-bit microsecond clock differences (receiver clock − sender
    /// timestamp, modulo 2^32: any clock offset cancels in the difference of two): of the newest
    /// data packet; of the newest SR; of the SR the newest report answered (its RTT sample's
    /// forward half); of the SR behind the newest echo (the RTT adjustment's reference).
    owd: Option<u32>,
    sr_owd: Option<u32>,
    report_owd: Option<u32>,
    echo_owd: Option<u32>,
    sender_ssrc: u32,
    changes: Vec<ChangeRecord>,
    memberships: VecDeque<Membership>,
    transmits: VecDeque<Transmit>,
    events: VecDeque<Event>,
    stats: EndpointStats,
    reports_sent: u64,
}

impl<R: ReceiverRules> SimulcastReceiver<R> {
    /// Receiver `id` (the sender's `PeerId(id)`), starting on stream `position` at `start`.
    pub fn new(cfg: CoreConfig, rules: R, id: u32, position: usize, start: Instant, rng: SimRng) -> Self {
        let n = cfg.initial_rates_bps.len();
        SimulcastReceiver {
            rules,
            id,
            rng,
            start,
            started: false,
            stop: None,
            stopped: false,
            now: start,
            position: position.min(n.saturating_sub(1)),
            rx: RtpReception::new(1_000_000),
            rates: cfg.initial_rates_bps.clone(),
            round: None,
            boundary: start,
            full_round: false,
            at_start: (None, 0),
            bytes_in_round: 0,
            pending: None,
            key: 1.0,
            rtt: None,
            owd: None,
            sr_owd: None,
            report_owd: None,
            echo_owd: None,
            sender_ssrc: 0,
            changes: Vec::new(),
            memberships: VecDeque::new(),
            transmits: VecDeque::new(),
            events: VecDeque::new(),
            stats: EndpointStats::default(),
            reports_sent: 0,
            cfg,
        }
    }

    /// Leaves its stream and goes quiet at `stop`.
    pub fn with_stop(mut self, stop: Option<Instant>) -> Self {
        self.stop = stop;
        self
    }
    pub fn position(&self) -> usize {
        self.position
    }
    pub fn changes(&self) -> &[ChangeRecord] {
        &self.changes
    }
    pub fn reports_sent(&self) -> u64 {
        self.reports_sent
    }
    pub fn rules(&self) -> &R {
        &self.rules
    }

    /// The echoed RTT (the initial one before any echo); with `owd_rtt`, moved by the change of
    /// the one-way delay since the echo, R' = R + (D' − D) (RFC 4654 §4.3.3), at least 1 µs.
    fn rtt(&self) -> Duration {
        let Some(echo) = self.rtt else { return self.cfg.initial_rtt };
        match (self.cfg.owd_rtt, self.owd, self.echo_owd) {
            (true, Some(d), Some(d0)) => {
                let r = echo.as_secs_f64() + f64::from(d.wrapping_sub(d0) as i32) * 1e-6;
                if r.is_finite() {
                    Duration::from_secs_f64(r.max(1e-6))
                } else {
                    echo
                }
            }
            _ => echo,
        }
    }

    fn join(&mut self, g: usize) {
        self.rx = RtpReception::new(1_000_000);
        self.at_start = (None, 0);
        self.rules.on_join();
        self.memberships.push_back(Membership::Join(GroupId(g as u32)));
    }

    /// Ends the receiver's round at `now` (a packet of a later round, or the fallback).
    fn end_round(&mut self, now: Instant) {
        let highest = self.rx.highest();
        let received = self.rx.received();
        let expected = match (highest, self.at_start.0) {
            (Some(h), Some(b)) => u64::from(h.wrapping_sub(b)),
            _ => 0,
        };
        let got = received - self.at_start.1;
        let loss = if expected > 0 {
            Some((expected.saturating_sub(got)) as f64 / expected as f64)
        } else if self.full_round {
            Some(1.0)
        } else {
            None
        };
        let elapsed = now.saturating_since(self.boundary).as_secs_f64().max(1e-9);
        let m = RoundMeasure {
            position: self.position,
            loss,
            full_round: self.full_round,
            received_bps: self.bytes_in_round as f64 * 8.0 / elapsed,
            rates: &self.rates,
            rtt: self.rtt(),
        };
        let out = self.rules.end_round(now, &m);
        self.at_start = (highest, received);
        self.bytes_in_round = 0;
        self.boundary = now;
        self.key = self.rng.gen::<f64>();
        match out.move_to.filter(|&to| to != self.position && to < self.rates.len()) {
            Some(to) => {
                let from = self.position;
                self.memberships.push_back(Membership::Leave(GroupId(from as u32)));
                self.position = to;
                self.join(to);
                self.changes.push((now, from, to));
                self.events.push_back(Event::LayersChanged { layers: to as u8 + 1 });
                self.pending = None;
                self.full_round = false;
            }
            None => {
                self.pending = self.full_round.then_some((out.value, out.loss));
                self.full_round = true;
            }
        }
    }

    fn send_report(&mut self, now: Instant, round: u32, value: u32, loss: f64) {
        let Some(mut block) = self.rx.report_block(now) else { return };
        block.source_ssrc = self.sender_ssrc;
        let r = Report {
            ssrc: self.id,
            block,
            value,
            loss_ppb: (loss.clamp(0.0, 1.0) * 1e9) as u32,
            position: self.position as u8,
            round: round as u16,
        };
        self.transmits.push_back(Transmit {
            to: Destination::PEER,
            header: r.emit(self.cfg.scheme),
            payload_len: 0,
            meta: PacketMeta::control(),
        });
        self.reports_sent += 1;
        self.report_owd = self.sr_owd;
    }

    fn on_data(&mut self, now: Instant, h: &super::wire::DataHeader, payload: u32) {
        if h.n as usize != self.rates.len() {
            return;
        }
        self.rates.iter_mut().zip(h.rates()).for_each(|(r, &x)| *r = f64::from(x));
        self.sender_ssrc = h.ssrc;
        let owd = micros32(now).wrapping_sub(h.timestamp_us);
        self.owd = Some(owd);
        if let Some((id, us)) = h.echo {
            if id == self.id {
                let rtt = Duration::from_micros(u64::from(us).max(1));
                self.rtt = Some(rtt);
                // The sample's forward half is the SR the report answered (A − LSR − DLSR).
                self.echo_owd = self.report_owd.or(Some(owd));
                self.events.push_back(Event::RttEstimated { rtt });
            }
        }
        if h.group as usize != self.position {
            return; // in flight from the stream just left
        }
        let newer = self.round.is_none_or(|r| h.round.wrapping_sub(r) as i32 > 0);
        if newer {
            if self.round.is_some() || self.full_round {
                self.end_round(now);
            }
            self.round = Some(h.round);
            if h.group as usize != self.position {
                return;
            }
        }
        let rec = self.rx.on_packet(now, h.seq, h.timestamp_us, h.ssrc);
        if rec.first {
            // The count starts one before the first packet of the stream: that packet was expected.
            self.at_start.0 = Some(rec.ext_seq.wrapping_sub(1));
        }
        self.rules.on_packet(now, rec.ext_seq, self.rtt());
        self.bytes_in_round += u64::from(payload) + h.len() as u64;
        self.stats.app_bytes_delivered += u64::from(payload);
        self.stats.app_packets_delivered += 1;
        // Polling: report once per round as soon as the stream's probability exceeds the key.
        if let Some((value, loss)) = self.pending {
            // (A report before any SR carries LSR = 0: no RTT sample, still useful for the rates.)
            if f64::from(h.poll_ppm) / f64::from(POLL_ALL) > self.key {
                self.pending = None;
                self.send_report(now, h.round, value, loss);
            }
        }
    }
}

impl<R: ReceiverRules> Endpoint for SimulcastReceiver<R> {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let parsed = ToReceiver::parse(d.bytes, d.wire_size(), self.cfg.scheme)
            .inspect_err(|_| self.stats.malformed_datagrams += 1)?;
        if self.stopped || !self.started {
            return Ok(());
        }
        self.now = self.now.max(now);
        let now = self.now;
        match parsed {
            ToReceiver::Sr(ssrc, info) => {
                if info.ntp != 0 {
                    self.sender_ssrc = ssrc;
                    self.rx.on_sender_report(now, info.ntp);
                    // The SR's one-way delay in the data timestamps' clock (µs modulo 2^32).
                    self.sr_owd = Some(micros32(now).wrapping_sub(ntp_micros32(info.ntp)));
                }
            }
            ToReceiver::Data(h) => {
                let payload = (d.bytes.len() - h.len()) as u32 + d.virtual_payload;
                self.on_data(now, &h, payload);
            }
        }
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        let now = self.now;
        if !self.started && now >= self.start {
            self.started = true;
            self.boundary = now;
            self.join(self.position);
        }
        if !self.started || self.stopped {
            return;
        }
        if self.stop.is_some_and(|s| now >= s) {
            self.stopped = true;
            self.memberships.push_back(Membership::Leave(GroupId(self.position as u32)));
            return;
        }
        if now >= self.fallback() {
            // Nothing of a later round arrived for 1.5 rounds: end the round here [R].
            self.end_round(now);
        }
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        self.transmits.pop_front()
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.started {
            return Some(self.start);
        }
        if self.stopped {
            return None;
        }
        Some(self.stop.map_or(self.fallback(), |s| s.min(self.fallback())))
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn poll_membership(&mut self) -> Option<Membership> {
        self.memberships.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}

impl<R: ReceiverRules> SimulcastReceiver<R> {
    fn fallback(&self) -> Instant {
        self.boundary + self.cfg.round.mul_f64(1.5)
    }
}
