//! Scenario builders shared by the integration tests.
#![allow(dead_code)]

use vidcc_sim::config::*;

pub const MS: u64 = 1_000_000;
pub const S: u64 = 1_000_000_000;

pub fn droptail(limit: QueueLimit) -> QueueConfig {
    QueueConfig::DropTail { limit }
}

pub fn link(bw_bps: u64, delay_ns: u64, queue: QueueConfig) -> LinkConfig {
    LinkConfig { bandwidth_bps: bw_bps, delay_ns, queue, loss: None, reverse_loss: None, arq: None, monitor: true }
}

pub fn access(bw_bps: u64, delay_ns: u64) -> AccessConfig {
    AccessConfig {
        bandwidth_bps: Spread::Fixed(bw_bps),
        delay_ns: Spread::Fixed(delay_ns),
        queue: droptail(QueueLimit::Bdp),
        loss: None,
        reverse_loss: None,
        arq: None,
    }
}

pub fn flow(protocol: ProtocolConfig, count: u32) -> FlowConfig {
    // Short labels for the baselines (tests look their aggregate rows up by these).
    let label = match protocol.name() {
        "tcp-reno" => "reno",
        "tcp-newreno" => "newreno",
        "tcp-westwood-plus" => "westwood",
        "udp-cbr" => "cbr",
        "udp-pareto" => "pareto",
        "udp" => "video",
        other => other,
    };
    FlowConfig {
        label: label.into(),
        protocol,
        count,
        packet_size_bytes: 1000,
        start_ns: Spread::Fixed(0),
        stop_ns: None,
        placement: Placement::EndToEnd { reverse: false },
        send_jitter_ns: 0,
        video: None,
    }
}

pub fn newreno() -> ProtocolConfig {
    ProtocolConfig::TcpNewReno(TcpConfig::default())
}

/// The dumbbell: `bw` bottleneck with `one_way_ns` delay, 100 Mbps / 1 ms access.
pub fn dumbbell(
    bw_bps: u64,
    bottleneck_delay_ns: u64,
    queue: QueueConfig,
    flows: Vec<FlowConfig>,
    duration_s: u64,
) -> SimConfig {
    SimConfig {
        duration_ns: duration_s * S,
        warmup_ns: 2 * S,
        seed: 1,
        sample_interval_ns: 150 * MS,
        queue_sample_interval_ns: 10 * MS,
        packet_log: false,
        topology: TopologyConfig::Dumbbell {
            bottleneck: link(bw_bps, bottleneck_delay_ns, queue),
            source_access: access(100_000_000, MS),
            sink_access: access(100_000_000, MS),
        },
        flows,
    }
}

/// Value of `col` in the `aggregate` row labelled `label`.
pub fn aggregate(out: &vidcc_sim::SimOutput, label: &str, col: &str) -> f64 {
    let t = out.table("aggregate");
    let Some(vidcc_sim::metrics::Column::Str(labels)) = t.get("label") else { panic!() };
    let row = labels.iter().position(|l| l == label).unwrap_or_else(|| panic!("no aggregate row {label}"));
    t.f64s(col)[row]
}
