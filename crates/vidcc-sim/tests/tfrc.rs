//! TFRC (RFC 5348) in the simulator: its long-run rate against its own throughput equation
//! under random loss, and its use of an uncongested link with video and with bulk data.

mod common;
use common::*;
use vidcc_core::estimate::tcp_model::rfc5348_rate;
use vidcc_core::proto::tfrc::{InitialRate, RateRules, RtoRule, TfrcConfig};
use vidcc_sim::config::*;
use vidcc_sim::{run_config, SimOutput};

fn tfrc() -> ProtocolConfig {
    ProtocolConfig::Tfrc(TfrcConfig::default())
}

/// ns-2 2.35's Agent/TFRC (python/vidcc/protocols/tfrc.py `NS2_AGENT`).
fn tfrc_ns2() -> ProtocolConfig {
    ProtocolConfig::Tfrc(TfrcConfig {
        rules: RateRules::Ns2,
        initial_rate: InitialRate::Rfc5348,
        q: 0.95,
        q2: 0.95,
        oscillation_prevention: true,
        t_rto: RtoRule::Tcp,
        nofeedback_rtts: 2.0,
        ndupack: 1,
        history_discounting: true,
        ..TfrcConfig::default()
    })
}

/// Receiver-side loss events of flow 0 at or after `from_ns`.
fn receiver_loss_events(out: &SimOutput, from_ns: u64) -> u64 {
    events(out, 0, "receiver", "loss_event").iter().filter(|&&(t, _)| t >= from_ns).count() as u64
}

/// 100 Mbps / 100 ms RTT, a queue that never fills, Bernoulli loss on the data direction only.
/// Returns (sending rate B/s, loss event rate per packet sent, path RTT s).
fn lossy_run(p: f64, seed: u64) -> (f64, f64, f64) {
    lossy_run_of(tfrc(), p, seed)
}

fn lossy_run_of(proto: ProtocolConfig, p: f64, seed: u64) -> (f64, f64, f64) {
    let duration_s = 400;
    let mut cfg =
        dumbbell(100_000_000, 48 * MS, droptail(QueueLimit::Packets(100_000)), vec![flow(proto, 1)], duration_s);
    cfg.seed = seed;
    cfg.warmup_ns = 20 * S;
    bottleneck(&mut cfg).loss = Some(LossConfig::Bernoulli { p });
    let out = run_config(cfg).unwrap();
    let fs = out.table("flow_summary");
    assert_eq!(fs.u64s("dropped_queue")[0], 0, "the queue must not drop");
    let sent = fs.u64s("sent_packets")[0] as f64;
    let window = (duration_s - 20) as f64;
    let events = receiver_loss_events(&out, 20 * S) as f64;
    let rtt = out.table("flows").u64s("path_rtt_ns")[0] as f64 / 1e9;
    (sent * 1000.0 / window, events / sent, rtt)
}

/// RFC 5348 Eq. (1) is what the sender aims at, with the p its receiver measures: the loss
/// *event* rate (at most one event per RTT), here the receiver's loss events per packet sent
/// over the measured window. The configured Bernoulli p is a packet loss rate; at 3 % about one
/// loss in seven falls within an RTT of the previous one and is no new event, so p itself would
/// understate the rate the equation gives by ≈ 8 % there and mix two effects. R is the path
/// RTT (no queueing: the queue never holds more than a packet or two at 100 Mbps).
///
/// Band ±20 % (issue 5). Measured when written (seed 1, 380 s measured): rate / Eq. (1) =
/// 0.966, 0.976, 0.968 at p = 0.5 %, 1 %, 3 % (loss event rates 0.00434, 0.00866, 0.02535).
/// Slightly below 1: X is set from p = 1/I_mean of a noisy 8-interval average, and the
/// equation is concave in 1/p (Jensen), besides the no-feedback and X_recv limits.
#[test]
fn long_run_rate_follows_the_throughput_equation_under_bernoulli_loss() {
    for p in [0.005, 0.01, 0.03] {
        let (rate, p_event, rtt) = lossy_run(p, 1);
        let eq = rfc5348_rate(1000.0, rtt, p_event, 4.0 * rtt, 1.0);
        let ratio = rate / eq;
        eprintln!(
            "tfrc p={p}: rate {rate:.0} B/s, loss event rate {p_event:.5}, R {rtt:.4} s, Eq. (1) {eq:.0} B/s, ratio {ratio:.3}"
        );
        assert!(p_event > 0.5 * p && p_event <= p, "loss event rate {p_event} vs packet loss rate {p}");
        assert!((0.8..=1.2).contains(&ratio), "p={p}: rate {rate:.0} B/s vs Eq. (1) {eq:.0} B/s (ratio {ratio:.3})");
    }
}

