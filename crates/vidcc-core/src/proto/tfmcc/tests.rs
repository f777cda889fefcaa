//! TFMCC tests: the equation on docs/papers/asmp-tfmcc.md's hand values, the sender's CLR rules on
//! hand-made reports, a small multicast loop (receivers with their own delay, losses, join, leave
//! and crash), the suppression mechanism alone at 10 … 10 000 receivers, the parsers on garbage and
//! the shared property driver.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use super::suppression::{timer_delay, Suppression};
use super::wire::{p_to_ppb, TfmccData, TfmccFeedback, TfmccHeader, NO_SUPPRESSION};
use super::*;
use crate::endpoint::{Datagram, Destination, Endpoint, GroupId, Membership, PeerId, Transmit};
use crate::estimate::tcp_model::rfc5348_rate;
use crate::proto::testing::*;
use crate::proto::Application;
use crate::rng::RngStreams;
use crate::time::{Duration, Instant};

const S: u32 = 1000;

fn rel_close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * b.abs()
}

fn rng(i: u32) -> crate::rng::SimRng {
    RngStreams::new(7).stream(&format!("tfmcc/feedback/{i}"))
}

fn sender(cfg: &TfmccConfig, receivers: u32) -> TfmccSender {
    TfmccSender::new(cfg, Application::Bulk, S, receivers, Instant::ZERO, None).unwrap()
}

fn data_of(t: &Transmit) -> TfmccData {
    match TfmccHeader::parse(t.header.as_slice()) {
        Ok(TfmccHeader::Data(d)) => d,
        other => panic!("not a data packet: {other:?}"),
    }
}

fn feedback_of(t: &Transmit) -> TfmccFeedback {
    match TfmccHeader::parse(t.header.as_slice()) {
        Ok(TfmccHeader::Feedback(f)) => f,
        other => panic!("not a feedback packet: {other:?}"),
    }
}

/// A report from receiver `id` at `now`, echoing a data packet sent at `echo` (RTT = now − echo).
fn report(s: &mut TfmccSender, now: Instant, echo: Instant, id: u32, rate_bps: u64, p: f64, leave: bool) {
    let fb = TfmccFeedback {
        receiver: id,
        fb_round: s.round(),
        timestamp_ns: now.as_nanos(),
        echo_ns: echo.as_nanos(),
        echo_offset_us: 0,
        rate_bps,
        p_ppb: p_to_ppb(p),
        have_rtt: true,
        have_loss: p > 0.0,
        leave,
    };
    s.handle_datagram(now, Datagram { from: PeerId(id), bytes: fb.emit().as_slice(), virtual_payload: 0 }).unwrap();
}

// ---------------------------------------------------------------------------------------------
// The rate equation

#[test]
fn rate_equation_matches_the_rfc_formula_on_the_papers_values() {
    // docs/papers/asmp-tfmcc.md §1.2 test vectors, eq. (1) = RFC 4654 §4.1 with b = 1, t_RTO = 4R:
    // P = 1018 B, RTT = 0.16 s, bytes/s.
    for (l, expect) in [
        (0.001, 244_220.5),
        (0.005, 105_452.6),
        (0.01, 71_471.4),
        (0.05, 23_451.4),
        (0.1, 11_262.3),
        (0.3, 1_239.7),
        (0.5, 265.5),
    ] {
        let x = rfc5348_rate(1018.0, 0.16, l, 0.64, 1.0);
        // docs/papers/asmp-tfmcc.md prints one decimal (truncated): within 0.1 B/s.
        assert!((x - expect).abs() <= 0.1, "l = {l}: {x} vs {expect}");
    }
    // By hand, l = 0.01: 0.16·√(0.02/3) = 0.0130639; 0.64·3·√(0.00375)·0.01·1.0032 = 0.0011791
    //   → 1018 / 0.0142430 = 71 473 (docs/papers/asmp-tfmcc.md's 71 471.4 to 3e-5).
    assert!(rel_close(rfc5348_rate(1018.0, 0.16, 0.01, 0.64, 1.0), 71_471.4, 5e-5));
}

