//! Frame sources: the [`FrameSource`] trait every video model implements, the randomness hook
//! [`UniformSource`], the frame clock they share, and [`CbrSource`] (constant frame size, for
//! tests and for the "cbr" scenario model).
//!
//! Contract (issue 4, "Sources"): a source yields frames **in display order**, one per call,
//! forever; frame `n` has `id = n` and `ready_at = start + n·interval`, with `interval` the
//! frame interval in integer nanoseconds (25 fps → exactly 40 ms). Sources never read a clock;
//! `start` defaults to `Instant::ZERO` and is set with each source's `with_start`.
//! Decode order, GOP references and layering are separate concerns (`gop.rs`, `layers.rs`).
//!
//! Randomness: vidcc-core draws no random numbers of its own (DESIGN.md, "The core contract").
//! Stochastic sources (TES) take a `Box<dyn UniformSource + Send>` that the driver implements
//! with its seeded per-component RNG stream.
//!
//! Parameters: `fps` is given as a positive finite `f64` and turned into an integer interval once
//! (rounded to the nearest nanosecond: 29.97 fps → 33 366 700 ns; the drift this causes,
//! < 1 ns per frame, is far below any timer in the system).

use super::frame::{Frame, FrameType};
use crate::time::{Duration, Instant};
use crate::units::DataRate;

/// Uniform random numbers in `[0, 1)`, supplied by the driver (its seeded RNG).
pub trait UniformSource {
    /// The next draw, uniform on `[0, 1)`.
    fn next_f64(&mut self) -> f64;
}

impl<T: UniformSource + ?Sized> UniformSource for Box<T> {
    fn next_f64(&mut self) -> f64 {
        (**self).next_f64()
    }
}

/// A video source: coded frame sizes in display order.
pub trait FrameSource {
    /// The next frame in display order (`id` increases by one per call, never ends).
    fn next_frame(&mut self) -> Frame;
    /// Time between consecutive frames.
    fn frame_interval(&self) -> Duration;
    /// Long-run mean bit rate of the frames this source produces (model mean, not a measurement).
    fn mean_rate(&self) -> DataRate;
    /// Frames per second (derived from the integer interval).
    fn fps(&self) -> f64 {
        1e9 / self.frame_interval().as_nanos().max(1) as f64
    }
}

impl<T: FrameSource + ?Sized> FrameSource for Box<T> {
    fn next_frame(&mut self) -> Frame {
        (**self).next_frame()
    }
    fn frame_interval(&self) -> Duration {
        (**self).frame_interval()
    }
    fn mean_rate(&self) -> DataRate {
        (**self).mean_rate()
    }
}

/// A configuration error of a media source (bad fps, model, layer rates, ...). The message says
/// which parameter and what was expected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SourceError(pub String);

/// Frame interval for `fps` frames per second, rounded to the nearest nanosecond.
pub fn frame_interval_for_fps(fps: f64) -> Result<Duration, SourceError> {
    if !(fps.is_finite() && fps > 0.0 && fps <= 1e6) {
        return Err(SourceError(format!("fps must be a positive finite number up to 1e6, got {fps}")));
    }
    Ok(Duration::from_nanos((1e9 / fps).round() as u64))
}

/// Mean bit rate of frames of `mean_bytes` every `interval`.
pub fn rate_of(mean_bytes: f64, interval: Duration) -> DataRate {
    DataRate::from_bps_f64(mean_bytes * 8.0 * 1e9 / interval.as_nanos().max(1) as f64)
}

/// The display-order frame clock shared by all sources: hands out ids and ready times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameClock {
    pub start: Instant,
    pub interval: Duration,
    next_id: u32,
}

