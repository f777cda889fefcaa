"""The `vidcc` command, run as users run it: a subprocess of the installed console script."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
VIDCC = Path(sys.executable).parent / "vidcc"


def vidcc(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([str(VIDCC), *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def test_version():
    import vidcc as v

    p = vidcc("--version")
    assert p.returncode == 0
    assert p.stdout.strip() == f"vidcc {v.__version__}"


def test_bad_scenario_exits_2_with_one_line(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text((ROOT / "scenarios" / "dumbbell-newreno.toml").read_text().replace('"10Mbps"', '"10Mbit"'))
    out = tmp_path / "out"
    p = vidcc("run", str(bad), "--out", str(out))
    assert p.returncode == 2, p
    assert p.stdout == ""
    lines = p.stderr.splitlines()
    assert len(lines) == 1, p.stderr
    assert lines[0].startswith(f"error: {bad}: topology.bottleneck.bandwidth: invalid rate \"10Mbit\""), p.stderr
    assert "Traceback" not in p.stderr
    assert not out.exists()


def test_toml_syntax_error_exits_2(tmp_path):
    bad = tmp_path / "syntax.toml"
    bad.write_text("[scenario\nduration = 1\n")
    p = vidcc("run", str(bad))
    assert p.returncode == 2
    assert len(p.stderr.splitlines()) == 1 and "line 1" in p.stderr and "Traceback" not in p.stderr, p.stderr


def test_missing_file_exits_2(tmp_path):
    p = vidcc("run", str(tmp_path / "nope.toml"))
    assert p.returncode == 2
    assert p.stderr.strip() == f"error: {tmp_path / 'nope.toml'}: no such file"


def test_bad_arguments_exit_2():
    p = vidcc("run", str(ROOT / "scenarios" / "tcp-mix.toml"), "--seed", "many")
    assert p.returncode == 2
    assert "error:" in p.stderr and "--seed" in p.stderr and "Traceback" not in p.stderr


def short_dumbbell(tmp_path: Path, duration: str = "4s", warmup: str = "1s") -> Path:
    text = (ROOT / "scenarios" / "dumbbell-newreno.toml").read_text()
    assert 'duration = "60s"' in text and 'warmup = "2s"' in text
    path = tmp_path / "short.toml"
    path.write_text(text.replace('duration = "60s"', f'duration = "{duration}"').replace('warmup = "2s"', f'warmup = "{warmup}"'))
    return path


def test_run_writes_summary_tables_and_figures(tmp_path):
    scenario = short_dumbbell(tmp_path)
    out = tmp_path / "results"
    p = vidcc("run", str(scenario), "--seed", "7", "--out", str(out))
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""  # not a TTY: no progress bar
    assert str(out) in p.stdout and "Jain" in p.stdout and "tcp-newreno" in p.stdout

    summary = json.loads((out / "summary.json").read_text())
    assert summary["seed"] == 7 and summary["resolved"]["seed"] == 7
    assert summary["scenario"]["scenario"]["duration"] == "4s"
    assert summary["resolved"]["duration_ns"] == 4_000_000_000
    assert len(summary["flows"]) == 10
    assert summary["aggregate"][0]["label"] == "all"
    assert summary["stats"]["events"] > 0

    for table in ("flows", "flow_summary", "aggregate", "flow_samples", "queue_samples", "links"):
        df = pd.read_parquet(out / f"{table}.parquet")
        assert len(df) > 0, table
    assert not (out / "packets.parquet").exists()  # packet_log is off
    assert len(pd.read_parquet(out / "flows.parquet")) == 10
    for fig in ("throughput.png", "queue.png"):
        data = (out / fig).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, fig
    assert not list(out.glob(".*.tmp")), "temporary files left behind"


def test_default_out_dir_and_no_figures_and_quiet(tmp_path):
    scenario = short_dumbbell(tmp_path, duration="2s", warmup="0s")
    p = vidcc("run", str(scenario), "--no-figures", "--quiet", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == "" and p.stderr == ""
    out = tmp_path / "out" / "short"
    assert (out / "summary.json").exists() and (out / "flow_summary.parquet").exists()
    assert not list(out.glob("*.png"))


def test_ctrl_c_stops_the_run_with_one_line_and_writes_nothing(tmp_path):
    import signal
    import time

    text = (ROOT / "scenarios" / "tcp-mix.toml").read_text()
    assert 'duration = "30s"' in text
    long = tmp_path / "long.toml"
    long.write_text(text.replace('duration = "30s"', 'duration = "1000min"'))  # minutes of wall time
    out = tmp_path / "out"
    # A terminal's Ctrl-C reaches a process whose SIGINT has its default disposition; a test run
    # started in the background by a non-interactive shell inherits SIGINT ignored, and Python then
    # installs no handler (the command would rightly ignore the signal), so restore the default.
    p = subprocess.Popen([str(VIDCC), "run", str(long), "--out", str(out)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        time.sleep(2.5)  # past start-up, inside the simulation
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        p.kill()
    assert p.returncode == 130, stderr
    assert stderr == "error: interrupted\n"
    assert stdout == ""
    assert not out.exists()
