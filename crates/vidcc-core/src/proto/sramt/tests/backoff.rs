//! C09: the back-off after unsuccessful changes (docs/papers/sramt.md §1.7), driving a
//! receiver's epoch-end rule machine ([`EpochRules`], what `SramtReceiver` runs at each epoch
//! end) with explicit times and estimates.

use super::super::config::SramtConfig;
use super::super::rules::{Backoff, EpochRules};
use super::secs;
use crate::time::{Duration, Instant};

/// Runs `rules` over epochs 1..=`epochs` (the end of epoch e at 5·e s) from position `start`,
/// the estimate at each epoch end being `estimate(position, e)`: the changes made, as
/// (time s, from, to).
fn drive(
    rules: &mut EpochRules,
    rates: &[f64],
    start: usize,
    epochs: u64,
    estimate: impl Fn(usize, u64) -> f64,
) -> Vec<(u64, usize, usize)> {
    let mut pos = start;
    let mut out = vec![];
    for e in 1..=epochs {
        let t = 5 * e;
        if let Some((to, _)) = rules.at_epoch_end(secs(t as f64), estimate(pos, e), rates, pos) {
            out.push((t, pos, to));
            pos = to;
        }
    }
    out
}

/// The block log as (time s, change, block s).
fn blocks(b: &Backoff) -> Vec<(u64, (usize, usize), u64)> {
    b.failures_log().iter().map(|&(t, c, d)| (t.as_nanos() / 1_000_000_000, c, d.as_nanos() / 1_000_000_000)).collect()
}

/// SRAMT-S, a receiver on the middle stream whose estimate is above its stream's rate (not at
/// the band's edge, so rule 2 acts after 4 epochs) but below the next stream's: it moves up,
/// is moved back down by rule 2 four epochs later, and so on. Every move up is undone, so each
/// is unsuccessful: after the k-th, moving up is blocked for 2^k·5 s from the move down, and
/// the receiver retries at the first epoch end at which both rule 2 (20 s after the move down)
/// and the block allow it. The gaps between its tries grow: 40, 40, 60, 100, 180, 340, 660.
#[test]
fn c09_spacing_grows_after_consecutive_unsuccessful_changes_as_the_rule_states() {
    let cfg = SramtConfig::simulcast();
    let rates = [100e3, 400e3, 800e3];
    let mut rules = EpochRules::new(&cfg, false);
    // 500 kbit/s on stream 1 (rate 400, band 200–600); 700 on stream 2 (rate 800, band
    // 600–1000): above the one, below the other, at neither band's edge.
    let changes = drive(&mut rules, &rates, 1, 360, |pos, _| if pos == 1 { 500e3 } else { 700e3 });
    // The rule, written out: try at a; undone at u = a + 20 (rule 2), the k-th failure; the
    // next try at u + max(20 (rule 2), 2^k·5 (the block)).
    let (mut want, mut want_blocks) = (vec![], vec![]);
    let mut a = 20;
    for k in 1..=8u32 {
        let u = a + 20;
        if u > 1800 {
            break;
        }
        want.push((a, 1, 2));
        want.push((u, 2, 1));
        want_blocks.push((u, (1, 2), 5u64 << k));
        a = u + 20.max(5u64 << k);
    }
    if a <= 1800 {
        want.push((a, 1, 2));
    }
    assert_eq!(changes, want);
    assert_eq!(blocks(rules.backoff()), want_blocks);
    assert_eq!(rules.backoff().failures(), want_blocks.len() as u32);
    let tries: Vec<u64> = changes.iter().filter(|c| c.2 == 2).map(|c| c.0).collect();
    let gaps: Vec<u64> = tries.windows(2).map(|w| w[1] - w[0]).collect();
    assert_eq!(gaps, [40, 40, 60, 100, 180, 340, 660], "{tries:?}");
}

/// SRAMT-LE with undos at the next epoch end: k counts the consecutive failures (blocks of 10,
/// then 20 s), a change the next one does not undo (a move further up) is a success that
/// resets k, and the next failure blocks for 10 s again. The move down that undoes a failed
/// move up is never blocked.
#[test]
fn c09_a_success_resets_k_and_falling_back_is_never_blocked() {
    let cfg = SramtConfig::layered();
    let rates = [150e3, 150e3, 150e3]; // levels at 150, 300, 450 kbit/s
    let mut rules = EpochRules::new(&cfg, true);
    // Estimates per epoch end (5 s apart): level 2, back to 1, 2 (blocked), 2, 1, 2 × 4
    // (blocked until 45 s), 3, 2.
    let e = [350e3, 200e3, 350e3, 350e3, 200e3, 350e3, 350e3, 350e3, 350e3, 500e3, 350e3];
    let changes = drive(&mut rules, &rates, 1, e.len() as u64, |_, k| e[k as usize - 1]);
    assert_eq!(changes, [(5, 1, 2), (10, 2, 1), (20, 1, 2), (25, 2, 1), (45, 1, 2), (50, 2, 3), (55, 3, 2)]);
    assert_eq!(blocks(rules.backoff()), [(10, (1, 2), 10), (25, (1, 2), 20), (55, (2, 3), 10)]);
    assert_eq!(rules.backoff().failures(), 1, "k restarted after the success at 50 s");
    // The raw machine: a fall-back right after a retry is allowed whatever k is.
    let mut b = Backoff::new(Duration::from_secs(5), None, 16);
    for k in 0..6u64 {
        let t = 1000 * k;
        assert!(b.allowed(secs(t as f64), (1, 2)));
        b.record(secs(t as f64), (1, 2));
        assert!(b.allowed(secs(t as f64 + 5.0), (2, 1)), "fall-back after try {k}");
        b.record(secs(t as f64 + 5.0), (2, 1));
        assert_eq!(b.failures(), k as u32 + 1);
    }
}

/// The alternative reading (docs/papers/sramt.md's [I]): only an undo within T_change + T_epoch/2 =
/// 7.5 s fails. In the rule-2 cycle of the first test every undo comes 20 s after the move, so
/// every move is a success, k stays 0 and the receiver moves every 20 s for ever.
#[test]
fn with_the_digests_window_a_rule_two_cycle_never_backs_off() {
    let cfg = SramtConfig { unsuccessful_window_ns: Some(7_500_000_000), ..SramtConfig::simulcast() };
    let rates = [100e3, 400e3, 800e3];
    let mut rules = EpochRules::new(&cfg, false);
    let changes = drive(&mut rules, &rates, 1, 100, |pos, _| if pos == 1 { 500e3 } else { 700e3 });
    let times: Vec<u64> = changes.iter().map(|c| c.0).collect();
    assert_eq!(times, (1..=25).map(|i| 20 * i).collect::<Vec<u64>>());
    assert!(rules.backoff().failures_log().is_empty());
    // An undo at the next epoch end still fails under it.
    let mut b = Backoff::new(Duration::from_secs(5), Some(Duration::from_millis(7500)), 16);
    b.record(Instant::from_nanos(5_000_000_000), (1, 2));
    b.record(Instant::from_nanos(10_000_000_000), (2, 1));
    assert_eq!(b.failures(), 1);
    assert!(!b.allowed(secs(19.9), (1, 2)) && b.allowed(secs(20.0), (1, 2)));
}
