"""Loading a scenario: TOML text, a user-level dict or a file into a validated :class:`Scenario`.

Validation happens in two passes: the pydantic models (``vidcc.schema.document``) check the
shape, the types and the units, then ``vidcc.schema.checks`` checks what depends on several keys.
Every problem becomes one :class:`ScenarioError` line naming the file and the key path.
"""

from __future__ import annotations

import copy
from os import PathLike
from pathlib import Path
from typing import Any, Mapping

from pydantic import ValidationError

from vidcc.schema.checks import check
from vidcc.schema.document import document_for, validation_error
from vidcc.schema.errors import ScenarioError
from vidcc.schema.fields import U64_MAX
from vidcc.schema.resolve import resolve

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10 (pyproject allows it): the same parser, as a package
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["Scenario", "parse_scenario", "load_scenario"]


class Scenario:
    """A validated scenario. ``to_dict()`` is the user-level document (the source of truth),
    ``resolve()`` the simulator's config."""

    def __init__(self, data: Mapping[str, Any], source: str = "<string>"):
        self.source = str(source)
        self._data = copy.deepcopy(dict(data))
        try:
            self._doc = document_for(self._data).model_validate(self._data)
        except ValidationError as e:
            raise validation_error(self.source, e) from None
        check(self._doc, self.source)

    def __reduce__(self):
        # Rebuilt from the user-level document: the validated model may be an instance of a
        # document narrowed to the scenario's protocols (`document_for`), a class pickle cannot
        # name, and validation is what makes a Scenario anyway.
        return (Scenario, (self._data, self.source))

    def __repr__(self) -> str:
        return f"Scenario(source={self.source!r}, topology={self._doc.topology.kind!r}, flows={len(self._doc.flows)})"

    def to_dict(self) -> dict[str, Any]:
        """The user-level document, as written (units as strings, defaults not filled in)."""
        return copy.deepcopy(self._data)

    @property
    def seed(self) -> int:
        return self._doc.scenario.seed

    @property
    def duration_ns(self) -> int:
        return self._doc.scenario.duration

    def resolve(self, seed: int | None = None) -> dict[str, Any]:
        """The resolved config (the JSON contract of ``vidcc_sim::config::SimConfig``).
        ``seed`` overrides ``scenario.seed``."""
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= U64_MAX:
                raise ScenarioError(self.source, "scenario.seed", f"seed must be an integer in [0, 2^64), got {seed!r}")
        return resolve(self._doc, self.source, seed)


def parse_scenario(text_or_dict: str | Mapping[str, Any], source: str = "<string>") -> Scenario:
    """Validate TOML text or an already-parsed user-level dict."""
    if isinstance(text_or_dict, Mapping):
        return Scenario(text_or_dict, source)
    if not isinstance(text_or_dict, str):
        raise TypeError(f"expected TOML text or a dict, got {type(text_or_dict).__name__}")
    try:
        data = tomllib.loads(text_or_dict)
    except tomllib.TOMLDecodeError as e:
        raise ScenarioError(source, "", f"invalid TOML: {e}") from None
    return Scenario(data, source)


def load_scenario(path: str | PathLike[str]) -> Scenario:
    """Read and validate a scenario file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(str(path), "", "no such file") from None
    except IsADirectoryError:
        raise ScenarioError(str(path), "", "is a directory, expected a scenario file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ScenarioError(str(path), "", f"cannot read: {e}") from None
    return parse_scenario(text, source=str(path))
