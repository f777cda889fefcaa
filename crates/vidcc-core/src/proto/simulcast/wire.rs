//! The packets of the replicated-stream baselines `dsg` and `irfm`, on the shared RFC 3550
//! formats of [`crate::wire::rtp`] and [`crate::wire::rtcp`] (neither paper fixes an encoding:
//! this one is ours). The shared parsers check the RTP/RTCP framing; this module checks what the
//! schemes add. Parsers return [`WireError`] and never panic.
//!
//! ```text
//! data  = RTP header (12: V=2 X=1 CC=0 PT=97, seq, timestamp = send time in µs, SSRC)
//!         + extension header (4: profile "DS" / "IR", length = 5 + n words)
//!         + [group u8 | n u8 | flags u8 | 0 u8]                     flags: 1 RTT echo
//!           [round u32] [poll_ppm u32] [echo_id u32] [echo_rtt_us u32]
//!           [rate_bps u32] × n                                   = 36 + 4n bytes
//! SR    = RTCP SR without report blocks (28 bytes), once per round on every stream
//! report = RTCP RR with one report block (32 bytes) + APP "DSG " / "IRFM", subtype 0 (24 bytes):
//!         [value u32] [loss, parts per 10^9 u32] [position u8 | 0 u8 | round u16]
//! ```
//!
//! `poll_ppm` is the probability (parts per million) with which a receiver of this packet's
//! stream reports about the round (probabilistic polling, see [`super`]); `value` is DSG's
//! receiver state (0 unloaded, 1 loaded, 2 congested) or IRFM's isolated rate in bit/s.

use crate::endpoint::HeaderBuf;
use crate::wire::rtcp::{self, Compound, ReportBlock, RtcpBuilder, RtcpPacket, SenderInfo};
use crate::wire::rtp::{RtpExtension, RtpHeader, RtpPacket};
use crate::wire::{Reader, WireError, Writer};

/// Most streams: the data header must fit in 64 bytes.
pub const MAX_GROUPS: usize = 5;
pub const RTP_PAYLOAD_TYPE: u8 = 97;
pub const FLAG_ECHO: u8 = 1;
/// One in a million: `poll_ppm` = 10^6 polls everyone.
pub const POLL_ALL: u32 = 1_000_000;
pub const SR_BYTES: usize = rtcp::SR_MIN_BYTES;
pub const REPORT_BYTES: usize = rtcp::RR_MIN_BYTES + rtcp::REPORT_BLOCK_BYTES + rtcp::APP_MIN_BYTES + 12;

/// Which scheme's packets: they differ only in the extension profile and the APP name, so that
/// one scheme never takes the other's packets for its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheme {
    Dsg,
    Irfm,
}

impl Scheme {
    pub const fn profile(self) -> u16 {
        match self {
            Scheme::Dsg => 0x4453,
            Scheme::Irfm => 0x4952,
        }
    }
    pub const fn app_name(self) -> [u8; 4] {
        match self {
            Scheme::Dsg => *b"DSG ",
            Scheme::Irfm => *b"IRFM",
        }
    }
}

/// Bytes of the data header with `n` streams.
pub const fn data_header_bytes(n: usize) -> usize {
    36 + 4 * n
}

