"""The hyperspatial zone (407) and the psychic creatures that live in it (805).

A psychic creature is only ever in the battle zone or in its owner's hyperspatial zone: put anywhere
else, it goes back there at once (117.1, 805.4b), the rule GR creatures share (model/homes.py).

An effect puts a psychic creature from the hyperspatial zone into the battle zone (805.4a): the card word
`put_from_hyperspatial`. Awakening, release and psychic links (805.1a-c, 806) are not modelled.
"""

from __future__ import annotations

from .common import distinct
from .effects import summon
from .registry import NONE, op


def _put_options(m, s, task, ins):
    me = task.controller
    limit = int(ins.get("cost_max"))
    cands = [c for c in s.zone(me).hyperspatial if m.card(c).cost <= limit]
    opts = [((c,), f"{me} puts {m.label(c)} (cost {m.card(c).cost} <= {limit}) from the hyperspatial zone into "
                   f"the battle zone") for c in distinct(m, s, cands)]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} puts no psychic creature"))
    return opts


def _put(m, s, task, ins, choice, out):
    return s if choice == NONE else summon(m, s, task.controller, choice[0], "hyperspatial", out)


_SCHEMA_PUT_FROM_HYPERSPATIAL = {
    "doc": "put a psychic creature of cost cost_max or less from own hyperspatial zone into the battle zone "
           "(805.4a); with `optional: true` its controller may put none",
    "properties": {"cost_max": {"type": "integer", "minimum": 0}, "optional": {"type": "boolean"}},
    "required": ["cost_max"],
}
op("put_from_hyperspatial", schema=_SCHEMA_PUT_FROM_HYPERSPATIAL)((_put_options, _put))
