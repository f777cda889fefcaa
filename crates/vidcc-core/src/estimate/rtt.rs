//! Round-trip time smoothing and retransmission / dead-time timeouts.
//!
//! Two estimators:
//!
//! * [`Rfc6298`] — the TCP retransmission timer of RFC 6298 §2 (Jacobson/Karels), with the
//!   exponential backoff of §5.5. Used by the TCP baselines, TFRC's t_RTO, and anything that
//!   needs "a timeout like TCP's".
//!   Parameters: `initial_rto` (RFC 6298 §2.1: 1 s), `min_rto` (§2.4: 1 s; ns-2 uses 200 ms),
//!   `max_rto` (§2.5: at least 60 s), `granularity` G (§2.2–2.3; default 0, ns-2 `tcpTick_` is
//!   10 ms). K = 4, α = 1/8, β = 1/4 are fixed as in the RFC.
//!   Integer arithmetic: SRTT and RTTVAR are whole nanoseconds; each EWMA step is computed
//!   exactly in `u128` and rounded half up to the nearest nanosecond
//!   (`(7·SRTT + R + 4) / 8`, `(3·RTTVAR + |SRTT − R| + 2) / 4`, first `RTTVAR = (R + 1) / 2`), so
//!   the error is at most 0.5 ns per step and results are identical on every machine.
//!   Deviations: a new sample also clears the backoff (the RFC's §5.7 note says the collapsed RTO
//!   returns when a new RTT measurement arrives; callers apply Karn's rule by not feeding samples
//!   of retransmitted packets). The initial RTO is used as given (not raised to `min_rto`),
//!   but capped at `max_rto`. The RFC's optional "clear SRTT after repeated backoffs" is not
//!   implemented.
//!
//! * [`PaperEwma`] — the DVRC paper's smoothed RTT and timeout
//!   (`docs/papers/dvrc.md` §1.1.3, paper Sec. 3.1 Eqs. 2–4):
//!   Eq. (2) `EstimatedRTT ← γ·EstimatedRTT + (1−γ)·SampleRTT`, γ = 0.9;
//!   Eq. (3) `DTO = EstimatedRTT + δ·Deviation`, δ = 4;
//!   Eq. (4) deviation with weight ε = 0.25, in one of two forms ([`DtoMode`], ambiguity A1):
//!   `TcpLike` (default, [I]): `Deviation ← (1−ε)·Deviation + ε·|SampleRTT − EstimatedRTT_old|`;
//!   `PaperLiteral` ([P] as printed): `Deviation ← ε·Deviation + (1−ε)·|EstimatedRTT − EstimatedRTT'|`
//!   where EstimatedRTT' is the estimate before this sample.
//!   Initialisation [D]: first sample gives `EstimatedRTT = Sample`, `Deviation = Sample/2`;
//!   before any sample `DTO = 1 s` [X RFC 6298 style]. The A3 low-rate guard
//!   (`max(DTO, 2·8s/R, 0.2 s)`) belongs to the DVRC receiver, not here.
//!   The weights are `f64`; each step computes in `f64` over nanoseconds (exact below 2^53 ns,
//!   about 104 days) and rounds to the nearest whole nanosecond, so state stays integer time.

use crate::time::Duration;

/// Rounded-half-up integer division of a non-negative value.
fn div_round(num: u128, den: u128) -> u128 {
    (num + den / 2) / den
}

fn duration_from_u128(ns: u128) -> Duration {
    Duration::from_nanos(ns.min(u64::MAX as u128) as u64)
}

/// RFC 6298 retransmission timeout estimator.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rfc6298 {
    initial_rto: Duration,
    min_rto: Duration,
    max_rto: Duration,
    granularity: Duration,
    srtt: Option<Duration>,
    rttvar: Duration,
    /// Number of doublings applied since the last sample (RFC 6298 §5.5).
    backoff_exp: u32,
}

impl Rfc6298 {
    /// RFC 6298 §2.1 initial RTO (1 s).
    pub const RFC_INITIAL_RTO: Duration = Duration::from_secs(1);
    /// RFC 6298 §2.4 minimum RTO (1 s).
    pub const RFC_MIN_RTO: Duration = Duration::from_secs(1);
    /// RFC 6298 §2.5 upper bound (the RFC asks for at least 60 s).
    pub const RFC_MAX_RTO: Duration = Duration::from_secs(60);

