//! `rtcp-udp` in simulation: full quality alone, and the application's layer adaptation when
//! its receiver reports loss.

mod common;
use common::*;
use vidcc_core::proto::rtcp_udp::RtcpUdpConfig;
use vidcc_sim::config::*;
use vidcc_sim::{run_config, SimOutput};

const LAYERS_BPS: [u64; 5] = [128_000, 256_000, 512_000, 768_000, 1_024_000];

/// docs/papers/dvrc.md's video (§2.1–2.2 \[D\]): TES MPEG-4 at 1024 kbit/s, 25 fps, five layers.
fn rtcp_flow() -> FlowConfig {
    let mut f = flow(ProtocolConfig::RtcpUdp(RtcpUdpConfig::default()), 1);
    f.video = Some(tes_video(1_024_000, LAYERS_BPS.to_vec()));
    f
}

/// (t_ns, value) of the sender's `layers` events of flow 0.
fn layer_changes(out: &SimOutput) -> Vec<(u64, f64)> {
    events(out, 0, "sender", "layers")
}

/// Time-weighted mean layer count over [from, to).
fn mean_layers(out: &SimOutput, from_ns: u64, to_ns: u64) -> f64 {
    time_mean(&layer_changes(out), from_ns, to_ns, |k| k)
}

/// Issue 5: alone on an uncongested link, at least 90 % of the video rate. One layer is added
/// per 1 s report, so full quality is reached after four reports (≈ 4.1 s).
/// Measured (60 s): goodput 1 001 473 bit/s (0.978 × the video rate); layers 2..5 at 1.08, 2.08,
/// 3.08, 4.08 s.
#[test]
fn alone_on_an_uncongested_link_it_sends_full_quality() {
    let cfg = dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![rtcp_flow()], 60);
    let out = run_config(cfg).unwrap();
    let goodput = out.table("flow_summary").f64s("goodput_bps")[0];
    let changes = layer_changes(&out);
    eprintln!("rtcp-udp alone: goodput {goodput:.0} bit/s, layer changes {changes:?}");
    assert!(goodput >= 0.9 * 1_024_000.0, "goodput {goodput}");
    assert_eq!(changes.iter().map(|c| c.1 as u8).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
    // First report 1 s after the first arrival (one way ≈ 22 ms), at the sender ≈ 22 ms later;
    // the next frame (every 40 ms) takes the new count.
    assert!((4_000 * MS..4_300 * MS).contains(&changes[4].0), "full quality at {} ns", changes[4].0);
}

/// On a 1 Mbit/s bottleneck shared with a Reno flow, the 1024 kbit/s video cannot fit: reports
/// with loss take layers away, loss-free ones add them back, so the layer count moves between
/// the extremes instead of sitting at full quality. Measured (100 s): mean layer count 1.48 over
/// 10–100 s, 141 changes; goodput 191 kbit/s (Reno 614 kbit/s).
#[test]
fn reported_loss_takes_layers_away() {
    let mut tcp = flow(ProtocolConfig::TcpReno(TcpConfig::default()), 1);
    tcp.send_jitter_ns = 8 * MS;
    let cfg = dumbbell(1_000_000, 25 * MS, droptail(QueueLimit::Packets(10)), vec![rtcp_flow(), tcp], 100);
    let out = run_config(cfg).unwrap();
    let mean = mean_layers(&out, 10 * S, 100 * S);
    let changes = layer_changes(&out).len();
    let good = out.table("flow_summary").f64s("goodput_bps").to_vec();
    eprintln!("rtcp-udp vs Reno on 1 Mbit/s: mean layers {mean:.2}, {changes} changes, goodput {good:?}");
    assert!(mean > 1.0 && mean < 4.5, "mean layers {mean}");
    assert!(changes > 20, "layer changes {changes}");
}