/// A data packet's header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DataHeader {
    pub seq: u16,
    /// Send time, microseconds modulo 2^32.
    pub timestamp_us: u32,
    pub ssrc: u32,
    /// The stream this packet belongs to.
    pub group: u8,
    /// The sender's round index: a receiver's round ends at the first packet of a later one.
    pub round: u32,
    /// The polling probability of this stream's receivers, parts per million (≤ [`POLL_ALL`]).
    pub poll_ppm: u32,
    /// (receiver id, its RTT in µs as the sender measured it from the receiver's last report).
    pub echo: Option<(u32, u32)>,
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

    pub fn emit(&self, scheme: Scheme) -> HeaderBuf {
        let mut body = [0u8; 20 + 4 * MAX_GROUPS];
        let len = 20 + 4 * self.n as usize;
        let mut w = Writer::new(&mut body[..len]);
        let (echo_id, echo_rtt) = self.echo.unwrap_or((0, 0));
        w.u8(self.group).u8(self.n).u8(u8::from(self.echo.is_some()) * FLAG_ECHO).u8(0);
        w.u32(self.round).u32(self.poll_ppm).u32(echo_id).u32(echo_rtt);
        for r in self.rates() {
            w.u32(*r);
        }
        let fixed = RtpHeader {
            marker: false,
            payload_type: RTP_PAYLOAD_TYPE,
            seq: self.seq,
            timestamp: self.timestamp_us,
            ssrc: self.ssrc,
        };
        fixed.emit_with(&[], Some(RtpExtension { profile: scheme.profile(), data: &body[..len] }))
    }

    /// Parses the header at the start of `b`, a datagram of `total_len` bytes (the payload may
    /// be virtual in simulation).
    pub fn parse(b: &[u8], total_len: usize, scheme: Scheme) -> Result<Self, WireError> {
        let p = RtpPacket::parse(b, total_len)?;
        if p.header.payload_type != RTP_PAYLOAD_TYPE {
            return Err(WireError::UnknownType(p.header.payload_type));
        }
        if p.csrcs().next().is_some() || p.padding != 0 || p.header.marker {
            return Err(WireError::Inconsistent("simulcast RTP: no CSRC, padding or marker"));
        }
        let ext = p.extension.ok_or(WireError::Inconsistent("simulcast RTP: no header extension"))?;
        if ext.profile != scheme.profile() {
            return Err(WireError::Inconsistent("RTP extension: not this scheme's profile"));
        }
        let mut r = Reader::new(ext.data);
        let group = r.u8()?;
        let n = r.u8()?;
        if n == 0 || n as usize > MAX_GROUPS {
            return Err(WireError::Inconsistent("simulcast extension: stream count outside 1..=5"));
        }
        if ext.data.len() != 20 + 4 * n as usize {
            return Err(WireError::Inconsistent("simulcast extension: length does not match the stream count"));
        }
        if group >= n {
            return Err(WireError::Inconsistent("simulcast extension: stream beyond the stream count"));
        }
        let flags = r.u8()?;
        if flags & !FLAG_ECHO != 0 || r.u8()? != 0 {
            return Err(WireError::Inconsistent("simulcast extension: unknown flags or reserved byte set"));
        }
        let round = r.u32()?;
        let poll_ppm = r.u32()?;
        if poll_ppm > POLL_ALL {
            return Err(WireError::Inconsistent("simulcast extension: polling probability above 1"));
        }
        let echo_id = r.u32()?;
        let echo_rtt = r.u32()?;
        if flags & FLAG_ECHO == 0 && (echo_id, echo_rtt) != (0, 0) {
            return Err(WireError::Inconsistent("simulcast extension: RTT echo fields without the flag"));
        }
        let mut rates_bps = [0u32; MAX_GROUPS];
        for slot in rates_bps.iter_mut().take(n as usize) {
            *slot = r.u32()?;
            if *slot == 0 {
                return Err(WireError::Inconsistent("simulcast extension: zero stream rate"));
            }
        }
        Ok(DataHeader {
            seq: p.header.seq,
            timestamp_us: p.header.timestamp,
            ssrc: p.header.ssrc,
            group,
            round,
            poll_ppm,
            echo: (flags & FLAG_ECHO != 0).then_some((echo_id, echo_rtt)),
            n,
            rates_bps,
        })
    }
}

/// The sender's RTCP SR (no report blocks: the sender receives no RTP).
pub fn sender_report(ssrc: u32, info: SenderInfo) -> HeaderBuf {
    RtcpBuilder::new().sr(ssrc, info, &[], &[]).finish()
}

