//! Frame quality of decoded video: PSNR and SSIM of an 8-bit luma (Y) plane against its
//! reference, in one pass over the pixels. Pure functions over borrowed planes; no I/O.
//!
//! The definitions are the ones `python/vidcc/video/metrics.py` documents (and keeps as a numpy
//! reference implementation):
//!
//! * **PSNR** = 10·log10(255² / MSE) over all H·W samples; identical frames (MSE = 0) get
//!   [`PSNR_CAP_DB`], and no value exceeds it.
//! * **SSIM** (Wang et al., IEEE TIP 2004, eq. 13) over unweighted 8×8 windows placed every 4
//!   pixels (x264's and FFmpeg's layout), the frame cropped to a multiple of 4; frame SSIM is the
//!   mean over windows. [`SsimConstants::Wang`] uses the paper's constants and sample (N − 1)
//!   statistics; [`SsimConstants::Ffmpeg`] reproduces FFmpeg's `ssim` filter (x264's integer
//!   constants, C1 64 times smaller).
//!
//! How: the frame is walked one row of 4×4 blocks at a time. Four rows of pixels are summed
//! column by column (Σx, Σy, Σ(x² + y²), Σxy; an element-wise loop the compiler vectorises), each
//! group of four columns gives a block, and two adjacent rows of blocks give the 8×8 windows
//! (2×2 blocks each, overlapping by half). The SSE of the PSNR is Σ(x² + y²) − 2Σxy of the same
//! blocks, plus a plain loop over the samples the crop leaves out. All sums are exact integers
//! and each window's SSIM is the reference's f64 expression of them (the reference's form is
//! scaled by 4, which rounds alike), so only the order of the final mean can differ.

use thiserror::Error;

/// PSNR given to identical frames (MSE = 0), and the largest value ever returned, in dB. The
/// largest finite PSNR of a CIF frame (one sample off by one) is 98.2 dB.
pub const PSNR_CAP_DB: f64 = 100.0;

/// Peak sample value of 8-bit video.
pub const PEAK: f64 = 255.0;

/// Side of an SSIM window in samples; windows start every `WINDOW / 2` samples.
const WINDOW: usize = 8;
/// Side of the blocks the sums are kept for: half a window.
const BLOCK: usize = WINDOW / 2;
/// Samples per window, the n of eq. 13's sample statistics.
const WINDOW_SAMPLES: f64 = (WINDOW * WINDOW) as f64;

/// Why a frame pair could not be scored.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum QualityError {
    #[error("frame of {width}x{height} samples with a row stride of {stride} needs {needed} bytes, got {got}")]
    ShortBuffer { width: usize, height: usize, stride: usize, needed: usize, got: usize },
    #[error("row stride {stride} is smaller than the frame width {width}")]
    Stride { width: usize, stride: usize },
    #[error("frames differ in size: {0}x{1} vs {2}x{3}")]
    SizeMismatch(usize, usize, usize, usize),
    #[error("SSIM needs frames of at least 8x8 samples, got {width}x{height}")]
    TooSmall { width: usize, height: usize },
}

/// The SSIM constants C1 and C2 (eq. 13), as used with window sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SsimConstants {
    /// Wang et al.: C1 = (0.01·255)², C2 = (0.03·255)², sample (N − 1) variance and covariance.
    Wang,
    /// FFmpeg's `ssim` filter (x264's `ssim_end1`): integer constants, C1 64 times smaller.
    Ffmpeg,
}

impl SsimConstants {
    /// Parses `"wang"` or `"ffmpeg"`.
    pub fn parse(name: &str) -> Result<Self, String> {
        match name {
            "wang" => Ok(Self::Wang),
            "ffmpeg" => Ok(Self::Ffmpeg),
            other => Err(format!("unknown SSIM variant {other:?}: expected 'wang' or 'ffmpeg'")),
        }
    }