// ---------------------------------------------------------------------------------------------
// The sender's CLR rules on hand-made reports

#[test]
fn a_slower_receiver_becomes_the_clr_and_the_clr_leave_hands_over() {
    let cfg = TfmccConfig { slowstart: false, ..TfmccConfig::default() };
    let mut s = sender(&cfg, 3);
    assert_eq!(drain(&mut s, ms(0)).len(), 1);
    // §3.1: one packet per R_max = 0.5 s → 2000 B/s
    assert!(rel_close(s.x_bytes_per_s(), 2000.0, 1e-12));
    assert_eq!(s.clr(), None);
    // Receiver 0 reports 1 Mbit/s with loss: first report → CLR; increase limited to
    // X + s·Δt/R_max² with Δt = R_max = 0.5 s: 2000 + 1000·0.5/0.25 = 4000 B/s
    report(&mut s, ms(100), ms(0), 0, 1_000_000, 0.01, false);
    assert_eq!(s.clr(), Some(0));
    assert!(rel_close(s.x_bytes_per_s(), 4000.0, 1e-9), "{}", s.x_bytes_per_s());
    // Receiver 2 reports 80 000 bit/s = 10 000 B/s > X: not the CLR, sets X_supp = 0.9·10 000
    report(&mut s, ms(150), ms(0), 2, 80_000, 0.02, false);
    assert_eq!(s.clr(), Some(0));
    assert!(rel_close(s.suppression_rate(), 9000.0, 1e-12));
    // Receiver 1 reports 24 000 bit/s = 3000 B/s < X = 4000: case 2, CLR and X = 3000 at once
    report(&mut s, ms(200), ms(100), 1, 24_000, 0.05, false);
    assert_eq!(s.clr(), Some(1));
    assert!(rel_close(s.x_bytes_per_s(), 3000.0, 1e-12));
    assert!(rel_close(s.suppression_rate(), 2700.0, 1e-12));
    // The CLR reports 20 000 bit/s: case 3, X = 2500
    report(&mut s, ms(300), ms(200), 1, 20_000, 0.05, false);
    assert!(rel_close(s.x_bytes_per_s(), 2500.0, 1e-12));
    // The CLR leaves: the lowest recent rate (receiver 2's 10 000 B/s < receiver 0's 125 000) takes over
    report(&mut s, ms(400), ms(300), 1, 20_000, 0.05, true);
    assert_eq!(s.clr(), Some(2));
    // Its next report raises X by at most s·Δt/R_max², Δt = 400 ms since the last increase
    // (receiver 0's report at 100 ms): 2500 + 1000·0.4/0.25 = 4100
    report(&mut s, ms(500), ms(400), 2, 80_000, 0.02, false);
    assert!(rel_close(s.x_bytes_per_s(), 4100.0, 1e-9), "{}", s.x_bytes_per_s());
    assert_eq!(s.counters().clr_changes, 3);
}

#[test]
fn slow_start_follows_the_clr_report_until_the_first_loss() {
    let mut s = sender(&TfmccConfig::default(), 2);
    drain(&mut s, ms(0));
    // No loss: X = X_r (twice the receive rate), no increase limit.
    report(&mut s, ms(100), ms(0), 0, 64_000, 0.0, false);
    assert!(s.in_slowstart());
    assert!(rel_close(s.x_bytes_per_s(), 8000.0, 1e-12));
    report(&mut s, ms(200), ms(100), 0, 128_000, 0.0, false);
    assert!(rel_close(s.x_bytes_per_s(), 16_000.0, 1e-12));
    // The other receiver's first loss ends slow start; its lower rate makes it the CLR.
    report(&mut s, ms(250), ms(100), 1, 96_000, 0.01, false);
    assert!(!s.in_slowstart());
    assert_eq!(s.clr(), Some(1));
    assert!(rel_close(s.x_bytes_per_s(), 12_000.0, 1e-12));
    // From now on the increase is limited: Δt = 150 ms since the last increase (200 ms):
    // 12 000 + 1000·0.15/0.25 = 12 600.
    report(&mut s, ms(350), ms(250), 1, 1_000_000, 0.01, false);
    assert!(rel_close(s.x_bytes_per_s(), 12_600.0, 1e-9), "{}", s.x_bytes_per_s());
}

