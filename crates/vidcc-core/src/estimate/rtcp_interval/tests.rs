//! The RTCP interval against RFC 3550's formula, written out here independently of the module.

use super::*;
use crate::rng::{RngStreams, SimRng};

fn rng() -> SimRng {
    RngStreams::new(7).stream("rtcp-interval-test")
}

/// RFC 3550 §6.2 for a receiver in a session with one sender: 5 % of the session bandwidth,
/// 75 % of that shared by the members − 1 receivers, at least T_min = 5 s.
fn rfc_receiver_td(session_bps: f64, members: f64, avg_size: f64) -> f64 {
    let rtcp_bytes_per_s = session_bps / 8.0 * 0.05;
    (avg_size * (members - 1.0) / (0.75 * rtcp_bytes_per_s)).max(5.0)
}

fn cfg(kbps: u64) -> RtcpIntervalConfig {
    RtcpIntervalConfig { session_bandwidth: DataRate::from_kbps(kbps), ..RtcpIntervalConfig::default() }
}

fn receiver(members: u32) -> Membership {
    Membership { members, senders: 1, we_sent: false }
}

#[test]
fn interval_mean_and_spread_match_the_formula_for_2_100_and_10000_members() {
    let c = cfg(100);
    let mut rng = rng();
    for (members, td_expected) in [(2u32, 5.0), (100, 21.12), (10_000, 2133.12)] {
        let td = rfc_receiver_td(100_000.0, members as f64, 100.0);
        assert!((td - td_expected).abs() < 1e-9, "{members}: the test's own formula gives {td}");
        assert!((deterministic_interval(&c, receiver(members), 100.0, false) - td).abs() < 1e-9 * td);
        let n = 20_000;
        let draws: Vec<f64> =
            (0..n).map(|_| randomised_interval(&c, receiver(members), 100.0, false, &mut rng).as_secs_f64()).collect();
        let mean = draws.iter().sum::<f64>() / n as f64;
        let sd = (draws.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1) as f64).sqrt();
        let (lo, hi) = draws.iter().fold((f64::MAX, 0.0f64), |(l, h), &x| (l.min(x), h.max(x)));
        // T_d · U[0.5, 1.5] / (e − 1.5): mean T_d/(e − 1.5), sd T_d/((e − 1.5)·√12), range ±50 %.
        let c_e = std::f64::consts::E - 1.5;
        let (want_mean, want_sd) = (td / c_e, td / (c_e * 12f64.sqrt()));
        assert!((mean / want_mean - 1.0).abs() < 0.01, "{members}: mean {mean} vs {want_mean}");
        assert!((sd / want_sd - 1.0).abs() < 0.03, "{members}: sd {sd} vs {want_sd}");
        assert!(lo >= 0.5 * td / c_e - 1e-6 && lo < 0.51 * td / c_e, "{members}: min {lo}");
        assert!(hi <= 1.5 * td / c_e + 1e-6 && hi > 1.49 * td / c_e, "{members}: max {hi}");
    }
}

#[test]
fn sender_and_receiver_shares_and_the_minimums() {
    let c = cfg(10);
    // 10 kb/s → RTCP 62.5 B/s. One sender of 100 members: it alone has 25 %: 100/15.625 = 6.4 s.
    let s = Membership { members: 100, senders: 1, we_sent: true };
    assert!((deterministic_interval(&c, s, 100.0, false) - 6.4).abs() < 1e-9);
    // A receiver: 99 · 100 / 46.875.
    assert!((deterministic_interval(&c, receiver(100), 100.0, false) - 211.2).abs() < 1e-9);
    // Senders above 25 % of the members: everyone shares the whole RTCP bandwidth.
    let m = Membership { members: 4, senders: 2, we_sent: false };
    assert!((deterministic_interval(&c, m, 100.0, false) - 6.4).abs() < 1e-9);
    // T_min, halved for the first report; the reduced minimum 360 / 1000 kb/s = 0.36 s.
    assert_eq!(deterministic_interval(&cfg(1000), receiver(2), 100.0, false), 5.0);
    assert_eq!(deterministic_interval(&cfg(1000), receiver(2), 100.0, true), 2.5);
    let reduced = RtcpIntervalConfig { reduced_minimum: true, ..cfg(1000) };
    assert!((deterministic_interval(&reduced, receiver(2), 100.0, false) - 0.36).abs() < 1e-12);
    assert_eq!(deterministic_interval(&reduced, receiver(2), 100.0, true), 2.5);
}

