//! The `rtcp-udp` profile of RTP/RTCP: the RTP data header and the two RTCP packets of the
//! `rtcp-udp` baseline (`docs/papers/dvrc.md` §1.3 "RTCP over UDP"; layouts from
//! RFC 3550 \[X\]). The formats themselves are [`super::rtp`] and [`super::rtcp`]; this module
//! narrows them to what the profile sends and accepts.
//!
//! **RTP data header** (RFC 3550 §5.1), 12 bytes followed by the payload:
//!
//! ```text
//!  0                   1                   2                   3
//!  |V=2|P|X|  CC   |M|     PT      |       sequence number         |
//!  |                           timestamp                           |
//!  |           synchronization source (SSRC) identifier            |
//! ```
//!
//! vidcc sends no padding, extension or CSRC list (P = X = CC = 0; anything else is rejected) and
//! one payload type (dynamic, [`PT_VIDEO`] = 96). M marks the last packet of a frame
//! (RFC 3551 §5 for video). The timestamp is the frame's sampling instant on a 90 kHz clock.
//!
//! **Sender Report** (RFC 3550 §6.4.1), 36 bytes: the 8-byte header with RC = 0 (the sender
//! receives no RTP, so it has nothing to report on), the 20-byte sender info (NTP timestamp, RTP
//! timestamp, packet and octet counts), and an 8-byte *profile-specific extension* (allowed by
//! §6.4.1) carrying the sender's smoothed round-trip time in ns (0 = unknown). vidcc uses it so
//! the receiver can hold its immediate reports to one per RTT (docs/papers/dvrc.md \[D\]); the RFC
//! gives only senders an RTT. An SR without the extension (28 bytes, length field 6) is accepted.
//!
//! **Receiver Report** (RFC 3550 §6.4.2), 32 bytes with one report block (or 8 with none):
//!
//! ```text
//!  |V=2|P|   RC=1  |   PT=RR=201   |          length = 7           |
//!  |                     SSRC of packet sender                     |
//!  |                 SSRC_1 (SSRC of first source)                 |
//!  | fraction lost |       cumulative number of packets lost       |
//!  |           extended highest sequence number received           |
//!  |                      interarrival jitter                      |
//!  |                         last SR (LSR)                         |
//!  |                   delay since last SR (DLSR)                  |
//! ```
//!
//! With `adaptation = "rate"` or `"rate_on_loss"` (docs/protocols/rtcp-udp.md) the RR also carries
//! an 8-byte *profile-specific extension* after the report block (allowed by RFC 3550 §6.4.2):
//! the receiver's receiving rate over the last report interval, bit/s, as a u64 (40 bytes with a
//! block, length field 9; 16 without). Under the default rule the RR has no extension.
//!
//! Validation: version 2, no padding, the length field (32-bit words minus one) must match the
//! report count (plus, for an RR, none or exactly the 8-byte extension) and the datagram must be
//! exactly that long (RTCP packets carry no payload; compound packets are not used), at most one
//! report block (one source).

use super::rtcp::{RtcpBuilder, RtcpPacket, SenderInfo};
use super::{Reader, WireError};
use crate::endpoint::HeaderBuf;

pub use super::rtcp::{
    ns_to_short, ntp_from_ns, ntp_middle, short_to_ns, ReportBlock, CUMULATIVE_LOST_MAX, CUMULATIVE_LOST_MIN, PT_RR,
    PT_SR,
};
pub use super::rtp::{RtpHeader, RTP_HEADER_BYTES, RTP_VERSION};

/// Dynamic payload type used for the video (RFC 3551 §6: 96–127 are dynamic).
pub const PT_VIDEO: u8 = 96;
/// SR with the vidcc profile extension.
pub const SR_BYTES: usize = 36;
/// SR without an extension.
pub const SR_PLAIN_BYTES: usize = 28;
/// RR with one report block.
pub const RR_BYTES: usize = 32;
/// RR with no report block.
pub const RR_EMPTY_BYTES: usize = 8;
/// RR with one report block and the receiving-rate extension.
pub const RR_RATE_BYTES: usize = 40;

