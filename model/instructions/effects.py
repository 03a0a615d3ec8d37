"""The card vocabulary's instructions (model/vocabulary.py): what each may choose and what it does.

Identical cards are offered once (see `ops.distinct`). Moving a creature out of the battle zone
goes through `destruction.leave`, so replacement effects (EX Life, Escape, ...) get their say.
"""

from __future__ import annotations

from itertools import permutations
from typing import TYPE_CHECKING

from .. import dream, fields, mana
from ..access import TOP
from ..access import players as footprint_players
from ..events import Event, EventKind, ev
from ..instr import Instr
from ..piles import is_evolution_now
from ..record import build
from ..state import State, Task, other, replace, setter
from ..vocabulary import EXTRA_BREAK, NEO
from . import destruction, draws
from .common import creatures, distinct, multisets
from .god_links import link_on_entry
from .pile_moves import start_counts
from .registry import (
    BIND,
    COUNTS,
    NONE,
    PROGRAM,
    WHOSE,
    ZONES,
    Option,
    bind,
    deterministic,
    footprint,
    instr,
    op,
    program_footprint,
    push,
)
from .selection import WHICH

if TYPE_CHECKING:
    from ..game import Game


_with_spells_cast = setter(State, "spells_cast")

# ---- casting and summoning ---------------------------------------------------------------------
def cast(m: Game, s: State, player: str, cid: int, zone: str, then: str, out: list[Event]) -> State:
    """Cast a spell for free: it waits in `resolving`, its watchers trigger, its effect runs next."""
    s = s.with_zone(player, s.zone(player).move(zone, "resolving", cid))
    a, b = s.spells_cast
    s = _with_spells_cast(s, (a + 1, b) if player == "A" else (a, b + 1))
    out.append(build(Event, ("Event", "cast", (("card", m.label(cid)), ("player", player)), "")))
    s = m.trigger(s, "cast", player, cid, out)
    # a twinpact is cast as its spell side (S214)
    return push(s, Task(program=m.card(cid).as_spell().effect, pc=0, controller=player, source=cid,
                        ability=m.name(cid), spell=cid, then=then))


def summon(m: Game, s: State, player: str, cid: int, zone: str, out: list[Event], *, summoned: bool = False) -> State:
    """Put a creature (or tamaseed) into the battle zone, whatever puts it there (an S-Trigger, Ninja Strike,
    Revolution 0, any "put" or "summon"). An evolution creature goes onto a creature it can evolve from, its
    owner choosing, or cannot be put at all (801.1, 801.1a); a NEO creature may go onto one or alone (802.1);
    an S-MAX evolution creature needs no source (815.1): those are `_put_evolution`'s
    (model/instructions/piles.py). Everything else enters at once (`enter`).

    `summoned`: the card is summoned (R701.3a: S-Trigger, S-Back, Sabaki Z summon, R112.3a-d, and so does a
    Revolution 0 (dmwiki "閃光の精霊カンビアーレ"), unlike a Revolution 0 Trigger creature, which is put;
    Ninja Strike, R112.3c; a "use" of Mechraid or Kirifu Dash; GR summon, 701.30a), not merely put: it emits
    `summoned` besides `enters`. An effect that puts a creature into the battle zone (put_creature_free,
    look_top, a psychic creature) leaves it False."""
    cdef = m.card(cid)
    if dream.barred(m, s, cid):   # 817.2: not while a same-name Dream element of its owner is there
        out.append(ev("fizzle", "817.2", card=m.label(cid), player=player, ability="put into the battle zone"))
        return s
    if cdef.evolution() or cdef.has(NEO):
        args = {"card": cid, "zone": zone, "summoned": True} if summoned else {"card": cid, "zone": zone}
        return push(s, Task(program=(instr("_put_evolution", **args),), pc=0, controller=player,
                            source=cid, ability=f"{m.name(cid)} (801)"))
    return enter(m, s, player, cid, zone, out, summoned=summoned)


# the rule an event `put` into the battle zone cites, by the zone the card came from
_PUT_RULES = {"hand": "R112.3a", "standby": "R112.3a", "super_gr": "R701.30a"}


def enter(m: Game, s: State, player: str, cid: int, zone: str, out: list[Event], *, summoned: bool = False) -> State:
    """The card goes from `zone` into the battle zone alone; its 'enters' and the watchers trigger (R112.3a),
    and its `summoned` too when it was summoned (R701.3a)."""
    z = s.zone(player)
    s = s.with_zone(player, (z.unlink(cid) if cid in z.tapped else z).move(zone, "battle", cid))   # 400.5b: untapped
    # ev("put", rule, card=..., player=..., from=zone, to="battle") without a keyword dict
    out.append(build(Event, ("Event", "put", (("card", m.label(cid)), ("player", player), ("from", zone),
                                              ("to", "battle")), _PUT_RULES.get(zone, ""))))
    s = link_on_entry(m, s, player, cid)   # 804.1a: a God enters linked, if its owner links it
    return entered(m, s, player, cid, out, summoned)


