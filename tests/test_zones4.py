"""The deck's order (401.4, 401.7) and the zone rules of issue 34 chapter 4 (helper zones4). Expected values come
from the rule text of the comprehensive rules Ver.1.48 (2025-12-17, S340), not from the program's output."""

from __future__ import annotations

from conftest import ROOT, verdicts

ATTACK = ROOT / "scenarios" / "attack"


def test_the_owner_orders_cards_put_on_the_deck_bottom_together():
    # 401.4: three cards put under the deck at once may go in any order their owner chooses
    assert set(verdicts(ATTACK / "DO01_the_owner_orders_cards_put_on_the_deck_bottom.yaml")) == {"holds"}


def test_a_deck_added_to_as_a_whole_has_no_card_put_on_its_bottom():
    # 401.7: cards added to the deck as a whole (and shuffled) are not on its bottom, nor is a card put there before
    assert set(verdicts(ATTACK / "ZN02_a_deck_added_to_as_a_whole_has_no_card_put_on_its_bottom.yaml")) == {"holds"}


PILES = ROOT / "scenarios" / "piles"


def test_a_card_put_under_a_battle_zone_card_goes_to_the_bottom_of_its_pile():
    # 403.4a: below the cards already under it, so the card right under the top is still the old source (801.4)
    assert set(verdicts(PILES / "PU01_a_card_put_under_goes_to_the_bottom.yaml")) == {"holds"}


def test_a_creature_put_under_another_card_takes_its_aura_in_its_owners_order():
    # 310.8b: the aura goes under with its creature, in either order its owner chooses (403.4a)
    assert set(verdicts(PILES / "PU02_a_creature_put_under_takes_its_aura_in_its_owners_order.yaml")) == {"holds"}


def test_a_face_down_mana_card_is_a_colourless_card_with_no_card_type():
    # 405.4: colourless (405.1 does not tap it) and no creature an effect may put from the mana zone
    assert set(verdicts(ATTACK / "MZ02_a_face_down_mana_card_is_a_colourless_card_with_no_type.yaml")) == {"holds"}


def test_a_face_down_mark_stays_in_the_mana_zone():
    # 400.5: a face-down mana card leaving the mana zone is a new object, face up; 405.4: only mana cards lie face
    # down, which the position check says naming the rule
    from dmcheck.model.positions import problems
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario
    from dmcheck.model.state import Zones, replace

    z = Zones(mana=(3, 5), face_down=(3,))
    assert z.move("mana", "hand", 3).face_down == () and z.remove("mana", 3).face_down == ()
    assert z.move("mana", "hand", 5).face_down == (3,)
    m = BreakModel(load_scenario(ATTACK / "MZ02_a_face_down_mana_card_is_a_colourless_card_with_no_type.yaml"))
    s = m.initial_state()
    probe = next(i.id for i in m.instances if i.label == "Face Down Probe")
    bad = s.with_zone("A", replace(s.zone("A"), face_down=(probe,)))
    assert {(p.check, p.rule) for p in problems(bad, m)} == {("face_down_mana", "405.4")}


def test_a_creature_put_into_the_battle_zone_pends_first():
    # 409.1a, 409.1c: the last card of the hand, pending, is not counted: the hand-counting creature dies first
    assert set(verdicts(ATTACK / "PN01_a_creature_put_into_the_battle_zone_pends_first.yaml")) == {"holds"}


def test_creatures_put_together_all_pend_then_enter_one_by_one():
    # 409.1f: both pend before either enters, then they enter one at a time, in either order
    assert set(verdicts(ATTACK / "PN02_creatures_put_together_all_pend_then_enter_one_by_one.yaml")) == {"holds"}


def test_a_pending_card_that_cannot_enter_stays_as_it_was():
    # 409.2, 409.2a: the evolution creature with nothing to evolve onto stays in the mana zone, never moved, and
    # pends no more once the effect is over
    from dmcheck.explorer.bfs import explore
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario

    path = ATTACK / "PN03_a_pending_card_that_cannot_enter_stays_as_it_was.yaml"
    assert set(verdicts(path)) == {"holds"}
    graph = explore(BreakModel(load_scenario(path)))
    assert graph.complete and all(not s.zone("B").held for s in graph.states if not s.running)


def test_no_card_pends_once_the_effect_is_over():
    # 409.2: a card pends only while the effect putting it runs; the position check names the rule
    from dmcheck.model.positions import problems
    from dmcheck.model.procedure import BreakModel
    from dmcheck.model.scenario_file import load_scenario
    from dmcheck.model.state import replace

    m = BreakModel(load_scenario(ATTACK / "PN03_a_pending_card_that_cannot_enter_stays_as_it_was.yaml"))
    s = m.initial_state()
    bale = next(i.id for i in m.instances if i.label == "Ladia Bale")
    bad = s.with_zone("B", replace(s.zone("B"), held=(bale,)))
    assert {(p.check, p.rule) for p in problems(bad, m)} == {("held_while_entering", "409.2")}
    assert s.zone("B").move("mana", "hand", bale).held == () and bad.zone("B").move("mana", "hand", bale).held == ()


def test_looked_at_deck_cards_are_apart_from_the_effect_of_the_card_used():
    # 605.4: the spell used from among the looked-at cards draws the cards below them, not the looked-at ones
    assert set(verdicts(ATTACK / "LD01_looked_at_deck_cards_are_apart_from_the_effect_used.yaml")) == {"holds"}


def test_spells_cast_together_all_pend_then_resolve_one_by_one():
    # 409.1e: both spells pend before the first is cast, so the hand-counting creature dies first; then each
    # spell is cast and resolves (its draws) before the next is cast
    assert set(verdicts(ATTACK / "PN04_spells_cast_together_all_pend_then_resolve_one_by_one.yaml")) == {"holds"}
