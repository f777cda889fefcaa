//! The fuzz targets on the stable toolchain (`make test`): every file of
//! `fuzz/corpus/<target>/` (the seeds, `fuzz/gen_seeds.py`) and of `fuzz/regressions/<target>/`
//! (inputs the fuzzer found; each becomes a regression test by being copied there) through the
//! same entry points `make fuzz` runs ([`vidcc_net::fuzzing`]), then a few hundred seeded
//! random mutations of them. The entry points panic when an invariant fails (a datagram not
//! counted, the rate over the ceiling, the record over its budget, tables that disagree with
//! it, the relay losing track of a datagram).

use std::path::PathBuf;

use rand::Rng;
use vidcc_net::fuzzing;

fn inputs(target: &str) -> Vec<(PathBuf, Vec<u8>)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut out = Vec::new();
    for dir in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else { continue };
        let mut paths: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        paths.sort();
        for p in paths {
            if p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                continue;
            }
            let bytes = std::fs::read(&p).unwrap();
            out.push((p, bytes));
        }
    }
    out
}

fn replay(target: &str, run: fn(&[u8]), mutations: usize) {
    let files = inputs(target);
    assert!(files.len() >= 6, "{target}: {} corpus files", files.len());
    for (path, bytes) in &files {
        println!("{target}: {}", path.display());
        run(bytes);
    }
    // Mutations: bytes flipped, cut short, spliced, as a fuzzer's first steps would.
    let mut rng = vidcc_core::rng::RngStreams::new(21).stream(target);
    for _ in 0..mutations {
        let (_, a) = &files[rng.gen_range(0..files.len())];
        let (_, b) = &files[rng.gen_range(0..files.len())];
        let mut m = a.clone();
        for _ in 0..rng.gen_range(1..8) {
            if !m.is_empty() {
                let i = rng.gen_range(0..m.len());
                m[i] = rng.gen();
            }
        }
        if rng.gen_bool(0.3) {
            let cut = rng.gen_range(0..=m.len());
            m.truncate(cut);
        }
        if rng.gen_bool(0.3) && b.len() > 2 {
            m.extend_from_slice(&b[rng.gen_range(2..b.len())..]);
        }
        run(&m);
    }
}

#[test]
fn the_sender_target_replays_its_corpus() {
    replay("sender", fuzzing::sender, 200);
}

#[test]
fn the_receiver_target_replays_its_corpus() {
    replay("receiver", fuzzing::receiver, 200);
}

#[test]
fn the_relay_target_replays_its_corpus() {
    replay("relay", fuzzing::relay, 300);
}
