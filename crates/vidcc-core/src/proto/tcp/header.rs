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
//! **SACK blocks** (RFC 2018, `tcp-sack`'s receiver only): an ACK may carry up to
//! [`MAX_SACK_BLOCKS`] blocks after the 40 bytes, 8 bytes each, and its header length is then
//! 40 + 8·n: exactly what ns-2's `Sacker::append_ack` adds to the ACK's size (`8` per block).
//! A block reports the segments [left, right) received above the cumulative ACK:
//!
//! ```text
//!  40 + 8i                         44 + 8i                        48 + 8i
//!  +-------------------------------+-------------------------------+
//!  | left − ack (u32, ≥ 1)         | right − left (u32, ≥ 1)       |
//!  +-------------------------------+-------------------------------+
//! ```
//!
//! A block must start above the ACK (left > ack: the cumulative ACK would cover it otherwise),
//! be non-empty, not overflow, and not overlap another block; data segments carry none.
//!
//! Deviation from real TCP: no checksum, ports or receive window, and the SACK blocks are not
//! a TCP option (no kind/length/NOP bytes: ns-2 does not charge them either); the timestamp
//! pair plays the role of RFC 7323's TSval/TSecr but only for RTT sampling.

use crate::endpoint::HeaderBuf;
use crate::wire::WireError;

pub const VERSION: u8 = 1;
/// Bytes on the wire for every header, data or ACK (ns-2's TCP/IP header size).
pub const HEADER_BYTES: usize = 40;
/// A data segment: `seq` and `ts` are meaningful.
pub const FLAG_DATA: u8 = 0x01;
/// A pure cumulative ACK: `ack`, `ts` and `ts_echo` are meaningful.
pub const FLAG_ACK: u8 = 0x02;

/// Most SACK blocks an ACK carries (ns-2 `maxSackBlocks_` 3; RFC 2018 with timestamps).
pub const MAX_SACK_BLOCKS: usize = 3;
/// Bytes per SACK block on the wire.
pub const SACK_BLOCK_BYTES: usize = 8;

/// Up to [`MAX_SACK_BLOCKS`] SACK blocks `[left, right)` in segments, most recent first.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SackBlocks {
    len: u8,
    blocks: [(u64, u64); MAX_SACK_BLOCKS],
}

impl SackBlocks {
    pub const EMPTY: SackBlocks = SackBlocks { len: 0, blocks: [(0, 0); MAX_SACK_BLOCKS] };

    /// Appends `[left, right)`; false (and nothing changes) when full or the block is empty.
    pub fn push(&mut self, left: u64, right: u64) -> bool {
        if self.len as usize == MAX_SACK_BLOCKS || right <= left {
            return false;
        }
        self.blocks[self.len as usize] = (left, right);
        self.len += 1;
        true
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.blocks[..self.len as usize].iter().copied()
    }
}

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
        /// SACK blocks (empty but for `tcp-sack`'s receiver).
        sack: SackBlocks,
    },
}

impl TcpHeader {
    /// Header bytes on the wire: 40, plus 8 per SACK block (never empty).
    #[allow(clippy::len_without_is_empty)]
    pub fn len(&self) -> usize {
        match self {
            TcpHeader::Data { .. } => HEADER_BYTES,
            TcpHeader::Ack { sack, .. } => HEADER_BYTES + SACK_BLOCK_BYTES * sack.len(),
        }
    }

