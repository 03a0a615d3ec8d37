"""The hidden-zone declarations at an attack: Revolution Change, Invasion and
Ninja Change (model/declarations.py, model/instructions/declaring.py).

Each expected value below is read off the ruling (A03-A08, A23; their sources are declared in
scenarios/corpus.d/declare.yaml), not off the program: who may declare what and when, what a resolved
declaration does to the zones, and which reading of `invasion_condition_rechecked` makes Red Zone fail
on top of Onsoku Gatling.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from conftest import ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.model.errors import InputError
from dmcheck.model.piles import under
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

ATTACK = ROOT / "scenarios" / "attack"


def _write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _graph(path: Path, readings=None):
    scenario = load_scenario(path)
    model = BreakModel(scenario, readings) if readings else BreakModel(scenario)
    graph = explore(model)
    assert graph.complete
    return model, graph


def _traces(graph):
    return [graph.trace(node).events() for node in graph.terminals]


def _tp_choices(model, graph) -> list[tuple[str, ...]]:
    """Every set of declarations the turn player is offered, as card labels."""
    out = []
    for s in graph.states:
        for a in model.actions(s):
            if a.kind == "tp_declare":
                out.append(tuple(sorted(model.label(c) for c in a.choice)))
    return out


def _state(player_a: str, player_b: str = "    shields: 1", attack: str = "", extra: str = "") -> str:
    return (f"name: x\nrules: 2024-06-19\nturn: A\n{extra}players:\n  A:\n{player_a}\n  B:\n{player_b}\n"
            f"attack: {attack}\n")


# ---- the window (A03, A05) ----------------------------------------------------------------------
def test_a_card_returned_to_the_hand_by_the_attack_trigger_is_never_offered():
    # A03: Dogiragon Ken reaches the hand only while Stegoro Kaiser's attack trigger resolves
    model, graph = _graph(ATTACK / "A03_revolution_change_only_from_hand_at_trigger.yaml")
    assert _tp_choices(model, graph) == []
    assert all("Dogiragon Ken" not in model.outcome(graph.state(n))["battle"]["A"] for n in graph.terminals)


def test_declarations_come_before_any_resolution_and_a_drawn_card_is_too_late():
    # A05: Onsoku Gatling (in the hand at the trigger) may be declared, Red Zone (drawn by the trigger) not
    model, graph = _graph(ATTACK / "A05w_declaration_window_closes.yaml")
    assert sorted(set(_tp_choices(model, graph))) == [("Onsoku Gatling",)]
    for events in _traces(graph):
        kinds = [e.kind for e in events]
        declares = [i for i, e in enumerate(events) if e.kind == "declare"]
        if "resolve" in kinds and declares:
            assert max(declares) < kinds.index("resolve")


def test_the_attacker_must_meet_the_condition_at_the_declaration(tmp_path):
    # Dogiragon Ken changes only from a fire or nature Dragon of cost 5 or more: not from The Red
    path = _write(tmp_path, _state("    battle: [The Red]\n    hand: [Dogiragon Ken, Red Zone]",
                                   attack="{attacker: The Red, player: B}"))
    model, graph = _graph(path)
    assert sorted(set(_tp_choices(model, graph))) == [("Red Zone",)]


def test_at_most_one_revolution_change_but_several_invasions(tmp_path):
    # A23 (one Revolution Change per attack) and A06 (several Invasions per attack)
    path = _write(tmp_path, _state("    battle: [Mega Spear Dragon]\n    hand: [Dogiragon Ken, Boskatsu]",
                                   attack="{attacker: Mega Spear Dragon, player: B}"))
    model, graph = _graph(path)
    assert sorted(set(_tp_choices(model, graph))) == [("Boskatsu",), ("Dogiragon Ken",)]
    model, graph = _graph(ATTACK / "A06_several_invasions_not_rechecked.yaml")
    assert ("Onsoku Gatling", "Red Zone") in _tp_choices(model, graph)


# ---- what a resolved declaration does (A04, A06, A23) ---------------------------------------------
def test_revolution_change_swaps_the_attacker_and_keeps_the_target():
    # A23: Dogiragon Ken (13000) fights the tapped Vanilla T-breaker (8000) the Mega Spear Dragon attacked
    model, graph = _graph(ATTACK / "A23_revolution_change_keeps_attacking.yaml")
    for events in _traces(graph):
        declared = any(e.kind == "declare" for e in events)
        (battle,) = [e for e in events if e.kind == "battle"]
        assert battle.get("against") == "Vanilla T-breaker"
        assert battle.get("card") == ("Dogiragon Ken" if declared else "Mega Spear Dragon")
        assert battle.get("winner") == ("Dogiragon Ken" if declared else "Vanilla T-breaker")


def test_the_old_attackers_pending_trigger_still_resolves_after_the_change():
    # A04 / A23: Stegoro Kaiser is back in the hand, its attack trigger was already waiting
    model, graph = _graph(ATTACK / "A04_revolution_change_and_attack_trigger_any_order.yaml")
    changed_first = 0
    for events in _traces(graph):
        resolves = [e.get("ability") for e in events if e.kind == "resolve"]
        assert resolves.count("Stegoro Kaiser/attack_mana") == 1
        if resolves and resolves[0] == "Dogiragon Ken/revolution_change":
            changed_first += 1
            # the entering ability of Dogiragon Ken triggered and resolved too
            assert "Dogiragon Ken/final_revolution" in resolves
    assert changed_first >= 2   # Final Revolution before and after Stegoro's trigger


def test_invasion_stacks_the_cards_under_the_new_top():
    # A06: The Red, then Gatling on it, then Red Zone on Gatling: Red Zone attacks, both others are under it
    model, graph = _graph(ATTACK / "A06_several_invasions_not_rechecked.yaml")
    found = 0
    for node in graph.terminals:
        s = graph.state(node)
        z = s.zone("A")
        if [model.label(c) for c in z.battle] == ["Red Zone"] and not z.hand:
            found += 1
            top = z.battle[0]
            assert s.attacker == top
            # top to bottom (model/piles.py keeps the sources as a chain): Gatling, then The Red under it
            assert [model.label(c) for c in under(z, top)] == ["Onsoku Gatling", "The Red"]
            assert sorted(model.label(c) for c in z.attached) == ["Onsoku Gatling", "The Red"]
            # Red Zone's entering ability destroyed B's only creature
            assert not s.zone("B").battle
    assert found


def test_the_rechecked_reading_makes_red_zone_fail_on_gatling():
    # D-2: under `invasion_condition_rechecked=yes` Red Zone, resolving after Gatling (no fire Command), does nothing
    from dmcheck.model.readings import Readings
    path = ATTACK / "A06r_invasion_rechecked_reading.yaml"
    model, graph = _graph(path, Readings.make({"invasion_condition_rechecked": "yes"}))
    for events in _traces(graph):
        puts = [e.get("card") for e in events if e.kind == "put" and e.get("onto")]
        assert puts != ["Onsoku Gatling", "Red Zone"]
    model, graph = _graph(path, Readings.make({"invasion_condition_rechecked": "no"}))
    assert any([e.get("card") for e in events if e.kind == "put" and e.get("onto")] == ["Onsoku Gatling", "Red Zone"]
               for events in _traces(graph))


# ---- Ninja Change (A08) ---------------------------------------------------------------------------
def test_ninja_change_fails_after_a_ninja_strike_and_works_before_it():
    model, graph = _graph(ATTACK / "A08_ninja_change_before_ninja_strike.yaml")
    both_first, strike_first = 0, 0
    for events in _traces(graph):
        resolves = [e.get("ability") for e in events if e.kind == "resolve"]
        put = [e.get("card") for e in events if e.kind == "put" and e.get("from") == "hand"]
        if "Kunoichi Mantra/ninja_change" in resolves and "Hayabusamaru/ninja_strike" in resolves:
            if resolves.index("Kunoichi Mantra/ninja_change") < resolves.index("Hayabusamaru/ninja_strike"):
                both_first += "Kunoichi Mantra" in put and "Hayabusamaru" in put
            else:
                strike_first += 1
                assert "Kunoichi Mantra" not in put
    assert both_first and strike_first


def test_the_non_turn_player_may_declare_a_ninja_change_with_a_ninja_strike():
    model, graph = _graph(ATTACK / "A08_ninja_change_before_ninja_strike.yaml")
    offered = {tuple(model.label(c) for c in a.choice) for s in graph.states for a in model.actions(s)
               if a.kind == "ninja_declare"}
    assert offered == {("Kunoichi Mantra",), ("Hayabusamaru",), ("Kunoichi Mantra", "Hayabusamaru")}


def test_a_lone_ninja_strike_is_offered_as_before():
    # the Ninja Strike scenarios of scenarios/attack/ keep their single declarations and their texts
    model, graph = _graph(ATTACK / "A07_ninja_strike_after_tp.yaml")
    texts = {a.text for s in graph.states for a in model.actions(s) if a.kind == "ninja_declare"}
    assert texts == {"B declares Ninja Strike of Hayabusamaru"}


# ---- bad input ------------------------------------------------------------------------------------
CARD = """cards:
  - id: test_change
    name: Test Change
    type: creature
    cost: 8
    power: 13000
    abilities:
      - id: change
        trigger: {trigger}
        effect:
          - {effect}