    /// An estimator with no samples yet; granularity G = 0 (see [`Self::with_granularity`]).
    pub fn new(initial_rto: Duration, min_rto: Duration, max_rto: Duration) -> Self {
        Rfc6298 {
            initial_rto,
            min_rto,
            max_rto: max_rto.max(min_rto),
            granularity: Duration::ZERO,
            srtt: None,
            rttvar: Duration::ZERO,
            backoff_exp: 0,
        }
    }

    /// Sets the clock granularity G of RFC 6298 §2.2 (ns-2's `tcpTick_`, typically 10 ms).
    pub fn with_granularity(mut self, granularity: Duration) -> Self {
        self.granularity = granularity;
        self
    }

    /// Folds in one RTT measurement (never from a retransmitted packet: Karn's rule is the
    /// caller's job) and clears any backoff.
    pub fn on_sample(&mut self, rtt: Duration) {
        let r_ns = rtt.as_nanos() as u128;
        match self.srtt {
            None => {
                // RFC 6298 §2.2: SRTT ← R, RTTVAR ← R/2.
                self.srtt = Some(rtt);
                self.rttvar = duration_from_u128(div_round(r_ns, 2));
            }
            Some(srtt) => {
                let srtt_ns = srtt.as_nanos() as u128;
                let err_ns = srtt_ns.abs_diff(r_ns);
                // RFC 6298 §2.3, RTTVAR first, with the *old* SRTT:
                // RTTVAR ← (1 − 1/4)·RTTVAR + 1/4·|SRTT − R'|  =  (3·RTTVAR + |SRTT − R'|) / 4
                let rttvar_ns = self.rttvar.as_nanos() as u128;
                self.rttvar = duration_from_u128(div_round(3 * rttvar_ns + err_ns, 4));
                // SRTT ← (1 − 1/8)·SRTT + 1/8·R'  =  (7·SRTT + R') / 8
                self.srtt = Some(duration_from_u128(div_round(7 * srtt_ns + r_ns, 8)));
            }
        }
        self.reset_backoff();
    }

    /// The RTO without backoff: RFC 6298 §2.2/2.3 `RTO = SRTT + max(G, K·RTTVAR)`, K = 4,
    /// clamped to [min_rto, max_rto] (§2.4, §2.5); the initial RTO before any sample.
    pub fn base_rto(&self) -> Duration {
        match self.srtt {
            None => self.initial_rto.min(self.max_rto),
            Some(srtt) => {
                let rto = srtt + self.granularity.max(self.rttvar * 4);
                rto.clamp(self.min_rto, self.max_rto)
            }
        }
    }

    /// The current RTO including backoff: `base_rto · 2^backoffs`, capped at `max_rto` (§5.5).
    pub fn rto(&self) -> Duration {
        let base_ns = self.base_rto().as_nanos() as u128;
        let backed_off = if self.backoff_exp >= 64 { u128::MAX } else { base_ns << self.backoff_exp };
        duration_from_u128(backed_off).min(self.max_rto)
    }

    /// RFC 6298 §5.5: on timer expiry, RTO ← 2·RTO, bounded by `max_rto`.
    pub fn backoff(&mut self) {
        if self.rto() < self.max_rto && self.backoff_exp < 64 {
            self.backoff_exp += 1;
        }
    }

    /// Drops the backoff (done automatically by [`Self::on_sample`]).
    pub fn reset_backoff(&mut self) {
        self.backoff_exp = 0;
    }

    /// How many doublings are in effect.
    pub fn backoff_count(&self) -> u32 {
        self.backoff_exp
    }

    /// Smoothed RTT, `None` before the first sample.
    pub fn srtt(&self) -> Option<Duration> {
        self.srtt
    }

    /// RTT variation, `None` before the first sample.
    pub fn rttvar(&self) -> Option<Duration> {
        self.srtt.map(|_| self.rttvar)
    }
}

impl Default for Rfc6298 {
    /// The RFC's own constants: initial 1 s, min 1 s, max 60 s, G = 0.
    fn default() -> Self {
        Rfc6298::new(Self::RFC_INITIAL_RTO, Self::RFC_MIN_RTO, Self::RFC_MAX_RTO)
    }
}

/// Which form of the DVRC deviation equation (paper Eq. 4) to use; ambiguity A1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DtoMode {
    /// [I] TCP/Jacobson form: `Deviation ← (1−ε)·Deviation + ε·|SampleRTT − EstimatedRTT_old|`.
    #[default]
    TcpLike,
    /// [P] as printed: `Deviation ← ε·Deviation + (1−ε)·|EstimatedRTT_new − EstimatedRTT_old|`.
    PaperLiteral,
}

