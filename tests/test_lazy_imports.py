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


def modules_after(code: str) -> set[str]:
    """Every module in sys.modules after running `code` in a fresh interpreter."""
    probe = code + "\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([PYTHON_DIR, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def loaded_after(code: str) -> set[str]:
    """The heavy top-level packages in sys.modules after running `code` in a fresh interpreter."""
    return {m.split(".")[0] for m in modules_after(code)} & set(HEAVY)


def protocol_modules_after(code: str) -> set[str]:
    return {m for m in modules_after(code) if m.startswith("vidcc.protocols.")}


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


BAD_UNIT = """[scenario]
duration = "10s"
[topology]
kind = "dumbbell"
bottleneck = { bandwidth = "10Mbit", delay = "33ms" }
access = { bandwidth = "1Gbps", delay = "1ms" }
[[flows]]
protocol = "tcp-newreno"
"""


def test_a_scenario_error_imports_only_the_schema_and_the_protocols_it_names(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(BAD_UNIT)
    code = (f"import contextlib, io\nfrom vidcc.cli import main\n"
            f"with contextlib.redirect_stderr(io.StringIO()) as err:\n"
            f"    assert main(['run', {str(bad)!r}]) == 2\nassert 'unknown unit' in err.getvalue()")
    assert loaded_after(code) == {"pydantic"}
    assert protocol_modules_after(code) == {"vidcc.protocols.tcp"}


def test_loading_a_scenario_imports_the_modules_of_its_protocols_only():
    load = "from vidcc.scenario import parse_scenario\nparse_scenario({text!r})"
    two = BAD_UNIT.replace("10Mbit", "10Mbps") + '[[flows]]\nprotocol = "tfrc"\n'
    assert protocol_modules_after(load.format(text=two)) == {"vidcc.protocols.tcp", "vidcc.protocols.tfrc"}
    # An unknown protocol's error lists every protocol: every module is imported (the probe sees them).
    unknown = BAD_UNIT.replace("10Mbit", "10Mbps").replace("tcp-newreno", "tcp-cubic")
    code = f"from vidcc.scenario import ScenarioError, parse_scenario\ntry:\n    parse_scenario({unknown!r})\n" \
           "except ScenarioError as e:\n    assert 'unknown protocol' in str(e)\nelse:\n    raise SystemExit(1)"
    assert len(protocol_modules_after(code)) > 10


def test_figure_modules_are_imported_without_setter_docs_and_the_helper_restored():
    # What `vidcc run` draws with is imported without matplotlib's Artist set() property tables;
    # the library's function is put back afterwards. The library's own import keeps them.
    code = ("from vidcc.figure_worker import import_figure_modules\nimport_figure_modules()\n"
            "import matplotlib.artist as a, matplotlib.lines as l\n"
            "assert a.kwdoc.__name__ == 'kwdoc' and a.kwdoc.__module__ == 'matplotlib.artist'\n"
            "assert 'linestyle' not in l.Line2D.set.__doc__")
    assert {"matplotlib", "numpy"} <= loaded_after(code)
    assert "vidcc.plots" in modules_after(code)
    library = "import vidcc.plots\nimport matplotlib.lines as l\nassert 'linestyle' in l.Line2D.set.__doc__"
    assert "matplotlib" in loaded_after(library)


def test_figure_worker_imports_only_the_standard_library():
    # The command forks it before numpy: the parent must not pay for what the child imports.
    assert loaded_after("from vidcc.figure_worker import FigureWorker, available\navailable()") == set()
