"""``vidcc qos-aimd select``: the QoS-AIMD paper's cross-layer parameter selection.

Given the wireless last hop's packet error rate, each flow's RTT and the delay bound (both in
slots: one slot is the time to send one packet on the wireless link), and the tolerable
delay-outage probability, it prints what the paper's procedure (§IV, steps 1-7) picks:
alpha from beta by eq. (10), the receiver window rwnd = W_max (one flow, eq. 1) or the
eq. (4) windows (several flows, eq. 7), the base-station buffer B = sum of rwnd, and the model's
predictions. The computation is vidcc-core's `proto::qos_aimd::model::select` (Rust), reached
through `vidcc._vidcc.qos_aimd_select`; docs/protocols/qos-aimd.md describes the model.

    vidcc qos-aimd select --error-rate 0.1 --rtt-slots 17 --delay-bound 10
    vidcc qos-aimd select --error-rate 0.01 --rtt-slots 17,25 --delay-bound 10 --json

Exit codes: 0 success, 2 bad usage or an out-of-range input (one ``error: ...`` line on stderr).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Sequence

from vidcc.cli_common import Parser, print_error

__all__ = ["select", "format_table", "build_parser", "add_qos_aimd_parser", "main"]


class SelectError(ValueError):
    """An input out of range; the message names the option."""


def _check(ok: bool, message: str) -> None:
    if not ok:
        raise SelectError(message)


def select(
    error_rate: float,
    rtt_slots: int | Sequence[int],
    delay_bound: int,
    *,
    outage: float = 0.01,
    beta: float = 0.875,
    burst: float | None = None,
    shares: Sequence[float] | None = None,
    rounding: str = "nearest",
) -> dict:
    """Runs the selection; returns the chosen parameters and predictions as a dict.

    Raises `SelectError` (a `ValueError`) naming the option for an out-of-range input.
    """
    from vidcc import _vidcc

    rtts = [rtt_slots] if isinstance(rtt_slots, int) else list(rtt_slots)
    _check(isinstance(error_rate, (int, float)) and math.isfinite(error_rate) and 0.0 <= error_rate < 1.0,
           f"--error-rate must be in [0, 1), got {error_rate}")
    _check(len(rtts) >= 1, "--rtt-slots needs at least one RTT")
    _check(all(isinstance(r, int) and 1 <= r < 2**32 for r in rtts),
           f"--rtt-slots must be positive integers (slots), got {','.join(map(str, rtts))}")
    _check(isinstance(delay_bound, int) and 0 <= delay_bound < 2**32,
           f"--delay-bound must be a non-negative integer (slots), got {delay_bound}")
    _check(math.isfinite(outage) and 0.0 < outage < 1.0, f"--outage must be in (0, 1), got {outage}")
    _check(math.isfinite(beta) and 0.0 < beta < 1.0, f"--beta must be in (0, 1), got {beta}")
    if burst is not None:
        _check(math.isfinite(burst) and burst >= 1.0, f"--burst must be at least 1 slot, got {burst}")
    if shares is not None:
        shares = list(shares)
        _check(len(shares) == len(rtts), f"--shares needs one share per RTT ({len(rtts)}), got {len(shares)}")
        _check(all(math.isfinite(p) and 0.0 < p <= 1.0 for p in shares), "--shares must be numbers in (0, 1]")
        _check(abs(sum(shares) - 1.0) <= 1e-9, f"--shares must add up to 1, they add up to {sum(shares):g}")
    _check(rounding in ("nearest", "integer-gap"), f"--rounding must be nearest or integer-gap, got {rounding}")
    try:
        return dict(_vidcc.qos_aimd_select(float(error_rate), rtts, delay_bound, outage, beta, burst, shares, rounding))
    except ValueError as e:
        raise SelectError(str(e)) from None


def _yes(flag: bool) -> str:
    return "yes" if flag else "no"


def format_table(r: dict) -> str:
    """The selection as an aligned text table."""
    channel = "i.i.d." if r["channel"] == "iid" else f"Gilbert, mean burst {r['burst_slots']:g} slots"
    n = len(r["windows"])
    rtts = ", ".join(map(str, r["rtt_slots"]))
    lines = [
        f"QoS-AIMD parameter selection: p_e = {r['error_rate']:g} ({channel}), R = {rtts} slots, "
        f"D = {r['delay_bound_slots']} slots, outage target {r['outage_target']:g}",
        "",
    ]
    eq = "eq. 1" if n == 1 else "eq. 7"
    rows = [
        ("beta", f"{r['beta']:g}"),
        ("alpha (eq. 10)", f"{r['alpha']:.6g}"),
    ]
    if n == 1:
        rows += [
            ("rwnd = W_max", f"{r['windows'][0]} packets"),
            ("BS buffer B", f"{r['buffer_packets']} packets"),
        ]
    else:
        rows += [
            ("S_max", f"{r['max_window_sum']} packets"),
            ("S allocated", f"{r['window_sum']} packets ({r['rounding']} rounding)"),
            ("BS buffer B = S", f"{r['buffer_packets']} packets"),
        ]
    rows += [
        (f"Pr{{d_q > D}} ({eq})", f"{r['outage']:.6e}"),
        (f"  at {'W_max' if n == 1 else 'S_max'} + 1", f"{r['outage_next']:.6e}"),
        ("overflow loss L(B, W)", f"{r['overflow_loss']:g}"),
        ("link throughput", f"{1.0 - r['error_rate']:.6g} packets/slot (1 - p_e)"),
        ("full utilisation", f"{_yes(r['full_utilization'])} ({'W' if n == 1 else 'S'} >= R_N = {max(r['rtt_slots'])})"),
    ]
    if n == 1:
        need = r["wired_loss_window"]
        rows.append(("busy after a wired loss", f"{_yes(r['window_sum'] >= need)} (beta * rwnd >= R needs rwnd >= {need})"))
    width = max(len(k) for k, _ in rows)
    lines += [f"  {k:<{width}}  {v}" for k, v in rows]
    if n > 1:
        lines += ["", "  flow  R (slots)  share   rwnd  eq. 4 window  throughput (pkt/slot)"]
        for i in range(n):
            lines.append(
                f"  {i:>4}  {r['rtt_slots'][i]:>9}  {r['shares'][i]:<6.4g}  {r['windows'][i]:>4}  "
                f"{r['exact_windows'][i]:>12.4f}  {r['throughput_pkt_per_slot'][i]:.6g}"
            )
    if not r["full_utilization"]:
        lines += ["", "  warning: the window is below the RTT: the outage target is met, but the wireless link "
                      "may idle (the paper does not cover this case)"]
    return "\n".join(lines)


def _int_list(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers separated by commas (slots), got {text!r}") from None


def _float_list(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected numbers separated by commas, got {text!r}") from None


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer (slots), got {text!r}") from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--error-rate", type=float, required=True, metavar="P_E",
                   help="mean packet error rate per transmission on the wireless link, in [0, 1)")
    p.add_argument("--rtt-slots", type=_int_list, required=True, metavar="R[,R...]",
                   help="each flow's RTT without wireless queueing, in slots (several: one per flow)")
    p.add_argument("--delay-bound", type=_int, required=True, metavar="D",
                   help="the largest tolerable queueing delay (jitter), in slots")
    p.add_argument("--outage", type=float, default=0.01, metavar="EPS",
                   help="tolerable delay-outage probability (default 0.01)")
    p.add_argument("--beta", type=float, default=0.875, help="multiplicative decrease; alpha follows (default 0.875)")
    p.add_argument("--burst", type=float, default=None, metavar="SLOTS",
                   help="Gilbert channel with this mean error burst (default: i.i.d. errors)")
    p.add_argument("--shares", type=_float_list, default=None, metavar="P[,P...]",
                   help="each flow's share of the wireless link (default: equal)")
    p.add_argument("--rounding", choices=("nearest", "integer-gap"), default="nearest",
                   help="integer windows for several flows (default nearest)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")


def _cmd(args: argparse.Namespace) -> int:
    try:
        r = select(args.error_rate, args.rtt_slots, args.delay_bound, outage=args.outage, beta=args.beta,
                   burst=args.burst, shares=args.shares, rounding=args.rounding)
    except SelectError as e:
        print_error(e)
        return 2
    print(json.dumps(r, indent=2) if args.json else format_table(r))
    return 0


def build_parser(prog: str = "vidcc qos-aimd select") -> argparse.ArgumentParser:
    p = Parser(prog=prog, description="QoS-AIMD cross-layer parameter selection (docs/protocols/qos-aimd.md).")
    add_arguments(p)
    p.set_defaults(func=_cmd)
    return p


def add_qos_aimd_parser(sub) -> None:
    """Add ``qos-aimd select`` to the main parser's subparsers (``func`` takes the namespace)."""
    p = sub.add_parser("qos-aimd", help="QoS-AIMD tools: cross-layer parameter selection",
                       description="QoS-AIMD tools (docs/protocols/qos-aimd.md).")
    actions = p.add_subparsers(dest="qos_aimd_command", metavar="ACTION", parser_class=type(p))
    actions.required = True
    s = actions.add_parser("select", help="receiver window, BS buffer and alpha from the analytic model",
                           description="QoS-AIMD cross-layer parameter selection (paper §IV).")
    add_arguments(s)
    s.set_defaults(func=_cmd)


def main(argv: Sequence[str] | None = None) -> int:
    """``vidcc qos-aimd select`` with `argv` = the arguments after ``select``."""
    args = build_parser().parse_args(argv)
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
