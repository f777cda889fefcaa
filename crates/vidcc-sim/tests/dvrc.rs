//! DVRC in simulation: full quality alone, loss classification under random loss and without it
//! (docs/papers/dvrc.md claims C1 and C25), and its layer count against TCP Reno on an S4-like dumbbell.

mod common;
use common::*;
use vidcc_core::proto::dvrc::DvrcConfig;
use vidcc_sim::config::*;
use vidcc_sim::{run_config, SimOutput};

const DVRC_LAYERS_BPS: [u64; 5] = [128_000, 256_000, 512_000, 768_000, 1_024_000];

/// docs/papers/dvrc.md's video (§2.1–2.2 \[D\]): TES MPEG-4 at 1024 kbit/s, 25 fps, GOP 12, five layers.
fn dvrc_flow(count: u32) -> FlowConfig {
    let mut f = flow(ProtocolConfig::Dvrc(DvrcConfig::default()), count);
    f.video = Some(tes_video(1_024_000, DVRC_LAYERS_BPS.to_vec()));
    f
}

/// (additive decreases, multiplicative decreases) of a DVRC flow after the warm-up.
fn decisions(out: &SimOutput, flow: u64) -> (usize, usize) {
    let c: Vec<(u64, f64)> =
        events(out, flow, "receiver", "loss_class").into_iter().filter(|&(t, _)| t >= 2 * S).collect();
    let md = c.iter().filter(|(_, v)| *v == 1.0).count();
    (c.len() - md, md)
}

/// Time-weighted mean over [from, to) of the layer count the sender used and of the cumulative
/// rate c_K of those layers.
fn mean_layers(out: &SimOutput, flow: u64, from_ns: u64, to_ns: u64) -> (f64, f64) {
    let changes = events(out, flow, "sender", "layers");
    let layers = time_mean(&changes, from_ns, to_ns, |k| k);
    let rate = time_mean(&changes, from_ns, to_ns, |k| DVRC_LAYERS_BPS[k as usize - 1] as f64);
    (layers, rate)
}

/// A graph with one bottleneck L→R (`bw`, `delay`, `queue`); every flow instance gets private
/// access links (`access_bw`, `access_delay`), with `loss` on the DVRC flows' sink access links
/// only (data direction, and ACK direction too if `both_directions`).
#[allow(clippy::too_many_arguments)]
fn graph(
    bw: u64,
    delay_ns: u64,
    queue: QueueLimit,
    access_bw: u64,
    access_delay_ns: u64,
    loss: Option<LossConfig>,
    both_directions: bool,
    flows: Vec<FlowConfig>,
    duration_s: u64,
) -> SimConfig {
    let access = |loss: Option<LossConfig>| AccessConfig {
        bandwidth_bps: Spread::Fixed(access_bw),
        delay_ns: Spread::Fixed(access_delay_ns),
        queue: droptail(QueueLimit::Bdp),
        loss,
        reverse_loss: if both_directions { loss } else { None },
        arq: None,
    };
    let flows = flows
        .into_iter()
        .map(|mut f| {
            let lossy = matches!(f.protocol, ProtocolConfig::Dvrc(_));
            f.placement = Placement::Nodes {
                src: "L".into(),
                dst: "R".into(),
                source_access: Some(Box::new(access(None))),
                sink_access: Some(Box::new(access(if lossy { loss } else { None }))),
            };
            f
        })
        .collect();
    let topology = TopologyConfig::Graph {
        nodes: vec!["L".into(), "R".into()],
        links: vec![GraphLink { a: "L".into(), b: "R".into(), link: link(bw, delay_ns, droptail(queue)) }],
    };
    sim_config(topology, flows, duration_s)
}

/// docs/papers/dvrc.md's S0 (§3: S1's dumbbell with one AIAMD flow and one TCP flow): every link
/// 1 Mbit/s, access links 5 ms and bottleneck 25 ms (RTT 70 ms), a 10-packet DropTail bottleneck
/// buffer; Bernoulli loss `p` on the DVRC receiver's access link, data direction (§2.3 \[D\]).
/// The Reno flow's packets are spread by up to one bottleneck packet time (8 ms) to avoid
/// DropTail phase effects.
fn s0(p: Option<f64>, duration_s: u64) -> SimConfig {
    let mut tcp = flow(reno(), 1);
    tcp.send_jitter_ns = 8 * MS;
    let loss = p.map(|p| LossConfig::Bernoulli { p });
    graph(
        1_000_000,
        25 * MS,
        QueueLimit::Packets(10),
        1_000_000,
        5 * MS,
        loss,
        false,
        vec![dvrc_flow(1), tcp],
        duration_s,
    )
}