    /// (c1, c2) scaled to window sums (n = 64): with S1 = Σx, S2 = Σy, Q = Σ(x² + y²),
    /// P = Σxy, SSIM = (2·S1·S2 + c1)(2·(nP − S1·S2) + c2) / ((S1² + S2² + c1)(nQ − S1² − S2² + c2)).
    fn scaled(self) -> (f64, f64) {
        let n = WINDOW_SAMPLES;
        match self {
            // n²·μxμy = S1·S2 and n(n − 1)·σxy = nP − S1·S2: C1 scales by n², C2 by n(n − 1).
            Self::Wang => {
                let (c1, c2) = ((0.01 * PEAK) * (0.01 * PEAK), (0.03 * PEAK) * (0.03 * PEAK));
                (c1 * n * n, c2 * n * (n - 1.0))
            }
            // FFmpeg vf_ssim.c: ssim_c1 = (int)(.01*.01*255*255*64 + .5), ssim_c2 likewise ·63.
            Self::Ffmpeg => {
                let c1 = (0.01 * 0.01 * 255.0 * 255.0 * 64.0 + 0.5_f64).trunc();
                let c2 = (0.03 * 0.03 * 255.0 * 255.0 * 64.0 * 63.0 + 0.5_f64).trunc();
                (c1, c2)
            }
        }
    }
}

/// A borrowed 8-bit plane: `height` rows of `width` samples, row `r` starting at `r · stride`.
#[derive(Debug, Clone, Copy)]
pub struct Plane<'a> {
    data: &'a [u8],
    width: usize,
    height: usize,
    stride: usize,
}

impl<'a> Plane<'a> {
    /// Checks that `data` holds the frame (the last row may end without padding).
    pub fn new(data: &'a [u8], width: usize, height: usize, stride: usize) -> Result<Self, QualityError> {
        if stride < width {
            return Err(QualityError::Stride { width, stride });
        }
        let needed = if height == 0 { 0 } else { (height - 1) * stride + width };
        if data.len() < needed {
            return Err(QualityError::ShortBuffer { width, height, stride, needed, got: data.len() });
        }
        Ok(Self { data, width, height, stride })
    }

    /// A tightly packed plane (stride = width).
    pub fn packed(data: &'a [u8], width: usize, height: usize) -> Result<Self, QualityError> {
        Self::new(data, width, height, width)
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    fn row(&self, r: usize) -> &'a [u8] {
        &self.data[r * self.stride..r * self.stride + self.width]
    }
}

/// PSNR (dB) and SSIM of one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FrameQuality {
    pub psnr_db: f64,
    pub ssim: f64,
}

/// PSNR in dB from a sum of squared errors over `samples` samples: capped at [`PSNR_CAP_DB`],
/// which is also the value of a perfect frame.
pub fn psnr_from_sse(sse: u64, samples: usize) -> f64 {
    if sse == 0 {
        return PSNR_CAP_DB;
    }
    let mse = sse as f64 / samples as f64;
    (10.0 * (PEAK * PEAK / mse).log10()).min(PSNR_CAP_DB)
}

/// Sums of four rows of samples (one entry per column), of one row of 4×4 blocks (one entry per
/// block), or of one row of 8×8 windows (one entry per window): Σx, Σy, Σ(x² + y²) and Σxy.
/// A window's Σ(x² + y²) ≤ 64·2·255² < 2^31, so u32 holds every sum, and so does i32 (which the
/// conversion to f64 vectorises for).
#[derive(Debug, Clone, Default)]
struct Sums {
    x: Vec<u32>,
    y: Vec<u32>,
    squares: Vec<u32>,
    products: Vec<u32>,
}

impl Sums {
    fn zeroed(len: usize) -> Self {
        Self { x: vec![0; len], y: vec![0; len], squares: vec![0; len], products: vec![0; len] }
    }

    /// Column sums of four rows of the reference (`a`) and the test (`b`): one element-wise pass
    /// over the eight rows that the compiler vectorises; no sum is read back from memory.
    #[inline(always)]
    fn columns_of(&mut self, a: [&[u8]; BLOCK], b: [&[u8]; BLOCK]) {
        let n = self.x.len();
        let (a0, a1, a2, a3) = (&a[0][..n], &a[1][..n], &a[2][..n], &a[3][..n]);
        let (b0, b1, b2, b3) = (&b[0][..n], &b[1][..n], &b[2][..n], &b[3][..n]);
        let (x, y, squares, products) =
            (&mut self.x[..n], &mut self.y[..n], &mut self.squares[..n], &mut self.products[..n]);
        for j in 0..n {
            let (p0, p1, p2, p3) = (u32::from(a0[j]), u32::from(a1[j]), u32::from(a2[j]), u32::from(a3[j]));
            let (q0, q1, q2, q3) = (u32::from(b0[j]), u32::from(b1[j]), u32::from(b2[j]), u32::from(b3[j]));
            x[j] = p0 + p1 + p2 + p3;
            y[j] = q0 + q1 + q2 + q3;
            squares[j] = (p0 * p0 + p1 * p1 + p2 * p2 + p3 * p3) + (q0 * q0 + q1 * q1 + q2 * q2 + q3 * q3);
            products[j] = p0 * q0 + p1 * q1 + p2 * q2 + p3 * q3;
        }
    }

