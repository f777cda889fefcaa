//! TCP under random (Bernoulli) loss against the Padhye et al. (1998) model, and link loss
//! models measured end to end.

mod common;
use common::*;
use vidcc_core::estimate::tcp_model::padhye_full;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

/// 100 Mbps / 100 ms RTT, a queue that never fills, Bernoulli loss on the data direction only:
/// every loss is a random loss and the RTT is the propagation RTT.
fn lossy_run(protocol: ProtocolConfig, p: f64, seed: u64) -> f64 {
    let mut cfg = dumbbell(100_000_000, 48 * MS, droptail(QueueLimit::Packets(100_000)), vec![flow(protocol, 1)], 300);
    cfg.seed = seed;
    bottleneck(&mut cfg).loss = Some(LossConfig::Bernoulli { p });
    let out = run_config(cfg).unwrap();
    let fs = out.table("flow_summary");
    assert_eq!(fs.u64s("dropped_queue")[0], 0, "the queue must not drop");
    fs.f64s("throughput_bps")[0] / 8.0 / 1000.0 // packets per second
}

/// Padhye's full model (window-limited branch included) with the run's parameters: RTT 0.1 s,
/// b = 1 (an ACK per segment), T0 = 0.2 s (the RTO floor: the RTT is constant, so
/// SRTT + 4·RTTVAR sits below the 200 ms minimum), W_max = 64 segments (64 KB).
///
/// The band, ±25 % of the model: the model is an approximation of Reno, not of this loss
/// process. It assumes that once a packet of a round is lost the rest of the round is lost too,
/// while Bernoulli losses are independent, so a window holds a second loss more often than the
/// model expects; Reno turns that into a timeout (NewReno recovers it with a partial ACK), which
/// pulls Reno below the model as p grows. Measured when written (seed 1): NewReno 0.998, 0.978,
/// 0.916 and Reno 0.970, 0.933, 0.813 of the model at p = 0.1 %, 1 %, 3 %.
fn check_band(protocol: fn() -> ProtocolConfig, name: &str) {
    for p in [0.001, 0.01, 0.03] {
        let model = padhye_full(0.1, p, 0.2, 1.0, Some(64.0));
        let measured = lossy_run(protocol(), p, 1);
        let ratio = measured / model;
        eprintln!("{name} p={p}: measured {measured:.1} pkt/s, model {model:.1} pkt/s, ratio {ratio:.3}");
        assert!(
            (0.75..=1.25).contains(&ratio),
            "{name} at p={p}: measured {measured:.1} pkt/s vs model {model:.1} (ratio {ratio:.3})"
        );
    }
}

#[test]
fn newreno_goodput_follows_the_padhye_model() {
    check_band(|| ProtocolConfig::TcpNewReno(TcpConfig::default()), "newreno");
}

#[test]
fn reno_goodput_follows_the_padhye_model() {
    check_band(|| ProtocolConfig::TcpReno(TcpConfig::default()), "reno");
}

/// The Gilbert–Elliott link model, measured on a constant-rate flow crossing the link: loss rate
/// and mean loss-burst length against the closed forms (p/(p+r) and 1/r for a lossless good and
/// a lossless-never bad state).
#[test]
fn gilbert_elliott_link_loss_matches_closed_form() {
    let (p, r) = (0.02, 0.25);
    let mut cbr = flow(ProtocolConfig::UdpCbr(CbrConfig { rate_bps: 8_000_000 }), 1);
    cbr.packet_size_bytes = 1000;
    let mut cfg = dumbbell(100_000_000, 10 * MS, droptail(QueueLimit::Packets(1000)), vec![cbr], 250);
    cfg.packet_log = true;
    cfg.warmup_ns = 0;
    bottleneck(&mut cfg).loss = Some(LossConfig::GilbertElliott { p, r, loss_good: 0.0, loss_bad: 1.0 });
    let out = run_config(cfg).unwrap();
    let fate = strings(&out, "packets", "fate");
    let lost: Vec<bool> = fate.iter().filter(|f| *f != "in_flight").map(|f| f == "loss").collect();
    assert!(lost.len() > 200_000);
    let rate = lost.iter().filter(|&&l| l).count() as f64 / lost.len() as f64;
    let bursts = lost.windows(2).filter(|w| w[1] && !w[0]).count() + lost[0] as usize;
    let mean_burst = lost.iter().filter(|&&l| l).count() as f64 / bursts as f64;
    let (rate_cf, burst_cf) = (p / (p + r), 1.0 / r);
    assert!((rate / rate_cf - 1.0).abs() < 0.05, "loss rate {rate:.4} vs {rate_cf:.4}");
    assert!((mean_burst / burst_cf - 1.0).abs() < 0.05, "mean burst {mean_burst:.3} vs {burst_cf:.3}");
}

/// ns-2 Pareto on/off through the simulator: the long-run delivered rate is the peak rate times
/// the on-fraction E[on]/(E[on]+E[off]).
#[test]
fn pareto_on_off_long_run_rate_matches_its_mean() {
    let peak = 1_000_000;
    let pareto = flow(
        ProtocolConfig::UdpPareto(ParetoConfig {
            rate_bps: peak,
            on_mean_ns: 500 * MS,
            off_mean_ns: 500 * MS,
            shape: 1.5,
        }),
        1,
    );
    let cfg = dumbbell(100_000_000, 10 * MS, droptail(QueueLimit::Packets(1000)), vec![pareto], 4000);
    let out = run_config(cfg).unwrap();
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    let expected = peak as f64 * 0.5;
    // Shape 1.5 has infinite variance: convergence is slow, hence 4000 s and a 10 % band.
    assert!((thr / expected - 1.0).abs() < 0.10, "long-run rate {thr:.0} vs {expected:.0}");
}
