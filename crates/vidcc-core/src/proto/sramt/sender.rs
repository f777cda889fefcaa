//! The SRAMT sender (docs/papers/sramt.md §1.1, §1.8–1.11): n stream / layer managers pacing each
//! group's RTP packets at its rate, a receiver manager per reporting receiver (its preferred
//! rate r^i, Eq. 4), the synchronisation manager (group rates by Eq. 5 / 6 on every report,
//! epoch flags every T_epoch), RTCP sender reports and the echo of each receiver's RTT.
//!
//! Each group goes to its own `Destination::Group(j)`; reports arrive by unicast from
//! `PeerId(i)`, which is receiver i's id in the RTT echo.

use std::collections::{BTreeMap, VecDeque};

use super::config::SramtConfig;
use super::feedback::{randomised, rtcp_interval};
use super::rates::{band, layered_rates, simulcast_rates, ReceiverManager, ReportFacts};
use super::wire::{
    data_header_bytes, ntp, sender_report, DataHeader, ReceiverReport, MAX_GROUPS, RR_APP_BYTES, SR_BYTES,
};
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, GroupId, PacketMeta, Transmit};
use crate::media::packetizer::Packetizer;
use crate::media::report::{MediaLog, MediaReport, ProducedFrame};
use crate::media::sender_buffer::{DropPolicy, SenderBuffer, SenderBufferConfig};
use crate::media::stream::{PartKind, StreamFrame, VideoStream};
use crate::media::MediaTag;
use crate::proto::Application;
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::units::DataRate;
use crate::units::DataSize;
use crate::wire::rtcp::SenderInfo;
use crate::wire::WireError;

/// Pending RTT echoes per group beyond this are dropped oldest first \[R\] (no retransmission).
const MAX_PENDING_ECHOES: usize = 1024;

/// The video a sender carries: every frame's part j goes to group j's buffer.
struct VideoFeed {
    stream: VideoStream,
    packetizer: Packetizer,
    next: StreamFrame,
    buffers: Vec<SenderBuffer>,
    /// Every frame produced, all its groups' parts (`media/report.rs`), once enabled.
    log: MediaLog,
}

pub struct SramtSender {
    cfg: SramtConfig,
    layered: bool,
    n: usize,
    ssrc: u32,
    packet_size: DataSize,
    header_len: usize,
    /// P of Eq. 1, bytes.
    packet_bytes: f64,
    rng: SimRng,
    start: Instant,
    stop: Option<Instant>,
    now: Instant,
    /// r_stream-j / r_layer-j, bit/s.
    rates: Vec<f64>,
    next_send: Vec<Instant>,
    seq: Vec<u16>,
    video: Option<VideoFeed>,
    managers: BTreeMap<u32, ReceiverManager>,
    echoes: Vec<VecDeque<(u32, u32)>>,
    heard: Vec<Option<(u8, u32)>>,
    epoch: Duration,
    next_epoch_end: Instant,
    epoch_index: u32,
    flag_pending: Vec<bool>,
    next_sr: Instant,
    members: u32,
    controls: VecDeque<Transmit>,
    packets_sent: u64,
    octets_sent: u64,
    stats: EndpointStats,
    /// Every group-rate update: (time, rates), for invariant checks.
    rate_log_enabled: bool,
    rate_log: Vec<(Instant, Vec<f64>)>,
    /// Group-rate changes and reports heard, for the driver's event log.
    events: VecDeque<Event>,
}

