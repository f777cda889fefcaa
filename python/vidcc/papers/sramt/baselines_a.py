"""The baselines in Scenario A (figure ``fig4-9-baselines``): the digest's recommended common
scenario for layered and simulcast schemes (``specs/004-sramt.md`` §2 framing, §3.2), with each
baseline in SRAMT's place, and the numbers C30–C34 report from it beside their verdicts.

Set-up (suite): the topology, receivers (R1–R6 behind C2/C3/C4) and Tahoe flows (TCP1–3 to
Sink1–3, starting at U(0, 1) s) of SRAMT's Scenario A runs (figures ``fig4-6``/``fig7-9``); the
baseline's session from S replaces SRAMT's. Choices a baseline needs there:

* PLM [R]: its paper assumes fair-queueing routers, so the three bottlenecks C1–C2, C1–C3, C1–C4
  run DRR (ns-2 ``Queue/DRR`` defaults, as on the common bottleneck: ``scenarios.FAIR_QUEUE``)
  instead of the scenario's RED; everything else as the scenario. Its default layers (20 ×
  50 kbit/s) put each bottleneck's fair half-share (100 / 400 / 750 kbit/s) well inside the
  1 Mbit/s total, so they are kept: expected levels 1, 7 and 14, the most layers whose
  cumulative rate stays strictly below the half-share (a period's minimum pair estimate falls
  below an exact share; the common bottleneck measures the same: 9 layers under 500 kbit/s).
* RLC, MLDA [R]: RED as the scenario; their default layers fit the three half-shares and are
  kept (RLC 32·2^(L−1) kbit/s: expected levels 2, 4, 5 by the same rule; MLDA's sender re-sizes
  its five layers to the reports, so its levels have no fixed rate: the three receiver pairs are
  only expected on increasing levels).
* DSG [R]: its default bands are SRAMT-S's (50–200 / 200–600 / 600–1000 kbit/s), so Scenario A's
  expected streams are SRAMT-S's (R1, R2 → 1; R3, R4 → 2; R5, R6 → 3) and its receivers start on
  them, as SRAMT-S's do [P].
* IRFM [R]: two streams in 50–1000 kbit/s; every receiver starts on its default stream (the low
  one). With isolated rates near 100, 400 and 750 kbit/s the fairest pair puts the low stream at
  R1/R2's rate and the high one at R3/R4's or R5/R6's (the two pairs score equally), so R1, R2
  are expected on stream 1 and R5, R6 on stream 2; R3, R4 may take either.

Measured (suite, as C12/C13 read SRAMT's Scenario A runs): per bottleneck, F = mean scheme
traffic leaving it / mean Tahoe throughput on it (:func:`sharing.link_series`, after warm-up) and
its starvation windows; CoV: layered schemes the mean over receivers of the CoV of each one's
1 s received rate (as C30: PLM announces no rate), simulcast schemes the mean CoV of the held
streams' announced rates (as C33); convergence = the last stream / level change of any receiver;
the final position = the one held over [0.5·D, D] ("moved" otherwise), against the expected
one above. Each claim shows its baseline's and its SRAMT variant's numbers and whether its own
test would hold in Scenario A; the verdicts stay the common bottleneck's (the claims' checks are
written for one TCP against one scheme on one link, as the paper's Figs. 15–19; Scenario A
repeats each comparison on three links of different capacity, which is reported, not judged).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence

import numpy as np

from vidcc.papers.model import Verdict
from vidcc.papers.sramt import sharing, simulcast_checks, trace
from vidcc.papers.sramt.scenarios import EXPECTED_A, LINKS_A

FIGURE = "fig4-9-baselines"
BASELINES = ("plm", "rlc", "mlda", "dsg", "irfm")
LAYERED = {"plm": True, "rlc": True, "mlda": True, "dsg": False, "irfm": False, "sramt-le": True, "sramt-s": False}
# The SRAMT variant each baseline is compared with, and the figure holding its Scenario A runs.
VERSUS = {"plm": "sramt-le", "rlc": "sramt-le", "mlda": "sramt-le", "dsg": "sramt-s", "irfm": "sramt-s"}
SRAMT_FIGURE = {"sramt-le": "fig7-9", "sramt-s": "fig4-6"}
NAMES = {"plm": "PLM", "rlc": "RLC", "mlda": "MLDA", "dsg": "DSG", "irfm": "IRFM", "sramt-le": "SRAMT-LE", "sramt-s": "SRAMT-S"}
HALF_SHARE_BPS = {"C1-C2": 0.1e6, "C1-C3": 0.4e6, "C1-C4": 0.75e6}
LINK_OF = {n: link for link, (nodes, _t, _c) in LINKS_A.items() for n in nodes}


def _cumulative_level(layer_bps: Sequence[float], share: float) -> int:
    total, level = 0.0, 0
    for r in layer_bps:
        total += r
        if total >= share:
            break
        level += 1
    return max(level, 1)


def expected(proto: str, protocol: dict, scenario_a_expected: dict[str, int]) -> dict[str, int | None]:
    """The position each receiver is expected to hold (None: either is right)."""
    if proto in ("sramt-s", "sramt-le", "dsg"):
        return dict(scenario_a_expected)
    if proto == "irfm":
        return {n: {1: 1, 2: None, 3: 2}[k] for n, k in scenario_a_expected.items()}
    if proto == "plm":
        layers = [float(x) for x in protocol.get("layer_rates_bps", [])]
    elif proto == "rlc":
        b0, n = float(protocol.get("base_rate_bps", 32_000)), int(protocol.get("layers", 6))
        layers = [b0] + [b0 * 2 ** (k - 1) for k in range(1, n)]
    else:  # mlda: layer sizes follow the reports; only the order is expected
        return {n: None for n in scenario_a_expected}
    return {n: _cumulative_level(layers, HALF_SHARE_BPS[LINK_OF[n]]) for n in scenario_a_expected}


def _data(d, fig: str):
    if d.figure is not None and d.figure.id == fig:
        return d
    try:
        return d.other(fig)
    except KeyError:
        return None


def _runs(data, proto: str) -> list[trace.Run]:
    try:
        return trace.runs_of(data, proto, proto, LAYERED[proto])
    except KeyError:
        return []


def _protocol(data, proto: str) -> dict:
    row = data.runs(proto).to_dict("records")[0]
    cfg = next((f for f in json.loads(row.get("resolved_json") or "{}").get("flows", []) if f.get("label") == proto), {})
    return cfg.get("protocol") if isinstance(cfg.get("protocol"), dict) else {}


def _received_cov(run: trace.Run) -> float:
    s = run.samples[run.samples["t_s"] > run.warmup_s]
    covs = [float(np.std(x) / np.mean(x)) for _r, x in s.groupby("receiver")["throughput_bps"] if len(x) and np.mean(x) > 0]
    return float(np.mean(covs)) if covs else math.nan


def _last_change(run: trace.Run) -> float:
    return float(run.changes["t_s"].max()) - run.start_s if len(run.changes) else 0.0


def numbers(d, proto: str) -> dict | None:
    """Scenario A numbers of ``proto`` (a baseline or an SRAMT variant): per-link F and starvation
    windows, CoV, convergence, final positions; None when its runs are not in the results."""
    fig = SRAMT_FIGURE.get(proto, FIGURE)
    data = _data(d, fig)
    runs = _runs(data, proto) if data is not None else []
    if not runs:
        return None
    layered = LAYERED[proto]
    out: dict = {"runs": len(runs), "F": {}, "starvation": {}}
    for link, (nodes, tcp, cap) in LINKS_A.items():
        fs, starve = [], 0
        for run in runs:
            s = sharing.link_series(data, run, nodes, tcp, layered)
            fs.append(float(s["sramt"].mean() / s["tcp"].mean()) if s["tcp"].mean() > 0 else math.inf)
            starve += sharing.starvation_windows(s, cap)
        out["F"][link] = float(np.mean(fs))
        out["starvation"][link] = starve
    out["CoV"] = float(np.mean([_received_cov(r) if layered else simulcast_checks.stream_cov(r) for r in runs]))
    out["convergence s"] = float(np.mean([_last_change(r) for r in runs]))
    want = expected(proto, _protocol(data, proto), EXPECTED_A)
    finals, hits, judged = {}, 0, 0
    for node in EXPECTED_A:
        held = [r.held(node, 0.5 * r.duration_s, r.duration_s) for r in runs]
        finals[node] = ", ".join("moved" if h is None else str(h) for h in held)
        if want[node] is not None:
            judged += len(held)
            hits += sum(h == want[node] for h in held)
    out["final"], out["expected"], out["at expected"] = finals, want, (hits, judged)
    # Increasing positions behind wider bottlenecks (each pair's mean final position; moved = skipped).
    means = []
    for link, (nodes, _t, _c) in LINKS_A.items():
        held = [r.held(n, 0.5 * r.duration_s, r.duration_s) for r in runs for n in nodes]
        held = [h for h in held if h is not None]
        means.append(float(np.mean(held)) if held else math.nan)
    out["ordered"] = bool(all(math.isfinite(x) for x in means) and means[0] < means[1] < means[2])
    return out


def _fmt(x) -> str:
    return f"{x:.3g}" if isinstance(x, float) else str(x)


def _judge(proto: str, mine: dict, sramt: dict) -> tuple[str, str]:
    """Whether the claim's own test holds in Scenario A, per link where it is about F."""
    links = list(LINKS_A)
    f, fs = mine["F"], sramt["F"]
    if proto == "plm":
        ok = [f[x] < 1 and abs(fs[x] - 1) < abs(f[x] - 1) for x in links]
        steadier = mine["CoV"] < sramt["CoV"]
        return ("holds" if steadier and all(ok) else "does not hold",
                f"CoV PLM {_fmt(mine['CoV'])} {'<' if steadier else '≥'} SRAMT-LE {_fmt(sramt['CoV'])}; F_PLM < 1 and "
                f"|F_SRAMT-LE − 1| < |F_PLM − 1| on {sum(ok)} of 3 links")
    if proto == "rlc":
        ok = [f[x] > 1 and abs(fs[x] - 1) < abs(f[x] - 1) and mine["starvation"][x] == 0 and sramt["starvation"][x] == 0 for x in links]
        return ("holds" if all(ok) else "does not hold",
                f"F_RLC > 1, |F_SRAMT-LE − 1| < |F_RLC − 1| and no starvation on {sum(ok)} of 3 links")
    if proto == "mlda":
        st, st_le = sum(mine["starvation"].values()), sum(sramt["starvation"].values())
        starves, slower = st_le == 0 and st > 0, mine["convergence s"] > sramt["convergence s"]
        return ("holds" if starves and slower else "does not hold",
                f"starvation windows MLDA {st} vs SRAMT-LE {st_le}; convergence MLDA {mine['convergence s']:.0f} s "
                f"{'>' if slower else '≤'} SRAMT-LE {sramt['convergence s']:.0f} s")
    if proto == "dsg":
        ok = mine["CoV"] < sramt["CoV"]
        return ("holds" if ok else "does not hold",
                f"CoV DSG {_fmt(mine['CoV'])} {'<' if ok else '≥'} SRAMT-S {_fmt(sramt['CoV'])}")
    ok = [abs(fs[x] - 1) < abs(f[x] - 1) for x in links]
    faster = sramt["convergence s"] < mine["convergence s"]
    return ("holds" if all(ok) and faster else "does not hold",
            f"|F_SRAMT-S − 1| < |F_IRFM − 1| on {sum(ok)} of 3 links; convergence SRAMT-S {sramt['convergence s']:.0f} s "
            f"{'<' if faster else '≥'} IRFM {mine['convergence s']:.0f} s")


