//! RTCP packets of RFC 3550 §6.4 and §6.7 (SR, RR, APP; SDES, BYE and the feedback types kept
//! opaque) and compound packets (§6.1), validated as RFC 3550 Appendix A.2 says; NTP timestamps
//! (§4) and the round-trip time A − LSR − DLSR (§6.4.1).
//!
//! Common header (every RTCP packet):
//!
//! ```text
//!  |V=2|P|  count  |      PT       |   length (32-bit words − 1)   |
//! ```
//!
//! - **SR** (PT 200): SSRC, sender info (NTP timestamp 64 bits, RTP timestamp, packet count,
//!   octet count: 20 bytes), `count` report blocks of 24 bytes, then any profile-specific
//!   extension (whole words).
//! - **RR** (PT 201): SSRC, `count` report blocks, then any profile-specific extension.
//! - **Report block**: SSRC of the source; fraction lost (8 bits) and cumulative number lost
//!   (24 bits, signed); extended highest sequence number; interarrival jitter; LSR; DLSR.
//! - **APP** (PT 204): `count` is a 5-bit subtype; SSRC; a four-character ASCII name; data in
//!   whole 32-bit words.
//!
//! A single packet ([`RtcpPacket::parse`]) is checked for: version 2; a packet type in RTCP's
//! range (192–223, RFC 5761 §4; others are [`WireError::UnknownType`]); a length that does not
//! overrun the datagram ([`WireError::Truncated`]); with P = 1, a padding count of at least 1
//! and within the packet; an SR or RR long enough for its fixed part and for `count` report
//! blocks ("report count does not fit"); an APP packet long enough for its name, with an ASCII
//! name and whole-word data. A compound packet ([`Compound::parse`]) is also checked as A.2 does:
//! the first packet is an SR or an RR, only the last one may be padded, and the packets' lengths
//! add up to the datagram exactly. RFC 3550 also requires an SDES CNAME in every compound packet
//! (§6.1); vidcc's profiles send none (the SSRC is fixed per endpoint and headers must fit
//! [`MAX_HEADER_BYTES`]) and the parser does not require one.
//!
//! Packets are emitted with [`RtcpBuilder`], one packet after another into one compound packet.

use super::{Reader, WireError, Writer};
use crate::endpoint::{HeaderBuf, MAX_HEADER_BYTES};
use crate::time::{Duration, Instant};

pub const RTCP_VERSION: u8 = 2;
pub const PT_SR: u8 = 200;
pub const PT_RR: u8 = 201;
pub const PT_SDES: u8 = 202;
pub const PT_BYE: u8 = 203;
pub const PT_APP: u8 = 204;
/// The common header.
pub const RTCP_HEADER_BYTES: usize = 4;
/// NTP timestamp, RTP timestamp, packet count, octet count.
pub const SENDER_INFO_BYTES: usize = 20;
pub const REPORT_BLOCK_BYTES: usize = 24;
/// The 5-bit count field.
pub const MAX_REPORT_BLOCKS: usize = 31;
/// An SR with no report block and no extension.
pub const SR_MIN_BYTES: usize = RTCP_HEADER_BYTES + 4 + SENDER_INFO_BYTES;
/// An RR with no report block and no extension.
pub const RR_MIN_BYTES: usize = RTCP_HEADER_BYTES + 4;
/// An APP packet with no data: header, SSRC, name.
pub const APP_MIN_BYTES: usize = RTCP_HEADER_BYTES + 8;

/// Range of the 24-bit signed cumulative-loss field.
pub const CUMULATIVE_LOST_MIN: i32 = -(1 << 23);
pub const CUMULATIVE_LOST_MAX: i32 = (1 << 23) - 1;

/// The sender info of an SR (RFC 3550 §6.4.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SenderInfo {
    /// 64-bit NTP timestamp (seconds in the upper half, fraction in the lower).
    pub ntp: u64,
    pub rtp_timestamp: u32,
    pub packet_count: u32,
    pub octet_count: u32,
}

