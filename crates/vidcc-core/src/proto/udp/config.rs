use crate::time::Instant;
use crate::units::{DataRate, DataSize};

#[derive(Clone, Debug, PartialEq)]
pub struct UdpConfig {
    pub rate: DataRate,
    /// Bytes on the wire per packet, header included.
    pub packet_size: DataSize,
    pub start: Instant,
    pub stop: Option<Instant>,
}

impl UdpConfig {
    pub fn new(rate: DataRate) -> Self {
        UdpConfig { rate, packet_size: DataSize::from_bytes(1000), start: Instant::ZERO, stop: None }
    }
}
