"""The suite's video (docs/papers/asmp-tfmcc.md §2, Multi-Evalvid-RA): the clip encoded at every
quantiser, carried rate-adaptively by both protocols, and each receiver's picture scored by PSNR and MOS.

* **Clip** (suite): the project's own CIF 25 fps test clip (``vidcc.video.default_clip``, 10 s,
  looped by the simulator): the paper's 10 000-frame concatenation and its 1753-frame
  News/Akiyo/Stefan/Paris sequence are not to be had here. The clip has two scenes (a cut half
  way, a finer texture after it): they stand in for the S3 segments of low and high complexity.
* **Encodings** [P §2]: MPEG-4 Part 2 at every quantiser q = 2..31, GOP 12 with one B frame
  between references (IBPBPBPBPBPB, AMB-11 [C]), 978 B payloads (1018 B packets) — prepared once
  with ``vidcc video prepare`` into a cache directory (``$VIDCC_CACHE``) and reused.
* **Adaptation** [C AMB-13]: the flow's ``traces`` list the 30 traces; the sender's rate picks
  the quantiser per GOP (``media::paced::PacedVideo``, for ASMP and TFMCC alike).
* **No deadline** [P §6.5]: "all received packets are used at the decoder in the frame assembly
  process". The runs carry a 2 s playout delay (the simulator's judge needs some deadline to end
  its measurement window), and :func:`without_deadline` then re-judges every frame with no
  deadline at all: a frame is shown when all its packets arrived and its references are shown,
  however late it came (a frame the judge marked late only for the 2 s playout counts as shown).
* **Deadline** (S3): the paper counts D_pb = 150 ms "relative to the frame transmission time"
  (§6.5; eq. 8's G_i is "the sending time of frame i"): the runs set ``deadline_from = "send"``,
  so a frame is due 150 ms after its first packet left the sender (docs/video.md); a frame never
  sent is due at its ready time + 150 ms and judged unsent or late as the metric defines. The
  suite's earlier reading, 150 ms from the frame's ready time (its wait in the sender's pacing
  buffer counting against the deadline), is the set-up reading ``deadline-from-ready``. What a
  slot shows is §6.5's rule, not the simulator judge's (:func:`paper_display`): a frame that
  misses its slot is still decoded and shown later if it is the newest, so the frames predicted
  from it are not lost with it (the judge, like EvalVid's ``et``, drops a late frame from the
  rebuilt stream and with it every frame predicted from it).
* **Scoring** [P §4]: ``vidcc.video.evaluate`` on each run's ``frames`` table, per receiver:
  PSNR of Y against the original clip (AMB-18 [C]), MOS per frame with the EvalVid thresholds,
  concealment by repeating the last usable frame (EvalVid's ``fixyuv``); the reading
  ``lost_frames = "removed"`` (:func:`removed_display`) leaves the lost frames out of the received
  file and compares it with the reference frame by frame.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vidcc.papers.asmp_tfmcc.common import scoring_key
from vidcc.papers.model import Part

if TYPE_CHECKING:
    import pandas as pd

    from vidcc.papers.measures import FigureData

QUANTIZERS = tuple(range(2, 32))  # q = 2..31 [P §2]
GOP, BFRAMES = 12, 1  # IBPBPBPBPBPB [C AMB-11]
PAYLOAD_BYTES = 978  # 1018 B on the wire [P §1.1]
CLIP_SECONDS = 10
PLAYOUT = "2s"  # "no deadline" (suite)
DEADLINE = "150ms"  # D_pb [P §6.5]
VIDEO_LABELS = ("asmp", "tfmcc")


def prepared_dir() -> Path:
    """Where the suite's encodings live (under the video cache, ``$VIDCC_CACHE``)."""
    from vidcc.video.clip import cache_dir

    return (
        cache_dir()
        / "asmp-tfmcc"
        / f"cif-{CLIP_SECONDS}s-q{QUANTIZERS[0]}-{QUANTIZERS[-1]}-g{GOP}b{BFRAMES}-p{PAYLOAD_BYTES}"
    )


