"""Scenario model of `dsg` (vidcc_core::proto::dsg; docs/protocols/dsg.md).

DSG, Destination Set Grouping (Cheung, Ammar & Li, INFOCOM 1996): replicated streams with rate
bands, receivers classifying themselves unloaded / loaded / congested by their loss each round,
intra-stream control by the sampled congested share, synchronised moves at band edges. Bulk data
only. Every default is the implementation's [R] choice (the SRAMT paper page gives DSG's rules, no
values; docs/papers/sramt.md §2.4), documented in docs/scenarios.md. The resolved form is the Rust
`DsgConfig`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import CoreFlow, PositiveDuration, Rate, integer, invalid, number, show

MAX_STREAMS = 5


def _band(value: Any) -> Any:
    # A TOML array [min, max] arrives as a list; the strict schema validates tuples as tuples.
    if isinstance(value, list):
        if len(value) != 2:
            raise invalid(f"must be [min, max] (two rates), got {show(value)}")
        return tuple(value)
    return value


def _share(value: Any) -> float:
    v = number()(value)
    if not (0.0 < v <= 1.0):
        raise invalid(f"must be in (0, 1], got {show(value)}")
    return v


_Share = Annotated[float, BeforeValidator(_share)]
_Band = Annotated[tuple[Rate, Rate], BeforeValidator(_band)]
_Count = Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))]


class DsgFlow(CoreFlow):
    protocol: Literal["dsg"]
    bands: list[_Band] = [(50_000, 200_000), (200_000, 600_000), (600_000, 1_000_000)]
    initial_rates: list[Rate] = [50_000, 200_000, 600_000]
    initial_group: Annotated[int, BeforeValidator(integer(minimum=0, maximum=MAX_STREAMS - 1))] = 0
    round: PositiveDuration = 2_000_000_000
    unloaded_below: _Share = 0.02
    congested_above: _Share = 0.05
    congested_share: Annotated[float, BeforeValidator(number(minimum=0.0))] = 0.1
    unloaded_share: _Share = 0.9
    decrease_factor: _Share = 0.5
    increase_share: _Share = 0.05
    persist_rounds: _Count = 3
    backoff: bool = True
    max_backoff_exponent: Annotated[int, BeforeValidator(integer(minimum=0, maximum=62))] = 16
    reports_per_round: _Count = 10


def _resolve(flow: DsgFlow) -> dict:
    return {
        "bands_bps": [[lo, hi] for lo, hi in flow.bands],
        "initial_rates_bps": list(flow.initial_rates),
        "initial_group": flow.initial_group,
        "round_ns": flow.round,
        "unloaded_below": flow.unloaded_below,
        "congested_above": flow.congested_above,
        "congested_share": flow.congested_share,
        "unloaded_share": flow.unloaded_share,
        "decrease_factor": flow.decrease_factor,
        "increase_share": flow.increase_share,
        "persist_rounds": flow.persist_rounds,
        "backoff": flow.backoff,
        "max_backoff_exponent": flow.max_backoff_exponent,
        "reports_per_round": flow.reports_per_round,
    }


def _check(flow: DsgFlow, here: str, fail) -> None:
    n = len(flow.bands)
    if not 1 <= n <= MAX_STREAMS:
        fail(f"{here}.bands", f"1 to {MAX_STREAMS} bands (the 64-byte header carries every stream's rate), got {n}")
    for j, (lo, hi) in enumerate(flow.bands):
        if lo > hi:
            fail(f"{here}.bands[{j}]", f"min {lo} bit/s above max {hi} bit/s")
        if hi > 2**32 - 1:
            fail(f"{here}.bands[{j}]", f"max must be below 4.29 Gbit/s (32-bit field), got {hi} bit/s")
    if len(flow.initial_rates) != n:
        fail(f"{here}.initial_rates", f"one rate per band ({n}), got {len(flow.initial_rates)}")
    if flow.initial_group >= n:
        fail(f"{here}.initial_group", f"a stream in 0..{n - 1}, got {flow.initial_group}")
    if flow.unloaded_below > flow.congested_above:
        fail(f"{here}.unloaded_below", "must not exceed congested_above")
    if flow.congested_share >= 1.0:
        fail(f"{here}.congested_share", f"must be below 1, got {flow.congested_share}")
    if flow.decrease_factor >= 1.0:
        fail(f"{here}.decrease_factor", f"must be below 1 (a decrease), got {flow.decrease_factor}")
    header = 36 + 4 * n  # the data header: 36 bytes and 4 per stream (the announced rates)
    if flow.packet_size <= header:
        fail(f"{here}.packet_size", f"must be more than the {header}B DSG header, got {flow.packet_size}B")


register(ProtocolSpec("dsg", DsgFlow, _resolve, _check, video="none"))