    /// Block sums from column sums: each block is four adjacent columns.
    #[inline(always)]
    fn blocks_of(&mut self, columns: &Sums) {
        fn fold(out: &mut [u32], cols: &[u32]) {
            for (o, c) in out.iter_mut().zip(cols.chunks_exact(BLOCK)) {
                *o = c[0] + c[1] + c[2] + c[3];
            }
        }
        fold(&mut self.x, &columns.x);
        fold(&mut self.y, &columns.y);
        fold(&mut self.squares, &columns.squares);
        fold(&mut self.products, &columns.products);
    }

    /// Window sums from two adjacent rows of blocks: window k is blocks k and k + 1 of both.
    #[inline(always)]
    fn windows_of(&mut self, upper: &Sums, lower: &Sums) {
        fn fold(out: &mut [u32], upper: &[u32], lower: &[u32]) {
            let n = out.len();
            let (u, l) = (&upper[..n + 1], &lower[..n + 1]);
            for k in 0..n {
                out[k] = (u[k] + l[k]) + (u[k + 1] + l[k + 1]);
            }
        }
        fold(&mut self.x, &upper.x, &lower.x);
        fold(&mut self.y, &upper.y, &lower.y);
        fold(&mut self.squares, &upper.squares, &lower.squares);
        fold(&mut self.products, &upper.products, &lower.products);
    }

    /// Σ(x − y)² over the blocks = Σ(x² + y²) − 2Σxy.
    #[inline(always)]
    fn sse(&self) -> u64 {
        self.squares.iter().zip(&self.products).map(|(&q, &p)| u64::from(q - 2 * p)).sum()
    }

    /// Sum of the SSIM of the windows these sums describe.
    #[inline(always)]
    fn ssim_sum(&self, values: &mut [f64], (c1, c2): (f64, f64)) -> f64 {
        let n = WINDOW_SAMPLES;
        let len = self.x.len();
        let (x, y, squares, products) = (&self.x[..len], &self.y[..len], &self.squares[..len], &self.products[..len]);
        let values = &mut values[..len];
        for k in 0..len {
            // Every product below is an integer under 2^53, so exact; the constants come last.
            let (s1, s2) = (f64::from(x[k] as i32), f64::from(y[k] as i32));
            let (q, p) = (f64::from(squares[k] as i32), f64::from(products[k] as i32));
            let means = 2.0 * s1 * s2 + c1;
            let covariance = 2.0 * (n * p - s1 * s2) + c2;
            let mean_squares = s1 * s1 + s2 * s2 + c1;
            let variances = n * q - s1 * s1 - s2 * s2 + c2;
            values[k] = (means * covariance) / (mean_squares * variances);
        }
        // Four running sums, so that the additions vectorise too.
        let mut lanes = [0.0; 4];
        let mut chunks = values.chunks_exact(4);
        for c in &mut chunks {
            for (lane, v) in lanes.iter_mut().zip(c) {
                *lane += v;
            }
        }
        chunks.remainder().iter().sum::<f64>() + (lanes[0] + lanes[1]) + (lanes[2] + lanes[3])
    }
}

/// Σ(x − y)² of the samples in rows `rows`, columns `from..` of each.
#[inline(always)]
fn sse_outside(a: &Plane, b: &Plane, rows: std::ops::Range<usize>, from: usize) -> u64 {
    rows.map(|r| {
        a.row(r)[from..]
            .iter()
            .zip(&b.row(r)[from..])
            .map(|(&p, &q)| {
                let d = i64::from(p) - i64::from(q);
                (d * d) as u64
            })
            .sum::<u64>()
    })
    .sum()
}

/// PSNR and SSIM of `test` against `reference` (Y planes of the same size, at least 8×8).
pub fn frame_quality(reference: &Plane, test: &Plane, constants: SsimConstants) -> Result<FrameQuality, QualityError> {
    let (width, height) = (reference.width, reference.height);
    if (test.width, test.height) != (width, height) {
        return Err(QualityError::SizeMismatch(width, height, test.width, test.height));
    }
    if width < WINDOW || height < WINDOW {
        return Err(QualityError::TooSmall { width, height });
    }
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: `score_avx2` only needs AVX2, which the CPU has (checked just above).
        return Ok(unsafe { score_avx2(reference, test, constants) });
    }
    Ok(score(reference, test, constants))
}

