//! `rtcp-udp`: unresponsive RTP/UDP layered video whose application adapts the number of layers
//! from RTCP Receiver Reports — the "RTCP over UDP" baseline of the DVRC paper (Sec. 5.3, 5.5;
//! `docs/papers/dvrc.md` §1.3; docs/protocols/rtcp-udp.md).
//!
//! The paper gives the concept only \[P\]: the receiver sends RTCP RRs periodically and whenever
//! it detects congestion, the application adapts the same layered scheme as DVRC, and RTCP does
//! no congestion control. Everything operational is docs/papers/dvrc.md's default \[D\]:
//! - RR every 1 s, plus an immediate RR on a detected sequence gap, at most one per RTT;
//! - K ← max(1, K−1) on an RR with fraction_lost > 0, K ← min(k, K+1) on an RR without loss;
//!   start at K = 1 ([`Adaptation::Step`]). Two alternative readings of "the same layered scheme"
//!   map the receiving rate B the RR reports to K = max{j : c_j ≤ B} (§3.3) instead: on every
//!   RR ([`Adaptation::Rate`]) or on lossy ones only ([`Adaptation::RateOnLoss`]); the RR then
//!   carries B in an 8-byte profile-specific extension (RFC 3550 §6.4.2);
//! - data travels in RTP (RFC 3550 §5.1, 12-byte header), every frame's K layers sent when the
//!   frame is ready; the RR carries RFC 3550 §6.4.2's fields (fraction lost, cumulative lost,
//!   extended highest sequence, interarrival jitter via [`crate::estimate::jitter`], LSR, DLSR).
//!
//! Parameters: [`RtcpUdpConfig`]. Additions beyond docs/papers/dvrc.md, needed to fill its fields:
//! the sender sends Sender Reports (RFC 3550 §6.4.1) every second so that LSR/DLSR are meaningful
//! and it can compute the RTT; the SR carries that RTT in a profile-specific extension so that the
//! receiver can space its immediate reports by an RTT. Deviations from RFC 3550: no RTCP
//! transmission-interval algorithm (§6.2; reports are periodic, as docs/papers/dvrc.md says), no
//! SDES/BYE, no compound packets, a fixed SSRC and a zero initial sequence number and timestamp
//! offset (no randomness), no A.1 probation.

mod config;
mod receiver;
mod sender;
#[cfg(test)]
mod tests;

pub use config::{Adaptation, RtcpUdpConfig};
pub use receiver::{RtcpUdpReceiver, RECEIVER_SSRC};
pub use sender::{RtcpUdpSender, SENDER_SSRC};

use crate::endpoint::EndpointPair;
use crate::proto::Application;
use crate::time::Instant;
use crate::units::DataSize;
use crate::wire::rtcp_udp::RTP_HEADER_BYTES;

/// An `rtcp-udp` sender and receiver for a layered video. `packet_size` is the wire size of a
/// full RTP packet (12-byte header included); Sender Reports start at `start`; nothing is sent
/// from `stop` on.
pub fn pair(
    config: &RtcpUdpConfig,
    app: Application,
    packet_size: DataSize,
    start: Instant,
    stop: Option<Instant>,
) -> Result<EndpointPair, String> {
    config.validate()?;
    let Application::Video(stream) = app else {
        return Err("protocol \"rtcp-udp\" carries layered video: the flow needs a video table with `layers`".into());
    };
    let rates = super::dvrc::layered_rates(&stream, "rtcp-udp")?;
    if packet_size.as_bytes() <= RTP_HEADER_BYTES as u64 {
        return Err(format!(
            "protocol \"rtcp-udp\": packet size must exceed the {RTP_HEADER_BYTES}-byte RTP header, got {}",
            packet_size.as_bytes()
        ));
    }
    let sender = RtcpUdpSender::new(config, stream, rates, packet_size, start, stop);
    Ok(EndpointPair { sender: Box::new(sender), receiver: Box::new(RtcpUdpReceiver::new(config)) })
}
