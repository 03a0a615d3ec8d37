"""Events in rules language, the way a judge writes notes: who did what, and why (the citation)."""

from __future__ import annotations

from typing import Any

from . import keyword_table, lang, restrictions
from .actions import Action
from .events import Event

# the verb of each way a card turns over (805.1a-b, 806.1b, 807.1a-b)
_FLIP_HOW = {"awaken": "awakens", "release": "is released", "dragsolution": "dragsolves",
             "dragon_escape": "makes its dragon escape", "link_release": "comes out of its link release",
             "cell_escape": "comes out of its cell escape",
             "forbidden_release": "is released from its seals (forbidden release)",
             "zero_dragon_birth": "turns over by Zero Dragon's birth"}

S_TRIGGER = keyword_table.name("shield_trigger")   # the ability a shield check's declaration names by default


def _zone(name: str) -> str:
    return {"deck_bottom": "the deck bottom", "deck": "the deck", "battle": "the battle zone",
            "resolving": "resolution", "shields": "the shield zone", "hyperspatial": "the hyperspatial zone",
            "super_gr": "the super GR zone", "abyss": "the abyss zone",
            "attached": "under another card"}.get(name, f"the {name}")


def _of(ability: str, source: str) -> str:
    """`Kakumeijin/before_break`, naming the source only when it is another copy (`Vanilla#2`)."""
    return ability if ability.partition("/")[0] == source else f"{ability} of {source}"


# events whose text only fills in their fields
_PLAIN = {
    "tap": "{card} ({player}) is tapped",
    "cant_attack": "{card} ({player}) cannot attack this turn",
    "skip_turn": "{player} skips the rest of the turn: nothing pending resolves and nothing more breaks",
    "attack_stopped": "the attack of {attacker} is stopped: every shield chosen to break has left the zone",
    "attack": "{player}'s {card} attacks {target}",
    "block": "{player} blocks {attacker} with {card}",
    "redirect": "{player}'s {card} takes the attack of {attacker} ({how}); it does not block",
    "battle": "{card} battles {against}: winner {winner}",
    "end_attack": "the attack of {attacker} ends",
    "power": "{card} ({player}) gets +{amount} power until the end of the attack",
    "protect": "{card} ({player}) cannot be destroyed until the end of the attack",
    "expire": "{effect} of {card} no longer applies",
    "extra_turn": "{player} will take another turn after this one",
    "end_turn": "{player}'s turn ends",
    "start_turn": "{player}'s turn begins",
    "lose": "{player} loses the game",
    "win": "{player} wins the game",
    "rebuild": "{card} ({player}) stays in the battle zone as the creature: only {top}, the top card, left",
    "leave_together": "{card} ({player}) leaves the battle zone with the cards under it and its auras, to {to}",
    "god_link": "{card} ({player}) links as a God at the {side} of {beside}: one creature with it",
    "god_unlink": "{card} ({player}) comes out of the linked God; {stays} stays as that creature",
    "power_zero": "{card} ({player}) has power {power}: it is destroyed by the rules",
    "untap": "{card} ({player}) is untapped",
    "grant": "{card} ({player}) has {keyword} until the end of the turn",
    "characteristic": "{card} ({player}) has the {what} {value} too until the end of the turn",
    "bonus": "{card} ({player}) is used with its bonus",
    "choose": "{player} chooses the {what} {value}",
    "no_attack": "{player} does not attack",
    "pay": "{player} pays the cost {mana_cost} of {card}, tapping {tapped} mana cards",
    "end_main": "{player}'s main step ends",
    "charge": "{player} charges {card} from the hand into the mana zone",
    "fortify": "{player} fortifies the shield {shield} with the castle {card}",
    "generate": "{player} generates the cross gear {card}: it is in the battle zone, crossed to nothing",
    "cross": "{player} crosses the cross gear {card} onto {onto}",
    "deploy": "{player} deploys the field {card}: it enters the battle zone",
    "displace": "another D2 field entered: the D2 field {card} ({player}) goes to its owner's graveyard",
    "link": "{card} ({player}) is linked under {onto}: one super creature (psychic 806.1, dragheart 808.1), "
            "{card} a cell of it",
    "equip": "{player} equips {onto} with the weapon {card}",
    "reveal": "{player} shows {card}",
    "gachinko": "{player}'s Gachinko Judge is over (won: {won})",
}


