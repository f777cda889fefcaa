//! Link-level ARQ (the QoS-AIMD digest's wireless hop): retransmission hides channel losses at
//! the price of link time.

mod common;
use common::*;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

fn wireless(loss: LossConfig, arq: Option<ArqConfig>, rate_bps: u64) -> SimConfig {
    // A 200 kbit/s "wireless" bottleneck with 125 B packets: one slot = 5 ms.
    let mut cbr = flow(ProtocolConfig::UdpCbr(CbrConfig { rate_bps }), 1);
    cbr.packet_size_bytes = 125;
    let mut cfg = dumbbell(200_000, 10 * MS, droptail(QueueLimit::Packets(100_000)), vec![cbr], 200);
    let link = bottleneck(&mut cfg);
    link.loss = Some(loss);
    link.arq = arq;
    cfg
}

fn link0(out: &vidcc_sim::SimOutput, col: &str) -> u64 {
    out.table("links").u64s(col)[0]
}

/// Persistent ARQ over an i.i.d. channel with p_e = 0.1: nothing is lost, the mean number of
/// attempts per packet is 1/(1 − p_e) = 1.111, so the link carries at most 1 − p_e = 0.9 packets
/// per slot (digest §2.7: 180 kbit/s of 125 B packets at 200 kbit/s).
#[test]
fn persistent_arq_delivers_everything_at_one_minus_pe_per_slot() {
    // Offered 100 kbit/s (0.5 packet/slot): below capacity.
    let out = run_config(wireless(LossConfig::Bernoulli { p: 0.1 }, Some(ArqConfig::Persistent), 100_000)).unwrap();
    assert_eq!(link0(&out, "dropped_loss"), 0);
    let (delivered, retx) = (link0(&out, "delivered_packets"), link0(&out, "retransmissions"));
    let attempts_per_packet = (delivered + retx) as f64 / delivered as f64;
    assert!((attempts_per_packet - 1.0 / 0.9).abs() < 0.01, "attempts per packet {attempts_per_packet:.4}");
    // Offered 250 kbit/s, more than the link can carry: throughput saturates at 0.9 × 200 kbit/s.
    let out = run_config(wireless(LossConfig::Bernoulli { p: 0.1 }, Some(ArqConfig::Persistent), 250_000)).unwrap();
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    assert!((thr / 180_000.0 - 1.0).abs() < 0.02, "saturated throughput {thr:.0}");
}

/// Limited ARQ: a packet is lost only when all its attempts fail, p_e^n.
#[test]
fn limited_arq_loses_packets_whose_every_attempt_fails() {
    let out = run_config(wireless(LossConfig::Bernoulli { p: 0.3 }, Some(ArqConfig::Limited { attempts: 2 }), 50_000))
        .unwrap();
    let fs = out.table("flow_summary");
    let rate = fs.f64s("drop_rate")[0];
    assert!((rate - 0.09).abs() < 0.01, "drop rate {rate:.4} vs 0.3² = 0.09");
    // Without ARQ the same channel loses p_e.
    let out = run_config(wireless(LossConfig::Bernoulli { p: 0.3 }, None, 50_000)).unwrap();
    let rate = out.table("flow_summary").f64s("drop_rate")[0];
    assert!((rate - 0.3).abs() < 0.02, "drop rate {rate:.4} vs 0.3");
    assert_eq!(link0(&out, "retransmissions"), 0);
}
