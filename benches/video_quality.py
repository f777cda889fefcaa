"""Video quality benchmark (issues #4, #14): PSNR + SSIM frames per second on CIF frames.

vidcc's one-pass Rust kernel (``vidcc.video.metrics.psnr_ssim``, the function ``vidcc video
quality`` and ``prepare`` use) and its numpy reference (``psnr_ssim_reference``) against FFmpeg's
own ``psnr`` and ``ssim`` filters driven through PyAV (``av.filter.Graph``: two buffer sources,
each split to both filters), on the same frame pairs in the same process: the generated test
clip's 250 CIF frames (10 s at 25 fps) against their MPEG-4 q = 10 encoding. Every side scores the
Y plane only (FFmpeg gets ``gray`` frames), so they do the same work. Each timing is the best of
several interleaved repeats (the machine is shared); the median is recorded too.

Also recorded: how far the values agree (PSNR; SSIM with FFmpeg's constants and with Wang et al.'s;
the kernel against the numpy reference), and FFmpeg with a pass-through graph (no filter), i.e.
what PyAV's frame hand-over costs alone.

Prints a table and writes benches/results/video_quality.json.
"""

from __future__ import annotations

import fractions
import json
import os
import pathlib
import platform
import statistics
import sys
import tempfile
import time

import av
import numpy as np

from vidcc.video import clip, metrics, prepare
from vidcc.video.yuv import YuvFile

ROOT = pathlib.Path(__file__).resolve().parent.parent
REPEATS = 11
BATCH = 64  # frames per psnr_ssim call, as vidcc.video.quality scores them


def load_frames() -> tuple[np.ndarray, np.ndarray]:
    """Y planes of the clip and of its q = 10 MPEG-4 encoding, decoded."""
    with tempfile.TemporaryDirectory() as tmp:
        src = clip.generate(pathlib.Path(tmp) / "clip.y4m", seconds=10)
        m = prepare(src, pathlib.Path(tmp) / "prep", quantizers="10", jobs=1)
        n, w, h = m["frames"], m["width"], m["height"]
        ref = YuvFile(pathlib.Path(tmp) / "prep" / "original.yuv", w, h).y(np.arange(n))
        test = YuvFile(pathlib.Path(tmp) / "prep" / m["encodings"][0]["decoded"], w, h).y(np.arange(n))
    return np.ascontiguousarray(ref), np.ascontiguousarray(test)


def ours(ref: np.ndarray, test: np.ndarray, score=metrics.psnr_ssim, **kw) -> tuple[np.ndarray, np.ndarray]:
    """``score`` over the clip in batches of BATCH frames, as vidcc.video.quality calls it."""
    ps, ss = [], []
    for lo in range(0, len(ref), BATCH):
        p, s = score(ref[lo : lo + BATCH], test[lo : lo + BATCH], **kw)
        ps.append(p)
        ss.append(s)
    return np.concatenate(ps), np.concatenate(ss)


def ffmpeg(ref: np.ndarray, test: np.ndarray, threads: int, filters: bool = True) -> tuple[list[float], list[float]]:
    n, h, w = ref.shape
    tb = fractions.Fraction(1, 25)
    g = av.filter.Graph()
    g.threads = threads
    s0 = g.add_buffer(width=w, height=h, format="gray", time_base=tb)
    s1 = g.add_buffer(width=w, height=h, format="gray", time_base=tb)
    if filters:
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
    else:
        k0, k1 = g.add("buffersink"), g.add("buffersink")
        s0.link_to(k0)
        s1.link_to(k1)
    g.configure()
    p_out, s_out = [], []
    for i in range(n):
        a = av.VideoFrame.from_ndarray(ref[i], format="gray")
        b = av.VideoFrame.from_ndarray(test[i], format="gray")
        a.pts = b.pts = i
        a.time_base = b.time_base = tb
        s0.push(a)
        s1.push(b)
        fa, fb = k0.pull(), k1.pull()
        if filters:
            p_out.append(float(fa.metadata["lavfi.psnr.psnr.y"]))
            s_out.append(float(fb.metadata["lavfi.ssim.Y"]))
    return p_out, s_out


def timed(fn, *args, **kw) -> float:
    t = time.perf_counter()
    fn(*args, **kw)
    return time.perf_counter() - t


