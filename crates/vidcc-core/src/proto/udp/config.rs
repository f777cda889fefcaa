use crate::time::Instant;
use crate::units::{DataRate, DataSize};
use serde::{Deserialize, Serialize};

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

/// `udp-cbr`: the resolved configuration of a constant-rate flow.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct CbrConfig {
    /// Required (its default, 0, is only a placeholder: the schema asks for a rate).
    pub rate_bps: u64,
}

/// `udp-pareto`: ns-2 `Application/Traffic/Pareto` (see [`super::ParetoOnOff`]).
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ParetoConfig {
    /// Peak rate, during bursts (required).
    pub rate_bps: u64,
    pub on_mean_ns: u64,
    pub off_mean_ns: u64,
    pub shape: f64,
}

impl Default for ParetoConfig {
    /// ns-2's defaults (`burst_time_` 0.5 s, `idle_time_` 0.5 s, `shape_` 1.5); the rate is a
    /// placeholder.
    fn default() -> Self {
        ParetoConfig { rate_bps: 0, on_mean_ns: 500_000_000, off_mean_ns: 500_000_000, shape: 1.5 }
    }
}

/// `udp`: video over unresponsive UDP.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VideoConfig {
    /// Cumulative layers (or the 1-based simulcast stream) sent; `None`: all layers / the top
    /// stream.
    #[serde(default)]
    pub layers_sent: Option<u8>,
}
