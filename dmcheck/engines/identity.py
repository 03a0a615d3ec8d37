"""What makes two choices of one state the same choice, for an engine and for dmcheck alike.

A choice is its player, kind, decision and `what` (docs/conform.md, comparing choices): never dmcheck's
text or index. Cards of a state's `copies` group (no rule tells them apart) are read as the lowest copies
of the group, and the items of a set-like choice are compared in any order. The bundle uses the same
identity to make sure every legal choice of a state is told apart by its data (`distinct`), and the
runner to compare an engine's choices with the rules'.
"""

from __future__ import annotations

import json
from typing import Any

# decisions whose `what` is a set: the order in which an engine lists the items does not matter
SETS = {"choose_shields", "break_shields", "discard", "declare", "declare_after", "shield_to_hand",
        "hand_to_deck_bottom", "tp_declare", "ninja_declare"}


def canonical(label: dict, groups: list[list[str]]) -> str:
    """A choice's identity: player, kind, decision and `what`, with interchangeable copies named by the
    lowest copies of their group (in the order they appear) and a set-like choice's items sorted."""
    member = {card: g for g in groups for card in g}
    used: dict[int, int] = {}

    def walk(value: Any) -> Any:
        if isinstance(value, str) and value in member:
            group = member[value]
            k = used.get(id(group), 0)
            used[id(group)] = k + 1
            return group[k] if k < len(group) else value
        if isinstance(value, dict):
            return {key: walk(v) for key, v in sorted(value.items())}
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    what = walk(label.get("what"))
    if label.get("decision") in SETS and isinstance(what, list):
        what = sorted(what, key=lambda v: json.dumps(v, sort_keys=True))
    return json.dumps([label.get("player"), label.get("kind"), label.get("decision"), what],
                      sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def told_apart(choices: list[dict], groups: list[list[str]]) -> list[list[str]]:
    """The copies groups that leave every choice of the state its own identity: a group under which two
    choices would read the same is left out (the model offers one choice per copy there, e.g. the same
    waiting effect of two identical creatures, so those copies are told apart in this state)."""
    kept: list[list[str]] = []
    for group in groups:
        if len({canonical(c, kept + [group]) for c in choices}) == len({canonical(c, kept) for c in choices}):
            kept.append(group)
    return kept


def same_data(choices: list[dict], groups: list[list[str]]) -> list[tuple[dict, dict]]:
    """The pairs of choices of one state that an engine could not tell apart (equal identity)."""
    seen: dict[str, dict] = {}
    pairs = []
    for c in choices:
        key = canonical(c, groups)
        if key in seen:
            pairs.append((seen[key], c))
        else:
            seen[key] = c
    return pairs
