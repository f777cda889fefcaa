"""The README's video walk-through, in a temporary tree: clip → prepare → run → quality."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIDCC = Path(sys.executable).parent / "vidcc"


def vidcc(*args, cwd):
    p = subprocess.run([str(VIDCC), *map(str, args)], cwd=cwd, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return p


def test_readme_video_walkthrough(tmp_path):
    (tmp_path / "scenarios" / "video").mkdir(parents=True)
    shutil.copy(ROOT / "scenarios" / "video" / "quality.toml", tmp_path / "scenarios" / "video" / "quality.toml")
    vidcc("video", "clip", "out/clip.y4m", "--seconds", "3", cwd=tmp_path)
    vidcc("video", "prepare", "out/clip.y4m", "--quantizers", "10", "--out", "out/prepared", cwd=tmp_path)
    vidcc("run", "scenarios/video/quality.toml", "--out", "out/video-quality", "--quiet", "--no-figures", cwd=tmp_path)
    vidcc("video", "quality", "out/video-quality", "--prepared", "out/prepared", cwd=tmp_path)
    manifest = json.loads((tmp_path / "out" / "prepared" / "manifest.json").read_text())
    flow = json.loads((tmp_path / "out" / "video-quality" / "quality.json").read_text())["flows"][0]
    encoder_psnr = manifest["encodings"][0]["mean_psnr_db"]
    # The 2 % lossy last hop conceals frames: the received video scores below its encoding, and
    # every frame is accounted for.
    assert flow["concealed_frames"] > 0
    assert 15 < flow["mean_psnr_db"] < encoder_psnr
    assert flow["usable_frames"] + flow["concealed_frames"] == flow["frames"]
