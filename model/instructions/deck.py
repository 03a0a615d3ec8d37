"""Card words about the deck: look at the top N and put one somewhere, put a card
from the deck, shuffle.

- `look_top: {count, kind, to, optional}`: look at the top `count` cards; put one of `kind` of them
  into `to` (hand, mana, shields, or the battle zone: put there, not summoned, R701.3a; its "enters" triggers); the
  others go to the deck bottom in the order they lay (the owner's choice of order is not modelled,
  as for hand_to_deck_bottom).
- `search_deck: {kind, to, optional}`: put one card of `kind` from anywhere in the deck into `to`,
  then shuffle.
- `shuffle`: the deck's order becomes unknown. The model keeps a shuffled deck in one canonical order
  (by card, then instance): a later effect reading the top of it sees that arrangement only. The
  draws of the corpus come before any shuffle; a scenario that draws after one says so.
Drawing from an empty deck (a loss, rule 703.4b) is the procedure's (LO01); these words only move what is there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..state import State, replace
from . import effects, selection
from .common import distinct
from .registry import NONE, deterministic, op
from .selection import WHICH

if TYPE_CHECKING:
    from ..game import Game

_KIND = {"enum": ["any", "creature", "spell"]}
_TO = {"enum": ["hand", "mana", "shields", "battle"]}


def _fits(m: Game, s: State, cid: int, ins) -> bool:
    """A card of the instruction's `kind` with the characteristics its `which` asks for (selection.py)."""
    kind = ins.get("kind", "any")
    return (kind == "any" or m.card(cid).type == kind) and selection.fits(m, s, cid, ins.get("which"), kind)


def _put(m: Game, s: State, me: str, cid: int, to: str, out) -> State:
    if to == "battle":
        return effects.summon(m, s, me, cid, "deck", out)
    return effects.move_cards(m, s, me, (cid,), "deck", to, out, "put" if to == "shields" else "move")


def _look_options(m, s, task, ins):
    me = task.controller
    top = s.zone(me).deck[:ins.get("count")]
    fits = [c for c in top if _fits(m, s, c, ins)]
    opts = [((c,), f"{me} looks at the top {len(top)} and puts {m.label(c)} into the {ins.get('to')}")
            for c in distinct(m, s, fits)]
    if not opts or ins.get("optional", True):
        opts.append((NONE, f"{me} looks at the top {len(top)} and takes none"))
    return opts


def _look(m, s, task, ins, choice, out):
    me = task.controller
    top = s.zone(me).deck[:ins.get("count")]
    rest = [c for c in top if choice == NONE or c != choice[0]]
    s = effects.move_cards(m, s, me, rest, "deck", "deck_bottom", out)
    return s if choice == NONE else _put(m, s, me, choice[0], ins.get("to"), out)


_SCHEMA_LOOK_TOP = {
    "doc": "look at the top `count` cards of your deck, put one of `kind` into `to` (`optional`, default "
           "true: may take none), the rest on the deck bottom",
    "properties": {"count": {"type": "integer", "minimum": 1, "maximum": 100}, "kind": _KIND, "to": _TO,
                   "optional": {"type": "boolean"}, "which": WHICH},
    "required": ["count", "to"],
}
op("look_top", schema=_SCHEMA_LOOK_TOP)((_look_options, _look))


def shuffled(m: Game, s: State, player: str) -> State:
    """The deck in its canonical order (see the module docstring)."""
    z = s.zone(player)
    order = tuple(sorted(z.deck, key=lambda c: (m.instances[c].card, c)))
    return s if order == z.deck else s.with_zone(player, replace(z, deck=order, deck_added=0))


def _search_options(m, s, task, ins):
    me = task.controller
    fits = [c for c in s.zone(me).deck if _fits(m, s, c, ins)]
    opts = [((c,), f"{me} puts {m.label(c)} from the deck into the {ins.get('to')}") for c in distinct(m, s, fits)]
    if not opts or ins.get("optional", True):
        opts.append((NONE, f"{me} takes no card from the deck"))
    return opts


def _search(m, s, task, ins, choice, out):
    me = task.controller
    if choice != NONE:
        s = _put(m, s, me, choice[0], ins.get("to"), out)
    return shuffled(m, s, me)


_SCHEMA_SEARCH_DECK = {
    "doc": "put one card of `kind` from your deck into `to` (`optional`, default true), then shuffle",
    "properties": {"kind": _KIND, "to": _TO, "optional": {"type": "boolean"}, "which": WHICH},
    "required": ["to"],
}
op("search_deck", schema=_SCHEMA_SEARCH_DECK)((_search_options, _search))


def _shuffle(m, s, task, ins, choice, out):
    return shuffled(m, s, task.controller)


_SCHEMA_SHUFFLE = {"doc": "shuffle your deck (kept in one canonical order: see model/instructions/deck.py)",
                   "properties": {}}
op("shuffle", schema=_SCHEMA_SHUFFLE)((deterministic, _shuffle))
