//! The SSVP receiver (paper §3.1, Fig. 2 — flowchart image missing; docs/papers/ssvp.md §1.1.3).
//!
//! - Every data packet is answered at once by one control packet echoing its timestamp \[P\].
//! - CIn = 1 when the packet reveals a sequence gap (`estimate::loss_detect::GapDetector` in
//!   immediate mode: one mark per gap, not per missing packet \[I\]; reordering therefore counts
//!   as loss, as the paper intends). In-order, late and duplicate packets get CIn = 0 \[U\].
//! - A packet whose flag F is set carries the sender's STO instead of a timestamp \[P\]: the
//!   receiver keeps it, and its echo says "no RTT sample" \[U\].
//! - Receive timer: re-armed by every data packet; on expiry a control packet with CIn = 1 and no
//!   echo is sent and the timer re-armed, every timeout, without backoff \[U\]. The two triggers
//!   (gap, timeout) are independent (OR) \[I\]. Timeout = STO (1 s before the sender's first
//!   one, A-RTT-2), with the A-RTT-3 guard \[U, default on\] `max(STO, 2 × mean inter-arrival)`
//!   (mean: an EWMA of gain 1/8 over inter-arrival times \[D\]) so that a slow sender does not
//!   trigger false marks; and never less than 1 ms (a floor against a zero STO from a peer).
//! - Goodput: payload bytes of every packet received for the first time (duplicates excluded).
//! - SSVP-LA: per-layer receive buffers ([`LayerBuffers`], drained by a playout clock that starts
//!   `playout_delay` after the first arrival), reported in every control packet as the bytes
//!   buffered over the active layers 0..k, k as stamped in the newest data packet.

use std::collections::VecDeque;

use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::ewma::Ewma;
use crate::estimate::loss_detect::{Arrival, GapDetector};
use crate::media::playout::LayerBuffers;
use crate::media::MediaTag;
use crate::time::{Duration, Instant};
use crate::wire::ssvp::{ControlHeader, SsvpPacket, HEADER_BYTES, NO_FRAME, TYPE_CONTROL};
use crate::wire::WireError;

/// STO before the sender's first one (A-RTT-2).
pub const INITIAL_STO: Duration = Duration::from_secs(1);
/// Shortest receive timeout.
pub const MIN_TIMEOUT: Duration = Duration::from_millis(1);

/// Counters of a receiver, for tests and diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReceiverCounters {
    pub data_packets: u64,
    pub duplicates: u64,
    pub gap_marks: u64,
    pub timeouts: u64,
    pub sto_updates: u64,
}

/// The SSVP receiver endpoint (see the module docs).
pub struct SsvpReceiver {
    detector: GapDetector,
    sto: Duration,
    guard: bool,
    interarrival: Ewma,
    last_arrival: Option<Instant>,
    timer: Option<Instant>,
    highest: Option<u32>,
    control_bytes: u16,
    pending: VecDeque<ControlHeader>,
    buffers: Option<LayerBuffers>,
    layers: u8,
    now: Instant,
    stats: EndpointStats,
    counters: ReceiverCounters,
    events: VecDeque<Event>,
}

impl SsvpReceiver {
    /// `control_bytes`: wire size of a control packet; `buffers`: SSVP-LA's layer buffers.
    pub fn new(control_bytes: u32, timeout_guard: bool, buffers: Option<LayerBuffers>) -> Self {
        SsvpReceiver {
            detector: GapDetector::new(),
            sto: INITIAL_STO,
            guard: timeout_guard,
            interarrival: Ewma::new(1.0 / 8.0),
            last_arrival: None,
            timer: None,
            highest: None,
            control_bytes: control_bytes.clamp(HEADER_BYTES as u32, u16::MAX as u32) as u16,
            pending: VecDeque::new(),
            buffers,
            layers: 0,
            now: Instant::ZERO,
            stats: EndpointStats::default(),
            counters: ReceiverCounters::default(),
            events: VecDeque::new(),
        }
    }

