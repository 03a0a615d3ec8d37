"""The outcome of a terminal state, with the keys of the scenario format's outcome table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import PLAYERS, State

if TYPE_CHECKING:
    from .game import Game


def outcome(m: "Game", s: State) -> dict[str, Any]:
    """Every outcome key for a terminal state (multisets as sorted lists of English names)."""
    def names(ids) -> list[str]:
        return sorted(m.name(c) for c in ids)

    out: dict[str, Any] = {
        "winner": s.winner or "none",
        "attack_stopped": s.attack_stopped,
        "turn_skipped": s.turn_skipped,
        "shields_broken": len(s.broken),
        "shields": {p: len(s.zone(p).shields) for p in PLAYERS},
    }
    for key in ("hand", "battle", "graveyard", "mana"):
        out[key] = {p: names(getattr(s.zone(p), key)) for p in PLAYERS}
    out["deck_bottom"] = {p: names(s.zone(p).deck[len(s.zone(p).deck) - s.zone(p).deck_added:]) for p in PLAYERS}
    out["uses"] = dict(s.uses)
    out["blocked"] = s.blocked          # R507.2 (the whole attack)
    out["loser"] = s.loser or "none"    # R104.2a, R509.1
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
