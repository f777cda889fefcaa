"""What the scenario tests share: a dumbbell scenario around the flows under test, the one-line
error a bad scenario must raise, the resolved protocol of the first flow, and the check that
every key of a protocol's model is in docs/scenarios.md."""

from __future__ import annotations

from pathlib import Path

import pytest

from vidcc import ScenarioError, parse_scenario

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS_DOC = ROOT / "docs" / "scenarios.md"

DROPTAIL_BDP = '{ kind = "droptail", limit = "bdp" }'


def droptail(limit: int | str) -> str:
    """An inline DropTail queue table (``limit`` as TOML: ``10`` or ``'"bdp"'``)."""
    return f'{{ kind = "droptail", limit = {limit} }}'


def dumbbell(
    flows: str,
    *,
    duration: str = "10s",
    warmup: str | None = "2s",
    scenario: str = "",
    bandwidth: str = "10Mbps",
    delay: str = "20ms",
    queue: str | None = None,
    access_bandwidth: str = "100Mbps",
    access_delay: str = "1ms",
) -> str:
    """A dumbbell scenario whose first ``[[flows]]`` table is ``flows`` (more tables may follow
    in it). ``warmup`` None leaves the key out; ``scenario`` holds more ``[scenario]`` lines;
    ``queue`` is the bottleneck's inline queue table (default: the schema's)."""
    queue_key = f", queue = {queue}" if queue is not None else ""
    warmup_line = f'warmup = "{warmup}"\n' if warmup is not None else ""
    return f"""
[scenario]
duration = "{duration}"
{warmup_line}{scenario}
[topology]
kind = "dumbbell"
bottleneck = {{ bandwidth = "{bandwidth}", delay = "{delay}"{queue_key} }}
access = {{ bandwidth = "{access_bandwidth}", delay = "{access_delay}" }}

[[flows]]
{flows}
"""


def scenario_error(text: str, source: str = "<string>") -> ScenarioError:
    """The ScenarioError ``text`` must raise; it must be one line."""
    with pytest.raises(ScenarioError) as e:
        parse_scenario(text, source=source)
    assert "\n" not in str(e.value)
    return e.value


def assert_error_at(text: str, path: str, gist: str) -> None:
    """``text`` raises a one-line error at key ``path`` whose message contains ``gist``."""
    e = scenario_error(text)
    assert e.path == path, str(e)
    assert gist in e.message, str(e)


def first_protocol(text: str) -> dict:
    """The resolved ``protocol`` table of the scenario's first flow."""
    return parse_scenario(text).resolve()["flows"][0]["protocol"]


def assert_keys_documented(heading: str, *models: type) -> None:
    """docs/scenarios.md has the section ``heading`` and names every key of ``models``."""
    text = SCENARIOS_DOC.read_text()
    assert heading in text
    for model in models:
        for key in model.model_fields:
            assert f"`{key}`" in text, key


def sweep_base(
    flows: str,
    *,
    duration: str = "3s",
    warmup: str = "1s",
    bandwidth: str = "10Mbps",
    delay: str = "20ms",
    access_bandwidth: str = "100Mbps",
) -> str:
    """The ``[base]`` tables of a sweep file: a dumbbell whose first ``[[base.flows]]`` table is
    ``flows`` (more ``[[base.flows]]`` tables may follow in it)."""
    return f"""
[base.scenario]
duration = "{duration}"
warmup = "{warmup}"
[base.topology]
kind = "dumbbell"
bottleneck = {{ bandwidth = "{bandwidth}", delay = "{delay}" }}
access = {{ bandwidth = "{access_bandwidth}", delay = "1ms" }}
[[base.flows]]
{flows}
"""
