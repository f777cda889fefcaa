"""The protocol registry: every module of vidcc.protocols is found and registers its protocols,
and the scenario schema knows exactly the registered ones."""

import typing

import pytest

from scenario_testing import dumbbell, scenario_error
from vidcc import protocols
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
