"""``vidcc video quality``: rebuild what each receiver could show and score it (the Evalvid /
Evalvid-RA post-processing, docs/papers/asmp-tfmcc.md §2 and §4).

Input: a run's per-frame outcomes (``frames.parquet``, one row per video flow and frame, written by
the simulator) and a prepared directory (``vidcc video prepare``). Per flow:

1. **Usable frames.** A frame is usable when the simulator marked it ``decodable`` (all its
   packets arrived before the deadline and its references were usable); for a layered flow it also
   needs at least one decodable layer (``layers_decodable >= 1``).
2. **Concealment** (Evalvid's ``fixyuv``): the receiver shows, in frame k's slot, the last usable
   frame j <= k; an unusable frame repeats the last shown frame. Before the first usable frame the
   receiver shows mid-grey (Y = U = V = 128).
3. **Which decoded picture a usable frame shows.** Rate-adaptive and single-rate flows: the decoded
   frame of the encoding the sender used for that frame (``encoding`` column: an index into the
   flow's encoding list — the quantisers named by the run's video config, else all prepared
   quantisers in ascending order). Layered flows: the *encoding that matches the layers received*:
   with L cumulative layers decodable the frame is scored as the single-layer encoding at the L-th
   entry of the flow's layer map (``layer_quantizers``, base layer first: e.g. ``[31, 10, 4]``
   scores one layer as q31, two as q10, three as q4).
4. **Scores** against the ORIGINAL frame of the slot (not the sent encoding): PSNR on Y (peak 255,
   capped at 100 dB), SSIM on Y (8×8 windows every 4 pixels), MOS class per frame (Evalvid
   thresholds, strict ">"), the share of frames per class, mean PSNR and mean MOS.

Runs longer than the clip wrap around it: slot k uses original and decoded frame k mod N (the
simulator's trace source loops the same way). A frame the table does not list was never received
(status ``missing``: unusable). Frames marked ``pending`` (the run ended before their fate was
known) end the scored window: the flow is scored up to the first of them in display order.

Limits of the model. A repeated frame is scored against the current original, so a frozen picture
loses quality as the scene moves (as in Evalvid). Decoded frames are taken whole from each
encoding: switching encodings at a GOP boundary ignores that the last B frames of an open GOP were
predicted from the next GOP's I frame of the *same* encoding (a small mismatch the real decoder
would show), and the layered model assumes an ideal scalable codec — L layers look exactly like a
single-layer encoding at the quantiser of the map, with no scalability overhead and no drift when
enhancement layers come and go within a GOP.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vidcc.video.metrics import MOS_THRESHOLDS_DB, PSNR_CAP_DB, mos, psnr_ssim
from vidcc.video.prepare import load_manifest
from vidcc.video.yuv import VideoError, YuvFile, write_atomic

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["evaluate", "evaluate_run", "Quality", "Prepared", "GREY", "FRAME_COLUMNS"]

GREY = 128  # what the receiver shows before its first usable frame
FRAME_COLUMNS = ("flow", "frame", "frame_type", "encoding", "layers_sent", "layers_decodable", "decodable", "status")
_CHUNK = 64  # frames scored per numpy call


class Prepared:
    """A prepared directory opened for reading: manifest, original and decoded frames."""

    def __init__(self, directory: str | PathLike[str]):
        self.dir = Path(directory)
        self.manifest = load_manifest(self.dir)
        m = self.manifest
        self.width, self.height, self.frames = m["width"], m["height"], m["frames"]
        self.quantizers: list[int] = [e["quantizer"] for e in m["encodings"]]
        self.frame_types: str = m["frame_types"]
        self.original = YuvFile(self.dir / m["original"], self.width, self.height, self.frames)
        self._decoded: dict[int, YuvFile] = {}
        # (shown encoding + 1, shown frame, original frame) -> (PSNR, SSIM): the score of a pair of
        # pictures never changes, and across receivers and runs the same pairs recur (every slot
        # that shows its own frame, every freeze on the same picture). At most
        # (encodings + 1) x frames^2 entries; a paper suite sees a small share of that.
        self._pair_scores: dict[int, tuple[float, float]] = {}

    def decoded(self, index: int) -> YuvFile:
        if index not in self._decoded:
            e = self.manifest["encodings"][index]
            self._decoded[index] = YuvFile(self.dir / e["decoded"], self.width, self.height, self.frames)
        return self._decoded[index]

    def index_of(self, quantizers: Sequence[int], what: str) -> np.ndarray:
        """Manifest indices of quantisers (error naming ``what`` if one was not prepared)."""
        out = []
        for q in quantizers:
            try:
                out.append(self.quantizers.index(int(q)))
            except ValueError:
                have = ", ".join(map(str, self.quantizers))
                raise VideoError(f"{what}: quantizer {q} was not prepared in {self.dir} (it has {have})") from None
        return np.asarray(out, np.int64)

    def index_of_trace(self, trace: str | PathLike[str]) -> int:
        name = Path(trace).name
        for i, e in enumerate(self.manifest["encodings"]):
            if e["trace"] == name:
                return i
        raise VideoError(f"{trace}: not one of the traces in {self.dir}")


@dataclass
class Quality:
    """The result of an evaluation: one row per (flow, frame), and one summary per flow; with a
    ``receiver`` column in the frames table (a run's: multicast flows have a row per receiver),
    per (flow, receiver, frame) and per (flow, receiver)."""

    frames: "pd.DataFrame"
    flows: list[dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def summary(self) -> dict[str, Any]:
        return {**self.meta, "flows": self.flows}

    def flow(self, flow: int, receiver: int | None = None) -> dict[str, Any]:
        """The summary of ``flow`` (its first receiver's, unless ``receiver`` is given)."""
        for f in self.flows:
            if f["flow"] == flow and (receiver is None or f.get("receiver") == receiver):
                return f
        raise KeyError(flow if receiver is None else (flow, receiver))

    def write(self, out_dir: str | PathLike[str]) -> Path:
        """Write ``quality.parquet`` (per frame) and ``quality.json`` (per flow)."""
        out = Path(out_dir)
        out.mkdir(parents=True, exist_ok=True)
        df = self.frames
        write_atomic(out / "quality.parquet", lambda p: df.to_parquet(p, engine="pyarrow", index=False))
        text = json.dumps(self.summary, indent=2, allow_nan=False) + "\n"
        write_atomic(out / "quality.json", lambda p: p.write_text(text, encoding="utf-8"))
        return out


def _meta() -> dict[str, Any]:
    return {
        "reference": "original frames (PSNR/SSIM include quantisation loss)",
        "psnr": f"Y plane, peak 255, capped at {PSNR_CAP_DB:g} dB when MSE = 0",
        "ssim": "Y plane, Wang et al. 2004 constants, 8x8 windows every 4 pixels, mean over windows",
        "mos_thresholds_db": list(MOS_THRESHOLDS_DB),
        "mos_rule": "PSNR > 37 dB: 5, > 31: 4, > 25: 3, > 20: 2, else 1 (Evalvid mos.c)",
        "concealment": "unusable frame: repeat the last shown frame; none shown yet: mid-grey (Y=U=V=128)",
    }


def _int_column(g: "pd.DataFrame", name: str, flow) -> np.ndarray:
    col = g[name]
    if col.isna().any():
        raise VideoError(f"frames table: flow {flow}: column {name!r} has missing values")
    values = col.to_numpy()
    if values.dtype.kind not in "iu":
        if values.dtype.kind == "f" and np.all(values == np.floor(values)):
            values = values.astype(np.int64)
        else:
            raise VideoError(f"frames table: column {name!r} must hold integers, got {col.dtype}")
    return values.astype(np.int64)


def _bool_column(g: "pd.DataFrame", name: str, flow) -> np.ndarray:
    col = g[name]
    if col.isna().any():
        raise VideoError(f"frames table: flow {flow}: column {name!r} has missing values")
    values = col.to_numpy()
    if values.dtype == bool:
        return values
    if values.dtype.kind in "iu" and np.isin(values, (0, 1)).all():
        return values.astype(bool)
    raise VideoError(f"frames table: column {name!r} must be boolean, got {col.dtype}")


def _score(prep: Prepared, n: int, shown: np.ndarray, shown_enc: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """PSNR and SSIM of every slot: shown picture (encoding, frame) against the original. Each
    distinct pair of pictures is scored once per :class:`Prepared` (the kernel scores every pair
    on its own, so a remembered score is the one it would compute again)."""
    frames = prep.frames
    ref_idx = np.arange(n) % frames
    # A grey slot (encoding -1) shows the same picture whatever frame it names.
    src_idx = np.where((shown >= 0) & (shown_enc >= 0), shown, 0) % frames
    keys = ((shown_enc.astype(np.int64) + 1) * frames + src_idx) * frames + ref_idx
    unique, inverse = np.unique(keys, return_inverse=True)
    cache = prep._pair_scores
    todo = np.asarray([k for k in unique.tolist() if k not in cache], np.int64)
    enc_of, rest = np.divmod(todo, frames * frames)
    src_of, ref_of = np.divmod(rest, frames)
    for e1 in np.unique(enc_of):
        sel = np.flatnonzero(enc_of == e1)
        for lo in range(0, len(sel), _CHUNK):
            part = sel[lo : lo + _CHUNK]
            ref = prep.original.y(ref_of[part])
            if e1 == 0:
                test = np.full_like(ref, GREY)
            else:
                test = prep.decoded(int(e1) - 1).y(src_of[part])
            p, s = psnr_ssim(ref, test)
            cache.update(zip(todo[part].tolist(), zip(p.tolist(), s.tolist())))
    scored = np.asarray([cache[k] for k in unique.tolist()], np.float64).reshape(-1, 2)
    return scored[inverse.reshape(-1), 0].copy(), scored[inverse.reshape(-1), 1].copy()


def _evaluate_flow(
    flow,
    g: "pd.DataFrame",
    prep: Prepared,
    encodings: Sequence[int] | None,
    layer_quantizers: Sequence[int] | None,
    check_types: bool,
    receiver=None,
) -> tuple["pd.DataFrame", dict[str, Any]]:
    import pandas as pd

    # A multicast flow has a frames row per receiver and frame: each receiver is scored alone.
    who = f"flow {flow}" if receiver is None else f"flow {flow} receiver {receiver}"

    g = g.sort_values("frame", kind="stable")
    frame_col = _int_column(g, "frame", flow)
    if frame_col.size and frame_col[0] < 0:
        raise VideoError(f"frames table: {who}: negative frame index {frame_col[0]}")
    dup = np.flatnonzero(np.diff(frame_col) == 0)
    if dup.size:
        raise VideoError(f"frames table: {who}: frame {frame_col[dup[0]]} appears more than once")
    status_col = g["status"].astype(str).to_numpy() if "status" in g.columns else None
    pending = 0
    if status_col is not None and np.any(status_col == "pending"):
        # The run ended before these frames' fate was known: the scored window ends at the
        # first of them (display order), as the simulator's delivery metrics do.
        cut = int(frame_col[status_col == "pending"].min())
        keep = frame_col < cut
        pending = int((~keep).sum())
        g, frame_col, status_col = g[keep], frame_col[keep], status_col[keep]
    if frame_col.size == 0:
        raise VideoError(f"frames table: {who}: no frames to score" + (" (all pending)" if pending else ""))
    # Slots 0..last: a frame the table does not list was never received (status "missing").
    n = int(frame_col[-1]) + 1
    present = np.zeros(n, bool)
    present[frame_col] = True

    def spread(values: np.ndarray, fill) -> np.ndarray:
        out = np.full(n, fill, dtype=values.dtype if values.dtype != object else object)
        out[frame_col] = values
        return out

    frame = np.arange(n)
    usable = spread(_bool_column(g, "decodable", flow), False)
    clip_types = np.frombuffer(prep.frame_types.encode(), dtype="S1").astype(str)[frame % prep.frames]
    types = None
    if "frame_type" in g.columns:
        types = clip_types.astype(object)
        types[frame_col] = g["frame_type"].astype(str).to_numpy()
        if check_types:
            bad = np.flatnonzero(present & (types != clip_types))
            if bad.size:
                k = int(bad[0])
                raise VideoError(
                    f"frames table: {who}: frame {k} is {str(types[k])!r} but the prepared clip's frame "
                    f"{k % prep.frames} is {str(clip_types[k])!r}: the run did not send this clip (check the flow's trace, "
                    "or pass --no-type-check)"
                )
    status = None
    if status_col is not None:
        status = np.full(n, "missing", dtype=object)
        status[frame_col] = status_col

    layered = layer_quantizers is not None
    enc_of_frame = np.full(n, -1, np.int64)
    if layered:
        if "layers_decodable" not in g.columns:
            raise VideoError(f"frames table: {who}: a layer map was given but there is no 'layers_decodable' column")
        layers = spread(_int_column(g, "layers_decodable", flow), 0)
        usable &= layers >= 1
        lmap = prep.index_of([int(q) for q in layer_quantizers], f"{who} layer map")
        over = np.flatnonzero(usable & (layers > len(lmap)))
        if over.size:
            k = int(over[0])
            raise VideoError(
                f"frames table: {who}: frame {k} has {layers[k]} decodable layers but the layer map "
                f"has {len(lmap)} entries ({', '.join(map(str, layer_quantizers))})"
            )
        enc_of_frame[usable] = lmap[layers[usable] - 1]
        model = "layered"
    else:
        if "layers_sent" in g.columns and _int_column(g, "layers_sent", flow).max() > 1:
            raise VideoError(
                f"{who} is layered (up to {int(g['layers_sent'].max())} layers) but no layer map was given: "
                "pass --layer-quantizers Q1,Q2,... (base layer first) or set video.layer_quantizers"
            )
        enc = spread(_int_column(g, "encoding", flow), 0) if "encoding" in g.columns else np.zeros(n, np.int64)
        table = prep.index_of(encodings, f"{who} encodings") if encodings is not None else np.arange(len(prep.quantizers))
        bad = np.flatnonzero(usable & ((enc < 0) | (enc >= len(table))))
        if bad.size:
            k = int(bad[0])
            raise VideoError(
                f"frames table: {who}: frame {k} uses encoding {enc[k]}, outside 0..{len(table) - 1} "
                f"(the flow's encodings are quantizers {', '.join(str(prep.quantizers[i]) for i in table)})"
            )
        enc_of_frame[usable] = table[enc[usable]]
        model = "single-layer"

    # Concealment: slot k shows the last usable frame j <= k (-1: nothing yet, grey).
    shown = np.maximum.accumulate(np.where(usable, np.arange(n), -1))
    shown_enc = np.where(shown >= 0, enc_of_frame[np.maximum(shown, 0)], -1)
    psnr, ssim = _score(prep, n, shown, shown_enc)
    classes = mos(psnr)
    qarr = np.asarray(prep.quantizers)
    out = pd.DataFrame({
        "flow": np.full(n, _plain(flow)),
        **({"receiver": np.full(n, _plain(receiver))} if receiver is not None else {}),
        "frame": frame,
        "frame_type": types if types is not None else clip_types,
        **({"status": status.astype(str)} if status is not None else {}),
        "usable": usable,
        "concealed": ~usable,
        "shown_frame": shown,
        "shown_quantizer": np.where(shown_enc >= 0, qarr[np.maximum(shown_enc, 0)], -1),
        "psnr_db": psnr,
        "ssim": ssim,
        "mos": classes,
    })
    share = {str(c): float(np.mean(classes == c)) for c in range(1, 6)}
    mean_psnr = float(np.mean(psnr))
    summary: dict[str, Any] = {
        "flow": _plain(flow),
        **({"receiver": _plain(receiver)} if receiver is not None else {}),
        "model": model,
        "prepared": str(prep.dir),
        "frames": n,
        "usable_frames": int(usable.sum()),
        "concealed_frames": int((~usable).sum()),
        "grey_frames": int((shown < 0).sum()),
        "missing_frames": int(n - present.sum()),
        "pending_frames": pending,
        "mean_psnr_db": mean_psnr,
        "min_psnr_db": float(np.min(psnr)),
        "mean_ssim": float(np.mean(ssim)),
        "mean_mos": float(np.mean(classes)),
        "mos_of_mean_psnr": mos(mean_psnr),
        "mos_share": share,
        "share_mos_ge_3": float(np.mean(classes >= 3)),
        "share_mos_ge_4": float(np.mean(classes >= 4)),
        "quantizers_shown": {str(q): int(c) for q, c in zip(*np.unique(out["shown_quantizer"][shown >= 0], return_counts=True))},
        "clip_frames": prep.frames,
        "clip_passes": math.ceil(n / prep.frames),
    }
    if encodings is not None and not layered:
        summary["encodings"] = [int(q) for q in encodings]
    if layered:
        summary["layer_quantizers"] = [int(q) for q in layer_quantizers]
    if status is not None:
        names, counts = np.unique(status.astype(str), return_counts=True)
        summary["status_counts"] = {str(k): int(v) for k, v in zip(names, counts)}
    return out, summary


def _check_columns(frames) -> None:
    import pandas as pd

    if not isinstance(frames, pd.DataFrame):
        raise VideoError(f"frames must be a pandas DataFrame, got {type(frames).__name__}")
    missing = [c for c in ("flow", "frame", "decodable") if c not in frames.columns]
    if missing:
        raise VideoError(f"frames table: missing column(s) {', '.join(missing)} (expected {', '.join(FRAME_COLUMNS)})")
    if frames.empty:
        raise VideoError("frames table: no rows (the run had no video flows?)")


def _plain(v):
    return v.item() if isinstance(v, np.generic) else v


def evaluate(
    frames: "pd.DataFrame",
    prepared: str | PathLike[str] | Prepared,
    *,
    encodings: Sequence[int] | None = None,
    layer_quantizers: Sequence[int] | None = None,
    flows: Iterable[int] | None = None,
    check_types: bool = True,
) -> Quality:
    """Score every flow of a frames table against one prepared directory.

    ``frames`` has the columns of a run's ``frames.parquet`` (required: ``flow``, ``frame``,
    ``decodable``; used when present: ``frame_type``, ``encoding``, ``layers_sent``,
    ``layers_decodable``, ``status``). ``encodings``: the quantiser of each ``encoding`` index
    (default: the prepared quantisers in ascending order). ``layer_quantizers``: the layer map
    (base layer first); when given, flows are scored by ``layers_decodable``."""
    import pandas as pd

    _check_columns(frames)
    prep = prepared if isinstance(prepared, Prepared) else Prepared(prepared)
    wanted = None if flows is None else set(flows)
    tables, summaries = [], []
    per_receiver = "receiver" in frames.columns
    for key, g in frames.groupby(["flow", "receiver"] if per_receiver else ["flow"], sort=True):
        flow, receiver = key[0], (key[1] if per_receiver else None)
        if wanted is not None and _plain(flow) not in wanted:
            continue
        t, s = _evaluate_flow(flow, g, prep, encodings, layer_quantizers, check_types, receiver)
        tables.append(t)
        summaries.append(s)
    if wanted is not None:
        absent = sorted(wanted - {s["flow"] for s in summaries})
        if absent:
            raise VideoError(f"frames table: no flow {absent[0]}")
    return Quality(pd.concat(tables, ignore_index=True), summaries, _meta())


# --------------------------------------------------------------------------------------------
# Runs: per-flow settings from the run's scenario (summary.json) and flows table.


def _video_configs(run_dir: Path) -> tuple[dict[int, dict[str, Any]], Path]:
    """flow id → that flow's ``video`` table (user-level scenario), and the directory that
    relative paths in it are relative to."""
    summary_path = run_dir / "summary.json"
    if not summary_path.exists():
        return {}, Path.cwd()
    try:
        summary = json.loads(summary_path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise VideoError(f"{summary_path}: unreadable ({e})") from None
    source = str(summary.get("source", ""))
    base = Path(source).parent if source and not source.startswith("<") else Path.cwd()
    flows_cfg = (summary.get("scenario") or {}).get("flows") or []
    group_of: dict[int, int] = {}
    flows_path = run_dir / "flows.parquet"
    if flows_path.exists():
        import pandas as pd

        ft = pd.read_parquet(flows_path, columns=None)
        if "flow" in ft.columns and "group" in ft.columns:
            group_of = {int(f): int(g) for f, g in zip(ft["flow"], ft["group"])}
    out = {}
    for flow, group in group_of.items():
        if 0 <= group < len(flows_cfg) and isinstance(flows_cfg[group], Mapping):
            video = flows_cfg[group].get("video")
            if isinstance(video, Mapping):
                out[flow] = dict(video)
    return out, base


def _path(value: str, base: Path) -> Path:
    p = Path(value).expanduser()
    if p.is_absolute():
        return p
    return base / p if (base / p).exists() else p


def _settings(flow: int, video: Mapping[str, Any], base: Path) -> tuple[Path | None, list[int] | None, list[int] | None]:
    """(prepared dir, encodings, layer map) that a flow's video table implies."""
    prepared = encodings = layers = None
    traces: list[str] = []
    if isinstance(video.get("traces"), list):
        traces = [str(t) for t in video["traces"]]
    elif isinstance(video.get("trace"), str):
        traces = [video["trace"]]
    if isinstance(video.get("prepared"), str):
        prepared = _path(video["prepared"], base)
    elif traces:
        d = _path(traces[0], base).parent
        if (d / "manifest.json").exists():
            prepared = d
    if isinstance(video.get("quantizers"), list):
        encodings = [int(q) for q in video["quantizers"]]
    elif traces and prepared is not None:
        prep = Prepared(prepared)
        encodings = [prep.quantizers[prep.index_of_trace(t)] for t in traces]
    if isinstance(video.get("layer_quantizers"), list):
        layers = [int(q) for q in video["layer_quantizers"]]
    return prepared, encodings, layers


def evaluate_run(
    run_dir: str | PathLike[str],
    prepared: str | PathLike[str] | None = None,
    *,
    encodings: Sequence[int] | None = None,
    layer_quantizers: Sequence[int] | None = None,
    flows: Iterable[int] | None = None,
    check_types: bool = True,
    write: bool = True,
) -> Quality:
    """Score a run directory's ``frames.parquet``; write ``quality.parquet`` and ``quality.json``
    there. Each flow's prepared directory, encoding list and layer map come from its ``video``
    table in the run's scenario (``prepared`` or the directory of ``trace``/``traces``;
    ``quantizers`` or the quantisers of ``traces``; ``layer_quantizers``); the arguments override
    them for every flow."""
    import pandas as pd

    run = Path(run_dir)
    if not run.is_dir():
        raise VideoError(f"{run}: no such run directory")
    table = run / "frames.parquet"
    if not table.exists():
        raise VideoError(f"{run}: no frames.parquet (the run had no video flows, or was written before video support)")
    try:
        frames = pd.read_parquet(table)
    except Exception as e:  # pyarrow raises several types for a damaged file
        raise VideoError(f"{table}: unreadable ({e})") from None
    _check_columns(frames)
    configs, base = _video_configs(run)
    wanted = None if flows is None else set(flows)
    groups: dict[tuple, list[int]] = {}
    for flow in sorted(frames["flow"].unique().tolist()):
        if wanted is not None and flow not in wanted:
            continue
        cfg_prep, cfg_enc, cfg_layers = _settings(flow, configs.get(flow, {}), base)
        prep = Path(prepared) if prepared is not None else cfg_prep
        if prep is None:
            raise VideoError(f"flow {flow}: no prepared directory: pass --prepared DIR (the run's video config names none)")
        enc = list(encodings) if encodings is not None else cfg_enc
        layers = list(layer_quantizers) if layer_quantizers is not None else cfg_layers
        key = (str(prep), tuple(enc) if enc is not None else None, tuple(layers) if layers is not None else None)
        groups.setdefault(key, []).append(flow)
    if wanted is not None:
        absent = sorted(wanted - {f for fl in groups.values() for f in fl})
        if absent:
            raise VideoError(f"{table}: no flow {absent[0]}")
    parts, summaries = [], []
    for (prep, enc, layers), flow_ids in groups.items():
        q = evaluate(frames, prep, encodings=enc, layer_quantizers=layers, flows=flow_ids, check_types=check_types)
        parts.append(q.frames)
        summaries.extend(q.flows)
    order = sorted(range(len(summaries)), key=lambda i: (summaries[i]["flow"], summaries[i].get("receiver", 0)))
    table = pd.concat(parts, ignore_index=True)
    keys = ["flow", "receiver", "frame"] if "receiver" in table.columns else ["flow", "frame"]
    result = Quality(
        table.sort_values(keys, kind="stable", ignore_index=True),
        [summaries[i] for i in order],
        {**_meta(), "run": str(run)},
    )
    if write:
        result.write(run)
    return result