def ensure_prepared(directory: Path | None = None, *, clip: Path | None = None, quantizers=QUANTIZERS) -> Path:
    """The prepared directory, encoding the clip first unless a complete one is there."""
    from vidcc import video

    d = Path(directory) if directory is not None else prepared_dir()
    try:
        if [e["quantizer"] for e in video.load_manifest(d)["encodings"]] == sorted(quantizers):
            return d
    except video.VideoError:
        pass
    video.prepare(
        clip if clip is not None else video.default_clip(CLIP_SECONDS),
        d,
        gop=GOP,
        bframes=BFRAMES,
        quantizers=list(quantizers),
        packet_size=PAYLOAD_BYTES,
    )
    return d


def video_table(deadline: str | None = None, directory: Path | None = None, quantizers=QUANTIZERS) -> dict[str, Any]:
    """A flow's ``video`` table: the rate-adaptive set of the prepared traces."""
    d = Path(directory) if directory is not None else prepared_dir()
    table: dict[str, Any] = {
        "model": "trace",
        "traces": [str(d / f"q{q}.trace") for q in quantizers],
        "trace_format": "evalvid",
        "quantizers": list(quantizers),
    }
    if deadline is None:
        table["playout_delay"] = PLAYOUT
    else:
        table["deadline"] = deadline
        table["deadline_from"] = "send"  # §6.5: "relative to the frame transmission time"
    return table


def rate_range(directory: Path | None = None) -> tuple[int, int]:
    """(lowest, highest) mean rate of the prepared encodings, bit/s, rounded up to 1 kbit/s:
    the q = 31 and q = 2 rates (Table 2's 100 and 1642 kbit/s for the paper's clip)."""
    from vidcc.video import load_manifest

    rates = [
        e["mean_bitrate_bps"]
        for e in load_manifest(directory if directory is not None else prepared_dir())["encodings"]
    ]
    return math.ceil(min(rates) / 1000) * 1000, math.ceil(max(rates) / 1000) * 1000


@dataclasses.dataclass
class VideoPart(Part):
    """A part whose flows carry the suite's video: the clip is prepared (once, cached) when the
    part's scenario is built for a run, not when the suite is loaded. ASMP's sender starts at the
    video's lowest rate and stays within the video's range, docs/papers/asmp-tfmcc.md's sender rule
    [C] ("initial rate: the Q = 31 rate"; "clamp X to [video min, video max]") with this clip's rates in place of
    Table 2's; a key the part sets itself is kept."""

    def scenario(self, scale: str) -> dict:
        lo, hi = rate_range(ensure_prepared())
        doc = super().scenario(scale)
        for flow in doc.get("flows", []):
            if flow.get("protocol") == "asmp" and "video" in flow:
                for key, value in (("initial_rate", lo), ("min_rate", lo), ("max_rate", hi)):
                    flow.setdefault(key, f"{value // 1000}kbps")
        return doc


# --------------------------------------------------------------------------------------------
# Scoring


@functools.lru_cache(maxsize=4)
def _prepared(directory: str):
    from vidcc.video import Prepared

    return Prepared(directory)


_CACHE: dict[tuple[str, str, bool, str, str, bool], list[dict[str, Any]]] = {}
REFERENCES = ("original", "sent")  # the PSNR references AMB-18 leaves open (docs/papers/asmp-tfmcc.md §4)


def reference_of(d: FigureData, part: str) -> str:
    """The PSNR reference ``part``'s readings ask for (an alternative's ``scoring`` key
    ``psnr_reference``), else the suite's: the original clip."""
    return scoring_key(d, "psnr_reference", "original", REFERENCES, part)


DROP_FROM = ("lossless", "sent")  # what §6.3's "PSNR drops by approximately 14 dB" is measured from


def drop_from_of(d: FigureData, part: str) -> str:
    """What ``part``'s PSNR drop at an error rate is measured from (an alternative's ``scoring`` key
    ``psnr_drop_from``): ``"lossless"``, the suite's, the mean PSNR of the same protocol's run
    without errors; ``"sent"``, the same run's video as its sender encoded it (:func:`score`'s
    ``mean_psnr_sent_db``)."""
    return scoring_key(d, "psnr_drop_from", "lossless", DROP_FROM, part)


def lost_frames_of(d: FigureData, part: str) -> str:
    """What becomes of a frame the receiver did not get whole, as ``part``'s readings ask for (an
    alternative's ``scoring`` key ``lost_frames``), else the suite's: ``"repeated"``."""
    return scoring_key(d, "lost_frames", "repeated", LOST_FRAMES, part)


_RECEIVED = ("ok", "late", "dependency")  # every packet of the frame arrived (decodability.rs)


