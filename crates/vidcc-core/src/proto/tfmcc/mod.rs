//! `tfmcc`: TCP-Friendly Multicast Congestion Control, RFC 4654 (J. Widmer, M. Handley, 2006),
//! the comparison protocol of the ASMP/TFMCC paper (`docs/papers/asmp-tfmcc.md` §1.4).
//!
//! One sender multicasts to group 0 at a single rate X that follows the current limiting
//! receiver (CLR), the receiver with the lowest TCP-friendly rate. Receivers ([`receiver`])
//! measure the TFRC loss event rate (RFC 5348 §5 through `estimate::loss_events`) and their RTT
//! (initially R_max, then from the sender's echo of their timestamps, smoothed with q = 0.9 for
//! the CLR and 0.5 otherwise, adjusted by the one-way delay between echoes), compute the rate of
//! the TCP equation (RFC 4654 §4.1 = RFC 5348 §3.1 with b = 1, t_RTO = 4R;
//! docs/papers/asmp-tfmcc.md eq. (1)) or, before their first loss, twice their receive rate (slow
//! start), and report by unicast: the CLR once per RTT, the others once per feedback round on
//! exponentially weighted random timers cancelled by the suppression rate the sender echoes
//! ([`suppression`]). The sender ([`sender`]) changes the CLR when a slower receiver reports or the
//! CLR leaves or falls silent, drops to a lower CLR rate at once and increases by at most 8s/R_max
//! bit/s per R_max, keeps R_max, the rounds and X_supp, and echoes receiver timestamps by priority.
//! Headers: [`wire`] (48-byte data header, 44-byte feedback).
//!
//! Parameters ([`TfmccConfig`], RFC 4654 defaults as docs/papers/asmp-tfmcc.md chooses): R_max 500
//! ms at the start; round length T = 6·R_max (4·R_max: the RFC's ASM option); N = 10 000; g = 0.1;
//! q 0.9 / 0.5; R_max decay 0.9; CLR silence 4 RTTs, timeout 10 RTTs; slow start on; NDUPACK 3;
//! history discounting off; t_mbi 64 s. Alternatives: a uniform feedback timer, no slow start, no
//! one-way-delay adjustment.
//!
//! Data: bulk, or a video through `media::paced::PacedVideo` (an unbounded FIFO; X is the target
//! of a rate-adaptive set, which picks each GOP's quantizer — docs/papers/asmp-tfmcc.md §2, AMB-13).
//!
//! Deviations (also in `docs/protocols/tfmcc.md`): no application-limited rule; integer rates on the wire
//! instead of the RFC's 16-bit floats, and a 48-byte data header (the paper gave TFMCC 12 B;
//! the packet's wire size is the configured one either way); the CLR reports only while data
//! arrives.

mod config;
pub mod receiver;
pub mod sender;
pub mod suppression;
#[cfg(test)]
mod tests;
pub mod wire;

pub use config::{FeedbackTimer, TfmccConfig};
pub use receiver::{TfmccReceiver, TfmccReceiverCounters};
pub use sender::{TfmccSender, TfmccSenderCounters};

use crate::endpoint::FlowEndpoints;
use crate::proto::FlowContext;

/// Header bytes of a data packet (what the registry reports).
pub const HEADER_BYTES: usize = wire::DATA_BYTES;

/// The registry's factory: one sender and `ctx.receivers` receivers, receiver i drawing its
/// feedback timers from the flow's stream `tfmcc/feedback/<i>`, joining at its member start and
/// leaving (with a leave report) at its member stop.
pub fn build(config: &TfmccConfig, ctx: FlowContext<'_>) -> Result<FlowEndpoints, String> {
    config.validate()?;
    let size = u32::try_from(ctx.packet_size.as_bytes()).map_err(|_| "tfmcc: packet_size too large".to_string())?;
    let sender = TfmccSender::new(config, ctx.app, size, ctx.receivers, ctx.start, ctx.stop)?;
    let receivers = (0..ctx.receivers)
        .map(|i| {
            let rng = (ctx.rng)(&format!("tfmcc/feedback/{i}"));
            let mut r = TfmccReceiver::new(config, i, size, rng);
            if let Some(m) = ctx.members.get(i as usize) {
                r.join_at(m.start);
                if let Some(stop) = m.stop {
                    r.leave_at(stop);
                }
            }
            Box::new(r) as Box<dyn crate::endpoint::Endpoint + Send>
        })
        .collect();
    Ok(FlowEndpoints { sender: Box::new(sender), receivers })
}
