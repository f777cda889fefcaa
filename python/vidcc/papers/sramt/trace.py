"""What the SRAMT checks read from one run: each receiver's stream / level over time (the
``layers`` events), the sender's announced group rates (``group_rate`` events), the reports it
heard (``feedback``), the receivers' RTT estimates (``rtt_estimate``) and the per-receiver
throughput series (``flow_samples``), with the run's duration and warm-up.

Positions are 1-based as the paper counts them: stream 1..n (SRAMT-S) or level 1..n (SRAMT-LE).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from vidcc.papers.model import Verdict

# One epoch and a half: C20's "reversed within one epoch" (the T_oneway offset absorbed), and
# the alternative bound on an unsuccessful change (`unsuccessful_window`, docs/papers/sramt.md §1.7).
REVERSAL_S = 7.5
T_CHANGE_S = 5.0
EPOCH_S = 5.0


def rounded(x: float, n: int = 4) -> float:
    """``x`` rounded for ``measured`` (non-finite values and non-numbers as they are)."""
    return float(round(x, n)) if isinstance(x, (int, float)) and math.isfinite(x) else x


def fmt(x) -> str:
    """A measured number as explanations print it (3 significant digits; n/a when not finite)."""
    if isinstance(x, float):
        return f"{x:.3g}" if math.isfinite(x) else "n/a"
    return str(x)


def verdict(ok: bool, measured: dict, text: str) -> Verdict:
    return Verdict("PASS" if ok else "FAIL", measured, text)


@dataclass
class Run:
    """One SRAMT run: its receivers by node, their position changes and the sender's rates."""

    run_id: str
    seed: Any
    duration_s: float
    warmup_s: float
    start_s: float  # the sender's start (epochs count from it)
    nodes: dict[int, str]  # receiver index -> node
    initial: dict[int, int]  # receiver index -> first position
    changes: pd.DataFrame  # t_s, receiver, node, from, to
    rates: pd.DataFrame  # t_s, group (1-based), rate_bps
    feedback: pd.DataFrame  # t_s, receiver
    rtt: pd.DataFrame  # t_s, receiver, rtt_s
    # flow_samples of the SRAMT flow: t_s (the interval's end), receiver, node, throughput_bps, delay_s (mean) and
    # delay_max_s (the largest packet's; NaN in runs recorded before the column existed)
    samples: pd.DataFrame
    bands: list[tuple[float, float]] = field(default_factory=list)
    initial_rates: list[float] = field(default_factory=list)
    # The flow's `unsuccessful_window` (None: any undo by the next change fails, the default).
    unsuccessful_window_s: float | None = None
    layered: bool = False  # positions are levels (layers 1..k held), not streams
    _steps: dict[int, tuple[np.ndarray, np.ndarray]] = field(default_factory=dict, repr=False)

    def position_at(self, receiver: int, t: float) -> int:
        if receiver not in self._steps:
            c = self.changes[self.changes["receiver"] == receiver].sort_values("t_s", kind="stable")
            self._steps[receiver] = (c["t_s"].to_numpy(dtype=float), c["to"].to_numpy(dtype=int))
        ts, to = self._steps[receiver]
        i = int(np.searchsorted(ts, t, side="right"))
        return int(to[i - 1]) if i else self.initial[receiver]

    def held(self, node: str, t0: float, t1: float) -> int | None:
        """The position the receiver at ``node`` held over all of [t0, t1], None if it moved."""
        r = self.receiver(node)
        c = self.changes
        inside = c[(c["receiver"] == r) & (c["t_s"] > t0) & (c["t_s"] <= t1)]
        return None if len(inside) else self.position_at(r, t0)

    def receiver(self, node: str) -> int:
        for i, n in self.nodes.items():
            if n == node:
                return i
        raise KeyError(f"run {self.run_id[:12]}: no receiver at node {node!r}")

    def rate_series(self, group: int, t0: float, t1: float, step: float = 1.0) -> np.ndarray:
        """The announced rate of ``group`` (1-based), sampled every ``step`` s over [t0, t1)."""
        g = self.rates[self.rates["group"] == group]
        # A group the flow's configuration gives no initial rate for (unknown before its first
        # announcement) reads as NaN until then, not an error.
        initial = self.initial_rates[group - 1] if 0 < group <= len(self.initial_rates) else math.nan
        ts = np.arange(t0, t1, step)
        if g.empty:
            return np.full(len(ts), initial)
        idx = np.searchsorted(g["t_s"].to_numpy(), ts, side="right") - 1
        vals = g["rate_bps"].to_numpy()
        return np.where(idx >= 0, vals[np.maximum(idx, 0)], initial)

    def unsuccessful(self) -> pd.DataFrame:
        """The unsuccessful changes as the receivers' back-off judges them (§1.7, rules.rs
        `Backoff`): a change the receiver's next change undoes (goes back the way it came),
        within the flow's `unsuccessful_window` if it sets one; the undoing change is not itself
        judged. t_s (the change), receiver, node, from, to, back_s (when it was undone)."""
        rows = []
        for _r, c in self.changes.groupby("receiver", sort=True):
            trial = True
            c = c.sort_values("t_s").to_dict("records")
            for a, b in zip(c, c[1:]):
                if trial and undoes(a, b) and self.within_window(b["t_s"] - a["t_s"]):
                    rows.append({**a, "back_s": b["t_s"]})
                    trial = False
                else:
                    trial = True
        return pd.DataFrame(rows, columns=["t_s", "receiver", "node", "from", "to", "back_s"])

    def within_window(self, stood_s: float) -> bool:
        """Whether a change undone after standing ``stood_s`` failed (always, without a window)."""
        return self.unsuccessful_window_s is None or stood_s <= self.unsuccessful_window_s


