"""Real video quality, the Evalvid way: make or bring a clip, encode it once per quantiser
(``prepare``), let a simulation decide which frames arrive in time, then rebuild what each
receiver could show and score it by PSNR, SSIM and MOS (``quality``).

    >>> from vidcc import video
    >>> clip = video.default_clip()                    # the project's generated CIF test clip
    >>> video.prepare(clip, "prep", quantizers="2,10,31")
    >>> q = video.evaluate_run("out/run", prepared="prep")   # reads out/run/frames.parquet
    >>> q.flows[0]["mean_psnr_db"], q.frames.head()

Page: docs/video.md ("Real video quality").
"""

from vidcc.video.clip import default_clip, generate
from vidcc.video.metrics import MOS_THRESHOLDS_DB, PSNR_CAP_DB, mos, psnr, psnr_ssim, ssim
from vidcc.video.prepare import gop_pattern, load_manifest, parse_quantizers, prepare, read_trace
from vidcc.video.quality import Prepared, Quality, evaluate, evaluate_run
from vidcc.video.yuv import VideoError, YuvFile, open_source, parse_size

__all__ = [
    "MOS_THRESHOLDS_DB",
    "PSNR_CAP_DB",
    "Prepared",
    "Quality",
    "VideoError",
    "YuvFile",
    "default_clip",
    "evaluate",
    "evaluate_run",
    "generate",
    "gop_pattern",
    "load_manifest",
    "mos",
    "open_source",
    "parse_quantizers",
    "parse_size",
    "prepare",
    "psnr",
    "psnr_ssim",
    "read_trace",
    "ssim",
]
