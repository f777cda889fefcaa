//! The RTP data packet header of RFC 3550 §5.1 and §5.3.1, with its CSRC list, header
//! extension and padding, validated as RFC 3550 Appendix A.1 says.
//!
//! ```text
//!  0                   1                   2                   3
//!  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
//! +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
//! |V=2|P|X|  CC   |M|     PT      |       sequence number         |
//! |                           timestamp                           |
//! |           synchronization source (SSRC) identifier            |
//! |            contributing source (CSRC) identifiers (CC×)       |
//! |      defined by profile       |           length              |   } if X = 1 (§5.3.1):
//! |                        header extension (length × 32 bits)    |   }
//! |                 payload ...                   | padding | count |  if P = 1
//! ```
//!
//! [`RtpHeader`] is the 12-byte fixed part; [`RtpPacket::parse`] reads a whole datagram and
//! checks: version 2; a payload type that is not one of RTCP's SR/RR (72–76 after masking the
//! marker, A.1 / RFC 5761 §4); the CSRC list and the extension (its length field counts 32-bit
//! words after its 4-byte header) inside the datagram; with P = 1 a padding count of at least 1
//! that does not reach into the header. In simulation the payload is virtual: the parser is given
//! the header bytes plus the count of virtual payload bytes (`total_len`), so padding, which ends
//! the datagram, can only be checked where the bytes are real; vidcc's emitters send no padding.
//! Profiles restrict this further (the `rtcp-udp` profile in [`super::rtcp_udp`] accepts only the
//! fixed header with its one payload type).

use super::{Reader, WireError, Writer};
use crate::endpoint::{HeaderBuf, MAX_HEADER_BYTES};

pub const RTP_VERSION: u8 = 2;
/// The fixed header.
pub const RTP_HEADER_BYTES: usize = 12;
/// The header extension's own header (profile-defined 16 bits and a 16-bit length).
pub const EXTENSION_HEADER_BYTES: usize = 4;
/// At most 15 contributing sources (the 4-bit CC field).
pub const MAX_CSRCS: usize = 15;

/// The RTP fixed header (RFC 3550 §5.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtpHeader {
    pub marker: bool,
    /// 7 bits.
    pub payload_type: u8,
    pub seq: u16,
    pub timestamp: u32,
    pub ssrc: u32,
}

/// The fixed header's flag bits: what follows the 12 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtpFlags {
    pub padding: bool,
    pub extension: bool,
    pub csrc_count: u8,
}

impl RtpFlags {
    pub const NONE: RtpFlags = RtpFlags { padding: false, extension: false, csrc_count: 0 };
}

/// A header extension (RFC 3550 §5.3.1): a profile-defined 16-bit value and a whole number of
/// 32-bit words of data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtpExtension<'a> {
    pub profile: u16,
    pub data: &'a [u8],
}

impl RtpHeader {
    /// Emits the 12-byte fixed header (no CSRC, no extension, no padding).
    pub fn emit(&self) -> HeaderBuf {
        self.emit_with(&[], None)
    }

    /// Emits the header with a CSRC list and an extension. Panics if the CSRC list is longer
    /// than 15, the payload type has more than 7 bits, the extension data is not whole 32-bit
    /// words or the header exceeds [`MAX_HEADER_BYTES`]: those are emitter bugs, never input.
    pub fn emit_with(&self, csrcs: &[u32], extension: Option<RtpExtension<'_>>) -> HeaderBuf {
        assert!(csrcs.len() <= MAX_CSRCS, "RTP header with {} CSRCs", csrcs.len());
        assert!(self.payload_type < 0x80, "RTP payload type {} exceeds 7 bits", self.payload_type);
        let ext_len = extension.map_or(0, |e| {
            assert!(e.data.len().is_multiple_of(4), "RTP extension of {} bytes is not whole words", e.data.len());
            EXTENSION_HEADER_BYTES + e.data.len()
        });
        let len = RTP_HEADER_BYTES + 4 * csrcs.len() + ext_len;
        assert!(len <= MAX_HEADER_BYTES, "RTP header of {len} bytes");
        let mut h = HeaderBuf::writer(len);
        let mut w = Writer::new(h.bytes_mut());
        w.u8((RTP_VERSION << 6) | ((extension.is_some() as u8) << 4) | csrcs.len() as u8)
            .u8(((self.marker as u8) << 7) | self.payload_type)
            .u16(self.seq)
            .u32(self.timestamp)
            .u32(self.ssrc);
        for &c in csrcs {
            w.u32(c);
        }
        if let Some(e) = extension {
            w.u16(e.profile).u16((e.data.len() / 4) as u16).bytes(e.data);
        }
        h
    }