/// An S4-like dumbbell (docs/papers/dvrc.md §3: every link 10 Mbit/s, RTT 70 ms, a BDP of DropTail
/// buffer = 88 packets) with `n_dvrc` DVRC and `n_reno` Reno flows starting within the first
/// second; optionally docs/papers/dvrc.md's Gilbert errors (A11: p = 0.01, q = 0.15) on the DVRC
/// sink access links in both directions, as in S2.
fn s4(n_dvrc: u32, n_reno: u32, gilbert: bool, duration_s: u64) -> SimConfig {
    let mut tcp = flow(reno(), n_reno);
    tcp.send_jitter_ns = 800_000;
    tcp.start_ns = Spread::Uniform { min: 0, max: S };
    let mut d = dvrc_flow(n_dvrc);
    d.start_ns = Spread::Uniform { min: 0, max: S };
    let loss = gilbert.then_some(LossConfig::CorrelatedBernoulli { p: 0.01, q: 0.15 });
    graph(10_000_000, 33 * MS, QueueLimit::Bdp, 10_000_000, MS, loss, true, vec![d, tcp], duration_s)
}

/// MD share over all DVRC flows (the first `n` flows).
fn md_share(out: &SimOutput, n: u64) -> (f64, usize, usize) {
    let (ad, md) = (0..n).map(|f| decisions(out, f)).fold((0, 0), |a, d| (a.0 + d.0, a.1 + d.1));
    (md as f64 / (ad + md) as f64, ad, md)
}

/// Issue 5: alone on an uncongested link, at least 90 % of the video rate.
/// Measured: goodput 1 016 306 bit/s of a 1 024 000 bit/s video; 5 layers throughout.
#[test]
fn alone_on_an_uncongested_link_it_sends_full_quality() {
    let cfg = dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![dvrc_flow(1)], 60);
    let out = run_config(cfg).unwrap();
    let goodput = out.table("flow_summary").f64s("goodput_bps")[0];
    let (layers, _) = mean_layers(&out, 0, 2 * S, 60 * S);
    eprintln!("alone: goodput {goodput:.0} bit/s, mean layers {layers:.3}, decisions {:?}", decisions(&out, 0));
    assert!(goodput >= 0.9 * 1_024_000.0, "goodput {goodput}");
    assert!(layers > 4.99, "mean layers {layers}");
    assert_eq!(decisions(&out, 0), (0, 0), "no loss, no decrease");
}

/// Claim C1 (paper Sec. 3.2, Fig. 3; docs/papers/dvrc.md §5): on S0 with 3 % random packet errors,
/// most loss events go to additive decrease; multiplicative decreases are infrequent. Test: MD
/// share < 50 %. Measured (200 s, seed 1): 485 AD, 74 MD → MD share 0.132.
#[test]
fn c1_under_random_loss_most_loss_events_are_additive() {
    let out = run_config(s0(Some(0.03), 200)).unwrap();
    let (share, ad, md) = md_share(&out, 1);
    let good = out.table("flow_summary").f64s("goodput_bps").to_vec();
    eprintln!(
        "C1, S0 with 3% loss: AD {ad} MD {md} (MD share {share:.3}); goodput DVRC {:.0} Reno {:.0}",
        good[0], good[1]
    );
    assert!(ad + md > 100, "too few loss events under 3% loss: {}", ad + md);
    assert!(share < 0.5, "C1: MD share under random loss {share:.3}");
}

/// S4-like (docs/papers/dvrc.md §3, claim C18's setting): 5 DVRC flows among 20 Reno flows, fair
/// share 10 Mbit/s / 25 = 400 kbit/s. The DVRC flows settle on a layer count whose rate is within a
/// factor of two of the fair share, and the Reno flows keep ≈ theirs (C18: NT(Reno) within
/// ±25 % of 1).
/// Measured (200 s): DVRC goodput 759, 519, 351, 500, 455 kbit/s (mean 517); time-averaged
/// layer count 4.07, 3.27, 2.52, 3.19, 2.88; Reno mean 345 kbit/s (NT 0.86).
#[test]
fn against_reno_it_settles_near_its_fair_share() {
    let out = run_config(s4(5, 20, false, 200)).unwrap();
    let good = out.table("flow_summary").f64s("goodput_bps").to_vec();
    let fair = 10e6 / 25.0;
    let dvrc_mean = good[..5].iter().sum::<f64>() / 5.0;
    let reno_mean = good[5..].iter().sum::<f64>() / 20.0;
    let layers: Vec<(f64, f64)> = (0..5).map(|f| mean_layers(&out, f, 20 * S, 200 * S)).collect();
    let layer_rate = layers.iter().map(|l| l.1).sum::<f64>() / 5.0;
    eprintln!(
        "S4-like: fair {fair:.0}; DVRC goodput {:?} (mean {dvrc_mean:.0}); layers (K, c_K) {layers:?} \
         (mean c_K {layer_rate:.0}); Reno mean {reno_mean:.0}",
        &good[..5]
    );
    assert!(layer_rate > 0.5 * fair && layer_rate < 2.0 * fair, "mean subscribed rate {layer_rate}");
    assert!(dvrc_mean > 0.5 * fair && dvrc_mean < 2.0 * fair, "DVRC mean goodput {dvrc_mean}");
    assert!((reno_mean / fair - 1.0).abs() < 0.25, "Reno normalized throughput {}", reno_mean / fair);
}