    /// Encodes the header. A SACK block that does not start above `ack` or whose offsets do
    /// not fit 32 bits cannot be encoded and is left out (a receiver never builds one).
    pub fn emit(&self) -> HeaderBuf {
        let (flags, seq, ack, ts, echo, sack) = match *self {
            TcpHeader::Data { seq, ts_ns } => (FLAG_DATA, seq, 0, ts_ns, 0, SackBlocks::EMPTY),
            TcpHeader::Ack { ack, ts_ns, ts_echo_ns, sack } => {
                let mut ok = SackBlocks::EMPTY;
                for (l, r) in sack.iter() {
                    let off = l.checked_sub(ack).filter(|&o| o >= 1).and_then(|o| u32::try_from(o).ok());
                    if off.is_some() && u32::try_from(r - l).is_ok() {
                        ok.push(l, r);
                    }
                }
                (FLAG_ACK, 0, ack, ts_ns, ts_echo_ns, ok)
            }
        };
        let len = HEADER_BYTES + SACK_BLOCK_BYTES * sack.len();
        let mut h = HeaderBuf::writer(len);
        let b = h.bytes_mut();
        b[0] = VERSION;
        b[1] = flags;
        b[2..4].copy_from_slice(&(len as u16).to_be_bytes());
        // b[4..8] reserved, already zero.
        b[8..16].copy_from_slice(&seq.to_be_bytes());
        b[16..24].copy_from_slice(&ack.to_be_bytes());
        b[24..32].copy_from_slice(&ts.to_be_bytes());
        b[32..40].copy_from_slice(&echo.to_be_bytes());
        for (i, (l, r)) in sack.iter().enumerate() {
            let at = HEADER_BYTES + SACK_BLOCK_BYTES * i;
            b[at..at + 4].copy_from_slice(&((l - ack) as u32).to_be_bytes());
            b[at + 4..at + 8].copy_from_slice(&((r - l) as u32).to_be_bytes());
        }
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
        let len = u16::from_be_bytes([buf[2], buf[3]]) as usize;
        let blocks = (len.wrapping_sub(HEADER_BYTES)) / SACK_BLOCK_BYTES;
        if len < HEADER_BYTES || !(len - HEADER_BYTES).is_multiple_of(SACK_BLOCK_BYTES) || blocks > MAX_SACK_BLOCKS {
            return Err(WireError::Inconsistent("header length is not 40 + 8 per SACK block (at most 3)"));
        }
        if buf.len() < len {
            return Err(WireError::Truncated { needed: len, got: buf.len() });
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
                if blocks != 0 {
                    return Err(WireError::Inconsistent("data segment with SACK blocks"));
                }
                Ok(TcpHeader::Data { seq, ts_ns })
            }
            FLAG_ACK => {
                if seq != 0 {
                    return Err(WireError::Inconsistent("ACK with a sequence number"));
                }
                let sack = parse_sack(&buf[HEADER_BYTES..len], ack)?;
                Ok(TcpHeader::Ack { ack, ts_ns, ts_echo_ns, sack })
            }
            other => Err(WireError::UnknownType(other)),
        }
    }
}

