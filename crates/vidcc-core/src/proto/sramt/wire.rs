//! SRAMT's packets (docs/papers/sramt.md §1.11; encodings are free, A-30), built on the shared
//! RFC 3550 formats of [`crate::wire::rtp`] and [`crate::wire::rtcp`]: RTP data packets whose
//! header extension carries the SRAMT fields, RTCP sender reports, and the receivers' compound
//! RR + APP "SRMT". The shared parsers check the RFC 3550 framing (version, lengths, counts,
//! compound rules); this module checks what SRAMT adds. Parsers return [`WireError`] and never
//! panic.
//!
//! ```text
//! data  = RTP header (12: V=2 X=1 CC=0 PT=96, seq, timestamp = send time in µs, SSRC)
//!         + extension header (4: profile 0x5352 "SR", length = 7 + n words)
//!         + [group u8 | n u8 | flags u8 | heard_group u8]          flags: 1 end of epoch,
//!           [epoch_us u32] [epoch_index u32] [members u32]                2 RTT echo, 4 heard report
//!           [echo_id u32] [echo_rtt_us u32] [heard_rate_bps u32]
//!           [rate_bps u32] × n                                 = 44 + 4n bytes
//! SR    = RTCP SR without report blocks (28 bytes)
//! RR    = RTCP RR with one report block (32 bytes) + APP "SRMT", subtype 0 (24 bytes):
//!         [rate_bps u32] [loss, parts per 10^9 u32] [position u8, 3 zero bytes]
//! ```
//!
//! `heard_group` names the stream / level of a report the sender heard (flag 4), which it relays
//! so that receivers can suppress (§1.12; see `docs/protocols/sramt.md`, deviations).

use crate::endpoint::HeaderBuf;
use crate::time::{Duration, Instant};
use crate::wire::rtcp::{self, Compound, ReportBlock, RtcpBuilder, RtcpPacket, SenderInfo};
use crate::wire::rtp::{RtpExtension, RtpHeader, RtpPacket};
use crate::wire::{Reader, WireError, Writer};

/// Most streams / layers: the data header must fit in 64 bytes.
pub const MAX_GROUPS: usize = 5;
pub const RTP_PAYLOAD_TYPE: u8 = 96;
pub const EXT_PROFILE: u16 = 0x5352;
pub const FLAG_EPOCH_END: u8 = 1;
pub const FLAG_ECHO: u8 = 2;
pub const FLAG_HEARD: u8 = 4;
/// Bytes of the sender's SR and of a receiver's RR + APP (RFC 3550 sizes).
pub const SR_BYTES: usize = rtcp::SR_MIN_BYTES;
pub const RR_APP_BYTES: usize = rtcp::RR_MIN_BYTES + rtcp::REPORT_BLOCK_BYTES + rtcp::APP_MIN_BYTES + 12;
pub const APP_NAME: [u8; 4] = *b"SRMT";

/// Bytes of the data header with `n` groups.
pub const fn data_header_bytes(n: usize) -> usize {
    44 + 4 * n
}

/// The data header with the paper's three groups (the registry's header size).
pub const DATA_HEADER_BYTES: usize = data_header_bytes(3);

/// An RTP data packet's header with the SRAMT extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    pub seq: u16,
    /// Send time, microseconds modulo 2^32 (Eq. 12's T_timestamp).
    pub timestamp_us: u32,
    pub ssrc: u32,
    /// The stream or layer this packet belongs to.
    pub group: u8,
    pub epoch_end: bool,
    pub epoch_us: u32,
    /// Epochs ended so far (the flagged packet of epoch e carries e).
    pub epoch_index: u32,
    /// Receivers in the session, as RTCP's member count (§1.12).
    pub members: u32,
    /// (receiver id, t_RTT^{r-i} in µs), §1.4 step 3.
    pub echo: Option<(u32, u32)>,
    /// A report the sender heard: (stream / level, rate bit/s), for suppression.
    pub heard: Option<(u8, u32)>,
    pub n: u8,
    pub rates_bps: [u32; MAX_GROUPS],
}

impl DataHeader {
    pub fn len(&self) -> usize {
        data_header_bytes(self.n as usize)
    }
    pub fn is_empty(&self) -> bool {
        false
    }
    pub fn rates(&self) -> &[u32] {
        &self.rates_bps[..self.n as usize]
    }