def without_deadline(frames: pd.DataFrame) -> pd.DataFrame:
    """``frames`` re-judged with no playout deadline [P §6.5, "all received packets are used"]:
    per receiver, a frame is decodable when all its packets arrived (status ok, late or
    dependency) and its references are decodable — a P frame the previous anchor (I or P) in
    display order, a B frame the previous and the next anchor, as the simulator's judge reads
    them (media/record.rs). Frames the run left ``pending`` stay pending; the status of a frame
    made decodable becomes ``ok``. A table without ``frame_type`` or ``status`` is returned as is."""
    import numpy as np
    import pandas as pd

    if frames.empty or not {"frame_type", "status"} <= set(frames.columns):
        return frames
    out = []
    by = ["flow", "receiver"] if "receiver" in frames.columns else ["flow"]
    for _, g in frames.groupby(by, sort=True):
        g = g.sort_values("frame").copy()
        status = g["status"].astype(str).to_numpy()
        types = g["frame_type"].astype(str).to_numpy()
        ids = g["frame"].to_numpy()
        got = np.isin(status, _RECEIVED)
        dec = np.zeros(len(g), dtype=bool)
        anchors = [i for i in range(len(g)) if types[i] != "B"]
        prev = None  # the last anchor's position
        for i in anchors:  # anchors in display order: I alone, P after its previous anchor
            dec[i] = got[i] and (types[i] == "I" or prev is None or dec[prev])
            prev = i
        pos = np.searchsorted(ids[anchors], ids) if anchors else np.zeros(len(g), dtype=int)
        for i in np.flatnonzero(types == "B"):
            p = anchors[pos[i] - 1] if pos[i] > 0 else None
            n = anchors[pos[i]] if pos[i] < len(anchors) else None
            dec[i] = got[i] and (p is None or dec[p]) and (n is None or dec[n])
        keep = status == "pending"
        g["decodable"] = dec & ~keep
        g["status"] = np.where(keep, status, np.where(dec, "ok", np.where(got, "dependency", status)))
        out.append(g)
    return pd.concat(out, ignore_index=True)


def _sent_psnr(prep, slots: pd.DataFrame, frames: pd.DataFrame, quantizers) -> Any:
    """Per slot of one receiver's scored ``slots`` (:func:`vidcc.video.evaluate`'s frames table): the
    PSNR of the picture shown against the picture sent in that slot — the frame decoded at the
    quantiser its sender used (the ``encoding`` of ``frames``), the reading "sent" of AMB-18. A
    slot that shows its own frame at the quantiser sent is identical to it (MSE = 0: capped at
    the metric's cap); a frame with no encoding recorded is compared with the original."""
    import numpy as np

    from vidcc.video.metrics import PSNR_CAP_DB, psnr_ssim
    from vidcc.video.quality import GREY

    table = prep.index_of(list(quantizers), "the suite's encodings")
    sent_of = dict(zip(frames["frame"].to_numpy(), frames["encoding"].to_numpy())) if "encoding" in frames else {}
    frame = slots["frame"].to_numpy()
    shown = slots["shown_frame"].to_numpy()
    shown_q = slots["shown_quantizer"].to_numpy()
    sent = np.array([table[int(sent_of[f])] if f in sent_of and 0 <= sent_of[f] < len(table) else -1 for f in frame])
    shown_e = np.array([prep.quantizers.index(int(q)) if q > 0 else -1 for q in shown_q])
    psnr = np.full(len(frame), float(PSNR_CAP_DB))
    for i in np.flatnonzero((shown != frame) | (shown_e != sent)):
        ref = (prep.decoded(int(sent[i])) if sent[i] >= 0 else prep.original).y(np.array([frame[i] % prep.frames]))
        test = np.full_like(ref, GREY) if shown[i] < 0 else prep.decoded(int(shown_e[i])).y(
            np.array([shown[i] % prep.frames]))
        psnr[i] = float(psnr_ssim(ref, test)[0][0])
    return psnr


LOST_FRAMES = ("repeated", "removed")  # what becomes of a frame not received whole (docs/papers/asmp-tfmcc.md §3)


