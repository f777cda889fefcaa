"""`import vidcc` and the `vidcc` command's start-up stay light: the heavy libraries are imported
by the functions that need them, never at import time. Checked in a fresh interpreter (this
process has long imported everything). Speed itself is measured in benches/cli.py, not here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PYTHON_DIR = str(Path(__file__).resolve().parents[1] / "python")
HEAVY = ("pandas", "matplotlib", "duckdb", "dask", "pyarrow", "numpy", "pydantic", "rich")


def loaded_after(code: str) -> set[str]:
    """The heavy top-level packages in sys.modules after running `code` in a fresh interpreter."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted({m.split('.')[0] for m in sys.modules})))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    return set(json.loads(out.stdout.splitlines()[-1])) & set(HEAVY)


@pytest.mark.parametrize("code", [
    "import vidcc",
    "import vidcc.cli",
    "from vidcc.cli import build_parser; build_parser()",
    "from vidcc.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass",
])
def test_start_up_imports_no_heavy_library(code):
    assert loaded_after(code) == set()


def test_the_probe_sees_heavy_imports():
    # The check above could pass by never seeing anything: the same probe must see these.
    assert loaded_after("import vidcc\nvidcc.Result") >= {"numpy", "pydantic"}
    video_command = "from vidcc.cli import build_parser\nbuild_parser().parse_args(['video', 'clip', 'x.y4m'])"
    assert loaded_after(video_command) >= {"numpy"}


def test_lazy_names_are_the_real_ones():
    import vidcc
    from vidcc.runner import Result, run
    from vidcc.scenario import Scenario, ScenarioError, load_scenario, parse_scenario

    lazy = (vidcc.Result, vidcc.run, vidcc.Scenario, vidcc.ScenarioError, vidcc.load_scenario, vidcc.parse_scenario)
    assert lazy == (Result, run, Scenario, ScenarioError, load_scenario, parse_scenario)
    assert set(vidcc.__all__) <= set(dir(vidcc))
    with pytest.raises(AttributeError, match="no_such_name"):
        vidcc.no_such_name  # noqa: B018


def test_analysis_statistics_do_not_import_matplotlib():
    # The paper suites' verdicts use the statistics; only the figure functions need matplotlib.
    assert "matplotlib" not in loaded_after("import vidcc.analysis")
    draw = ("import pandas as pd\nfrom vidcc.analysis import close, line_plot\n"
            "close(line_plot(pd.DataFrame({'x': [1, 2], 'mean': [1.0, 2.0], 'ci_half': [0.1, 0.1]}), 'x', group=None))")
    assert "matplotlib" in loaded_after(draw)
