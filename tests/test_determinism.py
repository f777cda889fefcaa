"""Same scenario and seed, run in two separate processes: byte-identical summary and tables."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VIDCC = Path(sys.executable).parent / "vidcc"


def run(out: Path, seed: int) -> None:
    subprocess.run(
        [str(VIDCC), "run", str(ROOT / "scenarios" / "tcp-mix.toml"), "--seed", str(seed), "--out", str(out), "--no-figures", "--quiet"],
        check=True,
        capture_output=True,
    )


def test_two_processes_write_identical_bytes(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    run(a, 5)
    run(b, 5)
    run(c, 6)
    files = sorted(p.name for p in a.iterdir() if p.name != "timing.json")
    assert "summary.json" in files and "flow_samples.parquet" in files
    assert files == sorted(p.name for p in b.iterdir() if p.name != "timing.json")
    for name in files:
        assert (a / name).read_bytes() == (b / name).read_bytes(), f"{name} differs between two runs"
    # And the comparison can fail: another seed changes the results.
    assert (a / "flow_samples.parquet").read_bytes() != (c / "flow_samples.parquet").read_bytes()
