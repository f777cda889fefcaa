//! PLM in simulation: on a DRR (fair-queueing) bottleneck shared with k TCP flows the receiver
//! settles on the cumulative layer rate closest below capacity/(k+1); behind a FIFO (DropTail)
//! the pairs leave the queue back to back and its estimate is the whole link, not its share.

mod common;

use common::*;
use vidcc_core::proto::plm::PlmConfig;
use vidcc_sim::config::*;
use vidcc_sim::metrics::Column;
use vidcc_sim::{run_config, SimOutput};

/// 1.05 Mbit/s: the fair shares with 1 and 3 TCP flows (525 and 262.5 kbit/s) are not
/// multiples of the 50 kbit/s layers, so "closest below" is one number of layers (10 and 5).
const CAPACITY: u64 = 1_050_000;
const DURATION_S: u64 = 120;

fn run(k: u32, queue: QueueConfig) -> SimOutput {
    let mut plm = flow(ProtocolConfig::Plm(PlmConfig::default()), 1);
    plm.multicast =
        Some(MulticastConfig { receivers: vec![ReceiverConfig::default()], join_latency_ns: 0, leave_latency_ns: 0 });
    let mut tcp = flow(newreno(), k);
    tcp.send_jitter_ns = MS;
    let mut cfg = dumbbell(CAPACITY, 20 * MS, queue, vec![plm, tcp], DURATION_S);
    cfg.warmup_ns = 20 * S;
    run_config(cfg).expect("runs")
}

/// (t in s, value) of the PLM receiver's events of `kind`.
fn receiver_events(out: &SimOutput, kind: &str) -> Vec<(f64, f64)> {
    let t = out.table("events");
    let Some(Column::I64(rx)) = t.get("receiver") else { panic!("no receiver column in events") };
    let (kinds, sides, values, ts, flows) = (
        strings(out, "events", "kind"),
        strings(out, "events", "side"),
        t.f64s("value"),
        t.u64s("t_ns"),
        t.u64s("flow"),
    );
    (0..kinds.len())
        .filter(|&i| kinds[i] == kind && sides[i] == "receiver" && rx[i] == 0 && flows[i] == 0)
        .map(|i| (ts[i] as f64 * 1e-9, values[i]))
        .collect()
}

/// Share of [from_s, DURATION_S] during which the receiver held `layers` layers.
fn time_at(out: &SimOutput, layers: f64, from_s: f64) -> f64 {
    let changes = receiver_events(out, "layers");
    let mut held = 0.0;
    for (i, &(t, v)) in changes.iter().enumerate() {
        let end = changes.get(i + 1).map_or(DURATION_S as f64, |c| c.0);
        let (a, b) = (t.max(from_s), end.min(DURATION_S as f64));
        if v == layers && b > a {
            held += b - a;
        }
    }
    held / (DURATION_S as f64 - from_s)
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn estimates(out: &SimOutput, from_s: f64) -> Vec<f64> {
    receiver_events(out, "rate").into_iter().filter(|&(t, _)| t >= from_s).map(|(_, v)| v).collect()
}

#[test]
fn on_a_fair_queue_the_receiver_settles_on_the_layers_closest_below_its_share() {
    for (k, expected) in [(1u32, 10.0), (3, 5.0)] {
        let out = run(k, drr(QueueLimit::Bytes(25_000)));
        let share = CAPACITY as f64 / (k + 1) as f64;
        let held = time_at(&out, expected, 20.0);
        let est = median(estimates(&out, 20.0));
        let plm = flow_summary(&out, "throughput_bps", 0);
        eprintln!(
            "drr, plm + {k} tcp: {expected} layers held {:.0} % of [20, 120] s; median estimate {est:.0} (share {share:.0}); \
             plm throughput {plm:.0}",
            held * 100.0
        );
        assert!(held > 0.8, "k = {k}: {expected} layers held only {held}");
        assert!((est / share - 1.0).abs() < 0.1, "k = {k}: median estimate {est} vs share {share}");
    }
}

#[test]
fn behind_a_fifo_the_pair_estimate_is_the_whole_link_not_the_share() {
    let k = 1;
    let out = run(k, droptail(QueueLimit::Packets(25)));
    let share = CAPACITY as f64 / (k + 1) as f64;
    let est = estimates(&out, 20.0);
    let med = median(est.clone());
    let plm = flow_summary(&out, "throughput_bps", 0);
    let tcp = flow_summary(&out, "throughput_bps", 1);
    eprintln!("droptail, plm + {k} tcp: median estimate {med:.0} (share {share:.0}); plm {plm:.0}, tcp {tcp:.0}");
    // The pair crosses the FIFO back to back: it measures the link's rate.
    assert!(med > 1.5 * share, "median estimate {med} vs share {share}");
    // Subscribed far above its share, it does not hold the 10 layers it holds under DRR.
    let held = time_at(&out, 10.0, 20.0);
    assert!(held < 0.5, "behind a FIFO PLM held its fair 10 layers {held} of the time");
}
