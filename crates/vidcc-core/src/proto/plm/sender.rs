//! PLM's source: every layer a constant-rate stream of back-to-back bursts (ns-2
//! `Application/Traffic/CBR_PP`, `plm/cbr-traffic-PP.cc`).
//!
//! Layer l sends a burst of `burst` packets at once, then waits `burst · size · 8 / rate_l`
//! (so its mean rate is `rate_l`), the wait drawn uniformly in ±50 % of that when `jitter` is on
//! (ns-2 `random_ 1`, which `PLMcbr_flow_PP` sets). The first packet of a burst carries the
//! pair flag; sequence numbers run per layer.

use rand::Rng;

use super::wire::PlmData;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, GroupId, PacketMeta, Transmit};
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::wire::WireError;

struct Layer {
    /// Mean gap between bursts.
    period: Duration,
    next_burst: Instant,
    /// Packets of the current burst still to send.
    left: u32,
    seq: u32,
}

pub struct PlmSender {
    layers: Vec<Layer>,
    burst: u32,
    payload_len: u32,
    jitter: bool,
    stop: Option<Instant>,
    rng: SimRng,
    seq: u64,
}

impl PlmSender {
    pub(super) fn new(
        rates_bps: &[u64],
        burst: u32,
        packet_bytes: u64,
        jitter: bool,
        start: Instant,
        stop: Option<Instant>,
        rng: SimRng,
    ) -> Self {
        let layers = rates_bps
            .iter()
            .map(|&r| Layer {
                period: Duration::from_nanos(
                    ((burst as u128 * packet_bytes as u128 * 8 * 1_000_000_000).div_ceil(r as u128)) as u64,
                ),
                next_burst: start,
                left: 0,
                seq: 0,
            })
            .collect();
        let payload_len = (packet_bytes as usize - super::wire::DATA_HEADER_BYTES) as u32;
        PlmSender { layers, burst, payload_len, jitter, stop, rng, seq: 0 }
    }

    fn stopped(&self, now: Instant) -> bool {
        self.stop.is_some_and(|s| now >= s)
    }
}

impl Endpoint for PlmSender {
    fn handle_datagram(&mut self, _now: Instant, _d: Datagram<'_>) -> Result<(), WireError> {
        // PLM has no feedback: nothing a receiver could send is expected.
        Ok(())
    }

    fn handle_timeout(&mut self, _now: Instant) {}

    fn poll_transmit(&mut self, now: Instant) -> Option<Transmit> {
        if self.stopped(now) {
            return None;
        }
        // Lower layers first at equal instants; a burst leaves whole before the next layer's.
        for (l, layer) in self.layers.iter_mut().enumerate() {
            if layer.left == 0 && layer.next_burst <= now {
                layer.left = self.burst;
                let gap =
                    if self.jitter { layer.period.mul_f64(1.0 + self.rng.gen_range(-0.5..0.5)) } else { layer.period };
                layer.next_burst += gap;
            }
            if layer.left > 0 {
                let first_of_pair = layer.left == self.burst;
                layer.left -= 1;
                let header = PlmData { layer: l as u16, seq: layer.seq, first_of_pair }.emit();
                layer.seq = layer.seq.wrapping_add(1);
                let meta = PacketMeta::data(self.seq);
                self.seq += 1;
                return Some(Transmit {
                    to: Destination::Group(GroupId(l as u32)),
                    header,
                    payload_len: self.payload_len,
                    meta,
                });
            }
        }
        None
    }

    fn poll_timeout(&self) -> Option<Instant> {
        if self.layers.iter().any(|l| l.left > 0) {
            return None;
        }
        let next = self.layers.iter().map(|l| l.next_burst).min()?;
        match self.stop {
            Some(s) if next >= s => None,
            _ => Some(next),
        }
    }

    fn stats(&self) -> EndpointStats {
        EndpointStats::default()
    }
}
