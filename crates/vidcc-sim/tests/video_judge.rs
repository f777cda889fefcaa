//! The frame judge counts every frame the application produced (issue 20): frames still in a
//! sender buffer are judged once their deadline has passed, the measurement window does not stop
//! at the first frame with a packet unaccounted for, and VDI + DPR + PDR = 1 over every packet
//! the application produced — for TFRC and TCP carrying video with unbounded send buffers, and
//! for DVRC, whose bounded buffer drops whole frames.

mod common;
use common::*;
use vidcc_core::proto::dvrc::DvrcConfig;
use vidcc_core::proto::tfrc::TfrcConfig;
use vidcc_sim::config::*;
use vidcc_sim::metrics::Column;
use vidcc_sim::{run_config, SimOutput};

const DURATION_S: u64 = 30;

/// Constant-size I frames at 25 fps (no references: a frame's fate is its own), played out
/// 1 s after their ready time.
fn cbr(rate_bps: u64, layers_bps: Vec<u64>) -> VideoConfig {
    let mut v = video(VideoModel::Cbr { rate_bps }, layers_bps, PlayoutConfigSpec::ReadyTime { delay_ns: S });
    v.gop = "I".into();
    v
}

fn with_video(protocol: ProtocolConfig, v: VideoConfig) -> FlowConfig {
    let mut f = flow(protocol, 1);
    f.video = Some(v);
    f
}

/// The video flow against four Reno flows on a 2 Mbit/s bottleneck (12-packet DropTail).
fn congested(video_flow: FlowConfig) -> SimConfig {
    let mut reno_flows = flow(reno(), 4);
    reno_flows.send_jitter_ns = 3 * MS;
    dumbbell(2_000_000, 20 * MS, droptail(QueueLimit::Packets(12)), vec![video_flow, reno_flows], DURATION_S)
}

fn summary_u64(out: &SimOutput, col: &str) -> u64 {
    match out.table("video_summary").get(col) {
        Some(Column::U64(v)) => v[0],
        _ => panic!("no u64 column {col}"),
    }
}

fn summary_f64(out: &SimOutput, col: &str) -> f64 {
    out.table("video_summary").f64s(col)[0]
}

/// The checks every protocol shares: the frames table holds every frame the application made
/// by the end (frame `n` is ready at `n` × 40 ms), a frame is pending exactly when its deadline
/// is after the end, the summary measures every other frame ready in [2 s, 30 s), and
/// VDI + DPR + PDR = 1 over the packets produced.
fn every_frame_is_judged(out: &SimOutput) {
    let t = out.table("frames");
    let (ids, deadline, ready) = (t.u64s("frame"), t.u64s("deadline_ns"), t.u64s("ready_ns"));
    let status = strings(out, "frames", "status");
    let end = DURATION_S * S;
    let made = (end / (40 * MS) + 1) as usize;
    assert!(ids.len() + 1 >= made, "{} frames in the table, {made} made by the end", ids.len());
    assert!(ids.iter().enumerate().all(|(i, &id)| id == i as u64), "frame ids are 0, 1, 2, …");
    for i in 0..ids.len() {
        assert_eq!(status[i] == "pending", deadline[i] > end, "frame {i}: {} with deadline {}", status[i], deadline[i]);
    }
    let measured = (0..ids.len()).filter(|&i| ready[i] >= 2 * S && ready[i] < end && status[i] != "pending").count();
    assert_eq!(summary_u64(out, "frames_sent"), measured as u64);
    let (vdi, dpr, pdr) =
        (summary_f64(out, "vdi"), summary_f64(out, "delayed_packet_rate"), summary_f64(out, "packet_drop_rate"));
    assert!((vdi + dpr + pdr - 1.0).abs() < 1e-9, "VDI {vdi} + DPR {dpr} + PDR {pdr}");
    let (sent, received, lost) =
        (summary_u64(out, "packets_sent"), summary_u64(out, "packets_received"), summary_u64(out, "packets_lost"));
    assert_eq!(lost, sent - received);
}

/// Every frame is 1.5 Mbit/s ÷ 25 = 7500 B: 8 packets of at most `payload` bytes (980 B after
/// TFRC's 20-byte header, 960 B after TCP's 40): the denominator is 8 per frame measured,
/// whether the packets left or not.
fn eight_packets_a_frame(out: &SimOutput) {
    assert_eq!(summary_u64(out, "packets_sent"), 8 * summary_u64(out, "frames_sent"));
}

/// A flow with an unbounded send buffer drops nothing at the sender: no frame is unsent, and
/// the frames whose base layer had not reached the receiver by the end (still buffered or in
/// flight, deadline past) are late; there are many (the video runs at about four times its
/// share). `reliable`: TCP also loses nothing, so every frame never complete is late.
fn the_backlog_is_late(out: &SimOutput, reliable: bool) {
    let t = out.table("frames");
    let Some(Column::I64(complete)) = t.get("complete_ns") else { panic!("complete_ns") };
    let status = strings(out, "frames", "status");
    assert_eq!(summary_u64(out, "frames_unsent"), 0);
    let never: Vec<&String> =
        status.iter().zip(complete).filter(|(s, &c)| *s != "pending" && c < 0).map(|(s, _)| s).collect();
    let late = never.iter().filter(|s| **s == "late").count();
    assert!(late > 100, "only {late} frames late and never complete");
    assert!(never.iter().all(|s| *s == "late" || (!reliable && *s == "lost")), "{never:?}");
}

#[test]
fn tfrc_with_an_unbounded_buffer_is_judged_on_every_frame_produced() {
    let out =
        run_config(congested(with_video(ProtocolConfig::Tfrc(TfrcConfig::default()), cbr(1_500_000, vec![])))).unwrap();
    every_frame_is_judged(&out);
    eight_packets_a_frame(&out);
    the_backlog_is_late(&out, false);
}

#[test]
fn tcp_carrying_video_is_judged_on_every_frame_produced() {
    let tcp = ProtocolConfig::TcpWestwoodPlus(TcpConfig::default());
    let out = run_config(congested(with_video(tcp, cbr(1_500_000, vec![])))).unwrap();
    every_frame_is_judged(&out);
    eight_packets_a_frame(&out);
    the_backlog_is_late(&out, true);
}

/// Layered DVRC (five layers of 1 Mbit/s) in the same squeeze, played out 40 ms after the ready
/// time: at the end of the run, frames whose deadline has passed still have packets in its
/// buffer or in flight; they are judged (the window used to stop at the first of them).
#[test]
fn dvrc_is_judged_on_every_frame_produced() {
    let layers = vec![128_000, 256_000, 512_000, 768_000, 1_024_000];
    let mut v = cbr(1_024_000, layers);
    v.playout = PlayoutConfigSpec::ReadyTime { delay_ns: 40 * MS };
    let out = run_config(congested(with_video(ProtocolConfig::Dvrc(DvrcConfig::default()), v))).unwrap();
    every_frame_is_judged(&out);
    let layers_sent = out.table("frames").u64s("layers_sent");
    assert!(layers_sent.iter().all(|&l| l >= 1), "a frame with no layer produced");
    assert!(summary_u64(&out, "packets_sent") >= summary_u64(&out, "frames_sent"));
}
