"""Zero Dragon's birth (零龍卍誕): the card word `zero_dragon_birth` (701.31a, 812.1, 812.1a).

A Zero Dragon ceremony (儀) and its nebulas (星雲) are double-sided cards that lie in the battle zone from the
start of the game (311.2, 812.3): each has, on its other front, a part of the Zero Dragon creature (812.1, the
card file's `back:`). Zero Dragon's birth turns the ceremony and four nebulas over at once and makes the five
cards one Zero Dragon creature (701.31a): the ceremony's other face on top, the nebulas' other faces under it
(as the cells of an awakening link lie under a psychic super creature, model/instructions/hyperspatial.py). With
fewer than four nebulas in its controller's battle zone nothing happens. A ceremony or nebula never enters the
battle zone by itself (311.3): no card word puts one there; a scenario writes them there.
"""

from __future__ import annotations

from ..events import ev
from ..piles import under
from ..state import State, replace
from .hyperspatial import flip
from .registry import op

NEBULAS = 4   # 701.31a: the ceremony and four nebulas
CEREMONY, NEBULA = "ceremony", "nebula"   # model/cards.py's (the card loader imports the instructions)
_KIND = ("R701.31a", "zero_dragon_birth")


def _birth(m, s: State, task, ins, choice, out) -> State:
    """701.31a, 812.1a: this ceremony and four nebulas of its controller's battle zone turn over into one
    creature: the ceremony's other face on top, each nebula's other face put under it in turn."""
    me, top = task.controller, task.source
    z = s.zone(me)
    nebulas = sorted(c for c in z.battle if c in m.faces and m.card(c).type == NEBULA)[:NEBULAS]
    if top not in z.battle or m.card(top).type != CEREMONY or top not in m.faces or len(nebulas) < NEBULAS:
        return s
    s = flip(m, s, top, out, _KIND)
    main = m.faces[top]
    for nebula in nebulas:
        s = flip(m, s, nebula, out, _KIND)
        part = m.faces[nebula]
        z = s.zone(me)
        host = (under(z, main) or (main,))[-1]
        z = z.remove("battle", part).unlink(part).add("attached", part)
        s = s.with_zone(me, replace(z, links=tuple(sorted(z.links + ((part, host, "under"),))))).forget(part)
        out.append(ev("link", "R701.31a", card=m.label(part), onto=m.label(main), player=me))
    return s


_SCHEMA_BIRTH = {
    "doc": "Zero Dragon's birth (701.31a): this ceremony and four nebulas of its controller's battle zone turn "
           "over at once into one Zero Dragon creature, the ceremony's other face on top and the nebulas' under "
           "it (812.1a); nothing happens with fewer than four nebulas",
    "properties": {},
}
op("zero_dragon_birth", schema=_SCHEMA_BIRTH)((lambda m, s, t, i: None, _birth))
