"""Frame metrics (PSNR, SSIM, MOS) and the generated test clip (docs/video.md, "Real video quality")."""

from __future__ import annotations

import fractions
import hashlib
import math

import av
import numpy as np
import pytest

from vidcc.video import clip, metrics
from vidcc.video.metrics import PSNR_CAP_DB, mos, psnr, psnr_ssim, psnr_ssim_reference, ssim

H, W = 288, 352


def _frame(seed: int = 1, lo: int = 10, hi: int = 245) -> np.ndarray:
    return np.random.default_rng(seed).integers(lo, hi + 1, (H, W), dtype=np.uint8)


# ---------------------------------------------------------------------------------------------
# PSNR


def test_psnr_equals_closed_form_for_known_noise():
    """Noise of ±1, ±2, ±3 and ±6 in equal proportions (8 values; 8 divides the frame size): the
    MSE is known exactly, and no sample clips because the frame stays within [10, 245]."""
    ref = _frame()
    values = np.array([1, -1, 2, -2, 3, -3, 6, -6], dtype=np.int16)
    assert (H * W) % len(values) == 0
    noise = np.resize(values, H * W)
    np.random.default_rng(7).shuffle(noise)
    noise = noise.reshape(H, W)
    test = (ref.astype(np.int16) + noise).astype(np.uint8)
    assert np.array_equal(test.astype(np.int16) - ref, noise)  # no clipping
    exact_mse = fractions.Fraction(int((values.astype(int) ** 2).sum()), len(values))  # 100 / 8
    assert exact_mse == fractions.Fraction(25, 2)
    expected = 10 * math.log10(255**2 / float(exact_mse))
    assert abs(psnr(ref, test) - expected) < 0.01
    assert abs(psnr(ref, test) - expected) < 1e-9  # in fact exact to float precision
    assert metrics.mse(ref, test) == 12.5


@pytest.mark.parametrize("amplitude", [1, 4, 20])
def test_psnr_closed_form_for_constant_offset(amplitude):
    ref = _frame(lo=30, hi=220)
    test = ref + np.uint8(amplitude)
    assert abs(psnr(ref, test) - 10 * math.log10(255**2 / amplitude**2)) < 0.01


def test_psnr_batch_gives_one_value_per_frame():
    ref = np.stack([_frame(1), _frame(2), _frame(3)])
    test = ref.copy()
    test[1] += 2
    test[2] += 5
    values = psnr(ref, test)
    assert values.shape == (3,)
    assert values[0] == PSNR_CAP_DB
    assert abs(values[1] - 10 * math.log10(255**2 / 4)) < 1e-9
    assert abs(values[2] - 10 * math.log10(255**2 / 25)) < 1e-9


def test_identical_frames_give_the_cap():
    f = _frame()
    assert psnr(f, f) == PSNR_CAP_DB == 100.0
    assert psnr_ssim(f, f)[0][0] == 100.0
    # One sample off by one: the largest finite PSNR of a CIF frame, just below the cap.
    g = f.copy()
    g[0, 0] += 1
    assert psnr(f, g) == pytest.approx(10 * math.log10(255**2 * H * W), abs=1e-9)
    assert 98 < psnr(f, g) < PSNR_CAP_DB


# ---------------------------------------------------------------------------------------------
# MOS


@pytest.mark.parametrize(
    "value, expected",
    [
        (0.0, 1), (19.999, 1), (20.0, 1), (20.001, 2),
        (24.999, 2), (25.0, 2), (25.001, 3),
        (30.999, 3), (31.0, 3), (31.001, 4),
        (36.999, 4), (37.0, 4), (37.001, 5),
        (PSNR_CAP_DB, 5),
    ],
)
def test_mos_class_boundaries(value, expected):
    """Evalvid mos.c: > 37 → 5, > 31 → 4, > 25 → 3, > 20 → 2, else 1 (strict '>')."""
    assert mos(value) == expected
    assert isinstance(mos(value), int)


def test_mos_of_an_array():
    out = mos(np.array([20.0, np.nextafter(20.0, 99), 37.0, np.nextafter(37.0, 99)]))
    assert out.tolist() == [1, 2, 4, 5]
    with pytest.raises(ValueError, match="NaN"):
        mos(np.array([30.0, np.nan]))


# ---------------------------------------------------------------------------------------------
# SSIM


