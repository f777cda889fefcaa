//! The RTCP transmission interval of RFC 3550 §6.2–6.3 and Appendix A.7, for a session of any
//! size: how often a participant may send its compound RTCP packet.
//!
//! [`deterministic_interval`] is `rtcp_interval()` of A.7 before randomisation:
//!
//! ```text
//! rtcp_bw = 5 % of the session bandwidth (bytes/s)
//! if senders ≤ 25 % of members:   a sender shares 25 % of rtcp_bw among the senders,
//!                                 a receiver 75 % among the members − senders
//! else:                           everyone shares rtcp_bw among all members
//! T_d = max(T_min, n · avg_rtcp_size / share)      T_min = 5 s, halved before the first report
//! ```
//!
//! and [`randomised_interval`] draws `T = T_d · U[0.5, 1.5] / (e − 3/2)` (the compensation for
//! timer reconsideration, §6.3.1). The optional *reduced minimum* (§6.2: `360 / session kb/s`
//! seconds instead of 5 s) is [`RtcpIntervalConfig::reduced_minimum`].
//!
//! [`RtcpScheduler`] keeps A.7's state (`tp`, `tn`, `pmembers`, `members`, `senders`,
//! `avg_rtcp_size`, `initial`, `we_sent`) and does **timer reconsideration** (§6.3.6: when the
//! timer fires, T is recomputed with the current membership and the report goes only if
//! `tp + T ≤ now`, else the timer is set to `tp + T`), **reverse reconsideration** (§6.3.4: when
//! members leave, `tn` and `tp` are pulled towards now by `members / pmembers`), the average
//! RTCP packet size (§6.3.3: `avg ← avg/16·15 + size/16`, sent and received packets alike, sizes
//! including lower-layer headers) and the member time-out (§6.3.5: 5 deterministic intervals).
//! Time is integer ns; the interval arithmetic is `f64` seconds, rounded to ns once per draw.

use rand::Rng;

use crate::time::{Duration, Instant};
use crate::units::DataRate;

/// e − 3/2, the reconsideration compensation of §6.3.1 (A.7 uses 2.71828 − 1.5).
pub const COMPENSATION: f64 = std::f64::consts::E - 1.5;
/// Multiplier of the member time-out (§6.3.5, M = 5).
pub const MEMBER_TIMEOUT_INTERVALS: u32 = 5;

/// Parameters of the interval (RFC 3550's recommended values by default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RtcpIntervalConfig {
    /// The session bandwidth (§6.2: the sum of the senders' nominal bandwidths).
    pub session_bandwidth: DataRate,
    /// Fraction of the session bandwidth for RTCP: 0.05.
    pub rtcp_fraction: f64,
    /// Fraction of the RTCP bandwidth for senders when they are at most that fraction of the
    /// members: 0.25.
    pub sender_fraction: f64,
    /// The minimum interval T_min: 5 s.
    pub min_interval: Duration,
    /// Use §6.2's reduced minimum `360 / (session bandwidth in kb/s)` s instead of `min_interval`
    /// (never for the first report, which waits T_min/2 as the RFC says).
    pub reduced_minimum: bool,
}

impl Default for RtcpIntervalConfig {
    fn default() -> Self {
        RtcpIntervalConfig {
            session_bandwidth: DataRate::from_kbps(1000),
            rtcp_fraction: 0.05,
            sender_fraction: 0.25,
            min_interval: Duration::from_secs(5),
            reduced_minimum: false,
        }
    }
}

impl RtcpIntervalConfig {
    /// Checks every field; the error names the field.
    pub fn validate(&self) -> Result<(), String> {
        if self.session_bandwidth == DataRate::ZERO {
            return Err("rtcp interval: session_bandwidth must be positive".into());
        }
        if !(self.rtcp_fraction > 0.0 && self.rtcp_fraction <= 1.0) {
            return Err(format!("rtcp interval: rtcp_fraction must be in (0, 1], got {}", self.rtcp_fraction));
        }
        if !(self.sender_fraction > 0.0 && self.sender_fraction < 1.0) {
            return Err(format!("rtcp interval: sender_fraction must be in (0, 1), got {}", self.sender_fraction));
        }
        if self.min_interval.is_zero() {
            return Err("rtcp interval: min_interval must be positive".into());
        }
        Ok(())
    }
}

/// Who is in the session, as one participant sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Membership {
    /// Members, this participant included (at least 1).
    pub members: u32,
    /// Members that sent RTP recently, this participant included if it did.
    pub senders: u32,
    /// Whether this participant sent RTP since its second-to-last report.
    pub we_sent: bool,
}

/// T_d in seconds (A.7 `rtcp_interval()` without the random factor and compensation).
pub fn deterministic_interval(cfg: &RtcpIntervalConfig, m: Membership, avg_rtcp_size: f64, initial: bool) -> f64 {
    let mut t_min = cfg.min_interval.as_secs_f64();
    if initial {
        t_min /= 2.0;
    } else if cfg.reduced_minimum {
        t_min = 360.0 / (cfg.session_bandwidth.as_bps_f64() / 1000.0);
    }
    let members = m.members.max(1) as f64;
    let senders = m.senders.min(m.members) as f64;
    let mut bw = cfg.session_bandwidth.as_bps_f64() / 8.0 * cfg.rtcp_fraction;
    let mut n = members;
    if senders <= members * cfg.sender_fraction {
        if m.we_sent {
            bw *= cfg.sender_fraction;
            n = senders.max(1.0);
        } else {
            bw *= 1.0 - cfg.sender_fraction;
            n = (members - senders).max(1.0);
        }
    }
    (avg_rtcp_size * n / bw).max(t_min)
}

