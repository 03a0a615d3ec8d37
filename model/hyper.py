"""Hyper mode (816): a creature whose card prints, besides its own abilities and power, those of its hyper mode.

A creature with hyper mode is kept as a double-sided card (the psychic creatures' mechanism, model/table.py
`faces` and model/instructions/hyperspatial.py `turn_over`): a card file's `hyper_mode:` makes its back, the
same creature with hyper mode released (816.2): the front's name, cost and abilities, the hyper abilities added
to them (816.2a), the hyper power in place of its own (816.2b). Releasing hyper mode (the card word
`release_hyper_mode`) turns the card over to that face; a creature whose hyper mode is released cannot release
it again (816.2c: the word does nothing). It stays the same creature: tapped or not, attacking, sick or not,
the effects on it kept (the state's ids are renamed, as for a psychic creature's awakening 805.5).

The hyper face lives in the battle zone only (816.3: elsewhere hyper mode's abilities and power are not
there): put into any other zone, or under a creature, it turns back to its front at once, between the steps
of the automatic procedure (model/procedure.py `_between_steps`), where the homes of psychic creatures are
kept too (model/homes.py). Hyper mode released lasts until the start of its controller's next turn (the
reminder text of hyperize, ハイパー化): then it turns back (model/turn.py `next_turn`, `expire`).
Hyperize itself, an activated ability of the main step, is not modelled (the model has no main step): a
scenario shows a released creature with `hyper_mode: true` on its battle entry. The loader's check of where a
hyper face may be is model/positions.py `hyper_face`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .events import Event, ev
from .homes import ELSEWHERE
from .instructions.hyperspatial import turn_over
from .state import PLAYERS, State

if TYPE_CHECKING:
    from .game import Game

# the zones where hyper mode is off (816.3): every zone but the battle zone, and under a card there
OFF = ELSEWHERE + ("attached", "hyperspatial", "super_gr")


def strays(m: Game, s: State) -> tuple[tuple[str, str, int], ...]:
    """The hyper faces (hyper mode released) outside the battle zone's creatures: (player, zone, card)."""
    return tuple((p, zone, c) for p in PLAYERS for zone in OFF for c in getattr(s.zone(p), zone)
                 if m.card(c).hyper)


def end_strays(m: Game, s: State, found: tuple[tuple[str, str, int], ...], out: list[Event]) -> State:
    """R816.3: a creature that left the battle zone has no hyper mode released: its front is what is there."""
    for player, zone, c in found:
        out.append(ev("flip", "R816.3", card=m.label(c), face=m.label(m.faces[c]), player=player, how="hyper_end",
                      zone=zone))
        s = turn_over(m, s, c)
    return s


def expire(m: Game, s: State, out: list[Event]) -> State:
    """R816.2 (hyperize's reminder: released until the start of your next turn), R500.3: as the turn player's
    start step begins, each of his creatures with hyper mode released turns back to its front."""
    tp = s.turn
    for c in sorted(c for c in s.zone(tp).battle if m.card(c).hyper):
        out.append(ev("flip", "R500.3", card=m.label(c), face=m.label(m.faces[c]), player=tp, how="hyper_end"))
        s = turn_over(m, s, c)
    return s
