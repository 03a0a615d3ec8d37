"""Every mistake of a file in one run: a scenario, card, rulings, properties and sweep file with five
independent mistakes each gets five lines, each naming its line and key, and exit 2 (issue 38).

Each file below is written with five mistakes that do not depend on one another (fixing one would not
fix or reveal another), of different kinds: a schema mistake (a wrong key, type or value), a name that
refers to nothing (a card, a milestone, an open choice), a value the format cannot read.
"""

from __future__ import annotations

import io
import re

from dmcheck.main import main
from dmcheck.model.errors import MAX_REPORTED, InputError, raise_all

SCENARIO = """\
name: five mistakes
rules: 2024-06-19
turn: A
players:
  A:
    battle: [Kakumeijin]
    hand: [Boil Chargr]
    mana: -5
  B:
    battle: [The Wach]
    shields: 2
attack: {attacker: Kakumeijin, player: C}
expect:
  - never: {turn_skiped: true, shields_broken: 1}
"""

CARDS = """\
cards:
  - {id: one, name: One, type: creature, cost: 3, power: 1000, keywords: [Blockr]}
  - {id: two, name: Two, type: creature, cost: -1, power: 1000}
  - id: three
    name: Three
    type: spell
    cost: 2
    effect:
      - {drawz: {count: 1}}
  - id: four
    name: Four
    type: creature
    cost: 2
    power: 2000
    abilities:
      - {id: go, trigger: enters, effect: [{destroy: {target: it}}]}
  - {id: five, name: Kakumeijin, type: creature, cost: 4, power: 1000}
"""

RULINGS = """\
statements:
  - {id: X1, source: JUDGE, date: someday, text: A statement with a date that is none., unchecked: why}
  - {id: X2, source: JUDGE, date: 2024-01-01, text: short, unchecked: why}
  - id: X3
    source: JUDGE
    date: 2024-01-01
    text: A statement with a misspelt milestone.
    order: [shields_chosen < brek]
  - id: X4
    source: JUDGE
    date: 2024-01-01
    text: A statement with a reading no choice has.
    order_if:
      - when: {nested_other_pending: some}
        order: [shields_chosen < break]
  - {id: X5, source: JUDGE, date: 2024-01-01, text: A statement whose scenario is missing., scenarios: [nowhere.yaml]}
"""

PROPERTIES = """\
properties:
  - {id: p1, text: a kind misspelt, citations: [R1], kind: alwayz, over: states, formula: (= winner nobody)}
  - {id: p2, text: a fact misspelt, citations: [R1], kind: always, over: states, formula: (= winnerr nobody)}
  - {id: p3, text: a date that is none, citations: [R1], kind: always, over: states, rules: {since: sometime},
     formula: (= winner nobody)}
  - {id: p4, text: a card that no label reads, citations: [R1], kind: always, over: states,
     formula: (= (zone |kakumeijin|) zone_hand)}
  - {id: p5, text: an unknown key, citations: [R1], kind: always, over: states, formula: (= winner nobody),
     colour: blue}
"""

SWEEP = """\
name: five mistakes in a template
rules: 2024-06-19
turn: A
players:
  A: {battle: [Kakumeijin], mana: 5}
  B: {shields: 2, battle: [The Wach]}
attack: {attacker: Kakumeijin, player: B}
vary:
  A.hand: {from: [Boil Charger, Winter Spirl], size: [0, 2], distinct: true}
  B.shields: {from: [Vanilla], size: [3, 1]}
  C.mana: {from: [Vanilla], size: [0, 1]}
compare: {interpretation: nested_other_pendin}
"""

LINE = re.compile(r"^dmcheck: (?P<file>[^:]+):(?P<line>\d+): (?P<key>[^:]+): ")


def _run(argv: list[str]) -> tuple[int, list[str]]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, out=out, err=err)
    return code, err.getvalue().splitlines()


