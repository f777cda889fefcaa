//! One benchmark case from a resolved scenario (the JSON `vidcc` hands the simulator, e.g.
//! `python -c "import json; from vidcc.scenario import load_scenario; print(json.dumps(load_scenario('benches/scenarios/newreno-10.toml').resolve()))"`).
//! Runs it REPEATS times (default 1) and prints one JSON line with the fastest run's wall seconds and
//! CPU seconds of the simulation call, events, bottleneck packets, delivered packets and peak resident memory.
//! Built for profiling the whole simulation call (recorders included) without Python around it.
//!
//! usage: bench_config CONFIG.json [REPEATS]

use std::time::Instant as WallClock;

fn peak_rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Nanoseconds this thread has spent on a CPU (`/proc/thread-self/schedstat`): unlike wall time,
/// it leaves out the time other processes held the CPU, so A/B comparisons on a busy machine hold.
fn cpu_ns() -> Option<u64> {
    std::fs::read_to_string("/proc/thread-self/schedstat").ok()?.split_whitespace().next()?.parse().ok()
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: bench_config CONFIG.json [REPEATS]");
        std::process::exit(2);
    };
    let repeats: usize = match args.get(1).map(|r| r.parse()) {
        None => 1,
        Some(Ok(n)) if n > 0 => n,
        Some(_) => {
            eprintln!("bench_config: REPEATS must be a positive integer, got {:?}", args[1]);
            std::process::exit(2);
        }
    };
    let json = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("bench_config: cannot read {path}: {e}");
        std::process::exit(2);
    });
    let mut best = f64::INFINITY;
    let mut best_cpu = f64::INFINITY;
    let mut stats = None;
    for _ in 0..repeats {
        let (t0, c0) = (WallClock::now(), cpu_ns());
        let out = vidcc_sim::run_json(&json, &mut |_| true).unwrap_or_else(|e| {
            eprintln!("bench_config: {path}: {e}");
            std::process::exit(1);
        });
        best = best.min(t0.elapsed().as_secs_f64());
        if let (Some(c0), Some(c1)) = (c0, cpu_ns()) {
            best_cpu = best_cpu.min((c1 - c0) as f64 / 1e9);
        }
        stats = Some(out.stats);
    }
    let s = stats.expect("at least one run");
    println!(
        "{{\"config\": {path:?}, \"wall_s\": {best:.4}, \"cpu_s\": {best_cpu:.4}, \"events\": {}, \"bottleneck_packets\": {}, \"packets_delivered\": {}, \"peak_rss_bytes\": {}}}",
        s.events,
        s.bottleneck_packets,
        s.packets_delivered,
        peak_rss_bytes().unwrap_or(0)
    );
}
