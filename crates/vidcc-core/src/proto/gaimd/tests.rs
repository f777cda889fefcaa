//! GAIMD tests: the increase and decrease rules on bare state with explicit time, a sender and
//! sink over the shared test pipe, and the TCP property test run with GAIMD hooks.

use proptest::prelude::*;

use super::*;
use crate::endpoint::{Endpoint, Event};
use crate::proto::tcp::tests::{ack, drive, growth_per_rtt, CLOCK};
use crate::proto::tcp::{TcpConfig, TcpReceiver, TcpSender};
use crate::proto::testing::{events, feed_garbage, garbage, ms, net_ops, sent_seqs, Pipe, Rejections};
use crate::units::DataSize;
use crate::Duration;

const PKT: u32 = 1000;

fn sender(alpha: f64, beta: f64) -> TcpSender<Gaimd> {
    TcpSender::new(Gaimd::new(alpha, beta), &TcpConfig::default(), PKT, Instant::ZERO, None)
}

#[test]
fn friendly_alpha_follows_yang_and_lam() {
    // 4(1 − β²)/3: β = 0.875 → 4·(1 − 0.765625)/3 = 4·0.234375/3 = 0.3125; β = 0.5 → 4·0.75/3 = 1 (TCP)
    assert_eq!(friendly_alpha(0.875), 0.3125);
    assert_eq!(friendly_alpha(0.5), 1.0);
    let c = GaimdConfig::default();
    assert_eq!((c.alpha(), c.beta), (0.3125, 0.875));
    assert_eq!(GaimdConfig { alpha: Some(0.31), ..c.clone() }.alpha(), 0.31);
    assert_eq!(c.tcp(), TcpConfig::default());
}

#[test]
fn congestion_avoidance_adds_alpha_segments_per_rtt() {
    let mut s = sender(0.3125, 0.875);
    s.set_window(10.0, 5.0);
    // ⌊W⌋ ACKs of α/W each: ⌊W⌋/W·α ≤ α = 0.3125; with W ∈ [10, 12.5), ⌊W⌋/W > 0.8 → > 0.25
    let growth = growth_per_rtt(&mut s, 8);
    assert!(growth.iter().all(|&g| g > 0.25 && g <= 0.3125), "growth per RTT {growth:?}");
    // Eight RTTs of ≈ 0.3 segments: 10 → ≈ 12.4 (TCP would be at ≈ 18).
    assert!(s.cwnd() > 12.0 && s.cwnd() < 12.5, "cwnd {}", s.cwnd());
}

#[test]
fn slow_start_is_tcps() {
    let mut s = sender(0.3125, 0.875);
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 2);
    ack(&mut s, ms(100), 1, ms(0));
    ack(&mut s, ms(100), 2, ms(0));
    // Below ssthresh (∞): +1 per ACK, 2 → 4
    assert_eq!(s.cwnd(), 4.0);
}

#[test]
fn loss_event_multiplies_the_window_by_beta() {
    let mut s = sender(0.3125, 0.875);
    s.set_window(16.0, 8.0);
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 16);
    // Segment 0 acknowledged (releases 16 and 17: cwnd 16 + 0.3125/16), 1 lost, 3 duplicates.
    ack(&mut s, ms(100), 1, ms(0));
    assert_eq!(sent_seqs(&mut s, ms(100)).len(), 1);
    for _ in 0..3 {
        ack(&mut s, ms(101), 1, ms(1));
    }
    // W = cwnd without inflation = 16 + 0.3125/16 → ssthresh = cwnd = 0.875·W ≈ 14.017 (TCP:
    // ⌊W/2⌋ = 8), not rounded.
    let w = 16.0 + 0.3125 / 16.0;
    assert_eq!(s.ssthresh(), 0.875 * w);
    assert_eq!(s.cwnd(), 0.875 * w);
    // The hole is retransmitted; ⌊14.017 + 3⌋ = 17 lets segment 17 out too (1 + 17 − 1).
    assert_eq!(sent_seqs(&mut s, ms(101)), vec![(1, true), (17, false)]);
    assert_eq!(events(&mut s), vec![Event::LossEvent, Event::WindowChanged { cwnd: DataSize::from_bytes(14_000) }]);
}

#[test]
fn small_windows_keep_two_segments_and_are_not_rounded() {
    let g = Gaimd::new(0.3125, 0.875);
    // 0.875·2 = 1.75 → floor of 2 segments; 0.875·3 = 2.625 stays fractional (⌊⌋ would be 2 = ×0.67)
    assert_eq!(g.window_after_loss(2.0), 2.0);
    assert_eq!(g.window_after_loss(3.0), 2.625);
    assert_eq!(g.window_after_loss(0.0), 2.0);
}