def _five(code: int, lines: list[str], file: str, keys: list[str]) -> None:
    """Exit 2 and exactly one line per mistake, in the file's order, each at its key."""
    assert code == 2, lines
    assert len(lines) == 5, "\n".join(lines)
    found = [LINE.match(line) for line in lines]
    assert all(m is not None and m["file"].endswith(file) for m in found), lines
    assert [m["key"] for m in found if m] == keys, lines
    numbers = [int(m["line"]) for m in found if m]
    assert numbers == sorted(numbers)


def test_a_scenario_with_five_mistakes_gets_five_lines(tmp_path):
    (tmp_path / "five.yaml").write_text(SCENARIO, encoding="utf-8")
    code, lines = _run(["explore", str(tmp_path / "five.yaml")])
    _five(code, lines, "five.yaml", ["players.A.hand[0]", "players.A.mana", "players.B.battle[0]", "attack.player",
                                     "expect[0].never.turn_skiped"])
    assert "did you mean 'Boil Charger'" in lines[0] and "did you mean 'The Watch'" in lines[2]


def test_a_card_file_with_five_mistakes_gets_five_lines(tmp_path):
    (tmp_path / "cards.yaml").write_text(CARDS, encoding="utf-8")
    (tmp_path / "uses.yaml").write_text("name: uses the cards\nturn: A\ncards: [cards.yaml]\n"
                                        "players: {A: {battle: [Kakumeijin]}}\n"
                                        "attack: {attacker: Kakumeijin, player: B}\n", encoding="utf-8")
    code, lines = _run(["explore", str(tmp_path / "uses.yaml")])
    _five(code, lines, "cards.yaml", ["cards[0].keywords[0]", "cards[1].cost", "cards[2].effect[0]",
                                      "cards[3].abilities[0].effect[0].destroy.target", "cards[4]"])
    assert "already belongs to card 'kakumeijin'" in lines[4]


def test_a_rulings_file_with_five_mistakes_gets_five_lines(tmp_path):
    (tmp_path / "rulings.yaml").write_text(RULINGS, encoding="utf-8")
    code, lines = _run(["verify", "--rulings", str(tmp_path / "rulings.yaml"), "--jobs", "1"])
    _five(code, lines, "rulings.yaml", ["statements[0].date", "statements[1].text", "statements[2].order[0]",
                                        "statements[3].order_if[0].when.nested_other_pending",
                                        "statements[4].scenarios[0]"])


def test_a_properties_file_with_five_mistakes_gets_five_lines(tmp_path):
    (tmp_path / "props.yaml").write_text(PROPERTIES, encoding="utf-8")
    code, lines = _run(["check", "scenarios/rulings/Q09_the_watch.yaml", "--properties", str(tmp_path / "props.yaml")])
    _five(code, lines, "props.yaml", ["properties[0].kind", "properties[1].formula", "properties[2].rules.since",
                                      "properties[3].formula", "properties[4].colour"])


def test_a_sweep_template_with_five_mistakes_gets_five_lines(tmp_path):
    (tmp_path / "sweep.yaml").write_text(SWEEP, encoding="utf-8")
    code, lines = _run(["sweep", str(tmp_path / "sweep.yaml"), "--db", str(tmp_path / "sweep.sqlite")])
    _five(code, lines, "sweep.yaml", ["players.B.battle[0]", "vary.A.hand.from[1]", "vary.B.shields.size",
                                      "vary.C.mana", "compare.interpretation"])


def test_the_mistakes_past_the_cap_are_counted_per_file():
    errors = [InputError("a.yaml", n, f"k{n}", "wrong") for n in range(MAX_REPORTED + 3, 0, -1)]
    errors += [InputError("b.yaml", 1, "k", "wrong"), InputError("a.yaml", 2, "k2", "wrong")]   # once only
    try:
        raise_all(errors)
    except InputError as exc:
        lines = [str(e) for e in exc.all()]
    assert lines[:2] == ["a.yaml:1: k1: wrong", "a.yaml:2: k2: wrong"]
    assert lines[MAX_REPORTED] == f"a.yaml: and 3 more mistakes (the first {MAX_REPORTED} are listed)"
    assert lines[MAX_REPORTED + 1:] == ["b.yaml:1: k: wrong"]
