//! The DVRC sender (docs/papers/dvrc.md §1.1.1, §1.1.3, §1.1.7): it transmits layers 1..K of the
//! video and measures the RTT; the receiver decides everything else.
//!
//! - Frames: each frame, when ready, is split into its layers and the first K layers are
//!   packetized (K = the latest layer count from a control packet; a change takes effect at the
//!   next frame boundary \[D\]). Packets wait in a [`SenderBuffer`] (1 s deadline, highest layer
//!   dropped first) and leave back to back, i.e. at the layers' natural rate (\[I\] reading (a)),
//!   or, with `pacing`, no faster than the rate R the receiver last reported.
//! - RTT (paper Eqs. 2–4, [`PaperEwma`]): SampleRTT = now − echoed timestamp for every control
//!   packet; every data packet carries EstimatedRTT and DTO (A2).
//! - Control packets are applied in `ack_seq` order: one that answers an older data packet than
//!   the newest already applied still gives an RTT sample but does not change K.
//! - Every control packet is judged first by the shared plausibility check
//!   ([`crate::proto::plausible`]): an `ack_seq` of a packet never sent or an echo of a time
//!   nothing was sent is refused; a rate R above the cap the receiver's AIAMD keeps it under
//!   (`max_rate_factor` × the layers' total) and a K above the layers are clamped. An honest
//!   receiver never reports these (docs/protocols/dvrc.md, "Implausible feedback").

use std::collections::VecDeque;

use super::config::DvrcConfig;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::rtt::PaperEwma;
use crate::media::layers::LayerRates;
use crate::media::sender_buffer::{SenderBuffer, SenderBufferConfig, SenderBufferStats};
use crate::media::stream::{FrameFeeder, PartSelection, VideoStream};
use crate::proto::plausible::FeedbackCheck;
use crate::time::Instant;
use crate::units::{DataRate, DataSize};
use crate::wire::dvrc::{DvrcControl, DvrcData, DATA_HEADER_BYTES};
use crate::wire::WireError;

pub struct DvrcSender {
    feeder: FrameFeeder,
    rates: LayerRates,
    buffer: SenderBuffer,
    rtt: PaperEwma,
    /// Layers the receiver asks for (1..=k).
    target_layers: u8,
    /// Layers of the last frame produced.
    sent_layers: Option<u8>,
    /// Newest `ack_seq` applied (serial-number order).
    newest_ack: Option<u32>,
    pacing: bool,
    pace_rate: DataRate,
    /// The highest R an honest receiver can choose (its AIAMD's cap).
    rate_cap: DataRate,
    /// What was sent, to judge what control packets claim.
    check: FeedbackCheck,
    next_send: Instant,
    seq: u64,
    now: Instant,
    events: VecDeque<Event>,
}

impl DvrcSender {
    /// `stream` must be layered with the given `rates` (checked by [`super::pair`]).
    pub fn new(
        cfg: &DvrcConfig,
        stream: VideoStream,
        rates: LayerRates,
        packet_size: DataSize,
        stop: Option<Instant>,
    ) -> Self {
        let max_payload = (packet_size.as_bytes() as usize).saturating_sub(DATA_HEADER_BYTES).max(1) as u32;
        DvrcSender {
            feeder: FrameFeeder::new(stream, max_payload, stop).expect("a positive payload"),
            buffer: SenderBuffer::new(SenderBufferConfig::default()),
            rtt: PaperEwma::new(cfg.rtt_config()),
            // R(t_0) = c_1, so K = 1 at start [P].
            target_layers: 1,
            sent_layers: None,
            newest_ack: None,
            pacing: cfg.pacing,
            pace_rate: rates.cumulative(0),
            // As the receiver's Aiamd computes it (receiver.rs), floor included.
            rate_cap: DataRate::from_bps_f64(rates.total().as_bps_f64() * cfg.max_rate_factor).max(
                DataRate::from_bps_f64(rates.cumulative(0).as_bps_f64() * cfg.min_rate_factor)
                    .max(DataRate::from_bps(1)),
            ),
            check: FeedbackCheck::new(),
            next_send: Instant::ZERO,
            seq: 0,
            now: Instant::ZERO,
            events: VecDeque::new(),
            rates,
        }
    }