def main() -> int:
    ref, test = load_frames()
    n = len(ref)
    cases = {
        "vidcc kernel psnr+ssim": lambda: ours(ref, test),
        "vidcc numpy psnr+ssim (reference)": lambda: ours(ref, test, metrics.psnr_ssim_reference),
        "ffmpeg psnr+ssim (threads=1)": lambda: ffmpeg(ref, test, 1),
        "ffmpeg psnr+ssim (threads=auto)": lambda: ffmpeg(ref, test, 0),
        "ffmpeg pass-through (threads=1)": lambda: ffmpeg(ref, test, 1, filters=False),
    }
    for fn in cases.values():  # warm up
        fn()
    runs: dict[str, list[float]] = {k: [] for k in cases}
    for _ in range(REPEATS):  # interleaved, so that machine load hits every case alike
        for name, fn in cases.items():
            runs[name].append(timed(fn))

    p_ours, s_ours = ours(ref, test)
    _, s_ours_ff = ours(ref, test, variant="ffmpeg")
    p_numpy, s_numpy = ours(ref, test, metrics.psnr_ssim_reference)
    p_ff, s_ff = (np.asarray(v) for v in ffmpeg(ref, test, 1))
    agreement = {
        "psnr_max_abs_diff_db": float(np.max(np.abs(p_ours - p_ff))),
        "ssim_ffmpeg_variant_max_abs_diff": float(np.max(np.abs(s_ours_ff - s_ff))),
        "ssim_wang_max_abs_diff": float(np.max(np.abs(s_ours - s_ff))),
        "ssim_wang_mean_diff": float(np.mean(s_ours - s_ff)),
        "kernel_vs_numpy_psnr_max_rel_diff": float(np.max(np.abs(p_ours - p_numpy) / p_numpy)),
        "kernel_vs_numpy_ssim_max_rel_diff": float(np.max(np.abs(s_ours - s_numpy) / s_numpy)),
        "note": "FFmpeg prints its values with 6 decimals; its SSIM luminance constant is C1/64 (x264's)",
    }
    rows = []
    print(f"{n} CIF frames (352x288, Y plane), best / median of {REPEATS} interleaved repeats")
    print(f"{'case':36} {'best fps':>10} {'median fps':>11} {'ms/frame':>9}")
    for name, ts in runs.items():
        best, med = min(ts), statistics.median(ts)
        rows.append({"case": name, "frames": n, "best_s": best, "median_s": med, "fps_best": n / best,
                     "fps_median": n / med, "ms_per_frame_best": 1e3 * best / n, "all_s": ts})
        print(f"{name:36} {n / best:>10,.0f} {n / med:>11,.0f} {1e3 * best / n:>9.3f}")
    by = {r["case"]: r for r in rows}
    ff_best = max(by["ffmpeg psnr+ssim (threads=1)"]["fps_best"], by["ffmpeg psnr+ssim (threads=auto)"]["fps_best"])
    ratio = by["vidcc kernel psnr+ssim"]["fps_best"] / ff_best
    numpy_ratio = by["vidcc numpy psnr+ssim (reference)"]["fps_best"] / ff_best
    for who, r in (("vidcc kernel", ratio), ("vidcc numpy reference", numpy_ratio)):
        verdict = "not slower" if r >= 1 else f"slower by {1 / r:.2f}x"
        print(f"{who} / best FFmpeg (frames per second): {r:.2f} ({verdict})")
    print("agreement: PSNR max |diff| {psnr_max_abs_diff_db:.2e} dB; SSIM (ffmpeg constants) max |diff| "
          "{ssim_ffmpeg_variant_max_abs_diff:.2e}; SSIM (Wang constants) max |diff| {ssim_wang_max_abs_diff:.2e}; "
          "kernel vs numpy: PSNR {kernel_vs_numpy_psnr_max_rel_diff:.1e}, SSIM {kernel_vs_numpy_ssim_max_rel_diff:.1e} "
          "relative".format(**agreement))
    out_dir = ROOT / "benches" / "results"
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "video_quality.json").write_text(json.dumps({
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "python": sys.version.split()[0],
        "numpy": np.__version__,
        "pyav": av.__version__,
        "frames": n,
        "size": [int(ref.shape[2]), int(ref.shape[1])],
        "repeats": REPEATS,
        "cases": rows,
        "vidcc_over_best_ffmpeg_fps": ratio,
        "numpy_reference_over_best_ffmpeg_fps": numpy_ratio,
        "agreement": agreement,
    }, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