/// One reception report block (RFC 3550 §6.4.1).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReportBlock {
    pub source_ssrc: u32,
    /// Lost / expected since the previous report, as a fixed-point fraction ×256.
    pub fraction_lost: u8,
    /// Expected − received since the start, a 24-bit signed value (duplicates can make it < 0).
    /// Emitting clamps it to [`CUMULATIVE_LOST_MIN`]..=[`CUMULATIVE_LOST_MAX`].
    pub cumulative_lost: i32,
    pub extended_highest_seq: u32,
    /// Interarrival jitter in RTP timestamp units.
    pub jitter: u32,
    /// Middle 32 bits of the last SR's NTP timestamp; 0 if none.
    pub lsr: u32,
    /// Delay since that SR, 1/65536 s; 0 if none.
    pub dlsr: u32,
}

impl ReportBlock {
    fn write(&self, w: &mut Writer<'_>) {
        let lost = self.cumulative_lost.clamp(CUMULATIVE_LOST_MIN, CUMULATIVE_LOST_MAX) as u32 & 0x00ff_ffff;
        w.u32(self.source_ssrc)
            .u32(((self.fraction_lost as u32) << 24) | lost)
            .u32(self.extended_highest_seq)
            .u32(self.jitter)
            .u32(self.lsr)
            .u32(self.dlsr);
    }

    /// Decodes 24 bytes (every bit pattern is a valid block).
    fn decode(b: &[u8; REPORT_BLOCK_BYTES]) -> ReportBlock {
        let word = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let w = word(4);
        ReportBlock {
            source_ssrc: word(0),
            fraction_lost: (w >> 24) as u8,
            // Sign-extend the 24-bit cumulative loss.
            cumulative_lost: ((w << 8) as i32) >> 8,
            extended_highest_seq: word(8),
            jitter: word(12),
            lsr: word(16),
            dlsr: word(20),
        }
    }
}

/// The report blocks of a parsed SR or RR, decoded on access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportBlocks<'a> {
    /// A whole number of 24-byte blocks (checked by the parser).
    bytes: &'a [u8],
}

impl<'a> ReportBlocks<'a> {
    pub fn len(&self) -> usize {
        self.bytes.len() / REPORT_BLOCK_BYTES
    }
    pub fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }
    pub fn get(&self, i: usize) -> Option<ReportBlock> {
        self.iter().nth(i)
    }
    pub fn iter(&self) -> impl Iterator<Item = ReportBlock> + 'a {
        self.bytes.chunks_exact(REPORT_BLOCK_BYTES).filter_map(|c| c.try_into().ok().map(ReportBlock::decode))
    }
    /// The block about `source_ssrc`, if any.
    pub fn about(&self, source_ssrc: u32) -> Option<ReportBlock> {
        self.iter().find(|b| b.source_ssrc == source_ssrc)
    }
}

/// A Sender Report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderReport<'a> {
    pub ssrc: u32,
    pub info: SenderInfo,
    pub reports: ReportBlocks<'a>,
    /// Profile-specific extension (whole words, possibly empty).
    pub ext: &'a [u8],
}

/// A Receiver Report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverReport<'a> {
    pub ssrc: u32,
    pub reports: ReportBlocks<'a>,
    /// Profile-specific extension (whole words, possibly empty).
    pub ext: &'a [u8],
}

/// An application-defined packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct App<'a> {
    /// 5 bits.
    pub subtype: u8,
    pub ssrc: u32,
    /// Four ASCII characters.
    pub name: [u8; 4],
    /// Whole 32-bit words.
    pub data: &'a [u8],
}

