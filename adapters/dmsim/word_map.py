"""dmcheck's abilities and spell effects (card words, model/instructions/) as DMSIM's triggered abilities
and effects (DMSIM's docs/JSON_SPEC.md). A word maps only where DMSIM has an effect of the same meaning
whose choices are dmcheck's: a creature chosen among the same ones (or none, when optional), a number of
cards. Any other word, trigger or argument raises Unsupported naming it.

The effects the adapter builds carry a prompt `dmcheck:DECISION` (DMSIM shows whatever prompt a card
gives), so that labels.py knows which dmcheck decision a DMSIM question stands for.
"""

from __future__ import annotations

import json


class Unsupported(Exception):
    """A position, card or word the adapter cannot give DMSIM faithfully: the run is `unsupported`."""


class Lacks(Unsupported):
    """What DMSIM itself has no counterpart for (its code was searched): no adapter could set the run up.
    Its reason says "DMSIM has no ..."."""


SOURCE = {"ref": "source"}
# dmcheck trigger -> DMSIM trigger (docs/JSON_SPEC.md, trigger DSL), each with the same meaning
TRIGGERS = {
    "enters": {"type": "enter_battle", "card": SOURCE},
    "attacks": {"type": "attack_declared", "attacker": SOURCE},
    "attacked": {"type": "attack_declared", "target": SOURCE},
    "blocks": {"type": "block_declared", "target": SOURCE},      # a BlockDeclaredEvent's target is the blocker
    "blocked": {"type": "block_declared", "attacker": SOURCE},
    "end_of_attack": {"type": "attack_ended", "attacker": SOURCE},
    "battle_win": {"type": "battle_won", "card": SOURCE},
    "battle_lose": {"type": "battle_lost", "card": SOURCE},
    "destroyed": {"type": "destroy", "card": SOURCE},
    "opponent_attacks": {"type": "attack_declared", "player": "opponent"},
    "end_of_your_turn": {"type": "turn_end", "player": "self"},   # TurnEndEvent of its controller's turn
    # an opponent's creature attacks one of its controller's creatures: the attack event's player is the
    # attacking one, and its creature filter meets the attacked creature (the attacker is not his)
    "own_attacked": {"type": "attack_declared", "player": "opponent",
                     "filter": {"card_type": "creature", "controller": "controller"}},
    "you_attacked": {"type": "attack_declared", "target": "controller"},
    # one ShieldBreakEvent per broken shield, none for a replaced break (core/shield_break_batch.py); the
    # breaking creature is its `breaker`, which the condition below looks at
    "breaks": {"type": "shield_break", "subject": "any"},
    "own_creature_breaks": {"type": "shield_break", "subject": "any"},
}
# the condition (evaluated when it triggers, core/condition_evaluator.py) a trigger above needs besides
CONDITIONS = {
    "breaks": {"type": "event_actor_is", "actor": "breaker", "value": "source"},
    "own_creature_breaks": {"type": "event_card_matches", "card": "breaker",
                            "filter": {"type": "creature", "controller": "controller"}},
}
# what DMSIM 686c63e has nothing for, and why (its code was searched for each)
UNTIL_ATTACK = ("DMSIM has no duration that ends with the attack: its durations end with a turn at the earliest "
                "(core/duration_type.py)")
LACKS = {
    "before_break": "DMSIM has no step between choosing the shields and breaking them where an ability resolves: "
                    "it breaks the chosen shields in one batch (core/shield_break_batch.py; R509.3-R509.4)",
    "add_power": UNTIL_ATTACK, "protect": UNTIL_ATTACK,
    "skip_turn": "DMSIM has no effect that skips the rest of a turn",
    "win_game": "DMSIM has no effect that wins the game", "lose_game": "DMSIM has no effect that loses the game",
    "kirifu_dash": "DMSIM has no Kirifu Dash", "oni_end": "DMSIM has no Oni End",
    "ninja_change": "DMSIM has no Ninja Change", "invasion": "DMSIM has no Invasion",
    "mechraid": "DMSIM has no Mechraid", "stop_attack": "DMSIM has no effect that stops an attack",
    "ignore": "DMSIM has no effect in its card language that ignores a creature's abilities: its ignoring effect "
              "(effects/combat/temporary_ability_nullification_effect.py) is built from no effect id",
    "breaks_one_or_more": "DMSIM has no event for a break as a whole: it tells each broken shield apart "
                          "(one ShieldBreakEvent per shield, core/shield_break_batch.py)",
}
# dmcheck `whose` -> DMSIM select_then candidates
WHOSE = {"own": "own_creatures", "opponent": "opponent_creatures", "any": "creatures"}
# the creature words that choose one creature of `whose` (or none when optional) and do one thing to it
ONE_CREATURE = {"destroy": {"id": "destroy"}, "return_to_hand": {"id": "bounce"},
                "to_mana": {"id": "move_card", "from_zone": "battle", "to_zone": "mana"},
                # face down, a new shield of its owner (select_then's move_card to the shield zone)
                "to_shields": {"id": "move_card", "from_zone": "battle", "to_zone": "shield"}}


