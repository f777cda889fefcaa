//! RTP data header and the two RTCP packets of the `rtcp-udp` baseline (DVRC digest
//! `specs/000-dvrc.md` §1.3 "RTCP over UDP"; layouts from RFC 3550 \[X\]).
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
//! the receiver can hold its immediate reports to one per RTT (digest \[D\]); the RFC gives
//! only senders an RTT. An SR without the extension (28 bytes, length field 6) is accepted.
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
//! Validation: version 2, no padding, the length field (32-bit words minus one) must match the
//! report count exactly and the datagram must be exactly that long (RTCP packets carry no
//! payload; compound packets are not used), at most one report block (one source).

use super::{Reader, WireError, Writer};
use crate::endpoint::HeaderBuf;

pub const RTP_VERSION: u8 = 2;
/// Dynamic payload type used for the video (RFC 3551 §6: 96–127 are dynamic).
pub const PT_VIDEO: u8 = 96;
pub const PT_SR: u8 = 200;
pub const PT_RR: u8 = 201;
pub const RTP_HEADER_BYTES: usize = 12;
/// SR with the vidcc profile extension.
pub const SR_BYTES: usize = 36;
/// SR without an extension.
pub const SR_PLAIN_BYTES: usize = 28;
/// RR with one report block.
pub const RR_BYTES: usize = 32;
/// RR with no report block.
pub const RR_EMPTY_BYTES: usize = 8;

/// RTP fixed header (no CSRC, no extension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtpHeader {
    pub marker: bool,
    pub seq: u16,
    pub timestamp: u32,
    pub ssrc: u32,
}

impl RtpHeader {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(RTP_HEADER_BYTES);
        Writer::new(h.bytes_mut())
            .u8(RTP_VERSION << 6)
            .u8(((self.marker as u8) << 7) | PT_VIDEO)
            .u16(self.seq)
            .u32(self.timestamp)
            .u32(self.ssrc);
        h
    }

    /// Parses the header at the start of `buf`; the rest is payload.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(RTP_HEADER_BYTES)?;
        let b0 = r.u8()?;
        if b0 >> 6 != RTP_VERSION {
            return Err(WireError::BadVersion(b0 >> 6));
        }
        if b0 & 0x3f != 0 {
            return Err(WireError::Inconsistent("RTP padding, extension or CSRC list"));
        }
        let b1 = r.u8()?;
        if b1 & 0x7f != PT_VIDEO {
            return Err(WireError::UnknownType(b1 & 0x7f));
        }
        Ok(RtpHeader { marker: b1 & 0x80 != 0, seq: r.u16()?, timestamp: r.u32()?, ssrc: r.u32()? })
    }
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
        let mut h = HeaderBuf::writer(SR_BYTES);
        Writer::new(h.bytes_mut())
            .u8(RTP_VERSION << 6)
            .u8(PT_SR)
            .u16((SR_BYTES / 4 - 1) as u16)
            .u32(self.ssrc)
            .u64(self.ntp)
            .u32(self.rtp_timestamp)
            .u32(self.packet_count)
            .u32(self.octet_count)
            .u64(self.rtt_ns);
        h
    }

    /// Parses a whole SR datagram.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        let rc = rtcp_header(&mut r, buf, PT_SR)?;
        if rc != 0 {
            return Err(WireError::Inconsistent("SR with report blocks (vidcc senders receive nothing)"));
        }
        if buf.len() != SR_BYTES && buf.len() != SR_PLAIN_BYTES {
            return Err(WireError::Inconsistent("SR length"));
        }
        let mut sr = SenderReport {
            ssrc: r.u32()?,
            ntp: r.u64()?,
            rtp_timestamp: r.u32()?,
            packet_count: r.u32()?,
            octet_count: r.u32()?,
            rtt_ns: 0,
        };
        if buf.len() == SR_BYTES {
            sr.rtt_ns = r.u64()?;
        }
        Ok(sr)
    }
}

