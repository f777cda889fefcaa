"""Frame quality metrics on the luma (Y) plane: PSNR, SSIM and the Evalvid MOS classes.

Every function works on one frame ``(H, W)`` or a batch ``(N, H, W)`` of 8-bit frames; a batch
returns one value per frame. :func:`psnr_ssim`, which scoring uses, is the one-pass Rust kernel
(vidcc-core ``media::quality``, through the extension); :func:`psnr`, :func:`ssim` and
:func:`psnr_ssim_reference` are numpy, vectorised (no Python loop per pixel or per window), and are
the reference the kernel is tested against (equal to within float rounding of the mean).

* **PSNR** = 10·log10(peak² / MSE), peak 255, MSE the mean squared difference of the Y samples
  (docs/papers/asmp-tfmcc.md eq. 6, sums over 0..N−1). Identical frames (MSE = 0) get
  :data:`PSNR_CAP_DB` = 100 dB; the smallest non-zero MSE of a CIF frame gives 98.2 dB, so the cap
  never hides a real value. (Evalvid's ``psnr.c`` returns 0 for MSE = 0 and ``mos.c`` skips such
  frames; a cap keeps a perfect frame in the top class instead.)
* **SSIM** (Wang, Bovik, Sheikh, Simoncelli, IEEE TIP 13(4), 2004), eq. 13 with C1 = (0.01·255)²,
  C2 = (0.03·255)². Default window: unweighted 8×8 windows on a 4-pixel grid (adjacent windows
  overlap by half), the layout of x264 and FFmpeg's ``ssim`` filter; means, variances and the
  covariance are the paper's sample statistics (eq. 2, 4, 11: variance and covariance over N − 1).
  Frame SSIM = mean over windows. ``variant="ffmpeg"`` reproduces FFmpeg's arithmetic exactly
  (its C1 is 64 times smaller, a constant inherited from x264); ``window="gaussian"`` is the
  paper's 11×11 Gaussian window (σ = 1.5) at every pixel, as in the authors' ``ssim_index.m``.
* **MOS** per frame from PSNR, Evalvid ``mos.c`` thresholds with strict ">"
  (docs/papers/asmp-tfmcc.md §4, U5): > 37 dB → 5, > 31 → 4, > 25 → 3, > 20 → 2, otherwise 1. A
  frame at exactly 37.0 dB is class 4.
"""

from __future__ import annotations

import numpy as np

from vidcc import _vidcc

__all__ = [
    "PSNR_CAP_DB",
    "PEAK",
    "MOS_THRESHOLDS_DB",
    "psnr",
    "ssim",
    "psnr_ssim",
    "psnr_ssim_reference",
    "mse",
    "mos",
]

PEAK = 255
PSNR_CAP_DB = 100.0
# Lower bounds (exclusive) of MOS classes 2, 3, 4, 5.
MOS_THRESHOLDS_DB = (20.0, 25.0, 31.0, 37.0)

_C1 = (0.01 * PEAK) ** 2
_C2 = (0.03 * PEAK) ** 2


def _planes(ref, test) -> tuple[np.ndarray, np.ndarray]:
    a = np.asarray(ref)
    b = np.asarray(test)
    if a.shape != b.shape:
        raise ValueError(f"frames differ in shape: {a.shape} vs {b.shape}")
    if a.ndim not in (2, 3):
        raise ValueError(f"expected a frame (H, W) or a batch (N, H, W), got shape {a.shape}")
    if a.dtype != np.uint8 or b.dtype != np.uint8:
        raise ValueError(f"expected 8-bit frames (uint8), got {a.dtype} and {b.dtype}")
    return a, b


def _scalar_or_array(values: np.ndarray, batch: bool):
    return values if batch else float(values[0])


def _psnr_from_sse(sse: np.ndarray, pixels: int) -> np.ndarray:
    m = sse / pixels
    with np.errstate(divide="ignore"):
        out = 10.0 * np.log10((PEAK * PEAK) / m)
    return np.where(m > 0, np.minimum(out, PSNR_CAP_DB), PSNR_CAP_DB)


