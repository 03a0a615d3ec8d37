"""The shield check pseudo-step (S004 of scenarios/corpus.yaml, its steps SC1-SC5).

Entered whenever shields go to a hand: by a break, by a break replaced with a shield recovery, or
by an effect in the middle of its resolution (which it then interrupts). Its steps are internal
instructions of one task, so nothing unrelated resolves until every declared ability is used
(R509.5e, R101.4): pending effects only resolve when no task is running.

SC1 the cards go to standby: still in the shield zone, not counted (R113.6a).
SC2 declarations: S-Trigger, G-Strike among them, S-Back from the hand with one matching card from
    them discarded now; no card serves two abilities; an S-Back card arriving now cannot be used
    (R112.3b: it is still in standby); locks and "cannot use S-Trigger" are obeyed.
SC3 every card goes to the hand; Sabaki Z (discarding a Judgement Crest that just arrived) and
    Revolution 0 may be declared.
SC4 the declared abilities are used one at a time in the order the owner chooses; a declared card
    that left the hand fizzles, a G-Strike does not; a castle leaves after its shield's S-Trigger
    (R304.3). Q14: inside an Escape chain the uses wait until the chain ends.
SC5 afterwards pending effects resolve, turn player first (R509.4a-b) — the procedure's usual rule.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Event, ev
from ..piles import stack
from ..record import build
from ..state import Check, Decl, State, Task, other, replace, setter
from ..vocabulary import S_TRIGGERS, SHIELD_CHECK_DECLARED
from . import effects
from .common import same
from .destruction import CHAIN
from .registry import BIND, Option, advance_pc, instr, op, push

# the names the declarations of a shield check show (the keyword table's, model/keyword_table.py)
S_TRIGGER, G_STRIKE, S_BACK, SABAKI, REVOLUTION_0 = SHIELD_CHECK_DECLARED

if TYPE_CHECKING:
    from ..game import Game

CHECK_PROGRAM = (instr("_declare"), instr("_to_hand"), instr("_declare_after"), instr("_use"), instr("_end_check"))


def start(m: Game, s: State, player: str, cards: tuple[int, ...], out: list[Event],
          s_trigger_ok: bool = True, collecting: bool = False) -> State:
    """SC1: put `cards` of `player`'s shield zone in standby and begin their check."""
    z = s.zone(player)
    # R113.6b: what gives S-Trigger by the state before standby is looked at now (a twinpact in the
    # graveyard is a spell there too, S214; standby moves no card of the graveyard)
    z, cards = _to_standby(z, cards)
    granted: tuple[int, ...] = ()
    if any(m.card(c).s_trigger_if for c in cards):
        spells = sum(1 for c in z.graveyard if m.card(c).is_spell())
        granted = tuple(c for c in cards
                        if dict(m.card(c).s_trigger_if).get("graveyard_spells_at_least", 99) <= spells)
    s = s.with_zone(player, z)
    deferred = any(t.bound(CHAIN) for t in s.running)
    check = Check(player=player, cards=tuple(sorted(cards)), s_trigger_ok=s_trigger_ok, granted=granted,
                  collecting=collecting, deferred=deferred)
    return _with_checks_running(s, s.checks + (check,), s.running + (_CHECK_TASKS[player],))


def _to_standby(z, shields: tuple[int, ...]):
    """SC1, R113.6a: the shields' cards go to standby — every card of a stacked shield with it (one
    shield, one break, all its cards looked at: S212, S213). The zones and the cards checked."""
    if not z.links:   # no stacked shield (nor anything else lying on a card): the shields alone
        for c in shields:
            z = z.move("shields", "standby", c)
        return z, tuple(shields)
    cards: list[int] = []
    for c in shields:
        z = z.move("shields", "standby", c)
        cards.append(c)
        for other_card in stack(z, c)[1:]:
            z = z.remove("attached", other_card).unlink(other_card).add("standby", other_card)
            cards.append(other_card)
    return z, tuple(cards)


def add_cards(m: Game, s: State, player: str, cards: tuple[int, ...], out: list[Event]) -> State:
    """A shield recovered by a break replacement joins the break's check (D4: all at once)."""
    if s.checks and s.checks[-1].collecting and s.checks[-1].player == player:
        check = s.checks[-1]
        z, cards = _to_standby(s.zone(player), cards)
        s = s.with_zone(player, z)
        return replace(s, checks=s.checks[:-1] + (replace(check, cards=tuple(sorted(check.cards + cards))),))
    return start(m, s, player, cards, out)


