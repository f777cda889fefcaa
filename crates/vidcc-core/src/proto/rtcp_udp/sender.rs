//! The `rtcp-udp` sender: an unresponsive RTP video sender whose *application* picks the number
//! of layers from RTCP Receiver Reports (docs/papers/dvrc.md §1.3 \[D\]):
//!
//! - start at K = `initial_layers` (1);
//! - an RR whose report block has fraction_lost > 0: K ← max(1, K − 1);
//! - an RR whose report block has fraction_lost = 0: K ← min(k, K + 1);
//! - an RR without a report block changes nothing.
//!
//! That is [`Adaptation::Step`], the default. Two alternative readings of the paper's "the same
//! layered scheme" (K = max{j : c_j ≤ B}, §3.3) map the receiving rate B carried in the RR's
//! extension to K instead (docs/protocols/rtcp-udp.md "Adaptation"):
//! - [`Adaptation::Rate`]: every RR with a block sets K = max(1, max{j : c_j ≤ B});
//! - [`Adaptation::RateOnLoss`]: an RR with fraction_lost > 0 sets K = min(K, max(1, max{j : c_j
//!   ≤ B})), one without loss adds a layer as the default does.
//!
//! Under either, an RR without the extension changes nothing (its RTT sample still counts).
//!
//! A new K applies from the next frame. Every ready frame's layers 0..K are packetized and sent
//! at once, back to back (no pacing, no congestion control: RTCP only informs the application).
//! The sender also sends a Sender Report every `sender_report_interval` while it sends video,
//! and computes the round-trip time from the RRs (RFC 3550 §6.4.1: RTT = A − LSR − DLSR),
//! smoothed with [`Rfc6298`]'s SRTT, which it advertises in its SRs.

use std::collections::VecDeque;

use super::config::{Adaptation, RtcpUdpConfig};
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::rtt::Rfc6298;
use crate::media::layers::LayerRates;
use crate::media::stream::{FrameFeeder, PartSelection, VideoStream};
use crate::media::MediaTag;
use crate::proto::plausible::FeedbackCheck;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::rtcp::rtt_from_report;
use crate::wire::rtcp_udp::{ntp_from_ns, rtp_header, ReceiverReport, SenderReport, RTP_HEADER_BYTES};
use crate::wire::WireError;

/// SSRC of a vidcc RTP sender ("vidc").
pub const SENDER_SSRC: u32 = 0x7669_6463;

struct Queued {
    len: u32,
    tag: MediaTag,
    marker: bool,
    timestamp: u32,
}

pub struct RtcpUdpSender {
    feeder: FrameFeeder,
    rates: LayerRates,
    queue: VecDeque<Queued>,
    /// Sender reports stop with the video.
    stop: Option<Instant>,
    clock_rate_hz: u32,
    /// The application's layer count K.
    layers: u8,
    adaptation: Adaptation,
    sent_layers: Option<u8>,
    rtt: Rfc6298,
    sr_interval: Duration,
    next_sr: Instant,
    seq: u64,
    packets_sent: u32,
    octets_sent: u32,
    /// Judges what receiver reports claim against what was sent (counts only: the rule reads
    /// the fraction lost alone, which its 8-bit encoding keeps in [0, 1)).
    check: FeedbackCheck,
    now: Instant,
    events: VecDeque<Event>,
}

impl RtcpUdpSender {
    /// `stream` must be layered with the given `rates` (checked by [`super::pair`]).
    pub fn new(
        cfg: &RtcpUdpConfig,
        stream: VideoStream,
        rates: LayerRates,
        packet_size: DataSize,
        start: Instant,
        stop: Option<Instant>,
    ) -> Self {
        let max_payload = (packet_size.as_bytes() as usize).saturating_sub(RTP_HEADER_BYTES).max(1) as u32;
        let layers = cfg.initial_layers.clamp(1, rates.count() as u8);
        RtcpUdpSender {
            feeder: FrameFeeder::new(stream, max_payload, stop).expect("a positive payload"),
            queue: VecDeque::new(),
            stop,
            clock_rate_hz: cfg.clock_rate_hz,
            layers,
            adaptation: cfg.adaptation,
            sent_layers: None,
            rtt: Rfc6298::default(),
            sr_interval: Duration::from_nanos(cfg.sender_report_interval_ns),
            next_sr: start,
            seq: 0,
            packets_sent: 0,
            check: FeedbackCheck::new(),
            octets_sent: 0,
            now: Instant::ZERO,
            events: VecDeque::new(),
            rates,
        }
    }

    /// The application's current layer count K.
    pub fn layers(&self) -> u8 {
        self.layers
    }
    /// Smoothed RTT from the receiver reports.
    pub fn srtt(&self) -> Option<Duration> {
        self.rtt.srtt()
    }

    fn stopped(&self, t: Instant) -> bool {
        self.stop.is_some_and(|s| t >= s)
    }

