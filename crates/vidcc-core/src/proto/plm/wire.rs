//! PLM's data header: which layer, the packet's sequence number in that layer, and whether it
//! opens a packet pair (ns-2 PLM carries the same in its RTP header: `seqno`, `flags` = 128 on
//! the first packet of a burst). 8 bytes:
//!
//! ```text
//!  0       1       2               4                               8
//!  +-------+-------+---------------+-------------------------------+
//!  | ver=1 | flags |  layer (u16)  |      sequence in layer (u32)  |
//!  +-------+-------+---------------+-------------------------------+
//! ```
//!
//! `flags`: bit 7 (0x80) = first packet of a pair (burst); the other bits must be zero.

use crate::endpoint::HeaderBuf;
use crate::wire::{Reader, WireError, Writer};

pub const VERSION: u8 = 1;
pub const DATA_HEADER_BYTES: usize = 8;
/// `flags` bit of the first packet of a pair (ns-2's `flag_PP_ == 128`).
pub const FIRST_OF_PAIR: u8 = 0x80;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlmData {
    pub layer: u16,
    pub seq: u32,
    pub first_of_pair: bool,
}

impl PlmData {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(DATA_HEADER_BYTES);
        let flags = if self.first_of_pair { FIRST_OF_PAIR } else { 0 };
        Writer::new(h.bytes_mut()).u8(VERSION).u8(flags).u16(self.layer).u32(self.seq);
        h
    }

    /// Parses the header at the start of `buf` (trailing bytes are payload). `layers`: how many
    /// layers the session has; a higher layer number is an error.
    pub fn parse(buf: &[u8], layers: usize) -> Result<Self, WireError> {
        let mut r = Reader::new(buf);
        r.need(DATA_HEADER_BYTES)?;
        let version = r.u8()?;
        if version != VERSION {
            return Err(WireError::BadVersion(version));
        }
        let flags = r.u8()?;
        if flags & !FIRST_OF_PAIR != 0 {
            return Err(WireError::Inconsistent("reserved PLM flag bits set"));
        }
        let layer = r.u16()?;
        if layer as usize >= layers {
            return Err(WireError::Inconsistent("PLM layer beyond the session's layers"));
        }
        Ok(PlmData { layer, seq: r.u32()?, first_of_pair: flags & FIRST_OF_PAIR != 0 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const VECTOR: [u8; 8] = [1, 0x80, 0, 3, 0, 0, 1, 2];

    #[test]
    fn emits_and_parses_the_fixed_vector() {
        let h = PlmData { layer: 3, seq: 258, first_of_pair: true };
        assert_eq!(h.emit().as_slice(), &VECTOR);
        assert_eq!(PlmData::parse(&VECTOR, 4), Ok(h));
        let second = PlmData { first_of_pair: false, ..h };
        assert_eq!(PlmData::parse(second.emit().as_slice(), 4), Ok(second));
    }

    #[test]
    fn rejects_bad_datagrams() {
        assert_eq!(PlmData::parse(&VECTOR[..7], 4), Err(WireError::Truncated { needed: 8, got: 7 }));
        let mut v = VECTOR;
        v[0] = 2;
        assert_eq!(PlmData::parse(&v, 4), Err(WireError::BadVersion(2)));
        v = VECTOR;
        v[1] = 0x81;
        assert!(matches!(PlmData::parse(&v, 4), Err(WireError::Inconsistent(_))));
        // Layer 3 of a 3-layer session does not exist.
        assert!(matches!(PlmData::parse(&VECTOR, 3), Err(WireError::Inconsistent(_))));
    }

    proptest! {
        #[test]
        fn parse_never_panics_and_round_trips(bytes in proptest::collection::vec(any::<u8>(), 0..32), layers in 0usize..70_000) {
            if let Ok(h) = PlmData::parse(&bytes, layers) {
                let emitted = h.emit();
                prop_assert_eq!(emitted.as_slice(), &bytes[..DATA_HEADER_BYTES]);
            }
        }
    }
}
