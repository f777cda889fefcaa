"""`plm`: packet-pair receiver-driven cumulative layered multicast (Legout & Biersack, SIGMETRICS
2000, as ns-2 2.35 ships it; vidcc_core::proto::plm; docs/protocols/plm.md).

The sender sends every layer as constant-rate back-to-back pairs; receivers estimate their fair
share from the pairs' spacing and hold the layers below it. PLM needs fair-queueing routers
(`queue = { kind = "drr" }`) to measure its share. `resolve` gives every field of the Rust
`PlmConfig`; the defaults are Rust's (`_vidcc.protocol_defaults("plm")`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.protocols import ProtocolSpec, register
from vidcc.schema import BaseFlow, PositiveDuration, Probability, Rate, integer, invalid, show

_DEFAULTS = _vidcc.protocol_defaults("plm")
MAX_LAYERS = 255


def _rates(value: Any) -> Any:
    # A scenario file writes the layers as a TOML array; the strict schema validates tuples only.
    if isinstance(value, list):
        if not 1 <= len(value) <= MAX_LAYERS:
            raise invalid(f"must list 1 to {MAX_LAYERS} layer rates, got {len(value)}")
        return tuple(value)
    raise invalid(f'expected a list of layer rates (e.g. ["50kbps", "50kbps"]), got {show(value)}')


class PlmFlow(BaseFlow):
    protocol: Literal["plm"]
    # Each layer's own rate (not cumulative), base layer first.
    layer_rates: Annotated[tuple[Rate, ...], BeforeValidator(_rates)] = tuple(_DEFAULTS["layer_rates_bps"])
    check_period: PositiveDuration = _DEFAULTS["check_period_ns"]
    min_estimates: Annotated[int, BeforeValidator(integer(minimum=1, maximum=2**32 - 1))] = _DEFAULTS["min_estimates"]
    burst: Annotated[int, BeforeValidator(integer(minimum=2, maximum=64))] = _DEFAULTS["burst"]
    jitter: bool = _DEFAULTS["jitter"]
    loss_threshold: Probability = _DEFAULTS["loss_threshold"]
    drop_without_pairs: bool = _DEFAULTS["drop_without_pairs"]
    rejoin_after: PositiveDuration = _DEFAULTS["rejoin_after_ns"]


def _resolve(flow: PlmFlow) -> dict:
    return {
        "layer_rates_bps": list(flow.layer_rates),
        "check_period_ns": flow.check_period,
        "min_estimates": flow.min_estimates,
        "burst": flow.burst,
        "jitter": flow.jitter,
        "loss_threshold": flow.loss_threshold,
        "drop_without_pairs": flow.drop_without_pairs,
        "rejoin_after_ns": flow.rejoin_after,
    }


def _check(flow: PlmFlow, here: str, fail) -> None:
    for j, r in enumerate(flow.receivers or []):
        if r.groups:
            fail(f"{here}.receivers[{j}].groups", "a PLM receiver chooses its layers itself; drop groups")


register(ProtocolSpec("plm", PlmFlow, _resolve, check=_check, video="none"))
