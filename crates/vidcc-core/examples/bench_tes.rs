//! TES generator throughput: frames per second of `TesSource::next_frame` with the MPEG-4 CIF
//! 1 Mbit/s defaults, GOP `IBBPBBPBBPBB` (issue 4 target: ≥ 10 million frames/s in release).
//!
//! Run: `cargo run --release -p vidcc-core --example bench_tes [frames]`. Prints one line:
//! `tes_frames_per_sec=<n> frames=<n> secs=<s> checksum=<bytes>`, plus construction time (table
//! build and innovation-width calibration, once per source). The uniform source is a SplitMix64
//! written here (vidcc-core has no RNG dependency); its cost is included, as the simulator's
//! RNG cost would be.

use std::time::Instant as WallClock;
use vidcc_core::media::gop::GopPattern;
use vidcc_core::media::source::{FrameSource, UniformSource};
use vidcc_core::media::tes::{TesModel, TesSource};

struct SplitMix64(u64);

impl UniformSource for SplitMix64 {
    #[inline]
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

fn main() {
    let frames: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(100_000_000);
    let gop = GopPattern::parse("IBBPBBPBBPBB").expect("valid GOP");
    let t0 = WallClock::now();
    let mut src = TesSource::new(gop, 25.0, TesModel::MPEG4_CIF_1MBPS, Box::new(SplitMix64(1))).expect("valid models");
    let build = t0.elapsed().as_secs_f64();
    let t1 = WallClock::now();
    let mut checksum = 0u64;
    for _ in 0..frames {
        checksum = checksum.wrapping_add(u64::from(std::hint::black_box(src.next_frame()).size_bytes));
    }
    let secs = t1.elapsed().as_secs_f64();
    let rate = frames as f64 / secs;
    println!(
        "tes_frames_per_sec={rate:.0} frames={frames} secs={secs:.3} checksum={checksum} construct_ms={:.1}",
        build * 1e3
    );
    let mean_rate = checksum as f64 * 8.0 / (frames as f64 * 0.04);
    println!("mean_rate_bps={mean_rate:.0} (configured {})", src.mean_rate());
}
