"""The baselines' own original scenarios (digest ``specs/004-sramt.md`` §2, §3.4: the set-ups of
the figures the paper copies as Figs. 15–19), figure ``fig15-19-orig``, and the numbers C30–C34
report from them beside their common-bottleneck verdicts.

The digest gives no capacities, delays or durations for these set-ups; each is built from the
suite's common bottleneck (suite): 10 Mbit/s, 5 ms access links, a 20 ms bottleneck of
1 Mbit/s per scheme session and TCP flow pair, RED except PLM's DRR, the suite's run length and
warm-up:

* PLM (Fig. 15) [P]: TCP1 from 0 s, the PLM session from 20 s, TCP2 from 60 s, behind DRR;
* RLC (Fig. 16) [P]: 8 RLC sessions and 8 Tahoe flows on one bottleneck (8 Mbit/s here);
* MLDA (Fig. 17) [P]: MLDA and TCP on one bottleneck, which is the common scenario itself, so
  its numbers are the ``fig15-19`` part's (no second copy of the runs);
* IRFM (Fig. 19) [P]: one Tahoe flow and one IRFM session with two receivers on one link;
* DSG (Fig. 18): "three streams over the Internet" names no topology and no competing traffic:
  not re-run.

The digest's single-bottleneck common scenario (figure ``fig15-19-staggered``, :func:`staggered`)
is PLM's set-up with every scheme: TCP1 from 0 s, the scheme (SRAMT-LE, SRAMT-S or a baseline)
from 20 s, TCP2 from 60 s, measured from 60 s the same way; :func:`with_staggered` adds its
numbers for a baseline and its SRAMT variant to C30–C34, with whether the claim's own test holds
there (reported; the verdicts stay the ``fig15-19`` checks').

Measured after the warm-up and after the last flow's start (PLM: from 60 s, when both TCPs run),
per 1 s bin: the scheme class on the link (per session what its receivers get, as
:func:`vidcc.papers.sramt.sharing.link_series` reads it, summed over sessions) and the TCP class
(summed over the Tahoe flows). F = mean per session / mean per TCP flow; starvation windows as
C12 (:func:`sharing.starvation_windows`); CoV = the mean over sessions of one session's CoV of
its received rate; convergence = the last stream / level change (as C32–C34).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import layered_checks, sharing, simulcast_checks, trace
from vidcc.papers.sramt.scenarios import LINK_BPS, RLC_SESSIONS

FIGURE = "fig15-19-orig"
# The digest's single-bottleneck common scenario (§2 framing): PLM's TCP1 0 s / scheme 20 s / TCP2
# 60 s staggered start, with every scheme and both SRAMT variants.
STAGGERED = "fig15-19-staggered"
SCHEMES = ("sramt-le", "sramt-s", "plm", "rlc", "mlda", "dsg", "irfm")
VERSUS = {"plm": "sramt-le", "rlc": "sramt-le", "mlda": "sramt-le", "dsg": "sramt-s", "irfm": "sramt-s"}
NAMES = {"plm": "PLM", "rlc": "RLC", "mlda": "MLDA", "dsg": "DSG", "irfm": "IRFM", "sramt-le": "SRAMT-LE", "sramt-s": "SRAMT-S"}
LAYERED = {"plm": True, "rlc": True, "mlda": True, "irfm": False, "dsg": False, "sramt-le": True, "sramt-s": False}


# Where each scheme's numbers come from: (figure, part, scheme labels, TCP labels, capacity bit/s, from s).
SOURCES = {
    "plm": (FIGURE, "plm", ["plm"], ["tcp1", "tcp2"], LINK_BPS, 60.0),
    "rlc": (FIGURE, "rlc", [f"rlc{i}" for i in range(1, RLC_SESSIONS + 1)], [f"tcp{i}" for i in range(1, RLC_SESSIONS + 1)],
            RLC_SESSIONS * LINK_BPS, 0.0),
    "mlda": ("fig15-19", "mlda", ["mlda"], ["tcp"], LINK_BPS, 0.0),
    "irfm": (FIGURE, "irfm", ["irfm"], ["tcp1"], LINK_BPS, 0.0),
}


def _data(d, fig: str):
    if d.figure.id == fig:
        return d
    try:
        return d.other(fig)
    except KeyError:
        return None


def numbers(d, proto: str, source: tuple | None = None) -> dict[str, float] | None:
    """F, starvation windows, CoV and convergence of ``proto`` in its original scenario (or in
    ``source``, a tuple as SOURCES holds), averaged over its runs (starvation windows summed);
    simulcast schemes also "stream CoV" (C33's: the held streams' announced rates). None when
    those runs are not in the results."""
    fig, part, labels, tcps, cap, t0 = source or SOURCES[proto]
    data = _data(d, fig)
    if data is None or data.runs(part).empty:
        return None
    fs, covs, convs, starve, stream_covs = [], [], [], 0, []
    for row in data.runs(part).to_dict("records"):
        sessions = [trace.load(data, row, label, LAYERED[proto]) for label in labels]
        since = max(sessions[0].warmup_s, t0)
        per = [sharing.link_series(data, s, list(s.nodes.values()), "", LAYERED[proto])["sramt"] for s in sessions]
        per = [p[p.index > since] for p in per]
        tcp = trace.series_of(data, row["run_id"], tcps)
        tcp = tcp[tcp["t_s"] > since].groupby("t_s")["throughput_bps"].sum()
        s = pd.DataFrame({"sramt": pd.concat(per, axis=1).sum(axis=1), "tcp": tcp}).fillna(0.0)
        scheme, other = s["sramt"].mean() / len(labels), s["tcp"].mean() / len(tcps)
        fs.append(float(scheme / other) if other > 0 else math.inf)
        covs.append(float(np.mean([np.std(p) / np.mean(p) for p in per if len(p) and np.mean(p) > 0] or [math.nan])))
        starve += sharing.starvation_windows(s, cap)
        first = sessions[0]
        convs.append(layered_checks.convergence_s([first]) if LAYERED[proto] else simulcast_checks.convergence_s(first))
        if not LAYERED[proto]:
            stream_covs.append(simulcast_checks.stream_cov(first))
    out = {"F": float(np.mean(fs)), "starvation windows": starve, "CoV": float(np.mean(covs)),
           "convergence s": float(np.mean(convs)), "runs": len(fs)}
    if stream_covs:
        out["stream CoV"] = float(np.mean(stream_covs))
    return out


def staggered_numbers(d, proto: str) -> dict[str, float] | None:
    """``numbers`` of ``proto`` in the staggered common scenario, measured from 60 s (both TCPs run)."""
    return numbers(d, proto, (STAGGERED, proto, [proto], ["tcp1", "tcp2"], LINK_BPS, 60.0))


def _staggered_judge(proto: str, m: dict, s: dict) -> tuple[bool, str]:
    """Whether the claim's own test (C30–C34) holds in the staggered scenario: F per session
    against the mean TCP flow, starvation windows, CoV (layered: the received rate, as C30;
    simulcast: the held streams' announced rates, as C33), the last change."""
    f, fs = m["F"], s["F"]
    if proto == "plm":
        ok = m["CoV"] < s["CoV"] and f < 1 and abs(fs - 1) < abs(f - 1)
        return ok, f"CoV {m['CoV']:.3g} vs {s['CoV']:.3g}, F {f:.3g} vs {fs:.3g}"
    if proto == "rlc":
        ok = f > 1 and abs(fs - 1) < abs(f - 1) and m["starvation windows"] == 0 and s["starvation windows"] == 0
        return ok, f"F {f:.3g} vs {fs:.3g}, starvation windows {m['starvation windows']} vs {s['starvation windows']}"
    if proto == "mlda":
        ok = s["starvation windows"] == 0 < m["starvation windows"] and m["convergence s"] > s["convergence s"]
        return ok, (f"starvation windows {m['starvation windows']} vs {s['starvation windows']}, "
                    f"last change {m['convergence s']:.0f} s vs {s['convergence s']:.0f} s")
    if proto == "dsg":
        ok = m["stream CoV"] < s["stream CoV"]
        return ok, f"stream CoV {m['stream CoV']:.3g} vs {s['stream CoV']:.3g}"
    ok = abs(fs - 1) < abs(f - 1) and s["convergence s"] < m["convergence s"]
    return ok, f"F {f:.3g} vs {fs:.3g}, last change {m['convergence s']:.0f} s vs {s['convergence s']:.0f} s"


def with_staggered(check: Callable[[object], Verdict], proto: str) -> Callable[[object], Verdict]:
    """``check`` with the staggered common scenario's numbers of ``proto`` and of its SRAMT variant
    added, and whether the claim's test holds there (reported, not judged)."""

    def wrapped(d) -> Verdict:
        v = check(d)
        measured = dict(v.measured)
        versus = VERSUS[proto]
        mine, sramt = staggered_numbers(d, proto), staggered_numbers(d, versus)
        if mine is None or sramt is None:
            measured[f"staggered {NAMES[proto]}"] = "not run"
            return Verdict(v.status, measured, f"{v.explanation}; staggered-start runs of {proto} and {versus} not in the results")
        for who, n in ((proto, mine), (versus, sramt)):
            for key in ("F", "starvation windows", "CoV", "stream CoV", "convergence s"):
                if key in n:
                    x = n[key]
                    measured[f"staggered {NAMES[who]} {key}"] = round(x, 3) if isinstance(x, float) and math.isfinite(x) else x
        ok, why = _staggered_judge(proto, mine, sramt)
        measured[f"staggered: the claim's test {NAMES[proto]}"] = "holds" if ok else "does not hold"
        return Verdict(v.status, measured, f"{v.explanation}; in the TCP1 0 s / scheme 20 s / TCP2 60 s staggered start "
                                           f"({STAGGERED}, from 60 s, reported, not judged) the claim's test "
                                           f"{'holds' if ok else 'does not hold'}: {NAMES[proto]} vs {NAMES[versus]} {why}")

    return wrapped


# What each claim shows of its baseline's original scenario (its verdict stays the common scenario's).
SHOWN = {"plm": ("F", "CoV"), "rlc": ("F", "starvation windows"), "mlda": ("starvation windows", "convergence s", "F"),
         "irfm": ("F", "convergence s")}
WHERE = {"plm": "Fig. 15's TCP1 0 s / PLM 20 s / TCP2 60 s behind DRR, from 60 s", "rlc": "Fig. 16's 8 RLC + 8 Tahoe on 8 Mbit/s",
         "mlda": "Fig. 17's MLDA vs Tahoe on one bottleneck = the common scenario", "irfm": "Fig. 19's 1 Tahoe + IRFM with 2 receivers"}
DSG_NOTE = "DSG's original set-up (Fig. 18: three streams 'over the Internet') names no topology: not re-run"


def with_original(check: Callable[[object], Verdict], proto: str | None) -> Callable[[object], Verdict]:
    """``check`` (a C30–C34 check on the common bottleneck) with the numbers of ``proto``'s original
    scenario added to its ``measured`` and explanation; the verdict is the check's."""

    def wrapped(d) -> Verdict:
        v = check(d)
        measured = dict(v.measured)
        if proto is None:
            return Verdict(v.status, measured, f"{v.explanation}; {DSG_NOTE}")
        n = numbers(d, proto)
        if n is None:
            measured[f"original scenario {proto}"] = "not run"
            return Verdict(v.status, measured, f"{v.explanation}; original scenario ({WHERE[proto]}) not in the results")
        shown = []
        for key in SHOWN[proto]:
            x = n[key]
            measured[f"original {proto} {key}"] = round(x, 3) if isinstance(x, float) and math.isfinite(x) else x
            shown.append(f"{key} {x:.3g}" if isinstance(x, float) else f"{key} {x}")
        return Verdict(v.status, measured, f"{v.explanation}; in {WHERE[proto]} (reported, not judged): {', '.join(shown)}")

    return wrapped
