"""Gods and God links (804, 202.5, 703.4e-f; model/gods.py, model/instructions/god_links.py).
Expected values come from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340) and the G-Link
reminder text (dmwiki "G・リンク", revision 2023-11-25), not from the program's output. Each scenario also runs
under a model lacking the rule it pins, and must then fail."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from conftest import ROOT, verdicts

from dmcheck.model import gods
from dmcheck.model.errors import InputError
from dmcheck.model.procedure import BreakModel
from dmcheck.model.scenario_file import load_scenario

PILES = ROOT / "scenarios" / "piles"
CARDS = PILES / "cards" / "gods.yaml"
SCENARIOS = sorted(PILES.glob("GD*.yaml"))


_verdicts = verdicts   # tests/conftest.py


def _scenario(name: str) -> Path:
    (path,) = [p for p in SCENARIOS if p.name.startswith(name)]
    return path


def _write(tmp_path: Path, battle: str, extra: str = "") -> Path:
    path = tmp_path / "s.yaml"
    path.write_text(f"name: x\ncards: [{CARDS.as_posix()}]\nturn: A\nplayers:\n  A:\n    battle: {battle}\n{extra}"
                    f"  B: {{shields: 2}}\nattack: {{attacker: Ryukyokushin Geki, player: B}}\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_every_god_scenario_holds(path):
    assert len(SCENARIOS) >= 6
    assert set(_verdicts(path)) == {"holds"}


def test_gd01_fails_when_a_linked_god_has_only_its_first_cards_power(monkeypatch):
    # 804.1b: without the sum, 7000 loses to the 12000 blocker and a card of the God is destroyed
    monkeypatch.setattr("dmcheck.model.attack.creature", lambda m, s, cid: m.card(cid))
    assert "violated" in _verdicts(_scenario("GD01"))


def test_gd02_fails_when_a_linked_card_lends_no_ability():
    # 804.1b: the probe's attack trigger belongs to the one linked creature
    class Lenient(BreakModel):
        god_rule = False
    assert "violated" in _verdicts(_scenario("GD02"), Lenient)


@pytest.mark.parametrize("name", ["GD03", "GD04"])
def test_gd03_gd04_fail_when_a_linked_god_leaves_whole(monkeypatch, name):
    # 804.7, 703.4f: without the rule, the card standing for the creature leaves and the other card with it is
    # lost from the battle zone (GD03), and nothing stays to be the same creature (GD04 then has no God at all)
    monkeypatch.setattr("dmcheck.model.instructions.destruction.gods",
                        SimpleNamespace(linked=lambda z, c: False, parts=lambda m, s, c: (c,)))
    assert "violated" in _verdicts(_scenario(name))


def test_gd04_fails_when_the_card_that_stays_is_a_new_untapped_creature(monkeypatch):
    # 804.4: the card that stays is the creature that attacked; a new untapped one could attack again
    split = gods.split

    def fresh(s, owner, head, out_card):
        s, stay = split(s, owner, head, out_card)
        z = s.zone(owner)
        return s.with_zone(owner, gods.replace(z, tapped=tuple(c for c in z.tapped if c not in stay))), stay
    monkeypatch.setattr(gods, "split", fresh)
    assert "violated" in _verdicts(_scenario("GD04"))


def test_gd05_fails_without_linking_on_entry(monkeypatch):
    # 804.1a: without the link, Geki and Metsu are both summoning sick and neither attacks again
    monkeypatch.setattr("dmcheck.model.instructions.effects.link_on_entry", lambda m, s, player, cid: s)
    assert "violated" in _verdicts(_scenario("GD05"))


def test_gd05_fails_when_a_linked_god_is_summoning_sick(monkeypatch):
    # 804.5: Geki arrived this turn; linked, it is not summoning sick
    monkeypatch.setattr("dmcheck.model.legality.gods", SimpleNamespace(linked=lambda z, c: False))
    assert "violated" in _verdicts(_scenario("GD05"))


def test_gd06_fails_when_a_g_link_reads_the_linked_creatures_names(monkeypatch):
    # 804.2a: reading the creature's names (it has Geki's, 202.5) would let the second Metsu link at its right
    def lenient(m, z, card):
        found = []
        for head in z.battle:
            cards = gods.row(z, head)
            named = {m.card(c).name for c in cards}
            for name, side in card.g_link:
                if name in named:
                    found.append((head, cards[0] if side == "left" else cards[-1],
                                  gods.LEFT if side == "left" else gods.RIGHT))
        return tuple(found)
    monkeypatch.setattr(gods, "free_sides", lenient)
    assert "violated" in _verdicts(_scenario("GD06"))


def test_the_linked_creature_has_both_names_civilizations_races_and_the_summed_power():
    # 202.5, 804.1b: the names of all its cards, every civilization and race, one power: 7000 + 7000
    model = BreakModel(load_scenario(_scenario("GD01")))
    s = model.initial_state()
    (head,) = [c for c in s.zone("A").battle]
    assert set(gods.names(model, s, head)) >= {"Ryukyokushin Geki", "Ryukyokushin Metsu"}
    assert model.power(s, head) == 14000
    merged = gods.creature(model, s, head)
    assert merged.civs() == ("Darkness", "Fire")
    assert {"God", "Dragon Zombie", "Armored Dragon"} <= set(merged.race_names())


def test_an_improper_link_comes_apart_into_two_creatures(tmp_path):
    # 703.4e, 804.2b: Geki's G-Link names Metsu, not Geki: the link is put right at once, two creatures stay
    model = BreakModel(load_scenario(_write(tmp_path, "[{card: Ryukyokushin Geki, god_right: [Ryukyokushin Geki]}]")))
    z = model.initial_state().zone("A")
    assert len(z.battle) == 2 and not z.links and not z.attached
    # a proper link beside an improper one stays: Metsu at the right of the first Geki, a Geki at Metsu's right
    path = _write(tmp_path, "[{card: Ryukyokushin Geki, god_right: [Ryukyokushin Metsu, Ryukyokushin Geki]}]")
    model = BreakModel(load_scenario(path))
    z = model.initial_state().zone("A")
    assert len(z.battle) == 2 and len(z.links) == 1 and model.label(z.links[0][0]) == "Ryukyokushin Metsu"


def test_the_loader_refuses_a_card_that_is_no_god_in_a_god_link(tmp_path):
    # 804.1: only Gods (cards with a G-Link) link
    path = _write(tmp_path, "[{card: Ryukyokushin Geki, god_right: [Vanilla]}]")
    with pytest.raises(InputError) as caught:
        load_scenario(path)
    assert any("804.1" in str(e) and "Vanilla" in str(e) for e in caught.value.all()), str(caught.value)


def test_the_card_loader_refuses_a_g_link_side_it_does_not_know(tmp_path):
    cards = tmp_path / "c.yaml"
    cards.write_text("cards:\n  - {id: g, name: G, type: creature, cost: 1, power: 1000,\n"
                     "     g_link: [{name: H, side: above}]}\n", encoding="utf-8")
    from dmcheck.model.cards import CardPool
    with pytest.raises(InputError) as caught:
        CardPool().add_file(cards)
    assert "g_link" in str(caught.value) and caught.value.all()[0].line == 3


def _after_linking(monkeypatch, change) -> None:
    """A lenient model: `change(model, state, head, card, events)` right after the God `card` links to the
    creature `head`."""
    import dataclasses

    from dmcheck.model.instructions import registry
    op = registry.OPS["_g_link"]

    def execute(m, s, task, ins, choice, out):
        s = op.execute(m, s, task, ins, choice, out)
        return change(m, s, choice[0], ins.get("card"), out) if choice and choice != registry.NONE else s
    monkeypatch.setitem(registry.OPS, "_g_link", dataclasses.replace(op, execute=execute))


def test_gd07_fails_when_linking_untaps_the_creature(monkeypatch):
    # 804.3: the linked creature keeps the tapped state of the God that was there; untapped it would attack again
    def untap(m, s, head, card, out):
        z = s.zone("A")
        return s.with_zone("A", gods.replace(z, tapped=tuple(c for c in z.tapped if c != head)))
    _after_linking(monkeypatch, untap)
    assert "violated" in _verdicts(_scenario("GD07"))


def test_gd07_fails_when_linking_ends_the_attack(monkeypatch):
    # 804.3b: the attack goes on with the linked creature (with Metsu's W-breaker, two shields); a model making
    # the card that entered stand for the linked creature would lose the attacker and stop the attack
    def new_creature(m, s, head, card, out):
        z = s.zone("A")
        return s.with_zone("A", gods.relink(z, gods.row(z, head), card))
    _after_linking(monkeypatch, new_creature)
    assert "violated" in _verdicts(_scenario("GD07"))


def test_gd08_fails_when_the_linked_creature_counts_as_entering(monkeypatch):
    # 804.1c: a model reading the whole linked creature as the one that entered triggers Dawn's ability too
    _after_linking(monkeypatch, lambda m, s, head, card, out: m.trigger(s, "enters", "A", head, out))
    assert "violated" in _verdicts(_scenario("GD08"))


@pytest.mark.parametrize("sick", [True, False], ids=["always_sick", "never_sick"])
def test_gd09_fails_unless_the_card_that_stays_keeps_its_own_arrival(monkeypatch, sick):
    # 804.5a: Geki, there since the turn began, may attack once apart; Metsu, arrived this turn, may not. A model
    # making the card that stays newly arrived (or taking the creature's freedom over to it) breaks one of them
    split = gods.split

    def changed(s, owner, head, out_card):
        s, stay = split(s, owner, head, out_card)
        entered = set(s.entered) | set(stay) if sick else set(s.entered) - set(stay)
        return gods.replace(s, entered=tuple(sorted(entered))), stay
    monkeypatch.setattr(gods, "split", changed)
    assert "violated" in _verdicts(_scenario("GD09"))


def test_a_linked_god_has_the_leaving_replacements_of_each_of_its_cards(tmp_path):
    # 804.1b: the abilities of every card, a replacement of the creature's destruction too (an Escape on the card
    # beside the one standing for the creature); when it is declined, only one card leaves (804.7)
    cards = tmp_path / "c.yaml"
    cards.write_text("""cards:
  - id: escape_god_probe
    name: Escape God Probe
    type: creature
    cost: 5
    power: 3000
    g_link: [{name: Ryukyokushin Geki, side: right}]
    abilities:
      - id: escape
        replaces: self_destroy
        effect:
          - shield_to_hand: {whose: own, count: 1, s_trigger: false}
""", encoding="utf-8")
    path = tmp_path / "s.yaml"
    path.write_text(f"""name: x
cards: [{CARDS.as_posix()}, {cards.as_posix()}]
turn: A
players:
  A: {{battle: [{{card: Ryukyokushin Geki, god_right: [Escape God Probe]}}]}}
  B: {{shields: [Terror Pit]}}
attack: {{attacker: Ryukyokushin Geki, player: B}}
expect:
  - possible_order: [{{event: replace, by: Escape God Probe/escape, card: Ryukyokushin Geki}}]
  - sometimes: {{battle: {{A: [Ryukyokushin Geki]}}, graveyard: {{A: []}}}}
  - sometimes: {{battle: {{A: [Escape God Probe]}}, graveyard: {{A: [Ryukyokushin Geki]}}}}
""", encoding="utf-8")
    assert _verdicts(path) == ["holds", "holds", "holds"]
