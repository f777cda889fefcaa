"""vidcc: congestion-controlled real-time and layered video over UDP.

    >>> import vidcc
    >>> result = vidcc.run("scenarios/demo.toml", seed=3)
    >>> result.flow_summary          # pandas DataFrames, one per table
    >>> result.write("out/demo")     # summary.json, Parquet files, PNG figures
"""

from vidcc._vidcc import __version__
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