impl SramtSender {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        cfg: &SramtConfig,
        layered: bool,
        app: Application,
        packet_size: DataSize,
        start: Instant,
        stop: Option<Instant>,
        receivers: u32,
        rng: SimRng,
    ) -> Result<Self, String> {
        let n = cfg.groups();
        let header_len = data_header_bytes(n);
        let payload =
            (packet_size.as_bytes() as usize).checked_sub(header_len).filter(|&p| p > 0).ok_or_else(|| {
                format!(
                    "packet_size: {} bytes leave no payload after the {header_len}-byte SRAMT header",
                    packet_size.as_bytes()
                )
            })?;
        let video = match app {
            Application::Bulk => None,
            Application::Video(stream) => {
                let want = if layered { PartKind::Layers } else { PartKind::Streams };
                if stream.kind() != want && stream.parts() > 1 || stream.parts() as usize != n {
                    let what = if layered { "a layered video with" } else { "a simulcast video with" };
                    return Err(format!(
                        "video: {} needs {what} {n} parts (one per band of bands_bps), got {} {}",
                        if layered { "sramt-le" } else { "sramt-s" },
                        stream.parts(),
                        if stream.kind() == PartKind::Streams { "simulcast streams" } else { "layers" }
                    ));
                }
                let packetizer = Packetizer::new(payload as u32).map_err(|e| e.to_string())?;
                let mut stream = stream;
                let next = stream.next_frame();
                let buffers = (0..n)
                    .map(|_| {
                        SenderBuffer::new(SenderBufferConfig {
                            max_age: Duration::from_nanos(cfg.sender_buffer_max_age_ns),
                            max_packets: cfg.sender_buffer_packets as usize,
                            max_bytes: u64::MAX,
                            policy: DropPolicy::DropOldest,
                        })
                    })
                    .collect();
                Some(VideoFeed { stream, packetizer, next, buffers, log: MediaLog::default() })
            }
        };
        let epoch = Duration::from_nanos(cfg.epoch_ns);
        Ok(SramtSender {
            layered,
            n,
            ssrc: 0x5352_414d,
            packet_size,
            header_len,
            packet_bytes: if cfg.equation_packet_bytes > 0 {
                f64::from(cfg.equation_packet_bytes)
            } else {
                packet_size.as_bytes() as f64
            },
            rng,
            start,
            stop,
            now: start,
            rates: cfg
                .initial_rates_bps
                .iter()
                .enumerate()
                .map(|(j, &r)| (r as f64).clamp(band(cfg, j)[0], band(cfg, j)[1]))
                .collect(),
            next_send: vec![start; n],
            seq: vec![0; n],
            video,
            managers: BTreeMap::new(),
            echoes: vec![VecDeque::new(); n],
            heard: vec![None; n],
            epoch,
            next_epoch_end: start + epoch,
            epoch_index: 0,
            flag_pending: vec![false; n],
            next_sr: start,
            members: receivers,
            controls: VecDeque::new(),
            packets_sent: 0,
            octets_sent: 0,
            stats: EndpointStats::default(),
            rate_log_enabled: false,
            rate_log: Vec::new(),
            events: VecDeque::new(),
            cfg: cfg.clone(),
        })
    }

    /// Group rates, bit/s.
    pub fn rates(&self) -> &[f64] {
        &self.rates
    }
    pub fn managers(&self) -> &BTreeMap<u32, ReceiverManager> {
        &self.managers
    }
    pub fn epoch_index(&self) -> u32 {
        self.epoch_index
    }
    /// Keep every group-rate update in [`SramtSender::rate_log`] (tests).
    pub fn log_rates(&mut self) {
        self.rate_log_enabled = true;
    }
    pub fn rate_log(&self) -> &[(Instant, Vec<f64>)] {
        &self.rate_log
    }

    /// The groups that carry the extension's per-session fields: every stream (S) or the base
    /// layer (LE), §1.11.
    fn signalled(&self) -> std::ops::Range<usize> {
        if self.layered {
            0..1
        } else {
            0..self.n
        }
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    /// The receivers' RTCP interval in the base session (for the manager time-out, A-22).
    fn receiver_interval(&self) -> Duration {
        rtcp_interval(&self.cfg, self.members, false, RR_APP_BYTES as f64 + 28.0, self.rates[0], false)
    }

    /// Every frame ready by `now` into the group buffers.
    fn produce(&mut self, now: Instant) {
        let stop = self.stop;
        let Some(v) = self.video.as_mut() else { return };
        while v.next.frame.ready_at <= now && stop.is_none_or(|s| v.next.frame.ready_at < s) {
            let f = v.next.frame;
            let mut tags = Vec::new();
            for (j, &size) in v.next.parts.iter().enumerate() {
                if let Ok(frags) = v.packetizer.fragments(f.id, f.frame_type, j as u8, size) {
                    for (len, tag) in frags {
                        v.buffers[j].push(now, tag, len, f.ready_at);
                        tags.push(tag);
                    }
                }
            }
            if v.log.is_enabled() {
                v.log.push(MediaReport::Produced(ProducedFrame::from_packets(&f, &tags)));
            }
            v.next = v.stream.next_frame();
        }
    }

    /// Whether group `j` has something to send at `now`.
    fn has_data(&mut self, j: usize, now: Instant) -> bool {
        match self.video.as_mut() {
            None => true,
            Some(v) => v.buffers[j].peek(now).is_some(),
        }
    }

    fn on_tick(&mut self, now: Instant) {
        while now >= self.next_epoch_end {
            // §1.8: flag the next packet of every stream (S) / of the base layer (LE).
            self.epoch_index = self.epoch_index.wrapping_add(1);
            for j in self.signalled() {
                self.flag_pending[j] = true;
            }
            self.next_epoch_end += self.epoch;
        }
        while now >= self.next_sr && !self.stopped(now) {
            for j in self.signalled() {
                let info = SenderInfo {
                    ntp: ntp(now),
                    rtp_timestamp: super::estimator::timestamp_us(now),
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
            // RFC 3550: the sender's share is 25 % of the RTCP bandwidth; 5 s minimum [P].
            let interval = rtcp_interval(&self.cfg, self.members, true, SR_BYTES as f64 + 28.0, self.rates[0], false);
            self.next_sr = now + randomised(interval, &mut self.rng);
        }
        // forget receivers not heard from for several RTCP intervals.
        let timeout = self.receiver_interval().mul_f64(f64::from(self.cfg.manager_timeout_intervals));
        let before = self.managers.len();
        self.managers.retain(|_, m| now.saturating_since(m.last_report) <= timeout);
        if self.managers.len() != before {
            self.update_rates(now);
        }
    }

    /// §1.10: every group's rate from the receiver managers.
    fn update_rates(&mut self, now: Instant) {
        let prefs = self.managers.values().map(|m| (m.facts.position, m.preferred));
        let before = self.rates.clone();
        if self.layered {
            layered_rates(&self.cfg, &mut self.rates, prefs);
        } else {
            simulcast_rates(&self.cfg, &mut self.rates, prefs);
        }
        for (j, (old, new)) in before.iter().zip(&self.rates).enumerate() {
            if old != new {
                self.events.push_back(Event::GroupRateChanged { group: j as u8, rate: DataRate::from_bps_f64(*new) });
            }
        }
        if self.rate_log_enabled {
            self.rate_log.push((now, self.rates.clone()));
        }
    }

    fn on_report(&mut self, now: Instant, from: u32, rr: &ReceiverReport) {
        let position = rr.position as usize;
        let valid = if self.layered { (1..=self.n).contains(&position) } else { position < self.n };
        if !valid {
            return;
        }
        // Eq. 15: t_RTT^{r-i} = A − LSR − DLSR (none before the receiver has an SR).
        let rtt = super::wire::rtt(now, rr.block.lsr, rr.block.dlsr);
        let facts = ReportFacts { rate_bps: f64::from(rr.rate_bps), loss: f64::from(rr.loss_ppb) * 1e-9, position };
        let (initial, band_top) = if self.layered {
            (self.rates[..position].iter().sum::<f64>(), (0..position).map(|j| band(&self.cfg, j)[1]).sum::<f64>())
        } else {
            (self.rates[position], band(&self.cfg, position)[1])
        };
        self.events.push_back(Event::FeedbackReceived { peer: from });
        let m = self.managers.entry(from).or_insert_with(|| ReceiverManager::new(now, facts, initial));
        m.on_report(&self.cfg, now, facts, rtt, self.packet_bytes, band_top);
        // §1.4 step 3: echo (id, RTT) in the next packet of every stream (S) / the base layer (LE).
        if let Some(rtt) = rtt {
            let us = u32::try_from(rtt.as_nanos() / 1000).unwrap_or(u32::MAX);
            for j in self.signalled() {
                let q = &mut self.echoes[j];
                if q.len() >= MAX_PENDING_ECHOES {
                    q.pop_front();
                }
                q.push_back((from, us));
            }
        }
        // §1.12 (deviation): relay the report for suppression, on the group its peers receive.
        let relay = if self.layered { 0 } else { position };
        self.heard[relay] = Some((rr.position, rr.rate_bps));
        self.update_rates(now);
    }

    /// The next data packet of group `j` at `now`.
    fn data_packet(&mut self, j: usize, now: Instant) -> Transmit {
        let (payload, tag) = match self.video.as_mut() {
            None => ((self.packet_size.as_bytes() as usize - self.header_len) as u32, MediaTag::NONE),
            Some(v) => {
                let p = v.buffers[j].pop(now).expect("has_data checked");
                (p.size_bytes, p.tag)
            }
        };
        let mut rates_bps = [0u32; MAX_GROUPS];
        for (slot, r) in rates_bps.iter_mut().zip(&self.rates) {
            *slot = (r.round() as u64).clamp(1, u64::from(u32::MAX)) as u32;
        }
        let h = DataHeader {
            seq: self.seq[j],
            timestamp_us: super::estimator::timestamp_us(now),
            ssrc: self.ssrc,
            group: j as u8,
            epoch_end: std::mem::take(&mut self.flag_pending[j]),
            epoch_us: (self.epoch.as_nanos() / 1000) as u32,
            epoch_index: self.epoch_index,
            members: self.members,
            echo: self.echoes[j].pop_front(),
            heard: self.heard[j].take(),
            n: self.n as u8,
            rates_bps,
        };
        let header = h.emit();
        self.seq[j] = self.seq[j].wrapping_add(1);
        let wire = (h.len() as u64 + u64::from(payload)) * 8;
        let gap = Duration::from_secs_f64(wire as f64 / self.rates[j].max(1.0));
        let base = if self.next_send[j] + gap < now || self.next_send[j] > now { now } else { self.next_send[j] };
        self.next_send[j] = base + gap;
        let meta = PacketMeta { media: tag, ..PacketMeta::data(self.packets_sent) };
        self.packets_sent += 1;
        self.octets_sent += u64::from(payload);
        Transmit { to: Destination::Group(GroupId(j as u32)), header, payload_len: payload, meta }
    }
}

impl Endpoint for SramtSender {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let parsed = if d.virtual_payload != 0 {
            Err(WireError::Inconsistent("RTCP report with payload"))
        } else {
            ReceiverReport::parse(d.bytes)
        };
        let rr = parsed.inspect_err(|_| self.stats.malformed_datagrams += 1)?;
        self.now = self.now.max(now);
        self.on_report(self.now, d.from.0, &rr);
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        if self.now >= self.start {
            self.on_tick(self.now);
            self.produce(self.now);
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
        self.produce(now);
        let mut best: Option<usize> = None;
        for j in 0..self.n {
            // A flagged packet leaves at the epoch end itself [R], so that its arrival marks the
            // boundary to within the one-way delay (§1.8); pacing resumes from it.
            let due = self.next_send[j] <= now || self.flag_pending[j];
            if due && best.is_none_or(|b| self.next_send[j] < self.next_send[b]) && self.has_data(j, now) {
                best = Some(j);
            }
        }
        best.map(|j| self.data_packet(j, now))
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn enable_media_reports(&mut self) {
        if let Some(v) = self.video.as_mut() {
            v.log.enable();
            v.buffers.iter_mut().for_each(SenderBuffer::enable_media_reports);
        }
    }

    fn poll_media(&mut self) -> Option<MediaReport> {
        let v = self.video.as_mut()?;
        v.log.pop().or_else(|| v.buffers.iter_mut().find_map(SenderBuffer::poll_media))
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.now < self.start {
            return Some(self.start);
        }
        if !self.controls.is_empty() {
            return Some(self.now);
        }
        if self.stopped(self.now) {
            return None;
        }
        let mut t = self.next_epoch_end.min(self.next_sr);
        for j in 0..self.n {
            let ready = match &self.video {
                None => true,
                Some(v) => !v.buffers[j].is_empty(),
            };
            if ready {
                let at = if self.flag_pending[j] { self.now } else { self.next_send[j].max(self.now) };
                t = t.min(at);
            }
        }
        if let Some(v) = &self.video {
            if self.stop.is_none_or(|s| v.next.frame.ready_at < s) {
                t = t.min(v.next.frame.ready_at.max(self.now));
            }
        }
        Some(t)
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