def left_shield_zone(m: Game, s: State, player: str, cards: tuple[int, ...], out: list[Event]) -> State:
    """A20 (dmwiki "シールドゾーンからカードが離れた時", 2024-10-16): "when a card leaves the shield zone"
    triggers once per card, however it left: a break (breaking.break_triggers), an effect putting shields
    into the hand, a replacement recovering another shield, a shield burn. Like everything triggered
    during a shield check it waits until the check's uses are over (R509.5e)."""
    if "shield_leaves" in m.words:
        for c in cards:
            s = m.trigger(s, "shield_leaves", player, c, out)
    return s


def _check(s: State) -> Check:
    return s.checks[-1]


def _set(s: State, check: Check) -> State:
    return _with_checks(s, s.checks[:-1] + (check,))


_with_checks = setter(State, "checks")
_with_checks_running = setter(State, "checks", "running")
# the task of a shield check (SC2-SC5), one per player
_CHECK_TASKS = {p: Task(program=CHECK_PROGRAM, pc=0, controller=p, source=-1, ability="shield check")
                for p in ("A", "B")}
_with_declared = setter(Check, "declared")


# ---- SC2 ---------------------------------------------------------------------------------------
def _locked(m: Game, s: State, player: str, card: int) -> bool:
    types = m.restriction(player, "locked_types")
    if m.card(card).type not in types:
        return False
    # R113.6d: a face-up shield's effect lasts until it moves to the hand (standby included)
    z = s.zone(player)
    return not any(m.card(c).has("Ignore casting locks") for c in z.face_up if c in z.shields + z.standby)


def _s_trigger(m: Game, s: State, check: Check, card: int) -> bool:
    cdef = m.card(card)
    if not check.s_trigger_ok or m.restriction(check.player, "no_s_trigger") or _locked(m, s, check.player, card):
        return False
    if card in check.granted or any(m.has_keyword(s, card, k) for k in S_TRIGGERS):
        return True   # Super S-Trigger and S-Trigger Plus are S-Triggers; S-Trigger given this turn (R113.6d)
    # R113.6c: looked at in the standby state, where the standby cards are not counted
    limit = dict(cdef.s_trigger_if).get("shields_at_most")
    return limit is not None and len(s.zone(check.player).shields) <= limit


def _spell_side_s_trigger(m: Game, s: State, check: Check, card: int) -> bool:
    """A twinpact's spell side with S-Trigger may be cast from the shields (S224: the keyword names the
    side that has it), unless S-Trigger cannot be used or spells are locked (SC2)."""
    if not check.s_trigger_ok or m.restriction(check.player, "no_s_trigger"):
        return False
    if "spell" in m.restriction(check.player, "locked_types") and not _locks_ignored(s, check.player, m):
        return False
    return m.card(card).spell_side.has("shield_trigger")


def _locks_ignored(s: State, player: str, m: Game) -> bool:
    z = s.zone(player)
    return any(m.card(c).has("Ignore casting locks") for c in z.face_up if c in z.shields + z.standby)


def _declarable(m: Game, s: State, check: Check) -> list[Decl]:
    z = s.zone(check.player)
    found = []
    for c in check.cards:
        if c not in z.standby:
            continue
        if _s_trigger(m, s, check, c):
            found.append(Decl(S_TRIGGER, c))
        cdef = m.card(c)
        if cdef.spell_side is not None and _spell_side_s_trigger(m, s, check, c):
            found.append(Decl(S_TRIGGER, c, side="spell"))   # a twinpact's spell side (S214, S224)
        if m.has_keyword(s, c, "g_strike") and not m.restriction(check.player, "no_g_strike"):
            found.append(Decl(G_STRIKE, c))
    for back in z.hand:
        civ = m.card(back).s_back()
        if civ is None or _locked(m, s, check.player, back):
            continue
        for c in check.cards:
            if c in z.standby and m.card(c).is_of(civ):
                found.append(Decl(S_BACK, back, c))
    return found


