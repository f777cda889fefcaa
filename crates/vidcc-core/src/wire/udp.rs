//! Header of vidcc's plain, unresponsive UDP media flow: an RTP-like sequence number and send
//! timestamp so that the receiver can measure loss, delay and jitter. 16 bytes:
//!
//! ```text
//!  0       1       2               4                               8
//!  +-------+-------+---------------+-------------------------------+
//!  | ver=1 | type=1|   reserved    |          sequence (u32)       |
//!  +-------+-------+---------------+-------------------------------+
//!  |                 send time, ns since sender start (u64)        |
//!  +---------------------------------------------------------------+
//! ```

use super::{Reader, WireError, Writer};
use crate::endpoint::HeaderBuf;

pub const VERSION: u8 = 1;
pub const TYPE_DATA: u8 = 1;
pub const HEADER_BYTES: usize = 16;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UdpData {
    pub seq: u32,
    pub send_time_ns: u64,
}

impl UdpData {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(HEADER_BYTES);
        Writer::new(h.bytes_mut()).u8(VERSION).u8(TYPE_DATA).u16(0).u32(self.seq).u64(self.send_time_ns);
        h
    }

    /// Parses the header at the start of `buf`; trailing bytes are payload.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(HEADER_BYTES)?;
        let version = r.u8()?;
        if version != VERSION {
            return Err(WireError::BadVersion(version));
        }
        let ty = r.u8()?;
        if ty != TYPE_DATA {
            return Err(WireError::UnknownType(ty));
        }
        if r.u16()? != 0 {
            return Err(WireError::Inconsistent("reserved bits set"));
        }
        Ok(UdpData { seq: r.u32()?, send_time_ns: r.u64()? })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const VECTOR: [u8; 16] = [1, 1, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00];

    #[test]
    fn emits_and_parses_the_fixed_vector() {
        let h = UdpData { seq: 258, send_time_ns: 1_000_000_000 };
        assert_eq!(h.emit().as_slice(), &VECTOR);
        assert_eq!(UdpData::parse(&VECTOR).unwrap(), h);
    }

    #[test]
    fn rejects_bad_datagrams() {
        assert_eq!(UdpData::parse(&VECTOR[..15]), Err(WireError::Truncated { needed: 16, got: 15 }));
        let mut v = VECTOR;
        v[0] = 2;
        assert_eq!(UdpData::parse(&v), Err(WireError::BadVersion(2)));
        v = VECTOR;
        v[1] = 9;
        assert_eq!(UdpData::parse(&v), Err(WireError::UnknownType(9)));
        v = VECTOR;
        v[3] = 1;
        assert!(matches!(UdpData::parse(&v), Err(WireError::Inconsistent(_))));
    }

    proptest! {
        #[test]
        fn round_trip(seq: u32, t: u64) {
            let h = UdpData { seq, send_time_ns: t };
            prop_assert_eq!(UdpData::parse(h.emit().as_slice()).unwrap(), h);
        }
        #[test]
        fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            let _ = UdpData::parse(&bytes);
        }
    }
}
