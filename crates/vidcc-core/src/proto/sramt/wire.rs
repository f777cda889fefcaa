//! SRAMT's packets (specs/004-sramt.md §1.11; encodings are free, A-30): RTP data packets with
//! a header extension carrying the SRAMT fields, RTCP sender reports, and the receivers' RTCP
//! receiver report with an APP block, all RFC 3550 framing (version 2; RTP and RTCP told apart
//! by the packet-type byte, RFC 5761 §4). Every field is validated on parse; parsers return
//! [`WireError`] and never panic.
//!
//! ```text
//! data  = RTP header (12: V=2 X=1 PT=96, seq, timestamp = send time in µs, SSRC)
//!         + extension header (4: profile 0x5352 "SR", length = 7 + n words)
//!         + [group u8 | n u8 | flags u8 | echo_group u8]          flags: 1 end of epoch,
//!           [epoch_us u32] [epoch_index u32] [members u32]                2 RTT echo, 4 heard report
//!           [echo_id u32] [echo_rtt_us u32] [heard_rate_bps u32]
//!           [rate_bps u32] × n                                 = 44 + 4n bytes
//! SR    = RTCP 200 (28 bytes): SSRC, NTP timestamp (64), RTP timestamp, packets, octets
//! RR    = RTCP 201 with one report block (32 bytes) + APP 204 "SRMT" (24 bytes):
//!         [rate_bps u32] [loss, parts per 10^9 u32] [position u8, 3 zero bytes]
//! ```
//!
//! `echo_group` names the stream / level of the heard report (flag 4), which the sender relays
//! so that receivers can suppress (§1.12; see `docs/protocols/sramt.md`, deviations).

use crate::time::Instant;
use crate::wire::{Reader, WireError, Writer};

/// Most streams / layers: the data header must fit in 64 bytes.
pub const MAX_GROUPS: usize = 5;
pub const RTP_PAYLOAD_TYPE: u8 = 96;
pub const EXT_PROFILE: u16 = 0x5352;
pub const FLAG_EPOCH_END: u8 = 1;
pub const FLAG_ECHO: u8 = 2;
pub const FLAG_HEARD: u8 = 4;
pub const SR_BYTES: usize = 28;
pub const RR_APP_BYTES: usize = 56;
pub const APP_NAME: [u8; 4] = *b"SRMT";

/// Bytes of the data header with `n` groups.
pub const fn data_header_bytes(n: usize) -> usize {
    44 + 4 * n
}

/// The data header with the paper's three groups (the registry's header size).
pub const DATA_HEADER_BYTES: usize = data_header_bytes(3);

/// An RTP data packet's header with the SRAMT extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    pub seq: u16,
    /// Send time, microseconds modulo 2^32 (Eq. 12's T_timestamp).
    pub timestamp_us: u32,
    pub ssrc: u32,
    /// The stream or layer this packet belongs to.
    pub group: u8,
    pub epoch_end: bool,
    pub epoch_us: u32,
    /// Epochs ended so far (the flagged packet of epoch e carries e).
    pub epoch_index: u32,
    /// Receivers in the session, as RTCP's member count (§1.12).
    pub members: u32,
    /// (receiver id, t_RTT^{r-i} in µs), §1.4 step 3.
    pub echo: Option<(u32, u32)>,
    /// A report the sender heard: (stream / level, rate bit/s), for suppression.
    pub heard: Option<(u8, u32)>,
    pub n: u8,
    pub rates_bps: [u32; MAX_GROUPS],
}

impl DataHeader {
    pub fn len(&self) -> usize {
        data_header_bytes(self.n as usize)
    }
    pub fn is_empty(&self) -> bool {
        false
    }
    pub fn rates(&self) -> &[u32] {
        &self.rates_bps[..self.n as usize]
    }

    pub fn emit(&self, out: &mut [u8]) -> usize {
        let len = self.len();
        let mut w = Writer::new(&mut out[..len]);
        let flags = u8::from(self.epoch_end) * FLAG_EPOCH_END
            | u8::from(self.echo.is_some()) * FLAG_ECHO
            | u8::from(self.heard.is_some()) * FLAG_HEARD;
        let (echo_id, echo_rtt) = self.echo.unwrap_or((0, 0));
        let (heard_group, heard_rate) = self.heard.unwrap_or((0, 0));
        w.u8(0x90).u8(RTP_PAYLOAD_TYPE).u16(self.seq).u32(self.timestamp_us).u32(self.ssrc);
        w.u16(EXT_PROFILE).u16(7 + u16::from(self.n));
        w.u8(self.group).u8(self.n).u8(flags).u8(heard_group);
        w.u32(self.epoch_us).u32(self.epoch_index).u32(self.members);
        w.u32(echo_id).u32(echo_rtt).u32(heard_rate);
        for r in self.rates() {
            w.u32(*r);
        }
        len
    }

