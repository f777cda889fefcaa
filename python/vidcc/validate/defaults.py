"""The ns-2 defaults the paper suites declare, checked against ns-2 itself.

Where a paper is silent, its suite uses ns-2 2.35's default and says so in its set-up table
(``vidcc.papers.provenance.Ns2``: the variable, as ``Class name_``, and its value). A typed-in
default can be wrong; ``make validate`` asks ``ns`` for every declared variable (one Tcl script of
``puts [Class set name_]``) and compares: a number equal as a number, anything else as text.
"""

from __future__ import annotations

import subprocess
from dataclasses import asdict, dataclass
from pathlib import Path

from vidcc.validate import ns2

__all__ = ["DefaultCheck", "check", "same"]


@dataclass(frozen=True)
class DefaultCheck:
    suite: str
    variable: str
    declared: str
    ns2: str | None  # what ns printed (None: it printed nothing for this variable)

    @property
    def status(self) -> str:
        return "PASS" if self.ns2 is not None and same(self.declared, self.ns2) else "FAIL"

    def as_dict(self) -> dict:
        return asdict(self) | {"status": self.status}


def same(declared: str, printed: str) -> bool:
    try:
        return float(declared) == float(printed)
    except ValueError:
        return declared.strip() == printed.strip()


def check(out_dir: Path, timeout_s: float = 60.0) -> list[DefaultCheck]:
    """Every ns-2 default declared by the suites, with what ``ns`` prints for it; the script is
    written to ``out_dir/ns2-defaults.tcl`` (re-run by hand: ``ns out_dir/ns2-defaults.tcl``)."""
    from vidcc.papers import PAPERS, load_suite
    from vidcc.papers import ns2 as ns2_defaults
    from vidcc.papers.provenance import ns2_declared, ns2_script

    declared = ns2_declared([load_suite(p) for p in PAPERS]) + [("papers/ns2.py", s) for s in ns2_defaults.SOURCES]
    if not declared:
        return []
    script = out_dir / "ns2-defaults.tcl"
    script.write_text(ns2_script([d.variable for _, d in declared]), encoding="utf-8")
    proc = subprocess.run([ns2.ns_binary(), str(script)], capture_output=True, text=True, timeout=timeout_s,
                          check=False)
    if proc.returncode != 0:
        raise ns2.Ns2Error(f"{script}: ns exited {proc.returncode}: {proc.stderr.strip()[-500:]}")
    printed = dict(line.split("=", 1) for line in proc.stdout.splitlines() if "=" in line)
    return [DefaultCheck(suite, d.variable, d.value, printed.get(d.variable)) for suite, d in declared]
