//! The implementation's own numbers for docs/papers/ssvp.md's unit-level claims (C3, C4, C6, and
//! C22 on the TFRC baseline), measured here so that the paper suite (`vidcc reproduce ssvp`)
//! checks them against docs/papers/ssvp.md like any other result; the unit tests in `tests.rs` hold
//! the same behaviour. Each measurement drives the real code (the layer rule, the controller, the
//! sender endpoint, TFRC's loss-interval estimator and throughput equation) with a scripted input.

use super::config::{PostLossFactor, SsvpConfig, SsvpLayeredConfig};
use super::controller::{Controller, Decision};
use super::layered::{LayerAdaptation, LayerChange};
use super::sender::SsvpSender;
use crate::endpoint::{Datagram, Endpoint, PeerId};
use crate::estimate::loss_intervals::{LossIntervals, LossIntervalsConfig};
use crate::estimate::tcp_model::rfc5348_rate_default;
use crate::proto::Application;
use crate::time::{Duration, Instant};
use crate::units::{DataRate, DataSize};
use crate::wire::ssvp::ControlHeader;

/// C3's worked example (docs/papers/ssvp.md §1.2): equal layers of 100 kbit/s, 1000 B packets, RTT
/// 0.1 s, k = 2 active layers, allowed rate R = 320 kbit/s.
const LAYER_BPS: f64 = 100_000.0;
const EXAMPLE_RATE_BPS: f64 = 320_000.0;

