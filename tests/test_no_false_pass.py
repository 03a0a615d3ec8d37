"""Passes that were not, and crashes on odd input (issue 36, items 4 and 6): each is now a clear error,
exit 2, naming the file and the line (or the flag)."""

from __future__ import annotations

import io
import json
import sys

import pytest
from conftest import ROOT

from dmcheck.main import main

Q09 = ROOT / "scenarios" / "rulings" / "Q09_the_watch.yaml"
ENGINES = ROOT / "tests" / "engines"


def run(*argv) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main([str(a) for a in argv], out, err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def q09_bundle(tmp_path_factory):
    path = tmp_path_factory.mktemp("bundle") / "q09.json"
    code, _, err = run("export", Q09, "--out", path, "--jobs", "1")
    assert code == 0, err
    return path


# ---- item 4 --------------------------------------------------------------------------------------
def test_conform_only_a_pattern_matching_nothing_is_bad_input(q09_bundle):
    """It checked no run and exited 0: a typo in a CI job passed."""
    engine = f"{sys.executable} {ENGINES / 'correct.py'} {q09_bundle}"
    code, out, err = run("conform", "--engine", engine, "--bundle", q09_bundle, "--only", "rulings/Q9*")
    assert code == 2 and "--only: rulings/Q9*: matches no scenario run" in err, (code, err)
    assert out == ""
    code, _, err = run("conform", "--engine", engine, "--bundle", q09_bundle, "--only", "*Q09*", "--only", "nope")
    assert code == 2 and "nope: matches no scenario run" in err, err


SICK = """name: a named attacker that was put into the battle zone this turn
turn: A
players:
  A:
    battle: [{card: Vanilla, summoned: true}]
  B:
    shields: 1
attack: {attacker: Vanilla, player: B}
"""


def test_a_summoning_sick_attacker_is_refused(tmp_path):
    """301.5: it was explored as a legal attack (`attack: {choose: true}` already refused it)."""
    path = tmp_path / "sick.yaml"
    path.write_text(SICK)
    code, _, err = run("explore", path)
    assert code == 2 and f"{path}:8: attack.attacker:" in err and "summoning sickness" in err, err
    # a second copy that was there at the start of the turn attacks; Speed Attacker (or evolution) may attack
    path.write_text(SICK.replace("[{card: Vanilla, summoned: true}]", "[{card: Vanilla, summoned: true}, Vanilla]"))
    assert run("explore", path)[0] == 0
    cards = tmp_path / "cards.yaml"
    cards.write_text("cards:\n  - {id: quick, name: Quick, type: creature, cost: 2, power: 1000, "
                     "keywords: [Speed Attacker]}\n")
    path.write_text("cards: [cards.yaml]\n" + SICK.replace("Vanilla", "Quick"))
    assert run("explore", path)[0] == 0


CARD = """cards:
  - id: odd
    name: Odd Card
    type: {type}
    cost: 3
    power: 1000
{body}"""


@pytest.mark.parametrize("kind,body,line,words", [
    ("spell", "    effect:\n      - if: {cond: {where: {bound: it, zone: hand}}, do: [{draw: {count: 1}}]}\n", 8,
     ["effect[0].if.cond.where.bound", "'it' is bound by no earlier instruction"]),
    ("spell", "    effect:\n      - if: {cond: {no_shields: own}, do: [{hand_to_deck_bottom: {count: n}}]}\n", 8,
     ["effect[0].if.do[0].hand_to_deck_bottom.count", "'n' is bound by no earlier instruction"]),
    ("creature", "    abilities:\n      - id: enters\n        trigger: enters\n        effect: [{cast_self: {}}]\n", 10,
     ["abilities[0].effect[0].cast_self", "only a declared Attack Chance or Oni End"]),
    ("spell", "    effect: [{cast_self: {}}]\n", 7, ["effect[0].cast_self", "not in the hand"]),
])
def test_a_card_word_that_could_do_nothing_is_refused(tmp_path, kind, body, line, words):
    path = tmp_path / "cards.yaml"
    path.write_text(CARD.format(type=kind, body=body))
    code, _, err = run("cards", path)
    assert code == 2 and f"{path}:{line}:" in err and all(w in err for w in words), err


def test_an_if_inside_its_effect_reads_the_names_bound_around_it(tmp_path):
    path = tmp_path / "cards.yaml"
    path.write_text(CARD.format(type="spell", body="    effect:\n      - deck_top_and_back: {}\n"
                                                 "      - if: {cond: {where: {bound: it, zone: hand}}, do: "
                                                 "[{break_shields: {count: 1, by: it}}]}\n"))
    code, _, err = run("cards", path)
    assert code == 0, err


RULINGS = """statements:
  - id: C1
    source: ME
    date: 2024-06-19
    text: A statement whose order goes round in a circle.
    {order}
"""


@pytest.mark.parametrize("order,line,key", [
    ("order: [shields_chosen < break, break < shield_check, shield_check < shields_chosen]", 6, "order"),
    ("order: [break = shield_check, shield_check < break]", 6, "order"),
    ("order: [last(break) < shield_check, shield_check < first(break)]", 6, "order"),
    ("order: [break < shield_check]\n    order_if: [{when: {nested_other_pending: all}, "
     "order: [shield_check < break]}]", 7, "order_if"),
])
def test_a_statement_whose_own_order_is_a_circle_is_refused_when_read(tmp_path, order, line, key):
    """It was accepted, and the whole corpus ran before Z3 reported it."""
    path = tmp_path / "r.yaml"
    path.write_text(RULINGS.format(order=order))
    code, _, err = run("verify", "--rulings", path, "--max-seconds", "20")
    assert code == 2 and f"{path}:{line}: statements[0].{key}: statement C1@ME" in err, err
    assert "goes round in a circle" in err


def test_orders_that_can_hold_are_no_circle(tmp_path):
    from dmcheck.rulings.corpus import load_corpus
    path = tmp_path / "r.yaml"
    path.write_text(RULINGS.format(order="order: [first(break) < shield_check, shield_check < last(break), "
                                         "shields_chosen < first(break), replacements_decided = replacements_applied]"))
    assert load_corpus(path).statements[0].order


# ---- item 6 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind,text,words", [
    ("scenario", Q09.read_text().replace("expect:\n", "expect: !!str\n"), ["the tag !!str does not fit the list"]),
    ("rulings", "statements: !!str\n  - id: X\n", ["the tag !!str"]),
    ("properties", "properties: !!str\n  - id: x\n", ["the tag !!str"]),
    ("properties", "properties: !!map\n  - id: x\n", ["the tag !!map does not fit the list"]),
])
def test_a_standard_tag_on_a_block_list_is_bad_input(tmp_path, kind, text, words):
    """A traceback (line_of on a node ruamel built without positions)."""
    path = tmp_path / f"{kind}.yaml"
    path.write_text(text)
    argv = {"scenario": ["explore", path], "rulings": ["verify", "--rulings", path],
            "properties": ["check", Q09, "--properties", path]}[kind]
    code, _, err = run(*argv)
    assert code == 2 and err.startswith(f"dmcheck: {path}:") and all(w in err for w in words), err


