"""``vidcc video prepare``: encode a clip once per quantiser and write what a simulation and the
quality evaluation need (the Evalvid / Evalvid-RA pre-processing, docs/papers/asmp-tfmcc.md §2).

For each quantiser q the prepared directory holds

* ``q{q}.m4v`` — the MPEG-4 Part 2 elementary stream (``.264`` for libx264), as Evalvid's clips;
* ``q{q}.trace`` — its frame trace in the Evalvid sender-trace format
  ``frameId type size packets time`` (tab-separated, one line per frame, no header):

  - lines are in **transmission (= decode) order**, the order of the bitstream: an anchor (I/P)
    comes before the B frames that precede it in display order (I0 P3 B1 B2 P6 B4 B5 ...), as
    Evalvid's ``mp4trace`` writes them; a simulator sends frames in line order;
  - ``frameId`` is the frame's **display index, 0-based** (vidcc's frame id everywhere; Evalvid
    numbers lines 1, 2, 3 ... instead — the display index is what ties a trace line to a row of
    a run's ``frames.parquet`` and to the decoded frames);
  - ``type`` I, P or B (what the decoder reports for that frame); ``size`` coded bytes of the frame
    (the VOL/VOS headers the encoder puts before the first frame count in its size);
  - ``packets`` = ceil(size / packet_size), packet_size the payload per packet (default 1000 B);
  - ``time`` = transmission slot in seconds: decode position / fps (6 decimals), non-decreasing;

* ``q{q}.decoded.yuv`` — the bitstream decoded by FFmpeg, raw I420, display order;

plus ``original.yuv`` (the input as raw I420, the reference for PSNR/SSIM), ``encodings.parquet``
(one row per encoding and frame: type, size, packets, PSNR, SSIM) and ``manifest.json`` (written
last; its presence means the directory is complete).

The quantiser is fixed per encoding. For ``mpeg4`` this is FFmpeg's fixed-quality mode, as
``ffmpeg -c:v mpeg4 -qscale:v q`` sets it: ``flags=+qscale`` and ``global_quality = q ·
FF_QP2LAMBDA (118)``, with ``qmin=1``, ``qmax=31``; the GOP is ``gop_size`` frames with
``max_b_frames`` B frames between anchors and scene-cut detection off (``sc_threshold``), so
every GOP follows the pattern. FFmpeg's MPEG-4 encoder cannot close a GOP that has B frames, so
GOPs are open: the last B frames of a GOP also reference the next GOP's I frame. For ``libx264``
the quantiser is ``qp`` (constant QP; x264 keeps its own I/B offsets), closed GOPs, no B-pyramid.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from fractions import Fraction
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np

from vidcc.video.metrics import PSNR_CAP_DB, psnr_ssim
from vidcc.video.yuv import VideoError, YuvFile, frame_bytes, open_source, write_atomic

__all__ = ["prepare", "load_manifest", "parse_quantizers", "gop_pattern", "read_trace", "CODECS", "MANIFEST", "FF_QP2LAMBDA"]

MANIFEST = "manifest.json"
FORMAT = "vidcc-prepared/1"
FF_QP2LAMBDA = 118

CODECS: dict[str, dict[str, Any]] = {
    "mpeg4": {"ext": ".m4v", "format": "m4v", "quantizers": (1, 31), "name": "MPEG-4 Part 2 (FFmpeg mpeg4)"},
    "libx264": {"ext": ".264", "format": "h264", "quantizers": (1, 51), "name": "H.264 (x264)"},
}

_PICT_TYPES = {1: "I", 2: "P", 3: "B", 4: "P", 7: "B"}  # AVPictureType: S(GMC)-VOP is predicted


def parse_quantizers(text: str | Sequence[int], codec: str = "mpeg4") -> list[int]:
    """``"2-31"``, ``"2,10,31"``, ``"2-6,10"`` (or a list of ints) → sorted unique quantisers,
    each checked against the codec's range (mpeg4: 1–31)."""
    lo, hi = CODECS[codec]["quantizers"]
    values: set[int] = set()
    if isinstance(text, str):
        parts = [p.strip() for p in text.split(",")]
        if not text.strip() or any(not p for p in parts):
            raise VideoError(f"invalid quantizers {text!r}: expected a list such as 2-31 or 2,10,31")
        for part in parts:
            m = re.fullmatch(r"(-?\d+)(?:\s*-\s*(-?\d+))?", part)
            if not m:
                raise VideoError(f"invalid quantizers {text!r}: {part!r} is not a number or a range a-b")
            a = int(m.group(1))
            b = int(m.group(2)) if m.group(2) is not None else a
            if b < a:
                raise VideoError(f"invalid quantizer range {part!r}: the end is below the start")
            values.update(range(a, b + 1))
    else:
        try:
            values.update(int(v) for v in text)
        except (TypeError, ValueError):
            raise VideoError(f"invalid quantizers {text!r}: expected integers") from None
        if not values:
            raise VideoError("no quantizers given")
    bad = sorted(v for v in values if not lo <= v <= hi)
    if bad:
        raise VideoError(f"quantizer {bad[0]} is outside {lo}–{hi}, the range of {codec}")
    return sorted(values)


