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
