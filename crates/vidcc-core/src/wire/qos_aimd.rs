//! QoS-AIMD headers (`docs/papers/qos-aimd.md` §3.2; paper §II-A): a data header with a
//! 24-bit sequence number, and the paper's ack: a 24-bit acknowledgement number `ack_a` plus a
//! selective-ack vector `sackvec` of negotiable length, and the advertised receiver window.
//!
//! Data, 16 bytes (the payload follows):
//!
//! ```text
//!  0       1       2               4       5                       8
//!  +-------+-------+---------------+-------+-----------------------+
//!  | ver=1 | 0x31  |  reserved=0   |  0    |   sequence (24 bits)  |
//!  +-------+-------+---------------+-------+-----------------------+
//!  |                 send time, ns since sender start (u64)        |
//!  +---------------------------------------------------------------+
//! ```
//!
//! Ack, 10 + ⌈n/8⌉ bytes (acks may be padded after the vector to a fixed wire size; padding is
//! ignored):
//!
//! ```text
//!  0       1       2               4               6       7                      10
//!  +-------+-------+---------------+---------------+-------+----------------------+
//!  | ver=1 | 0x32  | rwnd (u16)    | n = |sackvec| |  0    |  ack_a (24 bits)     |
//!  |       |       | packets, ≥ 1  | bits, ≤ 432   |       |                      |
//!  +-------+-------+---------------+---------------+-------+----------------------+
//!  | sackvec: ⌈n/8⌉ bytes; bit i (i = 1..n, MSB of byte 0 first) = packet ack_a − i received |
//!  +-----------------------------------------------------------------------------------------+
//! ```
//!
//! The vector's unused low bits of its last byte must be zero. The send time is not needed by
//! the protocol (the sender keeps its own send times, since nothing is retransmitted); it lets a
//! receiving application measure one-way delay jitter, the paper's delay-outage metric.
//!
//! Validation: truncated buffers, a wrong version or type, non-zero reserved bits, a sequence
//! or ack number wider than 24 bits, rwnd = 0, a vector longer than [`MAX_SACKVEC_BITS`]
//! (oversized: the ack would not fit [`crate::endpoint::MAX_HEADER_BYTES`]) and set padding
//! bits are all [`WireError`]s.

use super::{Reader, WireError, Writer};
use crate::endpoint::{HeaderBuf, MAX_HEADER_BYTES};

pub const VERSION: u8 = 1;
pub const TYPE_DATA: u8 = 0x31;
pub const TYPE_ACK: u8 = 0x32;
pub const DATA_HEADER_BYTES: usize = 16;
/// Ack header without its vector.
pub const ACK_FIXED_BYTES: usize = 10;
/// Longest selective-ack vector: the ack then fills the 64-byte header limit.
pub const MAX_SACKVEC_BITS: u16 = ((MAX_HEADER_BYTES - ACK_FIXED_BYTES) * 8) as u16;
/// Sequence and ack numbers are 24 bits [P].
pub const SEQ_BITS: u32 = 24;
pub const SEQ_MODULUS: u32 = 1 << SEQ_BITS;
pub const SEQ_MASK: u32 = SEQ_MODULUS - 1;

/// A data packet's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    /// 24-bit sequence number (the low 24 bits of the sender's packet count).
    pub seq: u32,
    pub send_time_ns: u64,
}

impl DataHeader {
    /// Panics if `seq` does not fit 24 bits (an emitter bug, never caused by a peer).
    pub fn emit(&self) -> HeaderBuf {
        assert!(self.seq <= SEQ_MASK, "sequence number {} wider than 24 bits", self.seq);
        let mut h = HeaderBuf::writer(DATA_HEADER_BYTES);
        Writer::new(h.bytes_mut()).u8(VERSION).u8(TYPE_DATA).u16(0).u32(self.seq).u64(self.send_time_ns);
        h
    }

    /// Parses the header at the start of `buf`; trailing bytes are payload.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(DATA_HEADER_BYTES)?;
        check_version_and_type(&mut r, TYPE_DATA)?;
        if r.u16()? != 0 {
            return Err(WireError::Inconsistent("reserved bits set"));
        }
        let seq = r.u32()?;
        if seq > SEQ_MASK {
            return Err(WireError::Inconsistent("sequence number wider than 24 bits"));
        }
        Ok(DataHeader { seq, send_time_ns: r.u64()? })
    }
}