def measured_keys(proto: str, n: dict, who: str) -> dict:
    out = {f"Scenario A {who} F[{link}]": round(v, 3) for link, v in n["F"].items()}
    out.update({f"Scenario A {who} starvation windows[{link}]": v for link, v in n["starvation"].items()})
    out[f"Scenario A {who} CoV"] = round(n["CoV"], 3) if math.isfinite(n["CoV"]) else n["CoV"]
    out[f"Scenario A {who} convergence s"] = round(n["convergence s"], 1)
    if proto in BASELINES:
        out.update({f"Scenario A {who} final[{node}]": v for node, v in n["final"].items()})
        hits, judged = n["at expected"]
        want = ", ".join(f"{k} {'any' if v is None else v}" for k, v in n["expected"].items())
        out[f"Scenario A {who} at expected position"] = f"{hits} of {judged} (expected {want})"
        out[f"Scenario A {who} positions increase with the bottleneck"] = "yes" if n["ordered"] else "no"
    return out


def with_scenario_a(check: Callable[[object], Verdict], proto: str) -> Callable[[object], Verdict]:
    """``check`` (a C30–C34 check on the common bottleneck) with ``proto``'s and its SRAMT
    variant's Scenario A numbers added to ``measured`` and the explanation; the verdict is the
    check's."""

    def wrapped(d) -> Verdict:
        v = check(d)
        measured = dict(v.measured)
        versus = VERSUS[proto]
        mine, sramt = numbers(d, proto), numbers(d, versus)
        if mine is None or sramt is None:
            measured[f"Scenario A {NAMES[proto]}"] = "not run"
            return Verdict(v.status, measured, f"{v.explanation}; Scenario A runs of {proto} and {versus} not in the results")
        measured.update(measured_keys(proto, mine, NAMES[proto]))
        measured.update(measured_keys(versus, sramt, NAMES[versus]))
        holds, why = _judge(proto, mine, sramt)
        measured[f"Scenario A: the claim's test {NAMES[proto]}"] = holds
        hits, judged = mine["at expected"]
        place = (f"{hits} of {judged} receiver-runs at the expected position" if judged else
                 f"positions {'increase' if mine['ordered'] else 'do not increase'} with the bottleneck")
        return Verdict(v.status, measured, f"{v.explanation}; in Scenario A (fig4-9-baselines, reported, not judged) the "
                                           f"claim's test {holds}: {why}; {place}")

    return wrapped
