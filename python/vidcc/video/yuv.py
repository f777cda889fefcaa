"""Raw video I/O: planar YUV 4:2:0 files, YUV4MPEG2, and any file PyAV can decode.

A frame in memory is one uint8 array of shape ``(height * 3 // 2, width)``: the Y plane, then U,
then V (each ``height/2 × width/2``, stored row after row in the bottom third) — the layout of a
raw I420 file and of PyAV's ``VideoFrame.to_ndarray()`` for ``yuv420p``.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from os import PathLike
from pathlib import Path

import numpy as np

__all__ = [
    "VideoError",
    "parse_size",
    "as_fps",
    "y4m_header",
    "write_atomic",
    "Source",
    "open_source",
    "YuvFile",
    "RAW_SUFFIXES",
]

RAW_SUFFIXES = (".yuv", ".i420", ".iyuv")


class VideoError(ValueError):
    """A problem with a video input, a prepared directory or a run's frame table: one line that
    says what is wrong and where."""

    def __init__(self, message: str):
        super().__init__(" ".join(str(message).split()))


def parse_size(text: str | tuple[int, int]) -> tuple[int, int]:
    """``"352x288"`` → ``(352, 288)``. Width and height must be even (4:2:0) and at least 16."""
    if isinstance(text, tuple):
        width, height = text
    else:
        m = re.fullmatch(r"\s*(\d+)\s*[xX×]\s*(\d+)\s*", str(text))
        if not m:
            raise VideoError(f"invalid size {text!r}: expected WIDTHxHEIGHT, e.g. 352x288")
        width, height = int(m.group(1)), int(m.group(2))
    if width < 16 or height < 16 or width % 2 or height % 2:
        raise VideoError(f"invalid size {width}x{height}: width and height must be even and at least 16 (4:2:0)")
    return int(width), int(height)


def as_fps(value: float | int | str | Fraction) -> Fraction:
    """A frame rate as a Fraction: ``25``, ``"25"``, ``"30000/1001"``, ``29.97``."""
    try:
        if isinstance(value, Fraction):
            rate = value
        elif isinstance(value, float):
            rate = Fraction(value).limit_denominator(1001)
        else:
            rate = Fraction(str(value).strip())
    except (ValueError, ZeroDivisionError, TypeError):
        raise VideoError(f"invalid frame rate {value!r}: expected a positive number such as 25 or 30000/1001") from None
    if rate <= 0 or rate > 1000:
        raise VideoError(f"invalid frame rate {value!r}: expected a number in (0, 1000]")
    return rate


def y4m_header(width: int, height: int, fps: Fraction) -> bytes:
    return f"YUV4MPEG2 W{width} H{height} F{fps.numerator}:{fps.denominator} Ip A1:1 C420jpeg\n".encode()


def write_atomic(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file in the same directory, then rename."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def frame_bytes(width: int, height: int) -> int:
    return width * height * 3 // 2


@dataclass
class Source:
    """An opened input: its geometry, rate, frame count if known, and its frames (I420 arrays)."""

    path: Path
    kind: str  # "raw", "y4m" or "pyav"
    width: int
    height: int
    fps: Fraction
    frames: int | None
    iterate: Callable[[], Iterator[np.ndarray]]


def _y4m_params(path: Path) -> tuple[int, int, Fraction | None, str, int]:
    with open(path, "rb") as f:
        line = f.readline(1024)
    if not line.startswith(b"YUV4MPEG2") or not line.endswith(b"\n"):
        raise VideoError(f"{path}: not a YUV4MPEG2 file (bad header)")
    width = height = None
    fps = None
    chroma = "420"
    for tok in line.decode("ascii", "replace").split()[1:]:
        key, val = tok[0], tok[1:]
        try:
            if key == "W":
                width = int(val)
            elif key == "H":
                height = int(val)
            elif key == "F":
                num, den = val.split(":")
                fps = Fraction(int(num), int(den))
            elif key == "C":
                chroma = val
        except (ValueError, ZeroDivisionError):
            raise VideoError(f"{path}: bad YUV4MPEG2 header field {tok!r}") from None
    if width is None or height is None:
        raise VideoError(f"{path}: YUV4MPEG2 header lacks W or H")
    return width, height, fps, chroma, len(line)


def _open_y4m(path: Path, fps: Fraction | None, max_frames: int | None) -> Source:
    width, height, file_fps, chroma, header = _y4m_params(path)
    if not chroma.startswith("420") or chroma.startswith("420p1"):
        raise VideoError(f"{path}: YUV4MPEG2 chroma C{chroma} is not 8-bit 4:2:0")
    width, height = parse_size((width, height))
    fb = frame_bytes(width, height)
    size = path.stat().st_size - header
    # Every frame is "FRAME" + optional parameters + "\n" + samples; plain "FRAME\n" is the norm.
    count = size // (fb + 6)
    if size != count * (fb + 6):
        count = None  # frame headers with parameters: count while reading
    if max_frames is not None and count is not None:
        count = min(count, max_frames)

    def iterate() -> Iterator[np.ndarray]:
        n = 0
        with open(path, "rb") as f:
            f.seek(header)
            while max_frames is None or n < max_frames:
                tag = f.readline(256)
                if not tag:
                    return
                if not tag.startswith(b"FRAME"):
                    raise VideoError(f"{path}: frame {n}: expected a FRAME marker")
                data = f.read(fb)
                if len(data) != fb:
                    raise VideoError(f"{path}: frame {n} is truncated ({len(data)} of {fb} bytes)")
                yield np.frombuffer(data, np.uint8).reshape(height * 3 // 2, width)
                n += 1

    return Source(path, "y4m", width, height, fps or file_fps or Fraction(25), count, iterate)


def _open_raw(path: Path, size: tuple[int, int] | None, fps: Fraction | None, max_frames: int | None) -> Source:
    if size is None:
        raise VideoError(f"{path}: a raw YUV file needs --size WIDTHxHEIGHT (and --fps)")
    width, height = size
    fb = frame_bytes(width, height)
    total = path.stat().st_size
    if total == 0 or total % fb:
        raise VideoError(
            f"{path}: {total} bytes is not a whole number of {width}x{height} 4:2:0 frames ({fb} bytes each); "
            "check --size"
        )
    count = total // fb if max_frames is None else min(total // fb, max_frames)

    def iterate() -> Iterator[np.ndarray]:
        mm = np.memmap(path, np.uint8, mode="r", shape=(total // fb, height * 3 // 2, width))
        for i in range(count):
            yield np.asarray(mm[i])

    return Source(path, "raw", width, height, fps or Fraction(25), count, iterate)


def _open_pyav(path: Path, size: tuple[int, int] | None, fps: Fraction | None, max_frames: int | None) -> Source:
    import av

    try:
        with av.open(str(path)) as container:
            if not container.streams.video:
                raise VideoError(f"{path}: no video stream")
            stream = container.streams.video[0]
            width = stream.codec_context.width
            height = stream.codec_context.height
            rate = stream.average_rate or stream.guessed_rate
            count = stream.frames or None
    except av.error.FFmpegError as e:
        raise VideoError(f"{path}: cannot read as video ({e.strerror or e})") from None
    if size is not None:
        width, height = size
    else:
        width, height = width - width % 2, height - height % 2
        parse_size((width, height))
    if fps is None:
        fps = Fraction(rate) if rate else Fraction(25)
    if max_frames is not None and count is not None:
        count = min(count, max_frames)

    def iterate() -> Iterator[np.ndarray]:
        n = 0
        try:
            with av.open(str(path)) as container:
                for frame in container.decode(video=0):
                    if max_frames is not None and n >= max_frames:
                        return
                    if frame.width != width or frame.height != height or frame.format.name != "yuv420p":
                        frame = frame.reformat(width=width, height=height, format="yuv420p")
                    yield frame.to_ndarray()
                    n += 1
        except av.error.FFmpegError as e:
            raise VideoError(f"{path}: decoding failed at frame {n} ({e.strerror or e})") from None

    return Source(path, "pyav", width, height, fps, count, iterate)


def open_source(
    path: str | PathLike[str],
    size: tuple[int, int] | str | None = None,
    fps: float | str | Fraction | None = None,
    max_frames: int | None = None,
) -> Source:
    """Open a clip: raw I420 (``.yuv``, needs ``size``), YUV4MPEG2 (``.y4m``) or anything PyAV
    decodes (converted to yuv420p, and scaled if ``size`` differs from the file's)."""
    p = Path(path)
    if not p.exists():
        raise VideoError(f"{p}: no such file")
    if not p.is_file():
        raise VideoError(f"{p}: not a file")
    if size is not None:
        size = parse_size(size)
    rate = as_fps(fps) if fps is not None else None
    if max_frames is not None and max_frames < 1:
        raise VideoError(f"--frames must be at least 1, got {max_frames}")
    suffix = p.suffix.lower()
    if suffix in RAW_SUFFIXES:
        return _open_raw(p, size, rate, max_frames)
    if suffix == ".y4m" and size is None:
        return _open_y4m(p, rate, max_frames)
    return _open_pyav(p, size, rate, max_frames)


class YuvFile:
    """A raw I420 file opened read-only as a memory map; frames are read on demand."""

    def __init__(self, path: str | PathLike[str], width: int, height: int, frames: int | None = None):
        self.path = Path(path)
        self.width, self.height = width, height
        fb = frame_bytes(width, height)
        if not self.path.exists():
            raise VideoError(f"{self.path}: no such file")
        total = self.path.stat().st_size
        if total == 0 or total % fb:
            raise VideoError(f"{self.path}: {total} bytes is not a whole number of {width}x{height} 4:2:0 frames")
        self.frames = total // fb
        if frames is not None and frames != self.frames:
            raise VideoError(f"{self.path}: holds {self.frames} frames, expected {frames}")
        self._mm = np.memmap(self.path, np.uint8, mode="r", shape=(self.frames, height * 3 // 2, width))

    def y(self, index) -> np.ndarray:
        """Y planes of the frames at ``index`` (an int or an array of ints): (H, W) or (N, H, W)."""
        return np.asarray(self._mm[:, : self.height, :][index])

    def frame(self, index: int) -> np.ndarray:
        return np.asarray(self._mm[index])