    /// Parses the header at the start of `b` (a socket's datagram continues with the payload).
    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        let mut r = Reader::new(b);
        let v = r.u8()?;
        if v >> 6 != 2 {
            return Err(WireError::BadVersion(v >> 6));
        }
        if v & 0x3f != 0x10 {
            return Err(WireError::Inconsistent("RTP: want X=1, no padding, no CSRC"));
        }
        let pt = r.u8()?;
        if pt != RTP_PAYLOAD_TYPE {
            return Err(WireError::UnknownType(pt));
        }
        let seq = r.u16()?;
        let timestamp_us = r.u32()?;
        let ssrc = r.u32()?;
        if r.u16()? != EXT_PROFILE {
            return Err(WireError::Inconsistent("RTP extension: not the SRAMT profile"));
        }
        let words = r.u16()?;
        let group = r.u8()?;
        let n = r.u8()?;
        if n == 0 || n as usize > MAX_GROUPS {
            return Err(WireError::Inconsistent("SRAMT extension: group count outside 1..=5"));
        }
        if words != 7 + u16::from(n) {
            return Err(WireError::Inconsistent("SRAMT extension: length does not match the group count"));
        }
        r.need(data_header_bytes(n as usize) - 18)?;
        if group >= n {
            return Err(WireError::Inconsistent("SRAMT extension: group beyond the group count"));
        }
        let flags = r.u8()?;
        if flags & !(FLAG_EPOCH_END | FLAG_ECHO | FLAG_HEARD) != 0 {
            return Err(WireError::Inconsistent("SRAMT extension: unknown flags"));
        }
        let heard_group = r.u8()?;
        let epoch_us = r.u32()?;
        let epoch_index = r.u32()?;
        let members = r.u32()?;
        let echo_id = r.u32()?;
        let echo_rtt = r.u32()?;
        let heard_rate = r.u32()?;
        if epoch_us == 0 {
            return Err(WireError::Inconsistent("SRAMT extension: zero epoch length"));
        }
        if flags & FLAG_HEARD != 0 && heard_group > n {
            return Err(WireError::Inconsistent("SRAMT extension: heard report's group beyond the group count"));
        }
        if flags & FLAG_HEARD == 0 && (heard_group, heard_rate) != (0, 0) {
            return Err(WireError::Inconsistent("SRAMT extension: heard report fields without the flag"));
        }
        if flags & FLAG_ECHO == 0 && (echo_id, echo_rtt) != (0, 0) {
            return Err(WireError::Inconsistent("SRAMT extension: RTT echo fields without the flag"));
        }
        let mut rates_bps = [0u32; MAX_GROUPS];
        for slot in rates_bps.iter_mut().take(n as usize) {
            *slot = r.u32()?;
            if *slot == 0 {
                return Err(WireError::Inconsistent("SRAMT extension: zero group rate"));
            }
        }
        Ok(DataHeader {
            seq,
            timestamp_us,
            ssrc,
            group,
            epoch_end: flags & FLAG_EPOCH_END != 0,
            epoch_us,
            epoch_index,
            members,
            echo: (flags & FLAG_ECHO != 0).then_some((echo_id, echo_rtt)),
            heard: (flags & FLAG_HEARD != 0).then_some((heard_group, heard_rate)),
            n,
            rates_bps,
        })
    }
}

/// RFC 3550's 64-bit NTP timestamp of `t` (seconds since the driver's epoch, 32.32 fixed point).
pub fn ntp(t: Instant) -> u64 {
    let ns = t.as_nanos();
    let secs = ns / 1_000_000_000;
    let frac = ((ns % 1_000_000_000) << 32) / 1_000_000_000;
    (secs << 32) | frac
}

/// The middle 32 bits of an NTP timestamp (LSR, and the unit of Eq. 15's arithmetic: 1/65536 s).
pub fn ntp_middle(t: Instant) -> u32 {
    (ntp(t) >> 16) as u32
}

/// An RTCP sender report (no report blocks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SenderReport {
    pub ssrc: u32,
    pub ntp: u64,
    pub rtp_timestamp: u32,
    pub packets: u32,
    pub octets: u32,
}

fn rtcp_header(r: &mut Reader<'_>, want_pt: u8, want_count: u8, total: usize) -> Result<(), WireError> {
    let v = r.u8()?;
    if v >> 6 != 2 {
        return Err(WireError::BadVersion(v >> 6));
    }
    if v & 0x20 != 0 {
        return Err(WireError::Inconsistent("RTCP: padding not used by SRAMT"));
    }
    let pt = r.u8()?;
    if pt != want_pt {
        return Err(WireError::UnknownType(pt));
    }
    if v & 0x1f != want_count {
        return Err(WireError::Inconsistent("RTCP: report count / subtype does not fit"));
    }
    let words = r.u16()? as usize;
    if (words + 1) * 4 != total {
        return Err(WireError::Inconsistent("RTCP: length field does not match the packet"));
    }
    Ok(())
}

