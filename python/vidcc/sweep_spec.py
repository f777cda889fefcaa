"""Sweep files: a base scenario, axes over scenario key paths, and seeds, parsed and checked into
a :class:`SweepSpec` whose :meth:`SweepSpec.points` are the runs (see ``vidcc.sweep`` for why it
is shaped like this, and ``docs/experiments.md`` for the format).
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import json
import math
import re
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from os import PathLike
from pathlib import Path
from typing import Any

from vidcc.runids import code_fingerprint, run_id_of, scenario_id_of
from vidcc.scenario import U64_MAX, Scenario, ScenarioError, problems

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

__all__ = ["SweepError", "Axis", "SweepSpec", "Point", "load_sweep", "parse_sweep"]


class SweepError(ScenarioError):
    """A sweep that cannot start: one line, ``file: key.path: message``.

    A subclass of :class:`ScenarioError` so that every caller that reports scenario errors on
    one line (the CLI exits 2 for them) does the same for sweep files.
    """


# --------------------------------------------------------------------------------------------
# The spec


@dataclasses.dataclass(frozen=True)
class Axis:
    """One swept key: a user-level key path and the values it takes, in order."""

    key: str
    values: list[Any]


@dataclasses.dataclass
class SweepSpec:
    """A sweep: ``base`` is a user-level scenario dict (it need not be valid on its own: the
    axes may complete it), ``source`` names the sweep file in error messages."""

    name: str
    base: dict[str, Any]
    axes: list[Axis]
    seeds: list[int]
    source: str = "<sweep>"

    def points(self) -> list[Point]:
        """The cross product of the axes (first axis outermost) and the seeds (innermost), each
        point validated and keyed. Invalid points carry their error and are recorded as failed
        runs without being simulated."""
        self.check()
        out: list[Point] = []
        code = code_fingerprint()
        combos = itertools.product(*(axis.values for axis in self.axes)) if self.axes else [()]
        for combo in combos:
            axes = {axis.key: value for axis, value in zip(self.axes, combo)}
            doc = copy.deepcopy(self.base)
            for key, value in axes.items():
                _set_path(doc, key, value, self.source)
            try:
                scenario: Scenario | None = Scenario(doc, self.source)
                error = None
            except ScenarioError as e:
                scenario, error = None, str(e)
            for seed in self.seeds:
                if scenario is not None:
                    resolved = scenario.resolve(seed)
                else:
                    resolved = {"invalid_scenario": doc, "seed": seed}
                run_id = run_id_of(resolved, code)
                out.append(Point(len(out), axes, seed, doc, run_id, error, scenario_id_of(resolved)))
        _check_unique(out, self)
        if out and all(p.error is not None for p in out):
            # Nothing could run: a base that is broken for every point is a sweep-file problem.
            raise SweepError(self.source, "", f"no point of the sweep is a valid scenario; the first: {out[0].error}")
        return out

    def check(self) -> None:
        """Problems with the sweep itself (not with single points), as a :class:`SweepError`."""
        src = self.source
        if not isinstance(self.name, str) or not self.name.strip() or "\n" in self.name:
            raise SweepError(src, "sweep.name", f"expected a non-empty one-line string, got {_show(self.name)}")
        if not isinstance(self.base, Mapping):
            raise SweepError(src, "sweep.base", f"expected a scenario table, got {_show(self.base)}")
        if not self.seeds:
            raise SweepError(src, "sweep.seeds", "must not be empty")
        for i, seed in enumerate(self.seeds):
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= U64_MAX:
                raise SweepError(src, f"sweep.seeds[{i}]", f"expected an integer in [0, 2^64), got {_show(seed)}")
        if len(set(self.seeds)) != len(self.seeds):
            raise SweepError(src, "sweep.seeds", "seeds must be distinct")
        seen: list[str] = []
        for i, axis in enumerate(self.axes):
            here = f"axes[{i}]"
            parts = _parse_path(axis.key, src, f"{here}.key")
            if not axis.values:
                raise SweepError(src, f"{here}.values", f'axis "{axis.key}" has no values')
            if parts[:2] == ["scenario", "seed"]:
                raise SweepError(src, f"{here}.key", '"scenario.seed" is set by sweep.seeds; sweep seeds there')
            for other in seen:
                if _overlaps(other, axis.key):
                    raise SweepError(
                        src, f"{here}.key", f'"{axis.key}" overlaps the axis "{other}"; each key may be swept once'
                    )
            seen.append(axis.key)
            try:
                json.dumps(axis.values, allow_nan=False)
            except (TypeError, ValueError):
                raise SweepError(
                    src,
                    f"{here}.values",
                    "values must be TOML strings, numbers, booleans, lists or tables (no dates, no NaN)",
                ) from None
        self._check_keys_exist()

    def _check_keys_exist(self) -> None:
        """An axis key the schema does not have is a sweep-file error, found up front on the
        first point (all axes at their first value); any other invalid value is a per-run error."""
        doc = copy.deepcopy(self.base)
        for i, axis in enumerate(self.axes):
            _set_path(doc, axis.key, axis.values[0], self.source, where=f"axes[{i}].key")
        for path, message in _schema_errors(doc, self.source):
            for i, axis in enumerate(self.axes):
                if message.startswith("unknown key") and (path == axis.key or _overlaps(path, axis.key)):
                    raise SweepError(
                        self.source, f"axes[{i}].key", f'"{axis.key}" is not a key of this scenario ({path}: {message})'
                    )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "base": copy.deepcopy(self.base),
            "axes": [{"key": a.key, "values": copy.deepcopy(a.values)} for a in self.axes],
            "seeds": list(self.seeds),
            "source": self.source,
        }


@dataclasses.dataclass(frozen=True)
class Point:
    """One run of a sweep: ``axes`` maps each axis key to its value here, ``scenario`` is the
    user-level dict, ``error`` the validation error (then the run is recorded as failed).
    ``scenario_id`` identifies the resolved scenario, ``run_id`` that scenario run by this
    process's code (:mod:`vidcc.runids`)."""

    index: int
    axes: dict[str, Any]
    seed: int
    scenario: dict[str, Any]
    run_id: str
    error: str | None = None
    scenario_id: str = ""


