//! The event kernel alone: the simulator's `Scheduler` with PENDING events waiting, each pop
//! scheduling one new event a pseudo-random 1 µs – 10 ms later (a hold model), for EVENTS events.
//! Prints one JSON line: events per wall second. It bounds the simulator: a run of E events
//! cannot take less than E / (this rate), whatever the rest of the code costs.
//!
//! usage: bench_scheduler [PENDING (default 100)] [EVENTS (default 20000000)]

use std::time::Instant as WallClock;
use vidcc_core::{Duration, Instant};
use vidcc_sim::scheduler::Scheduler;

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse().unwrap_or_else(|_| {
                eprintln!("bench_scheduler: arguments are counts, got {a:?}");
                std::process::exit(2)
            })
        })
        .collect();
    let pending = args.first().copied().unwrap_or(100).max(1);
    let events = args.get(1).copied().unwrap_or(20_000_000);
    // SplitMix64: deterministic delays without pulling the simulator's rng streams in.
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mut s: Scheduler<(u32, u32)> = Scheduler::new();
    for i in 0..pending {
        s.schedule(Instant::from_nanos(1_000 + next() % 10_000_000), (i as u32, 0));
    }
    let t0 = WallClock::now();
    let mut checksum = 0u64;
    for _ in 0..events {
        let (now, (a, b)) = s.pop_until(Instant::MAX).expect("the hold model keeps events pending");
        checksum = checksum.wrapping_add(a as u64 ^ b as u64);
        s.schedule(now + Duration::from_nanos(1_000 + next() % 10_000_000), (a, b.wrapping_add(1)));
    }
    let wall = t0.elapsed().as_secs_f64();
    println!(
        "{{\"pending\": {pending}, \"events\": {events}, \"wall_s\": {wall:.4}, \"events_per_s\": {:.0}, \"checksum\": {checksum}}}",
        events as f64 / wall
    );
}