    pub fn counters(&self) -> ReceiverCounters {
        self.counters
    }
    /// The STO last received from the sender.
    pub fn sto(&self) -> Duration {
        self.sto
    }
    pub fn buffers(&self) -> Option<&LayerBuffers> {
        self.buffers.as_ref()
    }

    /// The receive timeout now in force.
    pub fn timeout(&self) -> Duration {
        let guard = match (self.guard, self.interarrival.value()) {
            // A-RTT-3: max(STO, 2·mean inter-arrival).
            (true, Some(mean)) => Duration::from_nanos((2.0 * mean).round().min(u64::MAX as f64) as u64),
            _ => Duration::ZERO,
        };
        self.sto.max(guard).max(MIN_TIMEOUT)
    }

    /// Bytes buffered over the active layers (0 when not layered).
    fn buffered(&mut self, now: Instant) -> u32 {
        let k = self.layers;
        match &mut self.buffers {
            Some(b) if k > 0 => {
                b.advance(now);
                let total: u64 = (0..k).map(|l| b.level(l).0).sum();
                total.min(u32::MAX as u64) as u32
            }
            _ => 0,
        }
    }

    fn control(&mut self, now: Instant, ack: u32, congestion: bool, echo_ns: Option<u64>) {
        let buffered_bytes = self.buffered(now);
        let layers = if self.buffers.is_some() { self.layers } else { 0 };
        self.pending.push_back(ControlHeader {
            length: self.control_bytes,
            ack,
            congestion,
            echo_ns,
            buffered_bytes: if layers == 0 { 0 } else { buffered_bytes },
            layers,
        });
    }
}

impl Endpoint for SsvpReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let h = match SsvpPacket::parse_datagram(d.bytes, d.wire_size()) {
            Ok(SsvpPacket::Data(h)) => h,
            Ok(SsvpPacket::Control(_)) => {
                self.stats.malformed_datagrams += 1;
                return Err(WireError::UnknownType(TYPE_CONTROL));
            }
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        self.now = self.now.max(now);
        let now = self.now;
        self.counters.data_packets += 1;
        let arrival = self.detector.on_packet(h.seq);
        let advancing = matches!(arrival, Arrival::InOrder | Arrival::Gap { .. });
        if advancing {
            self.highest = Some(h.seq);
            if h.layers != 0 {
                self.layers = h.layers;
            }
        }
        let congestion = matches!(arrival, Arrival::Gap { .. });
        if congestion {
            self.counters.gap_marks += 1;
        }
        let payload = (h.length as usize - HEADER_BYTES) as u32;
        if arrival == Arrival::Duplicate {
            self.counters.duplicates += 1;
        } else {
            self.stats.app_bytes_delivered += payload as u64;
            self.stats.app_packets_delivered += 1;
            if let (Some(b), true) = (&mut self.buffers, h.frame != NO_FRAME) {
                let tag = MediaTag { frame: h.frame, frame_type: h.frame_type, layer: h.layer, index: 0, count: 1 };
                b.on_packet(now, tag, payload);
            }
        }
        let echo = if h.carries_sto {
            self.sto = Duration::from_nanos(h.timestamp_ns);
            self.counters.sto_updates += 1;
            None
        } else {
            Some(h.timestamp_ns)
        };
        if let Some(prev) = self.last_arrival {
            self.interarrival.update(now.saturating_since(prev).as_nanos() as f64);
        }
        self.last_arrival = Some(now);
        self.control(now, h.seq, congestion, echo);
        self.timer = Some(now + self.timeout());
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        let now = self.now;
        let Some(t) = self.timer else { return };
        if t > now {
            return;
        }
        // No data for a timeout: report congestion, no RTT sample; re-arm without backoff.
        self.counters.timeouts += 1;
        self.events.push_back(Event::Timeout);
        let ack = self.highest.unwrap_or(0);
        self.control(now, ack, true, None);
        self.timer = Some(now + self.timeout());
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        let c = self.pending.pop_front()?;
        let header = c.emit();
        let payload_len = c.length as u32 - HEADER_BYTES as u32;
        Some(Transmit { to: Destination::PEER, header, payload_len, meta: PacketMeta::control() })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        self.timer
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