fn check_version_and_type(r: &mut Reader<'_>, want: u8) -> Result<(), WireError> {
    let version = r.u8()?;
    if version != VERSION {
        return Err(WireError::BadVersion(version));
    }
    let ty = r.u8()?;
    if ty != want {
        return Err(WireError::UnknownType(ty));
    }
    Ok(())
}

/// The paper's selective-ack vector, stored inline: bit i (1-based) reports packet ack_a − i.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct SackVec {
    len_bits: u16,
    bytes: [u8; (MAX_SACKVEC_BITS / 8) as usize],
}

impl SackVec {
    /// An all-zero vector of `len_bits` (at most [`MAX_SACKVEC_BITS`]; panics above: emitter bug).
    pub fn new(len_bits: u16) -> Self {
        assert!(len_bits <= MAX_SACKVEC_BITS, "sackvec of {len_bits} bits exceeds {MAX_SACKVEC_BITS}");
        SackVec { len_bits, bytes: [0; (MAX_SACKVEC_BITS / 8) as usize] }
    }
    pub fn len_bits(&self) -> u16 {
        self.len_bits
    }
    pub fn is_empty(&self) -> bool {
        self.len_bits == 0
    }
    fn byte_len(&self) -> usize {
        (self.len_bits as usize).div_ceil(8)
    }
    /// Whether bit `i` (1..=len) is set; out-of-range bits read as not received.
    pub fn get(&self, i: u16) -> bool {
        if i == 0 || i > self.len_bits {
            return false;
        }
        let k = (i - 1) as usize;
        self.bytes[k / 8] & (0x80 >> (k % 8)) != 0
    }
    /// Sets bit `i` (1..=len); out of range is ignored.
    pub fn set(&mut self, i: u16, received: bool) {
        if i == 0 || i > self.len_bits {
            return;
        }
        let k = (i - 1) as usize;
        if received {
            self.bytes[k / 8] |= 0x80 >> (k % 8);
        } else {
            self.bytes[k / 8] &= !(0x80 >> (k % 8));
        }
    }
    /// The offsets i whose bit is set, ascending.
    pub fn iter_set(&self) -> impl Iterator<Item = u16> + '_ {
        (1..=self.len_bits).filter(|&i| self.get(i))
    }
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.byte_len()]
    }
}

impl std::fmt::Debug for SackVec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SackVec[")?;
        for i in 1..=self.len_bits {
            write!(f, "{}", if self.get(i) { '1' } else { '0' })?;
        }
        write!(f, "]")
    }
}

/// An acknowledgement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AckHeader {
    /// Receiver window advertised, in packets (≥ 1).
    pub rwnd: u16,
    /// 24-bit number of the packet this ack is for.
    pub ack_a: u32,
    pub sackvec: SackVec,
}

impl AckHeader {
    pub fn header_len(&self) -> usize {
        ACK_FIXED_BYTES + self.sackvec.byte_len()
    }

    /// Panics on `ack_a` wider than 24 bits or rwnd = 0 (emitter bugs).
    pub fn emit(&self) -> HeaderBuf {
        assert!(self.ack_a <= SEQ_MASK, "ack number {} wider than 24 bits", self.ack_a);
        assert!(self.rwnd >= 1, "rwnd must be at least 1 packet");
        let mut h = HeaderBuf::writer(self.header_len());
        let buf = h.bytes_mut();
        Writer::new(&mut buf[..ACK_FIXED_BYTES])
            .u8(VERSION)
            .u8(TYPE_ACK)
            .u16(self.rwnd)
            .u16(self.sackvec.len_bits)
            .u32(self.ack_a);
        buf[ACK_FIXED_BYTES..].copy_from_slice(self.sackvec.as_bytes());
        h
    }

