"""Seals (116): what a sealed creature cannot do, and the seal a Command removes as it enters (703.4j).

A seal is a card lying face down on a card of the battle zone (116.1; a scenario's `{card: X, seal: [...]}`,
model/piles.py, or the card word `seal`, 116.1a). While one lies on a creature, the creature is ignored (116.2,
116.2a): its abilities do not work, it cannot attack or block, and no static of another card reaches it (it is
as if it were not in the battle zone). The readers ask here: model/touch.py `abilities_work`,
model/restrictions.py `restricted`, model/continuous.py `reaches`, model/legality.py (it cannot be attacked
either), model/turn.py (it does not untap at its owner's turn start).

When a Command (a card with a race containing the word Command, 203.2) enters the battle zone, its owner puts
one seal from one of his cards in the battle zone that shares a civilization with the Command into the
graveyard; he chooses the card, but must choose one if there is one (116.4, 116.4a, 703.4j; "his own cards":
the seal's reminder text as dmwiki.net "封印" quotes it). The sealed card's
civilization is read although the card is ignored (116.4b). It is a state-based action: the procedure notes
the Command as it enters (State.unsealing) and applies the rule between two automatic steps, before anything
else (703.1, model/procedure.py `_between_steps`; model/instructions/seals.py carries it out).

Not modelled: choosing a seal as a card of the battle zone (116.3a), and
the part of 116.2a that keeps a sealed creature from being chosen, or tapped and untapped by an effect
(scenarios/rulings/Q12b pins a sealed creature chosen by a destruction effect).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .characteristics import CIVILIZATION, CIVILIZATIONS, RACE, has_race
from .state import PLAYERS

if TYPE_CHECKING:
    from .state import State

SEAL: Final = "seal"          # the link kind of a seal (model/piles.py LINKED)
COMMAND: Final = "Command"    # 116.4: the race word of the creatures that remove seals


def sealed(m, s: State, cid: int) -> bool:
    """Whether a seal lies on card `cid` (116.2)."""
    z = s.zone(m.owner(cid))
    return bool(z.links) and any(h == cid and k == SEAL for _, h, k in z.links)


def any_seal(s: State) -> bool:
    """Whether a seal lies anywhere now."""
    return any(k == SEAL for p in PLAYERS for _, _, k in s.zone(p).links)


def is_command(m, s: State, cid: int) -> bool:
    """A card whose races (its own and those added this turn, R203.3) contain the word Command (203.2)."""
    added = tuple(str(v) for c, k, v in s.traits if c == cid and k == RACE)
    return has_race(m.card(cid).race_names() + added, COMMAND)


def civilizations(m, s: State, cid: int) -> frozenset[str]:
    """A card's civilizations now (106.2, R106.4), read even while it is sealed (116.4b)."""
    added = {str(v) for c, k, v in s.traits if c == cid and k == CIVILIZATION}
    return frozenset(c for c in CIVILIZATIONS if c in m.card(cid).civs() or c in added)


def unsealable(m, s: State, command: int) -> tuple[int, ...]:
    """The cards of the Command's owner in the battle zone with a seal on them that share a civilization with
    `command` (116.4a; the seal's reminder text says "his own cards", dmwiki.net "封印")."""
    civs = civilizations(m, s, command)
    z = s.zone(m.owner(command))
    return tuple(sorted({h for _, h, k in z.links if k == SEAL and h in z.battle and civs & civilizations(m, s, h)}))
