"""The positions a game can reach (model/positions.py): the scenario loader refuses an initial position no
game reaches, at the line of the card at fault and with the rule it breaks, every such mistake of a file in
one run; each check finds what it is written for in a position built by hand; and no state explored from a
shipped scenario is one the loader would refuse (the property `position-reachable`)."""

from __future__ import annotations

import pytest
from conftest import DATA, ROOT

from dmcheck.explorer.bfs import explore
from dmcheck.model.errors import InputError
from dmcheck.model.positions import CHECKS, entry_paths, problems
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.model.state import replace
from dmcheck.model.yamlio import load_yaml
from dmcheck.properties.builtin import BUILTIN
from dmcheck.properties.checker import HOLDS, check

BAD = DATA / "bad" / "corpus" / "scenario"
SHIPPED = sorted(p for p in (ROOT / "scenarios").rglob("*.yaml")
                 if p.parent.name not in ("cards", "sweeps", "yours") and p.name != "corpus.yaml"
                 and "corpus.d" not in p.parts)
REACHABLE = next(p for p in BUILTIN if p.id == "position-reachable")


def _refused(path) -> list[InputError]:
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    return list(caught.value.all())


# ---- the loader ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("path,line,words", [
    # 801.1a: an evolution creature lies on a creature; only an S-MAX evolution needs none (815.1)
    (BAD / "evolution_without_source.yaml", 9, ["players.B.battle[1]", "nothing to evolve onto", "801.1a"]),
    (BAD / "pile_base_not_a_creature.yaml", 9, ["players.B.battle[0].under[1]", "bottom of the pile",
                                                "Terror Pit is a spell", "801.1a"]),
    # 303.3: a cross gear crosses a creature only; 310.5: an aura lies on a creature
    (BAD / "cross_on_a_spell.yaml", 9, ["players.B.battle[0].card", "`cross`", "Terror Pit is a spell", "303.3"]),
    (BAD / "aura_not_an_aura.yaml", 9, ["players.B.battle[0].aura[0]", "expected an aura", "310.5"]),
    # 304.2: a castle fortifies a shield
    (DATA / "bad" / "castle_not_castle.yaml", 7, ["players.B.shields[0].castle", "expected a castle", "304.2"]),
], ids=lambda v: v.name if hasattr(v, "name") else None)
def test_a_position_no_game_reaches_is_refused_at_its_line_with_its_rule(path, line, words):
    (error,) = _refused(path)
    assert error.file == str(path) and error.line == line, str(error)
    assert all(w in str(error) for w in words), str(error)


def test_a_sweep_cannot_vary_a_battle_zone_into_a_position_no_game_reaches():
    from dmcheck.rulings.sweep.template import load_template
    path = DATA / "bad" / "corpus" / "sweep" / "battle_evolution_alone.yaml"
    with pytest.raises(InputError) as caught:
        load_template(path)
    assert caught.value.line == 8 and "vary.B.battle.from[1]" in str(caught.value) and "801.1a" in str(caught.value)


def test_a_creature_that_may_lie_alone_is_not_refused(tmp_path):
    """815.1: an S-MAX evolution creature needs no source; 802.1: a NEO creature may be put alone, and a G-NEO
    creature too (803.1)."""
    path = tmp_path / "s.yaml"
    cards = ROOT / "scenarios" / "attack" / "cards"
    path.write_text(f"name: t\nturn: A\ncards: [{cards / 'right.yaml'}, {cards / 'special.yaml'}]\n"
                    "players:\n  A: {battle: [Johnny-MAX]}\n  B: {battle: [NEO Trigger Probe, G-NEO Probe]}\n"
                    "attack: {attacker: Johnny-MAX, player: B}\n", encoding="utf-8")
    scenario = load_scenario(path)
    assert problems(BreakModel(scenario).initial_state(), BreakModel(scenario)) == ()


def test_a_seal_may_lie_on_a_card_that_is_no_creature(tmp_path):
    """116.1: a seal lies face down on a card of the battle zone, whatever its type (here a cross gear alone,
    which stays in the battle zone by 303.5)."""
    path = tmp_path / "s.yaml"
    path.write_text("name: t\nturn: A\nplayers:\n  A: {battle: [Kakumeijin]}\n"
                    "  B: {battle: [{card: Bajula's Soul, seal: [Vanilla]}]}\n"
                    "attack: {attacker: Kakumeijin, player: B}\n", encoding="utf-8")
    model = BreakModel(load_scenario(path))
    assert problems(model.initial_state(), model) == ()


def test_every_mistake_of_a_position_comes_in_one_run():
    errors = _refused(BAD / "position_mistakes_together.yaml")
    assert [(e.line, e.key) for e in errors] == [
        (10, "players.B.battle[0]"),              # Ladia Bale alone (801.1a)
        (11, "players.B.battle[1].under[1]"),     # a spell at the bottom of a pile (801.1a)
        (12, "players.B.shields[0].castle"),      # a creature fortifying a shield (304.2)
        (15, "expect[0].sometimes.winnr")]        # the typo beside them


