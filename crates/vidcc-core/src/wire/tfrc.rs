//! TFRC headers (RFC 5348 §3.2). The RFC names the fields and leaves the layout to the transport
//! (DCCP CCID 3 is one); this is vidcc's layout, big-endian like every vidcc header.
//!
//! Data packet (§3.2.1: sequence number, timestamp, the sender's RTT estimate), 20 bytes, followed
//! by the payload:
//!
//! ```text
//!  0       1       2               4                               8
//!  +-------+-------+---------------+-------------------------------+
//!  | ver=1 | type=1|   reserved    |          sequence (u32)       |
//!  +-------+-------+---------------+-------------------------------+
//!  |               timestamp, ns on the sender's clock (u64)       |
//!  +-------------------------------+-------------------------------+
//!  |  sender's RTT estimate R, µs  |   (0: no estimate yet)
//!  +-------------------------------+
//! ```
//!
//! Feedback packet (§3.2.2: timestamp echo t_recvdata, t_delay, X_recv, p), exactly 32 bytes:
//!
//! ```text
//!  0       1       2               4                               8
//!  +-------+-------+---------------+-------------------------------+
//!  | ver=1 | type=2|   reserved    |  sequence of the echoed packet|
//!  +-------+-------+---------------+-------------------------------+
//!  |      timestamp echo t_recvdata (u64, the data packet's)       |
//!  +-------------------------------+-------------------------------+
//!  |          t_delay, µs          |  X_recv, bit/s (u64) ...
//!  +-------------------------------+-------------------------------+
//!  |  ... X_recv                   |  p, parts per 10⁹ (≤ 10⁹)     |
//!  +-------------------------------+-------------------------------+
//! ```
//!
//! Validation: wrong version, unknown type, reserved bits set, a feedback packet that is not
//! exactly 32 bytes, and p above 1 (10⁹ ppb) are errors. A data packet's trailing bytes are its
//! payload. p is carried with a resolution of 10⁻⁹ (rounded to nearest), enough for the loss
//! event rates of any realistic flow (1/p up to 10⁹ packets); the RTT and t_delay in whole
//! microseconds (RFC 5348 §3.2 asks for millisecond resolution at least).

use super::{PairKind, PairLayout, WireError, Writer};
use crate::endpoint::HeaderBuf;

pub const VERSION: u8 = 1;
pub const TYPE_DATA: u8 = 1;
pub const TYPE_FEEDBACK: u8 = 2;
pub const DATA_BYTES: usize = 20;
pub const FEEDBACK_BYTES: usize = 32;
/// p = 1 on the wire.
pub const P_ONE_PPB: u32 = 1_000_000_000;

const LAYOUT: PairLayout = PairLayout {
    version: VERSION,
    data_type: TYPE_DATA,
    data_bytes: DATA_BYTES,
    feedback_type: TYPE_FEEDBACK,
    feedback_bytes: FEEDBACK_BYTES,
};

/// Data packet header (RFC 5348 §3.2.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TfrcData {
    pub seq: u32,
    /// Send time on the sender's clock, ns.
    pub timestamp_ns: u64,
    /// The sender's RTT estimate R in µs; 0 before the sender has one.
    pub rtt_us: u32,
}

/// Feedback packet (RFC 5348 §3.2.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TfrcFeedback {
    /// Sequence number of the data packet whose timestamp is echoed (diagnostic).
    pub echo_seq: u32,
    /// t_recvdata: the timestamp of the last data packet received.
    pub timestamp_echo_ns: u64,
    /// t_delay: time between that packet's arrival and this feedback, µs.
    pub t_delay_us: u32,
    /// X_recv, bit/s.
    pub x_recv_bps: u64,
    /// Loss event rate p in parts per 10⁹, at most [`P_ONE_PPB`].
    pub p_ppb: u32,
}

/// Either TFRC packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TfrcHeader {
    Data(TfrcData),
    Feedback(TfrcFeedback),
}

