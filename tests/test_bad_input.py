"""Bad input gives `FILE:LINE: key: what was expected` and exit 2 — never a traceback."""

from __future__ import annotations

import io

import pytest
from conftest import DATA

from dmcheck.main import main

BAD = DATA / "bad"

CASES = [
    # file, line, words the message must contain
    ("yaml_syntax.yaml", 5, ["YAML syntax"]),
    ("unknown_key.yaml", 6, ["players.A", "unknown key 'hands'", "hand"]),
    ("unknown_card.yaml", 6, ["players.A.hand[1]", "unknown card 'Bolshack Dragonn'"]),
    ("missing_attacker.yaml", 7, ["attack.attacker", "in A's hand, not the battle zone"]),
    ("wrong_type.yaml", 6, ["players.A.mana", "a number of vanilla cards or a list of card names", "five"]),
    ("no_attack.yaml", 1, ["missing key 'attack'"]),
    ("unknown_ability.yaml", 8, ["uses", "Kakumeijin has no triggered ability 'after_break'", "before_break"]),
    ("bad_interpretation.yaml", 3, ["interpretation.nested_other_pending", "all, inner_only", "some"]),
    ("bad_rules_date.yaml", 2, ["rules", "YYYY-MM-DD"]),
    ("self_attack.yaml", 6, ["attack.player", "non-turn player"]),
    ("event_key.yaml", 9, ["unknown key 'card' for a break event", "shield"]),
    ("castle_not_castle.yaml", 7, ["players.B.shields[0].castle", "expected a castle, Aqua Surfer is a creature"]),
    ("unknown_entry_key.yaml", 7, ["players.B.battle[0].auras", "unknown key 'auras'", "aura, card"]),
    ("bad_restriction.yaml", 4, ["restrictions.B", "unknown key 'no_spells'", "no_s_trigger"]),
]


@pytest.mark.parametrize("name,line,words", CASES, ids=[c[0] for c in CASES])
def test_bad_scenario_names_file_line_and_key(name, line, words):
    out, err = io.StringIO(), io.StringIO()
    code = main(["explore", str(BAD / name)], out, err)
    message = err.getvalue()
    assert code == 2
    assert f"{BAD / name}:{line}:" in message, message
    for word in words:
        assert word in message, (word, message)
    assert "Traceback" not in message


def test_bad_card_file_names_the_card_file_and_instruction():
    err = io.StringIO()
    assert main(["explore", str(BAD / "bad_card_file.yaml")], io.StringIO(), err) == 2
    assert f"{BAD / 'bad_cards.yaml'}:8: cards[0].effect[1]: unknown instruction 'teleport'" in err.getvalue()


def test_ability_must_trigger_or_replace_not_both():
    err = io.StringIO()
    assert main(["explore", str(BAD / "both_trigger_and_replaces.yaml")], io.StringIO(), err) == 2
    assert f"{BAD / 'both_cards.yaml'}:7: cards[0].abilities[0]:" in err.getvalue()
    assert "either trigger or replaces" in err.getvalue()


def test_unknown_replacement_kind_lists_the_known_ones():
    err = io.StringIO()
    assert main(["explore", str(BAD / "unknown_replaces.yaml")], io.StringIO(), err) == 2
    message = err.getvalue()
    assert f"{BAD / 'unknown_replaces_cards.yaml'}:8: cards[0].abilities[0].replaces:" in message
    assert "own_shield_break" in message and "own_creature_bounce" in message


def test_card_file_cannot_take_a_pool_name():
    err = io.StringIO()
    assert main(["explore", str(BAD / "duplicate_card.yaml")], io.StringIO(), err) == 2
    assert "the name 'Kakumeijin' already belongs to card 'kakumeijin'" in err.getvalue()


def test_missing_file_and_bad_options():
    err = io.StringIO()
    assert main(["explore", str(BAD / "nope.yaml")], io.StringIO(), err) == 2
    assert "nope.yaml: file not found" in err.getvalue()
    err = io.StringIO()
    assert main(["explore", str(BAD / "unknown_key.yaml"), "--rules", "soon"], io.StringIO(), err) == 2
    assert "--rules" in err.getvalue()
    err = io.StringIO()
    assert main(["explore", str(BAD / "unknown_key.yaml"), "--interpretation", "x=y"], io.StringIO(), err) == 2
    assert "nested_other_pending=all|inner_only" in err.getvalue()
