//! ASMP's packets (`docs/papers/asmp-tfmcc.md` §1.3): RTP data and RTCP
//! compound packets whose ASMP fields travel in APP packets named `ASMP` (the paper: "no
//! feedback other than RTCP SR/RR plus RTCP APP extensions"; the APP layouts are unspecified,
//! AMB-10, so these are vidcc's \[C\]). Built on [`super::rtp`] and [`super::rtcp`].
//!
//! - **Data**: an RTP packet (RFC 3550 §5.1) of payload type [`PT_VIDEO`] = 96; any valid RTP
//!   header is accepted, vidcc sends the 12-byte fixed header. M marks a frame's last packet.
//! - **Session report** (sender → group, on the sender's RTCP schedule), 52 bytes: SR (RC = 0)
//!   and an APP of subtype [`SUB_SUMMARY`] `{members: u32, rate: u32 bytes/s, max: u32 bytes/s}`:
//!   the sender's view of the group size (receivers report to the sender by unicast and cannot
//!   count each other, so the sender tells them, as RFC 5760's receiver summary does for
//!   source-specific multicast), its current rate (the receivers' initial r, AMB-7) and the
//!   highest rate it will send (0: no bound), which bounds the receivers' r.
//! - **RTT echo** (sender → one receiver, after each of its reports), 28 bytes: an empty RR
//!   and an APP of subtype [`SUB_RTT`] `{receiver SSRC: u32, rtt: u32 µs}` (the paper's step 2).
//! - **Receiver report** (receiver → sender, on the receiver's RTCP schedule), 32 or 56 bytes:
//!   RR with one report block about the sender (none before data arrives) + APP subtype
//!   [`SUB_RATE`] `{rate: u32 bytes/s, loss: u32 (l·2^32, saturated), flags: u32 (bit 0 =
//!   CONGESTED)}` once the receiver has a rate (the paper's step 5).
//!
//! Validation beyond RFC 3550's: the compound packet holds what its direction carries and
//! nothing else but SDES/BYE (ignored); each APP is named `ASMP` with a known subtype, its
//! SSRC is the reporter's, its data is exactly its layout's length, unknown flag bits are zero.

use super::rtcp::{Compound, ReportBlock, RtcpBuilder, RtcpPacket, SenderInfo, PT_BYE, PT_SDES};
use super::rtp::{RtpHeader, RtpPacket};
use super::WireError;
use crate::endpoint::HeaderBuf;

/// Dynamic payload type of the video (RFC 3551 §6).
pub const PT_VIDEO: u8 = 96;
pub const APP_NAME: [u8; 4] = *b"ASMP";
/// APP subtype: a receiver's rate report.
pub const SUB_RATE: u8 = 0;
/// APP subtype: the sender's RTT for one receiver.
pub const SUB_RTT: u8 = 1;
/// APP subtype: the sender's session summary.
pub const SUB_SUMMARY: u8 = 2;
/// Bytes of the data header vidcc sends.
pub const DATA_HEADER_BYTES: usize = super::rtp::RTP_HEADER_BYTES;
/// Session report: SR 28 + APP 24.
pub const SESSION_REPORT_BYTES: usize = 52;
/// RTT echo: RR 8 + APP 20.
pub const RTT_ECHO_BYTES: usize = 28;
/// Receiver report with a block and a rate: RR 32 + APP 24.
pub const RECEIVER_REPORT_BYTES: usize = 56;

/// The data header of ASMP's RTP packets.
pub fn data_header(marker: bool, seq: u16, timestamp: u32, ssrc: u32) -> RtpHeader {
    RtpHeader { marker, payload_type: PT_VIDEO, seq, timestamp, ssrc }
}

/// A receiver's APP report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RateReport {
    /// The smoothed rate r, bytes/s.
    pub rate_bytes_per_s: u32,
    /// Loss ratio of the interval × 2^32 (saturated at `u32::MAX`).
    pub loss: u32,
    pub congested: bool,
}

/// What a receiver sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverReport {
    pub ssrc: u32,
    pub block: Option<ReportBlock>,
    pub rate: Option<RateReport>,
}

impl ReceiverReport {
    pub fn emit(&self) -> HeaderBuf {
        let b = RtcpBuilder::new().rr(self.ssrc, self.block.as_slice(), &[]);
        let b = match self.rate {
            None => b,
            Some(r) => {
                let mut data = [0u8; 12];
                data[..4].copy_from_slice(&r.rate_bytes_per_s.to_be_bytes());
                data[4..8].copy_from_slice(&r.loss.to_be_bytes());
                data[8..].copy_from_slice(&(r.congested as u32).to_be_bytes());
                b.app(SUB_RATE, self.ssrc, APP_NAME, &data)
            }
        };
        b.finish()
    }