/// Parses an RTP data header of this profile at the start of `buf` (the rest is payload): the
/// fixed header only (padding, extension or CSRCs are rejected) with payload type [`PT_VIDEO`].
pub fn parse_rtp(buf: &[u8]) -> Result<RtpHeader, WireError> {
    let (h, flags) = RtpHeader::parse_fixed(buf)?;
    if flags != super::rtp::RtpFlags::NONE {
        return Err(WireError::Inconsistent("RTP padding, extension or CSRC list"));
    }
    if h.payload_type != PT_VIDEO {
        return Err(WireError::UnknownType(h.payload_type));
    }
    Ok(h)
}

/// The RTP data header of this profile.
pub fn rtp_header(marker: bool, seq: u16, timestamp: u32, ssrc: u32) -> RtpHeader {
    RtpHeader { marker, payload_type: PT_VIDEO, seq, timestamp, ssrc }
}

/// RTCP Sender Report (RC = 0) with vidcc's RTT extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderReport {
    pub ssrc: u32,
    /// 64-bit NTP timestamp (seconds in the upper half, fraction in the lower).
    pub ntp: u64,
    pub rtp_timestamp: u32,
    pub packet_count: u32,
    pub octet_count: u32,
    /// The sender's smoothed RTT, ns; 0 = unknown (also what an SR without extension gives).
    pub rtt_ns: u64,
}

impl SenderReport {
    pub fn emit(&self) -> HeaderBuf {
        let info = SenderInfo {
            ntp: self.ntp,
            rtp_timestamp: self.rtp_timestamp,
            packet_count: self.packet_count,
            octet_count: self.octet_count,
        };
        RtcpBuilder::new().sr(self.ssrc, info, &[], &self.rtt_ns.to_be_bytes()).finish()
    }

    /// Parses a whole SR datagram.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let RtcpPacket::Sr(sr) = profile_packet(buf, PT_SR)? else {
            return Err(WireError::UnknownType(buf[1]));
        };
        if !sr.reports.is_empty() {
            return Err(WireError::Inconsistent("SR with report blocks (vidcc senders receive nothing)"));
        }
        let rtt_ns = match sr.ext {
            [] => 0,
            &[a, b, c, d, e, f, g, h] => u64::from_be_bytes([a, b, c, d, e, f, g, h]),
            _ => return Err(WireError::Inconsistent("SR length")),
        };
        let i = sr.info;
        Ok(SenderReport {
            ssrc: sr.ssrc,
            ntp: i.ntp,
            rtp_timestamp: i.rtp_timestamp,
            packet_count: i.packet_count,
            octet_count: i.octet_count,
            rtt_ns,
        })
    }
}

/// RTCP Receiver Report with at most one report block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverReport {
    pub ssrc: u32,
    pub block: Option<ReportBlock>,
    /// The receiving rate over the last report interval, bit/s, in the profile-specific
    /// extension; `None`: no extension (the default rule's RR).
    pub rate_bps: Option<u64>,
}

impl ReceiverReport {
    /// Emits the report; `cumulative_lost` is clamped to the 24-bit range.
    pub fn emit(&self) -> HeaderBuf {
        let ext = self.rate_bps.map(u64::to_be_bytes);
        RtcpBuilder::new().rr(self.ssrc, self.block.as_slice(), ext.as_ref().map_or(&[], |e| &e[..])).finish()
    }

