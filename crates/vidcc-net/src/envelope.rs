//! The driver's framing of every datagram on a socket (never seen by the protocols).
//!
//! The protocols' own bytes are exactly what they are in simulation; the driver wraps them in a
//! small envelope that carries what a simulator knows for free and a real network does not:
//! which session a datagram belongs to, and for data packets the driver-visible
//! [`PacketMeta`] (data sequence number, media tag) and the Unix send time, so that the receiver
//! can judge frames and delays exactly as the simulator's recorders do.
//!
//! ```text
//! byte 0      kind (Offer, Accept, Data, Control, Bye)
//! bytes 1..5  session id (u32, chosen by the sender)
//! Data:     + seq u64, sent Unix ns u64, frame u32, frame type u8, layer u8, index u16,
//!             count u16, flags u8 (bit 0 retransmission, bit 1 media)  = 32 bytes in all
//! Offer:    + the session's JSON description
//! Bye:      + data packets sent u64, last data seq + 1 u64, [what ended the flow u8]
//! Report:   + the receiving driver's report (crate::breaker), 32 bytes
//! Control, Data: then the protocol's datagram
//! ```
//!
//! With a key, every envelope carries an authentication trailer ([`crate::auth`]).
//! Parsing never panics; every malformed envelope is an [`EnvelopeError`] for the driver to count.

use vidcc_core::media::MediaTag;
use vidcc_core::{PacketKind, PacketMeta};

pub const KIND_OFFER: u8 = 0xA1;
pub const KIND_ACCEPT: u8 = 0xA2;
pub const KIND_DATA: u8 = 0xA3;
pub const KIND_CONTROL: u8 = 0xA4;
pub const KIND_BYE: u8 = 0xA5;
pub const KIND_REPORT: u8 = 0xA6;

/// Bytes before the protocol's datagram in a data envelope.
pub const DATA_PREFIX: usize = 32;
/// Bytes before the body of any other envelope.
pub const PREFIX: usize = 5;

/// What an envelope holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Offer,
    Accept,
    Data,
    Control,
    Bye,
    /// The receiving driver's report ([`crate::breaker::Report`]).
    Report,
}

impl Kind {
    pub fn code(self) -> u8 {
        match self {
            Kind::Offer => KIND_OFFER,
            Kind::Accept => KIND_ACCEPT,
            Kind::Data => KIND_DATA,
            Kind::Control => KIND_CONTROL,
            Kind::Bye => KIND_BYE,
            Kind::Report => KIND_REPORT,
        }
    }
    pub fn from_code(c: u8) -> Option<Kind> {
        Some(match c {
            KIND_OFFER => Kind::Offer,
            KIND_ACCEPT => Kind::Accept,
            KIND_DATA => Kind::Data,
            KIND_CONTROL => Kind::Control,
            KIND_BYE => Kind::Bye,
            KIND_REPORT => Kind::Report,
            _ => return None,
        })
    }
}

/// The driver's facts about a data packet, carried in its envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataInfo {
    pub seq: u64,
    pub sent_unix_ns: u64,
    pub media: MediaTag,
    pub retransmit: bool,
}

impl DataInfo {
    pub fn from_meta(meta: &PacketMeta, sent_unix_ns: u64) -> Self {
        DataInfo { seq: meta.seq, sent_unix_ns, media: meta.media, retransmit: meta.retransmit }
    }
    pub fn meta(&self) -> PacketMeta {
        PacketMeta {
            kind: PacketKind::Data,
            seq: self.seq,
            retransmit: self.retransmit,
            urgent: false,
            media: self.media,
        }
    }
}

/// A parsed envelope: its kind, session and body (the protocol datagram for Data and Control).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope<'a> {
    pub kind: Kind,
    pub session: u32,
    pub data: Option<DataInfo>,
    pub body: &'a [u8],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvelopeError {
    Empty,
    UnknownKind(u8),
    Truncated { kind: Kind, len: usize },
}

impl std::fmt::Display for EnvelopeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EnvelopeError::Empty => write!(f, "empty datagram"),
            EnvelopeError::UnknownKind(k) => write!(f, "unknown envelope kind 0x{k:02x}"),
            EnvelopeError::Truncated { kind, len } => write!(f, "{kind:?} envelope truncated at {len} bytes"),
        }
    }
}

