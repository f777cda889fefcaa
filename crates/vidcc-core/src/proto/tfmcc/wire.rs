//! TFMCC headers (RFC 4654 §2.2). The RFC lists the fields of sender and receiver packets and
//! leaves their layout to the transport (it suggests 16-bit floating-point rates); this is
//! vidcc's layout, big-endian like every vidcc header, with integer rates and times.
//!
//! Data packet (§2.2.1: sequence number, timestamp, receiver ID with timestamp echo and offset,
//! suppression rate X_supp, maximum RTT R_max, feedback round number, is-CLR flag), 48 bytes
//! followed by the payload:
//!
//! ```text
//!  0       1       2       3       4                               8
//!  +-------+-------+-------+-------+-------------------------------+
//!  | ver=1 | type=1| flags |   0   |          sequence (u32)       |
//!  +-------+-------+-------+-------+-------------------------------+
//!  |             timestamp, ns on the sender's clock (u64)         |
//!  +-------------------------------+-------------------------------+
//!  |   feedback round (u32)        |       R_max, µs (u32, > 0)    |
//!  +-------------------------------+-------------------------------+
//!  |  X_supp, bit/s (u64; > 0; u64::MAX: no suppression this round)|
//!  +-------------------------------+-------------------------------+
//!  |   echoed receiver ID (u32)    |  receiver's timestamp (u64) ...
//!  +-------------------------------+-------------------------------+
//!  |  ... echoed timestamp         |  echo offset, µs (u32)        |
//!  +-------------------------------+-------------------------------+
//! ```
//! flags: bit 0 = an echo is present, bit 1 = the echoed receiver is the CLR; other bits 0.
//!
//! Feedback packet (§2.2.2: timestamp, echo of the sender's timestamp and its offset, receiver
//! ID, feedback round, the calculated rate, have-RTT / have-loss / leave flags), exactly 44 bytes:
//!
//! ```text
//!  0       1       2       3       4                               8
//!  +-------+-------+-------+-------+-------------------------------+
//!  | ver=1 | type=2| flags |   0   |        receiver ID (u32)      |
//!  +-------+-------+-------+-------+-------------------------------+
//!  |   feedback round (u32)        |  receiver's timestamp (u64) ...
//!  +-------------------------------+-------------------------------+
//!  |  ... timestamp                | echo of the sender's ts (u64) ...
//!  +-------------------------------+-------------------------------+
//!  |  ... echo                     |  echo offset, µs (u32)        |
//!  +-------------------------------+-------------------------------+
//!  |  rate X_r, bit/s (u64)                                        |
//!  +-------------------------------+-------------------------------+
//!  |  p, parts per 10⁹ (u32)       |
//!  +-------------------------------+
//! ```
//! flags: bit 0 = have RTT, bit 1 = have loss, bit 2 = leaving; other bits 0.
//!
//! Validation (every field): version, type, reserved byte and unknown flag bits; a feedback
//! packet that is not exactly 44 bytes; R_max = 0; X_supp = 0; echo fields that are not zero
//! without the echo flag, or a CLR flag without an echo; p above 1, p > 0 without the loss flag
//! or p = 0 with it; a zero rate from a receiver that is not leaving.

use crate::endpoint::HeaderBuf;
use crate::wire::{PairKind, PairLayout, Reader, WireError, Writer};

pub const VERSION: u8 = 1;
pub const TYPE_DATA: u8 = 1;
pub const TYPE_FEEDBACK: u8 = 2;
pub const DATA_BYTES: usize = 48;
pub const FEEDBACK_BYTES: usize = 44;
/// p = 1 on the wire.
pub const P_ONE_PPB: u32 = 1_000_000_000;
/// X_supp on the wire when the round has no suppression rate yet.
pub const NO_SUPPRESSION: u64 = u64::MAX;