class _Fields(dict):
    """An event's fields for str.format_map; a field the event lacks reads as None, as e.get gives it."""

    def __init__(self, e: Event):
        super().__init__(e.fields)

    def __missing__(self, key: str) -> None:
        return None


def describe(e: Event) -> str:
    g = e.get
    if e.kind == "choose_shields":
        text = f"{g('player')} chooses {', '.join(g('shields'))} to be broken by {g('by')} (frame {g('frame')})"
    elif e.kind == "trigger":
        text = f"{_of(g('ability'), g('source'))} triggers; {g('controller')}'s effect is pending"
    elif e.kind == "resolve":
        text = f"{g('controller')} resolves {_of(g('ability'), g('source'))}"
    elif e.kind == "cast":
        text = f"{g('player')} casts {g('card')}"
    elif e.kind in ("put", "move"):
        text = f"{g('card')} ({g('player')}) goes from {_zone(g('from'))} to {_zone(g('to'))}"
        if g("onto"):
            text += f", on top of {g('onto')}"   # an evolution: Invasion (A06)
    elif e.kind == "break":
        text = f"{g('player')}'s shield {g('shield')} is broken by {g('by')}"
    elif e.kind == "shield_trigger":
        text = f"{g('player')} uses the {g('ability') or S_TRIGGER} of {g('card')}"
    elif e.kind == "declare":
        cost = f", discarding {g('cost')}" if g("cost") else ""
        text = f"{g('player')} declares the {g('ability')} of {g('card')}{cost}"
    elif e.kind == "fizzle" and g("with"):
        text = f"the {g('ability')} of {g('card')} does nothing: {g('with')} does not leave the battle zone, so " \
               f"neither card moves (a swap is both moves or none)"
    elif e.kind == "fizzle":
        text = f"the {g('ability')} of {g('card')} does nothing: the card has left the hand"
    elif e.kind == "destroy":
        text = f"{g('card')} ({g('player')}) is to be destroyed (the attempt)"
    elif e.kind == "destroyed":
        how = " face down, without characteristics" if g("face_down") else (
            " without characteristics" if g("characteristics") is False else "")
        text = f"{g('card')} ({g('player')}) is destroyed: it reaches the graveyard{how}"
    elif e.kind == "replace":
        what = g("shield") or g("card")
        text = f"the {g('replaced')} of {what} is replaced by {g('by')}"
    elif e.kind == "win" and e.rule == "D0":
        text = f"{g('player')} wins the game by the direct attack"
    elif e.kind == "lose" and e.rule == "LO01":
        text = f"{g('player')} loses the game: the deck is empty"
    elif e.kind == "power" and g("until") == "end_turn":
        text = f"{g('card')} ({g('player')}) gets {_amount(g('amount'))} power until the end of the turn"
    elif e.kind == "link" and e.rule == "R701.31a":   # 701.31a: a nebula's other front joins Zero Dragon
        text = f"{g('card')} ({g('player')}) is put under {g('onto')}: one Zero Dragon creature"
    elif e.kind == "flip":   # 805.1a-b: the same creature, its other face up; 807.1a-b: a dragheart; 816.2-3
        how = str(g("how"))
        if how in _HYPER_FLIPS:   # hyper mode on or off: the same creature, its name unchanged
            text = f"{g('card')} ({g('player')}) {_HYPER_FLIPS[how]}, the same creature"
        else:
            text = f"{g('card')} ({g('player')}) {_FLIP_HOW.get(how, 'turns over')}: it turns over and is " \
                f"{g('face')}, " + ("the same card, tapped or not as it was" if how in ("dragsolution", "dragon_escape")
                                    else "the same card" if how == "zero_dragon_birth" else "the same creature")
    elif e.kind == "restrict":
        text = f"{g('card')} ({g('player')}): {g('restriction').replace('_', ' ')} {restrictions.shown(g('until'))}"
    elif e.kind in _PLAIN:
        text = _PLAIN[e.kind].format_map(_Fields(e))
    else:
        text = e.kind + " " + ", ".join(f"{k}={v}" for k, v in e.fields)
    return f"{text} [{e.rule}]" if e.rule else text


