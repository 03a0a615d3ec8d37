"""DMSIM's questions as dmcheck's choices (docs/conform.md, a choice): each option of a question becomes a
label `{player, kind, decision, what}` with cards by their scenario labels, paired with the value DMSIM
is answered with when dmcheck applies it.

A question with no dmcheck counterpart is still offered, labelled with DMSIM's own prompt (decision
`dmsim`), so that the run shows it as a choice the rules do not offer rather than hiding it.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

AUTOMATIC = object()   # the question is no choice of dmcheck's: answered by the adapter
SPLIT = object()       # the first of two dmcheck decisions DMSIM asks as one question: DMSIM is not answered yet


def offers(session: Any, q: Any) -> list[tuple[dict, Any]]:
    """(label, answer) for every option of DMSIM's question `q`."""
    who = session.who(q.player)
    prompt = q.prompt
    if prompt == "Choose attack step action":
        return _attack(session, q, who)
    if prompt == "direct attack":      # session.DIRECT
        return [(_label(who, "direct_attack"), q.choices[0])]
    if prompt == "Choose blocker":
        return [(_label(who, "no_block") if c is None else _label(who, "block", [session.label(c)]), c)
                for c in q.choices]
    if prompt in ("Choose a shield to break", "Choose shields to break"):
        return [(_label(who, "choose_shields", sorted(session.shield_label(c) for c in combo)), list(combo) if
                 prompt.startswith("Choose shields") else combo[0]) for combo in _subsets(q)]
    if prompt == "Choose shield checks to declare":
        return [(_label(who, "choose", [_declared(session, item) for item in combo], "declare"), list(combo))
                for combo in _subsets(q)]
    if prompt == "Choose shield check to resolve":
        return [(_label(who, "choose", [_declared(session, item)], "use"), item) for item in q.choices]
    if prompt == "Choose an effect to resolve":
        return [(_label(who, "resolve", [_pending(session, e)]), e) for e in q.choices]
    if prompt == "Choose hidden triggers to declare":   # EffectResolver._declare_pending_effects (min 0)
        turn = who == session.position["turn"]        # the turn player's Attack Chance, the other's Ninja Strike
        kind, none = ("tp_declare", "no_tp_declare") if turn else ("ninja_declare", "no_ninja_declare")
        cards = lambda combo: [session.label(e.ability.owner_card) for e in combo]
        return [(_label(who, kind, cards(combo)) if combo else _label(who, none), list(combo)) for combo in _subsets(q)]
    if prompt.startswith("Choose evolution source for "):   # SummonActionHandler: the creature it goes onto
        return [(_label(who, "choose", [session.label(c)], "put_evolution"), c) for c in q.choices if c is not None]
    if prompt == "Choose a card to discard":   # DiscardEffect (word_map: dmcheck's discard of one card)
        return [(_label(who, "choose", ["none"] if c is None else [session.label(c)], "discard"), c)
                for c in q.choices]
    if prompt == "Choose a hand card to shield":    # AddHandToShieldEffect (word_map: dmcheck's hand_to_shield)
        return [(_label(who, "choose", ["none"] if c is None else [session.label(c)], "hand_to_shield"), c)
                for c in q.choices]
    if prompt == "Choose an opponent creature for G・ストライク":   # ShieldTriggerResolver._resolve_g_strike
        return [(_label(who, "choose", ["none"] if c is None else [session.label(c)], "cant_attack"), c)
                for c in q.choices]
    if prompt == "dmcheck:leave":      # word_map.json_replacement: whether the destruction is replaced
        used = _replacement(session, q.asker, "self_destroy")
        return [(_label(who, "choose", [used] if c else ["none"], "leave"), c) for c in q.choices]
    if prompt == "Use Shield Saver?":     # ShieldSaverAbility (DestroySelfInsteadAbility.replace): True / False
        used = _replacement(session, q.asker, "own_shield_break")
        return [(_label(who, "choose", [used] if c else ["none"], "replace_break"), c) for c in q.choices]
    if prompt == "Choose a shield for Escape":
        # EscapeAbility.replace asks the shield or none (None) at once; dmcheck decides whether the
        # replacement applies (`leave`), then which shield goes to the hand (`shield_to_hand`)
        if not session.split.get(id(q)):
            used = _replacement(session, q.asker, "self_destroy")
            return [(_label(who, "choose", [used], "leave"), SPLIT), (_label(who, "choose", ["none"], "leave"), None)]
        return [(_label(who, "choose", [session.label(c)], "shield_to_hand"), c) for c in q.choices if c is not None]
    if prompt == "dmcheck:battle":   # word_map's battles: [this creature, the one it battles], or none
        mine = session.label(q.asker.source_card)
        if all(type(c).__name__ == "ChoiceOption" for c in q.choices):   # the attacking creature, or not
            fight = [mine, session.label(session.game.state.current_attacker)]
            return [(_label(who, "choose", fight if c.label == "battle" else ["none"], "battle"), c.index)
                    for c in q.choices]
        return [(_label(who, "choose", ["none"] if c is None else [mine, session.label(c)], "battle"), c)
                for c in q.choices]
    if prompt == "dmcheck:put_creature_free":   # a creature and the zone it comes from, or none
        zone = lambda c: str(c.zone.name).lower()
        return [(_label(who, "choose", ["none"] if c is None else [session.label(c), zone(c)], "put_creature_free"), c)
                for c in q.choices]
    if prompt.startswith("dmcheck:"):        # a question of an effect the adapter built (word_map.py)
        decision = prompt.partition(":")[2]
        return [(_label(who, "choose", ["none"] if c is None else [_shown(session, c)], decision), c)
                for c in q.choices]
    return [(_label(who, "choose", [prompt, _shown(session, c)], "dmsim"), c) for c in q.choices]