/// [`score`] compiled for AVX2 (twice the vector width of x86-64's baseline SSE2; measured about
/// 2x faster). Same instructions' results: integer sums and IEEE f64 operations, no fused ones.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn score_avx2(reference: &Plane, test: &Plane, constants: SsimConstants) -> FrameQuality {
    score(reference, test, constants)
}

/// The pass over a frame pair already checked by [`frame_quality`].
#[inline(always)]
fn score(reference: &Plane, test: &Plane, constants: SsimConstants) -> FrameQuality {
    let (width, height) = (reference.width, reference.height);
    let (blocks_wide, blocks_high) = (width / BLOCK, height / BLOCK);
    let cropped_width = blocks_wide * BLOCK;
    let scaled = constants.scaled();

    let mut columns = Sums::zeroed(cropped_width);
    let mut upper = Sums::zeroed(blocks_wide);
    let mut lower = Sums::zeroed(blocks_wide);
    let mut windows = Sums::zeroed(blocks_wide - 1);
    let mut values = vec![0.0; blocks_wide - 1];
    let mut sse = 0u64;
    let mut ssim_total = 0.0;
    for block_row in 0..blocks_high {
        let top = block_row * BLOCK;
        columns.columns_of(std::array::from_fn(|i| reference.row(top + i)), std::array::from_fn(|i| test.row(top + i)));
        lower.blocks_of(&columns);
        sse += lower.sse();
        if block_row > 0 {
            windows.windows_of(&upper, &lower);
            ssim_total += windows.ssim_sum(&mut values, scaled);
        }
        std::mem::swap(&mut upper, &mut lower);
    }
    sse += sse_outside(reference, test, 0..blocks_high * BLOCK, cropped_width);
    sse += sse_outside(reference, test, blocks_high * BLOCK..height, 0);

    let windows = (blocks_wide - 1) * (blocks_high - 1);
    FrameQuality { psnr_db: psnr_from_sse(sse, width * height), ssim: ssim_total / windows as f64 }
}