/// A receiver's report about one round, flattened: the RR's block and the APP data.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    pub ssrc: u32,
    /// The RR's report block about the sender (LSR = 0: no SR seen yet).
    pub block: ReportBlock,
    /// DSG: the receiver state (0 unloaded, 1 loaded, 2 congested); IRFM: the isolated rate, bit/s.
    pub value: u32,
    /// The loss rate the value comes from, parts per 10^9.
    pub loss_ppb: u32,
    /// The stream the receiver was on during the round.
    pub position: u8,
    /// The round the report is about (its low 16 bits).
    pub round: u16,
}

impl Report {
    pub fn emit(&self, scheme: Scheme) -> HeaderBuf {
        let mut data = [0u8; 12];
        Writer::new(&mut data).u32(self.value).u32(self.loss_ppb).u8(self.position).u8(0).u16(self.round);
        RtcpBuilder::new().rr(self.ssrc, &[self.block], &[]).app(0, self.ssrc, scheme.app_name(), &data).finish()
    }

    pub fn parse(b: &[u8], scheme: Scheme) -> Result<Self, WireError> {
        let c = Compound::parse(b)?;
        let mut packets = c.iter();
        let (Some(RtcpPacket::Rr(rr)), Some(RtcpPacket::App(app)), None) =
            (packets.next(), packets.next(), packets.next())
        else {
            return Err(WireError::Inconsistent("simulcast report: want exactly an RR and an APP"));
        };
        if rr.reports.len() != 1 || !rr.ext.is_empty() {
            return Err(WireError::Inconsistent("simulcast report: want one report block and no extension"));
        }
        let block = rr.reports.get(0).ok_or(WireError::Inconsistent("simulcast report: no report block"))?;
        if app.name != scheme.app_name() || app.subtype != 0 {
            return Err(WireError::Inconsistent("RTCP APP: not this scheme's block"));
        }
        if app.ssrc != rr.ssrc {
            return Err(WireError::Inconsistent("RTCP APP: SSRC differs from the RR's"));
        }
        if app.data.len() != 12 {
            return Err(WireError::Inconsistent("RTCP APP: simulcast data is 12 bytes"));
        }
        let mut a = Reader::new(app.data);
        let value = a.u32()?;
        let loss_ppb = a.u32()?;
        if loss_ppb > 1_000_000_000 {
            return Err(WireError::Inconsistent("RTCP APP: loss rate above 1"));
        }
        let position = a.u8()?;
        if position as usize >= MAX_GROUPS {
            return Err(WireError::Inconsistent("RTCP APP: stream beyond 5"));
        }
        if a.u8()? != 0 {
            return Err(WireError::Inconsistent("RTCP APP: reserved byte not zero"));
        }
        let round = a.u16()?;
        Ok(Report { ssrc: rr.ssrc, block, value, loss_ppb, position, round })
    }
}

/// What arrives at a receiver.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToReceiver {
    Data(DataHeader),
    /// An SR: the sender's SSRC and sender info.
    Sr(u32, SenderInfo),
}

impl ToReceiver {
    /// RFC 5761 demultiplexing: RTCP packet types (192–223) go to the RTCP parser, which must
    /// find a bare SR; anything else must be a data packet of `scheme`.
    pub fn parse(b: &[u8], total_len: usize, scheme: Scheme) -> Result<Self, WireError> {
        match b.get(1) {
            Some(192..=223) => {
                if total_len != b.len() {
                    return Err(WireError::Inconsistent("RTCP packet with payload"));
                }
                let c = Compound::parse(b)?;
                match c.iter().next() {
                    Some(RtcpPacket::Sr(sr)) if c.len() == 1 && sr.reports.is_empty() && sr.ext.is_empty() => {
                        Ok(ToReceiver::Sr(sr.ssrc, sr.info))
                    }
                    _ => Err(WireError::Inconsistent("simulcast: the only RTCP a receiver gets is a bare SR")),
                }
            }
            _ => DataHeader::parse(b, total_len, scheme).map(ToReceiver::Data),
        }
    }
}
