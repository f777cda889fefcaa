//! Wire format of the simulated TCP agents: 40 bytes, the size ns-2 charges for a TCP/IP header
//! (20 B IP + 20 B TCP), so that a `packet_size_bytes` data packet and a 40-byte pure ACK load
//! links and queues exactly as ns-2's do.
//!
//! The agents are one-way (ns-2 `Agent/TCP` → `Agent/TCPSink`): a datagram is either a data
//! segment or a pure ACK, never both, and there is no handshake, port or window field.
//! Sequence numbers count segments, not bytes (ns-2 `seqno_`), and are 64-bit so they never wrap.
//!
//! ```text
//!  0       1       2               4                               8
//!  +-------+-------+---------------+-------------------------------+
//!  | ver=1 | flags | hdr len = 40  |        reserved (zero)        |
//!  +-------+-------+---------------+-------------------------------+
//!  |                 seq: segment number (data), else 0            |  8
//!  +---------------------------------------------------------------+
//!  |        ack: next segment expected (ACK), else 0               | 16
//!  +---------------------------------------------------------------+
//!  |                 ts: send time, ns (u64)                       | 24
//!  +---------------------------------------------------------------+
//!  |     ts echo: `ts` of the segment that triggered the ACK, else 0| 32
//!  +---------------------------------------------------------------+
//! ```
//!
//! `flags` is exactly one of [`FLAG_DATA`] and [`FLAG_ACK`]. Fields a kind does not use must be
//! zero, so every accepted byte string has exactly one meaning (and round-trips).
//!
//! Deviation from real TCP: no options, checksum, ports or receive window; the timestamp pair
//! plays the role of RFC 7323's TSval/TSecr but only for RTT sampling.

use crate::endpoint::HeaderBuf;
use crate::wire::WireError;

pub const VERSION: u8 = 1;
/// Bytes on the wire for every header, data or ACK (ns-2's TCP/IP header size).
pub const HEADER_BYTES: usize = 40;
/// A data segment: `seq` and `ts` are meaningful.
pub const FLAG_DATA: u8 = 0x01;
/// A pure cumulative ACK: `ack`, `ts` and `ts_echo` are meaningful.
pub const FLAG_ACK: u8 = 0x02;

/// A parsed header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpHeader {
    Data {
        /// Segment number, from 0.
        seq: u64,
        /// Sender's clock when the segment was sent, ns.
        ts_ns: u64,
    },
    Ack {
        /// Cumulative: every segment below `ack` has arrived; `ack` is the next one expected.
        ack: u64,
        /// Receiver's clock when the ACK was sent, ns.
        ts_ns: u64,
        /// `ts_ns` of the data segment that triggered this ACK.
        ts_echo_ns: u64,
    },
}

impl TcpHeader {
    pub fn emit(&self) -> HeaderBuf {
        let (flags, seq, ack, ts, echo) = match *self {
            TcpHeader::Data { seq, ts_ns } => (FLAG_DATA, seq, 0, ts_ns, 0),
            TcpHeader::Ack { ack, ts_ns, ts_echo_ns } => (FLAG_ACK, 0, ack, ts_ns, ts_echo_ns),
        };
        let mut h = HeaderBuf::writer(HEADER_BYTES);
        let b = h.bytes_mut();
        b[0] = VERSION;
        b[1] = flags;
        b[2..4].copy_from_slice(&(HEADER_BYTES as u16).to_be_bytes());
        // b[4..8] reserved, already zero.
        b[8..16].copy_from_slice(&seq.to_be_bytes());
        b[16..24].copy_from_slice(&ack.to_be_bytes());
        b[24..32].copy_from_slice(&ts.to_be_bytes());
        b[32..40].copy_from_slice(&echo.to_be_bytes());
        h
    }

    /// Parses the header at the start of `buf`; trailing bytes are payload.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        if buf.len() < HEADER_BYTES {
            return Err(WireError::Truncated { needed: HEADER_BYTES, got: buf.len() });
        }
        if buf[0] != VERSION {
            return Err(WireError::BadVersion(buf[0]));
        }
        let flags = buf[1];
        if u16::from_be_bytes([buf[2], buf[3]]) as usize != HEADER_BYTES {
            return Err(WireError::Inconsistent("header length is not 40"));
        }
        if buf[4..8] != [0; 4] {
            return Err(WireError::Inconsistent("reserved bits set"));
        }
        let seq = be_u64(&buf[8..16]);
        let ack = be_u64(&buf[16..24]);
        let ts_ns = be_u64(&buf[24..32]);
        let ts_echo_ns = be_u64(&buf[32..40]);
        match flags {
            FLAG_DATA => {
                if ack != 0 || ts_echo_ns != 0 {
                    return Err(WireError::Inconsistent("data segment with ACK fields set"));
                }
                Ok(TcpHeader::Data { seq, ts_ns })
            }
            FLAG_ACK => {
                if seq != 0 {
                    return Err(WireError::Inconsistent("ACK with a sequence number"));
                }
                Ok(TcpHeader::Ack { ack, ts_ns, ts_echo_ns })
            }
            other => Err(WireError::UnknownType(other)),
        }
    }
}

