//! TCP loss recovery against ns-2 2.35 on the issue-13 dumbbell (10 Mbps / 70 ms RTT, DropTail
//! 84 packets, 1040 B packets, 16 MB maximum window, 60 s).
//!
//! ns-2 2.35's `Agent/TCP/Newreno` keeps that link busy (utilisation ≥ 0.99) with at most one
//! retransmission timeout per flow (the one that ends the first slow start), with
//! `overhead_ 0.0008` and with two flows started 0.5 s apart (figures in docs/protocols/tcp.md).
//! vidcc used to set ssthresh on a timeout from FlightSize, which
//! NewReno's inflated recovery had pushed to several windows, and fell into a
//! slow-start-overshoot/timeout cycle: utilisation 0.55 with 47 timeouts in the jittered case,
//! 0.64 with 48 timeouts for the two flows.

mod common;
use common::*;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

const LINK_BPS: u64 = 10_000_000;

fn newreno_16mb() -> ProtocolConfig {
    ProtocolConfig::TcpNewReno(TcpConfig { max_window_bytes: 16_000_000, ..TcpConfig::default() })
}

fn tcp_flow(protocol: ProtocolConfig, start_ns: u64, jitter_ns: u64) -> FlowConfig {
    let mut f = flow(protocol, 1);
    f.packet_size_bytes = 1040;
    f.start_ns = Spread::Fixed(start_ns);
    f.send_jitter_ns = jitter_ns;
    f
}

/// The dumbbell: 33 ms bottleneck + 2 × 1 ms access each way = 70 ms RTT; 84-packet DropTail.
fn run(flows: Vec<FlowConfig>) -> vidcc_sim::SimOutput {
    run_config(dumbbell(LINK_BPS, 33 * MS, droptail(QueueLimit::Packets(84)), flows, 60)).unwrap()
}

/// Sum of the flows' throughput over the measured period (every flow starts before the 2 s
/// warm-up ends, so the periods are the same), as a share of the link, and the most timeouts
/// any one flow had over the whole run.
fn utilisation_and_timeouts(out: &vidcc_sim::SimOutput, flows: usize) -> (f64, usize) {
    let thr: f64 = (0..flows).map(|f| flow_summary(out, "throughput_bps", f)).sum();
    let timeouts = (0..flows).map(|f| events(out, f as u64, "sender", "timeout").len()).max().unwrap_or(0);
    (thr / LINK_BPS as f64, timeouts)
}

/// One NewReno flow with a send jitter of 0.8 ms (ns-2 `overhead_ 0.0008`). ns-2: utilisation
/// 0.9996 (9.61 Mb/s of payload), 0.013 % drops, one timeout.
#[test]
fn one_jittered_newreno_flow_keeps_the_link_busy_without_timeouts() {
    let out = run(vec![tcp_flow(newreno_16mb(), 0, 800_000)]);
    let (u, timeouts) = utilisation_and_timeouts(&out, 1);
    eprintln!("newreno, 0.8 ms jitter: utilisation {u:.4}, timeouts {timeouts}");
    assert!(u >= 0.95, "utilisation {u:.4} ({timeouts} timeouts)");
    assert!(timeouts <= 1, "{timeouts} timeouts for one flow");
}

/// Two NewReno flows without jitter, the second starting 0.5 s later. ns-2: utilisation 0.9999,
/// one timeout for the first flow (its first slow start), none for the second.
#[test]
fn two_newreno_flows_started_apart_keep_the_link_busy_without_timeouts() {
    let out = run(vec![tcp_flow(newreno_16mb(), 0, 0), tcp_flow(newreno_16mb(), 500 * MS, 0)]);
    let (u, timeouts) = utilisation_and_timeouts(&out, 2);
    eprintln!("two newreno flows: utilisation {u:.4}, timeouts {timeouts}");
    assert!(u >= 0.95, "utilisation {u:.4} ({timeouts} timeouts)");
    assert!(timeouts <= 1, "{timeouts} timeouts for one flow");
}
