//! The SSVP sender endpoint: pacing by inter-packet gap at the rate of its [`Controller`] (the
//! rate rules of paper §3.2 and the RTT/STO estimation of §3.1, in [`super::controller`]), STO
//! shipping, and the application side (bulk data, live video through a sender buffer, or stored
//! layered video for SSVP-LA).
//!
//! **Pacing.** The controller keeps R in whole bit/s (Eq. 8, `R = S/IPG`, S the full packet on
//! the wire); each packet is paced by its own wire size: the gap after a packet of w bytes is
//! `8w/R` (= IPG for a full packet).
//!
//! **STO** \[P §3.1\] = EstimatedRTT + δ·Deviation, shipped in the timestamp field of a data
//! packet (flag F) \[U\] at most once per `current_rtt` and on at most one packet in
//! [`STO_EVERY_PACKETS`], from the first RTT sample on (before it both ends use 1 s). The packet
//! carrying it yields no RTT sample.
//!
//! **Application.** Bulk: always backlogged, full packets. Video (`ssvp`): frames enter a
//! bounded [`SenderBuffer`] when ready (live source), drained at the SSVP rate; packets older
//! than `sender_buffer_max_age_ns` are dropped, overflow drops by `sender_buffer_policy`
//! (default drop-oldest, docs/papers/ssvp.md §1.1.7 \[U\]). A layered stream sent by `ssvp` sends
//! every layer (full quality), a simulcast stream its top stream. Video (`ssvp-layered`): a
//! stored-video server (the paper's MPEG-4 streaming server; Rejaie et al. \[15\]) reads frames up
//! to `max_lead_ns` ahead of real time, so that R > C fills the receiver's buffers; it reads a
//! frame only when the sender buffer has room for it (a server never drops stored video for lack of
//! room), sends layers 0..k of each frame read, and discards queued packets of a dropped layer.
//!
//! **Rate bounds** \[U A-RATE-5\]: `[min_rate_bps, max]`, max = `max_rate_bps` or (0) the video's
//! mean rate on the wire × `app_rate_factor` (bulk: 10 Gbit/s).

use std::collections::VecDeque;

use super::config::{SsvpConfig, SsvpLayeredConfig, ABSOLUTE_MAX_RATE_BPS};
use super::controller::{Controller, Decision};
use super::layered::LayerAdaptation;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::media::packetizer::Packetizer;
use crate::media::report::{MediaLog, MediaReport, ProducedFrame};
use crate::media::sender_buffer::{SenderBuffer, SenderBufferConfig};
use crate::media::stream::{PartKind, StreamFrame, VideoStream};
use crate::media::MediaTag;
use crate::proto::plausible::FeedbackCheck;
use crate::proto::Application;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::ssvp::{DataHeader, SsvpPacket, HEADER_BYTES, NO_FRAME, TYPE_DATA};
use crate::wire::WireError;

/// STO rides on at most one data packet in this many (and at most one per RTT), so that a slow
/// sender (IPG ≥ RTT) still gets RTT samples from the others \[U\].
pub const STO_EVERY_PACKETS: u32 = 4;

/// Counters of a sender, for tests and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderCounters {
    pub data_packets: u64,
    pub control_packets: u64,
    pub congestion_marks: u64,
    pub rtt_samples: u64,
    pub increases: u64,
    pub holds: u64,
    pub decreases: u64,
    pub sto_sent: u64,
    pub no_feedback_timeouts: u64,
    /// Queued packets of a layer that was dropped, discarded unsent.
    pub discarded_layer_packets: u64,
}

struct VideoSource {
    stream: VideoStream,
    packetizer: Packetizer,
    next: StreamFrame,
    buffer: SenderBuffer,
    /// How far ahead of its ready time a frame may be read (0: live).
    lead: Duration,
    /// Read a frame only when the buffer has room (stored video).
    flow_control: bool,
    layers: Option<LayerAdaptation>,
    /// Deadline drops of the top active layer at the last layer check.
    top_deadline_drops: u64,
    /// Every frame read (`media/report.rs`), once enabled.
    log: MediaLog,
}