def _references(types: Any) -> list[tuple[int, ...]]:
    """Per position of a receiver's frames (display order, ``types`` their I/P/B letters): the
    positions of the frames it is predicted from, as :func:`without_deadline` reads them — a P
    frame the previous anchor, a B frame the previous and the next anchor, an I frame none."""
    anchors = [i for i, t in enumerate(types) if t != "B"]
    refs: list[tuple[int, ...]] = []
    a = 0  # anchors[a] is the first anchor after position i
    prev = None
    for i, t in enumerate(types):
        while a < len(anchors) and anchors[a] <= i:
            a += 1
        if t == "I":
            refs.append(())
        elif t == "B":
            refs.append(tuple(x for x in (prev, anchors[a] if a < len(anchors) else None) if x is not None))
        else:
            refs.append((prev,) if prev is not None else ())
        if t != "B":
            prev = i
    return refs


def paper_display(frames: pd.DataFrame) -> Any:
    """The picture shown in each slot of one receiver's ``frames`` (display order, with a
    deadline: ``deadline_ns`` is the slot's time) by §6.5's rule [P]: "video frames that are
    received with delay larger than D_pb cause a previous frame to be displayed when that frame
    had to be displayed. The latest-arriving frame is not dropped, however, since it is the most
    recently received video frame" (Fig. 9: frame 2 shown twice, frame 3 never, frame 4 had
    arrived). A late frame is decoded when it arrives, so frames predicted from it are not lost
    with it. Slot k shows the newest frame j ≤ k that could be decoded by the slot's time (all its
    packets arrived, and its references could be decoded, by then) if it is newer than the frame
    shown before, else repeats that one (-1: nothing yet). Returns the frame index shown per
    row."""
    import numpy as np

    g = frames.sort_values("frame")
    ids = g["frame"].to_numpy()
    status = g["status"].astype(str).to_numpy()
    done = g["complete_ns"].to_numpy().astype(float)
    due = g["deadline_ns"].to_numpy().astype(float)
    whole = np.isin(status, _RECEIVED) & (done >= 0)
    ready = np.where(whole, done, np.inf)  # when the frame could be decoded
    types = g["frame_type"].astype(str).to_numpy()
    refs = _references(types)
    for i in [*np.flatnonzero(types != "B"), *np.flatnonzero(types == "B")]:  # a B frame's anchors first
        for r in refs[i]:
            ready[i] = max(ready[i], ready[r])
    shown = np.full(len(g), -1, dtype=np.int64)
    last = -1  # position of the frame shown last
    for k in range(len(g)):
        j = k
        while j > last and not ready[j] <= due[k]:
            j -= 1
        last = max(last, j)
        shown[k] = ids[last] if last >= 0 else -1
    return shown


def removed_display(frames: pd.DataFrame) -> tuple[Any, Any]:
    """The reading ``lost_frames = "removed"``: §4 compares "the video file sent by the sender with
    the same file at the end user on a frame-by-frame basis". The file sent holds the frames its
    sender sent (a frame its sender buffer dropped, status ``unsent``, is in neither file); the
    file received only those whose packets all arrived (the decoder is given no other; a frame
    predicted from a missing one is decoded as if it were not missing — its drift is not
    modelled, which favours the received video). The k-th frame of one is compared with the k-th
    of the other, as far as the shorter goes (EvalVid's ``psnr``): nothing re-inserts the missing
    frames, so each shifts the rest of the file. Returns (the frames of the file sent, the frames
    of the file received), paired up to the shorter."""
    import numpy as np

    g = frames.sort_values("frame")
    status = g["status"].astype(str).to_numpy()
    got = np.isin(status, _RECEIVED)
    if "complete_ns" in g.columns:
        got &= g["complete_ns"].to_numpy() >= 0
    ids = g["frame"].to_numpy()
    sent, received = ids[~np.isin(status, ("unsent", "pending"))], ids[got]
    n = min(len(sent), len(received))
    return sent[:n], received[:n]


def _sent_file_psnr(prep, frames: pd.DataFrame, table: Any, reference: str) -> float:
    """The mean PSNR of the file one receiver's sender sent (``frames``: that receiver's frames
    table; every frame that left the sender, decoded at the quantiser it was sent with) against
    ``reference``: the original clip, or under ``"sent"`` itself (the cap)."""
    import numpy as np

    from vidcc.video.metrics import PSNR_CAP_DB

    g = frames.sort_values("frame")
    left = ~np.isin(g["status"].astype(str).to_numpy(), ("unsent", "pending"))
    if reference == "sent" or not left.any():
        return float(PSNR_CAP_DB) if left.any() else math.nan
    ids = g["frame"].to_numpy()[left]
    enc = np.array([int(table[int(e)]) for e in g["encoding"].to_numpy()[left]], dtype=np.int64)
    return float(_original_psnr(prep, ids, ids, enc).mean())


