"""Field types and validators of the scenario schema, for the core models and the protocol modules.

The user writes units as strings (``"10Mbps"``, ``"35ms"``, ``"1000B"``); the models hold base
units as integers (bit/s, ns, bytes). Every unit goes through the Rust parsers in
``vidcc._vidcc``, so Python and the simulator read a unit the same way. Numbers and integers with
bounds are ``Annotated[float, BeforeValidator(number(minimum=...))]`` and
``Annotated[int, BeforeValidator(integer(minimum=..., maximum=...))]``. Every validator raises
:func:`vidcc.schema.errors.invalid` with a one-line message.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Callable

from pydantic import BeforeValidator

from vidcc import _vidcc
from vidcc.schema.errors import invalid, show

__all__ = [
    "U32_MAX",
    "U64_MAX",
    "unit",
    "number",
    "integer",
    "Rate",
    "Duration",
    "PositiveDuration",
    "Size",
    "PacketSize",
    "RateSpread",
    "DurationSpread",
    "Probability",
    "QueueLimit",
    "Name",
]

U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1


def unit(
    parse: Callable[[str], int], what: str, example: str, *, positive: bool = False, maximum: int = U64_MAX
) -> Callable[[Any], int]:
    """A validator of a unit string (``what`` names it in errors, ``example`` shows one), read
    by ``parse`` into base units; ``positive`` rejects zero and negatives."""

    def validate(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, str):
            raise invalid(f'expected a {what} as a string with a unit (e.g. "{example}"), got {show(value)}')
        if positive and value.strip().startswith("-"):
            raise invalid(f'must be positive, got "{value}"')
        try:
            n = parse(value)
        except ValueError as e:
            raise invalid(str(e)) from None
        if positive and n <= 0:
            raise invalid(f'must be positive, got "{value}"')
        if n > maximum:
            raise invalid(f'"{value}" is too large')
        return n

    return validate


Rate = Annotated[int, BeforeValidator(unit(_vidcc.parse_rate, "rate", "10Mbps", positive=True))]
Duration = Annotated[int, BeforeValidator(unit(_vidcc.parse_duration, "duration", "35ms"))]
PositiveDuration = Annotated[int, BeforeValidator(unit(_vidcc.parse_duration, "duration", "35ms", positive=True))]
Size = Annotated[int, BeforeValidator(unit(_vidcc.parse_size, "size", "1000B", positive=True))]
PacketSize = Annotated[
    int,
    BeforeValidator(unit(_vidcc.parse_size, "size", "1000B", positive=True, maximum=U32_MAX)),
]


def spread(
    parse: Callable[[str], int], what: str, example: str, example_range: str, positive: bool
) -> Callable[[Any], Any]:
    """A validator of one unit string or a ``[min, max]`` pair of them."""

    one = unit(parse, what, example, positive=positive)

    def validate(value: Any) -> int | dict[str, int]:
        if isinstance(value, list):
            if len(value) != 2:
                raise invalid(
                    f"expected one {what} or a list of two [min, max] (e.g. {example_range}),"
                    f" got a list of {len(value)}"
                )
            lo, hi = one(value[0]), one(value[1])
            if lo > hi:
                raise invalid(f'[min, max]: min "{value[0]}" is larger than max "{value[1]}"')
            return {"min": lo, "max": hi}
        return one(value)

    return validate


# A fixed value (int) or {"min": .., "max": ..}: drawn uniformly per flow instance by the simulator.
RateSpread = Annotated[Any, BeforeValidator(spread(_vidcc.parse_rate, "rate", "10Mbps", '["10Mbps", "100Mbps"]', True))]
DurationSpread = Annotated[
    Any, BeforeValidator(spread(_vidcc.parse_duration, "duration", "5ms", '["5ms", "15ms"]', False))
]


def probability(value: Any) -> float:
    """A number in [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise invalid(f"expected a probability (a number in [0, 1]), got {show(value)}")
    if not (0.0 <= value <= 1.0):
        raise invalid(f"must be a probability in [0, 1], got {value}")
    return float(value)


Probability = Annotated[float, BeforeValidator(probability)]


def number(
    *, positive: bool = False, minimum: float | None = None, above: float | None = None
) -> Callable[[Any], float]:
    """A validator of a finite number: ``positive`` (> 0), at least ``minimum``, greater than
    ``above``."""

    def validate(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise invalid(f"expected a number, got {show(value)}")
        if not math.isfinite(value):
            raise invalid(f"expected a finite number, got {value}")
        if positive and value <= 0:
            raise invalid(f"must be positive, got {value}")
        if minimum is not None and value < minimum:
            raise invalid(f"must be at least {minimum}, got {value}")
        if above is not None and value <= above:
            raise invalid(f"must be greater than {above}, got {value}")
        return float(value)

    return validate


def integer(*, minimum: int = 0, maximum: int = U64_MAX) -> Callable[[Any], int]:
    """A validator of an integer in [``minimum``, ``maximum``] (booleans are not integers)."""

    def validate(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise invalid(f"expected an integer, got {show(value)}")
        if value < minimum:
            raise invalid(f"must be at least {minimum}, got {value}")
        if value > maximum:
            raise invalid(f"must be at most {maximum}, got {value}")
        return value

    return validate


def queue_limit(value: Any) -> Any:
    """Integer → packets, size string → bytes, "bdp" → bandwidth-delay product."""
    if isinstance(value, bool):
        raise invalid(f'expected a number of packets, a size (e.g. "64KB") or "bdp", got {show(value)}')
    if isinstance(value, int):
        if value < 1:
            raise invalid(f"must be at least 1 packet, got {value}")
        return {"packets": value}
    if value == "bdp":
        return "bdp"
    if isinstance(value, str):
        try:
            n = _vidcc.parse_size(value)
        except ValueError as e:
            raise invalid(f'{e}; or write a number of packets or "bdp"') from None
        if n <= 0:
            raise invalid(f'must be positive, got "{value}"')
        return {"bytes": n}
    raise invalid(f'expected a number of packets, a size (e.g. "64KB") or "bdp", got {show(value)}')


QueueLimit = Annotated[Any, BeforeValidator(queue_limit)]


def non_empty_string(value: Any) -> str:
    """A string with something in it besides spaces."""
    if not isinstance(value, str):
        raise invalid(f"expected a string, got {show(value)}")
    if not value.strip():
        raise invalid("must not be empty")
    return value


Name = Annotated[str, BeforeValidator(non_empty_string)]
