//! Video over TCP end to end (issue 13): a TCP flow carrying the flow's video through its send
//! buffer, frames judged by when the receiver's application got them in order.

mod common;
use common::*;
use vidcc_sim::config::*;
use vidcc_sim::metrics::Column;
use vidcc_sim::{run_config, SimOutput};

const LAYERS: [u64; 5] = [128_000, 256_000, 512_000, 768_000, 1_024_000];

fn westwood_video(v: VideoConfig) -> FlowConfig {
    let mut f = flow(ProtocolConfig::TcpWestwoodPlus(TcpConfig::default()), 1);
    f.video = Some(v);
    f
}

fn summary(out: &SimOutput, col: &str) -> u64 {
    match out.table("video_summary").get(col) {
        Some(Column::U64(v)) => v[0],
        _ => panic!("no u64 column {col}"),
    }
}

fn count(out: &SimOutput, status: &str) -> usize {
    strings(out, "frames", "status").iter().filter(|s| *s == status).count()
}

/// A 1 Mbit/s layered TES video over Westwood+ alone on a 10 Mbit/s path: the window opens past
/// the video's rate at once, so every frame is complete long before its deadline.
#[test]
fn westwood_video_on_a_lossless_link_delivers_every_frame_on_time() {
    let cfg = dumbbell(
        10_000_000,
        20 * MS,
        droptail(QueueLimit::Bdp),
        vec![westwood_video(tes_video(1_024_000, LAYERS.to_vec()))],
        20,
    );
    let out = run_config(cfg).unwrap();
    let sent = summary(&out, "frames_sent");
    assert!((400..=460).contains(&sent), "frames measured {sent}");
    assert_eq!(summary(&out, "frames_decodable"), sent, "every measured frame decodable");
    assert_eq!(summary(&out, "frames_late") + summary(&out, "frames_lost") + summary(&out, "frames_unsent"), 0);
    // Every frame of the run is ok or cut short by its end. The I frames, large enough to give
    // every layer a segment, are decodable at all five layers (a small frame's top layers share a
    // segment with a lower one and do not count as sent, tcp/video.rs; its dependants then
    // count as many layers).
    let st = strings(&out, "frames", "status");
    assert!(st.len() >= 480 && count(&out, "pending") < 40, "{} frames, {} pending", st.len(), count(&out, "pending"));
    assert_eq!(count(&out, "ok") + count(&out, "pending"), st.len());
    let t = out.table("frames");
    let (sent_l, dec_l, types) =
        (t.u64s("layers_sent"), t.u64s("layers_decodable"), strings(&out, "frames", "frame_type"));
    for i in (0..st.len()).filter(|&i| st[i] != "pending") {
        assert!(dec_l[i] >= 1 && dec_l[i] <= sent_l[i], "frame {i}: {} of {} layers", dec_l[i], sent_l[i]);
        assert!(types[i] != "I" || dec_l[i] == 5, "I frame {i} with {} layers", dec_l[i]);
    }
    // Completed well ahead of the deadline: within a few RTTs of its display slot (frames go in
    // decode order, so a B frame's anchor is complete before the B frame's slot).
    let t = out.table("frames");
    let (ready, complete) = (t.u64s("ready_ns"), t.get("complete_ns").unwrap());
    let Column::I64(complete) = complete else { panic!() };
    let worst = ready.iter().zip(complete).filter(|(_, &c)| c >= 0).map(|(&r, &c)| c - r as i64).max().unwrap();
    assert!(worst < 300 * MS as i64, "a frame was complete {worst} ns after its display slot");
    // TCP carried the video and nothing else: goodput is the video's rate.
    let thr = out.table("flow_summary").f64s("goodput_bps")[0];
    assert!((thr / 1_024_000.0 - 1.0).abs() < 0.15, "goodput {thr}");
}

/// The same video squeezed by four Reno FTP flows through a 2 Mbit/s bottleneck with a small
/// DropTail queue: its packets are dropped in the network, but TCP retransmits them and its send
/// buffer drops nothing, so no frame is lost: frames come late instead.
#[test]
fn westwood_video_on_a_congested_link_arrives_late_not_lost() {
    let mut reno_flows = flow(reno(), 4);
    reno_flows.send_jitter_ns = 3 * MS;
    let flows = vec![westwood_video(tes_video(1_024_000, LAYERS.to_vec())), reno_flows];
    let cfg = dumbbell(2_000_000, 20 * MS, droptail(QueueLimit::Packets(12)), flows, 30);
    let out = run_config(cfg).unwrap();
    let drops = out.table("flow_summary").u64s("dropped_queue")[0];
    assert!(drops > 20, "the video's packets met a full queue only {drops} times");
    assert_eq!(summary(&out, "frames_lost"), 0, "a reliable transport loses no frame");
    assert_eq!(summary(&out, "frames_unsent"), 0, "the send buffer drops nothing");
    assert_eq!(count(&out, "lost") + count(&out, "unsent"), 0);
    // The video (1 Mbit/s) gets about a fifth of 2 Mbit/s: its send buffer grows without bound
    // and nearly every frame misses its 1 s playout deadline.
    let (late, sent) = (summary(&out, "frames_late"), summary(&out, "frames_sent"));
    assert!(late > 100 && late * 10 >= sent * 9, "{late} of {sent} frames late");
    assert_eq!(summary(&out, "packets_lost"), summary(&out, "packets_sent") - summary(&out, "packets_received"));
}
