//! What the simulator's integration tests share: scenario builders (links, queues, flows, the
//! dumbbell, TES video) and readers of the output tables (events, aggregates, time averages).
#![allow(dead_code)]

use vidcc_sim::config::*;
use vidcc_sim::metrics::Column;
use vidcc_sim::SimOutput;

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
        multicast: None,
    }
}

pub fn newreno() -> ProtocolConfig {
    ProtocolConfig::TcpNewReno(TcpConfig::default())
}

pub fn reno() -> ProtocolConfig {
    ProtocolConfig::TcpReno(TcpConfig::default())
}

/// RED as in Floyd & Jacobson 1993 (w_q = 0.002, max_p = 0.1, gentle, packet mode, 1000-byte
/// mean packets) with the given limit and thresholds in packets.
pub fn red(limit: QueueLimit, min_thresh: f64, max_thresh: f64) -> QueueConfig {
    QueueConfig::Red {
        limit,
        min_thresh,
        max_thresh,
        weight: 0.002,
        max_p: 0.1,
        gentle: true,
        bytes: false,
        mean_packet_bytes: 1000,
        wait: true,
    }
}

/// Video at 25 fps, GOP IBBPBBPBBPBB, 75 ms delay threshold, frames shown in decode order;
/// `layers_bps`: cumulative layer rates (empty: one layer).
pub fn video(model: VideoModel, layers_bps: Vec<u64>, playout: PlayoutConfigSpec) -> VideoConfig {
    VideoConfig {
        model,
        fps: 25.0,
        gop: "IBBPBBPBBPBB".into(),
        layers_bps,
        streams_bps: vec![],
        playout,
        delayed_threshold_ns: 75 * MS,
        display_order: false,
    }
}

/// The papers' TES MPEG-4 video at `rate_bps`, played out from the first arrival after 1 s.
pub fn tes_video(rate_bps: u64, layers_bps: Vec<u64>) -> VideoConfig {
    video(VideoModel::TesMpeg4 { rate_bps }, layers_bps, PlayoutConfigSpec::FirstArrival { delay_ns: S })
}

/// A run of `duration_s` on `topology`: 2 s warm-up, seed 1, samples every 150 ms (queues every
/// 10 ms), no packet log.
pub fn sim_config(topology: TopologyConfig, flows: Vec<FlowConfig>, duration_s: u64) -> SimConfig {
    SimConfig {
        duration_ns: duration_s * S,
        warmup_ns: 2 * S,
        seed: 1,
        sample_interval_ns: 150 * MS,
        queue_sample_interval_ns: 10 * MS,
        packet_log: false,
        topology,
        flows,
    }
}

/// The dumbbell: `bw` bottleneck with `one_way_ns` delay, 100 Mbps / 1 ms access.
pub fn dumbbell(
    bw_bps: u64,
    bottleneck_delay_ns: u64,
    queue: QueueConfig,
    flows: Vec<FlowConfig>,
    duration_s: u64,
) -> SimConfig {
    let topology = TopologyConfig::Dumbbell {
        bottleneck: link(bw_bps, bottleneck_delay_ns, queue),
        source_access: access(100_000_000, MS),
        sink_access: access(100_000_000, MS),
    };
    sim_config(topology, flows, duration_s)
}

/// The bottleneck link of a dumbbell run.
pub fn bottleneck(cfg: &mut SimConfig) -> &mut LinkConfig {
    let TopologyConfig::Dumbbell { bottleneck, .. } = &mut cfg.topology else { panic!("not a dumbbell") };
    bottleneck
}

/// The text column `col` of `table`.
pub fn strings<'a>(out: &'a SimOutput, table: &str, col: &str) -> &'a [String] {
    let Some(Column::Str(v)) = out.table(table).get(col) else { panic!("no text column {col} in {table}") };
    v
}

/// Value of `col` in the `aggregate` row labelled `label`.
pub fn aggregate(out: &SimOutput, label: &str, col: &str) -> f64 {
    let labels = strings(out, "aggregate", "label");
    let row = labels.iter().position(|l| l == label).unwrap_or_else(|| panic!("no aggregate row {label}"));
    out.table("aggregate").f64s(col)[row]
}

/// `col` of `flow` in the flow summary.
pub fn flow_summary(out: &SimOutput, col: &str, flow: usize) -> f64 {
    out.table("flow_summary").f64s(col)[flow]
}

/// Events of `kind` from `side` of `flow`, in time order: (t_ns, value).
pub fn events(out: &SimOutput, flow: u64, side: &str, kind: &str) -> Vec<(u64, f64)> {
    let e = out.table("events");
    let (t, f, v) = (e.u64s("t_ns"), e.u64s("flow"), e.f64s("value"));
    let (sides, kinds) = (strings(out, "events", "side"), strings(out, "events", "kind"));
    (0..t.len()).filter(|&i| f[i] == flow && sides[i] == side && kinds[i] == kind).map(|i| (t[i], v[i])).collect()
}

/// Time-weighted mean over [from, to) of `value(v)`, where `changes` are (t_ns, v) steps in time
/// order, each holding until the next (nothing before the first).
pub fn time_mean(changes: &[(u64, f64)], from_ns: u64, to_ns: u64, value: impl Fn(f64) -> f64) -> f64 {
    let mut acc = 0.0;
    for (i, &(t, v)) in changes.iter().enumerate() {
        let end = changes.get(i + 1).map_or(to_ns, |c| c.0).min(to_ns);
        let start = t.max(from_ns);
        if end > start {
            acc += value(v) * (end - start) as f64;
        }
    }
    acc / (to_ns - from_ns) as f64
}

/// ns-2 `Queue/DRR` with its defaults (quantum 250 B, 10 buckets, no mask) and `limit`.
pub fn drr(limit: QueueLimit) -> QueueConfig {
    QueueConfig::Drr { limit, quantum: 250, buckets: 10, mask: false }
}

/// ns-2 `Queue/SFQ` with its defaults (40 packets, 16 buckets).
pub fn sfq() -> QueueConfig {
    QueueConfig::Sfq { limit: QueueLimit::Packets(40), buckets: 16 }
}