#[test]
fn timeout_sets_ssthresh_to_half_the_window_and_cwnd_to_one() {
    let mut s = sender(0.3125, 0.875);
    s.set_window(8.0, 4.0);
    assert_eq!(sent_seqs(&mut s, ms(0)).len(), 8);
    // No ACK at all: the initial RTO of 1 s fires; cwnd 8 → ssthresh 8/2 = 4 (TCP's rule,
    // the default), cwnd 1.
    assert_eq!(s.poll_timeout(), Some(ms(1000)));
    s.handle_timeout(ms(1000));
    assert_eq!((s.ssthresh(), s.cwnd()), (4.0, 1.0));
    assert_eq!(events(&mut s), vec![Event::Timeout, Event::WindowChanged { cwnd: DataSize::from_bytes(1000) }]);
    assert_eq!(sent_seqs(&mut s, ms(1000)), vec![(0, true)]);
    // timeout_ssthresh = "beta": 0.875·8 = 7.
    let cfg = GaimdConfig { timeout_ssthresh: TimeoutSsthresh::Beta, ..GaimdConfig::default() };
    let cc = Gaimd::new(cfg.alpha(), cfg.beta).with_timeout_beta(cfg.timeout_beta());
    let mut s = TcpSender::new(cc, &TcpConfig::default(), PKT, Instant::ZERO, None);
    s.set_window(8.0, 4.0);
    sent_seqs(&mut s, ms(0));
    s.handle_timeout(ms(1000));
    assert_eq!((s.ssthresh(), s.cwnd()), (7.0, 1.0));
}

#[test]
fn pair_carries_bulk_only_and_validates() {
    let c = GaimdConfig::default();
    let size = DataSize::from_bytes(1000);
    assert!(pair(&c, Application::Bulk, size, Instant::ZERO, None).is_ok());
    let bad = GaimdConfig { beta: 1.0, ..c.clone() };
    assert!(pair(&bad, Application::Bulk, size, Instant::ZERO, None).err().unwrap().contains("beta"));
    let bad = GaimdConfig { alpha: Some(-1.0), ..c.clone() };
    assert!(pair(&bad, Application::Bulk, size, Instant::ZERO, None).err().unwrap().contains("alpha"));
    assert!(pair(&c, Application::Bulk, DataSize::from_bytes(40), Instant::ZERO, None).is_err());
}

#[test]
fn pipe_with_one_loss_recovers_with_beta_and_no_timeout() {
    // 100 ms RTT, no bandwidth limit: slow start to the 64-segment cap, segment 300 dropped.
    let s = sender(0.3125, 0.875);
    let mut pipe = Pipe::new(s, TcpReceiver::new(false, 64), Duration::from_millis(100)).drop_first(&[300]);
    pipe.run_until(ms(3000));
    assert_eq!(pipe.dropped, vec![300]);
    let c = pipe.s.counters();
    assert_eq!((c.fast_retransmits, c.timeouts), (1, 0));
    // The window was full (64) at the loss: ssthresh = 0.875·64 = 56 (TCP halves to 32).
    assert_eq!(pipe.s.ssthresh(), 56.0);
    pipe.run_until(ms(20_000));
    // 17 s of congestion avoidance at ≈ 0.31 segments/RTT: 56 + 170·0.31 ≫ 64, back at the cap.
    assert_eq!(pipe.s.cwnd(), 64.0);
    assert_eq!(pipe.r.stats().app_bytes_delivered, pipe.r.rcv_nxt() * 960);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]
    #[test]
    fn arbitrary_network_behaviour_keeps_the_invariants(
        beta in 0.05f64..0.99,
        alpha in proptest::option::of(0.01f64..4.0),
        window_segments in 1u64..80,
        timeout_beta: bool,
        ops in net_ops(CLOCK, 0..400),
    ) {
        let timeout_ssthresh = if timeout_beta { TimeoutSsthresh::Beta } else { TimeoutSsthresh::Half };
        let c = GaimdConfig {
            beta, alpha, timeout_ssthresh, max_window_bytes: window_segments * PKT as u64, ..GaimdConfig::default()
        };
        drive(Gaimd::new(c.alpha(), c.beta).with_timeout_beta(c.timeout_beta()), &c.tcp(), &ops)?;
    }

    #[test]
    fn endpoints_never_panic_on_random_bytes((bytes, extra) in garbage()) {
        let mut p = pair(&GaimdConfig::default(), Application::Bulk, DataSize::from_bytes(1000), Instant::ZERO, None)
            .unwrap();
        sent_seqs(&mut p.sender, Instant::ZERO);
        feed_garbage(&mut p.sender, ms(1), &bytes, extra, Rejections::Counted)?;
        feed_garbage(&mut p.receiver, ms(1), &bytes, extra, Rejections::Counted)?;
    }
}
