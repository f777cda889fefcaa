//! The ASMP sender (docs/papers/asmp-tfmcc.md §1.3 steps 2 and 6, "Sender rule"): sends RTP data to
//! the group, paced at X; on its RTCP schedule (as the session's one sender) a session report (SR +
//! the group size, X and its maximum rate) to the group; on each receiver report, the RTT A − LSR −
//! DLSR (RFC 3550 §6.4.1) back to that receiver in an APP, and X = the minimum of the latest rates
//! of the receivers heard within the RTCP member time-out (5 deterministic intervals), clamped to
//! [min, max]; X holds its value while no active receiver has reported a rate. A video frame's
//! RTP timestamp is the send instant of its first packet (§6.4's G_i, "the sending time of
//! frame i"; option: its ready time); a bulk packet's, its own send instant.

use std::collections::VecDeque;

use super::config::{AsmpConfig, FrameTimestamp};
use super::receiver::DATA_GROUP;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, PeerId, Transmit};
use crate::estimate::rtcp_interval::{self, Expiry, RtcpScheduler};
use crate::media::paced::PacedVideo;
use crate::media::sender_buffer::SenderBufferConfig;
use crate::media::MediaTag;
use crate::proto::Application;
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::units::DataRate;
use crate::wire::asmp::{data_header, ReceiverReport, ToReceiver, DATA_HEADER_BYTES, SESSION_REPORT_BYTES};
use crate::wire::rtcp::{ntp_from_ns, rtt_from_report, SenderInfo};
use crate::wire::WireError;

/// What the sender knows about one receiver.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PeerState {
    /// Its latest reported rate, bytes/s.
    pub rate: Option<f64>,
    pub rtt: Option<Duration>,
    pub last_heard: Option<Instant>,
}

enum Source {
    Bulk,
    /// The frames' packets wait in a FIFO until the pacing at X lets them go; X is the target
    /// of a rate-adaptive set (the quantizer follows the sending rate, docs/papers/asmp-tfmcc.md §2).
    Video(Box<PacedVideo>),
}

pub struct AsmpSender {
    cfg: AsmpConfig,
    ssrc: u32,
    packet_size: u32,
    start: Instant,
    stop: Option<Instant>,
    source: Source,
    /// X, bytes/s.
    x: f64,
    peers: Vec<PeerState>,
    /// When the earliest active receiver times out.
    next_expiry: Option<Instant>,
    sched: Option<RtcpScheduler>,
    rng: SimRng,
    seq: u64,
    packets_sent: u32,
    octets_sent: u32,
    last_send: Option<(Instant, u32)>,
    /// The video frame (index, layer) whose packets are going out and its RTP timestamp,
    /// fixed by its first packet sent (`FrameTimestamp::FirstSend`).
    frame_stamp: Option<(u32, u8, u32)>,
    control: VecDeque<Transmit>,
    emitted_rate: Option<DataRate>,
    now: Instant,
    events: VecDeque<Event>,
    stats: EndpointStats,
}

impl AsmpSender {
    /// A sender (SSRC [`super::SENDER_SSRC`]) of `packet_size`-byte packets (P, header
    /// included) to `receivers` receivers.
    pub fn new(
        cfg: &AsmpConfig,
        app: Application,
        packet_size: u32,
        receivers: u32,
        start: Instant,
        stop: Option<Instant>,
        rng: SimRng,
    ) -> Result<Self, String> {
        if packet_size as usize <= DATA_HEADER_BYTES {
            return Err(format!("asmp: packet size {packet_size} B leaves no payload after the 12-byte RTP header"));
        }
        let x = cfg.clamp_bytes_per_s(cfg.initial_rate_bps as f64 / 8.0);
        let source = match app {
            Application::Bulk => Source::Bulk,
            Application::Video(stream) => Source::Video(Box::new(PacedVideo::new(
                stream,
                DataRate::from_bps_f64(x * 8.0),
                packet_size - DATA_HEADER_BYTES as u32,
                stop,
                SenderBufferConfig::default(),
            )?)),
        };
        Ok(AsmpSender {
            x,
            cfg: cfg.clone(),
            ssrc: super::SENDER_SSRC,
            packet_size,
            start,
            stop,
            source,
            peers: vec![PeerState::default(); receivers as usize],
            next_expiry: None,
            sched: None,
            rng,
            seq: 0,
            packets_sent: 0,
            octets_sent: 0,
            last_send: None,
            frame_stamp: None,
            control: VecDeque::new(),
            emitted_rate: None,
            now: Instant::ZERO,
            events: VecDeque::new(),
            stats: EndpointStats::default(),
        })
    }