/// [`frame_quality`] of each of `frames` packed frames of `width` × `height` samples, stored one
/// after the other in `reference` and `test`.
pub fn batch_quality(
    reference: &[u8],
    test: &[u8],
    frames: usize,
    width: usize,
    height: usize,
    constants: SsimConstants,
) -> Result<Vec<FrameQuality>, QualityError> {
    let size = width * height;
    for data in [reference, test] {
        if data.len() != frames * size {
            let needed = frames * size;
            return Err(QualityError::ShortBuffer { width, height, stride: width, needed, got: data.len() });
        }
    }
    (0..frames)
        .map(|i| {
            let a = Plane::packed(&reference[i * size..(i + 1) * size], width, height)?;
            let b = Plane::packed(&test[i * size..(i + 1) * size], width, height)?;
            frame_quality(&a, &b, constants)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_xoshiro::Xoshiro256PlusPlus;

    fn random_plane(width: usize, height: usize, seed: u64) -> Vec<u8> {
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
        (0..width * height).map(|_| rng.gen()).collect()
    }

    /// SSIM straight from eq. 13, window by window, in floating point with N − 1 statistics.
    fn ssim_by_definition(a: &[u8], b: &[u8], width: usize, height: usize) -> f64 {
        let (c1, c2) = ((0.01f64 * 255.0).powi(2), (0.03f64 * 255.0).powi(2));
        let (mut total, mut count) = (0.0, 0);
        let mut i = 0;
        while i + 8 <= height / 4 * 4 {
            let mut j = 0;
            while j + 8 <= width / 4 * 4 {
                let at = |p: &[u8], r: usize, c: usize| f64::from(p[(i + r) * width + j + c]);
                let cells = || (0..8).flat_map(|r| (0..8).map(move |c| (r, c)));
                let mx = cells().map(|(r, c)| at(a, r, c)).sum::<f64>() / 64.0;
                let my = cells().map(|(r, c)| at(b, r, c)).sum::<f64>() / 64.0;
                let vx = cells().map(|(r, c)| (at(a, r, c) - mx).powi(2)).sum::<f64>() / 63.0;
                let vy = cells().map(|(r, c)| (at(b, r, c) - my).powi(2)).sum::<f64>() / 63.0;
                let cov = cells().map(|(r, c)| (at(a, r, c) - mx) * (at(b, r, c) - my)).sum::<f64>() / 63.0;
                total += (2.0 * mx * my + c1) * (2.0 * cov + c2) / ((mx * mx + my * my + c1) * (vx + vy + c2));
                count += 1;
                j += 4;
            }
            i += 4;
        }
        total / f64::from(count)
    }

    #[test]
    fn identical_frames_score_the_cap_and_one() {
        for (w, h) in [(8, 8), (352, 288), (13, 11)] {
            let a = random_plane(w, h, 1);
            let p = Plane::packed(&a, w, h).unwrap();
            for constants in [SsimConstants::Wang, SsimConstants::Ffmpeg] {
                let q = frame_quality(&p, &p, constants).unwrap();
                assert_eq!(q.psnr_db, PSNR_CAP_DB);
                assert!((q.ssim - 1.0).abs() < 1e-15, "{w}x{h}: {}", q.ssim);
            }
        }
    }

    #[test]
    fn known_small_case_by_hand() {
        // One 8×8 window. Reference x: 100 everywhere; test y: 100 except one sample at 108.
        // SSE = 8² = 64 over 64 samples: MSE = 1, PSNR = 10·log10(255²).
        // μx = 100, μy = 6408/64 = 100.125; σx² = 0; σy² = (Σy² − (Σy)²/64)/63
        // = (641 664 − 641 601)/63 = 1; σxy = (Σxy − ΣxΣy/64)/63 = (640 800 − 640 800)/63 = 0.
        // Wang: SSIM = (2·100·100.125 + C1)(0 + C2) / ((100² + 100.125² + C1)(0 + 1 + C2)).
        // FFmpeg (window sums): covar = 64Σxy − ΣxΣy = 0, vars = 64Σ(x² + y²) − (Σx)² − (Σy)² = 4032,
        // SSIM = (2·6400·6408 + 416)(0 + 235 963) / ((6400² + 6408² + 416)(4032 + 235 963)).
        let a = [100u8; 64];
        let mut b = [100u8; 64];
        b[27] = 108;
        let pa = Plane::packed(&a, 8, 8).unwrap();
        let pb = Plane::packed(&b, 8, 8).unwrap();
        let wang = frame_quality(&pa, &pb, SsimConstants::Wang).unwrap();
        assert!((wang.psnr_db - 20.0 * 255f64.log10()).abs() < 1e-12, "{}", wang.psnr_db);
        let (c1, c2) = (6.5025, 58.5225);
        let by_hand = (20_025.0 + c1) * c2 / ((20_025.015_625 + c1) * (1.0 + c2));
        assert!((wang.ssim - by_hand).abs() < 1e-14, "{} vs {by_hand}", wang.ssim);
        assert!((wang.ssim - ssim_by_definition(&a, &b, 8, 8)).abs() < 1e-14);
        let ffmpeg = frame_quality(&pa, &pb, SsimConstants::Ffmpeg).unwrap();
        let by_hand = (82_022_400.0 + 416.0) * 235_963.0 / ((82_022_464.0 + 416.0) * (4032.0 + 235_963.0));
        assert!((ffmpeg.ssim - by_hand).abs() < 1e-14, "{} vs {by_hand}", ffmpeg.ssim);
        assert_eq!(ffmpeg.psnr_db, wang.psnr_db);
    }

    #[test]
    fn equals_the_definition_on_random_frames_of_odd_sizes() {
        for (k, (w, h)) in [(8, 8), (9, 13), (31, 17), (64, 48), (67, 50), (130, 90)].into_iter().enumerate() {
            let a = random_plane(w, h, 10 + k as u64);
            let mut b = a.clone();
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(99 + k as u64);
            for v in b.iter_mut() {
                *v = (i32::from(*v) + rng.gen_range(-20..=20)).clamp(0, 255) as u8;
            }
            let (pa, pb) = (Plane::packed(&a, w, h).unwrap(), Plane::packed(&b, w, h).unwrap());
            let q = frame_quality(&pa, &pb, SsimConstants::Wang).unwrap();
            let sse: u64 = a.iter().zip(&b).map(|(&x, &y)| (i64::from(x) - i64::from(y)).pow(2) as u64).sum();
            assert_eq!(q.psnr_db, psnr_from_sse(sse, w * h), "{w}x{h}");
            let expected = ssim_by_definition(&a, &b, w, h);
            assert!((q.ssim - expected).abs() < 1e-12, "{w}x{h}: {} vs {expected}", q.ssim);
        }
    }

    #[test]
    fn the_dispatched_pass_equals_the_portable_one() {
        // On a CPU with AVX2 `frame_quality` runs `score` compiled for it; it must not change a bit.
        for (k, (w, h)) in [(352, 288), (67, 50), (9, 13)].into_iter().enumerate() {
            let a = random_plane(w, h, 40 + k as u64);
            let b: Vec<u8> = a.iter().zip(random_plane(w, h, 50 + k as u64)).map(|(&x, n)| x ^ (n & 7)).collect();
            let (pa, pb) = (Plane::packed(&a, w, h).unwrap(), Plane::packed(&b, w, h).unwrap());
            for constants in [SsimConstants::Wang, SsimConstants::Ffmpeg] {
                assert_eq!(frame_quality(&pa, &pb, constants).unwrap(), score(&pa, &pb, constants), "{w}x{h}");
            }
        }
    }

    #[test]
    fn ffmpeg_constants_differ_from_wang_only_by_c1() {
        let (c1w, c2w) = SsimConstants::Wang.scaled();
        let (c1f, c2f) = SsimConstants::Ffmpeg.scaled();
        assert_eq!((c1f, c2f), (416.0, 235_963.0));
        assert!((c1w / c1f - 64.0).abs() < 0.03 && (c2w - c2f).abs() < 1.0);
    }

    #[test]
    fn a_row_stride_selects_the_frame_inside_a_wider_buffer() {
        let (w, h, stride) = (20, 12, 27);
        let a = random_plane(stride, h, 3);
        let b = random_plane(stride, h, 4);
        let packed = |p: &[u8]| (0..h).flat_map(|r| p[r * stride..r * stride + w].to_vec()).collect::<Vec<u8>>();
        let (pa, pb) = (packed(&a), packed(&b));
        let strided = frame_quality(
            &Plane::new(&a, w, h, stride).unwrap(),
            &Plane::new(&b, w, h, stride).unwrap(),
            SsimConstants::Wang,
        );
        let tight =
            frame_quality(&Plane::packed(&pa, w, h).unwrap(), &Plane::packed(&pb, w, h).unwrap(), SsimConstants::Wang);
        assert_eq!(strided.unwrap(), tight.unwrap());
    }

    #[test]
    fn batch_scores_each_frame() {
        let (w, h) = (24, 16);
        let a = random_plane(w, h * 3, 5);
        let mut b = a.clone();
        b[w * h..].iter_mut().for_each(|v| *v ^= 1); // frames 1 and 2 differ by one everywhere
        let out = batch_quality(&a, &b, 3, w, h, SsimConstants::Wang).unwrap();
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].psnr_db, PSNR_CAP_DB);
        assert!((out[1].psnr_db - 20.0 * 255f64.log10()).abs() < 1e-12);
        assert!(out[1].ssim < 1.0);
    }

    #[test]
    fn bad_input_is_named() {
        let a = [0u8; 64];
        fn err<T: std::fmt::Debug>(r: Result<T, QualityError>) -> String {
            r.unwrap_err().to_string()
        }
        assert_eq!(err(Plane::new(&a, 8, 8, 7)), "row stride 7 is smaller than the frame width 8");
        assert!(err(Plane::packed(&a, 8, 9)).contains("needs 72 bytes, got 64"));
        let small = Plane::packed(&a, 16, 4).unwrap();
        assert!(err(frame_quality(&small, &small, SsimConstants::Wang)).contains("at least 8x8 samples, got 16x4"));
        let p = Plane::packed(&a, 8, 8).unwrap();
        let q = Plane::packed(&a, 4, 16).unwrap();
        assert_eq!(err(frame_quality(&p, &q, SsimConstants::Wang)), "frames differ in size: 8x8 vs 4x16");
        assert!(err(batch_quality(&a, &a, 2, 8, 8, SsimConstants::Wang)).contains("needs 128 bytes, got 64"));
        assert!(SsimConstants::parse("x264").unwrap_err().contains("'wang' or 'ffmpeg'"));
    }
}