def _sets(m: Game, s: State, decls: list[Decl]) -> list[tuple[Decl, ...]]:
    """Every set of declarations in which no card serves twice, identical cards counted once.

    Built by backtracking over the declarations, so a set that would reuse a card is never formed
    (SC2: two abilities never share a card); smaller sets come first, as the choice lists them.
    """
    keys = {d: _decl_key(m, s, d) for d in decls}
    found: dict[tuple, tuple[Decl, ...]] = {}

    def grow(i: int, chosen: list[Decl], used: set[int]) -> None:
        if i == len(decls):
            key = tuple(sorted(keys[d] for d in chosen))
            found.setdefault(key, tuple(sorted(chosen)))
            return
        d = decls[i]
        cards = {c for c in (d.card, d.cost) if c >= 0}
        if not cards & used:   # with it first: identical cards are represented by the lowest ids
            grow(i + 1, chosen + [d], used | cards)
        grow(i + 1, chosen, used)

    grow(0, [], set())
    return sorted(found.values(), key=lambda combo: (len(combo), [decls.index(d) for d in combo]))


def _decl_key(m: Game, s: State, d: Decl) -> tuple:
    """Declarations of interchangeable cards (and costs) are one choice (ops.same)."""
    return (d.kind, same(m, s, d.card), same(m, s, d.cost) if d.cost >= 0 else (), d.side)


def _decl_text(m: Game, d: Decl) -> str:
    side = f" (its spell side, {m.card(d.card).spell_side.name})" if d.side == "spell" else ""
    return f"{d.kind} of {m.label(d.card)}{side}" + (f" (discarding {m.label(d.cost)})" if d.cost >= 0 else "")


def _declare_options(m, s, task, ins):
    check = _check(s)
    decls = _declarable(m, s, check)
    if not decls:
        return []
    return [(combo, f"{check.player} declares " + (", ".join(_decl_text(m, d) for d in combo) if combo else "nothing"))
            for combo in _sets(m, s, decls)]


def _record(m: Game, s: State, choice, out: list[Event], step: str, zone: str) -> State:
    """Declare `choice` and discard each one's cost now from `zone` (R509.5c): standby at SC2, hand at SC3."""
    check = _check(s)
    z = s.zone(check.player)
    for d in choice:
        out.append(ev("declare", step, card=m.label(d.card), player=check.player, ability=d.kind,
                      **({"cost": m.label(d.cost)} if d.cost >= 0 else {})))
        if d.cost >= 0 and d.cost in getattr(z, zone):
            z = z.remove(zone, d.cost).unlink(d.cost).add("graveyard", d.cost)
            out.append(ev("move", step, card=m.label(d.cost), player=check.player,
                          **{"from": "shields" if zone == "standby" else zone, "to": "graveyard"}))
    s = s.with_zone(check.player, z)
    costs = {d.cost for d in choice}
    kept = tuple([c for c in check.cards if c not in costs])
    s = _set(s, replace(check, cards=kept, declared=check.declared + tuple(choice)))
    for d in choice:
        if d.kind == S_TRIGGER:   # a Super / Plus bonus is decided as it is declared (model/touch.py)
            s = m.mark_bonus(s, check.player, d.card, out)
    return s


def _declare(m, s, task, ins, choice, out):
    return _record(m, s, choice, out, "SC2", "standby")


op("_declare", chooser=lambda m, s, t, i: _check(s).player)((_declare_options, _declare))


# ---- SC3 ---------------------------------------------------------------------------------------
def _to_hand(m, s, task, ins, choice, out):
    check = _check(s)
    player = check.player
    z = z_before = s.zone(player)
    moved, castles = [], []
    s_triggers = {d.card for d in check.declared if d.kind == S_TRIGGER}
    for c in check.cards:
        if c not in z.standby:
            continue
        for castle in z.hosted(c, "castle"):
            if c in s_triggers:
                castles.append((c, castle))   # R304.3: it leaves after this shield's S-Trigger
            else:
                z = z.remove("attached", castle).unlink(castle).add("graveyard", castle)
                out.append(ev("move", "R304.3", card=m.label(castle), player=player,
                              **{"from": "shields", "to": "graveyard"}))
        z = z.move("standby", "hand", c).unlink(c)
        moved.append(c)
        out.append(build(Event, ("Event", "move", (("card", m.label(c)), ("player", player), ("from", "shields"),
                                                   ("to", "hand")), "SC3")))
    s = s.with_zone(player, z)
    if "shield_leaves" in m.words:   # A20: castles that left with their shield, once each
        gone = [c for c in s.zone(player).graveyard if c not in z_before.graveyard and m.card(c).type == "castle"]
        for castle in gone:
            s = m.trigger(s, "shield_leaves", player, castle, out)
    return _set(s, replace(check, arrived=tuple(moved), castles=tuple(castles), collecting=False))


op("_to_hand")((lambda m, s, t, i: None, _to_hand))


