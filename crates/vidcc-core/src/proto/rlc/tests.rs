use proptest::prelude::*;

use super::receiver::Action;
use super::wire::{RlcHeader, HEADER_BYTES};
use super::*;
use crate::endpoint::{Datagram, Destination, Endpoint, GroupId, Membership, PeerId};
use crate::proto::registry::ReceiverSpec;
use crate::proto::testing::*;
use crate::time::{Duration, Instant};
use crate::units::DataSize;
use crate::wire::WireError;

fn secs(x: f64) -> Instant {
    Instant::ZERO + Duration::from_secs_f64(x)
}

fn sender(cfg: &RlcConfig) -> RlcSender {
    RlcSender::new(cfg, DataSize::from_bytes(1000), Instant::ZERO, None).expect("valid")
}

fn receiver(cfg: &RlcConfig) -> RlcReceiver {
    let mut r = RlcReceiver::new(cfg, &ReceiverSpec::default());
    r.handle_timeout(Instant::ZERO);
    assert_eq!(r.poll_membership(), Some(Membership::Join(GroupId(0))));
    r
}

fn feed(r: &mut RlcReceiver, at: Instant, layer: u8, seq: u32, sp: u32) {
    let h = RlcHeader { layer, layers: 6, seq, sp, burst: false }.emit();
    r.handle_datagram(at, Datagram { from: PeerId::PEER, bytes: h.as_slice(), virtual_payload: 984 }).expect("valid");
}

#[test]
fn layer_rates_double_and_sync_points_nest() {
    let cfg = RlcConfig::default();
    let rates: Vec<u64> = (0..6).map(|j| cfg.layer_rate_bps(j)).collect();
    assert_eq!(rates, [32_000, 32_000, 64_000, 128_000, 256_000, 512_000]);
    // Level L's points are every 2^(L−1) points of level 1; the top level has none.
    let levels: Vec<u8> = (0..=16).map(|k| cfg.sp_level(k)).collect();
    assert_eq!(levels, [0, 1, 2, 1, 3, 1, 2, 1, 4, 1, 2, 1, 3, 1, 2, 1, 5]);
    assert_eq!(cfg.sp_level(32), 5, "capped at n − 1: level 6 cannot join");
}

/// Layer 0 (32 kbit/s, 1000 B: a packet every 250 ms) sends at double rate in the 250 ms before
/// each point, nothing in the 250 ms after it, and its mean rate is unchanged.
#[test]
fn bursts_double_the_rate_before_a_point_and_pause_after_it() {
    let cfg = RlcConfig::default();
    let mut s = sender(&cfg);
    let mut sends: Vec<(u8, Instant, bool)> = Vec::new();
    let mut now = Instant::ZERO;
    while now < secs(64.0) {
        while let Some(t) = s.poll_transmit(now) {
            let h = RlcHeader::parse(t.header.as_slice()).expect("valid");
            assert_eq!(t.to, Destination::Group(GroupId(u32::from(h.layer))));
            assert_eq!(h.sp, s.sp_index(now), "every packet names the latest point");
            sends.push((h.layer, now, h.burst));
        }
        now = s.poll_timeout().expect("sending");
    }
    let base: Vec<f64> = sends.iter().filter(|x| x.0 == 0).map(|x| x.1.as_secs_f64()).collect();
    for k in 1..60u32 {
        let tk = f64::from(k);
        let burst = base.iter().filter(|&&t| t >= tk - 0.25 && t < tk).count();
        let pause = base.iter().filter(|&&t| t >= tk && t < tk + 0.25).count();
        assert_eq!(pause, 0, "layer 0 sends nothing in the pause after point {k}");
        assert!(burst >= 2, "layer 0 sends at double rate before point {k}: {burst} packets");
    }
    let rate = base.len() as f64 * 8000.0 / 64.0;
    assert!((rate - 32_000.0).abs() / 32_000.0 < 0.03, "mean rate of layer 0 {rate}");
    // Layer 3 (128 kbit/s) bursts only before points of level ≥ 4 (k a multiple of 8).
    let l3 = |a: f64, b: f64| sends.iter().filter(|x| x.0 == 3 && x.1 >= secs(a) && x.1 < secs(b)).count();
    assert_eq!(l3(16.0, 16.25), 0, "pause after point 16");
    assert!(l3(12.0, 12.25) >= 3, "no pause after point 12 (level 3): {}", l3(12.0, 12.25));
    assert!(sends.iter().filter(|x| x.0 == 3 && x.2).all(|x| s.sp_index(x.1) % 8 == 7));
}