    /// The sending rate X.
    pub fn rate(&self) -> DataRate {
        DataRate::from_bps_f64(self.x * 8.0)
    }
    pub fn peer(&self, p: PeerId) -> Option<PeerState> {
        self.peers.get(p.0 as usize).copied()
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    fn member_timeout(&self) -> Duration {
        self.sched.as_ref().map_or(Duration::MAX, |s| s.member_timeout())
    }

    fn active(&self, p: &PeerState, now: Instant, timeout: Duration) -> bool {
        p.last_heard.is_some_and(|t| now.saturating_since(t) < timeout)
    }

    /// Recomputes X, the membership and the next time-out from the receivers' states.
    fn refresh(&mut self, now: Instant) {
        let timeout = self.member_timeout();
        let (mut min, mut active, mut expiry) = (None::<f64>, 0u32, None::<Instant>);
        for p in &self.peers {
            if !self.active(p, now, timeout) {
                continue;
            }
            active += 1;
            let t = p.last_heard.map(|t| t + timeout);
            expiry = match (expiry, t) {
                (Some(e), Some(t)) => Some(e.min(t)),
                (e, t) => e.or(t),
            };
            if let Some(r) = p.rate {
                min = Some(min.map_or(r, |m: f64| m.min(r)));
            }
        }
        self.next_expiry = expiry;
        if let Some(r) = min {
            self.x = self.cfg.clamp_bytes_per_s(r);
        }
        let m = rtcp_interval::Membership { members: 1 + active, senders: 1, we_sent: true };
        if let Some(s) = self.sched.as_mut() {
            s.set_membership(now, m);
        }
        self.rate_event();
    }

    fn rate_event(&mut self) {
        let r = self.rate();
        if self.emitted_rate != Some(r) {
            self.emitted_rate = Some(r);
            self.events.push_back(Event::RateChanged { rate: r });
        }
    }

    fn start_if_due(&mut self) {
        if self.sched.is_none() && self.now >= self.start && !self.stopped(self.now) {
            let first = SESSION_REPORT_BYTES as u64 + self.cfg.rtcp_overhead_bytes;
            let m = rtcp_interval::Membership { members: 1, senders: 1, we_sent: true };
            self.sched = Some(RtcpScheduler::new(self.cfg.rtcp(), m, first, self.now, &mut self.rng));
            self.rate_event();
        }
    }

    fn on_report(&mut self, now: Instant, from: PeerId, rr: ReceiverReport) -> Result<(), WireError> {
        let i = from.0 as usize;
        if i >= self.peers.len() {
            return Err(WireError::Inconsistent("ASMP report from an unknown receiver"));
        }
        if rr.block.is_some_and(|b| b.source_ssrc != self.ssrc) {
            return Err(WireError::Inconsistent("ASMP report block about another source"));
        }
        if let Some(s) = self.sched.as_mut() {
            s.received(rr.emit().len() as u64 + self.cfg.rtcp_overhead_bytes);
        }
        let w = self.cfg.rtt_weight;
        let p = &mut self.peers[i];
        p.last_heard = Some(now);
        if let Some(rate) = rr.rate {
            p.rate = Some(rate.rate_bytes_per_s as f64);
        }
        if let Some(sample) = rr.block.and_then(|b| rtt_from_report(now, b.lsr, b.dlsr)) {
            let rtt = match p.rtt {
                Some(old) => Duration::from_secs_f64((1.0 - w) * old.as_secs_f64() + w * sample.as_secs_f64()),
                None => sample,
            };
            p.rtt = Some(rtt);
            let us = u32::try_from(rtt.as_nanos() / 1000).unwrap_or(u32::MAX).max(1);
            self.control.push_back(Transmit {
                to: Destination::Peer(from),
                header: ToReceiver::rtt(self.ssrc, rr.ssrc, us),
                payload_len: 0,
                meta: PacketMeta::control(),
            });
        }
        self.refresh(now);
        Ok(())
    }

    fn produce(&mut self, now: Instant) {
        let rate = self.rate();
        if let Source::Video(v) = &mut self.source {
            v.produce(now, rate);
        }
    }

    fn next_send(&self) -> Instant {
        match self.last_send {
            None => self.start,
            Some((t, size)) => t + Duration::from_secs_f64(size as f64 / self.x),
        }
    }

    fn has_data(&self) -> bool {
        match &self.source {
            Source::Bulk => true,
            Source::Video(v) => !v.is_empty(),
        }
    }

    fn session_report(&mut self, now: Instant) -> Transmit {
        let info = SenderInfo {
            ntp: ntp_from_ns(now.as_nanos()),
            rtp_timestamp: rtp_time(self.cfg.clock_rate_hz, now),
            packet_count: self.packets_sent,
            octet_count: self.octets_sent,
        };
        let members = self.sched.as_ref().map_or(1, |s| s.membership().members);
        let x = self.x.round().clamp(0.0, u32::MAX as f64) as u32;
        // The highest rate it will send (0: none), which bounds the receivers' r.
        let max = self.cfg.max_rate_bps.map_or(0, |m| (m / 8).clamp(1, u32::MAX as u64) as u32);
        let header = ToReceiver::session(self.ssrc, info, members, x, max);
        Transmit { to: Destination::Group(DATA_GROUP), header, payload_len: 0, meta: PacketMeta::control() }
    }
}

impl Endpoint for AsmpSender {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        self.now = self.now.max(now);
        let r = if d.virtual_payload != 0 {
            Err(WireError::Inconsistent("ASMP receiver report with a payload"))
        } else {
            ReceiverReport::parse(d.bytes).and_then(|rr| self.on_report(self.now, d.from, rr))
        };
        if r.is_err() {
            self.stats.malformed_datagrams += 1;
        }
        r
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        self.start_if_due();
        let now = self.now;
        if self.sched.is_none() || self.stopped(now) {
            return;
        }
        self.produce(now);
        if self.next_expiry.is_some_and(|t| t <= now) {
            self.refresh(now);
        }
        let due = self.sched.as_ref().is_some_and(|s| s.next() <= now);
        if due && self.sched.as_mut().is_some_and(|s| s.expire(now, &mut self.rng) == Expiry::Send) {
            let t = self.session_report(now);
            let bytes = t.header.len() as u64 + self.cfg.rtcp_overhead_bytes;
            if let Some(s) = self.sched.as_mut() {
                s.sent(now, bytes, &mut self.rng);
            }
            self.control.push_back(t);
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.now = self.now.max(now);
        self.start_if_due();
        if let Some(t) = self.control.pop_front() {
            return Some(t);
        }
        let now = self.now;
        if self.sched.is_none() || self.stopped(now) {
            return None;
        }
        self.produce(now);
        if now < self.next_send() {
            return None;
        }
        let (payload_len, tag, marker, timestamp) = match &mut self.source {
            Source::Bulk => (
                self.packet_size - DATA_HEADER_BYTES as u32,
                MediaTag::NONE,
                true,
                rtp_time(self.cfg.clock_rate_hz, now),
            ),
            Source::Video(v) => {
                let p = v.pop(now)?;
                let last = p.tag.index + 1 == p.tag.count;
                let timestamp = match self.cfg.frame_timestamp {
                    FrameTimestamp::Ready => rtp_time(self.cfg.clock_rate_hz, p.ready_at),
                    // §6.4's G_i, "the sending time of frame i": the instant its first packet
                    // leaves (the first one sent: the buffer may have dropped earlier ones as too
                    // old). RTP gives all packets of a frame one timestamp, and frames leave in
                    // FIFO order, so timestamps never go backwards.
                    FrameTimestamp::FirstSend => match self.frame_stamp {
                        Some((frame, layer, ts)) if (frame, layer) == (p.tag.frame, p.tag.layer) => ts,
                        _ => {
                            let ts = rtp_time(self.cfg.clock_rate_hz, now);
                            self.frame_stamp = Some((p.tag.frame, p.tag.layer, ts));
                            ts
                        }
                    },
                };
                (p.size_bytes, p.tag, last, timestamp)
            }
        };
        let header = data_header(marker, self.seq as u16, timestamp, self.ssrc).emit();
        let meta = PacketMeta { media: tag, ..PacketMeta::data(self.seq) };
        self.seq += 1;
        self.packets_sent = self.packets_sent.wrapping_add(1);
        self.octets_sent = self.octets_sent.wrapping_add(payload_len);
        self.last_send = Some((now, payload_len + DATA_HEADER_BYTES as u32));
        Some(Transmit { to: Destination::Group(DATA_GROUP), header, payload_len, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.control.is_empty() {
            return Some(self.now);
        }
        if self.stopped(self.now) {
            return None;
        }
        let Some(s) = &self.sched else {
            return (!self.stopped(self.start)).then_some(self.start.max(self.now));
        };
        let mut t = s.next();
        let mut consider = |x: Option<Instant>| {
            if let Some(x) = x {
                t = t.min(x);
            }
        };
        consider(self.next_expiry);
        if let Source::Video(v) = &self.source {
            consider(v.next_ready());
        }
        if self.has_data() {
            consider(Some(self.next_send()));
        }
        Some(t.max(self.now))
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
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

/// An instant on the RTP clock (truncated, wrapping as RTP timestamps do).
fn rtp_time(clock_rate_hz: u32, t: Instant) -> u32 {
    (t.as_nanos() as u128 * clock_rate_hz as u128 / 1_000_000_000) as u32
}
