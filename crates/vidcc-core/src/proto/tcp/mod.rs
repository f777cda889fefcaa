//! TCP agents in the ns-2 one-way style: the papers' cross and background traffic (FTP over
//! Reno in every DVRC scenario, Westwood+ as an MPEG carrier in DVRC §5.2, Tahoe in SRAMT) and
//! NewReno.
//!
//! Like ns-2's `Agent/TCP/*` + `Agent/TCPSink`, a flow is a one-way sender of fixed-size
//! segments and a sink that returns one cumulative ACK per segment (with SACK blocks for
//! `tcp-sack`): no handshake, no FIN, no receive window. Both are sans-IO [`crate::Endpoint`]s; the simulator carries
//! the 40-byte header ([`header`]) plus a virtual payload.
//!
//! The agents live in vidcc-core (they started in vidcc-sim) because the window machinery of
//! [`sender`] is shared: GAIMD (`proto::gaimd`) is a [`CongestionControl`] of the same sender,
//! and QoS-AIMD's window may reuse it; a sans-IO TCP also runs over real sockets.
//!
//! - [`sender`]: the shared machinery (slow start, congestion avoidance, fast retransmit and
//!   recovery, RFC 6298 timer with Karn's rule and backoff, window limit), generic over a
//!   [`CongestionControl`] that decides what differs between variants;
//! - [`tahoe`] (4.3BSD-Tahoe, ns-2 tcp.cc: fast retransmit, no fast recovery), [`reno`]
//!   (RFC 5681, ns-2 tcp-reno.cc), [`newreno`] (RFC 6582, ns-2 tcp-newreno.cc),
//!   [`westwood_plus`] (Grieco & Mascolo 2004, Linux tcp_westwood.c);
//! - [`sack`] (RFC 2018 blocks, RFC 6675 recovery; ns-2 Sack1): the scoreboard and the hooks;
//! - [`receiver`]: TCPSink with optional delayed ACKs (ns-2 DelAckSink) and SACK blocks;
//! - [`video`]: any variant carrying the flow's video through its send buffer (the papers'
//!   "TCPW+ carrying MPEG" baseline), frames dated by in-order delivery at the receiver.
//!
//! Parameters come from [`TcpConfig`] (defaults = docs/papers/dvrc.md §1.3 ns-2 settings: 64 kB
//! maximum window, initial window 2, min RTO 200 ms, initial RTO 1 s, no delayed ACK, FTP
//! always backlogged). Each module's docs list its deviations from ns-2 and the RFCs.

pub mod config;
pub mod congestion;
#[cfg(test)]
mod feedback_tests;
pub mod header;
pub mod newreno;
pub mod receiver;
pub mod reno;
pub mod sack;
pub mod sender;
pub mod tahoe;
#[cfg(test)]
pub(crate) mod tests;
pub mod video;
pub mod westwood_plus;

pub use config::TcpConfig;
pub use header::{SackBlocks, TcpHeader, HEADER_BYTES, MAX_SACK_BLOCKS};
pub use newreno::NewReno;
pub use receiver::TcpReceiver;
pub use reno::Reno;
pub use sack::Sack;
pub use sender::{AckSample, AfterFastRetransmit, CongestionControl, PartialAck, SenderCounters, TcpSender, Window};
pub use tahoe::Tahoe;
pub use video::TcpVideoSource;
pub use westwood_plus::WestwoodPlus;

use crate::proto::registry::FlowContext;
use crate::proto::Application;
use crate::FlowEndpoints;
use crate::{EndpointPair, Instant};

/// Which congestion control a TCP flow runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TcpVariant {
    Tahoe,
    Sack,
    Reno,
    NewReno,
    WestwoodPlus,
}

/// A TCP sender carrying bulk data and its sink. `packet_size_bytes` is the wire size of a data
/// packet, header included (payload = packet_size_bytes − 40); the sender starts at `start` and
/// sends no new data from `stop` on.
pub fn pair(
    variant: TcpVariant,
    config: &TcpConfig,
    packet_size_bytes: u32,
    start: Instant,
    stop: Option<Instant>,
) -> EndpointPair {
    app_pair(variant, config, Application::Bulk, packet_size_bytes, start, stop).expect("bulk data always builds")
}

/// A TCP sender carrying `app` (bulk data, or a video through [`video`]) and its sink.
pub fn app_pair(
    variant: TcpVariant,
    config: &TcpConfig,
    app: Application,
    packet_size_bytes: u32,
    start: Instant,
    stop: Option<Instant>,
) -> Result<EndpointPair, String> {
    let video = match app {
        Application::Bulk => None,
        Application::Video(stream) => {
            let payload = packet_size_bytes.saturating_sub(HEADER_BYTES as u32);
            Some(TcpVideoSource::new(stream, payload, stop).map_err(|e| format!("tcp video: {e}"))?)
        }
    };
    let reports = video.is_some();
    let sender = match variant {
        TcpVariant::Tahoe => boxed(TcpSender::new(Tahoe, config, packet_size_bytes, start, stop), video),
        TcpVariant::Sack => boxed(TcpSender::new(Sack, config, packet_size_bytes, start, stop), video),
        TcpVariant::Reno => boxed(TcpSender::new(Reno, config, packet_size_bytes, start, stop), video),
        TcpVariant::NewReno => boxed(TcpSender::new(NewReno, config, packet_size_bytes, start, stop), video),
        TcpVariant::WestwoodPlus => {
            boxed(TcpSender::new(WestwoodPlus::new(), config, packet_size_bytes, start, stop), video)
        }
    };
    // The sender never has more than its window limit outstanding beyond the receiver's
    // `rcv_nxt`, so that is all the reassembly buffer ever needs.
    let buffer = sender::window_limit_segments(config, packet_size_bytes);
    let receiver = TcpReceiver::new(config.delayed_ack, buffer);
    let receiver = if variant == TcpVariant::Sack { receiver.with_sack() } else { receiver };
    // A video receiver reports in-order delivery, by which the driver dates its frames.
    let receiver = if reports { receiver.with_delivery_reports() } else { receiver };
    Ok(EndpointPair { sender, receiver: Box::new(receiver) })
}

/// A sender, with the video it carries if any, as an endpoint.
fn boxed<C: CongestionControl>(s: TcpSender<C>, video: Option<TcpVideoSource>) -> Box<dyn crate::Endpoint + Send> {
    match video {
        Some(v) => Box::new(s.with_video(v)),
        None => Box::new(s),
    }
}

fn build(variant: TcpVariant, config: &TcpConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    let size = u32::try_from(ctx.packet_size.as_bytes()).map_err(|_| "tcp: packet_size too large".to_string())?;
    if size as usize <= HEADER_BYTES {
        return Err(format!("tcp: packet_size {size} B leaves no payload after the 40-byte header"));
    }
    Ok(app_pair(variant, config, ctx.app, size, ctx.start, ctx.stop)?.into())
}

/// The registry's constructors (`proto::registry`), one per variant.
pub fn build_tahoe(config: &TcpConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    build(TcpVariant::Tahoe, config, ctx)
}
pub fn build_sack(config: &TcpConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    build(TcpVariant::Sack, config, ctx)
}
pub fn build_reno(config: &TcpConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    build(TcpVariant::Reno, config, ctx)
}
pub fn build_newreno(config: &TcpConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    build(TcpVariant::NewReno, config, ctx)
}
pub fn build_westwood_plus(config: &TcpConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    build(TcpVariant::WestwoodPlus, config, ctx)
}