#[test]
fn the_clr_falls_silent_halving_then_timeout() {
    let cfg = TfmccConfig { slowstart: false, ..TfmccConfig::default() };
    let mut s = sender(&cfg, 2);
    drain(&mut s, ms(0));
    report(&mut s, ms(100), ms(0), 0, 1_000_000, 0.01, false);
    assert_eq!(s.clr(), Some(0));
    let x0 = s.x_bytes_per_s();
    // CLR RTT 100 ms: chosen at 100 ms, so no halving before 100 + 10·100 = 1100 ms; the
    // timeout (10 RTTs of silence) comes at the same instant and wins.
    let mut now = ms(100);
    while now < ms(1200) {
        now = s.poll_timeout().unwrap().max(now + millis(1));
        s.handle_timeout(now);
        drain(&mut s, now);
    }
    assert_eq!(s.clr(), None, "the silent CLR is presumed gone");
    assert_eq!(s.counters().clr_timeouts, 1);
    assert!(s.x_bytes_per_s() <= x0);
    // With a longer timeout the 4-RTT silence halves the rate first.
    let cfg = TfmccConfig { slowstart: false, clr_timeout_rtts: 20.0, ..TfmccConfig::default() };
    let mut s = sender(&cfg, 2);
    drain(&mut s, ms(0));
    report(&mut s, ms(100), ms(0), 0, 1_000_000, 0.01, false);
    report(&mut s, ms(2000), ms(1900), 0, 1_000_000, 0.01, false);
    let x1 = s.x_bytes_per_s();
    let mut now = ms(2000);
    while now < ms(2450) {
        now = s.poll_timeout().unwrap().max(now + millis(1));
        s.handle_timeout(now);
        drain(&mut s, now);
    }
    // Selected at 100 ms (> 20 RTTs before 2.4 s), silent since 2.0 s: halved once at 2.4 s.
    assert_eq!(s.counters().clr_silence_halvings, 1);
    assert!(rel_close(s.x_bytes_per_s(), x1 / 2.0, 1e-9));
}

#[test]
fn the_clr_silence_timer_uses_the_rtt_the_clr_paces_its_reports_by() {
    // The CLR reports once per its smoothed RTT (q = 0.9). A queue of 400 ms that has just
    // drained gives one 30 ms sample; the CLR's next report comes ~360 ms later. Four of the
    // latest sample (120 ms) would halve X twice before it; four smoothed RTTs do not.
    let cfg = TfmccConfig { slowstart: false, ..TfmccConfig::default() };
    let mut s = sender(&cfg, 1);
    drain(&mut s, ms(0));
    let mut now = ms(500);
    while now <= ms(5000) {
        report(&mut s, now, Instant::from_nanos(now.as_nanos() - 400_000_000), 0, 1_000_000, 0.01, false);
        drain(&mut s, now);
        now += millis(400);
    }
    report(&mut s, ms(5030), ms(5000), 0, 1_000_000, 0.01, false);
    let mut now = ms(5030);
    while now < ms(5390) {
        now = s.poll_timeout().unwrap().max(now + millis(1)).min(ms(5390));
        s.handle_timeout(now);
        drain(&mut s, now);
    }
    assert_eq!(s.counters().clr_silence_halvings, 0);
    report(&mut s, ms(5390), ms(5030), 0, 1_000_000, 0.01, false);
    assert_eq!(s.clr(), Some(0));
    // Silent for good: halved after four smoothed RTTs (0.9·363 + 0.1·360 ≈ 363 ms → 1.45 s).
    let mut now = ms(5390);
    while now < ms(6700) {
        now = s.poll_timeout().unwrap().max(now + millis(1)).min(ms(6700));
        s.handle_timeout(now);
        drain(&mut s, now);
    }
    assert_eq!(s.counters().clr_silence_halvings, 0, "halved before four smoothed RTTs");
    let mut now = ms(6700);
    while now < ms(7000) {
        now = s.poll_timeout().unwrap().max(now + millis(1)).min(ms(7000));
        s.handle_timeout(now);
        drain(&mut s, now);
    }
    assert_eq!(s.counters().clr_silence_halvings, 1);
}

