"""The outcome of a terminal state, with the keys of the scenario format's outcome table."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .state import State


class OutcomeKey:
    """A cheap hashable stand-in for a terminal state's outcome: equal keys, equal outcomes.

    A search can end in hundreds of thousands of terminal states with a few tens of thousands of
    outcomes; building each outcome (names sorted per zone) costs as much as the search. The key
    keeps the fields the outcome reads, and a player's zones as what the outcome makes of them,
    computed once per distinct zones value (most terminal states share them)."""

    def __init__(self, name: Callable[[int], str]):
        self.name = name   # a card instance's English name (model/table.py)
        self._zones: dict = {}

    def __call__(self, s: State) -> tuple:
        return (s.winner, s.attack_stopped, s.turn_skipped, len(s.broken), self._player(s.zones[0]),
                self._player(s.zones[1]), tuple(sorted(s.uses)), s.blocked, s.loser)

    def _player(self, z) -> tuple:
        found = self._zones.get(z)
        if found is None:
            if len(self._zones) > 1 << 16:
                self._zones.clear()
            found = self._zones[z] = (len(z.shields),) + tuple(
                tuple(sorted(map(self.name, ids)))
                for ids in (z.hand, z.battle, z.graveyard, z.mana, z.deck[len(z.deck) - z.deck_added:]))
        return found


_ZONES = ("hand", "battle", "graveyard", "mana", "deck_bottom")


def outcome(key: OutcomeKey, s: State) -> dict[str, Any]:
    """Every outcome key for a terminal state (multisets as sorted lists of English names), built from
    its `OutcomeKey` (so the names of a player's zones are sorted once per distinct zones)."""
    winner, stopped, skipped, broken, a, b, uses, blocked, loser = key(s)
    out: dict[str, Any] = {
        "winner": winner or "none",
        "attack_stopped": stopped,
        "turn_skipped": skipped,
        "shields_broken": broken,
        "shields": {"A": a[0], "B": b[0]},
    }
    for i, zone in enumerate(_ZONES, 1):   # deck_bottom: the cards put on the bottom of the deck
        out[zone] = {"A": list(a[i]), "B": list(b[i])}
    out["uses"] = dict(uses)
    out["blocked"] = blocked            # R507.2 (the whole attack)
    out["loser"] = loser or "none"      # R104.2a, R509.1
    out["loop"] = False                 # A27: the explorer says true for a forced loop (explorer/loops.py)
    return out


def matches(pattern: dict[str, Any], result: dict[str, Any]) -> bool:
    """Whether an outcome has every key the pattern gives (multisets compared as sorted lists)."""
    for key, want in pattern.items():
        have = result[key]
        if key == "uses":
            if any(have.get(ability, 0) != n for ability, n in want.items()):
                return False
        elif isinstance(want, dict):
            for player, value in want.items():
                got = have[player]
                if isinstance(value, int) and isinstance(got, list):
                    if len(got) != value:
                        return False
                elif got != value:
                    return False
        elif have != want:
            return False
    return True