    /// Parses the fixed header at the start of `buf` (version checked, nothing else): what a
    /// profile reads before deciding which flags it allows.
    pub fn parse_fixed(buf: &[u8]) -> Result<(RtpHeader, RtpFlags), WireError> {
        let mut r = Reader::new(buf);
        r.need(RTP_HEADER_BYTES)?;
        let b0 = r.u8()?;
        if b0 >> 6 != RTP_VERSION {
            return Err(WireError::BadVersion(b0 >> 6));
        }
        let b1 = r.u8()?;
        let flags = RtpFlags { padding: b0 & 0x20 != 0, extension: b0 & 0x10 != 0, csrc_count: b0 & 0x0f };
        let header = RtpHeader {
            marker: b1 & 0x80 != 0,
            payload_type: b1 & 0x7f,
            seq: r.u16()?,
            timestamp: r.u32()?,
            ssrc: r.u32()?,
        };
        Ok((header, flags))
    }
}

/// A parsed RTP packet: the fixed header, its CSRC list and extension, and where the payload is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RtpPacket<'a> {
    pub header: RtpHeader,
    /// The CSRC list, 4 bytes each (read them with [`RtpPacket::csrcs`]).
    csrc_bytes: &'a [u8],
    pub extension: Option<RtpExtension<'a>>,
    /// Bytes of header: fixed part, CSRCs and extension.
    pub header_len: usize,
    /// Padding bytes at the end of the datagram (0 without P).
    pub padding: usize,
}

impl<'a> RtpPacket<'a> {
    /// Parses a datagram whose first bytes are `buf` and whose whole length is `total_len`
    /// (`buf.len()` on a socket; header plus virtual payload in simulation). Padding is read from
    /// the last byte, so it needs `total_len == buf.len()`: a padded packet whose end is
    /// virtual is rejected.
    pub fn parse(buf: &'a [u8], total_len: usize) -> Result<Self, WireError> {
        if total_len < buf.len() {
            return Err(WireError::Inconsistent("RTP datagram shorter than its bytes"));
        }
        let (header, flags) = RtpHeader::parse_fixed(buf)?;
        // A.1 / RFC 5761 §4: 72–76 would be RTCP SR..APP seen through the marker bit.
        if (72..=76).contains(&header.payload_type) {
            return Err(WireError::UnknownType(header.payload_type));
        }
        let mut r = Reader::new(buf);
        r.bytes(RTP_HEADER_BYTES)?;
        let csrc_bytes = r.bytes(4 * flags.csrc_count as usize)?;
        let extension = if flags.extension {
            let profile = r.u16()?;
            let words = r.u16()? as usize;
            Some(RtpExtension { profile, data: r.bytes(4 * words)? })
        } else {
            None
        };
        let header_len = r.pos();
        let padding = if flags.padding {
            if total_len != buf.len() {
                return Err(WireError::Inconsistent("RTP padding at the end of a virtual payload"));
            }
            let count = buf[buf.len() - 1] as usize;
            if count == 0 {
                return Err(WireError::Inconsistent("RTP padding count of zero"));
            }
            if header_len + count > total_len {
                return Err(WireError::Inconsistent("RTP padding reaches into the header"));
            }
            count
        } else {
            0
        };
        Ok(RtpPacket { header, csrc_bytes, extension, header_len, padding })
    }