enum Source {
    Bulk,
    Video(Box<VideoSource>),
}

/// The SSVP sender endpoint (see the module docs).
pub struct SsvpSender {
    ctl: Controller,
    packet_size: u32,
    max_payload: u32,
    start: Instant,
    stop: Option<Instant>,
    now: Instant,
    next_send: Instant,
    last_send: Option<(Instant, u32)>,
    seq: u32,
    source: Source,
    events: VecDeque<Event>,
    /// Time and sequence number of the last STO-carrying packet.
    last_sto_sent: Option<(Instant, u32)>,
    no_feedback: bool,
    no_feedback_at: Option<Instant>,
    last_layer_check: Option<Instant>,
    buffer_report: Option<u64>,
    counters: SenderCounters,
    malformed: u64,
    /// What was sent, to judge the echoes of control packets (`proto::plausible`).
    check: FeedbackCheck,
}

impl SsvpSender {
    /// `layered`: the SSVP-LA configuration (`config` is then `layered.ssvp`); it needs a
    /// layered video.
    pub fn new(
        config: &SsvpConfig,
        app: Application,
        packet_size: DataSize,
        start: Instant,
        stop: Option<Instant>,
        layered: Option<&SsvpLayeredConfig>,
    ) -> Result<Self, String> {
        let size = packet_size.as_bytes();
        if size <= HEADER_BYTES as u64 || size > u16::MAX as u64 {
            return Err(format!("packet size must be in [{}, {}] bytes, got {size}", HEADER_BYTES + 1, u16::MAX));
        }
        let size = size as u32;
        let max_payload = size - HEADER_BYTES as u32;
        let wire_of = |payload_rate: DataRate| payload_rate.as_bps_f64() * size as f64 / max_payload as f64;
        let (source, derived_max) = match app {
            Application::Bulk => {
                if layered.is_some() {
                    return Err("protocol \"ssvp-layered\" carries layered video: the flow needs a video table".into());
                }
                (Source::Bulk, ABSOLUTE_MAX_RATE_BPS as f64)
            }
            Application::Video(mut stream) => {
                let mean = stream.mean_rate();
                let layers = match layered {
                    None => None,
                    Some(lc) => {
                        let rates = stream.layer_rates().ok_or_else(|| {
                            "protocol \"ssvp-layered\" needs layered video: give the video table `layers`".to_string()
                        })?;
                        // c_i: layer i's share of the source's actual mean rate.
                        let total = rates.total().as_bps_f64();
                        let c: Vec<f64> =
                            rates.per_layer().iter().map(|l| l.as_bps_f64() / total * mean.as_bps_f64()).collect();
                        Some(LayerAdaptation::new(lc, &c))
                    }
                };
                let packetizer =
                    Packetizer::new(max_payload).map_err(|e| e.to_string())?.with_padding(config.pad_last_fragment);
                let buffer = SenderBuffer::new(SenderBufferConfig {
                    max_age: Duration::from_nanos(config.sender_buffer_max_age_ns),
                    max_packets: config.sender_buffer_packets as usize,
                    max_bytes: u64::MAX,
                    policy: config.sender_buffer_policy.drop_policy(),
                });
                let next = stream.next_frame();
                let lead = Duration::from_nanos(layered.map_or(0, |l| l.max_lead_ns));
                let v = VideoSource {
                    stream,
                    packetizer,
                    next,
                    buffer,
                    lead,
                    flow_control: layered.is_some(),
                    layers,
                    top_deadline_drops: 0,
                    log: MediaLog::default(),
                };
                (Source::Video(Box::new(v)), wire_of(mean) * config.app_rate_factor)
            }
        };
        let max_rate = if config.max_rate_bps != 0 {
            config.max_rate_bps
        } else {
            (derived_max.round() as u64).clamp(1, ABSOLUTE_MAX_RATE_BPS)
        };
        let ctl = Controller::new(config, DataSize::from_bytes(size as u64), DataRate::from_bps(max_rate));
        let mut events = VecDeque::new();
        events.push_back(Event::RateChanged { rate: ctl.rate() });
        if let Source::Video(v) = &source {
            if let Some(l) = &v.layers {
                events.push_back(Event::LayersChanged { layers: l.layers() });
            }
        }
        Ok(SsvpSender {
            ctl,
            packet_size: size,
            max_payload,
            start,
            stop,
            now: Instant::ZERO,
            next_send: start,
            last_send: None,
            seq: 0,
            source,
            events,
            last_sto_sent: None,
            no_feedback: config.no_feedback_decrease,
            no_feedback_at: None,
            last_layer_check: None,
            buffer_report: None,
            counters: SenderCounters::default(),
            malformed: 0,
            check: FeedbackCheck::new(),
        })
    }