/// The same with ns-2's agent: its rate rules aim at formula.h's equation with t_RTO = TCP's RTO
/// in 0.1 s ticks, 0.3 s at a steady 100 ms RTT (one tick: srtt 1 + 4·rttvar 0.5), against
/// 4R = 0.4 s; at these p the cap on 3·√(3bp/8) is not reached. Band ±20 %.
#[test]
fn ns2_agent_long_run_rate_follows_its_equation_under_bernoulli_loss() {
    for p in [0.01, 0.03] {
        let (rate, p_event, rtt) = lossy_run_of(tfrc_ns2(), p, 1);
        let eq = rfc5348_rate(1000.0, rtt, p_event, 0.3, 1.0);
        let ratio = rate / eq;
        eprintln!("tfrc ns2 p={p}: rate {rate:.0} B/s, loss event rate {p_event:.5}, R {rtt:.4} s, Eq. {eq:.0} B/s, ratio {ratio:.3}");
        assert!((0.8..=1.2).contains(&ratio), "p={p}: rate {rate:.0} B/s vs Eq. {eq:.0} B/s (ratio {ratio:.3})");
    }
}

fn video(rate_bps: u64) -> VideoConfig {
    tes_video(rate_bps, vec![128_000, 256_000, 512_000, 768_000, 1_024_000])
}

/// Alone on a 10 Mbps link, a 1024 kbps layered video over TFRC is delivered whole: goodput ≥
/// 90 % of the video rate (the lower of video and link rate).
#[test]
fn alone_on_an_uncongested_link_video_is_delivered_at_its_rate() {
    let mut f = flow(tfrc(), 1);
    f.video = Some(video(1_024_000));
    let out = run_config(dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![f], 60)).unwrap();
    let goodput = out.table("flow_summary").f64s("goodput_bps")[0];
    eprintln!("tfrc video alone: goodput {goodput:.0} bit/s of 1 024 000");
    assert!(goodput >= 0.9 * 1_024_000.0, "goodput {goodput}");
    assert_eq!(out.table("flow_summary").u64s("dropped_queue")[0], 0);
}

/// The same video on a 512 kbps link: the link rate is the lower one; TFRC fills ≥ 90 % of it.
#[test]
fn video_above_the_link_rate_fills_the_link() {
    let mut f = flow(tfrc(), 1);
    f.video = Some(video(1_024_000));
    let out = run_config(dumbbell(512_000, 20 * MS, droptail(QueueLimit::Packets(10)), vec![f], 120)).unwrap();
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    eprintln!("tfrc video on 512 kbps: throughput {thr:.0} bit/s");
    assert!(thr >= 0.9 * 512_000.0, "throughput {thr}");
}

/// Bulk data alone on a 10 Mbps / 44 ms link with a BDP of DropTail buffer fills the link.
#[test]
fn alone_with_bulk_data_it_fills_the_link() {
    let out = run_config(dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![flow(tfrc(), 1)], 100)).unwrap();
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    eprintln!("tfrc bulk alone: throughput {thr:.0} bit/s of 10 Mbit/s");
    assert!(thr >= 0.9 * 10e6, "throughput {thr}");
    assert!(thr <= 10e6 * (1.0 + 1e-9));
}
