//! TFMCC (RFC 4654) in the simulator: one receiver against NewReno on a dumbbell (issue 10's
//! TCP-friendliness band); a group behind a 1 Mbit/s and a 4 Mbit/s bottleneck is sent at what
//! the slower one sustains; a rate-adaptive video to three receivers.

mod common;

use common::*;
use vidcc_core::media::config::{PlayoutConfigSpec, RaCriterionSpec, RaTraceSpec, TraceFormatSpec, VideoModel};
use vidcc_core::proto::tfmcc::TfmccConfig;
use vidcc_sim::config::*;
use vidcc_sim::metrics::Column;
use vidcc_sim::run_config;

fn tfmcc_flow(receivers: Vec<ReceiverConfig>) -> FlowConfig {
    let mut f = flow(ProtocolConfig::Tfmcc(TfmccConfig::default()), 1);
    f.multicast = Some(MulticastConfig { receivers, join_latency_ns: 0, leave_latency_ns: 0 });
    f
}

/// S — R (100 Mbit/s), then R — X for every (X, bit/s) (20 ms, 30-packet DropTail), and a
/// TFMCC flow from S with one receiver on each X.
fn star(leaves: &[(&str, u64)]) -> (TopologyConfig, FlowConfig) {
    let l = |a: &str, b: &str, bw: u64, d: u64| {
        let mut link = link(bw, d, droptail(QueueLimit::Packets(30)));
        link.monitor = false;
        GraphLink { a: a.into(), b: b.into(), link }
    };
    let mut nodes = vec!["S".to_string(), "R".to_string()];
    let mut links = vec![l("S", "R", 100_000_000, MS)];
    for (x, bw) in leaves {
        nodes.push(x.to_string());
        links.push(l("R", x, *bw, 20 * MS));
    }
    let rx = |node: &str| ReceiverConfig { node: Some(node.into()), start_ns: Some(0), stop_ns: None, groups: vec![] };
    let mut f = tfmcc_flow(leaves.iter().map(|(x, _)| rx(x)).collect());
    f.placement = Placement::Tree { src: "S".into(), source_access: None, sink_access: None };
    (TopologyConfig::Graph { nodes, links }, f)
}

/// (TFMCC, NewReno) throughput with one receiver on issue 10's dumbbell: 4 Mbit/s, 20 ms,
/// 50-packet DropTail, both flows from t = 0, measured over 200 s after a 2 s warm-up, at `seed`. Both flows send
/// with up to 1 ms of random delay (half a bottleneck packet time): without it, TCP's
/// ACK-clocked packets and TFMCC's paced ones meet the full DropTail queue in a fixed phase
/// (Floyd & Jacobson 1992; docs/scenarios.md `send_jitter`): TFMCC then loses 3.6 times TCP's
/// fraction of packets (seeds 1–10; seed 1: 120 of 35 375 against 67 of 64 766) and gets 0.41–0.62
/// of NewReno, and TFRC, which draws nothing at random, gets 0.827 at every seed.
fn versus_newreno(seed: u64) -> (f64, f64) {
    let mut f = tfmcc_flow(vec![ReceiverConfig { node: None, start_ns: Some(0), stop_ns: None, groups: vec![] }]);
    f.placement = Placement::EndToEnd { reverse: false };
    let mut cfg = dumbbell(4_000_000, 20 * MS, droptail(QueueLimit::Packets(50)), vec![f, flow(newreno(), 1)], 202);
    cfg.seed = seed;
    for f in &mut cfg.flows {
        f.send_jitter_ns = MS;
    }
    let out = run_config(cfg).expect("runs");
    let thr = out.table("flow_summary").f64s("throughput_bps");
    (thr[0], thr[1])
}

/// Issue 10: one receiver against one NewReno flow gets 0.5 to 2 times the TCP throughput over
/// 200 s, at each of seeds 1–4 (the seed draws the feedback timers and the send jitter).
///
/// Measured: 0.70–0.85 over seeds 1–10 (mean 0.76); TFRC in the same place 0.78–1.10 (mean
/// 0.97). The gap to TFRC is RFC 4654's own machinery (docs/protocols/tfmcc.md, "Against TCP"):
/// the start (first report after about one feedback round, the increase limit 8s/R_max per
/// R_max with R_max decaying from 500 ms by 0.9 per 2T round when there are no non-CLR
/// reports: 0.43 of NewReno in the first 50 s) and the one-way-delay RTT adjustment (§4.3.3:
/// 0.89 after the first 50 s, 1.03 without it).
#[test]
fn one_receiver_gets_half_to_twice_newrenos_throughput() {
    for seed in 1..=4 {
        let (tfmcc, tcp) = versus_newreno(seed);
        let ratio = tfmcc / tcp;
        eprintln!("seed {seed}: tfmcc {tfmcc:.0} bit/s, newreno {tcp:.0} bit/s, ratio {ratio:.3}");
        assert!((0.5..=2.0).contains(&ratio), "seed {seed}: TFMCC / NewReno = {ratio:.3} ({tfmcc} vs {tcp})");
        // Together they fill most of the bottleneck.
        assert!(tfmcc + tcp > 3.5e6, "seed {seed}: {tfmcc} + {tcp}");
    }
}

