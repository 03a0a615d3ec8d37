"""The rest of the game an attack touches: power and battles, attack and block triggers, hidden-zone
uses at other times, ignored abilities, conditional clauses, the deck, attack legality, loops; the coverage
report; and the bad input of these features (exit 2 with the file, the line and what is allowed).

Each scenario's own `expect` (written from its source) is checked by tests/test_attack.py with the other
scenarios of scenarios/attack/; here the mechanics are checked one by one on small positions, the reduced
search against the full one on every scenario listed in TOUCH, and the commands.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from conftest import DATA, ROOT, output

from dmcheck.explorer.bfs import explore
from dmcheck.main import main
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check, observer

ATTACK = ROOT / "scenarios" / "attack"
TOUCH = sorted(p for p in ATTACK.glob("*.yaml") if p.name[:2] in ("PW", "TR", "HZ", "IG", "CN", "EW", "DK", "LG", "LP"))
CARDS = "cards: [" + str(ATTACK / "cards" / "touch.yaml") + "]\n"


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def graph(path: Path, **kw):
    scenario = load_scenario(path)
    model = BreakModel(scenario)
    return scenario, model, explore(model, **kw)


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "s.yaml"
    path.write_text("name: a test position\n" + CARDS + body, encoding="utf-8")
    return path


def events(g) -> list[list]:
    return [list(g.trace(node).events()) for node in g.terminals]


# ---- power and battles (item 1) ---------------------------------------------------------------------------
def test_the_issue_has_sixty_statements_most_posed_and_a_scenario_for_each_feature():
    from dmcheck.rulings.corpus import builtin_corpus
    mine = [s for s in builtin_corpus().statements if s.file.endswith("touch.yaml")]
    assert len(mine) >= 60 and sum(1 for s in mine if s.scenarios) >= 55
    assert {s.feature for s in mine} == {"power", "triggers", "hidden", "ignore", "conditions", "deck",
                                         "legality", "loops"}
    # the scenarios of issue 35's rules (scenarios/corpus.d/right_answers.yaml) share these folders' prefixes
    later = [s for s in builtin_corpus().statements if s.file.endswith("right_answers.yaml")]
    used = {p.name for s in mine + later for p in s.scenarios}
    assert {p.name for p in TOUCH} <= used


def test_power_zero_is_destroyed_before_the_next_step_and_power_changes_leave_with_the_creature(tmp_path):
    _, model, g = graph(ATTACK / "PW01_power_zero_destroyed_at_once.yaml")
    for trace in events(g):
        kinds = [e.kind for e in trace]
        if "power_zero" in kinds:   # the destruction follows the change at once, in the same step
            i = kinds.index("power")
            assert kinds[i + 1:i + 3] == ["power_zero", "destroy"]
    for node in g.terminals:
        assert not g.state(node).powers   # the creature left: its change went with it


def test_the_rules_era_decides_slayer():
    import datetime as dt

    from dmcheck.model.rules import version_on
    assert not version_on(dt.date(2004, 6, 25)).slayer_any_battle
    assert version_on(dt.date(2004, 6, 26)).slayer_any_battle


def test_an_effect_battle_triggers_win_and_lose_like_the_attacks(tmp_path):
    path = write(tmp_path, """turn: A
players:
  A:
    battle: [Vanilla]
  B:
    battle: [Good Winner Probe]
    shields: [Battle Order Probe]
attack: {attacker: Vanilla, player: B}
""")
    _, _, g = graph(path)
    outs = [o for o, _, _ in g.outcomes()]
    assert any(o["uses"].get("Good Winner Probe/win") == 1 and o["graveyard"]["A"] == ["Vanilla"] for o in outs)


# ---- blocks and triggers (item 2) ---------------------------------------------------------------------------
def test_evasion_reads_the_blockers_power_and_must_block_removes_the_choice_not_to(tmp_path):
    _, model, g = graph(ATTACK / "TR03_evasion_by_power_then.yaml")
    assert not any(o["blocked"] for o, _, _ in g.outcomes())
    _, model, g = graph(ATTACK / "TR05_must_block_if_able.yaml")
    assert all(o["blocked"] for o, _, _ in g.outcomes())
    # every block offered uses Must Block Probe's Blocker, first or last (several Blockers, R507.1a)
    offered = [a for node in range(len(g.states)) for a in model.actions(g.states[node]) if a.kind in
               ("block", "no_block")]
    assert offered and all(any(model.label(c) == "Must Block Probe" for c in a.choice) for a in offered)


def test_an_ignored_creature_keeps_no_keyword_and_triggers_nothing():
    _, model, g = graph(ATTACK / "IG02_ignored_when_destroyed_triggers_nothing.yaml")
    assert all(e.get("ability") != "Last Word Probe/last_word" for trace in events(g) for e in trace)


# ---- hidden-zone uses (item 3) --------------------------------------------------------------------------------
def test_kirifu_dash_is_declared_at_the_end_of_the_attack_by_the_rule_r510():
    _, _, g = graph(ATTACK / "HZ07_kirifu_dash_after_a_break.yaml")
    declares = [e for trace in events(g) for e in trace if e.kind == "declare"]
    assert declares and all(e.rule == "R510" and e.get("ability") == "Kirifu Dash" for e in declares)


# ---- conditions and bonuses (item 5) ---------------------------------------------------------------------------
def test_the_s_trigger_plus_reading_is_consulted_only_where_it_matters():
    from dmcheck.rulings.operational import Runner, default_combo
    runner = Runner()
    run_plus = runner.run(ATTACK / "CN04_s_trigger_plus_two_broken.yaml", None, default_combo())
    assert "s_trigger_plus_count" in run_plus.consulted
    run_other = runner.run(ATTACK / "PW01_power_zero_destroyed_at_once.yaml", None, default_combo())
    assert "s_trigger_plus_count" not in run_other.consulted


# ---- attack legality (item 7) --------------------------------------------------------------------------------
def test_the_legal_attacks_of_a_position(tmp_path):
    path = write(tmp_path, """turn: A