    pub fn parse(buf: &[u8]) -> Result<Self, WireError> {
        let c = Compound::parse(buf)?;
        let mut report: Option<ReceiverReport> = None;
        for p in c.iter() {
            match p {
                RtcpPacket::Rr(rr) if report.is_none() => {
                    if rr.reports.len() > 1 || !rr.ext.is_empty() {
                        return Err(WireError::Inconsistent("ASMP RR carries at most one block and no extension"));
                    }
                    report = Some(ReceiverReport { ssrc: rr.ssrc, block: rr.reports.get(0), rate: None });
                }
                RtcpPacket::App(a) => {
                    let r = report.as_mut().ok_or(WireError::Inconsistent("ASMP APP before the RR"))?;
                    let w = app_words::<3>(a.name, a.subtype, SUB_RATE, a.data)?;
                    if a.ssrc != r.ssrc || r.rate.is_some() {
                        return Err(WireError::Inconsistent("ASMP rate report from another SSRC, or twice"));
                    }
                    if w[2] & !1 != 0 {
                        return Err(WireError::Inconsistent("ASMP rate report with unknown flags"));
                    }
                    r.rate = Some(RateReport { rate_bytes_per_s: w[0], loss: w[1], congested: w[2] & 1 != 0 });
                }
                p => ignorable(p)?,
            }
        }
        report.ok_or(WireError::Inconsistent("ASMP receiver report without an RR"))
    }
}

/// What the sender sends to a receiver: data, the session report, or an RTT echo.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToReceiver {
    Data(RtpHeader),
    /// `max_bytes_per_s`: the highest rate the sender will send, 0 if it has no bound.
    Session {
        ssrc: u32,
        info: SenderInfo,
        members: u32,
        rate_bytes_per_s: u32,
        max_bytes_per_s: u32,
    },
    Rtt {
        receiver_ssrc: u32,
        rtt_us: u32,
    },
}

impl ToReceiver {
    pub fn session(
        ssrc: u32,
        info: SenderInfo,
        members: u32,
        rate_bytes_per_s: u32,
        max_bytes_per_s: u32,
    ) -> HeaderBuf {
        let mut data = [0u8; 12];
        data[..4].copy_from_slice(&members.to_be_bytes());
        data[4..8].copy_from_slice(&rate_bytes_per_s.to_be_bytes());
        data[8..].copy_from_slice(&max_bytes_per_s.to_be_bytes());
        RtcpBuilder::new().sr(ssrc, info, &[], &[]).app(SUB_SUMMARY, ssrc, APP_NAME, &data).finish()
    }

    pub fn rtt(sender_ssrc: u32, receiver_ssrc: u32, rtt_us: u32) -> HeaderBuf {
        let mut data = [0u8; 8];
        data[..4].copy_from_slice(&receiver_ssrc.to_be_bytes());
        data[4..].copy_from_slice(&rtt_us.to_be_bytes());
        RtcpBuilder::new().rr(sender_ssrc, &[], &[]).app(SUB_RTT, sender_ssrc, APP_NAME, &data).finish()
    }

    /// Parses a datagram whose first bytes are `buf` and whose whole length is `total_len`.
    /// RTCP and RTP are told apart by the second byte (RFC 5761 §4: 200 SR, 201 RR).
    pub fn parse(buf: &[u8], total_len: usize) -> Result<Self, WireError> {
        match buf.get(1) {
            Some(200) | Some(201) => {
                if total_len != buf.len() {
                    return Err(WireError::Inconsistent("RTCP packet with a payload"));
                }
                Self::parse_control(buf)
            }
            _ => {
                let p = RtpPacket::parse(buf, total_len)?;
                if p.header.payload_type != PT_VIDEO {
                    return Err(WireError::UnknownType(p.header.payload_type));
                }
                Ok(ToReceiver::Data(p.header))
            }
        }
    }

