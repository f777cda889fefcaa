//! `gaimd`: General AIMD, a TCP-like window protocol with additive increase α and
//! multiplicative decrease β (Y. R. Yang and S. S. Lam, "General AIMD congestion control",
//! ICNP 2000), the GAIMD of docs/papers/ssvp.md §1.4 and docs/papers/dvrc.md §1.2.
//!
//! Rules ([`sender::Gaimd`], hooks of the shared TCP sender [`crate::proto::tcp::TcpSender`]):
//! - congestion avoidance: cwnd += α/cwnd per new ACK, i.e. +α segments per RTT \[X\];
//! - loss event (third duplicate ACK): ssthresh = cwnd = β·W (W = cwnd without fast-recovery
//!   inflation, what the TCP agents halve), then NewReno fast recovery (RFC 6582), so a window
//!   with several losses is one decrease \[X\];
//! - timeout: cwnd = 1, RFC 6298 backoff, ssthresh = W/2 (TCP's rule, \[D\]; option
//!   `timeout_ssthresh = "beta"`: β·W);
//! - everything else is the TCP agent's: slow start (+1 per ACK below ssthresh, initial window 2,
//!   ssthresh initially unbounded), 64 kB window cap, RTO min 200 ms / initial 1 s, one
//!   cumulative ACK per segment from the TCP sink.
//!
//! TCP-friendliness (docs/papers/ssvp.md Eq. 7, from Yang & Lam): α = 4(1 − β²)/3. Parameters
//! ([`GaimdConfig`]): `beta` 0.875 (the (0.31, 0.875) pair of docs/papers/ssvp.md §1.4 \[X\]),
//! `alpha` default 4(1 − β²)/3 = 0.3125 for β = 0.875 (the papers round it to 0.31; setting
//! `alpha = 0.31` gives their exact pair), and the TCP fields of [`crate::proto::tcp::TcpConfig`].
//!
//! Wire format: the TCP agents' 40-byte header (`proto::tcp::header`); GAIMD adds no field.
//! Application: bulk data only (like the TCP agents); a video application is an error.
//!
//! Deviations and choices: cwnd and ssthresh stay fractional (⌊0.875·W⌋ would cut small
//! windows far deeper than β), with TCP's floor of 2 segments after a loss. The paper pages
//! (docs/papers/) do not say what a timeout does to ssthresh \[D\]: TCP's W/2 is the default
//! because β·W sends slow start straight back to the window that just overflowed the queue;
//! measured alone on 10 Mbps / 44 ms with a BDP buffer, `beta` locks into a cycle of slow-start
//! overshoot, failed NewReno recovery and timeout every ≈ 0.3 s (5.96 Mbit/s), `half` fills the
//! link.

mod config;
mod sender;
#[cfg(test)]
mod tests;

pub use config::{friendly_alpha, GaimdConfig, TimeoutSsthresh};
pub use sender::Gaimd;

use crate::endpoint::EndpointPair;
use crate::proto::tcp::{sender::window_limit_segments, TcpReceiver, TcpSender};
use crate::proto::Application;
use crate::time::Instant;
use crate::units::DataSize;

/// A GAIMD sender and a TCP sink. `packet_size` is the wire size of a data packet, 40-byte
/// header included. Only [`Application::Bulk`] can be carried.
pub fn pair(
    config: &GaimdConfig,
    app: Application,
    packet_size: DataSize,
    start: Instant,
    stop: Option<Instant>,
) -> Result<EndpointPair, String> {
    config.validate()?;
    if app.is_video() {
        return Err("gaimd carries bulk data only: remove the flow's video table".into());
    }
    let size = u32::try_from(packet_size.as_bytes()).map_err(|_| "gaimd: packet_size too large".to_string())?;
    if size as usize <= crate::proto::tcp::HEADER_BYTES {
        return Err(format!("gaimd: packet_size {size} B leaves no payload after the 40-byte TCP header"));
    }
    let tcp = config.tcp();
    let cc = Gaimd::new(config.alpha(), config.beta).with_timeout_beta(config.timeout_beta());
    let sender = Box::new(TcpSender::new(cc, &tcp, size, start, stop));
    let receiver = Box::new(TcpReceiver::new(tcp.delayed_ack, window_limit_segments(&tcp, size)));
    Ok(EndpointPair { sender, receiver })
}
