use proptest::prelude::*;

use super::config::{level_for, resize};
use super::wire::{DataHeader, Pair, Report, MAX_LAYERS, REPORT_BYTES};
use super::*;
use crate::endpoint::{Endpoint, Event};
use crate::proto::registry::ReceiverSpec;
use crate::proto::testing::*;
use crate::rng::RngStreams;
use crate::time::{Duration, Instant};
use crate::units::DataSize;
use crate::wire::WireError;

fn secs(x: f64) -> Instant {
    Instant::ZERO + Duration::from_secs_f64(x)
}

fn sender(cfg: &MldaConfig) -> MldaSender {
    MldaSender::new(cfg, DataSize::from_bytes(1000), Instant::ZERO, None).expect("valid")
}

fn receiver(cfg: &MldaConfig, id: u32) -> MldaReceiver {
    MldaReceiver::new(cfg, id, 1000.0, &ReceiverSpec::default(), RngStreams::new(7).stream(&format!("r{id}")))
}

#[test]
fn layers_are_resized_to_the_reports_quantiles() {
    let k = |v: Vec<f64>| {
        v.iter()
            .scan(0.0, |s, x| {
                *s += x;
                Some(*s)
            })
            .collect::<Vec<f64>>()
    };
    // Two receivers, five layers: levels 1–4 at the lower report (each a layer's minimum above
    // the one below), level 5 at the higher.
    let r = resize(&[3.5e6, 0.8e6], 5, 16e3, 10e6);
    assert_eq!(k(r.clone()), [0.8e6, 0.816e6, 0.832e6, 0.848e6, 3.5e6]);
    assert!(r.iter().all(|&x| x >= 16e3));
    // Five receivers spread: one level each.
    assert_eq!(k(resize(&[5e5, 1e5, 4e5, 2e5, 3e5], 5, 16e3, 10e6)), [1e5, 2e5, 3e5, 4e5, 5e5]);
    // The ceiling holds every layer at its minimum below it.
    assert_eq!(k(resize(&[20e6], 3, 16e3, 1e6)), [968e3, 984e3, 1e6]);
    assert!(resize(&[], 3, 16e3, 1e6).is_empty(), "no report: keep the rates");
    assert_eq!(level_for(0.82e6, &[0.8e6, 16e3, 16e3]), 2);
    assert_eq!(level_for(1.0, &[0.8e6, 16e3]), 1, "never below the base layer");
}

/// Under loss the rate falls to max(r·(1 − √l), r_TCP); without loss it climbs, and the
/// receiver's layers follow it.
#[test]
fn rates_follow_lda_plus_and_layers_follow_the_rate() {
    let cfg = MldaConfig::default();
    let run = |lose: fn(usize, u64) -> bool| {
        let mut f = Fanout::new(sender(&cfg), vec![receiver(&cfg, 0)], &[millis(30)], lose);
        f.run_until(secs(30.0));
        (f.rs[0].rate().expect("rate"), f.rs[0].level(), f.s.rates().to_vec())
    };
    let (clean, clean_level, rates) = run(|_, _| false);
    // 10 kbit/s doubling each second up to TCP's 8·P·T/RTT² (≈ 2.2 Mbit/s per update at 60 ms).
    assert!(clean > 5e6, "loss-free rate {clean}");
    assert!(rates.iter().sum::<f64>() > 4e6, "the sender follows the reports: {rates:?}");
    assert!(clean_level >= 1);
    let (lossy, _, _) = run(|_, seq| seq % 10 == 3);
    // About 10 % loss: r_TCP(0.1, 60 ms) ≈ 236 kbit/s holds the rate up (a halving per loss
    // interval would reach the 16 kbit/s floor), far below the loss-free rate.
    assert!(lossy > 0.1e6 && lossy < 0.5e6, "rate under 10 % loss {lossy}");
}

/// Feedback per round stays bounded: 1,000 receivers with similar rates (all at the session's
/// ceiling) send a handful of reports per 5 s round with suppression, nearly all of them without.
#[test]
fn feedback_per_round_stays_bounded_for_a_thousand_receivers() {
    let per_round = |suppression: bool| {
        let cfg = MldaConfig {
            initial_rates_bps: vec![64_000, 64_000],
            max_rate_bps: 200_000,
            suppression,
            ..MldaConfig::default()
        };
        let n = 1000;
        let one_way: Vec<Duration> = (0..n).map(|i| millis(10 + (i as u64 * 37) % 50)).collect();
        let rs = (0..n).map(|i| receiver(&cfg, i as u32)).collect();
        let mut f = Fanout::new(sender(&cfg), rs, &one_way, |_, _| false);
        f.run_until(secs(45.0));
        let mut rounds = [0u32; 9];
        for (t, e) in &f.events {
            if matches!(e, Event::FeedbackReceived { .. }) {
                rounds[(t.as_secs_f64() / 5.0) as usize % 9] += 1;
            }
        }
        // Rounds 3..8 (15–40 s): every receiver at the 200 kbit/s ceiling by then.
        let late = &rounds[3..8];
        (late.iter().sum::<u32>() as f64 / late.len() as f64, *late.iter().min().expect("rounds"))
    };
    let (with, least) = per_round(true);
    let (without, _) = per_round(false);
    eprintln!("mlda, 1000 receivers: {with:.1} reports per round with suppression, {without:.1} without");
    assert!(least >= 1, "the sender hears someone every round");
    assert!(with <= 20.0, "with suppression: {with} per round");
    // (A report still pending when the next round's first packet arrives is replaced by that
    // round's: a few per round.)
    assert!(without >= 950.0, "without suppression (nearly) every receiver reports: {without}");
}

