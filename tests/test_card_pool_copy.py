"""CardPool.copy: verify loads every scenario into its own copy of the built-in pool (a scenario may
add its cards), so a card added to a copy must not reach the pool it was copied from."""

from __future__ import annotations

from conftest import DATA

from dmcheck.model.cards import CardPool


def test_a_card_added_to_a_copy_stays_in_the_copy():
    base = CardPool.builtin()
    before = base.ids()
    copy = base.copy()
    copy.add_file(DATA / "cards" / "sturdy.yaml")
    added = set(copy.ids()) - set(before)
    assert added, "sturdy.yaml adds cards"
    assert base.ids() == before
    assert all(card not in base for card in added)
    assert all(copy[i] is base[i] for i in before)   # the frozen cards themselves are shared


def test_a_copy_of_the_copy_source_can_be_taken_again():
    base = CardPool.builtin()
    base.copy().add_file(DATA / "cards" / "sturdy.yaml")
    base.copy().add_file(DATA / "cards" / "sturdy.yaml")   # no "already defined" from the first copy