    /// Parses a whole RR datagram.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let RtcpPacket::Rr(rr) = profile_packet(buf, PT_RR)? else {
            return Err(WireError::UnknownType(buf[1]));
        };
        if rr.reports.len() > 1 {
            return Err(WireError::Inconsistent("RR with more than one report block"));
        }
        let rate_bps = match rr.ext {
            [] => None,
            &[a, b, c, d, e, f, g, h] => Some(u64::from_be_bytes([a, b, c, d, e, f, g, h])),
            _ => return Err(WireError::Inconsistent("RR length does not match its report count")),
        };
        Ok(ReceiverReport { ssrc: rr.ssrc, block: rr.reports.get(0), rate_bps })
    }
}

/// One RTCP packet of type `pt` filling the datagram exactly, unpadded (this profile sends no
/// compound packets): the profile's checks, then RFC 3550's ([`RtcpPacket::parse`]).
fn profile_packet(buf: &[u8], pt: u8) -> Result<RtcpPacket<'_>, WireError> {
    let mut r = Reader::new(buf);
    r.need(RR_EMPTY_BYTES)?;
    let b0 = r.u8()?;
    if b0 >> 6 != RTP_VERSION {
        return Err(WireError::BadVersion(b0 >> 6));
    }
    if b0 & 0x20 != 0 {
        return Err(WireError::Inconsistent("RTCP padding"));
    }
    let ty = r.u8()?;
    if ty != pt {
        return Err(WireError::UnknownType(ty));
    }
    let (p, len) = RtcpPacket::parse(buf)?;
    if len != buf.len() {
        return Err(WireError::Inconsistent("bytes after the RTCP packet"));
    }
    Ok(p)
}

/// What the receiver may be handed: RTP data or an SR (RFC 5761 §4 demultiplexing on the
/// second byte: 200 is an SR, anything else is tried as RTP).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToReceiver {
    Data(RtpHeader),
    Sr(SenderReport),
}