    /// Parses an ack at the start of `buf`; bytes after the vector are padding.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(ACK_FIXED_BYTES)?;
        check_version_and_type(&mut r, TYPE_ACK)?;
        let rwnd = r.u16()?;
        if rwnd == 0 {
            return Err(WireError::Inconsistent("receiver window of 0 packets"));
        }
        let len_bits = r.u16()?;
        if len_bits > MAX_SACKVEC_BITS {
            return Err(WireError::Inconsistent("sackvec longer than the largest ack header"));
        }
        let ack_a = r.u32()?;
        if ack_a > SEQ_MASK {
            return Err(WireError::Inconsistent("ack number wider than 24 bits"));
        }
        let mut sackvec = SackVec::new(len_bits);
        let n = sackvec.byte_len();
        r.need(n)?;
        sackvec.bytes[..n].copy_from_slice(&buf[ACK_FIXED_BYTES..ACK_FIXED_BYTES + n]);
        let unused = (n * 8) as u16 - len_bits;
        if unused > 0 && sackvec.bytes[n - 1] & ((1u8 << unused) - 1) != 0 {
            return Err(WireError::Inconsistent("sackvec padding bits set"));
        }
        Ok(AckHeader { rwnd, ack_a, sackvec })
    }
}

/// Either header, told apart by the type byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packet {
    Data(DataHeader),
    Ack(AckHeader),
}