def _sse(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sum of squared differences per frame of (N, H, W) uint8 batches, exact (integer-valued
    float32 terms, float64 sums), eight frames at a time so that temporaries stay in cache."""
    out = np.empty(a.shape[0])
    for lo in range(0, a.shape[0], 8):
        d = a[lo : lo + 8].astype(np.float32)
        d -= b[lo : lo + 8]  # exact: |d| <= 255
        d *= d  # exact: d² <= 65025
        out[lo : lo + 8] = d.sum(axis=(1, 2), dtype=np.float64)
    return out


def mse(ref, test):
    """Mean squared error of 8-bit frames (exact: integer sums in float64)."""
    a, b = _planes(ref, test)
    batch = a.ndim == 3
    sse = _sse(a if batch else a[None], b if batch else b[None])
    return _scalar_or_array(sse / (a.shape[-1] * a.shape[-2]), batch)


def psnr(ref, test):
    """PSNR in dB of ``test`` against ``ref`` (8-bit, peak 255), capped at 100 dB."""
    a, b = _planes(ref, test)
    batch = a.ndim == 3
    sse = _sse(a if batch else a[None], b if batch else b[None])
    return _scalar_or_array(_psnr_from_sse(sse, a.shape[-1] * a.shape[-2]), batch)


class _GridSums:
    """Per-frame 4×4 block sums of s = x + y, d = x − y, s² and d² (float32, exact: every sum of
    at most 64 values below 510² stays under 2^24). From them: Σx = (Σs + Σd)/2,
    Σy = (Σs − Σd)/2, Σ(x² + y²) = (Σs² + Σd²)/2, Σxy = (Σs² − Σd²)/4, and the SSE is Σd².

    Two squares per pixel instead of three products; the sums over each block's four rows are a
    batched matrix product with a vector of ones (BLAS), the sums over four columns two pairwise
    adds (each measured fastest of the alternatives); buffers are reused frame after frame so
    that a CIF frame's working set stays in cache (a whole batch at once does not, and runs ~2×
    slower)."""

    def __init__(self, h: int, w: int):
        self.h, self.w = h, w
        self.x = np.empty((h, w), np.float32)
        self.y = np.empty((h, w), np.float32)
        self.maps = np.empty((4, h, w), np.float32)
        self.rows = np.empty((4 * (h // 4), w), np.float32)
        self.half = np.empty((4, h // 4, w // 2), np.float32)
        self.ones = np.ones(4, np.float32)

    def frame(self, a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
        """Block sums of one frame pair (uint8 (h, w)) into ``out`` (4, h/4, w/4)."""
        x, y, m, r, t = self.x, self.y, self.maps, self.rows, self.half
        np.copyto(x, a, casting="unsafe")
        np.copyto(y, b, casting="unsafe")
        np.add(x, y, out=m[0])
        np.subtract(x, y, out=m[1])
        np.multiply(m[0], m[0], out=m[2])
        np.multiply(m[1], m[1], out=m[3])
        np.matmul(self.ones, m.reshape(4 * (self.h // 4), 4, self.w), out=r)  # exact: integer sums < 2^24
        r3 = r.reshape(4, self.h // 4, self.w)
        np.add(r3[:, :, 0::2], r3[:, :, 1::2], out=t)
        np.add(t[:, :, 0::2], t[:, :, 1::2], out=out)


def _grid_sums(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(4, N, h/4, w/4) block sums of uint8 batches (N, H, W), cropped to multiples of 4."""
    n, height, width = a.shape
    h, w = (height // 4) * 4, (width // 4) * 4
    if h < 8 or w < 8:
        raise ValueError(f"SSIM needs frames of at least 8×8 samples, got {height}×{width}")
    sums = np.empty((n, 4, h // 4, w // 4), np.float32)
    work = _GridSums(h, w)
    for i in range(n):  # one frame at a time: a loop over frames, not pixels
        work.frame(a[i, :h, :w], b[i, :h, :w], sums[i])
    return sums.transpose(1, 0, 2, 3)


def _ssim_from_sums(sums: np.ndarray, variant: str) -> np.ndarray:
    """SSIM per frame from block sums: 8×8 windows = 2×2 adjacent blocks (stride 4)."""
    if variant == "wang":
        # Eq. 13 with sample (N − 1) statistics. In window sums (n = 64):
        # n²·μxμy = ΣxΣy, n(n − 1)·σxy = nΣxy − ΣxΣy, likewise for σx² + σy².
        n = 64.0
        c1, c2 = _C1 * n * n, _C2 * n * (n - 1)
    elif variant == "ffmpeg":
        # FFmpeg vf_ssim.c / x264 ssim_end1: ssim_c1 = C1·64 (64× smaller than eq. 13's C1).
        c1 = float(int(0.01 * 0.01 * 255 * 255 * 64 + 0.5))
        c2 = float(int(0.03 * 0.03 * 255 * 255 * 64 * 63 + 0.5))
    else:
        raise ValueError(f"unknown SSIM variant {variant!r}: expected 'wang' or 'ffmpeg'")
    out = np.empty(sums.shape[1])
    chunk = 8  # frames per step: temporaries stay in cache (measured: 8 beats 4, 16 and 64)
    for lo in range(0, sums.shape[1], chunk):
        z = sums[:, lo : lo + chunk]
        z = z[..., :, :-1] + z[..., :, 1:]
        w = np.add(z[..., :-1, :], z[..., 1:, :], dtype=np.float64)  # window sums, exact
        ss, sd, qs, qd = w  # Σs, Σd, Σs², Σd² over each 8×8 window
        # Both factors of eq. 13 scaled by 4 (n = 64):
        #   4·(2ΣxΣy + c1)          = (Σs)² − (Σd)² + 2c1
        #   4·(2(nΣxy − ΣxΣy) + c2) = n(Σs² − Σd²) − ((Σs)² − (Σd)²) + 2c2
        #   4·((Σx)² + (Σy)² + c1)  = (Σs)² + (Σd)² + 2c1
        #   4·(nΣ(x² + y²) − (Σx)² − (Σy)² + c2) = n(Σs² + Σd²) − ((Σs)² + (Σd)²) + 2c2
        np.multiply(ss, ss, out=ss)
        np.multiply(sd, sd, out=sd)
        p = ss - sd
        q = ss + sd
        t = qs - qd
        t *= 64.0
        t -= p
        t += 2 * c2
        u = qs + qd
        u *= 64.0
        u -= q
        u += 2 * c2
        p += 2 * c1
        q += 2 * c1
        p *= t
        q *= u
        p /= q
        out[lo : lo + chunk] = p.mean(axis=(1, 2))
    return out


def _gaussian_kernel(size: int = 11, sigma: float = 1.5) -> np.ndarray:
    r = np.arange(size, dtype=np.float64) - (size - 1) / 2
    k = np.exp(-(r * r) / (2 * sigma * sigma))
    return k / k.sum()


def _filter_valid(z: np.ndarray, k: np.ndarray) -> np.ndarray:
    """Separable 'valid' correlation of (N, H, W) with the 1-D kernel k along both axes."""
    n = len(k)
    h, w = z.shape[1] - n + 1, z.shape[2] - n + 1
    rows = k[0] * z[:, 0:h, :]
    for i in range(1, n):  # loop over taps, not pixels
        rows += k[i] * z[:, i : i + h, :]
    out = k[0] * rows[:, :, 0:w]
    for i in range(1, n):
        out += k[i] * rows[:, :, i : i + w]
    return out


def _ssim_gaussian(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Wang et al.'s reference: 11×11 Gaussian window (σ = 1.5, weights sum to 1), every pixel,
    only windows fully inside the frame. One frame at a time (cache-sized temporaries)."""
    if x.shape[1] < 11 or x.shape[2] < 11:
        raise ValueError(f"Gaussian SSIM needs frames of at least 11×11 samples, got {x.shape[1]}×{x.shape[2]}")
    k = _gaussian_kernel()
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        a = x[i : i + 1].astype(np.float64)
        b = y[i : i + 1].astype(np.float64)
        mx, my = _filter_valid(a, k), _filter_valid(b, k)
        sxx = _filter_valid(a * a, k) - mx * mx
        syy = _filter_valid(b * b, k) - my * my
        sxy = _filter_valid(a * b, k) - mx * my
        m = ((2 * mx * my + _C1) * (2 * sxy + _C2)) / ((mx * mx + my * my + _C1) * (sxx + syy + _C2))
        out[i] = m.mean()
    return out


def ssim(ref, test, *, window: str = "8x8", variant: str = "wang"):
    """SSIM of ``test`` against ``ref`` (8-bit Y planes). ``window``: ``"8x8"`` (default, 8×8
    windows every 4 pixels) or ``"gaussian"`` (11×11, σ = 1.5, every pixel). ``variant`` (8×8
    only): ``"wang"`` (eq. 13 constants) or ``"ffmpeg"`` (FFmpeg's ``ssim`` filter, bit for bit
    up to float rounding)."""
    a, b = _planes(ref, test)
    batch = a.ndim == 3
    if not batch:
        a, b = a[None], b[None]
    if window == "8x8":
        values = _ssim_from_sums(_grid_sums(a, b), variant)
    elif window == "gaussian":
        if variant != "wang":
            raise ValueError("variant='ffmpeg' exists only for the 8x8 window")
        values = _ssim_gaussian(a, b)
    else:
        raise ValueError(f"unknown SSIM window {window!r}: expected '8x8' or 'gaussian'")
    return values if batch else float(values[0])


def psnr_ssim(ref, test, *, variant: str = "wang") -> tuple[np.ndarray, np.ndarray]:
    """PSNR (dB, capped) and SSIM (8×8 windows; ``variant`` as in :func:`ssim`) of a batch
    (N, H, W), or of one frame (H, W) as arrays of length 1, by the Rust kernel: one pass over
    each frame pair, the GIL released. Same values as :func:`psnr_ssim_reference` (the SSIM to
    within float rounding: only the order of its mean over windows differs)."""
    a, b = _planes(ref, test)
    if a.ndim == 2:
        a, b = a[None], b[None]
    return _vidcc.psnr_ssim(np.ascontiguousarray(a), np.ascontiguousarray(b), variant)


def psnr_ssim_reference(ref, test) -> tuple[np.ndarray, np.ndarray]:
    """:func:`psnr_ssim` (Wang constants) in numpy, from one set of block sums: the SSE comes from
    them (Σd²) when the frame is a multiple of 4 in both directions. Same values as :func:`psnr`
    and :func:`ssim`."""
    a, b = _planes(ref, test)
    if a.ndim == 2:
        a, b = a[None], b[None]
    sums = _grid_sums(a, b)
    height, width = a.shape[1:]
    if height % 4 == 0 and width % 4 == 0:
        sse = sums[3].sum(axis=(1, 2), dtype=np.float64)
    else:
        sse = _sse(a, b)
    return _psnr_from_sse(sse, height * width), _ssim_from_sums(sums, "wang")


def mos(psnr_db):
    """MOS class 1..5 of a PSNR value or array (Evalvid thresholds, strict ">")."""
    p = np.asarray(psnr_db, dtype=np.float64)
    if np.isnan(p).any():
        raise ValueError("MOS of NaN PSNR")
    # searchsorted(side="left") counts thresholds strictly below p: 37.0 → 3 → class 4.
    cls = np.searchsorted(np.asarray(MOS_THRESHOLDS_DB), p, side="left") + 1
    cls = cls.astype(np.int8)
    return int(cls) if cls.ndim == 0 else cls