// ---------------------------------------------------------------------------------------------
// A small multicast loop

/// One receiver's path: one-way delay, every k-th data packet lost, join, crash times.
#[derive(Clone, Copy)]
struct Path {
    one_way: Duration,
    drop_every: u64,
    join: Instant,
    crash: Option<Instant>,
}

/// (arrival, order, to: None = sender / Some(i) = receiver i, from, header, payload).
type InFlight = (Instant, u64, Option<usize>, u32, Vec<u8>, u32);

struct Net {
    s: TfmccSender,
    rs: Vec<TfmccReceiver>,
    paths: Vec<Path>,
    delivered: Vec<u64>,
    queue: BinaryHeap<Reverse<InFlight>>,
    order: u64,
    now: Instant,
    memberships: Vec<Vec<Membership>>,
}

impl Net {
    fn new(cfg: &TfmccConfig, paths: Vec<Path>) -> Self {
        let n = paths.len() as u32;
        Net {
            s: sender(cfg, n),
            rs: (0..n).map(|i| TfmccReceiver::new(cfg, i, S, rng(i))).collect(),
            delivered: vec![0; paths.len()],
            memberships: vec![vec![]; paths.len()],
            paths,
            queue: BinaryHeap::new(),
            order: 0,
            now: Instant::ZERO,
        }
    }

    fn alive(&self, i: usize) -> bool {
        self.now >= self.paths[i].join && self.paths[i].crash.is_none_or(|c| self.now < c)
    }

    fn flush(&mut self) {
        while let Some(t) = self.s.poll_transmit(self.now) {
            assert_eq!(t.to, Destination::Group(GroupId(0)));
            for i in 0..self.rs.len() {
                if !self.alive(i) || self.rs[i].has_left() {
                    continue;
                }
                self.delivered[i] += 1;
                if self.delivered[i].is_multiple_of(self.paths[i].drop_every) {
                    continue;
                }
                self.order += 1;
                let at = self.now + self.paths[i].one_way;
                self.queue.push(Reverse((at, self.order, Some(i), 0, t.header.as_slice().to_vec(), t.payload_len)));
            }
        }
        for i in 0..self.rs.len() {
            while let Some(m) = self.rs[i].poll_membership() {
                self.memberships[i].push(m);
            }
            while let Some(t) = self.rs[i].poll_transmit(self.now) {
                if !self.alive(i) {
                    continue;
                }
                self.order += 1;
                let at = self.now + self.paths[i].one_way;
                self.queue.push(Reverse((at, self.order, None, i as u32, t.header.as_slice().to_vec(), 0)));
            }
        }
    }

    fn run_until(&mut self, end: Instant) {
        loop {
            self.flush();
            let next = self.queue.peek().map(|Reverse(p)| p.0);
            let timers = std::iter::once(self.s.poll_timeout()).chain(self.rs.iter().map(|r| r.poll_timeout()));
            let next = timers.flatten().chain(next).min();
            match next {
                Some(t) if t <= end => self.now = t.max(self.now),
                _ => {
                    self.now = end;
                    return;
                }
            }
            while self.queue.peek().is_some_and(|Reverse(p)| p.0 <= self.now) {
                let Reverse((_, _, to, from, h, len)) = self.queue.pop().unwrap();
                let d = Datagram { from: PeerId(from), bytes: &h, virtual_payload: len };
                match to {
                    None => self.s.handle_datagram(self.now, d).unwrap(),
                    Some(i) => self.rs[i].handle_datagram(self.now, d).unwrap(),
                }
            }
            self.flush();
            if self.s.poll_timeout().is_some_and(|t| t <= self.now) {
                self.s.handle_timeout(self.now);
            }
            for r in self.rs.iter_mut() {
                if r.poll_timeout().is_some_and(|t| t <= self.now) {
                    r.handle_timeout(self.now);
                }
            }
        }
    }
}

