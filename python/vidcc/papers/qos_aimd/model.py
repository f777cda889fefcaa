"""A reference implementation, in plain Python, of the paper's analytic model
(docs/papers/qos-aimd.md §2.2–2.8), used by the suite's analytic claims A1–A12 to check the
project's model (the Rust `proto::qos_aimd::model`, reached through `vidcc.qos_aimd_select.select`)
where the two overlap (eqs. 1, 4, 7, 10) and to check the equations the selection does not expose (L, eqs. 2, 5, 6, 8).

Channels: ``burst=None`` is i.i.d. (Bernoulli) errors, T_n = Bin(n, 1 − p_e); ``burst=b`` is
docs/papers/qos-aimd.md's Gilbert channel (good state error-free, bad state always in error, mean
bad burst b slots, stationary start), T_n by the forward recursion of docs/papers/qos-aimd.md §2.8.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb


def alpha(beta: float) -> float:
    return 3 * (1 - beta) / (1 + beta)


def beta_of(a: float) -> float:
    return (3 - a) / (3 + a)


@lru_cache(maxsize=None)
def tn(n: int, pe: float, burst: float | None = None) -> tuple[float, ...]:
    """T_n(x), x = 0..n."""
    if n <= 0:
        return (1.0,)
    if burst is None:
        q = 1 - pe
        return tuple(comb(n, x) * q**x * pe ** (n - x) for x in range(n + 1))
    r = 1 / burst
    p = pe * r / (1 - pe)  # good → bad
    # f[x] = (P(x successes, next slot good), P(x successes, next slot bad))
    f = [(1 - pe, pe)]
    for _ in range(n):
        g = [[0.0, 0.0] for _ in range(len(f) + 1)]
        for x, (fg, fb) in enumerate(f):
            # good slot: success; then move to good (1 − p) or bad (p)
            g[x + 1][0] += fg * (1 - p)
            g[x + 1][1] += fg * p
            # bad slot: failure; bad → good with r
            g[x][0] += fb * r
            g[x][1] += fb * (1 - r)
        f = [tuple(v) for v in g]
    return tuple(a + b for a, b in f)


def mean(pmf) -> float:
    return sum(x * v for x, v in enumerate(pmf))


def cdf_below(pmf, k: int) -> float:
    """P(X < k)."""
    return sum(pmf[: max(k, 0)])


def eq1(W: int, R: int, D: int, pe: float, burst=None) -> float:
    return cdf_below(tn(R + D, pe, burst), W)


def overflow(B: int, W: int, R: int, pe: float, burst=None) -> float:
    return cdf_below(tn(R - 1, pe, burst), W - B)


def eq2(W: int, B: int, R: int, D: int, pe: float, burst=None) -> float:
    t_r, t_d = tn(R - 1, pe, burst), tn(D + 1, pe, burst)
    total = 0.0
    for x in range(max(W - R + 1, 0), B + 1):
        y = W - x
        if 0 <= y < len(t_r):
            total += cdf_below(t_d, x) * t_r[y]
    return total


def thin(pmf, p: float) -> list[float]:
    """Eq. (5): T_n(x; p) = Σ_k C(x+k, x) p^x (1 − p)^k T_n(x + k)."""
    n = len(pmf) - 1
    return [sum(comb(x + k, x) * p**x * (1 - p) ** k * pmf[x + k] for k in range(n - x + 1)) for x in range(n + 1)]


def convolve(a, b) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, u in enumerate(a):
        for j, v in enumerate(b):
            out[i + j] += u * v
    return out


def tokens_out_pmf(rtts, shares, pe: float, burst=None) -> list[float]:
    """Distribution of the number of tokens outside the BS buffer (eq. 6 with y = S − x):
    the convolution over k of T_{R_k − R_{k−1}}(·; Σ_{m≥k} p_m), R_0 = 1 (docs/papers/qos-aimd.md erratum 18)."""
    order = sorted(range(len(rtts)), key=lambda i: rtts[i])
    rs = [rtts[i] for i in order]
    ps = [shares[i] for i in order]
    pmf = [1.0]
    prev = 1
    for k, rk in enumerate(rs):
        tail = sum(ps[k:])
        part = list(tn(rk - prev, pe, burst))
        if tail < 1.0 - 1e-15:
            part = thin(part, tail)
        pmf = convolve(pmf, part)
        prev = rk
    return pmf


def queue_pmf(S: int, rtts, shares, pe: float, burst=None) -> dict[int, float]:
    """Eq. (6): Pr{Q = x | W} for x = S − (R_N − 1) … S."""
    out = tokens_out_pmf(rtts, shares, pe, burst)
    return {S - y: v for y, v in enumerate(out)}


def eq7(S: int, rtts, shares, D: int, pe: float, burst=None, B: int | None = None) -> float:
    """Eq. (7) (B = None or B ≥ S) and eq. (9) (B < S)."""
    t_d = tn(D + 1, pe, burst)
    top = S if B is None else min(B, S)
    return sum(v * cdf_below(t_d, x) for x, v in queue_pmf(S, rtts, shares, pe, burst).items() if x <= top)


def eq8(B: int, S: int, rtts, shares, pe: float, burst=None) -> float:
    return sum(v for x, v in queue_pmf(S, rtts, shares, pe, burst).items() if x > B)


def share_windows(S: float, rtts, shares, pe: float, burst=None) -> list[float]:
    """Closed form of eqs. (3)–(4) [D]: W_i = p_i (S − Σ_j p_j E[T_{R_j−1}]) + p_i E[T_{R_i−1}]."""
    e = [mean(tn(r - 1, pe, burst)) for r in rtts]
    base = S - sum(p * ei for p, ei in zip(shares, e))
    return [p * base + p * ei for p, ei in zip(shares, e)]


def eq3_residual(W, rtts, shares, pe: float, burst=None) -> float:
    e = [mean(tn(r - 1, pe, burst)) for r in rtts]
    S = sum(W)
    den = S - sum(p * ei for p, ei in zip(shares, e))
    return max(abs(p - (w - ei * p) / den) for w, p, ei in zip(W, shares, e))


def eq4_residual(W, rtts, shares, pe: float, burst=None) -> float:
    e = [mean(tn(r - 1, pe, burst)) for r in rtts]
    n = len(W)
    return max(
        abs(W[i] - (shares[i] / shares[j] * W[j] + (e[i] - e[j]) * shares[i])) for i in range(n) for j in range(n)
    )


def w_max(R: int, D: int, pe: float, eps: float = 0.01, burst=None) -> int:
    w = 1
    while eq1(w + 1, R, D, pe, burst) <= eps:
        w += 1
    return w


def optimal_pause(pe: float, burst: float, threshold: float = 0.8) -> int:
    """Silent slots after a failure in the "optimal" scheme [24] on docs/papers/qos-aimd.md's
    Gilbert channel (the rule of vidcc-sim ``loss::optimal_pause``): a failure means Bad, the retry
    after k silent slots succeeds with π_G·(1 − λ^(k+1)), λ = 1 − p − r; the fewest k reaching
    min(threshold, 0.99·π_G)."""
    r = 1 / burst
    p = pe * r / (1 - pe)
    lam, pi_g = 1 - p - r, 1 - pe
    target = min(threshold, 0.99 * pi_g)
    return next((k for k in range(1001) if pi_g * (1 - lam ** (k + 1)) >= target), 1000)


@lru_cache(maxsize=None)
def tn_optimal(n: int, pe: float, burst: float, pause: int) -> tuple[float, ...]:
    """T_n(x) under the "optimal" scheme: successes in n slots of a backlogged link that, after
    each failed attempt, stays silent for ``pause`` slots (the chain moving on).
    docs/papers/qos-aimd.md §2.8 recursion with a wait counter, started from the stationary law of
    (channel state, wait) under
    continuous transmission."""
    r = 1 / burst
    p = pe * r / (1 - pe)
    move = {0: ((1 - p, 0), (p, 1)), 1: ((r, 0), (1 - r, 1))}  # state → ((prob, next state), ...)

    def step(dist):
        """One slot: dist maps (successes, state, wait) → probability."""
        out: dict[tuple[int, int, int], float] = {}
        for (x, s, w), v in dist.items():
            if w > 0:
                x2, w2 = x, w - 1
            elif s == 0:
                x2, w2 = x + 1, 0
            else:
                x2, w2 = x, pause
            for pr, s2 in move[s]:
                if pr:
                    key = (x2, s2, w2)
                    out[key] = out.get(key, 0.0) + v * pr
        return out

    # Stationary (state, wait): iterate the chain without counting successes.
    sw = {(0, 0, 0): 1 - pe, (0, 1, 0): pe}
    for _ in range(400):
        sw = {(0, s, w): v for (x, s, w), v in _merge(step(sw)).items()}
    dist = dict(sw)
    for _ in range(n):
        dist = step(dist)
    pmf = [0.0] * (n + 1)
    for (x, _, _), v in dist.items():
        pmf[x] += v
    return tuple(pmf)


def _merge(dist):
    out: dict[tuple[int, int, int], float] = {}
    for (_, s, w), v in dist.items():
        out[(0, s, w)] = out.get((0, s, w), 0.0) + v
    return out


def w_max_optimal(R: int, D: int, pe: float, burst: float, pause: int, eps: float = 0.01) -> int:
    """Eq. (1)'s W_max with the optimal scheme's T_n."""
    t = tn_optimal(R + D, pe, burst, pause)
    w = 1
    while cdf_below(t, w + 1) <= eps:
        w += 1
    return w


def shares_of_windows(W, rtts, pe: float, burst=None) -> list[float]:
    """Eq. (3) solved for the shares p_i that given (integer) windows W_i produce: with
    K = S − Σ_j E[T_{R_j−1}] p_j, eq. (3) is p_i = W_i / (K + E[T_{R_i−1}]), and K is the root of
    Σ_i W_i / (K + E[T_{R_i−1}]) = 1 (decreasing in K), found by bisection."""
    e = [mean(tn(r - 1, pe, burst)) for r in rtts]

    def total(k: float) -> float:
        return sum(w / (k + ei) for w, ei in zip(W, e))

    lo, hi = -min(e) + 1e-12, float(sum(W))
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if total(mid) > 1 else (lo, mid)
    k = (lo + hi) / 2
    return [w / (k + ei) for w, ei in zip(W, e)]
