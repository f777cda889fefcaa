"""The QoS-AIMD suite's analytic claims A1–A12: the project's model (`vidcc qos-aimd select`,
Rust) against the suite's independent reference (``model.py``) and docs/papers/qos-aimd.md's vectors."""

from __future__ import annotations

from vidcc.papers.model import FAIL, PASS, Verdict
from vidcc.papers.qos_aimd import model

WIRELESS_BPS = 200_000  # the wireless hop's rate (§V setup), also the suite's scenarios'


# ---- analytic claims A1–A12: the project's model (`select`, Rust) and the suite's reference (model.py)


def _verdict(rows, what: str) -> Verdict:
    """rows: (name, value, ok). PASS iff every row is ok."""
    measured = {n: (round(v, 12) if isinstance(v, float) else v) for n, v, _ in rows}
    bad = [n for n, _, ok in rows if not ok]
    measured["checks failing"] = len(bad)
    if bad:
        return Verdict(FAIL, measured, f"{what}: fails at {', '.join(bad[:4])}" + (" …" if len(bad) > 4 else ""))
    measured["checks"] = len(rows)
    return Verdict(PASS, measured, f"{what}: all {len(rows)} checks hold")


def _sel(pe, rtts, eps=0.01, burst=None, beta=0.875, rounding="nearest"):
    from vidcc.qos_aimd_select import select

    return select(pe, rtts, 10, outage=eps, beta=beta, burst=burst, rounding=rounding)


def _close(a, b, tol=1e-9):
    return abs(a - b) <= tol * max(1.0, abs(b))


def alpha_of_beta(_):
    rows = []
    for b, want in ((0.875, 0.2), (0.5, 1.0), (0.75, 3 / 7), (0.8, 1 / 3), (0.9, 0.3 / 1.9)):
        got = _sel(0.1, [17], beta=b)["alpha"]
        rows.append((f"alpha({b}) (select)", got, _close(got, want)))
    grid = [i / 100 for i in range(1, 100)]
    al = [_sel(0.1, [17], beta=b)["alpha"] for b in grid]
    rows.append(("alpha strictly decreasing on β = 0.01…0.99 (select)", True, all(x > y for x, y in zip(al, al[1:]))))
    rows.append(("alpha range within (0, 3)", f"{min(al):.4f}…{max(al):.4f}", all(0 < a < 3 for a in al)))
    rows.append(
        (
            "alpha(β → 0⁺) → 3, alpha(β → 1⁻) → 0",
            f"{model.alpha(1e-9):.6f}, {model.alpha(1 - 1e-9):.2e}",
            model.alpha(1e-9) > 2.99999 and model.alpha(1 - 1e-9) < 1e-8,
        )
    )
    err = max(abs(model.beta_of(a) - b) for a, b in zip(al, grid))
    rows.append(("max |beta(alpha(β)) − β| (inverse, reference)", err, err < 1e-12))
    return _verdict(rows, "eq. (10) against the selection")


def slot_arithmetic(_):
    slot = 125 * 8 / WIRELESS_BPS
    rows = [
        ("slot (s)", slot, _close(slot, 0.005)),
        ("R = 85 ms / slot", 0.085 / slot, _close(0.085 / slot, 17)),
        ("D = 50 ms / slot", 0.050 / slot, _close(0.050 / slot, 10)),
        ("25 slots (ms)", 25 * slot * 1000, _close(25 * slot * 1000, 125)),
    ]
    return _verdict(rows, "slot arithmetic")


def single_flow_full_use(_):
    rows = []
    for pe in (0.01, 0.05, 0.1):
        r = _sel(pe, [17])
        w = r["windows"][0]
        rows.append(
            (
                f"p_e={pe}: throughput (select)",
                r["throughput_pkt_per_slot"][0],
                _close(r["throughput_pkt_per_slot"][0], 1 - pe),
            )
        )
        rows.append(
            (f"p_e={pe}: full utilisation flag at W={w} ≥ R", r["full_utilization"], r["full_utilization"] == (w >= 17))
        )
        q = model.queue_pmf(w, [17], [1.0], pe)
        qmin = min(x for x, v in q.items() if v > 0)
        rows.append((f"p_e={pe}: min Q over the eq. (6) support at W={w}", qmin, qmin == w - 17 + 1 and qmin >= 1))
    q = model.queue_pmf(17, [17], [1.0], 0.1)
    rows.append(
        ("W = R = B = 17: min Q", min(x for x, v in q.items() if v > 0), min(x for x, v in q.items() if v > 0) == 1)
    )
    return _verdict(rows, "single flow, W ≥ R, B ≥ W")