/// One RTCP packet of a compound packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RtcpPacket<'a> {
    Sr(SenderReport<'a>),
    Rr(ReceiverReport<'a>),
    App(App<'a>),
    /// SDES, BYE, the feedback and extended-report types: carried, not interpreted.
    Other {
        packet_type: u8,
        count: u8,
        body: &'a [u8],
    },
}

impl<'a> RtcpPacket<'a> {
    /// Parses the RTCP packet at the start of `buf`; returns it and the bytes it takes (its
    /// length field's), so that a compound packet's next packet follows.
    pub fn parse(buf: &'a [u8]) -> Result<(Self, usize), WireError> {
        let mut r = Reader::new(buf);
        r.need(RTCP_HEADER_BYTES)?;
        let b0 = r.u8()?;
        if b0 >> 6 != RTCP_VERSION {
            return Err(WireError::BadVersion(b0 >> 6));
        }
        let count = b0 & 0x1f;
        let packet_type = r.u8()?;
        if !(192..=223).contains(&packet_type) {
            return Err(WireError::UnknownType(packet_type));
        }
        let len = (r.u16()? as usize + 1) * 4;
        r.need(len - RTCP_HEADER_BYTES)?;
        let padding = if b0 & 0x20 != 0 {
            let n = buf[len - 1] as usize;
            if n == 0 {
                return Err(WireError::Inconsistent("RTCP padding count of zero"));
            }
            if n > len - RTCP_HEADER_BYTES {
                return Err(WireError::Inconsistent("RTCP padding longer than the packet"));
            }
            n
        } else {
            0
        };
        let body = &buf[RTCP_HEADER_BYTES..len - padding];
        let mut r = Reader::new(body);
        let p = match packet_type {
            PT_SR => {
                if body.len() < SR_MIN_BYTES - RTCP_HEADER_BYTES {
                    return Err(WireError::Inconsistent("SR shorter than its sender info"));
                }
                let ssrc = r.u32()?;
                let info = SenderInfo {
                    ntp: r.u64()?,
                    rtp_timestamp: r.u32()?,
                    packet_count: r.u32()?,
                    octet_count: r.u32()?,
                };
                let (reports, ext) = blocks_and_ext(&mut r, body, count, "SR report count does not fit its length")?;
                RtcpPacket::Sr(SenderReport { ssrc, info, reports, ext })
            }
            PT_RR => {
                if body.len() < RR_MIN_BYTES - RTCP_HEADER_BYTES {
                    return Err(WireError::Inconsistent("RR shorter than its SSRC"));
                }
                let ssrc = r.u32()?;
                let (reports, ext) = blocks_and_ext(&mut r, body, count, "RR report count does not fit its length")?;
                RtcpPacket::Rr(ReceiverReport { ssrc, reports, ext })
            }
            PT_APP => {
                if body.len() < APP_MIN_BYTES - RTCP_HEADER_BYTES {
                    return Err(WireError::Inconsistent("APP shorter than its name"));
                }
                let ssrc = r.u32()?;
                let name: [u8; 4] = r.bytes(4)?.try_into().map_err(|_| WireError::Inconsistent("APP name"))?;
                if !name.is_ascii() {
                    return Err(WireError::Inconsistent("APP name is not ASCII"));
                }
                let data = &body[8..];
                if !data.len().is_multiple_of(4) {
                    return Err(WireError::Inconsistent("APP data is not whole 32-bit words"));
                }
                RtcpPacket::App(App { subtype: count, ssrc, name, data })
            }
            _ => RtcpPacket::Other { packet_type, count, body },
        };
        Ok((p, len))
    }

    pub fn packet_type(&self) -> u8 {
        match self {
            RtcpPacket::Sr(_) => PT_SR,
            RtcpPacket::Rr(_) => PT_RR,
            RtcpPacket::App(_) => PT_APP,
            RtcpPacket::Other { packet_type, .. } => *packet_type,
        }
    }
}

/// `count` report blocks after the fixed part read so far, and the extension after them.
fn blocks_and_ext<'a>(
    r: &mut Reader<'a>,
    body: &'a [u8],
    count: u8,
    what: &'static str,
) -> Result<(ReportBlocks<'a>, &'a [u8]), WireError> {
    let n = count as usize * REPORT_BLOCK_BYTES;
    if body.len() < r.pos() + n {
        return Err(WireError::Inconsistent(what));
    }
    let reports = ReportBlocks { bytes: r.bytes(n)? };
    let ext = &body[r.pos()..];
    if !ext.len().is_multiple_of(4) {
        return Err(WireError::Inconsistent("RTCP profile extension is not whole 32-bit words"));
    }
    Ok((reports, ext))
}

/// A validated compound packet (RFC 3550 §6.1, A.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Compound<'a> {
    buf: &'a [u8],
    count: usize,
}

