//! The replicated-stream (simulcast) machinery that `dsg` and `irfm` share: a sender that paces
//! n streams, each to its own `Destination::Group(j)`, at rates a scheme's [`StreamRules`] sets
//! once per round; receivers that sit on one stream, measure each round's loss, report about it
//! when polled and move between streams only at round boundaries, as a scheme's
//! [`ReceiverRules`] decides. What differs between DSG and IRFM is only those two rule sets
//! (`proto/dsg/rules.rs`, `proto/irfm/rules.rs`).
//!
//! **Rounds (synchronised changes).** The sender's round index rides every data packet; a
//! receiver's round ends at the first packet of a later round, so every receiver of a stream
//! acts on the same boundary (to within its one-way delay). A receiver that hears nothing for
//! 1.5 rounds ends the round itself with loss 1 \[R\] (a stream starved by congestion must still
//! let its receivers move down).
//!
//! **Feedback: escalating probabilistic polling** (Bolot, Turletti & Wakeman, SIGCOMM 1994, the
//! feedback DSG builds on \[R\]). Both schemes need population statistics (DSG the share of
//! congested receivers, IRFM the mean fairness over receivers), which similarity suppression
//! (SRAMT's, TFMCC's) would bias, so feedback is a uniform random sample instead: at a round's
//! start every receiver draws a key u ~ U(0, 1); the stream's polling probability p starts at
//! min(1, K/N) (K = `reports_per_round`, N = the flow's configured receiver count) and
//! doubles every 1/8 of a round until the stream has K reports for the round; a receiver reports
//! (once) as soon as p > u. Those who reported are exactly {u < p}, a uniform sample; the last
//! doubling at most doubles what came before, so a round brings about 2K reports per stream at
//! most whatever N is, a little more when reports are still in flight as p doubles (measured at
//! N = 1,000: at most 23 in a round over DSG's three streams and 44 over IRFM's two, K = 10; the
//! test bounds a round at 4K per stream). A receiver that changed stream at the
//! round's start does not report in it (its measurement is of the stream it left).
//!
//! **RTT.** The sender measures each reporting receiver's RTT from its RR (A − LSR − DLSR,
//! RFC 3550 §6.4.1; an SR goes to every stream at every round start) and echoes it in the next
//! packet of the receiver's stream, as SRAMT does (IRFM's isolated rate needs it). With
//! [`CoreConfig::owd_rtt`] the receiver carries that echo forward between echoes by the change
//! of its data packets' one-way delay since the packet that brought the echo, R' = R + (D' − D)
//! (TFMCC's one-way-delay adjustment, RFC 4654 §4.3.3 \[R\]): one SR/RR exchange per round
//! samples the path at the round's start, before a stream set above the path's capacity has
//! filled its queue, and an RTT without that queue splits one congestion episode into a loss
//! event per lost packet (`docs/protocols/irfm.md`, "Measured behaviour").
//!
//! Carries bulk data only (no video yet: a video flow is refused at build time).

pub mod receiver;
pub mod sender;
pub mod wire;

pub use receiver::{ReceiverRules, RoundMeasure, RoundOutcome, SimulcastReceiver};
pub use sender::{RoundReport, SimulcastSender, StreamRules};

use crate::time::Duration;

/// Doublings of the polling probability per round: p is raised every round/8.
pub const POLL_STEPS: u32 = 8;

/// What the core needs from a scheme's configuration.
#[derive(Clone, Debug)]
pub struct CoreConfig {
    pub scheme: wire::Scheme,
    /// Initial rate of each stream, bit/s (its count is n).
    pub initial_rates_bps: Vec<f64>,
    pub round: Duration,
    /// K: reports per stream per round the polling aims at.
    pub reports_per_round: u32,
    /// RTT a receiver assumes before the sender's first echo.
    pub initial_rtt: Duration,
    /// Whether the receiver adjusts the echoed RTT by one-way-delay changes (RFC 4654 §4.3.3).
    pub owd_rtt: bool,
}

impl CoreConfig {
    pub fn validate(&self) -> Result<(), String> {
        let n = self.initial_rates_bps.len();
        if !(1..=wire::MAX_GROUPS).contains(&n) {
            return Err(format!("1 to {} streams, got {n}", wire::MAX_GROUPS));
        }
        if self.round.as_nanos() < u64::from(POLL_STEPS) {
            return Err("round_ns: must be positive".into());
        }
        if self.reports_per_round == 0 {
            return Err("reports_per_round: at least 1".into());
        }
        if self.initial_rtt.is_zero() {
            return Err("initial_rtt_ns: must be positive".into());
        }
        Ok(())
    }
}

/// The polling probability at a round's start for a session of `members` receivers: min(1, K/N).
pub fn initial_poll(k: u32, members: u32) -> f64 {
    (f64::from(k) / f64::from(members.max(1))).min(1.0)
}

/// Checks a scheme's rate bands: 1..=5 bands, 0 < min ≤ max < 2^32 bit/s, one initial rate
/// each and a valid starting stream. Errors name the key.
pub fn validate_bands(bands: &[[u64; 2]], initial: &[u64], initial_group: u8) -> Result<(), String> {
    let n = bands.len();
    if !(1..=wire::MAX_GROUPS).contains(&n) {
        return Err(format!("bands_bps: 1 to {} bands, got {n}", wire::MAX_GROUPS));
    }
    for (j, [lo, hi]) in bands.iter().enumerate() {
        if *lo == 0 || lo > hi || *hi > u64::from(u32::MAX) {
            return Err(format!("bands_bps[{j}]: need 0 < min <= max <= {} bit/s, got [{lo}, {hi}]", u32::MAX));
        }
    }
    if initial.len() != n {
        return Err(format!("initial_rates_bps: one rate per band ({n}), got {}", initial.len()));
    }
    if initial_group as usize >= n {
        return Err(format!("initial_group: a stream 0..={}, got {initial_group}", n - 1));
    }
    Ok(())
}

/// The stream a receiver told to subscribe to `groups` starts on (exactly one, or the default).
pub fn initial_stream(groups: &[crate::endpoint::GroupId], n: usize, default: usize) -> Result<usize, String> {
    let mut g: Vec<usize> = groups.iter().map(|g| g.0 as usize).collect();
    g.sort_unstable();
    g.dedup();
    match g[..] {
        [] => Ok(default),
        [j] if j < n => Ok(j),
        _ => Err(format!("a receiver starts on exactly one stream 0..{}, got {g:?}", n - 1)),
    }
}

#[cfg(test)]
mod tests;
