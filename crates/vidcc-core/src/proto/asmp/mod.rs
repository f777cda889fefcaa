//! `asmp`: the Adaptive Smooth Multicast Protocol, single-rate multicast congestion control over
//! RTP/RTCP, as the TFMCC-vs-ASMP paper states it (G. Kioumourtzis, C. Bouras, A. Gkamas,
//! "TFMCC versus ASMP: lessons learned from performance evaluation", IJCS 2012, §3.2 and
//! eqs.(2)–(5); `docs/papers/asmp-tfmcc.md` §1.1–1.3; docs/protocols/asmp.md).
//!
//! - The sender ([`sender`]) sends RTP data to the group, paced at X; measures each receiver's
//!   RTT from its RR (RFC 3550 §6.4.1, A − LSR − DLSR) and returns it in an APP; sets X to the
//!   slowest active receiver's reported rate.
//! - Each receiver ([`receiver`]) joins the group and, once per RTCP report (RFC 3550's interval,
//!   `estimate::rtcp_interval`), computes r_inst: r + P/RTT without loss, eq.(2) (Padhye, D = 1,
//!   t_out = 4·RTT) with loss; chooses γ = 0.2 (CONGESTED: short > long average of cumulative
//!   jitter) or 0.9 (UNLOADED); smooths r ← γ·r_inst + (1 − γ)·r (eq.3); bounds r by the
//!   highest rate the sender advertises \[I\] (the sender never sends more, and an r above it
//!   would have to be worked down by losses before the sender's rate moved); and sends r in an
//!   APP with its RR
//!   ([`rate`]).
//! - Cumulative jitter (eqs.(8)–(9), §6.4): G_i, "the sending time of frame i", is the send
//!   instant of the frame's first packet, carried in the RTP timestamp of all its packets \[P\]
//!   (option `frame_timestamp = ready`: the frame's ready time, which counts its wait in the
//!   sender buffer as delay); A_i the arrival of its last packet \[C\] (option `frame_arrival
//!   = first_packet`: of its first, so that A_i − G_i leaves out the frame's own pacing time).
//! - Packets: [`crate::wire::asmp`] over `wire::rtp` and `wire::rtcp`.
//!
//! Parameters: [`AsmpConfig`] (γ 0.9/0.2 \[P\]; the CI windows, loss measure, decrease rule,
//! RTT smoothing, initial and clamp rates, RTCP session bandwidth \[C\]; what a lossy interval
//! may do, `lossy_increase`: eq.(2) as it comes \[P\], or the options `step` / `never`). Deviations
//! and interpretations (docs/papers/asmp-tfmcc.md §1.3; docs/protocols/asmp.md): the sender
//! advertises the group size, X and its maximum rate in an APP with its SR (receivers report by
//! unicast and cannot count each other); the receiver's r is bounded by that maximum \[I\];
//! no SDES CNAME and no BYE; fixed SSRCs; no slow start \[P\].
//! Application: Bulk (every packet full) or Video through `media::paced::PacedVideo` (an
//! unbounded FIFO sender buffer paced at X; X is the target of a rate-adaptive set, which picks
//! the quantizer per GOP, docs/papers/asmp-tfmcc.md §2 AMB-13 \[C\]).

mod config;
pub mod rate;
pub mod receiver;
pub mod sender;
#[cfg(test)]
mod tests;

pub use config::{AsmpConfig, Decrease, FrameArrival, FrameTimestamp, LossMeasure, LossyIncrease};
pub use receiver::{AsmpReceiver, ReceiverState, DATA_GROUP};
pub use sender::{AsmpSender, PeerState};

use crate::endpoint::FlowEndpoints;
use crate::proto::FlowContext;

/// SSRC of an ASMP sender ("asmp").
pub const SENDER_SSRC: u32 = 0x6173_6d70;
/// Receiver i's SSRC is this + i.
pub const RECEIVER_SSRC_BASE: u32 = 0x7200_0000;

/// The SSRC of receiver `i`.
pub fn receiver_ssrc(i: u32) -> u32 {
    RECEIVER_SSRC_BASE.wrapping_add(i)
}

/// An ASMP flow: the sender and `ctx.receivers` receivers (receiver i is the sender's
/// `PeerId(i)`, joining at `ctx.members[i].start` and leaving at its stop), each with its own
/// random stream for its RTCP intervals. The receivers' `groups` are not used: ASMP has one.
pub fn build(config: &AsmpConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    config.validate()?;
    if ctx.receivers == 0 {
        return Err("asmp: a flow needs at least one receiver".into());
    }
    let size = u32::try_from(ctx.packet_size.as_bytes()).map_err(|_| "asmp: packet_size too large".to_string())?;
    let sender = AsmpSender::new(config, ctx.app, size, ctx.receivers, ctx.start, ctx.stop, (ctx.rng)("rtcp/sender"))?;
    if ctx.members.len() != ctx.receivers as usize {
        return Err(format!("asmp: {} receiver schedules for {} receivers", ctx.members.len(), ctx.receivers));
    }
    let receivers = (0..ctx.receivers)
        .map(|i| {
            let m = &ctx.members[i as usize];
            let rng = (ctx.rng)(&format!("rtcp/receiver{i}"));
            let r = AsmpReceiver::new(config, receiver_ssrc(i), size, m.start, m.stop, rng);
            Box::new(r) as Box<dyn crate::endpoint::Endpoint + Send>
        })
        .collect();
    Ok(FlowEndpoints { sender: Box::new(sender), receivers })
}