fn path(one_way_ms: u64, drop_every: u64, join_s: u64) -> Path {
    Path { one_way: millis(one_way_ms), drop_every, join: ms(join_s * 1000), crash: None }
}

#[test]
fn the_clr_changes_when_a_slower_receiver_joins_and_when_the_clr_leaves() {
    let cfg = TfmccConfig::default();
    // Receiver 0: p ≈ 1/200 at RTT 100 ms; receiver 1 (joins at 30 s): p ≈ 1/25, same RTT.
    let mut net = Net::new(&cfg, vec![path(50, 200, 0), path(50, 25, 30)]);
    net.run_until(ms(29_000));
    assert_eq!(net.s.clr(), Some(0));
    assert!(net.rs[0].is_clr() && !net.rs[1].is_clr());
    let fast = net.s.x_bytes_per_s();
    net.run_until(ms(55_000));
    assert_eq!(net.s.clr(), Some(1), "the slower receiver that joined is the CLR");
    assert!(net.rs[1].is_clr() && !net.rs[0].is_clr(), "the echo told both receivers");
    let slow = net.s.x_bytes_per_s();
    assert!(slow < 0.6 * fast, "the rate follows the slower receiver: {slow} vs {fast}");
    // Its calculated rate: the equation at its own p and RTT (within the smoothing's noise).
    let r1 = &net.rs[1];
    let eq = rfc5348_rate(S as f64, r1.rtt().as_secs_f64(), r1.loss_event_rate(), 4.0 * r1.rtt().as_secs_f64(), 1.0);
    assert!(rel_close(slow, eq, 0.35), "X = {slow}, receiver 1's equation rate {eq}");
    net.rs[1].leave_at(ms(60_000));
    net.run_until(ms(75_000));
    assert_eq!(net.memberships[1], vec![Membership::Join(GroupId(0)), Membership::Leave(GroupId(0))]);
    assert_eq!(net.s.clr(), Some(0), "the CLR's leave hands over to the remaining receiver");
    assert!(net.s.x_bytes_per_s() > 1.3 * slow, "and the rate climbs back");
}

#[test]
fn a_crashed_clr_times_out_and_the_next_report_picks_the_new_one() {
    let cfg = TfmccConfig::default();
    let mut paths = vec![path(50, 200, 0), path(50, 25, 0)];
    paths[1].crash = Some(ms(30_000));
    let mut net = Net::new(&cfg, paths);
    net.run_until(ms(29_000));
    assert_eq!(net.s.clr(), Some(1));
    net.run_until(ms(45_000));
    assert!(net.s.counters().clr_timeouts >= 1);
    assert_eq!(net.s.clr(), Some(0));
}

// ---------------------------------------------------------------------------------------------
// Suppression alone