def _check_unique(points: list[Point], spec: SweepSpec) -> None:
    first: dict[str, Point] = {}
    for p in points:
        if p.run_id in first:
            q = first[p.run_id]
            a = ", ".join(f"{k}={_show(v)}" for k, v in q.axes.items())
            b = ", ".join(f"{k}={_show(v)}" for k, v in p.axes.items())
            raise SweepError(
                spec.source,
                "axes",
                f"two points are the same scenario: ({a}) and ({b}), seed {p.seed}; remove one value",
            )
        first[p.run_id] = p


# --------------------------------------------------------------------------------------------
# Key paths: "flows[0].count", "topology.links[1].loss.p"

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_-]*)((?:\[\d+\])*)")


def _parse_path(key: Any, source: str, where: str) -> list[str | int]:
    if not isinstance(key, str) or not key:
        raise SweepError(source, where, f'expected a key path such as "flows[0].count", got {_show(key)}')
    parts: list[str | int] = []
    for segment in key.split("."):
        m = _SEGMENT.fullmatch(segment)
        if m is None:
            raise SweepError(
                source,
                where,
                f'invalid key path "{key}"; expected names joined by "." with [i] for list items,'
                ' e.g. "flows[0].count"',
            )
        parts.append(m.group(1))
        parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return parts


def _overlaps(a: str, b: str) -> bool:
    """One key path is the other or contains it (``topology.bottleneck`` and
    ``topology.bottleneck.bandwidth``)."""
    return a == b or b.startswith(a + ".") or b.startswith(a + "[") or a.startswith(b + ".") or a.startswith(b + "[")


def _set_path(doc: dict[str, Any], key: str, value: Any, source: str, where: str = "axes") -> None:
    """Set ``key`` in ``doc``. Missing tables on the way are created (so an axis can add a
    ``loss`` table the base does not have); list items must exist."""
    parts = _parse_path(key, source, where)
    node: Any = doc
    walked = ""
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if isinstance(part, int):
            if not isinstance(node, list):
                raise SweepError(source, where, f'"{key}": {walked} is not a list')
            if part >= len(node):
                raise SweepError(
                    source,
                    where,
                    f'"{key}": index {part} is out of range'
                    f' ({walked} has {len(node)} item{"s" if len(node) != 1 else ""} in the base)',
                )
            if last:
                node[part] = copy.deepcopy(value)
            else:
                node = node[part]
            walked += f"[{part}]"
        else:
            if not isinstance(node, dict):
                raise SweepError(source, where, f'"{key}": {walked} is {_show(node)}, not a table')
            if last:
                node[part] = copy.deepcopy(value)
            else:
                if part not in node:
                    if isinstance(parts[i + 1], int):
                        raise SweepError(
                            source, where, f'"{key}": the base has no list "{walked + "." if walked else ""}{part}"'
                        )
                    node[part] = {}
                node = node[part]
            walked += f".{part}" if walked else part


