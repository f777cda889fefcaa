use proptest::prelude::*;

use super::wire::PlmData;
use super::*;
use crate::endpoint::{Datagram, Destination, Event, GroupId, Membership, PeerId};
use crate::proto::registry::ReceiverSpec;
use crate::proto::testing::{feed_garbage, garbage, Rejections};
use crate::time::{Duration, Instant};
use crate::DataSize;

const PKT: u64 = 1000;

fn at(ms: u64) -> Instant {
    Instant::ZERO + Duration::from_millis(ms)
}

fn receiver(config: &PlmConfig) -> PlmReceiver {
    let mut r = PlmReceiver::new(config, &ReceiverSpec::default());
    r.handle_timeout(at(0));
    r
}

fn memberships(r: &mut PlmReceiver) -> Vec<Membership> {
    std::iter::from_fn(|| r.poll_membership()).collect()
}

fn arrive(r: &mut PlmReceiver, now: Instant, layer: u16, seq: u32, first_of_pair: bool) {
    let h = PlmData { layer, seq, first_of_pair }.emit();
    let d = Datagram { from: PeerId::PEER, bytes: h.as_slice(), virtual_payload: (PKT - 8) as u32 };
    r.handle_datagram(now, d).expect("well-formed");
}

/// A pair on `layer` whose second packet arrives so that the estimate is `bps`.
fn pair(r: &mut PlmReceiver, now: Instant, layer: u16, seq: u32, bps: u64) {
    arrive(r, now, layer, seq, true);
    let gap = Duration::from_nanos(PKT * 8 * 1_000_000_000 / bps);
    arrive(r, now + gap, layer, seq + 1, false);
}

#[test]
fn the_fitting_subscription_is_the_last_cumulative_rate_strictly_below_the_estimate() {
    let r = receiver(&PlmConfig::default());
    assert_eq!(r.fitting(49_999.0), 0);
    assert_eq!(r.fitting(50_000.0), 0);
    assert_eq!(r.fitting(50_001.0), 1);
    assert_eq!(r.fitting(333_000.0), 6);
    assert_eq!(r.fitting(10e9), 20);
}

#[test]
fn adds_layers_to_the_period_minimum_and_drops_at_once_on_a_low_estimate() {
    let cfg = PlmConfig::default();
    let mut r = receiver(&cfg);
    assert_eq!(memberships(&mut r), [Membership::Join(GroupId(0))]);
    // Three estimates within C of the first, the lowest 520 kbit/s; the period closes with the
    // first estimate C after the first one.
    for (k, (ms, bps)) in [(100, 900_000), (400, 520_000), (700, 800_000), (1200, 700_000)].into_iter().enumerate() {
        pair(&mut r, at(ms), 0, 2 * k as u32, bps);
    }
    // 10 layers of 50 kbit/s = 500 kbit/s < 520 kbit/s.
    assert_eq!(r.subscription(), 10);
    let joins = memberships(&mut r);
    assert_eq!(joins, (1..10).map(|g| Membership::Join(GroupId(g))).collect::<Vec<_>>());
    let events: Vec<Event> = std::iter::from_fn(|| r.poll_event()).collect();
    assert!(events.contains(&Event::RateChanged { rate: crate::DataRate::from_bps(520_000) }), "{events:?}");
    // One estimate below the subscription drops layers at once, without waiting for a period.
    pair(&mut r, at(1300), 3, 0, 260_000);
    assert_eq!(r.subscription(), 5);
    assert_eq!(memberships(&mut r), (5..10).rev().map(|g| Membership::Leave(GroupId(g))).collect::<Vec<_>>());
    // The new period ends C later (at 2.33 s) but needs min_estimates: the first two
    // estimates after its end do not add layers yet, the third does.
    pair(&mut r, at(2400), 0, 10, 900_000);
    pair(&mut r, at(2500), 0, 12, 900_000);
    assert_eq!(r.subscription(), 5);
    pair(&mut r, at(2600), 0, 14, 900_000);
    assert_eq!(r.subscription(), 17);
}

#[test]
fn a_check_period_without_a_pair_drops_a_layer_and_a_lost_pair_gives_no_estimate() {
    let cfg = PlmConfig { loss_threshold: 0.0, ..PlmConfig::default() };
    let mut r = receiver(&cfg);
    for (k, ms) in [100, 400, 700, 1200].into_iter().enumerate() {
        pair(&mut r, at(ms), 0, 2 * k as u32, 400_000);
    }
    assert_eq!(r.subscription(), 7);
    // Pairs broken by a loss (the second packet missing) measure nothing. The last estimate
    // came at 1.22 s (a 20 ms pair gap).
    arrive(&mut r, at(1300), 0, 8, true);
    arrive(&mut r, at(1400), 0, 10, true);
    assert_eq!(r.poll_timeout(), Some(at(2220)));
    r.handle_timeout(at(2220));
    assert_eq!(r.subscription(), 6);
    r.handle_timeout(at(3220));
    assert_eq!(r.subscription(), 5);
    // With the rule off, silence keeps the subscription.
    let mut quiet = receiver(&PlmConfig { drop_without_pairs: false, ..cfg });
    assert_eq!(quiet.poll_timeout(), None);
    quiet.handle_timeout(at(5000));
    assert_eq!(quiet.subscription(), 1);
}

