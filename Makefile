# vidcc — everyone's entry points. `make demo` sets everything up and runs the demo;
# `make test` runs every Rust and Python test. Both start from a bare checkout.

VENV    := $(CURDIR)/.venv
PY      := $(VENV)/bin/python
MATURIN := $(VENV)/bin/maturin
export VIRTUAL_ENV := $(VENV)
export PATH := $(VENV)/bin:$(PATH)

.PHONY: setup develop demo test test-rust test-python validate bench fuzz lint lint-python clean

# The virtual environment with the build tool and the Python linter; reinstalled only when pyproject.toml changes.
$(VENV)/.setup-done: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "maturin>=1.7,<2" "ruff>=0.6"
	touch $@

setup: $(VENV)/.setup-done

# Release build of the extension, installed editable with the package's dependencies, and the
# real-network binary (vidcc send|recv|link run target/release/vidcc-net).
develop: setup
	$(MATURIN) develop --release --quiet --extras test
	cargo build --release --quiet -p vidcc-net

# The project's job in miniature (scenarios/video/demo.toml): one layered video, four rate controls,
# TCP beside them, PSNR and MOS of what each receiver could show; out/demo/report.html.
demo: develop
	$(VENV)/bin/vidcc demo --out out/demo

test-rust:
	cargo test --workspace --exclude vidcc-py --quiet

test-python: develop
	$(PY) -m pytest -q

test: test-rust test-python

# The differential suite against ns-2 2.35 (docs/validation.md). Installs ns-2 from the Debian
# package when `ns` is missing and we are root; otherwise says what to run and stops.
validate: develop
	@command -v ns >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "validate: installing ns-2 (apt-get install -y ns2)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ns2; \
	  else \
	    echo "validate: ns-2 (the 'ns' command) is missing; run 'sudo apt-get install -y ns2' and then 'make validate' again" >&2; \
	    exit 1; \
	  fi; }
	$(PY) -m vidcc.validate --jobs 2 --out out/validate

bench: develop
	$(PY) benches/simulator.py
	$(PY) benches/multicast.py
	$(PY) benches/sramt.py
	cargo run --release --quiet -p vidcc-core --example bench_tes
	$(PY) benches/video_quality.py
	$(PY) benches/sweep.py
	$(PY) benches/cli.py
	cargo run --release --quiet -p vidcc-net --example bench_net

# Coverage-guided fuzzing of the real-UDP runtime's datagram handling (sender, receiver, relay:
# crates/vidcc-net/src/fuzzing.rs) with cargo-fuzz on the nightly toolchain, FUZZ_SECONDS each
# (`cargo install cargo-fuzz` once); new inputs go to fuzz/work/ (not kept). Crashes land in crates/vidcc-net/fuzz/artifacts/; copy one
# into fuzz/regressions/<target>/ and `make test` (tests/fuzz_corpus.rs) replays it on stable.
FUZZ_SECONDS ?= 60
fuzz:
	cd crates/vidcc-net/fuzz && for t in sender receiver relay; do mkdir -p work/$$t && \
		cargo +nightly fuzz run $$t work/$$t corpus/$$t regressions/$$t -- \
		-max_total_time=$(FUZZ_SECONDS) -rss_limit_mb=2048 || exit 1; done

lint: lint-python
	cargo clippy --workspace --all-targets -- -D warnings
	cargo fmt --all --check

# Python: pyflakes, pycodestyle and import order (configured in pyproject.toml, [tool.ruff]).
lint-python: setup
	$(VENV)/bin/ruff check python tests benches tools

clean:
	rm -rf target $(VENV) out