def _schema_errors(doc: dict[str, Any], source: str) -> list[tuple[str, str]]:
    """Every (key path, message) the schema reports for ``doc``. ``Scenario`` reports only the
    first problem; the model's full error list keeps one bad value from hiding an unknown key."""
    try:
        Scenario(doc, source)
        return []
    except ScenarioError as e:
        return [(e.path, e.message), *problems(doc)]


# --------------------------------------------------------------------------------------------
# Sweep files

_SWEEP_KEYS = ("name", "base", "seeds", "description")
_AXIS_KEYS = ("key", "values", "range")
_RANGE_KEYS = ("start", "stop", "step")
_UNIT_NUMBER = re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*([^\d\s.+-][^\s]*)\s*")


def load_sweep(path: str | PathLike[str]) -> SweepSpec:
    """Read a sweep file, check it, and return its :class:`SweepSpec`. Problems raise
    :class:`SweepError` (one line naming the file and the key)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SweepError(str(path), "", "no such file") from None
    except IsADirectoryError:
        raise SweepError(str(path), "", "is a directory, expected a sweep file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SweepError(str(path), "", f"cannot read: {e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SweepError(str(path), "", f"invalid TOML: {e}") from None
    return parse_sweep(data, source=str(path), base_dir=p.parent)


def parse_sweep(
    data: Mapping[str, Any], source: str = "<sweep>", base_dir: str | PathLike[str] | None = None
) -> SweepSpec:
    """A parsed sweep document (the TOML as a dict) → a checked :class:`SweepSpec`. A
    ``sweep.base`` path is relative to ``base_dir`` (the sweep file's directory)."""

    def fail(path: str, message: str):
        raise SweepError(source, path, message)

    for key in data:
        if key not in ("sweep", "axes", "base"):
            fail(key, "unknown key; expected one of: sweep, axes, base")
    sweep = data.get("sweep")
    if not isinstance(sweep, Mapping):
        fail("sweep", "missing [sweep] table" if sweep is None else f"expected a table, got {_show(sweep)}")
    for key in sweep:
        if key not in _SWEEP_KEYS:
            fail(f"sweep.{key}", f"unknown key; expected one of: {', '.join(_SWEEP_KEYS)}")
    if "name" not in sweep:
        fail("sweep.name", "missing required key")
    name = sweep["name"]
    if not isinstance(name, str) or not name.strip():
        fail("sweep.name", f"expected a non-empty string, got {_show(name)}")

    base: dict[str, Any]
    if "base" in sweep and "base" in data:
        fail("sweep.base", "give either sweep.base (a scenario file) or a [base] table, not both")
    if "base" in sweep:
        ref = sweep["base"]
        if not isinstance(ref, str) or not ref:
            fail("sweep.base", f"expected a path to a scenario file, got {_show(ref)}")
        base_path = Path(base_dir or ".") / ref
        try:
            base_text = base_path.read_text(encoding="utf-8")
        except FileNotFoundError:
            fail("sweep.base", f'no such file "{ref}" (looked for {base_path})')
        except (OSError, UnicodeDecodeError) as e:
            fail("sweep.base", f'cannot read "{ref}": {e}')
        try:
            base = tomllib.loads(base_text)
        except tomllib.TOMLDecodeError as e:
            raise SweepError(str(base_path), "", f"invalid TOML: {e}") from None
    elif "base" in data:
        if not isinstance(data["base"], Mapping):
            fail("base", f"expected a table holding a scenario, got {_show(data['base'])}")
        base = dict(data["base"])
    else:
        fail("sweep.base", "missing: set sweep.base to a scenario file, or write the scenario in a [base] table")

    if "seeds" in sweep:
        seeds_value = sweep["seeds"]
        if isinstance(seeds_value, bool) or not isinstance(seeds_value, (int, list)):
            fail("sweep.seeds", f"expected a seed count or a list of seeds, got {_show(seeds_value)}")
        if isinstance(seeds_value, int):
            if seeds_value < 1:
                fail("sweep.seeds", f"the seed count must be at least 1, got {seeds_value}")
            seeds = list(range(1, seeds_value + 1))
        else:
            if not seeds_value:
                fail("sweep.seeds", "the list of seeds must not be empty")
            seeds = list(seeds_value)
    else:
        scen = base.get("scenario") if isinstance(base, Mapping) else None
        seed = scen.get("seed", 1) if isinstance(scen, Mapping) else 1
        seeds = [seed]

    raw_axes = data.get("axes", [])
    if not isinstance(raw_axes, list) or not all(isinstance(a, Mapping) for a in raw_axes):
        fail("axes", "expected [[axes]] tables")
    axes = [_parse_axis(a, f"axes[{i}]", source) for i, a in enumerate(raw_axes)]
    spec = SweepSpec(name=name, base=base, axes=axes, seeds=seeds, source=source)
    spec.check()
    return spec


def _parse_axis(table: Mapping[str, Any], here: str, source: str) -> Axis:
    def fail(path: str, message: str):
        raise SweepError(source, path, message)

    for key in table:
        if key not in _AXIS_KEYS:
            fail(f"{here}.{key}", f"unknown key; expected one of: {', '.join(_AXIS_KEYS)}")
    if "key" not in table:
        fail(f"{here}.key", "missing required key")
    key = table["key"]
    _parse_path(key, source, f"{here}.key")
    if ("values" in table) == ("range" in table):
        fail(here, f'axis "{key}": give exactly one of values = [...] or range = {{ start, stop, step }}')
    if "values" in table:
        values = table["values"]
        if not isinstance(values, list):
            fail(f"{here}.values", f"expected a list, got {_show(values)}")
        if not values:
            fail(f"{here}.values", f'axis "{key}" has no values')
        return Axis(key, list(values))
    return Axis(key, _expand_range(table["range"], f"{here}.range", source))


def _expand_range(rng: Any, here: str, source: str) -> list[Any]:
    """``{start, stop, step}``, stop inclusive. Numbers, or strings with one unit
    (``"10ms"``..``"50ms"`` by ``"10ms"``). Arithmetic is decimal so that 0.1 steps land on
    0.3, not 0.30000000000000004."""

    def fail(path: str, message: str):
        raise SweepError(source, path, message)

    if not isinstance(rng, Mapping):
        fail(here, f"expected a table {{ start = ..., stop = ..., step = ... }}, got {_show(rng)}")
    for key in rng:
        if key not in _RANGE_KEYS:
            fail(f"{here}.{key}", f"unknown key; expected one of: {', '.join(_RANGE_KEYS)}")
    for key in _RANGE_KEYS:
        if key not in rng:
            fail(f"{here}.{key}", "missing required key")
    start, stop, step = (rng[k] for k in _RANGE_KEYS)
    kinds = {type(v) for v in (start, stop, step)}
    if kinds & {bool} or not (kinds <= {int, float} or kinds == {str}):
        fail(here, 'start, stop and step must all be numbers, or all strings with the same unit (e.g. "10ms")')
    unit = None
    nums: list[Decimal] = []
    for key, value in zip(_RANGE_KEYS, (start, stop, step)):
        if isinstance(value, str):
            m = _UNIT_NUMBER.fullmatch(value)
            if m is None:
                fail(f"{here}.{key}", f'expected a number with a unit such as "10ms", got {_show(value)}')
            if unit is not None and m.group(2) != unit:
                fail(
                    f"{here}.{key}", f'unit "{m.group(2)}" differs from "{unit}"; use one unit for start, stop and step'
                )
            unit = m.group(2)
            text = m.group(1)
        else:
            if isinstance(value, float) and not math.isfinite(value):
                fail(f"{here}.{key}", f"expected a finite number, got {value}")
            text = repr(value)
        try:
            nums.append(Decimal(text))
        except InvalidOperation:
            fail(f"{here}.{key}", f"not a number: {_show(value)}")
    d_start, d_stop, d_step = nums
    if d_step <= 0:
        fail(f"{here}.step", f"must be positive, got {_show(step)}")
    if d_stop < d_start:
        fail(f"{here}.stop", f"must be at least start ({_show(start)}), got {_show(stop)}")
    count = int((d_stop - d_start) / d_step) + 1
    if count > 100_000:
        fail(here, f"gives {count} values; more than 100000 is surely a mistake")
    all_int = all(isinstance(v, int) for v in (start, stop, step))
    out: list[Any] = []
    for i in range(count):
        v = d_start + i * d_step
        if unit is not None:
            out.append(f"{format(v.normalize(), 'f')}{unit}")
        elif all_int:
            out.append(int(v))
        else:
            out.append(float(v))
    return out


def _show(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return repr(value)