# dmcheck replacement abilities with a DMSIM keyword ability of the same meaning: (what it replaces, its
# effect, optional) -> the DMSIM keyword. Shield Saver (abilities/keywords/shield_saver_ability.py): when
# one of its owner's shields would be broken, it may be destroyed instead; Escape (escape_ability.py):
# when it would be destroyed, its owner may put one of his shields into his hand instead, with no
# S-Trigger (DMSIM suppresses the shield's S-Trigger for that move).
REPLACEMENTS = {
    ("own_shield_break", json.dumps([{"destroy_self": {}}]), True): {"ability_id": "shield_saver", "optional": True},
    ("self_destroy", json.dumps([{"shield_to_hand": {"count": 1, "s_trigger": False, "whose": "own"}}]), True):
        "escape",
}


def is_json_replacement(a: dict) -> bool:
    """Whether dmcheck ability `a` becomes a DMSIM JSON replacement ability (json_replacement)."""
    return a.get("replaces") == "self_destroy" and a.get("effect") == [{"destroy": {"whose": "opponent"}}] \
        and bool(a.get("optional")) and a.get("zone", "battle") == "battle"


def json_replacement(name: str, a: dict) -> dict:
    """Skull Moon's "when this creature would be destroyed, you may destroy one of the opponent's creatures
    instead" as DMSIM's JSON replacement (abilities/v2/json_replacement_ability.py): on the attempt to
    destroy this card, optional (asked with the prompt dmcheck:leave), the event cancelled and the chosen
    creature destroyed."""
    return {"ability_id": a["id"], "attempt": {"event": "destroy_attempt", "card": {"ref": "source"}},
            "optional": True, "prompt": "dmcheck:leave",
            "replace_with": {"cancel_event": True, "effects": effects(name, a["effect"])}}


# dmcheck triggers whose ability is a DMSIM keyword ability used from the hand
HAND_KEYWORDS = ("ninja_strike", "attack_chance", "revolution_change")
CIVS = {"Fire", "Water", "Nature", "Light", "Darkness"}


def is_keyword(a: dict) -> bool:
    """Whether dmcheck ability `a` becomes a DMSIM keyword ability (keyword_ability) rather than a
    triggered one (ability)."""
    return bool(a.get("replaces")) or a.get("trigger") in HAND_KEYWORDS


def keyword_ability(name: str, a: dict, card: dict) -> dict | str:
    """A dmcheck replacement ability (`replaces`), Ninja Strike or Attack Chance as the DMSIM keyword
    ability of the same meaning."""
    if a.get("trigger") == "ninja_strike":
        return _ninja_strike(name, a)
    if a.get("trigger") == "attack_chance":
        return _attack_chance(name, a, card)
    if a.get("trigger") == "revolution_change":
        return _revolution_change(name, a, card)
    key = (a["replaces"], json.dumps(a.get("effect", []), sort_keys=True), bool(a.get("optional")))
    if key in REPLACEMENTS and a.get("zone", "battle") == "battle":
        return REPLACEMENTS[key]
    raise Unsupported(f"{name}'s `replaces {a['replaces']}` ability: the adapter does not translate it into DMSIM")


