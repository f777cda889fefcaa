//! DVRC headers (`docs/papers/dvrc.md` §1.1.2; paper Sec. 3, Fig. 1, whose drawing is
//! lost). The paper names the fields \[P\]: packet type, length, sequence number, frame type,
//! timestamp, video layer. Widths, order and the meaning of `length` are ours \[D\], with the two
//! implementer fields docs/papers/dvrc.md adds: the sender's EstimatedRTT in data packets (A2; here
//! also its DTO, so that the receiver can run the timer of paper Eq. 3 with the sender's deviation)
//! and `ack_seq` in control packets. Big-endian, no padding between fields.
//!
//! Data packet, 36 bytes of header followed by the payload:
//!
//! ```text
//!  0        1            2                4
//!  +--------+------------+----------------+--------------------------------+
//!  | type=1 | frame type |  length (u16)  |        sequence (u32)          |
//!  +--------+------------+----------------+--------------------------------+
//!  |                 timestamp T_Sn: sender send time, ns (u64)            |
//!  +------------------------------------------------------------------------+
//!  |          rtt_est: sender's EstimatedRTT, ns (u64; 0 = no sample yet)   |
//!  +------------------------------------------------------------------------+
//!  |          dto: sender's DTO = EstimatedRTT + δ·Deviation, ns (u64)      |
//!  +--------+---------------------------------------------------------------+
//!  | layer  |            reserved (3 bytes, zero)          |
//!  +--------+----------------------------------------------+
//! ```
//!
//! `frame type` is `FrameType::code()` (0 none, 1 I, 2 P, 3 B); `length` is the whole datagram
//! (header + payload) in bytes; `layer` is the layer index of the payload, 0 = base
//! (docs/papers/dvrc.md's \[I\] reading of `video layer` in data packets). Consistency: `length ≥
//! 36`, at most `length` bytes present, `dto ≥ rtt_est` and `dto > 0` (Eq. 3 never gives a DTO below the estimate).
//!
//! Control packet, exactly 40 bytes, like a TCP ACK (docs/papers/dvrc.md \[D\]):
//!
//! ```text
//!  0        1            2                4
//!  +--------+------------+----------------+--------------------------------+
//!  | type=2 | layers K   |  length = 40   |   ack_seq: data seq echoed     |
//!  +--------+------------+----------------+--------------------------------+
//!  |                 timestamp echo: T_Sn copied unchanged (u64)           |
//!  +------------------------------------------------------------------------+
//!  |                 rate R chosen by the receiver, bit/s (u64)            |
//!  +------------------------------------------------------------------------+
//!  |                 measured receiving rate 𝓜, bit/s (u64)                |
//!  +------------------------------------------------------------------------+
//!  |                 reserved (u64, zero)                                  |
//!  +------------------------------------------------------------------------+
//! ```
//!
//! `layers K` (≥ 1) is the cumulative layer count the sender should transmit \[P\]. R is
//! docs/papers/dvrc.md's reading (b) of §1.1.1, carried so that the optional pacing at R works; 𝓜
//! is there for observability. A control packet with any payload, a K of 0 or non-zero reserved
//! bytes is rejected.

use super::{Reader, WireError, Writer};
use crate::endpoint::HeaderBuf;

pub const TYPE_DATA: u8 = 1;
pub const TYPE_CONTROL: u8 = 2;
pub const DATA_HEADER_BYTES: usize = 36;
pub const CONTROL_BYTES: usize = 40;

/// A data packet's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DvrcData {
    /// `FrameType::code()` of the payload's frame (0: none).
    pub frame_type: u8,
    /// Whole datagram, header included, bytes.
    pub length: u16,
    pub seq: u32,
    /// Sender's send time T_Sn, ns on the sender's clock.
    pub timestamp_ns: u64,
    /// Sender's EstimatedRTT (paper Eq. 2), ns; 0 before the first sample.
    pub rtt_est_ns: u64,
    /// Sender's DTO (paper Eq. 3), ns.
    pub dto_ns: u64,
    /// Layer index of the payload, 0 = base.
    pub layer: u8,
}