def test_line_of_keeps_the_parents_line_for_a_node_without_positions():
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    from dmcheck.model.yamlio import line_of
    root = CommentedMap()
    root["x"] = CommentedSeq([1, 2])
    root.lc.add_kv_line_col("x", [4, 0, 4, 3])
    assert line_of(root, ("x", 1)) == 5


@pytest.mark.parametrize("break_it,words", [
    (lambda d: d["scenarios"][0]["nodes"][0]["choices"][0].update(to=9999), "nodes/0/choices/0/to"),
    (lambda d: d["scenarios"][0]["outcomes"][0].update(node=9999), "outcomes/0"),
    (lambda d: d["scenarios"][0]["nodes"][1].update(key="7/7"), "nodes/1/key"),
    (lambda d: d["scenarios"][0]["nodes"][0]["choices"][0].update(index=3), "nodes/0/choices/0/index"),
    (lambda d: d["scenarios"][0]["nodes"][-1].update(outcome=99), "nodes/11/outcome"),
])
def test_a_bundle_whose_references_lead_nowhere_is_bad_input(tmp_path, q09_bundle, break_it, words):
    """A choice pointing at a missing node was an IndexError in the middle of the walk."""
    data = json.loads(q09_bundle.read_text())
    break_it(data)
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(data))
    engine = f"{sys.executable} {ENGINES / 'correct.py'} {path}"
    code, out, err = run("conform", "--engine", engine, "--bundle", path)
    assert code == 2 and f"{path}: scenarios/0/{words}" in err, err
