"""vidcc: congestion-controlled real-time and layered video over UDP.

    >>> import vidcc
    >>> result = vidcc.run("scenarios/tcp-mix.toml", seed=3)
    >>> result.flow_summary          # pandas DataFrames, one per table
    >>> result.write("out/tcp-mix")     # summary.json, Parquet files, PNG figures

The names below are imported on first use (PEP 562), so that ``import vidcc`` (and the ``vidcc``
command's start-up, ``vidcc --help``) does not pay for the scenario schema, numpy or pandas.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from vidcc._vidcc import __version__

if TYPE_CHECKING:
    from vidcc.runner import Result, run
    from vidcc.scenario import Scenario, ScenarioError, load_scenario, parse_scenario

__all__ = [
    "__version__",
    "Result",
    "Scenario",
    "ScenarioError",
    "load_scenario",
    "parse_scenario",
    "run",
]

# Public name -> the module that defines it.
_LAZY = {
    "Result": "vidcc.runner",
    "run": "vidcc.runner",
    "Scenario": "vidcc.scenario",
    "ScenarioError": "vidcc.scenario",
    "load_scenario": "vidcc.scenario",
    "parse_scenario": "vidcc.scenario",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'vidcc' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
