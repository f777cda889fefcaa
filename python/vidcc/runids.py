"""Run identity: a run is the sha256 of the canonical JSON of its fully resolved scenario.

A leaf module: the sweep spec keys its points with it, the results database stores the canonical
JSON, and neither needs the other to know what a run is.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

__all__ = ["canonical_json", "run_id_of"]


def canonical_json(value: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces, no NaN. Its hash is a run's id."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=str)


def run_id_of(resolved: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a fully resolved scenario (``Scenario.resolve(seed)``,
    which holds the seed): equal ids mean the simulator receives the same input."""
    return hashlib.sha256(canonical_json(resolved).encode("utf-8")).hexdigest()
