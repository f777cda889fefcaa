//! Link-level ARQ (docs/papers/qos-aimd.md's wireless hop): retransmission hides channel losses at
//! the price of link time.

mod common;
use common::*;
use vidcc_sim::config::*;
use vidcc_sim::run_config;

fn wireless(loss: LossConfig, arq: Option<ArqConfig>, rate_bps: u64) -> SimConfig {
    // A 200 kbit/s "wireless" bottleneck with 125 B packets: one slot = 5 ms.
    let mut cbr = flow(ProtocolConfig::UdpCbr(CbrConfig { rate_bps }), 1);
    cbr.packet_size_bytes = 125;
    let mut cfg = dumbbell(200_000, 10 * MS, droptail(QueueLimit::Packets(100_000)), vec![cbr], 200);
    let link = bottleneck(&mut cfg);
    link.loss = Some(loss);
    link.arq = arq;
    cfg
}

fn link0(out: &vidcc_sim::SimOutput, col: &str) -> u64 {
    out.table("links").u64s(col)[0]
}

/// Persistent ARQ over an i.i.d. channel with p_e = 0.1: nothing is lost, the mean number of
/// attempts per packet is 1/(1 − p_e) = 1.111, so the link carries at most 1 − p_e = 0.9 packets
/// per slot (docs/papers/qos-aimd.md §2.7: 180 kbit/s of 125 B packets at 200 kbit/s).
#[test]
fn persistent_arq_delivers_everything_at_one_minus_pe_per_slot() {
    // Offered 100 kbit/s (0.5 packet/slot): below capacity.
    let out = run_config(wireless(LossConfig::Bernoulli { p: 0.1 }, Some(ArqConfig::Persistent), 100_000)).unwrap();
    assert_eq!(link0(&out, "dropped_loss"), 0);
    let (delivered, retx) = (link0(&out, "delivered_packets"), link0(&out, "retransmissions"));
    let attempts_per_packet = (delivered + retx) as f64 / delivered as f64;
    assert!((attempts_per_packet - 1.0 / 0.9).abs() < 0.01, "attempts per packet {attempts_per_packet:.4}");
    // Offered 250 kbit/s, more than the link can carry: throughput saturates at 0.9 × 200 kbit/s.
    let out = run_config(wireless(LossConfig::Bernoulli { p: 0.1 }, Some(ArqConfig::Persistent), 250_000)).unwrap();
    let thr = out.table("flow_summary").f64s("throughput_bps")[0];
    assert!((thr / 180_000.0 - 1.0).abs() < 0.02, "saturated throughput {thr:.0}");
}

/// Limited ARQ: a packet is lost only when all its attempts fail, p_e^n.
#[test]
fn limited_arq_loses_packets_whose_every_attempt_fails() {
    let out = run_config(wireless(LossConfig::Bernoulli { p: 0.3 }, Some(ArqConfig::Limited { attempts: 2 }), 50_000))
        .unwrap();
    let fs = out.table("flow_summary");
    let rate = fs.f64s("drop_rate")[0];
    assert!((rate - 0.09).abs() < 0.01, "drop rate {rate:.4} vs 0.3² = 0.09");
    // Without ARQ the same channel loses p_e.
    let out = run_config(wireless(LossConfig::Bernoulli { p: 0.3 }, None, 50_000)).unwrap();
    let rate = out.table("flow_summary").f64s("drop_rate")[0];
    assert!((rate - 0.3).abs() < 0.02, "drop rate {rate:.4} vs 0.3");
    assert_eq!(link0(&out, "retransmissions"), 0);
}

/// The suite's two-state channel at p_e = 0.1 (Gilbert: bad state always loses, mean bad burst
/// 2 slots): p = p_e·r/(1 − p_e), r = 0.5.
fn gilbert_pe10() -> LossConfig {
    LossConfig::GilbertElliott { p: 0.1 * 0.5 / 0.9, r: 0.5, loss_good: 0.0, loss_bad: 1.0 }
}

const OPTIMAL: ArqConfig = ArqConfig::Optimal { threshold: 0.8, slots: None };

/// The "optimal" scheme on a bursty channel: after a failure it waits (2 slots here, see
/// `loss::optimal_pause`) for the channel to recover, so it fails far less often per packet
/// than persistent transmission (the energy it saves), loses nothing, and pays with idle link
/// time: saturated, the link carries exactly delivered / (delivered + failures·(1 + pause)) of
/// its slots.
#[test]
fn optimal_arq_pauses_after_a_failure_and_fails_less_often() {
    let persistent = run_config(wireless(gilbert_pe10(), Some(ArqConfig::Persistent), 250_000)).unwrap();
    let optimal = run_config(wireless(gilbert_pe10(), Some(OPTIMAL), 250_000)).unwrap();
    assert_eq!(link0(&optimal, "dropped_loss"), 0);
    let per_packet =
        |o: &vidcc_sim::SimOutput| link0(o, "retransmissions") as f64 / link0(o, "delivered_packets") as f64;
    // Persistent: a tenth of all attempts fail (the chain is in Bad π_B = 0.1 of its slots),
    // 0.111 failures per packet, a failure followed by another with P(stay Bad) = 0.5. Optimal:
    // the retry after a 2-slot pause fails with 0.179 only, so a burst of failures is 1/0.821
    // long instead of 2: about 0.61 × as many failures (0.067 per packet).
    let (fp, fo) = (per_packet(&persistent), per_packet(&optimal));
    assert!((fp - 0.1 / 0.9).abs() < 0.01, "persistent failures per packet {fp:.4}");
    assert!((fo / fp - 0.61).abs() < 0.06, "failures per packet: optimal {fo:.4}, persistent {fp:.4}");
    let (delivered, failures) =
        (link0(&optimal, "delivered_packets") as f64, link0(&optimal, "retransmissions") as f64);
    let share = delivered / (delivered + failures * 3.0);
    let thr = optimal.table("flow_summary").f64s("throughput_bps")[0];
    assert!((thr / (200_000.0 * share) - 1.0).abs() < 0.02, "throughput {thr:.0} vs {:.0}", 200_000.0 * share);
    let thr_p = persistent.table("flow_summary").f64s("throughput_bps")[0];
    assert!(thr < thr_p, "pausing costs link time: {thr:.0} vs persistent {thr_p:.0}");
}

/// On a memoryless channel a failure says nothing about the next slot: the scheme does not
/// pause and is persistent transmission, packet for packet.
#[test]
fn optimal_arq_on_a_memoryless_channel_is_persistent() {
    let p = run_config(wireless(LossConfig::Bernoulli { p: 0.1 }, Some(ArqConfig::Persistent), 150_000)).unwrap();
    let o = run_config(wireless(LossConfig::Bernoulli { p: 0.1 }, Some(OPTIMAL), 150_000)).unwrap();
    for col in ["delivered_packets", "retransmissions", "dropped_loss"] {
        assert_eq!(link0(&p, col), link0(&o, col), "{col}");
    }
    // An explicit pause overrides the channel's.
    let fixed = run_config(wireless(
        LossConfig::Bernoulli { p: 0.1 },
        Some(ArqConfig::Optimal { threshold: 0.8, slots: Some(3) }),
        250_000,
    ))
    .unwrap();
    let (d, f) = (link0(&fixed, "delivered_packets") as f64, link0(&fixed, "retransmissions") as f64);
    let thr = fixed.table("flow_summary").f64s("throughput_bps")[0];
    assert!((thr / (200_000.0 * d / (d + 4.0 * f)) - 1.0).abs() < 0.02, "throughput {thr:.0}");
}