impl FrameClock {
    pub fn new(interval: Duration) -> Self {
        FrameClock { start: Instant::ZERO, interval, next_id: 0 }
    }
    /// Id of the frame the next `tick` returns.
    pub fn next_id(&self) -> u32 {
        self.next_id
    }
    /// `ready_at` of display frame `id`: `start + id·interval`.
    pub fn ready_at(&self, id: u32) -> Instant {
        self.start + self.interval * u64::from(id)
    }
    /// Id and ready time of the next frame; advances the clock.
    #[inline]
    pub fn tick(&mut self) -> (u32, Instant) {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1);
        (id, self.ready_at(id))
    }
}

/// Every frame the same size and type (I by default), for tests and CBR scenarios.
#[derive(Clone, Debug)]
pub struct CbrSource {
    clock: FrameClock,
    size_bytes: u32,
    frame_type: FrameType,
}

impl CbrSource {
    pub fn new(size_bytes: u32, fps: f64) -> Result<Self, SourceError> {
        Ok(CbrSource { clock: FrameClock::new(frame_interval_for_fps(fps)?), size_bytes, frame_type: FrameType::I })
    }
    /// Frames of the size that gives `rate` at `fps` (rounded to whole bytes).
    pub fn for_rate(rate: DataRate, fps: f64) -> Result<Self, SourceError> {
        let interval = frame_interval_for_fps(fps)?;
        let bytes = (rate.as_bps() as u128 * interval.as_nanos() as u128 + 4_000_000_000) / 8_000_000_000;
        let size = u32::try_from(bytes).map_err(|_| SourceError(format!("rate {rate} too large for a frame")))?;
        Self::new(size, fps)
    }
    pub fn with_start(mut self, start: Instant) -> Self {
        self.clock.start = start;
        self
    }
    pub fn with_frame_type(mut self, t: FrameType) -> Self {
        self.frame_type = t;
        self
    }
}

impl FrameSource for CbrSource {
    fn next_frame(&mut self) -> Frame {
        let (id, ready_at) = self.clock.tick();
        Frame { id, frame_type: self.frame_type, size_bytes: self.size_bytes, ready_at }
    }
    fn frame_interval(&self) -> Duration {
        self.clock.interval
    }
    fn mean_rate(&self) -> DataRate {
        rate_of(f64::from(self.size_bytes), self.clock.interval)
    }
}

/// Deterministic uniform generator for unit tests only (SplitMix64, Steele et al. 2014).
#[cfg(test)]
pub(crate) struct SplitMix64(pub u64);

#[cfg(test)]
impl UniformSource for SplitMix64 {
    fn next_f64(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cbr_frames_are_in_display_order_on_the_frame_clock() {
        let mut s = CbrSource::new(1234, 25.0).unwrap().with_start(Instant::from_nanos(7));
        assert_eq!(s.frame_interval(), Duration::from_millis(40));
        for n in 0..5u32 {
            let f = s.next_frame();
            assert_eq!(f.id, n);
            assert_eq!(f.size_bytes, 1234);
            assert_eq!(f.ready_at, Instant::from_nanos(7 + 40_000_000 * u64::from(n)));
        }
        assert_eq!(s.mean_rate(), DataRate::from_bps(1234 * 8 * 25));
        assert!((s.fps() - 25.0).abs() < 1e-12);
    }

    #[test]
    fn cbr_for_rate_and_bad_fps() {
        let s = CbrSource::for_rate(DataRate::from_kbps(1000), 25.0).unwrap();
        assert_eq!(s.mean_rate(), DataRate::from_kbps(1000));
        assert_eq!(frame_interval_for_fps(29.97).unwrap().as_nanos(), 33_366_700);
        for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(CbrSource::new(1, bad).unwrap_err().0.contains("fps"));
        }
    }

    #[test]
    fn splitmix_is_uniform_enough() {
        let mut r = SplitMix64(1);
        let n = 100_000;
        let mut sum = 0.0;
        for _ in 0..n {
            let x = r.next_f64();
            assert!((0.0..1.0).contains(&x));
            sum += x;
        }
        assert!((sum / n as f64 - 0.5).abs() < 0.005);
    }
}