def _ninja_strike(name: str, a: dict) -> dict:
    """Ninja Strike N (dmcheck: `ninja_summon {mana: N}`, declared from the hand when an opponent's
    creature attacks, the card summoned for free on resolution if N mana cards are there then) is DMSIM's
    ninja_strike keyword (abilities/keywords/ninja_strike_ability.py: declared from the hand, the mana
    counted on resolution, the card summoned without cost). What DMSIM adds (a block also triggers it;
    the card goes back to the deck at the end of the turn) lies outside the attack the adapter plays
    (session.py refuses a Ninja Strike of the turn player)."""
    effect = a.get("effect", [])
    if len(effect) == 1 and set(effect[0]) == {"ninja_summon"} and set(effect[0]["ninja_summon"]) == {"mana"}:
        return {"ability_id": "ninja_strike", "mana_count": effect[0]["ninja_summon"]["mana"]}
    raise Unsupported(f"{name}'s `ninja_strike` ability does more than summon it (the adapter does not translate it)")


def _revolution_change(name: str, a: dict, card: dict) -> dict:
    """Revolution Change (dmcheck: `revolution_change {any_of, all_of, cost_min}`, declared from the hand when
    the turn player's creature meeting the condition attacks; the two swapped, both or neither) is DMSIM's
    revolution_change keyword (abilities/keywords/revolution_change_ability.py: declared from the hand,
    the swap by CardMover.swap, both or neither, the new creature attacking in the old one's place)."""
    effect = a.get("effect", [])
    if card["type"] != "creature" or len(effect) != 1 or set(effect[0]) != {"revolution_change"}:
        raise Unsupported(f"{name}'s `revolution_change` ability does more than the swap (the adapter does not "
                          "translate it)")
    return {"ability_id": "revolution_change", "attack_creature": attack_filter(name, effect[0]["revolution_change"])}


def attack_filter(name: str, cond: dict) -> dict:
    """dmcheck's condition on the attacking creature (`any_of`: a civilization or race of the list, `all_of`:
    each of the list, `cost_min`) as a DMSIM card filter: a list of civilizations is any of them; races are
    DMSIM's race_ja (any of a list; session.py refuses a race it would match only by a part of a name)."""
    cond = cond or {}
    out: dict = {}

    def put(key: str, value) -> None:
        if key in out:
            raise Unsupported(f"{name}'s condition on the attacking creature {cond} needs two DMSIM filters on "
                              f"{key} (the adapter does not translate it)")
        out[key] = value

    any_of, all_of = cond.get("any_of") or [], cond.get("all_of") or []
    if any_of and set(any_of) <= CIVS:
        put("civilization", [c.lower() for c in any_of])
    elif any_of and not set(any_of) & CIVS:
        put("race_ja", list(any_of))
    elif any_of:
        put("civilization", None)   # both kinds: refused below
    for word in all_of:
        put("civilization", [word.lower()]) if word in CIVS else put("race_ja", word)
    if out.get("civilization", []) is None:
        raise Unsupported(f"{name}'s condition names both races and civilizations in `any_of` (the adapter does not "
                          "translate it)")
    if cond.get("cost_min"):
        out["cost"] = {"gte": cond["cost_min"]}
    if set(cond) - {"any_of", "all_of", "cost_min"}:
        raise Unsupported(f"{name}'s condition on the attacking creature {cond}: the adapter does not translate it")
    return out


def _attack_chance(name: str, a: dict, card: dict) -> dict:
    """Attack Chance (dmcheck: `attack_chance {any_of}` then `cast_self`) is DMSIM's attack_chance keyword
    (abilities/keywords/attack_chance_ability.py: a spell in the hand, declared when its owner's creature
    meeting the filter attacks, cast for free on resolution if still in the hand). `any_of` names
    races (DMSIM's race_ja filter, any of the list; session.py refuses a race it would match only by a
    part of its name) or civilizations (DMSIM's civilization filter, any of the list)."""
    effect = a.get("effect", [])
    ok = card["type"] == "spell" and len(effect) == 2 and set(effect[0]) == {"attack_chance"} and \
        effect[1] == {"cast_self": {}}
    if not ok:
        raise Unsupported(f"{name}'s `attack_chance` ability: the adapter translates only a spell's Attack Chance "
                          "with `any_of` then `cast_self`")
    return {"ability_id": "attack_chance", "attack_creature": attack_filter(name, effect[0]["attack_chance"])}


