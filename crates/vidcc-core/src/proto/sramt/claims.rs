//! The implementation's own numbers for docs/papers/sramt.md's unit-level claims (C01–C03, C05–C07,
//! C29), measured here so the paper suite (`vidcc reproduce sramt`) can check them against
//! docs/papers/sramt.md like any other result; the unit tests in `tests.rs` hold the same behaviour.

use rand::Rng;

use super::config::{RttScaling, SramtConfig};
use super::estimator::{tcp_rate, OwdRtt, Wma8};
use super::feedback::{suppresses, SuppressionRound};
use super::rates::band;
use super::wire::ReceiverReport;
use super::SramtSender;
use crate::endpoint::{Datagram, Endpoint, PeerId};
use crate::proto::Application;
use crate::rng::{RngStreams, SimRng};
use crate::time::{Duration, Instant};
use crate::units::DataSize;
use crate::wire::rtcp::ReportBlock;

/// Eq. 1 at docs/papers/sramt.md's §1.2 vectors: (l, RTT s, P bytes) → bytes/s.
pub const C01_VECTORS: [(f64, f64, f64); 6] = [
    (0.001, 0.06, 1000.0),
    (0.01, 0.06, 1000.0),
    (0.05, 0.10, 1000.0),
    (0.10, 0.20, 1000.0),
    (0.30, 0.06, 1000.0),
    (0.02, 0.12, 500.0),
];

/// Reports in one feedback round of `n` receivers with similar rates (within ±0.5 % of
/// 400 kbit/s), each scheduled by its own [`SuppressionRound`] (λ, T_rand = `t_rand`) and
/// cancelled by [`suppresses`] once an earlier report reached it `latency` after it was sent.
pub fn reports_in_a_round(
    n: usize,
    lambda: f64,
    t_rand: Duration,
    latency: Duration,
    round: u64,
    rng: &mut SimRng,
) -> usize {
    let start = Instant::from_nanos(round * t_rand.as_nanos());
    let mut timers: Vec<(Instant, f64, SuppressionRound)> = (0..n)
        .map(|_| {
            let mut s = SuppressionRound::new(lambda, t_rand);
            let due = s.schedule(start, rng);
            (due, 400e3 * (1.0 + rng.gen_range(-0.005..0.005)), s)
        })
        .collect();
    timers.sort_by_key(|t| t.0);
    let mut heard: Vec<(Instant, f64)> = vec![];
    for (due, own, timer) in timers.iter_mut() {
        if heard.iter().any(|&(t, r)| t + latency <= *due && suppresses(1, *own, 1, r, 0.02)) {
            timer.cancel();
            continue;
        }
        heard.push((*due, *own));
        timer.sent();
    }
    heard.len()
}

/// Group-rate invariants through the sender endpoint over `reports` random reports from 6
/// receivers: (updates, Eq. 5/6 violations, C07 violations). Eq. 5 (S): each stream with
/// receivers is the clamped minimum of their preferred rates, the others keep their rate; Eq. 6
/// (LE): layer k = clamp(min over level-k receivers − Σ lower layers); C07: the lowest group's
/// rate is at most every one of its receivers' preferred rates unless at its band minimum.
fn rate_invariants(layered: bool, reports: usize, rng: &mut SimRng) -> (u64, u64, u64) {
    let cfg = if layered { SramtConfig::layered() } else { SramtConfig::simulcast() };
    let mut s = SramtSender::new(
        &cfg,
        layered,
        Application::Bulk,
        DataSize::from_bytes(1000),
        Instant::ZERO,
        None,
        6,
        rng.clone(),
    )
    .expect("default config");
    let (mut updates, mut eq, mut c07) = (0, 0, 0);
    let mut t = Instant::from_nanos(1_000_000_000);
    for _ in 0..reports {
        let peer = rng.gen_range(0..6u32);
        let pos: u8 = rng.gen_range(0..3);
        let rr = ReceiverReport {
            ssrc: 0,
            block: ReportBlock::default(),
            rate_bps: rng.gen_range(1..3_000_000),
            loss_ppb: (rng.gen_range(0.0..0.3f64) * 1e9) as u32,
            position: if layered { pos + 1 } else { pos },
        };
        let before = s.rates().to_vec();
        t += Duration::from_millis(700);
        let bytes = rr.emit();
        s.handle_datagram(t, Datagram { from: PeerId(peer), bytes: bytes.as_slice(), virtual_payload: 0 })
            .expect("valid report");
        updates += 1;
        let rates = s.rates();
        let mut below = 0.0;
        for j in 0..rates.len() {
            let level = if layered { j + 1 } else { j };
            let min = s.managers().values().filter(|m| m.facts.position == level).map(|m| m.preferred).reduce(f64::min);
            let [lo, hi] = band(&cfg, j);
            let want = match min {
                Some(m) => (m - below).clamp(lo, hi),
                None => before[j],
            };
            if (rates[j] - want).abs() > 1e-6 * want.max(1.0) {
                eq += 1;
            }
            below += if layered { rates[j] } else { 0.0 };
        }
        let [lo, _] = band(&cfg, 0);
        let lowest = if layered { 1 } else { 0 };
        if rates[0] > lo && s.managers().values().any(|m| m.facts.position == lowest && rates[0] > m.preferred + 1e-6) {
            c07 += 1;
        }
    }
    (updates, eq, c07)
}

