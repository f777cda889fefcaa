//! The replicated-stream sender (see [`super`]): n paced streams, rounds, the escalating poll,
//! SRs at round starts, RTT echoes; a scheme's [`StreamRules`] set the rates at each round end.

use std::collections::VecDeque;

use super::wire::{data_header_bytes, sender_report, DataHeader, Report, MAX_GROUPS, POLL_ALL};
use super::{initial_poll, CoreConfig, POLL_STEPS};
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, PacketMeta, Transmit};
use crate::media::MediaTag;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::rtcp::{ntp_from_ns, rtt_from_report, SenderInfo};
use crate::wire::WireError;

/// Pending RTT echoes per stream beyond this are dropped oldest first \[R\].
const MAX_PENDING_ECHOES: usize = 1024;

/// One report the sender heard in a round: from receiver `id`, about the stream it is on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RoundReport {
    pub id: u32,
    /// DSG: the state code; IRFM: the isolated rate, bit/s.
    pub value: u32,
    pub loss: f64,
}

/// A scheme's sender side: the stream rates at a round's end from the round's reports
/// (`reports[j]`: those from stream j's receivers).
pub trait StreamRules {
    fn end_round(&mut self, reports: &[Vec<RoundReport>], rates: &mut [f64]);
}

pub struct SimulcastSender<R: StreamRules> {
    cfg: CoreConfig,
    rules: R,
    n: usize,
    ssrc: u32,
    packet_size: DataSize,
    start: Instant,
    stop: Option<Instant>,
    now: Instant,
    members: u32,
    rates: Vec<f64>,
    next_send: Vec<Instant>,
    seq: Vec<u16>,
    round: u32,
    round_start: Instant,
    /// Polling: the current probability per stream and the poll steps taken this round.
    poll: Vec<f64>,
    step: u32,
    reports: Vec<Vec<RoundReport>>,
    echoes: Vec<VecDeque<(u32, u32)>>,
    controls: VecDeque<Transmit>,
    events: VecDeque<Event>,
    packets_sent: u64,
    octets_sent: u64,
    stats: EndpointStats,
    /// Reports heard per round (tests), and reports too late for their round.
    report_log: Vec<u32>,
    late_reports: u64,
    /// The first SRs went out (at the start).
    started: bool,
}

impl<R: StreamRules> SimulcastSender<R> {
    pub fn new(
        cfg: CoreConfig,
        rules: R,
        packet_size: DataSize,
        start: Instant,
        stop: Option<Instant>,
        members: u32,
    ) -> Result<Self, String> {
        cfg.validate()?;
        let n = cfg.initial_rates_bps.len();
        let header = data_header_bytes(n);
        if packet_size.as_bytes() as usize <= header {
            return Err(format!(
                "packet_size: {} bytes leave no payload after the {header}-byte header",
                packet_size.as_bytes()
            ));
        }
        let ssrc = u32::from_be_bytes(cfg.scheme.app_name());
        Ok(SimulcastSender {
            rules,
            n,
            ssrc,
            packet_size,
            start,
            stop,
            now: start,
            members,
            rates: cfg.initial_rates_bps.clone(),
            next_send: vec![start; n],
            seq: vec![0; n],
            round: 0,
            round_start: start,
            poll: vec![initial_poll(cfg.reports_per_round, members); n],
            step: 0,
            reports: vec![Vec::new(); n],
            echoes: vec![VecDeque::new(); n],
            controls: VecDeque::new(),
            events: VecDeque::new(),
            packets_sent: 0,
            octets_sent: 0,
            stats: EndpointStats::default(),
            report_log: Vec::new(),
            late_reports: 0,
            started: false,
            cfg,
        })
    }