impl TfrcFeedback {
    /// p as a number in [0, 1].
    pub fn p(&self) -> f64 {
        self.p_ppb as f64 / P_ONE_PPB as f64
    }

    /// p in [0, 1] to parts per 10⁹ (NaN and negatives as 0, above 1 as 1).
    pub fn p_to_ppb(p: f64) -> u32 {
        if p > 0.0 {
            (p.min(1.0) * P_ONE_PPB as f64).round() as u32
        } else {
            0
        }
    }

    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(FEEDBACK_BYTES);
        Writer::new(h.bytes_mut())
            .u8(VERSION)
            .u8(TYPE_FEEDBACK)
            .u16(0)
            .u32(self.echo_seq)
            .u64(self.timestamp_echo_ns)
            .u32(self.t_delay_us)
            .u64(self.x_recv_bps)
            .u32(self.p_ppb);
        h
    }
}

impl TfrcData {
    pub fn emit(&self) -> HeaderBuf {
        let mut h = HeaderBuf::writer(DATA_BYTES);
        Writer::new(h.bytes_mut())
            .u8(VERSION)
            .u8(TYPE_DATA)
            .u16(0)
            .u32(self.seq)
            .u64(self.timestamp_ns)
            .u32(self.rtt_us);
        h
    }
}

impl TfrcHeader {
    pub fn emit(&self) -> HeaderBuf {
        match self {
            TfrcHeader::Data(d) => d.emit(),
            TfrcHeader::Feedback(f) => f.emit(),
        }
    }

    /// Parses a datagram: a data header (trailing bytes are payload) or a whole feedback packet.
    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let (kind, mut r) = LAYOUT.parse(buf)?;
        if r.u16()? != 0 {
            return Err(WireError::Inconsistent("reserved bits set"));
        }
        if kind == PairKind::Data {
            return Ok(TfrcHeader::Data(TfrcData { seq: r.u32()?, timestamp_ns: r.u64()?, rtt_us: r.u32()? }));
        }
        let f = TfrcFeedback {
            echo_seq: r.u32()?,
            timestamp_echo_ns: r.u64()?,
            t_delay_us: r.u32()?,
            x_recv_bps: r.u64()?,
            p_ppb: r.u32()?,
        };
        if f.p_ppb > P_ONE_PPB {
            return Err(WireError::Inconsistent("loss event rate above 1"));
        }
        Ok(TfrcHeader::Feedback(f))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const DATA: [u8; 20] = [1, 1, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00, 0, 0x01, 0x86, 0xa0];
    const FEEDBACK: [u8; 32] = [
        1, 2, 0, 0, 0, 0, 1, 2, // ver, type, reserved, echo seq 258
        0, 0, 0, 0, 0x3b, 0x9a, 0xca, 0x00, // echo 1 s
        0, 0, 0x03, 0xe8, // t_delay 1000 µs
        0, 0, 0, 0, 0, 0x0f, 0x42, 0x40, // X_recv 1 000 000 bit/s
        0, 0x98, 0x96, 0x80, // p = 10 000 000 ppb = 0.01
    ];

    fn data() -> TfrcData {
        TfrcData { seq: 258, timestamp_ns: 1_000_000_000, rtt_us: 100_000 }
    }

    fn feedback() -> TfrcFeedback {
        TfrcFeedback {
            echo_seq: 258,
            timestamp_echo_ns: 1_000_000_000,
            t_delay_us: 1000,
            x_recv_bps: 1_000_000,
            p_ppb: 10_000_000,
        }
    }

    #[test]
    fn emits_and_parses_the_fixed_vectors() {
        assert_eq!(data().emit().as_slice(), &DATA);
        assert_eq!(TfrcHeader::parse(&DATA), Ok(TfrcHeader::Data(data())));
        assert_eq!(feedback().emit().as_slice(), &FEEDBACK);
        assert_eq!(TfrcHeader::parse(&FEEDBACK), Ok(TfrcHeader::Feedback(feedback())));
        assert_eq!(feedback().p(), 0.01);
    }

