"""The hyperspatial zone (407) and the psychic creatures (805) and draghearts (807) that live in it.

A psychic creature is only ever in the battle zone or in its owner's hyperspatial zone: put anywhere
else, it goes back there at once (117.1, 805.4b), the rule GR creatures share (model/homes.py).

An effect puts a psychic creature from the hyperspatial zone into the battle zone (805.4a): the card word
`put_from_hyperspatial`.

A psychic creature has two faces (805.1): a card file gives the front's characteristics at the top and the
back's under `back:` (model/cards.py); each face is a card of the pool and, in a scenario, an instance of its
own (model/table.py `faces`), one of the two in the zones and the other nowhere. Turning the card over
(`flip`, the keyword process of awakening 805.1a and release 805.1b) renames one to the other everywhere in
the state: it is the same creature (805.5), tapped or not, attacking or attacked, its waiting abilities and the
effects on it kept. What is read afterwards is the new face's (805.2, 805.3). Awakening is data: a triggered
ability with the condition as its trigger pattern and `flip` as its effect; release is a `self_leave`
replacement whose effect is `flip` (805.1b).

Awakening link (805.1c, 806.1) is the card word `link`: this psychic creature and one of its controller's
psychic creatures of each card named turn over at once into one psychic super creature, a pile whose top is
this card's other face and whose other cards, the other faces of the partners (its psychic cells), lie under
it as sources do (model/piles.py): the super creature leaves as one, its cards go where it goes and from
there back to the hyperspatial zone (805.4b), and a cell under it is no creature that leaves (806.1e). Link
release (806.1b) and a lone cell (806.1a) are not modelled.

A dragheart is put the same way by a creature's ability (807.4a), as its weapon face equipped to that
creature (305.2) or its fortress face alone (306.2): the card word `put_dragheart`. A weapon whose creature
left stays behind and the rules send it home (117.2: model/homes.py). Dragsolution, dragon escape and the
dragheart creature face (807.1a-b, 807.5, 808) are not modelled: a dragheart's faces are not yet read as
two faces of one card the way a psychic creature's are (`back:`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..card_ids import Renaming, record_shape
from ..events import Event, ev
from ..piles import under
from ..state import State, replace
from .common import distinct
from .effects import summon
from .registry import NONE, op

if TYPE_CHECKING:
    from ..game import Game

_STATE = record_shape(State)


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


def flip(m: Game, s: State, card: int, out: list[Event], how: str = "") -> State:
    """R805.1a-b, R805.5: turn a double-sided card in the battle zone over. Its other face takes its place in
    every part of the state (zones, tapped, links, the attack, effects, waiting abilities), except the memory
    of the creatures put into the battle zone this turn, which stays with the face that arrived: an awakened
    face is never sick (805.6), a face turned back by release is sick only if that face arrived this turn
    (805.6a)."""
    face = m.faces.get(card)
    owner = m.owner(card)
    if face is None or card not in s.zone(owner).battle:
        return s   # a card that left (or a single-faced one) is not turned over
    entered = s.entered
    s = _STATE.rename(s, Renaming({card: face, face: card}, m.symmetry.id_binds))
    s = replace(s, entered=entered) if s.entered != entered else s
    awaken = m.card(face).awakened
    how = how or ("awaken" if awaken else "release")
    rule = {"awaken": "R805.1a", "release": "R805.1b", "forbidden_release": "809.1a"}[how]
    out.append(ev("flip", rule, card=m.label(card), face=m.label(face), player=owner, how=how))
    return s


def _flip(m, s, task, ins, choice, out):
    return flip(m, s, task.source, out)


_SCHEMA_FLIP = {
    "doc": "turn this psychic creature over to its other face (805.1): awakening to its back face (805.1a, the "
           "effect of an ability whose trigger is the awakening condition) or release to its front (805.1b, the "
           "effect of a `replaces: self_leave` ability); it stays the same creature (805.5)",
    "properties": {},
}
op("flip", schema=_SCHEMA_FLIP)((lambda m, s, t, i: None, _flip))


def _partners(m: Game, s: State, task, ins) -> tuple[int, ...] | None:
    """R805.1c: one creature of the controller's battle zone for each card the link names, with two faces,
    other than the linking card; None when one is missing (the link needs all of them)."""
    z = s.zone(task.controller)
    found: list[int] = []
    for name in ins.get("with"):
        c = next((c for c in z.battle if c in m.faces and c != task.source and c not in found
                  and m.card(c).name == name), None)
        if c is None:
            return None
        found.append(c)
    return tuple(found)


def _link(m, s, task, ins, choice, out):
    """R805.1c, R806.1: the linking card and its partners turn over at once; the partners' new faces go under
    the linking card's, one chain top to bottom, and are creatures no more (the effects on them end)."""
    me, top = task.controller, task.source
    partners = _partners(m, s, task, ins)
    if top not in s.zone(me).battle or top not in m.faces or partners is None:
        return s
    s = flip(m, s, top, out)
    main = m.faces[top]
    for p in partners:
        s = flip(m, s, p, out)
        cell = m.faces[p]
        z = s.zone(me)
        host = (under(z, main) or (main,))[-1]
        z = z.remove("battle", cell).unlink(cell).add("attached", cell)
        s = s.with_zone(me, replace(z, links=tuple(sorted(z.links + ((cell, host, "under"),))))).forget(cell)
        out.append(ev("link", "R806.1", card=m.label(cell), onto=m.label(main), player=me))
    return s


_SCHEMA_LINK = {
    "doc": "awakening link (805.1c): this psychic creature and one own psychic creature of each card named in "
           "`with` (their front names) turn over at once into one psychic super creature (806.1), this card's "
           "other face on top and the others' other faces (its cells) under it; nothing happens unless all are "
           "in the battle zone",
    "properties": {"with": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1,
                            "maxItems": 5}},
    "required": ["with"],
}
op("link", schema=_SCHEMA_LINK)((lambda m, s, t, i: None, _link))
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