def _noisy(f: np.ndarray, sigma: float, seed: int = 3) -> np.ndarray:
    n = np.random.default_rng(seed).normal(0, sigma, f.shape)
    return np.clip(np.rint(f + n), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("window", ["8x8", "gaussian"])
def test_ssim_of_identical_frames_is_one_and_falls_with_noise(window):
    f = next(clip.frames(seconds=0.04))[0]
    assert ssim(f, f, window=window) == pytest.approx(1.0, abs=1e-12)
    values = [ssim(f, _noisy(f, s), window=window) for s in (1, 3, 8, 20, 50)]
    assert all(a > b for a, b in zip(values, values[1:])), values
    assert values[0] > 0.9 and values[-1] < 0.5


def _ssim_by_definition(x: np.ndarray, y: np.ndarray) -> float:
    """Wang et al. 2004 eq. 13 window by window (a loop, for the test only): 8×8 windows at every
    fourth pixel, sample means, variances and covariance over N − 1."""
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    vals = []
    for i in range(0, x.shape[0] - 7, 4):
        for j in range(0, x.shape[1] - 7, 4):
            a = x[i : i + 8, j : j + 8].astype(float).ravel()
            b = y[i : i + 8, j : j + 8].astype(float).ravel()
            ma, mb = a.mean(), b.mean()
            va, vb = a.var(ddof=1), b.var(ddof=1)
            cov = ((a - ma) * (b - mb)).sum() / (len(a) - 1)
            vals.append((2 * ma * mb + c1) * (2 * cov + c2) / ((ma * ma + mb * mb + c1) * (va + vb + c2)))
    return float(np.mean(vals))


@pytest.mark.parametrize("shape", [(48, 64), (50, 66)])  # the second is cropped to 48×64
def test_ssim_equals_the_definition(shape):
    x = np.random.default_rng(5).integers(0, 256, shape, dtype=np.uint8)
    y = _noisy(x, 12)
    y[:16, :16] = 200  # a flat patch: the constants matter there
    assert ssim(x, y) == pytest.approx(_ssim_by_definition(x[:48, :64], y[:48, :64]), abs=1e-12)


def test_gaussian_ssim_equals_the_definition():
    """The 11×11 Gaussian window (σ = 1.5, weights normalised) at every position inside the frame."""
    x = np.random.default_rng(8).integers(0, 256, (20, 23), dtype=np.uint8)
    y = _noisy(x, 15)
    r = np.arange(11) - 5.0
    w = np.exp(-(r[:, None] ** 2 + r[None, :] ** 2) / (2 * 1.5**2))
    w /= w.sum()
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    vals = []
    for i in range(20 - 10):
        for j in range(23 - 10):
            a = x[i : i + 11, j : j + 11].astype(float)
            b = y[i : i + 11, j : j + 11].astype(float)
            ma, mb = (w * a).sum(), (w * b).sum()
            va, vb = (w * (a - ma) ** 2).sum(), (w * (b - mb) ** 2).sum()
            cov = (w * (a - ma) * (b - mb)).sum()
            vals.append((2 * ma * mb + c1) * (2 * cov + c2) / ((ma * ma + mb * mb + c1) * (va + vb + c2)))
    assert ssim(x, y, window="gaussian") == pytest.approx(float(np.mean(vals)), abs=1e-10)


def _ffmpeg_psnr_ssim(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    tb = fractions.Fraction(1, 25)
    g = av.filter.Graph()
    s0 = g.add_buffer(width=a.shape[1], height=a.shape[0], format="gray", time_base=tb)
    s1 = g.add_buffer(width=a.shape[1], height=a.shape[0], format="gray", time_base=tb)
    sp0, sp1 = g.add("split"), g.add("split")
    ps, ss = g.add("psnr"), g.add("ssim")
    k0, k1 = g.add("buffersink"), g.add("buffersink")
    s0.link_to(sp0)
    s1.link_to(sp1)
    sp0.link_to(ps, 0, 0)
    sp1.link_to(ps, 0, 1)
    sp0.link_to(ss, 1, 0)
    sp1.link_to(ss, 1, 1)
    ps.link_to(k0)
    ss.link_to(k1)
    g.configure()
    for src, arr in ((s0, a), (s1, b)):
        fr = av.VideoFrame.from_ndarray(arr, format="gray")
        fr.pts, fr.time_base = 0, tb
        src.push(fr)
    return float(k0.pull().metadata["lavfi.psnr.psnr.y"]), float(k1.pull().metadata["lavfi.ssim.Y"])


def test_ssim_ffmpeg_variant_and_psnr_match_ffmpeg_filters():
    frames = [f[0] for f in clip.frames(seconds=0.2)]
    for i, ref in enumerate(frames):
        test = _noisy(ref, [1, 4, 10, 25, 2][i], seed=i)
        test[: 40 * i + 8, :60] //= 3  # dark, shifted patches: where the two C1 constants differ
        ff_psnr, ff_ssim = _ffmpeg_psnr_ssim(ref, test)
        assert psnr(ref, test) == pytest.approx(ff_psnr, abs=2e-6)
        assert ssim(ref, test, variant="ffmpeg") == pytest.approx(ff_ssim, abs=2e-6)  # FFmpeg prints 6 decimals
        # Wang's constants differ from FFmpeg's only by C1: close, not equal.
        assert abs(ssim(ref, test) - ff_ssim) < 0.02
        # The one-pass Rust kernel: the same numbers as FFmpeg's filters.
        (kernel_psnr,), (kernel_ssim,) = psnr_ssim(ref, test, variant="ffmpeg")
        assert kernel_psnr == pytest.approx(ff_psnr, abs=1e-4)
        assert kernel_ssim == pytest.approx(ff_ssim, abs=1e-5)
        assert kernel_psnr == pytest.approx(ff_psnr, abs=2e-6) and kernel_ssim == pytest.approx(ff_ssim, abs=2e-6)


def test_psnr_ssim_reference_equals_the_separate_functions():
    for shape in [(H, W), (90, 130)]:
        ref = np.stack([_frame(s)[: shape[0], : shape[1]] for s in range(3)])
        test = np.stack([_noisy(r, 6, seed=k) for k, r in enumerate(ref)])
        p, s = psnr_ssim_reference(ref, test)
        assert np.array_equal(p, psnr(ref, test))
        assert np.array_equal(s, ssim(ref, test))


def _close(kernel: np.ndarray, reference: np.ndarray) -> bool:
    return kernel.shape == reference.shape and bool(np.all(np.abs(kernel - reference) <= 1e-9 * np.abs(reference)))


# Sizes that are multiples of 8, of 4 only, and of neither (the crop and the leftover samples).
@pytest.mark.parametrize("shape", [(3, H, W), (4, 90, 130), (2, 13, 9), (5, 8, 8), (3, 51, 67), (2, 17, 31)])
def test_kernel_equals_the_numpy_reference_on_random_frames(shape):
    rng = np.random.default_rng(shape[1] * 1000 + shape[2])
    ref = rng.integers(0, 256, shape, dtype=np.uint8)
    test = np.stack([_noisy(r, 3 + 7 * k, seed=k) for k, r in enumerate(ref)])
    test[0, : shape[1] // 2, : shape[2] // 2] //= 4  # a dark patch: where the two C1 constants differ
    test[-1] = ref[-1]  # a perfect frame: the PSNR cap, SSIM 1
    p, s = psnr_ssim(ref, test)
    p_ref, s_ref = psnr_ssim_reference(ref, test)
    assert _close(p, p_ref), (p, p_ref)
    assert _close(s, s_ref), (s, s_ref)
    assert p[-1] == PSNR_CAP_DB and s[-1] == pytest.approx(1.0, abs=1e-15)
    assert np.all(p[:-1] < PSNR_CAP_DB) and np.all(s[:-1] < 1)
    _, s_ffmpeg = psnr_ssim(ref, test, variant="ffmpeg")
    assert _close(s_ffmpeg, ssim(ref, test, variant="ffmpeg"))
    assert not np.allclose(s_ffmpeg, s, rtol=1e-6)  # the variant reaches the kernel


def test_kernel_takes_one_frame_and_strided_batches():
    ref = np.stack([_frame(s) for s in range(4)])
    test = np.stack([_noisy(r, 5, seed=k) for k, r in enumerate(ref)])
    p, s = psnr_ssim(ref, test)
    single = psnr_ssim(ref[2], test[2])
    assert single[0].shape == (1,) and single[0][0] == p[2] and single[1][0] == s[2]
    # A view (every other frame, a window of each): copied to contiguous memory first.
    p_view, s_view = psnr_ssim(ref[::2, 5:-3, 7:], test[::2, 5:-3, 7:])
    p_ref, s_ref = psnr_ssim_reference(ref[::2, 5:-3, 7:], test[::2, 5:-3, 7:])
    assert _close(p_view, p_ref) and _close(s_view, s_ref)


def test_kernel_input_errors():
    f = np.stack([_frame()] * 2)
    with pytest.raises(ValueError, match="shape"):
        psnr_ssim(f, f[:, :-2])
    with pytest.raises(ValueError, match="uint8"):
        psnr_ssim(f, f.astype(np.int16))
    with pytest.raises(ValueError, match="at least 8x8 samples, got 7x288"):
        psnr_ssim(f[:, :, :7], f[:, :, :7])
    with pytest.raises(ValueError, match="variant"):
        psnr_ssim(f, f, variant="x264")
    # The extension itself: psnr_ssim above hands it contiguous batches of one shape.
    from vidcc import _vidcc

    with pytest.raises(ValueError, match="test frames must be C-contiguous"):
        _vidcc.psnr_ssim(np.ascontiguousarray(f[:, :, ::2]), f[:, :, ::2])
    with pytest.raises(ValueError, match="frames differ in shape"):
        _vidcc.psnr_ssim(f, f[:1])


def test_metric_input_errors():
    f = _frame()
    with pytest.raises(ValueError, match="shape"):
        psnr(f, f[:-2])
    with pytest.raises(ValueError, match="uint8"):
        psnr(f, f.astype(np.int16))
    with pytest.raises(ValueError, match="frame"):
        ssim(f[0], f[0])
    with pytest.raises(ValueError, match="variant"):
        ssim(f, f, variant="x264")
    with pytest.raises(ValueError, match="window"):
        ssim(f, f, window="11x11")


# ---------------------------------------------------------------------------------------------
# The generated clip


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_clip_is_deterministic_and_seeded(tmp_path):
    a = clip.generate(tmp_path / "a.yuv", seconds=0.4)
    b = clip.generate(tmp_path / "b.yuv", seconds=0.4)
    c = clip.generate(tmp_path / "c.yuv", seconds=0.4, seed=1)
    assert a.stat().st_size == 10 * W * H * 3 // 2
    assert _digest(a) == _digest(b)
    assert _digest(a) != _digest(c)


def test_clip_y4m_reads_back_with_pyav_and_moves(tmp_path):
    path = clip.generate(tmp_path / "c.y4m", seconds=0.4, fps=25, size=(176, 144))
    assert path.read_bytes().startswith(b"YUV4MPEG2 W176 H144 F25:1 ")
    with av.open(str(path)) as c:
        frames = [f.to_ndarray()[:144] for f in c.decode(video=0)]  # yuv420p: Y rows first
    assert len(frames) == 10 and frames[0].shape == (144, 176)
    raw = [y for y, _, _ in clip.frames(seconds=0.4, size=(176, 144))]
    assert all(np.array_equal(a, b) for a, b in zip(frames, raw))
    # Real motion and detail: consecutive frames differ, and the texture has fine structure.
    diffs = [np.mean(np.abs(a.astype(int) - b)) for a, b in zip(raw, raw[1:])]
    assert min(diffs) > 2
    assert np.mean(np.abs(np.diff(raw[0].astype(int), axis=1))) > 3
    assert raw[0].min() >= 16 and raw[0].max() <= 235


def test_clip_rejects_bad_arguments(tmp_path):
    from vidcc.video import VideoError

    with pytest.raises(VideoError, match="even"):
        clip.generate(tmp_path / "x.yuv", seconds=0.1, size=(351, 288))
    with pytest.raises(VideoError, match="at least one frame"):
        clip.generate(tmp_path / "x.yuv", seconds=0.001)
    with pytest.raises(VideoError, match="frame rate"):
        clip.generate(tmp_path / "x.yuv", seconds=1, fps="fast")
    (tmp_path / "file").write_text("")
    with pytest.raises(VideoError, match="cannot create directory"):
        clip.generate(tmp_path / "file" / "x.yuv", seconds=0.1)
    # A missing directory is made.
    assert clip.generate(tmp_path / "new" / "x.yuv", seconds=0.1).exists()


def test_default_clip_is_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("VIDCC_CACHE", str(tmp_path / "cache"))
    p = clip.default_clip(seconds=0.2, size=(64, 48))
    assert p.parent == tmp_path / "cache" and p.suffix == ".y4m"
    mtime = p.stat().st_mtime_ns
    assert clip.default_clip(seconds=0.2, size=(64, 48)) == p
    assert p.stat().st_mtime_ns == mtime  # not generated again
