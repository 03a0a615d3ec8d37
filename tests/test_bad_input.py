"""Bad input gives `FILE:LINE: key: what was expected` and exit 2 — never a traceback."""

from __future__ import annotations

import io

import pytest

from dmcheck.cli import main

from conftest import DATA

BAD = DATA / "bad"

CASES = [
    # file, line, words the message must contain
    ("yaml_syntax.yaml", 5, ["YAML syntax"]),
    ("unknown_key.yaml", 6, ["players.A", "unknown key 'hands'", "hand"]),
    ("unknown_card.yaml", 6, ["players.A.hand[1]", "unknown card 'Bolshack Dragonn'"]),
    ("missing_attacker.yaml", 7, ["attack.attacker", "in A's hand, not the battle zone"]),
    ("wrong_type.yaml", 6, ["players.A.mana", "a number of vanilla cards or a list of card names", "five"]),
    ("no_attack.yaml", 1, ["missing key 'attack'"]),
    ("unknown_ability.yaml", 8, ["uses", "Kakumeijin has no ability 'after_break'", "before_break"]),
    ("bad_interpretation.yaml", 3, ["interpretation.nested_other_pending", "all, inner_only", "some"]),
    ("bad_rules_date.yaml", 2, ["rules", "YYYY-MM-DD"]),
    ("self_attack.yaml", 6, ["attack.player", "non-turn player"]),
    ("event_key.yaml", 9, ["unknown key 'card' for a break event", "shield"]),
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