def _declare_after_options(m, s, task, ins):
    check = _check(s)
    z = s.zone(check.player)
    used = {c for d in check.declared for c in (d.card, d.cost)}
    decls = []
    for sabaki in z.hand:
        if m.card(sabaki).has("sabaki") and sabaki not in used and not _locked(m, s, check.player, sabaki):
            decls += [Decl(SABAKI, sabaki, crest) for crest in check.arrived
                      if m.card(crest).has("sabaki_discard") and crest not in used and crest in z.hand]
    if not z.shields:
        decls += [Decl(REVOLUTION_0, c) for c in check.arrived
                  if m.card(c).has("free_without_shields") and c not in used and c in z.hand]
    if not decls:
        return []
    return [(combo, f"{check.player} declares " + (", ".join(_decl_text(m, d) for d in combo) if combo else "nothing"))
            for combo in _sets(m, s, decls)]


def _declare_after(m, s, task, ins, choice, out):
    return _record(m, s, choice, out, "SC3", "hand")


op("_declare_after", chooser=lambda m, s, t, i: _check(s).player)((_declare_after_options, _declare_after))


# ---- SC4 ---------------------------------------------------------------------------------------
def _use_options_for(m: Game, s: State, player: str, decls) -> list[Option]:
    """One option per class of interchangeable declarations; the list depends on the declarations and
    their classes alone, so it is built once per such combination (kept in the model)."""
    known = vars(m).setdefault("_use_options_known", {})
    found = known.get((player, decls))   # declarations of cards without an identical twin: the classes are the
    if found is not None:                # cards themselves, whatever the state
        return found
    keys = tuple([_decl_key(m, s, d) for d in decls])
    found = known.get((player, decls, keys))
    if found is None:
        reps: dict[tuple, Decl] = {}
        for d, key in sorted(zip(decls, keys)):
            reps.setdefault(key, d)
        found = [((d,), f"{player} uses the {_decl_text(m, d)}") for d in sorted(reps.values())]
        if len(known) > 65536:
            known.clear()
        known[player, decls, keys] = found
        members = m.symmetry.members
        if not any(d.card in members or d.cost in members for d in decls):
            known[player, decls] = found
    return found


def _use_options(m, s, task, ins):
    check = _check(s)
    if not check.declared:
        return []
    if check.deferred:
        return None   # Q14: held back until the Escape chain ends
    return _use_options_for(m, s, check.player, check.declared)


def _use(m, s, task, ins, choice, out):
    check = _check(s)
    if choice is None:   # deferred: hand the declarations to the chain (Q14)
        s = replace(s, queued=s.queued + check.declared)
        return advance_pc(_set(s, replace(check, declared=())))
    d: Decl = choice[0]
    declared = list(check.declared)
    declared.remove(d)
    s = _set(s, _with_declared(check, tuple(declared)))
    if not declared:
        s = advance_pc(s)
    castle = next((c for sh, c in check.castles if sh == d.card), None)
    return use(m, s, check.player, d, out, castle)


op("_use", chooser=lambda m, s, t, i: _check(s).player, loops=True)((_use_options, _use))


def use(m: Game, s: State, player: str, d: Decl, out: list[Event], castle: int | None = None) -> State:
    """SC4: use one declared ability."""
    z = s.zone(player)
    rule = "SC4" if d.kind != S_TRIGGER else "D5"
    if d.kind == G_STRIKE:   # never fizzles, even if the card has left the hand
        out.append(ev("shield_trigger", rule, card=m.label(d.card), player=player, ability=d.kind))
        return push(s, Task(program=(instr("cant_attack", whose="opponent"),), pc=0, controller=player,
                            source=d.card, ability=f"{m.name(d.card)}/{G_STRIKE}"))
    if d.card not in z.hand:
        out.append(ev("fizzle", "SC4", card=m.label(d.card), player=player, ability=d.kind))
        return _castle_leaves(m, s, player, castle, out)
    # ev("shield_trigger", rule, card=..., player=..., ability=...) without a keyword dict
    out.append(build(Event, ("Event", "shield_trigger", (("card", m.label(d.card)), ("player", player),
                                                         ("ability", d.kind)), rule)))
    if castle is not None:   # R304.3: the castle goes once this shield's S-Trigger is done
        s = push(s, Task(program=(instr("_castle_leave", castle=castle),), pc=0, controller=player, source=castle,
                         ability="castle"))
    kind = m.card(d.card).type
    if kind == "spell" or d.side == "spell":   # a twinpact's spell side is cast (S214)
        return effects.cast(m, s, player, d.card, "hand", "graveyard", out)
    if kind == "field":   # 308.2, 701.27a: a field is deployed, not summoned
        return effects.deploy(m, s, player, d.card, "hand", out)
    return effects.summon(m, s, player, d.card, "hand", out, summoned=True)   # R112.3a: its cip is a separate trigger