    pub fn rates(&self) -> &[f64] {
        &self.rates
    }
    pub fn rules(&self) -> &R {
        &self.rules
    }
    pub fn round(&self) -> u32 {
        self.round
    }
    /// Reports heard in each finished round.
    pub fn report_log(&self) -> &[u32] {
        &self.report_log
    }
    pub fn late_reports(&self) -> u64 {
        self.late_reports
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    fn step_len(&self) -> Duration {
        self.cfg.round / u64::from(POLL_STEPS)
    }

    /// Ends rounds and raises polling probabilities up to `now`.
    fn on_tick(&mut self, now: Instant) {
        loop {
            let next_step = self.round_start + self.step_len() * u64::from(self.step + 1);
            if now < next_step {
                break;
            }
            self.step += 1;
            if self.step < POLL_STEPS {
                // Escalate where the stream still lacks K reports.
                let k = self.cfg.reports_per_round as usize;
                for (p, reps) in self.poll.iter_mut().zip(&self.reports) {
                    if reps.len() < k {
                        *p = (*p * 2.0).min(1.0);
                    }
                }
                continue;
            }
            self.end_round(next_step);
        }
    }

    fn end_round(&mut self, at: Instant) {
        let reports = std::mem::replace(&mut self.reports, vec![Vec::new(); self.n]);
        self.report_log.push(reports.iter().map(|r| r.len() as u32).sum());
        let before = self.rates.clone();
        self.rules.end_round(&reports, &mut self.rates);
        for (j, (old, new)) in before.iter().zip(&self.rates).enumerate() {
            if old != new {
                self.events.push_back(Event::GroupRateChanged { group: j as u8, rate: DataRate::from_bps_f64(*new) });
            }
        }
        self.round = self.round.wrapping_add(1);
        self.round_start = at;
        self.step = 0;
        self.poll.iter_mut().for_each(|p| *p = initial_poll(self.cfg.reports_per_round, self.members));
        if !self.stopped(at) {
            self.send_srs(at);
        }
    }

    fn send_srs(&mut self, now: Instant) {
        for j in 0..self.n {
            let info = SenderInfo {
                ntp: ntp_from_ns(now.as_nanos()),
                rtp_timestamp: (now.as_nanos() / 1000) as u32,
                packet_count: self.packets_sent as u32,
                octet_count: self.octets_sent as u32,
            };
            self.controls.push_back(Transmit {
                to: Destination::Group(GroupId(j as u32)),
                header: sender_report(self.ssrc, info),
                payload_len: 0,
                meta: PacketMeta::control(),
            });
        }
    }

    fn on_report(&mut self, now: Instant, from: u32, r: &Report) {
        let j = r.position as usize;
        if j >= self.n {
            return;
        }
        if r.round != self.round as u16 {
            self.late_reports += 1;
            return;
        }
        self.events.push_back(Event::FeedbackReceived { peer: from });
        if let Some(rtt) = rtt_from_report(now, r.block.lsr, r.block.dlsr) {
            let q = &mut self.echoes[j];
            if q.len() >= MAX_PENDING_ECHOES {
                q.pop_front();
            }
            q.push_back((from, u32::try_from(rtt.as_nanos() / 1000).unwrap_or(u32::MAX)));
        }
        self.reports[j].push(RoundReport { id: from, value: r.value, loss: f64::from(r.loss_ppb) * 1e-9 });
    }

    fn data_packet(&mut self, j: usize, now: Instant) -> Transmit {
        let header_len = data_header_bytes(self.n);
        let payload = (self.packet_size.as_bytes() as usize - header_len) as u32;
        let mut rates_bps = [0u32; MAX_GROUPS];
        for (slot, r) in rates_bps.iter_mut().zip(&self.rates) {
            *slot = (r.round() as u64).clamp(1, u64::from(u32::MAX)) as u32;
        }
        let h = DataHeader {
            seq: self.seq[j],
            timestamp_us: (now.as_nanos() / 1000) as u32,
            ssrc: self.ssrc,
            group: j as u8,
            round: self.round,
            poll_ppm: ((self.poll[j] * f64::from(POLL_ALL)).ceil() as u32).min(POLL_ALL),
            echo: self.echoes[j].pop_front(),
            n: self.n as u8,
            rates_bps,
        };
        self.seq[j] = self.seq[j].wrapping_add(1);
        let gap = Duration::from_secs_f64(self.packet_size.as_bytes() as f64 * 8.0 / self.rates[j].max(1.0));
        // Due now (poll_transmit sends only due streams); a stream more than a gap late restarts
        // its pacing from now instead of catching up in a burst.
        let base = if self.next_send[j] + gap < now { now } else { self.next_send[j] };
        self.next_send[j] = base + gap;
        let meta = PacketMeta { media: MediaTag::NONE, ..PacketMeta::data(self.packets_sent) };
        self.packets_sent += 1;
        self.octets_sent += u64::from(payload);
        Transmit {
            to: Destination::Group(GroupId(j as u32)),
            header: h.emit(self.cfg.scheme),
            payload_len: payload,
            meta,
        }
    }
}

impl<R: StreamRules> Endpoint for SimulcastSender<R> {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let parsed = if d.virtual_payload != 0 {
            Err(WireError::Inconsistent("RTCP report with payload"))
        } else {
            Report::parse(d.bytes, self.cfg.scheme)
        };
        let r = parsed.inspect_err(|_| self.stats.malformed_datagrams += 1)?;
        self.now = self.now.max(now);
        if self.now >= self.start {
            self.on_tick(self.now);
            self.on_report(self.now, d.from.0, &r);
        }
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        if self.now >= self.start {
            if !self.started {
                self.started = true;
                self.send_srs(self.now);
            }
            self.on_tick(self.now);
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.now = self.now.max(now);
        let now = self.now;
        if now < self.start {
            return None;
        }
        if let Some(t) = self.controls.pop_front() {
            return Some(t);
        }
        if self.stopped(now) {
            return None;
        }
        let mut best: Option<usize> = None;
        for j in 0..self.n {
            if self.next_send[j] <= now && best.is_none_or(|b| self.next_send[j] < self.next_send[b]) {
                best = Some(j);
            }
        }
        best.map(|j| self.data_packet(j, now))
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.now < self.start {
            return Some(self.start);
        }
        if !self.controls.is_empty() {
            return Some(self.now);
        }
        let tick = self.round_start + self.step_len() * u64::from(self.step + 1);
        if self.stopped(self.now) {
            return None;
        }
        let send = self.next_send.iter().copied().min().map(|t| t.max(self.now));
        Some(send.map_or(tick, |s| s.min(tick)))
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
