"""God links as they happen (804; the rows themselves are model/gods.py's).

- Linking (804.1a, 804.2): a God card put into the battle zone beside which its owner has a God it fits
  (one of the two cards' G-Link names the other on that side, each card read alone: 804.2a) may link
  there, its owner choosing where or not at all (the G-Link reminder text: "may link"). The creature it
  joins is the one that was there (804.3): it keeps its tapped state, the effects on it and its attack
  (804.3b); it is tapped when either card was. A God that fits the right end of one row and the left end of
  another may link between them (`_between`): the two rows and it become one creature, the left row's, tapped
  when either side was (804.3a), with the effects on both. The card that entered is the one its own "enters"
  abilities see (804.1c): `effects.enter` fires them for that card.
- Leaving (804.7, 703.4f): when a linked God would leave the battle zone (after the replacement effects had
  their say, model/instructions/destruction.py), only one of its cards leaves, its owner choosing which
  (the reminder text: "when it leaves, choose one of them"); the rest stays as the same creature, with its
  tapped state, its effects and its attack (804.4). When a God of three splits in two while attacking, the
  attacking player picks the part that goes on attacking (804.4a).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .. import gods
from ..events import Event, ev
from ..state import State, Task, replace
from .destruction import move_out
from .registry import NONE, Option, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

_SIDE = {gods.LEFT: "left", gods.RIGHT: "right"}


def _places(m: Game, s: State, player: str, card: int) -> tuple[tuple[int, int, str], ...]:
    """Where `card`, a God of `player`'s battle zone, may link (its own row excluded)."""
    z = s.zone(player)
    return tuple(p for p in gods.free_sides(m, z, m.card(card)) if p[0] != card)


def link_on_entry(m: Game, s: State, player: str, card: int) -> State:
    """804.1a: a God put into the battle zone offers its owner its links (a decision, pushed as a task)."""
    if not m.card(card).g_link or not _places(m, s, player, card):
        return s
    return push(s, Task(program=(instr("_g_link", card=card),), pc=0, controller=player, source=card,
                        ability=f"{m.name(card)}/G-Link (804.1a)"))


def _g_link_options(m: Game, s: State, task: Task, ins) -> list[Option] | None:
    card, player = ins.get("card"), task.controller
    if card not in s.zone(player).battle:
        return []
    places = _places(m, s, player, card)
    opts: list[Option] = [((head, end, kind), f"{player} links {m.label(card)} at the {_SIDE[kind]} of "
                                               f"{m.label(end)} (804.1a)")
                          for head, end, kind in places]
    opts += [(a + b, f"{player} links {m.label(card)} between {m.label(a[1])} and {m.label(b[1])} (804.3a)")
             for a in places if a[2] == gods.RIGHT for b in places if b[2] == gods.LEFT and b[0] != a[0]]
    return opts + [(NONE, f"{player} does not link {m.label(card)}")]


def _g_link(m: Game, s: State, task: Task, ins, choice, out: list[Event]) -> State:
    if not choice or choice == NONE:
        return s
    card, player = ins.get("card"), task.controller
    if len(choice) == 6:
        return _between(m, s, player, card, choice, out)
    head, end, kind = choice
    z = s.zone(player)
    cards = gods.row(z, head)
    tapped = head in z.tapped or card in z.tapped   # 804.3, 804.3a
    z = gods.relink(z, (card,) + cards if kind == gods.LEFT else cards + (card,), head)
    marks = set(z.tapped) - {card} | ({head} if tapped else set())
    out.append(ev("god_link", "804.1a", card=m.label(card), player=player, beside=m.label(end), side=_SIDE[kind]))
    return s.with_zone(player, replace(z, tapped=tuple(sorted(marks))))


def _between(m: Game, s: State, player: str, card: int, choice, out: list[Event]) -> State:
    """R804.3a: `card` links at the right of one row and the left of another: the three parts are one creature,
    standing as the left row's head; tapped if the left or the right side was (or the card itself); the effects
    on the right row's creature and its attack go on with it (804.3, 804.3b)."""
    left, left_end, _, right, right_end, _ = choice
    z = s.zone(player)
    tapped = left in z.tapped or right in z.tapped or card in z.tapped
    z = gods.relink(z, gods.row(z, left) + (card,) + gods.row(z, right), left)
    marks = set(z.tapped) - {card, right} | ({left} if tapped else set())
    s = gods._share(s.with_zone(player, replace(z, tapped=tuple(sorted(marks)))), right, left)
    s = replace(s, attacker=left) if s.attacker == right else s
    for end, kind in ((left_end, gods.RIGHT), (right_end, gods.LEFT)):
        out.append(ev("god_link", "804.1a", card=m.label(card), player=player, beside=m.label(end),
                      side=_SIDE[kind]))
    return s


op("_g_link")((_g_link_options, _g_link))


# ---- 804.7, 703.4f: one card leaves (destruction.py `_leave` pushes `_god_leaves`) ---------------------------
def _god_leaves_options(m: Game, s: State, task: Task, ins) -> list[Option] | None:
    card = ins.get("card")
    z = s.zone(m.owner(card))
    if card not in z.battle:
        return []
    where = "is destroyed" if ins.get("destroy") else "leaves the battle zone"
    opts: list[Option] = []
    for c in gods.row(z, card):
        text = f"{task.controller} chooses {m.label(c)}: it alone {where} (804.7)"
        parts = gods.split(s, m.owner(card), card, c)[1] if s.attacker == card else ()
        if len(parts) < 2:
            opts.append(((c,), text))
        else:   # 804.4a: the God split in two was attacking: the attacking player picks the part that goes on
            opts += [((c, k), f"{text}; {m.label(k)} goes on attacking (804.4a)") for k in parts]
    return opts


def _god_leaves(m: Game, s: State, task: Task, ins, choice, out: list[Event]) -> State:
    card, owner = ins.get("card"), task.controller
    if card not in s.zone(owner).battle or not choice:
        return s
    leaving = choice[0]
    picked = choice[1:]   # 804.4a: the part the attacking player picked to go on attacking, if he had to pick
    s, stay = gods.split(s, owner, card, leaving, *picked)
    out.append(ev("god_unlink", "R703.4f", card=m.label(leaving), player=owner,
                  stays=", ".join(m.label(c) for c in stay)))
    return move_out(m, s, leaving, ins.get("to"), out, bool(ins.get("destroy")))


op("_god_leaves")((_god_leaves_options, _god_leaves))