/// Parameters of [`PaperEwma`]; `Default` gives the paper's values.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PaperEwmaConfig {
    /// Weight of the old EstimatedRTT in Eq. (2); paper: 0.9.
    pub gamma: f64,
    /// Multiplier of Deviation in the timeout, Eq. (3); paper: 4.
    pub delta: f64,
    /// Deviation weight ε of Eq. (4); paper: 0.25 (see [`DtoMode`] for where it applies).
    pub epsilon: f64,
    /// Form of Eq. (4); default [`DtoMode::TcpLike`].
    pub mode: DtoMode,
}

impl Default for PaperEwmaConfig {
    fn default() -> Self {
        PaperEwmaConfig { gamma: 0.9, delta: 4.0, epsilon: 0.25, mode: DtoMode::TcpLike }
    }
}

/// `wa·a + wb·b` over nanoseconds, rounded to the nearest nanosecond (saturating, NaN → 0).
/// Works on nanoseconds directly (no detour through seconds) so that exact inputs stay exact.
fn blend_ns(a: Duration, wa: f64, b: Duration, wb: f64) -> Duration {
    let ns = (a.as_nanos() as f64 * wa + b.as_nanos() as f64 * wb).round();
    if ns.is_nan() || ns <= 0.0 {
        Duration::ZERO
    } else if ns >= u64::MAX as f64 {
        Duration::MAX
    } else {
        Duration::from_nanos(ns as u64)
    }
}

/// The DVRC paper's RTT smoother and dead-time timeout (DTO).
#[derive(Clone, Debug, PartialEq)]
pub struct PaperEwma {
    config: PaperEwmaConfig,
    estimated_rtt: Option<Duration>,
    deviation: Duration,
}

impl PaperEwma {
    /// [D] Timeout used before the first sample (RFC 6298-style 1 s).
    pub const INITIAL_DTO: Duration = Duration::from_secs(1);

    pub fn new(config: PaperEwmaConfig) -> Self {
        PaperEwma { config, estimated_rtt: None, deviation: Duration::ZERO }
    }

    pub fn config(&self) -> &PaperEwmaConfig {
        &self.config
    }

    /// Folds in one SampleRTT = T'_Sn − T_Sn.
    pub fn on_sample(&mut self, sample: Duration) {
        let c = self.config;
        let Some(old) = self.estimated_rtt else {
            // [D] first sample: EstimatedRTT = Sample, Deviation = Sample/2 (rounded half up).
            self.estimated_rtt = Some(sample);
            self.deviation = Duration::from_nanos(sample.as_nanos() / 2 + sample.as_nanos() % 2);
            return;
        };
        // Eq. (2): EstimatedRTT ← γ·EstimatedRTT + (1−γ)·SampleRTT
        let new = blend_ns(old, c.gamma, sample, 1.0 - c.gamma);
        self.deviation = match c.mode {
            // [I] Deviation ← (1−ε)·Deviation + ε·|SampleRTT − EstimatedRTT_old|
            DtoMode::TcpLike => {
                let err = Duration::from_nanos(sample.as_nanos().abs_diff(old.as_nanos()));
                blend_ns(self.deviation, 1.0 - c.epsilon, err, c.epsilon)
            }
            // [P] Eq. (4): Deviation_n ← ε·Deviation_{n−1} + (1−ε)·|EstimatedRTT − EstimatedRTT'|
            DtoMode::PaperLiteral => {
                let step = Duration::from_nanos(new.as_nanos().abs_diff(old.as_nanos()));
                blend_ns(self.deviation, c.epsilon, step, 1.0 - c.epsilon)
            }
        };
        self.estimated_rtt = Some(new);
    }

    /// EstimatedRTT, `None` before the first sample.
    pub fn estimated_rtt(&self) -> Option<Duration> {
        self.estimated_rtt
    }

    /// Deviation, `None` before the first sample.
    pub fn deviation(&self) -> Option<Duration> {
        self.estimated_rtt.map(|_| self.deviation)
    }

    /// Eq. (3): `DTO = EstimatedRTT + δ·Deviation`; [`Self::INITIAL_DTO`] before any sample.
    pub fn dto(&self) -> Duration {
        match self.estimated_rtt {
            None => Self::INITIAL_DTO,
            Some(est) => est + blend_ns(self.deviation, self.config.delta, Duration::ZERO, 0.0),
        }
    }
}

