"""A cheaper hash of a state's game position, for the loop check of deep states (explorer/loops.py).

The loop check looks up the position (procedure.py `position`: the state without the counts of
resolutions, spells cast capped at two) of every state deeper than its threshold, and of each
ancestor once. `position` copies the state to drop those counts, and hashing the copy walks every
field of it. This hash reads the state in place, as slices around the counts, and leaves out the
fields after `target` (the memories of the turn and of the attack, lasting effects, restrictions:
many states of one search share them; `over` and the phase are read). Equal positions hash
equal (every part is hashed by value), so no loop is missed; two positions that differ only in a
field left out share a hash, and the loop check compares the positions themselves before it reports.
Measured with the check started at depth 14 on Kakumeijin L7: 9 % fewer instructions for the check.
"""

from __future__ import annotations

from .state import State

_I = State._index
_CAST = _I["spells_cast"]
# turn .. cant_attack (1-12: the zones, the pending effects, the frames and the running stack among them),
# then extra_breaks .. broken (14-16), then stop_attack .. target (18-24: over and the phase among them)
_HEAD = (_I["turn"], _CAST)
_MID = (_I["extra_breaks"], _I["broken"] + 1)
_LATE = (_I["stop_attack"], _I["target"] + 1)


def position_hash(s: State) -> int:
    """A hash equal for two states with one position (explorer/protocol.py's optional hook)."""
    cast = s[_CAST]
    if cast[0] > 2 or cast[1] > 2:
        cast = (min(cast[0], 2), min(cast[1], 2))
    return hash((s[_HEAD[0]:_HEAD[1]], cast, s[_MID[0]:_MID[1]], s[_LATE[0]:_LATE[1]]))