def deploy(m: Game, s: State, player: str, cid: int, zone: str, out: list[Event]) -> State:
    """701.27a, 308.1-308.2: deploy a field: it goes from `zone` (the hand, usually) into the battle zone,
    neither summoned nor cast (701.5a); its 'enters' watchers trigger as any card's."""
    out.append(ev("deploy", "R701.27a", card=m.label(cid), player=player))
    return enter(m, s, player, cid, zone, out)


def entered(m: Game, s: State, player: str, cid: int, out: list[Event], summoned: bool) -> State:
    """The events of a creature that came into the battle zone: `enters` always, `summoned` for a summon
    (R701.3a: one event of the summon, not of every way into the battle zone). A D2 field that entered sends
    the older D2 field to its owner's graveyard first (703.4l, a state-based action: before any trigger)."""
    for older in fields.displaced(m, s, cid):
        out.append(ev("displace", "R703.4l", card=m.label(older), player=m.owner(older)))
        # put from the battle zone into the graveyard: an attempt to destroy it (701.6a), not stopped by
        # "cannot be destroyed" (a rule, not an effect, sends it), its owner's replacements still apply (609)
        out.append(ev("destroy", "R703.4l", card=m.label(older), player=m.owner(older)))
        s = destruction.leave(m, s, older, "graveyard", out, destroy=True)
    s = m.trigger(s, "enters", player, cid, out)
    return m.trigger(s, "summoned", player, cid, out) if summoned and "summoned" in m.words else s


def move_cards(m: Game, s: State, player: str, cards, src: str, dst: str, out: list[Event],
               kind: EventKind = "move") -> State:
    """Move a player's cards between two of his zones, one event each (`deck` takes them from the top); a card
    leaving the mana zone leaves its tapped mark there (400.5), a multicoloured card entering it is tapped (405.1)."""
    if not cards:
        return s
    z = s.zone(player)
    for cid in cards:
        z = (z.unlink(cid) if cid in z.tapped else z).move(src, dst, cid)
        # ev(kind, card=..., player=..., from=src, to=dst), its fields built without a keyword dict
        out.append(Event(kind, (("card", m.label(cid)), ("player", player), ("from", src), ("to", dst)), ""))
        if dst == "mana":
            z = mana.entered(m, z, cid, out)
    return s.with_zone(player, z)


def _cast_free_options(m, s, task, ins):
    me = task.controller
    limit = ins.get("cost_max")
    limit = len(s.zone(me).mana) if limit == "mana" else int(limit)
    opts: list[Option] = []
    for zone in ins.get("from"):
        # a twinpact outside the battle zone is a spell too, with its spell side's cost (S214)
        # 405.4: a face-down mana card has no card type, so it is no spell
        cands = [c for c in getattr(s.zone(me), zone) if m.card(c).is_spell() and m.card(c).as_spell().cost <= limit
                 and not (zone == "mana" and c in s.zone(me).face_down)]
        for cid in distinct(m, s, cands):
            opts.append((("cast", cid, zone), f"{me} casts {m.label(cid)} from {zone} for free "
                                              f"(cost {m.card(cid).as_spell().cost} <= {limit})"))
    if ins.get("optional", False):
        opts.append((NONE, f"{me} casts no spell"))
    return opts