/// A receiver behind a lossy path (losses drawn per packet): every join happens on the first
/// base-layer packet of a synchronisation point of its level, with no loss since that level's
/// previous point; and it does join and drop (so the check has something to check).
#[test]
fn receivers_join_only_at_synchronisation_points_of_their_level() {
    let cfg = RlcConfig::default();
    let one_way = millis(30);
    // About 1 packet in 150 lost, on a fixed pseudo-random pattern.
    let lose = |_i: usize, seq: u64| seq.wrapping_mul(0x9e37_79b9_7f4a_7c15) % 150 == 7;
    let mut f = Fanout::new(sender(&cfg), vec![receiver_unstarted(&cfg)], &[one_way], lose);
    f.run_until(secs(300.0));
    let actions = f.rs[0].actions().to_vec();
    let joins: Vec<_> = actions
        .iter()
        .filter_map(|a| if let Action::Join { at, sp, level } = a { Some((*at, *sp, *level)) } else { None })
        .collect();
    let drops = actions.iter().filter(|a| matches!(a, Action::Drop { .. })).count();
    assert!(joins.len() >= 10 && drops >= 5, "joins {} drops {drops}", joins.len());
    let b = Duration::from_nanos(cfg.burst_ns);
    for &(at, sp, level) in &joins {
        let tk = f.s.sp_time(sp);
        // The first base packet after the pause: sent at T_k + burst, arriving one way later.
        assert_eq!(at, tk + b + one_way, "join to level {level} at {at}, point {sp} at {tk}");
        assert!(level - 1 <= cfg.sp_level(sp), "point {sp} is not one of level {}", level - 1);
        // No loss (acted on or ignored) since the previous point of level − 1.
        let prev = f.s.sp_time(sp - (1u32 << (level - 2))) + b + one_way;
        let lossy = actions.iter().any(|a| match a {
            Action::Drop { at: t, .. } | Action::Ignored { at: t } => *t > prev && *t <= at,
            Action::Join { .. } => false,
        });
        assert!(!lossy, "join at {at} after a loss since {prev}");
    }
}

fn receiver_unstarted(cfg: &RlcConfig) -> RlcReceiver {
    RlcReceiver::new(cfg, &ReceiverSpec::default())
}

/// At level 3, a loss drops layer 2 and starts a 1 s deaf period: a loss inside it changes
/// nothing, one after it drops layer 1.
#[test]
fn after_a_loss_further_losses_are_ignored_for_the_deaf_period() {
    let cfg = RlcConfig::default();
    let mut r = receiver(&cfg);
    feed(&mut r, secs(0.1), 0, 0, 0);
    feed(&mut r, secs(1.3), 0, 1, 1); // point 1 (level 1), clean since point 0: join layer 1
    assert_eq!((r.level(), r.poll_membership()), (2, Some(Membership::Join(GroupId(1)))));
    feed(&mut r, secs(1.4), 1, 0, 1);
    feed(&mut r, secs(2.3), 0, 2, 2); // point 2 (level 2): join layer 2
    assert_eq!((r.level(), r.poll_membership()), (3, Some(Membership::Join(GroupId(2)))));
    feed(&mut r, secs(2.4), 2, 0, 2);
    feed(&mut r, secs(3.0), 1, 5, 2); // layer 1 skipped 1..4: a loss
    assert_eq!((r.level(), r.poll_membership()), (2, Some(Membership::Leave(GroupId(2)))));
    feed(&mut r, secs(3.5), 0, 9, 3); // layer 0 skipped 3..8: inside the deaf period
    assert_eq!((r.level(), r.poll_membership()), (2, None));
    feed(&mut r, secs(3.9), 1, 9, 3); // another gap at 3.9 s < 4.0 s: still deaf
    assert_eq!(r.level(), 2);
    feed(&mut r, secs(4.1), 0, 12, 4); // gap after the deaf period ended: drop again
    assert_eq!((r.level(), r.poll_membership()), (1, Some(Membership::Leave(GroupId(1)))));
    let kinds: Vec<_> = r.actions().iter().map(std::mem::discriminant).collect();
    let drop = std::mem::discriminant(&Action::Drop { at: Instant::ZERO, level: 0, deaf_until: Instant::ZERO });
    let ignored = std::mem::discriminant(&Action::Ignored { at: Instant::ZERO });
    assert_eq!(kinds[2..], [drop, ignored, ignored, drop]);
    // Point 4 came with a loss: no join there; point 5 follows a loss-free interval: join.
    assert!(!r.actions().iter().any(|a| matches!(a, Action::Join { sp: 4, .. })));
    feed(&mut r, secs(5.3), 0, 13, 5);
    assert_eq!((r.level(), r.poll_membership()), (2, Some(Membership::Join(GroupId(1)))));
}

