"""How the ASMP/TFMCC suite draws a receiver's slots (python/vidcc/papers/asmp_tfmcc/videoset.py):
§6.5's display rule with a playout deadline (a late frame is still decoded and shown if it is the
newest) and the reading ``lost_frames = "removed"`` (the received file lacks the frames not got
whole and is compared frame by frame)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from vidcc.papers.asmp_tfmcc import videoset
from vidcc.video import clip, load_manifest

QS = (2, 10, 31)


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    src = clip.generate(tmp_path_factory.mktemp("clip") / "clip.y4m", seconds=1, size=(176, 144))
    return videoset.ensure_prepared(tmp_path_factory.mktemp("prep") / "prep", clip=src, quantizers=QS)


def _slots(types, complete, status=None):
    """A receiver's frames with a 150 ms deadline on a 40 ms grid (slot k due at 150 + 40k ms)."""
    n = len(types)
    return pd.DataFrame({
        "flow": 0, "receiver": 0, "frame": range(n), "frame_type": list(types), "encoding": 0,
        "status": status or ["ok"] * n, "decodable": True,
        "complete_ns": [int(c * 1e6) if c is not None else -1 for c in complete],
        "deadline_ns": [int((150 + 40 * k) * 1e6) for k in range(n)],
    })


def test_fig9_a_late_frame_repeats_the_previous_one_and_is_skipped_once_a_newer_one_is_in():
    # Frame 3 arrives after slot 4's time, frame 4 before it: frame 2 shown twice, 3 never (Fig. 9).
    f = _slots("IIIIII", [100, 140, 180, 300, 250, 340], ["ok", "ok", "ok", "late", "ok", "ok"])
    assert list(videoset.paper_display(f)) == [0, 1, 2, 2, 4, 5]


def test_the_latest_arriving_frame_is_shown_late_when_nothing_newer_came():
    # Frame 1 misses its slot (190 ms) but is in by slot 2 (230 ms), and frame 2 is lost.
    f = _slots("III", [100, 200, None], ["ok", "late", "lost"])
    assert list(videoset.paper_display(f)) == [0, 0, 1]


def test_frames_predicted_from_a_late_frame_are_not_lost_with_it():
    # The I frame is 10 ms late; the P frames after it are in time: only its own slot has nothing
    # new. (The simulator's judge marks the P frames "dependency": a late frame is unusable there.)
    f = _slots("IPPP", [160, 180, 220, 260], ["late", "dependency", "dependency", "dependency"])
    assert list(videoset.paper_display(f)) == [-1, 1, 2, 3]
    # A B frame waits for its next anchor: B1 is due at 190 ms, P2 completes at 200 ms.
    f = _slots("IBPB", [100, 120, 200, 250], ["ok", "dependency", "late", "dependency"])
    assert list(videoset.paper_display(f)) == [0, 0, 2, 3]


def test_a_late_intra_frame_costs_one_slot_not_its_group_of_pictures(prepared):
    """Fails with the judge's decodability (before the fix every frame predicted from the late I
    frame was concealed, 12 of the 25 slots)."""
    m = load_manifest(prepared)
    n, types = m["frames"], m["frame_types"]
    i2 = types.index("I", 1)  # the second group's I frame
    complete, status, decodable = [], [], []
    for k, t in enumerate(types):
        late = k == i2
        # Anchors go first (decode order): a B frame completes after its next anchor.
        complete.append(160 + 40 * k if late else 40 * k + (100 if t == "B" else 50))
        dependent = k > i2 or (t == "B" and k == i2 - 1)
        status.append("late" if late else ("dependency" if dependent else "ok"))
        decodable.append(not late and not dependent)
    f = _slots(types, complete, status).assign(decodable=decodable)
    row = videoset.score("late-intra", f, prepared, QS, deadline=True)[0]
    # Slot i2 − 1 (a B frame needing the late I frame) and slot i2 repeat an older picture.
    assert row["concealed"] == pytest.approx(2 / n)


