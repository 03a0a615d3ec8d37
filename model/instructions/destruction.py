"""Cards leaving the battle zone, destruction (S003, R701.6a-b) and the replacements on the way.

`attempt` is the destroy attempt (R701.6a): the `destroy` event happens whatever follows. Whether the
card then reaches the graveyard (`destroyed`, R701.6b) depends on "cannot be destroyed" and on the
replacement effects its owner chooses among (EX Life, Skull Moon, Escape). A card put into the
graveyard from the battle zone counts as destroyed; only a face-up card with characteristics is
seen by "when destroyed" abilities — not a seal, not a card under an evolution creature (Q12).
Before 2022-04-08 only creatures were destroyed (S003).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import gods, keyword_table, mana
from ..events import Event, ev
from ..piles import under
from ..state import Replacement, State, Task, other, replace
from ..vocabulary import CANNOT_LEAVE, G_NEO, LINK_RELEASE, STAR_EVOLUTION
from .pile_moves import TALLY, counted, followers, take_pile, tally
from .registry import NONE, Option, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

CHAIN = "chain"   # bound in the tasks of a repeated destruction: an Escape chain (Q14)
# Bound in the task that carries out a replacement effect: what it moves is not replaced again
# (R101.5 of v1.20 as rendered by S014: one replacement per event; S015, S005 and S017: a Shield
# Saver used is destroyed, a destruction made by Skull Moon cannot be answered by Escape or EX Life).
REPLACING = "replacing"


def by_replacement(task: Task) -> bool:
    """Whether `task` carries out a replacement effect (its moves are replaced no further)."""
    return task.bound(REPLACING) is not None


def attempt(m: Game, s: State, card: int, out: list[Event], repeat: bool = False,
            replaceable: bool = True, counts: tuple = ()) -> State:
    """Try to destroy `card` (R701.6a); what happens next waits for its owner's replacement choice
    (none when the destruction is itself a replacement's doing: `replaceable` False)."""
    owner = m.owner(card)
    if card not in s.zone(owner).battle:
        return s
    out.append(ev("destroy", "R701.6a", card=m.label(card), player=owner))
    if m.has_keyword(s, card, "cannot_be_destroyed") or card in s.guards:
        # "cannot be destroyed" (for good, or until the end of the attack) keeps it; the attempt happened
        return _chain_end(m, s, repeat)
    return leave(m, s, card, "graveyard", out, destroy=True, repeat=repeat, replaceable=replaceable, counts=counts)


def leave(m: Game, s: State, card: int, to: str, out: list[Event], destroy: bool = False,
          repeat: bool = False, replaceable: bool = True, counts: tuple = ()) -> State:
    """Move a card out of the battle zone, after its owner's replacement effects have had their say.
    A card that does not leave the battle zone (`Cannot Leave`) stays where it is. `counts`: the
    names under which the effect moving it counts the cards and creatures it moved."""
    if m.has_keyword(s, card, CANNOT_LEAVE):
        return s
    extra = {TALLY: counts} if counts else {}
    task = Task(program=(instr("_leave", card=card, to=to, destroy=destroy, repeat=repeat,
                               replaceable=replaceable, **extra),), pc=0,
                controller=m.owner(card), source=card, ability="leaves the battle zone",
                binds=((CHAIN, 1),) if repeat else ())
    return push(s, task)


def replacements(m: Game, s: State, card: int, destroy: bool) -> list[tuple[Replacement, bool]]:
    """The replacement effects that could keep `card` in the battle zone now, each with `optional`."""
    owner = m.owner(card)
    out = []
    if m.card(card).has(G_NEO) and under(s.zone(owner), card):
        # 803.2, 803.2a: a G-NEO evolution creature loses its under-cards instead; a replacement effect of its
        # special type, not an ability: it applies even while its abilities are ignored (dmwiki G-NEO進化, S541)
        label = f"{m.name(card)}/{keyword_table.name(G_NEO)}"
        out.append((Replacement(label, card, m.instances[card].card, ""), False))
    if not m.abilities_work(s, card):
        return out   # its abilities are ignored: none of them replaces anything (無視), Star Evolution's neither
    opponent_creatures = any(m.card(c).type == "creature" for c in s.zone(other(owner)).battle)
    for kind in (("self_leave", "self_destroy") if destroy else ("self_leave",)):
        for part in gods.parts(m, s, card):   # 804.1b: a linked God has each of its cards' replacements
            pool_id = m.instances[part].card
            for ability in m.card(part).replacements(kind):
                if not all(_can_do(m, s, card, ins, opponent_creatures) for ins in ability.effect):
                    continue   # 601.1a (S009): a replacement that cannot be carried out in full is not applied
                out.append((Replacement(m.ability_label(pool_id, ability.id), card, pool_id, ability.id),
                            ability.optional))
    if m.card(card).has(STAR_EVOLUTION) and under(s.zone(owner), card):
        # 813.1a (S204): Star Evolution's "only the top card leaves instead" is a replacement effect
        label = f"{m.name(card)}/{keyword_table.name(STAR_EVOLUTION)}"
        out.append((Replacement(label, card, m.instances[card].card, ""), False))
    return out


def _can_do(m: Game, s: State, card: int, ins, opponent_creatures: bool) -> bool:
    """Whether one instruction of `card`'s replacement can be carried out in full now (601.1a, S009:
    worded so since 2023-08-10, the principle unchanged before; RC02's 2016 reading, S027)."""
    z = s.zone(m.owner(card))
    if ins.op == "ex_life_to_graveyard":
        return any(c in z.shields for c in z.hosted(card, "ex_life"))   # EX Life needs its shield
    if ins.op == "shield_to_hand" and ins.get("whose", "own") == "own" and not ins.get("up_to", False):
        return len(z.shields) >= ins.get("count", 1)   # Escape needs one shield, True Escape two
    if ins.op == "discard" and not ins.get("up_to", False):
        return len(z.hand) >= ins.get("count", 1)
    if ins.op == "destroy" and not ins.get("optional", False):
        return opponent_creatures   # Skull Moon needs an opponent creature to destroy instead
    return True


def _leave_options(m: Game, s: State, task: Task, ins) -> list[Option] | None:
    card = ins.get("card")
    owner = m.owner(card)
    if card not in s.zone(owner).battle:
        return []
    if ins.get("replaceable") is False:
        return None   # made by a replacement effect: no other replacement applies (S014, S015)
    found = replacements(m, s, card, ins.get("destroy"))
    if not found or _rule_alone(found):
        return None   # nothing to decide (Star Evolution's or G-NEO's alone must apply: `_leave` applies it)
    opts: list[Option] = [((r,), f"{owner} replaces it with {r.label}") for r, _ in found]
    if all(optional for _, optional in found):
        verb = "is destroyed" if ins.get("destroy") else "leaves the battle zone"
        opts.append((NONE, f"{owner} uses no replacement: {m.label(card)} {verb}"))
    return opts


def _rule_alone(found: list) -> bool:
    """The only replacement is Star Evolution's or G-NEO's, which its owner must apply (813.1, 803.2: no
    "may")."""
    return len(found) == 1 and not found[0][0].ability and not found[0][1]


def _by_rule(m: Game, card: int) -> bool:
    """Whether `card` has a leave replacement of its kind of card (813.1, 803.2) rather than of an ability."""
    return m.card(card).has(STAR_EVOLUTION) or m.card(card).has(G_NEO)


def _leave(m: Game, s: State, task: Task, ins, choice, out: list[Event]) -> State:
    card, to, destroy, repeat = ins.get("card"), ins.get("to"), ins.get("destroy"), ins.get("repeat")
    owner = m.owner(card)
    if card not in s.zone(owner).battle:
        return s
    if choice is None and ins.get("replaceable") is not False and _by_rule(m, card):
        found = replacements(m, s, card, destroy)
        choice = (found[0][0],) if _rule_alone(found) else None
    if choice is not None and choice != NONE:
        r: Replacement = choice[0]
        out.append(ev("replace", "R701.6a" if destroy else "", replaced="destroy" if destroy else "leave",
                      by=r.label, card=m.label(card)))
        if not r.ability:   # Star Evolution (813.1): only its top card goes where the pile was going; G-NEO
            # (803.2): the cards under it go there instead
            word = "_under_leaves" if r.label.endswith("/" + keyword_table.name(G_NEO)) else "_top_leaves"
            return push(s, Task(program=(instr(word, card=card, to=to, destroy=destroy),), pc=0,
                                controller=owner, source=card, ability=r.label, binds=((REPLACING, 1),)))
        ability = next(a for a in m.pool[r.card].abilities if a.id == r.ability)
        if repeat:   # Q14: it stays, so it is destroyed again: after the replacement, try once more
            s = push(s, Task(program=(instr("_destroy_again", card=card),), pc=0, controller=owner,
                             source=card, ability=task.ability, binds=((CHAIN, 1),)))
        binds = ((CHAIN, 1), (REPLACING, 1)) if repeat else ((REPLACING, 1),)
        return push(s, Task(program=ability.effect, pc=0, controller=owner, source=card, ability=r.label,
                            binds=binds))
    if m.card(card).has(LINK_RELEASE) and under(s.zone(owner), card):   # 806.1b: no replacement (hyperspatial.py)
        return push(s, Task(program=(instr("_link_release", card=card, to=to),), pc=0, controller=owner, source=card,
                            ability="link release (806.1b)"))
    if gods.linked(s.zone(owner), card):   # 804.7, 703.4f: one of its cards leaves (instructions/god_links.py)
        return push(s, Task(program=(instr("_god_leaves", card=card, to=to, destroy=destroy),), pc=0,
                            controller=owner, source=card, ability="a linked God leaves (804.7)"))
    counts = ins.get(TALLY)   # what the effect moving it counts, as it really moves (S209, S210)
    moved = counted(m, s.zone(owner), card) if counts else 0
    s = move_out(m, s, card, to, out, destroy)
    if counts:
        s = tally(s, counts, moved, 1 if not destroy or card in s.zone(owner).graveyard else 0)
    return _chain_end(m, s, repeat)


def _destroy_again(m: Game, s: State, task: Task, ins, choice, out: list[Event]) -> State:
    return attempt(m, s, ins.get("card"), out, repeat=True)


def _chain_end(m: Game, s: State, repeat: bool) -> State:
    """Q14: when an Escape chain ends, the shield-check uses it held back are used one by one."""
    if repeat and s.queued:
        return push(s, Task(program=(instr("_use_queued"),), pc=0, controller=m.owner(s.queued[0].card),
                            source=-1, ability="shield check (after the Escape chain)"))
    return s


op("_leave", chooser=lambda m, s, t, i: m.owner(i.get("card")))((_leave_options, _leave))
op("_destroy_again")((lambda m, s, t, i: None, _destroy_again))


def move_out(m: Game, s: State, card: int, to: str, out: list[Event], destroy: bool = False) -> State:
    """Move a card and what is attached to it out of the battle zone; report what was destroyed."""
    owner = m.owner(card)
    z = s.zone(owner)
    if gods.linked(z, card):   # 804.7 by a move that offers no choice (`_leave` offers it): this card alone
        s, stay = gods.split(s, owner, card, card)
        out.append(ev("god_unlink", "R703.4f", card=m.label(card), player=owner,
                      stays=", ".join(m.label(c) for c in stay)))
        z = s.zone(owner)
    # its sources and auras go where it goes, its seals to the graveyard (model/instructions/pile_moves.py)
    together = followers(z, card) if z.links else ()
    z, attached = take_pile(m, z, card, to, out) if z.links else (z, [])
    z = z.remove("battle", card).unlink(card).add(to, card)
    s = s.with_zone(owner, z)
    if together:   # 801, 310.8: the creature's cards leave together (the milestone `pile_left`)
        out.append(ev("leave_together", "801", card=m.label(card), player=owner,
                      to="deck" if to.startswith("deck") else to))
    gone = [(card, "card")] if to == "graveyard" else []
    if to != "graveyard":
        out.append(ev("put", "", card=m.label(card), player=owner,
                      **{"from": "battle", "to": "deck" if to == "deck_top" else to}))
    if to == "mana":   # 405.1: the creature's card and the cards that went with it, multicoloured ones tapped
        for c in (card,) + together:
            s = s.with_zone(owner, mana.entered(m, s.zone(owner), c, out))
    s = _destroyed(m, s, owner, gone + attached, out)
    if "leaves" in m.words:   # 603.5c: seen as it was, before the effects on it end below
        s = m.trigger(s, "leaves", owner, card, out, to="deck" if to.startswith("deck") else to)
    # a new object wherever it goes: the effects on it end (110.2e) - once what triggers as it leaves has
    # been judged by the card as it was just before (603.5c: an effect ignoring its abilities still counts)
    s = s.forget(card)
    if card == s.attacker:
        s = replace(s, attacker_left=True)   # R509.4c: the chosen shields still break
    return s


def _destroyed(m: Game, s: State, owner: str, cards: list[tuple[int, str]], out: list[Event]) -> State:
    """Cards that went from the battle zone to the graveyard: which count as destroyed, what triggers."""
    seen: list[int] = []
    for c, k in cards:
        is_creature = m.card(c).type == "creature" and k == "card"   # a source is no creature (S202)
        if not (m.version.destroy_any_card or is_creature):   # before 2022-04-08 only creatures (S003)
            out.append(ev("move", "", card=m.label(c), player=owner, **{"from": "battle", "to": "graveyard"}))
            continue
        face_down = k == "seal"
        characteristics = k in ("card", "aura")   # a seal is face down; a card under an evolution has none (Q12)
        out.append(ev("destroyed", "R701.6b", card=m.label(c), player=owner,
                      **({"face_down": True} if face_down else {}),
                      **({} if characteristics else {"characteristics": False})))
        if characteristics:
            seen.append(c)
    for c in seen:
        s = m.trigger(s, "destroyed", owner, c, out)
    return s


def _ex_life(m: Game, s: State, task: Task, ins, choice, out: list[Event]) -> State:
    owner = m.owner(task.source)
    z = s.zone(owner)
    for shield in z.hosted(task.source, "ex_life"):
        if shield in z.shields:
            z = z.remove("shields", shield).unlink(shield).add("graveyard", shield)
            out.append(ev("move", "", card=m.label(shield), player=owner, **{"from": "shields", "to": "graveyard"}))
            s = s.with_zone(owner, z)
            if "shield_leaves" in m.words:   # A20: any card leaving the shield zone, once
                s = m.trigger(s, "shield_leaves", owner, shield, out)
            return s
    return s.with_zone(owner, z)


_SCHEMA_EX_LIFE_TO_GRAVEYARD = {
    "doc": "put this creature's EX Life shield into the graveyard (EX Life's replacement)",
    "properties": {},
}
op("ex_life_to_graveyard", schema=_SCHEMA_EX_LIFE_TO_GRAVEYARD)((lambda m, s, t, i: None, _ex_life))