    fn parse_control(buf: &[u8]) -> Result<Self, WireError> {
        let c = Compound::parse(buf)?;
        let mut it = c.iter();
        let first = it.next().ok_or(WireError::Inconsistent("empty RTCP packet"))?;
        let mut out = None;
        for p in it {
            let RtcpPacket::App(a) = p else {
                ignorable(p)?;
                continue;
            };
            if out.is_some() {
                return Err(WireError::Inconsistent("two ASMP APP packets"));
            }
            out = Some(match first {
                RtcpPacket::Sr(sr) if sr.reports.is_empty() && sr.ext.is_empty() && a.ssrc == sr.ssrc => {
                    let w = app_words::<3>(a.name, a.subtype, SUB_SUMMARY, a.data)?;
                    ToReceiver::Session {
                        ssrc: sr.ssrc,
                        info: sr.info,
                        members: w[0],
                        rate_bytes_per_s: w[1],
                        max_bytes_per_s: w[2],
                    }
                }
                RtcpPacket::Rr(rr) if rr.reports.is_empty() && rr.ext.is_empty() && a.ssrc == rr.ssrc => {
                    let w = app_words::<2>(a.name, a.subtype, SUB_RTT, a.data)?;
                    ToReceiver::Rtt { receiver_ssrc: w[0], rtt_us: w[1] }
                }
                _ => return Err(WireError::Inconsistent("ASMP control packet of the wrong shape")),
            });
        }
        out.ok_or(WireError::Inconsistent("ASMP control packet without its APP"))
    }
}

/// SDES and BYE may ride along (RFC 3550 §6.1); anything else is not ASMP's.
fn ignorable(p: RtcpPacket<'_>) -> Result<(), WireError> {
    match p.packet_type() {
        PT_SDES | PT_BYE => Ok(()),
        _ => Err(WireError::Inconsistent("unexpected RTCP packet in an ASMP compound packet")),
    }
}

