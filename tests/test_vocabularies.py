"""The vocabularies declared once match everything that reads them, across the whole repository, as
Hypothesis's documentation test ties its strategies to their docs:

- an event kind a scenario may name is an event the model can emit, and the reverse;
- KEYWORDS are the rows of the keyword table (model/data/keywords.yaml), and each mechanism parameter a
  row may set is read by a rule: a function of the model names it (as a string, or through a constant
  holding it). A parameter nobody reads would load from the table and do nothing;
- a keyword an effect may give is one the loader accepts as expired at the end of the turn;
- each open choice has its row in README's table of choices, its readings there with the
  default first, and the table names no other choice;
- the readings have one name inside: the word `interpretation` is only the user-facing name (the flag,
  the scenario and sweep key, JSON keys, the public API's keyword and the texts users read), never an
  identifier, comment, docstring or doc sentence of its own (docs/architecture.md, "Words").

The keyword, README and word checks take a repository root, and are shown to fail on a copy that adds a
keyword or a reading without the rest, or the word back in a name, a docstring, a comment or a doc.
"""

from __future__ import annotations

import ast
import importlib.util
import io
import re
import shutil
import sys
import tokenize
from pathlib import Path
from typing import get_args

import pytest
from conftest import ROOT

from dmcheck.model.events import EventKind
from dmcheck.model.instructions.power import GRANTABLE
from dmcheck.model.keyword_table import ROWS
from dmcheck.model.scenario_file import _EXPIRED, EVENT_KEYS
from dmcheck.model.vocabulary import KEYWORDS

# modules that only list words (the declarations, the census of a scenario's features): no rule reads there
LISTS = ("model/vocabulary.py", "model/census.py")


def test_event_kinds_are_the_events_a_scenario_may_name():
    assert set(get_args(EventKind)) == set(EVENT_KEYS)


def test_keywords_are_the_engine_keywords():
    """KEYWORDS are the table's rows, each by its form (`S-Back:<civ>` for S-Back)."""
    assert [k.partition(":")[0] for k in KEYWORDS] == [r["name"] for r in ROWS]


def test_every_keyword_an_effect_gives_is_one_that_expires():
    """R511.2: a keyword given for the turn ends with it; an `expire` event may name each one given."""
    assert [k for k in GRANTABLE if not _EXPIRED.fullmatch(k)] == []


