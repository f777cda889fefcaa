//! MLDA's packets (its paper fixes no byte layout; these carry what the scheme exchanges).
//!
//! ```text
//! data   = [version u8 = 1] [kind u8 = 'M'] [layer u8] [layers u8]
//!          [flags u8] [heard_level u8] [2 zero bytes]   flags: 1 first of a pair, 2 second of a
//!          [seq u32] [timestamp_us u32] [round u32]            pair, 4 RTT echo, 8 heard report
//!          [echo_receiver u32] [echo_rtt_us u32] [heard_rate_bps u32]
//!          [layer rate_bps u32] × layers                        = 32 + 4·layers bytes (≤ 64)
//! report = [version u8 = 1] [kind u8 = 'm'] [level u8] [1 zero byte]
//!          [rate_bps u32] [loss, parts per 10^9 u32]
//!          [timestamp echo_us u32] [held_us u32]                = 20 bytes
//! ```
//!
//! Every data packet announces every layer's rate and the feedback round; the sender's echo of a
//! receiver's RTT and its relay of the latest report (for suppression) ride the base layer. The
//! parsers check version, kind, counts, flags, zero bytes and ranges and never panic.

use crate::endpoint::HeaderBuf;
use crate::wire::{Reader, WireError, Writer};

pub const VERSION: u8 = 1;
pub const DATA_KIND: u8 = b'M';
pub const REPORT_KIND: u8 = b'm';
/// Most layers: the data header must fit in 64 bytes.
pub const MAX_LAYERS: usize = 8;
pub const FLAG_PAIR_FIRST: u8 = 1;
pub const FLAG_PAIR_SECOND: u8 = 2;
pub const FLAG_ECHO: u8 = 4;
pub const FLAG_HEARD: u8 = 8;
pub const REPORT_BYTES: usize = 20;

/// Bytes of the data header with `n` layers.
pub const fn data_header_bytes(n: usize) -> usize {
    32 + 4 * n
}

/// Which packet of a back-to-back pair a base-layer packet is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pair {
    None,
    First,
    Second,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    pub layer: u8,
    pub layers: u8,
    pub pair: Pair,
    pub seq: u32,
    /// Send time, µs modulo 2^32.
    pub timestamp_us: u32,
    /// The sender's feedback round.
    pub round: u32,
    /// (receiver, its RTT in µs) measured from its last report.
    pub echo: Option<(u32, u32)>,
    /// (level, rate bit/s) of the newest report the sender heard.
    pub heard: Option<(u8, u32)>,
    pub rates_bps: [u32; MAX_LAYERS],
}

impl DataHeader {
    pub fn len(&self) -> usize {
        data_header_bytes(self.layers as usize)
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    /// The announced rate of each layer, bit/s.
    pub fn rates(&self) -> &[u32] {
        &self.rates_bps[..self.layers as usize]
    }

    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(self.len());
        let flags = match self.pair {
            Pair::None => 0,
            Pair::First => FLAG_PAIR_FIRST,
            Pair::Second => FLAG_PAIR_SECOND,
        } | if self.echo.is_some() { FLAG_ECHO } else { 0 }
            | if self.heard.is_some() { FLAG_HEARD } else { 0 };
        let (echo_id, echo_rtt) = self.echo.unwrap_or((0, 0));
        let (heard_level, heard_rate) = self.heard.unwrap_or((0, 0));
        let mut w = Writer::new(h.bytes_mut());
        w.u8(VERSION).u8(DATA_KIND).u8(self.layer).u8(self.layers);
        w.u8(flags).u8(heard_level).u16(0);
        w.u32(self.seq).u32(self.timestamp_us).u32(self.round);
        w.u32(echo_id).u32(echo_rtt).u32(heard_rate);
        for r in self.rates() {
            w.u32(*r);
        }
        h
    }