def ability(name: str, a: dict) -> dict:
    """A dmcheck triggered ability as a DMSIM `triggered` spec; its `ability_id` is dmcheck's id."""
    trigger = a.get("trigger")
    shown = trigger or f"replaces {a.get('replaces')}"
    if shown in LACKS:
        raise Lacks(f"{name}'s `{shown}` ability: {LACKS[shown]}")
    if not trigger or trigger not in TRIGGERS or a.get("zone", "battle") != "battle":
        _lacking(name, a.get("effect", []))   # a word DMSIM has nothing for is the reason to give first
        raise Unsupported(f"{name}'s `{shown}` ability: the adapter does not translate it into DMSIM")
    spec = {"ability_id": a["id"], "trigger": TRIGGERS[trigger], "effects": effects(name, a["effect"])}
    if trigger in CONDITIONS:
        spec["condition"] = CONDITIONS[trigger]
    if trigger == "destroyed":   # it triggers in the graveyard, on its own card (DMSIM's docs/CAVEATS.md)
        spec.update(active_zones="any", ignore_source_continuity=True)
    return spec


def _lacking(name: str, program: list) -> None:
    """Raise Lacks for a word of `program` DMSIM has nothing for; nothing for the other words."""
    try:
        effects(name, program)
    except Lacks:
        raise
    except Unsupported:
        pass


def effects(name: str, program: list) -> list:
    out: list = []
    for ins in program:
        for op, args in ins.items():
            built = _effect(name, op, args or {})
            out += built if isinstance(built, list) else [built]
    return out


# keywords a `grant` gives, as the DMSIM ability the creature gets for the turn (abilities/registry.py)
GRANTED = {"Blocker": "blocker", "Speed Attacker": "speed_attacker", "Slayer": "slayer"}