#[test]
fn header_vectors_and_rejections() {
    let h = RlcHeader { layer: 2, layers: 6, seq: 0x0102_0304, sp: 7, burst: true };
    let b = h.emit();
    assert_eq!(b.as_slice(), [1, b'R', 2, 6, 1, 2, 3, 4, 0, 0, 0, 7, 1, 0, 0, 0]);
    assert_eq!(RlcHeader::parse(b.as_slice()), Ok(h));
    let mutate = |i: usize, v: u8| {
        let mut x = b.as_slice().to_vec();
        x[i] = v;
        RlcHeader::parse(&x)
    };
    assert_eq!(mutate(0, 2), Err(WireError::BadVersion(2)));
    assert_eq!(mutate(1, b'X'), Err(WireError::UnknownType(b'X')));
    assert!(matches!(mutate(2, 6), Err(WireError::Inconsistent(_))), "layer beyond the count");
    assert!(matches!(mutate(3, 0), Err(WireError::Inconsistent(_))));
    assert!(matches!(mutate(3, 17), Err(WireError::Inconsistent(_))));
    assert!(matches!(mutate(12, 2), Err(WireError::Inconsistent(_))), "unknown flag");
    assert!(matches!(mutate(15, 1), Err(WireError::Inconsistent(_))), "reserved byte");
    assert!(matches!(RlcHeader::parse(&b.as_slice()[..15]), Err(WireError::Truncated { .. })));
    assert_eq!(HEADER_BYTES, 16);
}

#[test]
fn bad_configurations_are_refused_by_name() {
    let bad = |c: RlcConfig, key: &str| {
        let e = c.validate().expect_err("invalid");
        assert!(e.starts_with(key), "{e}");
    };
    bad(RlcConfig { layers: 0, ..RlcConfig::default() }, "layers");
    bad(RlcConfig { layers: 17, ..RlcConfig::default() }, "layers");
    bad(RlcConfig { base_rate_bps: 0, ..RlcConfig::default() }, "base_rate_bps");
    bad(RlcConfig { burst_ns: 600_000_000, ..RlcConfig::default() }, "burst_ns");
    bad(RlcConfig { sp_interval_ns: 0, ..RlcConfig::default() }, "sp_interval_ns");
    assert!(RlcSender::new(&RlcConfig::default(), DataSize::from_bytes(16), Instant::ZERO, None).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parsers_never_panic_and_endpoints_count_garbage((bytes, extra) in garbage()) {
        let _ = RlcHeader::parse(&bytes);
        let cfg = RlcConfig::default();
        let mut s = sender(&cfg);
        feed_garbage(&mut s, secs(1.0), &bytes, extra, Rejections::Counted)?;
        let mut r = receiver(&cfg);
        feed_garbage(&mut r, secs(1.0), &bytes, extra, Rejections::Counted)?;
    }

    #[test]
    fn headers_round_trip(layers in 1u8..=16, layer: u8, seq: u32, sp: u32, burst: bool) {
        let h = RlcHeader { layer: layer % layers, layers, seq, sp, burst };
        prop_assert_eq!(RlcHeader::parse(h.emit().as_slice()), Ok(h));
    }
}
