"""The card word that releases a creature's hyper mode (816.2; model/hyper.py)."""

from __future__ import annotations

from .hyperspatial import flip
from .registry import op


def _release(m, s, task, ins, choice, out):
    """R816.2, R816.2c: this creature, in the battle zone with hyper mode not yet released, turns to its hyper
    face; released already (or no creature with hyper mode, or gone), nothing happens."""
    card = task.source
    face = m.faces.get(card)
    if face is None or not m.card(face).hyper:
        return s
    return flip(m, s, card, out)


_SCHEMA_RELEASE = {
    "doc": "release this creature's hyper mode (816.2): until the start of its controller's next turn it has its "
           "hyper abilities besides its own and the hyper power (the card's `hyper_mode:`); once released it cannot "
           "be released again (816.2c)",
    "properties": {},
}
op("release_hyper_mode", schema=_SCHEMA_RELEASE)((lambda m, s, t, i: None, _release))