def _effect(name: str, op: str, args: dict) -> dict:
    if op == "draw" and set(args) <= {"count", "up_to"}:
        spec = {"effect_id": "draw", "amount": args["count"], "prompt": "dmcheck:draw"}
        if args.get("up_to"):
            spec["max_amount"] = args["count"]
        return spec
    if op in ONE_CREATURE and set(args) <= {"whose", "optional"}:
        return {"effect_id": "select_then", "candidates": WHOSE[args.get("whose", "any")],
                "filter": {"type": "creature"}, "effect": ONE_CREATURE[op], "optional": bool(args.get("optional")),
                "prompt": f"dmcheck:{op}"}
    if op == "power" and set(args) <= {"amount", "target", "whose", "optional", "until"} \
            and isinstance(args.get("amount"), int) and \
            args.get("until", "end_turn") == "end_turn" and args.get("target", "one") in ("one", "self"):
        change = {"amount": args["amount"], "duration": {"type": "until_end_of_turn"}}
        if args.get("target", "one") == "self":
            return {"type": "modify_power", "target": SOURCE, **change}
        return {"effect_id": "select_then", "candidates": WHOSE[args.get("whose", "opponent")],
                "filter": {"type": "creature"}, "optional": bool(args.get("optional")), "prompt": "dmcheck:power",
                "effect": {"id": "modify_power", **change}}
    if op == "deck_to_mana" and not args:      # the top card of the controller's deck into his mana zone
        return {"effect_id": "move_card", "from_zone": "deck", "to_zone": "mana", "selection": "top", "amount": 1,
                "target_player": "self", "optional": False}
    if op in ("destroy_self", "destroy_attacker") and not args:   # DMSIM's v2 destroy of a card by reference
        return {"type": "destroy", "target": {"ref": "source" if op == "destroy_self" else "event.attacker"}}
    if op == "if" and set(args) == {"cond", "do"} and args["cond"] in ({"no_shields": "own"},
                                                                        {"no_shields": "opponent"}):
        # checked on resolution, as dmcheck does: DMSIM's v2 `if` with its player_zone_count condition
        who = "controller" if args["cond"]["no_shields"] == "own" else "opponent"
        return {"type": "if", "condition": {"type": "player_zone_count", "player": who, "zone": "shield", "op": "eq",
                                            "value": 0}, "then": effects(name, args["do"])}
    if op == "battle" and args == {"mine": "self", "theirs": "attacker", "optional": True}:
        # this creature may battle the attacking creature: DMSIM's v2 choice between its v2 battle (the
        # creatures by reference: the source, the attack event's attacker) and nothing
        fight = {"type": "battle", "attacker": {"ref": "source"}, "defender": {"ref": "event.attacker"}}
        return {"type": "choice", "prompt": "dmcheck:battle", "choices": [
            {"label": "battle", "effects": [fight]}, {"label": "none", "effects": []}]}
    if op == "battle" and args == {"mine": "self", "theirs": "one"}:
        # this creature battles an opponent's creature chosen now: DMSIM's select_then with its battle,
        # the source against the chosen creature (effects/composition/select_then_effect.py)
        return {"effect_id": "select_then", "candidates": "opponent_creatures", "filter": {"type": "creature"},
                "effect": {"id": "battle", "target": "self"}, "optional": False, "prompt": "dmcheck:battle"}
    if op == "discard" and args.get("count") == 1 and set(args) <= {"count", "optional"}:
        # one card of the controller's hand, chosen (DiscardEffect asks one card at a time: one only here)
        return {"effect_id": "discard", "amount": 1, "optional": bool(args.get("optional"))}
    if op == "mana_to_hand" and not args:   # may return one card of the controller's mana zone to his hand
        return {"effect_id": "move_card", "from_zone": "mana", "to_zone": "hand", "selection": "choose", "amount": 1,
                "target_player": "self", "optional": True, "prompt": "dmcheck:mana_to_hand"}
    if op == "put_creature_free" and set(args) == {"cost_max", "from"} and set(args["from"]) <= {"hand", "mana"}:
        # may put one creature of cost `cost_max` or less from these zones into the battle zone
        return {"effect_id": "put_creature_from_multi_zone", "from_zones": list(args["from"]), "optional": True,
                "filter": {"card_type": "creature", "cost": {"lte": args["cost_max"]}},
                "prompt": "dmcheck:put_creature_free"}
    if op == "grant" and args.get("keyword") in GRANTED and args.get("target") == "one" and args.get("whose") \
            and args.get("until") == "end_turn" and set(args) <= {"keyword", "target", "whose", "until", "optional"}:
        # one creature of `whose` chosen now gets the keyword until the end of the turn: DMSIM's v2 select,
        # then its temporary_ability on the chosen creature (effects/combat/temporary_ability_effect.py)
        return [{"type": "select", "candidates": WHOSE[args["whose"]], "filter": {"type": "creature"},
                 "store_as": "granted", "optional": bool(args.get("optional")), "prompt": "dmcheck:grant"},
                {"effect_id": "temporary_ability", "target": {"ref": "granted"},
                 "ability": {"ability_id": GRANTED[args["keyword"]]}, "duration": {"type": "until_end_of_turn"}}]
    if op == "grant" and args.get("keyword") in GRANTED and args.get("target") == "attacked" \
            and args.get("until") == "end_turn" and set(args) == {"keyword", "target", "until"}:
        # the attacked creature (the attack event's target) gets the keyword until the end of the turn
        # (a Slayer given under the rules before it destroyed whoever won: session.py refuses the run)
        return {"effect_id": "temporary_ability", "target": {"ref": "event.target"},
                "ability": {"ability_id": GRANTED[args["keyword"]]}, "duration": {"type": "until_end_of_turn"}}
    if op == "hand_to_shield" and set(args) <= {"optional"}:   # one card of the controller's hand, face down
        return {"effect_id": "add_hand_to_shield", "optional": bool(args.get("optional")),
                "face_options": ["face_down"]}
    if op == "add_shield_from_deck" and not args:
        return {"effect_id": "add_deck_to_shield", "amount": 1}
    if op in LACKS:
        raise Lacks(f"{name}'s card word `{op}`: {LACKS[op]}")
    if op == "power" and "infinity" in str(args.get("amount")):
        raise Lacks(f"{name}'s card word `power` of {args['amount']}: DMSIM has no infinite power (its power "
                    "changes are whole numbers, effects/modifiers/)")
    for inner in ("do", "if_done", "else"):   # a word DMSIM has nothing for, inside this one
        if isinstance(args.get(inner), list):
            _lacking(name, args[inner])
    shown = f"{op} {json.dumps(args, sort_keys=True)}" if args else op
    raise Unsupported(f"{name}'s card word `{shown}`: the adapter does not translate it into DMSIM")