def _amount(amount) -> str:
    """A power change as cards write it: +2000, -3000; x2, /2 and +infinity as the effect gave them (R108.2)."""
    return f"{amount:+d}" if isinstance(amount, int) else str(amount)


# an action whose first event says the same thing again
_RESTATES = {"resolve": "resolve", "choose_shields": "choose_shields", "shield_trigger": "shield_trigger",
             "direct_attack": "win"}


def _same(header: str, e: Event) -> bool:
    """Whether an event only says again what a choice's header says (`B declares S-Trigger of X` and
    `B declares the S-Trigger of X`)."""
    plain = lambda text: " ".join(w for w in text.casefold().split() if w != "the")   # noqa: E731
    return plain(describe(replace_rule(e))) == plain(header)


def replace_rule(e: Event) -> Event:
    return Event(e.kind, e.fields, "")


def narrate(action: Action, events: tuple[Event, ...], context: dict | None = None,
            names: lang.Names | None = None) -> tuple[str, list[str]]:
    """One step of a trace: the choice as a header, then only what it changed (each with its rule), each
    event under the step that caused it: a shield broken here that goes to the hand only after its
    player's declarations is said to wait in standby (R113.6a), and when it goes, the step that broke
    it is named. `context` is shared by the steps of one trace (numbered in `context["step"]`); without
    it a step is told on its own. `names` (the model's cards): in Japanese, the cards and abilities as
    the card files name them (model/lang.py)."""
    header = lang.action_text(action.text, names) if names is not None else action.text
    told = list(events)
    if told and (told[0].kind == _RESTATES.get(action.kind, "") or
                 (action.kind == "choose" and told[0].kind == "cast"
                  and action.text.startswith(f"{told[0].get('player')} casts")) or
                 (action.kind == "choose" and told[0].kind in ("declare", "shield_trigger")
                  and _same(action.text, told[0]))):
        # the first event only restates the choice: keep its citation on the header
        header += f" [{told[0].rule}]" if told[0].rule else ""
        told = told[1:]
    return header, causal(told, context, names)


def causal(events: list[Event], context: dict | None = None, names: lang.Names | None = None) -> list[str]:
    """The events' lines, with what the standby of R113.6a leaves implicit said where it happens."""
    broken = context.setdefault("broken", {}) if context is not None else {}
    step = context.get("step", 0) if context is not None else 0
    to_hand = {(e.get("player"), e.get("card")) for e in events if _check_move(e)}
    waiting = [(e.get("player"), e.get("shield")) for e in events
               if e.kind == "break" and (e.get("player"), e.get("shield")) not in to_hand]
    last_break = max((i for i, e in enumerate(events) if e.kind == "break"), default=-1)
    lines = []
    for i, e in enumerate(events):
        if e.kind == "break":
            broken[(e.get("player"), e.get("shield"))] = step
        if _check_move(e) and (e.get("player"), e.get("card")) not in {(x.get("player"), x.get("shield"))
                                                                         for x in events if x.kind == "break"}:
            when = broken.get((e.get("player"), e.get("card")))
            lines.append(_from_standby(e, when, names))
        else:
            lines.append(describe(e) if names is None or not lang.japanese() else describe_ja(e, names))
        if i == last_break and waiting:
            who = waiting[0][0]
            cards = [card for _, card in waiting]
            if names is not None and lang.japanese():
                lines.append(_ja("standby_wait", cards=names.cards(cards), player=who) + " [R113.6a]")
            else:
                lines.append(f"{', '.join(cards)} ({who}) wait in standby in the shield zone "
                             f"until {who}'s declarations (S-Trigger and the like) are made [R113.6a]")
    return lines


def _from_standby(e: Event, when: int | None, names: lang.Names | None) -> str:
    """A card of a shield check that goes to the hand after its player's declarations (R113.6a), naming
    the step that broke it when the trace says."""
    if names is not None and lang.japanese():
        key = "standby_move_since" if when else "standby_move"
        return _ja(key, card=names.card(e.get("card")), player=e.get("player"), step=when) + f" [{e.rule}]"
    since = f", broken in step {when}," if when else ""
    return f"{e.get('card')} ({e.get('player')}){since} goes from standby to the hand [{e.rule}]"