/// The `N` data words of an ASMP APP of subtype `want`.
fn app_words<const N: usize>(name: [u8; 4], subtype: u8, want: u8, data: &[u8]) -> Result<[u32; N], WireError> {
    if name != APP_NAME {
        return Err(WireError::Inconsistent("APP packet not named ASMP"));
    }
    if subtype != want {
        return Err(WireError::UnknownType(subtype));
    }
    if data.len() != 4 * N {
        return Err(WireError::Inconsistent("ASMP APP data of the wrong length"));
    }
    let mut w = [0u32; N];
    for (i, c) in data.chunks_exact(4).enumerate() {
        w[i] = u32::from_be_bytes([c[0], c[1], c[2], c[3]]);
    }
    Ok(w)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[rustfmt::skip]
    const RECEIVER: [u8; 56] = [
        0x81, 201, 0, 7, 0, 0, 0, 7,                   // RR, 1 block, SSRC 7
        0, 0, 0, 1, 0x10, 0, 0, 3, 0, 0, 1, 0,         // source 1, fraction 16, cumulative 3, highest 256
        0, 0, 0, 9, 0, 2, 0x80, 0, 0, 0, 0x40, 0,      // jitter 9, LSR 2.5 s, DLSR 0.25 s
        0x80, 204, 0, 5, 0, 0, 0, 7, b'A', b'S', b'M', b'P',
        0, 0, 0x30, 0x39,                               // rate 12 345 B/s
        0x40, 0, 0, 0,                                  // loss 0.25
        0, 0, 0, 1,                                     // CONGESTED
    ];

    fn receiver_report() -> ReceiverReport {
        ReceiverReport {
            ssrc: 7,
            block: Some(ReportBlock {
                source_ssrc: 1,
                fraction_lost: 16,
                cumulative_lost: 3,
                extended_highest_seq: 256,
                jitter: 9,
                lsr: 0x0002_8000,
                dlsr: 0x4000,
            }),
            rate: Some(RateReport { rate_bytes_per_s: 12_345, loss: 0x4000_0000, congested: true }),
        }
    }

    #[test]
    fn fixed_vectors() {
        let r = receiver_report();
        assert_eq!(r.emit().as_slice(), &RECEIVER);
        assert_eq!(ReceiverReport::parse(&RECEIVER), Ok(r));
        let bare = ReceiverReport { ssrc: 7, block: None, rate: None };
        assert_eq!(bare.emit().as_slice(), &[0x80, 201, 0, 1, 0, 0, 0, 7]);
        assert_eq!(ReceiverReport::parse(bare.emit().as_slice()), Ok(bare));

        let info = SenderInfo { ntp: 5 << 32, rtp_timestamp: 450_000, packet_count: 10, octet_count: 9_780 };
        let s = ToReceiver::session(1, info, 3, 12_500, 205_250);
        assert_eq!(s.len(), SESSION_REPORT_BYTES);
        #[rustfmt::skip]
        assert_eq!(&s.as_slice()[28..], &[0x82, 204, 0, 5, 0, 0, 0, 1, b'A', b'S', b'M', b'P', 0, 0, 0, 3,
            0, 0, 0x30, 0xd4, 0, 0x03, 0x21, 0xc2]);
        assert_eq!(
            ToReceiver::parse(s.as_slice(), 52),
            Ok(ToReceiver::Session { ssrc: 1, info, members: 3, rate_bytes_per_s: 12_500, max_bytes_per_s: 205_250 })
        );
        let e = ToReceiver::rtt(1, 7, 80_000);
        #[rustfmt::skip]
        assert_eq!(e.as_slice(), &[0x80, 201, 0, 1, 0, 0, 0, 1,
            0x81, 204, 0, 4, 0, 0, 0, 1, b'A', b'S', b'M', b'P', 0, 0, 0, 7, 0, 1, 0x38, 0x80]);
        assert_eq!(ToReceiver::parse(e.as_slice(), 28), Ok(ToReceiver::Rtt { receiver_ssrc: 7, rtt_us: 80_000 }));
        let d = data_header(true, 5, 900, 1).emit();
        assert_eq!(ToReceiver::parse(d.as_slice(), 1018), Ok(ToReceiver::Data(data_header(true, 5, 900, 1))));
    }

    #[test]
    fn rejections() {
        let bad = |v: &[u8]| matches!(ReceiverReport::parse(v), Err(WireError::Inconsistent(_)));
        let mut v = RECEIVER;
        v[43] = b'Q'; // name
        assert!(bad(&v));
        v = RECEIVER;
        v[55] = 3; // unknown flag
        assert!(bad(&v));
        v = RECEIVER;
        v[39] = 8; // APP from another SSRC
        assert!(bad(&v));
        v = RECEIVER;
        v[32] = 0x81; // subtype 1 (an RTT echo's) from a receiver
        assert_eq!(ReceiverReport::parse(&v), Err(WireError::UnknownType(1)));
        // An SR is not a receiver report.
        let s = ToReceiver::session(1, SenderInfo::default(), 3, 1, 0);
        assert!(bad(s.as_slice()));
        // A session report with a payload, an RTT echo without its APP, data of another type.
        assert!(ToReceiver::parse(s.as_slice(), 53).is_err());
        assert!(ToReceiver::parse(&[0x80, 201, 0, 1, 0, 0, 0, 1], 8).is_err());
        let mut d = data_header(false, 1, 1, 1).emit().as_slice().to_vec();
        d[1] = 97;
        assert_eq!(ToReceiver::parse(&d, 100), Err(WireError::UnknownType(97)));
        // A receiver report sent to a receiver: wrong shape.
        assert!(ToReceiver::parse(&RECEIVER, 56).is_err());
    }

    proptest! {
        #[test]
        fn round_trips(ssrc: u32, block: bool, rate: Option<(u32, u32, bool)>, members: u32, x: u32, max: u32, rtt: u32) {
            let r = ReceiverReport {
                ssrc,
                block: block.then_some(ReportBlock { source_ssrc: ssrc ^ 1, ..ReportBlock::default() }),
                rate: rate.map(|(rate_bytes_per_s, loss, congested)| RateReport { rate_bytes_per_s, loss, congested }),
            };
            prop_assert_eq!(ReceiverReport::parse(r.emit().as_slice()), Ok(r));
            let s = ToReceiver::session(ssrc, SenderInfo::default(), members, x, max);
            prop_assert_eq!(ToReceiver::parse(s.as_slice(), s.len()),
                Ok(ToReceiver::Session { ssrc, info: SenderInfo::default(), members, rate_bytes_per_s: x, max_bytes_per_s: max }));
            let e = ToReceiver::rtt(ssrc, ssrc ^ 1, rtt);
            prop_assert_eq!(ToReceiver::parse(e.as_slice(), e.len()), Ok(ToReceiver::Rtt { receiver_ssrc: ssrc ^ 1, rtt_us: rtt }));
        }

        #[test]
        fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..80), extra in 0usize..1500) {
            let _ = ReceiverReport::parse(&bytes);
            let _ = ToReceiver::parse(&bytes, bytes.len() + extra);
            let _ = ToReceiver::parse(&bytes, bytes.len());
        }

        #[test]
        fn mutated_vectors_never_panic(i in 0usize..56, v: u8, cut in 0usize..57) {
            let mut m = RECEIVER;
            m[i] = v;
            let _ = ReceiverReport::parse(&m[..cut]);
            let _ = ToReceiver::parse(&m[..cut], cut);
        }
    }
}
