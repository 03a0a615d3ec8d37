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
replacement whose effect is `flip` (805.1b). The renaming itself, `turn_over`, serves any double-sided card:
hyper mode (816, model/hyper.py) keeps a released creature as its back face the same way.

Awakening link (805.1c, 806.1) is the card word `link`: this psychic creature and one of its controller's
psychic creatures of each card named turn over at once into one psychic super creature, a pile whose top is
this card's other face and whose other cards, the other faces of the partners (its psychic cells), lie under
it as sources do (model/piles.py): the super creature leaves as one, its cards go where it goes and from
there back to the hyperspatial zone (805.4b), and a cell under it is no creature that leaves (806.1e). A super
creature with the keyword `Link Release` (806.1b) that would leave instead returns one of its cells, its owner's
choice, to the hyperspatial zone, and the others turn over to their psychic creatures, the same creature (806.2).

A dragheart is put the same way by a creature's ability (807.4a), as its weapon face equipped to that
creature (305.2) or its fortress face alone (306.2): the card word `put_dragheart`. A weapon whose creature
left stays behind and the rules send it home (117.2: model/homes.py). A weapon or fortress may carry its
dragheart creature face under `back:` (807.1, 807.2), and `flip` turns it over as it turns a psychic creature:
dragsolution (807.1a) is an ability of the weapon or fortress whose effect is `flip` (a weapon first leaves the
creature it was equipped to; the card keeps its tapped state), dragon escape (807.1b) a `self_leave`
replacement of the creature face whose effect is `flip`.

A dragheart super creature (808.1) is made the way a psychic super creature is: the card word `link` on a
weapon or fortress turns it and its partners (fortresses in the battle zone) over at once, the partners' other
faces (dragheart cells, `cell: true`) under its dragheart creature face; it is never summoning sick (808.1a,
model/legality.py `dragheart_super`). Cell escape (808.1b), unlike link release a replacement effect, is the
card word `cell_escape` as the effect of a `replaces: self_leave` ability: one card chosen by the owner returns
to the hyperspatial zone and the others turn over (`split`, shared with link release).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import gods
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


def turn_over(m: Game, s: State, card: int) -> State:
    """R805.5, R816.2: put the other face of a double-sided card in its place in every part of the state
    (zones, tapped, links, the attack, effects, waiting abilities): it is the same card. The memory of the
    creatures put into the battle zone this turn stays with a psychic creature's face that arrived (an
    awakened face is never sick, 805.6; a face turned back by release is sick only if that face arrived this
    turn, 805.6a); hyper mode (816) changes nothing of it, so there the memory follows the card."""
    face = m.faces[card]
    entered = s.entered
    s = _STATE.rename(s, Renaming({card: face, face: card}, m.symmetry.id_binds))
    hyper = m.card(card).hyper or m.card(face).hyper
    return replace(s, entered=entered) if s.entered != entered and not hyper else s


def flip(m: Game, s: State, card: int, out: list[Event], kind: tuple[str, str] | None = None) -> State:
    """R805.1a-b, R805.5: turn a double-sided card in the battle zone over. Its other face takes its place in
    every part of the state (zones, tapped, links, the attack, effects, waiting abilities), except the memory of
    the creatures put into the battle zone this turn, which stays with the face that arrived: an awakened face
    is never sick (805.6), a face turned back by release is sick only if that face arrived this turn (805.6a);
    a dragheart's arrival is remembered for both faces (807.5a, model/turn.py `arrivals`). R807.1a: a weapon
    turning into its dragheart creature leaves the creature it was equipped to. The renaming is `turn_over`;
    hyper mode (816.2-3) is its own kind of flip."""
    face = m.faces.get(card)
    owner = m.owner(card)
    if face is None or card not in s.zone(owner).battle and not _equipped(s.zone(owner), card):
        return s   # a card that left (or a single-faced one) is not turned over
    s = _unequip(s, owner, card) if m.card(card).dragheart else s
    s = turn_over(m, s, card)
    if m.card(face).hyper or m.card(card).hyper:
        out.append(ev("flip", "R816.2" if m.card(face).hyper else "R816.3", card=m.label(card), face=m.label(face),
                      player=owner, how="hyper" if m.card(face).hyper else "hyper_end"))
        return s
    rule, how = kind or _flip_kind(m, face)
    out.append(ev("flip", rule, card=m.label(card), face=m.label(face), player=owner, how=how))
    return s


def _equipped(z, card: int) -> bool:
    return any(c == card and kind == "weapon" for c, _, kind in z.links)


def _unequip(s: State, owner: str, card: int) -> State:
    """R807.1a: a weapon that turns into its creature face stands alone in the battle zone (its tapped state,
    305.2a, is its own and stays)."""
    z = s.zone(owner)
    if not _equipped(z, card):
        return s
    z = replace(z, links=tuple(link for link in z.links if link[0] != card))
    return s.with_zone(owner, z.move("attached", "battle", card))


def _flip_kind(m: Game, face: int) -> tuple[str, str]:
    """The rule and name of a flip to `face`: awakening or release (805.1a-b), dragsolution to a dragheart
    creature face or dragon escape from one (807.1a-b)."""
    new = m.card(face)
    if new.type == "field":   # 819.1b: a WD field turned upside down, its other side upright
        return ("R819.1b", "upside_down")
    if new.dragheart:
        return ("R807.1a", "dragsolution") if new.type == "creature" else ("R807.1b", "dragon_escape")
    return ("R805.1a", "awaken") if new.awakened else ("R805.1b", "release")


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
        out.append(ev("link", "R808.1" if m.card(main).dragheart else "R806.1", card=m.label(cell),
                      onto=m.label(main), player=me))
    return s