impl<'a> Compound<'a> {
    /// Parses and checks every packet of the datagram `buf`.
    pub fn parse(buf: &'a [u8]) -> Result<Self, WireError> {
        let mut at = 0;
        let mut count = 0;
        while at < buf.len() || count == 0 {
            let (p, len) = RtcpPacket::parse(&buf[at..]).map_err(|e| match e {
                WireError::Truncated { needed, got } => WireError::Truncated { needed: at + needed, got: at + got },
                e => e,
            })?;
            if count == 0 && !matches!(p, RtcpPacket::Sr(_) | RtcpPacket::Rr(_)) {
                return Err(WireError::Inconsistent("compound RTCP packet does not start with an SR or RR"));
            }
            let padded = buf[at] & 0x20 != 0;
            at += len;
            count += 1;
            if padded && at != buf.len() {
                return Err(WireError::Inconsistent("padding on an RTCP packet that is not the last"));
            }
        }
        Ok(Compound { buf, count })
    }

    /// The number of packets.
    pub fn len(&self) -> usize {
        self.count
    }
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// The packets in order.
    pub fn iter(&self) -> impl Iterator<Item = RtcpPacket<'a>> + 'a {
        let buf = self.buf;
        let mut at = 0;
        std::iter::from_fn(move || {
            // Every packet was checked by `parse`; a failure here cannot happen and ends the walk.
            let (p, len) = RtcpPacket::parse(buf.get(at..)?).ok()?;
            at += len;
            Some(p)
        })
    }

    /// The first SR of the compound packet, if any.
    pub fn sender_report(&self) -> Option<SenderReport<'a>> {
        self.iter().find_map(|p| match p {
            RtcpPacket::Sr(sr) => Some(sr),
            _ => None,
        })
    }

    /// The first APP packet with this name, if any.
    pub fn app(&self, name: [u8; 4]) -> Option<App<'a>> {
        self.iter().find_map(|p| match p {
            RtcpPacket::App(a) if a.name == name => Some(a),
            _ => None,
        })
    }
}

/// Writes RTCP packets one after another into one (compound) datagram of at most
/// [`MAX_HEADER_BYTES`]. Panics on what only an emitter can get wrong (more than 31 blocks,
/// an extension or APP data not in whole words, a subtype over 5 bits, a datagram over the
/// limit): never reachable from received bytes.
pub struct RtcpBuilder {
    buf: [u8; MAX_HEADER_BYTES],
    len: usize,
}

impl Default for RtcpBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl RtcpBuilder {
    pub fn new() -> Self {
        RtcpBuilder { buf: [0; MAX_HEADER_BYTES], len: 0 }
    }