def _attack(session: Any, q: Any, who: str) -> list[tuple[dict, Any]]:
    """The attack step: the position's attack (declared at setup, `automatic`, or as its own choice,
    `choice`), or any attack and none (`chosen`, and after an attack when the run plays the whole attack
    step, session.py); once the run's attacks are over, the end of the run."""
    from actions.attack_action import AttackAction

    attack = session.position["attack"]
    chosen = attack.get("choose") or session.attacked
    out = []
    for c in q.choices:
        if not isinstance(c, AttackAction):
            if chosen and type(c).__name__ == "FinishAttackStepAction":
                out.append((_label(who, "no_attack"), c))
            continue
        target = None if c.target in session.players else session.label(c.target)
        if chosen:
            out.append((_label(who, "choose_attack", [session.label(c.attacker), target]), c))
        elif session.label(c.attacker) == attack["attacker"] and target == attack.get("creature"):
            declared = session.position["declaration"] == "automatic"
            out.append((AUTOMATIC if declared else _label(who, "declare_attack"), c))
    return out


def _subsets(q: Any) -> list[tuple]:
    """The sets a multiple choice allows (min_count..max_count items), smaller first; a single choice's
    options one by one."""
    if q.max_count == 1 and q.min_count == 1:
        return [(c,) for c in q.choices]
    high = min(q.max_count, len(q.choices))
    return [combo for k in range(q.min_count, high + 1) for combo in combinations(q.choices, k)]


def _declared(session: Any, item: Any) -> dict:
    kind = {"shield_trigger": "S-Trigger", "g_strike": "G-Strike"}.get(item.kind, item.kind)
    out = {"declare": kind, "card": session.label(item.card)}
    faces = (getattr(item.card, "creature_face", None), getattr(item.card, "spell_face", None))
    if kind == "S-Trigger" and all(faces):
        # a twinpact: DMSIM uses the creature side when it has S-Trigger, else the spell side
        # (TwinPactCard._select_shield_trigger_face)
        trigger = lambda face: any(type(a).__name__ == "ShieldTriggerAbility" for a in face.abilities)
        out["side"] = "creature" if trigger(faces[0]) else "spell"
    return out


def _pending(session: Any, effect: Any) -> dict:
    ability, frame = session.tally.tags.get(id(effect)) or _declared_ability(session, effect)
    return {"ability": ability, "source": session.label(effect.source_card),
            "controller": session.who(effect.effect_controller), "kind": "triggered", "frame": frame}


def _replacement(session: Any, ability: Any, replaces: str) -> dict:
    """dmcheck's label of the replacement effect of DMSIM's `ability` (its card's ability replacing `replaces`)."""
    label = session.label(ability.owner_card)
    card = session.request["cards"][session.position["cards"][label]]
    found = next(a["id"] for a in card.get("abilities", []) if a.get("replaces") == replaces)
    return {"replacement": f"{card['name']}/{found}", "source": label}


def _declared_ability(session: Any, effect: Any) -> tuple[str, int]:
    """The dmcheck ability label of a waiting effect no triggered ability queued: a declared Ninja Strike
    or Attack Chance (its keyword ability adds it itself)."""
    keyword = getattr(effect, "ability", None)
    trigger = {"NinjaStrikeAbility": "ninja_strike", "AttackChanceAbility": "attack_chance",
               "RevolutionChangeAbility": "revolution_change"}.get(type(keyword).__name__)
    if trigger is None:
        return f"{getattr(effect, 'source_card', None)}/?", 0
    card = session.request["cards"][session.position["cards"][session.label(keyword.owner_card)]]
    found = next(a["id"] for a in card.get("abilities", []) if a.get("trigger") == trigger)
    return f"{card['name']}/{found}", 0


def _shown(session: Any, value: Any) -> Any:
    if value is None or isinstance(value, (int, str)):
        return value
    return session.labels.get(id(value), str(value))


def _label(player: str, kind: str, what: list | None = None, decision: str | None = None) -> dict:
    return {"player": player, "kind": kind, "decision": decision or kind, "what": what or []}
