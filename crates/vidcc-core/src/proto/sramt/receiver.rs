//! The SRAMT receiver (docs/papers/sramt.md §1.3–1.8, §1.12): per joined group the loss filter and
//! the one-way-delay RTT; once per RTT its TCP-friendly rate r_r_tcp (Eqs. 7–8); RTCP RR + APP
//! reports to the sender (or, in large groups, partial suppression); stream / level changes at
//! epoch ends with back-off.

use std::collections::VecDeque;

use super::config::{EpochEstimate, SramtConfig};
use super::estimator::{tcp_rate, LossSampler, OwdRtt};
use super::feedback::{randomised, rtcp_interval, suppresses, SuppressionRound};
use super::rules::{Backoff, EpochRules};
use super::wire::{DataHeader, ReceiverReport, ToReceiver, RR_APP_BYTES};
use crate::endpoint::{
    Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, Membership, PacketMeta, Transmit,
};
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::wire::rtcp::ReportBlock;
use crate::wire::WireError;

/// IP + UDP bytes counted in RTCP's average packet size (RFC 3550 §6.2).
const IP_UDP_BYTES: f64 = 28.0;

/// One group's receive state (a fresh one on every join).
#[derive(Clone, Debug)]
struct GroupRx {
    loss: LossSampler,
    rtt: OwdRtt,
}

/// A stream / level change as the receiver made it: (when, from, to, rule-2 move?).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChangeRecord {
    pub at: Instant,
    pub from: usize,
    pub to: usize,
    pub mismatch_rule: bool,
}

pub struct SramtReceiver {
    cfg: SramtConfig,
    layered: bool,
    id: u32,
    n: usize,
    /// P of Eq. 1, bytes.
    packet_bytes: f64,
    rng: SimRng,
    start: Instant,
    started: bool,
    /// When the receiver leaves its groups and stops (`None`: never).
    stop: Option<Instant>,
    stopped: bool,
    now: Instant,
    /// Stream j (S, 0-based) or level k (LE, 1-based).
    position: usize,
    groups: Vec<Option<GroupRx>>,
    /// Announced rates (bit/s), epoch length, members, sender SSRC, from the newest data packet.
    rates: Vec<f64>,
    epoch: Duration,
    members: u32,
    sender_ssrc: u32,
    heard_data: bool,
    /// r_r_tcp^i, bit/s, and its sums since the last report and over the epoch.
    r_tcp: Option<f64>,
    /// l_i at the latest RTT tick (stands while no joined group has a loss sample).
    last_loss: f64,
    /// The top of the highest band (S) or the sum of the band tops (LE), bit/s.
    session_max: f64,
    acc_report: (f64, u32),
    acc_epoch: (f64, u32),
    next_rtt_tick: Option<Instant>,
    next_loss_sample: Instant,
    next_report: Option<Instant>,
    suppression: SuppressionRound,
    suppressing: bool,
    /// (LSR, arrival) of the newest SR.
    last_sr: Option<(u32, Instant)>,
    /// Newest epoch index handled, and the estimated sender-side instant of that epoch's end.
    epoch_handled: Option<u32>,
    last_epoch_end: Option<Instant>,
    rules: EpochRules,
    changes: Vec<ChangeRecord>,
    memberships: VecDeque<Membership>,
    transmits: VecDeque<Transmit>,
    events: VecDeque<Event>,
    stats: EndpointStats,
    reports_sent: u64,
    reports_suppressed: u64,
}

impl SramtReceiver {
    /// Receiver `id` (the sender's `PeerId(id)`) of a flow of `packet_bytes` packets.
    pub fn new(cfg: &SramtConfig, layered: bool, id: u32, packet_bytes: f64, start: Instant, rng: SimRng) -> Self {
        let n = cfg.groups();
        let epoch = Duration::from_nanos(cfg.epoch_ns);
        SramtReceiver {
            layered,
            id,
            n,
            packet_bytes,
            rng,
            start,
            started: false,
            stop: None,
            stopped: false,
            now: start,
            position: cfg.initial_group as usize,
            groups: vec![None; n],
            rates: cfg.initial_rates_bps.iter().map(|&r| r as f64).collect(),
            epoch,
            members: 1,
            sender_ssrc: 0,
            heard_data: false,
            r_tcp: None,
            last_loss: 0.0,
            session_max: if layered {
                cfg.bands_bps.iter().map(|b| b[1] as f64).sum()
            } else {
                cfg.bands_bps.iter().map(|b| b[1] as f64).fold(0.0, f64::max)
            },
            acc_report: (0.0, 0),
            acc_epoch: (0.0, 0),
            next_rtt_tick: None,
            next_loss_sample: start + Duration::from_nanos(cfg.loss_sample_ns),
            next_report: None,
            suppression: SuppressionRound::new(cfg.suppression_lambda, Duration::from_nanos(cfg.suppression_round_ns)),
            suppressing: false,
            last_sr: None,
            epoch_handled: None,
            last_epoch_end: None,
            rules: EpochRules::new(cfg, layered),
            changes: Vec::new(),
            memberships: VecDeque::new(),
            transmits: VecDeque::new(),
            events: VecDeque::new(),
            stats: EndpointStats::default(),
            reports_sent: 0,
            reports_suppressed: 0,
            cfg: cfg.clone(),
        }
    }

