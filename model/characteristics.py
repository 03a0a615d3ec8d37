"""Characteristics as data: civilizations, races, names and power arithmetic.

One place answers what a card *is* for an effect that reads it (rules 106, 108, 201-206), so that the
card loader, the power computation and every selection filter agree:

- civilizations (106.1, 106.2a-c): the five, a card has one (mono), two or more (multicoloured) or none
  (colourless); a card file names them under `civilizations:` (model/cards.py);
- races (203.2): a race named by an effect refers to every race that contains it as whole words
  ("Dragon" reaches "Armored Dragon" and "Mega Command Dragon"; "Command Dragon" does not reach "Command");
- names (202.3): a part of a name refers to every card whose name contains it as whole words;
- power (108.1b, 108.1c, 108.2, 206.4): changes apply additions, then subtractions, then multiplications,
  then divisions; a negative power is read as 0 wherever it is referred to; ∞ stays ∞ under any change but
  minus ∞, which leaves the creature at minus ∞ (it is destroyed as any creature at 0 or less, 703.4c).

Nothing here knows a card record or a state: the functions take plain values, so the card loader and the
procedure can both use them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

CIVILIZATIONS: Final = ("Light", "Water", "Darkness", "Fire", "Nature")   # 106.1, in the rules' order
# ∞ power (108.1c) as a whole number beyond any sum of card powers and changes a card file can write
# (powers and amounts are at most 10^9, docs/limits.md); printed `infinity` in a card file
INFINITY: Final = 10**18
COLOURS: Final = ("colorless", "mono", "multicolored")   # 106.2a-c, what a selection may ask of a card


def colour(civilizations: Iterable[str]) -> str:
    """106.2a-c: "colorless" (no civilization), "mono" (one) or "multicolored" (two or more)."""
    n = len(set(civilizations))
    return COLOURS[min(n, 2)]


def _words(text: str) -> tuple[str, ...]:
    return tuple(w for w in re.split(r"[\s・･/]+", text.casefold()) if w)


def contains_words(whole: str, part: str) -> bool:
    """Whether `part` occurs in `whole` as a run of whole words (203.2, 202.3: "Dragon" is in "Armored
    Dragon"; a word cut in the middle does not count, the 202.3 example of a split word)."""
    w, p = _words(whole), _words(part)
    return bool(p) and any(w[i:i + len(p)] == p for i in range(len(w) - len(p) + 1))


def has_race(races: Iterable[str], named: str) -> bool:
    """203.2: a race an effect names reaches every race that contains it."""
    return any(contains_words(r, named) for r in races)


# ---- changes an effect makes to a card's characteristics for the turn (State.traits) ---------------------------
TIMES: Final = "times"                  # R108.2, R206.4: its power multiplied by the value
DIVIDED_BY: Final = "divided_by"        # R108.2: its power divided by the value (a fraction rounded down)
FIXED: Final = "fixed"                  # R206.3: its power is the value, whatever else applies
CIVILIZATION: Final = "civilization"    # R106.4: a civilization added
RACE: Final = "race"                    # R203.3: a race added
TRAITS: Final = (TIMES, DIVIDED_BY, FIXED, CIVILIZATION, RACE)


# ---- power --------------------------------------------------------------------------------------
def power_value(base: int, additions: Iterable[int] = (), traits: Iterable[tuple[str, int | str]] = ()) -> int:
    """A creature's power from its base (printed power and what applies during the attack), the additions
    effects gave it and its other changes (`traits`: (kind, value) pairs), in the order of 108.2: every
    addition, then every subtraction, then every multiplication, then every division (206.4: doubling comes
    after the other changes). A fraction is rounded down (the rules do not say; no card known to us divides a
    power). 108.1c: ∞ stays ∞ under every change except minus ∞, which leaves minus ∞. 206.3: a fixed power is
    the power, whatever else applies (a second fix cannot change it either: `instructions/power.py` keeps the
    first).

    >>> power_value(3000, (2000,), ((TIMES, 2),))   # the 206.4 example: (3000 + 2000) x 2
    10000
    >>> power_value(3000, (-5000,), ((TIMES, 2),))  # below 0 first, then doubled (read as 0: `referenced`)
    -4000
    """
    multiplier = divisor = 1
    for kind, value in traits:
        if kind == FIXED:
            return int(value)
        if kind == TIMES:
            multiplier *= int(value)
        elif kind == DIVIDED_BY:
            divisor *= int(value)
    adds = tuple(additions)
    if any(a <= -INFINITY for a in adds):
        return -INFINITY
    if base >= INFINITY or any(a >= INFINITY for a in adds):
        return INFINITY
    total = base + sum(a for a in adds if a > 0)
    total += sum(a for a in adds if a < 0)
    return total * multiplier // divisor


def referenced(power: int) -> int:
    """108.1b: a power below 0 is read as 0 wherever it is referred to (battles, "power N or less")."""
    return power if power > 0 else 0


def shown(power: int) -> str:
    """A power or a change of power as a person reads it: +∞ and -∞ for the sentinel."""
    if power >= INFINITY:
        return "∞"
    if power <= -INFINITY:
        return "-∞"
    return str(power)
