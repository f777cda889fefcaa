//! The fair queues in whole runs: under DRR backlogged flows of different packet sizes share the
//! bottleneck equally and an unresponsive flood gets no more than its share beside TCP; SFQ
//! shares packets, not bytes.

mod common;

use common::*;
use vidcc_core::proto::udp::CbrConfig;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

fn cbr(rate_bps: u64, packet_bytes: u32) -> FlowConfig {
    let mut f = flow(ProtocolConfig::UdpCbr(CbrConfig { rate_bps }), 1);
    f.packet_size_bytes = packet_bytes;
    f
}

#[test]
fn backlogged_flows_with_different_packet_sizes_each_get_a_third() {
    // Each flow offers two thirds of the 3 Mbit/s link: all stay backlogged.
    let flows = vec![cbr(2_000_000, 200), cbr(2_000_000, 1000), cbr(2_000_000, 1500)];
    for (name, queue) in [("drr", drr(QueueLimit::Bytes(25_000))), ("droptail", droptail(QueueLimit::Packets(25)))] {
        let out = run_config(dumbbell(3_000_000, 10 * MS, queue, flows.clone(), 30)).unwrap();
        let thr: Vec<f64> = (0..3).map(|f| flow_summary(&out, "throughput_bps", f)).collect();
        let total: f64 = thr.iter().sum();
        eprintln!("{name}: {thr:?} of {total:.0}");
        let fair = thr.iter().all(|t| (t / (total / 3.0) - 1.0).abs() < 0.02);
        assert!(total > 0.97 * 3_000_000.0, "{name}: link use {total}");
        // DRR shares bytes equally; a FIFO shares by arrivals and packet sizes, and is not fair.
        assert_eq!(fair, name == "drr", "{name}: {thr:?}");
    }
}

#[test]
fn an_unresponsive_flood_gets_no_more_than_its_share_beside_tcp() {
    let mut tcp = flow(newreno(), 2);
    tcp.send_jitter_ns = MS;
    let flows = vec![cbr(10_000_000, 1000), tcp];
    for (name, queue) in [("drr", drr(QueueLimit::Bytes(25_000))), ("droptail", droptail(QueueLimit::Packets(25)))] {
        let mut cfg = dumbbell(3_000_000, 10 * MS, queue, flows.clone(), 60);
        cfg.warmup_ns = 10 * S;
        let out = run_config(cfg).unwrap();
        let thr: Vec<f64> = (0..3).map(|f| flow_summary(&out, "throughput_bps", f)).collect();
        let share = thr[0] / thr.iter().sum::<f64>();
        eprintln!("{name}: flood {:.0}, tcp {:.0} {:.0}: flood share {share:.3}", thr[0], thr[1], thr[2]);
        if name == "drr" {
            assert!(share < 1.0 / 3.0 + 0.02, "the flood took {share}");
            assert!(thr[1] > 0.9e6 && thr[2] > 0.9e6, "tcp {thr:?}");
        } else {
            assert!(share > 0.8, "under DropTail the flood takes nearly all: {share}");
        }
    }
}

#[test]
fn sfq_shares_packets_not_bytes() {
    // Flows of 500 and 1000 B packets, each offering the whole 3 Mbit/s: SFQ serves them a
    // packet each in turn, so the 1000 B flow gets twice the bytes.
    let flows = vec![cbr(3_000_000, 500), cbr(3_000_000, 1000)];
    let out = run_config(dumbbell(3_000_000, 10 * MS, sfq(), flows, 30)).unwrap();
    let thr: Vec<f64> = (0..2).map(|f| flow_summary(&out, "throughput_bps", f)).collect();
    eprintln!("sfq: {thr:?}");
    assert!((thr[1] / thr[0] - 2.0).abs() < 0.04, "{thr:?}");
    assert!(thr.iter().sum::<f64>() > 0.97 * 3_000_000.0);
}