def test_the_loader_numbers_the_cards_as_the_card_table_does():
    """Each card instance's entry path (what the loader points at) names that very card, in every shipped
    scenario: a mismatch would point a refusal at another card's line."""
    checked = 0
    for path in SHIPPED:
        scenario = load_scenario(path)
        model = BreakModel(scenario)
        root = load_yaml(path)
        paths = entry_paths(scenario.players, scenario.pool)
        assert len(paths) == len(model.instances), path
        for cid, where in enumerate(paths):
            node = root
            for part in where:
                node = node[part] if node is not None and (isinstance(node, dict) and part in node or
                                                           isinstance(node, list) and part < len(node)) else None
            if isinstance(node, dict):
                node = node["card"]
            if isinstance(node, str):
                # an other face (805.1, made last) points at the entry of the face placed
                placed = model.faces.get(cid, cid) if cid >= len(paths) - len(model.faces) // 2 else cid
                assert scenario.pool.resolve(node) == model.instances[placed].card, (path, where)
                checked += 1
    assert checked > 500


# ---- the checks, on positions built by hand ------------------------------------------------------------
POSITION = """name: a position to break by hand
turn: A
players:
  A:
    battle: [{card: Ladia Bale, under: [Aqua Surfer], tapped: true}, Kakumeijin]
    hand: [Boil Charger]
  B:
    battle: [The Watch]
    shields: 2
attack: {attacker: Kakumeijin, player: B}
"""


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    path = tmp_path_factory.mktemp("pos") / "s.yaml"
    path.write_text(POSITION, encoding="utf-8")
    return BreakModel(load_scenario(path))


def _card(model, label: str) -> int:
    return next(i.id for i in model.instances if i.label == label)


def _found(model, s) -> set[tuple[str, str, str]]:
    return {(p.check, p.rule, model.label(p.card)) for p in problems(s, model)}


def test_the_initial_position_has_no_problem(model):
    assert _found(model, model.initial_state()) == set()


def test_a_card_in_two_zones_or_in_another_players_hand_is_found(model):
    s = model.initial_state()
    a = s.zone("A")
    charger = _card(model, "Boil Charger")
    assert ("one_place", "400.1", "Boil Charger") in _found(model, s.with_zone("A", a.add("graveyard", charger)))
    moved = s.with_zone("A", a.remove("hand", charger))
    moved = moved.with_zone("B", moved.zone("B").add("hand", charger))
    assert _found(model, moved) == {("one_place", "400.1", "Boil Charger")}


def test_a_mark_where_it_means_nothing_is_found(model):
    s = model.initial_state()
    a = s.zone("A")
    charger = _card(model, "Boil Charger")
    tapped = s.with_zone("A", replace(a, tapped=tuple(sorted(a.tapped + (charger,)))))
    assert _found(model, tapped) == {("tapped_in_play", "105.4a", "Boil Charger")}
    face_up = s.with_zone("A", replace(a, face_up=(charger,)))
    assert _found(model, face_up) == {("face_up_shields", "406.2", "Boil Charger")}


def test_an_effect_on_a_card_gone_from_the_battle_zone_is_found(model):
    s = model.initial_state()
    charger = _card(model, "Boil Charger")
    assert _found(model, replace(s, powers=((charger, -2000),))) == {("effects_in_play", "400.5", "Boil Charger")}
    assert _found(model, replace(s, cant_attack=(charger,))) == {("effects_in_play", "400.5", "Boil Charger")}
    assert _found(model, replace(s, restrictions=((charger, "cannot_block", "turn"),))) == \
        {("effects_in_play", "400.5", "Boil Charger")}
    assert _found(model, replace(s, powers=((_card(model, "Kakumeijin"), -2000),))) == set()


def test_a_source_left_behind_or_a_second_chain_is_found(model):
    s = model.initial_state()
    a = s.zone("A")
    ladia, surfer = _card(model, "Ladia Bale"), _card(model, "Aqua Surfer")
    # the creature went to the graveyard, its source still lying under it: 403.4 (and 801.1a is no more asked)
    gone = s.with_zone("A", replace(a.move("battle", "graveyard", ladia), tapped=()))
    assert _found(model, gone) == {("links_in_place", "403.4", "Aqua Surfer")}
    # a second card right under the top: the sources are one chain (403.4)
    charger = _card(model, "Boil Charger")
    two = s.with_zone("A", replace(a.move("hand", "attached", charger),
                                   links=tuple(sorted(a.links + ((charger, ladia, "under"),)))))
    assert {(c, r) for c, r, label in _found(model, two) if label in ("Boil Charger", "Aqua Surfer")} >= \
        {("links_in_place", "403.4")}
    # nothing under the evolution creature at all: 801.1a
    bare = s.with_zone("A", replace(a.move("attached", "hand", surfer), links=()))
    assert _found(model, bare) == {("evolution_has_source", "801.1a", "Ladia Bale")}


def test_every_check_cites_rules_and_says_what_it_is_for():
    assert len({c.name for c in CHECKS}) == len(CHECKS)
    for c in CHECKS:
        assert c.rules and c.find.__doc__, c.name
        assert (c.kind == "repaired") == (c.fix is not None), c.name


# ---- the property over every shipped scenario --------------------------------------------------------
@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(ROOT / "scenarios")) for p in SHIPPED])
def test_no_explored_state_is_one_the_loader_would_refuse(path):
    graph = explore(BreakModel(load_scenario(path)))
    assert graph.complete
    (verdict,) = check(graph, [REACHABLE]).verdicts
    assert verdict.verdict == HOLDS, (verdict.reason, verdict.trace and verdict.trace.lines())
