"""Checks of SSVP's rate law: Eq. 7 (C1), Eq. 6 (C2), the startup phase (C5) and the regular,
gently reduced rate of Fig. 7 (C7)."""

from __future__ import annotations

import math

from vidcc.papers.model import FAIL, PASS, Verdict
from vidcc.papers.ssvp.scenarios import CAPACITY
from vidcc.papers.ssvp.traces import events, first_at, judged, rtt_before, rtt_series, ssvp_defaults
from vidcc.papers.verdicts import all_of, number

S_BITS = 8 * 1000  # one 1000 B packet [P]


def alpha_from_beta(_d):
    alpha, beta = ssvp_defaults()
    exact = 4 * (1 - 0.875**2) / 3
    return all_of(
        number(exact, 0.3125, 1e-12, name="4(1 − 0.875²)/3"),
        number(beta, 0.875, 0.0, name="configured beta (ssvp default)"),
        number(alpha, 0.31, 0.0, name="configured alpha (ssvp default)"),
    )


def sender_delay(d_s: float, beta: float) -> float:
    """Eq. (6): the sending delay after a decrease, D = d(1/beta − 1) (docs/papers/ssvp.md §1.1.7)."""
    return d_s * (1 / beta - 1)


def sender_delay_falls_with_beta(_d):
    _, beta = ssvp_defaults()
    grid = [0.3 + 0.05 * i for i in range(14)]
    ds = [sender_delay(1.0, b) for b in grid]
    dec = all(a > b for a, b in zip(ds, ds[1:]))
    return all_of(
        number(sender_delay(1.0, beta), 1 / 7, 1e-12, name="D/d at the configured beta"),
        number(sender_delay(1.0, 0.5), 1.0, 1e-12, name="D/d at beta 0.5 (TCP/RAP)"),
        Verdict(
            PASS if dec else FAIL,
            {"D/d strictly decreasing in beta over [0.3, 0.95]": dec},
            "D strictly decreasing in beta" if dec else "D not strictly decreasing in beta",
        ),
    )


def startup_ramps_and_ends(d):
    """§3.2: during startup the rate increases per control packet "until the occurrence of
    congestion". Two halves: the flow with startup reaches 800 kbit/s sooner than without; and
    startup ends at the first congestion signal (the first decrease): after it, rate increases
    follow the per-RTT rule — no two increases closer than half the flow's measured RTT of the moment."""
    ev = events(d, "ssvp", "rate", "ssvp")
    runs = d.runs("ssvp")[["run_id", "startup"]]
    ev = ev.merge(runs, on="run_id")
    t, fast_after, rises_after = {}, 0, 0
    for (st, run_id), g in ev.groupby(["startup", "run_id"]):
        rate = g.sort_values("t_ns")
        t.setdefault(bool(st), []).append(first_at(rate, 0.8 * CAPACITY))
        rtt = rtt_series(d, "ssvp", run_id)
        if not st or rate.empty or rtt.empty:
            continue
        v, ts = rate["value"].to_numpy(), rate["t_ns"].to_numpy()
        dec = [i for i in range(1, len(v)) if v[i] < v[i - 1]]
        if not dec:
            continue
        rises = [ts[i] for i in range(dec[0] + 1, len(v)) if v[i] > v[i - 1]]
        rises_after += len(rises)
        fast_after += sum(1 for a, b in zip(rises, rises[1:]) if (b - a) / 1e9 < 0.5 * rtt_before(rtt, b))
    with_s = sum(t.get(True, [math.nan])) / len(t.get(True, [1]))
    without = sum(t.get(False, [math.nan])) / len(t.get(False, [1]))
    measured = {
        "time to 800 kbit/s with startup (s)": with_s,
        "time to 800 kbit/s without startup (s)": without,
        "rate increases after the first decrease (startup runs)": rises_after,
        "of which closer than half an RTT to the previous one": fast_after,
    }
    faster = with_s < without
    ends = rises_after > 0 and fast_after == 0
    text = (
        f"800 kbit/s reached after {with_s:.2f} s with startup, {without:.2f} s without "
        f"({'faster' if faster else 'not faster'} with startup); after the first decrease {fast_after} of "
        f"{rises_after} increases came within half an RTT of the previous one"
    )
    if rises_after == 0:
        text += " (no increase after a decrease: the exit is not observed)"
    return Verdict(PASS if faster and ends else FAIL, measured, text)


def rate_is_regular(d):
    import numpy as np

    allev = events(d, "ssvp", "rate", "ssvp").sort_values(["run_id", "t_ns"])
    steps, gains = [], []
    for run_id, g in allev.groupby("run_id"):
        rtt = rtt_series(d, "ssvp", run_id)
        v, ts = g["value"].to_numpy(), g["t_ns"].to_numpy()
        if len(v) < 2:
            continue
        r = v[1:] / v[:-1]
        steps.extend(r[r < 1].tolist())
        dec = np.nonzero(r < 1)[0]
        if len(dec) and not rtt.empty:  # after startup: increases of the per-RTT rule, in packets per
            # RTT at the flow's measured RTT at that adjustment (Δrate · RTT / S)
            for i in range(dec[0] + 1, len(r)):
                if v[i + 1] > v[i]:
                    gains.append((v[i + 1] - v[i]) * rtt_before(rtt, ts[i + 1]) / S_BITS)
    worst = min(steps) if steps else math.nan
    dec_ok = bool(steps) and worst >= 0.85
    covs = {}
    for r in d.runs("ssvp")["run_id"]:
        f = d.flows("ssvp")
        f = f[f["run_id"] == r]
        s = d.series(r, "flow_samples")
        s = s[s["t_ns"] >= 2_000_000_000]
        for fl, lab in zip(f["flow"], f["label"]):
            x = s[s["flow"] == fl]["throughput_bps"].to_numpy(dtype=float)
            covs.setdefault(lab if lab == "ssvp" else f"ftp#{fl}", []).append(
                float(x.std() / x.mean()) if x.mean() > 0 else math.nan
            )
    cov = {k: sum(v) / len(v) for k, v in covs.items()}
    cov_ok = "ssvp" in cov and all(cov["ssvp"] < c for k, c in cov.items() if k != "ssvp")
    gain = float(np.median(gains)) if gains else math.nan
    gain_ok = gain < 1.0
    measured = {
        "smallest decrease step (new/old rate)": worst,
        "decreases": len(steps),
        **{f"CoV of throughput, 100 ms bins [{k}]": v for k, v in cov.items()},
        "SSVP median increase per RTT (packets, at each adjustment's measured RTT)": gain,
        "TCP Reno's increase per RTT in congestion avoidance (packets)": 1,
    }
    return judged(
        measured,
        (
            (dec_ok, f"a decrease step of {worst:.3f} < 0.85"),
            (cov_ok, "SSVP's CoV is not below every FTP flow's"),
            (gain_ok, f"SSVP gains {gain:.2f} packets per RTT, not less than TCP's 1"),
        ),
        f"every decrease ≥ ×{worst:.3f}; CoV SSVP {cov['ssvp']:.2f} below every FTP flow's; "
        f"SSVP gains {gain:.2f} packet/RTT (< TCP's 1)",
    )
