"""Discoverable vocabulary: `dmcheck cards` (the pool, a card file's cards, --words), "did you mean" for
triggers, milestones and formula constants, and several mistakes of one file reported together.

What must be listed is read independently here: the card words from the instruction registry, the
triggers, replacements and keywords from model/vocabulary.py, the pool from model/data/cards.yaml.
"""

from __future__ import annotations

import io

from conftest import ROOT, output

from dmcheck.main import main
from dmcheck.model.errors import MAX_REPORTED
from dmcheck.model.instructions import card_words
from dmcheck.model.vocabulary import KEYWORDS, REPLACES, TRIGGERS
from dmcheck.model.yamlio import load_yaml


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def test_words_lists_every_card_word_with_its_arguments_and_every_trigger():
    code, out, _ = run("cards", "--words", "--json")
    words = output(out)["words"]
    assert code == 0
    registry = card_words()
    assert [w["word"] for w in words["instructions"]] == list(registry)
    for w in words["instructions"]:
        spec = registry[w["word"]]
        assert [a["name"] for a in w["arguments"]] == list(spec["properties"])
        assert {a["name"] for a in w["arguments"] if a["required"]} == set(spec.get("required", []))
    assert [w["word"] for w in words["triggers"]] == list(TRIGGERS)
    assert [w["word"] for w in words["replacements"]] == list(REPLACES)
    assert [w["word"] for w in words["keywords"]] == list(KEYWORDS)
    code, text, _ = run("cards", "--words")
    cast_free = text.split("\n  cast_free: ", 1)[1].split("\n  ", 1)[1]
    assert cast_free.startswith("    from (required): a list of (hand or graveyard)")
    assert all(f"\n  {t}: " in text for t in (*TRIGGERS, *REPLACES, *registry))


def test_cards_lists_the_pool_and_a_card_files_cards():
    pool = load_yaml(ROOT / "model" / "data" / "cards.yaml")["cards"]
    code, out, _ = run("cards", "--json")
    listed = output(out)["cards"]
    assert code == 0 and sorted(c["id"] for c in listed) == sorted(c["id"] for c in pool)
    kakumeijin = next(c for c in listed if c["id"] == "kakumeijin")
    assert kakumeijin["abilities"][0]["trigger"] == "before_break" and kakumeijin["file"] == "built-in"
    card_file = ROOT / "scenarios" / "rulings" / "cards" / "rulings.yaml"
    own = load_yaml(card_file)["cards"]
    code, out, _ = run("cards", str(card_file))
    lines = out.splitlines()
    assert code == 0 and lines[-1].startswith(f"{len(own)} cards of {card_file}")
    assert {line.split(" (")[0] for line in lines if not line.startswith(" ")} >= {c["name"] for c in own}
    # a scenario stands for the card files it names
    scenario = ROOT / "scenarios" / "rulings" / "Q11e_cannot_be_broken.yaml"
    assert run("cards", str(scenario))[1] == out


def test_did_you_mean_for_a_trigger_a_milestone_and_a_formula_constant(tmp_path):
    cards = tmp_path / "cards.yaml"
    cards.write_text("cards:\n  - id: mine\n    name: Mine\n    type: creature\n    cost: 3\n    abilities:\n"
                     "      - id: a\n        trigger: before_brak\n        effect: [{draw: {count: 1}}]\n")
    code, _, err = run("cards", str(cards))
    assert code == 2 and f"{cards}:8: cards[0].abilities[0].trigger" in err and "did you mean 'before_break'" in err
    rulings = tmp_path / "rulings.yaml"
    rulings.write_text("statements:\n  - id: Z1\n    source: ME\n    date: 2024-01-10\n"
                       "    text: A made-up statement whose order names a misspelt milestone.\n"
                       "    order: [before_break_resolved < brak]\n")
    code, _, err = run("verify", "--rulings", str(rulings), "--summary")
    assert code == 2 and f"{rulings}:6:" in err and "did you mean 'break'" in err
    props = tmp_path / "props.yaml"
    props.write_text("properties:\n  - id: p\n    text: x\n    citations: [D0]\n    kind: always\n"
                     "    over: states\n    formula: (= winner nobdy)\n")
    code, _, err = run("check", "--list", "--properties", str(props))
    assert code == 2 and f"{props}:7:" in err and "did you mean 'nobody'" in err


def test_the_mistakes_of_one_file_are_reported_together(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: several mistakes\nturn: C\nplayers:\n  A:\n    battle: [Kakumeijin]\n"
                   "    hnd: [Winter Spiral]\n    mana: five\n  B:\n    shields: -1\n"
                   "attack: {attacker: Kakumeijin, playr: B}\n")
    code, out, err = run("explore", str(bad), "--json")
    lines = [(e["line"], e["message"].split(":")[0]) for e in output(out)["errors"]]
    assert code == 2 and lines == [(2, "turn"), (6, "players.A.hnd"), (7, "players.A.mana"),
                                   (9, "players.B.shields"), (10, "attack.playr")]
    assert err.count("dmcheck: ") == 5 and all(f"{bad}:{n}:" in err for n, _ in lines)
    # the cards a scenario names: every unknown one at once, each at its line
    bad.write_text("name: unknown cards\nturn: A\nplayers:\n  A:\n    battle: [Kakumeijn]\n"
                   "    hand: [Winter Spiral, Boil Chargr]\n  B:\n    shields: [Vanila, Vanilla]\n"
                   "attack: {attacker: Kakumeijin, player: B}\n")
    code, _, err = run("explore", str(bad))
    assert code == 2 and [line.split(":")[2] for line in err.splitlines()] == ["5", "6", "8"]
    # a file with more mistakes than are listed says how many more
    many = "\n".join(f"  - {{always: {{bogus{i}: 1}}}}" for i in range(MAX_REPORTED + 5))
    bad.write_text("name: many\nturn: A\nattack: {attacker: Kakumeijin, player: B}\n"
                   "players: {A: {battle: [Kakumeijin]}}\nexpect:\n" + many + "\n")
    code, _, err = run("explore", str(bad))
    assert code == 2 and err.count("\n") == MAX_REPORTED + 1 and "and 5 more mistakes" in err