def _cast_free(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    _, cid, zone = choice
    return cast(m, s, task.controller, cid, zone, ins.get("then") or "graveyard", out)


def _spells_of(m: Game, player: str) -> tuple[str, ...]:
    return tuple(sorted({i.card for i in m.instances if i.owner == player and m.pool[i.card].is_spell()}))


def _cast_free_footprint(m, ins, me, seen):
    out = {(zone, me, "w") for zone in ins.get("from")}
    out |= {("resolving", me, "w"), ("spells_cast", me, "add"), ("pending", "*", "add")}
    if ins.get("cost_max") == "mana":
        out.add(("mana", me, "r"))
    # where the spell goes afterwards (Q02: Charger to the mana zone)
    out.add(("deck", me, "w") if ins.get("then") == "deck_bottom" else ("graveyard", me, "add"))
    spells = _spells_of(m, me)
    if any(m.pool[c].as_spell().has("to_mana_after_resolving") for c in spells):
        out.add(("mana", me, "add"))
    # the spells it may cast run their programs now, inside this resolution
    for spell in spells:
        if spell in seen:
            continue
        out |= program_footprint(m, m.pool[spell].as_spell().effect, me, seen | {spell})
    return frozenset(out)


_SCHEMA_CAST_FREE = {
    "doc": "may cast one spell for free from the given zones with cost at most a limit",
    "properties": {
        "from": {"type": "array", "items": ZONES, "minItems": 1},
        "cost_max": {"description": "a number or the word mana (cards in own mana zone)",
                     "anyOf": [{"type": "integer", "minimum": 0}, {"enum": ["mana"]}]},
        "then": {"enum": ["deck_bottom", "graveyard"]},
        "optional": {"type": "boolean"},
    },
    "required": ["from", "cost_max"],
}
op("cast_free", schema=_SCHEMA_CAST_FREE, footprint=_cast_free_footprint)((_cast_free_options, _cast_free))


_PLACES = {"mana": "the mana zone", "deck_bottom": "the bottom of the deck", "graveyard": "the graveyard"}


def _spell_destination_options(m, s, task, ins):
    # `charger_cast_destination=owner_chooses`: Charger and the casting effect both name a place
    cid = ins.get("card")
    return [((to,), f"{task.controller} puts {m.label(cid)} into {_PLACES.get(to, to)}") for to in ins.get("to")]


def _spell_destination(m, s, task, ins, choice, out):
    return m.put_resolved_spell(s, ins.get("card"), choice[0], out)


op("_spell_destination")((_spell_destination_options, _spell_destination))


# ---- moving creatures --------------------------------------------------------------------------
def _target_options(verb: str, untapped: bool = False):
    def options(m, s, task, ins):
        me = task.controller
        opts = [((cid,), f"{me} {verb} {m.label(cid)}")
                for cid in creatures(m, s, me, ins.get("whose", "any"), untapped, ins.get("which"))]
        if opts and ins.get("optional", False):
            opts.append((NONE, f"{me} chooses no creature"))
        return opts
    return options


def _return_to_hand(m, s, task, ins, choice, out):
    s, counts = start_counts(s, ins)
    if choice != NONE and ins.get("bind"):
        s = bind(s, ins.get("bind"), choice[0])   # "if it was returned" reads where it went
    return s if choice == NONE else destruction.leave(m, s, choice[0], "hand", out, counts=counts,
                                                      replaceable=not destruction.by_replacement(task))


def _to_mana(m, s, task, ins, choice, out):
    s, counts = start_counts(s, ins)
    return s if choice == NONE else destruction.leave(m, s, choice[0], "mana", out, counts=counts,
                                                      replaceable=not destruction.by_replacement(task))


def _destroy(m, s, task, ins, choice, out):
    s, counts = start_counts(s, ins)
    if choice == NONE:
        return s
    if ins.get("bind"):
        s = bind(s, ins.get("bind"), choice[0])   # Q13: the creature it tried to destroy
    return destruction.attempt(m, s, choice[0], out, repeat=bool(ins.get("repeat", False)),
                               replaceable=not destruction.by_replacement(task), counts=counts)


_SCHEMA_RETURN_TO_HAND = {
    "doc": "return one creature in the battle zone to its owner's hand (with the cards under it and its "
           "auras, 801, 310.8); `bind` names it for later instructions",
    "properties": {"which": WHICH, "whose": WHOSE, "optional": {"type": "boolean"}, "bind": BIND, **COUNTS},
}
op("return_to_hand", schema=_SCHEMA_RETURN_TO_HAND)((_target_options("returns"), _return_to_hand))
_SCHEMA_TO_MANA = {
    "doc": "put one creature into its owner's mana zone (with the cards under it and its auras, S221)",
    "properties": {"which": WHICH, "whose": WHOSE, "optional": {"type": "boolean"}, **COUNTS},
}
op("to_mana", schema=_SCHEMA_TO_MANA)((_target_options("puts into the mana zone"), _to_mana))
_SCHEMA_DESTROY = {
    "doc": "destroy one creature (R701.6a); `bind` names the creature tried (Q13); with `repeat` it is "
           "destroyed again each time a replacement keeps it, until its owner stops replacing (Q14)",
    "properties": {"which": WHICH, "whose": WHOSE, "optional": {"type": "boolean"}, "bind": BIND,
                   "repeat": {"type": "boolean"}, **COUNTS},
}
op("destroy", schema=_SCHEMA_DESTROY)((_target_options("destroys"), _destroy))


def _destroy_self(m, s, task, ins, choice, out):
    owner = m.owner(task.source)
    if task.source not in s.zone(owner).battle:
        return s   # it already left: there is nothing to destroy (S002's reading keeps the break replaced)
    return destruction.attempt(m, s, task.source, out, replaceable=not destruction.by_replacement(task))


_SCHEMA_DESTROY_SELF = {
    "doc": "destroy this creature (a Shield Saver's replacement)",
    "properties": {},
}
op("destroy_self", schema=_SCHEMA_DESTROY_SELF)((deterministic, _destroy_self))


def _deck_top_and_back_options(m, s, task, ins):
    return [((cid,), f"{task.controller} puts {m.label(cid)} on top of the deck and back into the battle zone")
            for cid in creatures(m, s, task.controller, "own")   # non-evolution (a NEO with cards under it is one)
            if not is_evolution_now(m.card(cid), s.zone(task.controller), cid)]


def _deck_top_and_back(m, s, task, ins, choice, out):
    cid = choice[0]
    s = bind(s, "it", cid)
    s = push(s, Task(program=(instr("_summon_from_deck_top", card=cid),), pc=0, controller=task.controller,
                     source=task.source, ability=task.ability))
    return destruction.leave(m, s, cid, "deck_top", out)


def _summon_from_deck_top(m, s, task, ins, choice, out):
    cid, me = ins.get("card"), task.controller
    if s.zone(me).deck[:1] != (cid,):
        return s   # it did not get there (a replacement kept it in the battle zone)
    return summon(m, s, me, cid, "deck", out)


_SCHEMA_DECK_TOP_AND_BACK = {
    "doc": "put one own non-evolution creature on the deck top, then from there into the battle zone; "
           "later instructions call it 'it'",
    "properties": {},
}
op("deck_top_and_back", schema=_SCHEMA_DECK_TOP_AND_BACK)((_deck_top_and_back_options, _deck_top_and_back))
op("_summon_from_deck_top")((deterministic, _summon_from_deck_top))


def _put_self_options(m, s, task, ins):
    me, cid = task.controller, task.source
    if cid not in s.zone(me).graveyard:
        return []
    put = [((cid,), f"{me} puts {m.label(cid)} from the graveyard into the battle zone")]
    if ins.get("optional", True) is False:
        return put   # a "must" (A27's forced loop probe); without `optional: false` it may be declined
    return put + [(NONE, f"{me} leaves {m.label(cid)} in the graveyard")]


def _put_self(m, s, task, ins, choice, out):
    return s if choice == NONE else summon(m, s, task.controller, choice[0], "graveyard", out)


_SCHEMA_PUT_SELF_INTO_BATTLE = {
    "doc": "put this card from where it is (e.g. the graveyard) into the battle zone; its controller may "
           "decline unless `optional: false`",
    "properties": {"optional": {"type": "boolean"}},
}
op("put_self_into_battle", schema=_SCHEMA_PUT_SELF_INTO_BATTLE)((_put_self_options, _put_self))


def _from_graveyard_options(m, s, task, ins):
    me = task.controller
    ref = task.bound(ins.get("cost_below"))
    if ref is None:
        return []
    limit = m.card(ref).cost
    cands = [c for c in s.zone(me).graveyard if m.card(c).type == "creature" and m.card(c).cost < limit]
    opts = [((cid,), f"{me} puts {m.label(cid)} (cost {m.card(cid).cost} < {limit}) from the graveyard "
                     f"into the battle zone") for cid in distinct(m, s, cands)]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} puts no creature from the graveyard"))
    return opts


