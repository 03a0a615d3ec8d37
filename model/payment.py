"""Paying a card's mana cost by tapping mana-zone cards (comprehensive rules Ver.1.48, 2025-12-17).

- 105.3, 107.2: a cost is paid by tapping cards of the mana zone; each tapped card makes mana of its
  mana number (207.1: `mana:` of its card file, 1 when left out) and of ONE of its civilizations (a
  colorless card's mana symbol names none, 207.3: it pays the amount, never a civilization).
- 105.4a, 105.6: only an untapped mana card can be tapped (a tapped one, a multicoloured card that
  entered tapped by 405.1 included, pays nothing).
- 112.2, 112.2a, 601.1d: the civilizations first: one card per civilization of the card being executed,
  a multicoloured mana card counting as one of its civilizations only; then the rest of the amount.
- 112.2c: no overpaying: no card is tapped once the civilizations and the amount are paid, so every
  tapped card is needed (without it a civilization or some of the amount goes unpaid); with mana numbers
  of 1 that is exactly as many cards as the amount (or, 112.2b, as the civilizations when a reduction
  made the amount smaller than them: the excess mana is lost).
The choice of cards is the player's: every set that pays is an option, identical cards offered once.
"""

from __future__ import annotations

from itertools import combinations, permutations
from typing import Any

from .continuous import mana_number
from .instructions.common import same
from .state import State


def pays_civilizations(m: Any, cards: tuple[int, ...], civs: tuple[str, ...]) -> bool:
    """112.2a: each civilization of `civs` is paid by a card of its own among `cards` (a card with that
    civilization; one card pays one civilization, however many it has)."""
    if len(civs) > len(cards):
        return False
    card_civs = [m.card(c).civs() for c in cards]
    return any(all(civ in card_civs[i] for civ, i in zip(civs, chosen))
               for chosen in permutations(range(len(cards)), len(civs)))


def amount_to_tap(cost: int, civs: tuple[str, ...]) -> int:
    """How many mana cards are tapped: the cost (112.2c: no more), but never fewer than the civilizations
    to pay (112.2b: the civilizations come first, the excess mana is lost)."""
    return max(cost, len(civs))


def mana_made(m: Any, s: State, cards: tuple[int, ...]) -> int:
    """207.1: the mana `cards` make when tapped, the sum of their mana numbers (207.2: as effects set them)."""
    return sum(mana_number(m, s, c) for c in cards)


def pays(m: Any, s: State, cards: tuple[int, ...], cost: int, civs: tuple[str, ...]) -> bool:
    """Whether tapping `cards` pays `cost` of civilizations `civs` without overpaying (112.2a-c, 207.1): the
    civilizations and the amount paid, and none of the cards needless."""
    if mana_made(m, s, cards) < cost or not pays_civilizations(m, cards, civs):
        return False
    return not any(mana_made(m, s, rest) >= cost and pays_civilizations(m, rest, civs)
                   for rest in combinations(cards, len(cards) - 1)) if cards else True


def all_ones(m: Any, s: State, cards: list[int]) -> bool:
    """Whether every card of `cards` makes one mana (the common case, where a payment taps exactly
    `amount_to_tap` cards)."""
    return all(mana_number(m, s, c) == 1 for c in cards)


def payments(m: Any, s: State, player: str, cost: int, civs: tuple[str, ...]) -> list[tuple[int, ...]]:
    """Every way `player` can pay `cost` of civilizations `civs` from his untapped mana cards (105.6), one
    per class of interchangeable sets (model/instructions/common.py `same`); [] when he cannot pay."""
    z = s.zone(player)
    untapped = [c for c in z.mana if c not in z.tapped]
    # every needed card pays a civilization or some of the amount: never more cards than both together
    most = min(len(untapped), cost + len(civs))
    seen: set[tuple] = set()
    found = []
    for size in range(min(amount_to_tap(cost, civs), len(untapped) + 1) if all_ones(m, s, untapped) else 0, most + 1):
        for cards in combinations(untapped, size):
            key = tuple(sorted(same(m, s, c) for c in cards))
            if key in seen or not pays(m, s, cards, cost, civs):
                continue
            seen.add(key)
            found.append(cards)
    return found
