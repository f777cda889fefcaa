//! SSVP header (docs/papers/ssvp.md §1.1.2; paper Fig. 1, whose image is missing from the seed).
//!
//! The paper names the fields — packet type, sequence number, packet length, frame type, the
//! congestion indicator CIn (a 2-bit field of which one bit is used), timestamp, and reserved
//! space holding one bit that flags "the timestamp field carries STO" \[P\] — but not their
//! widths \[U\]. vidcc uses 24 bytes for both packet types, big-endian:
//!
//! ```text
//!  byte 0        byte 1                         bytes 2-3
//!  +------------+------------------------------+-----------------------------+
//!  | ver:4 ty:4 | ftype:2 CIn:2 F:1 reserved:3 | length (u16, whole datagram)|
//!  +------------+------------------------------+-----------------------------+
//!  data     (ty = 0): seq (u32) | timestamp (u64, ns; STO in ns when F = 1)
//!                     | frame (u32; u32::MAX = no media) | layer (u8) | layers k (u8) | 0 (u16)
//!  control  (ty = 1): ack seq (u32) | echoed timestamp (u64; 0 when F = 1: no RTT sample)
//!                     | buffered bytes Σ_{i<k} buf_i (u32) | layers k (u8) | 0 (u8) | 0 (u16)
//! ```
//!
//! - `ver` = 1. `ty`: 0 data, 1 control; anything else is [`WireError::UnknownType`].
//! - `ftype`: frame type code (0 none, 1 I, 2 P, 3 B) on data packets; must be 0 on control.
//! - `CIn`: 0 or 1 on control packets (2 and 3 are inconsistent: only one bit is defined); must
//!   be 0 on data packets.
//! - `F`: on data, the timestamp field holds the sender's STO (§3.1 \[P\]); on control, the echo
//!   is not valid (a receiver-timeout report, or the answer to an STO-carrying packet) \[U\].
//! - `length`: the datagram's total size (header + payload), at least the header. A parser
//!   that sees only the header cannot check it; [`SsvpPacket::parse_datagram`] does.
//! - Media fields (vidcc additions: the paper's header has no frame id or layer, but the
//!   receiver-buffered layered scheme keeps per-layer buffers at the receiver, §4): `layers` is
//!   the active layer count k of the layered adaptation (0: not layered) and a data packet's
//!   `layer` must be below it; a non-media packet has frame type 0 and layer 0.
//!   A control packet reports the receiver's buffered bytes over the active layers of the k it
//!   names (0 when not layered).
//!
//! Wider than docs/papers/ssvp.md's 12-byte suggestion: 64-bit nanosecond timestamps never wrap,
//! and the media fields need 6 bytes.

use super::{Reader, WireError, Writer};
use crate::endpoint::HeaderBuf;

pub const VERSION: u8 = 1;
pub const TYPE_DATA: u8 = 0;
pub const TYPE_CONTROL: u8 = 1;
/// Header bytes of both packet types.
pub const HEADER_BYTES: usize = 24;
/// Most layers a header may name (`media::layers::MAX_LAYERS`).
pub const MAX_LAYERS: u8 = crate::media::layers::MAX_LAYERS as u8;
/// `frame` of a packet that carries no media.
pub const NO_FRAME: u32 = u32::MAX;

const FLAG_F: u8 = 0x08;
const RESERVED_BITS: u8 = 0x07;

/// A data packet's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    /// Whole datagram bytes.
    pub length: u16,
    pub seq: u32,
    /// Send time in ns (`carries_sto = false`) or the sender's STO in ns (`true`).
    pub timestamp_ns: u64,
    pub carries_sto: bool,
    /// `FrameType::code()` (0: none).
    pub frame_type: u8,
    pub frame: u32,
    pub layer: u8,
    /// Active layer count k (0: not layered).
    pub layers: u8,
}

/// A control packet's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ControlHeader {
    pub length: u16,
    /// Sequence number of the data packet answered (the highest seen, for a timeout report).
    pub ack: u32,
    /// Congestion indicator CIn.
    pub congestion: bool,
    /// The echoed send timestamp; `None` when the echo carries no RTT sample.
    pub echo_ns: Option<u64>,
    /// Receiver's buffered bytes over the active layers (saturating).
    pub buffered_bytes: u32,
    /// The layer count the buffer report refers to (0: not layered).
    pub layers: u8,
}

