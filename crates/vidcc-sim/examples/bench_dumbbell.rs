//! One benchmark case: N NewReno flows on the dumbbell. Prints one JSON line with the
//! wall time of the simulation call, events, bottleneck packets and peak resident memory.
//!
//! usage: bench_dumbbell FLOWS BOTTLENECK_MBPS RTT_MS DURATION_S

use std::time::Instant as WallClock;
use vidcc_sim::config::*;

fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

fn main() {
    let args: Vec<u64> = std::env::args().skip(1).map(|a| a.parse().expect("numeric argument")).collect();
    let [flows, mbps, rtt_ms, duration_s] = args[..] else {
        eprintln!("usage: bench_dumbbell FLOWS BOTTLENECK_MBPS RTT_MS DURATION_S");
        std::process::exit(2);
    };
    const MS: u64 = 1_000_000;
    let access = AccessConfig {
        bandwidth_bps: Spread::Fixed(100_000_000.max(mbps * 10_000_000)),
        delay_ns: Spread::Fixed(MS),
        queue: QueueConfig::DropTail { limit: QueueLimit::Bdp },
        loss: None,
        reverse_loss: None,
        arq: None,
    };
    let config = SimConfig {
        duration_ns: duration_s * 1_000_000_000,
        warmup_ns: 2_000_000_000,
        seed: 1,
        sample_interval_ns: 150 * MS,
        queue_sample_interval_ns: 150 * MS,
        packet_log: false,
        topology: TopologyConfig::Dumbbell {
            bottleneck: LinkConfig {
                bandwidth_bps: mbps * 1_000_000,
                delay_ns: (rtt_ms * MS / 2).saturating_sub(2 * MS),
                queue: QueueConfig::DropTail { limit: QueueLimit::Bdp },
                loss: None,
                reverse_loss: None,
                arq: None,
                monitor: true,
            },
            source_access: access.clone(),
            sink_access: access,
        },
        flows: vec![FlowConfig {
            label: "newreno".into(),
            protocol: ProtocolConfig::TcpNewReno(TcpConfig::default()),
            count: flows as u32,
            packet_size_bytes: 1000,
            start_ns: Spread::Uniform { min: 0, max: 1_000_000_000 },
            stop_ns: None,
            placement: Placement::EndToEnd { reverse: false },
            send_jitter_ns: 0,
            video: None,
            multicast: None,
        }],
    };
    let t0 = WallClock::now();
    let out = vidcc_sim::run_config(config).expect("valid config");
    let wall = t0.elapsed().as_secs_f64();
    let utilisation = out.table("aggregate").f64s("throughput_bps_sum")[0] / (mbps as f64 * 1e6);
    println!(
        "{{\"flows\": {flows}, \"bottleneck_mbps\": {mbps}, \"rtt_ms\": {rtt_ms}, \"duration_s\": {duration_s}, \"wall_s\": {wall:.4}, \"events\": {}, \"bottleneck_packets\": {}, \"peak_rss_bytes\": {}, \"utilisation\": {utilisation:.4}}}",
        out.stats.events,
        out.stats.bottleneck_packets,
        peak_rss_bytes().unwrap_or(0)
    );
}
