//! Same scenario and seed, same bytes out; another seed, another run.

mod common;
use common::*;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

fn scenario(seed: u64) -> SimConfig {
    let mut tcp = flow(newreno(), 4);
    tcp.start_ns = Spread::Uniform { min: 0, max: S };
    let mut reno = flow(ProtocolConfig::TcpReno(TcpConfig::default()), 2);
    reno.placement = Placement::EndToEnd { reverse: true };
    let pareto = flow(
        ProtocolConfig::UdpPareto(ParetoConfig {
            rate_bps: 1_000_000,
            on_mean_ns: 500 * MS,
            off_mean_ns: 500 * MS,
            shape: 1.5,
        }),
        2,
    );
    let mut cfg = dumbbell(5_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![tcp, reno, pareto], 20);
    if let TopologyConfig::Dumbbell { sink_access, .. } = &mut cfg.topology {
        sink_access.loss = Some(LossConfig::CorrelatedBernoulli { p: 0.01, q: 0.15 });
        sink_access.delay_ns = Spread::Uniform { min: MS, max: 20 * MS };
    }
    cfg.seed = seed;
    cfg.packet_log = true;
    cfg
}

#[test]
fn same_seed_gives_identical_tables() {
    let a = run_config(scenario(7)).unwrap();
    let b = run_config(scenario(7)).unwrap();
    assert_eq!(a.stats, b.stats);
    for (ta, tb) in a.tables.iter().zip(&b.tables) {
        // Compare bit patterns so NaN == NaN.
        assert_eq!(format!("{:?}", ta), format!("{:?}", tb), "table {} differs", ta.name);
    }
    assert!(a.table("packets").rows() > 1000);
}

#[test]
fn another_seed_gives_another_run() {
    let a = run_config(scenario(7)).unwrap();
    let b = run_config(scenario(8)).unwrap();
    assert_ne!(format!("{:?}", a.table("flow_summary")), format!("{:?}", b.table("flow_summary")));
}
