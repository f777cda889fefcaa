#!/bin/bash
# tools/judge_tree.sh COMMIT EXTENSION DIR: a Python tree in DIR whose run code is COMMIT's (its
# non-analysis Python and EXTENSION, the _vidcc.abi3.so built from COMMIT) and whose analysis code
# (vidcc.runids.ANALYSIS_ONLY: papers/, report.py, validate/, video/) and committed records are
# this checkout's. `PYTHONPATH=DIR/python vidcc reproduce PAPER --db DB ...` from this checkout then
# re-judges the runs COMMIT's code made (in DB) with today's checks, making none again
# (docs/experiments.md, "Which code made each record"). Prints the tree's run code.
set -euo pipefail
[ $# -eq 3 ] || { echo "usage: $0 COMMIT EXTENSION DIR" >&2; exit 2; }
commit=$1; extension=$2; dir=$3
here=$(git rev-parse --show-toplevel)
[ -f "$extension" ] || { echo "$0: no extension at $extension" >&2; exit 2; }
rm -rf "$dir"; mkdir -p "$dir/docs/papers"
git -C "$here" archive "$commit" python | tar -x -C "$dir"
# The analysis-only paths, from this checkout's vidcc.runids (a directory ends with "/").
analysis=$(PYTHONPATH="$here/python" python3 -c "from vidcc.runids import ANALYSIS_ONLY; print(' '.join(ANALYSIS_ONLY))")
for a in $analysis; do
  a=${a%/}
  rm -rf "$dir/python/vidcc/$a"; cp -r "$here/python/vidcc/$a" "$dir/python/vidcc/$a"
done
cp -r "$here/docs/papers/results" "$dir/docs/papers/results"  # Scale categories cite committed records
cp "$extension" "$dir/python/vidcc/_vidcc.abi3.so"
PYTHONPATH="$dir/python" python3 -c "from vidcc import runids; print(runids.code_fingerprint()[:12])"
