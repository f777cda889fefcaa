"""A scenario is validated by a document model whose flow union holds only the protocols it names
(vidcc.schema.document.document_for: less schema to build, issue 14). These tests hold it to
giving exactly the errors of the whole document, for every protocol and several kinds of mistake."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from vidcc import protocols
from vidcc.schema import document

DUMBBELL = {
    "scenario": {"duration": "10s"},
    "topology": {"kind": "dumbbell", "bottleneck": {"bandwidth": "10Mbps", "delay": "20ms"},
                 "access": {"bandwidth": "100Mbps", "delay": "1ms"}},
}

# Flow tables with mistakes of several kinds (each merged over `{"protocol": name}`).
MISTAKES = [
    {"no_such_key": 1},
    {"packet_size": 5},
    {"packet_size": "1000 apples", "start": [1]},
    {"count": "two", "label": 3},
    {"video": {"no_such_key": 1}},
    {"video": "yes"},
    {},
]


def errors(model, data) -> list[tuple]:
    try:
        model.model_validate(data)
    except ValidationError as err:
        raw = err.errors(include_url=False)
        return [(e["type"], e["loc"], document.translate(e)) for e in raw]
    return []


@pytest.mark.parametrize("name", protocols.names())
def test_a_narrow_document_gives_the_whole_documents_errors(name):
    spec = protocols.get(name)
    narrow = document._document((spec.model,))
    assert narrow is not document.Document
    assert len(document._models_in(narrow.model_fields["flows"].annotation)) == 1
    for mistake in MISTAKES:
        data = {**DUMBBELL, "flows": [{"protocol": name, **mistake}]}
        assert errors(narrow, data) == errors(document.Document, data), (name, mistake)
    # A topology mistake with the flow right or wrong, and two flows of different protocols.
    data = {**DUMBBELL, "topology": {"kind": "dumbbell", "bottleneck": {"bandwidth": "1Mbit"}},
            "flows": [{"protocol": name}, {"protocol": "tcp-reno", "max_window": "x"}]}
    both = document._document((spec.model, protocols.get("tcp-reno").model))
    assert errors(both, data) == errors(document.Document, data)
    assert errors(both, data), "the mistakes above must be errors"


def test_document_for_narrows_only_when_every_flow_names_a_known_protocol(monkeypatch):
    # As before the whole document is built (document_for then always uses it).
    monkeypatch.delitem(vars(document), "Document", raising=False)
    tcp = document.document_for({**DUMBBELL, "flows": [{"protocol": "tcp-newreno"}, {"protocol": "tcp-reno"}]})
    assert document._models_in(tcp.model_fields["flows"].annotation) == [protocols.get("tcp-reno").model]
    for flows in ([{"protocol": "tcp-cubic"}], [{"protocol": 3}], [{}], ["tcp-reno"], "x"):
        whole = document.document_for({**DUMBBELL, "flows": flows})
        assert len(document._models_in(whole.model_fields["flows"].annotation)) == len(document._all_models())
    assert document.document_for({**DUMBBELL, "flows": [{"protocol": "tfrc"}]}) is document.Document


def test_find_imports_the_module_named_like_the_protocol_or_every_module():
    assert protocols.find("tcp-westwood-plus") is protocols.get("tcp-westwood-plus")
    assert protocols.find("ssvp-layered").model.__module__ == "vidcc.protocols.ssvp"
    assert protocols.find("no-such-protocol") is None
    assert protocols._candidates("tcp-westwood-plus") == [
        "vidcc.protocols.tcp_westwood_plus", "vidcc.protocols.tcp_westwood", "vidcc.protocols.tcp"]


def test_a_scenario_pickles_whichever_document_validated_it():
    # In a fresh interpreter the whole Document is never built, so the scenario was validated by
    # a narrowed document class that pickle cannot name (sweeps and Dask send scenarios to workers).
    import subprocess
    import sys

    probe = (
        "import pickle\n"
        "from vidcc.scenario import parse_scenario\n"
        "s = parse_scenario({'scenario': {'duration': '10s'}, 'topology': {'kind': 'dumbbell', "
        "'bottleneck': {'bandwidth': '10Mbps', 'delay': '20ms'}, 'access': {'bandwidth': '100Mbps', 'delay': '1ms'}}, "
        "'flows': [{'protocol': 'tcp-reno'}]}, 'probe.toml')\n"
        "t = pickle.loads(pickle.dumps(s))\n"
        "assert t.to_dict() == s.to_dict() and t.source == 'probe.toml' and t.resolve() == s.resolve()\n"
        "print('ok')\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