def outage_eq1_monotone(_):
    rows = []
    for pe, vals in (
        (0.1, {17: "2.825387e-05", 20: "3.871407e-03", 21: "1.466778e-02", 22: "4.705689e-02", 25: "5.154189e-01"}),
        (0.01, {25: "2.444107e-03", 26: "2.975e-02"}),
    ):
        for w, want in vals.items():
            got = model.eq1(w, 17, 10, pe)
            digits = len(want.split("e")[0].split(".")[1])
            rows.append(
                (f"eq1(p_e={pe}, W={w}) (reference; docs/papers/qos-aimd.md {want})", got, f"{got:.{digits}e}" == want)
            )
            if w == model.w_max(17, 10, pe) or w == model.w_max(17, 10, pe) + 1:
                r = _sel(pe, [17])
                v = r["outage"] if w == r["windows"][0] else r["outage_next"]
                rows.append(
                    (f"eq1(p_e={pe}, W={w}) (select; docs/papers/qos-aimd.md {want})", v, f"{v:.{digits}e}" == want)
                )
    for pe in (0.01, 0.05, 0.1):
        for burst in (None, 2.0):
            seq = [model.eq1(w, 17, 10, pe, burst) for w in range(1, 40)]
            rows.append(
                (
                    f"eq1 non-decreasing in W (p_e={pe}, burst={burst})",
                    True,
                    all(a <= b + 1e-15 for a, b in zip(seq, seq[1:])),
                )
            )
            r = _sel(pe, [17], burst=burst)
            w = r["windows"][0]
            ok = (
                _close(r["outage"], model.eq1(w, 17, 10, pe, burst), 1e-7)
                and _close(r["outage_next"], model.eq1(w + 1, 17, 10, pe, burst), 1e-7)
                and r["outage"] <= 0.01 < r["outage_next"]
                and w == model.w_max(17, 10, pe, 0.01, burst)
            )
            rows.append((f"select W_max(p_e={pe}, burst={burst}) = reference, eq1 ≤ 1 % < eq1(W+1)", w, ok))
    return _verdict(rows, "eq. (1) and W_max")


def eq2_equals_eq1(_):
    rows = []
    for pe in (0.01, 0.1):
        err = max(
            abs(model.eq2(w, b, 17, 10, pe) - model.eq1(w, 17, 10, pe)) for w in range(17, 30) for b in (w, w + 3)
        )
        rows.append((f"max |eq2 − eq1|, B ≥ W, i.i.d., p_e={pe}", err, err < 1e-12))
        seq = [model.eq2(22, b, 17, 10, pe) for b in range(22, 5, -1)]
        rows.append(
            (f"eq2(W=22, B=22…6) non-increasing, p_e={pe}", True, all(b <= a + 1e-15 for a, b in zip(seq, seq[1:])))
        )
    v = model.eq2(20, 10, 17, 10, 0.1)
    rows.append(("eq2(W=20, B=10, p_e=0.1)", v, abs(v - 3.505956e-03) < 5e-10))
    g1, g2 = model.eq1(17, 17, 10, 0.1, 5.0), model.eq2(17, 17, 17, 10, 0.1, 5.0)
    rows.append(
        (
            "Gilbert (burst 5) eq1 / eq2 at W=17",
            f"{g1:.4f} / {g2:.4f}",
            round(g1, 4) == 0.0626 and round(g2, 4) == 0.0537,
        )
    )
    return _verdict(rows, "eq. (2) (reference implementation)")


def overflow_loss(_):
    v = model.overflow(10, 20, 17, 0.1)
    rows = [("L(B=10, W=20), p_e=0.1, R=17", v, abs(v - 5.045345e-04) < 5e-11)]
    z = max(model.overflow(b, w, 17, pe) for pe in (0.01, 0.1) for w in range(1, 30) for b in range(w, w + 5))
    rows.append(("max L with B ≥ W", z, z == 0.0))
    r = _sel(0.1, [17])
    rows.append(
        (
            "select: overflow loss with B = rwnd",
            r["overflow_loss"],
            r["overflow_loss"] == 0.0 and r["buffer_packets"] == r["windows"][0],
        )
    )
    return _verdict(rows, "single-flow overflow loss L(B, W)")


