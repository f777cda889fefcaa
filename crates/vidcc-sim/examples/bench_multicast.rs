//! One multicast benchmark case: a multicast sender to N receivers behind a two-level tree
//! (S — R — M0 … M(k−1), ⌈N/k⌉ receivers behind each M on private 10 Mbit/s access links).
//! Prints one JSON line with the wall time of the whole run (build included), events, delivered
//! receiver-packets and peak resident memory.
//!
//! - `udp-multicast` (default): RATE_KBPS of 1000-byte packets, every link 100 Mbit/s.
//! - `tfmcc`: TFMCC with RFC 4654 defaults; S — R is the bottleneck at RATE_KBPS (100-packet
//!   DropTail), so every receiver sees the same losses and the group's rate settles near it
//!   (the CLR, feedback rounds and suppression at full group size).
//!
//! usage: bench_multicast RECEIVERS BRANCHES RATE_KBPS DURATION_S [udp-multicast|tfmcc]

use std::time::Instant as WallClock;
use vidcc_core::proto::tfmcc::TfmccConfig;
use vidcc_core::proto::udp_multicast::UdpMulticastConfig;
use vidcc_sim::config::*;

fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn main() {
    let mut raw: Vec<String> = std::env::args().skip(1).collect();
    let protocol = if raw.len() == 5 { raw.pop().expect("five arguments") } else { "udp-multicast".into() };
    let args: Vec<u64> = raw.iter().map(|a| a.parse().expect("numeric argument")).collect();
    let [receivers, branches, kbps, duration_s] = args[..] else {
        eprintln!("usage: bench_multicast RECEIVERS BRANCHES RATE_KBPS DURATION_S [udp-multicast|tfmcc]");
        std::process::exit(2);
    };
    let (protocol_config, core_bps) = match protocol.as_str() {
        "udp-multicast" => {
            (ProtocolConfig::UdpMulticast(UdpMulticastConfig { rate_bps: kbps * 1000, groups: 1 }), 100_000_000)
        }
        "tfmcc" => (ProtocolConfig::Tfmcc(TfmccConfig::default()), kbps * 1000),
        other => {
            eprintln!("unknown protocol {other:?}: udp-multicast or tfmcc");
            std::process::exit(2);
        }
    };
    const MS: u64 = 1_000_000;
    let droptail = |n| QueueConfig::DropTail { limit: QueueLimit::Packets(n) };
    let link = |bps| LinkConfig {
        bandwidth_bps: bps,
        delay_ns: 5 * MS,
        queue: droptail(100),
        loss: None,
        reverse_loss: None,
        arq: None,
        monitor: false,
    };
    let mut nodes = vec!["S".to_string(), "R".to_string()];
    let mut links = vec![GraphLink { a: "S".into(), b: "R".into(), link: link(core_bps) }];
    for m in 0..branches {
        nodes.push(format!("M{m}"));
        links.push(GraphLink { a: "R".into(), b: format!("M{m}"), link: link(100_000_000) });
    }
    let per = receivers.div_ceil(branches);
    let receivers = (0..receivers)
        .map(|i| ReceiverConfig { node: Some(format!("M{}", i / per)), start_ns: Some(0), ..Default::default() })
        .collect();
    let access = AccessConfig {
        bandwidth_bps: Spread::Fixed(10_000_000),
        delay_ns: Spread::Fixed(MS),
        queue: droptail(50),
        loss: None,
        reverse_loss: None,
        arq: None,
    };
    let flow = FlowConfig {
        label: "mcast".into(),
        protocol: protocol_config,
        count: 1,
        packet_size_bytes: 1000,
        start_ns: Spread::Fixed(100 * MS),
        stop_ns: None,
        placement: Placement::Tree { src: "S".into(), source_access: None, sink_access: Some(Box::new(access)) },
        send_jitter_ns: 0,
        video: None,
        multicast: Some(MulticastConfig { receivers, join_latency_ns: 0, leave_latency_ns: 0 }),
    };
    let config = SimConfig {
        duration_ns: duration_s * 1_000_000_000,
        warmup_ns: 0,
        seed: 1,
        sample_interval_ns: 1000 * MS,
        queue_sample_interval_ns: 1000 * MS,
        packet_log: false,
        topology: TopologyConfig::Graph { nodes, links },
        flows: vec![flow],
    };
    let t0 = WallClock::now();
    let out = vidcc_sim::run_config(config).expect("valid config");
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "{{\"protocol\": \"{protocol}\", \"receivers\": {}, \"branches\": {branches}, \"rate_kbps\": {kbps}, \"duration_s\": {duration_s}, \"wall_s\": {wall:.4}, \"events\": {}, \"receiver_packets\": {}, \"peak_rss_bytes\": {}}}",
        args[0],
        out.stats.events,
        out.stats.packets_delivered,
        peak_rss_bytes().unwrap_or(0)
    );
}