impl Default for PaperEwma {
    fn default() -> Self {
        PaperEwma::new(PaperEwmaConfig::default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const MS: u64 = 1_000_000;

    fn ms(x: u64) -> Duration {
        Duration::from_millis(x)
    }

    #[test]
    fn rfc6298_first_and_second_sample() {
        let mut e = Rfc6298::new(ms(1000), ms(200), ms(60_000));
        assert_eq!(e.srtt(), None);
        assert_eq!(e.rttvar(), None);
        assert_eq!(e.rto(), ms(1000));
        e.on_sample(ms(100));
        // SRTT = 100 ms, RTTVAR = 100/2 = 50 ms, RTO = 100 + max(0, 4·50) = 300 ms
        assert_eq!(e.srtt(), Some(ms(100)));
        assert_eq!(e.rttvar(), Some(ms(50)));
        assert_eq!(e.rto(), ms(300));
        e.on_sample(ms(200));
        // RTTVAR = (3·50 + |100 − 200|)/4 = 250/4 = 62.5 ms   (uses the old SRTT)
        // SRTT   = (7·100 + 200)/8     = 900/8 = 112.5 ms
        // RTO    = 112.5 + 4·62.5 = 362.5 ms
        assert_eq!(e.rttvar(), Some(Duration::from_nanos(62_500_000)));
        assert_eq!(e.srtt(), Some(Duration::from_nanos(112_500_000)));
        assert_eq!(e.rto(), Duration::from_nanos(362_500_000));
    }

    #[test]
    fn rfc6298_integer_rounding_is_half_up() {
        let mut e = Rfc6298::new(ms(1000), Duration::ZERO, ms(60_000));
        e.on_sample(Duration::from_nanos(101));
        // RTTVAR = 101/2 = 50.5 → 51 ns
        assert_eq!(e.rttvar(), Some(Duration::from_nanos(51)));
        e.on_sample(Duration::from_nanos(104));
        // SRTT   = (7·101 + 104)/8 = 811/8 = 101.375 → 101 ns
        // RTTVAR = (3·51 + 3)/4    = 156/4 = 39 ns
        assert_eq!(e.srtt(), Some(Duration::from_nanos(101)));
        assert_eq!(e.rttvar(), Some(Duration::from_nanos(39)));
        e.on_sample(Duration::from_nanos(105));
        // SRTT   = (7·101 + 105)/8 = 812/8 = 101.5 → 102 ns (half up)
        // RTTVAR = (3·39 + 4)/4    = 121/4 = 30.25 → 30 ns
        assert_eq!(e.srtt(), Some(Duration::from_nanos(102)));
        assert_eq!(e.rttvar(), Some(Duration::from_nanos(30)));
    }

    #[test]
    fn rfc6298_granularity_and_min_max_clamp() {
        let mut e = Rfc6298::new(ms(1000), Duration::ZERO, ms(60_000)).with_granularity(ms(10));
        e.on_sample(ms(4));
        // RTTVAR = 2 ms, 4·2 = 8 ms < G = 10 ms → RTO = 4 + 10 = 14 ms
        assert_eq!(e.rto(), ms(14));
        let mut e = Rfc6298::new(ms(1000), ms(200), ms(60_000));
        e.on_sample(ms(4));
        // 4 + 8 = 12 ms, raised to min_rto 200 ms
        assert_eq!(e.rto(), ms(200));
        let mut e = Rfc6298::new(ms(1000), ms(200), ms(500));
        e.on_sample(ms(400));
        // 400 + 4·200 = 1200 ms, capped at max_rto 500 ms
        assert_eq!(e.rto(), ms(500));
    }

    #[test]
    fn rfc6298_backoff_doubles_caps_and_resets() {
        let mut e = Rfc6298::new(ms(1000), ms(200), ms(1000));
        e.on_sample(ms(100)); // RTO 300 ms
        e.backoff();
        assert_eq!(e.rto(), ms(600)); // 2·300
        e.backoff();
        assert_eq!(e.rto(), ms(1000)); // 4·300 = 1200, capped at 1000
        e.backoff();
        assert_eq!(e.rto(), ms(1000));
        assert_eq!(e.backoff_count(), 2, "no doubling once at the cap");
        e.reset_backoff();
        assert_eq!(e.rto(), ms(300));
        e.backoff();
        e.on_sample(ms(100));
        // RTTVAR = (3·50 + 0)/4 = 37.5, SRTT = 100 → 100 + 150 = 250 ms, backoff cleared
        assert_eq!(e.rto(), ms(250));
        assert_eq!(e.backoff_count(), 0);
    }

    #[test]
    fn rfc6298_backoff_before_any_sample_uses_initial_rto() {
        let mut e = Rfc6298::default();
        assert_eq!(e.rto(), ms(1000));
        e.backoff();
        e.backoff();
        assert_eq!(e.rto(), ms(4000)); // 1 s · 2²
    }

    #[test]
    fn paper_ewma_tcp_like_hand_values() {
        let mut e = PaperEwma::default();
        assert_eq!(e.dto(), ms(1000));
        assert_eq!(e.estimated_rtt(), None);
        assert_eq!(e.deviation(), None);
        e.on_sample(ms(100));
        // Est = 100, Dev = 50, DTO = 100 + 4·50 = 300 ms
        assert_eq!(e.estimated_rtt(), Some(ms(100)));
        assert_eq!(e.deviation(), Some(ms(50)));
        assert_eq!(e.dto(), ms(300));
        e.on_sample(ms(200));
        // Dev = 0.75·50 + 0.25·|200 − 100| = 37.5 + 25 = 62.5 ms
        // Est = 0.9·100 + 0.1·200 = 110 ms;  DTO = 110 + 4·62.5 = 360 ms
        assert_eq!(e.deviation(), Some(Duration::from_nanos(62_500_000)));
        assert_eq!(e.estimated_rtt(), Some(ms(110)));
        assert_eq!(e.dto(), ms(360));
        e.on_sample(ms(110));
        // Dev = 0.75·62.5 + 0.25·0 = 46.875 ms; Est = 110; DTO = 110 + 187.5 = 297.5 ms
        assert_eq!(e.deviation(), Some(Duration::from_nanos(46_875_000)));
        assert_eq!(e.dto(), Duration::from_nanos(297_500_000));
    }

    #[test]
    fn paper_ewma_literal_hand_values() {
        let cfg = PaperEwmaConfig { mode: DtoMode::PaperLiteral, ..Default::default() };
        let mut e = PaperEwma::new(cfg);
        e.on_sample(ms(100));
        assert_eq!(e.dto(), ms(300)); // same initialisation: 100 + 4·50
        e.on_sample(ms(200));
        // Est' = 100, Est = 0.9·100 + 0.1·200 = 110
        // Dev = 0.25·50 + 0.75·|110 − 100| = 12.5 + 7.5 = 20 ms; DTO = 110 + 80 = 190 ms
        assert_eq!(e.estimated_rtt(), Some(ms(110)));
        assert_eq!(e.deviation(), Some(ms(20)));
        assert_eq!(e.dto(), ms(190));
        e.on_sample(ms(110));
        // Est stays 110; Dev = 0.25·20 + 0.75·0 = 5 ms; DTO = 110 + 20 = 130 ms
        assert_eq!(e.deviation(), Some(ms(5)));
        assert_eq!(e.dto(), ms(130));
    }

    #[test]
    fn paper_ewma_custom_parameters() {
        let cfg = PaperEwmaConfig { gamma: 0.5, delta: 2.0, epsilon: 0.5, mode: DtoMode::TcpLike };
        let mut e = PaperEwma::new(cfg);
        e.on_sample(ms(10));
        e.on_sample(ms(30));
        // Dev = 0.5·5 + 0.5·20 = 12.5 ms; Est = 0.5·10 + 0.5·30 = 20 ms; DTO = 20 + 2·12.5 = 45 ms
        assert_eq!(e.dto(), ms(45));
        assert_eq!(e.dto().as_nanos(), 45 * MS);
    }

    proptest! {
        #[test]
        fn estimators_stay_within_sample_range(samples in proptest::collection::vec(0u64..10_000_000_000, 1..50)) {
            let mut a = Rfc6298::new(ms(1000), Duration::ZERO, Duration::MAX);
            let mut b = PaperEwma::default();
            let lo = *samples.iter().min().unwrap();
            let hi = *samples.iter().max().unwrap();
            for &s in &samples {
                a.on_sample(Duration::from_nanos(s));
                b.on_sample(Duration::from_nanos(s));
            }
            // A convex combination of samples (±1 ns of rounding per step) stays in [lo, hi].
            let slack = samples.len() as u64;
            let srtt = a.srtt().unwrap().as_nanos();
            let est = b.estimated_rtt().unwrap().as_nanos();
            prop_assert!(srtt + slack >= lo && srtt <= hi + slack);
            prop_assert!(est + slack >= lo && est <= hi + slack);
            prop_assert!(a.rto() >= a.srtt().unwrap());
            prop_assert!(b.dto() >= b.estimated_rtt().unwrap());
        }
    }
}