/// The fewest buffered bytes at which the layer rule adds layer k+1 = 3 at allowed rate
/// `rate_bps` (payload 1000 B, EstimatedRTT 0.1 s): Eq. (15)'s P as the rule applies it
/// (`NaN` if it never adds, e.g. rule (11) fails).
fn add_threshold_bytes(postloss: PostLossFactor, rate_bps: f64) -> f64 {
    let cfg = SsvpLayeredConfig { postloss_factor: postloss, initial_layers: 2, ..SsvpLayeredConfig::default() };
    let adds = |buffered: u64| {
        let mut la = LayerAdaptation::new(&cfg, &[LAYER_BPS; 4]);
        la.check(rate_bps / 8.0, Some(buffered), false, Duration::from_millis(100), 1000.0) == Some(LayerChange::Add)
    };
    let mut hi: u64 = 1 << 40;
    if !adds(hi) {
        return f64::NAN;
    }
    let mut lo: u64 = 0;
    if adds(lo) {
        return 0.0;
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if adds(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi as f64
}

/// C4: a controller at the defaults, out of startup with RTT samples of 100 ms, fed one control
/// packet every 0.1 ms (1000 per adjustment period) for `periods` scripted periods; the number of
/// marks in period i is `marks(i)`, spread evenly. Returns the measurements by name.
fn scripted_alg2(marks: impl Fn(usize) -> usize, periods: usize) -> Vec<(String, f64)> {
    let mut c = Controller::new(&SsvpConfig::default(), DataSize::from_bytes(1000), DataRate::from_mbps(100));
    c.on_rtt_sample(Duration::from_millis(100));
    c.on_control(Instant::ZERO, true); // leaves startup (one decrease)
    let step = Duration::from_micros(100);
    let per_period = 1000usize;
    let mut t = Instant::ZERO;
    let (mut acks, mut marked) = (0u64, 0u64);
    let mut last_change: Option<Instant> = None;
    let mut min_gap = f64::INFINITY;
    let (mut increases, mut decreases, mut holds, mut changes_on_wait) = (0u64, 0u64, 0u64, 0u64);
    let (mut increase_with_marks, mut hold_rate_changed) = (0u64, 0u64);
    let (mut dec_ratio_lo, mut dec_ratio_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let (mut hold_share_lo, mut hold_share_hi) = (f64::INFINITY, f64::NEG_INFINITY);
    let mut decrease_share_lo = f64::INFINITY;
    let mut increase_factor_hi = f64::NEG_INFINITY;
    for i in 0..periods {
        let m = marks(i).min(per_period);
        for j in 0..per_period {
            t += step;
            // m marks spread over the period's packets
            let mark = m > 0 && (j * m) / per_period != ((j + 1) * m) / per_period;
            let before = c.rate().as_bps_f64();
            let d = c.on_control(t, mark);
            let after = c.rate().as_bps_f64();
            acks += 1;
            marked += mark as u64;
            let share = marked as f64 / acks as f64;
            match d {
                Decision::Wait => {
                    changes_on_wait += (after != before) as u64;
                    continue;
                }
                Decision::Increase => {
                    increases += 1;
                    increase_with_marks += (marked > 0) as u64;
                    increase_factor_hi = increase_factor_hi.max(after / before);
                }
                Decision::Decrease => {
                    decreases += 1;
                    dec_ratio_lo = dec_ratio_lo.min(after / before);
                    dec_ratio_hi = dec_ratio_hi.max(after / before);
                    decrease_share_lo = decrease_share_lo.min(share);
                }
                Decision::Hold => {
                    holds += 1;
                    hold_rate_changed += (after != before) as u64;
                    hold_share_lo = hold_share_lo.min(share);
                    hold_share_hi = hold_share_hi.max(share);
                }
            }
            if after != before {
                if let Some(prev) = last_change {
                    let gap = t.saturating_since(prev).as_secs_f64() / c.rule_rtt().as_secs_f64();
                    min_gap = min_gap.min(gap);
                }
                last_change = Some(t);
            }
            acks = 0;
            marked = 0;
        }
    }
    [
        ("c4_periods", periods as f64),
        ("c4_increases", increases as f64),
        ("c4_decreases", decreases as f64),
        ("c4_holds", holds as f64),
        ("c4_min_gap_between_changes_rtt", min_gap),
        ("c4_rate_changes_while_waiting", changes_on_wait as f64),
        ("c4_decrease_factor_min", dec_ratio_lo),
        ("c4_decrease_factor_max", dec_ratio_hi),
        ("c4_decrease_mark_share_min", decrease_share_lo),
        ("c4_hold_mark_share_min", hold_share_lo),
        ("c4_hold_mark_share_max", hold_share_hi),
        ("c4_hold_rate_changes", hold_rate_changed as f64),
        ("c4_increases_with_marks", increase_with_marks as f64),
        ("c4_increase_factor_max", increase_factor_hi),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// C6, Eq. (2) at the endpoint: the sender's first packet leaves at 0; a control packet echoing
/// its timestamp arrives at `echo_at`; the controller's RTT sample (seconds).
fn endpoint_sample(echo_at: Duration) -> f64 {
    let Ok(mut s) = SsvpSender::new(
        &SsvpConfig::default(),
        Application::Bulk,
        DataSize::from_bytes(1000),
        Instant::ZERO,
        None,
        None,
    ) else {
        return f64::NAN;
    };
    if s.poll_transmit(Instant::ZERO).is_none() {
        return f64::NAN;
    }
    let ctl = ControlHeader { length: 40, ack: 0, congestion: false, echo_ns: Some(0), buffered_bytes: 0, layers: 0 };
    let bytes = ctl.emit();
    let now = Instant::ZERO + echo_at;
    if s.handle_datagram(now, Datagram { from: PeerId::PEER, bytes: bytes.as_slice(), virtual_payload: 16 }).is_err() {
        return f64::NAN;
    }
    s.controller().last_sample().map_or(f64::NAN, |d| d.as_secs_f64())
}

/// C6 on the estimator: samples 100 ms then 200 ms (EstimatedRTT, Dev, STO after each, seconds),
/// and STO − EstimatedRTT's minimum over `n` pseudo-random samples in [10 ms, 1 s].
fn estimator(n: usize) -> Vec<(String, f64)> {
    let mut out = vec![];
    let mut c = Controller::new(&SsvpConfig::default(), DataSize::from_bytes(1000), DataRate::from_mbps(100));
    out.push(("c6_sto_before_samples".to_string(), c.sto().as_secs_f64()));
    for (i, ms) in [100u64, 200].into_iter().enumerate() {
        c.on_rtt_sample(Duration::from_millis(ms));
        let e = c.rtt_estimator();
        out.push((format!("c6_est_after_{i}"), e.estimated_rtt().map_or(f64::NAN, |d| d.as_secs_f64())));
        out.push((format!("c6_dev_after_{i}"), e.deviation().map_or(f64::NAN, |d| d.as_secs_f64())));
        out.push((format!("c6_sto_after_{i}"), c.sto().as_secs_f64()));
    }
    // A fixed linear congruential sequence: reproducible without an RNG stream.
    let mut x: u64 = 12_345;
    let mut margin = f64::INFINITY;
    let mut c = Controller::new(&SsvpConfig::default(), DataSize::from_bytes(1000), DataRate::from_mbps(100));
    for _ in 0..n {
        x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let ms = 10 + (x >> 33) % 991;
        c.on_rtt_sample(Duration::from_millis(ms));
        let est = c.rtt_estimator().estimated_rtt().map_or(f64::NAN, |d| d.as_secs_f64());
        margin = margin.min(c.sto().as_secs_f64() - est);
    }
    out.push(("c6_random_samples".to_string(), n as f64));
    out.push(("c6_min_sto_minus_est".to_string(), margin));
    out
}

/// C22: TFRC's response (RFC 5348 loss intervals and throughput equation, b = 1, t_RTO = 4R,
/// 1000 B, R = 0.1 s) from a steady state where the last 8 loss intervals are 1/p packets.
/// Increase: no loss any more, the open interval grows by the packets sent per RTT; the largest
/// rise of the allowed rate in packets per RTT per RTT over 200 RTTs. Halving: a loss event in
/// every RTT, each closing an interval of the packets sent in that RTT; RTTs until X ≤ X₀/2.
fn tfrc_response(p: f64, discounting: bool) -> (f64, f64) {
    let (s, rtt) = (1000.0, 0.1);
    let cfg = LossIntervalsConfig { history_discounting: discounting, ..LossIntervalsConfig::default() };
    let steady = || {
        let mut li = LossIntervals::with_config(cfg);
        for _ in 0..8 {
            li.push_interval((1.0 / p).round() as u64);
        }
        li
    };
    let pkts_per_rtt = |li: &LossIntervals| rfc5348_rate_default(s, rtt, li.loss_event_rate()) * rtt / s;
    // Increase
    let mut li = steady();
    let mut w = pkts_per_rtt(&li);
    let mut max_rise: f64 = 0.0;
    for _ in 0..200 {
        li.set_open(li.open() + w.floor() as u64);
        let next = pkts_per_rtt(&li);
        max_rise = max_rise.max(next - w);
        w = next;
    }
    // Halving
    let mut li = steady();
    let w0 = pkts_per_rtt(&li);
    let mut w = w0;
    let mut rtts = f64::NAN;
    for k in 1..=50 {
        li.push_interval((w.floor() as u64).max(1));
        w = pkts_per_rtt(&li);
        if w <= w0 / 2.0 {
            rtts = k as f64;
            break;
        }
    }
    (max_rise, rtts)
}

/// Loss event rates at which C22 is measured.
pub const C22_P: [f64; 4] = [0.001, 0.005, 0.01, 0.05];

/// Every measured value, by name (the checks are in `python/vidcc/papers/ssvp/units.py`).
pub fn unit_measurements() -> Vec<(String, f64)> {
    // C3: the add threshold of the layer rule at the worked example, both Eq. (13) readings, at a
    // rate whose post-loss share already covers 3 layers (the clamp: P = 0), and the square law:
    // the deficit (3·100 − 0.125·R) halved from 260 to 130 kbit/s.
    let mut out: Vec<(String, f64)> = [
        ("c3_example_literal_bytes", PostLossFactor::PaperLiteral, EXAMPLE_RATE_BPS),
        ("c3_example_physical_bytes", PostLossFactor::Physical, EXAMPLE_RATE_BPS),
        ("c3_clamp_literal_bytes", PostLossFactor::PaperLiteral, 2_500_000.0),
        ("c3_clamp_physical_bytes", PostLossFactor::Physical, 350_000.0),
        ("c3_deficit_130k_bytes", PostLossFactor::PaperLiteral, 1_360_000.0),
    ]
    .into_iter()
    .map(|(name, f, rate)| (name.to_string(), add_threshold_bytes(f, rate)))
    .collect();
    // C4: a script of mark counts per period: none, 1, 5 (ratio 0.005, the hold boundary), 6, 50,
    // 1000, and a pseudo-random mix.
    let script = [0usize, 0, 1, 0, 5, 0, 6, 0, 0, 50, 3, 0, 1000, 0, 2, 0, 0, 7, 4, 0];
    out.extend(scripted_alg2(|i| if i < script.len() { script[i] } else { (i * 7919) % 11 % 8 }, 400));
    // C6
    out.push(("c6_endpoint_sample_50ms".into(), endpoint_sample(Duration::from_millis(50))));
    out.push(("c6_endpoint_sample_237ms".into(), endpoint_sample(Duration::from_millis(237))));
    let cfg = SsvpConfig::default();
    out.push(("c6_gamma".into(), cfg.gamma));
    out.push(("c6_epsilon".into(), cfg.epsilon));
    out.push(("c6_delta".into(), cfg.delta));
    out.extend(estimator(10_000));
    // C22
    for p in C22_P {
        for (tag, disc) in [("plain", false), ("discounting", true)] {
            let (rise, halve) = tfrc_response(p, disc);
            out.push((format!("c22_increase_{tag}_p{p}"), rise));
            out.push((format!("c22_halving_rtts_{tag}_p{p}"), halve));
        }
    }
    out
}