const LAYOUT: PairLayout = PairLayout {
    version: VERSION,
    data_type: TYPE_DATA,
    data_bytes: DATA_BYTES,
    feedback_type: TYPE_FEEDBACK,
    feedback_bytes: FEEDBACK_BYTES,
};

const DATA_HAS_ECHO: u8 = 1;
const DATA_ECHO_IS_CLR: u8 = 2;
const FB_HAVE_RTT: u8 = 1;
const FB_HAVE_LOSS: u8 = 2;
const FB_LEAVE: u8 = 4;

/// A receiver timestamp the sender echoes (RFC 4654 §3.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Echo {
    pub receiver: u32,
    /// The receiver's timestamp from its feedback.
    pub timestamp_ns: u64,
    /// Time between that feedback's arrival at the sender and this packet, µs.
    pub offset_us: u32,
    /// The echoed receiver is the CLR.
    pub is_clr: bool,
}

/// Data packet header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TfmccData {
    pub seq: u32,
    pub timestamp_ns: u64,
    pub fb_round: u32,
    pub r_max_us: u32,
    /// X_supp in bit/s ([`NO_SUPPRESSION`]: none yet this round).
    pub x_supp_bps: u64,
    pub echo: Option<Echo>,
}

/// Feedback packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TfmccFeedback {
    pub receiver: u32,
    pub fb_round: u32,
    pub timestamp_ns: u64,
    /// The sender timestamp of the last data packet received.
    pub echo_ns: u64,
    /// Time since that data packet arrived, µs.
    pub echo_offset_us: u32,
    /// X_r: the calculated rate, or twice the receive rate before the first loss, bit/s.
    pub rate_bps: u64,
    pub p_ppb: u32,
    pub have_rtt: bool,
    pub have_loss: bool,
    pub leave: bool,
}

/// Either TFMCC packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TfmccHeader {
    Data(TfmccData),
    Feedback(TfmccFeedback),
}

/// p in [0, 1] to parts per 10⁹ (NaN and negatives as 0, above 1 as 1; a positive p never
/// rounds to 0, so that "have loss" and p > 0 agree).
pub fn p_to_ppb(p: f64) -> u32 {
    if p > 0.0 {
        ((p.min(1.0) * P_ONE_PPB as f64).round() as u32).max(1)
    } else {
        0
    }
}

impl TfmccData {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(DATA_BYTES);
        let (flags, e) = match self.echo {
            Some(e) => (DATA_HAS_ECHO | if e.is_clr { DATA_ECHO_IS_CLR } else { 0 }, e),
            None => (0, Echo { receiver: 0, timestamp_ns: 0, offset_us: 0, is_clr: false }),
        };
        Writer::new(h.bytes_mut())
            .u8(VERSION)
            .u8(TYPE_DATA)
            .u8(flags)
            .u8(0)
            .u32(self.seq)
            .u64(self.timestamp_ns)
            .u32(self.fb_round)
            .u32(self.r_max_us)
            .u64(self.x_supp_bps)
            .u32(e.receiver)
            .u64(e.timestamp_ns)
            .u32(e.offset_us);
        h
    }
}

impl TfmccFeedback {
    pub fn p(&self) -> f64 {
        self.p_ppb as f64 / P_ONE_PPB as f64
    }

    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(FEEDBACK_BYTES);
        let flags = (if self.have_rtt { FB_HAVE_RTT } else { 0 })
            | (if self.have_loss { FB_HAVE_LOSS } else { 0 })
            | (if self.leave { FB_LEAVE } else { 0 });
        Writer::new(h.bytes_mut())
            .u8(VERSION)
            .u8(TYPE_FEEDBACK)
            .u8(flags)
            .u8(0)
            .u32(self.receiver)
            .u32(self.fb_round)
            .u64(self.timestamp_ns)
            .u64(self.echo_ns)
            .u32(self.echo_offset_us)
            .u64(self.rate_bps)
            .u32(self.p_ppb);
        h
    }
}