/// Mean feedback messages per round for `n` receivers with distinct random rates: every
/// receiver arms its timer at the round start; a report at time t reaches the sender and its
/// X_supp = (1 − g)·X_r every receiver at t + τ (τ = one RTT = R_max); T = 6·R_max.
fn mean_feedback_per_round(kind: FeedbackTimer, n: usize, rounds: usize) -> f64 {
    let rtt = millis(100);
    let t = rtt * 6;
    let mut rng = RngStreams::new(11).stream("suppression");
    let mut total = 0usize;
    for round in 0..rounds {
        let mut rx: Vec<(Instant, f64, Suppression)> = (0..n)
            .map(|_| {
                let rate = 1000.0 + 1e6 * super::suppression::draw_unit(&mut rng);
                let mut s = Suppression::new(kind, 10_000);
                s.on_round(Instant::ZERO, round as u32, t, rate, super::suppression::draw_unit(&mut rng));
                (s.deadline().unwrap(), rate, s)
            })
            .collect();
        rx.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        // Reports so far: (sent at, rate); X_supp at a receiver = 0.9·min rate sent ≤ now − τ.
        let mut sent: Vec<(Instant, f64)> = vec![];
        for (due, rate, s) in rx.iter_mut() {
            let x_supp =
                sent.iter().filter(|(at, _)| *at + rtt <= *due).map(|&(_, r)| 0.9 * r).fold(f64::INFINITY, f64::min);
            s.on_suppression_rate(x_supp, *rate, rtt, rtt);
            if s.take_due(*due) {
                sent.push((*due, *rate));
            }
        }
        total += sent.len();
    }
    total as f64 / rounds as f64
}

/// The bound of the suppression module's analysis: N^(τ/T)·(1 + H_n).
fn expected_bound(n: usize) -> f64 {
    let h_n: f64 = (1..=n).map(|k| 1.0 / k as f64).sum();
    10_000f64.powf(1.0 / 6.0) * (1.0 + h_n)
}

#[test]
fn suppressed_feedback_per_round_grows_logarithmically_within_the_bound() {
    let mut means = vec![];
    for (n, rounds) in [(10, 400), (100, 200), (1_000, 60), (10_000, 12)] {
        let m = mean_feedback_per_round(FeedbackTimer::Exponential, n, rounds);
        let bound = expected_bound(n);
        assert!(m >= 1.0 && m <= bound, "n = {n}: {m} messages per round, bound {bound:.1}");
        means.push(m);
    }
    // A thousand times the receivers, less than ten times the messages.
    assert!(means[3] < 10.0 * means[0], "{means:?}");
    // The uniform timer, which the RFC's exponential one replaces, exceeds the bound at scale:
    // the test can tell a working suppression from a broken one.
    let uniform = mean_feedback_per_round(FeedbackTimer::Uniform, 10_000, 3);
    assert!(uniform > expected_bound(10_000), "uniform timers: {uniform}");
}

#[test]
fn the_exponential_timer_follows_the_rfc_formula() {
    let t = Duration::from_secs(6);
    // x = 1 → T; x = 1/N → 0; x = N^(−1/2) → T/2; below 1/N clamps to 0.
    assert_eq!(timer_delay(FeedbackTimer::Exponential, t, 10_000, 1.0), t);
    assert_eq!(timer_delay(FeedbackTimer::Exponential, t, 10_000, 1e-4), Duration::ZERO);
    assert_eq!(timer_delay(FeedbackTimer::Exponential, t, 10_000, 1e-6), Duration::ZERO);
    let half = timer_delay(FeedbackTimer::Exponential, t, 10_000, 0.01);
    assert!(half.as_nanos().abs_diff(3_000_000_000) <= 1, "{half}");
    assert_eq!(timer_delay(FeedbackTimer::Uniform, t, 10_000, 0.25), Duration::from_millis(1500));
}

#[test]
fn a_receiver_cancels_on_a_lower_echoed_rate_but_not_when_its_rtt_exceeds_r_max() {
    let t = Duration::from_secs(3);
    let mut s = Suppression::new(FeedbackTimer::Exponential, 10_000);
    assert!(s.on_round(ms(0), 1, t, 5000.0, 0.5));
    assert!(!s.on_round(ms(10), 1, t, 5000.0, 0.9), "same round: no new timer");
    // X_supp above both X_calc and X_fbr: keep the report.
    s.on_suppression_rate(6000.0, 5000.0, millis(500), millis(100));
    assert!(s.deadline().is_some());
    // Our RTT is above R_max: report anyway.
    s.on_suppression_rate(4000.0, 5000.0, millis(100), millis(200));
    assert!(s.deadline().is_some());
    // X_supp below X_calc with R_max ≥ RTT: cancelled.
    s.on_suppression_rate(4000.0, 5000.0, millis(500), millis(100));
    assert_eq!(s.deadline(), None);
    // X_supp below X_fbr though the rate has since dropped below X_supp: cancelled too.
    s.on_round(ms(100), 2, t, 5000.0, 0.5);
    s.on_suppression_rate(4000.0, 3000.0, millis(500), millis(100));
    assert_eq!(s.deadline(), None);
    assert_eq!(s.cancelled(), 2);
}