def _castle_leaves(m: Game, s: State, player: str, castle: int | None, out: list[Event]) -> State:
    z = s.zone(player)
    if castle is None or castle not in z.attached:
        return s
    out.append(ev("move", "R304.3", card=m.label(castle), player=player, **{"from": "shields", "to": "graveyard"}))
    s = s.with_zone(player, z.remove("attached", castle).unlink(castle).add("graveyard", castle))
    if "shield_leaves" in m.words:   # A20: a castle leaving counts as a card leaving the shield zone
        s = m.trigger(s, "shield_leaves", player, castle, out)
    return s


def _castle_leave(m, s, task, ins, choice, out):
    return _castle_leaves(m, s, task.controller, ins.get("castle"), out)


op("_castle_leave")((lambda m, s, t, i: None, _castle_leave))


def _end_check(m, s, task, ins, choice, out):
    return replace(s, checks=s.checks[:-1])


op("_end_check")((lambda m, s, t, i: None, _end_check))


def _use_queued_options(m, s, task, ins):
    if not s.queued:
        return []
    return _use_options_for(m, s, task.controller, s.queued)


def _use_queued(m, s, task, ins, choice, out):
    d: Decl = choice[0]
    queued = list(s.queued)
    queued.remove(d)
    s = replace(s, queued=tuple(queued))
    if not queued:
        s = advance_pc(s)
    return use(m, s, m.owner(d.card), d, out)


op("_use_queued", loops=True)((_use_queued_options, _use_queued))


# ---- effects that put shields into the hand ------------------------------------------------------
def _shield_to_hand_options(m, s, task, ins):
    owner = task.controller if ins.get("whose", "own") == "own" else other(task.controller)
    shields = s.zone(owner).shields
    n = min(ins.get("count", 1), len(shields))
    low = 0 if (ins.get("up_to") or ins.get("optional")) else n
    opts = []
    for k in range(n, low - 1, -1):
        for combo in (m.shield_choices(s, owner, k) if k else [()]):
            opts.append((combo, f"{owner} puts " + (m.shield_list(combo) if combo else "no shield") + " into the hand"))
    return opts


def _shield_to_hand(m, s, task, ins, choice, out):
    owner = task.controller if ins.get("whose", "own") == "own" else other(task.controller)
    if ins.get("bind"):
        from .registry import bind
        s = bind(s, ins.get("bind"), len(choice))
    if not choice:
        return s
    s = start(m, s, owner, tuple(choice), out, s_trigger_ok=ins.get("s_trigger", True))
    return left_shield_zone(m, s, owner, tuple(choice), out)   # A20


_SCHEMA_SHIELD_TO_HAND = {
    "doc": "put shields of `whose` into their owner's hand (a shield check, SC1-SC5); the owner chooses; "
           "`up_to` lets him choose how many; `s_trigger: false` forbids S-Trigger (Escape); `bind` "
           "remembers how many",
    "properties": {"whose": {"enum": ["own", "opponent"]}, "count": {"type": "integer", "minimum": 1},
                   "up_to": {"type": "boolean"}, "optional": {"type": "boolean"},
                   "s_trigger": {"type": "boolean"}, "bind": BIND},
}
op("shield_to_hand", chooser=lambda m, s, t, i: t.controller if i.get("whose", "own") == "own" else other(t.controller),
   schema=_SCHEMA_SHIELD_TO_HAND)(
    (_shield_to_hand_options, _shield_to_hand))


def _recover_other(m, s, task, ins, choice, out):
    target, owner = task.bound("target"), task.controller
    if target is None or target not in s.zone(owner).shields:
        return s
    return left_shield_zone(m, add_cards(m, s, owner, (target,), out), owner, (target,), out)   # A20


_SCHEMA_RECOVER_OTHER_SHIELD = {
    "doc": "put the other shield chosen when this replacement was decided into the hand (a castle, D2)",
    "properties": {},
}
op("recover_other_shield", schema=_SCHEMA_RECOVER_OTHER_SHIELD)((lambda m, s, t, i: None, _recover_other))
