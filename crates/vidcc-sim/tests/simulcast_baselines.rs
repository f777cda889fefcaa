//! The simulcast baselines of the SRAMT comparison, `dsg` and `irfm`, in simulation: two
//! receivers behind a 1 Mbit/s and a 4 Mbit/s bottleneck end on different streams.

mod common;

use common::*;
use vidcc_core::proto::dsg::DsgConfig;
use vidcc_core::proto::irfm::IrfmConfig;
use vidcc_sim::config::*;
use vidcc_sim::metrics::Column;
use vidcc_sim::{run_config, SimOutput};

/// 10 Mbit/s, 5 ms graph link with a 50-packet DropTail queue.
fn glink(a: &str, b: &str, bw: u64) -> GraphLink {
    let mut l = link(bw, 5 * MS, droptail(QueueLimit::Packets(50)));
    l.monitor = false;
    GraphLink { a: a.into(), b: b.into(), link: l }
}

/// S — R (10 Mbit/s); R — A at 1 Mbit/s and R — B at 4 Mbit/s; receiver 0 at A, 1 at B; both
/// start on stream 0.
fn two_bottlenecks(protocol: ProtocolConfig, seconds: u64) -> (SimOutput, Vec<f64>) {
    let topology = TopologyConfig::Graph {
        nodes: ["S", "R", "A", "B"].map(String::from).to_vec(),
        links: vec![glink("S", "R", 10_000_000), glink("R", "A", 1_000_000), glink("R", "B", 4_000_000)],
    };
    let mut f = flow(protocol, 1);
    f.placement = Placement::Tree { src: "S".into(), source_access: None, sink_access: None };
    let receiver = |node: &str| ReceiverConfig { node: Some(node.into()), start_ns: Some(0), ..Default::default() };
    f.multicast = Some(MulticastConfig {
        receivers: vec![receiver("A"), receiver("B")],
        join_latency_ns: 10 * MS,
        leave_latency_ns: 10 * MS,
    });
    let mut sim = sim_config(topology, vec![f], seconds);
    sim.warmup_ns = 0;
    let out = run_config(sim).expect("runs");
    let thr = out.table("flow_summary").f64s("throughput_bps").to_vec();
    (out, thr)
}

/// The stream (1-based) a receiver holds, averaged over [from_s, end_s], from its `layers`
/// events; stream 1 before its first change.
fn mean_stream(out: &SimOutput, receiver: i64, from_s: f64, end_s: f64) -> f64 {
    let t = out.table("events");
    let Some(Column::I64(rx)) = t.get("receiver") else { panic!("no receiver column in events") };
    let (kinds, sides, values, ts) =
        (strings(out, "events", "kind"), strings(out, "events", "side"), t.f64s("value"), t.u64s("t_ns"));
    let changes: Vec<(f64, f64)> = (0..kinds.len())
        .filter(|&i| kinds[i] == "layers" && sides[i] == "receiver" && rx[i] == receiver)
        .map(|i| (ts[i] as f64 * 1e-9, values[i]))
        .collect();
    let (mut value, mut at, mut area) = (1.0, from_s, 0.0);
    for (t, v) in changes {
        if t > from_s {
            area += value * (t - at);
            at = t;
        }
        value = v;
    }
    (area + value * (end_s - at)) / (end_s - from_s)
}

