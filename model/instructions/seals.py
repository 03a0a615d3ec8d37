"""Seals put and removed (model/seals.py): the card word `seal` (116.1a) and the state-based removal of a seal
when a Command enters (116.4, 116.4a, 703.4j).

An internal word: the procedure pushes it between two automatic steps for a Command that entered the battle
zone (State.unsealing). The Command's owner chooses one of his cards that shares a civilization with it and
has a seal on it; one seal of that card goes to the graveyard. With such a card he must choose one (116.4a);
with none nothing happens.

The card word `battle_card_to_hand` returns one CARD of the battle zone to its owner's hand: a creature (it leaves
as any creature does, model/instructions/destruction.py) or a seal, which an effect choosing a card of the battle
zone may choose (116.3a: a seal is in the battle zone, 116.3); a sealed creature itself cannot be chosen (116.2a).
Only the chosen seal moves (109.2a: of a card made of several cards, only the chosen card is affected), and the
creature under it is no longer ignored once its last seal is gone.
"""

from __future__ import annotations

from ..events import ev
from ..seals import SEAL, sealed, unsealable
from ..state import Task, replace
from ..vocabulary import FORBIDDEN_RELEASE
from . import destruction
from .common import creatures, distinct, players_of
from .hyperspatial import flip
from .registry import NONE, WHOSE, instr, op
from .selection import WHICH, blank_fits

UNSEAL = "a Command removes a seal (703.4j)"   # the ability name of the task that applies the rule


def unseal(player: str, command: int) -> Task:
    """The task that applies 703.4j for `command`, entered under `player`'s control."""
    return Task(program=(instr("_unseal", command=command),), pc=0, controller=player, source=command,
                ability=UNSEAL)


def _unseal_options(m, s, task, ins):
    command = ins.get("command")
    return [((c,), f"{m.owner(command)} removes a seal from {m.label(c)} ({m.label(command)} entered, 116.4a)")
            for c in unsealable(m, s, command)]


def _unseal(m, s, task, ins, choice, out):
    card = choice[0]
    owner = m.owner(card)
    z = s.zone(owner)
    seal = min(c for c, h, k in z.links if h == card and k == SEAL)   # face down: any one of them (116.4a)
    z = z.remove("attached", seal).unlink(seal).add("graveyard", seal)
    out.append(ev("move", "R703.4j", card=m.label(seal), player=owner, **{"from": "battle", "to": "graveyard"}))
    return forbidden_release(m, s.with_zone(owner, z), card, out)


def forbidden_release(m, s, card: int, out):
    """809.1a: a forbidden pulse whose last seal left turns over to its forbidden creature (the pulse's
    "when it has no seal left" ability, applied as the seal leaves: a simplification of its trigger)."""
    if sealed(m, s, card) or not m.card(card).has(FORBIDDEN_RELEASE) or not m.abilities_work(s, card):
        return s
    return flip(m, s, card, out, ("R809.1a", "forbidden_release"))


op("_unseal", chooser=lambda m, s, t, i: m.owner(i.get("command")))((_unseal_options, _unseal))


# ---- putting a seal (116.1a) ------------------------------------------------------------------------------
def _seal_options(m, s, task, ins):
    me = task.controller
    opts = [((c,), f"{me} seals {m.label(c)}")
            for c in creatures(m, s, me, ins.get("whose", "opponent"), which=ins.get("which"))]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} chooses no creature"))
    return opts


def _seal(m, s, task, ins, choice, out):
    """116.1a: the top card of the chosen card's owner's deck goes face down onto it (116.1b: several may lie
    there); with an empty deck nothing happens."""
    if choice == NONE:
        return s
    card = choice[0]
    owner = m.owner(card)
    z = s.zone(owner)
    if not z.deck:
        return s
    top = z.deck[0]
    z = replace(z.remove("deck", top).add("attached", top), links=tuple(sorted(z.links + ((top, card, SEAL),))))
    out.append(ev("move", "R116.1a", card=m.label(top), player=owner, **{"from": "deck", "to": "battle"}))
    return s.with_zone(owner, z)


_SCHEMA_SEAL = {
    "doc": "seal a creature (116.1a): the top card of its owner's deck goes face down onto it; while a seal lies on "
           "it the creature is ignored (116.2). One creature of `whose` (default: opponent), chosen",
    "properties": {"which": WHICH, "whose": WHOSE, "optional": {"type": "boolean"}},
}
op("seal", schema=_SCHEMA_SEAL)((_seal_options, _seal))


# ---- choosing a card of the battle zone, a seal included (116.3a, 109.2a) -------------------------------------
def _card_options(m, s, task, ins):
    me = task.controller
    whose, which = ins.get("whose", "opponent"), ins.get("which")
    found = [((c,), f"{me} returns {m.label(c)} to its owner's hand")
             for c in creatures(m, s, me, whose, which=which) if not sealed(m, s, c)]      # 116.2a
    seals = [c for p in players_of(me, whose) for c, _h, k in s.zone(p).links if k == SEAL] \
        if blank_fits(which) else []                                                      # 200.3b
    found += [((c,), f"{me} returns the seal {m.label(c)} on {m.label(_host(s, m, c))} to its owner's hand")
              for c in distinct(m, s, seals, key=lambda c: _host(s, m, c))]                # 116.3a
    if found and ins.get("optional", False):
        found.append((NONE, f"{me} chooses no card"))
    return found


def _host(s, m, seal: int) -> int:
    return next(h for c, h, k in s.zone(m.owner(seal)).links if c == seal and k == SEAL)


def _card_to_hand(m, s, task, ins, choice, out):
    """A creature leaves as creatures do; a chosen seal alone goes to its owner's hand (109.2a, 116.3a)."""
    if choice == NONE:
        return s
    card = choice[0]
    owner = m.owner(card)
    z = s.zone(owner)
    if card not in z.attached:
        return destruction.leave(m, s, card, "hand", out, replaceable=not destruction.by_replacement(task))
    host = _host(s, m, card)
    z = z.remove("attached", card).unlink(card).add("hand", card)
    out.append(ev("move", "R116.3a", card=m.label(card), player=owner, **{"from": "battle", "to": "hand"}))
    return forbidden_release(m, s.with_zone(owner, z), host, out)


_SCHEMA_CARD_TO_HAND = {
    "doc": "return one card of the battle zone of `whose` (default: opponent) to its owner's hand: an unsealed "
           "creature, or a seal (116.3a), which alone moves (109.2a); `which` filters them, a seal read as a card "
           "of cost 0 with no other characteristic (200.3b)",
    "properties": {"whose": WHOSE, "optional": {"type": "boolean"}, "which": WHICH},
}
op("battle_card_to_hand", schema=_SCHEMA_CARD_TO_HAND)((_card_options, _card_to_hand))