fn be_u64(b: &[u8]) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(b);
    u64::from_be_bytes(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[rustfmt::skip]
    const ACK_VECTOR: [u8; 40] = [
        1, 2, 0, 40, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0,             // seq
        0, 0, 0, 0, 0, 0, 1, 2,             // ack 258
        0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00, // ts 1 s
        0, 0, 0, 0, 0x05, 0xf5, 0xe1, 0x00, // echo 100 ms
    ];

    #[test]
    fn emits_and_parses_the_fixed_vectors() {
        let ack = TcpHeader::Ack { ack: 258, ts_ns: 1_000_000_000, ts_echo_ns: 100_000_000 };
        assert_eq!(ack.emit().as_slice(), &ACK_VECTOR);
        assert_eq!(TcpHeader::parse(&ACK_VECTOR).unwrap(), ack);

        let data = TcpHeader::Data { seq: 0x0102_0304_0506_0708, ts_ns: 7 };
        let mut v = [0u8; 40];
        v[..4].copy_from_slice(&[1, 1, 0, 40]);
        v[8..16].copy_from_slice(&[1, 2, 3, 4, 5, 6, 7, 8]);
        v[31] = 7;
        assert_eq!(data.emit().as_slice(), &v);
        // Trailing payload bytes (a real socket) are not the header's business.
        let mut with_payload = v.to_vec();
        with_payload.extend_from_slice(&[0xff; 10]);
        assert_eq!(TcpHeader::parse(&with_payload).unwrap(), data);
    }

    #[test]
    fn rejects_bad_datagrams() {
        assert_eq!(TcpHeader::parse(&ACK_VECTOR[..39]), Err(WireError::Truncated { needed: 40, got: 39 }));
        let mut v = ACK_VECTOR;
        v[0] = 2;
        assert_eq!(TcpHeader::parse(&v), Err(WireError::BadVersion(2)));
        v = ACK_VECTOR;
        v[1] = 3; // data and ACK at once: one-way agents never piggyback
        assert_eq!(TcpHeader::parse(&v), Err(WireError::UnknownType(3)));
        v = ACK_VECTOR;
        v[3] = 41;
        assert!(matches!(TcpHeader::parse(&v), Err(WireError::Inconsistent(_))));
        v = ACK_VECTOR;
        v[5] = 1;
        assert!(matches!(TcpHeader::parse(&v), Err(WireError::Inconsistent(_))));
        v = ACK_VECTOR;
        v[15] = 1; // an ACK carrying a sequence number
        assert!(matches!(TcpHeader::parse(&v), Err(WireError::Inconsistent(_))));
        v = ACK_VECTOR;
        v[1] = FLAG_DATA; // a data segment carrying an ack and an echo
        assert!(matches!(TcpHeader::parse(&v), Err(WireError::Inconsistent(_))));
    }

    fn header() -> impl Strategy<Value = TcpHeader> {
        prop_oneof![
            (any::<u64>(), any::<u64>()).prop_map(|(seq, ts_ns)| TcpHeader::Data { seq, ts_ns }),
            (any::<u64>(), any::<u64>(), any::<u64>()).prop_map(|(ack, ts_ns, ts_echo_ns)| TcpHeader::Ack {
                ack,
                ts_ns,
                ts_echo_ns
            }),
        ]
    }

    proptest! {
        #[test]
        fn round_trip(h in header()) {
            let buf = h.emit();
            prop_assert_eq!(buf.len(), HEADER_BYTES);
            prop_assert_eq!(TcpHeader::parse(buf.as_slice()).unwrap(), h);
        }

        #[test]
        fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            // Whatever parses must emit back to the same 40 bytes: one meaning per byte string.
            if let Ok(h) = TcpHeader::parse(&bytes) {
                let again = h.emit();
                prop_assert_eq!(again.as_slice(), &bytes[..HEADER_BYTES]);
            }
        }

        #[test]
        fn accepts_mutated_valid_headers_only_if_canonical(h in header(), i in 0usize..40, x: u8) {
            let mut b = h.emit().as_slice().to_vec();
            b[i] ^= x;
            if let Ok(p) = TcpHeader::parse(&b) {
                let again = p.emit();
                prop_assert_eq!(again.as_slice(), &b[..]);
            }
        }
    }
}