// ---------------------------------------------------------------------------------------------
// Receiver details

#[test]
fn the_receiver_joins_reports_and_measures_rtt_from_the_echo() {
    let cfg = TfmccConfig::default();
    let mut r = TfmccReceiver::new(&cfg, 3, S, rng(3));
    assert_eq!(r.poll_membership(), Some(Membership::Join(GroupId(0))));
    assert_eq!(r.poll_membership(), None);
    // Before any echo R = R_max from the header.
    let d =
        TfmccData { seq: 0, timestamp_ns: 0, fb_round: 0, r_max_us: 400_000, x_supp_bps: NO_SUPPRESSION, echo: None };
    receive(&mut r, ms(40), d.emit().as_slice(), S - 48).unwrap();
    assert_eq!(r.rtt(), millis(400));
    // Its timer fires within T = 6·R_max = 2.4 s.
    let due = r.poll_timeout().unwrap();
    assert!(due >= ms(40) && due <= ms(2440));
    r.handle_timeout(due);
    let fb = feedback_of(&drain(&mut r, due)[0]);
    assert_eq!((fb.receiver, fb.fb_round, fb.have_rtt, fb.have_loss, fb.leave), (3, 0, false, false, false));
    assert_eq!(fb.timestamp_ns, due.as_nanos());
    // The sender echoes it 20 ms later with a 5 ms offset; the packet arrives at due + 60 ms:
    // sample = 60 − 5 = 55 ms. The echo marks us CLR.
    let echo = super::wire::Echo { receiver: 3, timestamp_ns: fb.timestamp_ns, offset_us: 5000, is_clr: true };
    let d2 = TfmccData { seq: 1, timestamp_ns: (due + millis(20)).as_nanos(), echo: Some(echo), ..d };
    receive(&mut r, due + millis(60), d2.emit().as_slice(), S - 48).unwrap();
    assert_eq!(r.measured_rtt(), Some(millis(55)));
    assert!(r.is_clr());
    // One-way delay grows by 10 ms on the next packet: R' = 55 + 10 = 65 ms.
    let d3 = TfmccData { seq: 2, timestamp_ns: (due + millis(30)).as_nanos(), echo: None, ..d };
    receive(&mut r, due + millis(80), d3.emit().as_slice(), S - 48).unwrap();
    assert_eq!(r.rtt(), millis(65));
    // Another receiver's CLR echo: no longer the CLR.
    let other = super::wire::Echo { receiver: 9, timestamp_ns: 0, offset_us: 0, is_clr: true };
    let d4 = TfmccData { seq: 3, echo: Some(other), ..d3 };
    receive(&mut r, due + millis(90), d4.emit().as_slice(), S - 48).unwrap();
    assert!(!r.is_clr());
}

// ---------------------------------------------------------------------------------------------
// Properties

struct TfmccInvariants {
    last_round: u32,
    /// The highest rate any report carried so far (bytes/s), and the initial rate.
    max_reported: f64,
}

