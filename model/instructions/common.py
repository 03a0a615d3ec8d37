"""What instructions share when they offer choices: which cards are interchangeable, whose creatures.

Identical cards are offered once (one representative per class): the symmetry of model/symmetry.py
tells which copies play the same roles.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..piles import pile
from ..state import State, other
from .selection import fits

if TYPE_CHECKING:
    from ..game import Game


def same(m: Game, s: State, cid: int) -> tuple:
    """What makes a card interchangeable with another in `s`: the same card, the same owner, and the
    same occurrences — where it is and every role it plays (declared in a shield check, source of a
    pending effect, chosen to break, given additional breaks, ...; model/symmetry.py)."""
    return (m.instances[cid].card, m.owner(cid), m.symmetry.signature(s, cid))


def distinct(m: Game, s: State, ids, key=None) -> list[int]:
    """One representative (lowest id) per class of interchangeable cards.

    No ability reads a card's instance id, so the states reached through another copy with the same
    roles are the same up to renaming identical cards: offering one copy loses no outcome. Copies
    that play different roles (one declared for its S-Back, one not) are offered apart.
    """
    reps: dict[Any, int] = {}
    for cid in sorted(ids):
        reps.setdefault(key(cid) if key else same(m, s, cid), cid)
    return sorted(reps.values())


def multisets(m: Game, s: State, cards, n: int) -> list[tuple[int, ...]]:
    """Every way to pick n of `cards`, interchangeable cards counted once (lowest ids first)."""
    classes: dict[tuple, list[int]] = {}
    for cid in sorted(cards):
        classes.setdefault(same(m, s, cid), []).append(cid)
    keys = sorted(classes)
    out: list[tuple[int, ...]] = []

    def rec(i: int, left: int, acc: list[int]) -> None:
        if left == 0:
            out.append(tuple(sorted(acc)))
            return
        if i == len(keys):
            return
        for k in range(min(left, len(classes[keys[i]])), -1, -1):
            rec(i + 1, left - k, acc + classes[keys[i]][:k])

    rec(0, n, [])
    return sorted(out)


def players_of(controller: str, whose: str) -> list[str]:
    return {"own": [controller], "opponent": [other(controller)], "any": ["A", "B"]}[whose]


def creatures(m: Game, s: State, controller: str, whose: str, untapped: bool = False, which: Any = None) -> list[int]:
    """Creatures in the battle zones of `whose` (cards attached to others are not creatures there), those
    with the characteristics `which` asks for (model/instructions/selection.py)."""
    found = [cid for p in players_of(controller, whose) for cid in s.zone(p).battle
             if m.card(cid).type == "creature" and not (untapped and cid in s.zone(p).tapped)
             and (which is None or fits(m, s, cid, which))]
    # the attacker is kept apart from its copies: R509.4c and Q06 depend on which one leaves
    return distinct(m, s, found, key=lambda c: (same(m, s, c), c == s.attacker, attachments(m, s, c)))


def attachments(m: Game, s: State, card: int) -> tuple[tuple[str, str], ...]:
    """What lies on or under a card, by kind and pool id, the cards under it in their order (part of
    what makes two copies differ: two piles are interchangeable only if made alike, model/piles.py)."""
    z = s.zone(m.owner(card))
    if not z.links:
        return ()
    found = pile(z, card)
    return tuple((k, m.instances[c].card) for c, k in found if k == "under") + \
        tuple(sorted((k, m.instances[c].card) for c, k in found if k != "under"))
