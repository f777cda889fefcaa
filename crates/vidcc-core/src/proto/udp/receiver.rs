use crate::endpoint::{Datagram, Endpoint, EndpointStats, Transmit};
use crate::time::Instant;
use crate::wire::{udp::UdpData, WireError};

/// Counts what arrives. Every datagram is delivered to the application (no reordering buffer).
#[derive(Default)]
pub struct UdpReceiver {
    stats: EndpointStats,
    highest_seq: Option<u32>,
}

impl UdpReceiver {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn highest_seq(&self) -> Option<u32> {
        self.highest_seq
    }
}

impl Endpoint for UdpReceiver {
    fn handle_datagram(&mut self, _now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let h = match UdpData::parse(d.bytes) {
            Ok(h) => h,
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        self.highest_seq = Some(self.highest_seq.map_or(h.seq, |s| s.max(h.seq)));
        self.stats.app_packets_delivered += 1;
        self.stats.app_bytes_delivered += (d.wire_size() - crate::wire::udp::HEADER_BYTES) as u64;
        Ok(())
    }
    fn handle_timeout(&mut self, _now: Instant) {}
    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        None
    }
    fn poll_timeout(&self) -> Option<Instant> {
        None
    }
    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