def test_removed_lost_frames_shift_the_received_file_against_the_reference(prepared):
    n = load_manifest(prepared)["frames"]
    whole = pd.DataFrame({"flow": 0, "receiver": 0, "frame": range(n), "encoding": 0, "decodable": True,
                          "status": "ok", "complete_ns": 1})
    lossy = whole.assign(status=["lost" if k == 3 else "ok" for k in range(n)],
                         complete_ns=[-1 if k == 3 else 1 for k in range(n)])
    sent, received = videoset.removed_display(lossy)
    assert list(sent) == list(range(n - 1)) and list(received) == [k for k in range(n) if k != 3]
    # A frame its sender never sent is in neither file: nothing shifts.
    unsent = lossy.assign(status=["unsent" if k == 3 else "ok" for k in range(n)])
    sent, received = videoset.removed_display(unsent)
    assert list(sent) == list(received) == [k for k in range(n) if k != 3]
    frames = pd.concat([whole, lossy.assign(receiver=1)], ignore_index=True)
    rows = {r["receiver"]: r for r in videoset.score("removed", frames, prepared, QS, lost_frames="removed")}
    rep = {r["receiver"]: r for r in videoset.score("removed", frames, prepared, QS)}
    # Nothing lost: the same as with repetition. One frame lost: every later slot is one frame off.
    assert rows[0]["mean_psnr_db"] == pytest.approx(rep[0]["mean_psnr_db"])
    assert rows[1]["concealed"] == pytest.approx((n - 1 - 3) / (n - 1))
    assert rows[1]["mean_psnr_db"] < rep[1]["mean_psnr_db"]
    # Frame 0 never sent: the files start at frame 1 and each slot is compared with its own original.
    from vidcc.video import Prepared
    from vidcc.video.metrics import psnr_ssim

    late_start = whole.assign(status=["unsent" if k == 0 else "ok" for k in range(n)], receiver=2)
    row = videoset.score("removed-0", late_start, prepared, QS, lost_frames="removed")[0]
    prep = Prepared(prepared)
    idx = np.arange(1, n)
    expected = psnr_ssim(prep.original.y(idx), prep.decoded(prep.quantizers.index(QS[0])).y(idx))[0].mean()
    assert row["concealed"] == 0 and row["mean_psnr_db"] == pytest.approx(float(expected))
    with pytest.raises(ValueError, match="lost frames"):
        videoset.score("removed", frames, prepared, QS, lost_frames="zeroed")


def test_the_file_sent_scores_every_frame_that_left_at_its_own_quantiser(prepared):
    # The reading drop-from-sent (C8) measures the drop from this: frames lost in the network
    # do not lower it, frames never sent are not in it, and against the video as sent it is the cap.
    from vidcc.video import Prepared
    from vidcc.video.metrics import PSNR_CAP_DB, psnr_ssim

    n = load_manifest(prepared)["frames"]
    enc = [k % 2 for k in range(n)]  # alternate q = 2 and q = 10
    frames = pd.DataFrame({"flow": 0, "receiver": 0, "frame": range(n), "encoding": enc, "decodable": True,
                           "status": ["lost" if k == 2 else "unsent" if k == 4 else "ok" for k in range(n)],
                           "complete_ns": [-1 if k in (2, 4) else 1 for k in range(n)]})
    row = videoset.score("sent-file", frames, prepared, QS, sent_psnr=True)[0]
    prep = Prepared(prepared)
    left = [k for k in range(n) if k != 4]
    expected = np.mean([psnr_ssim(prep.original.y(np.array([k])),
                                  prep.decoded(prep.quantizers.index(QS[enc[k]])).y(np.array([k])))[0][0]
                        for k in left])
    assert row["mean_psnr_sent_db"] == pytest.approx(float(expected))
    whole = videoset.score("sent-whole", frames.assign(status="ok", complete_ns=1), prepared, QS, sent_psnr=True)[0]
    assert whole["mean_psnr_sent_db"] == pytest.approx(whole["mean_psnr_db"])  # nothing lost: the same video
    assert whole["mean_psnr_sent_db"] != pytest.approx(row["mean_psnr_sent_db"])  # frame 4 never left
    assert "mean_psnr_sent_db" not in videoset.score("sent-file", frames, prepared, QS)[0]
    against_sent = videoset.score("sent-file", frames, prepared, QS, reference="sent", sent_psnr=True)[0]
    assert against_sent["mean_psnr_sent_db"] == PSNR_CAP_DB