players:
  A:
    battle: [{card: Vanilla W-breaker, summoned: true}, Speedy Probe, Creature Hunter Probe, Wall Probe]
  B:
    battle: [{card: Vanilla, tapped: true}]
attack: {choose: true}
""")
    scenario = load_scenario(path)
    model = BreakModel(scenario)
    s = model.initial_state()
    pairs = {(model.label(a), model.label(t) if t >= 0 else "B") for a, t in model.legal_attacks(s)}
    assert {(a, t.partition("#")[0]) for a, t in pairs} == {("Speedy Probe", "B"), ("Speedy Probe", "Vanilla"),
                                                            ("Creature Hunter Probe", "Vanilla")}
    texts = [a.text for a in model.actions(s)]
    assert texts[-1] == "A does not attack"


def test_no_attack_ends_the_exploration_without_a_declaration():
    _, _, g = graph(ATTACK / "LG03b_must_attack_but_sick.yaml")
    assert any([e.kind for e in trace] == ["no_attack"] for trace in events(g))


# ---- reduction, symmetry and the properties stay sound on these scenarios --------------------------------------
@pytest.mark.parametrize("path", TOUCH, ids=[p.stem for p in TOUCH])
def test_reduced_search_has_the_same_outcomes_and_verdicts(path):
    scenario, model, full = graph(path)
    reduced = explore(model, reduce=True, observe=observer(scenario.expect))
    outs = lambda g: {json.dumps(o, sort_keys=True) for o, _, _ in g.outcomes()}   # noqa: E731
    assert outs(full) == outs(reduced)
    for item in scenario.expect:
        assert check(full, item).verdict == check(reduced, item).verdict, item.raw


def test_the_issue_s_properties_hold_on_its_scenarios():
    code, out, _ = run("check", *map(str, TOUCH), "--json", "--property", "power-zero-destroyed-at-once",
                       "--property", "turn-effects-end-with-the-turn")
    doc = output(out)
    verdicts = {p["verdict"] for sc in doc["scenarios"] for p in sc["properties"]}
    assert verdicts == {"holds"} and code == 0


# ---- the coverage report ---------------------------------------------------------------------------------------
def test_coverage_of_one_feature_text_and_json():
    code, out, _ = run("coverage", "--feature", "legality")
    assert code == 0 and "legality" in out and "100%" in out
    code, out, _ = run("coverage", "--feature", "hidden", "--json")
    doc = output(out)
    (feature,) = doc["features"]
    assert feature["feature"] == "hidden" and feature["posed"] == feature["hold"] == feature["statements"]
    assert doc["totals"]["not_posed"] == 0


def test_coverage_refuses_an_unknown_feature():
    code, _, err = run("coverage", "--feature", "powr")
    assert code == 2 and "did you mean 'power'" in err


# ---- bad input of these features: exit 2 with the file, the line and what is allowed --------------------------
BAD = DATA / "bad" / "corpus"


@pytest.mark.parametrize("name,line,words", [
    ("power_not_a_number.yaml", 7, ["power", "whole number"]),
    ("choose_no_legal_attack.yaml", 8, ["no legal attack", "summoning sickness"]),
])
def test_bad_scenarios(name, line, words):
    path = BAD / "scenario" / name
    code, _, err = run("explore", str(path))
    assert code == 2 and f"{path}:{line}:" in err and "Traceback" not in err
    assert all(w in err for w in words), err


@pytest.mark.parametrize("name,line,words", [
    ("power_amount_not_a_number.yaml", 7, ["power.amount", "whole number"]),
    ("spell_is_attacked.yaml", 8, ["cannot have the trigger 'attacked'"]),
    ("kirifu_dash_from_graveyard.yaml", 10, ["used from the hand"]),
])
def test_bad_cards(name, line, words, tmp_path):
    card_file = BAD / "cards" / name
    wrapper = tmp_path / "w.yaml"
    wrapper.write_text(f"name: w\ncards: [{card_file}]\nturn: A\nplayers:\n  A:\n    battle: [Kakumeijin]\n"
                       "attack: {attacker: Kakumeijin, player: B}\n", encoding="utf-8")
    code, _, err = run("explore", str(wrapper))
    assert code == 2 and f"{card_file}:{line}:" in err and all(w in err for w in words), err