    fn produce(&mut self, now: Instant) {
        let k = self.layers;
        let clock_rate_hz = self.clock_rate_hz;
        let (queue, sent_layers, events) = (&mut self.queue, &mut self.sent_layers, &mut self.events);
        self.feeder.produce(
            now,
            |_| {
                if *sent_layers != Some(k) {
                    *sent_layers = Some(k);
                    events.push_back(Event::LayersChanged { layers: k });
                }
                PartSelection::Layers(k)
            },
            |f, len, tag| {
                // RFC 3551 §5: M marks the frame's last packet.
                let marker = tag.layer + 1 == k && tag.index + 1 == tag.count;
                queue.push_back(Queued { len, tag, marker, timestamp: rtp_time(clock_rate_hz, f.ready_at) });
            },
        );
    }

    /// The application's rule on one report block and, if the RR carried it, the receiving rate.
    fn adapt(&mut self, fraction_lost: u8, rate: Option<DataRate>) {
        let k_max = self.rates.count() as u8;
        let step = if fraction_lost > 0 { self.layers.saturating_sub(1).max(1) } else { (self.layers + 1).min(k_max) };
        // K = max(1, max{j : c_j ≤ B}), the paper's layer rule (§3.3).
        let within = |b: DataRate| self.rates.layers_within(b) as u8;
        let k = match (self.adaptation, rate) {
            (Adaptation::Step, _) => step,
            (_, None) => return,
            (Adaptation::Rate, Some(b)) => within(b),
            (Adaptation::RateOnLoss, Some(b)) if fraction_lost > 0 => within(b).min(self.layers),
            (Adaptation::RateOnLoss, Some(_)) => step,
        };
        if k != self.layers {
            self.layers = k;
            self.events.push_back(Event::RateChanged { rate: self.rates.cumulative(k as usize - 1) });
        }
    }
}

impl Endpoint for RtcpUdpSender {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        if d.virtual_payload != 0 {
            return Err(WireError::Inconsistent("receiver report with payload"));
        }
        let rr = ReceiverReport::parse(d.bytes)?;
        self.now = self.now.max(now);
        let Some(b) = rr.block else { return Ok(()) };
        // The shared plausibility check (proto::plausible): no more lost than sent, no packet
        // received beyond the last one sent (RTP sequence numbers start at 0 here).
        let mut claims = self.check.judge(self.now);
        claims.at_most(b.cumulative_lost.max(0) as u64, self.seq);
        if self.seq > 0 {
            claims.at_most(b.extended_highest_seq as u64, self.seq - 1);
        }
        drop(claims);
        // RFC 3550 §6.4.1: RTT = A − LSR − DLSR; no echo or a "negative" result is ignored.
        if let Some(rtt) = rtt_from_report(self.now, b.lsr, b.dlsr) {
            self.rtt.on_sample(rtt);
        }
        self.adapt(b.fraction_lost, rr.rate_bps.map(DataRate::from_bps));
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        self.produce(self.now);
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.now = self.now.max(now);
        let now = self.now;
        self.produce(now);
        if now >= self.next_sr && !self.stopped(self.next_sr) {
            while self.next_sr <= now {
                self.next_sr += self.sr_interval;
            }
            let sr = SenderReport {
                ssrc: SENDER_SSRC,
                ntp: ntp_from_ns(now.as_nanos()),
                rtp_timestamp: rtp_time(self.clock_rate_hz, now),
                packet_count: self.packets_sent,
                octet_count: self.octets_sent,
                rtt_ns: self.rtt.srtt().map_or(0, |d| d.as_nanos()),
            };
            return Some(Transmit {
                to: Destination::PEER,
                header: sr.emit(),
                payload_len: 0,
                meta: PacketMeta::control(),
            });
        }
        let q = self.queue.pop_front()?;
        let header = rtp_header(q.marker, self.seq as u16, q.timestamp, SENDER_SSRC).emit();
        let meta = PacketMeta { media: q.tag, ..PacketMeta::data(self.seq) };
        self.seq += 1;
        self.packets_sent = self.packets_sent.wrapping_add(1);
        self.octets_sent = self.octets_sent.wrapping_add(q.len);
        Some(Transmit { to: Destination::PEER, header, payload_len: q.len, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.queue.is_empty() {
            return Some(self.now);
        }
        let frame = self.feeder.next_ready();
        let sr = (!self.stopped(self.next_sr)).then_some(self.next_sr);
        match (frame, sr) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn enable_media_reports(&mut self) {
        self.feeder.enable_media_reports();
    }

    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        self.feeder.poll_media()
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats { clamped_feedback: self.check.clamped(), ..EndpointStats::default() }
    }
}

/// An instant on the RTP clock (truncated, wrapping as RTP timestamps do).
fn rtp_time(clock_rate_hz: u32, t: Instant) -> u32 {
    (t.as_nanos() as u128 * clock_rate_hz as u128 / 1_000_000_000) as u32
}
