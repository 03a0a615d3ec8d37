"""GR summon (701.30a): the card word `gr_summon`, which summons the top card of the super GR zone.

The super GR zone (408) is a face-down pile of GR creatures, top first (model/state.py Zones.super_gr).
GR summoning puts its top card into the battle zone as a summon whose cost counts as paid: it enters
like any creature an effect puts (its "enters" abilities and the watchers trigger, R112.3a). With the
zone empty, nothing happens. A GR creature that goes anywhere but the battle zone returns to the bottom
of the zone (118.1, 811.2b), the rule psychic creatures share (model/homes.py). Auras, which attach to
a GR creature (310.2), are never executed (model/data/rules_index.yaml 310.2).
"""

from __future__ import annotations

from ..events import Event
from ..state import State
from .effects import summon
from .registry import deterministic, op


def _gr_summon(m, s: State, task, ins, choice, out: list[Event]) -> State:
    """R701.30a: the top card of the controller's super GR zone, if any, is summoned."""
    pile = s.zone(task.controller).super_gr
    return summon(m, s, task.controller, pile[0], "super_gr", out, summoned=True) if pile else s


_SCHEMA_GR_SUMMON = {
    "doc": "GR summon (701.30a): summon the top card of own super GR zone as if its cost were paid; nothing "
           "happens when that zone is empty",
    "properties": {},
}
op("gr_summon", schema=_SCHEMA_GR_SUMMON)((deterministic, _gr_summon))