impl ToReceiver {
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        match buf.get(1) {
            Some(&PT_SR) => SenderReport::parse(buf).map(ToReceiver::Sr),
            _ => parse_rtp(buf).map(ToReceiver::Data),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const RTP: [u8; 12] = [0x80, 0xe0, 0x01, 0x02, 0x00, 0x01, 0x5f, 0x90, 0x76, 0x69, 0x64, 0x63];
    const RTP_HDR: RtpHeader =
        RtpHeader { marker: true, payload_type: PT_VIDEO, seq: 258, timestamp: 90_000, ssrc: 0x7669_6463 };

    #[rustfmt::skip]
    const SR: [u8; 36] = [
        0x80, 200, 0, 8,                    // V=2, RC=0, PT=SR, length 8 words + 1
        0, 0, 0, 1,                         // SSRC 1
        0, 0, 0, 2, 0x80, 0, 0, 0,          // NTP 2.5 s
        0, 3, 0xd0, 0x90,                   // RTP ts 250_000
        0, 0, 0, 10,                        // packets
        0, 0, 0x27, 0x10,                   // octets 10_000
        0, 0, 0, 0, 0x04, 0x2c, 0x1d, 0x80, // rtt 70 ms
    ];
    const SR_PKT: SenderReport = SenderReport {
        ssrc: 1,
        ntp: (2 << 32) | 0x8000_0000,
        rtp_timestamp: 250_000,
        packet_count: 10,
        octet_count: 10_000,
        rtt_ns: 70_000_000,
    };

    #[rustfmt::skip]
    const RR: [u8; 32] = [
        0x81, 201, 0, 7,
        0, 0, 0, 2,                         // SSRC of the receiver
        0, 0, 0, 1,                         // source SSRC
        0x40, 0xff, 0xff, 0xfe,             // fraction 64/256, cumulative −2
        0, 1, 0, 5,                         // ext highest seq: cycle 1, seq 5
        0, 0, 0x01, 0x2c,                   // jitter 300
        0, 2, 0x80, 0,                      // LSR 2.5 s
        0, 0, 0x80, 0,                      // DLSR 0.5 s
    ];
    const RR_PKT: ReceiverReport = ReceiverReport {
        ssrc: 2,
        block: Some(ReportBlock {
            source_ssrc: 1,
            fraction_lost: 64,
            cumulative_lost: -2,
            extended_highest_seq: 65_541,
            jitter: 300,
            lsr: 0x0002_8000,
            dlsr: 0x8000,
        }),
        rate_bps: None,
    };

    #[test]
    fn fixed_vectors() {
        assert_eq!(RTP_HDR.emit().as_slice(), &RTP);
        assert_eq!(parse_rtp(&RTP).unwrap(), RTP_HDR);
        assert_eq!(SR_PKT.emit().as_slice(), &SR);
        assert_eq!(SenderReport::parse(&SR).unwrap(), SR_PKT);
        assert_eq!(RR_PKT.emit().as_slice(), &RR);
        assert_eq!(ReceiverReport::parse(&RR).unwrap(), RR_PKT);
        let empty = ReceiverReport { ssrc: 2, block: None, rate_bps: None };
        assert_eq!(empty.emit().as_slice(), &[0x80, 201, 0, 1, 0, 0, 0, 2]);
        assert_eq!(ReceiverReport::parse(empty.emit().as_slice()).unwrap(), empty);
        // An SR without the extension: 28 bytes, length 6, rtt unknown.
        let mut plain = SR[..28].to_vec();
        plain[3] = 6;
        assert_eq!(SenderReport::parse(&plain).unwrap(), SenderReport { rtt_ns: 0, ..SR_PKT });
        assert_eq!(ToReceiver::parse(&SR).unwrap(), ToReceiver::Sr(SR_PKT));
        assert_eq!(ToReceiver::parse(&RTP).unwrap(), ToReceiver::Data(RTP_HDR));
        // The RR with the receiving-rate extension: the block, then 384 000 bit/s; length 9.
        let with_rate = ReceiverReport { rate_bps: Some(384_000), ..RR_PKT };
        let mut bytes = RR.to_vec();
        bytes[3] = 9;
        bytes.extend([0, 0, 0, 0, 0, 0x05, 0xdc, 0x00]);
        assert_eq!(bytes.len(), RR_RATE_BYTES);
        assert_eq!(with_rate.emit().as_slice(), &bytes[..]);
        assert_eq!(ReceiverReport::parse(&bytes).unwrap(), with_rate);
    }

    #[test]
    fn cumulative_loss_is_clamped_to_24_bits() {
        let mut rr = RR_PKT;
        let b = rr.block.as_mut().unwrap();
        b.cumulative_lost = 10_000_000;
        let p = ReceiverReport::parse(rr.emit().as_slice()).unwrap();
        assert_eq!(p.block.unwrap().cumulative_lost, CUMULATIVE_LOST_MAX);
        rr.block.as_mut().unwrap().cumulative_lost = -10_000_000;
        let p = ReceiverReport::parse(rr.emit().as_slice()).unwrap();
        assert_eq!(p.block.unwrap().cumulative_lost, CUMULATIVE_LOST_MIN);
    }

    #[test]
    fn rejections() {
        assert_eq!(parse_rtp(&RTP[..11]), Err(WireError::Truncated { needed: 12, got: 11 }));
        let mut v = RTP;
        v[0] = 0x40;
        assert_eq!(parse_rtp(&v), Err(WireError::BadVersion(1)));
        for b0 in [0xa0, 0x90, 0x81] {
            v = RTP;
            v[0] = b0; // padding, extension, one CSRC
            assert!(matches!(parse_rtp(&v), Err(WireError::Inconsistent(_))));
        }
        v = RTP;
        v[1] = 0x61;
        assert_eq!(parse_rtp(&v), Err(WireError::UnknownType(97)));

        assert_eq!(SenderReport::parse(&SR[..7]), Err(WireError::Truncated { needed: 8, got: 7 }));
        assert_eq!(SenderReport::parse(&SR[..20]), Err(WireError::Truncated { needed: 36, got: 20 }));
        let mut long = SR.to_vec();
        long.extend([0, 0, 0, 0]);
        assert!(matches!(SenderReport::parse(&long), Err(WireError::Inconsistent(_))));
        long[3] = 9; // length agrees, but 40 bytes is neither SR form
        assert!(matches!(SenderReport::parse(&long), Err(WireError::Inconsistent(_))));
        let mut s = SR;
        s[0] = 0x81; // RC = 1 on an SR
        assert!(matches!(SenderReport::parse(&s), Err(WireError::Inconsistent(_))));
        s = SR;
        s[0] = 0xa0;
        assert!(matches!(SenderReport::parse(&s), Err(WireError::Inconsistent(_))));
        assert_eq!(SenderReport::parse(&RR), Err(WireError::UnknownType(201)));

        assert_eq!(ReceiverReport::parse(&RR[..31]), Err(WireError::Truncated { needed: 32, got: 31 }));
        let mut r = RR;
        r[0] = 0x80; // RC = 0 but 32 bytes
        assert!(matches!(ReceiverReport::parse(&r), Err(WireError::Inconsistent(_))));
        r = RR;
        r[0] = 0x82;
        assert!(matches!(ReceiverReport::parse(&r), Err(WireError::Inconsistent(_))));
        r = RR;
        r[0] = 0x01;
        assert_eq!(ReceiverReport::parse(&r), Err(WireError::BadVersion(0)));
        let mut long = RR.to_vec();
        long.push(0);
        assert!(matches!(ReceiverReport::parse(&long), Err(WireError::Inconsistent(_))));
        assert_eq!(ReceiverReport::parse(&SR), Err(WireError::UnknownType(200)));
        // An extension of one word or three words (length agrees) is not the 8-byte rate.
        for words in [1u8, 3] {
            let mut ext = RR.to_vec();
            ext[3] = 7 + words;
            ext.extend(std::iter::repeat_n(0, 4 * words as usize));
            assert!(matches!(ReceiverReport::parse(&ext), Err(WireError::Inconsistent(_))));
        }
    }

    proptest! {
        #[test]
        fn round_trips(marker: bool, seq: u16, ts: u32, ssrc: u32, ntp: u64, pc: u32, oc: u32, rtt: u64,
                       frac: u8, lost in CUMULATIVE_LOST_MIN..=CUMULATIVE_LOST_MAX, ehs: u32, j: u32, lsr: u32,
                       dlsr: u32, has_block: bool, rate_bps: Option<u64>) {
            let h = rtp_header(marker, seq, ts, ssrc);
            prop_assert_eq!(parse_rtp(h.emit().as_slice()).unwrap(), h);
            let sr = SenderReport { ssrc, ntp, rtp_timestamp: ts, packet_count: pc, octet_count: oc, rtt_ns: rtt };
            prop_assert_eq!(SenderReport::parse(sr.emit().as_slice()).unwrap(), sr);
            let block = has_block.then_some(ReportBlock {
                source_ssrc: ssrc, fraction_lost: frac, cumulative_lost: lost, extended_highest_seq: ehs,
                jitter: j, lsr, dlsr,
            });
            let rr = ReceiverReport { ssrc, block, rate_bps };
            prop_assert_eq!(ReceiverReport::parse(rr.emit().as_slice()).unwrap(), rr);
        }
        #[test]
        fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = parse_rtp(&bytes);
            let _ = SenderReport::parse(&bytes);
            let _ = ReceiverReport::parse(&bytes);
            let _ = ToReceiver::parse(&bytes);
        }
        #[test]
        fn never_panics_on_mutated_vectors(i in 0usize..36, v: u8, cut in 0usize..37) {
            let mut s = SR.to_vec();
            s[i] = v;
            let _ = SenderReport::parse(&s[..cut]);
            let mut r = RR.to_vec();
            r[i % 32] = v;
            let _ = ReceiverReport::parse(&r[..cut.min(32)]);
        }
    }
}