    /// Room for a packet of `len` bytes; a writer over it with the common header written.
    fn packet(&mut self, count: u8, packet_type: u8, len: usize) -> Writer<'_> {
        assert!(count < 32, "RTCP count {count} exceeds 5 bits");
        assert!(len.is_multiple_of(4), "RTCP packet of {len} bytes is not whole words");
        assert!(self.len + len <= MAX_HEADER_BYTES, "compound RTCP packet exceeds {MAX_HEADER_BYTES} bytes");
        let start = self.len;
        self.len += len;
        let mut w = Writer::new(&mut self.buf[start..start + len]);
        w.u8((RTCP_VERSION << 6) | count).u8(packet_type).u16((len / 4 - 1) as u16);
        w
    }

    pub fn sr(mut self, ssrc: u32, info: SenderInfo, blocks: &[ReportBlock], ext: &[u8]) -> Self {
        assert!(blocks.len() <= MAX_REPORT_BLOCKS, "{} report blocks", blocks.len());
        let len = SR_MIN_BYTES + REPORT_BLOCK_BYTES * blocks.len() + ext.len();
        let mut w = self.packet(blocks.len() as u8, PT_SR, len);
        w.u32(ssrc).u64(info.ntp).u32(info.rtp_timestamp).u32(info.packet_count).u32(info.octet_count);
        for b in blocks {
            b.write(&mut w);
        }
        w.bytes(ext);
        self
    }

    pub fn rr(mut self, ssrc: u32, blocks: &[ReportBlock], ext: &[u8]) -> Self {
        assert!(blocks.len() <= MAX_REPORT_BLOCKS, "{} report blocks", blocks.len());
        let len = RR_MIN_BYTES + REPORT_BLOCK_BYTES * blocks.len() + ext.len();
        let mut w = self.packet(blocks.len() as u8, PT_RR, len);
        w.u32(ssrc);
        for b in blocks {
            b.write(&mut w);
        }
        w.bytes(ext);
        self
    }

    pub fn app(mut self, subtype: u8, ssrc: u32, name: [u8; 4], data: &[u8]) -> Self {
        assert!(name.is_ascii(), "APP name {name:?} is not ASCII");
        let mut w = self.packet(subtype, PT_APP, APP_MIN_BYTES + data.len());
        w.u32(ssrc).bytes(&name).bytes(data);
        self
    }

    /// Bytes written so far.
    pub fn len(&self) -> usize {
        self.len
    }
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn finish(self) -> HeaderBuf {
        HeaderBuf::from_slice(&self.buf[..self.len])
    }
}

/// NTP 64-bit timestamp of an instant counted in ns from the epoch of vidcc time (RFC 3550 §4:
/// seconds in the upper 32 bits, fraction in the lower 32, wrapping every 2^32 s).
pub fn ntp_from_ns(ns: u64) -> u64 {
    let secs = ns / 1_000_000_000;
    let frac = (((ns % 1_000_000_000) as u128) << 32) / 1_000_000_000;
    (secs << 32) | frac as u64
}

/// Middle 32 bits of an NTP timestamp (the "short" format of LSR/DLSR: 16.16 fixed point s).
pub fn ntp_middle(ntp: u64) -> u32 {
    (ntp >> 16) as u32
}

/// A duration in ns as 1/65536 s units, rounded down, saturating at `u32::MAX`.
pub fn ns_to_short(ns: u64) -> u32 {
    ((ns as u128 * 65_536) / 1_000_000_000).min(u32::MAX as u128) as u32
}

/// 1/65536 s units as ns, rounded down.
pub fn short_to_ns(units: u32) -> u64 {
    ((units as u128 * 1_000_000_000) / 65_536) as u64
}

/// The round-trip time of RFC 3550 §6.4.1 from a report block's LSR and DLSR received at
/// `arrival`: A − LSR − DLSR in the 16.16 short format, modulo 2^32. `None` when the block
/// echoes no SR (LSR = 0) or the result is "negative" (≥ 2^31 units: clocks or a stale echo).
pub fn rtt_from_report(arrival: Instant, lsr: u32, dlsr: u32) -> Option<Duration> {
    if lsr == 0 {
        return None;
    }
    let a = ntp_middle(ntp_from_ns(arrival.as_nanos()));
    let units = a.wrapping_sub(lsr).wrapping_sub(dlsr);
    (units < 1 << 31).then(|| Duration::from_nanos(short_to_ns(units)))
}

#[cfg(test)]
mod tests;
