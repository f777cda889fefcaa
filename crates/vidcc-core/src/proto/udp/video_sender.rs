//! `udp` carrying video: an unresponsive sender that transmits the packets of every frame when
//! the frame is ready, whatever the network does (docs/papers/dvrc.md Fig. 11b "plain UDP";
//! the unadapted baseline of every video paper).
//!
//! Each frame's selected parts are packetized (at most `packet_size − 16` payload bytes per
//! packet) and sent back to back at the frame's ready time, as Evalvid's sender and ns-2 MPEG
//! sources do. Layered video sends the first `parts_sent` cumulative layers; simulcast sends
//! stream `parts_sent − 1` alone.
//!
//! Parameters: `packet_size` (wire bytes), `parts_sent` (default: every layer / the top stream),
//! `stop`. Deviations: none (there is nothing to adapt).

use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, PacketMeta, Transmit};
use crate::media::stream::{FrameFeeder, PartKind, PartSelection, VideoStream};
use crate::media::MediaTag;
use crate::time::Instant;
use crate::units::DataSize;
use crate::wire::{udp::UdpData, udp::HEADER_BYTES, WireError};
use std::collections::VecDeque;

pub struct UdpVideoSender {
    feeder: FrameFeeder,
    selection: PartSelection,
    queue: VecDeque<(u32, MediaTag)>,
    seq: u32,
}

impl UdpVideoSender {
    /// `parts_sent`: layers (cumulative) or 1-based stream number; default everything.
    pub fn new(stream: VideoStream, packet_size: DataSize, parts_sent: Option<u8>, stop: Option<Instant>) -> Self {
        let max_payload = (packet_size.as_bytes() as usize).saturating_sub(HEADER_BYTES).max(1) as u32;
        let selection = match (parts_sent, stream.kind()) {
            (None, _) => PartSelection::Full,
            (Some(k), PartKind::Layers) => PartSelection::Layers(k),
            (Some(j), PartKind::Streams) => PartSelection::Stream(j.saturating_sub(1)),
        };
        let feeder = FrameFeeder::new(stream, max_payload, stop).expect("a positive payload");
        UdpVideoSender { feeder, selection, queue: VecDeque::new(), seq: 0 }
    }

    /// Moves every frame that is ready by `now` into the send queue.
    fn produce(&mut self, now: Instant) {
        let (selection, queue) = (self.selection, &mut self.queue);
        self.feeder.produce(now, |_| selection, |_, len, tag| queue.push_back((len, tag)));
    }
}

impl Endpoint for UdpVideoSender {
    fn handle_datagram(&mut self, _now: Instant, _d: Datagram<'_>) -> Result<(), WireError> {
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.produce(now);
    }

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        self.produce(now);
        let (payload_len, tag) = self.queue.pop_front()?;
        let header = UdpData { seq: self.seq, send_time_ns: now.as_nanos() }.emit();
        let meta = PacketMeta { media: tag, ..PacketMeta::data(self.seq as u64) };
        self.seq = self.seq.wrapping_add(1);
        Some(Transmit { to: Destination::PEER, header, payload_len, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if !self.queue.is_empty() {
            return None; // drained by poll_transmit right away
        }
        self.feeder.next_ready()
    }

    fn enable_media_reports(&mut self) {
        self.feeder.enable_media_reports();
    }

    fn poll_media(&mut self) -> Option<crate::media::report::MediaReport> {
        self.feeder.poll_media()
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::media::layers::LayerRates;
    use crate::media::layers::LayeredSource;
    use crate::media::source::CbrSource;
    use crate::media::stream::{SendOrder, StreamSource};
    use crate::units::DataRate;

    fn drain(s: &mut UdpVideoSender, now: Instant) -> Vec<Transmit> {
        std::iter::from_fn(|| s.poll_transmit(now)).collect()
    }

    #[test]
    fn sends_each_frame_at_its_ready_time_split_into_layers() {
        // 1 Mbps at 25 fps: 5000 B frames; layers 128/256/512/768/1024 kbps cumulative → per-layer
        // shares 1/8, 1/8, 1/4, 1/4, 1/4 → 625, 625, 1250, 1250, 1250 bytes.
        let src: Box<dyn crate::media::source::FrameSource + Send> =
            Box::new(CbrSource::for_rate(DataRate::from_mbps(1), 25.0).unwrap());
        let rates = LayerRates::dvrc_default();
        let stream = VideoStream::new(StreamSource::Layered(LayeredSource::new(src, rates)), SendOrder::Decode);
        let mut s = UdpVideoSender::new(stream, DataSize::from_bytes(1000), Some(3), None);
        assert_eq!(s.poll_timeout(), Some(Instant::ZERO));
        let t = drain(&mut s, Instant::ZERO);
        // Layers 0..3 only: 625 + 625 + 1250 bytes at 984 B of payload per packet: 1 + 1 + 2 packets.
        assert_eq!(t.len(), 4);
        assert_eq!(t.iter().map(|x| x.meta.media.layer).collect::<Vec<_>>(), [0, 1, 2, 2]);
        assert_eq!(t.iter().map(|x| x.payload_len).sum::<u32>(), 2500);
        assert!(t.iter().all(|x| x.meta.media.frame == 0));
        assert_eq!(s.poll_timeout(), Some(Instant::from_nanos(40_000_000)));
        assert!(drain(&mut s, Instant::from_nanos(39_999_999)).is_empty());
        let t = drain(&mut s, Instant::from_nanos(40_000_000));
        assert_eq!(t.len(), 4);
        assert_eq!(t[0].meta.media.frame, 1);
        assert_eq!(t[3].meta.seq, 7);
    }

    #[test]
    fn stops_producing_at_stop() {
        let src: Box<dyn crate::media::source::FrameSource + Send> =
            Box::new(CbrSource::for_rate(DataRate::from_kbps(400), 25.0).unwrap());
        let stop = Some(Instant::from_nanos(100_000_000));
        let mut s = UdpVideoSender::new(VideoStream::single(src), DataSize::from_bytes(1000), None, stop);
        // Frames at 0, 40, 80 ms; the one at 120 ms is past the stop.
        // 2000 B frames at 984 B of payload per packet: 3 packets each, 3 frames.
        assert_eq!(drain(&mut s, Instant::from_nanos(1_000_000_000)).len(), 9);
        assert_eq!(s.poll_timeout(), None);
    }
}
