"""The Python package's layering: no import cycles between vidcc modules, and no module importing
another vidcc module's private (underscore) names.

Every module under python/vidcc is parsed with `ast`; every import (at the top of the module or
inside a function: a lazy import still ties two modules together) becomes an edge of the graph.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "vidcc"
EXTENSION = "vidcc._vidcc"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> list[tuple[str, str | None]]:
    """(imported vidcc module, imported name or None) for every import in the module."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            out += [(alias.name, None) for alias in node.names if alias.name.split(".")[0] == "vidcc"]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            if base.split(".")[0] != "vidcc":
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                # `from vidcc.x import y` imports the module vidcc.x.y when there is one.
                out.append((sub, None) if sub in known else (base, alias.name))
    return out


def graph() -> tuple[dict[str, set[str]], list[str]]:
    mods = modules()
    known = set(mods) | {EXTENSION}
    edges: dict[str, set[str]] = {m: set() for m in mods}
    private: list[str] = []
    for name, path in mods.items():
        for target, imported in imports(name, path, known):
            if target == EXTENSION:
                continue
            if target != name and target in mods:
                edges[name].add(target)
            if imported is not None and imported.startswith("_") and not imported.startswith("__") and target != name:
                private.append(f"{name} imports {target}.{imported}")
    return edges, private


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_the_graph_sees_the_package():
    edges, _ = graph()
    assert "vidcc.scenario" in edges and "vidcc.cli" in edges
    assert any(edges.values()), "no import between vidcc modules was found"


def test_no_import_cycles():
    edges, _ = graph()
    assert cycles(edges) == []


def test_no_private_imports_across_modules():
    _, private = graph()
    assert private == []


def test_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