_SCHEMA_PUT_FROM_GRAVEYARD = {
    "doc": "put a creature from own graveyard into the battle zone with cost below that of a bound card",
    "properties": {"cost_below": BIND, "optional": {"type": "boolean"}},
    "required": ["cost_below"],
}
op("put_from_graveyard", schema=_SCHEMA_PUT_FROM_GRAVEYARD)((_from_graveyard_options, _put_self))


# ---- breaking ----------------------------------------------------------------------------------
def _breaker(task: Task, ins: Instr) -> int | None:
    """Who breaks: the creature chosen earlier ('it'), the creature whose ability this is ('this'), or
    the spell or ability itself ('self')."""
    if ins.get("by") == "it":
        return task.bound("it")
    return task.spell if task.spell >= 0 else task.source


def additional_breaks(m: Game, s: State, cid: int) -> int:
    """The shields creature `cid` breaks beyond its breaker: its own Extra Break and what effects gave
    it this turn (110.2e, S159: an effect reaches the creatures there when it resolves)."""
    n = m.keyword_total(s, cid, EXTRA_BREAK)   # every printed copy (110.2c); none while ignored
    for c, k in s.extra_breaks:
        if c == cid:
            n += k
    return n


def _break_options(m, s, task, ins):
    me = task.controller
    defender = other(me)
    by = _breaker(task, ins)
    n = min(_effect_break_count(m, s, ins, by), len(s.zone(defender).shields))
    if n == 0 or by is None:
        return []
    return [(combo, f"{me} chooses {m.shield_list(combo)} to break with {m.label(by)}")
            for combo in m.shield_choices(s, defender, n)]


