//! RTP reception statistics of one source, RFC 3550 §6.4.1 and Appendix A.1, A.3, A.8: what a
//! receiver puts in its report block. Shared by every RTP-based receiver (`rtcp-udp`, `asmp`).
//!
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

use super::jitter::Rfc3550Jitter;
use super::loss_detect::{Arrival, GapDetector};
use crate::time::Instant;
use crate::wire::rtcp::{ns_to_short, ntp_middle, ReportBlock, CUMULATIVE_LOST_MAX, CUMULATIVE_LOST_MIN};

/// One received RTP packet as the statistics see it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reception {
    pub arrival: Arrival,
    /// The extended sequence number.
    pub ext_seq: u32,
    /// The RTP timestamp unwrapped and converted to ns on the sender's media clock.
    pub sent: Instant,
    /// Whether this was the first packet from the source.
    pub first: bool,
}

/// Reception statistics of one RTP source.
#[derive(Clone, Debug)]
pub struct RtpReception {
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
}

impl RtpReception {
    /// `clock_rate_hz` (> 0) is the RTP timestamp clock.
    pub fn new(clock_rate_hz: u32) -> Self {
        RtpReception {
            clock_rate_hz: clock_rate_hz.max(1),
            source_ssrc: 0,
            gap: GapDetector::new(),
            max_ext: None,
            base_ext: 0,
            expected_prior: 0,
            received_prior: 0,
            jitter: Rfc3550Jitter::new(),
            last_ts_ext: None,
            last_sr: None,
        }
    }

    /// Current interarrival jitter, RTP timestamp units.
    pub fn jitter_units(&self) -> u32 {
        let ns = self.jitter.jitter().as_nanos() as u128;
        (ns * self.clock_rate_hz as u128 / 1_000_000_000).min(u32::MAX as u128) as u32
    }

    /// Packets received so far (duplicates included).
    pub fn received(&self) -> u64 {
        self.gap.received()
    }

    /// Whether anything arrived since the last report block.
    pub fn received_since_report(&self) -> bool {
        self.gap.received() > self.received_prior
    }

    /// The extended highest sequence number, once a packet arrived.
    pub fn highest(&self) -> Option<u32> {
        self.max_ext
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

    /// Records an RTP packet received at `now`.
    pub fn on_packet(&mut self, now: Instant, seq: u16, timestamp: u32, ssrc: u32) -> Reception {
        let ext = self.extend_seq(seq);
        let first = self.max_ext.is_none();
        if first {
            self.base_ext = ext;
            self.source_ssrc = ssrc;
        }
        self.max_ext = Some(self.max_ext.map_or(ext, |m| m.max(ext)));
        let arrival = self.gap.on_packet(ext);
        let sent = Instant::from_nanos(self.timestamp_ns(timestamp));
        self.jitter.on_packet(sent, now);
        Reception { arrival, ext_seq: ext, sent, first }
    }

    /// Records a Sender Report with NTP timestamp `ntp` received at `now` (for LSR/DLSR).
    pub fn on_sender_report(&mut self, now: Instant, ntp: u64) {
        self.last_sr = Some((ntp_middle(ntp), now));
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
}
