"""Card words about the attack itself (issue 10; research/attack.md)."""

from __future__ import annotations

from . import destruction
from .registry import deterministic, op


def _destroy_attacker(m, s, task, ins, choice, out):
    """A22 (Kaasguy): destroy the attacking creature, if it is still in the battle zone (R701.6a)."""
    return destruction.attempt(m, s, s.attacker, out)


_SCHEMA_DESTROY_ATTACKER = {
    "doc": "destroy the attacking creature (a \"when an opponent's creature attacks\" ability, A22)",
    "properties": {},
}
op("destroy_attacker", schema=_SCHEMA_DESTROY_ATTACKER)((deterministic, _destroy_attacker))
