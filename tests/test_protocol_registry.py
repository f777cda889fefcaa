"""The protocol registry: every module of vidcc.protocols is found and registers its protocols,
and the scenario schema knows exactly the registered ones."""

import typing

import pytest

from scenario_testing import dumbbell, first_protocol, scenario_error
from vidcc import _vidcc, protocols
from vidcc.scenario import PROTOCOLS


def test_every_protocol_module_registers_something():
    modules = {spec.model.__module__ for spec in protocols.specs()}
    assert modules == set(protocols.modules())
    assert {"vidcc.protocols.tcp", "vidcc.protocols.udp", "vidcc.protocols.tfrc"} <= modules


def test_tcp_and_udp_kinds_are_registered_like_the_others():
    assert {"tcp-reno", "tcp-newreno", "tcp-westwood-plus", "udp-cbr", "udp-pareto", "udp"} <= set(protocols.names())
    assert protocols.get("tcp-reno").video == "none" and protocols.get("udp").video == "required"
    assert protocols.get("no-such-protocol") is None


def test_each_spec_model_accepts_its_name():
    for spec in protocols.specs():
        assert spec.name in typing.get_args(spec.model.model_fields["protocol"].annotation), spec.name


def test_the_schema_knows_exactly_the_registry():
    assert PROTOCOLS == protocols.names()
    assert len(set(PROTOCOLS)) == len(PROTOCOLS)


def test_unknown_protocol_lists_every_registered_one():
    e = scenario_error(dumbbell('protocol = "tcp-cubic"'))
    assert e.path == "flows[0].protocol"
    assert 'unknown protocol "tcp-cubic"' in e.message
    for name in protocols.names():
        assert name in e.message


def test_a_protocol_cannot_be_registered_twice():
    spec = protocols.get("tfrc")
    with pytest.raises(ValueError, match="registered twice"):
        protocols.register(spec)


# --------------------------------------------------------------------------------------------
# The Python schema against the Rust registry (vidcc-core `proto::registry`, through `_vidcc`).

# Values for the keys a protocol requires, so that a flow with nothing else set can be resolved.
REQUIRED_KEY_VALUES = {"rate": '"1Mbps"'}
LAYERED_VIDEO = 'video = { model = "tes-mpeg4", layers = ["128kbps", "256kbps", "512kbps"] }'


def minimal_flow(spec: protocols.ProtocolSpec) -> tuple[str, set[str]]:
    """The smallest flow table of `spec`'s protocol, and the model keys it had to set."""
    required = {n for n, f in spec.model.model_fields.items() if f.is_required()} - {"protocol", "video"}
    missing = required - set(REQUIRED_KEY_VALUES)
    assert not missing, f"{spec.name}: give REQUIRED_KEY_VALUES a value for {sorted(missing)}"
    lines = [f'protocol = "{spec.name}"'] + [f"{k} = {REQUIRED_KEY_VALUES[k]}" for k in sorted(required)]
    if spec.video == "required":
        lines.append(LAYERED_VIDEO)
    return "\n".join(lines), required


def test_python_and_rust_know_the_same_protocols():
    assert sorted(_vidcc.protocol_names()) == sorted(protocols.names())


@pytest.mark.parametrize("spec", protocols.specs(), ids=lambda s: s.name)
def test_schema_defaults_equal_the_rust_defaults(spec):
    """Resolving a flow that sets nothing optional gives exactly Rust's `Default` of the
    protocol's config: same fields, same values (keys the flow had to set are left out)."""
    text, required = minimal_flow(spec)
    resolved = first_protocol(dumbbell(text))
    rust = _vidcc.protocol_defaults(spec.name)
    assert set(resolved) == set(rust), f"{spec.name}: fields differ: {set(resolved) ^ set(rust)}"
    set_by_test = {k for k in resolved if any(k == r or k.startswith(f"{r}_") for r in required)}
    differing = {k: (resolved[k], rust[k]) for k in resolved if k not in set_by_test and resolved[k] != rust[k]}
    assert not differing, f"{spec.name}: (python, rust) defaults differ: {differing}"


def test_header_sizes_come_from_the_registry():
    from vidcc.protocols import gaimd, ssvp, tfrc

    assert (tfrc.HEADER_BYTES, gaimd.HEADER_BYTES, ssvp.HEADER_BYTES) == (20, 40, 24)
    with pytest.raises(ValueError, match="unknown protocol"):
        _vidcc.protocol_header_bytes("tcp-cubic")
    with pytest.raises(ValueError, match="expected one of"):
        _vidcc.protocol_defaults("tcp-cubic")


def test_the_extension_stub_lists_exactly_the_extension():
    """python/vidcc/_vidcc.pyi declares every public function of the extension, and only those."""
    import ast
    import inspect
    from pathlib import Path

    stub = ast.parse((Path(_vidcc.__file__).parent / "_vidcc.pyi").read_text())
    declared = {n.name for n in stub.body if isinstance(n, ast.FunctionDef)}
    actual = {name for name, obj in vars(_vidcc).items() if not name.startswith("_") and callable(obj)}
    assert declared == actual
    for node in stub.body:
        if isinstance(node, ast.FunctionDef):
            params = list(inspect.signature(getattr(_vidcc, node.name)).parameters)
            assert [a.arg for a in node.args.args] == params, node.name


def doc_page(name: str) -> str:
    """The protocol's page under docs/protocols/ (a family of kinds shares its family's page)."""
    from scenario_testing import ROOT

    family = {"tcp-tahoe": "tcp", "tcp-sack": "tcp", "tcp-reno": "tcp", "tcp-newreno": "tcp", "tcp-westwood-plus": "tcp", "udp-cbr": "udp",
              "udp-pareto": "udp", "ssvp-layered": "ssvp", "sramt-s": "sramt",
              "sramt-le": "sramt"}.get(name, name)
    page = ROOT / "docs" / "protocols" / f"{family}.md"
    assert page.is_file(), f"{name}: no page {page}"
    return page.read_text()


@pytest.mark.parametrize("spec", protocols.specs(), ids=lambda s: s.name)
def test_every_protocol_has_a_page_and_documented_keys(spec):
    """What adding a protocol needs besides its code: its page, and its keys in its own section
    of docs/scenarios.md."""
    from scenario_testing import SCENARIOS_DOC

    assert doc_page(spec.name).startswith("#")
    text = SCENARIOS_DOC.read_text()
    headings = [line for line in text.splitlines() if line.startswith("### ")]
    assert any(f"`{spec.name}`" in h for h in headings), f"docs/scenarios.md has no section for {spec.name}"
    # Keys may be documented in a family's section (ssvp-layered extends ssvp's keys).
    common = set(protocols.get("udp-cbr").model.model_fields) - {"rate"}  # keys of every flow
    for key in sorted(set(spec.model.model_fields) - common - {"protocol"}):
        assert f"`{key}`" in text, f"{spec.name}: key {key} undocumented"
