//! The `rtcp-udp` receiver: RTP reception statistics (RFC 3550 §6.4.1 and Appendix A.1, A.3,
//! A.8) reported in Receiver Reports every `report_interval` and, with `immediate_reports`, at
//! once on a sequence gap, at most one immediate report per RTT (DVRC digest §1.3 \[D\]).
//!
//! Statistics, per RFC 3550 Appendix A.3:
//! - the 16-bit RTP sequence number is extended with a cycle count (A.1) by serial-number
//!   comparison with the highest number so far (no probation and no MAX_DROPOUT restart: the
//!   source is known and never restarts; a deviation from A.1 that only matters for a new or
//!   restarted source);
//! - expected = extended highest − extended first + 1; received counts every packet, late and
//!   duplicates included (as A.1 does), so the cumulative loss can be negative;
//! - fraction lost = 256·(expected_interval − received_interval) / expected_interval since the
//!   previous report, 0 when negative; capped at 255 (A.3's 256 for a report with nothing
//!   received cannot be sent);
//! - jitter: [`Rfc3550Jitter`] over the RTP timestamps converted to ns, reported in RTP units;
//! - LSR / DLSR from the last Sender Report (0 / 0 before one arrives).
//!
//! A periodic report is skipped when nothing arrived since the previous report (RFC 3550 §6.4:
//! a report block is only sent for a source heard from since the last report). The RTT that
//! spaces immediate reports is the one the sender puts in its SRs (vidcc's profile extension),
//! `rtt_fallback` before the first.

use std::collections::VecDeque;

use super::config::RtcpUdpConfig;
use crate::endpoint::{Datagram, Destination, Endpoint, EndpointStats, Event, PacketMeta, Transmit};
use crate::estimate::jitter::Rfc3550Jitter;
use crate::estimate::loss_detect::{Arrival, GapDetector};
use crate::time::{Duration, Instant};
use crate::wire::rtcp_udp::{
    ns_to_short, ntp_middle, ReceiverReport, ReportBlock, ToReceiver, CUMULATIVE_LOST_MAX, CUMULATIVE_LOST_MIN,
    RTP_HEADER_BYTES,
};
use crate::wire::WireError;

/// SSRC of a vidcc RTCP receiver ("vidr").
pub const RECEIVER_SSRC: u32 = 0x7669_6472;

pub struct RtcpUdpReceiver {
    report_interval: Duration,
    immediate: bool,
    rtt_fallback: Duration,
    clock_rate_hz: u32,
    source_ssrc: u32,
    gap: GapDetector,
    /// Extended highest sequence number (cycles << 16 | seq) and the first one.
    max_ext: Option<u32>,
    base_ext: u32,
    expected_prior: u64,
    received_prior: u64,
    jitter: Rfc3550Jitter,
    last_ts_ext: Option<u64>,
    /// LSR and the arrival time of the last SR.
    last_sr: Option<(u32, Instant)>,
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
            rtt_fallback: Duration::from_nanos(cfg.rtt_fallback_ns),
            clock_rate_hz: cfg.clock_rate_hz,
            source_ssrc: 0,
            gap: GapDetector::new(),
            max_ext: None,
            base_ext: 0,
            expected_prior: 0,
            received_prior: 0,
            jitter: Rfc3550Jitter::new(),
            last_ts_ext: None,
            last_sr: None,
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
        let ns = self.jitter.jitter().as_nanos() as u128;
        (ns * self.clock_rate_hz as u128 / 1_000_000_000).min(u32::MAX as u128) as u32
    }

    /// RFC 3550 A.1: the 16-bit number extended by serial comparison with the highest so far.
    fn extend_seq(&self, seq: u16) -> u32 {
        match self.max_ext {
            None => seq as u32,
            Some(max) => {
                let delta = seq.wrapping_sub(max as u16) as i16;
                (max as i64 + delta as i64).clamp(0, u32::MAX as i64) as u32
            }
        }
    }

    /// The RTP timestamp unwrapped against the previous one, in ns.
    fn timestamp_ns(&mut self, ts: u32) -> u64 {
        let ext = match self.last_ts_ext {
            None => ts as u64,
            Some(last) => {
                let delta = ts.wrapping_sub(last as u32) as i32;
                (last as i64 + delta as i64).max(0) as u64
            }
        };
        self.last_ts_ext = Some(ext);
        (ext as u128 * 1_000_000_000 / self.clock_rate_hz as u128) as u64
    }

    /// The report block as of `now` (RFC 3550 A.3), advancing the per-interval counters.
    pub fn report_block(&mut self, now: Instant) -> Option<ReportBlock> {
        let max = self.max_ext?;
        let expected = max.wrapping_sub(self.base_ext) as u64 + 1;
        let received = self.gap.received();
        let lost = (expected as i64 - received as i64).clamp(CUMULATIVE_LOST_MIN as i64, CUMULATIVE_LOST_MAX as i64);
        let expected_interval = expected.saturating_sub(self.expected_prior);
        let received_interval = received - self.received_prior;
        let lost_interval = expected_interval as i64 - received_interval as i64;
        self.expected_prior = expected;
        self.received_prior = received;
        // fraction = (lost_interval << 8) / expected_interval, 0 if nothing was lost
        let fraction = if expected_interval == 0 || lost_interval <= 0 {
            0
        } else {
            (((lost_interval as u64) << 8) / expected_interval).min(255) as u8
        };
        let (lsr, dlsr) = match self.last_sr {
            Some((lsr, at)) => (lsr, ns_to_short(now.saturating_since(at).as_nanos())),
            None => (0, 0),
        };
        Some(ReportBlock {
            source_ssrc: self.source_ssrc,
            fraction_lost: fraction,
            cumulative_lost: lost as i32,
            extended_highest_seq: max,
            jitter: self.jitter_units(),
            lsr,
            dlsr,
        })
    }

    fn send_report(&mut self, now: Instant) {
        let block = self.report_block(now);
        self.pending.push_back(ReceiverReport { ssrc: RECEIVER_SSRC, block });
        self.reports_sent += 1;
    }

    fn on_data(&mut self, now: Instant, seq: u16, timestamp: u32, ssrc: u32, wire_size: usize) {
        let ext = self.extend_seq(seq);
        if self.max_ext.is_none() {
            self.base_ext = ext;
            self.source_ssrc = ssrc;
            self.next_report = Some(now + self.report_interval);
        }
        self.max_ext = Some(self.max_ext.map_or(ext, |m| m.max(ext)));
        let arrival = self.gap.on_packet(ext);
        let sent = Instant::from_nanos(self.timestamp_ns(timestamp));
        self.jitter.on_packet(sent, now);
        if arrival != Arrival::Duplicate {
            self.stats.app_packets_delivered += 1;
            self.stats.app_bytes_delivered += (wire_size - RTP_HEADER_BYTES) as u64;
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
                self.last_sr = Some((ntp_middle(sr.ntp), now));
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
        if self.gap.received() > self.received_prior {
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