impl DvrcData {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(DATA_HEADER_BYTES);
        Writer::new(h.bytes_mut())
            .u8(TYPE_DATA)
            .u8(self.frame_type)
            .u16(self.length)
            .u32(self.seq)
            .u64(self.timestamp_ns)
            .u64(self.rtt_est_ns)
            .u64(self.dto_ns)
            .u8(self.layer)
            .u8(0)
            .u16(0);
        h
    }

    /// Parses the header at the start of `buf`; the bytes after it are payload (on a socket) or
    /// absent (in simulation, where the payload is virtual). The caller checks `length` against
    /// the datagram's full size.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(DATA_HEADER_BYTES)?;
        let ty = r.u8()?;
        if ty != TYPE_DATA {
            return Err(WireError::UnknownType(ty));
        }
        let frame_type = r.u8()?;
        if frame_type > 3 {
            return Err(WireError::Inconsistent("frame type above 3"));
        }
        let length = r.u16()?;
        if (length as usize) < DATA_HEADER_BYTES {
            return Err(WireError::Inconsistent("length shorter than the data header"));
        }
        if buf.len() > length as usize {
            return Err(WireError::Inconsistent("more bytes than the length field says"));
        }
        let seq = r.u32()?;
        let timestamp_ns = r.u64()?;
        let rtt_est_ns = r.u64()?;
        let dto_ns = r.u64()?;
        if dto_ns == 0 || dto_ns < rtt_est_ns {
            return Err(WireError::Inconsistent("dto below the estimated rtt"));
        }
        let layer = r.u8()?;
        if r.u8()? != 0 || r.u16()? != 0 {
            return Err(WireError::Inconsistent("reserved bits set"));
        }
        Ok(DvrcData { frame_type, length, seq, timestamp_ns, rtt_est_ns, dto_ns, layer })
    }
}

/// A control packet (receiver → sender), one per data packet received.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DvrcControl {
    /// Cumulative layer count K the sender should transmit (≥ 1).
    pub layers: u8,
    /// Sequence number of the data packet this answers.
    pub ack_seq: u32,
    /// That data packet's timestamp, unchanged.
    pub ts_echo_ns: u64,
    /// The receiver's rate R, bit/s.
    pub rate_bps: u64,
    /// The receiver's measured receiving rate 𝓜, bit/s.
    pub recv_rate_bps: u64,
}

