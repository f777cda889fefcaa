//! IRFM's rules on hand-made inputs: the fairness function, the rate choice against brute
//! force, each receiver's own choice, the isolated rate, config errors and the registry.

use proptest::prelude::*;

use super::rules::{best_rates, fairness, mean_fairness, own_choice, IrfmReceiverRules, IrfmStreams};
use super::IrfmConfig;
use crate::proto::simulcast::{RoundReport, StreamRules};
use crate::rng::RngStreams;
use crate::time::{Duration, Instant};
use crate::units::DataSize;

#[test]
fn fairness_is_min_over_max() {
    assert_eq!(fairness(500.0, 1000.0), 0.5);
    assert_eq!(fairness(2000.0, 1000.0), 0.5);
    assert_eq!(fairness(1000.0, 1000.0), 1.0);
    assert_eq!(fairness(0.0, 1000.0), 0.0);
    assert_eq!(fairness(f64::INFINITY, 1000.0), 0.0);
    assert_eq!(mean_fairness(&[500.0, 2000.0], &[500.0, 1000.0, 2000.0]), (1.0 + 0.5 + 1.0) / 3.0);
}

#[test]
fn two_clusters_get_one_stream_each_and_the_mean_decides_a_tie_break() {
    // Three slow receivers and one fast: one stream each, mean fairness 1.
    assert_eq!(best_rates(&[1e5, 1e5, 1e5, 1e6], 1e4, 1e7), Some([1e5, 1e6]));
    // The middle receiver joins the side with more weight: with two at 4e5, (1e5, 4e5) gives
    // 1 + 0.75 + 1 + 1 = 3.75 against 3.5 for (1e5, 3e5) and 3.33 for (3e5, 4e5).
    assert_eq!(best_rates(&[1e5, 3e5, 4e5, 4e5], 1e4, 1e7), Some([1e5, 4e5]));
    assert_eq!(
        best_rates(&[1e5, 1e5, 3e5, 4e5], 1e4, 1e7),
        Some([1e5, 3e5]),
        "the mirror case: 3e5 serves 4e5 at 0.75"
    );
    // The range clamps.
    assert_eq!(best_rates(&[5e6, 8e6], 1e4, 1e6), Some([1e6, 1e6]));
    assert_eq!(best_rates(&[1e3], 1e4, 1e6), Some([1e4, 1e4]));
    assert_eq!(best_rates(&[], 1e4, 1e6), None);
}

/// Brute force: the mean fairness on a fine grid of (a, b) pairs in the range.
fn grid_best(xs: &[f64], lo: f64, hi: f64) -> f64 {
    let steps = 300;
    let at = |k: usize| lo * (hi / lo).powf(k as f64 / steps as f64);
    let mut best = 0.0f64;
    for i in 0..=steps {
        for j in i..=steps {
            best = best.max(mean_fairness(&[at(i), at(j)], xs));
        }
    }
    best
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// The chosen pair is at least as fair as every pair of a fine grid and every pair of the
    /// receivers' own rates: no brute-force pair beats it.
    #[test]
    fn rate_choice_maximises_mean_fairness_against_brute_force(
        xs in proptest::collection::vec(2e4f64..5e6, 1..12),
    ) {
        let (lo, hi) = (5e4, 2e6);
        let [a, b] = best_rates(&xs, lo, hi).unwrap();
        prop_assert!(a <= b && a >= lo && b <= hi);
        let ours = mean_fairness(&[a, b], &xs);
        prop_assert!(ours >= grid_best(&xs, lo, hi) - 1e-9, "grid beats ours {}", ours);
        for &p in &xs {
            for &q in &xs {
                let pair = [p.clamp(lo, hi), q.clamp(lo, hi)];
                prop_assert!(ours >= mean_fairness(&pair, &xs) - 1e-12);
            }
        }
    }
}

