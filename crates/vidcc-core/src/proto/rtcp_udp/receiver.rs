//! The `rtcp-udp` receiver: RTP reception statistics (RFC 3550 §6.4.1 and Appendix A.1, A.3,
//! A.8) reported in Receiver Reports every `report_interval` and, with `immediate_reports`, at
//! once on a sequence gap, at most one immediate report per RTT (docs/papers/dvrc.md §1.3 \[D\]).
//!
//! Statistics: [`RtpReception`] (RFC 3550 Appendix A.1, A.3, A.8).
//!
//! A periodic report is skipped when nothing arrived since the previous report (RFC 3550 §6.4:
//! a report block is only sent for a source heard from since the last report). The RTT that
//! spaces immediate reports is the one the sender puts in its SRs (vidcc's profile extension),
//! `rtt_fallback` before the first.
//!
//! When the sender's rule reads a rate (`adaptation = "rate"` or `"rate_on_loss"`), every RR also
//! carries the receiving rate: the payload bytes of the distinct data packets that arrived in the
//! last `report_interval` (duplicates excluded), ×8 over that interval — "a receiver with an
//! expected bandwidth B" of the paper's layer rule (docs/papers/dvrc.md §1.3). In the first
//! interval it counts from the first packet over the whole interval, so it starts low.

use std::collections::VecDeque;

use super::config::RtcpUdpConfig;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::loss_detect::Arrival;
use crate::estimate::rate_meter::RateMeter;
use crate::estimate::rtp_reception::RtpReception;
use crate::time::{Duration, Instant};
use crate::units::DataRate;
use crate::wire::rtcp_udp::{ReceiverReport, ReportBlock, ToReceiver, RTP_HEADER_BYTES};
use crate::wire::WireError;

/// SSRC of a vidcc RTCP receiver ("vidr").
pub const RECEIVER_SSRC: u32 = 0x7669_6472;

pub struct RtcpUdpReceiver {
    report_interval: Duration,
    immediate: bool,
    /// The receiving rate of the distinct data packets over the last report interval, when RRs
    /// carry it (the sender's rule reads it).
    rate: Option<RateMeter>,
    rtt_fallback: Duration,
    rx: RtpReception,
    sender_rtt: Option<Duration>,
    next_report: Option<Instant>,
    last_immediate: Option<Instant>,
    reports_sent: u64,
    now: Instant,
    pending: VecDeque<ReceiverReport>,
    events: VecDeque<Event>,
    stats: EndpointStats,
}

impl RtcpUdpReceiver {
    pub fn new(cfg: &RtcpUdpConfig) -> Self {
        RtcpUdpReceiver {
            report_interval: Duration::from_nanos(cfg.report_interval_ns),
            immediate: cfg.immediate_reports,
            rate: cfg.adaptation.needs_rate().then(|| RateMeter::new(Duration::from_nanos(cfg.report_interval_ns))),
            rtt_fallback: Duration::from_nanos(cfg.rtt_fallback_ns),
            rx: RtpReception::new(cfg.clock_rate_hz),
            sender_rtt: None,
            next_report: None,
            last_immediate: None,
            reports_sent: 0,
            now: Instant::ZERO,
            pending: VecDeque::new(),
            events: VecDeque::new(),
            stats: EndpointStats::default(),
        }
    }

    /// The RTT spacing immediate reports: the sender's, or the fallback.
    pub fn rtt(&self) -> Duration {
        self.sender_rtt.unwrap_or(self.rtt_fallback)
    }
    pub fn reports_sent(&self) -> u64 {
        self.reports_sent
    }
    /// Current interarrival jitter, RTP timestamp units.
    pub fn jitter_units(&self) -> u32 {
        self.rx.jitter_units()
    }

    /// The report block as of `now` (RFC 3550 A.3), advancing the per-interval counters.
    pub fn report_block(&mut self, now: Instant) -> Option<ReportBlock> {
        self.rx.report_block(now)
    }

    /// The receiving rate over the last report interval ending at `now`; `None` unless the RRs
    /// carry it.
    pub fn receiving_rate(&mut self, now: Instant) -> Option<DataRate> {
        self.rate.as_ref().map(|m| m.rate(now))
    }

    fn send_report(&mut self, now: Instant) {
        let block = self.report_block(now);
        let rate_bps = self.receiving_rate(now).map(DataRate::as_bps);
        self.pending.push_back(ReceiverReport { ssrc: RECEIVER_SSRC, block, rate_bps });
        self.reports_sent += 1;
    }

    fn on_data(&mut self, now: Instant, seq: u16, timestamp: u32, ssrc: u32, wire_size: usize) {
        let rec = self.rx.on_packet(now, seq, timestamp, ssrc);
        if rec.first {
            self.next_report = Some(now + self.report_interval);
        }
        let arrival = rec.arrival;
        if arrival != Arrival::Duplicate {
            let payload = (wire_size - RTP_HEADER_BYTES) as u64;
            self.stats.app_packets_delivered += 1;
            self.stats.app_bytes_delivered += payload;
            if let Some(m) = &mut self.rate {
                m.on_bytes(now, payload);
            }
        }
        if let Arrival::Gap { .. } = arrival {
            let rtt = self.rtt();
            if self.immediate && self.last_immediate.is_none_or(|t| now.saturating_since(t) >= rtt) {
                self.last_immediate = Some(now);
                self.events.push_back(Event::LossEvent);
                self.send_report(now);
            }
        }
    }
}

impl Endpoint for RtcpUdpReceiver {
    fn handle_datagram(&mut self, now: Instant, d: Datagram<'_>) -> Result<(), WireError> {
        let parsed = ToReceiver::parse(d.bytes).and_then(|p| match p {
            ToReceiver::Sr(_) if d.virtual_payload != 0 => Err(WireError::Inconsistent("sender report with payload")),
            p => Ok(p),
        });
        let p = match parsed {
            Ok(p) => p,
            Err(e) => {
                self.stats.malformed_datagrams += 1;
                return Err(e);
            }
        };
        self.now = self.now.max(now);
        let now = self.now;
        match p {
            ToReceiver::Data(h) => self.on_data(now, h.seq, h.timestamp, h.ssrc, d.wire_size()),
            ToReceiver::Sr(sr) => {
                self.rx.on_sender_report(now, sr.ntp);
                if sr.rtt_ns > 0 {
                    self.sender_rtt = Some(Duration::from_nanos(sr.rtt_ns));
                }
            }
        }
        Ok(())
    }

    fn handle_timeout(&mut self, now: Instant) {
        self.now = self.now.max(now);
        let Some(mut due) = self.next_report else { return };
        if self.now < due {
            return;
        }
        if self.rx.received_since_report() {
            self.send_report(self.now);
        }
        while due <= self.now {
            due += self.report_interval;
        }
        self.next_report = Some(due);
    }

    fn poll_transmit(&mut self, _now: Instant) -> Option<Transmit> {
        let rr = self.pending.pop_front()?;
        Some(Transmit { to: Destination::PEER, header: rr.emit(), payload_len: 0, meta: PacketMeta::control() })
    }

    fn poll_timeout(&self) -> Option<Instant> {
        self.next_report
    }

    fn poll_event(&mut self) -> Option<Event> {
        self.events.pop_front()
    }

    fn stats(&self) -> EndpointStats {
        self.stats
    }
}