    /// The header as the shared RTP emitter writes it: fixed part + the SRAMT extension.
    pub fn emit(&self) -> HeaderBuf {
        let mut body = [0u8; 28 + 4 * MAX_GROUPS];
        let len = 28 + 4 * self.n as usize;
        let mut w = Writer::new(&mut body[..len]);
        let flags = (u8::from(self.epoch_end) * FLAG_EPOCH_END)
            | (u8::from(self.echo.is_some()) * FLAG_ECHO)
            | (u8::from(self.heard.is_some()) * FLAG_HEARD);
        let (echo_id, echo_rtt) = self.echo.unwrap_or((0, 0));
        let (heard_group, heard_rate) = self.heard.unwrap_or((0, 0));
        w.u8(self.group).u8(self.n).u8(flags).u8(heard_group);
        w.u32(self.epoch_us).u32(self.epoch_index).u32(self.members);
        w.u32(echo_id).u32(echo_rtt).u32(heard_rate);
        for r in self.rates() {
            w.u32(*r);
        }
        let fixed = RtpHeader {
            marker: false,
            payload_type: RTP_PAYLOAD_TYPE,
            seq: self.seq,
            timestamp: self.timestamp_us,
            ssrc: self.ssrc,
        };
        fixed.emit_with(&[], Some(RtpExtension { profile: EXT_PROFILE, data: &body[..len] }))
    }

    /// Parses the header of a datagram whose bytes are `b` (all of it on a socket).
    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        Self::parse_datagram(b, b.len())
    }

    /// Parses the header at the start of `b`, a datagram of `total_len` bytes (the payload may
    /// be virtual in simulation).
    pub fn parse_datagram(b: &[u8], total_len: usize) -> Result<Self, WireError> {
        let p = RtpPacket::parse(b, total_len)?;
        if p.header.payload_type != RTP_PAYLOAD_TYPE {
            return Err(WireError::UnknownType(p.header.payload_type));
        }
        if p.csrcs().next().is_some() || p.padding != 0 || p.header.marker {
            return Err(WireError::Inconsistent("SRAMT RTP: no CSRC, padding or marker"));
        }
        let ext = p.extension.ok_or(WireError::Inconsistent("SRAMT RTP: no header extension"))?;
        if ext.profile != EXT_PROFILE {
            return Err(WireError::Inconsistent("RTP extension: not the SRAMT profile"));
        }
        let mut r = Reader::new(ext.data);
        let group = r.u8()?;
        let n = r.u8()?;
        if n == 0 || n as usize > MAX_GROUPS {
            return Err(WireError::Inconsistent("SRAMT extension: group count outside 1..=5"));
        }
        if ext.data.len() != 28 + 4 * n as usize {
            return Err(WireError::Inconsistent("SRAMT extension: length does not match the group count"));
        }
        if group >= n {
            return Err(WireError::Inconsistent("SRAMT extension: group beyond the group count"));
        }
        let flags = r.u8()?;
        if flags & !(FLAG_EPOCH_END | FLAG_ECHO | FLAG_HEARD) != 0 {
            return Err(WireError::Inconsistent("SRAMT extension: unknown flags"));
        }
        let heard_group = r.u8()?;
        let epoch_us = r.u32()?;
        let epoch_index = r.u32()?;
        let members = r.u32()?;
        let echo_id = r.u32()?;
        let echo_rtt = r.u32()?;
        let heard_rate = r.u32()?;
        if epoch_us == 0 {
            return Err(WireError::Inconsistent("SRAMT extension: zero epoch length"));
        }
        if flags & FLAG_HEARD != 0 && heard_group > n {
            return Err(WireError::Inconsistent("SRAMT extension: heard report's group beyond the group count"));
        }
        if flags & FLAG_HEARD == 0 && (heard_group, heard_rate) != (0, 0) {
            return Err(WireError::Inconsistent("SRAMT extension: heard report fields without the flag"));
        }
        if flags & FLAG_ECHO == 0 && (echo_id, echo_rtt) != (0, 0) {
            return Err(WireError::Inconsistent("SRAMT extension: RTT echo fields without the flag"));
        }
        let mut rates_bps = [0u32; MAX_GROUPS];
        for slot in rates_bps.iter_mut().take(n as usize) {
            *slot = r.u32()?;
            if *slot == 0 {
                return Err(WireError::Inconsistent("SRAMT extension: zero group rate"));
            }
        }
        Ok(DataHeader {
            seq: p.header.seq,
            timestamp_us: p.header.timestamp,
            ssrc: p.header.ssrc,
            group,
            epoch_end: flags & FLAG_EPOCH_END != 0,
            epoch_us,
            epoch_index,
            members,
            echo: (flags & FLAG_ECHO != 0).then_some((echo_id, echo_rtt)),
            heard: (flags & FLAG_HEARD != 0).then_some((heard_group, heard_rate)),
            n,
            rates_bps,
        })
    }
}

/// RFC 3550's 64-bit NTP timestamp of `t`.
pub fn ntp(t: Instant) -> u64 {
    rtcp::ntp_from_ns(t.as_nanos())
}

