//! Simulation checks against theory on the dumbbell (issue: "Simulation checks against theory").

mod common;
use common::*;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

/// One NewReno flow, 10 Mbps / 70 ms RTT, DropTail buffer of one bandwidth-delay product:
/// the classic result (Villamizar & Song 1994) is that a BDP of buffer lets a single AIMD flow
/// keep the link busy through every halving. The max window is lifted above the BDP + buffer
/// (2 × 87.5 KB), otherwise the 64 KB default would cap the flow at 64 KB / 70 ms = 7.3 Mbps.
#[test]
fn one_newreno_flow_keeps_a_bdp_buffered_bottleneck_busy() {
    let tcp = ProtocolConfig::TcpNewReno(TcpConfig { max_window_bytes: 1_000_000, ..TcpConfig::default() });
    let cfg = dumbbell(10_000_000, 33 * MS, droptail(QueueLimit::Bdp), vec![flow(tcp, 1)], 100);
    let out = run_config(cfg).unwrap();
    let links = out.table("links");
    assert_eq!(links.u64s("queue_limit_packets")[0], 88, "BDP of 10 Mbps × 70 ms in 1000 B packets");
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    let utilisation = thr / 10e6;
    assert!(utilisation > 0.95, "utilisation {utilisation:.4}");
    assert!(utilisation <= 1.0 + 1e-9, "faster than the link: {utilisation}");
    // It must have probed: some drops at the bottleneck, i.e. the queue really filled.
    assert!(out.table("flow_summary").u64s("dropped_queue")[0] > 0);
}

/// With identical RTTs, a deterministic DropTail simulation shows phase effects (Floyd &
/// Jacobson 1992): without jitter one flow here never meets a full queue and takes 4.3 Mbps
/// while nine get 0.6 Mbps each (Jain 0.46). A random send delay of up to one bottleneck
/// service time (0.8 ms; ns-2 `overhead_`), as they recommend, removes it.
#[test]
fn ten_newreno_flows_with_equal_rtt_share_fairly() {
    let mut f = flow(newreno(), 10);
    f.start_ns = Spread::Uniform { min: 0, max: S };
    f.send_jitter_ns = 800_000;
    let cfg = dumbbell(10_000_000, 33 * MS, droptail(QueueLimit::Bdp), vec![f], 200);
    let out = run_config(cfg).unwrap();
    let jain = aggregate(&out, "all", "jain");
    let total = aggregate(&out, "all", "throughput_bps_sum");
    assert!(jain >= 0.95, "Jain {jain:.4}");
    assert!(total > 0.9 * 10e6, "aggregate throughput {total}");
}

/// RED keeps its average queue between min_th and max_th under a steady load of long-lived TCP
/// flows (Floyd & Jacobson 1993, §3 and §6): that is what it is designed to do.
#[test]
fn red_average_queue_stays_between_thresholds() {
    let red = red(QueueLimit::Packets(100), 5.0, 15.0);
    let cfg = dumbbell(10_000_000, 33 * MS, red, vec![flow(newreno(), 20)], 100);
    let out = run_config(cfg).unwrap();
    let q = out.table("queue_samples");
    let links = q.u64s("link");
    let (t, avg) = (q.u64s("t_ns"), q.f64s("average"));
    // Forward bottleneck direction (link 0), after a 20 s settling period.
    let steady: Vec<f64> = (0..avg.len()).filter(|&i| links[i] == 0 && t[i] > 20 * S).map(|i| avg[i]).collect();
    assert!(!steady.is_empty());
    let mean = steady.iter().sum::<f64>() / steady.len() as f64;
    let (lo, hi) = steady.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    assert!(mean > 5.0 && mean < 15.0, "mean average queue {mean:.2}");
    let inside = steady.iter().filter(|&&x| (5.0..=15.0).contains(&x)).count() as f64 / steady.len() as f64;
    assert!(inside > 0.9, "only {:.1}% of samples inside [5, 15] (range {lo:.2}..{hi:.2})", inside * 100.0);
}
