//! `sramt-s` and `sramt-le`: SRAMT, the Sender–Receiver based Adaptation scheme for Multicast
//! Transmission (Bouras & Gkamas, Computer Networks 47(4), 2005; seed 004,
//! docs/papers/sramt.md), with simulcast streams (S) or cumulative layers (LE).
//!
//! The sender sends n groups (one per stream or layer, each to `Destination::Group(j)`), each
//! paced at a rate the sender retunes inside the group's band. Receivers estimate a TCP-friendly
//! rate from the simplified PFTK model (Eq. 1, D = 1, t_out = 4·RTT) with an 8-tap filtered loss
//! rate (Eq. 10–11) and an RTT from the one-way delay scaled by a calibration `a` that the
//! sender's echoed RTCP RTT resets (Eqs. 12–17), and report it in RTCP RR + APP (unicast to the
//! sender). The sender takes per receiver r^i = min(receiver rate, AIMD stand-in, its own
//! equation rate) (Eqs. 2–4), and sets each stream to the minimum r^i of its receivers (Eq. 5)
//! or each layer so that level k's cumulative rate is the minimum r^i at level k (Eq. 6,
//! corrected), clamped to the bands. Receivers change stream or level only at epoch ends
//! (T_epoch = 5 s, flagged in RTP), with exponential back-off after an unsuccessful change — one
//! the receiver's next change undoes, whenever it comes (§3.3 as stated; docs/papers/sramt.md's
//! window of T_change + T_epoch/2 is the option `unsuccessful_window_ns`) — blocking it for
//! 2^k·T_change after k consecutive failures. In large groups reports use partial suppression (Eq. 18).
//!
//! - [`estimator`]: Eq. 1, the 8-tap filter, loss sampling, the one-way-delay RTT;
//! - [`rules`]: the receivers' epoch decisions (S rules 1 and 2, LE Eq. 9) and the back-off;
//! - [`rates`]: receiver managers (Eqs. 2–4, the AIMD stand-in) and group rates (Eqs. 5–6);
//! - [`feedback`]: the RTCP interval and partial suppression (Eq. 18);
//! - [`wire`]: RTP with the SRAMT extension, RTCP SR, RR + APP;
//! - [`sender`], [`receiver`]: the endpoints; [`config`]: every parameter with its source tag.
//!
//! Parameters: [`SramtConfig`] (defaults = the paper's values, docs/papers/sramt.md's [R]/[I]
//! choices otherwise). Deviations and interpretations: `docs/protocols/sramt.md` (the most
//! important: the AIMD rule is a reconstruction, A-07; the sender relays reports so that receivers
//! can suppress, since feedback goes by unicast; the change that undoes an unsuccessful one counts
//! neither way in the back-off \[I\], docs/papers/sramt.md §1.7).

pub mod claims;
pub mod config;
pub mod estimator;
pub mod feedback;
pub mod rates;
pub mod receiver;
pub mod rules;
pub mod sender;
#[cfg(test)]
mod tests;
pub mod wire;

pub use config::{EpochEstimate, RttScaling, SramtConfig, SramtLeConfig, SramtSConfig};
pub use receiver::SramtReceiver;
pub use sender::SramtSender;

use crate::endpoint::FlowEndpoints;
use crate::proto::registry::FlowContext;

/// A flow of `ctx.receivers` receivers; `layered` picks SRAMT-LE.
fn build(cfg: &SramtConfig, layered: bool, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    cfg.validate(layered)?;
    let packet_bytes = if cfg.equation_packet_bytes > 0 {
        f64::from(cfg.equation_packet_bytes)
    } else {
        ctx.packet_size.as_bytes() as f64
    };
    if ctx.members.len() != ctx.receivers as usize {
        return Err(format!("{} receivers but {} receiver schedules", ctx.receivers, ctx.members.len()));
    }
    let sender = SramtSender::new(
        cfg,
        layered,
        ctx.app,
        ctx.packet_size,
        ctx.start,
        ctx.stop,
        ctx.receivers,
        (ctx.rng)("sramt/sender"),
    )?;
    // Each receiver joins at its own start and leaves at its stop. The groups a scenario names
    // for it are where it starts (the paper's Scenario A starts R1, R2 on stream 1, R3, R4 on
    // stream 2, ...); from there SRAMT receivers choose their stream / level themselves.
    let mut receivers = Vec::with_capacity(ctx.members.len());
    for (i, m) in ctx.members.iter().enumerate() {
        let rng = (ctx.rng)(&format!("sramt/receiver{i}"));
        let mut r = SramtReceiver::new(cfg, layered, i as u32, packet_bytes, m.start, rng).with_stop(m.stop);
        if !m.groups.is_empty() {
            let start = initial_position(&m.groups, layered, cfg.groups()).map_err(|e| format!("receiver {i}: {e}"))?;
            r = r.with_position(start);
        }
        receivers.push(Box::new(r) as _);
    }
    Ok(FlowEndpoints { sender: Box::new(sender), receivers })
}

/// The stream (S: exactly one group) or level (LE: groups 0..k, the cumulative layers) a
/// receiver told to subscribe to `groups` starts on.
fn initial_position(groups: &[crate::endpoint::GroupId], layered: bool, n: usize) -> Result<usize, String> {
    let mut g: Vec<usize> = groups.iter().map(|g| g.0 as usize).collect();
    g.sort_unstable();
    g.dedup();
    if layered {
        if g.iter().enumerate().any(|(k, &j)| k != j) || g.len() > n {
            return Err(format!("sramt-le: groups must be the cumulative layers 0..k (k < {n}), got {g:?}"));
        }
        Ok(g.len())
    } else {
        match g[..] {
            [j] if j < n => Ok(j),
            _ => Err(format!("sramt-s: a receiver starts on exactly one stream 0..{}, got {g:?}", n - 1)),
        }
    }
}

/// The registry's factory of `sramt-s`.
pub fn build_s(cfg: &SramtSConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    build(&cfg.0, false, ctx)
}

/// The registry's factory of `sramt-le`.
pub fn build_le(cfg: &SramtLeConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    build(&cfg.0, true, ctx)
}