def closed_form_windows(_):
    rows = []
    for pe in (0.01, 0.1):
        for rtts in ([17, 25], [17, 17], [17, 17, 25, 25], [17, 20, 25]):
            n = len(rtts)
            ps = [1 / n] * n
            for S in (20.0, 27.0, 40.0):
                w = model.share_windows(S, rtts, ps, pe)
                ok = (
                    abs(sum(w) - S) < 1e-9
                    and model.eq3_residual(w, rtts, ps, pe) < 1e-12
                    and model.eq4_residual(w, rtts, ps, pe) < 1e-9
                )
                rows.append((f"closed form sums to S, eqs. 3–4 (p_e={pe}, R={rtts}, S={S:g})", True, ok))
            r = _sel(pe, rtts)
            w = model.share_windows(r["window_sum"], rtts, ps, pe)
            rows.append(
                (
                    f"select exact windows = closed form at the allocated S (p_e={pe}, R={rtts})",
                    True,
                    all(abs(a - b) < 1e-9 for a, b in zip(r["exact_windows"], w)),
                )
            )
        w = model.share_windows(24.0, [17, 17], [0.5, 0.5], pe)
        rows.append((f"equal R, equal p: equal windows (p_e={pe})", True, abs(w[0] - w[1]) < 1e-12))
        w = model.share_windows(30.0, [17, 25], [0.5, 0.5], pe)
        rows.append((f"R=(17,25): W2 − W1 (p_e={pe})", w[1] - w[0], abs(w[1] - w[0] - 4 * (1 - pe)) < 1e-9))
        w = model.share_windows(30.0, [17, 17, 25, 25], [0.25] * 4, pe)
        rows.append((f"R=(17,17,25,25): W3 − W1 (p_e={pe})", w[2] - w[0], abs(w[2] - w[0] - 2 * (1 - pe)) < 1e-9))
    return _verdict(rows, "eqs. (3)–(4)")


def thinned_distribution(_):
    rows = []
    for pe, burst in ((0.1, None), (0.01, None), (0.1, 2.0)):
        for n in (5, 16, 26):
            t = model.tn(n, pe, burst)
            one = model.thin(t, 1.0)
            rows.append(
                (
                    f"T_n(·;1) = T_n (n={n}, p_e={pe}, burst={burst})",
                    True,
                    max(abs(a - b) for a, b in zip(one, t)) < 1e-14,
                )
            )
            for p in (0.2, 0.5, 0.7):
                th = model.thin(t, p)
                rows.append(
                    (
                        f"Σ T_n(x;{p}) = 1 and mean = p E[T_n] (n={n}, p_e={pe}, burst={burst})",
                        True,
                        abs(sum(th) - 1) < 1e-12 and abs(model.mean(th) - p * model.mean(t)) < 1e-10,
                    )
                )
    e = model.mean(model.tn(16, 0.1, 2.0))
    rows.append(("E[T_16] = 16(1 − p_e), Gilbert", e, abs(e - 16 * 0.9) < 1e-10))
    return _verdict(rows, "eq. (5) thinning (reference implementation)")


def equal_rtt_reductions(_):
    rows = []
    for pe in (0.01, 0.1):
        for n in (2, 4):
            rtts, ps = [17] * n, [1 / n] * n
            for S in (16, 20, 24):
                q = model.queue_pmf(S, rtts, ps, pe)
                t = model.tn(16, pe)
                rows.append(
                    (
                        f"Pr{{Q=x}} = T_16(S−x) (N={n}, S={S}, p_e={pe})",
                        True,
                        all(abs(v - t[S - x]) < 1e-14 for x, v in q.items()),
                    )
                )
                rows.append(
                    (
                        f"eq7 = eq2(W=S) (N={n}, S={S}, p_e={pe})",
                        True,
                        abs(model.eq7(S, rtts, ps, 10, pe) - model.eq2(S, S, 17, 10, pe)) < 1e-14,
                    )
                )
                for B in (S - 6, S - 2, S, S + 3):
                    rows.append(
                        (
                            f"eq8 = L(B={B}, S={S}) (N={n}, p_e={pe})",
                            True,
                            abs(model.eq8(B, S, rtts, ps, pe) - model.overflow(B, S, 17, pe)) < 1e-14
                            and (B < S or model.eq8(B, S, rtts, ps, pe) == 0.0),
                        )
                    )
        # Gilbert: eq. (7) equals eq. (2), not eq. (1)
        rows.append(
            (
                f"Gilbert (burst 5): eq7 = eq2 at W=S=17 (p_e={pe})",
                True,
                abs(model.eq7(17, [17, 17], [0.5, 0.5], 10, pe, 5.0) - model.eq2(17, 17, 17, 10, pe, 5.0)) < 1e-14,
            )
        )
        # eq. (6) depends on W only through S: the pmf has no window argument besides S; and select's eq. 7 outage
        # for several flows equals the reference eq. (7) at the allocated S.
        for rtts in ([17, 17], [17, 25], [17, 17, 25, 25]):
            r = _sel(pe, rtts)
            ref = model.eq7(r["window_sum"], rtts, [1 / len(rtts)] * len(rtts), 10, pe)
            rows.append(
                (
                    f"select outage = eq7 at S={r['window_sum']} (R={rtts}, p_e={pe})",
                    r["outage"],
                    _close(r["outage"], ref, 1e-7),
                )
            )
            rows.append(
                (
                    f"select B = S, L = 0 (R={rtts}, p_e={pe})",
                    True,
                    r["buffer_packets"] == r["window_sum"] and r["overflow_loss"] == 0.0,
                )
            )
    return _verdict(rows, "eqs. (6)–(8) with equal RTTs; select against eq. (7)")


