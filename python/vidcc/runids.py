"""Run identity: what a run is (its fully resolved scenario) and what made it (the code).

* ``scenario_id`` is the sha256 of the canonical JSON of the fully resolved scenario (which
  holds the seed): equal ids mean the simulator receives the same input.
* :func:`code_fingerprint` is the sha256 of the code that makes a run: the bytes of the
  compiled extension (``vidcc._vidcc``) and of every ``*.py`` file of the ``vidcc`` package
  (by path relative to the package: the scenario schema, the resolver, the runner, the
  protocols' settings all shape a result) except :data:`ANALYSIS_ONLY`, the code that only reads
  finished runs: the paper suites (their scenarios reach a run only as the resolved scenario,
  which ``scenario_id`` already hashes), the report, the ns-2 validation and the video tool chain
  (``vidcc video``: it prepares the trace files a scenario names, which are not hashed, and scores
  finished runs). That exclusion is
  checked, not guessed: tests/test_stale_runs.py makes a run in a fresh process and fails if any
  of those modules was imported. So a suite's checks can be corrected without running its
  full-scale sweeps again. :func:`analysis_fingerprint` hashes the excluded files; a claims
  record carries both. Not the git commit: that says nothing about uncommitted edits or an
  installed wheel. Computed once per process.
* ``run_id`` = sha256 of ``"<scenario_id>:<code fingerprint>"``: the same scenario run by other
  code is another run. The results database keeps both (:mod:`vidcc.results`).

A leaf module: the sweep spec keys its points with it, the results database stores the canonical
JSON, and neither needs the other to know what a run is.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

__all__ = ["canonical_json", "scenario_id_of", "run_id_of", "code_fingerprint", "fingerprint_files", "code_summary",
           "ANALYSIS_ONLY", "analysis_fingerprint", "analysis_files"]

# Parts of the package (relative paths; a trailing "/" names a folder) that read finished runs
# and never make one: excluded from the code fingerprint (see the module docstring).
ANALYSIS_ONLY = ("papers/", "report.py", "validate/", "video/")


def canonical_json(value: Any) -> str:
    """The one JSON text of a value: sorted keys, no spaces, no NaN. Its hash is a scenario's id."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False, default=str)


def scenario_id_of(resolved: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON of a fully resolved scenario (``Scenario.resolve(seed)``,
    which holds the seed). Before runs were keyed by code (results schema 1) this was the run id."""
    return hashlib.sha256(canonical_json(resolved).encode("utf-8")).hexdigest()


def run_id_of(resolved: Mapping[str, Any], fingerprint: str | None = None) -> str:
    """The id of a run of ``resolved`` by the code ``fingerprint`` (default: this process's
    :func:`code_fingerprint`): equal ids mean the same input to the same code."""
    code = code_fingerprint() if fingerprint is None else fingerprint
    return hashlib.sha256(f"{scenario_id_of(resolved)}:{code}".encode("ascii")).hexdigest()


def _is_analysis_only(relative: str) -> bool:
    return any(relative.startswith(p) if p.endswith("/") else relative == p for p in ANALYSIS_ONLY)


def _package_sources() -> list[tuple[str, Path]]:
    package = Path(__file__).resolve().parent
    sources = ((p.relative_to(package).as_posix(), p) for p in package.rglob("*.py"))
    return sorted(sources)


def fingerprint_files() -> list[Path]:
    """The files :func:`code_fingerprint` hashes: the compiled extension, then every ``*.py``
    under the ``vidcc`` package directory outside :data:`ANALYSIS_ONLY`, sorted by relative path."""
    from vidcc import _vidcc

    sources = [p for rel, p in _package_sources() if not _is_analysis_only(rel)]
    return [Path(_vidcc.__file__).resolve(), *sources]


def analysis_files() -> list[Path]:
    """The files :func:`analysis_fingerprint` hashes: the package's :data:`ANALYSIS_ONLY` sources."""
    return [p for rel, p in _package_sources() if _is_analysis_only(rel)]


def _hash_files(paths: Iterable[Path]) -> str:
    package = Path(__file__).resolve().parent
    h = hashlib.sha256()
    for path in paths:
        data = path.read_bytes()
        try:
            name = path.relative_to(package).as_posix()
        except ValueError:  # the extension may live outside the package directory
            name = path.name
        h.update(f"{name}\0{len(data)}\0".encode("utf-8"))
        h.update(data)
    return h.hexdigest()


@functools.lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """sha256 over (relative name, length, bytes) of each of :func:`fingerprint_files`: what
    makes a run, uncommitted edits and installed wheels included. Cached per process."""
    return _hash_files(fingerprint_files())


@functools.lru_cache(maxsize=1)
def analysis_fingerprint() -> str:
    """sha256, as :func:`code_fingerprint`, over :func:`analysis_files`: the code that judged the
    runs (the suites' checks, the report). Cached per process."""
    return _hash_files(analysis_files())


def code_summary(codes: Iterable[str | None]) -> str:
    """How many runs each code made, by short fingerprint: "3 by code 1a2b3c4d5e6f, 1 by
    unknown code" (None: a run recorded before fingerprints existed)."""
    counts = Counter(c[:12] if c else "" for c in codes)
    return ", ".join(f"{n} by {'code ' + c if c else 'unknown code'}" for c, n in sorted(counts.items()))