def _original_psnr(prep, frame: Any, shown: Any, shown_e: Any) -> Any:
    """Per slot: the PSNR of the picture shown (frame ``shown`` decoded at prepared encoding
    ``shown_e``; -1: grey) against the original picture of the slot's ``frame``."""
    import numpy as np

    from vidcc.video.metrics import psnr_ssim
    from vidcc.video.quality import GREY

    psnr = np.empty(len(frame))
    ref_idx, src_idx = frame % prep.frames, np.where(shown >= 0, shown, 0) % prep.frames
    for e in np.unique(shown_e):
        sel = np.flatnonzero(shown_e == e)
        for lo in range(0, len(sel), 256):
            part = sel[lo:lo + 256]
            ref = prep.original.y(ref_idx[part])
            test = np.full_like(ref, GREY) if e < 0 else prep.decoded(int(e)).y(src_idx[part])
            psnr[part] = psnr_ssim(ref, test)[0]
    return psnr


def score(
    run_id: str,
    frames: pd.DataFrame,
    directory: Path | None = None,
    quantizers=QUANTIZERS,
    deadline: bool = False,
    reference: str = "original",
    lost_frames: str = "repeated",
    sent_psnr: bool = False,
) -> list[dict[str, Any]]:
    """Per (flow, receiver) of one run's frames table: the quality summary of
    :func:`vidcc.video.evaluate` plus ``psnr_var`` (variance of the per-frame PSNR), ``share_mos_le_2``,
    ``share_mos_5``, ``mean_quantizer`` (of the frames shown) and ``psnr_scene0``/``psnr_scene1``
    (mean PSNR over the slots of each half of the clip). Without ``deadline`` the frames are
    judged by :func:`without_deadline` first; with it each slot shows what :func:`paper_display`
    says. ``reference``: what each picture is compared with, ``"original"`` (the raw clip, the
    suite's reading of AMB-18) or ``"sent"`` (the video as its sender encoded it,
    :func:`_sent_psnr`). ``lost_frames``: ``"repeated"`` (a slot whose frame is missing shows the
    last one shown, EvalVid's ``fixyuv``; the suite's reading) or ``"removed"``
    (:func:`removed_display`). ``sent_psnr`` adds ``mean_psnr_sent_db``: the mean PSNR, against
    the same ``reference``, of the file its sender sent (every frame that left it, at the
    quantiser it was sent with; the cap under ``"sent"``), the video before the network touched
    it. Cached by run id (a run never changes)."""
    import numpy as np
    import pandas as pd

    from vidcc.video import evaluate
    from vidcc.video.metrics import mos

    if reference not in REFERENCES:
        raise ValueError(f"PSNR reference {reference!r}: not one of {', '.join(REFERENCES)}")
    if lost_frames not in LOST_FRAMES:
        raise ValueError(f"lost frames {lost_frames!r}: not one of {', '.join(LOST_FRAMES)}")
    d = str(Path(directory) if directory is not None else prepared_dir())
    key = (run_id, d, deadline, reference, lost_frames, sent_psnr)
    if key in _CACHE:
        return _CACHE[key]
    if not deadline:
        frames = without_deadline(frames)
    prep = _prepared(d)
    by = ["flow", "receiver"] if "receiver" in frames.columns else ["flow"]
    # Receivers behind the same links receive the same frames: score each distinct sequence once.
    cols = [c for c in ("frame", "encoding", "decodable", "status", "layers_decodable", "complete_ns")
            if c in frames.columns]
    first: dict[int, tuple] = {}
    same: dict[tuple, tuple] = {}
    for k, g in frames.groupby(by, sort=True):
        k = k if isinstance(k, tuple) else (k,)
        h = hash(g.sort_values("frame")[cols].to_numpy().tobytes()) if cols else id(g)
        same[k] = first.setdefault(h, k)
    keep = frames.set_index(by).index.isin(list(first.values()))
    q = evaluate(frames[keep], prep, encodings=list(quantizers))
    table = prep.index_of(list(quantizers), "the suite's encodings")
    qarr = np.asarray(prep.quantizers)
    per = q.frames.groupby(by, sort=True)
    scored = {}
    for s in q.flows:
        k = (s["flow"], s["receiver"]) if "receiver" in s else (s["flow"],)
        g = per.get_group(k).sort_values("frame")
        mask = np.ones(len(frames), dtype=bool)
        for col, value in zip(by, k):
            mask &= frames[col].to_numpy() == value
        sel = frames[mask].sort_values("frame")
        # §6.5's rule needs the frames' times; a table without them keeps the judge's slots.
        timed = deadline and {"complete_ns", "deadline_ns", "frame_type", "status"} <= set(sel.columns)
        redrawn = timed or lost_frames == "removed"
        if redrawn:
            # The slots as the reading draws them: which frame each shows, at the quantiser sent.
            enc_of = dict(zip(sel["frame"].to_numpy(), sel["encoding"].to_numpy()))
            if lost_frames == "removed":
                slot_frames, shown = removed_display(sel[sel["frame"].isin(g["frame"])])
            else:
                by_frame = dict(zip(sel["frame"].to_numpy(), paper_display(sel)))
                slot_frames = g["frame"].to_numpy()
                shown = np.maximum.accumulate(np.array([by_frame.get(f, -1) for f in slot_frames], dtype=np.int64))
            shown_e = np.array([int(table[int(enc_of[f])]) if f >= 0 else -1 for f in shown], dtype=np.int64)
            g = pd.DataFrame({"frame": slot_frames, "shown_frame": shown,
                              "shown_quantizer": np.where(shown_e >= 0, qarr[np.maximum(shown_e, 0)], -1)})
        if reference == "sent":
            psnr = _sent_psnr(prep, g, sel, quantizers)
        elif redrawn:
            psnr = _original_psnr(prep, g["frame"].to_numpy(), g["shown_frame"].to_numpy(), shown_e)
        else:
            psnr = g["psnr_db"].to_numpy()
        grade = np.asarray(mos(psnr))
        scene = (g["frame"].to_numpy() % prep.frames) >= prep.frames // 2
        shown_q = g["shown_quantizer"].to_numpy()
        scored[k] = {
            "mean_psnr_db": float(psnr.mean()),
            "psnr_var": float(np.var(psnr)),
            "mean_mos": float(grade.mean()),
            "share_mos_ge_3": float((grade >= 3).mean()),
            "share_mos_le_2": float((grade <= 2).mean()),
            "share_mos_5": float((grade == 5).mean()),
            "concealed": float((g["shown_frame"].to_numpy() != g["frame"].to_numpy()).mean()),
            "mean_quantizer": float(shown_q[shown_q > 0].mean()) if (shown_q > 0).any() else math.nan,
            "psnr_scene0": float(psnr[~scene].mean()) if (~scene).any() else math.nan,
            "psnr_scene1": float(psnr[scene].mean()) if scene.any() else math.nan,
        }
        if sent_psnr:
            scored[k]["mean_psnr_sent_db"] = _sent_file_psnr(prep, sel, table, reference)
    rows = [{"flow": k[0], "receiver": k[1] if len(k) > 1 else 0, **scored[rep]} for k, rep in same.items()]
    _CACHE[key] = rows
    return rows


def quality(d: FigureData, parts=None) -> pd.DataFrame:
    """One row per video receiver of the figure's runs: its ``run_flows`` row (part, seed, label,
    axes, throughput, drop_rate, ...) with the scores of :func:`score`. Runs without a frames
    table are left out."""
    import pandas as pd

    flows = d.flows(parts, {"label": list(VIDEO_LABELS)})
    out = []
    for run_id, f in flows.groupby("run_id", sort=True):
        frames = d.series(run_id, "frames")
        if frames is None or frames.empty:
            continue
        part = str(f["part"].iloc[0])
        deadline, reference = part.endswith("-deadline"), reference_of(d, part)
        s = pd.DataFrame(score(str(run_id), frames, deadline=deadline, reference=reference,
                               lost_frames=lost_frames_of(d, part), sent_psnr=drop_from_of(d, part) == "sent"))
        keys = [k for k in ("flow", "receiver") if k in f.columns and k in s.columns]
        out.append(f.merge(s, on=keys, how="inner", suffixes=("", "_video")))
    return pd.concat(out, ignore_index=True) if out else pd.DataFrame()