#[test]
fn the_group_is_sent_at_what_the_one_mbps_receiver_sustains() {
    // S — R (100 Mbit/s); R — A (1 Mbit/s, 20 ms); R — B (4 Mbit/s, 20 ms).
    let (topology, f) = star(&[("A", 1_000_000), ("B", 4_000_000)]);
    let out = run_config(sim_config(topology, vec![f], 100)).expect("runs");
    let thr = out.table("flow_summary").f64s("throughput_bps").to_vec();
    let fs = out.table("flow_summary");
    let (sent, dropped) = (fs.u64s("sent_packets"), fs.u64s("dropped_queue"));
    let loss: Vec<f64> = (0..2).map(|i| dropped[i] as f64 / sent[i].max(1) as f64).collect();
    eprintln!(
        "receiver A (1 Mbit/s) {:.0} bit/s loss {:.4}; B (4 Mbit/s) {:.0} bit/s loss {:.4}",
        thr[0], loss[0], thr[1], loss[1]
    );
    // B's path never limits, so B receives what the sender sends: at most about 1 Mbit/s ...
    assert!(thr[1] <= 1.1e6, "the sender exceeds the 1 Mbit/s receiver's path: {}", thr[1]);
    // ... and A gets most of its link: the rate is one A sustains (its losses are the
    // equation's equilibrium, about 5 %, printed above).
    assert!(thr[0] >= 0.6e6, "receiver A: {}", thr[0]);
    assert!(thr[1] >= 0.6e6, "the 4 Mbit/s receiver is not held below the slower one's rate: {}", thr[1]);
}

/// Kbit/s of the four traces of the rate-adaptive set, in the list's order (quantizers 2, 8, 16,
/// 31): one clip of 10 GOPs IBBPBBPBBPBB, frame sizes I : P : B = 4 : 2 : 1 scaled to the rate.
const RA_KBPS: [u64; 4] = [1600, 800, 400, 200];

fn ra_trace(kbps: u64) -> String {
    // 18 units per GOP of 0.48 s.
    let unit = kbps * 1000 / 8 * 48 / 100 / 18;
    let gop = "IBBPBBPBBPBB";
    (0..10)
        .flat_map(|_| gop.chars())
        .map(|t| {
            format!(
                "{t} {}\n",
                unit * if t == 'I' {
                    4
                } else if t == 'P' {
                    2
                } else {
                    1
                }
            )
        })
        .collect()
}

fn u64_col<'a>(out: &'a vidcc_sim::SimOutput, table: &str, col: &str) -> &'a [u64] {
    let Some(Column::U64(v)) = out.table(table).get(col) else { panic!("no column {col} in {table}") };
    v
}

