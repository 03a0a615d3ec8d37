"""The keyword table (issue 33): keywords are data, read by the mechanisms through their parameters.

- the share of the table's keywords with no Python of their own: no module of model/ writes the keyword's name
  (a string literal equal to it or to its valued form `Name:...`, or an f-string's text holding it);
- the table is checked on load: a parameter no mechanism reads is refused with the file, line and key;
- every parameter a row sets is one a mechanism declared, and the mechanisms see a keyword through it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from dmcheck.model import keyword_table
from dmcheck.model.errors import InputError

MODEL = Path(keyword_table.__file__).parent
FLOOR = 0.8   # the share reached (issue 33 asks for 80 %)


def _literals() -> list[tuple[str, str, bool]]:
    """Every string literal of model/'s Python: (module, text, inside an f-string)."""
    out = []
    for path in sorted(MODEL.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_f = {id(v) for n in ast.walk(tree) if isinstance(n, ast.JoinedStr) for v in n.values}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                out.append((str(path.relative_to(MODEL)), node.value, id(node) in in_f))
    return out


def _own_python(name: str, literals: list[tuple[str, str, bool]]) -> list[str]:
    """The modules that write the keyword's name themselves, not through the table: a literal that is the
    name, its valued form (`Name:...`), an alternative of a regular expression (`a|Name|b`), or an f-string
    piece that is the name (`f"{card}/Name"`); prose (a docstring, an error message) reads nothing."""
    valued = re.compile(re.escape(name) + r":\S+")
    return sorted({m for m, text, f in literals
                   if text == name or valued.fullmatch(text) or name in text.split("|")
                   or (f and text.strip("/") == name)})


def test_share_of_keywords_with_no_python_of_their_own() -> None:
    literals = _literals()
    own = {n: _own_python(n, literals) for n in keyword_table.NAMES}
    data = [n for n, mods in own.items() if not mods]
    share = len(data) / len(own)
    assert share >= FLOOR, {n: m for n, m in own.items() if m}


def test_the_counter_sees_a_name_written_in_python() -> None:
    """The count can fail: a literal naming a keyword is seen, a docstring mentioning it is not."""
    lits = [("x.py", "Blocker", False), ("y.py", "a Blocker blocks", False), ("z.py", "/Slayer", True),
            ("w.py", "Slayer: destroys", False), ("v.py", "Guard|Blocker|x", False)]
    assert _own_python("Blocker", lits) == ["v.py", "x.py"] and _own_python("Slayer", lits) == ["z.py"]


def test_a_parameter_no_mechanism_reads_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "keywords.yaml"
    bad.write_text("keywords:\n  - name: Wall\n    sets: [redirect_blok]\n    doc: blocks\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        keyword_table.load(bad)
    assert info.value.line == 3 and "sets[0]" in info.value.key and "redirect_block" in info.value.expected


def test_a_name_twice_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "keywords.yaml"
    bad.write_text("keywords:\n  - {name: Wall, sets: [cannot_attack], doc: a}\n"
                   "  - {name: Wall, sets: [cannot_block], doc: b}\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        keyword_table.load(bad)
    assert info.value.line == 3 and "already" in info.value.expected


def test_a_card_has_the_parameters_of_its_keywords() -> None:
    """Resolved once at load: a G-NEO creature sets `neo` (803.1), Star Evolution an evolution on one."""
    from dmcheck.model.cards import CardDef
    g = CardDef(id="g", name="g", ja="", type="creature", cost=1, keywords=("G-NEO",))
    star = CardDef(id="s", name="s", ja="", type="creature", cost=1, keywords=("Star Evolution",))
    assert g.has("neo") and g.has("under_cards_leave_instead") and not g.has("evolution_one")
    assert star.evolution() == 1 and star.has("top_card_leaves_instead")


# ---- a new keyword in a temporary copy: one row of the table (issue 33, Done-when) ----------------------
WALL_ROW = """  - name: "Wall"
    sets: [redirect_block, cannot_attack]
    doc: "a Blocker that cannot attack (made here of two mechanism parameters, no Python)"
"""
WALL_CARDS = """cards:
  - {id: wall_probe, name: Wall Probe, type: creature, cost: 3, power: 5000, keywords: [Wall]}
"""
# A has a Wall and a Vanilla, B a Wall: A's Wall never attacks (cannot_attack), B's Wall may block the
# Vanilla's attack (redirect_block, R507.1) - what the row's definition says
WALL_SCENARIO = """name: a Wall blocks and never attacks
source: [S340 R507.1]
rules: 2025-12-17
cards: [wall.yaml]
turn: A
players:
  A:
    battle: [Wall Probe, Vanilla]
  B:
    battle: [Wall Probe]
    shields: 1
attack: {choose: true}
expect:
  - never_order:
      - {event: attack, card: Wall Probe}
  - possible_order:
      - {event: attack, card: Vanilla}
      - {event: block, card: Wall Probe, attacker: Vanilla}
"""
PROBE = """import json, sys
from dmcheck.explorer.bfs import explore
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check
try:
    scenario = load_scenario(sys.argv[1])
except Exception as exc:
    print(json.dumps({"refused": str(exc)}))
    raise SystemExit(0)
graph = explore(BreakModel(scenario))
print(json.dumps({"verdicts": [check(graph, item).verdict for item in scenario.expect]}))
"""


def _copy_repo(root: Path, to: Path) -> Path:
    """The packages of the checkout, copied and laid out as benchmarks/mutations.py does (its code runs)."""
    import shutil
    import sys
    sys.path.insert(0, str(root / "benchmarks"))
    try:
        from mutations import lay_out_packages
    finally:
        sys.path.pop(0)
    skip = shutil.ignore_patterns("__pycache__", ".venv", "*.egg-info")
    for folder in ("dmcheck", "model", "explorer", "properties", "rulings", "scenarios"):
        shutil.copytree(root / folder, to / folder, ignore=skip, symlinks=True)
    shutil.copy(root / "pyproject.toml", to / "pyproject.toml")
    lay_out_packages(to)
    return to


def _files(repo: Path) -> dict[str, bytes]:
    return {p.relative_to(repo).as_posix(): p.read_bytes() for p in repo.rglob("*") if p.is_file()}


def _verdicts(repo: Path, scenario: Path) -> dict:
    import json
    import os
    import subprocess
    import sys
    env = dict(os.environ, PYTHONPATH=str(repo), PYTHONDONTWRITEBYTECODE="1")
    out = subprocess.run([sys.executable, "-c", PROBE, str(scenario)], cwd=repo, env=env, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.slow   # a copy of the packages and two processes: several seconds
def test_a_new_keyword_is_one_row_of_the_table(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parent.parent
    repo = _copy_repo(root, tmp_path / "repo")
    user = tmp_path / "user"           # the user's scenario and card file, outside the checkout
    user.mkdir()
    (user / "wall.yaml").write_text(WALL_CARDS, encoding="utf-8")
    (user / "wall_scenario.yaml").write_text(WALL_SCENARIO, encoding="utf-8")
    before = _files(repo)
    # without the row, Wall is a word the engine does not read (a race, say): the Wall attacks, never blocks
    assert _verdicts(repo, user / "wall_scenario.yaml") == {"verdicts": ["violated", "violated"]}
    table = repo / "model" / "data" / "keywords.yaml"
    table.write_text(table.read_text(encoding="utf-8") + WALL_ROW, encoding="utf-8")
    changed = [f for f, data in _files(repo).items() if before.get(f) != data]
    assert changed == ["model/data/keywords.yaml"]     # at most 2 files touched: here one
    assert _verdicts(repo, user / "wall_scenario.yaml") == {"verdicts": ["holds", "holds"]}
