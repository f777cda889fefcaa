//! DSG's rules on hand-made inputs: classification, intra-stream adjustment by the congested
//! share, inter-stream moves only after persistent states at a band edge, the back-off, config
//! errors and the registry.

use super::rules::{adjust_rate, classify, DsgReceiverRules, Mover, State};
use super::DsgConfig;
use crate::proto::simulcast::{ReceiverRules, RoundMeasure};
use crate::rng::RngStreams;
use crate::time::{Duration, Instant};
use crate::units::DataSize;
use State::{Congested as C, Loaded as L, Unloaded as U};

#[test]
fn receivers_classify_themselves_by_the_loss_thresholds() {
    let cfg = DsgConfig::default();
    assert_eq!(classify(&cfg, 0.0), U);
    assert_eq!(classify(&cfg, 0.0199), U);
    assert_eq!(classify(&cfg, 0.02), L, "2 % is no longer unloaded");
    assert_eq!(classify(&cfg, 0.05), L, "5 % is not yet congested");
    assert_eq!(classify(&cfg, 0.0501), C);
    assert_eq!(classify(&cfg, 1.0), C);
    let strict = DsgConfig { unloaded_below: 0.001, congested_above: 0.01, ..cfg };
    assert_eq!(classify(&strict, 0.005), L);
    assert_eq!(classify(&strict, 0.02), C);
}

#[test]
fn the_congested_share_lowers_and_all_unloaded_raises_the_stream_rate() {
    let cfg = DsgConfig::default();
    let band = [200_000.0, 600_000.0];
    // 1 of 10 congested is not more than 10 %: nine unloaded are 90 %, so the rate rises by 5 % of 600k.
    let one_bad = [C, U, U, U, U, U, U, U, U, U];
    assert_eq!(adjust_rate(&cfg, 400_000.0, band, &one_bad), 430_000.0);
    // 2 of 10 congested: halve, clamped to the band's minimum.
    let two_bad = [C, C, U, U, U, U, U, U, U, U];
    assert_eq!(adjust_rate(&cfg, 500_000.0, band, &two_bad), 250_000.0);
    assert_eq!(adjust_rate(&cfg, 300_000.0, band, &two_bad), 200_000.0);
    // Loaded receivers hold the rate: neither > 10 % congested nor ≥ 90 % unloaded.
    assert_eq!(adjust_rate(&cfg, 400_000.0, band, &[L, U, U, U, U]), 400_000.0);
    // No report: the rate stands; the top of the band is a ceiling.
    assert_eq!(adjust_rate(&cfg, 400_000.0, band, &[]), 400_000.0);
    assert_eq!(adjust_rate(&cfg, 590_000.0, band, &[U]), 600_000.0);
    // A different threshold changes the verdict on the same reports.
    let tolerant = DsgConfig { congested_share: 0.25, ..cfg.clone() };
    assert_eq!(adjust_rate(&tolerant, 500_000.0, band, &two_bad), 500_000.0, "20 % congested, 80 % unloaded: hold");
}

#[test]
fn moves_need_persistent_states_at_the_band_edges() {
    let band = [200_000.0, 600_000.0];
    let mut m = Mover::default();
    // Congested at the bottom twice, then a loaded round resets the count.
    assert_eq!(m.decide(C, 200_000.0, band, 1, 3, 3), None);
    assert_eq!(m.decide(C, 200_000.0, band, 1, 3, 3), None);
    assert_eq!(m.decide(L, 200_000.0, band, 1, 3, 3), None);
    assert_eq!(m.decide(C, 200_000.0, band, 1, 3, 3), None);
    assert_eq!(m.decide(C, 200_000.0, band, 1, 3, 3), None);
    assert_eq!(m.decide(C, 200_000.0, band, 1, 3, 3), Some(0), "third consecutive congested round at the bottom");
    // Congested above the bottom is the intra-stream control's business, not a move.
    let mut m = Mover::default();
    for _ in 0..5 {
        assert_eq!(m.decide(C, 300_000.0, band, 1, 3, 3), None);
    }
    // Unloaded at the top moves up; at the top stream there is nowhere to go.
    let mut m = Mover::default();
    assert_eq!(m.decide(U, 600_000.0, band, 1, 3, 3), None);
    assert_eq!(m.decide(U, 600_000.0, band, 1, 3, 3), None);
    assert_eq!(m.decide(U, 600_000.0, band, 1, 3, 3), Some(2));
    let mut m = Mover::default();
    for _ in 0..5 {
        assert_eq!(m.decide(U, 600_000.0, band, 2, 3, 3), None);
    }
    let mut m = Mover::default();
    for _ in 0..5 {
        assert_eq!(m.decide(C, 200_000.0, band, 0, 3, 3), None, "stream 0 cannot move down");
    }
}

