"""Card words about the deck: look at the top N and put one somewhere, put a card
from the deck, shuffle.

- `look_top: {count, kind, to, optional}`: look at the top `count` cards; put one of `kind` of them
  into `to` (hand, mana, shields, or the battle zone: put there, not summoned, R701.3a; its "enters" triggers); the
  others go to the deck bottom in the order their owner chooses (401.4: one option per order).
- `search_deck: {kind, to, optional, reveal}`: put one card of `kind` from anywhere in the deck into `to`,
  then shuffle; the card found is shown to every player (a `reveal` event) only with `reveal: true` (701.10c).
- `hand_to_deck_nth: {n, optional}`: put a card of the hand Nth from the top of the deck, at its bottom when it
  holds fewer than N cards (401.6).
- `shuffle`: the deck's order becomes unknown. The model keeps a shuffled deck in one canonical order
  (by card, then instance): a later effect reading the top of it sees that arrangement only. The
  draws of the corpus come before any shuffle; a scenario that draws after one says so.
Drawing from an empty deck (a loss, rule 703.4b) is the procedure's (LO01); these words only move what is there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..events import ev
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
    """Which card to take (or none) and, 401.4, the order the rest go under the deck in: its owner's choice.
    A choice is (the card taken or -1,) + the others in the order put on the bottom."""
    me = task.controller
    top = s.zone(me).deck[:ins.get("count")]
    fits = [c for c in top if _fits(m, s, c, ins)]
    takes = [(c, f"puts {m.label(c)} into the {ins.get('to')}") for c in distinct(m, s, fits)]
    if not takes or ins.get("optional", True):
        takes.append((-1, "takes none"))
    return [((c,) + order, f"{me} looks at the top {len(top)} and {what}"
                           + (f"; the rest go under the deck in the order {', '.join(map(m.label, order))}"
                              if order else ""))
            for c, what in takes for order in effects.bottom_orders(m, [o for o in top if o != c])]


def _look(m, s, task, ins, choice, out):
    me, taken, rest = task.controller, choice[0], choice[1:]
    s = effects.move_cards(m, s, me, rest, "deck", "deck_bottom", out)
    return s if taken < 0 else _put(m, s, me, taken, ins.get("to"), out)


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
    if order == z.deck and not z.deck_added:
        return s
    return s.with_zone(player, replace(z, deck=order, deck_added=0))   # 401.7: no card is on the bottom now


def _search_options(m, s, task, ins):
    me = task.controller
    fits = [c for c in s.zone(me).deck if _fits(m, s, c, ins)]
    opts = [((c,), f"{me} puts {m.label(c)} from the deck into the {ins.get('to')}") for c in distinct(m, s, fits)]
    if not opts or ins.get("optional", True):
        opts.append((NONE, f"{me} takes no card from the deck"))
    return opts


def _search(m, s, task, ins, choice, out):
    """701.10a: the searcher finds a fitting card; 701.10c: it is shown to every player only when the effect
    says so (`reveal: true`, a `reveal` event before it moves), else no player but the searcher sees it."""
    me = task.controller
    if choice != NONE:
        if ins.get("reveal", False):
            out.append(ev("reveal", "R701.10c", card=m.label(choice[0]), player=me))
        s = _put(m, s, me, choice[0], ins.get("to"), out)
    return shuffled(m, s, me)


_SCHEMA_SEARCH_DECK = {
    "doc": "put one card of `kind` from your deck into `to` (`optional`, default true), then shuffle; with "
           "`reveal: true` the card found is shown to every player first (701.10c: only when the effect says so)",
    "properties": {"kind": _KIND, "to": _TO, "optional": {"type": "boolean"}, "which": WHICH,
                   "reveal": {"type": "boolean"}},
    "required": ["to"],
}
op("search_deck", schema=_SCHEMA_SEARCH_DECK)((_search_options, _search))


def _shuffle(m, s, task, ins, choice, out):
    return shuffled(m, s, task.controller)


_SCHEMA_SHUFFLE = {"doc": "shuffle your deck (kept in one canonical order: see model/instructions/deck.py)",
                   "properties": {}}
op("shuffle", schema=_SCHEMA_SHUFFLE)((deterministic, _shuffle))


def _nth_options(m, s, task, ins):
    me = task.controller
    n = int(ins.get("n"))
    opts = [((c,), f"{me} puts {m.label(c)} from the hand {_ordinal(n)} from the top of the deck")
            for c in distinct(m, s, s.zone(me).hand)]
    if opts and ins.get("optional", False):
        opts.append((NONE, f"{me} puts no card into the deck"))
    return opts


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _nth(m, s, task, ins, choice, out):
    """401.6: the card goes Nth from the top of its owner's deck, or to its bottom when the deck holds fewer than
    N cards. Put among the cards put on the bottom (`deck_added`), it is counted with them."""
    if choice == NONE:
        return s
    me, card, n = task.controller, choice[0], int(ins.get("n"))
    z = s.zone(me)
    if len(z.deck) < n:
        s = effects.move_cards(m, s, me, (card,), "hand", "deck_bottom", out)
        out[-1] = replace(out[-1], rule="R401.6")
        return s
    z = z.remove("hand", card)
    i = n - 1
    added = z.deck_added + (1 if i > len(z.deck) - z.deck_added else 0)
    z = replace(z, deck=z.deck[:i] + (card,) + z.deck[i:], deck_added=added)
    out.append(ev("move", "R401.6", card=m.label(card), player=me, **{"from": "hand", "to": "deck"}))
    return s.with_zone(me, z)


_SCHEMA_HAND_TO_DECK_NTH = {
    "doc": "put one card from own hand Nth from the top of own deck (`n`); with fewer than N cards in the deck it "
           "goes to the bottom (401.6); with `optional: true` its owner may put none",
    "properties": {"n": {"type": "integer", "minimum": 1}, "optional": {"type": "boolean"}},
    "required": ["n"],
}
op("hand_to_deck_nth", schema=_SCHEMA_HAND_TO_DECK_NTH)((_nth_options, _nth))