    /// The contributing sources, in order.
    pub fn csrcs(&self) -> impl Iterator<Item = u32> + 'a {
        self.csrc_bytes.chunks_exact(4).map(|c| u32::from_be_bytes([c[0], c[1], c[2], c[3]]))
    }

    /// Payload bytes of a datagram of `total_len` bytes (what is neither header nor padding).
    pub fn payload_len(&self, total_len: usize) -> usize {
        total_len.saturating_sub(self.header_len + self.padding)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// RFC 3550 §5.1 laid out by hand: V=2, X=1, CC=2, M=1, PT=96, seq 0x1234, ts 0xdeadbeef,
    /// SSRC 0x01020304, CSRCs 5 and 6, extension profile 0xbede with one word 0xcafef00d.
    #[rustfmt::skip]
    const FULL: [u8; 32] = [
        0x92, 0xe0, 0x12, 0x34,
        0xde, 0xad, 0xbe, 0xef,
        0x01, 0x02, 0x03, 0x04,
        0, 0, 0, 5,
        0, 0, 0, 6,
        0xbe, 0xde, 0, 1,
        0xca, 0xfe, 0xf0, 0x0d,
        // two bytes of payload, then a padding count that covers them and itself
        0xaa, 0xbb, 0xcc, 0x04,
    ];
    const HDR: RtpHeader =
        RtpHeader { marker: true, payload_type: 96, seq: 0x1234, timestamp: 0xdead_beef, ssrc: 0x0102_0304 };

    #[test]
    fn fixed_vector_with_csrcs_and_extension() {
        let ext = RtpExtension { profile: 0xbede, data: &[0xca, 0xfe, 0xf0, 0x0d] };
        let emitted = HDR.emit_with(&[5, 6], Some(ext));
        // The emitter sends no padding: same bytes with P clear, up to the payload.
        let expect = FULL[..28].to_vec();
        assert_eq!(emitted.as_slice(), &expect[..]);
        let p = RtpPacket::parse(&expect, 28 + 100).unwrap();
        assert_eq!((p.header, p.header_len, p.padding, p.extension), (HDR, 28, 0, Some(ext)));
        assert_eq!(p.csrcs().collect::<Vec<_>>(), vec![5, 6]);
        assert_eq!(p.payload_len(128), 100);
        // With P set on the real bytes: the last 4 bytes are padding.
        let mut padded = FULL;
        padded[0] |= 0x20;
        let p = RtpPacket::parse(&padded, 32).unwrap();
        assert_eq!((p.padding, p.payload_len(32)), (4, 0));
        let plain = HDR.emit();
        assert_eq!(plain.as_slice(), &[0x80, 0xe0, 0x12, 0x34, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4]);
        assert_eq!(RtpHeader::parse_fixed(plain.as_slice()).unwrap(), (HDR, RtpFlags::NONE));
    }

    #[test]
    fn rejections() {
        let mut v = FULL;
        v[0] = 0x52; // version 1
        assert_eq!(RtpPacket::parse(&v, 32), Err(WireError::BadVersion(1)));
        assert_eq!(RtpPacket::parse(&FULL[..11], 11), Err(WireError::Truncated { needed: 12, got: 11 }));
        // CSRC list overruns: CC = 15 needs 72 bytes.
        v = FULL;
        v[0] = 0x8f;
        assert_eq!(RtpPacket::parse(&v, 32), Err(WireError::Truncated { needed: 72, got: 32 }));
        // Extension length overruns: 200 words.
        v = FULL;
        v[23] = 200;
        assert_eq!(RtpPacket::parse(&v, 32), Err(WireError::Truncated { needed: 824, got: 32 }));
        // Extension header itself cut off.
        assert_eq!(RtpPacket::parse(&FULL[..22], 22), Err(WireError::Truncated { needed: 24, got: 22 }));
        // Padding: zero count, a count reaching into the header, and padding on a virtual end.
        v = FULL;
        v[0] |= 0x20;
        v[31] = 0;
        assert!(matches!(RtpPacket::parse(&v, 32), Err(WireError::Inconsistent(_))));
        v[31] = 5;
        assert!(matches!(RtpPacket::parse(&v, 32), Err(WireError::Inconsistent(_))));
        v[31] = 4;
        assert!(matches!(RtpPacket::parse(&v, 33), Err(WireError::Inconsistent(_))));
        assert!(matches!(RtpPacket::parse(&v, 31), Err(WireError::Inconsistent(_))));
        // An RTCP SR (200) seen as RTP: PT 72 with the marker set.
        v = FULL;
        v[1] = 200;
        assert_eq!(RtpPacket::parse(&v, 32), Err(WireError::UnknownType(72)));
    }

    proptest! {
        #[test]
        fn round_trips(marker: bool, pt in 0u8..72, seq: u16, ts: u32, ssrc: u32,
                       csrcs in proptest::collection::vec(any::<u32>(), 0..4),
                       ext in proptest::option::of((any::<u16>(), proptest::collection::vec(any::<u8>(), 0..3))),
                       payload in 0usize..1500) {
            let h = RtpHeader { marker, payload_type: pt, seq, timestamp: ts, ssrc };
            let words: Vec<u8> = ext.as_ref().map_or(vec![], |(_, w)| w.iter().flat_map(|&b| [b, 1, 2, 3]).collect());
            let e = ext.map(|(profile, _)| RtpExtension { profile, data: &words });
            let buf = h.emit_with(&csrcs, e);
            let p = RtpPacket::parse(buf.as_slice(), buf.len() + payload).unwrap();
            prop_assert_eq!(p.header, h);
            prop_assert_eq!(p.extension, e);
            prop_assert_eq!(p.csrcs().collect::<Vec<_>>(), csrcs);
            prop_assert_eq!(p.payload_len(buf.len() + payload), payload);
        }

        #[test]
        fn never_panics_and_errors_are_typed(bytes in proptest::collection::vec(any::<u8>(), 0..96), extra in 0usize..3) {
            match RtpPacket::parse(&bytes, bytes.len() + extra) {
                Ok(p) => prop_assert!(p.header_len + p.padding <= bytes.len() + extra),
                Err(WireError::Truncated { needed, got }) => prop_assert!(needed > got),
                Err(WireError::BadVersion(v)) => prop_assert_ne!(v, RTP_VERSION),
                Err(WireError::UnknownType(t)) => prop_assert!((72..=76).contains(&t)),
                Err(WireError::Inconsistent(_)) => {}
                Err(WireError::Implausible(why)) => prop_assert!(false, "a parser judged plausibility: {}", why),
            }
        }
    }
}