/// The middle 32 bits of `t`'s NTP timestamp (LSR; Eq. 15's arithmetic is in 1/65536 s).
pub fn ntp_middle(t: Instant) -> u32 {
    rtcp::ntp_middle(ntp(t))
}

/// Eq. 15 / RFC 3550 §6.4.1: A − LSR − DLSR for a report arriving at `arrival`.
pub fn rtt(arrival: Instant, lsr: u32, dlsr: u32) -> Option<Duration> {
    rtcp::rtt_from_report(arrival, lsr, dlsr)
}

/// The sender's RTCP SR (no report blocks: the sender receives no RTP).
pub fn sender_report(ssrc: u32, info: SenderInfo) -> HeaderBuf {
    RtcpBuilder::new().sr(ssrc, info, &[], &[]).finish()
}

/// A receiver's compound report, flattened: the RR's one block and the SRAMT APP block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverReport {
    pub ssrc: u32,
    /// The RR's report block about the sender (LSR = 0: no SR seen yet).
    pub block: ReportBlock,
    /// APP: mean r_r_tcp since the previous report, bit/s.
    pub rate_bps: u32,
    /// APP: l_i in parts per 10^9.
    pub loss_ppb: u32,
    /// APP: stream (S, 0-based) or level (LE, 1-based).
    pub position: u8,
}

impl ReceiverReport {
    pub fn emit(&self) -> HeaderBuf {
        let mut data = [0u8; 12];
        Writer::new(&mut data).u32(self.rate_bps).u32(self.loss_ppb).u8(self.position).u8(0).u8(0).u8(0);
        RtcpBuilder::new().rr(self.ssrc, &[self.block], &[]).app(0, self.ssrc, APP_NAME, &data).finish()
    }

    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        let c = Compound::parse(b)?;
        let mut packets = c.iter();
        let (Some(RtcpPacket::Rr(rr)), Some(RtcpPacket::App(app)), None) =
            (packets.next(), packets.next(), packets.next())
        else {
            return Err(WireError::Inconsistent("SRAMT report: want exactly an RR and an APP"));
        };
        if rr.reports.len() != 1 || !rr.ext.is_empty() {
            return Err(WireError::Inconsistent("SRAMT report: want one report block and no extension"));
        }
        let block = rr.reports.get(0).ok_or(WireError::Inconsistent("SRAMT report: no report block"))?;
        if app.name != APP_NAME || app.subtype != 0 {
            return Err(WireError::Inconsistent("RTCP APP: not an SRAMT block"));
        }
        if app.ssrc != rr.ssrc {
            return Err(WireError::Inconsistent("RTCP APP: SSRC differs from the RR's"));
        }
        if app.data.len() != 12 {
            return Err(WireError::Inconsistent("RTCP APP: SRAMT data is 12 bytes"));
        }
        let mut a = Reader::new(app.data);
        let rate_bps = a.u32()?;
        let loss_ppb = a.u32()?;
        if loss_ppb > 1_000_000_000 {
            return Err(WireError::Inconsistent("RTCP APP: loss rate above 1"));
        }
        let position = a.u8()?;
        if position as usize > MAX_GROUPS {
            return Err(WireError::Inconsistent("RTCP APP: stream / level beyond 5"));
        }
        if [a.u8()?, a.u8()?, a.u8()?] != [0, 0, 0] {
            return Err(WireError::Inconsistent("RTCP APP: reserved bytes not zero"));
        }
        Ok(ReceiverReport { ssrc: rr.ssrc, block, rate_bps, loss_ppb, position })
    }
}

/// What arrives at a receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToReceiver {
    Data(DataHeader),
    /// An SR: the sender's SSRC and sender info.
    Sr(u32, SenderInfo),
}

impl ToReceiver {
    /// RFC 5761 demultiplexing: RTCP packet types (192–223) go to the RTCP parser, which must
    /// find an SR first (a compound packet); anything else must be an SRAMT data packet.
    pub fn parse(b: &[u8], total_len: usize) -> Result<Self, WireError> {
        match b.get(1) {
            Some(192..=223) => {
                if total_len != b.len() {
                    return Err(WireError::Inconsistent("RTCP packet with payload"));
                }
                let c = Compound::parse(b)?;
                match c.iter().next() {
                    Some(RtcpPacket::Sr(sr)) if c.len() == 1 && sr.reports.is_empty() && sr.ext.is_empty() => {
                        Ok(ToReceiver::Sr(sr.ssrc, sr.info))
                    }
                    _ => Err(WireError::Inconsistent("SRAMT: the only RTCP a receiver gets is a bare SR")),
                }
            }
            _ => DataHeader::parse_datagram(b, total_len).map(ToReceiver::Data),
        }
    }
}