#[test]
fn header_vectors_and_rejections() {
    let mut rates_bps = [0; MAX_LAYERS];
    rates_bps[..2].copy_from_slice(&[64_000, 128_000]);
    let h = DataHeader {
        layer: 1,
        layers: 2,
        pair: Pair::First,
        seq: 5,
        timestamp_us: 6,
        round: 7,
        echo: Some((3, 40_000)),
        heard: Some((2, 900_000)),
        rates_bps,
    };
    let b = h.emit();
    assert_eq!(b.len(), 40);
    assert_eq!(&b.as_slice()[..8], [1, b'M', 1, 2, 1 | 4 | 8, 2, 0, 0]);
    assert_eq!(DataHeader::parse(b.as_slice()), Ok(h));
    let mutate = |i: usize, v: u8| {
        let mut x = b.as_slice().to_vec();
        x[i] = v;
        DataHeader::parse(&x)
    };
    assert_eq!(mutate(0, 9), Err(WireError::BadVersion(9)));
    assert_eq!(mutate(1, b'm'), Err(WireError::UnknownType(b'm')));
    assert!(matches!(mutate(2, 2), Err(WireError::Inconsistent(_))), "layer beyond count");
    assert!(matches!(mutate(3, 9), Err(WireError::Inconsistent(_))), "nine layers");
    assert!(matches!(mutate(4, 3 | 4 | 8), Err(WireError::Inconsistent(_))), "first and second");
    assert!(matches!(mutate(4, 16 | 1 | 4 | 8), Err(WireError::Inconsistent(_))), "unknown flag");
    assert!(matches!(mutate(4, 1 | 8), Err(WireError::Inconsistent(_))), "echo fields without the flag");
    assert!(matches!(mutate(5, 3), Err(WireError::Inconsistent(_))), "heard level beyond count");
    assert!(matches!(DataHeader::parse(&b.as_slice()[..39]), Err(WireError::Truncated { .. })));
    let mut zero = b.as_slice().to_vec();
    zero[32..36].fill(0);
    assert!(matches!(DataHeader::parse(&zero), Err(WireError::Inconsistent(_))), "zero layer rate");

    let rep = Report { level: 3, rate_bps: 500_000, loss_ppb: 10_000_000, timestamp_echo_us: 9, held_us: 2 };
    let rb = rep.emit();
    assert_eq!(rb.len(), REPORT_BYTES);
    assert_eq!(Report::parse(rb.as_slice()), Ok(rep));
    let bad = |i: usize, v: u8| {
        let mut x = rb.as_slice().to_vec();
        x[i] = v;
        Report::parse(&x)
    };
    assert!(matches!(bad(2, 0), Err(WireError::Inconsistent(_))), "level 0");
    assert!(matches!(bad(3, 1), Err(WireError::Inconsistent(_))), "reserved");
    assert!(matches!(bad(8, 0xff), Err(WireError::Inconsistent(_))), "loss above 1");
    assert!(matches!(Report::parse(&[rb.as_slice(), &[0]].concat()), Err(WireError::Inconsistent(_))));
}

#[test]
fn bad_configurations_are_refused_by_name() {
    let bad = |c: MldaConfig, key: &str| {
        let e = c.validate().expect_err("invalid");
        assert!(e.starts_with(key), "{e}");
    };
    let d = MldaConfig::default;
    bad(MldaConfig { initial_rates_bps: vec![], ..d() }, "initial_rates_bps");
    bad(MldaConfig { initial_rates_bps: vec![1; 9], ..d() }, "initial_rates_bps");
    bad(MldaConfig { initial_rates_bps: vec![1, 0], ..d() }, "initial_rates_bps[1]");
    bad(MldaConfig { max_rate_bps: 1000, ..d() }, "max_rate_bps");
    bad(MldaConfig { round_ns: 0, ..d() }, "round_ns");
    bad(MldaConfig { suppression_similarity: 2.0, ..d() }, "suppression_similarity");
    bad(MldaConfig { pair_weight: 0.0, ..d() }, "pair_weight");
    bad(MldaConfig { report_rounds: 0, ..d() }, "report_rounds");
    assert!(MldaSender::new(&d(), DataSize::from_bytes(52), Instant::ZERO, None).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_and_endpoints_count_garbage((bytes, extra) in garbage()) {
        let _ = DataHeader::parse(&bytes);
        let _ = Report::parse(&bytes);
        let cfg = MldaConfig::default();
        let mut s = sender(&cfg);
        feed_garbage(&mut s, secs(1.0), &bytes, extra, Rejections::Counted)?;
        let mut r = receiver(&cfg, 0);
        r.handle_timeout(Instant::ZERO);
        feed_garbage(&mut r, secs(1.0), &bytes, extra, Rejections::Counted)?;
    }

    #[test]
    fn data_headers_round_trip(layers in 1u8..=8, layer: u8, pair in 0u8..3, seq: u32, ts: u32, round: u32,
                               echo in proptest::option::of((any::<u32>(), any::<u32>())),
                               heard in proptest::option::of((1u8..=8, any::<u32>())),
                               rates in proptest::array::uniform8(1u32..)) {
        let pair = [Pair::None, Pair::First, Pair::Second][pair as usize];
        let heard = heard.map(|(l, r)| (1 + (l - 1) % layers, r));
        let h = DataHeader { layer: layer % layers, layers, pair, seq, timestamp_us: ts, round, echo, heard, rates_bps: rates };
        let mut want = h;
        want.rates_bps[layers as usize..].fill(0);
        prop_assert_eq!(DataHeader::parse(h.emit().as_slice()), Ok(want));
    }
}
