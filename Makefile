# vidcc — everyone's entry points. `make demo` sets everything up and runs the demo;
# `make test` runs every Rust and Python test. Both start from a bare checkout.

VENV    := $(CURDIR)/.venv
PY      := $(VENV)/bin/python
MATURIN := $(VENV)/bin/maturin
export VIRTUAL_ENV := $(VENV)
export PATH := $(VENV)/bin:$(PATH)

.PHONY: setup develop demo test test-rust test-python bench lint lint-python clean

# The virtual environment with the build tool and the Python linter; reinstalled only when pyproject.toml changes.
$(VENV)/.setup-done: pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet "maturin>=1.7,<2" "ruff>=0.6"
	touch $@

setup: $(VENV)/.setup-done

# Release build of the extension, installed editable with the package's dependencies.
develop: setup
	$(MATURIN) develop --release --quiet --extras test

# The project's job in miniature (scenarios/video/demo.toml): one layered video, four rate controls,
# TCP beside them, PSNR and MOS of what each receiver could show; out/demo/report.html.
demo: develop
	$(VENV)/bin/vidcc demo --out out/demo

test-rust:
	cargo test --workspace --exclude vidcc-py --quiet

test-python: develop
	$(PY) -m pytest -q

test: test-rust test-python

bench: develop
	$(PY) benches/simulator.py
	$(PY) benches/multicast.py
	cargo run --release --quiet -p vidcc-core --example bench_tes
	$(PY) benches/video_quality.py
	$(PY) benches/sweep.py
	$(PY) benches/cli.py

lint: lint-python
	cargo clippy --workspace --all-targets -- -D warnings
	cargo fmt --all --check

# Python: pyflakes, pycodestyle and import order (configured in pyproject.toml, [tool.ruff]).
lint-python: setup
	$(VENV)/bin/ruff check python tests benches tools

clean:
	rm -rf target $(VENV) out
