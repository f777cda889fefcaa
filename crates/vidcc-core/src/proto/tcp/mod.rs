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
//! - [`receiver`]: TCPSink with optional delayed ACKs (ns-2 DelAckSink) and SACK blocks.
//!
//! Parameters come from [`TcpConfig`] (defaults = the DVRC digest §1.3 ns-2 settings: 64 kB
//! maximum window, initial window 2, min RTO 200 ms, initial RTO 1 s, no delayed ACK, FTP
//! always backlogged). Each module's docs list its deviations from ns-2 and the RFCs.

pub mod config;
pub mod header;
pub mod newreno;
pub mod receiver;
pub mod reno;
pub mod sack;
pub mod sender;
pub mod tahoe;
#[cfg(test)]
pub(crate) mod tests;
pub mod westwood_plus;

pub use config::TcpConfig;
pub use header::{SackBlocks, TcpHeader, HEADER_BYTES, MAX_SACK_BLOCKS};
pub use newreno::NewReno;
pub use receiver::TcpReceiver;
pub use reno::Reno;
pub use sack::Sack;
pub use sender::{AckSample, AfterFastRetransmit, CongestionControl, PartialAck, SenderCounters, TcpSender, Window};
pub use tahoe::Tahoe;
pub use westwood_plus::WestwoodPlus;

use crate::proto::registry::FlowContext;
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

/// A TCP sender and its sink. `packet_size_bytes` is the wire size of a data packet, header
/// included (payload = packet_size_bytes − 40); the sender starts at `start` and sends no new
/// data from `stop` on.
pub fn pair(
    variant: TcpVariant,
    config: &TcpConfig,
    packet_size_bytes: u32,
    start: Instant,
    stop: Option<Instant>,
) -> EndpointPair {
    let sender: Box<dyn crate::Endpoint + Send> = match variant {
        TcpVariant::Tahoe => Box::new(TcpSender::new(Tahoe, config, packet_size_bytes, start, stop)),
        TcpVariant::Sack => Box::new(TcpSender::new(Sack, config, packet_size_bytes, start, stop)),
        TcpVariant::Reno => Box::new(TcpSender::new(Reno, config, packet_size_bytes, start, stop)),
        TcpVariant::NewReno => Box::new(TcpSender::new(NewReno, config, packet_size_bytes, start, stop)),
        TcpVariant::WestwoodPlus => {
            Box::new(TcpSender::new(WestwoodPlus::new(), config, packet_size_bytes, start, stop))
        }
    };
    // The sender never has more than its window limit outstanding beyond the receiver's
    // `rcv_nxt`, so that is all the reassembly buffer ever needs.
    let buffer = sender::window_limit_segments(config, packet_size_bytes);
    let receiver = TcpReceiver::new(config.delayed_ack, buffer);
    let receiver = if variant == TcpVariant::Sack { receiver.with_sack() } else { receiver };
    EndpointPair { sender, receiver: Box::new(receiver) }
}

fn build(variant: TcpVariant, config: &TcpConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    // TCP carries bulk data: the application is not consulted (the schema allows no video).
    let size = u32::try_from(ctx.packet_size.as_bytes()).map_err(|_| "tcp: packet_size too large".to_string())?;
    Ok(pair(variant, config, size, ctx.start, ctx.stop).into())
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
