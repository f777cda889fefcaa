"""Fingerprints of everything the simulator outputs, to prove a refactor changed no result.

    python tools/output_hashes.py record OUT.json    # before a change
    python tools/output_hashes.py compare OUT.json   # after it: exits 1 on any difference

Covers every shipped scenario (``scenarios/**/*.toml``, default seed) and every run of every
paper suite at quick scale (``vidcc reproduce all --scale quick`` into a fresh database), plus
each suite's measured claim values. A table's fingerprint is a SHA-256 over its columns (name,
type and values, in order): the Parquet bytes themselves embed library versions, the values do
not. Columns that did not exist in the recorded fingerprint are reported as ``added`` and left
out of the comparison, so a change that only adds columns (the ``receiver`` column of the
one-to-many flows tables) is still checked value for value on everything that was there.

Paper runs are keyed by sweep name, point and seed, not by run id: a run id hashes the resolved
scenario, whose JSON may legitimately change shape in a refactor.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]
# Claims fields that change from run to run or from build to build.
VOLATILE = {"vidcc_version", "git_commit", "wall_seconds", "generated_at", "started_at", "finished_at", "code_version",
            "code_fingerprint",
            "out", "db", "report", "timing"}


def column_hash(name: str, values) -> str:
    h = hashlib.sha256(name.encode())
    arr = np.asarray(values)
    if arr.dtype.kind in "OUS":
        h.update(b"str")
        for v in arr.tolist():
            h.update(repr(v).encode())
            h.update(b"\0")
    else:
        h.update(arr.dtype.str.encode())
        h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()[:16]


def table_fingerprint(columns: dict) -> dict:
    return {name: column_hash(name, values) for name, values in columns.items()}


def scenario_fingerprints() -> dict:
    from vidcc import _vidcc
    from vidcc.scenario import load_scenario

    out = {}
    for path in sorted((ROOT / "scenarios").rglob("*.toml")):
        rel = str(path.relative_to(ROOT))
        if "sweeps" in path.parts:
            continue
        try:
            sc = load_scenario(path)
        except Exception as e:  # a scenario that needs a prepared file: record that it failed
            out[rel] = {"error": type(e).__name__}
            continue
        raw = _vidcc.simulate(json.dumps(sc.resolve()))
        out[rel] = {name: table_fingerprint(cols) for name, cols in sorted(raw["tables"].items())}
        out[rel]["stats"] = {k: int(v) for k, v in sorted(raw["stats"].items())}
    return out


def _strip(obj):
    if isinstance(obj, dict):
        return {k: _strip(v) for k, v in sorted(obj.items()) if k not in VOLATILE}
    if isinstance(obj, list):
        return [_strip(v) for v in obj]
    if isinstance(obj, float):
        return repr(obj)
    return obj


def paper_fingerprints() -> dict:
    import duckdb

    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "db" / "vidcc.duckdb"
        rep = Path(tmp) / "rep"
        subprocess.run([sys.executable, "-m", "vidcc.cli", "reproduce", "all", "--scale", "quick", "--quiet",
                        "--out", str(rep), "--db", str(db), "--jobs", "2"], check=False, cwd=ROOT)
        for claims in sorted(rep.rglob("claims.json")):
            out[f"claims:{claims.relative_to(rep)}"] = hashlib.sha256(
                json.dumps(_strip(json.loads(claims.read_text())), sort_keys=True).encode()).hexdigest()[:16]
        con = duckdb.connect(str(db), read_only=True)
        rows = con.execute(
            "SELECT s.sweep, s.point, s.axes_json, r.seed, r.run_id, r.status FROM sweep_runs s "
            "JOIN runs r USING (run_id) ORDER BY s.sweep, s.point, r.seed").fetchall()
        con.close()
        runs = db.parent / "runs"
        for sweep, point, axes, seed, run_id, status in rows:
            key = f"run:{sweep}#{point}:{axes}:seed{seed}"
            entry: dict = {"status": status}
            for f in sorted((runs / run_id).glob("*.parquet")):
                t = pq.read_table(f)
                entry[f.stem] = {c: column_hash(c, t.column(c).to_numpy(zero_copy_only=False))
                                 for c in t.column_names}
            out[key] = entry
    return out


def compare(old: dict, new: dict, where: str = "") -> list[str]:
    problems = []
    for k, v in old.items():
        here = f"{where}/{k}" if where else k
        if k not in new:
            problems.append(f"missing: {here}")
        elif isinstance(v, dict) and isinstance(new[k], dict):
            problems.extend(compare(v, new[k], here))
        elif v != new[k]:
            problems.append(f"changed: {here}")
    return problems


def added(old: dict, new: dict, where: tuple = ()) -> set[str]:
    """Keys in `new` that `old` lacks, as "parent/key" (e.g. "flows/receiver"), once each."""
    out = set()
    for k, v in new.items():
        if k not in old:
            out.add("/".join((where[-1:] + (k,))))
        elif isinstance(v, dict) and isinstance(old[k], dict):
            out |= added(old[k], v, where + (k,))
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] not in ("record", "compare"):
        print(__doc__)
        return 2
    fp = {"scenarios": scenario_fingerprints(), "papers": paper_fingerprints()}
    path = Path(argv[1])
    if argv[0] == "record":
        path.write_text(json.dumps(fp, indent=1, sort_keys=True))
        n = sum(len(v) for v in fp.values())
        print(f"recorded {n} fingerprints in {path}")
        return 0
    old = json.loads(path.read_text())
    problems = compare(old, fp)
    for a in sorted(added(old, fp)):
        print(f"added (not compared): {a}")
    for p in problems:
        print(p)
    n = sum(len(v) for v in old.values())
    print(f"{len(problems)} differences over {n} recorded scenarios and runs")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