/// With reconsideration, intervals average T_d: the e − 3/2 compensation undoes the bias of
/// sending at the first draw that does not exceed the previous one (RFC 3550 §6.3.1).
#[test]
fn reconsideration_with_the_compensation_averages_the_deterministic_interval() {
    let c = cfg(100);
    let mut rng = rng();
    let m = receiver(100);
    let mut s = RtcpScheduler::new(c, m, 100, Instant::ZERO, &mut rng);
    let mut sends = vec![];
    let mut deferrals = 0;
    while sends.len() < 20_001 {
        let now = s.next();
        match s.expire(now, &mut rng) {
            Expiry::Send => {
                s.sent(now, 100, &mut rng);
                sends.push(now.as_secs_f64());
            }
            Expiry::Deferred => deferrals += 1,
        }
    }
    let mean = (sends[20_000] - sends[0]) / 20_000.0;
    assert!((mean / 21.12 - 1.0).abs() < 0.015, "mean interval {mean}");
    // About half the expiries are reconsidered (the next draw exceeds the one before).
    assert!(deferrals > 5_000, "{deferrals}");
}

#[test]
fn timer_reconsideration_defers_a_report_when_the_group_grows() {
    let mut rng = rng();
    let mut s = RtcpScheduler::new(cfg(100), receiver(2), 100, Instant::ZERO, &mut rng);
    // First report: T_min/2 · [0.5, 1.5] / (e − 1.5).
    let first = s.next().as_secs_f64();
    assert!((1.0261..=3.0785).contains(&first), "{first}");
    assert!(s.is_initial());
    // 9 998 members join before it fires: T_d becomes 2133 s (initial T_min does not matter).
    s.set_membership(Instant::from_nanos(500_000_000), receiver(10_000));
    let at = s.next();
    assert_eq!(s.expire(at, &mut rng), Expiry::Deferred);
    let t = s.next().as_secs_f64();
    let c_e = std::f64::consts::E - 1.5;
    assert!(t >= 0.5 * 2133.12 / c_e && t <= 1.5 * 2133.12 / c_e, "{t}");
    // Without growth the same expiry sends at once or after the redrawn interval.
    let mut s = RtcpScheduler::new(cfg(100), receiver(2), 100, Instant::ZERO, &mut rng);
    let at = s.next();
    let mut now = at;
    while s.expire(now, &mut rng) == Expiry::Deferred {
        now = s.next();
        assert!(now.as_secs_f64() <= 3.0785);
    }
    s.sent(now, 100, &mut rng);
    assert!(!s.is_initial());
    assert_eq!(s.last_sent(), now);
}

#[test]
fn reverse_reconsideration_pulls_the_timer_in_when_members_leave() {
    let mut rng = rng();
    let mut s = RtcpScheduler::new(cfg(100), receiver(10_000), 100, Instant::ZERO, &mut rng);
    let t0 = Instant::from_nanos(100_000_000_000);
    s.sent(t0, 100, &mut rng);
    let tn = s.next();
    let now = Instant::from_nanos(200_000_000_000);
    assert!(tn > now);
    s.set_membership(now, receiver(2_500));
    // tn = now + ¼(tn − now), tp = now − ¼(now − tp).
    let want = now.as_nanos() + (tn.as_nanos() - now.as_nanos()) / 4;
    assert!(s.next().as_nanos().abs_diff(want) <= 1, "{} vs {want}", s.next());
    assert_eq!(s.last_sent(), Instant::from_nanos(175_000_000_000));
    // Growth changes nothing until the timer fires.
    let before = s.next();
    s.set_membership(now, receiver(20_000));
    assert_eq!(s.next(), before);
}

#[test]
fn average_size_and_member_timeout() {
    let mut rng = rng();
    let mut s = RtcpScheduler::new(cfg(100), receiver(100), 100, Instant::ZERO, &mut rng);
    s.received(200);
    assert_eq!(s.avg_rtcp_size(), 106.25);
    s.sent(Instant::ZERO, 106, &mut rng);
    assert_eq!(s.avg_rtcp_size(), 106.25 * 15.0 / 16.0 + 106.0 / 16.0);
    // 5 × T_d as a receiver, whatever this participant is.
    let td = deterministic_interval(&cfg(100), receiver(100), s.avg_rtcp_size(), false);
    assert_eq!(s.member_timeout(), Duration::from_secs_f64(5.0 * td));
    s.set_membership(Instant::ZERO, Membership { members: 100, senders: 1, we_sent: true });
    assert_eq!(s.member_timeout(), Duration::from_secs_f64(5.0 * td));
}

#[test]
fn configuration_is_validated() {
    assert!(RtcpIntervalConfig::default().validate().is_ok());
    let bad = [
        (RtcpIntervalConfig { session_bandwidth: DataRate::ZERO, ..Default::default() }, "session_bandwidth"),
        (RtcpIntervalConfig { rtcp_fraction: 0.0, ..Default::default() }, "rtcp_fraction"),
        (RtcpIntervalConfig { sender_fraction: 1.0, ..Default::default() }, "sender_fraction"),
        (RtcpIntervalConfig { min_interval: Duration::ZERO, ..Default::default() }, "min_interval"),
    ];
    for (c, field) in bad {
        assert!(c.validate().unwrap_err().contains(field));
    }
}