def undoes(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether change ``b`` (the next one) goes back the way change ``a`` came."""
    return (a["to"] > a["from"]) != (b["to"] > b["from"])


def _resolved(row: Mapping[str, Any]) -> dict:
    text = row.get("resolved_json")
    return json.loads(text) if text else {}


def load(data, runs_row: Mapping[str, Any], label: str, layered: bool) -> Run:
    """The SRAMT flow labelled ``label`` in one run (a ``runs`` row of ``data``)."""
    run_id = runs_row["run_id"]
    resolved = _resolved(runs_row)
    duration = resolved.get("duration_ns", 0) / 1e9
    warmup = resolved.get("warmup_ns", 0) / 1e9
    flows = data.flows(where={"run_id": run_id, "label": label})
    if flows.empty:
        raise KeyError(f"run {run_id[:12]}: no flow labelled {label!r}")
    flow_id = int(flows["flow"].iloc[0])
    nodes = {int(r): str(n) for r, n in zip(flows["receiver"], flows["dst"])}
    start = float(flows["start_ns"].min()) / 1e9
    cfg = next((f for f in resolved.get("flows", []) if f.get("label") == label), {})
    proto = cfg.get("protocol") if isinstance(cfg.get("protocol"), dict) else {}
    default_pos = int(proto.get("initial_group", 1 if layered else 0)) + (0 if layered else 1)
    # Where each receiver starts: the groups the scenario names for it, else the flow's default.
    told = [r.get("groups") or [] for r in (cfg.get("multicast") or {}).get("receivers", [])]
    init = {}
    for i, n in nodes.items():
        g = told[i] if i < len(told) else []
        init[i] = (len(g) if layered else g[0] + 1) if g else default_pos
    ev = data.series(run_id, "events")
    ev = ev[ev["flow"] == flow_id] if not ev.empty else ev
    ev = (ev.assign(t_s=ev["t_ns"] / 1e9) if not ev.empty
          else pd.DataFrame(columns=["t_s", "kind", "receiver", "value", "group"]))
    lay = ev[(ev["kind"] == "layers") & (ev["side"] == "receiver")].sort_values("t_s", kind="stable")
    changes = []
    pos = dict(init)
    for t, r, v in zip(lay["t_s"], lay["receiver"], lay["value"]):
        r = int(r)
        changes.append({"t_s": float(t), "receiver": r, "node": nodes.get(r, "?"), "from": pos[r], "to": int(v)})
        pos[r] = int(v)
    changes_df = pd.DataFrame(changes, columns=["t_s", "receiver", "node", "from", "to"])
    gr = ev[ev["kind"] == "group_rate"]
    rates = pd.DataFrame({"t_s": gr["t_s"].to_numpy(), "group": gr["group"].to_numpy().astype(int) + 1,
                          "rate_bps": gr["value"].to_numpy()})
    fb = ev[ev["kind"] == "feedback"]
    feedback = pd.DataFrame({"t_s": fb["t_s"].to_numpy(), "receiver": fb["value"].to_numpy().astype(int)})
    rt = ev[ev["kind"] == "rtt_estimate"]
    rtt = pd.DataFrame({"t_s": rt["t_s"].to_numpy(), "receiver": rt["receiver"].to_numpy().astype(int),
                        "rtt_s": rt["value"].to_numpy()})
    fs = data.series(run_id, "flow_samples")
    fs = fs[fs["flow"] == flow_id]
    samples = pd.DataFrame({"t_s": fs["t_ns"].to_numpy() / 1e9, "receiver": fs["receiver"].to_numpy().astype(int),
                            "throughput_bps": fs["throughput_bps"].to_numpy(),
                            "delay_s": fs["delay_ns"].to_numpy() / 1e9,
                            "delay_max_s": (fs["delay_max_ns"].to_numpy() / 1e9 if "delay_max_ns" in fs.columns
                                            else np.full(len(fs), np.nan))})
    samples["node"] = samples["receiver"].map(nodes)
    bands = [(float(lo), float(hi)) for lo, hi in proto.get("bands_bps", [])]
    initial_rates = [float(x) for x in proto.get("initial_rates_bps", [])] or [math.nan] * 5
    window = proto.get("unsuccessful_window_ns")
    run = Run(run_id, runs_row.get("seed"), duration, warmup, start, nodes, init, changes_df, rates, feedback, rtt,
              samples, bands=bands, initial_rates=initial_rates,
              unsuccessful_window_s=None if window is None else window / 1e9, layered=layered)
    return run


# Runs already read, by run id, label, variant and resolved scenario: the checks, their
# per-seed repeats and the causes read the same runs many times.
_LOADED: dict[tuple[str, str, bool, int], Run] = {}


def runs_of(data, part: str, label: str, layered: bool) -> list[Run]:
    out = []
    for r in data.runs(part).to_dict("records"):
        key = (r["run_id"], label, layered, hash(r.get("resolved_json") or ""))
        if key not in _LOADED:
            if len(_LOADED) > 4096:
                _LOADED.clear()
            _LOADED[key] = load(data, r, label, layered)
        out.append(_LOADED[key])
    return out


def series_of(data, run_id: str, labels: list[str]) -> pd.DataFrame:
    """``flow_samples`` of the flows with these labels: t_s, label, receiver, throughput_bps."""
    flows = data.flows(where={"run_id": run_id})
    fs = data.series(run_id, "flow_samples")
    lab = flows[["flow", "receiver", "label", "dst"]].drop_duplicates()
    m = fs.merge(lab, on=["flow", "receiver"], how="inner")
    m = m[m["label"].isin(labels)]
    return m.assign(t_s=m["t_ns"] / 1e9)


def part_runs(d, part: str, layered: bool) -> list[Run]:
    """The runs of ``part`` of this figure's data, the SRAMT flow labelled as the part."""
    return runs_of(d, part, part, layered)


def other_runs(d, fig: str, part: str, layered: bool) -> list[Run]:
    """As :func:`part_runs` for another figure of the suite."""
    return runs_of(d.other(fig), part, part, layered)
