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