def gop_pattern(gop: int, bframes: int) -> str:
    """The nominal display-order pattern of one GOP: ``gop_pattern(12, 2)`` = ``IBBPBBPBBPBB``."""
    return "".join("I" if i == 0 else ("P" if i % (bframes + 1) == 0 else "B") for i in range(gop))


def read_trace(path: str | PathLike[str]) -> list[tuple[int, str, int, int, float]]:
    """Read a trace written by :func:`prepare` (or any Evalvid sender trace) as a list of
    ``(frameId, type, size, packets, time)`` in file order."""
    rows = []
    p = Path(path)
    with open(p, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != 5:
                raise VideoError(f"{p}:{n}: expected 5 fields 'frameId type size packets time', got {len(parts)}")
            try:
                rows.append((int(parts[0]), parts[1], int(parts[2]), int(parts[3]), float(parts[4])))
            except ValueError:
                raise VideoError(f"{p}:{n}: bad number in {line.strip()!r}") from None
    return rows


def _encoder_options(codec: str, q: int, gop: int, bframes: int) -> dict[str, str]:
    """The encoder's AVOptions for quantiser q (besides gop_size/max_b_frames/qmin/qmax)."""
    if codec == "mpeg4":
        # `ffmpeg -qscale:v q` codes every frame with lambda = q·FF_QP2LAMBDA; the command line
        # does it by stamping each frame's `quality`, which the library API (PyAV) cannot set, so
        # the rate controller is pinned instead: lambda bounds lmin = lmax = q·118 and no I/B
        # quantiser factors or offsets. Every macroblock of every I, P and B frame gets q.
        return {
            "lmin": str(q * FF_QP2LAMBDA),
            "lmax": str(q * FF_QP2LAMBDA),
            "i_qfactor": "1",
            "i_qoffset": "0",
            "b_qfactor": "1",
            "b_qoffset": "0",
            "sc_threshold": "1000000000",  # no scene-cut I frames: every GOP follows the pattern
        }
    return {
        "qp": str(q),
        "preset": "medium",
        "x264-params": f"keyint={gop}:min-keyint={gop}:scenecut=0:bframes={bframes}:b-adapt=0:b-pyramid=none:open-gop=0",
    }


def _configure(cc, codec: str, q: int, gop: int, bframes: int) -> None:
    cc.gop_size = gop
    cc.max_b_frames = bframes
    cc.thread_count = 1  # one thread: the same bytes on every machine
    if codec == "mpeg4":
        cc.qmin = cc.qmax = q
    cc.options = _encoder_options(codec, q, gop, bframes)


def _encode_one(out: str, codec: str, q: int, width: int, height: int, fps: str, gop: int, bframes: int,
                frames: int, packet_size: int) -> dict[str, Any]:
    """Encode original.yuv at quantiser q, decode it back, score it. Runs in a worker thread."""
    import av

    out_dir = Path(out)
    rate = Fraction(fps)
    tb = 1 / rate
    spec = CODECS[codec]
    original = YuvFile(out_dir / "original.yuv", width, height, frames)
    bitstream = out_dir / f"q{q}{spec['ext']}"
    decoded = out_dir / f"q{q}.decoded.yuv"
    trace = out_dir / f"q{q}.trace"
    packets: list[tuple[int, int]] = []  # (display index, bytes) in decode order

    def collect(container, stream, frame):
        for pkt in stream.encode(frame):
            if pkt.size:
                display = int(round(float(pkt.pts * pkt.time_base * rate))) if pkt.pts is not None else -1
                packets.append((display, pkt.size))
            container.mux(pkt)

    def encode(tmp: Path) -> None:
        with av.open(str(tmp), "w", format=spec["format"]) as container:
            stream = container.add_stream(codec, rate=rate)
            stream.width, stream.height, stream.pix_fmt = width, height, "yuv420p"
            stream.codec_context.time_base = tb
            _configure(stream.codec_context, codec, q, gop, bframes)
            for i in range(frames):
                frame = av.VideoFrame.from_ndarray(original.frame(i), format="yuv420p")
                frame.pts, frame.time_base = i, tb
                collect(container, stream, frame)
            collect(container, stream, None)

    try:
        write_atomic(bitstream, encode)
    except av.error.FFmpegError as e:
        raise VideoError(f"{codec} encoder failed at q={q}: {e}") from None
    if len(packets) != frames or sorted(d for d, _ in packets) != list(range(frames)):
        raise VideoError(f"{codec} at q={q}: the encoder returned {len(packets)} frames for {frames} (frames dropped or reordered)")

    types: list[str] = []
    psnr = np.empty(frames)
    ssim = np.empty(frames)

    def decode(tmp: Path) -> None:
        batch_ref: list[np.ndarray] = []
        batch_dec: list[np.ndarray] = []

        def flush():
            if batch_dec:
                lo = len(types) - len(batch_dec)
                p, s = psnr_ssim(np.stack(batch_ref), np.stack(batch_dec))
                psnr[lo : lo + len(p)], ssim[lo : lo + len(s)] = p, s
                batch_ref.clear()
                batch_dec.clear()

        with open(tmp, "wb") as f, av.open(str(bitstream)) as container:
            for frame in container.decode(video=0):
                n = len(types)
                if n >= frames:
                    raise VideoError(f"{bitstream}: decodes to more than {frames} frames")
                code = int(frame.pict_type)
                if code not in _PICT_TYPES:
                    raise VideoError(f"{bitstream}: frame {n} has picture type {code}, not I, P or B")
                types.append(_PICT_TYPES[code])
                arr = frame.to_ndarray(format="yuv420p") if frame.format.name != "yuv420p" else frame.to_ndarray()
                f.write(arr.tobytes())
                batch_ref.append(original.y(n))
                batch_dec.append(arr[:height])
                if len(batch_dec) == 32:
                    flush()
            flush()
        if len(types) != frames:
            raise VideoError(f"{bitstream}: decodes to {len(types)} frames, expected {frames}")

    try:
        write_atomic(decoded, decode)
    except av.error.FFmpegError as e:
        raise VideoError(f"{bitstream}: decoding failed: {e}") from None

    lines = []
    sizes = np.zeros(frames, np.int64)
    order = np.zeros(frames, np.int64)
    for k, (display, size) in enumerate(packets):
        sizes[display] = size
        order[display] = k
        lines.append(f"{display}\t{types[display]}\t{size}\t{math.ceil(size / packet_size)}\t{float(k * tb):.6f}\n")
    write_atomic(trace, lambda p: p.write_text("".join(lines), encoding="ascii"))

    total = int(sizes.sum())
    kinds = np.array(types)
    return {
        "quantizer": q,
        "bitstream": bitstream.name,
        "trace": trace.name,
        "decoded": decoded.name,
        "bytes": total,
        "mean_bitrate_bps": total * 8 * float(rate) / frames,
        "mean_psnr_db": float(np.mean(psnr)),
        "min_psnr_db": float(np.min(psnr)),
        "mean_ssim": float(np.mean(ssim)),
        "frame_count": {t: int(np.sum(kinds == t)) for t in "IPB"},
        "mean_frame_bytes": {t: (float(sizes[kinds == t].mean()) if np.any(kinds == t) else None) for t in "IPB"},
        "_types": "".join(types),
        "_sizes": sizes.tolist(),
        "_order": order.tolist(),
        "_psnr": psnr.tolist(),
        "_ssim": ssim.tolist(),
    }


def prepare(
    input: str | PathLike[str],
    out_dir: str | PathLike[str],
    *,
    codec: str = "mpeg4",
    gop: int = 12,
    bframes: int = 2,
    fps: float | str | Fraction | None = None,
    size: tuple[int, int] | str | None = None,
    quantizers: str | Sequence[int] = "2-31",
    packet_size: int = 1000,
    max_frames: int | None = None,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, Any]:
    """Encode ``input`` at every quantiser into ``out_dir``; return the manifest (also written
    to ``out_dir/manifest.json``). ``fps``/``size`` are required for raw ``.yuv`` input; for other
    inputs ``size`` rescales and ``fps`` relabels (frames are never dropped or repeated).
    ``jobs`` encodings run in parallel threads (default: one per CPU)."""
    if codec not in CODECS:
        raise VideoError(f"unknown codec {codec!r}: expected one of {', '.join(CODECS)}")
    if not isinstance(gop, int) or gop < 1 or gop > 600:
        raise VideoError(f"invalid GOP length {gop!r}: expected an integer in 1..600")
    if not isinstance(bframes, int) or bframes < 0 or bframes > 8:
        raise VideoError(f"invalid number of B frames {bframes!r}: expected an integer in 0..8")
    if gop > 1 and bframes >= gop:
        raise VideoError(f"{bframes} B frames do not fit in a GOP of {gop}")
    if not isinstance(packet_size, int) or packet_size < 1:
        raise VideoError(f"invalid packet size {packet_size!r}: expected a positive number of bytes")
    qs = parse_quantizers(quantizers, codec)
    source = open_source(input, size=size, fps=fps, max_frames=max_frames)
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise VideoError(f"{out}: exists and is not a directory")
    out.mkdir(parents=True, exist_ok=True)
    stale = out / MANIFEST
    if stale.exists():
        stale.unlink()  # the directory is incomplete until the new manifest is written

    # 1. The original frames, as raw I420: the reference for every metric.
    count = 0

    def write_original(tmp: Path) -> None:
        nonlocal count
        with open(tmp, "wb") as f:
            for frame in source.iterate():
                f.write(np.ascontiguousarray(frame).tobytes())
                count += 1

    write_atomic(out / "original.yuv", write_original)
    if count == 0:
        raise VideoError(f"{source.path}: no frames")

    # 2. One encoding per quantiser, in parallel.
    args = dict(out=str(out), codec=codec, width=source.width, height=source.height, fps=str(source.fps),
                gop=gop, bframes=bframes, frames=count, packet_size=packet_size)
    workers = max(1, min(jobs or os.cpu_count() or 1, len(qs)))
    results: dict[int, dict[str, Any]] = {}
    if progress:
        progress(0, len(qs))
    if workers == 1:
        for q in qs:
            results[q] = _encode_one(q=q, **args)
            if progress:
                progress(len(results), len(qs))
    else:
        # Threads, not processes: PyAV releases the GIL while FFmpeg encodes and decodes, and
        # so does numpy in the metrics, so threads scale with cores without a process start-up.
        with ThreadPoolExecutor(max_workers=workers) as pool:
            futures = [pool.submit(_encode_one, q=q, **args) for q in qs]
            for fut in as_completed(futures):
                r = fut.result()
                results[r["quantizer"]] = r
                if progress:
                    progress(len(results), len(qs))

    # 3. The per-frame table and the manifest (last).
    encodings = [results[q] for q in qs]
    types = encodings[0]["_types"]
    for e in encodings[1:]:
        if e["_types"] != types:
            raise VideoError(f"q={e['quantizer']} has a different frame-type sequence from q={qs[0]}")
    _write_table(out, encodings, count)
    import av

    from vidcc import __version__

    manifest = {
        "format": FORMAT,
        "vidcc_version": __version__,
        "pyav_version": av.__version__,
        "source": str(source.path),
        "codec": codec,
        "codec_name": CODECS[codec]["name"],
        "encoder_options": {
            **({"qmin": "q", "qmax": "q"} if codec == "mpeg4" else {}),
            **{k: ("q*118" if k in ("lmin", "lmax") else "q" if k == "qp" else v)
               for k, v in _encoder_options(codec, 0, gop, bframes).items()},
            "g": str(gop), "bf": str(bframes), "threads": "1",
        },
        "width": source.width,
        "height": source.height,
        "pixel_format": "yuv420p (raw I420: Y, then U, then V)",
        "fps": str(source.fps),
        "fps_float": float(source.fps),
        "frames": count,
        "duration_s": count / float(source.fps),
        "gop": gop,
        "bframes": bframes,
        "pattern": gop_pattern(gop, bframes),
        "open_gop": codec == "mpeg4" and bframes > 0,
        "frame_types": types,
        "packet_size": packet_size,
        "trace_format": "frameId type size packets time",
        "trace_order": "decode",
        "trace_frame_id": "display index, 0-based",
        "original": "original.yuv",
        "table": "encodings.parquet",
        "psnr_cap_db": PSNR_CAP_DB,
        "ssim_window": "8x8 every 4 pixels, Wang et al. 2004 constants",
        "quantizers": qs,
        "encodings": [
            {"index": i, **{k: v for k, v in e.items() if not k.startswith("_")}} for i, e in enumerate(encodings)
        ],
    }
    text = json.dumps(manifest, indent=2) + "\n"
    write_atomic(out / MANIFEST, lambda p: p.write_text(text, encoding="utf-8"))
    return manifest


def _write_table(out: Path, encodings: list[dict[str, Any]], count: int) -> None:
    import pandas as pd

    parts = []
    for i, e in enumerate(encodings):
        sizes = np.asarray(e["_sizes"], np.int64)
        parts.append(pd.DataFrame({
            "encoding": np.full(count, i, np.int32),
            "quantizer": np.full(count, e["quantizer"], np.int32),
            "frame": np.arange(count, dtype=np.int32),
            "decode_index": np.asarray(e["_order"], np.int32),
            "frame_type": list(e["_types"]),
            "size_bytes": sizes,
            "psnr_db": np.asarray(e["_psnr"]),
            "ssim": np.asarray(e["_ssim"]),
        }))
    df = pd.concat(parts, ignore_index=True)
    write_atomic(out / "encodings.parquet", lambda p: df.to_parquet(p, engine="pyarrow", index=False))


def load_manifest(prepared_dir: str | PathLike[str]) -> dict[str, Any]:
    """Read and check ``manifest.json`` of a prepared directory."""
    d = Path(prepared_dir)
    path = d / MANIFEST
    if not d.exists():
        raise VideoError(f"{d}: no such directory")
    if not path.exists():
        raise VideoError(f"{d}: not a prepared directory (no {MANIFEST}; run `vidcc video prepare`)")
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise VideoError(f"{path}: unreadable ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise VideoError(f"{path}: not a {FORMAT} manifest")
    fb = frame_bytes(manifest["width"], manifest["height"])
    for e in manifest["encodings"]:
        f = d / e["decoded"]
        if not f.exists() or f.stat().st_size != fb * manifest["frames"]:
            raise VideoError(f"{f}: missing or not {manifest['frames']} frames; prepare the directory again")
    return manifest