    /// Starts on stream `position` (S, 0-based) or level `position` (LE) instead of the
    /// configured `initial_group`.
    pub fn with_position(mut self, position: usize) -> Self {
        self.position = position;
        self
    }

    /// Leaves every group and goes quiet at `stop`.
    pub fn with_stop(mut self, stop: Option<Instant>) -> Self {
        self.stop = stop;
        self
    }

    /// Stream j (S, 0-based) or level k (LE, 1-based).
    pub fn position(&self) -> usize {
        self.position
    }
    pub fn changes(&self) -> &[ChangeRecord] {
        &self.changes
    }
    pub fn backoff(&self) -> &Backoff {
        self.rules.backoff()
    }
    pub fn rate_estimate(&self) -> Option<f64> {
        self.r_tcp
    }
    /// (sent, suppressed) reports.
    pub fn reports(&self) -> (u64, u64) {
        (self.reports_sent, self.reports_suppressed)
    }
    pub fn suppressing(&self) -> bool {
        self.suppressing
    }
    /// The RTT the receiver uses, t_RTT^{e-i} (S: its stream's; LE: Eq. 17's mean), seconds.
    pub fn rtt_estimate(&self) -> Option<f64> {
        let v: Vec<f64> = self.joined().filter_map(|j| self.groups[j].as_ref()?.rtt.rtt()).collect();
        (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
    }
    /// l_i (S: its stream's; LE: Eq. 11's rate-weighted mean over layers 1..k). A group joined
    /// so recently that it has no loss sample yet is left out, and with no sample at all the
    /// previous l_i stands \[R\]: a fresh group's empty filter is not evidence of a loss-free
    /// path (read as zero, it would make Eq. 8 grow the rate for a whole sample interval
    /// after every change).
    pub fn loss_estimate(&self) -> f64 {
        let (mut num, mut den) = (0.0, 0.0);
        for j in self.joined() {
            if let Some(l) = self.groups[j].as_ref().and_then(|g| g.loss.filter.value()) {
                num += l * self.rates[j];
                den += self.rates[j];
            }
        }
        if den > 0.0 {
            num / den
        } else {
            self.last_loss
        }
    }

    /// The groups this receiver belongs to.
    fn joined(&self) -> std::ops::Range<usize> {
        if self.layered {
            0..self.position
        } else {
            self.position..self.position + 1
        }
    }

    fn join(&mut self, g: usize) {
        let a = self.groups.iter().flatten().next().map_or(self.cfg.initial_calibration, |x| x.rtt.a());
        self.groups[g] = Some(GroupRx { loss: LossSampler::default(), rtt: OwdRtt::new(self.cfg.rtt_scaling, a) });
        self.memberships.push_back(Membership::Join(GroupId(g as u32)));
    }

    fn leave(&mut self, g: usize) {
        self.groups[g] = None;
        self.memberships.push_back(Membership::Leave(GroupId(g as u32)));
    }

    /// The rate of the receiver's stream (S) or C_k of its level (LE), bit/s.
    fn current_rate(&self) -> f64 {
        self.joined().map(|j| self.rates[j]).sum()
    }

    fn on_data(&mut self, now: Instant, h: &DataHeader, payload: u32) {
        let g = h.group as usize;
        if g >= self.n || h.n as usize != self.n {
            return;
        }
        self.rates.iter_mut().zip(h.rates()).for_each(|(r, &x)| *r = f64::from(x));
        self.epoch = Duration::from_micros(u64::from(h.epoch_us));
        self.members = h.members;
        self.sender_ssrc = h.ssrc;
        let owd = OwdRtt::one_way_delay_s(now, h.timestamp_us);
        let joined = self.joined().contains(&g);
        if joined {
            self.stats.app_bytes_delivered += u64::from(payload);
            self.stats.app_packets_delivered += 1;
            if let Some(rx) = self.groups[g].as_mut() {
                rx.loss.on_packet(h.seq);
                rx.rtt.observe(owd);
            }
        }
        // Eq. 16: calibrate every joined group from its newest OWD; the carrying packet's
        // own OWD for its group, so that its sample equals the echoed RTT.
        if let Some((id, rtt_us)) = h.echo {
            if id == self.id {
                let rtt = Duration::from_micros(u64::from(rtt_us));
                for rx in self.groups.iter_mut().flatten() {
                    rx.rtt.calibrate(rtt);
                }
            }
        }
        if joined {
            if let Some(rx) = self.groups[g].as_mut() {
                rx.rtt.sample();
            }
        }
        if !self.heard_data {
            self.heard_data = true;
            self.r_tcp = Some(self.current_rate());
        }
        if self.next_rtt_tick.is_none() {
            if let Some(r) = self.rtt_estimate() {
                self.next_rtt_tick = Some(now + Duration::from_secs_f64(r.max(1e-3)));
            }
        }
        if let Some((pos, rate)) = h.heard {
            self.on_heard(now, pos as usize, f64::from(rate));
        }
        if self.next_report.is_none() && !self.suppressing {
            self.schedule_report(now, true);
        }
        if h.epoch_end && self.epoch_handled.is_none_or(|e| h.epoch_index.wrapping_sub(e) as i32 > 0) {
            self.epoch_handled = Some(h.epoch_index);
            self.last_epoch_end = Some(Instant::from_nanos(
                now.as_nanos().saturating_sub(Duration::from_secs_f64(owd.max(0.0)).as_nanos()),
            ));
            self.on_epoch_end(now);
        }
    }

    /// §1.12: another receiver's report (relayed by the sender) cancels a pending one that it
    /// resembles.
    fn on_heard(&mut self, now: Instant, position: usize, rate: f64) {
        if !self.suppressing || self.suppression.due().is_none() {
            return;
        }
        let own = self.report_rate();
        if suppresses(self.position, own, position, rate, self.cfg.suppression_similarity) {
            self.suppression.cancel();
            self.reports_suppressed += 1;
            // The next report goes in the following round.
            self.suppression.schedule(now, &mut self.rng);
        }
    }

    /// The rate a report carries: the mean r_r_tcp since the previous report (§1.5).
    fn report_rate(&self) -> f64 {
        match self.acc_report {
            (s, c) if c > 0 => s / f64::from(c),
            _ => self.r_tcp.unwrap_or_else(|| self.current_rate()),
        }
    }

    /// The RTCP interval (RFC 3550 §6.3.1 with the paper's 5 s minimum) in this receiver's
    /// session: the stream's (S) or the base layer's (LE), whose bandwidth is that group's rate.
    fn rtcp_interval(&self, initial: bool) -> Duration {
        let session = if self.layered { self.rates[0] } else { self.rates[self.position] };
        rtcp_interval(&self.cfg, self.members, false, RR_APP_BYTES as f64 + IP_UDP_BYTES, session, initial)
    }

    fn schedule_report(&mut self, now: Instant, first: bool) {
        let interval = self.rtcp_interval(first);
        self.suppressing = self.cfg.suppression && interval > Duration::from_nanos(self.cfg.suspend_interval_ns);
        if self.suppressing {
            self.next_report = None;
            self.suppression.schedule(now, &mut self.rng);
        } else {
            self.suppression.clear();
            self.next_report = Some(now + randomised(interval, &mut self.rng));
        }
    }

    fn send_report(&mut self, now: Instant) {
        let (lsr, dlsr) = match self.last_sr {
            Some((lsr, at)) => (lsr, (now.saturating_since(at).as_nanos() as u128 * 65536 / 1_000_000_000) as u32),
            None => (0, 0),
        };
        let loss = self.loss_estimate();
        let base = if self.layered { 0 } else { self.position };
        let (highest, cumulative) = self.groups[base].as_ref().map_or((0, 0), |g| g.loss.totals());
        let rr = ReceiverReport {
            ssrc: self.id,
            block: ReportBlock {
                source_ssrc: self.sender_ssrc,
                fraction_lost: (loss * 256.0).min(255.0) as u8,
                cumulative_lost: cumulative.min(i64::from(i32::MAX)) as i32,
                extended_highest_seq: highest as u32,
                jitter: 0,
                lsr,
                dlsr,
            },
            rate_bps: self.report_rate().clamp(0.0, f64::from(u32::MAX)) as u32,
            loss_ppb: (loss.clamp(0.0, 1.0) * 1e9) as u32,
            position: self.position as u8,
        };
        self.transmits.push_back(Transmit {
            to: Destination::PEER,
            header: rr.emit(),
            payload_len: 0,
            meta: PacketMeta::control(),
        });
        self.acc_report = (0.0, 0);
        self.reports_sent += 1;
    }

    /// §1.5: once per RTT, Eq. 7 (losses) or Eq. 8 (one packet per RTT more).
    fn rtt_tick(&mut self, now: Instant) {
        let Some(rtt) = self.rtt_estimate() else {
            self.next_rtt_tick = None;
            return;
        };
        let l = self.loss_estimate();
        self.last_loss = l;
        self.events.push_back(Event::RttEstimated { rtt: Duration::from_secs_f64(rtt) });
        let r = self.r_tcp.unwrap_or_else(|| self.current_rate());
        let r = if l > 0.0 { 8.0 * tcp_rate(self.packet_bytes, l, rtt) } else { r + 8.0 * self.packet_bytes / rtt };
        // A-05 gives Eq. 8 no cap; `cap_estimate` holds it at the most the session can carry.
        let r = if self.cfg.cap_estimate { r.min(self.session_max) } else { r };
        self.r_tcp = Some(r);
        self.acc_report.0 += r;
        self.acc_report.1 += 1;
        self.acc_epoch.0 += r;
        self.acc_epoch.1 += 1;
        self.next_rtt_tick = Some(now + Duration::from_secs_f64(rtt.max(1e-3)));
    }

    /// §1.6–1.7: the decision at an epoch end.
    fn on_epoch_end(&mut self, now: Instant) {
        let estimate = match (self.cfg.epoch_estimate, self.acc_epoch) {
            (EpochEstimate::EpochMean, (s, c)) if c > 0 => s / f64::from(c),
            _ => match self.r_tcp {
                Some(r) => r,
                None => return,
            },
        };
        self.acc_epoch = (0.0, 0);
        let from = self.position;
        let Some((to, mismatch_rule)) = self.rules.at_epoch_end(now, estimate, &self.rates, from) else {
            return;
        };
        if self.layered {
            for g in to..from {
                self.leave(g);
            }
            for g in from..to {
                self.join(g);
            }
        } else {
            self.leave(from);
            self.join(to);
        }
        self.position = to;
        self.changes.push(ChangeRecord { at: now, from, to, mismatch_rule });
        let layers = if self.layered { to as u8 } else { to as u8 + 1 };
        self.events.push_back(Event::LayersChanged { layers });
    }

    /// When the flagged packet of the next epoch is expected at the latest: the previous end +
    /// T_epoch + T_oneway (§1.8), plus one packet gap of the slowest joined group \[R\] (the flag
    /// rides the first packet after the epoch ends).
    fn epoch_fallback(&self) -> Option<Instant> {
        let last = self.last_epoch_end?;
        let owd = self.joined().filter_map(|j| self.groups[j].as_ref()?.rtt.last_owd()).fold(0.0f64, f64::max);
        let rate = self.joined().map(|j| self.rates[j]).fold(f64::INFINITY, f64::min).max(1.0);
        let gap = 8.0 * self.packet_bytes / rate;
        Some(last + self.epoch + Duration::from_secs_f64(owd.max(0.0) + gap))
    }
}

impl Endpoint for SramtReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let parsed = ToReceiver::parse(d.bytes, d.wire_size()).inspect_err(|_| self.stats.malformed_datagrams += 1)?;
        if self.stopped || !self.started {
            // In flight when the receiver left (or before it joined): nothing to act on.
            return Ok(());
        }
        self.now = self.now.max(now);
        let now = self.now;
        match parsed {
            ToReceiver::Sr(ssrc, info) => {
                self.sender_ssrc = ssrc;
                // LSR: the middle 32 bits of the SR's NTP timestamp (RFC 3550 §6.4.1).
                self.last_sr = Some((crate::wire::rtcp::ntp_middle(info.ntp), now));
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
            let groups: Vec<usize> = self.joined().collect();
            for g in groups {
                self.join(g);
            }
        }
        if !self.started || self.stopped {
            return;
        }
        if self.stop.is_some_and(|s| now >= s) {
            self.stopped = true;
            let groups: Vec<usize> = self.joined().collect();
            for g in groups {
                self.leave(g);
            }
            return;
        }
        while now >= self.next_loss_sample {
            for rx in self.groups.iter_mut().flatten() {
                rx.loss.sample();
            }
            self.next_loss_sample += Duration::from_nanos(self.cfg.loss_sample_ns);
        }
        if self.next_rtt_tick.is_some_and(|t| now >= t) {
            self.rtt_tick(now);
        }
        if self.epoch_fallback().is_some_and(|t| now >= t) {
            // The flag was missed: end the epoch now and expect the next one an epoch later.
            self.epoch_handled = self.epoch_handled.map(|e| e.wrapping_add(1));
            self.last_epoch_end = self.last_epoch_end.map(|t| t + self.epoch);
            self.on_epoch_end(now);
        }
        if self.next_report.is_some_and(|t| now >= t) {
            self.send_report(now);
            self.schedule_report(now, false);
        } else if self.suppressing && self.suppression.due().is_some_and(|t| now >= t) {
            self.send_report(now);
            self.suppression.sent();
            self.schedule_report(now, false);
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
        [
            self.stop,
            Some(self.next_loss_sample),
            self.next_rtt_tick,
            self.epoch_fallback(),
            self.next_report,
            if self.suppressing { self.suppression.due() } else { None },
        ]
        .into_iter()
        .flatten()
        .min()
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
