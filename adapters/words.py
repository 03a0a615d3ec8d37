"""How an adapter reads a dmcheck card's `keywords` without importing dmcheck: each word is a rules
keyword (one the model reads, model/vocabulary.py: `S-Trigger`, `Blocker`, `S-Back:Fire`, ...), a
civilization, or a race, which is any other word (dmcheck matches races by name). An adapter maps the
rules keywords its engine has and answers `unsupported` for the others: it never reads an unknown rules
keyword as a race. tests/test_adapter.py checks that RULES lists every keyword the model reads.
"""

from __future__ import annotations

RULES = frozenset({
    "S-Trigger", "G-Strike", "S-Back", "Sabaki Z", "Judgement Crest", "Revolution 0", "Charger", "Unbreakable",
    "Indestructible", "Cannot Leave", "Extra Break", "Blocker", "Guardman", "Attacks Untapped", "Evolution",
    "Vortex Evolution", "NEO", "G-NEO", "Forbidden Release",
    "Star Evolution", "Forbidden Star Evolution", "Dream",
    "S-MAX Evolution", "Power Attacker", "Slayer", "Wins All Battles", "Speed Attacker", "Cannot Attack",
    "Cannot Attack Players", "Cannot Block", "Must Attack", "Must Block", "Unblockable", "Evasion", "Ignore",
    "Super S-Trigger",
    "S-Trigger Plus", "Ignore casting locks", "EX Life", "Link Release",
})
CIVILIZATIONS = frozenset({"Fire", "Water", "Nature", "Light", "Darkness"})
# the rules date from which Slayer destroys after any battle; before it, only when its creature lost (the
# model's switch slayer_any_battle, model/data/rules_versions.yaml): an engine whose Slayer destroys whoever
# wins plays it faithfully from this date only
SLAYER_SINCE = "2004-06-26"


def split(keywords: list[str]) -> tuple[list[tuple[str, str]], list[str], list[str]]:
    """(rules keywords as (name, value) pairs, civilizations, races) of a card's keywords, in order:
    `S-Back:Fire` is ("S-Back", "Fire"), `Blocker` is ("Blocker", "")."""
    rules, civs, races = [], [], []
    for word in keywords:
        name, _, value = word.partition(":")
        if name in RULES:
            rules.append((name, value))
        elif word in CIVILIZATIONS:
            civs.append(word)
        else:
            races.append(word)
    return rules, civs, races