    /// The header at the start of `b` (the rest is payload).
    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(b);
        r.need(4)?;
        let version = r.u8()?;
        if version != VERSION {
            return Err(WireError::BadVersion(version));
        }
        let kind = r.u8()?;
        if kind != DATA_KIND {
            return Err(WireError::UnknownType(kind));
        }
        let (layer, layers) = (r.u8()?, r.u8()?);
        if layers == 0 || layers as usize > MAX_LAYERS {
            return Err(WireError::Inconsistent("mlda: layer count outside 1..=8"));
        }
        if layer >= layers {
            return Err(WireError::Inconsistent("mlda: layer beyond the layer count"));
        }
        r.need(data_header_bytes(layers as usize) - 4)?;
        let (flags, heard_level, zero) = (r.u8()?, r.u8()?, r.u16()?);
        if flags & !(FLAG_PAIR_FIRST | FLAG_PAIR_SECOND | FLAG_ECHO | FLAG_HEARD) != 0 || zero != 0 {
            return Err(WireError::Inconsistent("mlda: unknown flags or reserved bytes"));
        }
        let pair = match flags & (FLAG_PAIR_FIRST | FLAG_PAIR_SECOND) {
            0 => Pair::None,
            FLAG_PAIR_FIRST => Pair::First,
            FLAG_PAIR_SECOND => Pair::Second,
            _ => return Err(WireError::Inconsistent("mlda: first and second of a pair at once")),
        };
        let (seq, timestamp_us, round) = (r.u32()?, r.u32()?, r.u32()?);
        let (echo_id, echo_rtt, heard_rate) = (r.u32()?, r.u32()?, r.u32()?);
        let echo = if flags & FLAG_ECHO != 0 {
            Some((echo_id, echo_rtt))
        } else if echo_id != 0 || echo_rtt != 0 {
            return Err(WireError::Inconsistent("mlda: echo fields without the echo flag"));
        } else {
            None
        };
        let heard = if flags & FLAG_HEARD != 0 {
            if heard_level == 0 || heard_level > layers {
                return Err(WireError::Inconsistent("mlda: heard level outside 1..=layers"));
            }
            Some((heard_level, heard_rate))
        } else if heard_level != 0 || heard_rate != 0 {
            return Err(WireError::Inconsistent("mlda: heard fields without the heard flag"));
        } else {
            None
        };
        let mut rates_bps = [0u32; MAX_LAYERS];
        for slot in rates_bps.iter_mut().take(layers as usize) {
            *slot = r.u32()?;
            if *slot == 0 {
                return Err(WireError::Inconsistent("mlda: a layer rate of zero"));
            }
        }
        Ok(DataHeader { layer, layers, pair, seq, timestamp_us, round, echo, heard, rates_bps })
    }
}

/// A receiver's report: its TCP-friendly rate, measured loss, level, and what the sender needs
/// to measure its RTT (the newest data packet's timestamp and how long the receiver held it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    pub level: u8,
    pub rate_bps: u32,
    pub loss_ppb: u32,
    pub timestamp_echo_us: u32,
    pub held_us: u32,
}

impl Report {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(REPORT_BYTES);
        Writer::new(h.bytes_mut())
            .u8(VERSION)
            .u8(REPORT_KIND)
            .u8(self.level)
            .u8(0)
            .u32(self.rate_bps)
            .u32(self.loss_ppb)
            .u32(self.timestamp_echo_us)
            .u32(self.held_us);
        h
    }

    /// A whole report datagram: exactly [`REPORT_BYTES`].
    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(b);
        r.need(REPORT_BYTES)?;
        if b.len() != REPORT_BYTES {
            return Err(WireError::Inconsistent("mlda: report of the wrong length"));
        }
        let version = r.u8()?;
        if version != VERSION {
            return Err(WireError::BadVersion(version));
        }
        let kind = r.u8()?;
        if kind != REPORT_KIND {
            return Err(WireError::UnknownType(kind));
        }
        let (level, zero) = (r.u8()?, r.u8()?);
        if level == 0 || level as usize > MAX_LAYERS || zero != 0 {
            return Err(WireError::Inconsistent("mlda: report level outside 1..=8 or reserved byte set"));
        }
        let (rate_bps, loss_ppb) = (r.u32()?, r.u32()?);
        if loss_ppb > 1_000_000_000 {
            return Err(WireError::Inconsistent("mlda: loss above 1"));
        }
        Ok(Report { level, rate_bps, loss_ppb, timestamp_echo_us: r.u32()?, held_us: r.u32()? })
    }
}
