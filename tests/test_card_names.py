"""Cards named in formulas: `|Kakumeijin|` and `|Vanilla#2|` (SMT-LIB quoted symbols of sort Card,
the labels of model/table.py), and `dmcheck check --list FILE` listing them per scenario."""

from __future__ import annotations

import io

import pytest
from conftest import DATA, RULINGS

from dmcheck.main import main
from dmcheck.model.errors import InputError
from dmcheck.properties.checker import HOLDS, VIOLATED, check
from dmcheck.properties.property_file import load_properties
from dmcheck.properties.symbols import FormulaError, Vocabulary, parse, quoted_names

Q06 = str(next(p for p in RULINGS if p.name.startswith("Q06")))


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def write(tmp_path, *props: tuple[str, str, str, str]) -> str:
    """A property file: (id, kind, over, formula) each."""
    lines = ["properties:"]
    for pid, kind, over, formula in props:
        lines += [f"  - id: {pid}", "    text: t.", "    citations: [Q06]", f"    kind: {kind}",
                  f"    over: {over}", f"    formula: '{formula}'"]
    file = tmp_path / "cards.yaml"
    file.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(file)


def test_a_quoted_label_is_that_card():
    v = Vocabulary(["Kakumeijin", "Homing Drake", "Vanilla#1", "Vanilla#2"], positions=2)
    assert parse(v, "states", "(= (zone_of |Homing Drake|) hand)").arg(0).arg(0).eq(v.cards[1])
    assert parse(v, "states", "(= |Vanilla#2| |Vanilla#2|)").arg(0).eq(v.cards[3])
    with pytest.raises(FormulaError, match="unknown constant Vanilla#3"):
        parse(v, "states", "(= (zone_of |Vanilla#3|) hand)")
    # quoted fact names and zone values are not cards
    assert quoted_names("(and (= (zone_of |Homing Drake|) |hand|) (> |depth| 0))", "states") == ["Homing Drake"]
    assert quoted_names("(and (= (pre.zone_of |Kakumeijin|) hand) (> |post.depth| 0))", "transitions") == ["Kakumeijin"]


def test_formulas_naming_cards_are_checked_on_q06(tmp_path, ruling):
    scenario, model, graph = ruling("Q06")
    # B's two shields: the ones the attack chooses; Q06 (S000 Q&A 2023-09-15): both still break
    shields = [i.label for i in model.instances if i.id in model.initial_state().zone("B").shields]
    assert len(shields) == 2 and all("#" in s for s in shields)
    file = write(tmp_path,
                 # Q06: Winter Spiral may return the attacking Kakumeijin to the hand ...
                 ("kakumeijin-may-return", "sometimes", "outcomes", "(= (zone_of |Kakumeijin|) hand)"),
                 # ... so it does not always stay in the battle zone
                 ("kakumeijin-stays", "always", "outcomes", "(= (zone_of |Kakumeijin|) battle)"),
                 ("chosen-shields-reach-hand", "always", "outcomes",
                  f"(and (= (zone_of |{shields[0]}|) hand) (= (zone_of |{shields[1]}|) hand))"),
                 ("drake-absent", "always", "states", "(= (zone_of |Homing Drake|) hand)"))
    props = load_properties(file)
    assert props[0].cards == ("Kakumeijin",) and props[2].cards == tuple(shields)
    result = check(graph, props)
    by_id = {v.property.id: v.verdict for v in result.verdicts}
    assert by_id == {"kakumeijin-may-return": HOLDS, "kakumeijin-stays": VIOLATED,
                     "chosen-shields-reach-hand": HOLDS}
    (absent, why), = [(p, w) for p, w in result.not_applicable if p.id == "drake-absent"]
    assert "|Homing Drake|" in why and "--list" in why


def test_an_unquoted_unknown_name_is_refused_at_its_line(tmp_path):
    file = write(tmp_path, ("p", "always", "states", "(= (zone_of Kakumeijin) hand)"))
    with pytest.raises(InputError) as err:
        load_properties(file)
    assert err.value.line == 7 and "unknown constant Kakumeijin" in str(err.value)
    assert "|Kakumeijin|" in str(err.value)   # the message says how a card is written


def test_check_runs_a_card_formula_from_the_command_line(tmp_path):
    file = write(tmp_path, ("kakumeijin-stays", "always", "outcomes", "(= (zone_of |Kakumeijin|) battle)"))
    code, out, _ = run("check", Q06, "--properties", file, "--property", "kakumeijin-stays")
    assert code == 1 and "FAIL kakumeijin-stays" in out


def test_list_shows_the_card_names_of_each_file(ruling):
    _, model, _ = ruling("Q06")
    code, out, _ = run("check", "--list", Q06)
    assert code == 0
    listed = [line.strip().split(" : ", 1)[0] for line in out.splitlines() if line.startswith("  |")]
    assert listed == [f"|{i.label}|" for i in model.instances]
    assert "|Kakumeijin|" in listed and "|Winter Spiral|" in listed
    assert f"cards of {Q06}" in out


def test_list_with_a_bad_file_is_bad_input():
    code, out, err = run("check", "--list", str(DATA / "no_such_file.yaml"))
    assert code == 2 and "no_such_file.yaml" in err and "properties:" in out
