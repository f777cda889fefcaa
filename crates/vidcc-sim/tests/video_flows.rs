//! Video flows end to end through the simulator: frames judged, delivery metrics computed.

mod common;
use common::*;
use vidcc_sim::config::*;
use vidcc_sim::metrics::Column;
use vidcc_sim::{run_config, SimOutput};

/// `video` of the harness with layer rates in kbit/s.
fn video_kbps(model: VideoModel, layers_kbps: &[u64], playout: PlayoutConfigSpec) -> VideoConfig {
    video(model, layers_kbps.iter().map(|k| k * 1000).collect(), playout)
}

fn video_flow(v: VideoConfig, layers_sent: Option<u8>) -> FlowConfig {
    let mut f = flow(ProtocolConfig::Udp(UdpVideoConfig { layers_sent }), 1);
    f.video = Some(v);
    f
}

fn summary(out: &SimOutput, col: &str) -> f64 {
    let t = out.table("video_summary");
    match t.get(col) {
        Some(Column::F64(v)) => v[0],
        Some(Column::U64(v)) => v[0] as f64,
        _ => panic!("no column {col}"),
    }
}

fn statuses(out: &SimOutput) -> Vec<String> {
    strings(out, "frames", "status").to_vec()
}

const DVRC_LAYERS: [u64; 5] = [128, 256, 512, 768, 1024];
const FIRST_ARRIVAL_1S: PlayoutConfigSpec = PlayoutConfigSpec::FirstArrival { delay_ns: S };

/// A layered TES video alone on a fast path: every frame of every layer arrives in time.
#[test]
fn layered_tes_video_on_an_idle_path_is_fully_decodable() {
    let v = video_kbps(VideoModel::TesMpeg4 { rate_bps: 1_024_000 }, &DVRC_LAYERS, FIRST_ARRIVAL_1S);
    let out =
        run_config(dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![video_flow(v, None)], 20)).unwrap();
    // Up to 18 s measured (warm-up 2 s) at 25 fps, less the last ~1 s whose playout deadlines
    // (1 s after the first arrival) fall after the end of the run.
    let sent = summary(&out, "frames_sent");
    assert!((400.0..=450.0).contains(&sent), "frames measured {sent}");
    assert_eq!(summary(&out, "frames_decodable"), sent);
    assert_eq!(summary(&out, "vdi"), 1.0);
    let Column::U64(layers) = out.table("frames").get("layers_decodable").unwrap() else { panic!() };
    let st = statuses(&out);
    // Frames near the end whose fate the run cut short are "pending"; every other is complete.
    assert!(st.iter().filter(|s| *s == "pending").count() < 40);
    assert!(st.iter().zip(layers).all(|(s, &l)| s == "pending" || l == 5));
    // The TES source is scaled to the full-quality rate: throughput ≈ 1024 kbps plus headers.
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    assert!((thr / 1_024_000.0 - 1.0).abs() < 0.15, "throughput {thr}");
}

/// Sending only the first two layers sends ≈ 256 kbps.
#[test]
fn layers_sent_limits_the_rate() {
    let v = video_kbps(VideoModel::TesMpeg4 { rate_bps: 1_024_000 }, &DVRC_LAYERS, FIRST_ARRIVAL_1S);
    let out =
        run_config(dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![video_flow(v, Some(2))], 20)).unwrap();
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    assert!((thr / 256_000.0 - 1.0).abs() < 0.2, "throughput {thr}");
    let Column::U64(layers) = out.table("frames").get("layers_decodable").unwrap() else { panic!() };
    let st = statuses(&out);
    assert!(st.iter().zip(layers).all(|(s, &l)| s == "pending" || l == 2));
}

/// Random loss on the path: frames are lost and their dependants with them, and the three
/// delivery shares still add up to one.
#[test]
fn random_loss_kills_frames_and_their_dependants() {
    let v = video_kbps(VideoModel::TesMpeg4 { rate_bps: 1_000_000 }, &[], FIRST_ARRIVAL_1S);
    let mut cfg = dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![video_flow(v, None)], 30);
    bottleneck(&mut cfg).loss = Some(LossConfig::Bernoulli { p: 0.05 });
    let out = run_config(cfg).unwrap();
    let st = statuses(&out);
    let lost = st.iter().filter(|s| *s == "lost").count();
    let dep = st.iter().filter(|s| *s == "dependency").count();
    assert!(lost > 50, "lost {lost}");
    assert!(dep > 50, "dependency {dep}");
    let (vdi, dpr, pdr) =
        (summary(&out, "vdi"), summary(&out, "delayed_packet_rate"), summary(&out, "packet_drop_rate"));
    assert!((vdi + dpr + pdr - 1.0).abs() < 1e-9);
    assert!((pdr - 0.05).abs() < 0.015, "drop rate {pdr}");
}

