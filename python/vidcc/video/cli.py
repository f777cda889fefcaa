"""``vidcc video clip | prepare | quality``: the argument parsers and handlers, registered on the
main ``vidcc`` parser by :func:`add_video_parser`.

Exit codes as for every vidcc command: 0 success, 2 bad usage or bad input (one ``error: ...``
line), 1 a failure while working (the encoder, the disk).
"""

from __future__ import annotations

import argparse
import sys

from vidcc.cli_common import print_error

__all__ = ["add_video_parser"]


def _int_list(text: str) -> list[int]:
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid list {text!r}: expected integers separated by commas, e.g. 31,10,4") from None
    return values


def _positive(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected a positive integer") from None
    if v < 1:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected a positive integer")
    return v


def _non_negative(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected an integer >= 0") from None
    if v < 0:
        raise argparse.ArgumentTypeError(f"invalid value {text!r}: expected an integer >= 0")
    return v


def add_video_parser(sub) -> None:
    """Add ``video`` and its actions to the main parser's subparsers."""
    p = sub.add_parser(
        "video",
        help="real video: test clip, encodings and traces, PSNR/SSIM/MOS of a run",
        description="Real video quality, the Evalvid way (docs/video.md).",
    )
    actions = p.add_subparsers(dest="video_command", metavar="ACTION", parser_class=type(p))
    actions.required = True

    c = actions.add_parser("clip", help="write the project's generated test clip",
                           description="Write the generated test clip (moving textured content, deterministic).")
    c.add_argument("out", metavar="OUT", help="output file: .y4m (YUV4MPEG2) or anything else for raw I420 (.yuv)")
    c.add_argument("--seconds", type=float, default=10.0, help="length (default 10)")
    c.add_argument("--fps", default="25", help="frame rate (default 25)")
    c.add_argument("--size", default="352x288", help="WIDTHxHEIGHT (default 352x288, CIF)")
    c.add_argument("--seed", type=_non_negative, default=0, help="content seed (default 0)")
    c.set_defaults(func=_cmd_clip)

    e = actions.add_parser(
        "prepare", help="encode a clip at each quantizer: bitstreams, Evalvid traces, decoded frames",
        description="Encode INPUT once per quantizer and write bitstreams, Evalvid sender traces (decode order, "
                    "frameId = display index), decoded frames, the original as raw YUV and manifest.json.",
    )
    e.add_argument("input", metavar="INPUT", help="a clip: raw YUV 4:2:0 (.yuv, needs --size), .y4m, or any file PyAV reads")
    e.add_argument("--codec", default="mpeg4", choices=("mpeg4", "libx264"), help="encoder (default mpeg4, MPEG-4 Part 2)")
    e.add_argument("--gop", type=_positive, default=12, help="GOP length in frames (default 12)")
    e.add_argument("--bframes", type=_non_negative, default=2, help="B frames between anchors (default 2: IBBPBBPBBPBB)")
    e.add_argument("--fps", default=None, help="frame rate (raw input: default 25; other input: its own rate)")
    e.add_argument("--size", default=None, help="WIDTHxHEIGHT (required for raw .yuv; rescales other input)")
    e.add_argument("--quantizers", default="2-31", help="quantizers, e.g. 2-31 or 2,10,31 (default 2-31; mpeg4: 1-31)")
    e.add_argument("--packet-size", type=_positive, default=1000, help="payload bytes per packet for the traces (default 1000)")
    e.add_argument("--frames", type=_positive, default=None, help="use only the first N frames")
    e.add_argument("--jobs", "-j", type=_positive, default=None, help="encodings in parallel (default: one per CPU)")
    e.add_argument("--out", metavar="DIR", default=None, help="output directory (default: prepared/<input stem>)")
    e.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    e.set_defaults(func=_cmd_prepare)

    q = actions.add_parser(
        "quality", help="PSNR, SSIM and MOS of what each receiver of a run could show",
        description="Rebuild each video flow's displayed frames from RUN_DIR/frames.parquet (unusable frames "
                    "conceal by repeating the last shown frame), score them against the original, and write "
                    "RUN_DIR/quality.parquet and RUN_DIR/quality.json.",
    )
    q.add_argument("run_dir", metavar="RUN_DIR", help="a run's output directory (holds frames.parquet)")
    q.add_argument("--prepared", metavar="DIR", default=None,
                   help="prepared directory (default: from each flow's video config: prepared, or the directory of its trace)")
    q.add_argument("--encodings", type=_int_list, default=None, metavar="Q,Q,...",
                   help="quantizer of each `encoding` index (default: the flow's traces, else all prepared quantizers)")
    q.add_argument("--layer-quantizers", type=_int_list, default=None, metavar="Q1,Q2,...",
                   help="layered flows: quantizer that L decodable layers look like, base layer first (e.g. 31,10,4)")
    q.add_argument("--flow", type=_non_negative, action="append", default=None, help="only this flow (repeatable)")
    q.add_argument("--no-type-check", action="store_true",
                   help="do not check that the run's frame types match the prepared clip")
    q.add_argument("--quiet", "-q", action="store_true", help="print nothing but errors")
    q.set_defaults(func=_cmd_quality)


def _fail(err) -> int:
    print_error(err)
    return 2


def _cmd_clip(args: argparse.Namespace) -> int:
    from vidcc.video.clip import generate
    from vidcc.video.yuv import VideoError, as_fps, parse_size

    try:
        path = generate(args.out, seconds=args.seconds, fps=as_fps(args.fps), size=parse_size(args.size), seed=args.seed)
    except VideoError as e:
        return _fail(e)
    fmt = "YUV4MPEG2" if path.suffix.lower() == ".y4m" else "raw I420"
    print(f"wrote {path} ({fmt}, {args.size}, {args.fps} fps, {args.seconds:g} s, seed {args.seed})")
    return 0


def _cmd_prepare(args: argparse.Namespace) -> int:
    from pathlib import Path

    from vidcc.video.prepare import prepare
    from vidcc.video.yuv import VideoError

    out = Path(args.out) if args.out else Path("prepared") / Path(args.input).stem
    progress = None
    close = None
    if not args.quiet and sys.stderr.isatty():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        bar = Progress(TextColumn("encoding"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                       console=Console(stderr=True), transient=True)
        task = bar.add_task("encoding", total=None)
        bar.start()
        close = bar.stop

        def progress(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

    try:
        manifest = prepare(
            args.input, out, codec=args.codec, gop=args.gop, bframes=args.bframes, fps=args.fps, size=args.size,
            quantizers=args.quantizers, packet_size=args.packet_size, max_frames=args.frames, jobs=args.jobs,
            progress=progress,
        )
    except VideoError as e:
        return _fail(e)
    finally:
        if close:
            close()
    if not args.quiet:
        from rich import box
        from rich.console import Console
        from rich.table import Table

        m = manifest
        t = Table(title=f"{m['codec']} {m['width']}x{m['height']} {m['fps']} fps, {m['frames']} frames, "
                        f"GOP {m['pattern']}", title_justify="left", box=box.SIMPLE_HEAD)
        for col in ("q", "kbit/s", "PSNR dB", "SSIM", "I bytes", "P bytes", "B bytes"):
            t.add_column(col, justify="right")
        for enc in m["encodings"]:
            mb = enc["mean_frame_bytes"]
            t.add_row(str(enc["quantizer"]), f"{enc['mean_bitrate_bps'] / 1e3:.0f}", f"{enc['mean_psnr_db']:.2f}",
                      f"{enc['mean_ssim']:.4f}", *("-" if mb[k] is None else f"{mb[k]:.0f}" for k in "IPB"))
        console = Console()
        console.print(t)
        console.print(f"prepared in [bold]{out}[/bold] (traces: decode order, frameId = display index)", highlight=False)
    return 0


def _cmd_quality(args: argparse.Namespace) -> int:
    from vidcc.video.quality import evaluate_run
    from vidcc.video.yuv import VideoError

    try:
        result = evaluate_run(
            args.run_dir, args.prepared, encodings=args.encodings, layer_quantizers=args.layer_quantizers,
            flows=args.flow, check_types=not args.no_type_check,
        )
    except VideoError as e:
        return _fail(e)
    if not args.quiet:
        from rich import box
        from rich.console import Console
        from rich.table import Table

        t = Table(title="Video quality (Y plane, against the original)", title_justify="left", box=box.SIMPLE_HEAD)
        for col in ("flow", "frames", "concealed", "PSNR\ndB", "SSIM", "mean\nMOS", "MOS 5/4/3/2/1\n% of frames", "MOS>=4\n%"):
            t.add_column(col, justify="right", no_wrap=True, min_width=max(map(len, col.split("\n"))))
        for f in result.flows:
            share = f["mos_share"]
            t.add_row(str(f["flow"]), str(f["frames"]), str(f["concealed_frames"]), f"{f['mean_psnr_db']:.2f}",
                      f"{f['mean_ssim']:.3f}", f"{f['mean_mos']:.2f}",
                      "/".join(f"{100 * share[str(k)]:.0f}" for k in (5, 4, 3, 2, 1)), f"{100 * f['share_mos_ge_4']:.1f}")
        console = Console()
        console.print(t)
        console.print(f"wrote {args.run_dir}/quality.parquet and quality.json", highlight=False)
    return 0