def _effect_break_count(m, s, ins, by: int | None) -> int:
    """How many shields an effect has a creature break: its count, plus the creature's additional breaks
    under `extra_break_applies_to_effect_breaks=yes` (S161, S162; the reading is looked up only when the
    creature has one). Breaker abilities never apply to such a break (S031, Q04)."""
    count = ins.get("count")
    if by is None or ins.get("by") == "self":
        return count
    extra = additional_breaks(m, s, by)
    if extra and m.readings.get("extra_break_applies_to_effect_breaks") == "yes":
        return count + extra
    return count


def _break(m, s, task, ins, choice, out):
    by = _breaker(task, ins)
    return m.open_frame(s, by, ins.get("by") != "self", other(task.controller), choice, False, out)


_SCHEMA_BREAK_SHIELDS = {
    "doc": "break opponent shields: by 'it' (the creature chosen earlier) or 'this' (the creature whose "
           "ability this is): before-break abilities trigger and its additional breaks may count; by 'self' "
           "(this spell or ability): nothing triggers",
    "properties": {"count": {"type": "integer", "minimum": 1}, "by": {"enum": ["it", "this", "self"]}},
    "required": ["count", "by"],
}
op("break_shields", schema=_SCHEMA_BREAK_SHIELDS)((_break_options, _break))


def _extra_break(m, s, task, ins, choice, out):
    """110.2e (S159): the effect reaches the controller's creatures in the battle zone now; a creature
    put there later (a Revolution Change, a creature that left and came back) does not get it."""
    me, amount = task.controller, ins.get("amount", 1)
    reached = [c for c in s.zone(me).battle if m.card(c).type == "creature"]
    if not reached:
        return s
    extra = dict(s.extra_breaks)
    for c in reached:
        extra[c] = extra.get(c, 0) + amount
    return replace(s, extra_breaks=tuple(sorted(extra.items())))


_SCHEMA_EXTRA_BREAK = {
    "doc": "this turn, own creatures in the battle zone now break that many more shields (not those put "
           "there later, 110.2e)",
    "properties": {"amount": {"type": "integer", "minimum": 1}},
}
op("extra_break", schema=_SCHEMA_EXTRA_BREAK,
   footprint=lambda m, ins, me, seen: frozenset({("extra_breaks", me, "add"), ("battle", me, "r")}),
   simple=True)((deterministic, _extra_break))


# ---- cards in hand and deck --------------------------------------------------------------------
def _draw_options(m, s, task, ins):
    if not ins.get("up_to", False):
        return None
    n = min(ins.get("count"), len(s.zone(task.controller).deck))
    return [((k,), f"{task.controller} draws {k}") for k in range(n, -1, -1)]


def _draw(m, s, task, ins, choice, out):
    return draw_n(m, s, task, choice[0] if choice is not None else ins.get("count"), ins.get("bind"), out)


def draw_n(m: Game, s: State, task: Task, n: int, name: str | None, out: list[Event]) -> State:
    """R114.2: a draw of n is n draws of one card, each an event abilities may watch (one trigger per card
    drawn, after its own move); a draw from an empty deck draws nothing and triggers nothing (114.6a). Each
    of the n meets the drawer's draw replacements, even from an empty deck (R114.4a, R114.6a). `name` binds
    the last card drawn."""
    me, words = task.controller, m.words
    if draws.OWN_DRAW in words and draws.replaceable(m, s, task):
        return draws.one_at_a_time(s, task, n, name)
    deck = s.zone(me).deck
    n = min(n, len(deck))
    if "draw" not in words and not name:
        return move_cards(m, s, me, deck[:n], "deck", "hand", out)
    card = -1
    for _ in range(n):
        s, card = draws.draw_card(m, s, me, out)
    return bind(s, name, card) if name and card >= 0 else s


def _draw_footprint(m, ins, me, seen):
    """Two draws commute; a draw some ability watches adds pending effects too (R114.2)."""
    if draws.OWN_DRAW in m.words:
        return TOP   # a replacement's effect may do anything (R114.4)
    found = {("deck", me, "top>hand"), ("hand", me, "add")}
    return frozenset(found | {("pending", "*", "add")} if "draw" in m.words else found)