impl SenderReport {
    pub fn emit(&self) -> [u8; SR_BYTES] {
        let mut out = [0u8; SR_BYTES];
        let mut w = Writer::new(&mut out);
        w.u8(0x80).u8(200).u16((SR_BYTES / 4 - 1) as u16).u32(self.ssrc);
        w.u64(self.ntp).u32(self.rtp_timestamp).u32(self.packets).u32(self.octets);
        out
    }

    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        if b.len() != SR_BYTES {
            return Err(if b.len() < SR_BYTES {
                WireError::Truncated { needed: SR_BYTES, got: b.len() }
            } else {
                WireError::Inconsistent("RTCP SR: trailing bytes")
            });
        }
        let mut r = Reader::new(b);
        rtcp_header(&mut r, 200, 0, SR_BYTES)?;
        Ok(SenderReport { ssrc: r.u32()?, ntp: r.u64()?, rtp_timestamp: r.u32()?, packets: r.u32()?, octets: r.u32()? })
    }
}

/// A receiver's compound report: RR with one report block, then the SRAMT APP block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReceiverReport {
    pub ssrc: u32,
    /// The source reported on (the sender's SSRC).
    pub source: u32,
    pub fraction_lost: u8,
    /// Cumulative packets lost, 24-bit signed in RFC 3550; SRAMT sends it non-negative.
    pub cumulative_lost: u32,
    pub highest_seq: u32,
    pub jitter: u32,
    /// Middle 32 bits of the last SR's NTP timestamp (0: none yet).
    pub lsr: u32,
    /// Delay since that SR, 1/65536 s.
    pub dlsr: u32,
    /// APP: mean r_r_tcp since the previous report, bit/s.
    pub rate_bps: u32,
    /// APP: l_i in parts per 10^9.
    pub loss_ppb: u32,
    /// APP: stream (S, 0-based) or level (LE, 1-based).
    pub position: u8,
}

impl ReceiverReport {
    pub fn emit(&self) -> [u8; RR_APP_BYTES] {
        let mut out = [0u8; RR_APP_BYTES];
        let mut w = Writer::new(&mut out);
        w.u8(0x81).u8(201).u16(7).u32(self.ssrc);
        w.u32(self.source).u32(u32::from(self.fraction_lost) << 24 | (self.cumulative_lost & 0x00ff_ffff));
        w.u32(self.highest_seq).u32(self.jitter).u32(self.lsr).u32(self.dlsr);
        w.u8(0x80).u8(204).u16(5).u32(self.ssrc);
        w.u8(APP_NAME[0]).u8(APP_NAME[1]).u8(APP_NAME[2]).u8(APP_NAME[3]);
        w.u32(self.rate_bps).u32(self.loss_ppb).u8(self.position).u8(0).u8(0).u8(0);
        out
    }

    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        if b.len() != RR_APP_BYTES {
            return Err(if b.len() < RR_APP_BYTES {
                WireError::Truncated { needed: RR_APP_BYTES, got: b.len() }
            } else {
                WireError::Inconsistent("RTCP RR+APP: trailing bytes")
            });
        }
        let mut r = Reader::new(&b[..32]);
        rtcp_header(&mut r, 201, 1, 32)?;
        let ssrc = r.u32()?;
        let source = r.u32()?;
        let lost = r.u32()?;
        let (highest_seq, jitter, lsr, dlsr) = (r.u32()?, r.u32()?, r.u32()?, r.u32()?);
        let mut a = Reader::new(&b[32..]);
        rtcp_header(&mut a, 204, 0, 24)?;
        if a.u32()? != ssrc {
            return Err(WireError::Inconsistent("RTCP APP: SSRC differs from the RR's"));
        }
        let name = [a.u8()?, a.u8()?, a.u8()?, a.u8()?];
        if name != APP_NAME {
            return Err(WireError::Inconsistent("RTCP APP: not an SRAMT block"));
        }
        let rate_bps = a.u32()?;
        let loss_ppb = a.u32()?;
        if loss_ppb > 1_000_000_000 {
            return Err(WireError::Inconsistent("RTCP APP: loss rate above 1"));
        }
        let position = a.u8()?;
        if position as usize > MAX_GROUPS {
            return Err(WireError::Inconsistent("RTCP APP: stream / level beyond 5"));
        }
        if [a.u8()?, a.u8()?, a.u8()?] != [0, 0, 0] {
            return Err(WireError::Inconsistent("RTCP APP: reserved bytes not zero"));
        }
        Ok(ReceiverReport {
            ssrc,
            source,
            fraction_lost: (lost >> 24) as u8,
            cumulative_lost: lost & 0x00ff_ffff,
            highest_seq,
            jitter,
            lsr,
            dlsr,
            rate_bps,
            loss_ppb,
            position,
        })
    }
}

/// What arrives at a receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToReceiver {
    Data(DataHeader),
    Sr(SenderReport),
}

impl ToReceiver {
    /// RFC 5761 demultiplexing on the second byte: 200 is an SR, anything else must be data.
    pub fn parse(b: &[u8]) -> Result<Self, WireError> {
        match b.get(1) {
            Some(200) => SenderReport::parse(b).map(ToReceiver::Sr),
            _ => DataHeader::parse(b).map(ToReceiver::Data),
        }
    }
}
