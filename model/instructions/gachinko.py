"""Gachinko Judge (ガチンコ・ジャッジ, R701.21): a contest of the two decks' top cards.

- `gachinko_judge: {win: [...], lose: [...]}`: each player shows his deck's top card and puts it on the bottom
  of his deck (701.21a; the turn player first, 111.1); the player who used the ability wins when the card he
  showed has a cost at least that of his opponent's (701.21b), and then `win` runs (else `lose`), with the
  binds of the effect around it.
- A card with two costs (a twinpact) has the cost its REVEALER picks, not the ability's user (701.21c, 201.2c,
  the exception to 201.2b): each player with such a card chooses, the user first.

The steps are internal instructions of one pushed task, so the cost choices are real decisions of the
explorer, made by the player the rule names (registry `chooser`). Limits: a player whose deck is empty
shows nothing; the model reads "a card of cost at least the opponent's" as lost when the user shows nothing
and won when only the opponent shows nothing (the rules do not say; such a player has lost at the next
state-based check anyway, 703.4b). The cost compared is the card's printed cost (201.2a).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import ev
from ..instr import Instr
from ..state import State, Task, other
from .registry import PROGRAM, bind, deterministic, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

_SIDES = ("own", "opponent")


def _player(s: State, task: Task, who: str) -> str:
    return task.controller if who == "own" else other(task.controller)


def costs(m: Game, cid: int) -> tuple[int, ...]:
    """The costs a card shows (201.2b): a twinpact's two, one for any other card."""
    card = m.card(cid)
    side = card.spell_side
    return (card.cost,) if side is None or side.cost == card.cost else (card.cost, side.cost)


def _start(m, s, task, ins, choice, out):
    """701.21a: the judge's steps run as a task of their own (the cost choices are decisions of it)."""
    program = (instr("_gachinko_reveal"),) + tuple(instr("_gachinko_cost", who=w) for w in _SIDES) + \
        (Instr("_gachinko_result", ins.args),)
    return push(s, Task(program=program, pc=0, controller=task.controller, source=task.source,
                        ability=task.ability, binds=task.binds))


def _reveal(m, s, task, ins, choice, out):
    """701.21a: each player shows his deck's top card and puts it on his deck's bottom, turn player first
    (111.1); `gachinko_shown_<who>` records whether he showed one (the card is his deck's bottom card now)."""
    for who in sorted(_SIDES, key=lambda w: _player(s, task, w) != s.turn):
        p = _player(s, task, who)
        deck = s.zone(p).deck
        if deck:
            top = deck[0]
            out.append(ev("reveal", "R701.21a", card=m.label(top), player=p))
            s = s.with_zone(p, s.zone(p).move("deck", "deck_bottom", top))
            out.append(ev("move", "R701.21a", card=m.label(top), player=p, **{"from": "deck", "to": "deck_bottom"}))
        s = bind(s, f"gachinko_shown_{who}", 1 if deck else 0)
    return s


def _shown(s: State, task: Task, who: str) -> int | None:
    """The card `who` showed (the bottom of his deck), or None."""
    running = s.running[-1]
    return s.zone(_player(s, running, who)).deck[-1] if running.bound(f"gachinko_shown_{who}") else None


def _cost_chooser(m, s, task, ins) -> str:
    """701.21c, 201.2c: the player who showed the card picks its cost."""
    return _player(s, task, ins.get("who"))


def _cost_options(m, s, task, ins):
    card = _shown(s, task, ins.get("who"))
    if card is None or len(costs(m, card)) < 2:
        return None
    who = _cost_chooser(m, s, task, ins)
    return [((c,), f"{who} uses the cost {c} of {m.label(card)} in the Gachinko Judge") for c in costs(m, card)]


def _cost(m, s, task, ins, choice, out):
    """The cost `who`'s shown card counts with: the one chosen, its only one, or -1 for no card."""
    who = ins.get("who")
    card = _shown(s, task, who)
    if card is None:
        return bind(s, f"gachinko_cost_{who}", -1)
    value = choice[0] if choice is not None else costs(m, card)[0]
    if choice is not None:
        out.append(ev("choose", "R701.21c", player=_cost_chooser(m, s, task, ins), what="number", value=value))
    return bind(s, f"gachinko_cost_{who}", value)


def _result(m, s, task, ins, choice, out):
    """701.21b: the user wins with a cost at least his opponent's; `win` or `lose` runs next."""
    running = s.running[-1]
    mine, theirs = running.bound("gachinko_cost_own"), running.bound("gachinko_cost_opponent")
    won = mine is not None and mine >= 0 and (theirs is None or mine >= theirs)
    out.append(ev("gachinko", "R701.21b", player=task.controller, won=won))
    program = ins.get("win") if won else ins.get("lose")
    if not program:
        return s
    return push(s, Task(program=program, pc=0, controller=task.controller, source=task.source,
                        ability=task.ability, binds=task.binds))


_SCHEMA = {
    "doc": "Gachinko Judge (R701.21a-c): each player shows his deck's top card and puts it on his deck's bottom; "
           "the user wins with a cost at least his opponent's (a twinpact's cost picked by its revealer, 201.2c); "
           "then `win` (or `lose`) runs",
    "properties": {"win": PROGRAM, "lose": PROGRAM},
    "required": ["win"],
}
op("gachinko_judge", schema=_SCHEMA)((deterministic, _start))
op("_gachinko_reveal")((deterministic, _reveal))
op("_gachinko_cost", chooser=_cost_chooser)((_cost_options, _cost))
op("_gachinko_result")((deterministic, _result))
