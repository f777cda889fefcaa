"""The project's own test clip: moving, textured, deterministic content made with numpy.

The papers' test sequences (Foreman, Akiyo, Stefan, ...) cannot be downloaded here, so the clip is
synthesised. It is built to behave like camera video for an MPEG-4 encoder:

* a multi-octave value-noise texture (eight octaves, 1/f-like spectrum) that pans with a speed and
  direction that change every two seconds, so motion estimation has real work and coarse
  quantisers smear real detail (PSNR falls steadily from q = 2 to q = 31);
* a slowly travelling lighting gradient (global brightness change, which motion compensation
  cannot predict exactly);
* four objects on Lissajous paths (soft-edged discs and a rotating bar with their own textures
  and colours), which occlude the background and each other;
* a static high-contrast "logo" of fine stripes in one corner (cheap to code once, expensive at
  coarse quantisers);
* a scene cut half way: the second half pans a different, finer texture, as a concatenated test
  sequence would.

The output is YUV 4:2:0, limited range (Y 16–235, U/V 16–240), written as raw planar I420
(``.yuv``) or as YUV4MPEG2 (``.y4m``: the same samples with a header giving size and rate, which
PyAV and FFmpeg read directly). The same arguments always give the same bytes.

``vidcc video clip OUT.yuv`` writes it; :func:`default_clip` keeps one in a cache directory
(``$VIDCC_CACHE``, else ``$XDG_CACHE_HOME/vidcc``, else ``~/.cache/vidcc``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from fractions import Fraction
from os import PathLike
from pathlib import Path

import numpy as np

from vidcc.video.yuv import VideoError, as_fps, write_atomic, y4m_header

__all__ = ["generate", "frames", "default_clip", "cache_dir"]

_SEGMENT_S = 2.0  # pan speed/direction changes every two seconds


def cache_dir() -> Path:
    """Where generated clips are kept."""
    if os.environ.get("VIDCC_CACHE"):
        return Path(os.environ["VIDCC_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "vidcc"


def _value_noise(rng: np.random.Generator, shape: tuple[int, int], cells: tuple[int, int]) -> np.ndarray:
    """Periodic value noise: a random lattice of ``cells`` points, bilinear (smoothstep) between."""
    h, w = shape
    ch, cw = cells
    lattice = rng.random((ch, cw))
    fy = np.arange(h) * ch / h
    fx = np.arange(w) * cw / w
    y0 = np.floor(fy).astype(int)
    x0 = np.floor(fx).astype(int)
    ty = fy - y0
    tx = fx - x0
    ty = ty * ty * (3 - 2 * ty)
    tx = tx * tx * (3 - 2 * tx)
    y1 = (y0 + 1) % ch
    x1 = (x0 + 1) % cw
    top = lattice[y0][:, x0] * (1 - tx) + lattice[y0][:, x1] * tx
    bot = lattice[y1][:, x0] * (1 - tx) + lattice[y1][:, x1] * tx
    return top * (1 - ty)[:, None] + bot * ty[:, None]


def _texture(rng: np.random.Generator, shape: tuple[int, int], base_cells: int, octaves: int = 8, decay: float = 0.75) -> np.ndarray:
    """Sum of octaves (lattice doubling, amplitude × ``decay``), normalised to [0, 1], periodic in
    both axes. With the defaults the finest octave has a lattice cell of 1.4–3 pixels: detail that
    a coarse quantiser visibly removes. (Calibrated so that MPEG-4 at q = 2 and q = 31 gives
    roughly the rates of docs/papers/asmp-tfmcc.md's Table 2: ~1.9 Mbit/s and ~140 kbit/s on CIF at 25 fps.)"""
    h, w = shape
    out = np.zeros(shape)
    amp = 1.0
    for o in range(octaves):
        cells = base_cells * 2**o
        out += amp * _value_noise(rng, shape, (max(2, cells * h // w), cells))
        amp *= decay
    out -= out.min()
    return (out / out.max()).astype(np.float32)


def _tiled(tex: np.ndarray, h: int, w: int) -> np.ndarray:
    """A periodic texture padded with its own wrap-around so that any (h, w) window is a slice."""
    return np.concatenate([np.concatenate([tex, tex[:, :w]], axis=1)] * 2, axis=0)[: tex.shape[0] + h]


class _Scene:
    def __init__(self, rng: np.random.Generator, width: int, height: int, base_cells: int):
        # A texture twice the frame in each direction, periodic, so any pan wraps seamlessly.
        th, tw = 2 * height, 2 * width
        self.shape = (th, tw)
        luma = _texture(rng, (th, tw), base_cells)
        luma = np.clip((luma - 0.5) * 1.8 + 0.5, 0, 1)  # more contrast
        self.luma = _tiled(luma, height, width)
        self.cb = _tiled(_texture(rng, (th // 2, tw // 2), 2, octaves=3), height // 2, width // 2)
        self.cr = _tiled(_texture(rng, (th // 2, tw // 2), 2, octaves=3), height // 2, width // 2)
        # One (dx, dy) pan velocity in pixels per frame for each segment.
        self.velocities = rng.choice([-3, -2, -1, 1, 2, 3], size=(64, 2))

    def window(self, oy: int, ox: int, h: int, w: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        th, tw = self.shape
        oy, ox = oy % th, ox % tw
        cy, cx = oy // 2, ox // 2
        return (
            self.luma[oy : oy + h, ox : ox + w],
            self.cb[cy : cy + h // 2, cx : cx + w // 2],
            self.cr[cy : cy + h // 2, cx : cx + w // 2],
        )


def frames(
    seconds: float = 10, fps: float | Fraction | str = 25, size: tuple[int, int] = (352, 288), seed: int = 0
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Yield the clip's frames as (Y, U, V) uint8 planes, Y of shape (height, width)."""
    width, height = _check_size(size)
    rate = as_fps(fps)
    count = int(round(float(seconds) * rate))
    if count < 1:
        raise VideoError(f"a clip needs at least one frame: {seconds} s at {rate} fps gives {count}")
    rng = np.random.default_rng(np.random.SeedSequence([0x76696463, seed]))  # "vidc"
    scenes = [_Scene(rng, width, height, base_cells=4), _Scene(rng, width, height, base_cells=8)]
    cut = count // 2 if count >= 4 else count
    xs = np.arange(width, dtype=np.float32)
    ys = np.arange(height, dtype=np.float32)
    # Objects: centre path (Lissajous), size, own texture, brightness and chroma.
    objects = []
    for k in range(4):
        radius = float(rng.uniform(0.08, 0.16) * min(width, height))
        box = int(np.ceil(1.7 * radius)) + 2  # half-size of the box that holds the object
        objects.append(
            dict(
                ax=rng.uniform(0.25, 0.45) * width,
                ay=rng.uniform(0.2, 0.4) * height,
                fx=rng.uniform(0.05, 0.25),
                fy=rng.uniform(0.05, 0.25),
                phase=rng.uniform(0, 2 * np.pi, 2),
                radius=radius,
                box=box,
                tex=_texture(rng, (2 * box + 6, 2 * box + 6), 4, octaves=4),
                luma=rng.uniform(0.15, 0.85),
                cb=rng.uniform(-0.3, 0.3),
                cr=rng.uniform(-0.3, 0.3),
                bar=k == 3,
            )
        )
    lw, lh = max(8, width // 6), max(8, height // 10)
    logo = (0.15 + 0.7 * ((np.arange(lw)[None, :] // 2 + np.arange(lh)[:, None] // 6) % 2)).astype(np.float32)
    offsets = [np.zeros(2, int), np.zeros(2, int)]
    for n in range(count):
        t = n / float(rate)
        s = 0 if n < cut else 1
        scene = scenes[s]
        seg = int(t // _SEGMENT_S) % len(scene.velocities)
        offsets[s] = offsets[s] + scene.velocities[seg]
        y, u, v = scene.window(int(offsets[s][1]), int(offsets[s][0]), height, width)
        # Travelling lighting gradient, ±0.12 of the range.
        angle = 0.3 * t
        ramp = (xs[None, :] * np.float32(np.cos(angle)) + ys[:, None] * np.float32(np.sin(angle))) / (width + height)
        y = 0.8 * y + 0.12 * np.sin(np.float32(2 * np.pi) * (ramp + np.float32(0.1 * t))) + np.float32(0.1)
        u = 0.5 + 0.25 * (u - 0.5)
        v = 0.5 + 0.25 * (v - 0.5)
        for obj in objects:
            px = width / 2 + obj["ax"] * np.sin(2 * np.pi * obj["fx"] * t + obj["phase"][0])
            py = height / 2 + obj["ay"] * np.sin(2 * np.pi * obj["fy"] * t + obj["phase"][1])
            b, r = obj["box"], obj["radius"]
            # The object's box, clipped to the frame, even-aligned for the chroma planes.
            x0, x1 = max(0, (int(px) - b) & ~1), min(width, (int(px) + b + 1) & ~1)
            y0, y1 = max(0, (int(py) - b) & ~1), min(height, (int(py) + b + 1) & ~1)
            if x1 <= x0 or y1 <= y0:
                continue
            dx = xs[x0:x1][None, :] - np.float32(px)
            dy = ys[y0:y1][:, None] - np.float32(py)
            if obj["bar"]:  # a rotating bar: distance to a rectangle turned by angle a
                a = 0.8 * t
                along = dx * np.float32(np.cos(a)) + dy * np.float32(np.sin(a))
                across = dy * np.float32(np.cos(a)) - dx * np.float32(np.sin(a))
                dist = np.maximum(np.abs(along) - 1.6 * r, 0) + np.maximum(np.abs(across) - 0.25 * r, 0)
                alpha = np.clip(1.5 - dist, 0, 1)
            else:
                alpha = np.clip(r + 0.5 - np.sqrt(dx * dx + dy * dy), 0, 1)  # one-pixel soft edge
            # The object carries its texture with it (texture origin just outside the box corner).
            oy, ox = int(py) - b - 2, int(px) - b - 2
            tex = obj["tex"][y0 - oy : y1 - oy, x0 - ox : x1 - ox]
            patch = y[y0:y1, x0:x1]
            y[y0:y1, x0:x1] = patch + alpha * (obj["luma"] + 0.35 * (tex - 0.5) - patch)
            a2 = alpha[0::2, 0::2]
            cu, cv = u[y0 // 2 : y1 // 2, x0 // 2 : x1 // 2], v[y0 // 2 : y1 // 2, x0 // 2 : x1 // 2]
            u[y0 // 2 : y1 // 2, x0 // 2 : x1 // 2] = cu + a2 * (0.5 + obj["cb"] - cu)
            v[y0 // 2 : y1 // 2, x0 // 2 : x1 // 2] = cv + a2 * (0.5 + obj["cr"] - cv)
        y[:lh, width - lw :] = logo
        yield (
            np.clip(np.rint(16 + 219 * y), 16, 235).astype(np.uint8),
            np.clip(np.rint(16 + 224 * u), 16, 240).astype(np.uint8),
            np.clip(np.rint(16 + 224 * v), 16, 240).astype(np.uint8),
        )


def _check_size(size) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in size)
    except (TypeError, ValueError):
        raise VideoError(f"invalid size {size!r}: expected (width, height)") from None
    if width < 16 or height < 16 or width % 2 or height % 2:
        raise VideoError(f"invalid size {width}x{height}: width and height must be even and at least 16 (4:2:0)")
    return width, height


def generate(
    path: str | PathLike[str],
    seconds: float = 10,
    fps: float | Fraction | str = 25,
    size: tuple[int, int] = (352, 288),
    seed: int = 0,
) -> Path:
    """Write the clip to ``path``: YUV4MPEG2 if it ends in ``.y4m``, else raw planar I420.
    Written through a temporary file, so an interrupted run leaves no partial clip."""
    out = Path(path)
    width, height = _check_size(size)
    rate = as_fps(fps)
    y4m = out.suffix.lower() == ".y4m"

    def write(tmp: Path) -> None:
        with open(tmp, "wb") as f:
            if y4m:
                f.write(y4m_header(width, height, rate))
            for y, u, v in frames(seconds, rate, (width, height), seed):
                if y4m:
                    f.write(b"FRAME\n")
                f.write(y.tobytes())
                f.write(u.tobytes())
                f.write(v.tobytes())

    try:
        out.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise VideoError(f"{out}: cannot create directory {out.parent}: {e.strerror or e}") from None
    write_atomic(out, write)
    return out


def default_clip(seconds: float = 10, fps: float | Fraction | str = 25, size: tuple[int, int] = (352, 288), seed: int = 0) -> Path:
    """The cached clip for these arguments (a ``.y4m``), generated on first use."""
    width, height = _check_size(size)
    rate = as_fps(fps)
    rate_s = f"{rate.numerator}" if rate.denominator == 1 else f"{rate.numerator}-{rate.denominator}"
    name = f"vidcc-{width}x{height}-{rate_s}fps-{float(seconds):g}s-seed{seed}.y4m"
    d = cache_dir()
    d.mkdir(parents=True, exist_ok=True)
    path = d / name
    if not path.exists():
        generate(path, seconds, rate, (width, height), seed)
    return path