/// Either SSVP packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SsvpPacket {
    Data(DataHeader),
    Control(ControlHeader),
}

impl DataHeader {
    pub fn emit(&self) -> HeaderBuf {
        debug_assert!(self.frame_type <= 3 && (self.layers == 0 || self.layer < self.layers));
        let mut h = HeaderBuf::writer(HEADER_BYTES);
        let flags = (self.frame_type & 3) << 6 | if self.carries_sto { FLAG_F } else { 0 };
        Writer::new(h.bytes_mut())
            .u8(VERSION << 4 | TYPE_DATA)
            .u8(flags)
            .u16(self.length)
            .u32(self.seq)
            .u64(self.timestamp_ns)
            .u32(self.frame)
            .u8(self.layer)
            .u8(self.layers)
            .u16(0);
        h
    }
}

impl ControlHeader {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(HEADER_BYTES);
        let flags = u8::from(self.congestion) << 4 | if self.echo_ns.is_none() { FLAG_F } else { 0 };
        Writer::new(h.bytes_mut())
            .u8(VERSION << 4 | TYPE_CONTROL)
            .u8(flags)
            .u16(self.length)
            .u32(self.ack)
            .u64(self.echo_ns.unwrap_or(0))
            .u32(self.buffered_bytes)
            .u8(self.layers)
            .u8(0)
            .u16(0);
        h
    }
}

