"""Matching events against the event patterns of `in_order`, `possible_order` and `never_order`."""

from __future__ import annotations

from typing import Any

from ..model.events import Event


def _same_card(pattern: str, value: str) -> bool:
    # "Vanilla" matches Vanilla#3; "Vanilla#3" matches only itself
    return value == pattern or ("#" not in pattern and value.partition("#")[0] == pattern)


def event_matches(pattern: dict[str, Any], event: Event) -> bool:
    if pattern["event"] != event.kind:
        return False
    for key, want in pattern.items():
        if key == "event":
            continue
        have = event.get(key)
        if have is None:
            return False
        if isinstance(want, list):
            have = list(have)
            if len(want) != len(have):
                return False
            rest = list(have)
            for w in want:
                hit = next((h for h in rest if _same_card(w, h)), None)
                if hit is None:
                    return False
                rest.remove(hit)
        elif isinstance(want, str) and isinstance(have, str):
            if not _same_card(want, have):
                return False
        elif want != have:
            return False
    return True


def advance(patterns: list[dict], progress: int, events: tuple[Event, ...]) -> int:
    """Greedy subsequence matching: how far along `patterns` a path is after these events.

    Matching each pattern at its earliest chance is optimal along one path, so (node, progress)
    pairs are a deterministic product of the graph with the pattern.
    """
    for event in events:
        if progress < len(patterns) and event_matches(patterns[progress], event):
            progress += 1
    return progress