_SCHEMA_DRAW = {
    "doc": "draw cards; with up_to the controller picks how many; `bind` names the last card drawn (none when "
           "that draw was replaced, R114.4b); each draw meets the drawer's `own_draw` replacements (R114.4a)",
    "properties": {"count": {"type": "integer", "minimum": 1}, "up_to": {"type": "boolean"}, "bind": BIND},
    "required": ["count"],
}
op("draw", schema=_SCHEMA_DRAW, footprint=_draw_footprint, simple=True)((_draw_options, _draw))


def _each_player_draws(m, s, task, ins, choice, out):
    """R114.2a: when an effect has several players draw, the turn player draws all of his cards first, then
    the other player. Each draws as the controller of his own draw (his draw replacements and what watches
    his draws meet it): two tasks, the turn player's on top."""
    step = instr("draw", count=ins.get("count"))
    for who in (other(s.turn), s.turn):
        s = push(s, Task(program=(step,), pc=0, controller=who, source=task.source, ability=task.ability))
    return s


_SCHEMA_EACH_PLAYER_DRAWS = {
    "doc": "each player draws `count` cards: the turn player all of his first, then the other (R114.2a)",
    "properties": {"count": {"type": "integer", "minimum": 1}},
    "required": ["count"],
}
op("each_player_draws", schema=_SCHEMA_EACH_PLAYER_DRAWS)((deterministic, _each_player_draws))


def discarder(task, ins) -> str:
    """Whose hand the discard takes from: the effect's controller, or with `whose: opponent` his opponent."""
    return other(task.controller) if ins.get("whose") == "opponent" else task.controller


def discard_chooser(m, s, task, ins) -> str:
    """R701.7b: the discarding player picks the card, unless the effect names another (`chooser: controller`,
    the effect's controller when the discarder is his opponent). A random discard (`chooser: random`) is every
    card it could be, all explored; the explorer counts that branch as the discarder's."""
    return task.controller if ins.get("chooser") == "controller" else discarder(task, ins)


def _discard_options(m, s, task, ins):
    me = discarder(task, ins)
    hand = s.zone(me).hand
    n = min(ins.get("count", 1), len(hand))
    optional = ins.get("optional", False)
    how = (discard_chooser(m, s, task, ins), ins.get("chooser", "discarder"))
    if not m.symmetry.members.isdisjoint(hand):   # identical twins: their roles in the state tell them apart
        return _discard_list(m, me, multisets(m, s, list(hand), n) if n else [], optional, how)
    known = vars(m).setdefault("_discard_options", {})   # otherwise the hand alone decides
    found = known.get((me, hand, n, optional, how))
    if found is None:
        if len(known) > 65536:
            known.clear()
        found = known[me, hand, n, optional, how] = _discard_list(
            m, me, multisets(m, s, list(hand), n) if n else [], optional, how)
    return found


def _discard_list(m, me: str, combos: list, optional: bool, how: tuple[str, str]) -> list:
    by = {"discarder": "", "controller": f" chosen by {how[0]}", "random": " at random"}[how[1]]
    opts = [(tuple(combo), f"{me} discards {', '.join(m.label(c) for c in combo)}{by}") for combo in combos]
    if optional:
        opts.append((NONE, f"{me} discards nothing"))
    return opts