impl Invariants<TfmccSender, TfmccReceiver> for TfmccInvariants {
    fn sender_sent(&mut self, s: &TfmccSender, t: &Transmit) -> Result<(), TestCaseError> {
        let d = data_of(t);
        prop_assert_eq!(t.to, Destination::Group(GroupId(0)));
        prop_assert!(d.fb_round >= self.last_round, "feedback rounds went backwards");
        self.last_round = d.fb_round;
        // X only ever takes a reported rate, a limited step toward one, or half of itself.
        prop_assert!(
            s.x_bytes_per_s() <= self.max_reported * (1.0 + 1e-9),
            "X {} above every report {}",
            s.x_bytes_per_s(),
            self.max_reported
        );
        Ok(())
    }

    fn receiver_sent(&mut self, r: &TfmccReceiver, t: &Transmit) -> Result<(), TestCaseError> {
        let fb = feedback_of(t);
        prop_assert_eq!(t.to, Destination::Peer(PeerId::PEER));
        prop_assert_eq!(fb.receiver, r.id());
        if fb.have_loss && !fb.leave {
            // The reported rate is the RFC 4654 §4.1 equation at the receiver's p and RTT.
            let rr = r.rtt().as_secs_f64();
            let eq = rfc5348_rate(S as f64, rr, r.loss_event_rate(), 4.0 * rr, 1.0) * 8.0;
            // Whole bit/s on the wire (truncated).
            prop_assert!(
                (fb.rate_bps as f64 - eq.max(1.0)).abs() <= 1.0 + 1e-9 * eq,
                "rate {} vs equation {}",
                fb.rate_bps,
                eq
            );
        }
        self.max_reported = self.max_reported.max(fb.rate_bps as f64 / 8.0);
        Ok(())
    }
}

fn config() -> impl Strategy<Value = TfmccConfig> {
    (any::<bool>(), any::<bool>(), prop_oneof![Just(FeedbackTimer::Exponential), Just(FeedbackTimer::Uniform)])
        .prop_map(|(slowstart, owd, timer)| TfmccConfig {
            slowstart,
            one_way_delay_adjustment: owd,
            feedback_timer: timer,
            initial_rtt_ns: 100_000_000,
            ..TfmccConfig::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_network_behaviour_keeps_the_invariants(
        cfg in config(),
        ops in net_ops(Clock { max_advance: millis(300), max_rewind: millis(100) }, 0..400),
    ) {
        let mut s = sender(&cfg, 1);
        let mut r = TfmccReceiver::new(&cfg, 0, S, rng(0));
        let initial = s.x_bytes_per_s();
        drive_network(&mut s, &mut r, &ops, &mut TfmccInvariants { last_round: 0, max_reported: initial })?;
    }

    #[test]
    fn endpoints_never_panic_on_random_bytes(cfg in config(), (bytes, extra) in garbage()) {
        let mut s = sender(&cfg, 4);
        let mut r = TfmccReceiver::new(&cfg, 0, S, rng(0));
        drain(&mut s, Instant::ZERO);
        feed_garbage(&mut s, ms(1), &bytes, extra, Rejections::Counted)?;
        feed_garbage(&mut r, ms(1), &bytes, extra, Rejections::Counted)?;
    }
}

#[test]
fn build_makes_one_receiver_per_peer_and_refuses_tiny_packets() {
    let members = vec![crate::proto::registry::ReceiverSpec::default(); 5];
    let ctx = |receivers, packet| crate::proto::FlowContext {
        app: Application::Bulk,
        packet_size: crate::units::DataSize::from_bytes(packet),
        start: Instant::ZERO,
        stop: None,
        receivers,
        members: &members[..receivers as usize],
        rng: &|name| RngStreams::new(1).stream(name),
    };
    let f = build(&TfmccConfig::default(), ctx(5, 1000)).unwrap();
    assert_eq!(f.receivers.len(), 5);
    let err = build(&TfmccConfig::default(), ctx(1, 48)).err().unwrap();
    assert!(err.contains("packet_size"), "{err}");
    let err = build(&TfmccConfig { q_clr: 1.5, ..TfmccConfig::default() }, ctx(1, 1000)).err().unwrap();
    assert!(err.contains("q_clr"), "{err}");
}
