"""C30's check: PLM against SRAMT-LE on the suite's common bottleneck (digest §5.5 C30, Fig. 15).

Both schemes meet one Tahoe flow on the same 1 Mbit/s, 20 ms bottleneck (``common_bottleneck``);
each runs behind the routers its paper assumes: PLM behind fair queueing (ns-2 ``Queue/DRR``
defaults), SRAMT-LE behind the suite's RED (digest §3 [R]). Measured after the warm-up, per run,
then averaged over the seeds:

* F = mean scheme throughput / mean TCP throughput (digest §4), from the run's ``flows`` table;
* CoV = coefficient of variation of the rate the scheme's receiver gets in 1 s bins (its
  ``flow_samples``). The digest's CoV is over a group's *announced* rate; PLM announces none
  (its sender's layers are constant), so both schemes are judged on what the receiver gets, the
  quantity Fig. 15 plots (suite).

The claim holds when CoV(PLM) < CoV(SRAMT-LE), F_PLM < 1 and |F_SRAMT-LE − 1| < |F_PLM − 1|.
"""

from __future__ import annotations

import json
import math

import numpy as np

from vidcc.papers.model import Verdict
from vidcc.papers.verdicts import no_data

# The routers each scheme runs behind in the common scenario (the queue of its bottleneck).
QUEUES = {"plm": "DRR (ns-2 Queue/DRR defaults)", "sramt-le": "RED (min_th 5, max_th 15, limit 50)"}


def _r(x: float, n: int = 4) -> float:
    return float(round(x, n)) if math.isfinite(x) else x


def scheme_vs_tcp(d, part: str) -> tuple[list[float], list[float]]:
    """Per run of ``part``: F (scheme / TCP mean throughput) and the CoV of the scheme's
    receiver's 1 s received rate after the warm-up."""
    flows = d.flows(part)
    fs, covs = [], []
    for run in d.runs(part).to_dict("records"):
        f = flows[flows["run_id"] == run["run_id"]]
        mine = f[f["label"] == part]
        tcp = f[f["label"] == "tcp"]["throughput_bps"].sum()
        fs.append(mine["throughput_bps"].sum() / tcp if tcp > 0 else math.inf)
        resolved = json.loads(run.get("resolved_json") or "{}")
        warmup_ns = resolved.get("warmup_ns", 0)
        s = d.series(run["run_id"], "flow_samples")
        s = s[s["flow"].isin(mine["flow"]) & (s["t_ns"] > warmup_ns)]
        x = s.groupby("t_ns")["throughput_bps"].sum().to_numpy()
        covs.append(float(np.std(x) / np.mean(x)) if len(x) and np.mean(x) > 0 else math.nan)
    return fs, covs


def c30(d) -> Verdict:
    if d.runs("plm").empty or d.runs("sramt-le").empty:
        return no_data("common-bottleneck runs of plm and sramt-le")
    f_plm, cov_plm = (float(np.mean(v)) for v in scheme_vs_tcp(d, "plm"))
    f_le, cov_le = (float(np.mean(v)) for v in scheme_vs_tcp(d, "sramt-le"))
    measured = {
        "CoV PLM": _r(cov_plm), "CoV SRAMT-LE": _r(cov_le),
        "F PLM": _r(f_plm), "F SRAMT-LE": _r(f_le),
        "queue PLM": QUEUES["plm"], "queue SRAMT-LE": QUEUES["sramt-le"],
    }
    steadier = cov_plm < cov_le
    below = f_plm < 1
    friendlier = abs(f_le - 1) < abs(f_plm - 1)
    parts = [
        f"CoV PLM {cov_plm:.3g} {'<' if steadier else '≥'} SRAMT-LE {cov_le:.3g}",
        f"F_PLM {f_plm:.3g} {'<' if below else '≥'} 1",
        f"|F_SRAMT-LE − 1| {abs(f_le - 1):.3g} {'<' if friendlier else '≥'} |F_PLM − 1| {abs(f_plm - 1):.3g}",
    ]
    text = "; ".join(parts) + f" (PLM behind {QUEUES['plm']}, SRAMT-LE behind {QUEUES['sramt-le']})"
    return Verdict("PASS" if steadier and below and friendlier else "FAIL", measured, text)


def c30_cause(d, measured: dict) -> str:
    """Why C30 fails: each run's F (SRAMT-LE's spreads from seed to seed; PLM's is fixed by its
    layers: it holds the largest cumulative rate strictly below its fair share)."""
    f_le, _ = scheme_vs_tcp(d, "sramt-le")
    f_plm, _ = scheme_vs_tcp(d, "plm")
    # Strings, as every value of ``measured`` (claims.json holds numbers and strings only).
    measured["F SRAMT-LE per run"] = ", ".join(f"{f:.3g}" for f in f_le)
    measured["F PLM per run"] = ", ".join(f"{f:.3g}" for f in f_plm)
    return (f"SRAMT-LE's F over runs is {min(f_le):.3g}–{max(f_le):.3g} (RED, one Tahoe flow); PLM's stays "
            f"{min(f_plm):.3g}–{max(f_plm):.3g}: behind DRR its pairs measure the 500 kbit/s share exactly and it holds the "
            "cumulative rate strictly below it (9 × 50 kbit/s layers), so |F_PLM − 1| is set by the layer size, and SRAMT-LE's "
            "spread decides the comparison")
