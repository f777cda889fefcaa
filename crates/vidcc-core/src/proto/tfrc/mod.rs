//! `tfrc`: TCP-Friendly Rate Control, RFC 5348 (S. Floyd, M. Handley, J. Padhye, J. Widmer,
//! 2008), the equation-based baseline of the DVRC and SSVP papers (docs/papers/dvrc.md §1.3 "TFRC",
//! docs/papers/ssvp.md §1.4 and claim C22).
//!
//! The receiver ([`receiver`]) detects losses (§5.1, NDUPACK = 3), groups them into loss events
//! (§5.2, one per RTT), averages the last 8 loss intervals with weights (1, 1, 1, 1, 0.8, 0.6,
//! 0.4, 0.2) (§5.4, `estimate::loss_intervals`), synthesises the first interval from X_recv
//! (§6.3.1, `estimate::tcp_model::rfc5348_inverse_p`), and reports t_recvdata, t_delay, X_recv
//! and p once per RTT and at once when p rises (§6). The sender ([`sender`]) computes
//! X = max(min(X_Bps, recv_limit), s/t_mbi) from the throughput equation (§3.1 Eq. 1, b = 1,
//! t_RTO = 4R) with recv_limit = 2·max(X_recv_set), slow-starts while p = 0 (doubling per RTT,
//! at most 2·X_recv), halves on the no-feedback timer (§4.4), and paces packets at X (§4.6).
//! Headers: [`crate::wire::tfrc`].
//!
//! Parameters ([`TfrcConfig`], defaults): q = 0.9 \[X RFC 5348 §4.3\]; b = 1 and t_RTO = 4R
//! \[X §3.1\]; t_mbi = 64 s \[X §4.3\]; no-feedback timer max(4R, 2s/X) \[X §4.3; ns-2 uses 2R:
//! `nofeedback_rtts`\]; initial rate \[D, docs/papers/dvrc.md §1.3\] RFC 3448's (1 packet/s, then
//! slow start from s/R; `initial_rate = "rfc5348"` starts from W_init/R, = ns-2's 4 packets/RTT);
//! NDUPACK = 3 \[X §5.1; ns-2 `numPkts_` 1: `ndupack`\]; history discounting off (the issue's
//! choice and the RFC's baseline; docs/papers/dvrc.md notes ns-2 runs with `discount_` 1:
//! `history_discounting`, threshold 0.5); §4.5 oscillation prevention off (ns-2 `ca_` 1:
//! `oscillation_prevention`); video through an unbounded FIFO sender buffer \[D,
//! docs/papers/dvrc.md §1.3 "Application coupling"\] (bounds: `sender_buffer_packets`,
//! `sender_buffer_max_age_ns`). s is the flow's packet size on the wire. ns-2 2.35's Agent/TFRC
//! ([`ns2`]): its rate rules (`rules = ns2`), TCP's RTO in ticks in the equation (`t_rto = tcp`,
//! `tcp_tick_ns`), q2 of R_sqmean (`q2`, 0.9; ns-2 uses `df_`).
//!
//! Application: Bulk (every packet full) or Video at full quality (every layer, or the top
//! simulcast stream); TFRC never changes the video, so it emits no `LayersChanged`.
//! Events: sender `RateChanged` when X changes, `Timeout` on a no-feedback expiry; receiver
//! `LossEvent` per loss event.
//!
//! Deviations are listed in each module's docs and in `docs/protocols/tfrc.md`; the main ones:
//! no ECN; the receiver answers every packet until the sender's header carries an RTT; ns-2's
//! 300 B/s `InitRate_` before the first feedback only with `rules = ns2`.

mod config;
#[cfg(test)]
mod feedback_tests;
mod ns2;
#[cfg(test)]
mod ns2_tests;
pub mod receiver;
pub mod sender;
#[cfg(test)]
mod tests;

pub use config::{InitialRate, RateRules, RtoRule, TfrcConfig};
pub use receiver::{TfrcReceiver, TfrcReceiverCounters};
pub use sender::{TfrcSender, TfrcSenderCounters};

use crate::endpoint::EndpointPair;
use crate::proto::Application;
use crate::time::Instant;
use crate::units::DataSize;

/// A TFRC sender and receiver. `packet_size` is s, the wire size of a full data packet (20-byte
/// header included).
pub fn pair(
    config: &TfrcConfig,
    app: Application,
    packet_size: DataSize,
    start: Instant,
    stop: Option<Instant>,
) -> Result<EndpointPair, String> {
    config.validate()?;
    let size = u32::try_from(packet_size.as_bytes()).map_err(|_| "tfrc: packet_size too large".to_string())?;
    let sender = TfrcSender::new(config, app, size, start, stop)?;
    let receiver = TfrcReceiver::new(config, size);
    Ok(EndpointPair { sender: Box::new(sender), receiver: Box::new(receiver) })
}
