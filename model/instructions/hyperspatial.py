"""The hyperspatial zone (407) and the psychic creatures that live in it (805).

A psychic creature is only ever in the battle zone or in its owner's hyperspatial zone. When any move
(a destruction, a bounce, mana, shields, the deck) puts one anywhere else, it has been put there (its
"destroyed" and "leaves" triggers see it arrive), and then it goes back to the hyperspatial zone at once
(117.1, 805.4b). That return is one rule applied in one place, between the steps of the automatic
procedure (model/procedure.py `_between_steps`), rather than in each of the many moves. Lying under an
evolution creature is being in the battle zone.

An effect puts a psychic creature from the hyperspatial zone into the battle zone (805.4a): the card word
`put_from_hyperspatial`. Awakening, release and psychic links (805.1a-c, 806) are not modelled.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Event, ev
from ..state import PLAYERS, State
from .common import distinct
from .effects import summon
from .registry import NONE, op

if TYPE_CHECKING:
    from ..game import Game

# where a psychic creature may be (the battle zone, cards under a battle-zone creature, its hyperspatial zone)
HOME = ("battle", "hyperspatial")
# the zones a psychic creature is put into only to return at once (R805.4b)
_ELSEWHERE = ("hand", "mana", "shields", "graveyard", "deck", "resolving", "standby")


def strays(m: Game, s: State) -> tuple[tuple[str, str, int], ...]:
    """The psychic creatures outside the battle zone and the hyperspatial zone: (player, zone, card)."""
    return tuple((p, zone, c) for p in PLAYERS for zone in _ELSEWHERE
                 for c in getattr(s.zone(p), zone) if m.card(c).psychic)


def return_strays(m: Game, s: State, found: tuple[tuple[str, str, int], ...], out: list[Event]) -> State:
    """R117.1, R805.4b: each psychic creature put elsewhere goes to its owner's hyperspatial zone."""
    for player, zone, c in found:
        z = s.zone(player).unlink(c).remove(zone, c)
        s = s.with_zone(player, z)
        owner = m.owner(c)
        s = s.with_zone(owner, s.zone(owner).add("hyperspatial", c))
        out.append(ev("move", "R805.4b", card=m.label(c), player=owner, **{"from": zone, "to": "hyperspatial"}))
    return s


def _put_options(m, s, task, ins):
    me = task.controller
    limit = int(ins.get("cost_max"))
    cands = [c for c in s.zone(me).hyperspatial if m.card(c).cost <= limit]
    opts = [((c,), f"{me} puts {m.label(c)} (cost {m.card(c).cost} <= {limit}) from the hyperspatial zone into "
                   f"the battle zone") for c in distinct(m, s, cands)]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} puts no psychic creature"))
    return opts


def _put(m, s, task, ins, choice, out):
    return s if choice == NONE else summon(m, s, task.controller, choice[0], "hyperspatial", out)


_SCHEMA_PUT_FROM_HYPERSPATIAL = {
    "doc": "put a psychic creature of cost cost_max or less from own hyperspatial zone into the battle zone "
           "(805.4a); with `optional: true` its controller may put none",
    "properties": {"cost_max": {"type": "integer", "minimum": 0}, "optional": {"type": "boolean"}},
    "required": ["cost_max"],
}
op("put_from_hyperspatial", schema=_SCHEMA_PUT_FROM_HYPERSPATIAL)((_put_options, _put))