/// T = T_d · U[0.5, 1.5] / (e − 3/2) (§6.3.1), as a duration.
pub fn randomised_interval(
    cfg: &RtcpIntervalConfig,
    m: Membership,
    avg_rtcp_size: f64,
    initial: bool,
    rng: &mut impl Rng,
) -> Duration {
    let u: f64 = rng.gen_range(0.5..1.5);
    Duration::from_secs_f64(deterministic_interval(cfg, m, avg_rtcp_size, initial) * u / COMPENSATION)
}

/// What the timer's expiry decided.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expiry {
    /// Send the compound packet now, then call [`RtcpScheduler::sent`].
    Send,
    /// Reconsidered: not yet; the timer now reads [`RtcpScheduler::next`].
    Deferred,
}

/// One participant's RTCP timer (A.7's state and `OnExpire`, §6.3.4–6.3.6).
#[derive(Clone, Debug)]
pub struct RtcpScheduler {
    cfg: RtcpIntervalConfig,
    membership: Membership,
    pmembers: u32,
    avg_rtcp_size: f64,
    initial: bool,
    /// When the last RTCP packet was sent (A.7's `tp`).
    tp: Instant,
    /// When the next is scheduled (A.7's `tn`).
    tn: Instant,
}

impl RtcpScheduler {
    /// Joins the session at `now` (§6.3.2): `tp = now`, `avg_rtcp_size` = the size of the first
    /// packet it will send (bytes, lower-layer headers included), the first report after an
    /// interval computed with T_min/2.
    pub fn new(
        cfg: RtcpIntervalConfig,
        membership: Membership,
        first_packet_bytes: u64,
        now: Instant,
        rng: &mut impl Rng,
    ) -> Self {
        let avg = first_packet_bytes as f64;
        let tn = now + randomised_interval(&cfg, membership, avg, true, rng);
        RtcpScheduler { cfg, membership, pmembers: membership.members, avg_rtcp_size: avg, initial: true, tp: now, tn }
    }

    /// When the timer fires next (A.7's `tn`).
    pub fn next(&self) -> Instant {
        self.tn
    }
    /// When the last report was sent (A.7's `tp`).
    pub fn last_sent(&self) -> Instant {
        self.tp
    }
    pub fn avg_rtcp_size(&self) -> f64 {
        self.avg_rtcp_size
    }
    pub fn membership(&self) -> Membership {
        self.membership
    }
    pub fn is_initial(&self) -> bool {
        self.initial
    }

    /// T_d with the current state.
    pub fn deterministic(&self) -> f64 {
        deterministic_interval(&self.cfg, self.membership, self.avg_rtcp_size, self.initial)
    }

    /// §6.3.5: a member not heard from for 5 deterministic intervals (computed as a receiver,
    /// with the full T_min so that the time-out does not depend on this participant's role) has
    /// timed out.
    pub fn member_timeout(&self) -> Duration {
        let m = Membership { we_sent: false, ..self.membership };
        let td = deterministic_interval(&self.cfg, m, self.avg_rtcp_size, false);
        Duration::from_secs_f64(td * MEMBER_TIMEOUT_INTERVALS as f64)
    }

    /// The membership changed at `now`. A drop below `pmembers` pulls the timer in (reverse
    /// reconsideration, §6.3.4): `tn = now + (members/pmembers)(tn − now)`,
    /// `tp = now − (members/pmembers)(now − tp)`; growth waits for the timer's reconsideration.
    pub fn set_membership(&mut self, now: Instant, m: Membership) {
        let m = Membership { members: m.members.max(1), ..m };
        self.membership = m;
        if m.members < self.pmembers && now <= self.tn {
            let k = m.members as f64 / self.pmembers as f64;
            self.tn = now + self.tn.saturating_since(now).mul_f64(k);
            self.tp = Instant::from_nanos(now.as_nanos() - now.saturating_since(self.tp).mul_f64(k).as_nanos());
            self.pmembers = m.members;
        }
    }

    /// An RTCP packet of `bytes` (lower-layer headers included) was received (§6.3.3).
    pub fn received(&mut self, bytes: u64) {
        self.avg_rtcp_size = bytes as f64 / 16.0 + self.avg_rtcp_size * 15.0 / 16.0;
    }

    /// The timer fired at `now` (A.7 `OnExpire` for a report): reconsiders the interval with the
    /// current membership; [`Expiry::Send`] if `tp + T ≤ now`, else the timer moves to `tp + T`.
    pub fn expire(&mut self, now: Instant, rng: &mut impl Rng) -> Expiry {
        let t = randomised_interval(&self.cfg, self.membership, self.avg_rtcp_size, self.initial, rng);
        let tn = self.tp + t;
        self.pmembers = self.membership.members;
        if tn <= now {
            Expiry::Send
        } else {
            self.tn = tn;
            Expiry::Deferred
        }
    }

    /// The compound packet of `bytes` went out at `now` (after [`Expiry::Send`], or at once for
    /// a protocol's own reasons): updates the average size, `tp`, and draws a fresh interval.
    pub fn sent(&mut self, now: Instant, bytes: u64, rng: &mut impl Rng) {
        self.avg_rtcp_size = bytes as f64 / 16.0 + self.avg_rtcp_size * 15.0 / 16.0;
        self.tp = now;
        // A.7: redraw rather than reuse the interval that let the packet go (it is conditioned
        // on being small).
        self.tn = now + randomised_interval(&self.cfg, self.membership, self.avg_rtcp_size, self.initial, rng);
        self.initial = false;
    }
}

#[cfg(test)]
mod tests;
