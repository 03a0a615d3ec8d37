"""King Cells (814): cards that, combined, are one King creature.

A King creature is kept like a linked God (model/gods.py): one of its cells stands in `Zones.battle` for the
creature (its *head*) and each other cell lies in `attached`, linked to the head with the kind `king`
(model/piles.py). A card file gives each cell (`type: king_cell`, `king:` the King creature's name; alone it
has cost 0 and no race, 814.1a, and its own civilizations, 814.1b) and the King creature (`type: king_creature`,
`king_cells:`), which is no card of its own: what an effect reads of the combined creature is that record
(`record`, through gods.creature, 814.1).

- 814.1d: when the head leaves the battle zone the other cells cannot stay and go to the graveyard (they lie
  on it as seals do: model/instructions/pile_moves.py `take_pile`); a cell standing alone in the battle zone
  goes to the graveyard at once, between the steps of the automatic procedure (`lone`, `bury`), and a
  scenario that starts with one is put right the same way (model/positions.py `king_cells`).
- 814.1e: a cell that goes with it is no creature leaving (a `destroyed` event without characteristics).

Combining the cells from the hand and the mana zone and paying the King's cost (814.1, 814.1c) is summoning,
which the model does not play: a scenario starts with the King creature in the battle zone.
"""

from __future__ import annotations

from typing import Any

from .events import Event, ev
from .piles import KING
from .state import PLAYERS, State, Zones


def cells(z: Zones, head: int) -> tuple[int, ...]:
    """The other cells of the King creature `head` (none: it is no King creature)."""
    return tuple(sorted(c for c, h, k in z.links if h == head and k == KING)) if z.links else ()


def record(m: Any, cell: Any) -> Any:
    """R814.1: what the combined creature is: its King creature's card record."""
    return m.pool[m.pool.resolve(cell.king)]


def lone(m: Any, s: State) -> tuple[tuple[str, int], ...]:
    """The King Cells standing alone in a battle zone (none combined with it): (player, card)."""
    return tuple((p, c) for p in PLAYERS for c in s.zone(p).battle if m.card(c).king and not cells(s.zone(p), c))


def bury(m: Any, s: State, found: tuple[tuple[str, int], ...], out: list[Event]) -> State:
    """R814.1d: a King Cell cannot stand in the battle zone alone: it goes to its owner's graveyard at once
    (no creature leaving, 814.1e)."""
    for player, c in found:
        s = s.with_zone(player, s.zone(player).unlink(c).remove("battle", c))
        owner = m.owner(c)
        s = s.with_zone(owner, s.zone(owner).add("graveyard", c)).forget(c)
        out.append(ev("move", "R814.1d", card=m.label(c), player=owner, **{"from": "battle", "to": "graveyard"}))
    return s