def _discard(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    s = move_cards(m, s, discarder(task, ins), choice, "hand", "graveyard", out)
    then = ins.get("if_done")
    if then and choice:
        s = push(s, Task(program=then, pc=0, controller=task.controller, source=task.source, ability=task.ability))
    return s


def _discard_footprint(m, ins, me, seen):
    who = other(me) if ins.get("whose") == "opponent" else me
    out = {("hand", who, "w"), ("graveyard", who, "add")}
    for sub in ins.get("if_done") or ():
        out |= footprint(m, sub, me, seen)
    return frozenset(out)


_SCHEMA_DISCARD = {
    "doc": "discard one card from a hand per count (own, or the opponent's with `whose: opponent`); the discarder "
           "picks the cards unless `chooser` says the effect's controller picks or they go at random (R701.7b); "
           "with optional the controller may decline, and 'if_done' runs only if a card was discarded",
    "properties": {"count": {"type": "integer", "minimum": 1}, "optional": {"type": "boolean"},
                   "if_done": PROGRAM, "whose": {"enum": ["own", "opponent"]},
                   "chooser": {"enum": ["discarder", "controller", "random"]}},
}
op("discard", chooser=discard_chooser, schema=_SCHEMA_DISCARD,
   footprint=_discard_footprint)((_discard_options, _discard))


def _mechraid_options(m, s, task, ins):
    me = task.controller
    top = s.zone(me).deck[:3]
    n, keyword = ins.get("n"), ins.get("keyword")
    usable = [c for c in top if m.card(c).has(keyword) and m.card(c).cost <= n]
    if m.symmetry.members.isdisjoint(usable):   # no identical twin to choose among: the state adds nothing
        known = vars(m).setdefault("_mechraid_options", {})
        found = known.get((me, top, n, keyword))
        if found is None:
            if len(known) > 65536:
                known.clear()
            found = known[me, top, n, keyword] = _mechraid_list(m, me, list(top), n, sorted(usable))
        return found
    return _mechraid_list(m, me, list(top), n, distinct(m, s, usable))


def bottom_orders(m, cards) -> list[tuple[int, ...]]:
    """401.4: several cards put on the top or bottom of one deck together go in the order their owner chooses,
    unless the effect says otherwise: every order of `cards`, one per order of distinct cards (identical cards
    are one order, each named by its lowest instance first), so the explorer branches over the owner's choice."""
    pools: dict[str, list[int]] = {}
    for cid in sorted(cards):
        pools.setdefault(m.instances[cid].card, []).append(cid)
    found, seen = [], set()
    for order in permutations(cards):
        names = tuple(m.instances[c].card for c in order)
        if names in seen:
            continue
        seen.add(names)
        taken = {name: iter(ids) for name, ids in pools.items()}
        found.append(tuple(next(taken[name]) for name in names))
    return found


def _mechraid_list(m, me: str, top: list[int], n: int, representatives: list[int]) -> list:
    """The options of a Mechraid looking at `top`: which of `representatives` to use (or none), and every
    order of the rest on the deck bottom (401.4, `bottom_orders`)."""
    opts: list[Option] = []
    for use in [None] + representatives:
        for canon in bottom_orders(m, [c for c in top if c != use]):
            what = f"uses {m.label(use)}" if use is not None else "uses no card"
            bottom = ", ".join(m.label(c) for c in canon) or "nothing"
            opts.append(((use if use is not None else -1,) + canon,
                         f"{me} looks at {', '.join(m.label(c) for c in top)} (Mechraid {n}), {what}, "
                         f"puts {bottom} on the deck bottom"))
    return opts


def _mechraid(m, s, task, ins, choice, out):
    me = task.controller
    use, rest = choice[0], choice[1:]
    s = move_cards(m, s, me, rest, "deck", "deck_bottom", out)
    if use < 0:
        return s
    if m.card(use).type == "spell":
        return cast(m, s, me, use, "deck", "graveyard", out)
    return summon(m, s, me, use, "deck", out, summoned=True)   # Mechraid "uses" the card: a creature is summoned


_SCHEMA_MECHRAID = {
    "doc": "look at the top 3 cards of own deck, may use one with the keyword and cost at most n free, "
           "the rest to the deck bottom in any order",
    "properties": {"n": {"type": "integer", "minimum": 0}, "keyword": {"type": "string"}},
    "required": ["n", "keyword"],
}
op("mechraid", schema=_SCHEMA_MECHRAID)((_mechraid_options, _mechraid))


def _add_shield(m, s, task, ins, choice, out):
    me = task.controller
    return move_cards(m, s, me, s.zone(me).deck[:ins.get("count", 1)], "deck", "shields", out, "put")


_SCHEMA_ADD_SHIELD_FROM_DECK = {
    "doc": "put the top card of own deck into own shield zone",
    "properties": {"count": {"type": "integer", "minimum": 1}},
}
op("add_shield_from_deck", schema=_SCHEMA_ADD_SHIELD_FROM_DECK,
   footprint=lambda m, ins, me, seen: frozenset({("deck", me, "top>shields"), ("shields", me, "add")}),
   simple=True)((deterministic, _add_shield))


def _hand_to_shield_options(m, s, task, ins):
    me = task.controller
    up = " face up" if ins.get("face_up", False) else ""
    opts = [((cid,), f"{me} puts {m.label(cid)} from the hand into the shield zone{up}")
            for cid in distinct(m, s, s.zone(me).hand)]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} puts no card into the shield zone"))
    return opts


def _hand_to_shield(m, s, task, ins, choice, out):
    me = task.controller
    if choice == NONE:
        return s
    s = move_cards(m, s, me, choice, "hand", "shields", out, "put")
    if not ins.get("face_up", False):
        return s
    z = s.zone(me)   # R701.32b: a new face-up shield
    return s.with_zone(me, replace(z, face_up=tuple(sorted(set(z.face_up) | set(choice)))))