def multi_flow_full_use(_):
    rows = []
    for pe in (0.01, 0.1):
        for rtts in ([17, 25], [17, 17, 25, 25], [17, 20, 25]):
            n = len(rtts)
            for S in (25, 30):
                q = model.queue_pmf(S, rtts, [1 / n] * n, pe)
                qmin = min(x for x, v in q.items() if v > 0)
                rows.append((f"min Q (S={S}, R={rtts}, p_e={pe})", qmin, qmin == S - max(rtts) + 1 and qmin >= 1))
            r = _sel(pe, rtts)
            rows.append(
                (
                    f"select throughput = (1 − p_e)/N (R={rtts}, p_e={pe})",
                    r["throughput_pkt_per_slot"][0],
                    all(_close(t, (1 - pe) / n) for t in r["throughput_pkt_per_slot"]),
                )
            )
            rows.append(
                (
                    f"select full-utilisation flag = [S ≥ R_N] (R={rtts}, p_e={pe})",
                    r["full_utilization"],
                    r["full_utilization"] == (r["window_sum"] >= max(rtts)),
                )
            )
    return _verdict(rows, "several flows, S ≥ R_N")


def window_after_wired_loss(_):
    rows = []
    r = _sel(0.1, [17])
    rows.append(
        ("select: rwnd needed after a wired loss (R=17, β=0.875)", r["wired_loss_window"], r["wired_loss_window"] == 20)
    )
    rows.append(("0.875 · 20 ≥ 17 and 0.875 · 19 < 17", f"{0.875 * 20} / {0.875 * 19}", 0.875 * 20 >= 17 > 0.875 * 19))
    return _verdict(rows, "window after one wired loss")


def reference_vectors(_):
    want = [25, 24, 24, 23, 22, 22, 22, 21, 21, 20]
    got = [_sel(i / 100, [17])["windows"][0] for i in range(1, 11)]
    ref = [model.w_max(17, 10, i / 100) for i in range(1, 11)]
    rows = [
        ("select W_max, i.i.d., p_e = 1…10 %", ",".join(map(str, got)), got == want),
        ("reference W_max, i.i.d.", ",".join(map(str, ref)), ref == want),
    ]
    for burst, vec in (
        (2.0, [23, 21, 21, 20, 19, 19, 18, 18, 17, 17]),
        (5.0, [19, 17, 15, 14, 13, 12, 11, 11, 10, 10]),
    ):
        g = [_sel(i / 100, [17], burst=burst)["windows"][0] for i in range(1, 11)]
        rows.append((f"select W_max, Gilbert burst {burst:g}", ",".join(map(str, g)), g == vec))
    multi = {
        (0.01, (17, 17)): [12, 12],
        (0.1, (17, 17)): [10, 10],
        (0.01, (17, 17, 17, 17)): [6] * 4,
        (0.1, (17, 17, 17, 17)): [5] * 4,
        (0.01, (17, 25)): [12, 15],
        (0.1, (17, 25)): [10, 13],
        (0.01, (17, 17, 25, 25)): [6, 6, 7, 7],
        (0.1, (17, 17, 25, 25)): [5, 5, 6, 6],
    }
    for (pe, rtts), w in multi.items():
        g = _sel(pe, list(rtts))["windows"]
        rows.append((f"select windows R={list(rtts)}, p_e={pe}", ",".join(map(str, g)), g == w))
    for pe, smax in ((0.01, 27), (0.1, 23)):
        g = _sel(pe, [17, 25])["max_window_sum"]
        rows.append((f"select S_max R=(17,25), p_e={pe}", g, g == smax))
    return _verdict(rows, "docs/papers/qos-aimd.md §2.7 reference vectors")
