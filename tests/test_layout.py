"""The layout's import rules (docs/architecture.md), read from the code's own imports.

Every import counts: top-level, inside functions, and under TYPE_CHECKING. An absolute import of an
installed name (`dmcheck.model.state`) counts as an import of the repository's module (`model.state`).
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
# The parts of dmcheck/ and which other parts each may import (docs/architecture.md): the Python API at
# the package's root reads the command line's option words (cli/options.py) and nothing else of it;
# the command line's plumbing and the engine runner import no command; only the entry points (main.py,
# which lists the commands once, and what starts it) import the commands.
PARTS = {
    "api": {"cli"},
    "cli": set(),
    "engines": {"api"},
    "commands": {"api", "cli", "engines"},
    "entry": {"api", "cli", "commands"},
}
ENTRY = {"dmcheck.main", "dmcheck.__main__", "dmcheck.pytest_plugin"}
MAPPED = ("model", "explorer", "properties", "rulings")   # installed as dmcheck.model, ... (pyproject.toml)


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
            if t.split(".")[:2] in (["dmcheck", m] for m in MAPPED):
                t = t.removeprefix("dmcheck.")
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


def _part(module: str) -> str:
    """Which part of dmcheck/ a module belongs to: a subpackage, the entry points, or the API at the root."""
    parts = module.split(".")
    if len(parts) > 1 and parts[1] in ("commands", "cli", "engines"):
        return parts[1]
    return "entry" if module in ENTRY else "api"


def test_the_parts_of_dmcheck_import_only_what_their_rules_allow():
    inside = [(a, b) for a, b in _graph().edges if a.split(".")[0] == b.split(".")[0] == "dmcheck"]
    assert inside, "no import inside dmcheck/ was seen: the graph is not read"
    bad = [(a, b) for a, b in inside if _part(a) != _part(b) and _part(b) not in PARTS[_part(a)]]
    assert bad == [], bad


def test_dmcheck_folder_holds_the_api_and_the_entry_points_only():
    """The commands, the command line's plumbing and the engine runner live in their own subpackages;
    what stays directly in dmcheck/ is the API and the entry points (at most 12 modules)."""
    direct = sorted(p.stem for p in (ROOT / "dmcheck").glob("*.py"))
    assert len(direct) <= 12, direct
    assert {_part(f"dmcheck.{m}") for m in direct} <= {"api", "entry"}


def test_each_command_is_one_module_of_commands_named_after_it():
    from dmcheck.main import COMMANDS, parser

    modules = {p.stem for p in (ROOT / "dmcheck" / "commands").glob("*.py") if p.stem != "__init__"}
    assert {c.__name__ for c in COMMANDS} == {f"dmcheck.commands.{m}" for m in modules}
    subcommands = next(a for a in parser()._actions if a.dest == "command").choices
    assert set(subcommands) == modules