    pub fn controller(&self) -> &Controller {
        &self.ctl
    }
    pub fn rate(&self) -> DataRate {
        self.ctl.rate()
    }
    pub fn counters(&self) -> SenderCounters {
        self.counters
    }
    /// Active layers (`None` unless layered).
    pub fn layers(&self) -> Option<u8> {
        match &self.source {
            Source::Video(v) => v.layers.as_ref().map(|l| l.layers()),
            Source::Bulk => None,
        }
    }
    /// The layer adaptation's (adds, drops).
    pub fn layer_changes(&self) -> Option<(u64, u64)> {
        match &self.source {
            Source::Video(v) => v.layers.as_ref().map(|l| l.changes()),
            Source::Bulk => None,
        }
    }
    pub fn sender_buffer(&self) -> Option<&SenderBuffer> {
        match &self.source {
            Source::Video(v) => Some(&v.buffer),
            Source::Bulk => None,
        }
    }
    /// The latest instant the sender has seen (never decreases).
    pub fn now(&self) -> Instant {
        self.now
    }

    fn clock(&mut self, now: Instant) -> Instant {
        self.now = self.now.max(now);
        self.now
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    /// Moves frames that are due into the sender buffer.
    fn pull(&mut self, now: Instant) {
        let stop = self.stop;
        let Source::Video(v) = &mut self.source else { return };
        loop {
            let f = v.next.frame;
            if stop.is_some_and(|s| f.ready_at >= s) || f.ready_at > now + v.lead {
                return;
            }
            let (first, count) = match (v.stream.kind(), &v.layers) {
                (_, Some(l)) => (0, l.layers()),
                (PartKind::Layers, None) => (0, v.next.parts.len() as u8),
                (PartKind::Streams, None) => (v.next.parts.len() as u8 - 1, 1),
            };
            let parts = &v.next.parts[first as usize..(first + count) as usize];
            if v.flow_control && !v.buffer.is_empty() {
                let needed: usize = parts.iter().map(|&s| v.packetizer.packet_count(s) as usize).sum();
                if v.buffer.len() + needed > v.buffer.config().max_packets {
                    return;
                }
            }
            let mut tags = Vec::new();
            for (i, &size) in parts.iter().enumerate() {
                let layer = first + i as u8;
                let Ok(frags) = v.packetizer.fragments(f.id, f.frame_type, layer, size) else { continue };
                for (len, tag) in frags {
                    v.buffer.push(now, tag, len, f.ready_at);
                    tags.push(tag);
                }
            }
            if v.log.is_enabled() {
                v.log.push(MediaReport::Produced(ProducedFrame::from_packets(&f, &tags)));
            }
            v.next = v.stream.next_frame();
        }
    }

    /// When the next frame may be read, if reading it is possible at all.
    fn pull_at(&self) -> Option<Instant> {
        let Source::Video(v) = &self.source else { return None };
        let f = v.next.frame;
        if self.stopped(f.ready_at) {
            return None;
        }
        if v.flow_control && !v.buffer.is_empty() {
            let k = v.layers.as_ref().map_or(v.next.parts.len(), |l| l.layers() as usize);
            let needed: usize =
                v.next.parts[..k.min(v.next.parts.len())].iter().map(|&s| v.packetizer.packet_count(s) as usize).sum();
            if v.buffer.len() + needed > v.buffer.config().max_packets {
                return None; // woken by the next transmission instead
            }
        }
        Some(Instant::from_nanos(f.ready_at.as_nanos().saturating_sub(v.lead.as_nanos())))
    }

    fn has_data(&self) -> bool {
        match &self.source {
            Source::Bulk => !self.stopped(self.next_send.max(self.start).max(self.now)),
            Source::Video(v) => !v.buffer.is_empty(),
        }
    }

    /// The next packet's payload and tag, or `None` when application-limited.
    fn next_payload(&mut self, now: Instant) -> Option<(u32, MediaTag)> {
        let max_payload = self.max_payload;
        let stopped = self.stopped(now);
        match &mut self.source {
            Source::Bulk => (!stopped).then_some((max_payload, MediaTag::NONE)),
            Source::Video(v) => loop {
                let p = v.buffer.pop(now)?;
                if v.layers.as_ref().is_some_and(|l| p.tag.layer >= l.layers()) {
                    self.counters.discarded_layer_packets += 1;
                    continue;
                }
                return Some((p.size_bytes, p.tag));
            },
        }
    }

    fn reschedule(&mut self) {
        if let Some((t, wire)) = self.last_send {
            self.next_send = t + self.ctl.rate().transmission_time(DataSize::from_bytes(wire as u64));
        }
    }

    /// Runs the layer rules, at most once per RTT.
    fn check_layers(&mut self, now: Instant) {
        let rtt = self.ctl.rule_rtt();
        if self.last_layer_check.is_some_and(|t| now.saturating_since(t) < rtt) {
            return;
        }
        let Source::Video(v) = &mut self.source else { return };
        let Some(l) = &mut v.layers else { return };
        self.last_layer_check = Some(now);
        let top = l.layers() - 1;
        let drops = v.buffer.stats().layer(top).deadline;
        let top_missed = drops > v.top_deadline_drops;
        // R as payload bytes/s (A-LA-8: the allowed rate).
        let rate = self.ctl.rate().as_bps_f64() / 8.0 * self.max_payload as f64 / self.packet_size as f64;
        let est = self.ctl.rtt_estimator().estimated_rtt().unwrap_or(rtt);
        let change = l.check(rate, self.buffer_report, top_missed, est, self.max_payload as f64);
        let k = l.layers();
        v.top_deadline_drops = v.buffer.stats().layer(k - 1).deadline;
        if change.is_some() {
            // A report about the old k no longer applies; queued packets of a dropped layer are
            // discarded as they reach the head of the buffer (`next_payload`).
            self.buffer_report = None;
            self.events.push_back(Event::LayersChanged { layers: k });
        }
    }
}

impl Endpoint for SsvpSender {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let packet = match SsvpPacket::parse_datagram(d.bytes, d.wire_size()) {
            Ok(SsvpPacket::Control(c)) => c,
            Ok(SsvpPacket::Data(_)) => {
                self.malformed += 1;
                return Err(WireError::UnknownType(TYPE_DATA));
            }
            Err(e) => {
                self.malformed += 1;
                return Err(e);
            }
        };
        let now = self.clock(now);
        // The shared plausibility check: an echo of a time nothing was sent at (or from the
        // future) is refused, control packet and all.
        let sample = match packet.echo_ns {
            Some(echo) => match self.check.judge(now).echo(Instant::from_nanos(echo)) {
                Ok(rtt) => Some(rtt),
                Err(e) => {
                    self.malformed += 1;
                    return Err(e);
                }
            },
            None => None,
        };
        self.counters.control_packets += 1;
        self.no_feedback_at = None;
        if let Some(sample) = sample {
            // Eq. (2): SampleRTT = arrival time − echoed send time (receiver delay taken as 0).
            self.ctl.on_rtt_sample(sample);
            self.counters.rtt_samples += 1;
        }
        if packet.congestion {
            self.counters.congestion_marks += 1;
        }
        if packet.layers != 0 && Some(packet.layers) == self.layers() {
            self.buffer_report = Some(packet.buffered_bytes as u64);
        }
        let before = self.ctl.rate();
        match self.ctl.on_control(now, packet.congestion) {
            Decision::Wait => {}
            Decision::Increase => self.counters.increases += 1,
            Decision::Hold => self.counters.holds += 1,
            Decision::Decrease => {
                self.counters.decreases += 1;
                self.events.push_back(Event::LossEvent);
            }
        }
        if self.ctl.rate() != before {
            self.events.push_back(Event::RateChanged { rate: self.ctl.rate() });
            self.reschedule();
        }
        self.check_layers(now);
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        let now = self.clock(now);
        if let Some(t) = self.no_feedback_at {
            if t <= now {
                // A-RATE-4 option: one decrease per STO without feedback.
                self.counters.no_feedback_timeouts += 1;
                self.ctl.decrease();
                self.events.push_back(Event::Timeout);
                self.events.push_back(Event::RateChanged { rate: self.ctl.rate() });
                self.reschedule();
                self.no_feedback_at = Some(now + self.ctl.sto());
            }
        }
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        let now = self.clock(now);
        if now < self.start {
            return None;
        }
        self.pull(now);
        if now < self.next_send {
            return None;
        }
        let (payload_len, tag) = self.next_payload(now)?;
        let sto_due = self.ctl.last_sample().is_some()
            && self.last_sto_sent.is_none_or(|(t, seq)| {
                now.saturating_since(t) >= self.ctl.rule_rtt() && self.seq.wrapping_sub(seq) >= STO_EVERY_PACKETS
            });
        let timestamp_ns = if sto_due {
            self.last_sto_sent = Some((now, self.seq));
            self.counters.sto_sent += 1;
            self.ctl.sto().as_nanos()
        } else {
            now.as_nanos()
        };
        let wire = HEADER_BYTES as u32 + payload_len;
        let media = tag.is_media();
        let header = DataHeader {
            length: wire as u16,
            seq: self.seq,
            timestamp_ns,
            carries_sto: sto_due,
            frame_type: if media { tag.frame_type } else { 0 },
            frame: if media { tag.frame } else { NO_FRAME },
            layer: if media { tag.layer } else { 0 },
            layers: self.layers().unwrap_or(0),
        }
        .emit();
        let meta = PacketMeta { media: tag, ..PacketMeta::data(self.seq as u64) };
        self.seq = self.seq.wrapping_add(1);
        self.counters.data_packets += 1;
        self.last_send = Some((now, wire));
        self.check.on_sent(now, wire as u64);
        self.next_send = now + self.ctl.rate().transmission_time(DataSize::from_bytes(wire as u64));
        if self.no_feedback && self.no_feedback_at.is_none() {
            self.no_feedback_at = Some(now + self.ctl.sto() * 2);
        }
        Some(Transmit { to: Destination::PEER, header, payload_len, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        let mut t: Option<Instant> = None;
        let mut consider = |x: Option<Instant>| {
            if let Some(x) = x {
                t = Some(t.map_or(x, |t| t.min(x)));
            }
        };
        if self.has_data() {
            consider(Some(self.next_send.max(self.start)));
        }
        consider(self.pull_at().map(|p| p.max(self.start)));
        consider(self.no_feedback_at);
        t
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn enable_media_reports(&mut self) {
        if let Source::Video(v) = &mut self.source {
            v.log.enable();
            v.buffer.enable_media_reports();
        }
    }

    fn poll_media(&mut self) -> Option<MediaReport> {
        match &mut self.source {
            Source::Video(v) => v.log.pop().or_else(|| v.buffer.poll_media()),
            Source::Bulk => None,
        }
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats {
            malformed_datagrams: self.malformed,
            clamped_feedback: self.check.clamped(),
            ..EndpointStats::default()
        }
    }
}