    /// Believes every control packet (tests that feed hand-made ones).
    #[cfg(test)]
    pub(crate) fn trust_feedback(&mut self) {
        self.check = FeedbackCheck::trusting();
    }

    pub fn rtt(&self) -> &PaperEwma {
        &self.rtt
    }
    /// Layers the receiver last asked for.
    pub fn target_layers(&self) -> u8 {
        self.target_layers
    }
    pub fn buffer_stats(&self) -> &SenderBufferStats {
        self.buffer.stats()
    }
    pub fn packets_sent(&self) -> u64 {
        self.seq
    }

    /// Moves every frame ready by `now` into the buffer, layers 0..K.
    fn produce(&mut self, now: Instant) {
        let k = self.target_layers;
        let (buffer, sent_layers, events) = (&mut self.buffer, &mut self.sent_layers, &mut self.events);
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
                buffer.push(now, tag, len, f.ready_at);
            },
        );
    }
}

impl Endpoint for DvrcSender {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        if d.virtual_payload != 0 {
            return Err(WireError::Inconsistent("control packet with payload"));
        }
        let c = DvrcControl::parse(d.bytes)?;
        self.now = self.now.max(now);
        let mut claims = self.check.judge(self.now);
        // An acknowledgement of a packet never sent would also hold back every honest one after it.
        claims.acknowledged(c.ack_seq as u64, self.seq)?;
        // SampleRTT = T'_Sn − T_Sn (Sec. 3.1).
        let sample = claims.echo(Instant::from_nanos(c.ts_echo_ns))?;
        let rate_bps = claims.at_most(c.rate_bps, self.rate_cap.as_bps());
        let layers = claims.at_most(c.layers, self.rates.count() as u8);
        drop(claims);
        self.rtt.on_sample(sample);
        let newer = self.newest_ack.is_none_or(|a| {
            let d = c.ack_seq.wrapping_sub(a);
            d != 0 && d < 1 << 31
        });
        if newer {
            self.newest_ack = Some(c.ack_seq);
            // Step (5) of §1.1.7: join or leave layers until exactly K are sent.
            self.target_layers = layers.max(1);
            self.pace_rate = DataRate::from_bps(rate_bps.max(1));
        }
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
        if self.pacing && now < self.next_send {
            return None;
        }
        let p = self.buffer.pop(now)?;
        let length = (DATA_HEADER_BYTES as u32 + p.size_bytes) as u16;
        let header = DvrcData {
            frame_type: p.tag.frame_type,
            length,
            seq: self.seq as u32,
            timestamp_ns: now.as_nanos(),
            rtt_est_ns: self.rtt.estimated_rtt().map_or(0, |d| d.as_nanos()),
            dto_ns: self.rtt.dto().as_nanos().max(1),
            layer: p.tag.layer,
        }
        .emit();
        if self.pacing {
            let gap = self.pace_rate.transmission_time(DataSize::from_bytes(length as u64));
            self.next_send = now + gap;
        }
        let meta = PacketMeta { media: p.tag, ..PacketMeta::data(self.seq) };
        self.check.on_sent(now, length as u64);
        self.seq += 1;
        Some(Transmit { to: Destination::PEER, header, payload_len: p.size_bytes, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        let frame = self.feeder.next_ready();
        if self.buffer.is_empty() {
            return frame;
        }
        if !self.pacing {
            // Drained by poll_transmit right away; wake for anything that is due.
            return Some(self.now);
        }
        Some(frame.map_or(self.next_send, |f| f.min(self.next_send)))
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn enable_media_reports(&mut self) {
        self.feeder.enable_media_reports();
        self.buffer.enable_media_reports();
    }

    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        self.feeder.poll_media().or_else(|| self.buffer.poll_media())
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats { clamped_feedback: self.check.clamped(), ..EndpointStats::default() }
    }
}
