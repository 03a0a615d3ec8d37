"""The super GR zone (118, 408), GR creatures (811) and GR summon (701.30a; model/homes.py,
model/instructions/gr.py). Expected values come from the rule text of the comprehensive rules Ver.1.48
(2025-12-17, S340), not from the program's output."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT, verdicts

from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario
from dmcheck.properties.expectations import check

ATTACK = ROOT / "scenarios" / "attack"
CARDS = ATTACK / "cards" / "gr.yaml"
PSYCHIC = ATTACK / "cards" / "psychic.yaml"
SCENARIOS = sorted(ATTACK.glob("GR*.yaml"))


_verdicts = verdicts   # tests/conftest.py


def _write(tmp_path: Path, players: str, expect: str = "  - always: {shields_broken: 1}",
           attacker: str = "Vanilla") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{CARDS.as_posix()}, {PSYCHIC.as_posix()}]\nturn: A\nplayers:\n{players}"
                    f"attack: {{attacker: {attacker}, player: B}}\nexpect:\n{expect}\n", encoding="utf-8")
    return path


class _Lenient(BreakModel):
    """The model without 811.2b (nor 805.4b): a card put outside the battle zone stays where it went."""

    def __init__(self, scenario, readings=None):
        super().__init__(scenario, readings)
        self.home_rule = False


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_gr_scenario_holds(path):
    assert len(SCENARIOS) >= 3
    assert set(_verdicts(path)) == {"holds"}


@pytest.mark.parametrize("path", [p for p in SCENARIOS if not p.name.startswith("GR01")], ids=lambda p: p.stem)
def test_the_scenarios_fail_when_a_gr_creature_may_stay_outside(path):
    # 118.1, 811.2b: without the return the destroyed GR Probe stays in the graveyard (GR02, GR03)
    assert "violated" in _verdicts(path, _Lenient)


def test_a_gr_creature_put_elsewhere_goes_to_the_bottom_of_its_owners_super_gr_zone(tmp_path):
    # 118.1: under the pile, not on it; 811.2b: at once, whatever zone it was put into (here the mana zone)
    path = _write(tmp_path, "  A:\n    battle: [Vanilla, GR Probe]\n    super_gr: [GR Draw Probe]\n"
                            "  B: {shields: 1}\n")
    m = BreakModel(load_scenario(path))
    s = m.initial_state()
    probe = next(c for c in s.zone("A").battle if m.name(c) == "GR Probe")
    draw = s.zone("A").super_gr[0]
    s = s.with_zone("A", s.zone("A").move("battle", "mana", probe))
    out: list = []
    after = m._between_steps(s, out)
    assert after is not None
    assert after.zone("A").super_gr == (draw, probe) and probe not in after.zone("A").mana
    assert [(e.kind, e.get("from"), e.get("to"), e.rule) for e in out] == [("move", "mana", "super_gr", "R811.2b")]


def test_a_bounced_gr_creature_returns_to_the_super_gr_zone_not_the_hand(tmp_path):
    # 811.2b: Aqua Surfer may return the attacking GR Probe to A's hand; it goes on to the super GR zone
    path = _write(tmp_path, "  A:\n    battle: [GR Probe]\n  B: {shields: [Aqua Surfer]}\n", attacker="GR Probe",
                  expect="""\
  - always: {hand: {A: []}}
  - possible_order: [{event: move, card: GR Probe, from: hand, to: super_gr, player: A}]
  - sometimes: {battle: {A: []}}""")
    assert _verdicts(path) == ["holds", "holds", "holds"]
    assert _verdicts(path, _Lenient)[0] == "violated"


def test_gr_summon_with_an_empty_super_gr_zone_does_nothing(tmp_path):
    # 701.30a: the top card is summoned; with no card there is none (dmwiki 超GR: an empty pile changes nothing)
    path = _write(tmp_path, "  A:\n    battle: [GR Caller Probe]\n  B: {shields: 1}\n", attacker="GR Caller Probe",
                  expect="""\
  - in_order: [{event: resolve, ability: GR Caller Probe/call}, {event: break}]
  - never_order: [{event: put}]
  - always: {battle: {A: [GR Caller Probe]}, winner: none, shields_broken: 1}""")
    assert _verdicts(path) == ["holds", "holds", "holds"]


def test_a_gr_summoned_creature_s_entering_ability_triggers(tmp_path):
    # 701.30a: GR summon is a summon into the battle zone, so "when this creature enters" triggers (R112.3a)
    path = _write(tmp_path, "  A:\n    battle: [GR Caller Probe]\n    super_gr: [GR Draw Probe]\n    deck: 2\n"
                            "  B: {shields: 1}\n", attacker="GR Caller Probe", expect="""\
  - in_order:
      - {event: put, card: GR Draw Probe, from: super_gr, to: battle}
      - {event: trigger, ability: GR Draw Probe/enters}
      - {event: resolve, ability: GR Draw Probe/enters}
  - always: {hand: {A: [Vanilla]}, uses: {GR Draw Probe/enters: 1}}""")
    assert _verdicts(path) == ["holds", "holds"]


def test_the_loader_refuses_a_card_that_is_no_gr_creature_in_the_super_gr_zone(tmp_path):
    # 408.1 (118.2): the super GR zone holds GR creatures only; a psychic creature is no GR creature either
    path = _write(tmp_path, "  A:\n    battle: [Vanilla]\n    super_gr: [GR Probe, Vanilla, Psychic Probe]\n"
                            "  B: {shields: 1}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    errors = caught.value.all()
    assert [e.line for e in errors] == [7, 7], [str(e) for e in errors]
    assert "players.A.super_gr[1]" in str(errors[0]) and "408.1" in str(errors[0]), str(errors[0])
    assert "players.A.super_gr[2]" in str(errors[1]) and "GR creature" in str(errors[1]), str(errors[1])


@pytest.mark.parametrize("zone", ["hand", "mana", "graveyard", "deck", "shields", "hyperspatial"])
def test_the_loader_refuses_a_gr_creature_outside_its_two_zones(tmp_path, zone):
    # 811.2b (118.1): a GR creature is never in the hand, the mana zone, the graveyard, the deck, the shields;
    # 407.1: nor in the hyperspatial zone
    path = _write(tmp_path, f"  A:\n    battle: [Vanilla]\n    {zone}: [GR Probe]\n  B: {{shields: 1}}\n")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    (error,) = caught.value.all()
    rule = "407.1" if zone == "hyperspatial" else "811.2b"
    assert error.line == 7 and f"players.A.{zone}[0]" in str(error) and rule in str(error), str(error)


def test_a_super_gr_zone_of_fewer_than_twelve_cards_is_accepted(tmp_path):
    # 408.1's "exactly twelve at the game's start" is deck building: a position in the middle of a game may
    # hold any number (GR summons took some), so the loader does not refuse one card
    path = _write(tmp_path, "  A:\n    battle: [Vanilla]\n    super_gr: [GR Probe]\n  B: {shields: 1}\n")
    assert load_scenario(path).players["A"].super_gr == ("gr_probe",)


def test_a_gr_creature_is_a_creature_that_lives_in_the_super_gr_zone():
    # 811.1: a GR creature is a creature card (with its own back); model/homes.py knows its zone
    from dmcheck.model.cards import CardPool
    pool = CardPool()
    pool.add_file(CARDS)
    probe = pool[pool.resolve("GR Probe")]
    assert probe.type == "creature" and probe.gr and not probe.psychic and probe.home == "super_gr"


def test_the_symmetry_keeps_every_outcome_with_identical_gr_creatures_in_the_super_gr_zone(tmp_path):
    # 408.2, 408.3: the super GR zone is a pile in a fixed order; renaming identical cards (model/symmetry.py)
    # must keep that order (never sort the pile): the same outcomes and orders with it forced on
    from dmcheck.explorer.bfs import explore
    path = _write(tmp_path, "  A:\n    battle: [GR Recycler Probe, GR Probe, GR Probe]\n"
                            "    super_gr: [GR Probe, GR Draw Probe, GR Probe]\n    deck: 3\n"
                            "  B: {shields: [Terror Pit, Terror Pit]}\n", attacker="GR Recycler Probe",
                  expect="  - in_order: [{event: destroyed, card: GR Probe}, {event: put, card: GR Probe}]")
    scenario = load_scenario(path)
    plain = explore(BreakModel(scenario), reduce=False, symmetry=False)
    renamed = explore(BreakModel(scenario), reduce=True, symmetry=True)
    assert sorted(repr(sorted(o.items())) for o, _, _ in plain.outcomes()) == \
        sorted(repr(sorted(o.items())) for o, _, _ in renamed.outcomes())
    # 118.1, 701.30a: the GR Probe on top is summoned, the destroyed one lies under GR Draw Probe
    assert [check(g, scenario.expect[0]).verdict for g in (plain, renamed)] == ["holds", "holds"]


def test_the_super_gr_zone_is_a_pile_in_order_through_every_move():
    # 408.2, 408.3: an ordered pile nobody rearranges; 118.1: a card added goes under it (never sorted in)
    from dmcheck.model.state import Zones
    z = Zones(super_gr=(5, 2, 9), battle=(1, 3))
    assert z.add("super_gr", 1).super_gr == (5, 2, 9, 1)
    for card in (1, 3):
        assert z.move("battle", "super_gr", card) == z.remove("battle", card).add("super_gr", card)
        assert z.move("battle", "super_gr", card).super_gr == (5, 2, 9, card)
    assert z.move("super_gr", "battle", 5).super_gr == (2, 9) and z.move("super_gr", "battle", 5).battle == (1, 3, 5)
    assert z.remove("super_gr", 2).super_gr == (5, 9) and z.where(9) == "super_gr"


def test_dmcheck_cards_writes_the_types_of_gr_and_psychic_creatures_as_their_card_files_do():
    # `dmcheck cards` lists cards "as a card file writes them": the type a file gives (811.1, 805.1)
    import io

    from conftest import output

    from dmcheck.main import main
    out = io.StringIO()
    assert main(["cards", "--json", str(CARDS), str(PSYCHIC)], out, io.StringIO()) == 0
    types = {c["id"]: c["type"] for c in output(out.getvalue())["cards"]}
    assert types["gr_probe"] == "gr_creature" and types["psychic_probe"] == "psychic_creature"
    assert types["gr_caller_probe"] == "creature"


def test_a_gr_creature_under_a_destroyed_evolution_creature_goes_to_the_super_gr_zone(tmp_path):
    # 811.2b: the pile goes to the graveyard (801); the GR creature in it is put there and then goes on to the
    # super GR zone, while the evolution creature on top stays in the graveyard
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}]
turn: A
players:
  A: {{battle: [Jolly the Johnny]}}
  B: {{battle: [{{card: Ladia Bale, under: [GR Probe]}}], shields: 1}}
attack: {{attacker: Jolly the Johnny, player: B}}
expect:
  - never: {{graveyard: {{B: [GR Probe, Ladia Bale]}}}}
  - sometimes: {{graveyard: {{B: [Ladia Bale]}}, battle: {{B: []}}}}
  - possible_order:
      - {{event: destroyed, card: Ladia Bale}}
      - {{event: move, card: GR Probe, from: graveyard, to: super_gr, player: B}}
""", encoding="utf-8")
    assert _verdicts(path) == ["holds", "holds", "holds"]
    assert "violated" in _verdicts(path, _Lenient)


