"""The symmetry reads which parts of a state name cards from the state records' declared types.

Two identical cards are interchangeable only if nothing in the state tells them apart, and a state's
canonical form must rename every card id in it (model/card_ids.py, model/symmetry.py). Here a new
card-id field is added to `State` in a copy of the package, with no other edit, and the symmetry must
rename it, tell two twins apart by it, and give two states that differ only by a swap of twins one form.
"""

from __future__ import annotations

import shutil
import subprocess
import sys

from conftest import ROOT

SCRIPT = """
import sys
from model.procedure import BreakModel
from model.scenario_file import load_scenario
from model.state import replace
from model.symmetry import _rename

model = BreakModel(load_scenario(sys.argv[1]))
sym = model.symmetry
s = model.initial_state()
shields = s.zone("B").shields
a, b = shields[:2]
assert sym.class_of[a] == sym.class_of[b] and sym.class_of[a] in sym.active   # two of B's vanilla shields
assert sym.signature(s, a) == sym.signature(s, b)          # alike in the shields, and nothing else
one, two = replace(s, watched=a), replace(s, watched=b)
print("renamed", _rename(two, {a: b, b: a}, set()).watched == a)
print("apart", sym.signature(one, a) != sym.signature(one, b))
print("one form", sym.canonical(one) == sym.canonical(two))
"""

SCENARIO = """name: three vanilla shields
source: [test]
turn: A
players:
  A:
    battle: [Shield Leave Probe]
  B:
    shields: [Vanilla, Vanilla, Vanilla]
attack: {attacker: Shield Leave Probe, player: B}
expect:
  - sometimes: {shields_broken: 3}
"""


def test_a_card_id_field_added_to_the_state_is_renamed(tmp_path):
    shutil.copytree(ROOT / "model", tmp_path / "model", ignore=shutil.ignore_patterns("__pycache__"))
    state = tmp_path / "model" / "state.py"
    text = state.read_text(encoding="utf-8")
    anchor = "    attack_effects_ended: bool = False"
    assert anchor in text
    state.write_text(text.replace(anchor, "    watched: CardId = -1\n" + anchor, 1), encoding="utf-8")
    (tmp_path / "three.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "check.py").write_text(SCRIPT, encoding="utf-8")
    run = subprocess.run([sys.executable, "check.py", "three.yaml"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:3] == ["renamed True", "apart True", "one form True"]


def test_a_plain_number_added_to_the_state_is_no_card(tmp_path):
    """The same field declared as a plain int is left alone: nothing in the symmetry guesses by name."""
    shutil.copytree(ROOT / "model", tmp_path / "model", ignore=shutil.ignore_patterns("__pycache__"))
    state = tmp_path / "model" / "state.py"
    text = state.read_text(encoding="utf-8")
    anchor = "    attack_effects_ended: bool = False"
    state.write_text(text.replace(anchor, "    watched: int = -1\n" + anchor, 1), encoding="utf-8")
    (tmp_path / "three.yaml").write_text(SCENARIO, encoding="utf-8")
    (tmp_path / "check.py").write_text(SCRIPT, encoding="utf-8")
    run = subprocess.run([sys.executable, "check.py", "three.yaml"], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split("\n")[:3] == ["renamed False", "apart False", "one form False"]


def test_a_swap_waiting_to_happen_names_the_creature_it_takes(tmp_path):
    """R701.26a: a swap waiting in a running effect names two cards, the one from the hand (`card`) and the
    creature that leaves (`old`); two twins, one of them about to be swapped out, are not interchangeable,
    and a renaming renames the one named."""
    from dmcheck.model.instructions.registry import instr
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario
    from dmcheck.model.state import Task, replace
    from dmcheck.model.symmetry import _rename

    path = tmp_path / "three.yaml"
    path.write_text(SCENARIO, encoding="utf-8")
    model = BreakModel(load_scenario(path))
    sym = model.symmetry
    s = model.initial_state()
    a, b = s.zone("B").shields[:2]
    assert sym.signature(s, a) == sym.signature(s, b)
    task = Task(program=(instr("_swap", card=0, old=a, ability="a swap"),), pc=0, controller="B", source=0,
                ability="a swap")
    waiting = replace(s, running=(task,))
    assert sym.signature(waiting, a) != sym.signature(waiting, b)
    assert _rename(waiting, {a: b, b: a}, set()).running[0].program[0].get("old") == b
