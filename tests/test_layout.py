"""The layout's import rules (docs/architecture.md), read from the code's own imports.

Every import counts: top-level, inside functions, and under TYPE_CHECKING.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("model", "explorer", "properties", "rulings", "dmcheck")
ALLOWED = {
    "model": set(),
    "explorer": set(),
    "properties": {"model"},
    "rulings": {"model", "explorer", "properties"},
    "dmcheck": {"model", "explorer", "properties", "rulings"},
}


def _modules() -> dict[str, Path]:
    out = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            out[name] = path
    return out


def _imports(name: str, path: Path, known: set[str]) -> set[str]:
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[:len(anchor) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" for a in node.names] + [base]
        for t in targets:
            while t and t not in known:
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def _graph() -> nx.DiGraph:
    modules = _modules()
    g = nx.DiGraph()
    for name, path in modules.items():
        g.add_node(name)
        for target in _imports(name, path, set(modules)):
            # a package's __init__ importing its own submodules is how a package is assembled
            if not target.startswith(name + "."):
                g.add_edge(name, target)
    return g


def test_no_import_cycle():
    cycles = list(nx.simple_cycles(_graph()))
    assert cycles == [], cycles


def test_packages_import_only_downwards():
    bad = [(a, b) for a, b in _graph().edges
           if a.split(".")[0] != b.split(".")[0] and b.split(".")[0] not in ALLOWED[a.split(".")[0]]]
    assert bad == [], bad
