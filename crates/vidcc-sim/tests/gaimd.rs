//! GAIMD(α, β) in the simulator: alone it fills a link; against TCP NewReno it takes a
//! TCP-friendly share.

mod common;
use common::*;
use vidcc_core::proto::gaimd::GaimdConfig;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

fn gaimd(max_window_bytes: u64) -> ProtocolConfig {
    ProtocolConfig::Gaimd(GaimdConfig { max_window_bytes, ..GaimdConfig::default() })
}

/// One GAIMD(0.3125, 0.875) flow on 10 Mbps / 44 ms with a BDP DropTail buffer: a decrease to
/// 0.875 of the window never empties the queue, so the link stays busy. (Max window lifted to
/// 1 MB: the 64 KB default would allow 64 KB / 44 ms = 11.6 Mbit/s, barely above the link.)
#[test]
fn alone_it_fills_an_uncongested_link() {
    let out =
        run_config(dumbbell(10_000_000, 20 * MS, droptail(QueueLimit::Bdp), vec![flow(gaimd(1_000_000), 1)], 100))
            .unwrap();
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    eprintln!("gaimd alone: throughput {thr:.0} bit/s of 10 Mbit/s");
    assert!(thr >= 0.9 * 10e6, "throughput {thr}");
    assert!(out.table("flow_summary").u64s("dropped_queue")[0] > 0, "it probed the link");
}

/// RED as in Floyd & Jacobson 1993 with min_th = limit/4 and max_th = 3·limit/4; `limit` in
/// 1000-byte packets.
fn red_quarters(limit: u64) -> QueueConfig {
    red(QueueLimit::Packets(limit), limit as f64 / 4.0, limit as f64 * 3.0 / 4.0)
}

/// Four GAIMD(0.31, 0.875) and four NewReno flows share a 10 Mbps / 44 ms RED dumbbell for
/// 300 s (20 s warm-up): their mean throughputs are within a factor of 1.5.
///
/// Why RED: Yang & Lam's friendliness relation α = 4(1 − β²)/3 equates the two rates *at the
/// same loss event rate*. RED drops each arriving packet with the same probability whatever its
/// flow, so both see the same p: measured 1.02 % vs 1.04 % per packet, ratio 1.13 (the windows
/// are uncapped, 10 MB, so that only the control laws differ). On a DropTail queue that stays
/// nearly full, as this one does with GAIMD's gentle β = 0.875, the drops go to whichever packet
/// arrives at a full queue, i.e. mostly to the window increments: loss events per RTT become
/// proportional to α, and the windows settle where W·(1 − β) is the same for everyone, i.e.
/// GAIMD/TCP ≈ (1 − ½)/(1 − ⅞) = 4. Measured with the same flows on a BDP DropTail buffer and
/// 0.8 ms of send jitter: 0.42 % vs 3.1 % loss per packet, ratio 4.25. More send jitter
/// randomises the arrivals and shrinks the ratio (1.6 ms: 2.1; 3.2 ms: 1.42; 10 ms: 1.29),
/// but not reliably (50 Mbps / 100 ms with 5 ms: 2.7): that DropTail effect belongs to the
/// queue and the arrival pattern, not to GAIMD (docs/protocols/gaimd.md).
#[test]
fn shares_a_red_dumbbell_with_newreno_within_a_factor_of_one_and_a_half() {
    let g = ProtocolConfig::Gaimd(GaimdConfig {
        alpha: Some(0.31),
        max_window_bytes: 10_000_000,
        ..GaimdConfig::default()
    });
    let t = ProtocolConfig::TcpNewReno(TcpConfig { max_window_bytes: 10_000_000, ..TcpConfig::default() });
    let (mut g, mut t) = (flow(g, 4), flow(t, 4));
    for f in [&mut g, &mut t] {
        f.start_ns = Spread::Uniform { min: 0, max: S };
        f.send_jitter_ns = 800_000;
    }
    // 110 packets: twice the 55-packet BDP of 10 Mbps × 44 ms.
    let mut cfg = dumbbell(10_000_000, 20 * MS, red_quarters(110), vec![g, t], 300);
    cfg.warmup_ns = 20 * S;
    let out = run_config(cfg).unwrap();
    let g = aggregate(&out, "gaimd", "throughput_bps_mean");
    let t = aggregate(&out, "newreno", "throughput_bps_mean");
    let total = aggregate(&out, "all", "throughput_bps_sum");
    eprintln!("gaimd {g:.0} bit/s, newreno {t:.0} bit/s, ratio {:.3}, total {total:.0}", g / t);
    assert!(g / t <= 1.5 && t / g <= 1.5, "gaimd {g:.0} vs newreno {t:.0}");
    assert!(total > 0.9 * 10e6, "aggregate {total}");
}