/// Every measured value, by name (see `python/vidcc/papers/sramt/units.py` for their checks).
pub fn unit_measurements() -> Vec<(String, f64)> {
    let mut out: Vec<(String, f64)> = Vec::new();
    // C01: Eq. 1 (D = 1, t_out = 4·RTT), bytes/s.
    for (i, (l, r, p)) in C01_VECTORS.iter().enumerate() {
        out.push((format!("c01_f{i}"), tcp_rate(*p, *l, *r)));
    }
    // C02: the 8-tap filter on docs/papers/sramt.md's two vectors (samples pushed oldest first).
    for (name, samples) in [
        ("c02_newest", [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.02]),
        ("c02_oldest", [0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
    ] {
        let mut f = Wma8::new();
        for s in samples {
            f.push(s);
        }
        out.push((name.into(), f.value().unwrap_or(f64::NAN)));
    }
    // C03: OWD 40 ms with an echoed RTT of 100 ms, then OWD 50 ms and 20 ms.
    let mut e = OwdRtt::new(RttScaling::Multiplicative, 1.0);
    e.observe(0.030);
    out.push(("c03_before_echo".into(), e.sample().unwrap_or(f64::NAN)));
    e.observe(0.040);
    e.calibrate(Duration::from_millis(100));
    out.push(("c03_at_echo".into(), e.sample().unwrap_or(f64::NAN)));
    e.observe(0.050);
    out.push(("c03_owd_50ms".into(), e.sample().unwrap_or(f64::NAN)));
    e.observe(0.020);
    out.push(("c03_owd_20ms".into(), e.sample().unwrap_or(f64::NAN)));
    // C05–C07: 2,000 random reports each.
    let mut rng = RngStreams::new(5).stream("claims/rates");
    for (name, layered) in [("s", false), ("le", true)] {
        let (updates, eq, c07) = rate_invariants(layered, 2_000, &mut rng);
        out.push((format!("c05_c06_{name}_updates"), updates as f64));
        out.push((format!("c05_c06_{name}_violations"), eq as f64));
        out.push((format!("c07_{name}_violations"), c07 as f64));
    }
    // C29: 10,000 receivers, λ = 10, T_rand = 10 s, suppression latency c = T_rand / 6 (and / 4).
    let mut rng = RngStreams::new(29).stream("claims/c29");
    let t_rand = Duration::from_secs(10);
    for (name, k) in [("c29_6c", 6), ("c29_4c", 4)] {
        let rounds = 20;
        let c = Duration::from_nanos(t_rand.as_nanos() / k);
        let total: usize = (0..rounds).map(|r| reports_in_a_round(10_000, 10.0, t_rand, c, r, &mut rng)).sum();
        out.push((name.into(), total as f64 / rounds as f64));
    }
    out
}