pub fn parse(buf: &[u8]) -> Result<Envelope<'_>, EnvelopeError> {
    let &code = buf.first().ok_or(EnvelopeError::Empty)?;
    let kind = Kind::from_code(code).ok_or(EnvelopeError::UnknownKind(code))?;
    let need = if kind == Kind::Data { DATA_PREFIX } else { PREFIX };
    if buf.len() < need {
        return Err(EnvelopeError::Truncated { kind, len: buf.len() });
    }
    let session = u32::from_be_bytes(buf[1..5].try_into().expect("4 bytes"));
    let data = (kind == Kind::Data).then(|| {
        let u64_at = |i: usize| u64::from_be_bytes(buf[i..i + 8].try_into().expect("8 bytes"));
        let u16_at = |i: usize| u16::from_be_bytes(buf[i..i + 2].try_into().expect("2 bytes"));
        let flags = buf[31];
        let media = if flags & 2 != 0 {
            MediaTag {
                frame: u32::from_be_bytes(buf[21..25].try_into().expect("4 bytes")),
                frame_type: buf[25],
                layer: buf[26],
                index: u16_at(27),
                count: u16_at(29),
            }
        } else {
            MediaTag::NONE
        };
        DataInfo { seq: u64_at(5), sent_unix_ns: u64_at(13), media, retransmit: flags & 1 != 0 }
    });
    Ok(Envelope { kind, session, data, body: &buf[need..] })
}

/// Writes a non-data envelope's prefix into `out` (cleared first); the caller appends the body.
pub fn write_prefix(out: &mut Vec<u8>, kind: Kind, session: u32) {
    out.clear();
    out.push(kind.code());
    out.extend_from_slice(&session.to_be_bytes());
}

/// Writes a data envelope's prefix into `out` (cleared first); the caller appends the datagram.
pub fn write_data_prefix(out: &mut Vec<u8>, session: u32, info: &DataInfo) {
    write_prefix(out, Kind::Data, session);
    out.extend_from_slice(&info.seq.to_be_bytes());
    out.extend_from_slice(&info.sent_unix_ns.to_be_bytes());
    let media = info.media.is_media();
    let m = if media { info.media } else { MediaTag::NONE };
    out.extend_from_slice(&m.frame.to_be_bytes());
    out.push(m.frame_type);
    out.push(m.layer);
    out.extend_from_slice(&m.index.to_be_bytes());
    out.extend_from_slice(&m.count.to_be_bytes());
    out.push(info.retransmit as u8 | (media as u8) << 1);
    debug_assert_eq!(out.len(), DATA_PREFIX);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_envelope_round_trips() {
        let info = DataInfo {
            seq: 7,
            sent_unix_ns: 1_700_000_000_123_456_789,
            media: MediaTag { frame: 12, frame_type: 1, layer: 2, index: 3, count: 4 },
            retransmit: true,
        };
        let mut buf = Vec::new();
        write_data_prefix(&mut buf, 99, &info);
        buf.extend_from_slice(b"protocol");
        let e = parse(&buf).unwrap();
        assert_eq!((e.kind, e.session, e.data, e.body), (Kind::Data, 99, Some(info), &b"protocol"[..]));
    }

    #[test]
    fn short_or_unknown_envelopes_are_errors_never_panics() {
        assert_eq!(parse(&[]), Err(EnvelopeError::Empty));
        assert_eq!(parse(&[0x00, 1, 2]), Err(EnvelopeError::UnknownKind(0)));
        assert_eq!(parse(&[KIND_DATA, 0, 0, 0, 1, 9]), Err(EnvelopeError::Truncated { kind: Kind::Data, len: 6 }));
        let mut rng = vidcc_core::rng::RngStreams::new(3).stream("garbage");
        use rand::Rng;
        for _ in 0..20_000 {
            let n = rng.gen_range(0..80);
            let mut b: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
            if n > 0 && rng.gen_bool(0.5) {
                b[0] = [KIND_OFFER, KIND_ACCEPT, KIND_DATA, KIND_CONTROL, KIND_BYE][rng.gen_range(0..5)];
            }
            let _ = parse(&b);
        }
    }
}