    #[test]
    fn data_payload_follows_the_header() {
        let mut v = DATA.to_vec();
        v.extend([7; 100]);
        assert_eq!(TfrcHeader::parse(&v), Ok(TfrcHeader::Data(data())));
    }

    #[test]
    fn rejects_bad_datagrams() {
        assert_eq!(TfrcHeader::parse(&DATA[..19]), Err(WireError::Truncated { needed: 20, got: 19 }));
        assert_eq!(TfrcHeader::parse(&FEEDBACK[..31]), Err(WireError::Truncated { needed: 32, got: 31 }));
        assert_eq!(TfrcHeader::parse(&[1]), Err(WireError::Truncated { needed: 4, got: 1 }));
        assert_eq!(TfrcHeader::parse(&[]), Err(WireError::Truncated { needed: 4, got: 0 }));
        let mut v = DATA;
        v[0] = 2;
        assert_eq!(TfrcHeader::parse(&v), Err(WireError::BadVersion(2)));
        v = DATA;
        v[1] = 3;
        assert_eq!(TfrcHeader::parse(&v), Err(WireError::UnknownType(3)));
        v = DATA;
        v[2] = 0x80;
        assert_eq!(TfrcHeader::parse(&v), Err(WireError::Inconsistent("reserved bits set")));
        let mut long = FEEDBACK.to_vec();
        long.push(0);
        assert_eq!(TfrcHeader::parse(&long), Err(WireError::Inconsistent("feedback packet with trailing bytes")));
        // p = 1 000 000 001 ppb > 1
        let mut f = FEEDBACK;
        f[28..32].copy_from_slice(&1_000_000_001u32.to_be_bytes());
        assert_eq!(TfrcHeader::parse(&f), Err(WireError::Inconsistent("loss event rate above 1")));
        f[28..32].copy_from_slice(&P_ONE_PPB.to_be_bytes());
        assert!(matches!(TfrcHeader::parse(&f), Ok(TfrcHeader::Feedback(fb)) if fb.p() == 1.0));
    }

    #[test]
    fn loss_rate_conversion_rounds_and_clamps() {
        assert_eq!(TfrcFeedback::p_to_ppb(0.0), 0);
        assert_eq!(TfrcFeedback::p_to_ppb(f64::NAN), 0);
        assert_eq!(TfrcFeedback::p_to_ppb(-1.0), 0);
        assert_eq!(TfrcFeedback::p_to_ppb(2.0), P_ONE_PPB);
        // 1/3 = 0.333333333(3) → 333 333 333 ppb
        assert_eq!(TfrcFeedback::p_to_ppb(1.0 / 3.0), 333_333_333);
        // 2.5e-10 rounds to 0, 5e-10 to 1 ppb
        assert_eq!(TfrcFeedback::p_to_ppb(2.5e-10), 0);
        assert_eq!(TfrcFeedback::p_to_ppb(6e-10), 1);
    }

    proptest! {
        #[test]
        fn round_trips(seq: u32, ts: u64, rtt: u32, d: u32, x: u64, p in 0u32..=P_ONE_PPB) {
            let h = TfrcHeader::Data(TfrcData { seq, timestamp_ns: ts, rtt_us: rtt });
            prop_assert_eq!(TfrcHeader::parse(h.emit().as_slice()), Ok(h));
            let f = TfrcHeader::Feedback(TfrcFeedback {
                echo_seq: seq, timestamp_echo_ns: ts, t_delay_us: d, x_recv_bps: x, p_ppb: p,
            });
            prop_assert_eq!(TfrcHeader::parse(f.emit().as_slice()), Ok(f));
        }

        #[test]
        fn never_panics_on_random_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
            let _ = TfrcHeader::parse(&bytes);
        }

        #[test]
        fn never_panics_on_mutated_headers(i in 0usize..32, b: u8, cut in 0usize..40) {
            for base in [&DATA[..], &FEEDBACK[..]] {
                let mut v = base.to_vec();
                if i < v.len() { v[i] = b; }
                v.truncate(cut);
                let _ = TfrcHeader::parse(&v);
            }
        }
    }
}
