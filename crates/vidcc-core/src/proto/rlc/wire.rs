//! RLC's data header (its paper fixes no encoding; this one carries what the receivers need:
//! the layer, a per-layer sequence number for loss detection, the index of the latest
//! synchronisation point and whether the packet belongs to a burst).
//!
//! ```text
//! [version u8 = 1] [kind u8 = 'R'] [layer u8] [layers u8]
//! [seq u32]                    per-layer sequence number
//! [sp u32]                     synchronisation points passed when the packet left
//! [flags u8] [3 zero bytes]    flags: 1 = sent in a burst before a synchronisation point
//! ```
//!
//! 16 bytes. The parser checks the version, the kind, `layer < layers <= MAX_LAYERS`, unknown
//! flag bits and the reserved bytes; it never panics.

use crate::endpoint::HeaderBuf;
use crate::wire::{Reader, WireError, Writer};

pub const VERSION: u8 = 1;
pub const KIND: u8 = b'R';
pub const HEADER_BYTES: usize = 16;
/// Most layers: the cumulative rate of the top one is 2^(n−1) times the base rate.
pub const MAX_LAYERS: u8 = 16;
pub const FLAG_BURST: u8 = 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RlcHeader {
    pub layer: u8,
    pub layers: u8,
    pub seq: u32,
    pub sp: u32,
    pub burst: bool,
}

impl RlcHeader {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(HEADER_BYTES);
        Writer::new(h.bytes_mut())
            .u8(VERSION)
            .u8(KIND)
            .u8(self.layer)
            .u8(self.layers)
            .u32(self.seq)
            .u32(self.sp)
            .u8(if self.burst { FLAG_BURST } else { 0 })
            .bytes(&[0; 3]);
        h
    }

    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(b);
        r.need(HEADER_BYTES)?;
        let version = r.u8()?;
        if version != VERSION {
            return Err(WireError::BadVersion(version));
        }
        let kind = r.u8()?;
        if kind != KIND {
            return Err(WireError::UnknownType(kind));
        }
        let (layer, layers) = (r.u8()?, r.u8()?);
        if layers == 0 || layers > MAX_LAYERS {
            return Err(WireError::Inconsistent("rlc: layer count outside 1..=16"));
        }
        if layer >= layers {
            return Err(WireError::Inconsistent("rlc: layer beyond the layer count"));
        }
        let (seq, sp, flags) = (r.u32()?, r.u32()?, r.u8()?);
        if flags & !FLAG_BURST != 0 {
            return Err(WireError::Inconsistent("rlc: unknown flag bits"));
        }
        if r.bytes(3)? != [0; 3] {
            return Err(WireError::Inconsistent("rlc: reserved bytes not zero"));
        }
        Ok(RlcHeader { layer, layers, seq, sp, burst: flags & FLAG_BURST != 0 })
    }
}