/// The SACK blocks of an ACK for `ack`: each non-empty, above `ack`, within u64, disjoint.
fn parse_sack(b: &[u8], ack: u64) -> Result<SackBlocks, WireError> {
    let mut sack = SackBlocks::EMPTY;
    for chunk in b.chunks_exact(SACK_BLOCK_BYTES) {
        let off = u32::from_be_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]) as u64;
        let n = u32::from_be_bytes([chunk[4], chunk[5], chunk[6], chunk[7]]) as u64;
        if off == 0 || n == 0 {
            return Err(WireError::Inconsistent("SACK block empty or not above the cumulative ACK"));
        }
        let left = ack.checked_add(off).ok_or(WireError::Inconsistent("SACK block beyond 2^64"))?;
        let right = left.checked_add(n).ok_or(WireError::Inconsistent("SACK block beyond 2^64"))?;
        if sack.iter().any(|(l, r)| left < r && l < right) {
            return Err(WireError::Inconsistent("overlapping SACK blocks"));
        }
        sack.push(left, right);
    }
    Ok(sack)
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
        let ack = TcpHeader::Ack { ack: 258, ts_ns: 1_000_000_000, ts_echo_ns: 100_000_000, sack: SackBlocks::EMPTY };
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
            (any::<u64>(), any::<u64>(), any::<u64>(), sack_blocks()).prop_map(|(ack, ts_ns, ts_echo_ns, blocks)| {
                // Blocks as offsets above `ack`, kept in u64 and disjoint.
                let ack = ack.min(u64::MAX - (1 << 40));
                let mut sack = SackBlocks::EMPTY;
                for (off, n) in blocks {
                    let (l, r) = (ack + off as u64, ack + off as u64 + n as u64);
                    if !sack.iter().any(|(a, b)| l < b && a < r) {
                        sack.push(l, r);
                    }
                }
                TcpHeader::Ack { ack, ts_ns, ts_echo_ns, sack }
            }),
        ]
    }

    fn sack_blocks() -> impl Strategy<Value = Vec<(u32, u32)>> {
        proptest::collection::vec((1u32..1000, 1u32..100), 0..=MAX_SACK_BLOCKS)
    }

    #[test]
    fn sack_blocks_follow_the_ack_and_are_validated() {
        let mut sack = SackBlocks::EMPTY;
        assert!(sack.push(12, 15) && sack.push(5, 7) && sack.push(20, 21));
        assert!(!sack.push(30, 31), "at most 3");
        let h = TcpHeader::Ack { ack: 4, ts_ns: 1, ts_echo_ns: 2, sack };
        let b = h.emit();
        assert_eq!((b.len(), h.len()), (64, 64), "40 + 3 · 8, ns-2's ACK size with 3 blocks");
        assert_eq!(&b.as_slice()[2..4], &[0, 64]);
        assert_eq!(&b.as_slice()[40..48], &[0, 0, 0, 8, 0, 0, 0, 3], "12 − 4, 15 − 12");
        assert_eq!(TcpHeader::parse(b.as_slice()).unwrap(), h);
        let bad = |f: &dyn Fn(&mut Vec<u8>)| {
            let mut v = b.as_slice().to_vec();
            f(&mut v);
            TcpHeader::parse(&v)
        };
        assert!(matches!(bad(&|v| v[43] = 0), Err(WireError::Inconsistent(_))), "left = ack");
        assert!(matches!(bad(&|v| v[47] = 0), Err(WireError::Inconsistent(_))), "empty block");
        assert!(matches!(bad(&|v| v[51] = 9), Err(WireError::Inconsistent(_))), "overlap: [13, 15)");
        assert!(matches!(bad(&|v| v[3] = 72), Err(WireError::Inconsistent(_))), "4 blocks");
        assert!(matches!(bad(&|v| v[3] = 44), Err(WireError::Inconsistent(_))), "not 40 + 8n");
        assert_eq!(bad(&|v| v.truncate(60)), Err(WireError::Truncated { needed: 64, got: 60 }));
        assert!(matches!(bad(&|v| v[1] = FLAG_DATA), Err(WireError::Inconsistent(_))));
        // Near the top of the sequence space a block may not wrap.
        let mut v = b.as_slice().to_vec();
        v[16..24].copy_from_slice(&(u64::MAX - 10).to_be_bytes());
        assert!(matches!(TcpHeader::parse(&v), Err(WireError::Inconsistent(_))));
    }

    proptest! {
        #[test]
        fn round_trip(h in header()) {
            let buf = h.emit();
            prop_assert_eq!(buf.len(), h.len());
            prop_assert_eq!(TcpHeader::parse(buf.as_slice()).unwrap(), h);
        }

        #[test]
        fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            // Whatever parses must emit back to the same bytes: one meaning per byte string.
            if let Ok(h) = TcpHeader::parse(&bytes) {
                let again = h.emit();
                prop_assert_eq!(again.as_slice(), &bytes[..h.len()]);
            }
        }

        #[test]
        fn accepts_mutated_valid_headers_only_if_canonical(h in header(), i in 0usize..64, x: u8) {
            let i = i % h.len();
            let mut b = h.emit().as_slice().to_vec();
            b[i] ^= x;
            if let Ok(p) = TcpHeader::parse(&b) {
                // A shorter header length leaves the rest as payload.
                let again = p.emit();
                prop_assert_eq!(again.as_slice(), &b[..p.len()]);
            }
        }
    }
}