impl TfmccHeader {
    pub fn emit(&self) -> HeaderBuf {
        match self {
            TfmccHeader::Data(d) => d.emit(),
            TfmccHeader::Feedback(f) => f.emit(),
        }
    }

    /// Parses a datagram: a data header (trailing bytes are payload) or a whole feedback packet.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let (kind, mut r) = LAYOUT.parse(buf)?;
        let flags = r.u8()?;
        if r.u8()? != 0 {
            return Err(WireError::Inconsistent("reserved byte set"));
        }
        match kind {
            PairKind::Data => parse_data(flags, &mut r).map(TfmccHeader::Data),
            PairKind::Feedback => parse_feedback(flags, &mut r).map(TfmccHeader::Feedback),
        }
    }
}

fn parse_data(flags: u8, r: &mut Reader<'_>) -> Result<TfmccData, WireError> {
    if flags & !(DATA_HAS_ECHO | DATA_ECHO_IS_CLR) != 0 {
        return Err(WireError::Inconsistent("unknown data flags"));
    }
    let (seq, timestamp_ns, fb_round, r_max_us, x_supp_bps) = (r.u32()?, r.u64()?, r.u32()?, r.u32()?, r.u64()?);
    let (receiver, echo_ts, offset_us) = (r.u32()?, r.u64()?, r.u32()?);
    if r_max_us == 0 {
        return Err(WireError::Inconsistent("maximum RTT of zero"));
    }
    if x_supp_bps == 0 {
        return Err(WireError::Inconsistent("suppression rate of zero"));
    }
    let echo = if flags & DATA_HAS_ECHO != 0 {
        Some(Echo { receiver, timestamp_ns: echo_ts, offset_us, is_clr: flags & DATA_ECHO_IS_CLR != 0 })
    } else {
        if flags & DATA_ECHO_IS_CLR != 0 {
            return Err(WireError::Inconsistent("CLR flag without an echo"));
        }
        if receiver != 0 || echo_ts != 0 || offset_us != 0 {
            return Err(WireError::Inconsistent("echo fields set without an echo"));
        }
        None
    };
    Ok(TfmccData { seq, timestamp_ns, fb_round, r_max_us, x_supp_bps, echo })
}

