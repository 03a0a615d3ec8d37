"""The card word `restrict`: a creature cannot attack, attack players, block or be blocked for a time.

"This turn, the opponent's creatures cannot block", "choose one of the opponent's creatures: it cannot
attack until the start of your next turn", "this creature cannot be blocked until the end of the attack":
one word, the restriction and the duration as data (model/restrictions.py reads them for every attack and
block). The creatures reached are fixed as it resolves (R608.2a: a creature put there later is not
restricted); one that leaves the battle zone is a new object and loses it (State.forget).
"""

from __future__ import annotations

from ..events import ev
from ..restrictions import NEXT_TURN_START, RESTRICTIONS, UNTIL, until_tag
from ..state import replace
from .power import _TARGET, _one_options, _reached
from .registry import WHOSE, op
from .selection import WHICH


def _restrict(m, s, task, ins, choice, out):
    what = ins.get("restriction")
    tag = until_tag(ins.get("until"), task.controller)
    new = tuple((c, what, tag) for c in _reached(m, s, task, ins, choice) if (c, what, tag) not in s.restrictions)
    for c, _, _ in new:
        out.append(ev("restrict", "R608.2a", card=m.label(c), player=m.owner(c), restriction=what,
                      until=ins.get("until")))
    return replace(s, restrictions=tuple(sorted(s.restrictions + new))) if new else s


_SCHEMA_RESTRICT = {
    "doc": "creatures cannot attack, cannot attack players, cannot block or cannot be blocked for a time: this "
           "turn (`end_turn`, R511.2), until the end of the attack (`end_attack`, R510.2) or until the start of "
           "the effect's controller's next turn (`your_next_turn_start`, R500.3). A restriction beats any "
           "permission (R101.2: Speed Attacker, a given Blocker, Must Block). `target`: one (chosen), all (of "
           "`whose`, those there now), self, attacker, attacked",
    "properties": {"restriction": {"enum": list(RESTRICTIONS)}, "which": WHICH, "target": _TARGET, "whose": WHOSE,
                   "until": {"enum": sorted(UNTIL) + [NEXT_TURN_START]}, "optional": {"type": "boolean"}},
    "required": ["restriction", "until"],
}
op("restrict", schema=_SCHEMA_RESTRICT)((_one_options("restricts"), _restrict))
