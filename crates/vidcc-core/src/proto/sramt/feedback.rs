//! When a receiver reports (docs/papers/sramt.md §1.12): the RTCP interval of RFC 3550 with the
//! paper's 5 s minimum, and, when that interval exceeds T_suspent, Nonnenmacher–Biersack partial
//! suppression: a report per round of T_rand, after a truncated-exponential wait (Eq. 18, the
//! corrected density of A-13), cancelled if the receiver hears a report from its own stream or
//! level within 2 % of its own rate.

use rand::Rng;

use super::config::SramtConfig;
use crate::estimate::rtcp_interval::{deterministic_interval, Membership, RtcpIntervalConfig};
use crate::rng::SimRng;
use crate::time::{Duration, Instant};
use crate::units::DataRate;

/// The deterministic RTCP interval T_d of RFC 3550 (A.7, [`deterministic_interval`]) in one
/// SRAMT session: `receivers` receivers and the sender, the session bandwidth `session_bps`
/// (the group's rate), RTCP's share and the receivers' part from `cfg`, the paper's 5 s minimum
/// (halved for a participant's first report, `initial`). `sender`: the interval of the sender's
/// SRs rather than a receiver's reports.
pub fn rtcp_interval(
    cfg: &SramtConfig,
    receivers: u32,
    sender: bool,
    avg_rtcp_bytes: f64,
    session_bps: f64,
    initial: bool,
) -> Duration {
    let interval = RtcpIntervalConfig {
        session_bandwidth: DataRate::from_bps_f64(session_bps.max(1.0)),
        rtcp_fraction: cfg.rtcp_bandwidth_share,
        sender_fraction: 1.0 - cfg.rtcp_receiver_share,
        min_interval: Duration::from_nanos(cfg.rtcp_min_interval_ns),
        reduced_minimum: false,
    };
    let members = Membership { members: receivers.saturating_add(1), senders: 1, we_sent: sender };
    Duration::from_secs_f64(deterministic_interval(&interval, members, avg_rtcp_bytes, initial).min(1e9))
}

/// RFC 3550's randomisation: the interval times a uniform factor on [0.5, 1.5] (without the
/// e − 3/2 compensation, which belongs to timer reconsideration, not done here).
pub fn randomised(interval: Duration, rng: &mut SimRng) -> Duration {
    interval.mul_f64(rng.gen_range(0.5..1.5))
}

/// Eq. 18 (corrected, A-13): a wait on [0, T_rand] with density
/// λ/(T_rand·(e^λ − 1))·e^{λz/T_rand}, sampled by inversion:
/// z = (T_rand/λ)·ln(1 + u·(e^λ − 1)).
pub fn truncated_exponential(lambda: f64, t_rand: Duration, u: f64) -> Duration {
    let z = (t_rand.as_secs_f64() / lambda) * (u * lambda.exp_m1()).ln_1p();
    Duration::from_secs_f64(z).min(t_rand)
}

/// §1.12's similarity test \[I\] A-14: a report `other` from the same stream / level suppresses
/// a receiver whose own rate is `own` if |other − own| ≤ tolerance·own.
pub fn suppresses(own_position: usize, own: f64, other_position: usize, other: f64, tolerance: f64) -> bool {
    own_position == other_position && (other - own).abs() <= tolerance * own
}

/// One receiver's partial-suppression state: rounds start at multiples of T_rand of the
/// receiver's clock \[R\] (clocks loosely synchronised, as the epoch fallback already assumes).
#[derive(Clone, Debug)]
pub struct SuppressionRound {
    lambda: f64,
    t_rand: Duration,
    /// The round whose report is pending, and when it is due.
    pending: Option<(u64, Instant)>,
    /// The next round to schedule.
    next_round: u64,
}

impl SuppressionRound {
    pub fn new(lambda: f64, t_rand: Duration) -> Self {
        SuppressionRound { lambda, t_rand, pending: None, next_round: 0 }
    }

    /// Schedules this receiver's report in the current round if none is pending; the first
    /// round is the one containing `now`. Returns when it is due.
    pub fn schedule(&mut self, now: Instant, rng: &mut SimRng) -> Instant {
        if let Some((_, due)) = self.pending {
            return due;
        }
        let current = now.as_nanos() / self.t_rand.as_nanos().max(1);
        let round = self.next_round.max(current);
        let start = Instant::from_nanos(round.saturating_mul(self.t_rand.as_nanos()));
        let due = (start + truncated_exponential(self.lambda, self.t_rand, rng.gen::<f64>())).max(now);
        self.pending = Some((round, due));
        due
    }

    /// The pending report's due time.
    pub fn due(&self) -> Option<Instant> {
        self.pending.map(|(_, d)| d)
    }

    /// Cancels the pending report (suppressed); the next one goes in the following round.
    pub fn cancel(&mut self) {
        if let Some((round, _)) = self.pending.take() {
            self.next_round = round + 1;
        }
    }

    /// The report went out; the next one goes in the following round.
    pub fn sent(&mut self) {
        self.cancel();
    }

    /// Forgets any pending report (on leaving suppression mode).
    pub fn clear(&mut self) {
        self.pending = None;
    }

    pub fn round_length(&self) -> Duration {
        self.t_rand
    }
}