fn round(rules: &mut DsgReceiverRules, t: f64, loss: f64, position: usize, rates: &[f64]) -> Option<usize> {
    let m = RoundMeasure {
        position,
        loss: Some(loss),
        full_round: true,
        received_bps: 0.0,
        rates,
        rtt: Duration::from_millis(50),
    };
    rules.end_round(Instant::from_nanos((t * 1e9) as u64), &m).move_to
}

#[test]
fn a_move_up_undone_quickly_is_blocked_for_longer_each_time() {
    let cfg = DsgConfig::default();
    let mut rules = DsgReceiverRules::new(&cfg);
    let top0 = [200_000.0, 200_000.0, 600_000.0];
    let mut t = 0.0;
    let mut ups = vec![];
    let mut pos = 0;
    // Unloaded at stream 0's top; congested at stream 1's bottom: it goes up and comes back.
    for _ in 0..200 {
        t += 2.0;
        let loss = if pos == 0 { 0.0 } else { 0.2 };
        if let Some(to) = round(&mut rules, t, loss, pos, &top0) {
            if to > pos {
                ups.push(t);
            }
            pos = to;
        }
    }
    assert!(ups.len() >= 3, "{ups:?}");
    let gaps: Vec<f64> = ups.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.windows(2).all(|g| g[1] > g[0]), "gaps between tries grow: {gaps:?}");
    let plain = DsgConfig { backoff: false, ..cfg };
    let mut rules = DsgReceiverRules::new(&plain);
    let (mut t, mut pos, mut moves) = (0.0, 0, 0);
    for _ in 0..200 {
        t += 2.0;
        let loss = if pos == 0 { 0.0 } else { 0.2 };
        if let Some(to) = round(&mut rules, t, loss, pos, &top0) {
            pos = to;
            moves += 1;
        }
    }
    assert!(moves > 2 * ups.len(), "without back-off it oscillates: {moves} moves vs {} tries", ups.len());
}

#[test]
fn config_errors_name_the_key_and_the_registry_builds_dsg() {
    let bad = |f: fn(&mut DsgConfig), key: &str| {
        let mut c = DsgConfig::default();
        f(&mut c);
        let e = c.validate().unwrap_err();
        assert!(e.contains(key), "{e}");
    };
    bad(|c| c.bands_bps = vec![[1, 2]; 6], "bands_bps");
    bad(|c| c.bands_bps[1] = [5, 4], "bands_bps[1]");
    bad(|c| c.initial_rates_bps.pop().map(drop).unwrap_or(()), "initial_rates_bps");
    bad(|c| c.initial_group = 3, "initial_group");
    bad(|c| c.unloaded_below = 0.1, "unloaded_below");
    bad(|c| c.decrease_factor = 1.0, "decrease_factor");
    bad(|c| c.persist_rounds = 0, "persist_rounds");
    bad(|c| c.reports_per_round = 0, "reports_per_round");
    let p = crate::proto::registry::defaults("dsg").unwrap();
    let members = vec![crate::proto::registry::ReceiverSpec::default(); 3];
    let flow = p
        .build(crate::proto::registry::FlowContext {
            app: crate::proto::Application::Bulk,
            packet_size: DataSize::from_bytes(1000),
            start: Instant::ZERO,
            stop: None,
            receivers: 3,
            members: &members,
            rng: &|n| RngStreams::new(1).stream(n),
        })
        .unwrap();
    assert_eq!(flow.receivers.len(), 3);
}