impl DvrcControl {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(CONTROL_BYTES);
        Writer::new(h.bytes_mut())
            .u8(TYPE_CONTROL)
            .u8(self.layers)
            .u16(CONTROL_BYTES as u16)
            .u32(self.ack_seq)
            .u64(self.ts_echo_ns)
            .u64(self.rate_bps)
            .u64(self.recv_rate_bps)
            .u64(0);
        h
    }

    /// Parses a whole control datagram (exactly [`CONTROL_BYTES`]).
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(CONTROL_BYTES)?;
        let ty = r.u8()?;
        if ty != TYPE_CONTROL {
            return Err(WireError::UnknownType(ty));
        }
        let layers = r.u8()?;
        if layers == 0 {
            return Err(WireError::Inconsistent("layer count 0"));
        }
        if r.u16()? as usize != CONTROL_BYTES {
            return Err(WireError::Inconsistent("control length is not 40"));
        }
        if buf.len() != CONTROL_BYTES {
            return Err(WireError::Inconsistent("control packet with trailing bytes"));
        }
        let ack_seq = r.u32()?;
        let ts_echo_ns = r.u64()?;
        let rate_bps = r.u64()?;
        let recv_rate_bps = r.u64()?;
        if r.u64()? != 0 {
            return Err(WireError::Inconsistent("reserved bits set"));
        }
        Ok(DvrcControl { layers, ack_seq, ts_echo_ns, rate_bps, recv_rate_bps })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[rustfmt::skip]
    const DATA: [u8; 36] = [
        1, 2, 0x03, 0xe8,               // type, frame type P, length 1000
        0, 0, 1, 2,                     // seq 258
        0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00, // timestamp 1 s
        0, 0, 0, 0, 0x04, 0x2c, 0x1d, 0x80, // rtt_est 70 ms = 70_000_000
        0, 0, 0, 0, 0x0b, 0xeb, 0xc2, 0x00, // dto 200 ms = 200_000_000
        3, 0, 0, 0,                     // layer 3, reserved
    ];
    const DATA_HDR: DvrcData = DvrcData {
        frame_type: 2,
        length: 1000,
        seq: 258,
        timestamp_ns: 1_000_000_000,
        rtt_est_ns: 70_000_000,
        dto_ns: 200_000_000,
        layer: 3,
    };

    #[rustfmt::skip]
    const CONTROL: [u8; 40] = [
        2, 4, 0, 40,                    // type, K = 4, length 40
        0, 0, 1, 2,                     // ack_seq 258
        0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00, // echo 1 s
        0, 0, 0, 0, 0, 0x0b, 0xb8, 0x00,    // R = 768_000
        0, 0, 0, 0, 0, 0x0a, 0xae, 0x60,    // M = 700_000
        0, 0, 0, 0, 0, 0, 0, 0,
    ];
    const CONTROL_HDR: DvrcControl =
        DvrcControl { layers: 4, ack_seq: 258, ts_echo_ns: 1_000_000_000, rate_bps: 768_000, recv_rate_bps: 700_000 };

    #[test]
    fn data_fixed_vector() {
        assert_eq!(DATA_HDR.emit().as_slice(), &DATA);
        assert_eq!(DvrcData::parse(&DATA).unwrap(), DATA_HDR);
        // Payload bytes may follow, up to `length`.
        let mut full = DATA.to_vec();
        full.resize(1000, 0xaa);
        assert_eq!(DvrcData::parse(&full).unwrap(), DATA_HDR);
    }

    #[test]
    fn control_fixed_vector() {
        assert_eq!(CONTROL_HDR.emit().as_slice(), &CONTROL);
        assert_eq!(DvrcControl::parse(&CONTROL).unwrap(), CONTROL_HDR);
    }

    #[test]
    fn data_rejections() {
        assert_eq!(DvrcData::parse(&DATA[..35]), Err(WireError::Truncated { needed: 36, got: 35 }));
        assert_eq!(DvrcData::parse(&CONTROL), Err(WireError::UnknownType(2)));
        let with = |i: usize, v: u8| {
            let mut d = DATA;
            d[i] = v;
            DvrcData::parse(&d)
        };
        assert!(matches!(with(1, 4), Err(WireError::Inconsistent(_)))); // frame type 4
        let mut short = DATA;
        short[2] = 0;
        short[3] = 35;
        assert!(matches!(DvrcData::parse(&short), Err(WireError::Inconsistent(_))));
        // Oversized: more bytes than the length field says.
        let mut long = DATA.to_vec();
        long.resize(1001, 0);
        assert!(matches!(DvrcData::parse(&long), Err(WireError::Inconsistent(_))));
        // DTO below the estimate, and a zero DTO.
        let mut d = DATA_HDR;
        d.dto_ns = 69_999_999;
        assert!(matches!(DvrcData::parse(d.emit().as_slice()), Err(WireError::Inconsistent(_))));
        d.dto_ns = 0;
        d.rtt_est_ns = 0;
        assert!(matches!(DvrcData::parse(d.emit().as_slice()), Err(WireError::Inconsistent(_))));
        assert!(matches!(with(33, 1), Err(WireError::Inconsistent(_))));
        assert!(matches!(with(35, 1), Err(WireError::Inconsistent(_))));
    }

    #[test]
    fn control_rejections() {
        assert_eq!(DvrcControl::parse(&CONTROL[..39]), Err(WireError::Truncated { needed: 40, got: 39 }));
        let mut data = DATA.to_vec();
        data.resize(40, 0);
        assert_eq!(DvrcControl::parse(&data), Err(WireError::UnknownType(1)));
        let with = |i: usize, v: u8| {
            let mut c = CONTROL;
            c[i] = v;
            DvrcControl::parse(&c)
        };
        assert!(matches!(with(1, 0), Err(WireError::Inconsistent(_)))); // K = 0
        assert!(matches!(with(3, 41), Err(WireError::Inconsistent(_)))); // length field
        assert!(matches!(with(39, 1), Err(WireError::Inconsistent(_)))); // reserved
        let mut long = CONTROL.to_vec();
        long.push(0);
        assert!(matches!(DvrcControl::parse(&long), Err(WireError::Inconsistent(_))));
    }

    proptest! {
        #[test]
        fn data_round_trip(ft in 0u8..4, extra in 0u16..2000, seq: u32, ts: u64, rtt in 0u64..u64::MAX / 2,
                           dev in 1u64..u64::MAX / 2, layer: u8) {
            let h = DvrcData { frame_type: ft, length: 36 + extra, seq, timestamp_ns: ts, rtt_est_ns: rtt,
                               dto_ns: rtt + dev, layer };
            prop_assert_eq!(DvrcData::parse(h.emit().as_slice()).unwrap(), h);
        }
        #[test]
        fn control_round_trip(k in 1u8..=255, ack: u32, ts: u64, r: u64, m: u64) {
            let h = DvrcControl { layers: k, ack_seq: ack, ts_echo_ns: ts, rate_bps: r, recv_rate_bps: m };
            prop_assert_eq!(DvrcControl::parse(h.emit().as_slice()).unwrap(), h);
        }
        #[test]
        fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = DvrcData::parse(&bytes);
            let _ = DvrcControl::parse(&bytes);
        }
        #[test]
        fn never_panics_on_mutated_vectors(i in 0usize..40, v: u8, cut in 0usize..41) {
            let mut d = DATA.to_vec();
            if i < d.len() { d[i] = v; }
            let _ = DvrcData::parse(&d[..cut.min(d.len())]);
            let mut c = CONTROL.to_vec();
            c[i] = v;
            let _ = DvrcControl::parse(&c[..cut]);
        }
    }
}