/// DSG moves a receiver only at a band edge (up when unloaded at the top, down when congested at
/// the bottom), so the bands must straddle 1 Mbit/s for the two to part: 0.1–0.8, 1.2–3,
/// 3–5 Mbit/s. The 1 Mbit/s receiver tries stream 2, is congested at its bottom and comes back
/// (then the back-off keeps it below); the 4 Mbit/s one climbs to stream 2 or 3. With the
/// paper-like bands 0.1–0.5, 0.5–2, 2–5 both stay on stream 2: the 1 Mbit/s receiver's
/// congestion halves stream 2 to its floor, where it is no longer congested, and the stream never
/// reaches its top (measured here too: DSG cannot part them then).
#[test]
fn dsg_receivers_behind_one_and_four_mbps_end_on_different_streams() {
    let cfg = DsgConfig {
        bands_bps: vec![[100_000, 800_000], [1_200_000, 3_000_000], [3_000_000, 5_000_000]],
        initial_rates_bps: vec![100_000, 1_200_000, 3_000_000],
        ..DsgConfig::default()
    };
    let (out, thr) = two_bottlenecks(ProtocolConfig::Dsg(cfg), 300);
    let (a, b) = (mean_stream(&out, 0, 200.0, 300.0), mean_stream(&out, 1, 200.0, 300.0));
    eprintln!("dsg: mean stream over 200-300 s: {a:.2} at 1 Mbit/s, {b:.2} at 4 Mbit/s; throughput {thr:?}");
    assert!(a <= 1.2, "the 1 Mbit/s receiver stays on stream 1: {a}");
    assert!(b >= 2.0, "the 4 Mbit/s receiver is on stream 2 or 3: {b}");
    assert!(thr[0] < 1.0e6 && thr[1] > 1.5 * thr[0], "{thr:?}");
    let narrow = DsgConfig {
        bands_bps: vec![[100_000, 500_000], [500_000, 2_000_000], [2_000_000, 5_000_000]],
        initial_rates_bps: vec![100_000, 500_000, 2_000_000],
        ..DsgConfig::default()
    };
    let (out, _) = two_bottlenecks(ProtocolConfig::Dsg(narrow), 300);
    let (a, b) = (mean_stream(&out, 0, 200.0, 300.0), mean_stream(&out, 1, 200.0, 300.0));
    eprintln!("dsg, bands 0.1-0.5-2-5 Mbit/s: mean stream {a:.2} and {b:.2}");
    assert!((a - b).abs() < 0.5, "with a band edge below 1 Mbit/s both share stream 2: {a} vs {b}");
}

/// Share of [from_s, end_s] a receiver of a two-stream session spends on the high stream.
fn high_share(out: &SimOutput, receiver: i64, from_s: f64, end_s: f64) -> f64 {
    mean_stream(out, receiver, from_s, end_s) - 1.0
}

/// IRFM sets its two rates at the receivers' isolated rates and each receiver takes the fairer
/// stream. With the session's range topping at the faster path's capacity (0.1–4 Mbit/s, as a
/// session whose best encoding is what its best-provisioned receivers can take) the 4 Mbit/s
/// receiver holds the high stream and the 1 Mbit/s one the low stream, except for about two
/// rounds every ~24 s (measured over 100–200 s: high-stream share 1.00 vs 0.18; throughput 3.60
/// vs 0.67 Mbit/s): a loss-free receiver's isolated rate is TFRC's probing bound, twice what it
/// received, so when the low stream has doubled to ~0.75 Mbit/s its x ≈ 1.5 Mbit/s is fairer to
/// the 4 Mbit/s stream, which the 1 Mbit/s path cannot carry; two rounds of loss send it back.
/// With a range above the faster path (0.1–5 Mbit/s) the high stream overshoots 4 Mbit/s for
/// two rounds (the report lag) whenever its receiver's x doubles past it, the equation's rate
/// at the queue-inflated RTT sends that receiver down, and both receivers spend time on both
/// streams (shares 0.40 and 0.26): IRFM does not part them then (docs/protocols/irfm.md,
/// "Measured behaviour").
#[test]
fn irfm_receivers_behind_one_and_four_mbps_end_on_different_streams() {
    let cfg = IrfmConfig { rate_range_bps: [100_000, 4_000_000], ..IrfmConfig::default() };
    let (out, thr) = two_bottlenecks(ProtocolConfig::Irfm(cfg), 200);
    let (a, b) = (high_share(&out, 0, 100.0, 200.0), high_share(&out, 1, 100.0, 200.0));
    eprintln!("irfm 0.1-4 Mbit/s: high-stream share over 100-200 s: {a:.2} at 1 Mbit/s, {b:.2} at 4 Mbit/s; throughput {thr:?}");
    assert!(b >= 0.9, "the 4 Mbit/s receiver holds the high stream: {b}");
    assert!(a <= 0.3, "the 1 Mbit/s receiver holds the low stream at least 70 % of the time: {a}");
    assert!(thr[0] < 1.0e6 && thr[1] > 3.0 * thr[0], "{thr:?}");
    let wide = IrfmConfig { rate_range_bps: [100_000, 5_000_000], ..IrfmConfig::default() };
    let (out, thr) = two_bottlenecks(ProtocolConfig::Irfm(wide), 200);
    let (a, b) = (high_share(&out, 0, 100.0, 200.0), high_share(&out, 1, 100.0, 200.0));
    eprintln!("irfm 0.1-5 Mbit/s: high-stream share {a:.2} and {b:.2}; throughput {thr:?}");
    assert!(b < 0.9 && a > 0.1, "with a range above the 4 Mbit/s path both receivers use both streams: {a} vs {b}");
    assert!(thr[1] > 2.0 * thr[0], "the 4 Mbit/s receiver still gets more: {thr:?}");
}