def _strings(node: ast.AST) -> set[str] | None:
    """The strings a constant's value holds ("x", ("x", "y"), frozenset({...})), or None for another value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        found: set[str] = set()
        for element in node.elts:
            inner = _strings(element)
            if inner is None:
                return None
            found |= inner
        return found
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("frozenset", "tuple") \
            and len(node.args) == 1:
        return _strings(node.args[0])
    return None


def declared_keywords(root: Path) -> tuple[str, ...]:
    """The mechanism parameters a keyword may set, read from model/keyword_table.py's source (PARAMETERS)."""
    tree = ast.parse((root / "model" / "keyword_table.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "PARAMETERS":
            assert isinstance(node.value, ast.Dict)
            return tuple(sorted(k.value for k in node.value.keys if isinstance(k, ast.Constant)))
    raise AssertionError("model/keyword_table.py declares no PARAMETERS")


def keyword_readers(root: Path) -> dict[str, set[str]]:
    """Each declared parameter -> the modules whose functions name it (directly or by a constant holding it)."""
    constants: dict[str, set[str]] = {}
    named: dict[str, set[str]] = {}     # a string or a name used in a function -> the modules using it
    for path in sorted((root / "model").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            value = node.value if isinstance(node, (ast.Assign, ast.AnnAssign)) else None
            held = _strings(value) if value is not None else None
            if held is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]  # type: ignore[union-attr]
                for t in targets:
                    if isinstance(t, ast.Name):
                        constants.setdefault(t.id, set()).update(held)
        if rel in LISTS:
            continue
        for function in ast.walk(tree):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                continue
            for n in ast.walk(function):
                if isinstance(n, ast.Constant) and isinstance(n.value, str):
                    named.setdefault(n.value, set()).add(rel)
                elif isinstance(n, ast.Name):
                    named.setdefault(n.id, set()).add(rel)
                elif isinstance(n, ast.Attribute):
                    named.setdefault(n.attr, set()).add(rel)
    readers: dict[str, set[str]] = {}
    for head in declared_keywords(root):
        found = set(named.get(head, ()))
        for name, held in constants.items():
            if head in held:
                found |= named.get(name, set())
        readers[head] = found
    return readers


def unread_keywords(root: Path) -> list[str]:
    return [head for head, found in keyword_readers(root).items() if not found]


def test_every_keyword_is_read_by_a_rule():
    assert unread_keywords(ROOT) == []
    readers = keyword_readers(ROOT)
    # spot checks of where: the blocker is chosen at the block step, Evasion by what touches the attack
    assert "model/attack.py" in readers["redirect_block"] and "model/touch.py" in readers["evasion_power"]


def _choices(root: Path) -> dict[str, tuple[str, list[str]]]:
    """name -> (default, readings) of the choices model/readings.py declares (loaded from `root`)."""
    name = "_choices_under_test"
    spec = importlib.util.spec_from_file_location(name, root / "model" / "readings.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module   # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return {c.name: (c.default, [r for r, _ in c.readings]) for c in module.CHOICES}


_ROW = re.compile(r"^\| `([a-z_0-9]+)` \| ((?:`[a-z_0-9]+`(?:, )?)+) \|")


def readme_rows(root: Path) -> dict[str, list[str]]:
    """README's table of choices: name -> readings as listed."""
    text = (root / "README.md").read_text(encoding="utf-8")
    section = text.split("### All the choices", 1)[1].split("\n#", 1)[0]
    rows = {}
    for line in section.splitlines():
        m = _ROW.match(line)
        if m:
            rows[m.group(1)] = re.findall(r"`([a-z_0-9]+)`", m.group(2))
    return rows


def readme_mismatches(root: Path) -> list[str]:
    rows, choices = readme_rows(root), _choices(root)
    wrong = [f"{name}: no row in README" for name in choices if name not in rows]
    wrong += [f"{name}: a row in README for no choice" for name in rows if name not in choices]
    for name, (default, readings) in choices.items():
        listed = rows.get(name)
        if listed is not None and (sorted(listed) != sorted(readings) or listed[0] != default):
            wrong.append(f"{name}: README lists {listed}, the choice has {readings} (default {default})")
    return wrong


def test_every_choice_has_its_readme_row():
    assert readme_mismatches(ROOT) == []


def _copy(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "model", tmp_path / "model", ignore=shutil.ignore_patterns("__pycache__", "data"))
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    return tmp_path


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_a_keyword_nobody_reads_is_caught(tmp_path):
    root = _copy(tmp_path)
    table = root / "model" / "keyword_table.py"
    text = table.read_text(encoding="utf-8")
    anchor = 'PARAMETERS: Final = {\n'
    assert anchor in text
    table.write_text(text.replace(anchor, anchor + '    "moonwalk": "walks backwards",\n'), encoding="utf-8")
    assert unread_keywords(root) == ["moonwalk"]
    # a rule that reads it, and the keyword is read
    touch = root / "model" / "touch.py"
    touch.write_text(touch.read_text(encoding="utf-8") +
                     '\n\ndef _moonwalks(m, s, cid):\n    return m.has_keyword(s, cid, "moonwalk")\n', encoding="utf-8")
    assert unread_keywords(root) == []


def test_a_reading_without_its_readme_row_is_caught(tmp_path):
    root = _copy(tmp_path)
    readings = root / "model" / "readings.py"
    text = readings.read_text(encoding="utf-8")
    anchor = '            ("top_only", '
    assert text.count(anchor) == 1
    readings.write_text(text.replace(anchor, '            ("every_other", "a reading made up here"),\n'
                                            + anchor), encoding="utf-8")
    assert readme_mismatches(root) == [
        "pile_count: README lists ['cards', 'top_only'], the choice has ['cards', 'every_other', 'top_only'] "
        "(default cards)"]


# ---- one word for the readings: `interpretation` only where users meet it -------------------------------
WORD = re.compile(r"interpretation", re.IGNORECASE)
# in comments, docstrings and docs, the user-facing names as written: the flag, a key or keyword in backticks
# (`interpretation`, `interpretation: {name: reading}`, `{interpretation: NAME}`), a JSON key, the API's keyword
SPELT = re.compile(r"--interpretation|\"interpretation\"|\binterpretation=")
KEY_IN_CODE = re.compile(r"`[^`\n]*`")
KEY = re.compile(r"^\{?interpretation\b|\binterpretation:")
# the public Python API (docs/api.md) keeps the word users know: the keyword `interpretation=` of `load` and
# `export_bundle`, the field `interpretation` of its Scenario; any code may pass that keyword and read that field
PUBLIC = {"dmcheck/api.py", "dmcheck/engines/bundle.py"}
SKIPPED = (".venv", "build", ".git", "tests/data")


def _own_words(text: str) -> bool:
    text = KEY_IN_CODE.sub(lambda m: "" if KEY.search(m.group()[1:-1]) else m.group(), SPELT.sub("", text))
    return bool(WORD.search(text))


def _python_strays(rel: str, source: str) -> list[str]:
    """Identifiers, docstrings and comments of one module that use the word as their own."""
    tree = ast.parse(source)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) or isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            continue   # a keyword passed, a field read: only the public API has that name, anything else fails
        names = {ast.Name: "id", ast.Attribute: "attr", ast.arg: "arg", ast.FunctionDef: "name",
                 ast.AsyncFunctionDef: "name", ast.ClassDef: "name", ast.alias: "name", ast.ImportFrom: "module"}
        field = names.get(type(node))
        name = getattr(node, field, None) if field else None
        if name and WORD.search(name) and rel not in PUBLIC:
            out.append(f"{rel}:{node.lineno}: the name {name}")
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc and _own_words(doc):
                out.append(f"{rel}:{getattr(node, 'lineno', 1)}: a docstring")
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and _own_words(tok.string):
            out.append(f"{rel}:{tok.start[0]}: a comment")
    return out


def _doc_strays(rel: str, text: str) -> list[str]:
    """Doc lines that use the word as their own (fenced blocks are files and outputs as written; the
    architecture's "Words" section says what the word means to users and what it was inside)."""
    out, fenced, words = [], False, False
    for n, line in enumerate(text.splitlines(), 1):
        if line.startswith("## "):
            words = rel == "docs/architecture.md" and line == "## Words"
        if line.lstrip().startswith("```"):
            fenced = not fenced
        elif not fenced and not words and _own_words(line):
            out.append(f"{rel}:{n}")
    return out


def stray_words(root: Path) -> list[str]:
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if not rel.startswith(SKIPPED) and ".egg-info" not in rel:
            out += _python_strays(rel, path.read_text(encoding="utf-8"))
    docs = [root / "README.md", *sorted((root / "docs").glob("*.md")), root / "benchmarks" / "README.md"]
    for path in docs:
        if path.exists():
            out += _doc_strays(path.relative_to(root).as_posix(), path.read_text(encoding="utf-8"))
    return out


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_the_readings_have_one_name_inside():
    assert stray_words(ROOT) == []


@pytest.mark.slow   # a few seconds: the default suite stays under 90 s
def test_the_word_coming_back_is_caught(tmp_path):
    for top in ("model", "docs"):
        shutil.copytree(ROOT / top, tmp_path / top, ignore=shutil.ignore_patterns("__pycache__", "data"))
    assert stray_words(tmp_path) == []
    touch = tmp_path / "model" / "touch.py"
    text = touch.read_text(encoding="utf-8")
    end = len(text.splitlines())   # the planted function's `def` is on line end + 3
    touch.write_text(text + (
        "\n\ndef _planted(m, interpretation):\n"
        '    """Ask the interpretation (the `interpretation:` key and --interpretation are fine)."""\n'
        '    m.interpretation = m.readings   # the interpretation again\n'
        "\n\nKEY = \"interpretation\"   # a key: a string the loader reads\n"), encoding="utf-8")
    (tmp_path / "docs" / "planted.md").write_text(
        "Give `--interpretation NAME=READING` or the `interpretation:` key.\n"
        "```yaml\ninterpretation: {}\n```\nEach interpretation is a set of readings.\n", encoding="utf-8")
    assert sorted(stray_words(tmp_path)) == [
        "docs/planted.md:5",
        f"model/touch.py:{end + 3}: a docstring", f"model/touch.py:{end + 3}: the name interpretation",
        f"model/touch.py:{end + 5}: a comment", f"model/touch.py:{end + 5}: the name interpretation"]