impl SsvpPacket {
    /// Parses the header at the start of `buf` (trailing bytes are payload).
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(HEADER_BYTES)?;
        let b0 = r.u8()?;
        if b0 >> 4 != VERSION {
            return Err(WireError::BadVersion(b0 >> 4));
        }
        let ty = b0 & 0x0f;
        let flags = r.u8()?;
        if flags & RESERVED_BITS != 0 {
            return Err(WireError::Inconsistent("reserved bits set"));
        }
        let frame_type = flags >> 6;
        let cin = (flags >> 4) & 3;
        let f = flags & FLAG_F != 0;
        let length = r.u16()?;
        if (length as usize) < HEADER_BYTES {
            return Err(WireError::Inconsistent("length shorter than the header"));
        }
        match ty {
            TYPE_DATA => {
                if cin != 0 {
                    return Err(WireError::Inconsistent("CIn set on a data packet"));
                }
                let seq = r.u32()?;
                let timestamp_ns = r.u64()?;
                let frame = r.u32()?;
                let layer = r.u8()?;
                let layers = r.u8()?;
                if r.u16()? != 0 {
                    return Err(WireError::Inconsistent("reserved bytes set"));
                }
                if frame == NO_FRAME && (frame_type != 0 || layer != 0) {
                    return Err(WireError::Inconsistent("media fields on a packet without media"));
                }
                if layers > MAX_LAYERS {
                    return Err(WireError::Inconsistent("more layers than supported"));
                }
                if layers != 0 && layer >= layers {
                    return Err(WireError::Inconsistent("layer not among the active layers"));
                }
                Ok(SsvpPacket::Data(DataHeader {
                    length,
                    seq,
                    timestamp_ns,
                    carries_sto: f,
                    frame_type,
                    frame,
                    layer,
                    layers,
                }))
            }
            TYPE_CONTROL => {
                if frame_type != 0 {
                    return Err(WireError::Inconsistent("frame type on a control packet"));
                }
                if cin > 1 {
                    return Err(WireError::Inconsistent("CIn value other than 0 or 1"));
                }
                let ack = r.u32()?;
                let echo = r.u64()?;
                let buffered_bytes = r.u32()?;
                let layers = r.u8()?;
                if r.u8()? != 0 || r.u16()? != 0 {
                    return Err(WireError::Inconsistent("reserved bytes set"));
                }
                if f && echo != 0 {
                    return Err(WireError::Inconsistent("echo present on a no-echo control packet"));
                }
                if layers > MAX_LAYERS {
                    return Err(WireError::Inconsistent("more layers than supported"));
                }
                if layers == 0 && buffered_bytes != 0 {
                    return Err(WireError::Inconsistent("buffer report without layers"));
                }
                Ok(SsvpPacket::Control(ControlHeader {
                    length,
                    ack,
                    congestion: cin == 1,
                    echo_ns: (!f).then_some(echo),
                    buffered_bytes,
                    layers,
                }))
            }
            other => Err(WireError::UnknownType(other)),
        }
    }

    /// Parses a whole datagram of `wire_size` bytes (header + payload, payload possibly
    /// virtual) and checks the length field against it.
    pub fn parse_datagram(buf: &[u8], wire_size: usize) -> Result<Self, WireError> {
        let p = Self::parse(buf)?;
        if p.length() as usize != wire_size {
            return Err(WireError::Inconsistent("length field differs from the datagram size"));
        }
        Ok(p)
    }

    pub fn length(&self) -> u16 {
        match self {
            SsvpPacket::Data(d) => d.length,
            SsvpPacket::Control(c) => c.length,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DATA: DataHeader = DataHeader {
        length: 1000,
        seq: 258,
        timestamp_ns: 1_000_000_000,
        carries_sto: false,
        frame_type: 2,
        frame: 7,
        layer: 1,
        layers: 3,
    };
    // 0x10 = version 1, type 0; 0x80 = frame type P (2) in the top two bits.
    const DATA_VECTOR: [u8; 24] =
        [0x10, 0x80, 0x03, 0xe8, 0, 0, 1, 2, 0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00, 0, 0, 0, 7, 1, 3, 0, 0];
    const CONTROL: ControlHeader =
        ControlHeader { length: 40, ack: 258, congestion: true, echo_ns: Some(5), buffered_bytes: 17_000, layers: 2 };
    // 0x11 = version 1, type 1; 0x10 = CIn 1; 17 000 = 0x4268.
    const CONTROL_VECTOR: [u8; 24] =
        [0x11, 0x10, 0, 40, 0, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0x42, 0x68, 2, 0, 0, 0];

    #[test]
    fn fixed_vectors() {
        assert_eq!(DATA.emit().as_slice(), &DATA_VECTOR);
        assert_eq!(SsvpPacket::parse(&DATA_VECTOR), Ok(SsvpPacket::Data(DATA)));
        assert_eq!(CONTROL.emit().as_slice(), &CONTROL_VECTOR);
        assert_eq!(SsvpPacket::parse(&CONTROL_VECTOR), Ok(SsvpPacket::Control(CONTROL)));
        // STO-carrying data packet: F = 0x08; no-media packet.
        let sto = DataHeader {
            carries_sto: true,
            timestamp_ns: 60_000_000,
            frame_type: 0,
            frame: NO_FRAME,
            layer: 0,
            layers: 0,
            ..DATA
        };
        let b = sto.emit();
        assert_eq!(b.as_slice()[1], 0x08);
        assert_eq!(&b.as_slice()[16..20], &[0xff; 4]);
        assert_eq!(SsvpPacket::parse(b.as_slice()), Ok(SsvpPacket::Data(sto)));
        // Timeout report: no echo → F set and a zero echo field.
        let t = ControlHeader { echo_ns: None, buffered_bytes: 0, layers: 0, ..CONTROL };
        let b = t.emit();
        assert_eq!(b.as_slice()[1], 0x18);
        assert_eq!(&b.as_slice()[8..16], &[0; 8]);
        assert_eq!(SsvpPacket::parse(b.as_slice()), Ok(SsvpPacket::Control(t)));
    }

    #[test]
    fn datagram_length_must_match() {
        assert!(SsvpPacket::parse_datagram(&DATA_VECTOR, 1000).is_ok());
        assert_eq!(
            SsvpPacket::parse_datagram(&DATA_VECTOR, 999),
            Err(WireError::Inconsistent("length field differs from the datagram size"))
        );
        // Oversized: the header says 40 bytes, 41 arrived.
        let mut long = CONTROL_VECTOR.to_vec();
        long.push(0);
        assert!(SsvpPacket::parse_datagram(&long, 41).is_err());
        assert!(SsvpPacket::parse_datagram(&long, 40).is_ok());
    }

    #[test]
    fn rejects_bad_datagrams() {
        assert_eq!(SsvpPacket::parse(&DATA_VECTOR[..23]), Err(WireError::Truncated { needed: 24, got: 23 }));
        assert_eq!(SsvpPacket::parse(&[]), Err(WireError::Truncated { needed: 24, got: 0 }));
        let bad = |i: usize, v: u8, base: [u8; 24]| {
            let mut b = base;
            b[i] = v;
            SsvpPacket::parse(&b)
        };
        assert_eq!(bad(0, 0x20, DATA_VECTOR), Err(WireError::BadVersion(2)));
        assert_eq!(bad(0, 0x12, DATA_VECTOR), Err(WireError::UnknownType(2)));
        let inconsistent = |r: Result<SsvpPacket, WireError>| matches!(r, Err(WireError::Inconsistent(_)));
        assert!(inconsistent(bad(1, 0x81, DATA_VECTOR)), "reserved flag bit");
        assert!(inconsistent(bad(1, 0x90, DATA_VECTOR)), "CIn on data");
        assert!(inconsistent(bad(3, 23, bad_len(DATA_VECTOR))), "length < header");
        assert!(inconsistent(bad(20, 3, DATA_VECTOR)), "layer 3 of 3 active");
        assert!(inconsistent(bad(21, 17, DATA_VECTOR)), "17 layers");
        assert!(inconsistent(bad(22, 1, DATA_VECTOR)), "reserved byte");
        let mut nomedia = DATA_VECTOR;
        nomedia[16..20].copy_from_slice(&[0xff; 4]);
        assert!(inconsistent(SsvpPacket::parse(&nomedia)), "frame type without media");
        assert!(inconsistent(bad(1, 0x20, CONTROL_VECTOR)), "CIn = 2");
        assert!(inconsistent(bad(1, 0x50, CONTROL_VECTOR)), "frame type on control");
        assert!(inconsistent(bad(1, 0x18, CONTROL_VECTOR)), "no-echo flag with an echo");
        assert!(inconsistent(bad(20, 0, CONTROL_VECTOR)), "buffer report without layers");
        assert!(inconsistent(bad(21, 1, CONTROL_VECTOR)), "reserved byte");
    }

    fn bad_len(mut v: [u8; 24]) -> [u8; 24] {
        v[2] = 0;
        v
    }

    proptest! {
        #[test]
        fn data_round_trip(len in 24u16.., seq: u32, ts: u64, sto: bool, ft in 0u8..4, frame in 0u32..u32::MAX,
                           layers in 0u8..=MAX_LAYERS, l: u8) {
            let layer = if layers == 0 { l } else { l % layers };
            let h = DataHeader { length: len, seq, timestamp_ns: ts, carries_sto: sto, frame_type: ft, frame, layer, layers };
            prop_assert_eq!(SsvpPacket::parse(h.emit().as_slice()), Ok(SsvpPacket::Data(h)));
        }
        #[test]
        fn control_round_trip(len in 24u16.., ack: u32, c: bool, echo: Option<u64>, buf: u32, layers in 1u8..=MAX_LAYERS) {
            let h = ControlHeader { length: len, ack, congestion: c, echo_ns: echo, buffered_bytes: buf, layers };
            prop_assert_eq!(SsvpPacket::parse(h.emit().as_slice()), Ok(SsvpPacket::Control(h)));
        }
        #[test]
        fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64), size in 0usize..2000) {
            let _ = SsvpPacket::parse(&bytes);
            let _ = SsvpPacket::parse_datagram(&bytes, size);
        }
        #[test]
        fn never_panics_on_mutated_headers(i in 0usize..24, v: u8, data: bool) {
            let mut b = if data { DATA_VECTOR } else { CONTROL_VECTOR };
            b[i] = v;
            if let Ok(p) = SsvpPacket::parse(&b) {
                // Whatever parses re-emits to the same bytes (no field is silently dropped).
                let e = match p { SsvpPacket::Data(d) => d.emit(), SsvpPacket::Control(c) => c.emit() };
                prop_assert_eq!(e.as_slice(), &b[..]);
            }
        }
    }
}