_SCHEMA_LINK = {
    "doc": "awakening link (805.1c): this psychic creature and one own psychic creature of each card named in "
           "`with` (their front names) turn over at once into one psychic super creature (806.1), this card's "
           "other face on top and the others' other faces (its cells) under it; on a dragheart fortress, a "
           "super dragsolution into a dragheart super creature (808.1); nothing happens unless all are in the "
           "battle zone",
    "properties": {"with": {"type": "array", "items": {"type": "string", "minLength": 1}, "minItems": 1,
                            "maxItems": 5}},
    "required": ["with"],
}
op("link", schema=_SCHEMA_LINK)((lambda m, s, t, i: None, _link))


# ---- link release (806.1b, 806.2): destruction.py `_leave` pushes `_link_release` ----------------------------
def _cells_options(m, s, task, top, attack: bool = False):
    """The cards of the super creature `top`, one of which its owner chooses to leave (806.1b, 808.1b). R806.2a
    (`attack`): when the super creature was attacking and two or more creatures stay, the attacking player (its
    owner) picks, with it, the creature that goes on attacking."""
    z = s.zone(m.owner(top))
    if top not in z.battle:
        return []
    cells = (top,) + under(z, top)
    opts: list[tuple[tuple[int, ...], str]] = []
    for c in cells:
        text = (f"{task.controller} chooses {m.label(c)} to leave (and return to the hyperspatial zone); the other "
                f"cards of {m.label(top)} turn over")
        rest = [k for k in cells if k != c]
        if attack and s.attacker == top and len(rest) >= 2:
            opts += [((c, k), f"{text}; {m.label(k)}'s creature goes on attacking (806.2a)") for k in rest]
        else:
            opts.append(((c,), text))
    return opts


def _release_options(m, s, task, ins):
    return _cells_options(m, s, task, ins.get("card"), attack=True)


def _link_release(m, s, task, ins, choice, out):
    """R806.1b: instead of the super creature leaving (by no replacement effect), the cell its owner chose leaves,
    alone, for where the creature was going (from there it returns to the hyperspatial zone, 805.4b: the reading of
    dmwiki.net's "リンク解除"), no creature leaving (806.1e); the others turn over to their psychic creatures."""
    return split(m, s, task.controller, ins.get("card"), choice, str(ins.get("to")), out, ("R806.1b", "link_release"))


def split(m: Game, s: State, owner: str, top: int, choice, to: str, out: list[Event], kind: tuple[str, str]) -> State:
    """A super creature `top` comes apart (806.1b link release, 808.1b cell escape): the card chosen goes to `to`
    and the others turn over (`kind`: the rule and name of that flip). R806.2: these are the same creature, tapped
    if it was, each with the effects on it (model/gods.py's hand-over and sharing, as 804.4 does for Gods)."""
    z = s.zone(owner)
    if top not in z.battle or not choice:
        return s
    cells = (top,) + under(z, top)
    home, rest = choice[0], [c for c in cells if c != choice[0]]
    tapped = top in z.tapped
    z = replace(z, links=tuple(link for link in z.links if not (link[2] == "under" and link[0] in cells)))
    for c in rest[1:] if home != top else rest:
        z = z.move("attached", "battle", c)
    if tapped:
        z = replace(z, tapped=tuple(sorted(set(z.tapped) | set(rest))))
    s = s.with_zone(owner, z)
    keeper = choice[1] if len(choice) > 1 else top if home != top else rest[0]   # 806.2a: the attacker's pick
    s = gods._hand_over(s, top, keeper) if keeper != top else s
    for c in rest:
        s = gods._share(s, keeper, c) if c != keeper else s
    z = s.zone(owner)
    s = s.with_zone(owner, z.unlink(home).remove("battle" if home == top else "attached", home).add(to, home))
    s = s.forget(home)
    out.append(ev("move", kind[0], card=m.label(home), player=owner,
                  **{"from": "battle", "to": "deck" if to.startswith("deck") else to}))
    for c in rest:
        s = flip(m, s, c, out, kind)
    return s


op("_link_release")((_release_options, _link_release))


# ---- cell escape (808.1b): a replacement effect of a dragheart super creature --------------------------------
def _escape_options(m, s, task, ins):
    return _cells_options(m, s, task, task.source)


def _cell_escape(m, s, task, ins, choice, out):
    """R808.1b: instead of leaving the battle zone (a replacement effect: the ability `replaces: self_leave`), the
    dragheart super creature returns one of its cards, its owner's choice, to the hyperspatial zone, and the rest
    turn over (to their weapons or fortresses). R808.1d: the card that goes is no creature leaving."""
    return split(m, s, task.controller, task.source, choice, "hyperspatial", out, ("R808.1b", "cell_escape"))


_SCHEMA_CELL_ESCAPE = {
    "doc": "cell escape (龍魂回避, 808.1b), the effect of a `replaces: self_leave` ability of a dragheart super "
           "creature: one of its cards, its owner's choice, returns to the hyperspatial zone and the others turn over",
    "properties": {},
}
op("cell_escape", schema=_SCHEMA_CELL_ESCAPE)((_escape_options, _cell_escape))
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