"""


@pytest.mark.parametrize("trigger,effect,key,hint", [
    ("revolution_change", "revolution_change: {any_of: Fire}", "revolution_change.any_of", "expected a list"),
    ("invasion", "invade: {colour: [Fire]}", "invade.colour", "all_of, any_of, cost_min"),
    ("invasion", "invade: {cost_min: -1}", "invade.cost_min", ">= 0"),
    ("revolution_change", "draw: {count: 1}", "abilities[0].effect", "revolution_change"),
])
def test_a_malformed_condition_names_the_line_and_what_is_allowed(tmp_path, trigger, effect, key, hint):
    cards = _write(tmp_path, CARD.format(trigger=trigger, effect=effect), "cards.yaml")
    path = _write(tmp_path, "name: x\ncards: [cards.yaml]\nturn: A\nplayers:\n  A: {battle: [Vanilla]}\n"
                            "attack: {attacker: Vanilla, player: B}\n")
    with pytest.raises(InputError) as info:
        load_scenario(path)
    err = info.value
    assert err.file == str(cards) and err.line in (10, 11) and key in err.key and hint in str(err), str(err)


def test_a_declare_naming_an_unknown_ability_exits_2(tmp_path):
    from dmcheck.main import main
    state = _state("    battle: [The Red]\n    hand: [Red Zone]", attack="{attacker: The Red, player: B}")
    path = _write(tmp_path, state + "expect:\n  - never_order:\n      - {event: declare, ability: Invasoin}\n")
    err = io.StringIO()
    assert main(["explore", str(path)], io.StringIO(), err) == 2
    message = err.getvalue()
    assert f"{path}:13:" in message and "Invasoin" in message and "Invasion" in message \
        and "Revolution Change" in message


# ---- the reduction and the symmetry keep every outcome ------------------------------------------------
NEW = ["A03_revolution_change_only_from_hand_at_trigger", "A04_revolution_change_and_attack_trigger_any_order",
       "A05w_declaration_window_closes", "A06_several_invasions_not_rechecked", "A08_ninja_change_before_ninja_strike",
       "A23_revolution_change_keeps_attacking"]


@pytest.mark.parametrize("stem", NEW)
def test_reduced_exploration_keeps_the_outcomes(stem):
    import json
    scenario = load_scenario(ATTACK / f"{stem}.yaml")
    full = explore(BreakModel(scenario))
    reduced = explore(BreakModel(scenario), reduce=True)
    assert full.complete and reduced.complete

    def outcomes(graph):
        return sorted({json.dumps(o, sort_keys=True) for o, _, _ in graph.outcomes()})
    assert outcomes(reduced) == outcomes(full)


def test_the_turn_players_declaration_is_its_own_milestone_before_his_resolutions():
    # the corpus's `tp_declared` (A03, A04, A05t): declared before any of the attack's effects resolves
    from dmcheck.properties.milestones import orders
    model, graph = _graph(ATTACK / "A04_revolution_change_and_attack_trigger_any_order.yaml")
    found = orders(graph)
    assert found.complete
    declared = 0
    for groups in found.paths:
        flat = [t for g in groups for t in g]
        assert "ntp_declared" not in flat
        if "tp_declared" in flat:
            declared += 1
            assert flat.index("tp_declared") < flat.index("attack_trigger_resolved_tp")
    assert declared


def test_under_at_trigger_both_players_declare_before_anything_resolves(tmp_path):
    # S116 read for both players: the turn player's Invasion, then the non-turn player's Ninja Strike, all
    # declared before the attack trigger of the Command Draw Probe resolves
    path = _write(tmp_path, _state("    battle: [Command Draw Probe]\n    hand: [Onsoku Gatling]\n    deck: 2",
                                   "    hand: [Hayabusamaru]\n    mana: 4\n    shields: 1",
                                   attack="{attacker: Command Draw Probe, player: B}",
                                   extra="interpretation: {ntp_declaration_time: at_trigger}\n"))
    model, graph = _graph(path)
    both = 0
    for events in _traces(graph):
        kinds = [(e.kind, e.get("player")) for e in events]
        if ("declare", "A") in kinds and ("declare", "B") in kinds:
            both += 1
            first_resolve = next(i for i, e in enumerate(events) if e.kind == "resolve")
            assert kinds.index(("declare", "A")) < kinds.index(("declare", "B")) < first_resolve
    assert both