/// One reception report block (RFC 3550 §6.4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReportBlock {
    pub source_ssrc: u32,
    /// Lost / expected since the previous report, as a fixed-point fraction ×256.
    pub fraction_lost: u8,
    /// Expected − received since the start, a 24-bit signed value (duplicates can make it < 0).
    pub cumulative_lost: i32,
    pub extended_highest_seq: u32,
    /// Interarrival jitter in RTP timestamp units.
    pub jitter: u32,
    /// Middle 32 bits of the last SR's NTP timestamp; 0 if none.
    pub lsr: u32,
    /// Delay since that SR, 1/65536 s; 0 if none.
    pub dlsr: u32,
}

/// Range of the 24-bit signed cumulative-loss field.
pub const CUMULATIVE_LOST_MIN: i32 = -(1 << 23);
pub const CUMULATIVE_LOST_MAX: i32 = (1 << 23) - 1;

/// RTCP Receiver Report with at most one report block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverReport {
    pub ssrc: u32,
    pub block: Option<ReportBlock>,
}

impl ReceiverReport {
    /// Emits the report; `cumulative_lost` is clamped to the 24-bit range.
    pub fn emit(&self) -> HeaderBuf {
        let len = if self.block.is_some() { RR_BYTES } else { RR_EMPTY_BYTES };
        let mut h = HeaderBuf::writer(len);
        let mut w = Writer::new(h.bytes_mut());
        w.u8((RTP_VERSION << 6) | self.block.is_some() as u8).u8(PT_RR).u16((len / 4 - 1) as u16).u32(self.ssrc);
        if let Some(b) = self.block {
            let lost = b.cumulative_lost.clamp(CUMULATIVE_LOST_MIN, CUMULATIVE_LOST_MAX) as u32 & 0x00ff_ffff;
            w.u32(b.source_ssrc)
                .u32(((b.fraction_lost as u32) << 24) | lost)
                .u32(b.extended_highest_seq)
                .u32(b.jitter)
                .u32(b.lsr)
                .u32(b.dlsr);
        }
        h
    }

    /// Parses a whole RR datagram.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        let rc = rtcp_header(&mut r, buf, PT_RR)?;
        let expect = match rc {
            0 => RR_EMPTY_BYTES,
            1 => RR_BYTES,
            _ => return Err(WireError::Inconsistent("RR with more than one report block")),
        };
        if buf.len() != expect {
            return Err(WireError::Inconsistent("RR length does not match its report count"));
        }
        let ssrc = r.u32()?;
        let block = if rc == 1 {
            let source_ssrc = r.u32()?;
            let w = r.u32()?;
            // Sign-extend the 24-bit cumulative loss.
            let cumulative_lost = ((w << 8) as i32) >> 8;
            Some(ReportBlock {
                source_ssrc,
                fraction_lost: (w >> 24) as u8,
                cumulative_lost,
                extended_highest_seq: r.u32()?,
                jitter: r.u32()?,
                lsr: r.u32()?,
                dlsr: r.u32()?,
            })
        } else {
            None
        };
        Ok(ReceiverReport { ssrc, block })
    }
}