/// A tight per-frame deadline on a congested link: frames arrive late though nothing is lost
/// in the network (the queue is large enough never to drop).
#[test]
fn tight_deadline_on_a_congested_link_makes_frames_late() {
    let v = video_kbps(
        VideoModel::TesMpeg4 { rate_bps: 1_000_000 },
        &[],
        PlayoutConfigSpec::ReadyTime { delay_ns: 100 * MS },
    );
    // Four TCP flows with 64 KB windows keep up to 256 packets queued at 2 Mbps (about 1 s of
    // delay) in a queue too large to overflow.
    let tcp = flow(newreno(), 4);
    let cfg = dumbbell(2_000_000, 20 * MS, droptail(QueueLimit::Packets(10_000)), vec![video_flow(v, None), tcp], 30);
    let out = run_config(cfg).unwrap();
    // The network drops nothing, so no frame is lost. (This used to read `packets_lost == 0`:
    // the frames whose packets were still queued at the end, their deadline long past, were then
    // left unjudged; they are judged now, late, and their packets not received by the end count
    // as never received, in `packets_lost`.)
    let fs = out.table("flow_summary");
    assert_eq!(fs.u64s("dropped_queue")[0] + fs.u64s("dropped_loss")[0], 0);
    assert_eq!(summary(&out, "frames_lost"), 0.0);
    let late = summary(&out, "frames_late");
    assert!(late > 100.0, "late frames {late}");
    assert!(summary(&out, "frames_decodable") < summary(&out, "frames_sent"));
}

/// A trace drives the flow: the sizes come from the file, in its order.
#[test]
fn trace_driven_video_replays_its_frames() {
    let text =
        "# type size\nI 4000\nB 1000\nB 1000\nP 2000\nB 1000\nB 1000\nP 2000\nB 1000\nB 1000\nP 2000\nB 1000\nB 1000\n";
    let model = VideoModel::Trace { text: text.into(), format: TraceFormatSpec::Plain, source: "test".into() };
    let mut cfg = dumbbell(
        10_000_000,
        20 * MS,
        droptail(QueueLimit::Bdp),
        vec![video_flow(video_kbps(model, &[], FIRST_ARRIVAL_1S), None)],
        10,
    );
    cfg.warmup_ns = 0;
    let out = run_config(cfg).unwrap();
    // 10 s at 25 fps; the 12-frame trace loops: 250 frames of 1.5 kB on average → 300 kbps.
    // The last second's frames have deadlines after the end of the run: pending, not measured.
    // 251 sends (0, 40 ms, ..., 10 s; the end instant is simulated too), in decode order: the
    // last anchor sent (display 252) is ahead of the B frames still held, which are pending.
    assert_eq!(out.table("frames").rows(), 253);
    let st = statuses(&out);
    assert!(!st.iter().any(|s| s == "unsent"), "plain UDP drops nothing at the sender");
    assert!(st[250..].iter().all(|s| s == "pending"));
    let sent = summary(&out, "frames_sent");
    assert!((220.0..250.0).contains(&sent), "frames measured {sent}");
    // The frames table is in display order whatever the send order.
    let types = strings(&out, "frames", "frame_type");
    assert_eq!(types[..4].join(""), "IBBP");
    let bytes = out.table("flow_summary").u64s("delivered_bytes")[0];
    // Payload 250/12 GOPs × 18 000 B plus 16 B of header per packet (≥ 1 packet per frame).
    assert!(bytes > 375_000 && bytes < 390_000, "delivered {bytes}");
}

/// Missing video table: a clear configuration error.
#[test]
fn udp_without_video_is_a_config_error() {
    let cfg = dumbbell(
        10_000_000,
        20 * MS,
        droptail(QueueLimit::Bdp),
        vec![flow(ProtocolConfig::Udp(UdpVideoConfig { layers_sent: None }), 1)],
        10,
    );
    let err = run_config(cfg).err().expect("an error").to_string();
    assert!(err.contains("flows[0]") && err.contains("video"), "{err}");
}
