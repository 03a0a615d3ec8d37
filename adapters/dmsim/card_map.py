"""dmcheck's card definitions as DMSIM card definitions (DMSIM's structured v2 JSON, docs/JSON_SPEC.md of
its repository), built from the bundle's own cards: no card data of DMSIM is read or needed.

A card is carried over only when each of its parts has a DMSIM counterpart with the same meaning: its
type, its civilizations, its rules keywords (adapters/words.py; every other word is a race), its
abilities and its spell effect (word_map.py). Anything else raises Unsupported with the reason: the
adapter never gives DMSIM a card that would play otherwise than the dmcheck card.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))   # adapters/words.py
import words  # noqa: E402
from word_map import (  # noqa: E402
    Lacks,
    Unsupported,
    ability,
    effects,
    is_json_replacement,
    is_keyword,
    json_replacement,
    keyword_ability,
)

CIVILIZATIONS = {"Fire": "fire", "Water": "water", "Nature": "nature", "Light": "light", "Darkness": "darkness"}
# dmcheck's rules keywords with a DMSIM keyword of the same meaning (valued ones below)
KEYWORDS = {"Blocker": "blocker", "Speed Attacker": "speed_attacker", "S-Trigger": "shield_trigger",
            "G-Strike": "g_strike", "Unblockable": "unblockable", "Must Attack": "must_attack",
            "Cannot Attack Players": "attack_player_lock"}
# rules keywords DMSIM 686c63e has nothing for (neither abilities/registry.py nor effects/ name them)
LACKS = {"S-Back": "a Strike Back from the hand", "Sabaki Z": "Sabaki Z", "Judgement Crest": "what Sabaki Z discards",
         "Super S-Trigger": "an S-Trigger with a bonus", "S-Trigger Plus": "an S-Trigger with a bonus",
         "Must Block": "a Blocker that must block", "Evasion": "unblockable by low power",
         "Indestructible": "cannot be destroyed", "Extra Break": "additional breaks",
         "Unbreakable": "a shield that cannot be broken", "Cannot Leave": "does not leave the battle zone",
         "EX Life": "a shield put on a creature", "S-MAX Evolution": "S-MAX Evolution",
         "Star Evolution": "Star Evolution", "Vortex Evolution": "Vortex Evolution",
         "Ignore": "a lasting ignoring of other creatures' abilities by their cost; DMSIM ignores abilities only by "
                   "an effect for a time on the creatures it names, "
                   "effects/combat/temporary_ability_nullification_effect.py"}
BREAKERS = {2: "double_breaker", 3: "triple_breaker"}


def definition(card: dict, rules: str) -> dict:
    """The DMSIM definition of one dmcheck card (its `name_ja` is the dmcheck name, so that DMSIM's card
    names are dmcheck's), or Unsupported: every part is looked at, and a part DMSIM has no counterpart for
    (Lacks) is the reason given, else the first part met."""
    problems: list[Unsupported] = []

    def attempt(build, *args):
        try:
            return build(*args)
        except Unsupported as exc:
            problems.append(exc)
            return None

    out = attempt(_definition, card, rules, attempt)
    if problems:
        raise next((p for p in problems if isinstance(p, Lacks)), problems[0])
    return out


def _definition(card: dict, rules: str, attempt) -> dict:
    name = card["name"]
    if card["type"] == "twinpact":
        return _twinpact(card, rules, attempt)
    if card["type"] not in ("creature", "spell"):
        attempt(_raise, Unsupported(f"{name} is a card of type {card['type']} (the adapter gives DMSIM creatures and "
                                    "spells)"))
    rules_words, civs, races = words.split(card["keywords"])
    civs, races = civs + list(card.get("civilizations") or []), races + list(card.get("races") or [])
    if card["type"] == "creature" and not isinstance(card.get("power"), int):
        attempt(_raise, Lacks(f"{name} has the power {card.get('power')!r}: DMSIM has no infinite power (a card's "
                              "power is a whole number; its one 'infinite' power is an ability's 1,000,000,000 "
                              "while battling, abilities/keywords/battle_or_deck_face_up_infinite_power_ability.py)"))
    keyword: list = []
    if card.get("s_trigger_if"):
        keyword.append(attempt(_conditional_s_trigger, name, card["s_trigger_if"]))
    for word, value in rules_words:
        mapped = attempt(_keyword, name, word, value, rules)
        if mapped is not None:
            keyword.append(mapped)
    if card["type"] == "creature":
        breaker = card.get("breaker", 1)
        if breaker >= 4:
            keyword.append("world_breaker")
        elif breaker in BREAKERS:
            keyword.append(BREAKERS[breaker])
    abilities = card.get("abilities", [])
    keyword += [attempt(keyword_ability, name, a, card) for a in abilities
                if is_keyword(a) and not is_json_replacement(a)]
    out = {"id": card["id"], "kind": card["type"], "name_ja": name, "cost": card["cost"],
           "civilizations": [CIVILIZATIONS[c] for c in civs] or ["zero"],
           "abilities": {"keyword": keyword,
                         "triggered": [attempt(ability, name, a) for a in abilities if not is_keyword(a)],
                         "replacement": [attempt(json_replacement, name, a) for a in abilities
                                         if is_json_replacement(a)]}}
    if card["type"] == "creature":
        out.update(power=card["power"], race_ja="/".join(races) or "-")
        if ("Evolution", "") in rules_words:
            out["special_types"] = ["evolution"]
    else:
        out["effects"] = attempt(effects, name, card.get("effect", []))
    return out


# dmcheck's conditions that give a card S-Trigger (R113.6b-c) as DMSIM conditions (core/condition_registry.py)
S_TRIGGER_IF = {
    "shields_at_most": lambda n: {"type": "player_zone_count", "player": "controller", "zone": "shield", "op": "lte",
                                  "value": n},
    "graveyard_spells_at_least": lambda n: {"type": "card_count_matches", "player": "controller", "zone": "graveyard",
                                            "filter": {"card_type": "spell"}, "op": "gte", "value": n},
}


def _conditional_s_trigger(name: str, condition: dict) -> dict:
    """S-Trigger under a condition: DMSIM's conditional_shield_trigger, its condition evaluated when the
    card is about to move from the shield zone to the hand (abilities/keywords/shield_trigger_ability.py)."""
    if len(condition) != 1 or next(iter(condition)) not in S_TRIGGER_IF:
        raise Unsupported(f"{name} has S-Trigger under the condition {condition}: the adapter does not translate it "
                          "into DMSIM")
    (key, value), = condition.items()
    return {"ability_id": "conditional_shield_trigger", "condition": S_TRIGGER_IF[key](value)}


def _twinpact(card: dict, rules: str, attempt) -> dict:
    """A twinpact (creature side on top, its spell side under `spell`) as DMSIM's twinpact card, each side
    one DMSIM face (cards/twin_pact_card.py); the card's name is its creature side's, as dmcheck names it."""
    spell = card["spell"]
    creature_side = {k: v for k, v in card.items() if k not in ("spell", "type")} | {"type": "creature"}
    spell_side = {"id": card["id"], "name": spell["name"], "type": "spell", "cost": spell["cost"],
                  "keywords": spell.get("keywords", []), "effect": spell.get("effect", []),
                  "abilities": spell.get("abilities", []), "s_trigger_if": spell.get("s_trigger_if")}
    faces = [_definition(side, rules, attempt) for side in (creature_side, spell_side)]
    for face in faces:
        face.pop("id", None)
    return {"id": card["id"], "kind": "twinpact", "name_ja": card["name"], "creature": faces[0], "spell": faces[1]}


def _raise(exc: Unsupported) -> None:
    raise exc


def _keyword(name: str, word: str, value: str, rules: str):
    if word in KEYWORDS:
        return KEYWORDS[word]
    if word == "Evolution" and not value:
        # an evolution creature (801): DMSIM's evolution keyword (abilities/keywords/evolution_ability.py: put
        # onto one of its owner's creatures in the battle zone) with its special type (is_evolution: never
        # summoning sick, the pile moves whole, core/card_mover.py); `definition` adds the special type
        return {"ability_id": "evolution", "source_zone": "battle", "source_count": 1, "card_types": "creature"}
    if word == "Slayer":
        if rules < words.SLAYER_SINCE:
            raise Lacks(f"{name} has Slayer, which under the rules of {rules} destroys only when its creature loses; "
                        "DMSIM has no such Slayer (its Slayer destroys whoever wins)")
        return "slayer"
    if word == "Wins All Battles":   # DMSIM's flag of its wins_all_battles effect, set for the run's turn (session.py)
        return None
    if word == "Power Attacker":
        return {"ability_id": "power_attacker", "amount": int(value.lstrip("+"))}
    shown = f"{word}:{value}" if value else word
    if word in LACKS:
        raise Lacks(f"{name} has {shown}: DMSIM has no such keyword ({LACKS[word]})")
    raise Unsupported(f"{name} has {shown}: the adapter does not translate it into DMSIM")