/// Reads the common RTCP header (RFC 3550 §6.4.1): checks V = 2, P = 0, the packet type, and that
/// the datagram is exactly `4·(length + 1)` bytes. Returns the report count.
fn rtcp_header(r: &mut Reader<'_>, buf: &[u8], pt: u8) -> Result<u8, WireError> {
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
    let words = r.u16()? as usize + 1;
    if words * 4 > buf.len() {
        return Err(WireError::Truncated { needed: words * 4, got: buf.len() });
    }
    if words * 4 != buf.len() {
        return Err(WireError::Inconsistent("bytes after the RTCP packet"));
    }
    Ok(b0 & 0x1f)
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
            _ => RtpHeader::parse(buf).map(ToReceiver::Data),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const RTP: [u8; 12] = [0x80, 0xe0, 0x01, 0x02, 0x00, 0x01, 0x5f, 0x90, 0x76, 0x69, 0x64, 0x63];
    const RTP_HDR: RtpHeader = RtpHeader { marker: true, seq: 258, timestamp: 90_000, ssrc: 0x7669_6463 };

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
    };

    #[test]
    fn fixed_vectors() {
        assert_eq!(RTP_HDR.emit().as_slice(), &RTP);
        assert_eq!(RtpHeader::parse(&RTP).unwrap(), RTP_HDR);
        assert_eq!(SR_PKT.emit().as_slice(), &SR);
        assert_eq!(SenderReport::parse(&SR).unwrap(), SR_PKT);
        assert_eq!(RR_PKT.emit().as_slice(), &RR);
        assert_eq!(ReceiverReport::parse(&RR).unwrap(), RR_PKT);
        let empty = ReceiverReport { ssrc: 2, block: None };
        assert_eq!(empty.emit().as_slice(), &[0x80, 201, 0, 1, 0, 0, 0, 2]);
        assert_eq!(ReceiverReport::parse(empty.emit().as_slice()).unwrap(), empty);
        // An SR without the extension: 28 bytes, length 6, rtt unknown.
        let mut plain = SR[..28].to_vec();
        plain[3] = 6;
        assert_eq!(SenderReport::parse(&plain).unwrap(), SenderReport { rtt_ns: 0, ..SR_PKT });
        assert_eq!(ToReceiver::parse(&SR).unwrap(), ToReceiver::Sr(SR_PKT));
        assert_eq!(ToReceiver::parse(&RTP).unwrap(), ToReceiver::Data(RTP_HDR));
    }

    #[test]
    fn ntp_conversions() {
        // 2.5 s → seconds 2, fraction 0.5 · 2^32.
        assert_eq!(ntp_from_ns(2_500_000_000), (2 << 32) | 0x8000_0000);
        assert_eq!(ntp_middle(ntp_from_ns(2_500_000_000)), 0x0002_8000);
        assert_eq!(ns_to_short(500_000_000), 0x8000);
        assert_eq!(short_to_ns(0x8000), 500_000_000);
        // 70 ms = 4587.52 units → 4587 (rounded down).
        assert_eq!(ns_to_short(70_000_000), 4587);
        assert_eq!(ns_to_short(u64::MAX), u32::MAX);
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
        assert_eq!(RtpHeader::parse(&RTP[..11]), Err(WireError::Truncated { needed: 12, got: 11 }));
        let mut v = RTP;
        v[0] = 0x40;
        assert_eq!(RtpHeader::parse(&v), Err(WireError::BadVersion(1)));
        for b0 in [0xa0, 0x90, 0x81] {
            v = RTP;
            v[0] = b0; // padding, extension, one CSRC
            assert!(matches!(RtpHeader::parse(&v), Err(WireError::Inconsistent(_))));
        }
        v = RTP;
        v[1] = 0x61;
        assert_eq!(RtpHeader::parse(&v), Err(WireError::UnknownType(97)));

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
    }

    proptest! {
        #[test]
        fn round_trips(marker: bool, seq: u16, ts: u32, ssrc: u32, ntp: u64, pc: u32, oc: u32, rtt: u64,
                       frac: u8, lost in CUMULATIVE_LOST_MIN..=CUMULATIVE_LOST_MAX, ehs: u32, j: u32, lsr: u32,
                       dlsr: u32, has_block: bool) {
            let h = RtpHeader { marker, seq, timestamp: ts, ssrc };
            prop_assert_eq!(RtpHeader::parse(h.emit().as_slice()).unwrap(), h);
            let sr = SenderReport { ssrc, ntp, rtp_timestamp: ts, packet_count: pc, octet_count: oc, rtt_ns: rtt };
            prop_assert_eq!(SenderReport::parse(sr.emit().as_slice()).unwrap(), sr);
            let block = has_block.then_some(ReportBlock {
                source_ssrc: ssrc, fraction_lost: frac, cumulative_lost: lost, extended_highest_seq: ehs,
                jitter: j, lsr, dlsr,
            });
            let rr = ReceiverReport { ssrc, block };
            prop_assert_eq!(ReceiverReport::parse(rr.emit().as_slice()).unwrap(), rr);
        }
        #[test]
        fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = RtpHeader::parse(&bytes);
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
