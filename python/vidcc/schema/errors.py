"""The one-line errors of the scenario schema.

A scenario problem is a :class:`ScenarioError` naming the file, the key path and what was
expected. Field validators (``vidcc.schema.fields`` and the protocol modules) raise
:func:`invalid` errors, which the loader turns into a ``ScenarioError`` at the field's path.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic_core import PydanticCustomError

__all__ = ["ScenarioError", "format_path", "show", "invalid", "INVALID"]

# The pydantic error type of `invalid`: the loader passes its message through unchanged.
INVALID = "vidcc"


class ScenarioError(ValueError):
    """A scenario that cannot be used: one line naming the file, the key path and the problem.

    ``file`` is the source (a path, or ``"<string>"``), ``path`` the key path in the user-level
    document (``"topology.bottleneck.bandwidth"``, ``"flows[1].rate"``; empty for problems with
    the whole file), ``message`` what was expected.
    """

    def __init__(self, file: str, path: str, message: str):
        self.file = str(file)
        self.path = path
        self.message = " ".join(str(message).split())  # always a single line
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [self.file]
        if self.path:
            parts.append(self.path)
        parts.append(self.message)
        return ": ".join(parts)


def format_path(loc: tuple | list) -> str:
    """``("flows", 1, "rate")`` → ``"flows[1].rate"``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def show(value: Any) -> str:
    """A value as it would be written in TOML (strings in double quotes)."""
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)


def invalid(message: str) -> PydanticCustomError:
    """The error a field validator raises: ``message`` becomes the ScenarioError's message."""
    # The template is a placeholder so that braces in `message` are never interpreted.
    return PydanticCustomError(INVALID, "{message}", {"message": message})