#[test]
fn each_receiver_picks_its_fairest_stream() {
    let rates = [250_000.0, 1_000_000.0];
    assert_eq!(own_choice(&rates, 150_000.0), 0);
    assert_eq!(own_choice(&rates, 400_000.0), 0, "0.625 beats 0.4");
    assert_eq!(own_choice(&rates, 500_000.0), 0, "a tie (0.5 each) goes to the lower stream");
    assert_eq!(own_choice(&rates, 600_000.0), 1);
    assert_eq!(own_choice(&rates, 5_000_000.0), 1);
}

#[test]
fn the_sender_forgets_receivers_not_heard_for_memory_rounds() {
    let cfg = IrfmConfig { rate_range_bps: [10_000, 10_000_000], memory_rounds: 2, ..IrfmConfig::default() };
    let mut s = IrfmStreams::new(&cfg);
    let mut rates = [100_000.0, 500_000.0];
    let rep = |id, x: u32| RoundReport { id, value: x, loss: 0.01 };
    s.end_round(&[vec![rep(1, 300_000)], vec![rep(2, 3_000_000)]], &mut rates);
    assert_eq!(rates, [300_000.0, 3_000_000.0]);
    s.end_round(&[vec![rep(1, 250_000)], vec![]], &mut rates);
    assert_eq!(rates, [250_000.0, 3_000_000.0], "receiver 2 still remembered");
    s.end_round(&[vec![rep(1, 250_000)], vec![]], &mut rates);
    assert_eq!(rates, [250_000.0, 250_000.0], "receiver 2 forgotten after two rounds");
}

#[test]
fn isolated_rate_is_the_tfrc_equation_once_a_loss_event_exists() {
    let cfg = IrfmConfig::default();
    let mut r = IrfmReceiverRules::new(&cfg, 1000.0);
    let rtt = Duration::from_millis(100);
    // No loss: twice the received rate (TFRC's slow-start bound).
    assert_eq!(r.isolated_rate(rtt, 300_000.0), 600_000.0);
    use crate::proto::simulcast::ReceiverRules;
    // 1 packet in 20 lost, at 10 ms spacing: losses 200 ms apart, each its own loss event.
    for seq in 0..2000u32 {
        if seq % 20 != 19 {
            r.on_packet(Instant::from_nanos(u64::from(seq) * 10_000_000), seq, rtt);
        }
    }
    let x = r.isolated_rate(rtt, 1e9);
    let p = 1.0 / 20.0;
    let want = 8.0 * crate::estimate::tcp_model::rfc5348_rate_default(1000.0, 0.1, p);
    assert!((x - want).abs() < 0.05 * want, "isolated {x} vs TFRC at p = 5 %: {want}");
    assert_eq!(r.isolated_rate(rtt, 100_000.0), 200_000.0, "at most twice the received rate");
    // A change of stream keeps the path's loss event rate until the new stream has a loss.
    r.on_join();
    assert!((r.isolated_rate(rtt, 1e9) - x).abs() < 1e-6 * x);
}

#[test]
fn config_errors_name_the_key_and_the_registry_builds_irfm() {
    let bad = |f: fn(&mut IrfmConfig), key: &str| {
        let mut c = IrfmConfig::default();
        f(&mut c);
        let e = c.validate().unwrap_err();
        assert!(e.contains(key), "{e}");
    };
    bad(|c| c.rate_range_bps = [5, 4], "rate_range_bps");
    bad(|c| c.initial_rates_bps = vec![1, 2, 3], "initial_rates_bps");
    bad(|c| c.initial_group = 2, "initial_group");
    bad(|c| c.memory_rounds = 0, "memory_rounds");
    bad(|c| c.initial_rtt_ns = 0, "initial_rtt_ns");
    let p = crate::proto::registry::defaults("irfm").unwrap();
    let members = vec![crate::proto::registry::ReceiverSpec::default(); 2];
    let flow = p
        .build(crate::proto::registry::FlowContext {
            app: crate::proto::Application::Bulk,
            packet_size: DataSize::from_bytes(1000),
            start: Instant::ZERO,
            stop: None,
            receivers: 2,
            members: &members,
            rng: &|n| RngStreams::new(1).stream(n),
        })
        .unwrap();
    assert_eq!(flow.receivers.len(), 2);
}