def _ja(key: str, **fields: Any) -> str:
    return str(lang.table()["events"][key]).format(**fields)


# the fields of an event that name a card (a label), in Japanese as the card file names it
_CARD_FIELDS = ("card", "shield", "by", "source", "attacker", "target", "against", "winner", "onto", "with",
                "top", "cost", "beside")


def describe_ja(e: Event, names: lang.Names) -> str:
    """An event in Japanese, in the rules' terms (model/data/ja.yaml `events`), with its rule."""
    f: dict[str, Any] = {k: v for k, v in e.fields}
    for key in _CARD_FIELDS:
        if key in f and f[key] is not None:
            f[key] = _ja("none") if f[key] == "none" else names.card(f[key])
    if "shields" in f:
        f["shields"] = names.cards(f["shields"])
    if "stays" in f:   # god_unlink: the cards that stay as the creature, a list in one field
        f["stays"] = "、".join(names.card(c) for c in str(f["stays"]).split(", "))
    for key in ("from", "to"):
        if key in f:
            f[key] = lang.term("zones", str(f[key]))
    if "ability" in f:
        f["ability"] = names.ability(f["ability"])
    if "keyword" in f:
        f["keyword"] = lang.keyword(str(f["keyword"]))
    if "effect" in f:
        f["effect"] = lang.keyword(str(f["effect"]))
    if "replaced" in f:
        f["replaced"] = lang.table()["replaced"].get(f["replaced"], f["replaced"])
    key = _ja_variant(e, f, names)
    if key not in lang.table()["events"]:
        return describe(e)
    text = str(lang.table()["events"][key]).format_map(_Missing(f))
    return f"{text} [{e.rule}]" if e.rule else text


def _ja_variant(e: Event, f: dict[str, Any], names: lang.Names) -> str:
    """Which of an event kind's Japanese sentences tells it (ja.yaml `events`), filling `f` as needed."""
    kind = e.kind
    if kind == "trigger" and e.get("source") and e.get("ability", "").partition("/")[0] != e.get("source"):
        f["ability"] = _ja("of_source", ability=f["ability"], source=f["source"])
    if kind == "resolve" and e.get("source") and e.get("ability", "").partition("/")[0] != e.get("source"):
        f["ability"] = _ja("of_source", ability=f["ability"], source=f["source"])
    if kind in ("put", "move"):
        return "move_onto" if e.get("onto") else "move"
    if kind == "god_link":   # one sentence per side (804.1a)
        return f"god_link_{e.get('side')}"
    if kind == "declare" and e.get("cost"):
        return "declare_cost"
    if kind == "fizzle":
        return "fizzle_with" if e.get("with") else "fizzle"
    if kind == "destroyed":
        return ("destroyed_face_down" if e.get("face_down") else
                "destroyed_no_characteristics" if e.get("characteristics") is False else "destroyed")
    if kind == "replace":
        f["what"] = f.get("shield") or f.get("card")
        f["by"] = names.ability(e.get("by"))
    if kind == "win" and e.rule == "D0":
        return "win_direct"
    if kind == "lose" and e.rule == "LO01":
        return "lose_deck_out"
    if kind == "link" and e.rule == "R701.31a":
        return "link_zero_dragon"
    if kind == "flip":   # 805.1a awakening, 805.1b release, 807.1a dragsolution, 807.1b dragon escape
        return f"flip_{e.get('how')}"
    if kind == "restrict":   # model/restrictions.py: one sentence per duration
        f["restriction"] = lang.keyword(str(f["restriction"]))
        return f"restrict_{e.get('until')}"
    if kind == "power" and e.get("until") == "end_turn":
        f["amount"] = _amount(e.get("amount"))
        return "power_turn"
    return kind


class _Missing(dict):
    """Fields for a Japanese sentence; one the event lacks reads as nothing."""

    def __missing__(self, key: str) -> str:
        return ""


_HYPER_FLIPS = {"hyper": "releases its hyper mode", "hyper_end": "is out of hyper mode"}


def _check_move(e: Event) -> bool:
    """A card of a shield check going to the hand (SC3)."""
    return e.kind == "move" and e.rule == "SC3" and e.get("from") == "shields" and e.get("to") == "hand"