fn parse_feedback(flags: u8, r: &mut Reader<'_>) -> Result<TfmccFeedback, WireError> {
    if flags & !(FB_HAVE_RTT | FB_HAVE_LOSS | FB_LEAVE) != 0 {
        return Err(WireError::Inconsistent("unknown feedback flags"));
    }
    let f = TfmccFeedback {
        receiver: r.u32()?,
        fb_round: r.u32()?,
        timestamp_ns: r.u64()?,
        echo_ns: r.u64()?,
        echo_offset_us: r.u32()?,
        rate_bps: r.u64()?,
        p_ppb: r.u32()?,
        have_rtt: flags & FB_HAVE_RTT != 0,
        have_loss: flags & FB_HAVE_LOSS != 0,
        leave: flags & FB_LEAVE != 0,
    };
    if f.p_ppb > P_ONE_PPB {
        return Err(WireError::Inconsistent("loss event rate above 1"));
    }
    if f.have_loss != (f.p_ppb > 0) {
        return Err(WireError::Inconsistent("loss flag disagrees with the loss event rate"));
    }
    if f.rate_bps == 0 && !f.leave {
        return Err(WireError::Inconsistent("zero rate from a receiver that is not leaving"));
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[rustfmt::skip]
    const DATA: [u8; 48] = [
        1, 1, 3, 0, 0, 0, 1, 2,                             // ver, type, echo+CLR, 0, seq 258
        0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00,                 // timestamp 1 s
        0, 0, 0, 7, 0, 0x07, 0xa1, 0x20,                    // round 7, R_max 500 000 µs
        0, 0, 0, 0, 0, 0x0f, 0x42, 0x40,                    // X_supp 1 000 000 bit/s
        0, 0, 0, 5, 0, 0, 0, 0, 0x77, 0x35, 0x94, 0x00,     // receiver 5, its timestamp 2 s
        0, 0, 0x03, 0xe8,                                   // offset 1000 µs
    ];
    #[rustfmt::skip]
    const FEEDBACK: [u8; 44] = [
        1, 2, 3, 0, 0, 0, 0, 5,                             // ver, type, RTT+loss, 0, receiver 5
        0, 0, 0, 7,                                         // round 7
        0, 0, 0, 0, 0x77, 0x35, 0x94, 0x00,                 // timestamp 2 s
        0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00,                 // echo 1 s
        0, 0, 0x07, 0xd0,                                   // offset 2000 µs
        0, 0, 0, 0, 0, 0x0f, 0x42, 0x40,                    // rate 1 000 000 bit/s
        0, 0x98, 0x96, 0x80,                                // p = 0.01
    ];

    fn data() -> TfmccData {
        TfmccData {
            seq: 258,
            timestamp_ns: 1_000_000_000,
            fb_round: 7,
            r_max_us: 500_000,
            x_supp_bps: 1_000_000,
            echo: Some(Echo { receiver: 5, timestamp_ns: 2_000_000_000, offset_us: 1000, is_clr: true }),
        }
    }

    fn feedback() -> TfmccFeedback {
        TfmccFeedback {
            receiver: 5,
            fb_round: 7,
            timestamp_ns: 2_000_000_000,
            echo_ns: 1_000_000_000,
            echo_offset_us: 2000,
            rate_bps: 1_000_000,
            p_ppb: 10_000_000,
            have_rtt: true,
            have_loss: true,
            leave: false,
        }
    }

    #[test]
    fn emits_and_parses_the_fixed_vectors() {
        assert_eq!(data().emit().as_slice(), &DATA);
        assert_eq!(TfmccHeader::parse(&DATA), Ok(TfmccHeader::Data(data())));
        assert_eq!(feedback().emit().as_slice(), &FEEDBACK);
        assert_eq!(TfmccHeader::parse(&FEEDBACK), Ok(TfmccHeader::Feedback(feedback())));
        let mut with_payload = DATA.to_vec();
        with_payload.extend([9; 50]);
        assert_eq!(TfmccHeader::parse(&with_payload), Ok(TfmccHeader::Data(data())));
        let plain = TfmccData { echo: None, ..data() };
        assert_eq!(TfmccHeader::parse(plain.emit().as_slice()), Ok(TfmccHeader::Data(plain)));
    }

    #[test]
    fn rejects_every_bad_field() {
        let err = |v: &[u8]| TfmccHeader::parse(v).unwrap_err();
        assert_eq!(err(&DATA[..47]), WireError::Truncated { needed: 48, got: 47 });
        assert_eq!(err(&FEEDBACK[..43]), WireError::Truncated { needed: 44, got: 43 });
        assert_eq!(err(&[]), WireError::Truncated { needed: 4, got: 0 });
        let with = |base: &[u8], i: usize, b: u8| {
            let mut v = base.to_vec();
            v[i] = b;
            v
        };
        assert_eq!(err(&with(&DATA, 0, 2)), WireError::BadVersion(2));
        assert_eq!(err(&with(&DATA, 1, 9)), WireError::UnknownType(9));
        assert_eq!(err(&with(&DATA, 3, 1)), WireError::Inconsistent("reserved byte set"));
        assert_eq!(err(&with(&DATA, 2, 4)), WireError::Inconsistent("unknown data flags"));
        assert_eq!(err(&with(&DATA, 2, 2)), WireError::Inconsistent("CLR flag without an echo"));
        assert_eq!(err(&with(&DATA, 2, 0)), WireError::Inconsistent("echo fields set without an echo"));
        let mut v = DATA;
        v[20..24].copy_from_slice(&[0; 4]);
        assert_eq!(err(&v), WireError::Inconsistent("maximum RTT of zero"));
        let mut v = DATA;
        v[24..32].copy_from_slice(&[0; 8]);
        assert_eq!(err(&v), WireError::Inconsistent("suppression rate of zero"));
        let mut long = FEEDBACK.to_vec();
        long.push(0);
        assert_eq!(err(&long), WireError::Inconsistent("feedback packet with trailing bytes"));
        assert_eq!(err(&with(&FEEDBACK, 2, 8)), WireError::Inconsistent("unknown feedback flags"));
        assert_eq!(
            err(&with(&FEEDBACK, 2, 1)),
            WireError::Inconsistent("loss flag disagrees with the loss event rate")
        );
        let mut v = FEEDBACK;
        v[40..44].copy_from_slice(&(P_ONE_PPB + 1).to_be_bytes());
        assert_eq!(err(&v), WireError::Inconsistent("loss event rate above 1"));
        let mut v = FEEDBACK;
        v[32..40].copy_from_slice(&[0; 8]);
        assert_eq!(err(&v), WireError::Inconsistent("zero rate from a receiver that is not leaving"));
        v[2] |= FB_LEAVE;
        assert!(matches!(TfmccHeader::parse(&v), Ok(TfmccHeader::Feedback(f)) if f.leave && f.rate_bps == 0));
    }

    #[test]
    fn loss_rate_conversion_keeps_positive_rates_positive() {
        assert_eq!(p_to_ppb(0.0), 0);
        assert_eq!(p_to_ppb(f64::NAN), 0);
        assert_eq!(p_to_ppb(1e-12), 1);
        assert_eq!(p_to_ppb(0.01), 10_000_000);
        assert_eq!(p_to_ppb(3.0), P_ONE_PPB);
    }

    proptest! {
        #[test]
        fn round_trips(seq: u32, ts: u64, round: u32, rmax in 1u32.., supp in 1u64.., rid: u32, ets: u64,
                       off: u32, clr: bool, echo: bool, rate in 1u64.., p in 0u32..=P_ONE_PPB,
                       rtt: bool, leave: bool) {
            let e = echo.then_some(Echo { receiver: rid, timestamp_ns: ets, offset_us: off, is_clr: clr });
            let d = TfmccHeader::Data(TfmccData { seq, timestamp_ns: ts, fb_round: round, r_max_us: rmax, x_supp_bps: supp, echo: e });
            prop_assert_eq!(TfmccHeader::parse(d.emit().as_slice()), Ok(d));
            let f = TfmccHeader::Feedback(TfmccFeedback {
                receiver: rid, fb_round: round, timestamp_ns: ts, echo_ns: ets, echo_offset_us: off,
                rate_bps: rate, p_ppb: p, have_rtt: rtt, have_loss: p > 0, leave,
            });
            prop_assert_eq!(TfmccHeader::parse(f.emit().as_slice()), Ok(f));
        }

        #[test]
        fn never_panics_and_errors_are_typed(bytes in proptest::collection::vec(any::<u8>(), 0..100)) {
            match TfmccHeader::parse(&bytes) {
                Ok(h) => {
                    // Whatever parses re-emits to the same header bytes.
                    let n = match h { TfmccHeader::Data(_) => DATA_BYTES, TfmccHeader::Feedback(_) => FEEDBACK_BYTES };
                    let e = h.emit();
                    prop_assert_eq!(e.as_slice(), &bytes[..n]);
                }
                Err(WireError::Truncated { needed, got }) => prop_assert!(got < needed && got == bytes.len()),
                Err(_) => {}
            }
        }

        #[test]
        fn never_panics_on_mutated_headers(i in 0usize..48, b: u8, cut in 0usize..60) {
            for base in [&DATA[..], &FEEDBACK[..]] {
                let mut v = base.to_vec();
                if i < v.len() { v[i] = b; }
                v.truncate(cut);
                let _ = TfmccHeader::parse(&v);
            }
        }
    }
}
