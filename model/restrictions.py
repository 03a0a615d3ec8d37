"""Restrictions on attacking and blocking, from a card's static ability or an effect with a duration.

One place answers "may this creature attack / attack a player / block / be blocked?" for every reader
(model/legality.py, model/attack.py, model/touch.py), so that a printed "cannot block" and an effect's
"cannot block this turn" are the same restriction:

- a static ability of the creature itself (its keyword: `Cannot Attack`, `Cannot Attack Players`,
  `Cannot Block`, `Unblockable`) applies while its abilities work (R110.3d, R604.2; ignored, it does not);
- an effect's restriction (the card word `restrict`, State.restrictions) lasts the time it names (R608.2a):
  the turn (R511.2), the attack (R510.2) or until a player's next turn begins (R500.3). It is not an
  ability of the creature: ignoring the creature's abilities leaves it (R608.1);
- G-Strike's "cannot attack this turn" (State.cant_attack) is the same `cannot_attack`.
R101.2: a "cannot" beats a "can": a permission (Speed Attacker, a Blocker given by an effect, Must Block)
never lifts a restriction; the readers ask for the restriction first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .seals import sealed
from .state import State

if TYPE_CHECKING:
    from .vocabulary import Keyword

CANNOT_ATTACK: Final = "cannot_attack"
CANNOT_ATTACK_PLAYERS: Final = "cannot_attack_players"
CANNOT_BLOCK: Final = "cannot_block"
CANNOT_BE_BLOCKED: Final = "cannot_be_blocked"
RESTRICTIONS: Final = (CANNOT_ATTACK, CANNOT_ATTACK_PLAYERS, CANNOT_BLOCK, CANNOT_BE_BLOCKED)
# each restriction is also a mechanism parameter of the keyword table: a keyword setting it (Cannot Block,
# Unblockable: model/data/keywords.yaml) prints the restriction as a static ability of the creature itself
# how long an effect's restriction lasts (the `until` of the card word) and its tag in State.restrictions;
# "until the start of your next turn" is tagged with the player whose turn ends it
UNTIL: Final = {"end_turn": "turn", "end_attack": "attack"}
NEXT_TURN_START: Final = "your_next_turn_start"
# how an event (`restrict`) tells each duration
SHOWN: Final = {"end_turn": "this turn", "end_attack": "until the end of the attack",
                NEXT_TURN_START: "until the start of its controller's next turn"}


def restricted(m, s: State, cid: int, what: str) -> bool:
    """Whether `cid` is under restriction `what` now: its static ability (while its abilities work), an
    effect's restriction that has not ended, a static of another card in force (model/continuous.py), a seal
    (attacking and blocking: model/seals.py), or, for `cannot_attack`, G-Strike's mark."""
    if what == CANNOT_ATTACK and cid in s.cant_attack:
        return True
    if what in (CANNOT_ATTACK, CANNOT_BLOCK) and m.sealing and sealed(m, s, cid):
        return True   # 116.2a: a sealed creature neither attacks nor blocks
    if s.restrictions and any(c == cid and k == what for c, k, _ in s.restrictions):
        return True
    if m.statics and m.static_restricts(s, cid, what):
        return True
    return m.has_keyword(s, cid, printed(what))


def printed(what: str) -> Keyword:
    """The mechanism parameter a card's keyword sets for restriction `what`: the restriction's own name (any
    keyword whose row `sets` it prints it, model/data/keywords.yaml)."""
    return what


def until_tag(until: str, controller: str) -> str:
    """The tag State.restrictions keeps for a duration: "turn", "attack", or the player whose next turn's
    start ends it (R500.3)."""
    return controller if until == NEXT_TURN_START else UNTIL[until]


def shown(until: str) -> str:
    """A `restrict` event's duration in words ("this turn")."""
    return SHOWN.get(until, until)


def ending(s: State, tag: str) -> tuple[tuple[int, str, str], ...]:
    """The effect restrictions that end with `tag` (the turn, the attack, or that player's next turn)."""
    return tuple(r for r in s.restrictions if r[2] == tag)


def without(s: State, *tags: str) -> tuple[tuple[int, str, str], ...]:
    """The effect restrictions that go on past `tags`."""
    return tuple(r for r in s.restrictions if r[2] not in tags)
