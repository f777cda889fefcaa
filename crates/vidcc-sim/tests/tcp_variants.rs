//! TCP Tahoe (`tcp-tahoe`) and SACK (`tcp-sack`) in the simulator, against NewReno and ns-2
//! 2.35's `Agent/TCP` and `Agent/TCP/Sack1`.

mod common;
use common::*;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

fn agent(kind: &str) -> ProtocolConfig {
    let c = TcpConfig { max_window_bytes: 16_000_000, ..TcpConfig::default() };
    match kind {
        "tahoe" => ProtocolConfig::TcpTahoe(c),
        "reno" => ProtocolConfig::TcpReno(c),
        "sack" => ProtocolConfig::TcpSack(c),
        _ => ProtocolConfig::TcpNewReno(c),
    }
}

/// One flow on the issue-13 dumbbell (10 Mbps / 70 ms RTT, DropTail 84, 1040 B packets) with
/// Bernoulli loss `p` on the bottleneck's data direction, 60 s: (throughput bit/s, timeouts).
fn lossy(kind: &str, p: f64, seed: u64) -> (f64, usize) {
    let mut f = flow(agent(kind), 1);
    f.packet_size_bytes = 1040;
    let mut cfg = dumbbell(10_000_000, 33 * MS, droptail(QueueLimit::Packets(84)), vec![f], 60);
    cfg.seed = seed;
    bottleneck(&mut cfg).loss = Some(LossConfig::Bernoulli { p });
    let out = run_config(cfg).unwrap();
    let thr = flow_summary(&out, "throughput_bps", 0);
    (thr, events(&out, 0, "sender", "timeout").len())
}

/// Mean throughput and timeouts over seeds 1..=5 at 1 % loss.
fn mean_over_seeds(kind: &str) -> (f64, f64) {
    let runs: Vec<(f64, usize)> = (1..=5).map(|seed| lossy(kind, 0.01, seed)).collect();
    let n = runs.len() as f64;
    (runs.iter().map(|r| r.0).sum::<f64>() / n, runs.iter().map(|r| r.1 as f64).sum::<f64>() / n)
}

/// Under 1 % random loss Tahoe gets less than NewReno: every loss costs it a slow start from one
/// segment where NewReno continues from half its window. Both match ns-2 2.35 on the same
/// scenario (`Agent/TCP` and `Agent/TCP/Newreno`, `ErrorModel` rate 0.01 on the bottleneck,
/// seeds 1–5, bytes leaving the bottleneck queue from 2 s to 60 s): Tahoe 1.069 Mb/s (1.8
/// timeouts per run), NewReno 1.326 Mb/s (1.2). The band, ±10 % of ns-2's mean: one run's
/// throughput varies by ±5 % from seed to seed in either simulator, and their random streams
/// differ. Measured when written: Tahoe 1.021 Mb/s (2.8 timeouts per run), NewReno 1.292 (3.2);
/// with limited transmit (ns-2's `singledup_ 1`, since 2026-11-27): Tahoe 1.045 (1.8), NewReno
/// 1.302 (2.0).
#[test]
fn gets_less_than_newreno_under_random_loss_as_in_ns2() {
    let (tahoe, tahoe_to) = mean_over_seeds("tahoe");
    let (newreno, newreno_to) = mean_over_seeds("newreno");
    eprintln!("1 % loss: tahoe {tahoe:.0} bit/s ({tahoe_to} timeouts/run), newreno {newreno:.0} ({newreno_to})");
    assert!(tahoe < 0.9 * newreno, "tahoe {tahoe:.0} vs newreno {newreno:.0}");
    for (name, got, ns2) in [("tahoe", tahoe, 1.069e6), ("newreno", newreno, 1.326e6)] {
        assert!((got / ns2 - 1.0).abs() <= 0.10, "{name}: {got:.0} bit/s vs ns-2 {ns2:.0}");
    }
}

/// One SACK flow under 1 % random loss, same scenario: ns-2 2.35's `Agent/TCP/Sack1` with
/// `TCPSink/Sack1` gets 1.317 Mb/s (seeds 1–5; 0.8 timeouts per run), about NewReno's figure,
/// as single random losses in a window of about 12 segments rarely leave a second hole for SACK
/// to repair faster. Band ±10 % as above. Measured when written: 1.276 Mb/s, 2.8 timeouts per
/// run without limited transmit; with it (ns-2's `singledup_ 1`, which saves small windows):
/// 1.281 Mb/s, 1.6 timeouts per run.
#[test]
fn sack_matches_ns2_sack1_under_random_loss() {
    let (sack, timeouts) = mean_over_seeds("sack");
    eprintln!("1 % loss: sack {sack:.0} bit/s ({timeouts} timeouts/run), ns-2 Sack1 1317000");
    assert!((sack / 1.317e6 - 1.0).abs() <= 0.10, "sack {sack:.0} bit/s vs ns-2 1317000");
}