#[test]
fn video_over_tfmcc_gives_every_receiver_its_frames_and_the_rate_picks_the_quantizer() {
    // A behind 1 Mbit/s limits the group; B and C behind 4 Mbit/s.
    let (topology, mut f) = star(&[("A", 1_000_000), ("B", 4_000_000), ("C", 4_000_000)]);
    let traces = [2u8, 8, 16, 31]
        .iter()
        .zip(RA_KBPS)
        .map(|(&q, kbps)| RaTraceSpec { quantizer: q, text: ra_trace(kbps), source: format!("q{q}.trace") })
        .collect();
    let model =
        VideoModel::RateAdaptive { traces, format: TraceFormatSpec::Plain, criterion: RaCriterionSpec::UpcomingGop };
    f.video = Some(video(model, vec![], PlayoutConfigSpec::FirstArrival { delay_ns: S }));
    let out = run_config(sim_config(topology, vec![f], 60)).expect("runs");

    let receiver = u64_col(&out, "frames", "receiver");
    let frame = u64_col(&out, "frames", "frame");
    let encoding = u64_col(&out, "frames", "encoding");
    let ready = u64_col(&out, "frames", "ready_ns");
    let status = strings(&out, "frames", "status");
    let decodable = match out.table("frames").get("decodable") {
        Some(Column::Bool(v)) => v,
        _ => panic!("no decodable column"),
    };
    // Every receiver has its own frames rows, the whole run's worth (25 fps).
    for r in 0..3 {
        let n = receiver.iter().filter(|&&x| x == r).count();
        assert!(n >= 25 * 55, "receiver {r}: {n} frame rows");
    }
    // The group sees one stream: every receiver's frame k has the same encoding.
    let of = |r: u64| -> Vec<(u64, u64)> {
        (0..receiver.len()).filter(|&i| receiver[i] == r).map(|i| (frame[i], encoding[i])).collect()
    };
    assert_eq!(of(0), of(1));
    assert_eq!(of(1), of(2));
    // Receiver B: one encoding per display GOP (the choice is made at GOP starts) ...
    let b: Vec<usize> = (0..receiver.len()).filter(|&i| receiver[i] == 1 && status[i] != "unsent").collect();
    for w in b.windows(2) {
        let (i, j) = (w[0], w[1]);
        if frame[i] / 12 == frame[j] / 12 {
            assert_eq!(encoding[i], encoding[j], "frames {} and {} of one GOP", frame[i], frame[j]);
        }
    }
    // ... the first GOP at the smallest trace (TFMCC starts at one packet per R_max = 16 kbit/s),
    assert_eq!(encoding[b[0]], 3, "first GOP");
    // and after slow start the traces that fit the 1 Mbit/s receiver's rate: 800 kbit/s, and
    // 400 kbit/s when the rate dips; rarely 1.6 Mbit/s. How the time splits between 800 and 400
    // follows the rate's path, which any change of event order moves: 0.52 / 0.45 when the
    // first frame went to an empty tree, 0.16 / 0.81 since (mean rate after 40 s 1.3 and
    // 0.76 Mbit/s); the test asks that both are used.
    let late: Vec<usize> = b.iter().copied().filter(|&i| ready[i] >= 10 * S).collect();
    let share = |e: u64| late.iter().filter(|&&i| encoding[i] == e).count() as f64 / late.len() as f64;
    eprintln!("after 10 s: q2 {:.3}, q8 {:.3}, q16 {:.3}, q31 {:.3}", share(0), share(1), share(2), share(3));
    assert!(share(1) + share(2) > 0.9, "the 800 and 400 kbit/s traces: {} + {}", share(1), share(2));
    assert!(share(1) > 0.1 && share(2) > 0.1, "the quantizer follows the rate between them");
    assert!(share(0) < 0.1, "the 1.6 Mbit/s trace, above what A sustains: {}", share(0));
    // The fast receivers decode nearly every frame; A, at the limit, most.
    let dec = |r: u64| {
        let rows: Vec<usize> = (0..receiver.len()).filter(|&i| receiver[i] == r && status[i] != "pending").collect();
        rows.iter().filter(|&&i| decodable[i]).count() as f64 / rows.len() as f64
    };
    eprintln!("decodable: A {:.3}, B {:.3}, C {:.3}", dec(0), dec(1), dec(2));
    assert!(dec(1) > 0.95 && dec(2) > 0.95, "B {} C {}", dec(1), dec(2));
    assert!(dec(0) > 0.5, "A {}", dec(0));
}

/// Receivers that start with their sender are members when its first frame leaves: the first
/// frame (an I frame) is meant for and reaches every receiver, and no frame of the first GOP
/// is lost to a missing reference — at t = 0 and when everyone starts later (frames may be late:
/// TFMCC starts at 16 kbit/s). The sender once acted first at an instant, sent its first frame
/// to an empty tree, and every receiver lost the first GOP.
#[test]
fn receivers_starting_with_the_sender_get_its_first_frame() {
    for start in [0, 2 * S] {
        let (topology, mut f) = star(&[("A", 4_000_000), ("B", 4_000_000)]);
        let traces = vec![RaTraceSpec { quantizer: 31, text: ra_trace(200), source: "q31.trace".into() }];
        let model = VideoModel::RateAdaptive {
            traces,
            format: TraceFormatSpec::Plain,
            criterion: RaCriterionSpec::UpcomingGop,
        };
        f.video = Some(video(model, vec![], PlayoutConfigSpec::FirstArrival { delay_ns: S }));
        f.start_ns = Spread::Fixed(start);
        if let Some(m) = &mut f.multicast {
            for r in &mut m.receivers {
                r.start_ns = Some(start);
            }
        }
        let out = run_config(sim_config(topology, vec![f], 6)).expect("runs");
        let receiver = u64_col(&out, "frames", "receiver");
        let frame = u64_col(&out, "frames", "frame");
        let status = strings(&out, "frames", "status");
        for r in 0..2 {
            let first_gop: Vec<&str> = (0..receiver.len())
                .filter(|&i| receiver[i] == r && frame[i] < 12)
                .map(|i| status[i].as_str())
                .collect();
            assert_eq!(first_gop.len(), 12, "start {start} ns, receiver {r}: {first_gop:?}");
            assert!(
                first_gop.iter().all(|&s| s == "ok" || s == "late"),
                "start {start} ns, receiver {r}: {first_gop:?}"
            );
        }
    }
}
