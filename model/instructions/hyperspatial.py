"""The hyperspatial zone (407) and the psychic creatures (805) and draghearts (807) that live in it.

A psychic creature is only ever in the battle zone or in its owner's hyperspatial zone: put anywhere
else, it goes back there at once (117.1, 805.4b), the rule GR creatures share (model/homes.py).

An effect puts a psychic creature from the hyperspatial zone into the battle zone (805.4a): the card word
`put_from_hyperspatial`. Awakening, release and psychic links (805.1a-c, 806) are not modelled.

A dragheart is put the same way by a creature's ability (807.4a), as its weapon face equipped to that
creature (305.2) or its fortress face alone (306.2): the card word `put_dragheart`. A weapon whose creature
left stays behind and the rules send it home (117.2: model/homes.py). Dragsolution, dragon escape and the
dragheart creature face (807.1a-b, 807.5, 808) are not modelled: no card of the model turns over.
"""

from __future__ import annotations

from ..events import ev
from ..state import replace
from .common import distinct
from .effects import summon
from .registry import NONE, op


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


# ---- draghearts (807): a weapon equipped to the creature whose ability puts it, a fortress alone ----------
_DRAGHEARTS = ("dragheart_weapon", "dragheart_fortress")


def _dragheart_options(m, s, task, ins):
    """R807.4a: the draghearts of cost cost_max or less in the controller's hyperspatial zone; a weapon only
    while the creature whose ability puts it is in its controller's battle zone to be equipped (305.3)."""
    me, limit, holder = task.controller, int(ins.get("cost_max")), task.source
    can_equip = holder in s.zone(me).battle and m.card(holder).type == "creature"
    cands = [c for c in s.zone(me).hyperspatial if m.card(c).type in _DRAGHEARTS and m.card(c).cost <= limit
             and (can_equip or m.card(c).type != "dragheart_weapon")]
    opts = []
    for c in distinct(m, s, cands):
        how = f"equipped to {m.label(holder)}" if m.card(c).type == "dragheart_weapon" else "alone"
        opts.append(((c,), f"{me} puts {m.label(c)} (cost {m.card(c).cost} <= {limit}) from the hyperspatial zone "
                           f"into the battle zone, {how}"))
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} puts no dragheart"))
    return opts


def _put_dragheart(m, s, task, ins, choice, out):
    """R807.4a, R305.1, R306.1: a dragheart comes into the battle zone only by such an effect; R305.2: a weapon
    is equipped to the creature (the `weapon` link, model/piles.py), R306.2: a fortress stands alone."""
    if choice == NONE:
        return s
    me, c = task.controller, choice[0]
    z = s.zone(me)
    put = ev("put", "R807.4a", card=m.label(c), player=me, **{"from": "hyperspatial", "to": "battle"})
    if m.card(c).type != "dragheart_weapon":
        out.append(put)
        return s.with_zone(me, z.move("hyperspatial", "battle", c))
    holder = task.source
    z = replace(z.move("hyperspatial", "attached", c), links=tuple(sorted(z.links + ((c, holder, "weapon"),))))
    out += [put, ev("equip", "R305.2", card=m.label(c), player=me, onto=m.label(holder))]
    return s.with_zone(me, z)


_SCHEMA_PUT_DRAGHEART = {
    "doc": "put a dragheart of cost cost_max or less from own hyperspatial zone into the battle zone (807.4a): a "
           "weapon equipped to the creature whose ability this is (305.2; none while that creature is not in the "
           "battle zone, 305.3), a fortress alone (306.2); with `optional: true` its controller may put none",
    "properties": {"cost_max": {"type": "integer", "minimum": 0}, "optional": {"type": "boolean"}},
    "required": ["cost_max"],
}
op("put_dragheart", schema=_SCHEMA_PUT_DRAGHEART)((_dragheart_options, _put_dragheart))