_SCHEMA_HAND_TO_SHIELD = {
    "doc": "put a card from own hand into own shield zone as a new shield (R701.32a); with `face_up: true`, a new "
           "face-up shield (R701.32b), whose continuous effects apply there (R113.6d)",
    "properties": {"optional": {"type": "boolean"}, "face_up": {"type": "boolean"}},
}
op("hand_to_shield", schema=_SCHEMA_HAND_TO_SHIELD)((_hand_to_shield_options, _hand_to_shield))


def _hand_to_bottom_options(m, s, task, ins):
    me = task.controller
    n = min(task.bound(ins.get("count")) or 0, len(s.zone(me).hand))
    if n == 0:
        return []
    # 401.4: which cards, and the order their owner puts them under the deck in
    return [(order, f"{me} puts {', '.join(m.label(c) for c in order)} on the deck bottom")
            for combo in multisets(m, s, s.zone(me).hand, n) for order in bottom_orders(m, combo)]


def _hand_to_bottom(m, s, task, ins, choice, out):
    me = task.controller
    return move_cards(m, s, me, choice, "hand", "deck_bottom", out)   # in the order chosen (401.4)


_SCHEMA_HAND_TO_DECK_BOTTOM = {
    "doc": "put as many cards from own hand on the deck bottom as a bound count says",
    "properties": {"count": BIND},
    "required": ["count"],
}
op("hand_to_deck_bottom", schema=_SCHEMA_HAND_TO_DECK_BOTTOM)((_hand_to_bottom_options, _hand_to_bottom))


# ---- marks on creatures ------------------------------------------------------------------------
def _tap(m, s, task, ins, choice, out):
    cid = choice[0]
    owner = m.owner(cid)
    s = s.with_zone(owner, replace(s.zone(owner), tapped=tuple(sorted(s.zone(owner).tapped + (cid,)))))
    out.append(ev("tap", "", card=m.label(cid), player=owner))
    return m.trigger(s, "tapped", owner, cid, out) if "tapped" in m.words else s


def _cant_attack(m, s, task, ins, choice, out):
    cid = choice[0]
    out.append(ev("cant_attack", "", card=m.label(cid), player=m.owner(cid)))
    return replace(s, cant_attack=tuple(sorted(set(s.cant_attack) | {cid})))


def _mark_footprint(mark: str):
    """Tapping or forbidding an attack marks one creature of `whose` (it reads who is in the battle zone)."""
    def fp(m, ins, me, seen):
        ps = footprint_players(me, ins.get("whose", "any"))
        found = {(mark, p, "w") for p in ps} | {("battle", p, "r") for p in ps}
        if mark == "tapped" and "tapped" in m.words:   # it becomes tapped: an event abilities may watch
            found.add(("pending", "*", "add"))
        return frozenset(found)
    return fp


_SCHEMA_TAP = {
    "doc": "tap one creature",
    "properties": {"which": WHICH, "whose": WHOSE},
}
op("tap", schema=_SCHEMA_TAP, footprint=_mark_footprint("tapped"))((_target_options("taps", untapped=True), _tap))
_SCHEMA_CANT_ATTACK = {
    "doc": "one creature cannot attack this turn (G-Strike)",
    "properties": {"which": WHICH, "whose": WHOSE},
}
op("cant_attack", schema=_SCHEMA_CANT_ATTACK, footprint=_mark_footprint("cant_attack"))(
    (_target_options("makes unable to attack this turn:"), _cant_attack))


# ---- the turn ----------------------------------------------------------------------------------
def _skip_options(m, s, task, ins):
    if not ins.get("optional", False):
        return None
    me = task.controller
    known = vars(m).setdefault("_skip_options", {})   # one list per player: the procedure's actions for it are
    found = known.get(me)                              # then built once too (BreakModel.actions)
    if found is None:
        found = known[me] = [(("yes",), f"{me} skips the rest of the turn"), (NONE, f"{me} does not skip the turn")]
    return found


def _skip(m, s, task, ins, choice, out):
    if choice == NONE:
        return s
    out.append(ev("skip_turn", "Q09", player=task.controller))
    # Q09: the rest of the turn is skipped: the break is cancelled and what was pending is dropped
    return replace(s, turn_skipped=True, pending=(), frames=(), running=(), checks=(), queued=(), over=True)


_SCHEMA_SKIP_TURN = {
    "doc": "skip the rest of the turn (Q09)",
    "properties": {"optional": {"type": "boolean"}},
}
op("skip_turn", schema=_SCHEMA_SKIP_TURN)((_skip_options, _skip))