#[test]
fn heavy_loss_drops_a_layer_at_most_every_half_second_and_all_layers_rejoin_after_30s() {
    let cfg = PlmConfig { drop_without_pairs: false, ..PlmConfig::default() };
    let mut r = receiver(&cfg);
    for (k, ms) in [100, 400, 700, 1200].into_iter().enumerate() {
        pair(&mut r, at(ms), 0, 2 * k as u32, 200_000);
    }
    assert_eq!(r.subscription(), 3);
    // Every other packet of layer 0 lost (50 %): unpaired packets, no estimates.
    let mut seq = 8;
    let mut drops = Vec::new();
    for ms in (1300..2300).step_by(10) {
        arrive(&mut r, at(ms), 0, seq, false);
        seq += 2;
        if r.subscription() < 3 - drops.len() {
            drops.push(ms);
        }
    }
    assert!(drops.len() >= 2, "{drops:?}");
    assert!(drops.windows(2).all(|w| w[1] - w[0] > 500), "{drops:?}");
    // Down to nothing: the base layer is joined again 30 s later.
    let mut r = receiver(&cfg);
    memberships(&mut r);
    pair(&mut r, at(100), 0, 0, 10_000);
    assert_eq!(r.subscription(), 0);
    assert_eq!(memberships(&mut r), [Membership::Leave(GroupId(0))]);
    // The estimate came with the pair's second packet, 800 ms after its first (10 kbit/s).
    assert_eq!(r.poll_timeout(), Some(at(30_900)));
    r.handle_timeout(at(30_900));
    assert_eq!((r.subscription(), memberships(&mut r)), (1, vec![Membership::Join(GroupId(0))]));
}

#[test]
fn the_sender_sends_each_layer_as_back_to_back_pairs_at_its_rate() {
    let cfg = PlmConfig { layer_rates_bps: vec![80_000, 160_000], jitter: false, ..PlmConfig::default() };
    let sender_of = |cfg: &PlmConfig| {
        let members = [ReceiverSpec::default()];
        let rng = |n: &str| crate::rng::RngStreams::new(1).stream(n);
        let ctx = FlowContext {
            app: crate::proto::Application::Bulk,
            packet_size: DataSize::from_bytes(PKT),
            start: Instant::ZERO,
            stop: None,
            receivers: 1,
            members: &members,
            rng: &rng,
        };
        build(cfg, ctx).expect("builds").sender
    };
    let mut s = sender_of(&cfg);
    let mut sent = Vec::new();
    let mut now = Instant::ZERO;
    while now < at(1000) {
        while let Some(t) = s.poll_transmit(now) {
            let Destination::Group(g) = t.to else { panic!("to a group") };
            let h = PlmData::parse(t.header.as_slice(), 2).unwrap();
            assert_eq!((g.0, t.wire_size().as_bytes()), (h.layer as u32, PKT));
            sent.push((now, h));
        }
        now = s.poll_timeout().expect("sends forever");
    }
    // Layer 0: 80 kbit/s in pairs of 1000 B = a pair every 200 ms; layer 1 every 100 ms.
    let layer = |l| sent.iter().filter(|(_, h)| h.layer == l).collect::<Vec<_>>();
    assert_eq!(layer(0).len(), 10);
    assert_eq!(layer(1).len(), 20);
    for l in 0..2 {
        for p in layer(l).chunks(2) {
            assert_eq!(p[0].0, p[1].0, "a pair leaves at one instant");
            assert!(p[0].1.first_of_pair && !p[1].1.first_of_pair);
            assert_eq!(p[1].1.seq, p[0].1.seq + 1);
        }
    }
    // With jitter the mean rate stays, the spacing varies.
    let mut s = sender_of(&PlmConfig { jitter: true, ..cfg.clone() });
    let (mut n, mut now, mut gaps) = (0, Instant::ZERO, std::collections::BTreeSet::new());
    let mut last = None;
    while now < at(100_000) {
        while let Some(t) = s.poll_transmit(now) {
            if t.to == Destination::Group(GroupId(0)) {
                n += 1;
                if let Some(prev) = last.replace(now) {
                    gaps.insert(now.saturating_since(prev).as_nanos() / 1_000_000);
                }
            }
        }
        now = s.poll_timeout().unwrap();
    }
    assert!((n as f64 / 1000.0 - 1.0).abs() < 0.05, "{n} packets of layer 0 in 100 s");
    assert!(gaps.len() > 50, "spacings {gaps:?}");
}

#[test]
fn bad_configurations_are_refused_with_the_key() {
    let members = [ReceiverSpec::default()];
    let rng = |n: &str| crate::rng::RngStreams::new(1).stream(n);
    for (cfg, key) in [
        (PlmConfig { layer_rates_bps: vec![], ..PlmConfig::default() }, "layer_rates"),
        (PlmConfig { layer_rates_bps: vec![1, 0], ..PlmConfig::default() }, "layer_rates[1]"),
        (PlmConfig { burst: 1, ..PlmConfig::default() }, "burst"),
        (PlmConfig { check_period_ns: 0, ..PlmConfig::default() }, "check_period"),
        (PlmConfig { loss_threshold: 1.5, ..PlmConfig::default() }, "loss_threshold"),
    ] {
        let ctx = FlowContext {
            app: crate::proto::Application::Bulk,
            packet_size: DataSize::from_bytes(PKT),
            start: Instant::ZERO,
            stop: None,
            receivers: 1,
            members: &members,
            rng: &rng,
        };
        let err = build(&cfg, ctx).err().expect("refused");
        assert!(err.contains(key), "{err}");
    }
}

proptest! {
    #[test]
    fn the_receiver_survives_garbage((bytes, extra) in garbage(), layer_count in 1usize..4) {
        let cfg = PlmConfig { layer_rates_bps: vec![100_000; layer_count], ..PlmConfig::default() };
        let mut r = receiver(&cfg);
        feed_garbage(&mut r, at(10), &bytes, extra, Rejections::Counted)?;
    }
}
