"""How the game ends: "you win the game" / "you lose the game" effects, the loss itself, and loss
replacements (R104.2, R104.2c, R509.1; scenarios/attack/ A14, A15, A21).

An effect that makes a player win or lose records it on the state (`wins`, `losses`); when the
effect is over the procedure decides them together (R104.2c: a player who meets a win and a loss
condition at once wins). The loss itself is the internal step `_lose`: the losing player's loss
replacements ("when you would lose or the opponent would win, instead ...", Die Hard Ryusei) are
offered first; without one the game ends with `win` and `lose` events.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import Event, ev
from ..state import Replacement, State, Task, other, replace
from .registry import NONE, Option, instr, op, push

if TYPE_CHECKING:
    from ..game import Game

GAME_ENDS = "the game ends"   # the ability name of the tasks that end the game (procedure.py looks for it)
BOTH = "both"                 # `State.loser` when both players lost at once (S109)


def lose(s: State, player: str, winner: str, rule: str, also: str = "") -> State:
    """`player` would lose (and `winner` win), `also` losing at the same moment: their loss replacements
    may apply first (A15)."""
    return push(s, _loss_task(player, winner, rule, also))


def loss_replacements(m: Game, s: State, player: str) -> list[tuple[Replacement, bool]]:
    """The loss replacements of `player`'s creatures in the battle zone (A15)."""
    out = []
    for cid in s.zone(player).battle:
        if not m.abilities_work(s, cid):
            continue   # an ignored creature replaces nothing (無視)
        for ability in m.card(cid).replacements("own_loss"):
            out.append((Replacement(m.ability_label(m.instances[cid].card, ability.id), cid,
                                    m.instances[cid].card, ability.id), ability.optional))
    return out


def _lose_options(m: Game, s: State, task: Task, ins) -> list[Option] | None:
    player = ins.get("player")
    found = loss_replacements(m, s, player)
    if not found:
        return None
    opts: list[Option] = [((r,), f"{player} replaces the loss with {r.label}") for r, _ in found]
    if all(optional for _, optional in found):
        opts.append((NONE, f"{player} uses no replacement and loses"))
    return opts


def _lose(m: Game, s: State, task: Task, ins, choice, out: list[Event]) -> State:
    """`player` loses, unless a replacement of his applies. Two players losing at the same moment (S109:
    both decks empty at once) decide in turn, the turn player first (`also`: the other one, still to
    decide; `lost`: one who has already let his loss stand); if both let it stand, both lose."""
    player, winner, rule = ins.get("player"), ins.get("winner"), ins.get("rule")
    also, lost = ins.get("also", ""), ins.get("lost", "")
    if choice is not None and choice != NONE:
        r: Replacement = choice[0]
        out.append(ev("replace", "R104.2", replaced="lose", by=r.label, card=m.label(r.source)))
        if lost:
            return _game_over(s, (lost,), player, rule, out)   # the other loss stands alone
        if also:
            s = push(s, _loss_task(also, player, rule))
        ability = next(a for a in m.pool[r.card].abilities if a.id == r.ability)
        return push(s, Task(program=ability.effect, pc=0, controller=player, source=r.source, ability=r.label))
    if also:
        return push(s, _loss_task(also, "", rule, lost=player))
    if lost:
        return _game_over(s, (lost, player), "", rule, out)   # S109: both lose at once, nobody wins
    return _game_over(s, (player,), winner, rule, out)


def _loss_task(player: str, winner: str, rule: str, also: str = "", lost: str = "") -> Task:
    return Task(program=(instr("_lose", player=player, winner=winner, rule=rule, also=also, lost=lost),), pc=0,
                controller=player, source=-1, ability=GAME_ENDS)


def _game_over(s: State, losers: tuple[str, ...], winner: str, rule: str, out: list[Event]) -> State:
    if winner:
        out.append(ev("win", rule, player=winner))
    for p in sorted(losers):
        out.append(ev("lose", rule, player=p))
    return replace(s, winner=winner, loser=losers[0] if len(losers) == 1 else BOTH, over=True, pending=(),
                   running=(), frames=(), checks=(), queued=())


op("_lose", chooser=lambda m, s, t, i: i.get("player"))((_lose_options, _lose))


def _win_game(m, s, task, ins, choice, out):
    return replace(s, wins=s.wins + (task.controller,))


def _lose_game(m, s, task, ins, choice, out):
    who = task.controller if ins.get("whose", "own") == "own" else other(task.controller)
    return replace(s, losses=s.losses + (who,))


_SCHEMA_WIN_GAME = {"doc": "its controller wins the game (R104.2; decided when the effect is over)",
                    "properties": {}}
_SCHEMA_LOSE_GAME = {"doc": "a player loses the game (R104.2; decided when the effect is over; a player "
                            "who also wins then wins, R104.2c)",
                     "properties": {"whose": {"enum": ["own", "opponent"]}}}
op("win_game", schema=_SCHEMA_WIN_GAME)((lambda m, s, t, i: None, _win_game))
op("lose_game", schema=_SCHEMA_LOSE_GAME)((lambda m, s, t, i: None, _lose_game))
