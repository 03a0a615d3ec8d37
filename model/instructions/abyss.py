"""The abyss zone (410) and sending a card to the abyss (701.33): the card word `to_abyss`.

Each player has an abyss zone (400.1), open to all (400.2a, 410.2) and kept unordered (410.3: its owner
arranges it at will, so no order of its cards is kept: model/state.py `Zones.abyss` is sorted). To send a
card to the abyss is to put it into its owner's abyss zone (701.33a); no effect or rule stops the move
(701.33b): no replacement effect is offered (EX Life, Escape, a Shield Saver) and a creature that cannot
leave the battle zone leaves all the same. Once there a card never leaves for the rest of the game (410.4):
no card word takes a card from the abyss, and a psychic creature, a dragheart or a GR creature stays there
instead of going home (model/homes.py `ELSEWHERE` leaves the abyss out, so the home rule of 117.1 and 118.1
does not reach it). The cards of the creature's pile go with it as they go with any move out of the battle
zone (model/instructions/pile_moves.py: sources and auras with it, seals to the graveyard); a linked God's
other cards (701.33b's third example) are not sent with it: the model splits the link first.
"""

from __future__ import annotations

from ..state import State
from . import destruction
from .effects import _target_options
from .registry import NONE, WHOSE, op
from .selection import WHICH

_SCHEMA_TO_ABYSS = {
    "doc": "send one creature in the battle zone to the abyss (701.33a): it goes to its owner's abyss zone with the "
           "cards of its pile, and no replacement or `Cannot Leave` stops it (701.33b); a card there never leaves "
           "(410.4)",
    "properties": {"which": WHICH, "whose": WHOSE, "optional": {"type": "boolean"}},
}


def _to_abyss(m, s: State, task, ins, choice, out) -> State:
    """701.33a-b: the chosen creature leaves the battle zone for its owner's abyss zone, unreplaced."""
    return s if choice == NONE else destruction.move_out(m, s, choice[0], "abyss", out)


op("to_abyss", schema=_SCHEMA_TO_ABYSS)((_target_options("sends to the abyss"), _to_abyss))