def test_a_gr_summoned_creature_is_summoned_not_merely_put(tmp_path):
    # 701.30a: GR summon summons the card (its cost counts as paid), so "when this creature is summoned" triggers
    # (701.3a) besides its entering; a GR creature that only entered would not meet it
    cards = tmp_path / "summoned.yaml"
    cards.write_text("""\
cards:
  - id: gr_summoned_probe
    name: GR Summoned Probe
    type: gr_creature
    cost: 2
    power: 2000
    modelled: 'a probe GR creature for "when this creature is summoned, draw a card", not a real card'
    abilities:
      - id: summoned
        trigger: summoned
        effect:
          - draw: {count: 1}
""", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{CARDS.as_posix()}, {cards.as_posix()}]\nturn: A\nplayers:\n"
                    "  A:\n    battle: [GR Caller Probe]\n    super_gr: [GR Summoned Probe]\n    deck: 2\n"
                    "  B: {shields: 1}\nattack: {attacker: GR Caller Probe, player: B}\nexpect:\n"
                    "  - in_order:\n"
                    "      - {event: put, card: GR Summoned Probe, from: super_gr, to: battle}\n"
                    "      - {event: trigger, ability: GR Summoned Probe/summoned}\n"
                    "  - always: {uses: {GR Summoned Probe/summoned: 1}}\n", encoding="utf-8")
    assert _verdicts(path) == ["holds", "holds"]