impl Packet {
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(2)?;
        let version = r.u8()?;
        if version != VERSION {
            return Err(WireError::BadVersion(version));
        }
        match r.u8()? {
            TYPE_DATA => DataHeader::parse(buf).map(Packet::Data),
            TYPE_ACK => AckHeader::parse(buf).map(Packet::Ack),
            other => Err(WireError::UnknownType(other)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// seq 0x0A0B0C, sent at 1 s.
    const DATA: [u8; 16] = [1, 0x31, 0, 0, 0, 0x0A, 0x0B, 0x0C, 0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00];

    /// rwnd 20, 12-bit vector, ack_a 0xFFFFFE (24 bits, near the wrap); packets ack_a−1,
    /// ack_a−2, ack_a−5 and ack_a−12 received: bits 1, 2, 5 → 0b1100_1000 = 0xC8; bit 12 →
    /// 0b0001_0000 = 0x10 (the low 4 bits are padding).
    const ACK: [u8; 12] = [1, 0x32, 0, 20, 0, 12, 0, 0xFF, 0xFF, 0xFE, 0xC8, 0x10];

    fn ack_vector() -> AckHeader {
        let mut v = SackVec::new(12);
        for i in [1, 2, 5, 12] {
            v.set(i, true);
        }
        AckHeader { rwnd: 20, ack_a: 0xFF_FFFE, sackvec: v }
    }

    #[test]
    fn data_fixed_vector() {
        let h = DataHeader { seq: 0x0A0B0C, send_time_ns: 1_000_000_000 };
        assert_eq!(h.emit().as_slice(), &DATA);
        assert_eq!(DataHeader::parse(&DATA).unwrap(), h);
        // Trailing bytes are payload.
        let mut long = DATA.to_vec();
        long.extend_from_slice(&[9; 100]);
        assert_eq!(DataHeader::parse(&long).unwrap(), h);
        assert_eq!(Packet::parse(&DATA).unwrap(), Packet::Data(h));
    }

    #[test]
    fn ack_fixed_vector_with_24_bit_number_and_sackvec() {
        let a = ack_vector();
        assert_eq!(a.emit().as_slice(), &ACK);
        let p = AckHeader::parse(&ACK).unwrap();
        assert_eq!(p, a);
        assert_eq!(p.sackvec.iter_set().collect::<Vec<_>>(), vec![1, 2, 5, 12]);
        assert_eq!(format!("{:?}", p.sackvec), "SackVec[110010000001]");
        assert_eq!(Packet::parse(&ACK).unwrap(), Packet::Ack(a));
        // An empty vector: the 10-byte fixed part alone.
        let empty = AckHeader { rwnd: 1, ack_a: 7, sackvec: SackVec::new(0) };
        assert_eq!(empty.emit().as_slice(), &[1, 0x32, 0, 1, 0, 0, 0, 0, 0, 7]);
        // Padding after the vector (a fixed-size ack on a socket) is ignored.
        let mut padded = ACK.to_vec();
        padded.extend_from_slice(&[0; 28]);
        assert_eq!(AckHeader::parse(&padded).unwrap(), a);
    }

    #[test]
    fn largest_vector_fills_the_header_limit() {
        let mut v = SackVec::new(MAX_SACKVEC_BITS);
        v.set(MAX_SACKVEC_BITS, true);
        let a = AckHeader { rwnd: 65535, ack_a: SEQ_MASK, sackvec: v };
        let h = a.emit();
        assert_eq!(h.len(), MAX_HEADER_BYTES);
        assert_eq!(AckHeader::parse(h.as_slice()).unwrap(), a);
    }

    #[test]
    fn rejects_truncated_datagrams() {
        for n in 0..DATA.len() {
            assert!(matches!(DataHeader::parse(&DATA[..n]), Err(WireError::Truncated { .. })), "data {n}");
        }
        for n in 0..ACK.len() {
            assert!(matches!(AckHeader::parse(&ACK[..n]), Err(WireError::Truncated { .. })), "ack {n}");
        }
        assert_eq!(AckHeader::parse(&ACK[..11]), Err(WireError::Truncated { needed: 12, got: 11 }));
    }

    #[test]
    fn rejects_oversized_and_inconsistent_datagrams() {
        // A vector claiming more bits than any ack header can hold (433 bits).
        let mut v = ACK.to_vec();
        v[4] = 0x01;
        v[5] = 0xB1;
        assert_eq!(AckHeader::parse(&v), Err(WireError::Inconsistent("sackvec longer than the largest ack header")));
        // rwnd 0.
        let mut v = ACK;
        v[3] = 0;
        assert!(matches!(AckHeader::parse(&v), Err(WireError::Inconsistent(_))));
        // Ack number wider than 24 bits.
        let mut v = ACK;
        v[6] = 1;
        assert!(matches!(AckHeader::parse(&v), Err(WireError::Inconsistent(_))));
        // Padding bit of the vector set.
        let mut v = ACK;
        v[11] = 0x11;
        assert_eq!(AckHeader::parse(&v), Err(WireError::Inconsistent("sackvec padding bits set")));
        // Data: sequence wider than 24 bits, reserved bits, wrong version and types.
        let mut d = DATA;
        d[4] = 1;
        assert!(matches!(DataHeader::parse(&d), Err(WireError::Inconsistent(_))));
        let mut d = DATA;
        d[2] = 1;
        assert!(matches!(DataHeader::parse(&d), Err(WireError::Inconsistent(_))));
        let mut d = DATA;
        d[0] = 2;
        assert_eq!(DataHeader::parse(&d), Err(WireError::BadVersion(2)));
        let mut ack16 = [0u8; 16];
        ack16[..12].copy_from_slice(&ACK);
        assert_eq!(DataHeader::parse(&ack16), Err(WireError::UnknownType(0x32)));
        assert_eq!(AckHeader::parse(&DATA), Err(WireError::UnknownType(0x31)));
        assert_eq!(Packet::parse(&[1, 0x99]), Err(WireError::UnknownType(0x99)));
    }

    proptest! {
        #[test]
        fn data_round_trip(seq in 0u32..SEQ_MODULUS, t: u64) {
            let h = DataHeader { seq, send_time_ns: t };
            prop_assert_eq!(DataHeader::parse(h.emit().as_slice()).unwrap(), h);
        }

        #[test]
        fn ack_round_trip(rwnd in 1u16.., ack_a in 0u32..SEQ_MODULUS, len in 0u16..=MAX_SACKVEC_BITS,
                          bits in proptest::collection::vec(any::<bool>(), MAX_SACKVEC_BITS as usize)) {
            let mut v = SackVec::new(len);
            for i in 1..=len {
                v.set(i, bits[i as usize - 1]);
            }
            let a = AckHeader { rwnd, ack_a, sackvec: v };
            let h = a.emit();
            prop_assert_eq!(h.len(), a.header_len());
            prop_assert_eq!(AckHeader::parse(h.as_slice()).unwrap(), a);
            for i in 1..=len {
                prop_assert_eq!(a.sackvec.get(i), bits[i as usize - 1]);
            }
        }

        #[test]
        fn parsers_never_panic_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = DataHeader::parse(&bytes);
            let _ = AckHeader::parse(&bytes);
            let _ = Packet::parse(&bytes);
        }

        #[test]
        fn parsers_never_panic_on_mutated_headers(i in 0usize..12, b: u8, cut in 0usize..=12) {
            let mut v = ACK;
            v[i] = b;
            let _ = AckHeader::parse(&v[..cut]);
            let _ = AckHeader::parse(&v);
            let mut d = DATA;
            d[i] = b;
            let _ = DataHeader::parse(&d);
        }
    }
}
