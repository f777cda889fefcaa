use super::UdpConfig;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, PacketMeta, Transmit};
use crate::time::{Duration, Instant};
use crate::wire::{udp::UdpData, udp::HEADER_BYTES, WireError};

/// Constant-rate sender. Its schedule is exact: packet n leaves at `start + n·interval`
/// (computed from n, so rounding never accumulates drift).
pub struct UdpSender {
    config: UdpConfig,
    interval: Duration,
    /// Packets sent since the current burst began.
    sent_in_burst: u64,
    burst_start: Instant,
    seq: u32,
    active: bool,
}

impl UdpSender {
    pub fn new(config: UdpConfig) -> Self {
        assert!(config.packet_size.as_bytes() as usize >= HEADER_BYTES, "packet smaller than the UDP header");
        let interval = config.rate.transmission_time(config.packet_size);
        UdpSender { burst_start: config.start, config, interval, sent_in_burst: 0, seq: 0, active: true }
    }

    fn next_send(&self) -> Option<Instant> {
        if !self.active || self.interval == Duration::MAX {
            return None;
        }
        let t = self.burst_start + self.interval * self.sent_in_burst;
        match self.config.stop {
            Some(stop) if t >= stop => None,
            _ => Some(t),
        }
    }

    /// Starts or stops sending (on/off traffic models drive this). Resuming restarts the
    /// schedule at `now`.
    pub fn set_active(&mut self, now: Instant, active: bool) {
        if active && !self.active {
            self.burst_start = now.max(self.config.start);
            self.sent_in_burst = 0;
        }
        self.active = active;
    }

    pub fn packets_sent(&self) -> u64 {
        self.seq as u64
    }

    pub fn interval(&self) -> Duration {
        self.interval
    }
}

impl Endpoint for UdpSender {
    fn handle_datagram(&mut self, _now: Instant, _d: Datagram<'_>) -> Result<(), WireError> {
        // Unresponsive: nothing the network says changes the schedule.
        Ok(())
    }

    fn handle_timeout(&mut self, _now: Instant) {}

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        let due = self.next_send()?;
        if due > now {
            return None;
        }
        let header = UdpData { seq: self.seq, send_time_ns: due.as_nanos() }.emit();
        let meta = PacketMeta::data(self.seq as u64);
        self.seq = self.seq.wrapping_add(1);
        self.sent_in_burst += 1;
        let payload_len = (self.config.packet_size.as_bytes() as usize - header.len()) as u32;
        Some(Transmit { to: Destination::PEER, header, payload_len, meta })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        self.next_send()
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats::default()
    }
}
