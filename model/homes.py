"""Cards with a zone of their own: psychic creatures and draghearts (hyperspatial zone), GR creatures (super GR zone).

Such a card is only ever in the battle zone (or under a creature there) or in its home zone. When a
move (a destruction, a bounce, mana, shields, the deck) puts one anywhere else, it does get there (its
"destroyed" and "leaves" triggers see it arrive), and then it goes home at once: a psychic creature to
its owner's hyperspatial zone (117.1, 805.4b), a GR creature to the bottom of its owner's super GR zone
(118.1, 811.2b), a dragheart weapon or fortress to its owner's hyperspatial zone (807.4b). They are one
rule, applied in one place for every home in `HOMES`: between the steps of the automatic procedure
(model/procedure.py `_between_steps`), rather than in each of the many moves. The same place sends home a
weapon left alone in the battle zone when its creature left (117.2, 305.3): a weapon is attached to a
creature (the `weapon` link, model/piles.py) and stays behind like a cross gear (pile_moves.take_pile).
The loader's checks of where such cards may start are model/positions.py `home_zones` and `lone_weapon`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .events import Event, ev
from .state import PLAYERS, State

if TYPE_CHECKING:
    from .game import Game


@dataclass(frozen=True, slots=True)
class Home:
    """A kind of card that lives in a zone of its own, and the rules that say so."""

    card_type: str   # its `type:` in a card file (it is a creature in every other way)
    zone: str        # the Zones field it lives in; `Zones.add` puts a returning card where the rules say
    what: str        # how messages name such a card
    holds: str       # the rule: the zone holds these cards only
    returns: str     # the rule: one put into another zone goes home at once
    creature: bool = True   # a creature in every other way (805.1, 811.1); a weapon or fortress is none
    alone: str = ""  # the rule that sends one alone in the battle zone home ("": it may stand alone)


HOMES = (
    Home("psychic_creature", "hyperspatial", "a psychic creature", "407.1", "805.4b"),
    Home("gr_creature", "super_gr", "a GR creature", "408.1", "811.2b"),
    # 807.1: a dragheart is put as its weapon (305) or fortress (306) face; 305.3, 117.2: never a lone weapon
    Home("dragheart_weapon", "hyperspatial", "a dragheart", "407.1", "807.4b", creature=False, alone="117.2"),
    Home("dragheart_fortress", "hyperspatial", "a dragheart", "407.1", "807.4b", creature=False),
    # a dragheart creature face up (807.1): a card file's `type: dragheart_creature`, or the `back:` of a weapon
    # or fortress that dragsolution turned over (807.1a; `home_of` finds this entry by the card's `dragheart`)
    Home("dragheart_creature", "hyperspatial", "a dragheart", "407.1", "807.4b"),
)
HOME_OF_TYPE = {h.card_type: h for h in HOMES}
HOME_OF_ZONE = {h.zone: h for h in reversed(HOMES)}   # the first home of each zone: what names the zone's cards
ALONE = frozenset(h.card_type for h in HOMES if h.alone)   # card types a rule sends home when alone in battle
# the zones such a card is put into only to go home at once (a card under a creature is in the battle zone)
ELSEWHERE = ("hand", "mana", "shields", "graveyard", "deck", "resolving", "standby")


def home_of(cdef: Any) -> Home:
    """The home of a card whose `home` is set: by its type (a dragheart weapon or fortress keeps its own; a
    dragheart creature face is one), else by its zone (a psychic or GR creature's type is `creature`)."""
    if cdef.dragheart and cdef.type == "creature":   # a dragheart creature face (807.1)
        return HOME_OF_TYPE["dragheart_creature"]
    return HOME_OF_TYPE.get(cdef.type) or HOME_OF_ZONE[cdef.home]


def strays(m: Game, s: State) -> tuple[tuple[str, str, int], ...]:
    """The cards with a home zone that are outside it and outside the battle zone, and the weapons (117.2) and
    psychic cells (806.1a, 703.4g) alone in the battle zone: (player, zone, card)."""
    return tuple((p, zone, c) for p in PLAYERS for zone in ELSEWHERE
                 for c in getattr(s.zone(p), zone) if m.card(c).home) + \
        tuple((p, "battle", c) for p in PLAYERS for c in s.zone(p).battle if m.card(c).type in ALONE
              or m.card(c).cell)


def return_strays(m: Game, s: State, found: tuple[tuple[str, str, int], ...], out: list[Event]) -> State:
    """R117.1, R805.4b, R807.4b; R118.1, R811.2b: each card put elsewhere goes to its owner's home zone (the
    bottom of the super GR zone; several at once in the order found, player A's first, then by card id).
    R117.2: so does a weapon alone in the battle zone (it leaves the battle zone: untapped, forgotten), and
    R806.1a, R703.4g: a psychic cell alone there."""
    for player, zone, c in found:
        s = s.with_zone(player, s.zone(player).unlink(c).remove(zone, c))
        owner, home = m.owner(c), home_of(m.card(c))
        s = s.with_zone(owner, s.zone(owner).add(home.zone, c))
        rule = ("806.1a" if m.card(c).cell else home.alone) if zone == "battle" else home.returns
        out.append(ev("move", "R" + rule, card=m.label(c), player=owner, **{"from": zone, "to": home.zone}))
        if zone == "battle":
            s = s.forget(c)
    return s
