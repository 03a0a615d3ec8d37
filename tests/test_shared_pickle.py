"""Scenarios sent from verify's helper keep one copy of each card in the main process (model/shared_pickle.py).

Pickled whole, each scenario brought its own copies of the built-in cards and of its card files' cards:
80 MB of verify's 266 MB peak (2026-12-06). Sent as references, they are this process's own cards.
"""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys

import pytest
from conftest import ROOT

from dmcheck.model import shared_pickle
from dmcheck.model.cards import CardPool, card_origin
from dmcheck.model.scenario_file import load_scenario

Q01 = ROOT / "scenarios" / "rulings" / "Q01_bolshack_rider.yaml"


def _with_card_file() -> os.PathLike:
    """A shipped scenario that names a card file of its own."""
    for path in sorted((ROOT / "scenarios").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        if "card_files:" in text or "\ncards:" in text:
            try:
                scenario = load_scenario(path, CardPool.builtin().copy())
            except Exception:
                continue
            if any(card_origin(scenario.pool[i]) and "data/cards.yaml" not in card_origin(scenario.pool[i])[0]
                   for i in scenario.pool.ids()):
                return path
    pytest.skip("no shipped scenario with a card file of its own")


def test_a_scenario_comes_back_with_this_process_s_own_cards():
    path = _with_card_file()
    scenario = load_scenario(path, CardPool.builtin().copy())
    back = shared_pickle.loads(shared_pickle.dumps(scenario))
    assert back.pool.ids() == scenario.pool.ids()
    assert all(back.pool[i] is scenario.pool[i] for i in scenario.pool.ids())   # the same objects, no copies
    assert back.name == scenario.name and back.expect == scenario.expect


def test_the_references_are_much_smaller_than_the_cards():
    scenario = load_scenario(Q01, CardPool.builtin().copy())
    assert len(shared_pickle.dumps(scenario)) * 2 < len(pickle.dumps(scenario))


def test_another_process_reads_the_cards_from_their_files():
    """The receiver has not read the card files yet: it reads them, and gets cards equal to the sender's."""
    path = _with_card_file()
    scenario = load_scenario(path, CardPool.builtin().copy())
    program = ("import sys, pickle; from dmcheck.model import shared_pickle; "
               "s = shared_pickle.loads(sys.stdin.buffer.read()); "
               "sys.stdout.buffer.write(pickle.dumps({i: s.pool[i] for i in s.pool.ids()}))")
    done = subprocess.run([sys.executable, "-c", program], input=shared_pickle.dumps(scenario),
                          capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    assert pickle.loads(done.stdout) == {i: scenario.pool[i] for i in scenario.pool.ids()}


def test_a_card_file_changed_since_is_an_unpickling_error(tmp_path, monkeypatch):
    """The helper read a card file that changed before the main process read it: the main process is told
    (UnpicklingError), and verify's helper then loads the scenario there (rulings/farm.py)."""
    import dmcheck.model.cards as cards_module
    cards = tmp_path / "cards.yaml"
    shutil.copy(ROOT / "model" / "data" / "cards.yaml", cards)
    pool = CardPool()
    pool.add_file(cards)
    data = shared_pickle.dumps(pool)
    with open(cards, "a", encoding="utf-8") as f:
        f.write("\n# changed\n")
    monkeypatch.setattr(cards_module, "_CARD_FILES", {})      # as in a process that has not read it yet
    with pytest.raises(pickle.UnpicklingError, match="changed"):
        shared_pickle.loads(data)
